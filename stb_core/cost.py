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

from .limits import CHUNK_GAMES, KEPT_GAMES, move_table_bytes, records_move_table
from .rules import InputError, Rules

# Measured constants (seconds per unit of work, bytes per item) -- see make bench; rough on purpose: an estimate
# is right within a factor of about two, which is what deciding "say so" or "refuse" needs.
NUMPY_SECONDS_PER_PAIR = 1e-7        # gather + scatter of one (board, move) pair, float, σ recorded
EXACT_SECONDS_PER_PAIR = 3e-6        # the same with Fractions
COMPILED_SECONDS_PER_PAIR = 1e-8     # one legal (board, move) pair in the compiled loop (found, read, compared)
COMPILED_START_SECONDS = 0.3         # loading the compiled kernels from numba's cache, once per process
COMPILED_SECONDS_PER_BOARD = 5e-9    # per board and roll total in the compiled loop
SECONDS_PER_BOARD = 5e-8             # per board and roll total: sums, chances, the dice choice
MIXTURE_SLOWDOWN = 4.5               # a compiled sweep of a mixture against one of a single best move
FOLLOW_SECONDS = {"compiled": 3e-9, "numpy": 2e-8, "exact": 2e-6}  # one board and roll of a pass with σ known
EXACT_BYTES_PER_VALUE = 100          # a Fraction and its two integers
NUMPY_BYTES_PER_PAIR = 48            # parents, children, values gathered, indices (int64/float64 each)
BYTES_PER_BOARD = 40                 # values, dice, sums, counts, won, one-die flags, utilities
COUNT_SECONDS_PER_PAIR = 6e-7        # the exact sequence counts: Python ints for every pair and length
SIMULATED_SECONDS_PER_TURN = 6e-8    # one turn of one simulated game (rolled, looked up, moved)
COMPILED_MIN_TILES = 20              # from here path "auto" runs the compiled loop (faster, less memory)
ENGINE_BYTES = 64 * 2**20             # numba and the compiled kernels, loaded by every float solve and simulation
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

    def then(self, other: Estimate) -> Estimate:
        """This work, then ``other`` on top of what it keeps (both times, both memories)."""
        return Estimate(self.seconds + other.seconds, self.bytes + other.bytes)

    def __mul__(self, times: float) -> Estimate:
        return Estimate(self.seconds * times, self.bytes)

    def describe(self) -> str:
        return time_and_memory(self.seconds, self.bytes)

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

    @property
    def numpy_seconds(self) -> float:
        return self.pairs * NUMPY_SECONDS_PER_PAIR + self.boards * self.rolls * SECONDS_PER_BOARD

    @property
    def exact_seconds(self) -> float:
        return self.pairs * EXACT_SECONDS_PER_PAIR + self.boards * self.rolls * SECONDS_PER_BOARD * 30

    @property
    def compiled_seconds(self) -> float:
        # the compiled kernels visit only the legal moves of each board (listed per pattern, or found depth first)
        return (COMPILED_START_SECONDS + self.pairs * COMPILED_SECONDS_PER_PAIR
                + self.boards * self.rolls * COMPILED_SECONDS_PER_BOARD)

    @property
    def auto_path(self) -> str:
        """The sweep ``path="auto"`` runs, when numba is there: the compiled loop from ``COMPILED_MIN_TILES`` tiles
        on, or sooner when the numpy sweep is estimated to take over a second longer (many dice); else numpy."""
        tiles = self.boards.bit_length() - 1
        faster = tiles >= COMPILED_MIN_TILES or self.numpy_seconds > self.compiled_seconds + 1.0
        return "compiled" if faster else "numpy"

    @property
    def numpy_bytes(self) -> int:
        return self.boards * BYTES_PER_BOARD + self.largest_level_pairs * NUMPY_BYTES_PER_PAIR + self.move_table_bytes

    @property
    def kept_bytes(self) -> int:
        """What the game keeps after a solve for the next one: its per-board arrays, and on the numpy sweep its
        pairs up to ``boards.KEEP_PAIRS``."""
        from .boards import KEEP_PAIRS

        pairs = min(self.pairs, KEEP_PAIRS) if self.auto_path == "numpy" else 0
        return self.boards * BYTES_PER_BOARD + pairs * KEPT_BYTES_PER_PAIR

    @property
    def compiled_bytes(self) -> int:
        """Per-board arrays, and the move table when the compiled solve records it (``limits.records_move_table``)."""
        table = self.move_table_bytes
        return self.boards * BYTES_PER_BOARD + (table if records_move_table(table) else 0)

    @property
    def move_table_bytes(self) -> int:
        """The move table a sweep records: a move index per board and outcome code (``limits.move_table_bytes``)."""
        return move_table_bytes(self.boards, self.largest_roll + 1)

    def seconds(self, path: str = "auto", exact: bool = False, mixture: bool = False) -> float:
        """Seconds of one solve on ``path``; a ``mixture`` (random play or ties) makes the compiled loop weigh
        every best move of every pair it visits."""
        if exact:
            return self.exact_seconds
        path = self.auto_path if path == "auto" else path
        if path == "numpy":
            return self.numpy_seconds
        return self.compiled_seconds + (self.pairs * COMPILED_SECONDS_PER_PAIR * (MIXTURE_SLOWDOWN - 1) if mixture
                                        else 0.0)

    def estimate(self, path: str = "auto", exact: bool = False, mixture: bool = False) -> Estimate:
        """Seconds and bytes of one solve on ``path``."""
        return Estimate(self.seconds(path, exact, mixture), self.bytes(path, exact))

    def follow(self, what: str, exact: bool = False, mixture: bool = False, lengths: int = 1) -> Estimate:
        """What following a solved policy adds on the path ``"auto"`` solves it by: ``"back"``, a backward pass
        (another objective's value, the expected rolls: every board and roll, a mixture every pair); ``"forward"``,
        a forward pass (the final boards); ``"lengths"``, how long the game lasts (``lengths`` forward passes on
        the compiled loop; a table of every board by every length otherwise)."""
        path = "exact" if exact else self.auto_path
        board_rolls = self.boards * self.rolls
        if what == "back":
            if exact:
                return Estimate(self.exact_seconds, self.bytes("numpy", exact))
            weigh = COMPILED_SECONDS_PER_PAIR * MIXTURE_SLOWDOWN if path == "compiled" else NUMPY_SECONDS_PER_PAIR
            return Estimate(board_rolls * FOLLOW_SECONDS[path] + (self.pairs * weigh if mixture else 0.0),
                            self.boards * 8 * 2)
        passes = lengths if what == "lengths" else 1
        if path == "compiled":  # one pass per length, each over every board
            return Estimate(passes * self.boards * COMPILED_SECONDS_PER_BOARD, self.boards * 8 * 3)
        if what == "forward":
            return Estimate(board_rolls * FOLLOW_SECONDS[path], self.boards * 8 * 3)
        return Estimate(board_rolls * lengths * FOLLOW_SECONDS[path],
                        self.boards * lengths * (EXACT_BYTES_PER_VALUE if exact else 8 * 6))

    def bytes(self, path: str = "auto", exact: bool = False) -> int:
        """Peak bytes of one solve on ``path``."""
        if exact:
            return self.numpy_bytes * 4  # Python objects behind every value
        path = self.auto_path if path == "auto" else path
        return ENGINE_BYTES + (self.numpy_bytes if path == "numpy" else self.compiled_bytes)


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
    return SolveCost(1 << n, outcomes, moves, pairs, level, widest)


def solve_estimate(rules: Rules, exact: bool = False) -> Estimate:
    """One solve of ``rules`` (the faster path for floats; the numpy sweep in fractions when ``exact``)."""
    return solve_cost(rules).estimate("auto", exact)


KEPT_BYTES_PER_PAIR = 40  # a (board, move) pair a game keeps for its next numpy sweep: five int64 arrays


def games_played(games) -> Estimate:
    """The work of solving several games one after another, ``games`` as ``(SolveCost, solves)``: the times add
    up, and the memory is the largest solve's peak on top of what the last :data:`KEPT_GAMES` games keep (chapter 6
    solves 12 variants: one variant's peak was a third of the part's)."""
    games = list(games)
    kept = sorted((cost.kept_bytes for cost, _ in games), reverse=True)[:KEPT_GAMES]
    return Estimate(sum(cost.seconds() * solves for cost, solves in games),
                    max(cost.bytes() for cost, _ in games) + sum(kept))


def counts_estimate(rules: Rules) -> Estimate:
    """Source 000's exact winning-sequence counts: every legal pair once per number of moves, in Python ints
    (a count per board, number of moves and, while a level is summed, roll total)."""
    cost = solve_cost(rules)
    return Estimate(cost.pairs * COUNT_SECONDS_PER_PAIR, cost.boards * (rules.positions + 1) * 8 * cost.rolls)


def simulation_estimate(rules: Rules, games: int) -> Estimate:
    """``games`` simulated games, played a million at a time: each turn of each game, and the per-board counts."""
    return Estimate(games * (rules.positions + 1) * SIMULATED_SECONDS_PER_TURN,
                    ENGINE_BYTES + (rules.states + min(games, CHUNK_GAMES) * 8) * 8)


def playable_key_cost(cost: SolveCost) -> Estimate:
    """The most-options key: which outcomes leave each board a legal move (every board and outcome, numpy)."""
    return Estimate(cost.boards * cost.rolls * 6e-8, cost.boards * 150)


def sequence_key_cost(cost: SolveCost) -> Estimate:
    """The sequence-count key: the exact winning-sequence count of every board (Python ints, every pair)."""
    return Estimate(cost.pairs * 1.2e-7, cost.boards * 450)


def time_and_memory(seconds: float, size: int) -> str:
    """``about 3 minutes and 1.2 GB``."""
    when = duration(seconds)
    return f"{when} and {size / 2**30:.1f} GB" if size >= 2**28 else f"{when} and {size / 2**20:.0f} MB"


def duration(seconds: float) -> str:
    """``about 3 minutes``, ``about 40 s``, ``under a second``."""
    if seconds < 90:
        return f"about {seconds:.0f} s" if seconds >= 1 else "under a second"
    if seconds < 5400:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds / 3600:.1f} hours"


def largest_affordable_tiles(rules: Rules, path: str = "auto", exact: bool = False) -> int | None:
    """The most tiles, fewer than these rules have, with which the rules (otherwise the same) can be solved inside
    the budgets, or None: the hint where these rules are out of reach."""
    from dataclasses import replace

    for tiles in range(rules.tiles - 1, 0, -1):
        cost = solve_cost(replace(rules, tiles=tiles))
        if cost.seconds(path, exact) <= TIME_BUDGET and cost.bytes(path, exact) <= MEMORY_BUDGET:
            return tiles
    return None


def check_affordable(rules: Rules, path: str = "auto", exact: bool = False) -> SolveCost:
    """``solve_cost(rules)`` if a solve fits the machine's budgets; else :class:`InputError` with the estimate and
    the nearest feasible settings, before any work."""
    cost = solve_cost(rules)
    seconds, size = cost.seconds(path, exact), cost.bytes(path, exact)
    if seconds <= TIME_BUDGET and size <= MEMORY_BUDGET:
        return cost
    nearest = largest_affordable_tiles(rules, path, exact)
    hint = f"; these rules are within reach up to {nearest} tiles" if nearest else ""
    raise InputError(f"tiles = {rules.tiles} with {rules.dice} dice of {rules.sides} sides is out of reach: solving "
                     f"would take {time_and_memory(seconds, size)} (the budget: {TIME_BUDGET / 60:.0f} minutes and "
                     f"{MEMORY_BUDGET / 2**30:.0f} GB){hint}")
