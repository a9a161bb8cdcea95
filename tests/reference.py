"""A plain, obviously-correct reference solver: recursion over frozensets of open tiles, exact fractions.

Nothing here is shared with ``stb_core`` except the ``Rules`` value itself: moves are found by trying
every subset of the open tiles, dice totals by enumerating every face combination, and the Bellman
equation is written out as it reads,

    V(S) = u(S)                                   if sum(S) <= W
    V(S) = opt_c sum_r p_c(r) * Q(S, r),          Q(S, r) = u(S) if no move sums to r,
                                                  else V(S - m) for the policy's move m.

Slow (exponential), so only for boards of up to about 8 tiles.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

from stb_core import Rules


def dice_totals(dice: int, sides: int) -> dict[int, Fraction]:
    """Probability of each total by enumerating every face combination."""
    faces = Counter(sum(throw) for throw in itertools.product(range(1, sides + 1), repeat=dice))
    return {total: Fraction(n, sides**dice) for total, n in sorted(faces.items())}


def moves(rules: Rules, open_tiles: frozenset, roll: int) -> list[tuple[int, ...]]:
    """Every subset of the open tiles adding up to ``roll`` (within the per-move limit), sorted."""
    most = rules.max_per_move or rules.tiles
    small = sorted(t for t in open_tiles if t <= roll)  # a tile larger than the roll can never be in the move
    found = [subset for size in range(1, most + 1) for subset in itertools.combinations(small, size)
             if sum(subset) == roll]
    return sorted(found)


def utility(objective: str, rules: Rules, open_tiles: frozenset) -> Fraction:
    if objective == "win":
        return Fraction(int(sum(open_tiles) <= rules.win_at_most))
    if objective == "remaining-sum":
        return Fraction(sum(open_tiles))
    if objective == "flipped-count":
        return Fraction(rules.tiles - len(open_tiles))
    raise ValueError(objective)


def dice_options(rules: Rules, open_tiles: frozenset) -> list[int]:
    if rules.one_die == "high-shut":
        single = all(t < 7 for t in open_tiles)
    elif rules.one_die == "sum-le-6":
        single = sum(open_tiles) <= 6
    else:
        single = False
    if not single:
        return [rules.dice]
    return [1] if rules.one_die_forced else [rules.dice, 1]


def winning_sequences(rules: Rules):
    """Dice-weighted number of winning move sequences from each board (source 000's count)."""
    weights = {r: p * rules.sides**rules.dice for r, p in dice_totals(rules.dice, rules.sides).items()}

    @cache
    def count(open_tiles: frozenset) -> int:
        if sum(open_tiles) <= rules.win_at_most:
            return 1
        return sum(int(w) * count(open_tiles - set(m)) for r, w in weights.items()
                   for m in moves(rules, open_tiles, r))

    return count


def reference_values(rules: Rules, objective: str = "win", policy="optimal", exact: bool = True):
    """``V`` as a function of a frozenset of open tiles, for a built-in objective and any policy
    (in fractions, or with ``exact=False`` in floats, for timing against the engine's float solver)."""
    sense = -1 if objective == "remaining-sum" else 1
    dice_sense = -sense if policy == "worst" else sense
    number = Fraction if exact else float
    probabilities = {c: {r: number(p) for r, p in dice_totals(c, rules.sides).items()} for c in {1, rules.dice}}
    sequences = winning_sequences(rules) if policy == "sequence-count" else None

    def pick(open_tiles, roll, options):
        if policy == "optimal":
            return max(options, key=lambda m: sense * value(open_tiles - set(m)))  # first best on ties
        if policy == "worst":
            return min(options, key=lambda m: sense * value(open_tiles - set(m)))
        if policy == "highest-tile":
            return max(options, key=lambda m: (-len(m), sorted(m, reverse=True)))
        if policy == "sequence-count":
            return max(options, key=lambda m: sequences(open_tiles - set(m)))
        return tuple(policy(tuple(sorted(open_tiles)), roll, list(options)))

    def roll_value(open_tiles, roll):
        options = moves(rules, open_tiles, roll)
        if not options:
            return utility(objective, rules, open_tiles)
        if policy == "random":
            return sum(value(open_tiles - set(m)) for m in options) / len(options)
        return value(open_tiles - set(pick(open_tiles, roll, options)))

    @cache
    def value(open_tiles: frozenset) -> Fraction:
        if sum(open_tiles) <= rules.win_at_most:
            return utility(objective, rules, open_tiles)
        by_dice = [sum(p * roll_value(open_tiles, r) for r, p in probabilities[c].items())
                   for c in dice_options(rules, open_tiles)]
        return max(by_dice, key=lambda v: dice_sense * v)

    return value


def reference_value(rules: Rules, objective: str = "win", policy="optimal", open_tiles=None) -> Fraction:
    """``V`` of one board (default: the full board)."""
    board = frozenset(range(1, rules.tiles + 1) if open_tiles is None else open_tiles)
    return reference_values(rules, objective, policy)(board)
