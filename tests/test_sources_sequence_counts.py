"""Source 000 ("Shut the Box with Dynamic Programming"): counts, the one-move boards, the source's rule."""

import pytest

from stb_core import Rules, board_label, board_mask, counts_by_moves, evaluate, legal_moves, solve
from stb_core.boards import board_tiles
from stb_core.game import game_of
from stb_core.sources.sequence_counts import (
    move_comparison,
    one_move_boards,
    parse_move,
    partition_list,
    rule_errors,
    rule_losses,
)

TEN = Rules(tiles=10)


def test_published_counts_and_example():
    assert {k: c for k, c in counts_by_moves(TEN).items() if c} == {
        5: 117120, 6: 465677280, 7: 27229396320, 8: 166670380800, 9: 161989632000}
    assert legal_moves(TEN, board_mask([1, 3, 4, 6, 7]), 7) == [(1, 6), (3, 4), (7,)]


def test_one_move_boards_are_the_partitions_on_the_board():
    boards = one_move_boards(TEN)
    partitions = partition_list(TEN)
    assert len(partitions) == 68 and len(boards) == 65
    assert set(boards["board"]) == set(partitions.loc[partitions["on_board"], "tiles"])
    assert (boards["weight"] == boards["roll"].map(TEN.roll_weights)).all()


def test_catalogue_order_is_lexicographic_like_the_sources_generator():
    catalogue = game_of(TEN).catalogue
    for roll in TEN.roll_weights:
        moves = [board_tiles(int(m)) for m in catalogue.of(roll)]
        assert moves == sorted(moves)


def test_move_comparison_example():
    board = board_mask([1, 3, 4, 6, 7])
    table = move_comparison(TEN, board, 7)
    assert list(table["move"]) == ["{1, 6}", "{3, 4}", "{7}"]
    # each ranking's pick is the move its policy plays there (the engine's move table, not the table's idxmax)
    played = {name: board_label(int(evaluate(TEN, "win", name).played([board], 7)[0]))
              for name in ("sequence-count", "optimal")}
    assert table.loc[table["source_rule_picks"], "move"].tolist() == [played["sequence-count"]]
    assert table.loc[table["optimal_picks"], "move"].tolist() == [played["optimal"]]


def test_rule_errors_cost_win_chance_and_explain_the_gap():
    errors = rule_errors(TEN)
    assert len(errors) > 0 and (errors["win_chance_lost"] > 0).all()
    assert (errors["p_win_after_optimal"] - errors["p_win_after_rule"]).round(12).eq(
        errors["win_chance_lost"].round(12)).all()
    assert (errors["sequences_after_rule"] >= errors["sequences_after_optimal"]).all()
    assert parse_move("{1, 6}") == [1, 6] and parse_move("{}") == []
    losses = rule_losses(TEN)
    gap = float(solve(TEN, "win").value()) - float(evaluate(TEN, "win", "sequence-count").value())
    assert losses["weighted_loss"].sum() == pytest.approx(gap, abs=1e-12)
    # the heaviest decision, recomputed: the rule's and the optimal move judged by optimal play afterwards
    top = losses.iloc[0]
    optimal = solve(TEN, "win")
    board = board_mask(parse_move(top["board"]))
    after = {m: float(optimal.value(board & ~board_mask(parse_move(top[m])))) for m in ("optimal_move",
                                                                                       "source_rule_move")}
    assert top["loss"] == pytest.approx(after["optimal_move"] - after["source_rule_move"], abs=1e-15)


def test_exact_values_of_the_three_strategies():
    assert float(evaluate(TEN, "win", "sequence-count").value()) == pytest.approx(0.039091, abs=5e-7)
    assert float(evaluate(TEN, "win", "random").value()) == pytest.approx(0.007139, abs=5e-7)
    assert float(solve(TEN, "win").value()) == pytest.approx(0.040438, abs=5e-7)
