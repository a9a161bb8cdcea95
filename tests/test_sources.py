"""The per-source shaping modules: each source's conventions, and its published numbers."""

import pytest

from stb_core import Rules, board_mask, solve
from stb_core.sources.expected_cost import (
    highest_cost_states,
    largest_tile_exceptions,
    r_order,
    source_optimal_action,
    state_value_table,
)
from stb_core.sources.game_space import (
    game_space,
    optimal_strategy,
    source_columns,
    source_exclusions,
    valid_states,
)
from stb_core.sources.open_and_shut import (
    board_exhibit,
    exceptions,
    expected_score_table,
    move_exhibit,
    optimal_moves_exhibit,
    source_board_id,
    source_board_string,
)
from stb_core.sources.sequence_counts import partition_list, strategy_comparison


# -- source 000 -------------------------------------------------------------------------------------
def test_partition_list_has_the_sources_68_and_65_on_ten_tiles():
    table = partition_list(Rules(tiles=10))
    assert len(table) == 68 and table["on_board"].sum() == 65
    assert set(table.loc[~table["on_board"], "tiles"]) == {"{11}", "{1, 11}", "{12}"}


def test_strategy_comparison_simulations_cover_the_exact_values():
    """Seeded, so deterministic; 4 standard errors (a correct engine misses with chance 6e-5)."""
    table = strategy_comparison(Rules(tiles=7), games=100_000, seed=5)
    se = (table["exact_p_win"] * (1 - table["exact_p_win"]) / table["games"]) ** 0.5
    assert ((table["simulated_p_win"] - table["exact_p_win"]).abs() <= 4 * se).all()
    by = table.set_index("policy")["exact_p_win"]
    assert by["optimal"] >= by["sequence-count"] >= by["random"]


# -- source 002 -------------------------------------------------------------------------------------
def test_source_002_board_conventions():
    assert source_board_id(board_mask([1, 2]), 9) == 127  # flipped 3..9, tile 1 the most significant bit
    assert source_board_id(board_mask(range(2, 10)), 9) == 256
    assert source_board_string(board_mask([1, 2]), 9) == "1 2 - - - - - - -"


def test_source_002_tables():
    rules = Rules()
    scores = expected_score_table(rules)
    assert scores.loc["traditional", "Max"] == pytest.approx(45 - 11.157508, abs=1e-6)
    assert scores.loc["all or nothing", "Max"] == pytest.approx(0.0714316, abs=1e-7)
    assert (scores["Max"] >= scores["Highest Tile"]).all() and (scores["Highest Tile"] >= scores["Min"]).all()
    a = board_exhibit(rules, "traditional")
    assert a["Board Sum"].is_monotonic_increasing and len(a) == 512
    assert a.loc[a["Board (Remaining)"] == "1 2 - - - - - - -", "Max ES"].item() == pytest.approx(42.222, abs=5e-4)
    moves = move_exhibit(rules, "traditional")
    assert (optimal_moves_exhibit(moves)["Max Move"] != optimal_moves_exhibit(moves)["Min Move"]).all()
    table = exceptions(moves)
    assert len(table) > 0 and (table["Max Move"] != table["Highest Tile Move"]).all()
    first = moves[(moves["Board Sum"] == 0) & (moves["Roll"] == 9)]
    assert first["Max Move"].item() == "[9]" and first["Highest Tile Move"].item() == "[9]"


def test_source_002_tie_rule_lists_tied_moves_together():
    moves = move_exhibit(Rules(tiles=5), "all or nothing")
    # with tiles 1-5, some (board, roll) pairs have two moves of equal winning chance: both are listed
    assert moves["Max Move"].str.contains(r"\], \[").any()


# -- source 003 -------------------------------------------------------------------------------------
def test_source_003_game_space_counts():
    rules = Rules(win_at_most=3)
    assert len(valid_states(rules)) == 506
    assert source_exclusions(rules) == ["1", "2", "3", "12", "23456789"]
    space = game_space(rules)
    assert len(space) == 8607 and space["Redundant"].sum() == 8
    assert list(space.loc[~space["Redundant"], source_columns(rules)].columns)[:2] == ["X1", "X2"]
    groups = space.groupby("RivalGroup")
    assert (groups["Optimal"].any() | groups["Outcome"].first().eq("Loss")).all()  # every playable group has a best
    strategy = optimal_strategy(space)
    best_after = space.groupby("RivalGroup")["PWinAfter"].max()
    assert (strategy["PWinAfter"].to_numpy() == best_after[strategy["RivalGroup"]].to_numpy()).all()
    assert set(strategy["RivalGroup"]) == {g for g, rows in groups if rows["PWinAfter"].nunique() > 1}
    decisive = space.loc[space["Decisive"], "RivalGroup"].nunique()
    assert decisive == sum(rows["PWinAfter"].nunique() > 1 for _, rows in groups) < int((groups.size() > 1).sum())


def test_game_space_codes_are_sets_past_nine_tiles_and_moves_keep_every_tile():
    """From 10 tiles the source's digit codes would be ambiguous ("12": {12} or {1, 2}): sets instead; a move of
    five tiles keeps all five in P1..P5."""
    from stb_core.sources.game_space import move_width, open_code

    assert open_code((1, 2), Rules(tiles=12)) == "{1, 2}" and open_code((1, 2), Rules()) == "12"
    rules = Rules(tiles=8, win_at_most=10, dice=3)
    assert move_width(rules) == 5
    space = game_space(rules)
    shut = space[[f"P{i}" for i in range(1, 6)]].notna().sum(axis=1)
    assert (shut == space["Removed"].str.len()).all()  # every tile shut is written (tiles 1-8: one digit each)


# -- source 004 -------------------------------------------------------------------------------------
def test_source_004_order_ties_and_tables():
    rules = Rules()
    cost = solve(rules, "remaining-sum", exact=True)
    assert r_order([(1, 2, 5), (3, 5), (1, 3, 4)]) == [(3, 5), (1, 2, 5), (1, 3, 4)]
    assert source_optimal_action(cost, board_mask([1, 2, 3, 4, 5]), 8) == (3, 5)
    assert source_optimal_action(cost, board_mask([1, 2]), 12) is None
    table = state_value_table(rules, cost)
    assert list(highest_cost_states(table)["label"])[:3] == ["{5, 6, 7, 8, 9}", "{4, 5, 7, 8, 9}", "{6, 7, 8, 9}"]
    exc = largest_tile_exceptions(rules, cost)
    row = exc[(exc["state"] == "{1, 4, 5, 8}") & (exc["dice_total"] == 9)]
    assert row["optimal_action"].item() == "{4, 5}"
    assert (exc["value_after_optimal"] <= exc["value_after_largest_tile_action"]).all()
