"""A plain reference for the risk frontier, by a different method than the engine's search: the corners of every
board's frontier, propagated from the finished boards up.

The points a deterministic way of playing reaches from board ``S`` (both objectives turned so that larger is better)
are, for a choice of dice ``c``, ``sum_o p_c(o) y_o`` with ``y_o`` one point of a board ``S - m`` the outcome allows
(or ``S``'s own finished value if none), each outcome choosing independently; and the union over the dice the player
may roll. A weighting's best over a sum of sets is the sum of the sets' bests, and over a union the best of the
parts, so keeping only each set's frontier corners (the upper-right hull) at every step loses no corner. Exact
fractions; the rules read through :mod:`reference` (never ``Game``, the sweep or :mod:`stb_core.frontier`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from reference import dice_options, is_won, moves, objective_sense, outcomes, positions, utility

from stb_core import Rules


def cross(o, a, b) -> Fraction:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def upper_right(points) -> tuple:
    """The corners of the upper-right hull, the best first coordinate first: a point survives if no other is at least
    as good in both coordinates and better in one, and if the chain turns strictly left at it (it lies above the
    segment between its neighbours)."""
    front = []
    for p in sorted(set(points), key=lambda q: (-q[0], -q[1])):
        if not front or p[1] > front[-1][1]:
            front.append(p)
    hull = []
    for p in front:
        while len(hull) >= 2 and cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    return tuple(hull)


def minkowski(a, b, weight: Fraction) -> tuple:
    return upper_right((x[0] + weight * y[0], x[1] + weight * y[1]) for x in a for y in b)


@cache
def reference_frontier(rules: Rules, objectives=("win", "remaining-sum")) -> tuple:
    """The frontier's corners from the full board, in the objectives' own units, the first objective's best first
    (kept: two of a chapter's tables are checked against the same frontier)."""
    senses = [objective_sense(o) for o in objectives]

    def finished(board) -> tuple:
        return tuple(s * utility(o, rules, board) for s, o in zip(senses, objectives, strict=True))

    @cache
    def corners(board: frozenset) -> tuple:
        if is_won(rules, board):
            return (finished(board),)
        found = []
        for dice in dice_options(rules, board):
            total = ((Fraction(0), Fraction(0)),)
            for outcome, p in outcomes(rules, dice).items():
                legal = moves(rules, board, outcome)
                options = upper_right(q for m in legal for q in corners(board - set(m))) if legal else \
                    (finished(board),)
                total = minkowski(total, options, p)
            found += total
        return upper_right(found)

    return tuple((senses[0] * a, senses[1] * b) for a, b in corners(frozenset(positions(rules))))
