r"""The Bellman equation of Shut the Box, solved for every board at once, for any rules, objective and policy.

With ``V(S)`` the expected value of the finished game from board ``S`` (the open tiles, a bit-mask), ``u`` the
objective's value of a finished game, ``M(S, r)`` the legal moves for outcome ``r``, ``C(S)`` the numbers of dice
the player may roll from ``S`` (``p_c(r)`` the chance that ``c`` dice show ``r``) and ``opt`` the objective's max or
min:

.. math::

    V(S) = u(S)                                                  \text{if } \Sigma S \le W \text{ (won)},

    V(S) = \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r),
    \quad Q(S, r) = \begin{cases} V(S \setminus \sigma(S, r)) & M(S, r) \ne \varnothing \\
                                  u(S) & \text{otherwise (stuck: the game ends)} \end{cases}

For the optimal policy ``sigma(S, r) = argopt_{m in M(S, r)} V(S \ m)``, the tie-break deciding among equal
values; any other policy puts its own choice there (:mod:`stb_core.choice`), and a mixture (``random``) the average
of ``V(S \ m)`` over its moves. The sweep records ``sigma`` -- the move table, one move index per board and outcome --
in the same pass that computes ``V``, and the dice rolled from each board: a solution's moves are data.

Every move shuts at least one tile, so ``S \ m`` has fewer open tiles than ``S``: :func:`bellman_sweep` solves the
boards level by level (0, 1, 2, ... open tiles), each level as whole numpy arrays over every (board, move) pair of
each outcome, on float64 or, with ``exact=True``, on Python ``Fraction``\ s. :mod:`stb_core.compiled` runs the same
equation board by board as a compiled loop (floats; the default on large boards). Solutions of named objectives and
policies on boards of up to ``CACHE_MAX_TILES`` tiles are kept (they are immutable), so asking again costs nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import limits
from .boards import board_tiles, cells_at, check_board, pairs_on
from .choice import (
    ONE_DIE,
    ONE_DIE_IF_BETTER,
    Ranking,
    TieBreak,
    choose,
    dice_plan,
    first_of,
    get_tie_break,
    move_chances,
    same_value,
)
from .game import Game, check_roll, game_of
from .limits import CACHE_MAX_TILES, EXACT_MAX_TILES, KEPT_GAMES, exact_limit
from .objectives import Objective, get_objective
from .policies import OPTIMAL, Policy, get_policy
from .rules import InputError, Rules, check_rules

PATHS = ("auto", "numpy", "compiled")


def check_exact(exact) -> bool:
    """``exact`` if it is True or False; :class:`InputError` otherwise (``"yes"`` is not a yes)."""
    if not isinstance(exact, bool | np.bool_):
        raise InputError(f"exact must be True or False, got {exact!r}")
    return bool(exact)


# -- the sweep -----------------------------------------------------------------------------------------------------
def _after_moves(game: Game, ranking: Ranking, pairs, values: np.ndarray, sense: int, exact: bool, boards: np.ndarray,
                 record: bool):
    """For each outcome (a row per outcome ``lo .. hi``) and each board of the level: the value after the ranking's
    move (the average over its best moves for a mixture), whether a move was legal, and (``record``) the move played
    -- its index, -1 for none."""
    catalogue = game.catalogue
    tail = values.shape[1:]
    shape = (catalogue.width, boards.size, *tail)
    after = np.zeros(shape, dtype=values.dtype)
    moved = np.zeros(shape[:2], dtype=bool)
    played = np.full(shape, -1, dtype=catalogue.index_dtype) if record else None
    if pairs.parent.size == 0:
        return after, moved, played
    rows, cols = pairs.codes_with - catalogue.lo, pairs.boards_with
    moved[rows, cols] = True
    if ranking.values and not ranking.keyed and not ranking.mix and ranking.table is None:
        # the best (or worst) value after a move is all the equation needs: the extreme of each (board, outcome) run
        # of pairs, one reduceat; the move played is the tie-break's first as good as it
        extreme = np.maximum if ranking.values * sense > 0 else np.minimum
        left = values[pairs.child]
        best = extreme.reduceat(left, pairs.starts, axis=0)
        after[rows, cols] = best
        if record:
            as_good = same_value(left, pairs.per_pair(best))
            canonical = ranking.canonical or None
            rank = None if canonical else ranking.rank[catalogue.starts[pairs.code - catalogue.lo] + pairs.move]
            played[rows, cols] = pairs.move[first_of(pairs, as_good, rank)]
        return after, moved, played
    if ranking.mix:  # the average over its best moves, added in canonical order
        weight = move_chances(game, ranking, pairs, values, sense, exact) * values[pairs.child]
        cells_at(np.add, after.reshape(catalogue.width * boards.size), (pairs.code - catalogue.lo) * boards.size
                 + pairs.at, weight)
        return after, moved, played
    chosen = choose(game, ranking, pairs, values, sense)
    after[pairs.code[chosen] - catalogue.lo, pairs.at[chosen]] = values[pairs.child[chosen]]
    if record:
        played[pairs.code[chosen] - catalogue.lo, pairs.at[chosen]] = pairs.move[chosen]
    return after, moved, played


def _better(new, old, direction: int):
    """Whether ``new`` beats ``old`` in ``direction`` (+1: larger) and is not the same value (:func:`same_value`)."""
    return (direction * (new - old) > 0) & ~same_value(new, old)


def initial_values(game: Game, objective: Objective, exact: bool) -> np.ndarray:
    """``u(S)`` for every board, as the sweep's values start (floats, or Fractions when ``exact``)."""
    utility = objective.values(game)
    if exact:
        return np.array([Fraction(x) for x in utility.tolist()], dtype=object)
    return np.array(utility, dtype=float)


def bellman_sweep(game: Game, objective: Objective, ranking: Ranking, exact: bool,
                  utility: np.ndarray | None = None, record: bool = True, progress=None):
    """Solve the equation of the module docstring for every board, level by level.

    Returns ``(values, dice, sigma)``: ``V`` per board, the number of dice the ranking rolls from each board, and
    the move table ``sigma[S, r - lo]`` (the index of the move played in ``game.catalogue.of(r)``, -1 for none)
    recorded in the same pass; None for a mixture or when ``record`` is False.

    ``utility`` (optional) gives ``u`` directly, one row per board; with a second axis it solves one game per
    column at once (``values``, ``dice`` and ``sigma`` then have the same columns) -- for a ranking by value alone,
    whose equation needs only the best value after a move.
    """
    rules, levels, catalogue = game.rules, game.levels, game.catalogue
    dtype = object if exact else float
    if utility is None:
        utility = initial_values(game, objective, exact)
    tail = utility.shape[1:]
    if tail and (ranking.keyed or ranking.mix or ranking.table is not None):
        raise InputError("several utilities at once need a ranking by value alone")
    record = record and not ranking.mix
    column = (-1, *[1] * len(tail))  # a per-board array against every column
    values = np.empty((game.states, *tail), dtype=dtype)
    dice = np.full((game.states, *tail), rules.dice, dtype=np.int8)
    sigma = np.full((game.states, catalogue.width, *tail), -1, dtype=catalogue.index_dtype) if record else None
    chance = {c: game.chances(c, exact) for c in game.dice_counts}
    sense = objective.sense
    values[0] = utility[0]
    direction = ranking.dice_direction * sense
    plan = dice_plan(game, ranking.dice_rule) if rules.has_one_die_rule else None
    for k in range(1, game.positions + 1):
        boards = levels.boards(k)
        stuck = utility[boards]
        after, moved, played = _after_moves(game, ranking, levels.pairs(k), values, sense, exact, boards, record)
        expected = {c: np.zeros((boards.size, *tail), dtype=dtype) for c in chance}
        for code in game.outcomes:  # outcome by outcome, in increasing order
            q = np.where(moved[code - catalogue.lo].reshape(column), after[code - catalogue.lo], stuck)
            for c, p_of in chance.items():
                p = p_of.get(code)
                if p:
                    expected[c] += p * q
        if record:
            sigma[boards] = np.moveaxis(played, 0, 1)
        value = expected[rules.dice]
        if plan is not None:
            choice = plan[boards].reshape(column)
            single = (choice == ONE_DIE) | ((choice == ONE_DIE_IF_BETTER) & _better(expected[1], value, direction))
            value = np.where(single, expected[1], value)
            dice[boards] = np.where(single, 1, dice[boards])
        won = game.won[boards].reshape(column)
        values[boards] = np.where(won, stuck, value)
        dice[boards] = np.where(won, rules.dice, dice[boards])
        if record:
            sigma[boards[game.won[boards]]] = -1
        if progress is not None:
            progress(k / game.positions)
    return values, dice, sigma


# -- the solution ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Solution:
    """Values of every board under one game, objective, policy and tie-break, and the means to act on them.

    ``values[S]`` is ``V(S)`` for every bit-mask ``S`` (float64, or ``Fraction`` when exact); ``dice[S]`` the number
    of dice the policy rolls from ``S``; ``sigma`` the move table recorded by the sweep that found the values
    (``sigma[S, r - game.catalogue.lo]``: the index of the move played in ``game.catalogue.of(r)``, -1 where no move
    is legal or the game is already won; None for a mixture); ``ranking`` the policy bound to the game.
    """

    game: Game
    objective: Objective
    policy: Policy
    tie_break: TieBreak
    ranking: Ranking
    values: np.ndarray
    dice: np.ndarray
    exact: bool
    seconds: float
    sigma: np.ndarray | None = None
    path: str = "numpy"  # which sweep computed the values: numpy or compiled

    @property
    def rules(self) -> Rules:
        return self.game.rules

    # -- values ------------------------------------------------------------------------------------------
    def value(self, board: int | None = None):
        """``V(board)``, the full board by default."""
        board = self.game.full_board if board is None else check_board(board, self.rules)
        return self.values[board]

    def stuck_value(self, board: int):
        """``u(board)``: the value of a game that ends on ``board``."""
        value = self.objective.values(self.game, np.array([board]))[0]
        return Fraction(value) if self.exact else float(value)

    # -- the moves -----------------------------------------------------------------------------------------
    def played(self, boards, code: int) -> np.ndarray:
        """The move (bit-mask) the policy plays on each board for outcome ``code``; -1 where no move is legal or
        the game is won. Deterministic policies only."""
        self._deterministic()
        catalogue = self.game.catalogue
        boards, code = self._boards(boards), self._outcome(code)
        return catalogue.masks_of(code, self.sigma[boards, code - catalogue.lo])

    def _boards(self, boards) -> np.ndarray:
        """``boards`` as an int64 array of this game's bit-masks; :class:`InputError` naming the parameter else."""
        found = np.asarray(boards)
        if found.dtype.kind not in "iu" or found.size and (found.min() < 0 or found.max() >= self.game.states):
            raise InputError(f"boards must be bit-masks of this game's boards, whole numbers from 0 to "
                             f"{self.game.states - 1}; got {boards!r}")
        return found.astype(np.int64)

    def _outcome(self, code) -> int:
        """``code`` if it is an outcome these rules' dice can show (a total; under a dice-based rule, the throw's
        code, :meth:`Game.outcome_code`); :class:`InputError` naming the parameter else."""
        outcomes = self.game.outcomes
        if isinstance(code, bool) or not isinstance(code, int | np.integer) or int(code) not in outcomes:
            shown = ", ".join(map(str, outcomes)) if len(outcomes) <= 24 else f"{outcomes[0]} to {outcomes[-1]}"
            raise InputError(f"roll must be an outcome of these rules' dice ({shown}); got {code!r}")
        return int(code)

    def move_masks(self) -> np.ndarray:
        """The whole move table as bit-masks, ``table[S, r]`` for every board and outcome code ``r`` (-1: none)."""
        self._deterministic()
        catalogue = self.game.catalogue
        table = np.full((self.game.states, catalogue.hi + 1), -1, dtype=np.int64)
        for code in catalogue.codes:
            table[:, code] = catalogue.masks_of(code, self.sigma[:, code - catalogue.lo])
        return table

    @property
    def moves_kept(self) -> str:
        """What the solution holds of the policy's moves: ``table`` (the move table ``sigma``), ``mixture`` (no
        table: the policy plays each of its best moves with a chance, read from the values), or ``not recorded`` (a
        deterministic policy whose table the compiled sweep left out, being over ``limits.SIGMA_BYTES``)."""
        return "table" if self.sigma is not None else "mixture" if self.ranking.mix else "not recorded"

    def _deterministic(self) -> None:
        if self.moves_kept == "table":
            return
        if self.moves_kept == "mixture":
            raise InputError(f"policy {self.policy.name!r} with tie_break {self.tie_break.name!r} is a mixture: it "
                             f"has move chances, not a move table")
        raise InputError(f"the move table of this solve was not recorded: on the compiled path a table over "
                         f"{limits.SIGMA_BYTES / 2**20:,.0f} MB is left out to save memory; solve with path='numpy' "
                         f"to keep it")

    def transitions(self, boards: np.ndarray, code: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the policy goes from each board on outcome ``code``: ``(at, child, chance)`` rows, ``at`` indexing
        ``boards``; one row of chance 1 per board with a move (deterministic), or one per move it may play
        (mixture). Boards with no legal move have no row."""
        boards = np.asarray(boards, dtype=np.int64)
        if self.sigma is not None:
            move = self.played(boards, code)
            at = np.flatnonzero(move >= 0)
            ones = np.full(at.size, Fraction(1), dtype=object) if self.exact else np.ones(at.size)
            return at, boards[at] & ~move[at], ones
        pairs = pairs_on(self.game, boards, code)
        weight = move_chances(self.game, self.ranking, pairs, self.values, self.objective.sense, self.exact)
        keep = weight != 0
        return pairs.at[keep], pairs.child[keep], weight[keep]

    # -- one position -------------------------------------------------------------------------------------
    def move_values(self, board: int, roll: int) -> list[tuple[tuple[int, ...], object]]:
        """Every legal move for (board, roll) with ``V`` after it, best first for the objective (equal values in the
        tie-break's order, so the first is the optimal policy's move)."""
        board = check_board(board, self.rules)
        roll = check_roll(roll, self.rules)
        pairs = pairs_on(self.game, np.array([board]), roll)
        ranking = OPTIMAL.ranking(self.game, get_tie_break("canonical") if self.tie_break.mix else self.tie_break)
        remaining = np.arange(pairs.parent.size)
        rows = []
        while remaining.size:
            best = remaining[choose(self.game, ranking, pairs.subset(remaining), self.values, self.objective.sense)]
            rows.append((board_tiles(int(pairs.masks[best[0]])), self.values[int(pairs.child[best[0]])]))
            remaining = remaining[remaining != best[0]]
        return rows

    def roll_value(self, board: int, roll: int):
        """``Q(board, roll)``: the value after the policy's move for this roll (the average over its moves
        for a mixture), or ``u(board)`` if no move is legal -- :func:`judged_roll_values` of this solution."""
        board = check_board(board, self.rules)
        return judged_roll_values(self, self, np.array([board]), roll, exact=self.exact)[0]

    def dice_values(self, board: int) -> dict[int, object]:
        """Value of rolling each number of dice the rules allow from ``board``: ``{dice: sum_r p(r) Q}``."""
        board = check_board(board, self.rules)
        return {dice: rolled_value(self.game, dice, lambda r: self.roll_value(board, r), self.exact)
                for dice in self.game.dice_choices(board)}


def judged_roll_values(judge: Solution, player: Solution, boards: np.ndarray, roll: int,
                       exact: bool = False) -> np.ndarray:
    """``Q(S, r; pi_player)`` judged by ``judge``'s values: ``judge``'s ``V`` after ``player``'s move on each
    board for ``roll`` (the chance-weighted average for a mixture), ``u(S)`` where no move is legal. Q's one home:
    floats, or Fractions when ``exact`` (both solutions exact)."""
    if exact and not (judge.exact and player.exact):
        raise InputError("exact roll values need two exact solutions")
    stuck = judge.objective.values(judge.game, boards)
    if exact:
        values, out = judge.values, np.array([Fraction(x) for x in stuck.tolist()], dtype=object)
    else:
        values, out = np.asarray(judge.values, dtype=float), np.asarray(stuck, dtype=float).copy()
    index, child, chance = player.transitions(boards, roll)
    if index.size:
        moved = np.zeros(boards.size, dtype=bool)
        moved[index] = True
        out[moved] = 0
        np.add.at(out, index, (chance if exact else np.asarray(chance, dtype=float)) * values[child])
    return out


def rolled_value(game: Game, dice: int, q, exact: bool = False):
    """``V_d = sum_r p_d(r) Q(r)``: the value of rolling ``dice`` dice, ``q(r)`` the value of outcome ``r`` (a
    number or an array of boards; chances as Fractions when ``exact``)."""
    return sum(p * q(r) for r, p in game.chances(dice, exact).items())


# -- which sweep, and the one path to a solution -----------------------------------------------------------------
def choose_path(game: Game, exact: bool, path: str) -> str:
    """Which sweep runs: ``numpy`` (every case, exact included) or ``compiled`` (floats). ``auto`` takes the one
    :attr:`stb_core.cost.SolveCost.auto_path` names, when numba is there; ``make bench`` measures both."""
    if path not in PATHS:
        raise InputError(f"path must be one of {', '.join(PATHS)}; got {path!r}")
    if path == "compiled":
        if exact:
            raise InputError("path 'compiled' needs floats: exact values come from the numpy sweep")
        return "compiled"
    if path == "auto" and not exact:
        from . import compiled
        from .cost import solve_cost

        auto = solve_cost(game.rules).auto_path
        return auto if auto == "numpy" or compiled.available() else "numpy"
    return "numpy"


def run_sweep(rules: Rules, objective, policy, tie_break, exact: bool, path: str = "auto", progress=None) -> Solution:
    """Check the arguments, bind the policy and run the sweep (numpy or compiled): the one path to a Solution.
    A solve whose estimated cost (:mod:`stb_core.cost`) is beyond the machine is refused before any work;
    solutions of named objectives and policies on small boards are kept and handed out again. ``progress``
    (optional) is told the share of the sweep done as it goes."""
    rules, exact = check_rules(rules), check_exact(exact)
    obj, chosen, tie = get_objective(objective), get_policy(policy), get_tie_break(tie_break)
    check_exact_reach(rules, exact)
    if path not in PATHS:
        raise InputError(f"path must be one of {', '.join(PATHS)}; got {path!r}")
    if not (isinstance(objective, str) and isinstance(policy, str) and rules.positions <= CACHE_MAX_TILES):
        return _run(rules, obj, chosen, tie, exact, path, progress)
    key = (rules, obj.name, chosen.name, tie.name, exact, path)
    if key not in _KEPT:
        _KEPT[key] = _run(rules, obj, chosen, tie, exact, path, progress)
        while len(_KEPT) > KEEP_SOLUTIONS or len({k[0] for k in _KEPT}) > KEPT_GAMES:  # the oldest goes first
            _KEPT.pop(next(iter(_KEPT)))
    return _KEPT[key]


def check_exact_reach(rules: Rules, exact: bool) -> None:
    """Refuse an exact solve beyond :data:`EXACT_MAX_TILES` positions at once (before any estimate is shown)."""
    if exact and rules.positions > EXACT_MAX_TILES:
        raise InputError(exact_limit(rules))


KEEP_SOLUTIONS = 64
_KEPT: dict[tuple, Solution] = {}


def forget_solutions() -> None:
    """Drop the kept solutions (each is recomputed when next asked for)."""
    _KEPT.clear()


def _run(rules: Rules, objective: Objective, policy: Policy, tie: TieBreak, exact: bool, path: str,
         progress=None) -> Solution:
    from .cost import check_affordable

    game = game_of(rules)
    ranking = policy.ranking(game, tie)
    path = choose_path(game, exact, path)
    check_affordable(rules, path, exact)
    start = time.perf_counter()
    if path == "compiled":
        from . import compiled

        values, dice, sigma = compiled.solve_values(game, objective, ranking, progress)
    else:
        values, dice, sigma = bellman_sweep(game, objective, ranking, exact, progress=progress)
    for array in (values, dice) + ((sigma,) if sigma is not None else ()):
        array.flags.writeable = False
    return Solution(game, objective, policy, tie, ranking, values, dice, exact, time.perf_counter() - start, sigma,
                    path)


def solve(rules: Rules, objective: str | Objective = "win", *, tie_break: str | TieBreak = "canonical",
          exact: bool = False, path: str = "auto", progress=None) -> Solution:
    """Optimal play: solve the Bellman equation above for every board; see the module docstring (``progress``:
    an optional function told the share of the sweep done, from 0 to 1).

    >>> from stb_core import Rules
    >>> round(float(solve(Rules(one_die="high-shut")).value()), 6)
    0.097614
    """
    return run_sweep(rules, objective, OPTIMAL, tie_break, exact, path, progress)


# -- convenience -------------------------------------------------------------------------------------------
def win_probability(rules: Rules, board: int | None = None, *, exact: bool = False):
    """Probability of winning from ``board`` (default: full) with optimal play."""
    return solve(rules, "win", exact=exact).value(board)


def expected_remaining_sum(rules: Rules, board: int | None = None, *, exact: bool = False):
    """Expected sum of the tiles left open at the end, from ``board``, playing to make it least."""
    return solve(rules, "remaining-sum", exact=exact).value(board)


def expected_tiles_shut(rules: Rules, board: int | None = None, *, exact: bool = False):
    """Expected number of tiles shut at the end (all tiles count, also those shut before ``board``)."""
    return solve(rules, "flipped-count", exact=exact).value(board)
