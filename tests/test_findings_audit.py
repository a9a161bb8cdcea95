"""The findings audit: every sentence a page prints is true for the run that printed it.

For each chapter, hypothesis draws parameter sets from the notebook's declared domain (combinations of every
parameter, at bounded sizes: ``Parameter.audit``), runs the chapter's library pipeline (what the notebook
shows, without a kernel), exports its tables to CSV and reads them back, and checks every fact of every finding
with this file's own interpreter of the facts' queries -- not the code that wrote the sentence:

* the fact's value re-derived from the exported CSV (a cell, a count, a sum, the first row in an order ...), from
  the facts it is derived from (a difference, a ratio, a comparison), from the run's parameters or rules;
* the text shown for it is in the sentence and is the value as its unit writes it (a percentage rounds to the
  value, a count is the count);
* the sentence reads right: no leftover template words, plurals that agree, "two dice" only with two dice, no
  sentence longer than a paragraph;
* chapter by chapter, the claims themselves re-derived from the raw tables (a threshold holds on every board,
  the best seat is the one with the largest winnings ...) and, where cheap, values against the reference
  solver of ``tests/reference.py``.

A finding that cannot be checked this way is a finding to rewrite.
"""

from __future__ import annotations

import importlib
import itertools
import math
import operator
import os
import re
from dataclasses import replace
from fractions import Fraction

import pandas as pd
import pytest
from depth import QUICK
from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st
from reference import (
    boards_one_roll_wins,
    boards_that_can_arise,
    dice_options,
    dice_totals,
    is_won,
    moves,
    outcomes,
    positions,
    reachable_states,
    reference_solver,
    reference_value,
    sequences_by_moves,
    tile_name,
    winning_sequences,
)
from table_references import TABLE_CHECKS, check_tables

from stb_core import Rules
from stb_core.report.catalogue import CHAPTERS
from stb_core.report.dictionary import schema_of
from stb_core.report.exports import save_table
from stb_core.report.lint import lint_text
from stb_core.report.page import notebook_defaults, rules_of
from stb_core.report.parameters import DOMAINS, ParameterError
from stb_core.sources.findings import merge
from stb_core.sources.words import GOAL_ALONE, READER_NAMES

NUMBER_WORDS = {"no": 0, "none": 0, "neither": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
RTOL = 1e-9
MAX_SENTENCE = 900  # characters: a paragraph, not a page


# -- drawing parameters from a notebook's domain ---------------------------------------------------------
@st.composite
def parameter_sets(draw, stem: str) -> dict:
    """A parameter set of ``stem``'s domain, every parameter drawn (bounded by its ``audit`` value)."""
    domain, values = DOMAINS[stem], {}
    for p in domain.parameters:
        if p.choices is not None or p.samples is not None:
            values[p.name] = draw(st.sampled_from(p.choices if p.choices is not None else p.samples))
        elif p.kind is int:
            values[p.name] = draw(st.integers(int(p.low), int(p.audit_high)))
        elif p.kind is float:
            values[p.name] = draw(st.one_of(st.sampled_from([float(p.low), float(p.audit_high)]),
                                            st.floats(p.low, p.audit_high, allow_nan=False).map(lambda x: round(x, 3))))
    for p in domain.parameters:
        if p.kind is str and p.choices is None and p.samples is None:  # a board of this run's tiles (empty: full)
            tiles = values.get("tiles", 9)
            chosen = draw(st.lists(st.integers(1, tiles), unique=True, max_size=tiles).map(sorted))
            values[p.name] = ",".join(map(str, chosen))
    try:
        return domain.check(values)
    except ParameterError:
        assume(False)


def pipeline(stem: str, values: dict):
    """The chapter's parts for these parameters: its module's ``pipeline(rules, **the other parameters)``."""
    chapter = next(c for c in CHAPTERS if c.stem == stem)
    module = importlib.import_module(f"stb_core.sources.{chapter.module}")
    rules = rules_of(values)
    others = {k: v for k, v in values.items() if k not in rules.__dataclass_fields__}
    return rules, merge(module.pipeline(rules, **others))


def exported(whole, run: str) -> dict[str, pd.DataFrame]:
    """Every table of the run written as the page writes it (every column with the meaning its data package gives
    it: the build stops on one without), and read back as a reader would."""
    tables = {}
    for name, frame in whole.tables.items():
        schema_of(name, frame)
        path = save_table(frame, run, name)
        tables[name] = pd.read_csv(path)
    return tables


# -- this file's own interpreter of a fact ---------------------------------------------------------------
def as_exact(value):
    """An int, or a fraction written ``p/q``, as a Fraction (None for anything else)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str) and re.fullmatch(r"-?\d+(/\d+)?", value):
        return Fraction(value)
    return None


def missing(value) -> bool:
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


def same(a, b) -> bool:
    if missing(a) and missing(b):
        return True
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b) and isinstance(a, bool | int) and isinstance(b, bool | int)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=RTOL, abs_tol=1e-12)
    exact_a, exact_b = as_exact(a), as_exact(b)
    if exact_a is not None and exact_b is not None:
        return exact_a == exact_b
    if isinstance(a, float) and exact_b is not None or isinstance(b, float) and exact_a is not None:
        return math.isclose(float(exact_a if exact_a is not None else a), float(exact_b if exact_b is not None else b),
                            rel_tol=RTOL, abs_tol=1e-12)  # a fraction column a reader's CSV parser read as floats
    return str(a) == str(b)


def select(frame: pd.DataFrame, where) -> pd.DataFrame:
    for column, op, value in where or []:
        series = frame[column]
        if op == "in":
            keep = series.isin(value)
        elif op == "==":
            keep = series.map(lambda x, v=value: same(x, v))
        elif op == "!=":
            keep = ~series.map(lambda x, v=value: same(x, v))
        else:
            keep = {"<": series < value, "<=": series <= value, ">": series > value, ">=": series >= value}[op]
        frame = frame[keep.astype(bool).to_numpy()]
    return frame


def ordered(frame: pd.DataFrame, order) -> pd.DataFrame:
    for column, direction in reversed(order or []):
        frame = frame.sort_values(column, ascending=direction == "asc", kind="stable")
    return frame


def relation(a, b) -> str:
    exact_a, exact_b = as_exact(a), as_exact(b)
    if exact_a is not None and exact_b is not None:
        return "the same" if exact_a == exact_b else ("more" if exact_a > exact_b else "less")
    a, b = float(a), float(b)
    if abs(a - b) <= RTOL * max(abs(a), abs(b)):
        return "the same"
    return "more" if a > b else "less"


def rederive(fact: dict, facts: dict, tables: dict, values: dict, rules: Rules):
    """The value of ``fact``, worked out again from the exported tables (or the run's parameters and rules)."""
    if "table" in fact:
        assert fact["table"] in tables, f"fact {fact['name']} reads {fact['table']}.csv, which the run did not export"
        rows = select(tables[fact["table"]], fact.get("where"))
        agg, column = fact["agg"], fact.get("column")
        if agg == "count":
            return len(rows)
        if agg == "value":
            assert len(rows) == 1, f"fact {fact['name']}: {len(rows)} rows match {fact.get('where')}"
            return _plain(rows[column].iloc[0])
        if agg in ("first", "list"):
            rows = ordered(rows, fact.get("order"))
            assert agg == "list" or len(rows), f"fact {fact['name']}: no row matches"
            return _plain(rows[column].iloc[0]) if agg == "first" else [_plain(v) for v in rows[column]]
        if agg == "nunique":
            return int(rows[column].nunique())
        if agg == "all":
            return all(bool(v) for v in rows[column])
        if agg == "any":
            return any(bool(v) for v in rows[column])
        numbers = [float(v) for v in rows[column]]
        assert numbers, f"fact {fact['name']}: no row matches"
        return {"sum": math.fsum, "max": max, "min": min, "mean": lambda x: math.fsum(x) / len(x),
                "median": lambda x: float(pd.Series(x).median())}[agg](numbers)
    if "derive" in fact:
        a, b = (rederive(facts[name], facts, tables, values, rules) for name in fact["of"])
        derive = fact["derive"]
        if derive == "relation":
            return relation(a, b)
        if derive == "equal":
            if isinstance(a, str) and isinstance(b, str) and as_exact(a) is None:
                return a == b
            return relation(a, b) == "the same"
        exact_a, exact_b = as_exact(a), as_exact(b)
        if exact_a is not None and exact_b is not None and derive == "difference":
            return exact_a - exact_b
        a, b = float(a), float(b)
        return a - b if derive == "difference" else (a / b if b else math.nan)
    if "parameter" in fact:
        return values[fact["parameter"]]
    if "rules" in fact:
        return getattr(rules, fact["rules"])
    raise AssertionError(f"fact {fact['name']} says where it comes from in no known way: {fact}")


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def shown_matches(fact: dict) -> bool:
    """Whether the text shown for a fact is its value as its unit writes it."""
    shown, value, unit, decimals = fact["shown"], fact["value"], fact["unit"], fact.get("decimals")
    if unit == "pp_abs":  # a cost in per cent of a stake, or from ten stakes up in stakes
        scale = 1 if shown.endswith(" stakes") else 100
        return abs(float(shown.split()[0].rstrip("%").replace(",", "")) - abs(scale * float(value))) <= \
            0.5 * 10 ** -(decimals or 0) + 1e-9
    if unit in ("percent", "pp", "number", "share", "hundredths"):
        if shown.startswith(">") and unit == "percent" and float(value) > 0.5:  # short of certain: >99.9%
            return 100 - 10 ** -decimals < 100 * float(value) < 100
        if shown.startswith(("<", ">")):
            return 0 < abs(float(value)) * (100 if unit in ("percent", "pp") else 1) < 10 ** -decimals
        digits = re.search(r"[−+-]?[\d,]*\.?\d+", shown)
        number = float(digits.group(0).replace("−", "-").replace(",", ""))
        scale = 100 if unit in ("percent", "pp", "hundredths") and not shown.endswith(" stakes") else 1
        return abs(number - scale * float(value)) <= 0.5 * 10 ** -(decimals or 0) + 1e-9 * abs(number)
    if unit == "integer":
        return _count_in(shown, value)
    if unit == "roll":  # a total, or dice written 3,4: the same numbers in the same order
        return re.findall(r"\d+", shown) == re.findall(r"\d+", str(value))
    if unit == "sets":
        return shown == str(value).replace("[", "{").replace("]", "}")
    if unit == "name":
        return shown == READER_NAMES.get(value, value)
    if unit == "play":
        return shown == GOAL_ALONE.get(value, READER_NAMES.get(value, value))
    if unit == "fraction":
        return as_exact(shown.replace("−", "-")) == as_exact(value) or same(shown, value)
    if isinstance(value, bool) or isinstance(value, list):
        return True  # a word or a list rendered in prose: its value is checked, its wording by the claim checks
    if isinstance(value, int):
        return _count_in(shown, value)
    if isinstance(value, str):
        return value in shown or shown in value
    return True


def _count_in(shown: str, count) -> bool:
    words = re.findall(r"[\d,]+|[a-z]+", shown.lower())
    found = [int(w.replace(",", "")) for w in words if w.replace(",", "").isdigit()]
    found += [NUMBER_WORDS[w] for w in words if w in NUMBER_WORDS]
    return int(count) in found or (count != 0 and {"all", "both", "every"} & set(words)) or (
        count == 1 and {"the", "only"} <= set(words))


# -- how a sentence reads ----------------------------------------------------------------------------------
NOUNS = ("board", "pair", "tile", "move", "game", "row", "state", "decision", "player", "seat", "card", "line",
         "exception", "group", "strategy", "sum", "roll")


def check_wording(text: str, rules: Rules) -> None:
    assert len(text) <= MAX_SENTENCE, f"a finding of {len(text)} characters: {text[:200]}..."
    for leftover in ("None", "nan", "NaN", "inf", "[]", "  ", " ,", " .", "$$"):
        assert leftover not in text, (leftover, text)
    singular = "|".join(NOUNS)
    assert not re.search(rf"(?<![\d,.])\b1 ({singular})(e?s)\b", text), f"1 with a plural: {text}"
    assert not re.search(rf"(?<![\d,.−-])\b([02-9]|\d{{2,}}) ({singular})\b(?![-\w’'])", text.replace(",", "")), \
        f"a plural count with a singular noun: {text}"
    assert not re.search(r"\ba (8|11|18|8\d)\b", text), f"'a 8': {text}"
    if re.search(r"\btwo dice\b", text):
        assert rules.dice == 2, f"'two dice' said of {rules.dice} dice: {text}"
    problems = lint_text(text, rules=rules)  # the page linter's rules, on every sentence of every drawn run
    assert not problems, problems


def case(stem: str, **values) -> dict:
    """A parameter set from the notebook's quick base: the runs the reruns issue found printing false sentences
    are audited this way, every time, beside the drawn ones."""
    return {**notebook_defaults(stem), **DOMAINS[stem].quick, **values}


def audit(stem: str, values: dict, tmp_path_factory, claims=None):
    """Run the chapter's pipeline on ``values`` and check every finding; return what a claim check needs."""
    rules, whole = pipeline(stem, values)
    run = f"audit-{stem}"
    tables = exported(whole, run)
    assert whole.findings, f"{stem}: no finding at all for {values}"
    for finding in whole.findings.values():
        record = finding.record()
        text = record["text"]
        assert record["facts"], f"{stem}: finding {record['key']} states nothing checkable: {text}"
        facts = {f["name"]: f for f in record["facts"]}
        for fact in record["facts"]:
            assert not (isinstance(fact["value"], float) and math.isnan(fact["value"])), (record["key"], fact)
            again = rederive(fact, facts, tables, values, rules)
            assert same(again, fact["value"]), (stem, record["key"], fact["name"], again, fact["value"], values)
            blank = fact["value"] == "" and isinstance(again, float) and math.isnan(again)  # CSV reads "" as NaN
            for op, bound in fact.get("requires", []):  # the sentence's preconditions, on the value re-derived
                assert PRECONDITIONS[op]("" if blank else again, bound), (stem, record["key"], fact["name"], op,
                                                                          bound, again, text)
            if fact["shown"]:
                assert fact["shown"] in text, (record["key"], fact["shown"], text)
                assert shown_matches(fact), (stem, record["key"], fact, text)
        check_wording(text, rules)
    for key, check in (claims or {}).items():
        if key in whole.findings:
            check(whole.findings[key].record(), tables, values, rules)
    check_tables(stem, tables, values, rules)  # every cell, against the reference (small boards)
    return rules, whole, tables


PRECONDITIONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                 ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


def fact(record: dict, name: str):
    return next(f["value"] for f in record["facts"] if f["name"] == name)


# STB_AUDIT_FRESH=1: a fresh fuzz -- new draws on every run, three times as many (make test keeps the same draws)
FRESH = 3 if os.environ.get("STB_AUDIT_FRESH") else 0


def examples(n: int) -> int:
    """Draws per chapter: ``n``, three times as many in a fresh fuzz, one in the quick loop (``make check``)."""
    return 1 if QUICK else n * (FRESH or 1)


AUDIT = settings(max_examples=examples(8), deadline=None, derandomize=not FRESH, database=None,
                 # the quick loop draws one run per chapter and leaves the explicit cases to make test; a failing draw
                 # is reported as drawn: no slow shrinking
                 phases=(Phase.generate,) if QUICK else (Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                        HealthCheck.filter_too_much])


# -- chapter 1 ---------------------------------------------------------------------------------------------
def counts_are_the_reference(record, tables, values, rules):
    """The full board's sequences, by the reference's own recursion (which counts all lengths together)."""
    if rules.tiles <= 7:
        total = winning_sequences(rules)(frozenset(range(1, rules.tiles + 1)))
        assert int(tables["counts-by-moves"]["sequences"].astype(object).sum()) == total
        if total:
            assert same(fact(record, "total"), total)


def counts_by_length_are_the_reference(record, tables, values, rules):
    """Every count of the tables, length by length, by the reference's recursion (one-die rules, caps and thresholds
    included: a step is a throw of the dice the player may roll there)."""
    if len(positions(rules)) <= 10:
        count = sequences_by_moves(rules)
        full = frozenset(positions(rules))
        for row in tables["counts-by-moves"].itertuples():
            assert int(row.sequences) == count(full, int(row.moves)), ("full board", row.moves)
        if values.get("board"):
            board = frozenset(int(t) for t in values["board"].split(","))
            for row in tables["counts-for-board"].itertuples():
                assert int(row.sequences) == count(board, int(row.moves)), (board, row.moves)


def one_move_sets_by_brute_force(record, tables, values, rules):
    """The sets of distinct numbers adding up to each total the dice can show (one die's too, where a rule lets it be
    rolled), counted by trying every set of 1..total."""
    rolled = {rules.dice} | ({1} if rules.one_die != "never" else set())
    totals = sorted({t for d in rolled for t in dice_totals(d, rules.sides)})
    if max(totals) > 24:
        return
    sets = on_board = 0
    for total in totals:
        for size in range(1, total + 1):
            for subset in itertools.combinations(range(1, total + 1), size):
                if sum(subset) == total:
                    sets += 1
                    on_board += max(subset) <= rules.tiles
    assert fact(record, "sets") == sets and fact(record, "on_board") == on_board
    if len(positions(rules)) <= 10:
        one_roll = boards_one_roll_wins(rules)
        assert fact(record, "one_move_boards") == len(one_roll)
        reached = len(one_roll & reachable_states(rules))
        assert fact(record, "one_move_boards_reached") == reached
        assert (f"{reached:,} of which" in record["text"] or reached == 0 and "none of which" in record["text"]) \
            == (reached < len(one_roll))
    if rules.moves == "sum" and rules.max_per_move is None and rules.win_at_most == 0 and not rules.has_one_die_rule:
        assert fact(record, "one_move_boards") == on_board  # the boards one roll clears are exactly those sets
        assert "exactly those sets" in record["text"]


def example_moves_are_the_reference(record, tables, values, rules):
    legal = moves(rules, frozenset((1, 3, 4, 6, 7)), 7)
    assert fact(record, "moves") == ["{" + ", ".join(map(str, m)) + "}" for m in legal]


def rule_loss_is_the_reference(record, tables, values, rules):
    if rules.tiles <= 6:
        rule = reference_value(rules, "win", "sequence-count")
        best = reference_value(rules, "win", "optimal")
        assert same(fact(record, "p_win_rule"), float(rule)) and same(fact(record, "p_win_optimal"), float(best))
        lost_nothing = "loses nothing" in record["text"] or "nothing to lose" in record["text"]
        assert lost_nothing == (rule == best)  # said where the rule wins as often as optimal play, and only there
        never_moves = best == 0 or is_won(rules, frozenset(positions(rules)))  # never won, or won before a roll
        assert ("nothing to lose" in record["text"]) == never_moves


@given(values=parameter_sets("01-sequence-counts"))
@example(values=case("01-sequence-counts", tiles=9, one_die="sum-le-4", one_die_forced=True, max_per_move=2,
                     board="1,4,9"))  # counts that ignored the one-die rule (issue 36: {1, 4, 9} has 144 in 3 moves)
@example(values=case("01-sequence-counts", tiles=9, max_per_move=2))  # "the difference is" sets against boards
@example(values=case("01-sequence-counts", tiles=8, win_at_most=4, one_die="high-shut"))  # boards one roll wins
@example(values=case("01-sequence-counts", board="1,3,4,6,7"))
@example(values=case("01-sequence-counts", sides=4, win_at_most=2))  # one roll wins boards no game reaches (issue 36)
@example(values=case("01-sequence-counts", tiles=13, board="13"))
@example(values=case("01-sequence-counts", board="1"))
@example(values=case("01-sequence-counts", tiles=4, sides=4, one_die="high-shut"))  # its costliest: a dice choice
@AUDIT
def test_chapter_1(values, tmp_path_factory):
    audit("01-sequence-counts", values, tmp_path_factory,
          {"counts": lambda *a: (counts_are_the_reference(*a), counts_by_length_are_the_reference(*a)),
           "one-move": one_move_sets_by_brute_force,
           "example": example_moves_are_the_reference, "rule-loss": rule_loss_is_the_reference})


# -- chapter 3 ---------------------------------------------------------------------------------------------
def scores_are_the_reference(record, tables, values, rules):
    """Traditional scores (the tile total minus the sum left) of optimal, worst and highest-tile play."""
    if rules.tiles <= 6:
        for column, policy in (("optimal", "optimal"), ("worst", "worst"), ("highest_tile", "highest-tile")):
            expected = rules.total - reference_value(rules, "remaining-sum", policy)
            assert same(fact(record, f"traditional_{column}"), float(expected)), column


def exceptions_follow_the_tolerance(record, tables, values, rules):
    """Genuine exceptions are exactly those whose points lost exceed the run's tolerance."""
    table = tables["exceptions"]
    genuine = table["Points Lost"] > values["tolerance"]
    assert ((table["Kind"] == "genuine") == genuine).all()
    assert ("No genuine exception" in record["text"]) == (not genuine.any())


def hypothesis_verdict(record, tables, values, rules):
    holds = "the hypothesis holds" in record["text"]
    assert holds == (len(tables["highest-tile-decision-losses"]) == 0)
    if rules.tiles <= 6:
        assert holds == (reference_value(rules, "remaining-sum", "highest-tile")
                         == reference_value(rules, "remaining-sum", "optimal"))


def nine_moves_are_the_reference(record, tables, values, rules):
    """The first roll of 9's moves: under the sum rule the sets of open tiles adding up to 9; under a rule reading the
    dice, each throw totalling 9 (in any order) with its own moves -- by the reference's move generator."""
    full = frozenset(positions(rules))
    throws = [9] if rules.moves == "sum" else sorted(o for o in outcomes(rules, rules.dice) if sum(o) == 9)
    expected = {(",".join(map(str, o)) if rules.moves != "sum" else "9", "{" + ", ".join(map(str, m)) + "}")
                for o in throws for m in moves(rules, full, o)}
    table = tables["roll-9-moves"]
    assert {(str(r), str(m)) for r, m in zip(table["roll"], table["move"], strict=True)} == expected


def exhibit_g_rolls_can_be_thrown(record, tables, values, rules):
    """Every (board, roll) of Exhibit G is one a player can face: the board not won, the roll one the dice the rules
    let them roll there can show, and a legal move for it (the reference's dice and moves)."""
    if "exhibit-G" not in tables:
        return
    for row in tables["exhibit-G"].itertuples():
        board = frozenset(int(t) for t in str(row[2]).split() if t != "-")
        roll = row.Roll if rules.moves == "sum" else tuple(int(d) for d in str(row.Roll).split(","))
        assert not is_won(rules, board), board
        assert any(roll in outcomes(rules, d) for d in dice_options(rules, board)), (board, roll)
        assert moves(rules, board, roll), (board, roll)


@given(values=parameter_sets("03-open-and-shut"))
@example(values=case("03-open-and-shut", tiles=9, moves="die-or-sum"))  # a code read as a total (issue 36)
@example(values=case("03-open-and-shut", tiles=6, one_die="sum-le-7", one_die_forced=True, win_at_most=4))  # roll 1
@example(values=case("03-open-and-shut", dice=4, sides=3))
@example(values=case("03-open-and-shut", tiles=5))
@example(values=case("03-open-and-shut", tolerance=1.0))
@example(values=case("03-open-and-shut", tiles=2, sides=2, one_die="high-shut", max_per_move=2, win_at_most=1))
@example(values=case("03-open-and-shut", tiles=7, one_die="sum-le-6"))
@AUDIT
def test_chapter_3(values, tmp_path_factory):
    audit("03-open-and-shut", values, tmp_path_factory,
          {"scores": scores_are_the_reference, "exceptions": exceptions_follow_the_tolerance,
           "verdict": hypothesis_verdict, "roll-9": nine_moves_are_the_reference,
           "cases": exhibit_g_rolls_can_be_thrown})


# -- chapter 4 ---------------------------------------------------------------------------------------------
def states_by_search(record, tables, values, rules):
    assert fact(record, "states") == len(reachable_states(rules))


def rows_by_search(record, tables, values, rules):
    """One row per legal move of each (state, roll), or one row when no move is legal."""
    rows = sum(max(1, len(moves(rules, board, roll))) for board in reachable_states(rules)
               for roll in {r for dice in dice_options(rules, board) for r in dice_totals(dice, rules.sides)})
    assert fact(record, "rows") == rows


def part2_is_the_reference(record, tables, values, rules):
    if rules.tiles <= 6:
        assert same(fact(record, "p_win"), float(reference_value(rules, "win")))


@given(values=parameter_sets("04-game-space"))
@example(values=case("04-game-space", tiles=8, win_at_most=10, dice=3))
@example(values=case("04-game-space", win_at_most=55))
@example(values=case("04-game-space", tiles=6, win_at_most=21, sides=3))  # won before the first roll (issue 36)
@example(values=case("04-game-space", tiles=7, win_at_most=11, max_per_move=1))  # "no rival group offer" (issue 36)
@AUDIT
def test_chapter_4(values, tmp_path_factory):
    audit("04-game-space", values, tmp_path_factory,
          {"states": states_by_search, "space": rows_by_search, "part2": part2_is_the_reference})


# -- chapter 5 ---------------------------------------------------------------------------------------------
def least_sum_is_the_reference(record, tables, values, rules):
    if rules.tiles <= 6:
        assert same(fact(record, "full_value"), float(reference_value(rules, "remaining-sum")))


def example_action_by_search(record, tables, values, rules):
    """The legal actions in the source's order (by number of tiles, then lexicographic), and the optimal: every one
    of them with the least expected cost after it, in that order."""
    five = frozenset(range(1, min(5, rules.tiles) + 1))
    if is_won(rules, five):
        assert "already" in record["text"]
        return
    if 8 not in {o for d in dice_options(rules, five) for o in dice_totals(d, rules.sides)}:
        assert "cannot show an 8" in record["text"]
        return
    legal = sorted(moves(rules, five, 8), key=lambda m: (len(m), m))
    assert fact(record, "actions") == ["{" + ", ".join(map(str, m)) + "}" for m in legal]
    if legal and rules.tiles <= 6:
        value = reference_solver(rules, "remaining-sum")[0]
        least = min(value(five - set(m)) for m in legal)
        best = [m for m in legal if value(five - set(m)) == least]
        assert fact(record, "optimal_actions") == ["{" + ", ".join(map(str, m)) + "}" for m in best]


def objectives_by_the_reference(record, tables, values, rules):
    """From {1, 4, 5, 8} with a 9: what each objective prefers, by the reference values of the two boards a 9 can leave
    (the least expected sum; the chance of winning, higher is better): "disagree" only where they strictly prefer
    different moves, "agree" where they prefer the same, "indifferent" where one of them has no preference."""
    win = reference_solver(rules, "win")[0]
    cost = reference_solver(rules, "remaining-sum")[0]
    left_18, left_45 = frozenset({1, 8}), frozenset({4, 5})
    by_win = (win(left_45) > win(left_18)) - (win(left_45) < win(left_18))     # +1: shut {1, 8} (leave {4, 5})
    by_cost = (cost(left_45) < cost(left_18)) - (cost(left_45) > cost(left_18))  # +1: shut {1, 8}
    text = record["text"]
    assert ("the two objectives disagree," in text) == (by_win * by_cost == -1), text
    assert ("they agree here" in text) == (by_win * by_cost == 1), text
    assert ("indifferent" in text) == (by_win * by_cost == 0), text


def exceptions_are_the_reference(record, tables, values, rules):
    """The (state, roll) pairs where the optimal action -- the first in the source's order (fewest tiles, then
    lexicographic) among the least expected sums, by the reference -- does not shut the largest tile a legal action
    could, over every board in play and every roll its dice can show; and how many are on boards a game reaches."""
    if len(positions(rules)) > 8:
        return
    value = reference_solver(rules, "remaining-sum")[0]
    reached, count, on_reached = reachable_states(rules), 0, 0
    for size in range(1, len(positions(rules)) + 1):
        for board in map(frozenset, itertools.combinations(positions(rules), size)):
            if is_won(rules, board):
                continue
            for roll in sorted({o for d in dice_options(rules, board) for o in outcomes(rules, d)}):
                legal = sorted(moves(rules, board, roll), key=lambda m: (len(m), m))
                if legal:
                    best = min(legal, key=lambda m: value(board - set(m)))
                    if max(best) != max(max(m) for m in legal):
                        count, on_reached = count + 1, on_reached + (board in reached)
    assert len(tables["largest-tile-exceptions"]) == count
    if count:
        assert fact(record, "exceptions") == count
        assert (f"{on_reached:,} of" in record["text"] or "none of" in record["text"]) == (on_reached < count)


@given(values=parameter_sets("05-expected-cost-mdp"))
@example(values=case("05-expected-cost-mdp", sides=8, max_per_move=2, win_at_most=6))  # "disagree" on a tie (issue 36)
@example(values=case("05-expected-cost-mdp", tiles=12, win_at_most=78))  # won before the first roll: "are , leaving"
@example(values=case("05-expected-cost-mdp", tiles=2))  # no board {4, 5} to speak of (a fresh fuzz: IndexError)
@example(values=case("05-expected-cost-mdp", one_die="sum-le-20", one_die_forced=True))  # a roll one die cannot show
@example(values=case("05-expected-cost-mdp", tiles=12))
@example(values=case("05-expected-cost-mdp", tiles=5))  # an exception on a board no game reaches (issue 36)
@AUDIT
def test_chapter_5(values, tmp_path_factory):
    audit("05-expected-cost-mdp", values, tmp_path_factory,
          {"full-board": least_sum_is_the_reference, "example-action": example_action_by_search,
           "one-four-five-eight": objectives_by_the_reference, "exceptions": exceptions_are_the_reference})


# -- chapter 6 ---------------------------------------------------------------------------------------------
VARIANT_RULES = {"all-dice": {}, "high-shut": {"one_die": "high-shut"}, "pub-allowed": {"one_die": "sum-le-6"},
                 "pub-forced": {"one_die": "sum-le-6", "one_die_forced": True},
                 "two-per-roll": {"max_per_move": 2, "one_die": "sum-le-6"}, "won-at-3": {"win_at_most": 3}}


def variants_are_the_reference(record, tables, values, rules):
    """Each variant's optimal chance of winning on small boards, from the reference solver on the rules the
    variant names (written out here, not taken from the library), on the run's board and move rule."""
    rows = tables["variants"].query("objective == 'win' and policy == 'optimal' and tiles <= 5")
    for row in rows.itertuples():
        game = replace(rules, tiles=row.tiles) if row.variant == "this-run" else \
            Rules(tiles=row.tiles, dice=rules.dice, sides=rules.sides, layout=rules.layout, moves=rules.moves,
                  **VARIANT_RULES[row.variant])
        assert same(row.value, float(reference_value(game, "win"))), row
    if len(rows) and rules.tiles <= 5:  # the run's own game is among those the range runs over
        own = float(reference_value(rules, "win"))
        assert fact(record, "lowest_value") <= own + 1e-12 and own <= fact(record, "highest_value") + 1e-12


def recommended_card_by_its_rule(record, tables, values, rules):
    """The simplest card within the margin (fewest lines, least loss, then name), else the best of all."""
    cards = tables["strategy-cards"]
    target = cards[cards["objective"] == values["card_objective"]]
    close = target[target["loss_percent"] <= values["margin_percent"]]
    chosen = (close.sort_values(["lines", "loss", "card"]) if len(close) else
              target.sort_values(["loss", "lines", "card"])).iloc[0]["card"]
    assert fact(record, "card_card") == chosen and f"“**{chosen}**”" in record["text"]


def more_tiles_are_the_reference(record, tables, values, rules):
    for row in tables["more-tiles"].query("tiles <= 5").itertuples():
        game = replace(rules, tiles=row.tiles, dice=row.dice)  # the run's rules on each board size
        assert same(row.p_win, float(reference_value(game, "win"))), row


@given(values=parameter_sets("06-whole-map"))
@example(values=case("06-whole-map", tiles=6, moves="die-or-sum"))  # Table 6.5 is chapter 1's game, and says so
@example(values=case("06-whole-map", layout="double-shutter", tiles=5, max_tiles=6))
@example(values=case("06-whole-map", dice=1, sides=12))
@example(values=case("06-whole-map", tiles=4, dice=3, sides=2, one_die="sum-le-6", one_die_forced=True,
                     win_at_most=1, max_tiles=7, card_objective="remaining-sum"))  # '0 on 3 tile' (a fresh fuzz)
@example(values=case("06-whole-map", tiles=4, dice=3, sides=2, one_die="high-shut", one_die_forced=True,
                     max_per_move=3, win_at_most=1, layout="double-shutter", compare_tiles=6, max_tiles=2))
@example(values=case("06-whole-map", tiles=6, moves="die-or-sum", one_die="sum-le-4"))  # the rules chapter 6 refused
@example(values=case("06-whole-map", tiles=6, one_die="sum-le-3", card_lines=1))  # the fewest-tiles card's dice
@settings(AUDIT, max_examples=examples(5))
def test_chapter_6(values, tmp_path_factory):
    audit("06-whole-map", values, tmp_path_factory,
          {"variants": variants_are_the_reference, "recommended-card": recommended_card_by_its_rule,
           "more-tiles": more_tiles_are_the_reference})


# -- chapter 7 ---------------------------------------------------------------------------------------------
def best_seat_by_its_winnings(record, tables, values, rules):
    seats = tables["seats"]
    assert abs(seats["expected_payoff"].sum()) < 1e-12  # the pot changes hands: payoffs add up to zero
    if seats["expected_payoff"].max() - seats["expected_payoff"].min() > 1e-12:
        best = int(seats.loc[seats["expected_payoff"].idxmax(), "seat"])
        assert f"the best seat is **seat {best}**" in record["text"]
    if rules.tiles <= 3 and values["players"] <= 3:
        from reference_players import reference_round

        expected = reference_round(rules, values["players"], values["scoring"], Fraction(values["shut_pays"]))
        for seat, payoff in zip(seats["seat"], seats["expected_payoff"], strict=True):
            assert same(payoff, float(expected["expected_payoff"][seat - 1]))


@given(values=parameter_sets("07-pub-game"))
@example(values=case("07-pub-game", shut_pays=2.5))
@example(values=case("07-pub-game", tiles=5, dice=1, sides=4, shut_pays=1.0, players=2, max_players=2))  # board 5 shut
@example(values=case("07-pub-game", tiles=3, players=3, max_players=3, one_die="sum-le-3"))  # the seats' tables,
@example(values=case("07-pub-game", tiles=2, layout="double-shutter", max_players=3, win_at_most=1))  # by recursion
@settings(AUDIT, max_examples=examples(6))
def test_chapter_7(values, tmp_path_factory):
    audit("07-pub-game", values, tmp_path_factory, {"seats": best_seat_by_its_winnings})


# -- chapter 2 ---------------------------------------------------------------------------------------------
def riddler_value_is_the_reference(record, tables, values, rules):
    """The value, and the boards it says the solve values: those a game can show (on a Double Shutter 3^N)."""
    if rules.tiles <= 6:
        assert same(fact(record, "p_win"), float(reference_value(rules, "win")))
    if len(positions(rules)) <= 14:
        assert (tables["value-and-contrast"]["boards"] == boards_that_can_arise(rules)).all()


def riddler_threshold(record, tables, values, rules):
    """"Exactly when the numbers on the open tiles add up to t or less" (their face values, a Double Shutter's back
    row alike): one die better on every board at or below t, on none above."""
    match = re.search(r"exactly when the numbers on the open tiles add up to (\d+) or less", record["text"])
    choice = tables["dice-choice"]
    if match:
        t = int(match.group(1))
        assert (choice.loc[choice["open_sum"] <= t, "best"] == "one die").all()
        assert (choice.loc[choice["open_sum"] > t, "best"] != "one die").all()
    elif "never the better choice" in record["text"]:
        assert (choice["best"] != "one die").all()
    elif "on every board where the rules offer it" in record["text"]:
        assert (choice["best"] == "one die").all()
    else:
        assert "no single total separates" in record["text"]
        one = choice.groupby("open_sum")["best"].agg(lambda s: (s == "one die").mean())
        assert not ((one == 1).cumprod().sum() == (one > 0).sum() and ((one > 0) == (one == 1)).all())


# -- chapter 8 ---------------------------------------------------------------------------------------------
def heuristics_are_the_reference(record, tables, values, rules):
    """Each rule of thumb's chance of winning, by the reference solver's own policies."""
    if rules.tiles <= 6:
        for row in tables["heuristics"].itertuples():
            assert same(row.p_win, float(reference_value(rules, "win", row.policy))), row.policy


PRINTED_VARIANTS = {  # what each variant's name states, on the run's tiles, dice, sides, cap and threshold
    "classic": {}, "less-than-6": {"one_die": "sum-le-5"}, "pub": {"one_die": "sum-le-6"},
    "any-time": {"one_die": "sum-le-300"}, "thai": {"moves": "die-or-sum"},
    "double-shutter": {"layout": "double-shutter", "one_die": "sum-le-6"}}


def variants_of_print_are_the_reference(record, tables, values, rules):
    """Each variant's chance of winning and least expected score, by the reference solver, on the rules its name
    states (written out here: one row, tiles adding up to the roll, all the dice always, unless the name says
    otherwise), and its rules cell says so."""
    for row in tables["variants"].itertuples():
        spec = {"layout": "row", "moves": "sum", "one_die": "never", "one_die_forced": False,
                **PRINTED_VARIANTS[row.variant]}
        if row.variant == "thai":
            spec["dice"] = min(rules.dice, 2)
        game = replace(rules, **spec)
        assert bool(row.won_at_start) == is_won(game, frozenset(positions(game))), row
        if is_won(game, frozenset(positions(game))):  # no roll is thrown: the rules of play are not described
            assert "won before the first roll" in row.rules and "one die" not in row.rules, row
        else:
            if game.has_one_die_rule:
                assert "one die allowed" in row.rules and "forced" not in row.rules, row
            assert ("one tile a roll" in row.rules) == (row.variant == "thai"), row
        if len(positions(game)) <= 8:
            assert same(row.p_win, float(reference_value(game, "win"))), row.variant
            assert same(row.expected_score, float(reference_value(game, "remaining-sum"))), row.variant


def tile_named_as_the_board_names_it(record, tables, values, rules):
    """The tiles most often left standing are named as the board names them (a Double Shutter back tile: b2)."""
    names = {tile_name(rules, t) for t in positions(rules)}
    stays = fact(record, "stays_open")
    assert stays and {str(t) for t in stays} <= names, (stays, names)


def longest_game_by_the_rolls_table(record, tables, values, rules):
    """No game lasts longer than one roll per tile plus the last roll, and the probabilities of each policy add
    up to one."""
    counts = tables["roll-counts"]
    for _, group in counts.groupby("policy"):
        assert abs(group["probability"].sum() - 1) < 1e-9
    assert counts["rolls"].max() <= rules.positions + 1


@given(values=parameter_sets("08-in-print"))
@example(values=case("08-in-print", tiles=5, one_die="high-shut", one_die_forced=True, dice=4, sides=2))  # labels
@example(values=case("08-in-print", tiles=6, layout="double-shutter"))  # "tile 15" where the board has b2 (issue 36)
@example(values=case("08-in-print", dice=1, sides=12))  # one die: "0.62% less than (0.62%)", "a die or their sum"
@example(values=case("08-in-print", dice=3, sides=12))
@AUDIT
def test_chapter_8(values, tmp_path_factory):
    audit("08-in-print", values, tmp_path_factory,
          {"heuristics": heuristics_are_the_reference, "variants": variants_of_print_are_the_reference,
           "length": longest_game_by_the_rolls_table, "tiles-open": tile_named_as_the_board_names_it})


# -- chapter 9 ---------------------------------------------------------------------------------------------
def bounds_are_the_reference(record, tables, values, rules):
    """Knowing every throw bounds every way of playing, perfect play bounds the others, and on small boards each
    value is the reference solver's (the hindsight value the brute force's over every sequence of throws)."""
    from test_hindsight import brute_force

    bounds = tables["bounds"].set_index("play")["value"]
    sense = 1 if values["objective"] == "win" else -1
    played = bounds.drop("hindsight", errors="ignore")
    assert (sense * (played["optimal"] - played) >= -1e-12).all(), bounds
    if "hindsight" in bounds.index:
        assert (sense * (bounds["hindsight"] - bounds) >= -1e-12).all(), bounds
    if rules.tiles <= 5:
        for play in ("optimal", "random", "worst"):
            assert same(bounds[play], float(reference_value(rules, values["objective"], play))), play
    plain = rules.layout == "row" and rules.moves == "sum"  # the brute force's own game
    if "hindsight" in bounds.index and plain and rules.tiles <= 2 and rules.sides ** rules.dice <= 64:
        assert same(bounds["hindsight"], float(brute_force(rules, values["objective"])))


def luck_share_by_the_games(record, tables, values, rules):
    """Each share of the outcome's variance is the squared correlation of the exported games' luck and outcome."""
    summary = tables["luck-summary"].set_index("play")
    for play, games in tables["game-luck"].groupby("play"):
        if games["outcome"].std() > 0 and games["luck"].std() > 0:
            assert same(summary.loc[play, "luck_r2"], games["outcome"].corr(games["luck"]) ** 2), play
        assert abs(games["luck"].mean() - summary.loc[play, "mean_luck"]) < 1e-9
    start = float(tables["bounds"].set_index("play").loc["optimal", "value"])  # the full board's value: every start
    for game in tables["game-luck"].itertuples():  # the identity the sentence states, in the games exported
        if "start plus the luck" in record["text"] and game.loss == 0:
            assert abs(start + game.luck - game.outcome) < 1e-9, game
        if "start minus the luck" in record["text"] and game.loss == 0:
            assert abs(start - game.luck - game.outcome) < 1e-9, game


@given(values=parameter_sets("09-luck-and-skill"))
@example(values=case("09-luck-and-skill", tiles=1, dice=1, sides=2, one_die="high-shut", objective="remaining-sum"))
@example(values=case("09-luck-and-skill", tiles=2, dice=1, sides=3, objective="win"))
@example(values=case("09-luck-and-skill", tiles=5, sides=4, objective="remaining-sum"))  # start minus the luck
@example(values=case("09-luck-and-skill", tiles=1, dice=1, sides=2, win_at_most=3, layout="double-shutter",
                     objective="remaining-sum"))  # won before the first roll
@settings(AUDIT, max_examples=examples(6))
def test_chapter_9(values, tmp_path_factory):
    audit("09-luck-and-skill", values, tmp_path_factory,
          {"bounds": bounds_are_the_reference, "luck-share": luck_share_by_the_games})


@given(values=parameter_sets("02-riddler-one-die"))
@example(values=case("02-riddler-one-die", dice=4, sides=4))
@example(values=case("02-riddler-one-die", dice=2, sides=20))
@example(values=case("02-riddler-one-die", tiles=7, layout="double-shutter"))  # '18.49% against 18.49%' (a rerun fuzz)
@example(values=case("02-riddler-one-die", tiles=1, dice=3, sides=3, one_die="sum-le-6", win_at_most=2,
                     layout="double-shutter"))  # won before the first roll: no board offers the choice (a fresh fuzz)
@AUDIT
def test_chapter_2(values, tmp_path_factory):
    audit("02-riddler-one-die", values, tmp_path_factory,
          {"value": riddler_value_is_the_reference, "choice": riddler_threshold})


@pytest.mark.parametrize("stem", [c.stem for c in CHAPTERS])
def test_every_table_of_the_default_run_has_a_reference_or_a_reason(stem):
    """Each table the chapter writes (data/<stem>/*.csv, its notebook's own included) is recomputed cell by cell by
    the reference, or has the reason it is not (derived from checked tables, a simulation, other games)."""
    from pathlib import Path

    written = {path.stem for path in (Path(__file__).parent.parent / "data" / stem).glob("*.csv")}
    assert written <= set(TABLE_CHECKS[stem]), sorted(written - set(TABLE_CHECKS[stem]))


def test_every_chapter_is_audited():
    audited = {name.removeprefix("test_chapter_") for name in globals() if name.startswith("test_chapter_")}
    assert audited == {str(c.number) for c in CHAPTERS}


LONG_DEFAULTS = {"06-whole-map", "07-pub-game"}  # 15-25 s each: their default runs are make test's


@pytest.mark.parametrize("stem", [pytest.param(c.stem, marks=[pytest.mark.slow] if c.stem in LONG_DEFAULTS else [])
                                  for c in CHAPTERS])
def test_the_defaults_pass_the_audit(stem, tmp_path_factory):
    audit(stem, notebook_defaults(stem), tmp_path_factory)
