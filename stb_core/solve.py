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
the average of ``V(S \ m)`` over its moves. :func:`solve` optimises; :func:`stb_core.evaluate.evaluate` values
any policy with the same sweep.

Every move shuts at least one tile, so ``S \ m`` has fewer open tiles than ``S``: the sweep solves the boards
level by level (0, 1, 2, ... open tiles), each level as whole numpy arrays over every (board, move) pair of
each roll. The same code runs on float64 or, with ``exact=True``, on Python ``Fraction``\ s in object arrays.
The move table ``sigma`` is not needed for the values of the optimal policy (only the best value is); a
:class:`Solution` builds it on request from the values, with the same choice rule.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from .boards import (
    Levels,
    board_levels,
    board_space,
    board_tiles,
    check_board,
    check_roll,
    move_catalogue,
)
from .objectives import Objective, get_objective
from .policies import (
    ONE_DIE,
    ONE_DIE_IF_BETTER,
    OPTIMAL,
    VALUE_RTOL,
    Context,
    Pairs,
    Policy,
    TieBreak,
    get_policy,
    get_tie_break,
    one_die_plan,
)
from .rules import Rules, RulesError

EXACT_MAX_TILES = 16
MOVE_TABLE_MAX_TILES = 20  # up to here the move table sigma (boards x roll totals) is kept in memory
COMPILED_MIN_TILES = 20    # from here "auto" runs the compiled loop (stb_core.compiled): faster, less memory
PATHS = ("auto", "numpy", "compiled")


def check_rules(rules: Rules) -> Rules:
    """``rules`` if it is a :class:`Rules` value; :class:`RulesError` otherwise."""
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a stb_core.Rules value, got {type(rules).__name__}")
    return rules


# -- pairs of a level ------------------------------------------------------------------------------------
def level_pairs(levels: Levels, tie: TieBreak, roll: int, k: int) -> Pairs:
    """The (board, move) pairs of one roll total on every board with ``k`` open tiles
    (:meth:`stb_core.boards.Levels.pairs`); board positions and tie ranks are found only when asked."""
    rules = levels.rules
    parent, child = levels.pairs(roll, k)

    def rank(pairs: Pairs) -> np.ndarray:
        moves = move_catalogue(rules).moves(roll)  # canonical order; look moves up through a sorted copy
        order = np.argsort(moves, kind="stable")
        return tie.rank(moves, rules.tiles)[order[np.searchsorted(moves[order], pairs.move)]]

    return Pairs(roll, levels.boards(k).size, parent, child, lambda pairs: levels.position(pairs.parent), rank=rank)


# -- the sweep -----------------------------------------------------------------------------------------------
def _outcome_of_roll(policy: Policy, context: Context, pairs: Pairs, boards: np.ndarray, scratch: np.ndarray):
    """For each board of the level (``boards``): the value after the policy's move for this roll, whether a
    move was legal, and the secondary value after it (``None`` without a secondary tie-break). ``scratch`` is
    a board-indexed work array of the values' dtype."""
    values, secondary = context.values, context.secondary
    if policy.uses_values and secondary is None:
        # the optimum (or the worst) value after a move is all the equation needs: a running extreme over
        # every (board, move) pair of the level at once, unbuffered (ufunc.at) for boards with many moves
        maximise = policy.dice_direction * context.objective.sense > 0
        extreme, none = (np.maximum, -np.inf) if maximise else (np.minimum, np.inf)
        scratch[boards] = none
        if pairs.parent.size:
            extreme.at(scratch, pairs.parent, values[pairs.child])
        after = scratch[boards]
        return after, (after != none).astype(bool), None
    after = np.zeros(pairs.size, dtype=values.dtype)
    after2 = None if secondary is None else np.zeros(pairs.size, dtype=secondary.dtype)
    moved = np.zeros(pairs.size, dtype=bool)
    if pairs.parent.size == 0:
        return after, moved, after2
    if policy.mixture:  # the average over the moves, weighted by their chances
        weights = policy.weights(pairs, context.exact)
        np.add.at(after, pairs.index, weights * values[pairs.child])
        if after2 is not None:
            np.add.at(after2, pairs.index, weights * secondary[pairs.child])
        moved[pairs.index] = True
        return after, moved, after2
    chosen = policy.choose(context, pairs)
    at = pairs.index[chosen]
    after[at] = values[pairs.child[chosen]]
    if after2 is not None:
        after2[at] = secondary[pairs.child[chosen]]
    moved[at] = True
    return after, moved, after2


def _better(new, old, direction: int, exact: bool):
    """Whether ``new`` beats ``old`` in ``direction`` (+1: larger) by more than the value tolerance."""
    gap = direction * (new - old)
    if exact:
        return (gap > 0).astype(bool)
    return gap > VALUE_RTOL * np.maximum(np.abs(new.astype(float)), np.abs(old.astype(float)))


def _probability(weight: int, rules: Rules, exact: bool):
    return Fraction(weight, rules.outcomes) if exact else weight / rules.outcomes


def _utilities(objective: Objective, rules: Rules, exact: bool) -> np.ndarray:
    space = board_space(rules)
    utility = objective.values(space.boards, rules, space.sums)
    if exact:
        return np.array([Fraction(x) for x in utility.tolist()], dtype=object)
    return utility.astype(float)


def bellman_sweep(rules: Rules, objective: Objective, policy: Policy, tie: TieBreak, exact: bool,
                  utility: np.ndarray | None = None):
    """Solve the equation of the module docstring for every board, level by level.

    Returns ``(values, dice, secondary)``: ``V`` per board, the number of dice the policy rolls from each
    board, and (for a ``then-<objective>`` tie-break) the second objective's values under the same play.

    ``utility`` (optional) gives ``u`` directly, one row per board; with a second axis it solves one game per
    column at once (``values`` and ``dice`` then have the same columns) -- for the optimal (or worst) policy,
    whose equation needs only the best value after a move.
    """
    space, levels = board_space(rules), board_levels(rules)
    dtype = object if exact else float
    utility = _utilities(objective, rules, exact) if utility is None else utility
    tail = utility.shape[1:]
    if tail and not (policy.uses_values and tie.secondary is None):
        raise RulesError("several utilities at once need a value-ranked policy and a tie-break without a second "
                         "objective")
    column = (-1, *[1] * len(tail))  # a per-board array against every column
    values = np.empty((rules.states, *tail), dtype=dtype)
    dice = np.full((rules.states, *tail), rules.dice, dtype=np.int8)
    second = tie.secondary
    utility2 = None if second is None else _utilities(second, rules, exact)
    secondary = None if second is None else np.empty(rules.states, dtype=dtype)
    context = Context(rules, objective, tie, exact, values, secondary)
    scratch = np.empty((rules.states, *tail), dtype=dtype)
    weights = {c: {r: _probability(w, rules, exact) for r, w in rules.dice_weights(c).items()}
               for c in rules.dice_counts}
    values[0] = utility[0]
    if secondary is not None:
        secondary[0] = utility2[0]
    direction = policy.dice_direction * objective.sense
    plan = one_die_plan(rules, policy, space.one_die, space.boards, space.sums) if rules.has_one_die_rule else None
    for k in range(1, rules.tiles + 1):
        boards = levels.boards(k)
        stuck = utility[boards]
        stuck2 = None if second is None else utility2[boards]
        expected = {c: np.zeros((boards.size, *tail), dtype=dtype) for c in weights}
        expected2 = {c: np.zeros(boards.size, dtype=dtype) for c in weights} if second else {}
        for roll in rules.roll_totals:
            pairs = level_pairs(levels, tie, roll, k)
            after, moved, after2 = _outcome_of_roll(policy, context, pairs, boards, scratch)
            q = np.where(moved, after, stuck)
            q2 = None if second is None else np.where(moved, after2, stuck2)
            for c, chances in weights.items():
                p = chances.get(roll)
                if p:
                    expected[c] += p * q
                    if second is not None:
                        expected2[c] += p * q2
        value, value2 = expected[rules.dice], expected2.get(rules.dice)
        if plan is not None:
            choice = plan[boards].reshape(column)
            single = choice == ONE_DIE
            if (choice == ONE_DIE_IF_BETTER).any():
                better = _better(expected[1], value, direction, exact)
                if second is not None:
                    level = ~better & ~_better(value, expected[1], direction, exact)
                    better |= level & _better(expected2[1], value2, second.sense, exact)
                single = single | ((choice == ONE_DIE_IF_BETTER) & better)
            value = np.where(single, expected[1], value)
            if second is not None:
                value2 = np.where(single, expected2[1], value2)
            dice[boards] = np.where(single, 1, dice[boards])
        won = space.won[boards].reshape(column)
        values[boards] = np.where(won, stuck, value)
        if second is not None:
            secondary[boards] = np.where(won, stuck2, value2)
        dice[boards] = np.where(won, rules.dice, dice[boards])
    return values, dice, secondary


# -- the solution ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Solution:
    """Values of every board under one rules, objective, policy and tie-break, and the means to act on them.

    ``values[S]`` is ``V(S)`` for every bit-mask ``S`` (float64, or ``Fraction`` when exact); ``dice[S]`` the
    number of dice the policy rolls from ``S``; ``secondary`` the tie-break objective's values (or None).
    The move table :attr:`sigma` is built from these on first use (deterministic policies).
    """

    rules: Rules
    objective: Objective
    policy: Policy
    tie_break: TieBreak
    values: np.ndarray
    dice: np.ndarray
    exact: bool
    seconds: float
    secondary: np.ndarray | None = None
    path: str = "numpy"  # which sweep computed the values: numpy or compiled

    @property
    def context(self) -> Context:
        return Context(self.rules, self.objective, self.tie_break, self.exact, self.values, self.secondary)

    # -- values ------------------------------------------------------------------------------------------
    def value(self, board: int | None = None):
        """``V(board)``, the full board by default."""
        board = self.rules.full_board if board is None else check_board(board, self.rules)
        return self.values[board]

    def stuck_value(self, board: int):
        """``u(board)``: the value of a game that ends on ``board``."""
        value = self.objective.values(np.array([board]), self.rules)[0]
        return Fraction(value) if self.exact else float(value)

    # -- the move table ----------------------------------------------------------------------------------
    def choose(self, boards: np.ndarray, roll: int) -> np.ndarray:
        """The policy's move (bit-mask) on each board for ``roll``; -1 where no move is legal.

        Read from :attr:`sigma` when the table is kept, otherwise chosen by the same rule."""
        boards = np.asarray(boards, dtype=np.int64)
        if self.rules.tiles <= MOVE_TABLE_MAX_TILES:
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
        -1 where no move is legal or the game is already won. Deterministic policies only."""
        self._deterministic()
        if self.path == "compiled" and self.policy.uses_values:
            from . import compiled

            direction = self.policy.dice_direction * self.objective.sense
            table = compiled.move_table(self.rules, self.values, direction, self.tie_break)
            table.flags.writeable = False
            return table
        return _sigma(self.policy, self.context)

    def _deterministic(self) -> None:
        if self.policy.mixture:
            raise RulesError(f"policy {self.policy.name!r} is a mixture: it has move chances, not a move table")

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
        return pairs.index, pairs.child, self.policy.weights(pairs, self.exact)

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
        for dice in self.rules.dice_choices(board):
            probabilities = self.rules.roll_distribution(dice)
            out[dice] = sum((p if self.exact else float(p)) * self.roll_value(board, r)
                            for r, p in probabilities.items())
        return out


def _sigma(policy: Policy, context: Context) -> np.ndarray:
    """The move table of a deterministic policy: its choice on every (board, roll), level by level."""
    rules = context.rules
    levels = board_levels(rules)
    table = np.full((rules.states, max(rules.roll_totals) + 1), -1, dtype=np.int64)
    for k in range(1, rules.tiles + 1):
        for roll in rules.roll_totals:
            pairs = level_pairs(levels, context.tie_break, roll, k)
            if pairs.parent.size:
                picked = policy.choose(context, pairs)
                table[pairs.parent[picked], roll] = pairs.move[picked]
    table[board_space(rules).won] = -1
    table.flags.writeable = False
    return table


def move_table(rules: Rules, policy, tie_break: str | TieBreak = "canonical") -> np.ndarray:
    """The move table ``sigma[S, r]`` of a policy whose choices need no values (a heuristic, a strategy
    card, a function), without valuing it; value-ranked policies get theirs from :attr:`Solution.sigma`."""
    chosen = get_policy(check_policy_needs_no_values(policy)).bind(check_rules(rules))
    tie = get_tie_break(tie_break)
    if tie.secondary is not None:
        raise RulesError("move_table needs a tie_break without a second objective (it reads no values)")
    empty = np.zeros(rules.states)
    return _sigma(chosen, Context(rules, get_objective("win"), tie, False, empty))


def check_policy_needs_no_values(policy):
    """``policy`` unless it ranks moves by value (those need a solve first)."""
    if get_policy(policy).uses_values or get_policy(policy).mixture:
        raise RulesError(f"policy {get_policy(policy).name!r} has no move table without values: use solve/evaluate")
    return policy


def choose_path(rules: Rules, policy: Policy, tie: TieBreak, exact: bool, path: str) -> str:
    """Which sweep runs: ``numpy`` (every case, exact included) or ``compiled`` (floats, deterministic policies,
    tie-breaks without a second objective). ``auto`` takes the compiled loop for value-ranked policies from
    ``COMPILED_MIN_TILES`` tiles on, where it is faster (``make bench`` measures both)."""
    if path not in PATHS:
        raise RulesError(f"path must be one of {', '.join(PATHS)}; got {path!r}")
    compilable = not exact and tie.secondary is None and not policy.mixture
    if path == "compiled":
        if not compilable:
            raise RulesError("path 'compiled' needs floats, a deterministic policy and a tie-break without a second "
                             "objective")
        if not policy.uses_values and rules.tiles > MOVE_TABLE_MAX_TILES:
            raise RulesError(f"tiles must be at most {MOVE_TABLE_MAX_TILES} for a compiled heuristic (its move table "
                             f"is kept in memory), got {rules.tiles}")
        return "compiled"
    if path == "auto" and compilable and policy.uses_values and rules.tiles >= COMPILED_MIN_TILES:
        from . import compiled

        return "compiled" if compiled.available() else "numpy"
    return "numpy"


def run_sweep(rules: Rules, objective, policy, tie_break, exact: bool, path: str = "auto") -> Solution:
    """Check the arguments, bind the policy and run the sweep (numpy or compiled): the one path to a Solution."""
    rules = check_rules(rules)
    obj = get_objective(objective)
    chosen = get_policy(policy)
    tie = get_tie_break(tie_break)
    if exact and rules.tiles > EXACT_MAX_TILES:
        raise RulesError(f"tiles must be at most {EXACT_MAX_TILES} for exact values, got {rules.tiles}")
    start = time.perf_counter()
    bound = chosen.bind(rules)
    path = choose_path(rules, bound, tie, exact, path)
    secondary = None
    if path == "compiled":
        from . import compiled

        if bound.uses_values:
            values, dice = compiled.sweep_values(rules, obj, bound)
        else:
            sigma = _sigma(bound, Context(rules, obj, tie, False, np.zeros(0)))
            values, dice = compiled.sweep_table(rules, obj, bound, sigma)
    else:
        values, dice, secondary = bellman_sweep(rules, obj, bound, tie, exact)
    for array in (values, dice) + ((secondary,) if secondary is not None else ()):
        array.flags.writeable = False
    return Solution(rules, obj, bound, tie, values, dice, exact, time.perf_counter() - start, secondary, path)


def solve(rules: Rules, objective: str | Objective = "win", *, tie_break: str | TieBreak = "canonical",
          exact: bool = False, path: str = "auto") -> Solution:
    """Optimal play: solve the Bellman equation above for every board; see the module docstring.

    >>> from stb_core import Rules
    >>> round(float(solve(Rules(one_die="high-shut")).value()), 6)
    0.097614
    """
    return run_sweep(rules, objective, OPTIMAL, tie_break, exact, path)


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

