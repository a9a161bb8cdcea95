"""The one verdict rule: hand-made cases for each way a source obtains a figure, one verdict per figure on every page
that shows it, and the published data carrying what the sources printed -- never a tolerance set by hand."""

import shutil
from fractions import Fraction

import pandas as pd
import pytest

from stb_core.report import checks
from stb_core.report.checks import Checks, load_published
from stb_core.report.paths import PUBLISHED_DIR
from stb_core.sources import published
from stb_core.sources.verdicts import CANNOT, CORRECTED, METHODS, OFF, REPRODUCED, Printed, judge


# -- each way of obtaining a figure --------------------------------------------------------------------------------
def test_an_exact_figure_is_its_value_at_the_printed_precision():
    exact = Fraction(956177159, 9795520512)  # the Riddler's 9.7614%
    assert judge(Printed("9.7614", "percent"), exact).verdict == REPRODUCED
    assert judge(Printed("9.7613", "percent"), exact).verdict == OFF
    assert judge(Printed("9.76", "percent"), exact).verdict == REPRODUCED
    assert judge(Printed("9.77", "percent"), exact).verdict == OFF
    assert judge(Printed("0.097614", "probability"), exact).verdict == REPRODUCED
    assert judge(Printed("956177159/9795520512"), exact).verdict == REPRODUCED
    assert judge(Printed("956177160/9795520512"), exact).verdict == OFF
    # a fraction against a value computed in floating point: equal to the float's rounding, not to 1e-9
    assert judge(Printed("956177159/9795520512"), float(exact)).verdict == REPRODUCED
    assert judge(Printed("956177160/9795520512"), float(exact)).verdict == OFF
    # cut off, where the source cuts digits off: 9.7659% cut to 2 decimals is 9.76, rounded 9.77
    assert judge(Printed("9.76", "percent", truncated=True), Fraction(97659, 1000000)).verdict == REPRODUCED
    assert judge(Printed("9.76", "percent"), Fraction(97659, 1000000)).verdict == OFF
    assert judge(Printed("{3, 5}"), "{3, 5}").verdict == REPRODUCED
    assert judge(Printed("{3, 5}"), "{4, 5}").verdict == OFF


def test_an_approximate_figure_rounds_at_its_last_non_zero_digit():
    assert judge(Printed("14800", method="approximate"), 14762.17).verdict == REPRODUCED
    assert judge(Printed("14800", method="approximate"), 14749.9).verdict == OFF
    assert judge(Printed("14800"), 14762.17).verdict == OFF  # printed as an exact whole number: it is not


def test_a_simulated_rate_is_judged_by_its_games():
    exact = 0.039091  # the most-sequences rule of source 000
    # 99.9% two-sided: 3.2905 standard errors of sqrt(p (1 - p) / n), in pp, plus half the printed last digit
    printed = Printed("3.88", "percent", "simulated", games=1_000_000)
    found = judge(printed, exact)
    assert found.verdict == REPRODUCED and "±0.069" in found.allowance and "1,000,000 games" in found.allowance
    assert judge(Printed("3.88", "percent", "simulated", games=100_000_000), exact).verdict == OFF  # far narrower
    assert judge(Printed("3.70", "percent", "simulated", games=1_000_000), exact).verdict == OFF
    unknown = judge(Printed("3.88", "percent", "simulated"), exact)
    assert "10,000 games (the source does not say)" in unknown.allowance


def test_a_simulated_mean_uses_the_exact_spread_of_one_game():
    printed = Printed("35.4", method="simulated", games=100_000)
    assert judge(printed, 35.3907, sd=14.0).verdict == REPRODUCED  # 3.29 x 14 / 316 + 0.05 = 0.196
    assert judge(printed, 35.3907, sd=1.0).verdict == REPRODUCED  # 0.0104 + 0.05 = 0.06
    assert judge(Printed("35.5", method="simulated", games=100_000), 35.3907, sd=1.0).verdict == OFF


def test_a_unit_test_s_value_is_judged_by_its_own_delta():
    assert judge(Printed("0.0097", method="test", delta=1e-4), 0.00978220172672603).verdict == REPRODUCED
    assert judge(Printed("0.0097", method="test", delta=1e-5), 0.00978220172672603).verdict == OFF
    with pytest.raises(ValueError, match="needs its delta"):
        Printed("0.0097", method="test")


def test_a_figure_reproduced_as_printed_stays_reproduced_whatever_the_source_printed_later():
    """"Corrected by the source" is said only of a first figure that is off: a first figure that holds is reproduced,
    even beside a later figure of the source's."""
    assert judge(Printed("9.76", unit="percent", corrected="9.8"), 0.097614).verdict == REPRODUCED
    assert judge(Printed("24.3448", method="test", delta=0.001, corrected="24.3445"), 24.3445).verdict == REPRODUCED


def test_a_figure_the_source_corrected_and_one_that_cannot_be_compared():
    later = Printed("14764.3168", method="test", delta=1e-4, corrected="14762.1738")
    assert judge(later, 14762.173878247431).verdict == CORRECTED
    assert judge(Printed("14764.3168", method="test", delta=1e-4, corrected="14760"), 14762.17).verdict == OFF
    assert judge(Printed("3.88", "percent"), None).verdict == CANNOT
    with pytest.raises(ValueError, match="method must be one of"):
        Printed("1", method="guessed")


# -- the data: what was printed, how, and one home per figure ----------------------------------------------------------
STEMS = [p.stem for p in sorted(PUBLISHED_DIR.glob("0*.csv"))]


@pytest.mark.parametrize("stem", STEMS)
def test_published_rows_say_how_each_figure_was_obtained(stem):
    raw = pd.read_csv(PUBLISHED_DIR / f"{stem}.csv", dtype=str, keep_default_na=False)
    assert "tolerance" not in raw.columns  # never a tolerance set by hand
    table = load_published(stem)
    figures = table[table["kind"] == "figure"]
    assert set(figures["method"]) <= set(METHODS), stem
    assert (figures.loc[figures["method"] == "test", "delta"] != "").all()
    assert (figures["source"] != "").all() and (figures["citation"] != "").all()
    cited = checks.references()
    assert set(table["source"]) <= set(cited), set(table["source"]) - set(cited)


def test_a_figure_shown_on_two_pages_has_one_home_and_one_verdict():
    """Chapter 6 shows source 000's simulated rates and the Riddler's value: the same row, judged alike on both
    pages (the same verdict and the same allowance)."""
    whole = load_published("06-whole-map").set_index("key")
    for key, home in whole["same_as"].items():
        stem, _, other = home.partition(":")
        there = load_published(stem).set_index("key").loc[other]
        for column in ("published", "method", "games", "source", "citation"):
            assert whole.loc[key, column] == there[column]
    values = {"01-sequence-counts": {"exact_rule": 0.0390911, "exact_random": 0.0071389},
              "06-whole-map": {"source000_rule": 0.0390911, "source000_random": 0.0071389, "riddler_value": 0.0976137}}
    found = {stem: {r.key: r for r in Checks(stem).compare(v).results} for stem, v in values.items()}
    for mine, theirs in (("source000_rule", "exact_rule"), ("source000_random", "exact_random")):
        a, b = found["06-whole-map"][mine], found["01-sequence-counts"][theirs]
        assert (a.verdict, a.allowance, a.published, a.computed) == (b.verdict, b.allowance, b.published, b.computed)


def test_changing_a_printed_figure_changes_every_page_that_shows_it(tmp_path, monkeypatch):
    """Source 000's 3.88% printed as 3.70% instead: chapter 1 and chapter 6 both call it off."""
    copy = tmp_path / "published"
    shutil.copytree(PUBLISHED_DIR, copy)
    path = copy / "01-sequence-counts.csv"
    path.write_text(path.read_text(encoding="utf-8").replace(",0.0388,probability,", ",0.0370,probability,"),
                    encoding="utf-8")
    monkeypatch.setattr(published, "PUBLISHED_DIR", copy)
    one = Checks("01-sequence-counts").compare({"exact_rule": 0.0390911})
    six = Checks("06-whole-map").compare({"source000_rule": 0.0390911})
    assert [r.verdict for r in one.results if r.key == "exact_rule"] == [OFF]
    assert [r.verdict for r in six.results if r.key == "source000_rule"] == [OFF]
    monkeypatch.setattr(published, "PUBLISHED_DIR", PUBLISHED_DIR)
    assert [r.verdict for r in Checks("06-whole-map").compare({"source000_rule": 0.0390911}).results
            if r.key == "source000_rule"] == [REPRODUCED]


# -- chapter 8's sources, as their own code and history have them ---------------------------------------------------
def test_chapter_8_names_every_source_it_judges():
    table = load_published("08-in-print")
    cited = checks.references()
    assert len(set(table["source"])) == 13
    for key in set(table["source"]):
        assert cited[key]["title"] and cited[key]["address"].startswith("http"), key
        assert checks.short_reference(key).endswith(f"“{cited[key]['title']}”")


def test_the_unit_tests_later_values_are_corrected_by_their_author():
    """sabasallath's DagTest.java: the first expected values (3a5f5d23) are off, the same tests a day later
    (92e6785a) hold within the test's own delta; 0.0097 was never wrong: within 1e-4 of 0.009782."""
    table = load_published("08-in-print").set_index("key")
    row = table.loc["sa_digits_min"]
    assert (row["method"], row["delta"], row["published"], row["corrected"]) == ("test", "0.0001", "14764.3168",
                                                                                 "14762.1738")
    assert "92e6785a" in row["corrected_citation"] and "3a5f5d23" in row["citation"]
    win = table.loc["sa_win_min"]
    assert judge(checks.printed_of(win), 0.00978220172672603).verdict == REPRODUCED


def test_hopfer_s_rows_are_a_first_roll_of_7_then_another_roll():
    """The table's keys 7-2 ... 7-6 are a first roll of 7 that shut 7, then a second roll shut by the optimal move:
    the words say so, and each board is the full one less 7 and that second roll's tile."""
    table = load_published("08-in-print").set_index("key")
    for second in range(2, 7):
        row = table.loc[f"bh_7{second}"]
        assert f"first roll of 7 (shut 7) and then a {second} (shut {second})" in row["claim"]
        left = set(range(1, 10)) - {7, second}
        assert set(map(int, row["board"].split(","))) == left
        assert f"{{{', '.join(map(str, sorted(left)))}}}" in row["claim"]


@pytest.mark.parametrize(("z", "runs"), [(1.959964, 20), (-2.575829, 100), (3.290527, 1000)])
def test_a_warning_gives_the_odds_of_its_own_z(z, runs):
    """A simulation outside its 95% interval says how rare its own distance is: the normal quantiles of 95%,
    99% and 99.9% (a page said '1 run in 20' for z = 2.1, which is 1 run in 28)."""
    from stb_core.report.checks import chance_odds

    assert chance_odds(z) == runs


@pytest.mark.parametrize(("expected", "mark", "raises"), [("holds", "✗", True), ("fails", "✓", True),
                                                          ("holds", "✓", False), ("fails", "✗", False),
                                                          ("fails", "–", False)])
def test_a_claim_judged_otherwise_than_declared_stops_the_build(expected, mark, raises):
    """Both ways (the review found a row declared 'fails' that its own judge reproduced, and nothing noticed): a
    claim the notebook says holds that fails, or says fails that holds, is a ReproductionError."""
    from stb_core.report.checks import Checks, ReproductionError, Result

    checks = Checks("08-in-print")
    checks.results.append(Result("k", "figure", "a claim", "k", "", "percent", "6.757", "6.746", "", mark,
                                 "verdict", expected, ""))
    if raises:
        with pytest.raises(ReproductionError, match="a claim"):
            checks.raise_unexpected()
    else:
        checks.raise_unexpected()


def test_every_declared_expectation_is_what_the_default_report_finds():
    """Each published figure's declared expectation agrees with its verdict in the committed default report."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "data"
    for record in sorted(root.glob("0[0-9]-*/checks.json")):
        if "--" in record.parent.name:
            continue
        for check in json.loads(record.read_text())["checks"]:
            if check["kind"] in ("figure", "statement") and check["mark"] in ("✓", "✗"):
                assert (check["mark"] == "✓") == (check["expected"] == "holds"), (record.parent.name, check["key"])


def test_the_page_verdict_counts_its_figures_off():
    """One figure off reads "a figure off", two "some figures off" (the badge said "some" of one)."""
    one = Checks("01-sequence-counts").compare({"exact_rule": 0.5})
    two = Checks("01-sequence-counts").compare({"exact_rule": 0.5, "exact_random": 0.5})
    assert (one.verdict(), two.verdict()) == ("a figure off", "some figures off")
