"""A plain, obviously-correct reference solver: recursion over frozensets of open tiles, exact fractions.

Nothing here is shared with ``stb_core`` except the ``Rules`` value itself: the tiles' values and blockers are
written out from the rules' words, moves are found by trying every subset of the open tiles (or, for the
die-or-sum rule, every open tile against the individual dice), throws by enumerating every face combination,
and the Bellman equation is written out as it reads,

    V(S) = u(S)                                   if the values of S total W or less (won)
    V(S) = opt_c sum_o p_c(o) * Q(S, o),          Q(S, o) = u(S) if outcome o allows no move,
                                                  else V(S - m) for the policy's move m.

An outcome ``o`` is what a throw allows: its total (the sum rule) or its sorted dice (die-or-sum). Tiles are
positions ``1..P``: on a row, tile ``t`` is worth ``t``; on a Double Shutter board of ``N`` front tiles, tile
``N + k`` is the back tile behind front tile ``k``, worth ``N + 1 - k``, shut only once tile ``k`` is down.

Slow (exponential), so only for boards of up to about 8 tiles.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache
from types import SimpleNamespace

from stb_core import Rules


# -- the board ------------------------------------------------------------------------------------------------
def positions(rules: Rules) -> list[int]:
    return list(range(1, (2 if rules.layout == "double-shutter" else 1) * rules.tiles + 1))


def value_of(rules: Rules, tile: int) -> int:
    n = rules.tiles
    return tile if tile <= n or rules.layout == "row" else n + 1 - (tile - n)


def weight_of(rules: Rules, tile: int) -> int:
    return 2 if rules.layout == "double-shutter" and tile <= rules.tiles else 1


def blocker_of(rules: Rules, tile: int) -> int | None:
    """The tile that must be down before ``tile`` can be shut (Double Shutter's back row), or None."""
    return tile - rules.tiles if rules.layout == "double-shutter" and tile > rules.tiles else None


def boards_that_can_arise(rules: Rules) -> int:
    """How many sets of open tiles a game can show: no tile down while the tile it waits for stands."""
    tiles = positions(rules)
    return sum(1 for k in range(len(tiles) + 1) for down in itertools.combinations(tiles, k)
               if all(blocker_of(rules, t) is None or blocker_of(rules, t) in down for t in down))


def total(rules: Rules, tiles) -> int:
    return sum(value_of(rules, t) for t in tiles)


def is_won(rules: Rules, open_tiles) -> bool:
    return total(rules, open_tiles) <= rules.win_at_most


# -- the dice -------------------------------------------------------------------------------------------------
def outcome_of(rules: Rules, throw: tuple[int, ...]):
    """What a throw allows: its total, or (die-or-sum) its dice, sorted."""
    return sum(throw) if rules.moves == "sum" else tuple(sorted(throw))


def outcomes(rules: Rules, dice: int) -> dict:
    """The chance of each outcome when ``dice`` dice are thrown, by enumerating every face combination."""
    found = Counter(outcome_of(rules, t) for t in itertools.product(range(1, rules.sides + 1), repeat=dice))
    return {o: Fraction(n, rules.sides**dice) for o, n in sorted(found.items())}


def dice_totals(dice: int, sides: int) -> dict[int, Fraction]:
    """Probability of each total by enumerating every face combination."""
    faces = Counter(sum(throw) for throw in itertools.product(range(1, sides + 1), repeat=dice))
    return {total_: Fraction(n, sides**dice) for total_, n in sorted(faces.items())}


def moves(rules: Rules, open_tiles: frozenset, outcome) -> list[tuple[int, ...]]:
    """Every legal move for an outcome, sorted: subsets of the open tiles whose values add up to the total (at
    most ``max_per_move`` of them), or one open tile worth either die or their total; a back tile only with
    the tile in front of it down once the move is played."""
    if rules.moves == "sum":
        most = rules.max_per_move or len(positions(rules))
        found = [subset for size in range(1, most + 1) for subset in itertools.combinations(sorted(open_tiles), size)
                 if total(rules, subset) == outcome]
    else:
        allowed = {*outcome, sum(outcome)}
        found = [(t,) for t in sorted(open_tiles) if value_of(rules, t) in allowed]
    left = lambda m: open_tiles - set(m)  # noqa: E731
    return sorted(m for m in found if all(blocker_of(rules, t) not in left(m) for t in m))


def dice_options(rules: Rules, open_tiles: frozenset) -> list[int]:
    """The dice the player may roll: the rules' dice first, then one die where allowed (or one die alone)."""
    if rules.dice == 1:
        return [1]
    exposed = [t for t in open_tiles if blocker_of(rules, t) not in open_tiles]
    if rules.one_die == "high-shut":
        single = all(value_of(rules, t) < 7 for t in open_tiles)
    elif rules.one_die.startswith("sum-le-"):
        single = total(rules, exposed) <= int(rules.one_die.removeprefix("sum-le-"))
    else:
        single = False
    if not single:
        return [rules.dice]
    return [1] if rules.one_die_forced else [rules.dice, 1]


def utility(objective: str, rules: Rules, open_tiles: frozenset) -> Fraction:
    if objective == "win":
        return Fraction(int(is_won(rules, open_tiles)))
    if objective == "remaining-sum":
        return Fraction(sum(weight_of(rules, t) * value_of(rules, t) for t in open_tiles))
    if objective == "flipped-count":
        return Fraction(len(positions(rules)) - len(open_tiles))
    if objective == "digits":
        return Fraction(int("".join(str(t) for t in sorted(open_tiles)) or "0"))
    raise ValueError(objective)


def reachable_states(rules: Rules) -> set[frozenset]:
    """The boards a player can face (not won), by following every roll of the dice the player may roll from each
    board, and every legal move, from the full board."""
    start = frozenset(positions(rules))
    seen, todo = set(), [start]
    while todo:
        board = todo.pop()
        if board in seen or is_won(rules, board):
            continue
        seen.add(board)
        for outcome in {o for dice in dice_options(rules, board) for o in outcomes(rules, dice)}:
            todo += [board - set(m) for m in moves(rules, board, outcome)]
    return seen


def boards_reached(rules: Rules) -> set[frozenset]:
    """Every board a game from the full board can be on: the full board, the boards a player faces and the boards
    their legal moves leave (won ones included: the game ends there)."""
    faced = reachable_states(rules)
    left = {board - set(m) for board in faced for dice in dice_options(rules, board) for o in outcomes(rules, dice)
            for m in moves(rules, board, o)}
    return {frozenset(positions(rules)), *faced, *left}


def winning_sequences(rules: Rules):
    """Dice-weighted number of winning move sequences from each board (source 000's count): each step a throw of
    the dice the player may roll from the board (each choice of dice its own sequence), weighted by the throws of
    all the dice it stands for (one die's face: ``sides**(dice - 1)`` of them)."""

    def weight(dice: int, outcome) -> int:
        return int(outcomes(rules, dice)[outcome] * rules.sides**dice) * rules.sides ** (rules.dice - dice)

    @cache
    def count(open_tiles: frozenset) -> int:
        if is_won(rules, open_tiles):
            return 1
        return sum(weight(d, o) * count(open_tiles - set(m)) for d in dice_options(rules, open_tiles)
                   for o in outcomes(rules, d) for m in moves(rules, open_tiles, o))

    return count


def tie_key(rules: Rules, tie_break: str, move: tuple[int, ...]):
    """Sort key of a move under a static tie rule: the smallest key is preferred. "Then the highest tiles" compares
    the tiles' values from the highest down (a Double Shutter back tile counts as its value), then canonical."""
    tiles = tuple(sorted(move))
    if tie_break in ("canonical", "random"):
        return tiles
    highest_first = tuple(-v for v in sorted((value_of(rules, t) for t in move), reverse=True))
    if tie_break == "fewest-tiles":
        return (len(move), highest_first, tiles)
    if tie_break == "most-tiles":
        return (-len(move), highest_first, tiles)
    raise ValueError(tie_break)


def objective_sense(objective: str) -> int:
    return -1 if objective in ("remaining-sum", "digits") else 1


class Lowest(tuple):
    """A tuple that ranks higher the lower it is (``max`` over these picks the lexicographically smallest)."""

    def __lt__(self, other):
        return tuple(self) > tuple(other)

    def __gt__(self, other):
        return tuple(self) < tuple(other)

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    __hash__ = tuple.__hash__


def reference_solver(rules: Rules, objective: str = "win", policy="optimal", tie_break: str = "canonical",
                     exact: bool = True, dice_rule: str | None = None):
    """``(value, move, dice)``: see :func:`reference_play`."""
    play = reference_play(rules, objective, policy, tie_break, exact, dice_rule)
    return play.value, play.move, play.dice


def reference_play(rules: Rules, objective: str = "win", policy="optimal", tie_break: str = "canonical",
                   exact: bool = True, dice_rule: str | None = None):
    """``value``, ``move``, ``dice`` and ``chances`` as functions of a frozenset of open tiles (``move`` and
    ``chances`` also of the outcome: the move played, and each move's chance of being played): the
    Bellman equation for a built-in objective and any policy, ties decided by ``tie_break`` (``canonical``,
    ``fewest-tiles``, ``most-tiles``, or ``random``: each of the moves the policy ranks equal, with the same
    chance), written out by enumeration. ``dice_rule`` ``"one"``/``"all"``/``"le6"`` fixes the dice where the rules
    give a choice (one die always, never, or when the open tiles total 6 or less)."""
    sense = objective_sense(objective)
    dice_sense = -sense if policy == "worst" else sense
    number = Fraction if exact else float
    probabilities = {c: {o: number(p) for o, p in outcomes(rules, c).items()} for c in {1, rules.dice}}
    sequences = winning_sequences(rules) if policy == "sequence-count" else None
    all_outcomes = list(outcomes(rules, rules.dice))

    def values_of(move):
        return [value_of(rules, t) for t in move]

    def primary_key(open_tiles, move):
        """Larger is better for the policy; None for policies that are not rankings."""
        after = open_tiles - set(move)
        if policy == "optimal":
            return sense * value(after)
        if policy == "worst":
            return -sense * value(after)
        if policy == "highest-tile":
            return (-len(move), sorted(values_of(move), reverse=True))
        if policy == "largest-tile":
            return sorted(values_of(move), reverse=True)
        if policy == "lowest-tile":
            return Lowest(sorted(values_of(move)))
        if policy == "fewest-tiles":
            return -len(move)
        if policy == "most-tiles":
            return len(move)
        if policy == "largest-number":  # the move's largest tile alone (chapter 8's TopDown and "largest number")
            return max(values_of(move))
        if policy == "most-options":
            return sum(1 for o in all_outcomes if moves(rules, after, o))
        if policy == "sequence-count":
            return sequences(after)
        return None

    def tied(open_tiles, options):
        best = max(primary_key(open_tiles, m) for m in options)
        return [m for m in options if primary_key(open_tiles, m) == best]

    def pick(open_tiles, outcome, options):
        if callable(policy):
            roll = outcome if rules.moves == "sum" else outcome
            return tuple(sorted(policy(tuple(sorted(open_tiles)), roll, list(options))))
        return min(tied(open_tiles, options), key=lambda m: tie_key(rules, tie_break, m))

    def outcome_value(open_tiles, outcome, of):
        options = moves(rules, open_tiles, outcome)
        if not options:
            return utility(objective, rules, open_tiles)
        if policy == "random":
            return sum(of(open_tiles - set(m)) for m in options) / len(options)
        if tie_break == "random":
            equal = tied(open_tiles, options)
            return sum(of(open_tiles - set(m)) for m in equal) / len(equal)
        return of(open_tiles - set(pick(open_tiles, outcome, options)))

    @cache
    def dice(open_tiles: frozenset) -> int:
        options = dice_options(rules, open_tiles)
        if len(options) == 1:
            return options[0]
        if dice_rule == "le6":  # one die where allowed and the open tiles total 6 or less
            return 1 if total(rules, open_tiles) <= 6 else rules.dice
        if dice_rule:
            return 1 if dice_rule == "one" else rules.dice
        by_dice = {c: dice_sense * sum(p * outcome_value(open_tiles, o, value) for o, p in probabilities[c].items())
                   for c in options}
        best = max(by_dice.values())
        return [c for c in options if by_dice[c] == best][0]  # options list the rules' dice first

    @cache
    def value(open_tiles: frozenset) -> Fraction:
        if is_won(rules, open_tiles):
            return utility(objective, rules, open_tiles)
        return sum(p * outcome_value(open_tiles, o, value) for o, p in probabilities[dice(open_tiles)].items())

    def move(open_tiles: frozenset, outcome):
        if is_won(rules, open_tiles):
            return None
        options = moves(rules, open_tiles, outcome)
        return pick(open_tiles, outcome, options) if options else None

    def chances(open_tiles: frozenset, outcome) -> dict:
        options = moves(rules, open_tiles, outcome)
        if not options or is_won(rules, open_tiles):
            return {}
        if policy == "random" or tie_break == "random":
            equal = options if policy == "random" else tied(open_tiles, options)
            return {m: Fraction(1, len(equal)) for m in equal}
        return {pick(open_tiles, outcome, options): Fraction(1)}

    return SimpleNamespace(value=value, move=move, dice=dice, chances=chances, rules=rules, number=number,
                           probabilities=probabilities, sense=sense)


def reference_values(rules: Rules, objective: str = "win", policy="optimal", exact: bool = True,
                     tie_break: str = "canonical"):
    """``V`` as a function of a frozenset of open tiles (see :func:`reference_solver`)."""
    return reference_solver(rules, objective, policy, tie_break, exact)[0]


def reference_value(rules: Rules, objective: str = "win", policy="optimal", open_tiles=None) -> Fraction:
    """``V`` of one board (default: the full board)."""
    board = frozenset(positions(rules) if open_tiles is None else open_tiles)
    return reference_values(rules, objective, policy)(board)


def sequences_by_moves(rules: Rules):
    """``count(open_tiles, k)``: the dice-weighted winning sequences of exactly ``k`` moves from a board (source
    000's count by length), each step weighted as in :func:`winning_sequences`."""

    def weight(dice: int, outcome) -> int:
        return int(outcomes(rules, dice)[outcome] * rules.sides**dice) * rules.sides ** (rules.dice - dice)

    @cache
    def count(open_tiles: frozenset, k: int) -> int:
        if is_won(rules, open_tiles):
            return int(k == 0)
        if k == 0:
            return 0
        return sum(weight(d, o) * count(open_tiles - set(m), k - 1) for d in dice_options(rules, open_tiles)
                   for o in outcomes(rules, d) for m in moves(rules, open_tiles, o))

    return count


def boards_one_roll_wins(rules: Rules) -> set[frozenset]:
    """Every board (not won) from which one throw of the dice the player may roll there has a winning move."""
    found = set()
    tiles = positions(rules)
    for size in range(1, len(tiles) + 1):
        for board in map(frozenset, itertools.combinations(tiles, size)):
            if is_won(rules, board):
                continue
            if any(is_won(rules, board - set(m)) for d in dice_options(rules, board) for o in outcomes(rules, d)
                   for m in moves(rules, board, o)):
                found.add(board)
    return found


def tile_name(rules: Rules, tile: int) -> str:
    """A tile as the board names it: its number, or on a Double Shutter's back row ``b`` and its value."""
    return str(value_of(rules, tile)) if blocker_of(rules, tile) is None else f"b{value_of(rules, tile)}"


# -- play followed forward from the full board -------------------------------------------------------------------
def forward(play) -> tuple[dict, dict, dict]:
    """Play followed forward from the full board, board by board: ``reach`` (the chance of ever standing on each
    board), ``ends`` (of the game ending on it: won there, or stuck there) and ``rolls`` (of the game lasting each
    number of rolls, the last one that finds no move included)."""
    rules = play.rules
    start = frozenset(positions(rules))
    reach, ends, rolls = {start: Fraction(1)}, {}, {}
    at = {(start, 0): Fraction(1)}  # (board, rolls so far): chance
    for size in range(len(start), -1, -1):
        for (board, k), p in sorted(((key, q) for key, q in at.items() if len(key[0]) == size),
                                    key=lambda item: (sorted(item[0][0]), item[0][1])):
            if is_won(rules, board):
                ends[board] = ends.get(board, 0) + p
                rolls[k] = rolls.get(k, 0) + p
                continue
            for o, q in outcomes(rules, play.dice(board)).items():
                chosen = play.chances(board, o)
                if not chosen:
                    ends[board] = ends.get(board, 0) + p * q
                    rolls[k + 1] = rolls.get(k + 1, 0) + p * q
                for m, c in chosen.items():
                    after = board - set(m)
                    reach[after] = reach.get(after, 0) + p * q * c
                    at[(after, k + 1)] = at.get((after, k + 1), 0) + p * q * c
    return reach, ends, rolls


def decision_losses(rules: Rules, objective: str, policy, tie_break: str = "canonical",
                    dice_rule: str | None = None) -> list[dict]:
    """Every decision ``policy`` faces from the full board, with what it costs against optimal play (optimal play
    afterwards): a choice of dice, where the rules give one, and a move for each outcome of the dice it rolls. Each
    row: the board, the decision, the dice, the outcome (None for a choice of dice), how many options it offers (the
    numbers of dice, or the legal moves), the chance of reaching the board and of the outcome, and the loss (in the
    objective's units, never negative)."""
    play = reference_play(rules, objective, policy, tie_break, dice_rule=dice_rule)
    best = reference_play(rules, objective, "optimal", tie_break)
    reach, _, _ = forward(play)
    sense = objective_sense(objective)

    def after(board, chances) -> Fraction:  # optimal play's value after the policy's move (or its mixture)
        return sum(c * best.value(board - set(m)) for m, c in chances.items())

    def rolled(board, dice) -> Fraction:  # what rolling ``dice`` is worth to optimal play from here
        return sum(q * (best.value(board - set(best.move(board, o))) if moves(rules, board, o) else
                        utility(objective, rules, board)) for o, q in outcomes(rules, dice).items())

    rows = []
    for board, p in reach.items():
        if is_won(rules, board) or p == 0:
            continue
        options, dice = dice_options(rules, board), play.dice(board)
        if len(options) > 1:
            rows.append({"board": board, "decision": "dice", "dice": dice, "outcome": None, "options": len(options),
                         "reach": p, "p_roll": Fraction(1), "loss": sense * (best.value(board) - rolled(board, dice))})
        for o, q in outcomes(rules, dice).items():
            chances = play.chances(board, o)
            loss = sense * (after(board, best.chances(board, o)) - after(board, chances)) if chances else 0
            rows.append({"board": board, "decision": "move", "dice": dice, "outcome": o,
                         "options": len(moves(rules, board, o)), "reach": p, "p_roll": q, "loss": loss})
    return rows
