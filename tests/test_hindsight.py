"""The hindsight value against an independent brute force over every sequence of throws (each searched for its
best line, move by move, with no sets of boards), exact fractions against floats, a seeded simulation within its
interval, and its place between optimal play and certainty."""

import itertools
import math
import random
from fractions import Fraction

import pytest

from stb_core import Rules, board_mask, solve
from stb_core.hindsight import hindsight, hindsight_refusal
from stb_core.rules import InputError


def moves_for(rules: Rules, open_tiles: frozenset, total: int):
    """Every set of open tiles adding up to ``total`` (the sum rule), written out plainly."""
    tiles = sorted(open_tiles)
    limit = rules.max_per_move or len(tiles)
    return [set(c) for k in range(1, limit + 1) for c in itertools.combinations(tiles, k) if sum(c) == total]


def best_line(rules: Rules, open_tiles: frozenset, throws: tuple, objective: str):
    """The best outcome of any line of play through ``throws`` (each a tuple of dice faces, the first die read
    when one die is rolled), by trying every move at every roll."""
    left = sum(open_tiles)
    if rules.is_won(left):
        return 1 if objective == "win" else left
    if not throws:
        raise AssertionError("the sequence ran out before the game ended")
    faces, rest = throws[0], throws[1:]
    dice = [rules.dice]
    if rules.has_one_die_rule:
        allowed = (max(open_tiles, default=0) < 7 if rules.one_die == "high-shut"
                   else left <= rules.one_die_threshold)
        dice = ([1] if rules.one_die_forced else [1, rules.dice]) if allowed else [rules.dice]
    outcomes = []
    for d in dice:
        for move in moves_for(rules, open_tiles, sum(faces[:d])):
            outcomes.append(best_line(rules, open_tiles - move, rest, objective))
    if not outcomes:  # no move: the game ends here
        return 0 if objective == "win" else left
    return max(outcomes) if objective == "win" else min(outcomes)


def brute_force(rules: Rules, objective: str):
    """The expectation, over every sequence of throws long enough for any game (tiles + 1 throws), of its best
    line. Without a choice of dice only the total matters: one throw per total, with its chance."""
    faces = list(itertools.product(range(1, rules.sides + 1), repeat=rules.dice))
    chance = {f: Fraction(1, len(faces)) for f in faces}
    if not rules.has_one_die_rule:
        chance = {}
        for f in faces:
            chance[(sum(f),)] = chance.get((sum(f),), 0) + Fraction(1, len(faces))
    total = Fraction(0)
    for throws in itertools.product(chance, repeat=rules.tiles + 1):
        p = math.prod(chance[t] for t in throws)
        total += p * best_line(rules, frozenset(range(1, rules.tiles + 1)), throws, objective)
    return total


@pytest.mark.parametrize(("rules", "objective"), [
    (Rules(tiles=4), "win"),
    (Rules(tiles=4), "remaining-sum"),
    (Rules(tiles=5, dice=1), "win"),
    (Rules(tiles=5, dice=1), "remaining-sum"),
    (Rules(tiles=4, sides=4), "win"),
    (Rules(tiles=4, max_per_move=1, sides=4), "remaining-sum"),
    (Rules(tiles=4, win_at_most=2), "win"),
    (Rules(tiles=4, win_at_most=2), "remaining-sum"),  # a line that ends won keeps the sum it leaves
    (Rules(tiles=3, one_die="sum-le-4", sides=4), "win"),
    (Rules(tiles=3, one_die="sum-le-3", one_die_forced=True, sides=4), "win"),
    (Rules(tiles=3, one_die="high-shut", sides=3), "win"),
])
def test_hindsight_equals_the_brute_force_over_every_sequence(rules, objective):
    expected = brute_force(rules, objective)
    assert hindsight(rules, objective, exact=True) == expected
    assert hindsight(rules, objective) == pytest.approx(float(expected), abs=1e-12)


def test_a_seeded_simulation_of_known_sequences_lies_in_its_interval():
    """Sample sequences of throws, search each for its best line: the share won is within its 99.9% interval of
    the exact hindsight value (tiles 1-7, two dice: each sequence searched in full)."""
    rules, games = Rules(tiles=7), 4_000
    generator = random.Random(2026)
    wins = 0
    for _ in range(games):
        throws = tuple((generator.randint(1, 6), generator.randint(1, 6)) for _ in range(rules.tiles + 1))
        wins += best_line(rules, frozenset(range(1, 8)), throws, "win")
    exact = hindsight(rules)
    assert abs(wins / games - exact) <= 3.29 * math.sqrt(exact * (1 - exact) / games)


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=10), Rules(one_die="sum-le-6"), Rules(dice=3, tiles=10),
                                   Rules(moves="die-or-sum"), Rules(layout="double-shutter", tiles=5)])
def test_hindsight_bounds_optimal_play(rules):
    """Knowing the throws can only help: the hindsight chance is at least the optimal one, and at most 1."""
    assert solve(rules, "win").value() <= hindsight(rules) + 1e-12 <= 1 + 1e-12


def test_the_sum_left_from_a_board_and_exact_floats_agree():
    rules = Rules()
    board = board_mask([1, 2, 3, 9])
    assert hindsight(rules, "remaining-sum", board=board) == pytest.approx(
        float(hindsight(rules, "remaining-sum", board=board, exact=True)), abs=1e-12)
    assert hindsight(rules, "remaining-sum", board=board) <= float(solve(rules, "remaining-sum").value(board))
    assert hindsight(rules, board=board_mask([])) == 1


@pytest.mark.parametrize(("rules", "objective", "message"), [
    (Rules(), "flipped-count", "computed for the objectives win and remaining-sum"),
    (Rules(one_die="high-shut"), "remaining-sum", "no one-die rule, forced or optional"),
    (Rules(one_die="high-shut", one_die_forced=True), "remaining-sum", "no one-die rule, forced or optional"),
    (Rules(layout="double-shutter", tiles=4), "remaining-sum", "tiles in one row"),
    (Rules(tiles=17), "win", "tiles must be at most 16 for hindsight values; got 17"),
    (Rules(layout="double-shutter"), "win", "for Double Shutter, tiles at most 8"),
])
def test_what_hindsight_does_not_define_is_refused_with_the_reason(rules, objective, message):
    with pytest.raises(InputError, match=message):
        hindsight(rules, objective)


def test_hindsight_takes_sixteen_tiles_and_refuses_seventeen():
    """The limit the command's help and the message state, at its edge (checked before any work)."""
    assert hindsight_refusal(Rules(tiles=16), "win") is None
    assert hindsight_refusal(Rules(tiles=17), "win") == "tiles must be at most 16 for hindsight values; got 17"


@pytest.mark.parametrize("rules", [Rules(tiles=5, moves="die-or-sum"), Rules(tiles=4, layout="double-shutter"),
                                   Rules(tiles=5, one_die="sum-le-6")])
def test_the_sum_left_with_hindsight_is_refused_where_lines_after_the_same_throws_leave_different_sums(rules):
    """The hindsight sum left assumes every line after the same throws ends on one total: true only on one row
    under the sum rule with no one-die rule; elsewhere it is refused (the win is still computed)."""
    assert "sum left open is computed for tiles in one row, the sum rule" in hindsight_refusal(rules, "remaining-sum")
    assert hindsight_refusal(rules, "win") is None
