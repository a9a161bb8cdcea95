r"""The risk frontier between two objectives: every way of playing that is best for some mix of them.

Two objectives ``u_1, u_2`` (say the chance of winning and the expected sum left), each turned so that larger is
better: ``y_i = s_i E[u_i(F)]`` with ``s_i`` the objective's sense and ``F`` the final board. Every way of playing
``pi`` has a point ``y(pi)``; tossing a coin before the game between two ways of playing reaches every point between
theirs, so the points reachable form a convex polygon, and the best trade-offs are its upper-right boundary: the
**frontier**. Its corners are deterministic policies, each optimal for the weighted objective

    u_w(F) = w s_1 u_1(F) + (1 - w) s_2 u_2(F),    0 <= w <= 1,

whose optimal policy (one Bellman sweep, :func:`stb_core.sweep.solve`) maximises ``w y_1 + (1 - w) y_2``.

**Dichotomic search** (Aneja and Nair, 1979). Start from the best point for ``y_1`` (``w = 1``) and the best for
``y_2`` (``w = 0``). For two neighbouring points ``A, B`` with ``y_1(A) > y_1(B)``, solve for the weight normal to
the segment between them,

    w : (1 - w) = (y_2(B) - y_2(A)) : (y_1(A) - y_1(B));

if the policy found, ``C``, scores strictly more than ``A`` (and ``B``) under that weight, ``C`` is a new corner:
search between ``A, C`` and between ``C, B``; otherwise ``AB`` is an edge of the frontier. Each solve finds a corner
or closes an edge. Exact runs (Fractions) decide "strictly more" exactly, float runs within the engine's one
equality rule (:func:`stb_core.choice.same_value`). A point matched or beaten in both coordinates by another found
point is dropped, so the two ends are the **lexicographic** optima: the most of ``y_1``, then of ``y_2`` among those
(the most wins, then the lowest sum among them), and the other way round.

A corner's **weighting interval** is the range of ``w`` for which it is optimal: from the normal of the edge on its
``y_2`` side to the normal of the edge on its ``y_1`` side (0 and 1 at the ends). A point ``y`` of any other way of
playing (a rule of thumb) lies on or below the frontier; it **gives up** ``F_1(y_2) - y_1`` of the first objective
at the same value of the second, where ``F_1(y_2)`` is the most of ``y_1`` a mix of corners reaches with the second
at least ``y_2`` (the frontier's corner if none falls short), and likewise ``F_2(y_1) - y_2`` of the second.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from .choice import same_value
from .cost import Estimate, solve_cost
from .game import Game, game_of
from .objectives import OBJECTIVES, Objective, get_objective
from .rules import InputError, Rules, check_rules
from .sweep import Solution, check_exact, check_exact_reach, solve
from .valuation import evaluate, final_board_probabilities, zero_one

if TYPE_CHECKING:
    import pandas

DEFAULT_OBJECTIVES = ("win", "remaining-sum")
TYPICAL_CORNERS = 12  # the fewest corners an estimate assumes
SECONDS_PER_WEIGHTING = 0.01  # measured: what one weighting costs beside its sweep (its objective, its points)


@dataclass(frozen=True)
class Corner:
    """One corner of the frontier: the objectives' expected values under its policy (``values``, in their own
    units), the range of the first objective's weight ``w`` over which it is optimal (``weights``), and the solved
    policy (``solution``: its move table and dice)."""

    values: tuple
    weights: tuple
    solution: Solution


@dataclass(frozen=True)
class Frontier:
    """The corners of the frontier between two objectives, from the first objective's best end to the second's."""

    rules: Rules
    objectives: tuple[Objective, Objective]
    exact: bool
    corners: tuple[Corner, ...]

    @property
    def names(self) -> tuple[str, str]:
        """The column names of the two objectives' values (``p_win``, ``expected_remaining_sum``)."""
        return tuple(o.value_name for o in self.objectives)

    def points(self) -> list[tuple]:
        """Every corner's point in larger-is-better coordinates ``(y_1, y_2)``."""
        return [_turned(self.objectives, c.values) for c in self.corners]

    def table(self) -> pandas.DataFrame:
        """One row per corner: its two values, its weighting interval (``w_low``, ``w_high``: the first objective's
        weight), and the price of the edge to the next corner: what one more unit of the first objective costs in
        the second along it (``price``; empty at the last corner)."""
        import pandas as pd

        first, second = self.names
        rows = []
        for i, corner in enumerate(self.corners):
            later = self.corners[i + 1] if i + 1 < len(self.corners) else None
            rows.append({"corner": i + 1, first: corner.values[0], second: corner.values[1],
                         "w_low": corner.weights[0], "w_high": corner.weights[1],
                         "price": None if later is None else edge_price(corner.values, later.values)})
        return pd.DataFrame(rows)

    def gives_up(self, values: tuple) -> tuple:
        """What a way of playing with expected ``values`` (in the objectives' units) gives up against the frontier:
        of the first objective at the same second, and of the second at the same first, each in its own units and
        as a loss (never negative for a point on or below the frontier)."""
        y = _turned(self.objectives, values)
        points = self.points()
        first = best_at(points, y[1], 1) - y[0]
        second = best_at([(b, a) for a, b in points], y[0], 1) - y[1]
        return first, second


# -- the weighted objective ------------------------------------------------------------------------------------------
def turned_utilities(game: Game, objectives, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """``s_i u_i(F)`` for every board, each objective turned so that larger is better (Fractions when ``exact``)."""
    out = []
    for objective in objectives:
        values = objective.sense * np.asarray(objective.values(game), dtype=float)
        out.append(np.array([Fraction(v) for v in values.tolist()], dtype=object) if exact else values)
    return out[0], out[1]


def expected_point(ends: np.ndarray, turned: tuple[np.ndarray, np.ndarray]) -> tuple:
    """``(y_1, y_2)`` of a way of playing: each turned utility weighted by the chance of ending on each board."""
    return (ends * turned[0]).sum(), (ends * turned[1]).sum()


def weighted(turned: tuple[np.ndarray, np.ndarray], w) -> Objective:
    """The objective ``u_w = w s_1 u_1 + (1 - w) s_2 u_2`` (maximised), from the turned utilities."""
    combined = w * turned[0] + (1 - w) * turned[1]
    return Objective(f"weighted {w}", +1, lambda game, boards: combined[boards])


def normal_weight(a: tuple, b: tuple):
    """The first objective's weight ``w`` normal to the segment from ``a`` to ``b`` (``a`` the better in ``y_1``,
    ``b`` in ``y_2``): the weight under which both score the same."""
    rise, run = b[1] - a[1], a[0] - b[0]
    return rise / (rise + run)


def score(y: tuple, w):
    """``w y_1 + (1 - w) y_2``."""
    return w * y[0] + (1 - w) * y[1]


# -- the search ------------------------------------------------------------------------------------------------------
@dataclass
class _Search:
    """One dichotomic search: the rules, the turned utilities, and every policy solved so far with its point."""

    rules: Rules
    turned: tuple
    exact: bool
    progress: object = None
    solves: int = 0

    def best(self, w) -> tuple[tuple, Solution]:
        """The point and solution of the policy optimal for weight ``w``."""
        solution = solve(self.rules, weighted(self.turned, w), exact=self.exact)
        self.solves += 1
        point = expected_point(final_board_probabilities(solution), self.turned)
        if not self.exact:
            point = (float(point[0]), float(point[1]))
        if self.progress is not None:
            self.progress(f"{self.solves} weightings solved")
        return point, solution

    def corners(self) -> list[tuple[tuple, Solution]]:
        """Every point found, from the best for ``y_1`` to the best for ``y_2`` (dominated points included)."""
        zero, one = zero_one(self.exact)
        a, b = self.best(one), self.best(zero)
        found, pending = [a, b], [(a, b)]
        while pending:
            left, right = pending.pop()
            if same_point(left[0], right[0]):
                continue
            w = normal_weight(left[0], right[0])
            middle = self.best(w)
            if strictly_above(score(middle[0], w), score(left[0], w)):
                found.append(middle)
                pending += [(left, middle), (middle, right)]
        return found


def same_point(a: tuple, b: tuple) -> bool:
    return bool(same_value(a[0], b[0]) and same_value(a[1], b[1]))


def strictly_above(new, old) -> bool:
    """Whether ``new`` beats ``old`` by more than the engine's equality rule allows."""
    return bool(new > old and not same_value(new, old))


def upper_right(found: list[tuple[tuple, Solution]]) -> list[tuple[tuple, Solution]]:
    """The found points that are corners of the frontier, from the best ``y_1`` down: each beats every earlier one
    in ``y_2`` and lies strictly above the segment between its neighbours."""
    ordered = sorted(found, key=lambda f: (-f[0][0], -f[0][1]))
    kept: list = []
    for item in ordered:
        if kept and not strictly_above(item[0][1], kept[-1][0][1]):
            continue  # matched or beaten in both coordinates
        if kept and same_value(item[0][0], kept[-1][0][0]):
            kept.pop()  # as good in the first and better in the second (a float's rounding ordered them)
        while len(kept) >= 2 and not strictly_convex(kept[-2][0], kept[-1][0], item[0]):
            kept.pop()
        kept.append(item)
    return kept


def strictly_convex(a: tuple, b: tuple, c: tuple) -> bool:
    """Whether ``b`` lies strictly above the segment from ``a`` to ``c`` (``y_1`` decreasing, ``y_2`` rising)."""
    w = normal_weight(a, c)
    return strictly_above(score(b, w), score(a, w))


def frontier(rules: Rules, objectives=DEFAULT_OBJECTIVES, *, exact: bool = False, progress=None) -> Frontier:
    """The frontier between two objectives (names of :data:`~stb_core.objectives.OBJECTIVES`), its corners from the
    first objective's best end to the second's (see the module docstring); exact fractions when ``exact``.

    >>> f = frontier(Rules(tiles=4), exact=True)
    >>> [tuple(map(str, c.values)) for c in f.corners]
    [('2293/15552', '77125/23328'), ('6863/46656', '25619/7776')]
    """
    rules, exact = check_rules(rules), check_exact(exact)
    pair = check_objectives(objectives)
    check_exact_reach(rules, exact)
    game = game_of(rules)
    search = _Search(rules, turned_utilities(game, pair, exact), exact, progress)
    kept = upper_right(search.corners())
    points = [p for p, _ in kept]
    zero, one = zero_one(exact)
    edges = [normal_weight(points[i], points[i + 1]) for i in range(len(points) - 1)]
    bounds = [one, *edges, zero]
    corners = tuple(Corner(_turned(pair, point), (bounds[i + 1], bounds[i]), solution)
                    for i, (point, solution) in enumerate(kept))
    return Frontier(rules, pair, exact, corners)


def check_objectives(objectives) -> tuple[Objective, Objective]:
    """Two different objectives: names the engine knows (a list, or one text ``first,second``) or
    :class:`Objective` values; :class:`InputError` naming the parameter and the choices otherwise."""
    items = objectives.split(",") if isinstance(objectives, str) else objectives
    try:
        pair = tuple(o if isinstance(o, Objective) else get_objective(o.strip()) for o in items)
    except (InputError, AttributeError, TypeError):
        pair = ()
    if len(pair) != 2 or pair[0].name == pair[1].name:
        raise InputError(f"objectives must be two different ones of {', '.join(OBJECTIVES)}, like win,remaining-sum; "
                         f"got {objectives!r}")
    return pair


def _turned(objectives, values: tuple) -> tuple:
    """Values in the objectives' units to larger-is-better coordinates, and back (the sense is its own inverse)."""
    return tuple(o.sense * v for o, v in zip(objectives, values, strict=True))


# -- points below it -------------------------------------------------------------------------------------------------
def best_at(points: list[tuple], level, axis: int):
    """The most of the other coordinate a mix of the frontier's ``points`` (``y_1`` decreasing) reaches with
    coordinate ``axis`` at least ``level``: linear between corners, the nearest corner beyond the ends."""
    ordered = sorted(points, key=lambda p: p[axis])
    if level <= ordered[0][axis]:
        return ordered[0][1 - axis]
    for low, high in zip(ordered, ordered[1:], strict=False):
        if level <= high[axis]:
            share = (level - low[axis]) / (high[axis] - low[axis])
            return low[1 - axis] + share * (high[1 - axis] - low[1 - axis])
    return ordered[-1][1 - axis] if same_value(level, ordered[-1][axis]) else None


def edge_price(a: tuple, b: tuple):
    """Along the edge from corner ``a`` to the next corner ``b``: how much of the second objective one unit of the
    first costs (both in their own units; a sum left in points per unit of chance)."""
    return (a[1] - b[1]) / (a[0] - b[0])


def policy_point(rules: Rules, objectives, policy: str, *, exact: bool = False) -> tuple:
    """The expected values of both objectives when ``policy`` plays (its dice chosen for the first objective)."""
    pair = check_objectives(objectives)
    solution = evaluate(rules, pair[0], policy, exact=exact)
    turned = turned_utilities(solution.game, pair, exact)
    return _turned(pair, expected_point(final_board_probabilities(solution), turned))


def frontier_estimate(rules: Rules, exact: bool = False) -> Estimate:
    """What a frontier is expected to take: two solves and two forward passes per corner, for a number of corners
    guessed from the game (measured: about one per 8 boards with 11 outcomes, more with more outcomes, and about
    eight times as many where one tile takes a die or the sum; at least ``TYPICAL_CORNERS``); the number is not known
    before the search."""
    cost = solve_cost(rules)
    corners = max(TYPICAL_CORNERS, cost.boards / 8 * cost.rolls / 11 * (8 if rules.moves == "die-or-sum" else 1))
    one = cost.estimate("auto", exact).then(cost.follow("forward", exact)) + Estimate(SECONDS_PER_WEIGHTING)
    return one * (2 * corners + 1)
