r"""The exact value of any policy, and where its games go: final boards, final sums, boards reached, game length.

:func:`evaluate` values a policy with the same Bellman sweep as :func:`stb_core.sweep.solve` (whose module docstring
gives the equation), its move ``sigma(S, r)`` in place of the optimal one. Once solved, a policy is data -- its move
table ``sigma`` and its dice ``c(S)`` (a mixture: its ranking and values) -- and everything else reads that data;
nothing here chooses a move:

* :func:`policy_values` -- the policy's value for any other utility ``u`` and step ``s`` (one backward pass):
  ``V(S) = s + sum_r p_c(r) Q(S, r)``; another objective's value, or the expected number of rolls (``u = 0``,
  ``s = 1``);
* the game followed **forward**. With ``P(S)`` the probability that the game passes through board ``S``
  (``P(start) = 1``),

      P(S \\ sigma(S, r)) += P(S) p_c(r)          if a move is legal,
      P(end on S)        += P(S) p_c(r)          if the player is stuck (or S is already won: all of P(S)),

  boards visited from the most open tiles down, so every board's ``P`` is complete before it is spread (a mixture
  spreads ``P(S) p(r)`` over its moves by their chances): the final boards and sums; or one roll at a time, which
  gives how many rolls a game lasts and which tiles are open after ``k`` rolls.

Float solutions of the compiled path use the compiled passes (:mod:`stb_core.compiled`); exact and numpy ones the
level-by-level numpy passes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .boards import cells_at, check_board
from .game import Game, game_of
from .objectives import Objective, get_objective
from .policies import Policy, PolicyFunction
from .rules import InputError, Rules
from .sweep import Solution, TieBreak, run_sweep, solve


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


def check_solution(solution) -> Solution:
    """``solution`` if it is a :class:`Solution`; :class:`InputError` otherwise."""
    if not isinstance(solution, Solution):
        raise InputError(f"solution must be a stb_core Solution (from solve or evaluate), got "
                         f"{type(solution).__name__}")
    return solution


def _start(solution: Solution, board: int | None) -> int:
    return solution.game.full_board if board is None else check_board(board, solution.rules)


def _compiled(solution: Solution) -> bool:
    return not solution.exact and solution.path == "compiled"


def zero_one(exact: bool):
    return (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)


# -- backward: the policy's value for any utility -------------------------------------------------------------------
def policy_values(solution: Solution, objective: str | Objective | None = None, *, utility: np.ndarray | None = None,
                  step: float = 0) -> np.ndarray:
    """The value of every board when the solution's policy plays, its moves and dice as solved, for ``objective``'s
    utility (or ``utility`` over every board) plus ``step`` for every roll: ``V(S) = u(S)`` if won, else
    ``step + sum_r p_c(r) Q(S, r)`` (see the module docstring). Exact when the solution is."""
    solution = check_solution(solution)
    game, exact = solution.game, solution.exact
    if utility is None:
        objective = solution.objective if objective is None else get_objective(objective)
        utility = objective.values(game)
    utility = np.asarray(utility)
    if utility.shape != (game.states,):
        raise InputError(f"utility must give one value per board: {game.states}; got shape {utility.shape}")
    if utility.dtype.kind == "f" and not np.isfinite(utility).all():
        raise InputError(f"utility must be finite numbers; got {utility[~np.isfinite(utility)][0]} at board "
                         f"{int(np.flatnonzero(~np.isfinite(utility))[0])}")
    if _compiled(solution):
        from . import compiled

        return compiled.values_of_play(game, solution.ranking, solution.sigma, solution.values,
                                       solution.objective.sense, np.array(utility, dtype=float), solution.dice, step)
    values = np.array([Fraction(x) for x in utility.tolist()], dtype=object) if exact else utility.astype(float)
    step = Fraction(step) if exact else float(step)
    for k in range(1, game.positions + 1):
        boards = game.levels.boards(k)
        playing = boards[~game.won[boards]]
        if playing.size:
            total = np.full(playing.size, step, dtype=values.dtype)
            for roll in _steps(solution, playing):
                total[roll.stuck] += roll.p * values[playing[roll.stuck]]  # u(S): the roll finds no move
                np.add.at(total, roll.moved, roll.chance * values[roll.child])
            values[playing] = total
    return values


@dataclass(frozen=True)
class Step:
    """One outcome of the dice from a set of boards, as every numpy pass reads it: ``p`` the outcome's chance,
    ``stuck`` the places (in the boards) of those on which it finds no move, and for each (board, move) the policy
    plays, ``moved`` the board's place, ``child`` the board the move leaves and ``chance`` its chance (``p`` times
    the move's)."""

    p: object
    stuck: np.ndarray
    moved: np.ndarray
    child: np.ndarray
    chance: np.ndarray


def _steps(solution: Solution, boards: np.ndarray):
    """The :class:`Step` of every outcome, for each number of dice rolled, from the boards (not won) that roll them."""
    game, exact = solution.game, solution.exact
    for dice in game.dice_counts:
        rows = np.flatnonzero(solution.dice[boards] == dice)
        if rows.size == 0:
            continue
        for code, p in game.chances(dice, exact).items():
            at, child, chance = solution.transitions(boards[rows], code)
            went = np.zeros(rows.size, dtype=bool)
            went[at] = True
            yield Step(p, rows[~went], rows[at], child, p * chance)


def expected_rolls(solution: Solution, board: int | None = None):
    r"""The expected number of rolls of a game from ``board`` (default: full), the last one that finds no move
    included: ``E(S) = 0`` if ``S`` is won, else ``1 + \sum_o p(o) [moved to C] E(C)`` -- :func:`policy_values`
    with ``u = 0`` and a step of 1."""
    solution = check_solution(solution)
    start = _start(solution, board)
    if _compiled(solution):  # u = 0 everywhere, in place: one array of the board space, no copy
        from . import compiled

        return compiled.values_of_play(solution.game, solution.ranking, solution.sigma, solution.values,
                                       solution.objective.sense, np.zeros(solution.game.states), solution.dice,
                                       1.0)[start]
    zero = np.zeros(solution.game.states, dtype=object if solution.exact else float)
    if solution.exact:
        zero[:] = Fraction(0)
    return policy_values(solution, utility=zero, step=1)[start]


# -- forward: to the game's end --------------------------------------------------------------------------------------
def _push_to_the_end(solution: Solution, board: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Push probability from ``board`` to the game's end: (reach probability, end probability) per board."""
    game, exact = solution.game, solution.exact
    start = _start(solution, board)
    zero, one = zero_one(exact)
    if _compiled(solution):
        from . import compiled

        reach, ends = np.zeros(game.states), np.zeros(game.states)
        reach[start] = 1.0
        compiled.propagate(game, solution.ranking, solution.sigma, solution.values, solution.objective.sense,
                           solution.dice, reach, reach, ends, np.zeros(2))
        return reach, ends
    reach = np.full(game.states, zero, dtype=object if exact else float)
    ends = np.full(game.states, zero, dtype=reach.dtype)
    reach[start] = one
    below = game.boards[(game.boards & ~start) == 0]  # boards a game from ``start`` can visit
    for k in range(int(game.counts[start]), -1, -1):
        boards = below[game.counts[below] == k]
        boards = boards[reach[boards] != 0]
        if boards.size == 0:
            continue
        done = game.won[boards]
        ends[boards[done]] += reach[boards[done]]
        boards = boards[~done]
        for roll in _steps(solution, boards):
            np.add.at(ends, boards[roll.stuck], reach[boards[roll.stuck]] * roll.p)
            np.add.at(reach, roll.child, reach[boards[roll.moved]] * roll.chance)
    return reach, ends


def final_board_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) ends on each board (array over masks)."""
    return _push_to_the_end(check_solution(solution), board)[1]


def reach_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) passes through each board, playing the
    solution's policy (array over masks; the starting board has probability 1)."""
    return _push_to_the_end(check_solution(solution), board)[0]


def final_sum_distribution(
    rules: Rules | None = None,
    objective="win",
    policy="optimal",
    *,
    board: int | None = None,
    tie_break: str | TieBreak = "canonical",
    exact: bool = False,
    solution: Solution | None = None,
) -> dict[int, object]:
    """Probability of each final sum of open tiles, ``{sum: p}`` in increasing sum, under ``policy`` playing for
    ``objective`` from ``board`` (default: full): the sum is the game's score (:attr:`Game.scores`: on Double
    Shutter the front row counts double), so its mean is the ``remaining-sum`` value. Pass a ``solution`` to reuse
    one (its rules must be ``rules``, when both are given)."""
    if solution is not None:
        solution = check_solution(solution)
        if rules is not None and rules != solution.rules:
            raise InputError(f"rules and solution disagree: the rules are {rules.describe()}, the solution's "
                             f"{solution.rules.describe()}; pass one of them")
    elif rules is None:
        raise InputError("final_sum_distribution needs rules or a solution")
    solution = solution or evaluate(rules, objective, policy, tie_break=tie_break, exact=exact)
    ends = final_board_probabilities(solution, board)
    out: dict[int, object] = {}
    for s, p in zip(solution.game.scores.tolist(), ends.tolist(), strict=True):
        if p:
            out[s] = out.get(s, 0) + p
    return dict(sorted(out.items()))


# -- forward: one roll at a time -------------------------------------------------------------------------------------
def _by_rolls(solution: Solution, board: int | None, rolls: int, visit=None) -> list:
    """Follow the game from ``board`` one roll at a time, up to ``rolls`` rolls: the chance that it ends after each
    number of rolls (a list; the roll that finds no move counts). ``visit(k, chance)`` (optional) sees, after ``k``
    rolls, the chance of being on each board, the game going on or ended there (an ended game keeps its board)."""
    game, exact = solution.game, solution.exact
    zero, one = zero_one(exact)
    dtype = object if exact else float
    going = np.full(game.states, zero, dtype=dtype)
    going[_start(solution, board)] = one
    ends = np.full(game.states if visit else 1, zero, dtype=dtype)
    lasted = [zero] * (rolls + 2)
    compiled = None
    if _compiled(solution):
        from . import compiled
    for k in range(rolls + 1):
        if visit is not None:
            visit(k, going + ends)
        following = np.full(game.states, zero, dtype=dtype)
        ended = np.zeros(2) if not exact else None
        if compiled is not None:
            compiled.propagate(game, solution.ranking, solution.sigma, solution.values, solution.objective.sense,
                               solution.dice, going, following, ends, ended)
            won_now, stuck = ended
        else:
            won_now, stuck = _step_numpy(solution, going, following, ends)
        lasted[k] += won_now
        lasted[k + 1] += stuck
        going = following
        if visit is None and not np.any(going != 0):
            break
    return lasted


def _step_numpy(solution: Solution, going: np.ndarray, following: np.ndarray, ends: np.ndarray):
    """One roll of every game in ``going`` (numpy): the chances moved into ``following``; returns the chance that
    ended on a won board before rolling and the chance that this roll found no move (``ends`` per board too, when
    it has a place per board)."""
    game = solution.game
    zero, _ = zero_one(solution.exact)
    boards = np.flatnonzero(going != 0)
    won = game.won[boards]
    won_now = going[boards[won]].sum() if won.any() else zero
    if ends.size > 1:
        ends[boards[won]] += going[boards[won]]
    boards = boards[~won]
    stuck = np.full(boards.size, zero, dtype=going.dtype)  # each board's chance that its roll finds no move
    for roll in _steps(solution, boards):
        stuck[roll.stuck] += roll.p
        np.add.at(following, roll.child, going[boards[roll.moved]] * roll.chance)
    if ends.size > 1:
        ends[boards] += going[boards] * stuck
    return won_now, (going[boards] * stuck).sum() if boards.size else zero


def roll_counts(solution: Solution) -> np.ndarray:
    r"""``R[S, n]``: the chance that a game from board ``S`` lasts exactly ``n`` rolls under the solution's policy,
    counting the last roll, the one that finds no move (a game won before it rolls lasts 0) -- the backward form,
    for every board at once (numpy, exact when the solution is; the compiled path follows one board forward):

    .. math::

        R_S(n) = [n = 0] \text{ if } S \text{ is won}, \qquad
        R_S(n) = \sum_o p(o) \big( [\text{stuck}]\,[n = 1] + [\text{moved to } C]\, R_C(n - 1) \big).
    """
    game, exact = solution.game, solution.exact
    longest = game.positions + 2  # at most one roll per tile, and the last one that finds no move
    zero, one = zero_one(exact)
    counts = np.full((game.states, longest), zero, dtype=object if exact else float)
    for k in range(game.positions + 1):
        boards = game.levels.boards(k)
        won = game.won[boards]
        counts[boards[won], 0] = one
        playing = boards[~won]
        if playing.size == 0:
            continue
        level = np.full((playing.size, longest), zero, dtype=counts.dtype)
        stuck = np.full(playing.size, zero, dtype=counts.dtype)
        moved_rows, children, chances = [], [], []
        for roll in _steps(solution, playing):
            stuck[roll.stuck] += roll.p
            moved_rows.append(roll.moved)
            children.append(roll.child)
            chances.append(roll.chance)
        level[:, 1] += stuck
        if moved_rows:
            np.add.at(level[:, 1:], np.concatenate(moved_rows),
                      np.concatenate(chances)[:, None] * counts[np.concatenate(children), :-1])
        counts[playing] = level
    return counts


def roll_count_distribution(solution: Solution, board: int | None = None) -> dict[int, object]:
    """The chance that the game from ``board`` (default: full) lasts each number of rolls, ``{rolls: p}`` for the
    numbers that can happen, the last roll (that finds no move) counted; a game won before it rolls lasts 0."""
    solution = check_solution(solution)
    if _compiled(solution):
        lasted = _by_rolls(solution, board, solution.game.positions + 1)
    else:
        lasted = roll_counts(solution)[_start(solution, board)].tolist()
    return {n: p for n, p in enumerate(lasted) if p}


def tiles_open_after(solution: Solution, rolls: int | None = None, board: int | None = None) -> np.ndarray:
    """``P[k, t]``: the chance that tile ``t + 1`` is still open after ``k`` rolls of a game from ``board``
    (default: full), ``k = 0 .. rolls`` (default: as many as a game can last); a game that has ended keeps its
    final board. Followed forward, roll by roll, over the chance of each board."""
    solution = check_solution(solution)
    game, exact = solution.game, solution.exact
    rolls = game.positions + 1 if rolls is None else rolls
    zero, _ = zero_one(exact)
    bits = (game.boards[:, None] >> np.arange(game.positions)[None, :]) & 1
    out = np.full((rolls + 1, game.positions), zero, dtype=object if exact else float)

    def visit(k, chance):
        out[k] = (chance[:, None] * bits).sum(axis=0)

    _by_rolls(solution, board, rolls, visit)
    return out


# -- many games at once (the pub game's seats) ------------------------------------------------------------------------
def final_board_columns(game: Game, dice: np.ndarray, sigma: np.ndarray, *, exact: bool = False) -> np.ndarray:
    """For many games solved at once (``bellman_sweep`` with one utility per column: ``dice`` and ``sigma`` have a
    column per game), the probability that each column's play from the full board ends on each board: each column's
    moves read from its own move table."""
    catalogue = game.catalogue
    columns = dice.shape[1]
    zero, one = zero_one(exact)
    dtype = object if exact else float
    reach = np.full((game.states, columns), zero, dtype=dtype)
    ends = np.full((game.states, columns), zero, dtype=dtype)
    reach[game.full_board] = one
    chance = np.full((max(game.dice_counts) + 1, catalogue.width), zero, dtype=dtype)
    for d in game.dice_counts:  # chance[d, r - lo]: a roll coded r with d dice
        for r, p in game.chances(d, exact=True).items():
            chance[d, r - catalogue.lo] = p if exact else float(p)
    for k in range(game.positions, -1, -1):
        boards = game.levels.boards(k)
        mass = reach[boards]
        if not np.any(mass != 0):
            continue
        won = game.won[boards]
        ends[boards[won]] += mass[won]
        mass[won] = zero
        rolled = dice[boards]
        for code in game.outcomes:
            share = mass * chance[rolled, code - catalogue.lo]
            index = sigma[boards, code - catalogue.lo]
            rows, cols = np.nonzero(index >= 0)
            if rows.size:
                child = boards[rows] & ~catalogue.of(code)[index[rows, cols]]
                cells_at(np.add, reach, child, share[rows, cols], cols)
            ends[boards] += np.where(index >= 0, zero, share)
    return ends


# -- where a game can go ---------------------------------------------------------------------------------------------
def reachable_boards(rules: Rules, *, include_won: bool = True) -> np.ndarray:
    """Every board some sequence of rolls and legal moves can reach from the full board, increasing.

    The game stops at won boards, so nothing is reached through one; the full board counts as reached. A roll of
    one die counts only from the boards where the rules let the player roll one die (:attr:`Game.one_die`).
    ``include_won=False`` keeps only the boards where the game is still being played.
    """
    game = game_of(rules)
    reached = np.zeros(game.states, dtype=bool)
    reached[game.full_board] = True
    catalogue = game.catalogue

    def moves_of(dice: int) -> np.ndarray:
        return np.unique(np.concatenate([catalogue.of(r) for r in game.chances(dice)] + [np.zeros(0, np.int64)]))

    all_dice = ~game.one_die if rules.one_die_forced else None
    by_dice = [(moves_of(d), all_dice if d == rules.dice else game.one_die) for d in game.dice_counts]
    for k in range(game.positions, 0, -1):
        level = (game.counts == k) & reached & ~game.won
        for moves, where in by_dice:
            boards = game.boards[level if where is None else level & where]
            if boards.size and moves.size:
                legal = game.legal(boards, moves)
                reached[(boards[:, None] & ~moves[None, :])[legal]] = True
    return game.boards[reached if include_won else reached & ~game.won]


__all__ = ["evaluate", "expected_rolls", "final_board_columns", "final_board_probabilities", "final_sum_distribution",
           "policy_values", "reach_probabilities", "reachable_boards", "roll_count_distribution", "roll_counts",
           "solve", "tiles_open_after"]
