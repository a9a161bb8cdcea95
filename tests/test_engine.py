"""The engine against the sources' published numbers, exact arithmetic, and its error messages."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from reference import forward, moves, outcomes, reference_play, reference_value, utility

from stb_core import (
    TIE_BREAKS,
    Rules,
    RulesError,
    board_mask,
    board_tiles,
    counts_by_moves,
    custom_objective,
    evaluate,
    expected_remaining_sum,
    legal_moves,
    parse_tiles,
    policy_values,
    solve,
    win_probability,
)
from stb_core import boards as boards_module
from stb_core.game import Game
from stb_core.tables import board_table, legal_moves_table


# -- published numbers -----------------------------------------------------------------------------
def test_source_000_sequence_counts():
    counts = counts_by_moves(Rules(tiles=10))
    expected = {5: 117120, 6: 465677280, 7: 27229396320, 8: 166670380800, 9: 161989632000}
    assert counts == {k: expected.get(k, 0) for k in range(11)}


def test_source_000_legal_moves_example():
    assert legal_moves(Rules(tiles=10), board_mask([1, 3, 4, 6, 7]), 7) == [(1, 6), (3, 4), (7,)]


def test_source_001_riddler_value_exact_and_float():
    rules = Rules(one_die="high-shut")
    exact = solve(rules, "win", exact=True).value()
    assert exact == Fraction(956177159, 9795520512)
    assert round(float(exact), 6) == 0.097614
    assert abs(win_probability(rules) - float(exact)) <= 1e-12


def test_source_002_traditional_score_of_one_and_two():
    rules = Rules()
    assert round(rules.total - expected_remaining_sum(rules, board=board_mask([1, 2])), 3) == 42.222


@pytest.mark.parametrize(("tiles", "value"), [((8,), 6.888889), ((2, 6), 5.969136), ((1, 8), 6.888889),
                                              ((4, 5), 7.027778)])
def test_source_004_values(tiles, value):
    assert round(expected_remaining_sum(Rules(), board=board_mask(tiles)), 6) == value


def test_source_004_optimal_action():
    moves = solve(Rules(), "remaining-sum").move_values(board_mask([1, 2, 3, 4, 5]), 8)
    assert sorted(m for m, _ in moves) == [(1, 2, 5), (1, 3, 4), (3, 5)]
    assert moves[0][0] == (3, 5) and moves[0][1] < moves[1][1]  # strictly best, not a tie


def test_two_dice_nine_tiles():
    assert round(win_probability(Rules()), 8) == round(0.07143162230560597, 8)


# -- exact vs float, and against the reference on a mid-size board --------------------------------------
@pytest.mark.parametrize("objective", ["win", "remaining-sum", "flipped-count"])
def test_exact_and_float_agree_on_twelve_tiles(objective):
    rules = Rules(tiles=12, one_die="sum-le-6")
    exact = solve(rules, objective, exact=True).values
    floats = solve(rules, objective).values
    assert max(abs(float(e) - f) for e, f in zip(exact.tolist(), floats.tolist(), strict=True)) <= 1e-12


@pytest.mark.parametrize("policy", ["optimal", "highest-tile", "random"])
def test_reference_on_eight_tiles(policy):
    rules = Rules(tiles=8, one_die="sum-le-6", max_per_move=3)
    value = evaluate(rules, "remaining-sum", policy, exact=True).value()
    assert value == reference_value(rules, "remaining-sum", policy)


def test_win_probability_is_zero_beyond_twelve_tiles_with_two_dice():
    assert win_probability(Rules(tiles=13)) == 0
    assert win_probability(Rules(tiles=13, dice=3)) > 0


@pytest.mark.parametrize("objective", ["win", "remaining-sum", "flipped-count"])
def test_forced_and_optional_one_die_agree_for_optimal_play_only(objective):
    optional, forced = Rules(one_die="sum-le-6"), Rules(one_die="sum-le-6", one_die_forced=True)
    assert solve(optional, objective, exact=True).value() == solve(forced, objective, exact=True).value()
    worst_optional = evaluate(optional, objective, "worst").value()
    worst_forced = evaluate(forced, objective, "worst").value()
    assert worst_optional != worst_forced


# -- tables ------------------------------------------------------------------------------------------
def test_board_table_and_move_table_shapes_and_flags():
    table = board_table(Rules(tiles=6), "win", ("optimal", "worst"))
    assert len(table) == 64 and table["p_win_optimal"].between(0, 1).all()
    assert (table["p_win_optimal"] >= table["p_win_worst"]).all()
    moves = legal_moves_table(solve(Rules(tiles=6), "win"))
    assert (moves.loc[moves["chosen"], "optimal"]).all()  # the optimal policy picks an optimal move


def test_custom_objective_keeps_fractions_exact():
    beat_ten = custom_objective("below 10", of_sum=lambda s: Fraction(int(s < 10)))
    value = solve(Rules(), beat_ten, exact=True).value()
    assert isinstance(value, Fraction) and 0 < value < 1


# -- errors: one clear message naming the parameter and what is allowed ------------------------------
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"tiles": 0}, "tiles must be between 1 and 24, got 0"),
    ({"tiles": 25}, "tiles must be between 1 and 24, got 25"),
    ({"dice": 5}, "dice must be between 1 and 4, got 5"),
    ({"sides": 1}, "sides must be between 2 and 20, got 1"),
    ({"one_die": "sometimes"}, "one_die must be never, high-shut or sum-le-K with K from 1 to 300 (e.g. sum-le-6); "
                               "got 'sometimes'"),
    ({"moves": "add"}, "moves must be one of sum, die-or-sum; got 'add'"),
    ({"layout": "triple"}, "layout must be one of row, double-shutter; got 'triple'"),
    ({"moves": "die-or-sum", "dice": 3}, "dice must be 1 or 2 for moves die-or-sum"),
    ({"layout": "double-shutter", "tiles": 13}, "tiles must be between 1 and 12, got 13"),
    ({"max_per_move": 0}, "max_per_move must be between 1 and 24, got 0"),
    ({"win_at_most": -1}, "win_at_most must be between 0 and 300, got -1"),
    ({"one_die_forced": "yes"}, "one_die_forced must be True or False"),
    ({"tiles": "9"}, "tiles must be"),
])
def test_bad_rules(kwargs, message):
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules(**kwargs)


def test_bad_objective_policy_board_roll():
    with pytest.raises(RulesError, match="objective must be one of win, remaining-sum, flipped-count"):
        solve(Rules(), "score")
    with pytest.raises(RulesError, match="policy must be one of optimal, worst, highest-tile"):
        evaluate(Rules(), "win", "greedy")
    with pytest.raises(RulesError, match="open tiles must be between 1 and 9, got 11"):
        parse_tiles("1,11", Rules())
    with pytest.raises(RulesError, match="roll must be a total the dice can show, 2 to 12; got 13"):
        solve(Rules()).move_values(board_mask([1, 2]), 13)
    with pytest.raises(RulesError, match="tiles must be at most 16 for exact values"):
        solve(Rules(tiles=17), "remaining-sum", exact=True)


@pytest.mark.parametrize(("kwargs", "same_as"), [
    ({"tiles": 1, "max_per_move": 2}, {"tiles": 1}),                       # a cap above the tiles
    ({"tiles": 2, "win_at_most": 3}, {"tiles": 2, "win_at_most": 3}),      # won before the first roll
    ({"dice": 1, "one_die": "high-shut"}, {"dice": 1}),                     # one die with one die
    ({"one_die_forced": True}, {}),                                         # forced, but never allowed
])
def test_degenerate_rules_are_accepted_as_no_ops(kwargs, same_as):
    degenerate, plain = Rules(**kwargs), Rules(**same_as)
    for objective in ("win", "remaining-sum"):
        assert solve(degenerate, objective, exact=True).value() == solve(plain, objective, exact=True).value()
    assert degenerate.describe() == plain.describe()


def test_won_before_the_first_roll():
    rules = Rules(tiles=2, win_at_most=3)
    assert solve(rules, "win", exact=True).value() == 1
    assert solve(rules, "remaining-sum", exact=True).value() == 3


def test_bad_policy_function_names_the_legal_moves():
    with pytest.raises(RulesError, match="legal moves are"):
        evaluate(Rules(tiles=4), "win", lambda board, roll, moves: (99,))


def test_values_do_not_depend_on_call_order():
    first = solve(Rules(tiles=7), "win").values.copy()
    evaluate(Rules(tiles=7), "remaining-sum", "random")
    assert np.array_equal(first, solve(Rules(tiles=7), "win").values)


@pytest.mark.parametrize("one_die", ["never", "high-shut", "sum-le-6"])
@pytest.mark.parametrize("forced", [False, True])
def test_reachable_boards_follow_the_dice_each_board_may_roll(one_die, forced):
    """A total only one die shows is reached only from a board where one die may be rolled (the game-space audit
    found the engine reaching {1, 2, 3, 5, 6} with a 1 rolled from a board where only three dice may be); where one
    die is forced from the start (3-sided dice), the 5 and 6 two dice show are never rolled."""
    from reference import reachable_states

    from stb_core.boards import board_tiles
    from stb_core.valuation import reachable_boards

    small_dice = Rules(tiles=4, sides=3, one_die="sum-le-10", one_die_forced=forced)  # one die from the start
    for rules in [Rules(tiles=tiles, dice=dice, sides=6, one_die=one_die, one_die_forced=forced, win_at_most=win)
                  for tiles, dice, win in ((7, 3, 12), (6, 2, 0), (7, 2, 3))] + [small_dice]:
        found = {frozenset(board_tiles(b)) for b in reachable_boards(rules, include_won=False)} - {frozenset()}
        assert found == reachable_states(rules), rules


@pytest.mark.parametrize("rules", [Rules(tiles=4, win_at_most=8, max_per_move=2), Rules(tiles=6, win_at_most=5),
                                   Rules(tiles=5, one_die="sum-le-6", win_at_most=3)], ids=str)
def test_the_won_boards_reached_are_those_one_move_from_a_board_in_play(rules):
    """With the won boards: the game stops on a won board, so a won board is reached only by a move from a board
    still in play (or is the full board) -- never through another won board."""
    from reference import dice_options, is_won, moves, outcomes, reachable_states

    from stb_core.boards import board_tiles
    from stb_core.valuation import reachable_boards

    playing = reachable_states(rules)
    won = {board - set(m) for board in playing for dice in dice_options(rules, board)
           for o in outcomes(rules, dice) for m in moves(rules, board, o) if is_won(rules, board - set(m))}
    full = frozenset(range(1, rules.tiles + 1))
    expected = playing | won | ({full} if is_won(rules, full) else set())
    assert {frozenset(board_tiles(b)) for b in reachable_boards(rules)} == expected


@pytest.mark.parametrize("tie_break", [t for t in TIE_BREAKS if t != "random"])
def test_the_first_move_listed_is_the_move_played(tie_break):
    """``move_values`` lists best first with equal values in the tie-break's order, so what ``advise`` shows first
    is the move the solution plays, in every (board, roll) of 9 tiles (where the win has exact ties); the values
    never improve down the list (beyond float noise: equal values are ordered by the tie-break)."""
    solution = solve(Rules(tiles=9), "win", tie_break=tie_break)
    for board in range(solution.game.states):
        for roll in solution.game.outcomes:
            played = int(solution.played([board], roll)[0])
            if played >= 0:
                listed = solution.move_values(board, roll)
                assert listed[0][0] == board_tiles(played), (board_tiles(board), roll)
                assert all(a[1] >= b[1] - 1e-12 for a, b in zip(listed, listed[1:], strict=False))


@pytest.mark.parametrize("rules", [Rules(tiles=7, win_at_most=6, one_die="high-shut"),
                                   Rules(tiles=7, win_at_most=10, one_die="sum-le-6")], ids=str)
@pytest.mark.parametrize("objective", ["remaining-sum", "flipped-count"])
def test_a_won_board_rolls_no_die_of_its_own(rules, objective):
    """Where the game is won no die is thrown: the numpy sweep's dice table reads all the dice there, as the compiled
    sweep's does (under a threshold and a one-die rule a won board's two dice values can differ, and the sweep must
    not keep the better)."""
    numpy_run, compiled = solve(rules, objective, path="numpy"), solve(rules, objective, path="compiled")
    won = numpy_run.game.won
    assert won.sum() > 0 and (numpy_run.dice[won] == rules.dice).all()
    np.testing.assert_array_equal(numpy_run.dice, compiled.dice)


def test_a_mixture_goes_only_where_it_may_play():
    """Random ties (a mixture): from every board in play and every roll, the moves it may play each with a chance
    above 0, the chances adding up to 1, one row per best move -- as the reference's own chances."""
    rules = Rules(tiles=6)
    solution = solve(rules, "win", tie_break="random", exact=True)
    play = reference_play(rules, "win", tie_break="random")
    game = solution.game
    for code in game.outcomes:
        at, child, chance = solution.transitions(game.playing, code)
        assert all(c > 0 for c in chance)
        for i, board in enumerate(game.playing.tolist()):
            mine = {int(child[j]): chance[j] for j in np.flatnonzero(at == i)}
            open_tiles = frozenset(board_tiles(board))
            theirs = {board_mask(sorted(open_tiles - set(m))): p for m, p in play.chances(open_tiles, code).items()
                      if p > 0}
            assert mine == theirs, (board, code)


@pytest.mark.parametrize("policy", ["optimal", "highest-tile"])
def test_a_play_valued_under_another_objective_counts_the_sum_it_is_left_with(policy):
    """The sum left by play optimal for the win (and by the highest-tile rule), followed forward by the reference:
    every game's end, stuck ones included, weighted by its chance."""
    rules = Rules(tiles=6)
    _, ends, _ = forward(reference_play(rules, "win", policy))
    expected = sum(p * utility("remaining-sum", rules, board) for board, p in ends.items())
    played = evaluate(rules, "win", policy, exact=True)
    assert policy_values(played, "remaining-sum")[rules.full_board] == expected


@pytest.mark.parametrize("rules", [Rules(tiles=5, layout="double-shutter"), Rules(tiles=9, max_per_move=2),
                                   Rules(tiles=7, moves="die-or-sum", one_die="sum-le-6"),
                                   Rules(tiles=5, layout="double-shutter", moves="die-or-sum", sides=4)],
                         ids=["double-shutter", "two-a-move", "die-or-sum-one-die", "double-shutter-die-or-sum"])
def test_large_levels_spread_exactly_the_legal_pairs_of_the_reference(rules, monkeypatch):
    """The level-by-level pairs built by spreading each move's compact boards (the path of large levels, forced
    here) are the (board, outcome, move) triples of the plain reference's move rule, blockers included."""
    monkeypatch.setattr(boards_module, "PAIR_MATRIX_LIMIT", 0)
    game = Game(rules)  # a fresh game: no levels kept from the small-level path
    tiles = range(1, game.positions + 1)
    codes = {o: (o if rules.moves == "sum" else game.outcome_code(o))
             for d in rules.dice_counts for o in outcomes(rules, d)}
    for k in range(1, game.positions + 1):
        pairs = game.levels.pairs(k)
        found = set(zip(pairs.parent.tolist(), pairs.code.tolist(), pairs.masks.tolist(), strict=True))
        expected = {(board_mask(open_), code, board_mask(m))
                    for open_ in map(frozenset, itertools.combinations(tiles, k))
                    for o, code in codes.items() for m in moves(rules, open_, o)}
        assert found == expected, k
