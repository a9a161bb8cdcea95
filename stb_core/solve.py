r"""The Bellman equation of Shut the Box, solved exactly for any rules, objective and policy.

With ``V(S)`` the expected value of the finished game from board ``S`` (the open tiles, a bit-mask),
``u`` the objective's value of a finished game, ``M(S, r)`` the legal moves for roll ``r``, ``C(S)`` the
dice the player may choose to roll (``p_c(r)`` the chance that ``c`` dice show ``r``) and ``opt`` the
objective's max or min:

.. math::

    V(S) = u(S)                                                  \text{if } \Sigma S \le W \text{ (won)},

    V(S) = \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r),
    \quad Q(S, r) = \begin{cases} V(S \setminus \pi(S, r)) & M(S, r) \ne \varnothing \\
                                  u(S) & \text{otherwise (stuck: the game ends)} \end{cases}

where the move ``pi(S, r)`` is, for the optimal policy, ``argopt_{m in M(S, r)} V(S \ m)``; for the
other policies it is their own choice (``random`` averages ``V(S \ m)`` over ``M(S, r)``). The dice are
chosen with the objective's sense (against it for ``worst``).

Every move shuts at least one tile, so ``S \ m`` has fewer open tiles than ``S``: the sweep solves the
boards level by level (0, 1, 2, ... open tiles), each level as whole numpy arrays, and for each roll and
each move scatters the children's values onto every board holding the move. The same code runs on
float64 or, with ``exact=True``, on Python ``Fraction``\ s in object arrays.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .boards import (
    Levels,
    board_tiles,
    check_board,
    check_roll,
    legal_move_masks,
    move_catalogue,
    tile_sums,
)
from .counts import total_winning_sequences
from .objectives import Objective, check_policy, get_objective, highest_tile_key
from .rules import HIGH_TILE, Rules, RulesError

EXACT_MAX_TILES = 16


def _as_rules(rules: Rules) -> Rules:
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a stb_core.Rules value, got {type(rules).__name__}")
    return rules


def one_die_mask(rules: Rules, boards: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """For each board, whether the rules let the player roll a single die (vectorised)."""
    if rules.one_die == "high-shut":
        return (boards >> (HIGH_TILE - 1)) == 0
    if rules.one_die == "sum-le-6":
        return sums <= 6
    return np.zeros(boards.shape, dtype=bool)


@dataclass
class Solution:
    """Values of every board under one rules, objective and policy, and the means to act on them.

    ``values[S]`` is ``V(S)`` for every bit-mask ``S`` (float64, or ``Fraction`` when exact);
    ``dice[S]`` the number of dice the policy rolls from ``S``.
    """

    rules: Rules
    objective: Objective
    policy: object
    values: np.ndarray
    dice: np.ndarray
    exact: bool
    seconds: float
    sequence_counts: np.ndarray | None = field(default=None, repr=False)
    _policy_table: np.ndarray | None = field(default=None, repr=False)

    # -- values ------------------------------------------------------------------------------------
    def value(self, board: int | None = None):
        """``V(board)``, the full board by default."""
        board = self.rules.full_board if board is None else check_board(board, self.rules)
        return self.values[board]

    # -- choices -----------------------------------------------------------------------------------
    def move_keys(self, children: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """Key of each move (larger preferred) given the boards it leaves; see ``objectives``."""
        if self.policy == "optimal":
            return self.objective.sense * self.values[children]
        if self.policy == "worst":
            return -self.objective.sense * self.values[children]
        if self.policy == "highest-tile":
            return np.broadcast_to(highest_tile_key(moves, self.rules.tiles), np.shape(children))
        if self.policy == "sequence-count":
            return self.sequence_counts[children]
        raise RulesError(f"policy {self.policy!r} ranks no moves")

    def move_values(self, board: int, roll: int) -> list[tuple[tuple[int, ...], object]]:
        """Every legal move for (board, roll) with ``V`` after it, best first for the objective."""
        board = check_board(board, self.rules)
        roll = check_roll(roll, self.rules)
        moves = legal_move_masks(self.rules, board, roll)
        rows = [(board_tiles(m), self.values[board & ~m]) for m in moves]
        return sorted(rows, key=lambda row: -self.objective.sense * row[1])

    def roll_value(self, board: int, roll: int):
        """``Q(board, roll)``: value after the policy's move for this roll, or ``u(board)`` if stuck."""
        board = check_board(board, self.rules)
        moves = legal_move_masks(self.rules, board, roll)
        if not moves:
            return self.objective.values(np.array([board]), self.rules)[0] if not self.exact else \
                Fraction(self.objective.values(np.array([board]), self.rules)[0])
        if self.policy == "random":
            return sum(self.values[board & ~m] for m in moves) / len(moves)
        move = int(self.choose(np.array([board]), roll)[0])
        return self.values[board & ~move]

    def dice_values(self, board: int) -> dict[int, object]:
        """Value of rolling each number of dice the rules allow from ``board``: ``{dice: sum_r p(r) Q}``.

        Only the rules' dice where no single die is allowed (or where it is forced, only 1)."""
        board = check_board(board, self.rules)
        rules = self.rules
        allowed = bool(one_die_mask(rules, np.array([board]), np.array([sum(board_tiles(board))]))[0])
        options = [rules.dice] if not allowed else ([1] if rules.one_die_forced else [1, rules.dice])
        out = {}
        for dice in sorted(options):
            probabilities = rules.roll_distribution(dice)
            out[dice] = sum((p if self.exact else float(p)) * self.roll_value(board, r)
                            for r, p in probabilities.items())
        return out

    def policy_table(self) -> np.ndarray:
        """The policy's move for every (board, roll total): ``table[S, r]`` a move mask or -1 if none.

        Built once per solution (deterministic policies only) and used to simulate many games fast.
        """
        if self._policy_table is None:
            if callable(self.policy) or self.policy == "random":
                raise RulesError("policy_table needs a deterministic named policy, not random or a function")
            boards = np.arange(self.rules.states, dtype=np.int64)
            table = np.full((self.rules.states, max(self.rules.roll_totals) + 1), -1, dtype=np.int64)
            for roll in self.rules.roll_totals:
                table[:, roll] = self.choose(boards, roll)
            self._policy_table = table
        return self._policy_table

    def choose(self, boards: np.ndarray, roll: int, rng: np.random.Generator | None = None) -> np.ndarray:
        """The policy's move (bit-mask) for each board and ``roll``; -1 where no move is legal.

        ``random`` needs ``rng``; a user function is called once per board.
        """
        boards = np.asarray(boards, dtype=np.int64)
        moves = move_catalogue(self.rules).moves(roll)
        chosen = np.full(boards.shape, -1, dtype=np.int64)
        if moves.size == 0 or boards.size == 0:
            return chosen
        legal = (boards[:, None] & moves[None, :]) == moves[None, :]
        if callable(self.policy):
            for i, board in enumerate(boards.tolist()):
                options = [int(m) for m in moves[legal[i]]]
                if options:
                    chosen[i] = _call_policy(self.policy, board, roll, options)
            return chosen
        if self.policy == "random":
            if rng is None:
                raise RulesError("policy 'random' needs a seeded numpy Generator to choose moves")
            keys = rng.random(legal.shape)
        else:
            keys = np.asarray(self.move_keys(boards[:, None] & ~moves[None, :], moves[None, :]), dtype=float)
        keys = np.where(legal, keys, -np.inf)
        best = np.argmax(keys, axis=1)  # first maximum: ties go to the canonical order
        anything = legal.any(axis=1)
        chosen[anything] = moves[best[anything]]
        return chosen


def _call_policy(policy, board: int, roll: int, options: list[int]) -> int:
    """Ask a user policy function for its move and check that it is one of the legal ones."""
    tuples = [board_tiles(m) for m in options]
    move = tuple(sorted(int(t) for t in policy(board_tiles(board), roll, tuples)))
    if move not in tuples:
        raise RulesError(f"policy function returned {move} for open {board_tiles(board)} and roll {roll}; "
                         f"legal moves are {tuples}")
    return options[tuples.index(move)]


def solve(
    rules: Rules,
    objective: str | Objective = "win",
    policy="optimal",
    *,
    exact: bool = False,
) -> Solution:
    """Solve the Bellman equation above for every board; see the module docstring.

    >>> from stb_core import Rules
    >>> round(float(solve(Rules(one_die="high-shut")).value()), 6)
    0.097614
    """
    rules = _as_rules(rules)
    obj = get_objective(objective)
    policy = check_policy(policy)
    if exact and rules.tiles > EXACT_MAX_TILES:
        raise RulesError(f"tiles must be at most {EXACT_MAX_TILES} for exact values, got {rules.tiles}")
    start = time.perf_counter()
    counts = total_winning_sequences(rules) if policy == "sequence-count" else None
    solution = Solution(rules, obj, policy, None, None, exact, 0.0, counts)
    _sweep(solution)
    solution.seconds = time.perf_counter() - start
    return solution


def _probability(weight: int, rules: Rules, exact: bool):
    return Fraction(weight, rules.outcomes) if exact else weight / rules.outcomes


def _sweep(sol: Solution) -> None:
    """Fill ``sol.values`` and ``sol.dice`` level by level (the Bellman equation, vectorised)."""
    rules, exact = sol.rules, sol.exact
    n = rules.states
    dtype = object if exact else float
    levels = Levels(rules)
    everything = np.arange(n, dtype=np.int64)
    sums = tile_sums(everything)
    won = sums <= rules.win_at_most
    utility = sol.objective.values(everything, rules, sums)
    if exact:
        utility = np.array([Fraction(x) for x in utility.tolist()], dtype=object)
    else:
        utility = utility.astype(float)
    sense = sol.objective.sense
    dice_sense = -sense if sol.policy == "worst" else sense
    choices = [rules.dice] + ([1] if rules.one_die != "never" else [])
    weights = {rules.dice: rules.roll_weights, 1: rules.one_die_weights}

    values = np.empty(n, dtype=dtype)
    dice = np.full(n, rules.dice, dtype=np.int8)
    key_dtype = object if exact or sol.policy == "sequence-count" else float
    best_key = np.empty(n, dtype=key_dtype)  # per board: key of the best move so far for this roll
    ranked = sol.policy in ("optimal", "worst")  # these need only the running extreme in best_key
    best_value = np.empty(0 if ranked else n, dtype=dtype)  # V after the best move (random: sum over moves)
    found = np.zeros(n if sol.policy == "random" else 0, dtype=np.int64)  # random: legal moves seen
    values[0] = utility[0]
    sol.values, sol.dice = values, dice
    for k in range(1, rules.tiles + 1):
        boards = levels.boards(k)
        expected = {c: np.zeros(boards.size, dtype=dtype) for c in choices}
        stuck_value = utility[boards]
        for roll in rules.roll_totals:
            outcome = _roll_outcome(sol, levels, roll, k, boards, stuck_value, best_key, best_value, found)
            for c in choices:
                w = weights[c].get(roll, 0)
                if w:
                    expected[c] += _probability(w, rules, exact) * outcome
        value = expected[rules.dice]
        if len(choices) == 2:
            allowed = one_die_mask(rules, boards, sums[boards])
            single = expected[1]
            if rules.one_die_forced:
                take_single = allowed
            else:
                take_single = allowed & (dice_sense * (single - value) > 0).astype(bool)
            value = np.where(take_single, single, value)
            dice[boards[take_single]] = 1
        values[boards] = np.where(won[boards], stuck_value, value)


def _roll_outcome(sol, levels, roll, k, boards, stuck_value, best_key, best_value, found) -> np.ndarray:
    """``Q(S, r)`` for every k-tile board ``S``: the value after the policy's move, or ``u(S)`` if stuck
    (``stuck_value``, aligned with ``boards``)."""
    policy = sol.policy
    if callable(policy):
        return _roll_outcome_by_function(sol, roll, boards, stuck_value)
    if policy in ("optimal", "worst"):
        after, moved = _best_by_value(sol, levels, roll, k, boards, best_key)
    elif policy == "random":
        after, moved = _mean_value(sol, levels, roll, k, boards, best_value, found)
    else:
        after, moved = _best_by_key(sol, levels, roll, k, boards, best_key, best_value)
    return np.where(moved, after, stuck_value)


def _best_by_value(sol, levels, roll, k, boards, best_key):
    """Optimal / worst: the chosen value is the extreme value after a move, an unbuffered running max (or
    min) over every (board, move) pair of the level at once (``ufunc.at`` handles boards with many moves)."""
    maximise = sol.objective.sense * (1 if sol.policy == "optimal" else -1) > 0
    extreme, none = (np.maximum, -np.inf) if maximise else (np.minimum, np.inf)
    best_key[boards] = none
    parents, children = levels.pairs(roll, k)
    if parents.size:
        extreme.at(best_key, parents, sol.values[children])
    after = best_key[boards]
    moved = (after != none).astype(bool)
    return after, moved


def _best_by_key(sol, levels, roll, k, boards, best_key, best_value):
    """Heuristics: keep V after the move with the largest key, the first in canonical order on ties."""
    values = sol.values
    best_key[boards] = -np.inf
    for move, parents, children in levels.successors(roll, k):
        key = sol.move_keys(children, np.int64(move))
        better = (key > best_key[parents]).astype(bool)  # strict: earlier moves win ties
        winners = parents[better]
        best_key[winners] = key[better]
        best_value[winners] = values[children[better]]
    moved = (best_key[boards] > -np.inf).astype(bool)
    return best_value[boards], moved


def _mean_value(sol, levels, roll, k, boards, best_value, found):
    """Random: the average of V after each legal move."""
    best_value[boards] = 0
    found[boards] = 0
    parents, children = levels.pairs(roll, k)
    if parents.size:
        np.add.at(found, parents, 1)
        np.add.at(best_value, parents, sol.values[children])
    count = found[boards]
    moved = count > 0
    after = best_value[boards] / np.maximum(count, 1)
    if sol.exact:
        after = np.array([Fraction(x) for x in after.tolist()], dtype=object)
    return after, moved


def _roll_outcome_by_function(sol, roll, boards, stuck_value) -> np.ndarray:
    """``Q(S, r)`` for a user policy function, one board at a time (plain Python: small boards only)."""
    out = np.empty(boards.size, dtype=sol.values.dtype)
    for i, board in enumerate(boards.tolist()):
        options = legal_move_masks(sol.rules, board, roll)
        if options:
            out[i] = sol.values[board & ~_call_policy(sol.policy, board, roll, options)]
        else:
            out[i] = stuck_value[i]
    return out


# -- convenience -------------------------------------------------------------------------------------

def win_probability(rules: Rules, policy="optimal", board: int | None = None, *, exact: bool = False):
    """Probability of winning from ``board`` (default: full) under ``policy``."""
    return solve(rules, "win", policy, exact=exact).value(board)


def expected_remaining_sum(rules: Rules, policy="optimal", board: int | None = None, *, exact: bool = False):
    """Expected sum of the tiles left open at the end, from ``board`` under ``policy``."""
    return solve(rules, "remaining-sum", policy, exact=exact).value(board)


def expected_tiles_shut(rules: Rules, policy="optimal", board: int | None = None, *, exact: bool = False):
    """Expected number of tiles shut at the end (all tiles count, also those shut before ``board``)."""
    return solve(rules, "flipped-count", policy, exact=exact).value(board)
