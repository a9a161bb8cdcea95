"""The exact value of any policy, and where its games go: final boards, final sums, boards reached.

:func:`evaluate` values a policy with the same Bellman sweep as :func:`stb_core.sweep.solve` (whose module
docstring gives the equation), its move ``sigma(S, r)`` in place of the optimal one.

The distribution of the final board follows the game forward. With ``P(S)`` the probability that the game
passes through board ``S`` (``P(start) = 1``), ``c(S)`` the policy's dice and its move ``sigma(S, r)``:

    P(S \\ sigma(S, r)) += P(S) p_c(r)          if a move is legal,
    P(end on S)        += P(S) p_c(r)          if the player is stuck (or S is already won: all of P(S)).

Boards are visited from the most open tiles down, so every board's ``P`` is complete before it is spread.
A mixture (``random``) spreads ``P(S) p(r)`` over its moves by their chances. Every step reads the
solution's own moves (:meth:`stb_core.sweep.Solution.transitions`): nothing here chooses a move.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .boards import cells_at, check_board
from .game import game_of
from .objectives import Objective
from .policies import Policy, PolicyFunction, TieBreak, get_tie_break, pick_moves
from .rules import Rules
from .sweep import Solution, level_pairs, run_sweep, solve


def evaluate(rules: Rules, objective: str | Objective = "win", policy: str | Policy | PolicyFunction = "optimal",
             *, tie_break: str | TieBreak = "canonical", exact: bool = False, path: str = "auto",
             progress=None) -> Solution:
    """The exact value of every board when ``policy`` plays (a name of ``POLICIES``, a :class:`Policy` or a
    function ``(open_tiles, roll, legal_moves) -> move``), judged by ``objective``.

    >>> from stb_core import Rules
    >>> round(float(evaluate(Rules(), "win", "highest-tile").value()), 6)
    0.069992
    """
    return run_sweep(rules, objective, policy, tie_break, exact, path, progress)


def _forward(solution: Solution, board: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Push probability from ``board`` down the levels: (reach probability, end probability) per board."""
    rules, exact = solution.rules, solution.exact
    start = rules.full_board if board is None else check_board(board, rules)
    space = game_of(rules)
    dtype = object if exact else float
    reach = np.zeros(rules.states, dtype=dtype)
    ends = np.zeros(rules.states, dtype=dtype)
    reach[start] = Fraction(1) if exact else 1.0
    below = space.boards[(space.boards & ~start) == 0]  # boards a game from ``start`` can visit
    for k in range(int(space.counts[start]), -1, -1):
        boards = below[space.counts[below] == k]
        boards = boards[reach[boards] != 0]
        if boards.size == 0:
            continue
        mass = reach[boards]
        done = space.won[boards]
        ends[boards[done]] += mass[done]
        boards, mass = boards[~done], mass[~done]
        for dice in rules.dice_counts:
            rolled = solution.dice[boards] == dice
            if rolled.any():
                _spread(solution, boards[rolled], mass[rolled], dice, reach, ends)
    return reach, ends


def _spread(solution: Solution, boards: np.ndarray, mass: np.ndarray, dice: int, reach, ends) -> None:
    """Move the probability ``mass`` on ``boards`` one roll forward with ``dice`` dice."""
    rules, exact = solution.rules, solution.exact
    for roll, p in game_of(rules).chances(dice, exact=True).items():
        share = mass * (p if exact else float(p))
        index, child, chance = solution.transitions(boards, roll)
        moved = np.zeros(boards.size, dtype=bool)
        moved[index] = True
        np.add.at(ends, boards[~moved], share[~moved])
        np.add.at(reach, child, share[index] * chance)


def final_board_columns(rules: Rules, values: np.ndarray, dice: np.ndarray, *, sense: int = +1,
                        tie_break: str | TieBreak = "canonical", exact: bool = False) -> np.ndarray:
    """For many games solved at once (``bellman_sweep`` with one utility per column: ``values`` and ``dice``
    have a column per game), the probability that optimal play from the full board ends on each board, per
    column. Each column's moves are its own optimal ones (``sense``: +1 to maximise), ties by ``tie_break``,
    chosen exactly as :meth:`stb_core.sweep.Solution.sigma` chooses them."""
    tie = get_tie_break(tie_break)
    space, levels = game_of(rules), game_of(rules).levels
    columns = values.shape[1]
    dtype = object if exact else float
    zero, one = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
    reach = np.full((rules.states, columns), zero, dtype=dtype)
    ends = np.full((rules.states, columns), zero, dtype=dtype)
    reach[rules.full_board] = one
    chances = {d: {r: (p if exact else float(p)) for r, p in game_of(rules).chances(d, exact=True).items()}
               for d in rules.dice_counts}
    for k in range(rules.positions, -1, -1):
        boards = levels.boards(k)
        mass = reach[boards]
        if not np.any(mass != 0):
            continue
        won = space.won[boards]
        ends[boards[won]] += mass[won]
        mass[won] = zero
        rolled = dice[boards]
        for roll in game_of(rules).roll_totals:
            chance = sum(np.where(rolled == d, chances[d].get(roll, 0), 0) for d in rules.dice_counts)
            share = mass * chance
            pairs = level_pairs(levels, tie, roll, k)
            moved = np.zeros((boards.size, columns), dtype=bool)
            if pairs.parent.size:
                keys = (sense * values[pairs.child]).ravel()
                index = (pairs.index[:, None] * columns + np.arange(columns)).ravel()
                chosen = pick_moves(index, boards.size * columns, [(keys, True)], np.repeat(pairs.rank, columns))
                rows, cols = np.divmod(np.flatnonzero(chosen), columns)
                cells_at(np.add, reach, pairs.child[rows], share[pairs.index[rows], cols], cols)
                moved[pairs.index[rows], cols] = True
            ends[boards] += np.where(moved, zero, share)
    return ends


def final_board_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) ends on each board (array over masks)."""
    return _forward(solution, board)[1]


def reach_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) passes through each board, playing the
    solution's policy (array over masks; the starting board has probability 1)."""
    return _forward(solution, board)[0]


def final_sum_distribution(
    rules: Rules,
    objective="win",
    policy="optimal",
    *,
    board: int | None = None,
    tie_break: str | TieBreak = "canonical",
    exact: bool = False,
    solution: Solution | None = None,
) -> dict[int, object]:
    """Probability of each final sum of open tiles, ``{sum: p}`` in increasing sum, under ``policy``
    playing for ``objective`` from ``board`` (default: full): the sum is the game's score (:attr:`Game.scores`:
    on Double Shutter the front row counts double), so its mean is the ``remaining-sum`` value. Pass a
    ``solution`` to reuse one."""
    solution = solution or evaluate(rules, objective, policy, tie_break=tie_break, exact=exact)
    ends = final_board_probabilities(solution, board)
    sums = game_of(solution.rules).scores
    out: dict[int, object] = {}
    for s, p in zip(sums.tolist(), ends.tolist(), strict=True):
        if p:
            out[s] = out.get(s, 0) + p
    return dict(sorted(out.items()))


# -- how long a game lasts -------------------------------------------------------------------------------------
def _roll_step(solution: Solution, boards: np.ndarray):
    """For the boards (not won) of one level: ``(row, child, chance)`` of every move the policy plays, over every
    outcome of the dice it rolls there, and ``stuck``: each board's chance that its next roll allows no move."""
    game, exact = solution.game, solution.exact
    zero = Fraction(0) if exact else 0.0
    stuck = np.full(boards.size, zero, dtype=object if exact else float)
    rows, children, chances = [], [], []
    for dice in game.dice_counts:
        rolled = np.flatnonzero(solution.dice[boards] == dice)
        if rolled.size == 0:
            continue
        for roll, p in game.chances(dice, exact).items():
            index, child, chance = solution.transitions(boards[rolled], roll)
            moved = np.zeros(rolled.size, dtype=bool)
            moved[index] = True
            stuck[rolled[~moved]] += p
            rows.append(rolled[index])
            children.append(child)
            chances.append(p * np.asarray(chance, dtype=object if exact else float))
    empty = np.zeros(0, dtype=np.int64)
    return (np.concatenate(rows or [empty]), np.concatenate(children or [empty]),
            np.concatenate(chances or [np.zeros(0)]), stuck)


def roll_counts(solution: Solution) -> np.ndarray:
    r"""``R[S, n]``: the chance that a game from board ``S`` lasts exactly ``n`` rolls under the solution's policy,
    counting the last roll, the one that finds no move (a game won before it rolls lasts 0):

    .. math::

        R_S(n) = [n = 0] \text{ if } S \text{ is won}, \qquad
        R_S(n) = \sum_o p(o) \big( [\text{stuck}]\,[n = 1] + [\text{moved to } C]\, R_C(n - 1) \big).

    Solved level by level (every move shuts a tile, so ``C`` has fewer open tiles than ``S``); exact fractions when
    the solution is exact."""
    game, exact = solution.game, solution.exact
    longest = game.tiles + 2  # at most one roll per tile, and the last one that finds no move
    dtype = object if exact else float
    zero, one = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
    counts = np.full((game.states, longest), zero, dtype=dtype)
    for k in range(game.tiles + 1):
        boards = game.levels.boards(k)
        won = game.won[boards]
        counts[boards[won], 0] = one
        playing = boards[~won]
        if playing.size == 0:
            continue
        rows, children, chances, stuck = _roll_step(solution, playing)
        level = np.full((playing.size, longest), zero, dtype=dtype)
        level[:, 1] += stuck
        np.add.at(level[:, 1:], rows, chances[:, None] * counts[children, :-1])
        counts[playing] = level
    return counts


def roll_count_distribution(solution: Solution, board: int | None = None) -> dict[int, object]:
    """The chance that the game from ``board`` (default: full) lasts each number of rolls, ``{rolls: p}`` for
    the numbers that can happen (:func:`roll_counts`)."""
    start = solution.rules.full_board if board is None else check_board(board, solution.rules)
    return {n: p for n, p in enumerate(roll_counts(solution)[start].tolist()) if p}


def expected_rolls(solution: Solution, board: int | None = None):
    r"""The expected number of rolls of a game from ``board`` (default: full), the last one that finds no move
    included: ``E(S) = 0`` if ``S`` is won, else ``1 + \sum_o p(o) [moved to C] E(C)``."""
    game, exact = solution.game, solution.exact
    zero, one = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
    rolls = np.full(game.states, zero, dtype=object if exact else float)
    for k in range(1, game.tiles + 1):
        boards = game.levels.boards(k)
        playing = boards[~game.won[boards]]
        if playing.size:
            rows, children, chances, _ = _roll_step(solution, playing)
            level = np.full(playing.size, one, dtype=rolls.dtype)
            np.add.at(level, rows, chances * rolls[children])
            rolls[playing] = level
    start = solution.rules.full_board if board is None else check_board(board, solution.rules)
    return rolls[start]


def tiles_open_after(solution: Solution, rolls: int | None = None, board: int | None = None) -> np.ndarray:
    """``P[k, t]``: the chance that tile ``t + 1`` is still open after ``k`` rolls of a game from ``board``
    (default: full), ``k = 0 .. rolls`` (default: as many as a game can last); a game that has ended keeps its
    final board. Followed forward, roll by roll, over the chance of each board."""
    game, exact = solution.game, solution.exact
    rolls = game.tiles + 1 if rolls is None else rolls
    start = solution.rules.full_board if board is None else check_board(board, solution.rules)
    dtype = object if exact else float
    zero = Fraction(0) if exact else 0.0
    going = np.full(game.states, zero, dtype=dtype)  # the game goes on from the board
    ended = np.full(game.states, zero, dtype=dtype)  # the game ended on the board
    going[start] = Fraction(1) if exact else 1.0
    bits = (game.boards[:, None] >> np.arange(game.tiles)[None, :]) & 1
    out = np.full((rolls + 1, game.tiles), zero, dtype=dtype)
    for k in range(rolls + 1):
        out[k] = ((going + ended)[:, None] * bits).sum(axis=0)
        done = game.won & (going != 0)
        ended[done] += going[done]
        going[done] = zero
        playing = np.flatnonzero(going != 0)
        if playing.size == 0 or k == rolls:
            continue
        rows, children, chances, stuck = _roll_step(solution, playing)
        following = np.full(game.states, zero, dtype=dtype)
        np.add.at(following, children, going[playing][rows] * chances)
        ended[playing] += going[playing] * stuck
        going = following
    return out


def reachable_boards(rules: Rules, *, include_won: bool = True) -> np.ndarray:
    """Every board some sequence of rolls and legal moves can reach from the full board, increasing.

    The game stops at won boards, so nothing is reached through one; the full board counts as reached. A roll of
    one die counts only from the boards where the rules let the player roll one die.
    ``include_won=False`` keeps only the boards where the game is still being played.
    """
    space = game_of(rules)
    reached = np.zeros(rules.states, dtype=bool)
    reached[rules.full_board] = True
    catalogue = game_of(rules).moves

    def moves_of(dice: int) -> np.ndarray:
        chunks = [catalogue.moves(r) for r in game_of(rules).chances(dice)] + [np.zeros(0, dtype=np.int64)]
        return np.unique(np.concatenate(chunks))

    # the moves of every total the rules' dice can show (except where one die is forced), and of what one die
    # shows where it may be rolled (Rules.dice_choices, for every board at once)
    all_dice = ~space.one_die if rules.one_die_forced else None
    by_dice = [(moves_of(d), all_dice if d == rules.dice else space.one_die) for d in rules.dice_counts]
    for k in range(rules.positions, 0, -1):
        level = (space.counts == k) & reached & ~space.won
        for moves, where in by_dice:
            boards = space.boards[level if where is None else level & where]
            if boards.size and moves.size:
                legal = game_of(rules).legal(boards, moves)
                reached[(boards[:, None] & ~moves[None, :])[legal]] = True
    return space.boards[reached if include_won else reached & ~space.won]


__all__ = ["evaluate", "expected_rolls", "final_board_probabilities", "final_sum_distribution", "reach_probabilities",
           "roll_count_distribution", "roll_counts", "tiles_open_after",
           "reachable_boards", "solve"]
