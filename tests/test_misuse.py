"""The library refuses misuse with one InputError that names what is wrong (never a raw TypeError, IndexError or
OverflowError from deep inside, never a silent answer): the cases of the reliability review, by class."""

import numpy as np
import pytest

from stb_core import Rules, custom_objective, evaluate, key_policy, solve
from stb_core.boards import board_label, board_mask, board_tiles
from stb_core.counts import counts_by_moves, total_winning_sequences, winning_sequence_counts
from stb_core.game import game_of, legal_moves
from stb_core.rules import InputError
from stb_core.valuation import final_sum_distribution, policy_values, roll_count_distribution

SMALL = Rules(tiles=5)


@pytest.mark.parametrize(("call", "message"), [
    # tiles and board masks: whole numbers in range, or refused (1.5 was tile 1, "3" was the board {1, 2})
    (lambda: board_mask([0]), "tiles must be whole numbers from 1 to 64; got 0"),
    (lambda: board_mask([-1]), "got -1"),
    (lambda: board_mask(["a"]), "got 'a'"),
    (lambda: board_mask([10**20]), "got 100000000000000000000"),
    (lambda: board_mask([1.5]), "got 1.5"),
    (lambda: board_mask(None), "tiles must be a collection of tile numbers"),
    (lambda: board_tiles(None), "a board must be a bit-mask"),
    (lambda: board_tiles(-1), "a board must be a bit-mask of at most 64 tiles, a whole number from 0"),
    (lambda: board_tiles(2**80), "a board must be a bit-mask of at most 64 tiles"),
    (lambda: board_mask([1, 1]), "tiles must name each tile once"),
    (lambda: board_mask({3: 1}), "tiles must be a collection of tile numbers"),  # a dict's keys read as tiles
    (lambda: custom_objective("x", of_sum=abs, maximise="yes"), "maximise must be True or False; got 'yes'"),
    (lambda: custom_objective(None, of_sum=abs), "name must be a text naming it"),
    (lambda: board_tiles(1.5), "got 1.5"),
    (lambda: board_tiles("3"), "got '3'"),
    (lambda: board_label(-1), "got -1"),
    # a missing rules value is named, not an AttributeError
    (lambda: legal_moves(None, 511, 9), "rules must be a stb_core.Rules value, got NoneType"),
    (lambda: counts_by_moves(None), "rules must be a stb_core.Rules value"),
    (lambda: winning_sequence_counts(None), "rules must be a stb_core.Rules value"),
    (lambda: game_of(None), "rules must be a stb_core.Rules value"),
    (lambda: roll_count_distribution(None), "solution must be a stb_core Solution"),
    # objectives: a value per board, finite as a float (the finiteness check itself overflowed on 10**400)
    (lambda: solve(Rules(tiles=6), custom_objective("x", of_board=lambda b: [1, 2, 3])),
     "of_board must give one value per board it is given (64); got 3"),
    (lambda: solve(Rules(tiles=6), custom_objective("x", of_sum=lambda s: 10**400)),
     "objective 'x' must give a finite number for every final board"),
    # policies: keys must be one integer per move or board (NaN orders nothing)
    (lambda: evaluate(SMALL, "win", key_policy("k", move=lambda g: np.full(g.catalogue.flat.size, np.nan))),
     "policy 'k' must give one integer key per move"),
    (lambda: evaluate(SMALL, "win", key_policy("k", move=lambda g: np.array(["a"] * g.catalogue.flat.size))),
     "policy 'k' must give one integer key per move"),
    (lambda: evaluate(SMALL, "win", key_policy("k", left=lambda g: np.zeros(3, dtype=int))),
     "32 integers; got int64 of shape (3,)"),
    (lambda: evaluate(SMALL, "win", lambda board, roll, moves: None), "policy function must return a move"),
    (lambda: key_policy("k"), "key_policy needs a move key, a left key or both"),
    # contradictions and look-alikes are refused, not answered
    (lambda: final_sum_distribution(Rules(tiles=8), solution=solve(Rules(), "remaining-sum")),
     "rules and solution disagree"),
    (lambda: solve(Rules(), "win", exact="yes"), "exact must be True or False, got 'yes'"),
    (lambda: Rules(tiles=np.float64(9)), "tiles must be an integer between 1 and 24"),
    # the review's raw exceptions: each names what was wrong
    (lambda: solve(Rules(tiles=5), "win").played([99], 7), "boards must be bit-masks of this game's boards"),
    (lambda: solve(Rules(tiles=5), "win").played([3], 99), "roll must be an outcome of these rules' dice"),
    (lambda: solve(Rules(tiles=5), "win").played(None, 7), "boards must be bit-masks"),
    (lambda: total_winning_sequences(None), "rules must be a stb_core.Rules value"),
    (lambda: total_winning_sequences("x"), "rules must be a stb_core.Rules value"),
    (lambda: total_winning_sequences(9), "rules must be a stb_core.Rules value"),
    (lambda: policy_values(solve(Rules(tiles=5), "win"), utility=np.full(32, np.nan)), "utility must be finite"),
])
def test_misuse_is_refused_naming_the_parameter(call, message):
    with pytest.raises(InputError, match=None) as raised:
        call()
    assert message in str(raised.value), str(raised.value)


def test_numpy_integers_are_integers():
    """A numpy integer or bool is taken as the Python value: the same rules, equal and with one hash."""
    rules = Rules(tiles=np.int64(9), dice=np.int32(2), sides=np.int8(6), one_die_forced=np.True_)
    assert rules == Rules(one_die_forced=True) and hash(rules) == hash(Rules(one_die_forced=True))
    assert type(rules.tiles) is int and board_tiles(np.int64(5)) == (1, 3)


def test_exact_values_reach_exactly_sixteen_tile_positions():
    """The documented limit of exact fractions, 16 tile positions, is a limit and not one short of it: a 16-tile
    exact solve is accepted before any work, a 17-tile one refused (Double Shutter: 8 in front, then 9)."""
    from stb_core.sweep import check_exact_reach

    assert check_exact_reach(Rules(tiles=16), True) is None
    assert check_exact_reach(Rules(tiles=8, layout="double-shutter"), True) is None
    for rules in (Rules(tiles=17), Rules(tiles=9, layout="double-shutter")):
        with pytest.raises(InputError):
            check_exact_reach(rules, True)
