"""Source 001 (Riddler Classic, April 13 2018): the one-die choice once 7, 8 and 9 are shut."""

from fractions import Fraction

import pytest

from stb_core import Rules, solve
from stb_core.sources.riddler import dice_choice_table, one_die_by_sum, source_statements, sum_threshold_of

RIDDLER = Rules(tiles=9, one_die="high-shut")


def test_published_value_and_contrast():
    value = solve(RIDDLER, "win", exact=True).value()
    assert isinstance(value, Fraction) and round(float(value), 6) == 0.097614
    assert round(100 * float(value), 2) == 9.76
    assert float(solve(Rules(tiles=9), "win").value()) == pytest.approx(0.0714316, abs=1e-7)


def test_dice_choice_table_covers_every_board_of_tiles_1_to_6():
    table = dice_choice_table(RIDDLER)
    assert len(table) == 63 and set(table["largest_tile"]) <= set(range(1, 7))
    by_board = table.set_index("board_mask")
    assert by_board.loc[0b1, "p_win_one_die"] == pytest.approx(1 / 6)  # {1}: one die shows 1 once in 6
    assert by_board.loc[0b1, "p_win_all_dice"] == 0  # two dice never total 1
    # {1, 2} with two dice: a 3 (2 in 36) shuts both; a 2 (1 in 36) shuts the 2, and one die then shows 1 once in 6
    assert by_board.loc[0b11, "p_win_all_dice"] == pytest.approx(2 / 36 + 1 / 36 / 6)
    # the board's value is the better of the two choices
    solution = solve(RIDDLER, "win")
    for row in table.itertuples():
        assert max(row.p_win_one_die, row.p_win_all_dice) == pytest.approx(float(solution.value(row.board_mask)))
    single = table.set_index("board")
    assert single.loc["{1}", "p_win_one_die"] == pytest.approx(1 / 6) and single.loc["{1}", "p_win_all_dice"] == 0
    assert single.loc["{6}", "p_win_all_dice"] == pytest.approx(5 / 36)


def test_one_die_is_better_exactly_when_six_or_less_is_open():
    table = dice_choice_table(RIDDLER)
    assert sum_threshold_of(one_die_by_sum(table)) == 6
    assert ((table["open_sum"] <= 6) == (table["best"] == "one die")).all()
    # hence the pub rule "one die once the open tiles total 6 or less" is worth exactly as much
    assert solve(Rules(one_die="sum-le-6"), exact=True).value() == solve(RIDDLER, exact=True).value()


def test_source_statements_are_mostly_wrong():
    rows = source_statements(dice_choice_table(RIDDLER), RIDDLER).set_index("statement")
    assert list(rows["boards"]) == [8, 7]
    assert list(rows["true_on"]) == [1, 4]  # only {1, 2, 3}; two dice lose on {4}, {5}, {6}
    assert rows["exceptions"].iloc[1] == "{4}  {5}  {6}"


def test_no_choice_without_one_die_rule():
    assert dice_choice_table(Rules(tiles=9)).empty


@pytest.mark.parametrize("one_die", ["never", "high-shut", "sum-le-6", "sum-le-3", "sum-le-12"])
def test_the_contrast_table_holds_the_runs_rule_once(one_die):
    """Every one-die rule a run may take has its row, marked as this run's, beside the named rules; a sum-le-K
    rule reads 'at K or less to shut' and is worth what the engine gives for it."""
    from stb_core.sources.riddler import contrast_table

    rules = Rules(tiles=6, one_die=one_die)
    table = contrast_table(rules)
    mine = table[table["this_run"]]
    assert len(mine) == 1 and mine["one_die"].item() == one_die
    assert mine["p_win"].item() == pytest.approx(float(solve(rules, "win").value()), abs=1e-15)
    if one_die.startswith("sum-le-"):
        assert mine["one_die_rule"].item() == f"at {one_die.removeprefix('sum-le-')} or less to shut"
