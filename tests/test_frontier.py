"""The risk frontier (:mod:`stb_core.frontier`) against a plain reference that propagates every board's frontier
from the finished boards up (:mod:`reference_frontier`): every corner found, none extra, exact values; the
weighting intervals, the float run against the exact one, the rules of thumb below it, and the command line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from reference import forward, is_won, reference_play, utility
from reference_frontier import reference_frontier

from stb_core import InputError, Rules
from stb_core.cli import main
from stb_core.frontier import best_at, frontier, policy_point

CASES = [
    (Rules(tiles=6), ("win", "remaining-sum")),
    (Rules(tiles=7), ("win", "remaining-sum")),
    (Rules(tiles=6, one_die="high-shut"), ("win", "remaining-sum")),
    (Rules(tiles=7, one_die="sum-le-6", one_die_forced=True), ("win", "remaining-sum")),
    (Rules(tiles=3, layout="double-shutter"), ("win", "remaining-sum")),
    (Rules(tiles=5, moves="die-or-sum"), ("win", "remaining-sum")),
    (Rules(tiles=6, win_at_most=3, max_per_move=2), ("win", "remaining-sum")),
    (Rules(tiles=6, sides=4, dice=3), ("win", "remaining-sum")),
    (Rules(tiles=6), ("win", "flipped-count")),
    (Rules(tiles=6), ("remaining-sum", "digits")),
    (Rules(tiles=6), ("flipped-count", "win")),
    (Rules(tiles=4, win_at_most=10), ("win", "remaining-sum")),  # won before the first roll: one corner
]


def label(case) -> str:
    rules, pair = case
    return f"{rules.describe()}|{','.join(pair)}"


@pytest.mark.parametrize("case", CASES, ids=label)
def test_every_corner_and_no_other_exactly(case):
    """The exact frontier's corners are the reference's, in order, to the last fraction."""
    rules, pair = case
    found = frontier(rules, pair, exact=True)
    assert [c.values for c in found.corners] == list(reference_frontier(rules, pair))


@pytest.mark.parametrize("case", CASES[:6], ids=label)
def test_each_corner_is_best_over_its_weighting_interval(case):
    """At both ends and the middle of a corner's interval of weights, no way of playing scores more than it (the
    reference's corners are every candidate), and the intervals tile [0, 1] from the first objective's end down."""
    rules, pair = case
    found = frontier(rules, pair, exact=True)
    reference = [tuple(s * v for s, v in zip((o.sense for o in found.objectives), point, strict=True))
                 for point in reference_frontier(rules, pair)]
    bounds = [c.weights for c in found.corners]
    assert bounds[0][1] == 1 and bounds[-1][0] == 0
    assert all(a[0] == b[1] for a, b in zip(bounds, bounds[1:], strict=False))
    for corner, y in zip(found.corners, found.points(), strict=True):
        low, high = corner.weights
        for w in (low, (low + high) / 2, high):
            best = max(w * a + (1 - w) * b for a, b in reference)
            assert w * y[0] + (1 - w) * y[1] == best, (corner.values, w)


@pytest.mark.parametrize("case", CASES[:8], ids=label)
def test_a_corners_policy_plays_its_point(case):
    """Each corner's policy, valued by the plain solver under its own move table, gives the corner's values: the
    point is the policy's, not only the search's arithmetic."""
    from stb_core.valuation import policy_values

    rules, pair = case
    found = frontier(rules, pair, exact=True)
    for corner in found.corners:
        values = tuple(policy_values(corner.solution, o)[rules.full_board] for o in pair)
        assert values == corner.values


@pytest.mark.parametrize("case", CASES[:8], ids=label)
def test_the_float_frontier_is_the_exact_one_within_rounding(case):
    """A float run finds the same corners (the boards here have no corner within rounding of an edge), to 1e-12."""
    rules, pair = case
    exact, floats = frontier(rules, pair, exact=True), frontier(rules, pair)
    assert len(floats.corners) == len(exact.corners)
    for e, f in zip(exact.corners, floats.corners, strict=True):
        assert f.values == pytest.approx([float(v) for v in e.values], rel=1e-12, abs=1e-12)
        assert list(f.weights) == pytest.approx([float(w) for w in e.weights], rel=1e-9, abs=1e-12)


def test_each_edge_s_price_is_what_a_point_of_winning_costs_in_sum():
    """Along each edge the sum left falls as the chance of winning does: one more unit of chance costs the difference
    in sum over the difference in chance of the reference's two corners, a positive number (empty at the last)."""
    rules = Rules(tiles=5)
    expected = reference_frontier(rules)
    table = frontier(rules, exact=True).table()
    prices = [(a[1] - b[1]) / (a[0] - b[0]) for a, b in zip(expected, expected[1:], strict=False)]
    assert list(table["price"][:-1]) == prices and all(p > 0 for p in prices)
    assert table["price"].iloc[-1] is None


@pytest.mark.slow
def test_the_classic_frontier_exactly():
    """Tiles 1–9, two dice: the exact frontier's corners are the reference's (about ten seconds each), and the
    README's sentence on it (its corners, the whole trade in winning and in sum) states the reference's numbers."""
    rules = Rules()
    expected = reference_frontier(rules)
    assert [c.values for c in frontier(rules, exact=True).corners] == list(expected)
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    win, total = expected[0][0] - expected[-1][0], expected[0][1] - expected[-1][1]
    assert f"the frontier has {len(expected)} corners" in readme
    assert f"is {100 * float(win):.3f} percentage points of winning against {float(total):.3f} points of sum" in readme


@pytest.mark.parametrize("rules", [Rules(tiles=7), Rules(tiles=5, one_die="high-shut")], ids=str)
@pytest.mark.parametrize("policy", ["highest-tile", "largest-tile", "lowest-tile", "most-tiles", "random"])
def test_rules_of_thumb_lie_below_the_frontier(rules, policy):
    """A rule of thumb's point is the plain solver's, its dice chosen for the first objective (the win) and both
    objectives read off where its games end; what it gives up against the frontier is never negative, in either
    objective; a corner gives up nothing."""
    point = policy_point(rules, ("win", "remaining-sum"), policy, exact=True)
    _, ends, _ = forward(reference_play(rules, "win", policy))
    assert point == (sum(q for board, q in ends.items() if is_won(rules, board)),
                     sum(q * utility("remaining-sum", rules, board) for board, q in ends.items()))
    found = frontier(rules, exact=True)
    win, total = found.gives_up(point)
    assert win >= 0 and total >= 0
    assert all(found.gives_up(c.values) == (0, 0) for c in found.corners)


def test_what_is_given_up_is_read_off_the_frontier_between_corners():
    """Between two corners the frontier is the straight line that mixing them reaches; beyond its ends, the end."""
    points = [(Fraction(10), Fraction(-5)), (Fraction(8), Fraction(-3)), (Fraction(2), Fraction(-2))]
    assert best_at(points, Fraction(-4), 1) == 9  # halfway from the first corner to the second
    assert best_at(points, Fraction(-6), 1) == 10  # below the first corner's second coordinate: the first corner
    assert best_at(points, Fraction(-2), 1) == 2
    assert best_at([(b, a) for a, b in points], Fraction(5), 1) == Fraction(-5, 2)  # halfway from (8, -3) to (2, -2)


@pytest.mark.parametrize("objectives", ["win", "win,win", "win,luck", "", ["win"], 3])
def test_bad_objectives_are_refused_naming_the_parameter(objectives):
    with pytest.raises(InputError, match="objectives must be two different ones of win, remaining-sum"):
        frontier(Rules(tiles=4), objectives)


def test_the_command_prints_the_corners_as_json_with_exact_fractions(capsys):
    """``stb frontier --exact --json``: a list of corners with p_win, expected_remaining_sum, weights and the exact
    fractions, the library's values."""
    assert main(["frontier", "--tiles", "6", "--exact", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = reference_frontier(Rules(tiles=6))
    exact = [(Fraction(c["exact"]["p_win"]), Fraction(c["exact"]["expected_remaining_sum"])) for c in printed]
    assert exact == list(expected)
    assert [c["p_win"] for c in printed] == [float(p) for p, _ in expected]
    assert printed[0]["weights"][1] == 1.0 and printed[-1]["weights"][0] == 0.0


def test_the_command_refuses_bad_objectives_in_one_line(capsys):
    assert main(["frontier", "--objectives", "win,luck"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "objectives must be two different ones" in error
