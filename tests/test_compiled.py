"""The compiled sweep (numba) against the numpy sweep and the exact plain reference: the same values (to 1e-12),
the same dice on every board and the same move in every (board, roll), on random rule sets (Double Shutter and the
Thai style included), for every objective, every policy (mixtures and card policies with fixed dice rules included)
and every tie-break (random included), by each of the three ways the kernels find a board's moves."""

import os
import subprocess
import sys
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
import pytest
from depth import draws
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference import reference_values
from test_properties import reference_moves, small_rules

from stb_core import (
    OBJECTIVES,
    POLICIES,
    TIE_BREAKS,
    InputError,
    Rules,
    RulesError,
    evaluate,
    game_of,
    policy_values,
    solve,
    valuation,
)
from stb_core import compiled as compiled_module
from stb_core._kernels import SUBSETS
from stb_core.cards import Card
from stb_core.cost import COMPILED_MIN_TILES
from stb_core.sweep import forget_solutions

pytest.importorskip("numba")

STATIC_TIES = tuple(t for t in TIE_BREAKS if t != "random")  # a random tie-break is a mixture
DETERMINISTIC = ("optimal", "worst", "highest-tile", "sequence-count")
EVERY_POLICY = POLICIES
CARDS = (Card(("shut the fewest tiles", "roll one die when 6 or less is left")),
         Card(("leave the most rolls playable", "roll one die when you may")))


def same_solution(compiled, numpy_run):
    """Values to 1e-12 (relative to the largest), dice on every board, the move on every (board, roll)."""
    assert compiled.path == "compiled" and numpy_run.path == "numpy"
    scale = max(1.0, float(np.max(np.abs(numpy_run.values))))
    assert np.max(np.abs(compiled.values - numpy_run.values)) <= 1e-12 * scale
    np.testing.assert_array_equal(compiled.dice, numpy_run.dice)
    assert (compiled.sigma is None) == (numpy_run.sigma is None)
    if compiled.sigma is not None:
        np.testing.assert_array_equal(compiled.sigma, numpy_run.sigma)


@contextmanager
def kernel(name: str):
    """Run the compiled sweep with one way of finding a board's moves: ``patterns`` (looked up per pattern of low
    tiles), ``subsets`` (listed from each board's open tiles) or ``catalogue`` (every move of the outcome tried),
    where the rules allow it (patterns need no blockers, subsets one row and the sum rule)."""
    with patch.object(compiled_module, "PATTERN_BITS", 64 if name == "patterns" else -1), \
            patch.object(compiled_module, "SUBSETS_ALLOWED", name != "catalogue"):
        compiled_module.moves_of.cache_clear()
        forget_solutions()
        yield
    compiled_module.moves_of.cache_clear()
    forget_solutions()


def playable(rules, objective, policy, tie_break) -> bool:
    if objective == "digits" and rules.layout != "row":
        return False
    return not (tie_break == "random" and (policy == "random" or isinstance(policy, Card)))


@settings(max_examples=draws(200), deadline=None)
@given(small_rules(max_tiles=9), st.sampled_from(OBJECTIVES), st.sampled_from(EVERY_POLICY + CARDS),
       st.sampled_from(tuple(TIE_BREAKS)), st.sampled_from(["patterns", "subsets", "catalogue"]))
def test_compiled_sweep_equals_numpy_sweep(rules, objective, policy, tie_break, which):
    assume(playable(rules, objective, policy, tie_break))
    policy = policy.policy() if isinstance(policy, Card) else policy
    with kernel(which):
        compiled = evaluate(rules, objective, policy, tie_break=tie_break, path="compiled")
    numpy_run = evaluate(rules, objective, policy, tie_break=tie_break, path="numpy")
    same_solution(compiled, numpy_run)


@settings(max_examples=draws(60), deadline=None)
@given(small_rules(max_tiles=6, classic=True), st.sampled_from(OBJECTIVES), st.sampled_from(DETERMINISTIC),
       st.sampled_from(STATIC_TIES), st.sampled_from(["patterns", "subsets"]))
def test_compiled_sweep_equals_exact_reference(rules, objective, policy, tie_break, which):
    """Values against the exact reference (Fractions), moves and dice against the reference's choices."""
    with kernel(which):
        compiled = evaluate(rules, objective, policy, tie_break=tie_break, path="compiled")
    reference = reference_values(rules, objective, policy, tie_break=tie_break)
    table, dice = reference_moves(rules, objective, policy, tie_break)
    played = compiled.move_masks()
    for (mask, roll), move in table.items():
        assert played[mask, roll] == move
    for mask in range(rules.states):
        board = frozenset(t for t in range(1, rules.tiles + 1) if mask >> (t - 1) & 1)
        assert abs(compiled.values[mask] - float(reference(board))) <= 1e-12 * max(1, abs(float(reference(board))))
        if sum(board) > rules.win_at_most:
            assert compiled.dice[mask] == dice(board)


@pytest.mark.parametrize("one_die", ["never", "high-shut", "sum-le-6"])
def test_large_board_paths_agree(one_die):
    """At the size where ``auto`` switches to the compiled loop both sweeps give the same values and moves."""
    rules = Rules(tiles=COMPILED_MIN_TILES - 6, one_die=one_die)
    for objective in ("win", "remaining-sum"):
        same_solution(solve(rules, objective, path="compiled"), solve(rules, objective, path="numpy"))
    assert solve(Rules(tiles=COMPILED_MIN_TILES), "remaining-sum").path == "compiled"
    assert solve(Rules(tiles=COMPILED_MIN_TILES - 1), "remaining-sum").path == "numpy"


@pytest.mark.parametrize("arguments, message", [
    ({"path": "fast"}, "path must be one of auto, numpy, compiled"),
    ({"path": "compiled", "exact": True}, "path 'compiled' needs floats"),
])
def test_compiled_path_refuses_what_it_cannot_do(arguments, message):
    with pytest.raises(RulesError, match=message):
        solve(Rules(tiles=4), "win", **arguments)


@pytest.mark.parametrize("rules", [Rules(tiles=6), Rules(tiles=4, layout="double-shutter"),
                                   Rules(tiles=5, moves="die-or-sum", one_die="high-shut")], ids=str)
def test_a_given_move_table_is_read_and_never_written(rules):
    """A policy given as a read-only move table (another solve's, as chapter 6's cards are valued) plays on the
    compiled path exactly as on numpy's: the kernel reads the table and writes no move table of its own."""
    from stb_core.policies import table_policy

    sigma = solve(rules, "remaining-sum").sigma.copy()
    sigma.flags.writeable = False
    policy = table_policy("the least sum's moves", sigma)
    same_solution(evaluate(rules, "win", policy, path="compiled"), evaluate(rules, "win", policy, path="numpy"))


def test_a_move_table_left_out_for_memory_is_not_called_a_mixture(monkeypatch):
    """A compiled solve whose move table is over the recording limit has no table, and says so; a mixture (random
    ties) says it is one: two reasons for no table, two messages."""
    from stb_core import limits

    monkeypatch.setattr(limits, "SIGMA_BYTES", 1)
    left_out = solve(Rules(tiles=7), "remaining-sum", path="compiled")
    with pytest.raises(InputError, match="the move table of this solve was not recorded"):
        left_out.played([127], 7)
    with pytest.raises(InputError, match="is a mixture"):
        solve(Rules(tiles=6), "win", tie_break="random").played([63], 7)


def same_numbers(compiled, numpy_run, what: str):
    compiled, numpy_run = np.asarray(compiled, dtype=float), np.asarray(numpy_run, dtype=float)
    assert compiled.shape == numpy_run.shape, what
    assert np.max(np.abs(compiled - numpy_run), initial=0.0) <= 1e-12 * max(1.0, np.max(np.abs(numpy_run))), what


def same_passes(compiled, numpy_run, seed: int = 0):
    """Every pass a solution offers, compiled against numpy: the value of play for another utility with a step per
    roll, the expected rolls, the chance of reaching and of ending on every board, the length of a game and the
    tiles open after each roll -- from the full board and from one below it."""
    game = numpy_run.game
    utility = np.random.default_rng(seed).random(game.states)
    same_numbers(policy_values(compiled, utility=utility, step=0.5),
                 policy_values(numpy_run, utility=utility, step=0.5), "policy values")
    for board in (None, int(game.boards[len(game.boards) // 2])):
        same_numbers(valuation.expected_rolls(compiled, board), valuation.expected_rolls(numpy_run, board), "rolls")
        same_numbers(valuation.reach_probabilities(compiled, board), valuation.reach_probabilities(numpy_run, board),
                     "reach")
        same_numbers(valuation.final_board_probabilities(compiled, board),
                     valuation.final_board_probabilities(numpy_run, board), "final boards")
        lengths = (valuation.roll_count_distribution(compiled, board),
                   valuation.roll_count_distribution(numpy_run, board))
        longest = max(max(lengths[0], default=0), max(lengths[1], default=0)) + 1
        same_numbers([lengths[0].get(n, 0) for n in range(longest)], [lengths[1].get(n, 0) for n in range(longest)],
                     "game lengths")
        same_numbers(valuation.tiles_open_after(compiled, 3, board), valuation.tiles_open_after(numpy_run, 3, board),
                     "tiles open")


@settings(max_examples=draws(25), deadline=None)
@given(small_rules(max_tiles=8), st.sampled_from(("win", "remaining-sum")),
       st.sampled_from(("optimal", "highest-tile", "random")), st.sampled_from(("canonical", "random")))
def test_compiled_passes_equal_numpy_passes(rules, objective, policy, tie_break):
    assume(playable(rules, objective, policy, tie_break))
    numpy_run = evaluate(rules, objective, policy, tie_break=tie_break, path="numpy")
    same_passes(evaluate(rules, objective, policy, tie_break=tie_break, path="compiled"), numpy_run)


@pytest.mark.parametrize("rules", [Rules(tiles=7, one_die="sum-le-6"), Rules(tiles=7, one_die="high-shut",
                                   one_die_forced=True), Rules(tiles=4, layout="double-shutter", one_die="sum-le-9"),
                                   Rules(tiles=6, moves="die-or-sum", one_die="sum-le-5", one_die_forced=True)],
                         ids=str)
@pytest.mark.parametrize("tie_break", ["canonical", "random"])
def test_compiled_passes_roll_one_die_where_numpy_does(rules, tie_break):
    """The one-die games, where the forward and backward passes must weigh a board's outcomes by the chances of
    the dice it rolls."""
    numpy_run = solve(rules, "win", tie_break=tie_break, path="numpy")
    same_passes(solve(rules, "win", tie_break=tie_break, path="compiled"), numpy_run)


@pytest.mark.parametrize("rules", [Rules(tiles=14, dice=3), Rules(tiles=15, dice=3, one_die="sum-le-6"),
                                   Rules(tiles=14, dice=3, max_per_move=3)], ids=str)
@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_boards_past_the_pattern_tiles_play_the_best_move(rules, objective):
    """Where moves reach past ``PATTERN_BITS`` tiles (three dice) the compiled sweep finds each outcome's best move
    while it lists a board's open tiles depth first: the same move as numpy's in every (board, roll), not only the
    same values."""
    assert compiled_module.moves_of(game_of(rules)).mode == SUBSETS
    same_solution(solve(rules, objective, path="compiled"), solve(rules, objective, path="numpy"))


def test_a_mixture_of_one_best_move_names_its_place():
    """The kernels' choice returns the place ``j`` of the first move it plays, a mixture's too: one whose best move
    is alone returned -1, and the sweep then read ``masks[-1]``, past the listed moves (a crash on four dice and 14
    tiles, where a board's moves are listed depth first)."""
    kernels = compiled_module._kernels()
    masks, index = np.array([0b001, 0b010, 0b100]), np.array([0, 1, 2])
    values = compiled_module.read_only(np.array([0.0, 0, 0, 0.5, 0, 0.9, 0.2, 0]))  # leaving {1, 3} (5) is best
    no_key = compiled_module.read_only(np.zeros(0, dtype=np.int64))
    kids = np.zeros(3, dtype=np.int64)
    for mix in (False, True):
        count, child, j = kernels.choose(0b111, 0, masks, index, 0, 3, 1.0, values, no_key, no_key, no_key, True,
                                             mix, np.array([0, 3]), np.full(1, -1, dtype=np.int8), kids)
        assert (count, child, j) == (1, 0b101, 1)


@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_a_mixture_on_moves_listed_depth_first_is_numpy_s(objective):
    """Random ties (a mixture) where a board's moves are listed depth first: four dice on 14 tiles."""
    rules = Rules(tiles=14, dice=4)
    assert compiled_module.moves_of(game_of(rules)).mode == SUBSETS
    same_solution(solve(rules, objective, tie_break="random", path="compiled"),
                  solve(rules, objective, tie_break="random", path="numpy"))


@pytest.mark.parametrize("which", ["patterns", "subsets", "catalogue"])
@pytest.mark.parametrize("tie_break", STATIC_TIES)
def test_every_listing_plays_the_best_move_on_eight_tiles(which, tie_break):
    """Each way of listing a board's moves, forced on the classic rules of 8 tiles, plays numpy's move table."""
    for objective in ("win", "remaining-sum"):
        with kernel(which):
            compiled = solve(Rules(tiles=8), objective, tie_break=tie_break, path="compiled")
        same_solution(compiled, solve(Rules(tiles=8), objective, tie_break=tie_break, path="numpy"))


PASSES_AFTER_SET_UP = """
from stb_core import Rules, evaluate, solve, table_policy
from stb_core.valuation import expected_rolls, final_sum_distribution, policy_values, roll_count_distribution
games = [Rules(tiles=7, one_die="sum-le-6"), Rules(tiles=6, one_die="high-shut", one_die_forced=True),
         Rules(tiles=4, layout="double-shutter"), Rules(tiles=6, moves="die-or-sum"), Rules(tiles=14, dice=3),
         Rules(tiles=9, dice=4, sides=10)]
for rules in games:
    for policy in ("optimal", "worst", "most-options", "largest-tile", "random"):
        for tie_break in ("canonical", "fewest-tiles") + (("random",) if policy != "random" else ()):
            played = evaluate(rules, "remaining-sum", policy, tie_break=tie_break, path="compiled")
            expected_rolls(played)
            final_sum_distribution(solution=played)
            roll_count_distribution(played)
            policy_values(played, "win")
    table = solve(rules, "win", path="compiled").sigma
    evaluate(rules, "win", table_policy("given", table), path="compiled")
"""


@pytest.mark.slow
def test_the_set_up_compiles_every_kernel_a_command_uses(tmp_path):
    """``make setup`` runs ``python -m stb_core.precompile``; after it, every compiled pass on every kind of game
    (one-die rules, Double Shutter, the Thai style, moves listed depth first, 16-bit move indices, every kind of
    policy, given move tables) is read from numba's cache: a user's first command compiles nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "stb_core.precompile"], env=env, check=True, capture_output=True)
    run = subprocess.run([sys.executable, "-c", PASSES_AFTER_SET_UP], env={**env, "NUMBA_DEBUG_CACHE": "1"},
                         check=True, capture_output=True, text=True)
    compiled_now = [line for line in run.stdout.splitlines() if "data saved" in line]
    assert not compiled_now, compiled_now
