"""Boards and moves.

A board (the set of open tiles) is a bit-mask ``int``: tile ``t`` is open when bit ``t - 1`` is set, so
the full 9-tile board is ``0b111111111 = 511`` and ``{2, 6}`` is ``0b100010 = 34``. ``board_mask`` and
``board_tiles`` convert each way; ``board_label`` gives the readable ``{2, 6}``.

A move is the set of tiles shut by one roll, also a bit-mask. A :class:`MoveCatalogue` (``game_of(rules).catalogue``,
:mod:`stb_core.game`) lists every move any throw could ever make, grouped by outcome, in canonical order: tuples of
tiles in increasing order, compared lexicographically (``(1, 6) < (3, 4) < (7,)``); a move is named by its index
there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from .rules import InputError, Rules

MAX_POSITION = 64  # the most tile positions a board mask may name (rules allow far fewer)


def _whole(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def board_mask(tiles: Iterable[int]) -> int:
    """Bit-mask of a set of tiles: bit ``t - 1`` for tile ``t``; :class:`InputError` for anything but whole tile
    numbers 1 to 64."""
    if isinstance(tiles, str | bytes | dict) or not isinstance(tiles, Iterable):
        raise InputError(f"tiles must be a collection of tile numbers, like [2, 6]; got {tiles!r}")
    mask = 0
    for t in tiles:
        if not _whole(t) or not 1 <= t <= MAX_POSITION:
            raise InputError(f"tiles must be whole numbers from 1 to {MAX_POSITION}; got {t!r}")
        if mask >> (int(t) - 1) & 1:
            raise InputError(f"tiles must name each tile once; got {t!r} twice")
        mask |= 1 << (int(t) - 1)
    return mask


def check_mask(mask) -> int:
    """``mask`` as an int if it is a board's bit-mask (a whole number, 0 or more); :class:`InputError` otherwise."""
    if not _whole(mask) or not 0 <= mask < 1 << MAX_POSITION:
        raise InputError(f"a board must be a bit-mask of at most {MAX_POSITION} tiles, a whole number from 0 to "
                         f"2**{MAX_POSITION} - 1 (board_mask makes one); got {mask!r}")
    return int(mask)


def board_tiles(mask: int) -> tuple[int, ...]:
    """The tiles of a bit-mask, in increasing order."""
    mask = check_mask(mask)
    return tuple(t + 1 for t in range(mask.bit_length()) if mask >> t & 1)


def board_label(mask: int) -> str:
    """Readable label of a board or move: ``{1, 4, 5, 8}``; the empty board is ``{}``."""
    return "{" + ", ".join(map(str, board_tiles(mask))) + "}"


# -- the tiles of a board: values, score weights, blockers, names -----------------------------------------------
@dataclass(frozen=True)
class Layout:
    """The tiles of a board: position ``t`` (bit ``t - 1``) is worth ``values[t - 1]``, counts ``weights[t - 1]``
    times in the score, can be shut only when the positions in ``needs[t - 1]`` (a bit-mask) are down, and is
    written ``labels[t - 1]`` (``"7"``; a back tile ``"b7"``) wherever a person reads or types it."""

    name: str
    values: tuple[int, ...]
    weights: tuple[int, ...]
    needs: tuple[int, ...]
    labels: tuple[str, ...]

    @property
    def blocked(self) -> bool:
        """Whether some tile waits for another."""
        return any(self.needs)

    def label(self, board: int) -> str:
        """A board or move in the tiles' own names: ``{1, 4, b9}`` (``{}`` for none)."""
        return "{" + ", ".join(self.labels[t - 1] for t in board_tiles(board)) + "}"

    def names(self, board: int) -> list[int | str]:
        """A board or move as a list for JSON: a tile named by a number as that number, any other by its label."""
        return [int(n) if n.isdigit() else n for n in (self.labels[t - 1] for t in board_tiles(board))]

    def position(self, name: str) -> int | None:
        """The position of the tile a person names (``"b9"``, ``"B09"``, ``"7"``), or None."""
        match = TILE_NAME.fullmatch(name)
        if match is None:
            return None
        label = match[1].lower() + str(int(match[2]))
        return self.labels.index(label) + 1 if label in self.labels else None

    def allowed(self) -> str:
        """The tiles' names in words, for error messages: ``between 1 and 9``, or ``1 to 9 or b1 to b9``."""
        groups: dict[str, list[int]] = {}
        for name in self.labels:
            match = TILE_NAME.fullmatch(name)
            groups.setdefault(match[1], []).append(int(match[2]))
        if list(groups) == [""]:
            return f"between {min(groups[''])} and {max(groups[''])}"
        return " or ".join(f"{p}{min(n)} to {p}{max(n)}" for p, n in groups.items())

    def shut_too_soon(self, boards):
        """The tiles down while a tile they wait for is up, as a bit-mask for each board (an int, or an int64
        array of boards). Tiles go down and never up, so a board where this is not 0 cannot arise in a game."""
        out = np.zeros(np.shape(boards), dtype=np.int64)
        for t, need in enumerate(self.needs):
            if need:
                out |= np.where(((boards >> t) & 1 == 0) & (boards & need != 0), 1 << t, 0)
        return out


def row(n: int) -> Layout:
    """The classic board: tiles ``1..n`` in one row."""
    return Layout("row", tuple(range(1, n + 1)), (1,) * n, (0,) * n, tuple(str(t) for t in range(1, n + 1)))


def double_shutter(n: int) -> Layout:
    """Double Shutter: front tiles ``1..n`` (positions ``1..n``, counting double in the score) and behind front
    tile ``k`` a back tile worth ``n + 1 - k`` (position ``n + k``, written ``b`` and its value), shut only once
    front tile ``k`` is down."""
    back = tuple(n + 1 - k for k in range(1, n + 1))
    return Layout("double-shutter", tuple(range(1, n + 1)) + back, (2,) * n + (1,) * n,
                  (0,) * n + tuple(1 << (k - 1) for k in range(1, n + 1)),
                  tuple(str(k) for k in range(1, n + 1)) + tuple(f"b{v}" for v in back))


LAYOUTS = {"row": row, "double-shutter": double_shutter}
TILE_NAME = re.compile(r"([a-zA-Z]*)([0-9]+)")


def layout_of(rules: Rules) -> Layout:
    """The tiles of the rules' board."""
    return _layout(rules.layout, rules.tiles)


@cache
def _layout(name: str, tiles: int) -> Layout:
    return LAYOUTS[name](tiles)


BOARD_TEXT = re.compile(r"[a-zA-Z]*[0-9]+( *, *[a-zA-Z]*[0-9]+)*")


def parse_tiles(text: str | Iterable[int | str], rules: Rules, name: str = "open") -> int:
    """Board mask from ``"2,6"`` (tiles by name -- ASCII digits, a back tile ``b`` and its value -- separated by
    commas, spaces allowed around them), ``"none"`` (every tile shut) or an iterable such as ``[2, 6]`` or
    ``[1, "b9"]``, checked against the rules' tiles.

    Nothing else is read as a board: an empty text, brackets, other scripts' digits, a fraction, a repeated tile
    (``1,01``), a name the board has not (tile 0, a tile above ``rules.tiles``), or a board that cannot arise (a
    tile down while one it waits for is up) raise :class:`InputError` naming ``name``.
    """
    layout = layout_of(rules)
    if isinstance(text, str):
        body = text.strip()
        if body.lower() == "none":
            return 0
        if not BOARD_TEXT.fullmatch(body):
            raise InputError(f"{name} must be tiles separated by commas, like 2,6 (or none: every tile shut); "
                             f"got {text!r}")
        names = [s.strip() for s in body.split(",")]
    else:
        try:
            items = list(text)
        except TypeError:
            raise InputError(f"{name} must be text like 2,6 or a list of tiles; got {text!r}") from None
        bad = [t for t in items if isinstance(t, bool) or not isinstance(t, int | np.integer | str)]
        if bad:
            raise InputError(f"{name} tiles must be whole numbers, got {bad[0]!r}")
        names = [str(int(t)) if isinstance(t, int | np.integer) else t for t in items]
    positions = [layout.position(n) for n in names]
    bad = [n for n, p in zip(names, positions, strict=True) if p is None]
    if bad:
        raise InputError(f"{name} tiles must be {layout.allowed()}, got {bad[0]}")
    if len(set(positions)) != len(positions):
        raise InputError(f"{name} lists a tile twice: {text!r}")
    board = board_mask(positions)
    too_soon = int(layout.shut_too_soon(board))
    if too_soon:
        t = board_tiles(too_soon)[0]
        shut, blocker = layout.labels[t - 1], layout.labels[board_tiles(board & layout.needs[t - 1])[0] - 1]
        raise InputError(f"{name} {layout.label(board)} cannot arise: tile {shut} is shut while tile {blocker} is "
                         f"open, and {shut} can be shut only once {blocker} is down")
    return board


def check_board(board: int, rules: Rules, name: str = "board") -> int:
    """Return ``board`` if it is a valid bit-mask under ``rules``; raise :class:`InputError` otherwise."""
    if isinstance(board, bool) or not isinstance(board, int | np.integer):
        raise InputError(f"{name} must be a bit-mask int, got {board!r}")
    if not 0 <= board <= rules.full_board:
        raise InputError(f"{name} must be a bit-mask between 0 and {rules.full_board}, got {board}")
    return int(board)


@dataclass(frozen=True)
class MoveCatalogue:
    """Every move any throw could make under some rules, grouped by outcome code in canonical order.

    ``of(code)`` is the int64 array of the moves outcome ``code`` allows, ``sizes[code]`` their tile counts. A move
    is named by its **index** in ``of(code)``: the move table σ holds these indices. The same moves laid end to end
    (``flat``, codes ``lo .. hi`` in turn, ``starts[code - lo]`` where each begins) are what the compiled kernels
    read; ``masks_of`` turns indices back into moves."""

    codes: tuple[int, ...]
    masks: dict[int, np.ndarray]
    sizes: dict[int, np.ndarray]

    def of(self, code: int) -> np.ndarray:
        """Bit-masks of every move outcome ``code`` allows (empty if none), in canonical order."""
        return self.masks.get(code, _EMPTY)

    @property
    def lo(self) -> int:
        return self.codes[0]

    @property
    def hi(self) -> int:
        return self.codes[-1]

    @property
    def width(self) -> int:
        """Columns of a move table: one per code from ``lo`` to ``hi``."""
        return self.hi - self.lo + 1

    @cached_property
    def starts(self) -> np.ndarray:
        """Where each code's moves begin in :attr:`flat` (``width + 1`` offsets)."""
        counts = [self.of(c).size for c in range(self.lo, self.hi + 1)]
        return frozen(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))

    @cached_property
    def flat(self) -> np.ndarray:
        """Every code's moves laid end to end, codes increasing."""
        return frozen(np.concatenate([self.of(c) for c in range(self.lo, self.hi + 1)] + [_EMPTY]))

    @cached_property
    def index_dtype(self):
        """The smallest integer type holding every move index and -1 (no move)."""
        most = max((self.of(c).size for c in self.codes), default=0)
        return np.int8 if most < 2**7 else np.int16 if most < 2**15 else np.int32

    def masks_of(self, code: int, index: np.ndarray) -> np.ndarray:
        """The moves (bit-masks) of indices into ``of(code)``; -1 stays -1 (no move)."""
        index = np.asarray(index)
        moves = self.of(code)
        if moves.size == 0:
            return np.full(index.shape, -1, dtype=np.int64)
        return np.where(index >= 0, moves[np.maximum(index, 0)], -1)


_EMPTY = np.zeros(0, dtype=np.int64)
_EMPTY.flags.writeable = False


def frozen(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only."""
    array.flags.writeable = False
    return array


def subsets_with_total(total: int, values: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    """Sets of distinct tiles (positions ``1..len(values)``, tile ``t`` worth ``values[t - 1]``) whose values add
    up to ``total``, with at most ``most`` tiles, in canonical order (sorted tuples, lexicographically)."""
    found: list[tuple[int, ...]] = []
    ascending = list(values) == sorted(values)

    def extend(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        if remaining == 0:
            found.append(chosen)
            return
        if len(chosen) == most:
            return
        for t in range(start, len(values) + 1):
            if values[t - 1] <= remaining:
                extend(t + 1, remaining - values[t - 1], chosen + (t,))
            elif ascending:
                break

    extend(1, total, ())
    return sorted(found)


# -- arrays of boards -------------------------------------------------------------------------------

def tile_counts(masks: np.ndarray) -> np.ndarray:
    """Number of open tiles of each bit-mask in an int array (vectorised)."""
    return np.bitwise_count(np.asarray(masks, dtype=np.int64)).astype(np.int64)


def cells_at(ufunc: np.ufunc, target: np.ndarray, rows: np.ndarray, values, cols: np.ndarray | None = None) -> None:
    """``ufunc.at(target, (rows, cols), values)`` -- or, without ``cols``, on whole rows of a table of columns --
    done as one unbuffered operation on the flattened array: numpy's fast path for one-dimensional ``ufunc.at``,
    several times faster than the two-dimensional one and the same result element for element (each cell gets
    its contributions in the same order)."""
    if target.ndim == 1 or not target.flags.c_contiguous:
        ufunc.at(target, rows if cols is None else (rows, cols), values)
        return
    width = target.shape[1]
    if cols is None:
        flat = (rows[:, None] * width + np.arange(width)).ravel()
        values = np.broadcast_to(values, (rows.size, width)).ravel()
    else:
        flat = rows * width + cols
    ufunc.at(target.reshape(-1), flat, values)


def boards_by_count(tiles: int) -> list[np.ndarray]:
    """Bit-masks of ``tiles`` bits grouped by number of set bits: ``result[k]`` has every k-tile board,
    in increasing order."""
    masks = np.arange(1 << tiles, dtype=np.int64)
    counts = np.bitwise_count(masks)
    order = np.argsort(counts, kind="stable")  # stable: each group stays in increasing order
    bounds = np.cumsum(np.bincount(counts, minlength=tiles + 1))
    return np.split(masks[order], bounds[:-1])


def insert_zero_bits(masks: np.ndarray, move: int) -> np.ndarray:
    """Spread compact masks over the bit positions *not* in ``move``.

    Boards disjoint from a j-tile move on n tiles correspond one-to-one with (n - j)-bit masks: open a
    gap at each of the move's bit positions, lowest first.
    """
    out = masks
    for bit in board_tiles(move):
        low = (1 << (bit - 1)) - 1
        out = (out & low) | ((out & ~low) << 1)
    return out


PAIR_MATRIX_LIMIT = 1 << 16  # boards x moves of a level below which Levels tests every pair at once
KEEP_PAIRS = 1 << 21         # (board, move) pairs of a game kept for its next sweep (about 80 MB)


@dataclass(frozen=True, eq=False)
class Pairs:
    """Every legal (board, move) pair of some outcomes on some boards, as aligned arrays: ``parent`` (the board),
    ``child`` (the board the move leaves), ``code`` (the outcome), ``move`` (the move's index in the catalogue's
    ``of(code)``) and ``at`` (the parent's place among the ``size`` boards the pairs were made for).

    Pairs come board by board, each board's outcomes in increasing order and each outcome's moves in canonical
    order: a choice among the moves of each (board, outcome) is a reduction over its **run** of pairs
    (``starts``: one ``ufunc.reduceat``), and a mask over the pairs says which moves are played."""

    size: int
    parent: np.ndarray
    child: np.ndarray
    code: np.ndarray
    move: np.ndarray
    at: np.ndarray

    @property
    def masks(self) -> np.ndarray:
        """The moves as bit-masks."""
        return self.parent ^ self.child

    @cached_property
    def starts(self) -> np.ndarray:
        """Where each (board, outcome) run of pairs begins."""
        at, code = self.at, self.code
        if at.size == 0:
            return _EMPTY
        return frozen(np.flatnonzero(np.r_[True, (at[1:] != at[:-1]) | (code[1:] != code[:-1])]))

    @property
    def boards_with(self) -> np.ndarray:
        """The place (``at``) of the board of each run."""
        return self.at[self.starts]

    @property
    def codes_with(self) -> np.ndarray:
        """The outcome of each run."""
        return self.code[self.starts]

    def per_pair(self, per_run: np.ndarray) -> np.ndarray:
        """A value per run spread back over the run's pairs."""
        return np.repeat(per_run, np.diff(np.r_[self.starts, self.at.size]), axis=0)

    def subset(self, keep) -> Pairs:
        """The pairs at positions ``keep`` (kept in order)."""
        return Pairs(self.size, self.parent[keep], self.child[keep], self.code[keep], self.move[keep], self.at[keep])


def no_pairs(size: int) -> Pairs:
    """No pairs, for ``size`` boards."""
    return Pairs(size, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY)


def pairs_on(game, boards: np.ndarray, code: int | None = None) -> Pairs:
    """The pairs of ``boards`` (any int array; ``at`` indexes it) for outcome ``code`` (None: every outcome), in board
    order, then outcome, then canonical move order."""
    boards = np.asarray(boards, dtype=np.int64)
    catalogue = game.catalogue
    if code is None:
        moves, codes = catalogue.flat, np.repeat(np.arange(catalogue.lo, catalogue.hi + 1), np.diff(catalogue.starts))
        first = catalogue.starts[:-1][codes - catalogue.lo]
    else:
        moves = catalogue.of(code)
        codes, first = np.full(moves.size, code, dtype=np.int64), np.zeros(moves.size, dtype=np.int64)
    if moves.size == 0 or boards.size == 0:
        return no_pairs(boards.size)
    rows, cols = np.nonzero(game.legal(boards, moves))
    parent = boards[rows]
    index = cols - first[cols] if code is None else cols
    return Pairs(boards.size, parent, parent & ~moves[cols], codes[cols], index.astype(np.int64),
                 rows.astype(np.int64))


class Levels:
    """Boards grouped by number of open tiles, for the level-by-level sweeps.

    Every move shuts at least one tile, so the boards after a move have fewer open tiles than the board
    before: solving level 0, 1, 2, ... in turn always finds the values it needs already computed.
    ``pairs(k)`` gives every legal (board, move) pair of every outcome on the k-tile boards.
    """

    def __init__(self, game):
        self.game = game
        self.catalogue = game.catalogue
        self.by_count = boards_by_count(game.positions)
        self._position = np.empty(game.states, dtype=np.int32)  # board -> its place within its level
        for boards in self.by_count:
            self._position[boards] = np.arange(boards.size, dtype=np.int32)
        sizes = {int(j) for s in self.catalogue.sizes.values() for j in s}
        # boards of (positions - j) bits, to be spread around each j-tile move
        self._compact = {j: boards_by_count(game.positions - j) for j in sizes}
        self._kept: dict[int, Pairs] = {}
        self._kept_pairs = 0

    def boards(self, k: int) -> np.ndarray:
        """Every board with ``k`` open tiles, increasing."""
        return self.by_count[k]

    def position(self, boards: np.ndarray) -> np.ndarray:
        """The place of each board within its level: ``boards(k)[position(S)] == S``."""
        return self._position[boards]

    def pairs(self, k: int) -> Pairs:
        """Every legal (board, move) pair of every outcome on the k-tile boards (``at``: the parent's place in
        ``boards(k)``), board by board (:class:`Pairs`).

        Small levels test every move on every board in one array operation (cheap when the candidates are few:
        this is what makes small boards fast); large levels spread each move's compact boards, which touches only
        the legal pairs, then put them in board order. Up to ``KEEP_PAIRS`` pairs of a game are kept (read-only)
        for its next sweep."""
        if k not in self._kept:
            found = self._pairs(k)
            if self._kept_pairs + found.parent.size > KEEP_PAIRS:
                return found
            for array in (found.parent, found.child, found.code, found.move, found.at, found.starts):
                array.flags.writeable = False
            self._kept[k] = found
            self._kept_pairs += found.parent.size
        return self._kept[k]

    def _pairs(self, k: int) -> Pairs:
        boards, catalogue = self.boards(k), self.catalogue
        usable = np.flatnonzero(tile_counts(catalogue.flat) <= k)
        if usable.size == 0 or boards.size == 0:
            return no_pairs(boards.size)
        if boards.size * usable.size <= PAIR_MATRIX_LIMIT:
            return pairs_on(self.game, boards)
        needs = self.game.needs_of(catalogue.flat)
        counts = tile_counts(catalogue.flat)
        codes = np.repeat(np.arange(catalogue.lo, catalogue.hi + 1), np.diff(catalogue.starts))
        parents, children, where = [], [], []
        for j in usable.tolist():  # flat order: outcome by outcome, canonical within each
            move, count, need = int(catalogue.flat[j]), int(counts[j]), int(needs[j])
            left = insert_zero_bits(self._compact[count][k - count], move)
            if need:  # its blockers must be down once it is played (the one legal-move rule, Game.fits)
                left = left[self.game.fits(left | move, move)]
            parents.append(left | move)
            children.append(left)
            where.append(np.full(left.size, j, dtype=np.int64))
        parent, child, flat = np.concatenate(parents), np.concatenate(children), np.concatenate(where)
        at = self.position(parent).astype(np.int64)
        order = np.argsort(at, kind="stable")  # board by board; each board's pairs stay in flat order
        parent, child, flat, at = parent[order], child[order], flat[order], at[order]
        code = codes[flat]
        return Pairs(boards.size, parent, child, code, flat - catalogue.starts[code - catalogue.lo], at)
