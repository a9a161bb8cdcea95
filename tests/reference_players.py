"""A plain game-tree recursion for the pub game, independent of stb_core.players: every seat's turn is played
move by move, each player choosing the move (and the dice) that maximise their own expected winnings over the
rest of the round, which is itself expanded to the end. Exact fractions; small boards only. The board, its
tiles' values and score weights, the throws and the moves are the tests' reference ones (``reference.py``), so
every layout and move rule the reference knows is played here too.

A seat may instead play one fixed way whatever the scores (``plays``: ``{seat: (objective, policy)}``, seats from
1): the reference solver's play of that policy for that objective (``reference.reference_play``), its moves and
dice whatever the scores before it.

Returns, for the first seat's turn from the full board, the expected payoff of each seat, each seat's chance of
winning (alone or shared) and of shutting the box, and the chance that the pot is split.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from types import SimpleNamespace

from reference import dice_options, is_won, moves, outcomes, positions, reference_play, value_of, weight_of

from stb_core import Rules


def score(rules: Rules, open_tiles: frozenset, scoring: str) -> int:
    """The open tiles' values, each times its weight (``sum``), or on one row their numbers read as one number."""
    tiles = sorted(open_tiles)
    if scoring == "sum":
        return sum(weight_of(rules, t) * value_of(rules, t) for t in tiles)
    return int("".join(map(str, tiles))) if tiles else 0


def reference_round(rules: Rules, players: int, scoring: str, shut_pays, plays: dict | None = None,
                    tie_break: str = "canonical") -> dict:
    payoff, win, shut, split = _recursion(rules, players, scoring, shut_pays, plays, tie_break).round_from(())
    return {"expected_payoff": list(payoff), "p_win": list(win), "p_shut": list(shut), "p_tie": split}


def first_seat_value(rules: Rules, players: int, scoring: str, shut_pays):
    """The first seat's expected winnings standing on any board at its turn (every board, reached or not), every
    seat playing for the stakes: ``value(board)``."""
    turn = _recursion(rules, players, scoring, shut_pays, None, "canonical").turn
    return lambda board: turn((), frozenset(board))[0][0]


def _recursion(rules: Rules, players: int, scoring: str, shut_pays, plays: dict | None, tie_break: str):
    """The round's recursion: ``round_from(scores)`` when a seat starts its turn, ``turn(scores, board)`` within
    it; each returns (payoffs, wins, shuts, split)."""
    x = Fraction(shut_pays)
    fixed = {seat - 1: reference_play(rules, objective, policy, tie_break)
             for seat, (objective, policy) in (plays or {}).items()}
    full = frozenset(positions(rules))
    zero = (Fraction(0),) * players

    def outcome_vector(scores: tuple, shut_by: int | None):
        """(payoffs, wins, shuts, split) of a finished round."""
        n = players
        if shut_by is not None:
            pay = tuple(x * (n - 1) if i == shut_by else -x for i in range(n))
            win = tuple(Fraction(int(i == shut_by)) for i in range(n))
            return pay, win, win, Fraction(0)
        low = min(scores)
        best = [i for i in range(n) if scores[i] == low]
        pay = tuple(Fraction(n, len(best)) - 1 if i in best else Fraction(-1) for i in range(n))
        win = tuple(Fraction(int(i in best)) for i in range(n))
        return pay, win, zero, Fraction(int(len(best) >= 2))

    def add(a, b, p):
        return tuple(u + p * v for u, v in zip(a, b, strict=True))

    @cache
    def round_from(scores: tuple) -> tuple:
        """Expected (payoffs, wins, shuts, split) when seat len(scores) starts its turn."""
        return turn(scores, full)

    @cache
    def turn(scores: tuple, board: frozenset) -> tuple:
        seat = len(scores)
        if is_won(rules, board):
            return outcome_vector(scores, seat)
        if seat in fixed:
            return fixed_turn(scores, board, fixed[seat])
        options = []
        for dice in dice_options(rules, board):
            total = (zero, zero, zero, Fraction(0))
            for roll, p in outcomes(rules, dice).items():
                legal = moves(rules, board, roll)
                if not legal:
                    after = scores + (score(rules, board, scoring),)
                    result = round_from(after) if len(after) < players else outcome_vector(after, None)
                else:
                    results = [turn(scores, board - set(m)) for m in legal]
                    result = max(results, key=lambda r: r[0][seat])  # max keeps the first (canonical) of ties
                total = (add(total[0], result[0], p), add(total[1], result[1], p), add(total[2], result[2], p),
                         total[3] + p * result[3])
            options.append(total)
        return max(options, key=lambda r: r[0][seat])  # the rules' dice first: ties keep them

    def ended(scores: tuple, board: frozenset) -> tuple:
        after = scores + (score(rules, board, scoring),)
        return round_from(after) if len(after) < players else outcome_vector(after, None)

    def fixed_turn(scores: tuple, board: frozenset, play) -> tuple:
        """A seat with a fixed play: its dice and each move's chance from the reference solver's play."""
        total = (zero, zero, zero, Fraction(0))
        for roll, p in outcomes(rules, play.dice(board)).items():
            chances = play.chances(board, roll)
            results = [(c, turn(scores, board - set(m))) for m, c in chances.items()] or [(1, ended(scores, board))]
            for c, result in results:
                total = (add(total[0], result[0], p * c), add(total[1], result[1], p * c),
                         add(total[2], result[2], p * c), total[3] + p * c * result[3])
        return total

    return SimpleNamespace(round_from=round_from, turn=turn)
