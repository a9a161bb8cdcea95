"""The page linter finds each kind of defect on a page seeded with it, and nothing on a clean page."""

import pytest

from stb_core import Rules
from stb_core.report.lint import lint_csv, lint_page, lint_text

CLEAN = """<html><body><main>
<p>Perfect play shuts the box in 7.14% of games, 0.16 pp more than the fewest-tiles rule (6.98%).</p>
<p>From {4, 5} the box is shut as often as from {1, 8}: the same 4.32% against 4.32%.</p>
<p>1 winning sequence of 3 moves; 18,432 possible board states and rolls; no pair has a better move.</p>
<p>The table is <a href="data/run/table.csv">table.csv</a>.</p>
<p>Poltnig's notebook shut_the_box_fixed_dice.ipynb, <a href="https://example.org/x">https://example.org/x</a>.</p>
<div class="jp-InputArea"><pre>x = -0.0  # code is not prose</pre></div>
<table><caption>Table 1. The three rules of this run.</caption>
<thead><tr><th>rule</th><th>value</th></tr></thead>
<tbody><tr><td>a</td><td>1.0</td></tr><tr><td>b</td><td>2.0</td></tr><tr><td>c</td><td>0.0</td></tr></tbody></table>
</main></body></html>"""

DEFECTS = {
    "negative-zero": "<p>The change is −0.00 pp.</p>",
    "zero-difference": "<p>Optimal play wins 7.14%, 0.000 pp (percentage points) more: the rule forfeits it.</p>",
    "equal-comparison": "<p>From {4, 5} the box is shut more often (4.32% against 4.32% from {1, 8}).</p>",
    "number-noun": "<p>There are 1 weighted winning sequences.</p>",
    "leftover": "<p>The chance is nan and the sum 0.9999999999999999.</p>",
    "absent-file": "<p>The column Optimal of GameSpace-part2.csv says so.</p>",
    "caption-count": "<table><caption>Table 2. The six rules.</caption><tbody><tr><td>a</td><td>1</td></tr></tbody>"
                     "</table>",
    "duplicate-rows": "<table><caption>Table 3. Ways.</caption><tbody><tr><td>a</td><td>1</td></tr>"
                      "<tr><td>a</td><td>1</td></tr></tbody></table>",
    "inexact-float": "<p>The table is <a href='data/run/table.csv'>table.csv</a>.</p>",
    "printed-warning": '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="application/vnd.jupyter.'
                       'stderr"><pre>plots.py:429: UserWarning: Attempting to set identical low and high xlims</pre>'
                       '</div>',
}


def page_with(tmp_path, body: str, csv: str = "rule,value\na,1.0\n"):
    (tmp_path / "data" / "run").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data" / "run" / "table.csv").write_text(csv, encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(body, encoding="utf-8")
    return page


def test_a_clean_page_has_no_problem(tmp_path):
    assert lint_page(page_with(tmp_path, CLEAN)) == []


@pytest.mark.parametrize("kind", sorted(DEFECTS))
def test_each_kind_of_defect_is_found(tmp_path, kind):
    csv = "rule,value\na,0.06249999999999999\n" if kind == "inexact-float" else "rule,value\na,1.0\n"
    problems = lint_page(page_with(tmp_path, CLEAN.replace("</main>", DEFECTS[kind] + "</main>"), csv))
    assert [p.kind for p in problems] == [kind] * len(problems) and problems, problems


def test_a_link_to_a_missing_file_is_found(tmp_path):
    problems = lint_page(page_with(tmp_path, CLEAN.replace("data/run/table.csv", "data/run/gone.csv")))
    assert {p.kind for p in problems} == {"absent-file"} and any("gone.csv" in p.found for p in problems), problems


@pytest.mark.parametrize(("text", "kinds"), [
    ("no (board, roll) pair have a better move", ["number-noun"]),
    ("3 board", ["number-noun"]),
    ("three tile", ["number-noun"]),
    ("7.1%, 0.2 pp more than 7.1%", ["equal-comparison"]),
    ("a seat wins {tiles} stakes", ["leftover"]),
    ("−0.000%", ["negative-zero"]),
    ("−0.05 pp and 10−0 and x-0.5", []),
    ("the rule gives up 1.30% of the optimum, less than the simple highest-tile rule (1.30%)", ["equal-comparison"]),
    ("the rule gives up 1.298% of the optimum, less than the simple highest-tile rule (1.302%)", []),
    ("the board of tiles 1–1", ["number-noun"]),
    ("a bound of 42.1%, 0.00 percentage points more. Of the distance", ["zero-difference"]),
    ("a bound of 42.1%, <0.01 percentage points more, and 0 more tiles shut", []),
    ("tiles 1–10 and tile 1", []),
    ("None of these boards is won; the chance is None.", ["leftover"]),
    ("tiles 1–9, 2 dice, 12 tiles, one die, 3 board states", []),
    ("1,234 board", ["number-noun"]),
    ("A rerun with other parameters (win_at_most = 2, board = 2,3,5)", []),  # a list, not a count
])
def test_sentences(text, kinds):
    assert [p.kind for p in lint_text(text)] == kinds


@pytest.mark.parametrize(("cell", "flagged"), [
    ("0.9999999999999999", True), ("0.30000000000000004", True), ("0.1000000000001", False),
    ("0.999999999999", False), ("0.071431622305606", False), ("117120", False)])
def test_a_float_is_an_exact_value_s_rounding_only_past_thirteen_repeated_digits(tmp_path, cell, flagged):
    """Thirteen nines, or thirteen zeros then a digit, are a float's rounding of an exact value; twelve can be a
    real figure (1e-13 of a chance is not noise)."""
    path = tmp_path / "t.csv"
    path.write_text(f"value\n{cell}\n", encoding="utf-8")
    assert bool(lint_csv(path)) == flagged


def test_blank_rows_are_not_duplicates(tmp_path):
    """A table's spacer rows (every cell empty) read alike and are no defect; two rows of the same figures are."""
    blank = "<tr><td></td><td></td></tr>"
    page = page_with(tmp_path, f"<table><caption>Table 4. Ways.</caption><tbody>{blank}<tr><td>a</td><td>1</td></tr>"
                               f"{blank}</tbody></table>")
    assert [p.kind for p in lint_page(page)] == []


@pytest.mark.parametrize(("rules", "text", "kinds"), [
    (Rules(tiles=8, layout="double-shutter"), "Shut tile 8 first.", []),
    (Rules(tiles=8, layout="double-shutter"), "Shut tile 9 first.", ["tile-name"]),  # the back tile is b1..b8
    (Rules(tiles=4, layout="double-shutter"), "tiles 4 and b4 stand", []),
])
def test_a_tile_the_board_has_not_is_flagged_and_its_highest_is_not(rules, text, kinds):
    """On a Double Shutter of N the front tiles are 1 to N and the back ones b1 to bN: tile N+1 is no tile."""
    assert [p.kind for p in lint_text(text, rules=rules)] == kinds


def test_a_caption_may_count_a_table_s_data_columns_beside_its_label_column(tmp_path):
    """"The two strategies" over a table of a board column and two strategy columns counts the strategies: not a
    caption-count problem (it is one when neither rows nor columns match)."""
    row = "<tr><td>{1}</td><td>0.5</td><td>0.6</td></tr>"
    table = ("<table><caption>Table 5. The two strategies.</caption><thead><tr><th>board</th><th>highest-tile</th>"
             "<th>optimal</th></tr></thead><tbody>" + row + row.replace("{1}", "{2}") + row.replace("{1}", "{3}")
             + "</tbody></table>")
    assert lint_page(page_with(tmp_path, CLEAN.replace("</main>", table + "</main>"))) == []
    wrong = table.replace("The two strategies", "The five strategies")
    assert [p.kind for p in lint_page(page_with(tmp_path, CLEAN.replace("</main>", wrong + "</main>")))] == [
        "caption-count"]
