"""What a solve will cost, known before the work: counted from the rules, never by trying.

The Bellman sweep visits every board ``S`` (``2**n`` of them) and, for each roll total ``r``, every move ``m`` with
``sum(m) = r`` that is legal on ``S`` (its tiles all open). Counting the moves by size and total with a small
dynamic programme over the tiles gives, without listing one of them,

* ``moves``: every move of every roll total (what the compiled loop tries on each board);
* ``pairs``: every legal (board, move) pair, ``sum_r sum_k c(k, r) 2**(n - k)``, with ``c(k, r)`` the sets of ``k``
  distinct tiles adding up to ``r`` (what the numpy sweep gathers, level by level);
* the largest level's pairs (the numpy sweep's largest temporary arrays).

From these and constants measured on this machine's kind (``make bench`` measures the sweeps themselves), a
:class:`SolveCost` estimates seconds and peak bytes on each path; :func:`check_affordable` refuses, with the
estimate and the nearest feasible settings, a solve above what the machine can do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from .rules import InputError, Rules

# Measured constants (seconds per unit of work, bytes per item) -- see make bench; rough on purpose: an estimate
# is right within a factor of about two, which is what deciding "say so" or "refuse" needs.
NUMPY_SECONDS_PER_PAIR = 3e-8        # gather + scatter of one (board, move) pair, float
EXACT_SECONDS_PER_PAIR = 3e-6        # the same with Fractions
COMPILED_SECONDS_PER_PAIR = 1.5e-8   # one legal (board, move) pair in the compiled loop (found, read, compared)
COMPILED_SECONDS_PER_BOARD = 5e-9    # per board and roll total in the compiled loop
SECONDS_PER_BOARD = 5e-8             # per board and roll total: sums, chances, the dice choice
NUMPY_BYTES_PER_PAIR = 48            # parents, children, values gathered, indices (int64/float64 each)
BYTES_PER_BOARD = 40                 # values, dice, sums, counts, won, one-die flags, utilities
COUNT_SECONDS_PER_PAIR = 1.2e-6      # the exact sequence counts: Python ints for every pair and length
SIMULATED_SECONDS_PER_TURN = 6e-8    # one turn of one simulated game (rolled, looked up, moved)
MEMORY_BUDGET = 8 * 2**30            # what one run may use on these shared 24 GB machines
TIME_BUDGET = 3600.0                 # what a solve may take before it is refused as out of reach
ANNOUNCE_AFTER = 60.0                # a run estimated to take longer says so before it starts


@dataclass(frozen=True)
class Estimate:
    """What a piece of work is expected to take: seconds and peak bytes (rough: within a factor of about two)."""

    seconds: float = 0.0
    bytes: int = 0

    def __add__(self, other: Estimate) -> Estimate:
        return Estimate(self.seconds + other.seconds, max(self.bytes, other.bytes))

    def __mul__(self, times: float) -> Estimate:
        return Estimate(self.seconds * times, self.bytes)

    def describe(self) -> str:
        return describe(self.seconds, self.bytes)

    @property
    def affordable(self) -> bool:
        return self.seconds <= TIME_BUDGET and self.bytes <= MEMORY_BUDGET


@dataclass(frozen=True)
class SolveCost:
    """The work of one solve and its estimated seconds and peak bytes on the numpy and compiled sweeps."""

    boards: int
    rolls: int
    moves: int
    pairs: int
    largest_level_pairs: int
    largest_roll: int = 12
    compilable: bool = True  # the compiled sweep applies (one row of tiles, the sum rule)

    @property
    def numpy_seconds(self) -> float:
        return self.pairs * NUMPY_SECONDS_PER_PAIR + self.boards * self.rolls * SECONDS_PER_BOARD

    @property
    def exact_seconds(self) -> float:
        return self.pairs * EXACT_SECONDS_PER_PAIR + self.boards * self.rolls * SECONDS_PER_BOARD * 30

    @property
    def compiled_seconds(self) -> float:
        # the compiled kernels visit only the legal moves of each board (listed per pattern, or found depth first)
        return self.pairs * COMPILED_SECONDS_PER_PAIR + self.boards * self.rolls * COMPILED_SECONDS_PER_BOARD

    @property
    def numpy_bytes(self) -> int:
        return self.boards * BYTES_PER_BOARD + self.largest_level_pairs * NUMPY_BYTES_PER_PAIR + self.move_table_bytes

    @property
    def compiled_bytes(self) -> int:
        return self.boards * BYTES_PER_BOARD + self.move_table_bytes

    @property
    def move_table_bytes(self) -> int:
        """The move table the sweep records (boards x roll totals, int64) on boards of up to 20 tiles."""
        return self.boards * (self.largest_roll + 1) * 8 if self.boards <= 1 << 20 else 0

    def seconds(self, path: str = "auto", exact: bool = False) -> float:
        if exact:
            return self.exact_seconds
        if path == "numpy":
            return self.numpy_seconds
        if path == "compiled":
            return self.compiled_seconds
        return min(self.numpy_seconds, self.compiled_seconds) if self.compilable else self.numpy_seconds

    def estimate(self, path: str = "auto", exact: bool = False) -> Estimate:
        """Seconds and bytes of one solve on ``path``."""
        return Estimate(self.seconds(path, exact), self.bytes(path, exact))

    def bytes(self, path: str = "auto", exact: bool = False) -> int:
        if exact:
            return self.numpy_bytes * 4  # Python objects behind every value
        if path == "numpy":
            return self.numpy_bytes
        if path == "compiled":
            return self.compiled_bytes
        faster = self.numpy_seconds <= self.compiled_seconds or not self.compilable
        return self.numpy_bytes if faster else self.compiled_bytes


def move_counts(rules: Rules) -> np.ndarray:
    """``c[k, r]``: how many sets of ``k`` distinct tiles of ``1..tiles`` add up to ``r`` (``r`` up to the largest
    roll, ``k`` up to the most tiles one move may shut): a knapsack count, one tile at a time."""
    most, largest = rules.most_per_move, rules.largest_roll
    counts = np.zeros((most + 1, largest + 1), dtype=object)
    counts[0, 0] = 1
    for tile in range(1, min(rules.positions, largest) + 1):
        for k in range(most, 0, -1):
            counts[k, tile:] = counts[k, tile:] + counts[k - 1, :largest + 1 - tile]
    return counts


def _moves_by_size(rules: Rules) -> tuple[int, int, list[int], int]:
    """``(moves, outcomes, moves of each size, largest outcome code)``: counted (one row of tiles 1..N, the sum
    rule) or, for other boards and move rules, read from the game's move lists (small: one tile per move, or a
    board of at most 24 tiles with values up to 12)."""
    if rules.layout == "row" and rules.moves == "sum":
        counts = move_counts(rules)
        totals = [r for r in rules.dice_totals if r <= rules.largest_roll]
        sizes = [sum(counts[k, r] for r in totals) for k in range(counts.shape[0])]
        return int(sum(counts[:, r].sum() for r in totals)), len(totals), sizes, max(rules.dice_totals)
    from .game import game_of

    game = game_of(rules)
    found = [game.catalogue.sizes[c] for c in game.outcomes]
    sizes = np.bincount(np.concatenate(found + [np.zeros(0, np.int64)]), minlength=2).tolist()
    return sum(sizes), len(game.outcomes), sizes, max(game.outcomes)


@lru_cache(maxsize=256)
def solve_cost(rules: Rules) -> SolveCost:
    """The work of solving ``rules`` (see the module docstring). Blocked tiles (Double Shutter) only remove pairs:
    the estimate is then an upper bound."""
    moves, outcomes, sizes, widest = _moves_by_size(rules)
    n = rules.positions
    pairs = int(sum(int(sizes[k]) << (n - k) for k in range(1, len(sizes)) if k <= n))
    # pairs whose board has j open tiles: sum_k sizes[k] * C(n - k, j - k); the largest level bounds the arrays
    level = max((sum(int(sizes[k]) * comb(n - k, j - k) for k in range(1, min(j, len(sizes) - 1) + 1))
                 for j in range(1, n + 1)), default=0)
    return SolveCost(1 << n, outcomes, moves, pairs, level, widest, rules.layout == "row" and rules.moves == "sum")


def solve_estimate(rules: Rules, exact: bool = False) -> Estimate:
    """One solve of ``rules`` (the faster path for floats; the numpy sweep in fractions when ``exact``)."""
    return solve_cost(rules).estimate("auto", exact)


def counts_estimate(rules: Rules) -> Estimate:
    """Source 000's exact winning-sequence counts: every legal pair once per number of moves, in Python ints."""
    cost = solve_cost(rules)
    return Estimate(cost.pairs * COUNT_SECONDS_PER_PAIR, cost.boards * (rules.positions + 1) * 64)


def simulation_estimate(rules: Rules, games: int) -> Estimate:
    """``games`` simulated games, played a million at a time: each turn of each game, and the per-board counts."""
    return Estimate(games * (rules.positions + 1) * SIMULATED_SECONDS_PER_TURN,
                    (rules.states + min(games, 1 << 20) * 8) * 8)


def describe(seconds: float, size: int) -> str:
    """``about 3 minutes and 1.2 GB``."""
    if seconds < 90:
        when = f"about {seconds:.0f} s" if seconds >= 1 else "under a second"
    elif seconds < 5400:
        when = f"about {seconds / 60:.0f} minutes"
    else:
        when = f"about {seconds / 3600:.1f} hours"
    return f"{when} and {size / 2**30:.1f} GB" if size >= 2**28 else f"{when} and {size / 2**20:.0f} MB"


def largest_affordable_tiles(rules: Rules, path: str = "auto", exact: bool = False) -> int | None:
    """The most tiles these rules (otherwise the same) can be solved with inside the budgets, or None."""
    from dataclasses import replace

    for tiles in range(rules.tiles - 1, 0, -1):
        cost = solve_cost(replace(rules, tiles=tiles))
        if cost.seconds(path, exact) <= TIME_BUDGET and cost.bytes(path, exact) <= MEMORY_BUDGET:
            return tiles
    return None


def check_affordable(rules: Rules, path: str = "auto", exact: bool = False, solves: int = 1) -> SolveCost:
    """``solve_cost(rules)`` if ``solves`` solves fit the machine's budgets; else :class:`InputError` with the
    estimate and the nearest feasible settings, before any work."""
    cost = solve_cost(rules)
    seconds, size = cost.seconds(path, exact) * solves, cost.bytes(path, exact)
    if seconds <= TIME_BUDGET and size <= MEMORY_BUDGET:
        return cost
    nearest = largest_affordable_tiles(rules, path, exact)
    hint = f"; these rules are within reach up to {nearest} tiles" if nearest else ""
    raise InputError(f"tiles = {rules.tiles} with {rules.dice} dice of {rules.sides} sides is out of reach: solving "
                     f"would take {describe(seconds, size)} (the budget: {TIME_BUDGET / 60:.0f} minutes and "
                     f"{MEMORY_BUDGET / 2**30:.0f} GB){hint}")
