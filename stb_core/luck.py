r"""Luck and skill in one game, exactly: how much each roll moved the value, and what each decision cost.

A game record is one turn per roll: the dice rolled where the rules give a choice (``1d``), the roll (the total; under
``die-or-sum`` the dice, ``3,4``), and the tiles shut (``-`` where no move was legal, which ends the game):
``"8:2+6 7:7 11:9+2 5:-"``. With optimal values
``V`` (:func:`~stb_core.sweep.solve`), ``V_d(S) = sum_r p_d(r) Q(S, r)`` the value of rolling ``d`` dice and
``Q(S, r)`` the value after the best move for roll ``r`` (``u(S)`` when none is legal), written in the objective's
sense ``sigma`` (+1 when more is better, -1 for a sum left open), each turn from board ``S`` has

* a **dice loss** ``sigma (V(S) - V_d(S))`` when the player rolled ``d`` dice (zero without a choice),
* **luck** ``sigma (Q(S, r) - V_d(S))``: how much the roll moved the value before any move (positive when it helped),
* a **move loss** ``sigma (Q(S, r) - V(S \ m))`` for the tiles ``m`` shut (never negative),

so that ``V(next board) = V(S) + sigma (luck - loss)`` with ``loss`` the turn's dice and move losses, and over the
game the sums telescope exactly: **start + luck - loss = outcome** for an objective where more is better,
**start - luck + loss = outcome** for the sum left open (with exact values, as fractions). Each decision is graded by
its loss as chess programs grade moves by lost winning chances: an *inaccuracy*, a *mistake* or a *blunder* at the
thresholds of :data:`GRADES` (in the objective's units), else *best* (no loss) or *good*.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .boards import board_mask, layout_of
from .choice import no_loss, same_value
from .game import game_of
from .rules import InputError
from .sweep import Solution, judged_roll_values, rolled_value

# loss thresholds of an inaccuracy, a mistake and a blunder, in the objective's units (a chance of winning: 0.1,
# 0.5 and 2 percentage points; a sum left open: a quarter point, one point, three points; and so on) -- or, for a
# score whose scale grows with the board (the digit score: a number of as many digits as tiles), as shares of the
# game's value from the full board (2%, 9% and 27%: the sum's thresholds against the classic game's 11.16)
GRADES = {"win": (0.001, 0.005, 0.02), "remaining-sum": (0.25, 1.0, 3.0), "flipped-count": (0.05, 0.2, 0.5)}
RELATIVE_GRADES = {"digits": (0.02, 0.09, 0.27)}
GRADE_NAMES = ("inaccuracy", "mistake", "blunder")
SIGNIFICANT = 5  # a score's amounts are printed to this many significant digits of the game's value (3 at least)
CHANCES = frozenset({"win"})  # objectives whose value is a chance: printed in per cent, their changes in points


def number_format(objective: str, start: float) -> dict:
    """How a game's amounts are printed for ``objective`` in a game worth ``start``: ``percent`` (a chance, in per
    cent, its luck and losses in percentage points) and ``decimals`` (:func:`decimals`)."""
    return {"percent": objective in CHANCES, "decimals": decimals(objective, start)}


def thresholds(objective: str, start: float) -> tuple[float, ...]:
    """The losses at which a decision becomes an inaccuracy, a mistake and a blunder (:data:`GRADES`, or
    :data:`RELATIVE_GRADES` times ``start``, the game's value from the full board)."""
    if objective in RELATIVE_GRADES:
        return tuple(share * abs(float(start)) for share in RELATIVE_GRADES[objective])
    return GRADES.get(objective, ())


def decimals(objective: str, start: float) -> int:
    """How many decimals a score's amounts (values, luck, losses) are printed with for a game worth ``start``:
    :data:`SIGNIFICANT` significant digits of it, never fewer than none nor more than three (a chance is printed in
    per cent and percentage points: two)."""
    if objective in CHANCES:
        return 2
    magnitude = math.floor(math.log10(abs(float(start)))) + 1 if start else 1
    return max(0, min(3, SIGNIFICANT - magnitude))


TURN = re.compile(r"(?:(\d+)d)?([\d,]+):(-|[^\s:]+)")
RECORD_HELP = ("one turn per roll, like '8:2+6 7:7 5:-' (the total rolled, then the tiles shut, or - where no move "
               "was legal)")
TURN_HELP = "ROLL:TILES, like 8:2+6 or 5:- (with a choice of dice, 1d4:4; under moves die-or-sum the dice, 3,4:7)"


@dataclass(frozen=True)
class Turn:
    """One turn of a record: the dice rolled, the total, and the tiles shut (a bit-mask; None: no move)."""

    dice: int
    roll: int
    played: int | None


def parse_record(text: str, solution: Solution) -> list[Turn]:
    """The turns of a game record (see the module docstring), each checked against the rules and the game so far:
    :class:`InputError` naming the turn for a total the dice cannot show, tiles that are not open or do not make a
    legal move for the roll, ``-`` where a move was legal, a turn after the game ended, or a game not yet over; an
    empty record only for a game won before the first roll."""
    rules, game = solution.rules, solution.game
    layout = layout_of(rules)
    if isinstance(text, str) and not text.split() and game.is_won(rules.full_board):
        return []  # a game won before the first roll has no turn: its empty record is the whole game
    if not isinstance(text, str) or not text.split():
        raise InputError(f"game must be {RECORD_HELP}; got an empty record")
    board, over, turns = rules.full_board, "", []
    for n, item in enumerate(text.split(), 1):
        match = TURN.fullmatch(item)
        if match is None:
            raise InputError(f"game turn {n} must read {TURN_HELP}; got {item!r}")
        if over or game.is_won(board):
            raise InputError(f"game turn {n} ({item}) comes after the game ended: {over or 'the box was won'}")
        choices = game.dice_choices(board)
        dice = int(match[1]) if match[1] else None
        if dice is None and len(choices) > 1:
            raise InputError(f"game turn {n}: from open {layout.label(board)} the player may roll "
                             f"{' or '.join(map(str, choices))} dice; write the number rolled, like "
                             f"{choices[0]}d{match[2]}:{match[3]}")
        dice = choices[-1] if dice is None else dice
        if dice not in choices:
            raise InputError(f"game turn {n}: from open {layout.label(board)} the player rolls "
                             f"{' or '.join(map(str, choices))} dice, not {dice}")
        try:
            roll = game.roll_of_words(match[2], dice)
        except InputError as error:
            raise InputError(f"game turn {n}: {error}") from None
        legal = solution.move_values(board, roll)
        if match[3] == "-":
            if legal:
                raise InputError(f"game turn {n}: a roll of {match[2]} on open {layout.label(board)} has a legal move "
                                 f"({layout.label(board_mask(legal[0][0]))}); write the tiles shut")
            turns.append(Turn(dice, roll, None))
            over = f"turn {n} found no move for {match[2]}"
            continue
        move = _parse_board(match[3], layout, n)
        if move & ~board:
            raise InputError(f"game turn {n}: tiles {layout.label(move & ~board)} are not open "
                             f"(open: {layout.label(board)})")
        if move not in {board_mask(m) for m, _ in legal}:
            raise InputError(f"game turn {n}: shutting {layout.label(move)} is not a legal move for a roll of "
                             f"{match[2]} on open {layout.label(board)}")
        turns.append(Turn(dice, roll, move))
        board &= ~move
    if not over and not game.is_won(board):
        raise InputError(f"game ends at turn {len(turns)} with open {layout.label(board)}, which is neither won nor "
                         f"ended: add the roll that found no move (like 5:-)")
    return turns


def _parse_board(text: str, layout, n: int) -> int:
    names = text.split("+")
    positions = [layout.position(name) for name in names]
    if any(p is None for p in positions) or len(set(positions)) != len(positions):
        raise InputError(f"game turn {n}: tiles must be {layout.allowed()} joined by +, each once, like 2+6; "
                         f"got {text!r}")
    return board_mask(positions)


def grade(loss, objective: str, start: float = 0.0) -> str:
    """``best`` (no loss), ``good``, or the heaviest of :data:`GRADE_NAMES` the loss reaches (:func:`thresholds` of
    a game worth ``start``)."""
    if no_loss(loss):
        return "best"
    reached = [name for name, at in zip(GRADE_NAMES, thresholds(objective, start), strict=False) if float(loss) >= at]
    return reached[-1] if reached else "good"


def analyse(solution: Solution, turns: list[Turn]) -> dict:
    """The analysis of a game (turns from :func:`parse_record`) with optimal values ``solution``: the start value,
    the outcome, and for each turn the board, dice, roll, tiles played, the best moves, luck, dice and move
    losses, grade, and the value after; ``identity`` states the telescoping sum (it holds exactly with exact
    values)."""
    rules, sense = solution.rules, solution.objective.sense
    layout = layout_of(rules)
    board, rows = rules.full_board, []
    start = solution.values[board]
    for turn in turns:
        dice_values = solution.dice_values(board)
        rolled = dice_values[turn.dice]
        dice_loss = sense * (max(dice_values.values(), key=lambda v: sense * v) - rolled) + 0  # + 0: never -0.0
        best_after = solution.roll_value(board, turn.roll)
        options = solution.move_values(board, turn.roll)
        after = board if turn.played is None else board & ~turn.played
        value_after = solution.stuck_value(board) if turn.played is None else solution.values[after]
        move_loss = sense * (best_after - value_after) + 0
        best = [layout.label(board_mask(m)) for m, v in options if same_value(v, options[0][1])]
        loss = dice_loss + move_loss
        rows.append({"open": layout.label(board), "dice": turn.dice, "roll": solution.game.roll_data(turn.roll),
                     "roll_words": solution.game.roll_words(turn.roll),
                     "played": "-" if turn.played is None else layout.label(turn.played), "best": best,
                     "luck": sense * (best_after - rolled) + 0, "dice_loss": dice_loss, "move_loss": move_loss,
                     "loss": loss, "grade": grade(loss, solution.objective.name, start), "value_after": value_after})
        board = after
    outcome = solution.stuck_value(board)
    luck, loss = sum(r["luck"] for r in rows), sum(r["loss"] for r in rows)
    sign = "+" if sense > 0 else "-"
    return {"start": start, "outcome": outcome, "luck": luck, "loss": loss, "turns": rows,
            "identity": f"start {sign} luck {'-' if sense > 0 else '+'} loss = outcome",
            "holds": bool(same_value(start + sense * (luck - loss), outcome)
                          or no_loss(start + sense * (luck - loss) - outcome))}


def record_of(narrated: list[dict], rules) -> str:
    """The record of a game narrated by :func:`~stb_core.monte_carlo.narrate_game` (one turn per roll)."""
    layout, game = layout_of(rules), game_of(rules)
    parts = []
    for t in narrated:
        board = board_mask(t["open"])
        prefix = f"{t['dice']}d" if len(game.dice_choices(board)) > 1 else ""
        tiles = "-" if t["move"] is None else "+".join(map(str, layout.names(board_mask(t["move"]))))
        parts.append(f"{prefix}{game.roll_words(t['roll'])}:{tiles}")
    return " ".join(parts)


# -- many games at once -------------------------------------------------------------------------------------------
def roll_values(solution: Solution) -> tuple[np.ndarray, dict[int, np.ndarray], np.ndarray]:
    """``(Q, V_d, u)`` for every board of optimal play's ``solution``: ``Q[S, r]`` the value after the best move for
    outcome ``r`` (``u(S)`` where none is legal), ``V_d[d][S]`` the value of rolling ``d`` dice, ``u[S]`` the value
    of a game ending on ``S`` (floats, in the objective's units)."""
    game = solution.game
    stuck = np.asarray(solution.objective.values(game, game.boards), dtype=float)
    table = np.repeat(stuck[:, None], max(game.outcomes) + 1, axis=1)
    for code in game.outcomes:  # the best move's value: optimal play's own move (Q's one home, analysis)
        table[:, code] = judged_roll_values(solution, solution, game.boards, code)
    by_dice = {d: rolled_value(game, d, lambda c: table[:, c]) for d in game.dice_counts}
    return table, by_dice, stuck


def luck_of_games(optimal: Solution, player: Solution, games: int, seed: int) -> dict[str, np.ndarray]:
    """Play ``games`` seeded games with ``player``'s moves and dice and analyse each with ``optimal``'s values, all
    at once: per game its total ``luck``, ``loss`` (dice and moves), ``outcome`` and ``rolls``; ``start + sense
    (luck - loss) = outcome`` for every game (the telescoping sum of :func:`analyse`)."""
    from .monte_carlo import _moves, _roll, check_seed

    game, sense, rng = optimal.game, optimal.objective.sense, np.random.default_rng(check_seed(seed))
    table, by_dice, stuck = roll_values(optimal)
    values = np.asarray(optimal.values, dtype=float)
    boards = np.full(games, optimal.rules.full_board, dtype=np.int64)
    luck, loss, rolls = np.zeros(games), np.zeros(games), np.zeros(games, dtype=np.int64)
    going = ~game.won[boards]
    while going.any():
        at = np.flatnonzero(going)
        here = boards[at]
        dice = np.asarray(player.dice[here], dtype=np.int64)
        rolled = np.choose(np.searchsorted(game.dice_counts, dice), [by_dice[d][here] for d in game.dice_counts])
        roll = _roll(rng, dice, game)
        move = _moves(player, here, roll, rng)
        best = table[here, roll]
        after = np.where(move >= 0, values[here & ~np.where(move >= 0, move, 0)], stuck[here])
        luck[at] += sense * (best - rolled)
        loss[at] += sense * (values[here] - rolled) + sense * (best - after)
        rolls[at] += 1
        boards[at] = np.where(move >= 0, here & ~np.maximum(move, 0), here)
        going[at] = (move >= 0) & ~game.won[boards[at]]
    return {"luck": luck, "loss": loss, "outcome": stuck[boards], "rolls": rolls,
            "start": np.full(games, values[optimal.rules.full_board])}


__all__ = ["GRADES", "RELATIVE_GRADES", "Turn", "analyse", "decimals", "grade", "luck_of_games", "parse_record",
           "record_of", "roll_values", "thresholds"]
