"""Property tests: the engine agrees with the plain reference solver on many random small rule sets."""

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from reference import reference_values, winning_sequences

from stb_core import OBJECTIVES, POLICIES, Rules, board_tiles, solve
from stb_core.counts import total_winning_sequences


@st.composite
def small_rules(draw, max_tiles=7):
    tiles = draw(st.integers(1, max_tiles))
    dice = draw(st.integers(1, 3))
    sides = draw(st.integers(2, 6))
    one_die = draw(st.sampled_from(["never", "high-shut", "sum-le-6"])) if dice > 1 else "never"
    forced = draw(st.booleans()) if one_die != "never" else False
    max_per_move = draw(st.one_of(st.none(), st.integers(1, tiles)))
    total = tiles * (tiles + 1) // 2
    win_at_most = draw(st.integers(0, min(total - 1, 4)))
    return Rules(tiles=tiles, dice=dice, sides=sides, one_die=one_die, one_die_forced=forced,
                 max_per_move=max_per_move, win_at_most=win_at_most)


def every_board(rules):
    return [(mask, frozenset(board_tiles(mask))) for mask in range(rules.states)]


@given(small_rules(), st.sampled_from(OBJECTIVES), st.sampled_from(POLICIES))
def test_float_engine_matches_reference(rules, objective, policy):
    engine = solve(rules, objective, policy)
    reference = reference_values(rules, objective, policy)
    for mask, board in every_board(rules):
        assert abs(engine.values[mask] - float(reference(board))) <= 1e-9, (rules, objective, policy, board)


@given(small_rules(max_tiles=6), st.sampled_from(OBJECTIVES), st.sampled_from(POLICIES))
def test_exact_engine_equals_reference_and_float(rules, objective, policy):
    exact = solve(rules, objective, policy, exact=True)
    floats = solve(rules, objective, policy)
    reference = reference_values(rules, objective, policy)
    for mask, board in every_board(rules):
        assert isinstance(exact.values[mask], Fraction)
        assert exact.values[mask] == reference(board)
        assert abs(float(exact.values[mask]) - floats.values[mask]) <= 1e-12


@given(small_rules(max_tiles=6), st.sampled_from(OBJECTIVES))
def test_user_function_policy_matches_reference(rules, objective):
    def smallest_first(open_tiles, roll, moves):  # a deliberately odd rule: shut the smallest tiles
        return min(moves)

    engine = solve(rules, objective, smallest_first)
    reference = reference_values(rules, objective, smallest_first)
    for mask, board in every_board(rules):
        assert abs(engine.values[mask] - float(reference(board))) <= 1e-9


@given(small_rules())
def test_sequence_counts_match_reference(rules):
    engine = total_winning_sequences(rules)
    reference = winning_sequences(rules)
    for mask, board in every_board(rules):
        assert engine[mask] == reference(board)


@given(small_rules(), st.sampled_from(OBJECTIVES))
def test_optimal_beats_every_policy_and_worst_is_beaten_by_all(rules, objective):
    optimal = solve(rules, objective, "optimal")
    worst = solve(rules, objective, "worst")
    sense = optimal.objective.sense
    for policy in POLICIES:
        values = solve(rules, objective, policy).values
        assert np.all(sense * (optimal.values - values) >= -1e-12), policy
        assert np.all(sense * (values - worst.values) >= -1e-12), policy


@given(small_rules(), st.sampled_from(POLICIES))
def test_win_probabilities_are_probabilities(rules, policy):
    values = solve(rules, "win", policy).values
    assert np.all((values >= 0) & (values <= 1))
