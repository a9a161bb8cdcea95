r"""The Bellman equation of Shut the Box, solved for every board at once, for any rules, objective and policy.

With ``V(S)`` the expected value of the finished game from board ``S`` (the open tiles, a bit-mask), ``u``
the objective's value of a finished game, ``M(S, r)`` the legal moves for roll ``r``, ``C(S)`` the numbers
of dice the player may roll from ``S`` (``p_c(r)`` the chance that ``c`` dice show ``r``) and ``opt`` the
objective's max or min:

.. math::

    V(S) = u(S)                                                  \text{if } \Sigma S \le W \text{ (won)},

    V(S) = \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r),
    \quad Q(S, r) = \begin{cases} V(S \setminus \sigma(S, r)) & M(S, r) \ne \varnothing \\
                                  u(S) & \text{otherwise (stuck: the game ends)} \end{cases}

For the optimal policy ``sigma(S, r) = argopt_{m in M(S, r)} V(S \ m)``, the tie-break deciding among
equal values; any other policy (:mod:`stb_core.policies`) puts its own choice there, and a mixture (``random``)
the average of ``V(S \ m)`` over its moves. :func:`solve` optimises; :func:`stb_core.valuation.evaluate` values
any policy with the same sweep. The sweep records the dice rolled from each board as it goes and, when asked,
the move table ``sigma`` (deterministic policies, up to ``MOVE_TABLE_MAX_TILES`` tiles): a heuristic's as it
plays, the optimum's the first time a solution is asked for it.

Every move shuts at least one tile, so ``S \ m`` has fewer open tiles than ``S``: the sweep solves the boards
level by level (0, 1, 2, ... open tiles), each level as whole numpy arrays over every (board, move) pair of
each roll. The same code runs on float64 or, with ``exact=True``, on Python ``Fraction``\ s in object arrays.
:mod:`stb_core.compiled` runs the same equation board by board as a compiled loop (floats; the default from
``COMPILED_MIN_TILES`` tiles on). Everything the rules imply -- boards, won boards, moves, chances -- is read from
the rules' :class:`~stb_core.game.Game`. Solutions of named objectives and policies on boards of up to
``CACHE_MAX_TILES`` tiles are kept (they are immutable), so asking again costs nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from .boards import Levels, board_tiles, cells_at, check_board
from .game import Game, check_roll, game_of
from .objectives import Objective, get_objective
from .policies import (
    ONE_DIE,
    ONE_DIE_IF_BETTER,
    OPTIMAL,
    Context,
    Pairs,
    Policy,
    TieBreak,
    get_policy,
    get_tie_break,
    one_die_plan,
    same_value,
    with_random_ties,
)
from .rules import InputError, Rules

EXACT_MAX_TILES = 16
MOVE_TABLE_MAX_TILES = 20  # up to here the move table sigma (boards x roll totals) is kept in memory
COMPILED_MIN_TILES = 20    # from here "auto" runs the compiled loop (stb_core.compiled): faster, less memory
CACHE_MAX_TILES = 16       # solutions of named objectives and policies up to here are kept for reuse
PATHS = ("auto", "numpy", "compiled")


def check_rules(rules: Rules) -> Rules:
    """``rules`` if it is a :class:`Rules` value; :class:`InputError` otherwise."""
    if not isinstance(rules, Rules):
        raise InputError(f"rules must be a stb_core.Rules value, got {type(rules).__name__}")
    return rules


# -- pairs of a level ------------------------------------------------------------------------------------
def level_pairs(levels: Levels, tie: TieBreak, roll: int, k: int) -> Pairs:
    """The (board, move) pairs of one roll total on every board with ``k`` open tiles
    (:meth:`stb_core.boards.Levels.pairs`); board positions and tie ranks are found only when asked."""
    rules = levels.rules
    parent, child = levels.pairs(roll, k)

    def rank(pairs: Pairs) -> np.ndarray:
        moves = game_of(rules).moves.moves(roll)  # canonical order; look moves up through a sorted copy
        order = np.argsort(moves, kind="stable")
        return tie.rank(moves, rules.positions)[order[np.searchsorted(moves[order], pairs.move)]]

    return Pairs(roll, levels.boards(k).size, parent, child, lambda pairs: levels.position(pairs.parent), rank=rank)


# -- the sweep -----------------------------------------------------------------------------------------------
def _outcome_of_roll(policy: Policy, context: Context, pairs: Pairs, boards: np.ndarray, scratch: np.ndarray,
                     record: bool):
    """For each board of the level (``boards``): the value after the policy's move for this roll, whether a
    move was legal, and (``record``) the move played (-1: none). ``scratch`` is a board-indexed work array of
    the values' dtype."""
    values = context.values
    played = np.full(boards.size, -1, dtype=np.int64) if record else None
    if policy.uses_values:
        # the optimum (or the worst) value after a move is all the equation needs: a running extreme over
        # every (board, move) pair of the level at once, unbuffered (ufunc.at) for boards with many moves
        sign = policy.dice_direction * context.objective.sense
        extreme, none = (np.maximum, -np.inf) if sign > 0 else (np.minimum, np.inf)
        scratch[boards] = none
        if pairs.parent.size:
            cells_at(extreme, scratch, pairs.parent, values[pairs.child])
        after = scratch[boards]
        moved = (after != none).astype(bool)
        if record and pairs.parent.size and values.ndim == 1:
            # the move played: the tie-break's first among the moves as good as the best
            as_good = same_value(values[pairs.child], after[pairs.index])
            least = np.full(boards.size, np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(least, pairs.index[as_good], pairs.rank[as_good])
            chosen = as_good & (pairs.rank == least[pairs.index])
            played[pairs.index[chosen]] = pairs.move[chosen]
        return after, moved, played
    after = np.zeros(pairs.size, dtype=values.dtype)
    moved = np.zeros(pairs.size, dtype=bool)
    if pairs.parent.size == 0:
        return after, moved, played
    if policy.mixture:  # the average over the moves, weighted by their chances
        np.add.at(after, pairs.index, policy.weights(pairs, context.exact, context) * values[pairs.child])
        moved[pairs.index] = True
        return after, moved, played
    chosen = policy.choose(context, pairs)
    at = pairs.index[chosen]
    after[at] = values[pairs.child[chosen]]
    moved[at] = True
    if record:
        played[at] = pairs.move[chosen]
    return after, moved, played


def _better(new, old, direction: int):
    """Whether ``new`` beats ``old`` in ``direction`` (+1: larger) and is not the same value (:func:`same_value`)."""
    return (direction * (new - old) > 0) & ~same_value(new, old)


def bellman_sweep(game: Game, objective: Objective, policy: Policy, tie: TieBreak, exact: bool,
                  utility: np.ndarray | None = None, record: bool = False, progress=None):
    """Solve the equation of the module docstring for every board, level by level.

    Returns ``(values, dice, sigma)``: ``V`` per board, the number of dice the policy rolls from each board, and
    (``record``, deterministic policies) the move table ``sigma[S, r]`` played in the same sweep, else None.

    ``utility`` (optional) gives ``u`` directly, one row per board; with a second axis it solves one game per
    column at once (``values`` and ``dice`` then have the same columns) -- for the optimal (or worst) policy,
    whose equation needs only the best value after a move.
    """
    rules, levels = game.rules, game.levels
    dtype = object if exact else float
    if utility is None:
        utility = objective.values(game)
        utility = np.array([Fraction(x) for x in utility.tolist()], dtype=object) if exact else utility.astype(float)
    tail = utility.shape[1:]
    if tail and not policy.uses_values:
        raise InputError("several utilities at once need a value-ranked policy")
    record = record and not policy.mixture and not tail
    column = (-1, *[1] * len(tail))  # a per-board array against every column
    values = np.empty((game.states, *tail), dtype=dtype)
    dice = np.full((game.states, *tail), rules.dice, dtype=np.int8)
    sigma = np.full((game.states, max(game.roll_totals) + 1), -1, dtype=np.int64) if record else None
    context = Context(rules, objective, tie, exact, values)
    scratch = np.empty((game.states, *tail), dtype=dtype)
    chances = {c: game.chances(c, exact) for c in game.dice_counts}
    values[0] = utility[0]
    direction = policy.dice_direction * objective.sense
    plan = one_die_plan(rules, policy, game.one_die, game.boards, game.exposed) if rules.has_one_die_rule else None
    for k in range(1, game.tiles + 1):
        boards = levels.boards(k)
        stuck = utility[boards]
        expected = {c: np.zeros((boards.size, *tail), dtype=dtype) for c in chances}
        for roll in game.roll_totals:
            pairs = level_pairs(levels, tie, roll, k)
            after, moved, played = _outcome_of_roll(policy, context, pairs, boards, scratch, record)
            q = np.where(moved, after, stuck)
            for c, chance in chances.items():
                p = chance.get(roll)
                if p:
                    expected[c] += p * q
            if record:
                sigma[boards, roll] = played
        value = expected[rules.dice]
        if plan is not None:
            choice = plan[boards].reshape(column)
            better = _better(expected[1], value, direction)
            single = (choice == ONE_DIE) | ((choice == ONE_DIE_IF_BETTER) & better)
            value = np.where(single, expected[1], value)
            dice[boards] = np.where(single, 1, dice[boards])
        won = game.won[boards].reshape(column)
        values[boards] = np.where(won, stuck, value)
        dice[boards] = np.where(won, rules.dice, dice[boards])
        if record:
            sigma[boards[game.won[boards]]] = -1
        if progress is not None:
            progress(k / game.tiles)
    return values, dice, sigma


# -- the solution ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Solution:
    """Values of every board under one rules, objective, policy and tie-break, and the means to act on them.

    ``values[S]`` is ``V(S)`` for every bit-mask ``S`` (float64, or ``Fraction`` when exact); ``dice[S]`` the
    number of dice the policy rolls from ``S``; ``moves`` the move table recorded by the sweep that found the
    values (deterministic policies up to ``MOVE_TABLE_MAX_TILES`` tiles; see :attr:`sigma`).
    """

    rules: Rules
    objective: Objective
    policy: Policy
    tie_break: TieBreak
    values: np.ndarray
    dice: np.ndarray
    exact: bool
    seconds: float
    moves: np.ndarray | None = None
    path: str = "numpy"  # which sweep computed the values: numpy or compiled

    @property
    def game(self) -> Game:
        return game_of(self.rules)

    @property
    def context(self) -> Context:
        return Context(self.rules, self.objective, self.tie_break, self.exact, self.values)

    # -- values ------------------------------------------------------------------------------------------
    def value(self, board: int | None = None):
        """``V(board)``, the full board by default."""
        board = self.rules.full_board if board is None else check_board(board, self.rules)
        return self.values[board]

    def stuck_value(self, board: int):
        """``u(board)``: the value of a game that ends on ``board``."""
        value = self.objective.values(self.game, np.array([board]))[0]
        return Fraction(value) if self.exact else float(value)

    # -- the move table ----------------------------------------------------------------------------------
    def choose(self, boards: np.ndarray, roll: int) -> np.ndarray:
        """The policy's move (bit-mask) on each board for ``roll``; -1 where no move is legal.

        Read from :attr:`sigma` when the table is kept, otherwise chosen by the same rule."""
        boards = np.asarray(boards, dtype=np.int64)
        if self.rules.positions <= MOVE_TABLE_MAX_TILES:
            return self.sigma[boards, roll]
        return self._choose(boards, roll)

    def _choose(self, boards: np.ndarray, roll: int) -> np.ndarray:
        self._deterministic()
        pairs = Pairs.on(self.rules, boards, roll, self.tie_break)
        chosen = np.full(boards.size, -1, dtype=np.int64)
        picked = self.policy.choose(self.context, pairs)
        chosen[pairs.index[picked]] = pairs.move[picked]
        return chosen

    @cached_property
    def sigma(self) -> np.ndarray:
        """The move table ``sigma[S, r]``: the move (bit-mask) played from board ``S`` on roll total ``r``,
        -1 where no move is legal or the game is already won. Deterministic policies only. A heuristic's table is
        the one its sweep played; the optimum's is recorded by the same sweep run once more, recording (on the
        first call only: recording in every solve would make the numpy sweep about three times slower and the
        compiled one half again as slow, for a table most solves never read)."""
        self._deterministic()
        if self.moves is not None:
            return self.moves
        if self.rules.positions > MOVE_TABLE_MAX_TILES:
            raise InputError(f"tiles must be at most {MOVE_TABLE_MAX_TILES} for a move table (boards x roll "
                             f"totals in memory), got {self.rules.positions}")
        if self.path == "compiled":
            from . import compiled

            _, _, table = compiled.sweep_values(self.game, self.objective, self.policy, self.tie_break, True)
        else:
            _, _, table = bellman_sweep(self.game, self.objective, self.policy, self.tie_break, self.exact,
                                        record=True)
        table.flags.writeable = False
        return table

    def _deterministic(self) -> None:
        if self.policy.mixture:
            raise InputError(f"policy {self.policy.name!r} is a mixture: it has move chances, not a move table")

    def transitions(self, boards: np.ndarray, roll: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the policy goes from each board on ``roll``: ``(index, child, chance)`` rows, ``index`` into
        ``boards``; one row of chance 1 per board with a move (deterministic), or one per legal move (mixture).
        Boards with no legal move have no row."""
        boards = np.asarray(boards, dtype=np.int64)
        if not self.policy.mixture:
            move = self.choose(boards, roll)
            index = np.flatnonzero(move >= 0)
            ones = np.full(index.size, Fraction(1), dtype=object) if self.exact else np.ones(index.size)
            return index, boards[index] & ~move[index], ones
        pairs = Pairs.on(self.rules, boards, roll, self.tie_break)
        return pairs.index, pairs.child, self.policy.weights(pairs, self.exact, self.context)

    # -- one position -------------------------------------------------------------------------------------
    def move_values(self, board: int, roll: int) -> list[tuple[tuple[int, ...], object]]:
        """Every legal move for (board, roll) with ``V`` after it, best first for the objective (equal
        values in the tie-break's order, so the first is the optimal policy's move)."""
        board = check_board(board, self.rules)
        roll = check_roll(roll, self.rules)
        pairs = Pairs.on(self.rules, np.array([board]), roll, self.tie_break)
        remaining = np.ones(pairs.index.size, dtype=bool)
        context = self.context
        rows = []
        while remaining.any():
            keep = np.flatnonzero(remaining)
            best = keep[OPTIMAL.choose(context, pairs.subset(keep))][0]
            rows.append((board_tiles(int(pairs.move[best])), self.values[int(pairs.child[best])]))
            remaining[best] = False
        return rows

    def roll_value(self, board: int, roll: int):
        """``Q(board, roll)``: the value after the policy's move for this roll (the average over its moves
        for a mixture), or ``u(board)`` if no move is legal."""
        board = check_board(board, self.rules)
        index, child, chance = self.transitions(np.array([board]), roll)
        if index.size == 0:
            return self.stuck_value(board)
        return sum(c * v for c, v in zip(chance.tolist(), self.values[child].tolist(), strict=True))

    def dice_values(self, board: int) -> dict[int, object]:
        """Value of rolling each number of dice the rules allow from ``board``: ``{dice: sum_r p(r) Q}``."""
        board = check_board(board, self.rules)
        out = {}
        for dice in self.game.dice_choices(board):
            out[dice] = sum(p * self.roll_value(board, r) for r, p in self.game.chances(dice, self.exact).items())
        return out



def move_table(rules: Rules, policy, tie_break: str | TieBreak = "canonical") -> np.ndarray:
    """The move table ``sigma[S, r]`` of a policy whose choices need no values (a heuristic, a strategy
    card, a function), without valuing it; value-ranked policies get theirs from :attr:`Solution.sigma`."""
    chosen = get_policy(check_policy_needs_no_values(policy)).bind(check_rules(rules))
    return _choices(game_of(rules), chosen, get_tie_break(tie_break))


def _choices(game: Game, policy: Policy, tie: TieBreak) -> np.ndarray:
    """The move table of a policy that reads no values: its choice on every (board, roll), level by level."""
    context = Context(game.rules, get_objective("win"), tie, False, np.zeros(0))
    table = np.full((game.states, max(game.roll_totals) + 1), -1, dtype=np.int64)
    for k in range(1, game.tiles + 1):
        for roll in game.roll_totals:
            pairs = level_pairs(game.levels, tie, roll, k)
            if pairs.parent.size:
                picked = policy.choose(context, pairs)
                table[pairs.parent[picked], roll] = pairs.move[picked]
    table[game.won] = -1
    return table


def check_policy_needs_no_values(policy):
    """``policy`` unless it ranks moves by value (those need a solve first)."""
    if get_policy(policy).uses_values or get_policy(policy).mixture:
        raise InputError(f"policy {get_policy(policy).name!r} has no move table without values: use solve/evaluate")
    return policy


def choose_path(rules: Rules, policy: Policy, exact: bool, path: str) -> str:
    """Which sweep runs: ``numpy`` (every case, exact included) or ``compiled`` (floats, deterministic
    policies). ``auto`` takes the compiled loop from ``COMPILED_MIN_TILES`` tiles on, or sooner when the numpy
    sweep is estimated to take over a second longer (many dice: :mod:`stb_core.cost`); ``make bench`` measures
    both."""
    if path not in PATHS:
        raise InputError(f"path must be one of {', '.join(PATHS)}; got {path!r}")
    compilable = not exact and not policy.mixture and game_of(rules).plain
    if path == "compiled":
        if not compilable:
            raise InputError("path 'compiled' needs floats, a deterministic policy, one row of tiles and the sum "
                             "rule")
        if not policy.uses_values and rules.positions > MOVE_TABLE_MAX_TILES:
            raise InputError(f"tiles must be at most {MOVE_TABLE_MAX_TILES} for a compiled heuristic (its move table "
                             f"is kept in memory), got {rules.positions}")
        return "compiled"
    if path == "auto" and compilable and (policy.uses_values or rules.positions <= MOVE_TABLE_MAX_TILES):
        from . import compiled
        from .cost import solve_cost

        cost = solve_cost(rules)
        faster = rules.positions >= COMPILED_MIN_TILES or cost.numpy_seconds > cost.compiled_seconds + 1.0
        return "compiled" if faster and compiled.available() else "numpy"
    return "numpy"


def run_sweep(rules: Rules, objective, policy, tie_break, exact: bool, path: str = "auto", progress=None) -> Solution:
    """Check the arguments, bind the policy and run the sweep (numpy or compiled): the one path to a Solution.
    A solve whose estimated cost (:mod:`stb_core.cost`) is beyond the machine is refused before any work;
    solutions of named objectives and policies on small boards are kept and handed out again. ``progress``
    (optional) is told the share of the sweep done as it goes."""
    rules = check_rules(rules)
    obj, chosen, tie = get_objective(objective), get_policy(policy), get_tie_break(tie_break)
    if exact and rules.positions > EXACT_MAX_TILES:
        raise InputError(f"tiles must be at most {EXACT_MAX_TILES} for exact values, got {rules.positions}")
    if path not in PATHS:
        raise InputError(f"path must be one of {', '.join(PATHS)}; got {path!r}")
    if not (isinstance(objective, str) and isinstance(policy, str) and rules.positions <= CACHE_MAX_TILES):
        return _run(rules, obj, chosen, tie, exact, path, progress)
    key = (rules, obj.name, chosen.name, tie.name, exact, path)
    if key not in _KEPT:
        _KEPT[key] = _run(rules, obj, chosen, tie, exact, path, progress)
        while len(_KEPT) > KEEP_SOLUTIONS:
            _KEPT.pop(next(iter(_KEPT)))  # the oldest first
    return _KEPT[key]


KEEP_SOLUTIONS = 64
_KEPT: dict[tuple, Solution] = {}


def forget_solutions() -> None:
    """Drop the kept solutions (each is recomputed when next asked for)."""
    _KEPT.clear()


def _run(rules: Rules, objective: Objective, policy: Policy, tie: TieBreak, exact: bool, path: str,
         progress=None) -> Solution:
    from .cost import check_affordable

    bound = policy.bind(rules)
    if tie.kind < 0:  # random among equals: the policy becomes the mixture of its equally ranked moves
        bound = with_random_ties(bound)
    path = choose_path(rules, bound, exact, path)
    check_affordable(rules, path, exact)
    game = game_of(rules)
    start = time.perf_counter()
    if path == "compiled":
        from . import compiled

        if bound.uses_values:
            values, dice, sigma = compiled.sweep_values(game, objective, bound, tie, False, progress)
        else:
            sigma = _choices(game, bound, tie)
            values, dice = compiled.sweep_table(game, objective, bound, sigma, progress)
    else:
        # a heuristic's choices are made in the sweep anyway: kept at no cost; the optimum's when first asked
        record = rules.positions <= MOVE_TABLE_MAX_TILES and not bound.uses_values
        values, dice, sigma = bellman_sweep(game, objective, bound, tie, exact, record=record, progress=progress)
    for array in (values, dice) + ((sigma,) if sigma is not None else ()):
        array.flags.writeable = False
    return Solution(rules, objective, bound, tie, values, dice, exact, time.perf_counter() - start, sigma, path)


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

