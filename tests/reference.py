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
    most = rules.max_per_move or rules.tiles  # a cap above the number of tiles caps nothing
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
    """The dice the player may roll: the rules' dice first, then one die where allowed (or one die alone)."""
    if rules.dice == 1:
        return [1]
    if rules.one_die == "high-shut":
        single = all(t < 7 for t in open_tiles)
    elif rules.one_die == "sum-le-6":
        single = sum(open_tiles) <= 6
    else:
        single = False
    if not single:
        return [rules.dice]
    return [1] if rules.one_die_forced else [rules.dice, 1]


def reachable_states(rules: Rules) -> set[frozenset]:
    """The boards a player can face (not won), by following every roll of the dice the player may roll from each
    board, and every legal move, from the full board."""
    start = frozenset(range(1, rules.tiles + 1))
    seen, todo = set(), [start]
    while todo:
        board = todo.pop()
        if board in seen or sum(board) <= rules.win_at_most:
            continue
        seen.add(board)
        for roll in {r for dice in dice_options(rules, board) for r in dice_totals(dice, rules.sides)}:
            todo += [board - set(m) for m in moves(rules, board, roll)]
    return seen


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


def tie_key(tie_break: str, move: tuple[int, ...]):
    """Sort key of a move under a static tie rule: the smallest key is preferred."""
    tiles = tuple(sorted(move))
    if tie_break == "canonical":
        return tiles
    highest_first = tuple(-t for t in sorted(move, reverse=True))
    if tie_break == "fewest-tiles":
        return (len(move), highest_first)
    if tie_break == "most-tiles":
        return (-len(move), highest_first)
    raise ValueError(tie_break)


def objective_sense(objective: str) -> int:
    return -1 if objective == "remaining-sum" else 1


def reference_solver(rules: Rules, objective: str = "win", policy="optimal", tie_break: str = "canonical",
                     exact: bool = True, dice_rule: str | None = None):
    """``(value, move, dice)`` as functions of a frozenset of open tiles (``move`` also of the roll): the
    Bellman equation for a built-in objective and any policy, ties decided by ``tie_break`` (``canonical``,
    ``fewest-tiles``, ``most-tiles`` or ``then-<objective>``: the best for a second objective among equal
    moves, then canonical), written out by enumeration. ``dice_rule`` ``"one"``/``"all"`` fixes the dice."""
    sense = objective_sense(objective)
    dice_sense = -sense if policy == "worst" else sense
    number = Fraction if exact else float
    probabilities = {c: {r: number(p) for r, p in dice_totals(c, rules.sides).items()} for c in {1, rules.dice}}
    sequences = winning_sequences(rules) if policy == "sequence-count" else None
    second = tie_break.removeprefix("then-") if tie_break.startswith("then-") else None
    static = "canonical" if second else tie_break

    def primary_key(open_tiles, move):
        """Larger is better for the policy; None for policies that are not rankings."""
        after = open_tiles - set(move)
        if policy == "optimal":
            return sense * value(after)
        if policy == "worst":
            return -sense * value(after)
        if policy == "highest-tile":
            return (-len(move), sorted(move, reverse=True))
        if policy == "sequence-count":
            return sequences(after)
        return None

    def pick(open_tiles, roll, options):
        if callable(policy):
            return tuple(sorted(policy(tuple(sorted(open_tiles)), roll, list(options))))
        best = max(primary_key(open_tiles, m) for m in options)
        tied = [m for m in options if primary_key(open_tiles, m) == best]
        if second:
            best2 = max(objective_sense(second) * value2(open_tiles - set(m)) for m in tied)
            tied = [m for m in tied if objective_sense(second) * value2(open_tiles - set(m)) == best2]
        return min(tied, key=lambda m: tie_key(static, m))

    def roll_values(open_tiles, roll, of):
        options = moves(rules, open_tiles, roll)
        if not options:
            return utility(objective if of is value else second, rules, open_tiles)
        if policy == "random":
            return sum(of(open_tiles - set(m)) for m in options) / len(options)
        return of(open_tiles - set(pick(open_tiles, roll, options)))

    @cache
    def dice(open_tiles: frozenset) -> int:
        options = dice_options(rules, open_tiles)
        if len(options) == 1:
            return options[0]
        if dice_rule:
            return 1 if dice_rule == "one" else rules.dice
        by_dice = {c: dice_sense * sum(p * roll_values(open_tiles, r, value) for r, p in probabilities[c].items())
                   for c in options}
        best = max(by_dice.values())
        tied = [c for c in options if by_dice[c] == best]  # options list the rules' dice first
        if second and len(tied) > 1:
            by_second = {c: objective_sense(second) * sum(p * roll_values(open_tiles, r, value2)
                                                          for r, p in probabilities[c].items()) for c in tied}
            tied = [c for c in tied if by_second[c] == max(by_second.values())]
        return tied[0]

    @cache
    def value(open_tiles: frozenset) -> Fraction:
        if sum(open_tiles) <= rules.win_at_most:
            return utility(objective, rules, open_tiles)
        return sum(p * roll_values(open_tiles, r, value) for r, p in probabilities[dice(open_tiles)].items())

    @cache
    def value2(open_tiles: frozenset) -> Fraction:
        if sum(open_tiles) <= rules.win_at_most:
            return utility(second, rules, open_tiles)
        return sum(p * roll_values(open_tiles, r, value2) for r, p in probabilities[dice(open_tiles)].items())

    def move(open_tiles: frozenset, roll: int):
        if sum(open_tiles) <= rules.win_at_most:
            return None
        options = moves(rules, open_tiles, roll)
        return pick(open_tiles, roll, options) if options else None

    return value, move, dice


def reference_values(rules: Rules, objective: str = "win", policy="optimal", exact: bool = True,
                     tie_break: str = "canonical"):
    """``V`` as a function of a frozenset of open tiles (see :func:`reference_solver`)."""
    return reference_solver(rules, objective, policy, tie_break, exact)[0]


def reference_value(rules: Rules, objective: str = "win", policy="optimal", open_tiles=None) -> Fraction:
    """``V`` of one board (default: the full board)."""
    board = frozenset(range(1, rules.tiles + 1) if open_tiles is None else open_tiles)
    return reference_values(rules, objective, policy)(board)
