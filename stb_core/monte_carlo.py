"""Monte Carlo play of any policy, seeded and vectorised, to set beside the exact values.

All games advance together: each round rolls the dice for every unfinished game at once (each game with the
dice its policy rolls from its board), then looks up the moves in the solution's move table (a mixture such
as ``random`` draws one of its moves with the same generator). A game ends when it is stuck or won.

Intervals: the win rate's 95% interval is Wilson's score interval (it never leaves [0, 1] and stays sensible
for small counts and rates near 0); the mean sum left uses the normal approximation. An exact value outside
its interval happens by chance one time in twenty: :meth:`SimulationResult.z_score` says how far outside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .boards import board_tiles, check_board, pairs_on
from .choice import draw
from .game import game_of
from .limits import CHUNK_GAMES
from .rules import InputError
from .sweep import Solution

Z95 = 1.959963984540054  # two-sided 95% normal quantile
MAX_GAMES = 100_000_000


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion: inside [0, 1] for every count, and around the observed rate (at
    0 or every success the rounding of ``centre - half`` could leave it a hair past the rate)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of ``games`` simulated games: how many ended on each board, and summaries with 95% intervals."""

    games: int
    seed: int
    board_counts: np.ndarray  # games that ended on each board (bit-mask index)
    sums: np.ndarray          # the score each board leaves (the game's: the open tiles' total, or weighted)
    won_boards: np.ndarray    # whether each board is won (the game's)
    largest_sum: int          # the largest score a game can leave (every tile open)
    roll_counts: np.ndarray | None = None  # games that lasted each number of rolls (the last, finding no move, too)

    @property
    def mean_rolls(self) -> float:
        """The mean number of rolls per game."""
        return float(np.dot(np.arange(self.roll_counts.size), self.roll_counts) / self.games)

    @property
    def mean_rolls_ci(self) -> tuple[float, float]:
        """Normal-approximation 95% interval of the mean number of rolls."""
        n = np.arange(self.roll_counts.size)
        mean = self.mean_rolls
        sd = math.sqrt(float(np.dot(self.roll_counts, (n - mean) ** 2)) / max(self.games - 1, 1))
        half = Z95 * sd / math.sqrt(self.games)
        return (mean - half, mean + half)

    @property
    def wins(self) -> int:
        return int(self.board_counts[self.won_boards].sum())

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def sum_counts(self) -> np.ndarray:
        """Games that ended with each sum left open, 0 .. ``largest_sum``."""
        return np.bincount(self.sums, weights=self.board_counts, minlength=self.largest_sum + 1).astype(np.int64)

    @property
    def mean_remaining_sum(self) -> float:
        counts = self.sum_counts
        return float(np.dot(np.arange(counts.size), counts) / self.games)

    def _sum_sd(self) -> float:
        """The sample standard deviation of the sums left (n - 1 in the denominator)."""
        counts, values = self.sum_counts, np.arange(self.largest_sum + 1, dtype=float)
        mean = self.mean_remaining_sum
        return math.sqrt(float(np.dot(counts, (values - mean) ** 2)) / (self.games - 1)) if self.games > 1 else 0.0

    @property
    def mean_remaining_sum_ci(self) -> tuple[float, float]:
        """Normal-approximation 95% interval of the mean sum left, clipped to the possible sums (the whole
        range when a single game gives no spread)."""
        if self.games < 2:
            return (0.0, float(self.largest_sum))
        half = Z95 * self._sum_sd() / math.sqrt(self.games)
        mean = self.mean_remaining_sum
        return (max(0.0, mean - half), min(float(self.largest_sum), mean + half))

    def z_score(self, exact: float, statistic: str = "win_rate") -> float:
        """How many standard errors the simulated ``win_rate`` or ``mean_remaining_sum`` lies from the exact
        value (the standard error of the exact value's own binomial or of the sample)."""
        if statistic == "win_rate":
            se = math.sqrt(max(exact * (1 - exact), 0.0) / self.games)
            gap = self.win_rate - exact
        else:
            se = self._sum_sd() / math.sqrt(self.games) if self.games > 1 else 0.0
            gap = self.mean_remaining_sum - exact
        if se == 0:
            return 0.0 if gap == 0 else math.copysign(math.inf, gap)
        return gap / se

    def summary(self) -> dict[str, float]:
        """The headline numbers, for a table row or ``--json``."""
        lo, hi = self.win_rate_ci
        slo, shi = self.mean_remaining_sum_ci
        return {"games": self.games, "seed": self.seed, "win_rate": self.win_rate, "win_rate_low": lo,
                "win_rate_high": hi, "mean_remaining_sum": self.mean_remaining_sum,
                "mean_remaining_sum_low": slo, "mean_remaining_sum_high": shi}


def check_games(games, low: int = 1) -> int:
    """``games`` if it is an int in ``[low, MAX_GAMES]``; :class:`InputError` naming the range otherwise."""
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or not low <= games <= MAX_GAMES:
        raise InputError(f"games must be an integer between {low:,} and {MAX_GAMES:,}, got {games!r}")
    return int(games)


def check_seed(seed) -> int:
    """``seed`` if it is a non-negative int; :class:`InputError` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _roll(rng: np.random.Generator, dice: np.ndarray, game) -> np.ndarray:
    """The outcome of ``dice[i]`` dice for each game i (the unused dice of one-die games are dropped): their
    total, or under a dice-based move rule the throw's code (:meth:`stb_core.game.Game.throw_codes`)."""
    faces = rng.integers(1, game.rules.sides + 1, size=(dice.size, int(dice.max(initial=1))))
    return game.throw_codes(faces, dice)


def _moves(solution: Solution, boards: np.ndarray, rolls: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The move (bit-mask) on each board for its roll: read from the move table, or drawn for a mixture."""
    catalogue = solution.game.catalogue
    if solution.sigma is not None:
        index = solution.sigma[boards, rolls - catalogue.lo].astype(np.int64)
        moves, played = np.full(boards.size, -1, dtype=np.int64), index >= 0
        moves[played] = catalogue.flat[catalogue.starts[rolls[played] - catalogue.lo] + index[played]]
        return moves
    chosen = np.full(boards.size, -1, dtype=np.int64)
    for roll in np.unique(rolls).tolist():
        at = np.flatnonzero(rolls == roll)
        pairs = pairs_on(solution.game, boards[at], roll)
        picked = draw(solution.game, solution.ranking, pairs, solution.values, solution.objective.sense, rng)
        chosen[at[pairs.at[picked]]] = pairs.masks[picked]
    return chosen


def play_games(solution: Solution, games: int, rng: np.random.Generator, start: int,
               lengths: np.ndarray | None = None) -> np.ndarray:
    """Play ``games`` games together from ``start`` with the solution's policy and dice: the final board of each
    (bit-masks), and in ``lengths`` (optional, one per game) how many rolls each lasted. Memory grows with
    ``games``: :func:`simulate` calls it a chunk at a time."""
    rules = solution.rules
    won = game_of(rules).won
    boards = np.full(games, start, dtype=np.int64)
    playing = np.flatnonzero(~won[boards])
    while playing.size:
        if lengths is not None:
            lengths[playing] += 1
        current = boards[playing]
        rolls = _roll(rng, solution.dice[current].astype(np.int64), game_of(rules))
        chosen = _moves(solution, current, rolls, rng)
        stuck = chosen < 0
        current[~stuck] &= ~chosen[~stuck]
        boards[playing] = current
        playing = playing[~stuck & ~won[current]]
    return boards


def simulate(solution: Solution, games: int = 100_000, seed: int = 0, board: int | None = None,
             progress=None) -> SimulationResult:
    """Play ``games`` games from ``board`` (default: full) with the solution's policy and dice choices, a chunk
    of ``CHUNK_GAMES`` at a time from one seeded generator (the same seed gives the same games), keeping only
    how many ended on each board. ``progress`` (optional) hears ``(games played, games)`` after each chunk."""
    games, seed = check_games(games), check_seed(seed)
    rules, game = solution.rules, game_of(solution.rules)
    start = rules.full_board if board is None else check_board(board, rules)
    rng = np.random.default_rng(seed)
    counts = np.zeros(game.states, dtype=np.int64)
    lengths = np.zeros(game.positions + 2, dtype=np.int64)
    for first in range(0, games, CHUNK_GAMES):
        rolled = np.zeros(min(CHUNK_GAMES, games - first), dtype=np.int64)
        ended = play_games(solution, rolled.size, rng, start, rolled)
        counts += np.bincount(ended, minlength=game.states)
        lengths += np.bincount(rolled, minlength=lengths.size)
        if progress:
            progress(min(first + CHUNK_GAMES, games), games)
    return SimulationResult(games, seed, counts, game.scores.astype(np.int64), game.won,
                            game.worst_score, lengths)


def narrate_game(solution: Solution, seed: int = 0, board: int | None = None) -> list[dict]:
    """One game played with the solution's policy, turn by turn: open tiles, dice, roll, move, after."""
    rules = solution.rules
    won = game_of(rules).won
    rng = np.random.default_rng(check_seed(seed))
    current = rules.full_board if board is None else check_board(board, rules)
    turns = []
    while not won[current]:
        dice = int(solution.dice[current])
        roll = int(_roll(rng, np.array([dice]), game_of(rules))[0])
        move = int(_moves(solution, np.array([current]), np.array([roll]), rng)[0])
        after = current & ~move if move >= 0 else current
        turns.append({"turn": len(turns) + 1, "open": board_tiles(current), "dice": dice, "roll": roll,
                      "move": board_tiles(move) if move >= 0 else None, "open_after": board_tiles(after)})
        if move < 0:
            break
        current = after
    return turns


def replay_rolls(solution: Solution, rolls: list[int], board: int | None = None) -> list[dict]:
    """The policy's moves for a given sequence of rolls (e.g. a published game), turn by turn, until the game ends:
    won (the rolls left are never thrown) or stuck (a roll with no legal move is the last turn)."""
    rules = solution.rules
    current = rules.full_board if board is None else check_board(board, rules)
    turns = []
    for roll in rolls:
        if solution.game.won[current]:
            break
        if not solution.game.shows([current], int(roll))[0]:
            dice = " or ".join("one die" if d == 1 else f"{d} dice" for d in solution.game.dice_choices(current))
            raise InputError(f"roll {roll} cannot be thrown from {solution.game.layout.label(current)}, where the "
                             f"rules roll {dice}")
        move = int(solution.played(np.array([current]), int(roll))[0])
        after = current & ~move if move >= 0 else current
        turns.append({"turn": len(turns) + 1, "open": board_tiles(current), "roll": int(roll),
                      "move": board_tiles(move) if move >= 0 else None, "open_after": board_tiles(after)})
        if move < 0:
            break
        current = after
    return turns
