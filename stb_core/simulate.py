"""Monte Carlo play of any policy, seeded and vectorised, to set beside the exact values.

All games advance together: each round rolls the dice for every unfinished game at once, then asks the
policy for its moves roll total by roll total (``Solution.choose``). A game ends when it is stuck or won.
Intervals are normal-approximation 95% intervals (``1.96`` standard errors).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .boards import board_tiles, check_board, tile_counts, tile_sums
from .rules import RulesError
from .solve import Solution

Z95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_GAMES = 100_000_000
TABLE_MAX_TILES = 20  # up to here a (board x roll) table of the policy's moves fits easily in memory


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of ``games`` simulated games: the final sums left open, and summaries with 95% intervals."""

    games: int
    seed: int
    final_sums: np.ndarray   # sum of the open tiles at the end of each game
    final_counts: np.ndarray  # number of tiles still open at the end of each game
    won: np.ndarray          # whether each game was won

    @property
    def win_rate(self) -> float:
        return float(self.won.mean())

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        return _interval(self.win_rate, math.sqrt(self.win_rate * (1 - self.win_rate) / self.games))

    @property
    def mean_remaining_sum(self) -> float:
        return float(self.final_sums.mean())

    @property
    def mean_remaining_sum_ci(self) -> tuple[float, float]:
        return _interval(self.mean_remaining_sum, float(self.final_sums.std(ddof=1)) / math.sqrt(self.games))

    def summary(self) -> dict[str, float]:
        """The headline numbers, for a table row or ``--json``."""
        lo, hi = self.win_rate_ci
        slo, shi = self.mean_remaining_sum_ci
        return {"games": self.games, "seed": self.seed, "win_rate": self.win_rate, "win_rate_low": lo,
                "win_rate_high": hi, "mean_remaining_sum": self.mean_remaining_sum,
                "mean_remaining_sum_low": slo, "mean_remaining_sum_high": shi}

    def covers(self, exact_win_rate: float) -> bool:
        """Whether the 95% interval of the win rate contains ``exact_win_rate``."""
        lo, hi = self.win_rate_ci
        return lo <= exact_win_rate <= hi


def _interval(mean: float, se: float) -> tuple[float, float]:
    return (mean - Z95 * se, mean + Z95 * se)


def _roll(rng: np.random.Generator, dice: np.ndarray, sides: int) -> np.ndarray:
    """Totals of ``dice[i]`` dice for each game i (the unused dice of one-die games are dropped)."""
    faces = rng.integers(1, sides + 1, size=(dice.size, int(dice.max(initial=1))))
    used = np.arange(faces.shape[1])[None, :] < dice[:, None]
    return (faces * used).sum(axis=1)


def simulate(solution: Solution, games: int = 100_000, seed: int = 0, board: int | None = None,
             progress=None) -> SimulationResult:
    """Play ``games`` games from ``board`` (default: full) with the solution's policy and dice choices."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise RulesError(f"games must be an integer between 1 and {MAX_GAMES}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RulesError(f"seed must be a non-negative integer, got {seed!r}")
    rules = solution.rules
    start = rules.full_board if board is None else check_board(board, rules)
    rng = np.random.default_rng(seed)
    boards = np.full(games, start, dtype=np.int64)
    playing = np.flatnonzero(tile_sums(boards) > rules.win_at_most)
    deterministic = not callable(solution.policy) and solution.policy != "random"
    table = solution.policy_table() if deterministic and rules.tiles <= TABLE_MAX_TILES else None
    while playing.size:
        if progress:
            progress(games - playing.size, games)
        current = boards[playing]
        rolls = _roll(rng, solution.dice[current].astype(np.int64), rules.sides)
        if table is not None:
            chosen = table[current, rolls]
        else:
            chosen = np.empty(playing.size, dtype=np.int64)
            for roll in np.unique(rolls).tolist():
                at = np.flatnonzero(rolls == roll)
                chosen[at] = solution.choose(current[at], roll, rng)
        stuck = chosen < 0
        current[~stuck] &= ~chosen[~stuck]
        boards[playing] = current
        playing = playing[~stuck & (tile_sums(current) > rules.win_at_most)]
    sums = tile_sums(boards)
    return SimulationResult(games, seed, sums, tile_counts(boards), sums <= rules.win_at_most)


def narrate_game(solution: Solution, seed: int = 0, board: int | None = None) -> list[dict]:
    """One game played with the solution's policy, turn by turn: open tiles, dice, roll, move, after."""
    rules = solution.rules
    rng = np.random.default_rng(seed)
    current = rules.full_board if board is None else check_board(board, rules)
    turns = []
    while tile_sums(np.array([current]))[0] > rules.win_at_most:
        dice = int(solution.dice[current])
        roll = int(_roll(rng, np.array([dice]), rules.sides)[0])
        move = int(solution.choose(np.array([current]), roll, rng)[0])
        after = current & ~move if move >= 0 else current
        turns.append({"turn": len(turns) + 1, "open": board_tiles(current), "dice": dice, "roll": roll,
                      "move": board_tiles(move) if move >= 0 else None, "open_after": board_tiles(after)})
        if move < 0:
            break
        current = after
    return turns


def replay_rolls(solution: Solution, rolls: list[int], board: int | None = None) -> list[dict]:
    """The policy's moves for a given sequence of rolls (e.g. a published game), turn by turn."""
    rules = solution.rules
    current = rules.full_board if board is None else check_board(board, rules)
    turns = []
    for roll in rolls:
        move = int(solution.choose(np.array([current]), int(roll), np.random.default_rng(0))[0])
        after = current & ~move if move >= 0 else current
        turns.append({"turn": len(turns) + 1, "open": board_tiles(current), "roll": int(roll),
                      "move": board_tiles(move) if move >= 0 else None, "open_after": board_tiles(after)})
        if move < 0:
            break
        current = after
    return turns
