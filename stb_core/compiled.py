r"""The sweeps as compiled loops (numba): solve, evaluate and follow a game board by board.

The same equation as :mod:`stb_core.sweep`, read board by board:

.. math::

    V(S) = u(S) \text{ if } S \text{ is won}, \qquad
    V(S) = s + \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r), \qquad
    Q(S, r) = V(S \setminus \sigma(S, r)) \text{ (or } u(S) \text{ when stuck)},

with ``s = 0`` for an objective (``s = 1`` counts the rolls: then ``u = 0`` and ``V`` is the expected number of
rolls). Every child board ``S \ m`` is a smaller number than ``S``, so one pass over the boards in increasing order
has every value it needs, and the reads stay close to the board being solved. The numpy sweep instead gathers every
(board, move) pair of a level into temporary arrays: on large boards the loop is several times faster in a fraction
of the memory.

* :func:`solve_values` -- ``V``, the dice and the move table ``sigma`` in one pass (the ranking's choice, made by
  :func:`stb_core._kernels.choose`, the compiled mirror of :func:`stb_core.choice.choose`);
* :func:`values_of_play` -- the value of a fixed policy (its move table, or a mixture's chances) for any utility and
  step: another objective's value, the expected number of rolls;
* :func:`propagate` -- the chance of each board pushed forward: to the game's end (final boards) or one roll at a
  time (how long a game lasts).

Floats only; exact runs use the numpy sweep. numba is imported only when a kernel is first needed (importing it
costs over half a second, more than solving a 9-tile game), and the kernels are cached on disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import limits
from .choice import Ranking, dice_plan
from .game import Game

PATTERN_BITS = 13   # the pattern enumeration when moves use at most this many low tiles (its table stays small)
SUBSETS_ALLOWED = True  # the depth-first enumeration for one row and the sum rule (the tests try the others)
BOARDS_PER_CALL = 1 << 20     # boards per call of a kernel: progress is reported between calls


def available() -> bool:
    """Whether numba is installed here (looked up, not imported: importing it takes a quarter of a second)."""
    from importlib.util import find_spec

    return find_spec("numba") is not None


def _kernels():
    """The compiled kernels (numba imported here, on first use; compiled code loaded from the disk cache)."""
    from . import _kernels as kernels

    return kernels


# -- the game as flat arrays ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Moves:
    """What the kernels read to find a board's legal moves and name them (see :mod:`stb_core._kernels`)."""

    mode: int
    low_mask: int
    pattern_moves: np.ndarray
    pattern_index: np.ndarray
    pattern_starts: np.ndarray
    flat: np.ndarray
    needs: np.ndarray
    cstarts: np.ndarray
    mask_index: np.ndarray
    tile_values: np.ndarray
    most: int
    lo: int
    p_all: np.ndarray
    p_one: np.ndarray

    def arguments(self) -> tuple:
        return (self.mode, self.low_mask, self.pattern_moves, self.pattern_index, self.pattern_starts, self.flat,
                self.needs, self.cstarts, self.mask_index, self.tile_values, self.most, self.lo)


def read_only(array, dtype=None) -> np.ndarray:
    """``array`` as a kernel reads an input: C-contiguous and read-only, so that every caller's array has one
    compiled type (numba compiles a kernel once per type of each argument: a second type is a second compile on
    a user's first run). A view where it can be, a copy where it must (a broadcast array)."""
    out = np.ascontiguousarray(array, dtype=dtype)
    if out.flags.writeable:
        out = out.view()
        out.flags.writeable = False
    return out


def _low_bits(game: Game) -> int:
    """How many of the lowest tile positions the moves use."""
    used = int(np.bitwise_or.reduce(game.catalogue.flat)) if game.catalogue.flat.size else 0
    return used.bit_length()


def _patterns(game: Game, low_bits: int):
    """For every pattern of the low tiles and every outcome column, the legal moves in canonical order (and their
    indices), as flat arrays with a (patterns x (columns + 1)) table of start offsets."""
    catalogue = game.catalogue
    patterns = np.arange(1 << low_bits, dtype=np.int64)
    counts = np.zeros((patterns.size, catalogue.width), dtype=np.int64)
    found = []
    for c in range(catalogue.width):
        moves = catalogue.of(catalogue.lo + c)
        legal = game.legal(patterns, moves) if moves.size else np.zeros((patterns.size, 0), dtype=bool)
        counts[:, c] = legal.sum(axis=1)
        found.append((moves, legal))
    starts = np.zeros((patterns.size, catalogue.width + 1), dtype=np.int64)
    starts[:, 1:] = np.cumsum(counts, axis=1)
    starts += np.concatenate([[0], np.cumsum(starts[:, -1])[:-1]])[:, None]
    moves_out = np.empty(int(starts[-1, -1]), dtype=np.int64)
    index_out = np.empty(moves_out.size, dtype=np.int64)
    for c, (moves, legal) in enumerate(found):
        rows, cols = np.nonzero(legal)
        if rows.size:
            position = starts[rows, c] + (np.arange(rows.size) - np.searchsorted(rows, rows))
            moves_out[position] = moves[cols]
            index_out[position] = cols
    return moves_out, index_out, starts


@lru_cache(maxsize=limits.KEPT_GAMES)
def moves_of(game: Game) -> Moves:
    """The kernels' view of ``game``'s moves and chances (cached per game)."""
    kernels = _kernels()
    catalogue = game.catalogue
    flat = np.ascontiguousarray(catalogue.flat)
    cstarts = np.ascontiguousarray(catalogue.starts)
    p_all, p_one = (np.ascontiguousarray(p[catalogue.lo:]) for p in game.chance_arrays())
    low_bits = _low_bits(game)
    mask_index = np.full(1, -1, dtype=catalogue.index_dtype)
    empty, no_starts = np.zeros(1, dtype=np.int64), np.zeros((1, catalogue.width + 1), dtype=np.int64)
    pattern_moves, pattern_index, pattern_starts = empty, empty.copy(), no_starts
    if not game.layout.blocked and low_bits <= PATTERN_BITS:
        mode = kernels.PATTERNS
        pattern_moves, pattern_index, pattern_starts = _patterns(game, low_bits)
    elif game.plain and SUBSETS_ALLOWED:
        mode = kernels.SUBSETS  # moves found by their tiles: their index looked up by mask (a move's total is its own)
        mask_index = np.full(1 << low_bits, -1, dtype=catalogue.index_dtype)
        mask_index[flat] = (np.arange(flat.size) - np.repeat(cstarts[:-1], np.diff(cstarts))).astype(mask_index.dtype)
    else:
        mode = kernels.CATALOGUE
    arrays = (pattern_moves, pattern_index, pattern_starts, flat, game.needs_of(flat), cstarts, mask_index)
    return Moves(mode, (1 << low_bits) - 1, *map(read_only, arrays), read_only(game.tile_values, np.int64),
                 game.rules.most_per_move, catalogue.lo, read_only(p_all), read_only(p_one))


def ranking_arguments(ranking: Ranking, value_dir: float, rank_values: np.ndarray) -> tuple:
    """A ranking as the kernels read it (empty arrays for the keys it has not)."""
    empty = np.zeros(0, dtype=np.int64)
    keys = (empty if key is None else key for key in (ranking.move_key, ranking.left_key, ranking.rank))
    return (float(value_dir), rank_values, *(read_only(key, np.int64) for key in keys), ranking.canonical,
            ranking.mix)


def _in_chunks(states: int, run, progress, descending: bool = False) -> None:
    """``run(first, last)`` over the boards in chunks (increasing, or decreasing), telling ``progress`` the share
    done."""
    starts = list(range(0, states, BOARDS_PER_CALL))
    for done, first in enumerate(reversed(starts) if descending else starts, start=1):
        run(first, min(first + BOARDS_PER_CALL, states))
        if progress is not None:
            progress(done / len(starts))


def sigma_fits(game: Game) -> bool:
    """Whether the solve records the move table (its size within ``limits.SIGMA_BYTES``)."""
    catalogue = game.catalogue
    itemsize = np.dtype(catalogue.index_dtype).itemsize
    return limits.records_move_table(limits.move_table_bytes(game.states, catalogue.width, itemsize))


def dice_read(game: Game, dice: np.ndarray) -> np.ndarray:
    """The dice each board rolls, as the kernels read them: one entry for every board where the rules have no
    one-die rule (all the dice everywhere: no array of the board space to copy)."""
    return read_only(dice if game.rules.has_one_die_rule else np.full(1, game.rules.dice), np.int8)


def _dummy_table(game: Game) -> np.ndarray:
    return np.full((1, game.catalogue.width), -1, dtype=game.catalogue.index_dtype)


# -- the three passes ------------------------------------------------------------------------------------------------
def solve_values(game: Game, objective, ranking: Ranking, progress=None, record: bool = True):
    """``(values, dice, sigma)`` of ``ranking`` judged by ``objective``, in one pass: ``sigma`` the move table played
    (None for a mixture, a table above ``limits.SIGMA_BYTES``, or when not ``record``: ``make bench`` times both)."""
    kernels, moves = _kernels(), moves_of(game)
    values = np.asarray(objective.values(game), dtype=float)
    if not values.flags.writeable or not values.flags.c_contiguous:
        values = np.array(values)
    one_die = game.rules.has_one_die_rule
    dice = np.empty(game.states if one_die else 1, dtype=np.int8)  # without a one-die rule, all the dice everywhere
    record = record and not ranking.mix and ranking.table is None and sigma_fits(game)
    if record:
        sigma = np.full((game.states, game.catalogue.width), -1, dtype=game.catalogue.index_dtype)
    else:
        sigma = _dummy_table(game)  # written only when recorded
    plan = read_only(dice_plan(game, ranking.dice_rule) if one_die else np.zeros(1, dtype=np.int8))
    direction = float(ranking.dice_direction * objective.sense)
    mode = kernels.TABLE if ranking.table is not None else moves.mode
    table = read_only(ranking.table if ranking.table is not None else _dummy_table(game))
    ranked = ranking_arguments(ranking, ranking.values * objective.sense, values)
    unread = read_only(np.zeros(1, dtype=np.int8))  # the dice are chosen here, not read

    def run(first, last):
        kernels.backward(first, last, mode, *moves.arguments()[1:], *ranked, table, values, 0.0, read_only(game.won),
                         plan, moves.p_all, moves.p_one, game.rules.dice, direction, False, unread, dice, record,
                         sigma)
    _in_chunks(game.states, run, progress)
    if not one_die:
        dice = np.broadcast_to(np.int8(game.rules.dice), (game.states,))
    if ranking.table is not None:
        return values, dice, ranking.table
    return values, dice, (sigma if record else None)


def values_of_play(game: Game, ranking: Ranking, sigma: np.ndarray | None, rank_values: np.ndarray, sense: int,
                   utility: np.ndarray, dice: np.ndarray, step: float = 0.0) -> np.ndarray:
    """The value of every board when the policy plays its move table ``sigma`` (or, with None, the ranking's moves
    chosen again from ``rank_values`` -- a mixture's best moves), its dice ``dice`` fixed: ``V = step + sum_r p(r)
    Q`` with ``utility`` where the game ends."""
    kernels, moves = _kernels(), moves_of(game)
    values = np.asarray(utility, dtype=float)
    if not values.flags.writeable or not values.flags.c_contiguous:
        values = np.array(values)
    mode = kernels.TABLE if sigma is not None else moves.mode
    table = read_only(sigma if sigma is not None else _dummy_table(game))
    ranked = ranking_arguments(ranking, ranking.values * sense, read_only(rank_values, float))
    no_plan, no_dice, unused = read_only(np.zeros(1, dtype=np.int8)), np.zeros(1, dtype=np.int8), _dummy_table(game)
    dice = dice_read(game, dice)

    def run(first, last):
        kernels.backward(first, last, mode, *moves.arguments()[1:], *ranked, table, values, float(step),
                         read_only(game.won), no_plan, moves.p_all, moves.p_one, game.rules.dice, 1.0, True, dice,
                         no_dice, False, unused)
    _in_chunks(game.states, run, None)
    return values


def propagate(game: Game, ranking: Ranking, sigma: np.ndarray | None, rank_values: np.ndarray, sense: int,
              dice: np.ndarray, going: np.ndarray, target: np.ndarray, ends: np.ndarray, ended: np.ndarray) -> None:
    """Push ``going`` forward under the policy (see :func:`stb_core._kernels.forward`): in place to the game's end
    when ``target`` is ``going``, else one roll into ``target``."""
    kernels, moves = _kernels(), moves_of(game)
    mode = kernels.TABLE if sigma is not None else moves.mode
    table = read_only(sigma if sigma is not None else _dummy_table(game))
    ranked = ranking_arguments(ranking, ranking.values * sense, read_only(rank_values, float))
    kernels.forward(0, game.states, mode, *moves.arguments()[1:], *ranked, table, going, target, read_only(game.won),
                    moves.p_all, moves.p_one, game.rules.dice, dice_read(game, dice), ends, ended)


__all__ = ["available", "moves_of", "propagate", "solve_values", "values_of_play"]
