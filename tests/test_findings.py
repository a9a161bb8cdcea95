"""Findings: a sentence's facts and its preconditions (``Sentence.holds``), as the findings file keeps them."""

import pandas as pd
import pytest

from stb_core.sources.findings import Fact, Finding, Sentence, Table, parameter


def pairs_sentence(frame: pd.DataFrame) -> Finding:
    """A sentence whose wording depends on a count, as the chapters word theirs."""
    s = Sentence()
    count = Table("pairs", frame).count("pairs")
    if s.holds(count, ">", 0):
        text = f"The rule errs at {s(count)} pairs."
    else:
        text = "The rule never errs."
    return s.finding("errs", text)


def test_the_condition_that_picked_the_wording_is_kept():
    some, none = pairs_sentence(pd.DataFrame({"a": [1, 2]})), pairs_sentence(pd.DataFrame({"a": []}))
    assert some.text == "The rule errs at 2 pairs." and none.text == "The rule never errs."
    assert some.record()["facts"] == [{"name": "pairs", "value": 2, "shown": "2", "unit": "text", "table": "pairs",
                                       "agg": "count", "requires": [[">", 0]]}]
    assert none.record()["facts"][0]["requires"] == [["<=", 0]]  # the other wording: the negation
    assert none.record()["facts"][0]["shown"] == ""


def test_every_condition_and_its_negation():
    for op, bound, true, false in [("==", 2, 2, 3), ("!=", 2, 3, 2), ("<", 3, 2, 3), ("<=", 2, 2, 3),
                                   (">", 1, 2, 1), (">=", 2, 2, 1), ("in", ["win", "remaining-sum"], "win", "digits"),
                                   ("not in", ["digits"], "win", "digits")]:
        s, s2 = Sentence(), Sentence()
        assert s.holds(parameter("p", true), op, bound) is True and s2.holds(parameter("p", false), op, bound) is False
        assert not s.facts["p"].meets() and not s2.facts["p"].meets()  # each keeps the condition its value meets
        assert s.facts["p"].requires[0][0] == op and s2.facts["p"].requires[0][0] != op


def test_a_sentence_whose_precondition_fails_is_refused():
    """A fact carried into a finding with a condition its value breaks cannot make a finding: two players
    assumed, four at the table."""
    players = Fact("players", 4, parameter="players", requires=(("==", 2),))
    with pytest.raises(ValueError, match="finding 'seats' assumes players == 2 \\(it is 4\\)"):
        Finding("seats", "Going second costs 0.4 points.", (players,))


def test_one_fact_asked_twice_keeps_both_conditions_and_where_it_is_shown():
    s = Sentence()
    count = parameter("n", 3)
    s.holds(count, ">", 0)
    shown = s(count)
    s.holds(count, "!=", 1)
    finding = s.finding("k", f"{shown} boards")
    (fact,) = finding.facts
    assert fact.shown == "3" and fact.requires == ((">", 0), ("!=", 1))


def test_a_bad_condition_is_named():
    with pytest.raises(ValueError, match="op must be one of"):
        Sentence().holds(parameter("n", 1), "=>", 0)


def test_a_list_condition_holds_on_its_list():
    """``zero == []`` (no board size where the box cannot be shut) keeps its list, and the finding is made."""
    s = Sentence()
    assert s.holds(parameter("zero_tiles", []), "==", []) and not s.holds(parameter("sizes", [3]), "==", [])
    assert s.finding("k", "On every board.").record()["facts"][0]["requires"] == [["==", []]]
