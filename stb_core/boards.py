"""Boards and moves.

A board (the set of open tiles) is a bit-mask ``int``: tile ``t`` is open when bit ``t - 1`` is set, so
the full 9-tile board is ``0b111111111 = 511`` and ``{2, 6}`` is ``0b100010 = 34``. ``board_mask`` and
``board_tiles`` convert each way; ``board_label`` gives the readable ``{2, 6}``.

A move is the set of tiles shut by one roll, also a bit-mask. A :class:`MoveCatalogue` (``game_of(rules).moves``,
:mod:`stb_core.game`) lists every move any roll could ever make, grouped by roll total, in the canonical order
used to break ties: tuples of tiles in increasing order, compared lexicographically (``(1, 6) < (3, 4) < (7,)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .rules import InputError, Rules


def board_mask(tiles: Iterable[int]) -> int:
    """Bit-mask of a set of tiles: bit ``t - 1`` for tile ``t``."""
    mask = 0
    for t in tiles:
        mask |= 1 << (int(t) - 1)
    return mask


def board_tiles(mask: int) -> tuple[int, ...]:
    """The tiles of a bit-mask, in increasing order."""
    mask = int(mask)
    return tuple(t + 1 for t in range(mask.bit_length()) if mask >> t & 1)


def board_label(mask: int) -> str:
    """Readable label of a board or move: ``{1, 4, 5, 8}``; the empty board is ``{}``."""
    return "{" + ", ".join(map(str, board_tiles(mask))) + "}"


def board_sum(mask: int) -> int:
    """Sum of the tiles in a bit-mask."""
    return sum(board_tiles(mask))


BOARD_TEXT = re.compile(r"[0-9]+( *, *[0-9]+)*")


def parse_tiles(text: str | Iterable[int], rules: Rules, name: str = "open") -> int:
    """Board mask from ``"2,6"`` (ASCII digits and commas, spaces allowed around the commas), ``"none"`` (every
    tile shut) or an iterable of ints such as ``[2, 6]``, checked against the rules' tiles.

    Nothing else is read as a board: an empty text, brackets, other scripts' digits, a fraction, a repeated tile
    (``1,01``), tile 0 or a tile above ``rules.tiles`` raise :class:`InputError` naming ``name``.
    """
    if isinstance(text, str):
        body = text.strip()
        if body.lower() == "none":
            return 0
        if not BOARD_TEXT.fullmatch(body):
            raise InputError(f"{name} must be tiles separated by commas, like 2,6 (or none: every tile shut); "
                             f"got {text!r}")
        tiles = [int(s) for s in body.split(",")]
    else:
        try:
            tiles = list(text)
        except TypeError:
            raise InputError(f"{name} must be text like 2,6 or a list of tiles; got {text!r}") from None
        bad = [t for t in tiles if isinstance(t, bool) or not isinstance(t, int | np.integer)]
        if bad:
            raise InputError(f"{name} tiles must be whole numbers, got {bad[0]!r}")
        tiles = [int(t) for t in tiles]
    bad = [t for t in tiles if not 1 <= t <= rules.tiles]
    if bad:
        raise InputError(f"{name} tiles must be between 1 and {rules.tiles}, got {bad[0]}")
    if len(set(tiles)) != len(tiles):
        raise InputError(f"{name} lists a tile twice: {text!r}")
    return board_mask(tiles)


def check_board(board: int, rules: Rules, name: str = "board") -> int:
    """Return ``board`` if it is a valid bit-mask under ``rules``; raise :class:`InputError` otherwise."""
    if isinstance(board, bool) or not isinstance(board, int | np.integer):
        raise InputError(f"{name} must be a bit-mask int, got {board!r}")
    if not 0 <= board <= rules.full_board:
        raise InputError(f"{name} must be a bit-mask between 0 and {rules.full_board}, got {board}")
    return int(board)


@dataclass(frozen=True)
class MoveCatalogue:
    """Every move a roll could make under some rules, grouped by roll total in canonical order.

    ``masks[r]`` is an int64 array of the moves adding up to ``r``; ``sizes[r]`` their tile counts.
    """

    totals: tuple[int, ...]
    masks: dict[int, np.ndarray]
    sizes: dict[int, np.ndarray]

    def moves(self, roll: int) -> np.ndarray:
        """Bit-masks of every move adding up to ``roll`` (empty if none)."""
        return self.masks.get(roll, np.zeros(0, dtype=np.int64))


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


PAIR_MATRIX_LIMIT = 1 << 14  # boards x moves of a level below which Levels.pairs tests every pair at once
KEEP_PAIRS = 1 << 22         # (board, move) pairs of a game kept for its next sweep (64 MB)


class Levels:
    """Boards grouped by number of open tiles, for the level-by-level sweeps.

    Every move shuts at least one tile, so the boards after a move have fewer open tiles than the board
    before: solving level 0, 1, 2, ... in turn always finds the values it needs already computed.
    ``successors(roll, k)`` yields, for each move adding up to ``roll``, every k-tile board holding it
    (``parents``) with the board left after the move (``children``), as aligned int64 arrays.
    """

    def __init__(self, game):
        self.game = game
        self.rules = game.rules
        self.catalogue = game.moves
        self.by_count = boards_by_count(game.tiles)
        self._position = np.empty(game.states, dtype=np.int32)  # board -> its place within its level
        for boards in self.by_count:
            self._position[boards] = np.arange(boards.size, dtype=np.int32)
        sizes = {int(j) for s in self.catalogue.sizes.values() for j in s}
        # boards of (tiles - j) bits, to be spread around each j-tile move
        self._compact = {j: boards_by_count(game.tiles - j) for j in sizes}
        self._kept: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self._kept_pairs = 0

    def boards(self, k: int) -> np.ndarray:
        """Every board with ``k`` open tiles, increasing."""
        return self.by_count[k]

    def position(self, boards: np.ndarray) -> np.ndarray:
        """The place of each board within its level: ``boards(k)[position(S)] == S``."""
        return self._position[boards]

    def pairs(self, roll: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(parents, children)`` of every move adding up to ``roll`` on k-tile boards, all moves at once
        (a parent appears once per move it holds), for sweeps that combine them with ``ufunc.at``.

        Small levels test every move on every board in one array operation (cheap when the candidates are
        few: this is what makes small boards fast); large levels spread each move's compact boards
        (``successors``), which touches only the legal pairs. Up to ``KEEP_PAIRS`` pairs of a game are kept
        (read-only) for its next sweep."""
        key = (roll, k)
        if key not in self._kept:
            found = self._pairs(roll, k)
            if self._kept_pairs + found[0].size > KEEP_PAIRS:
                return found
            for array in found:
                array.flags.writeable = False
            self._kept[key] = found
            self._kept_pairs += found[0].size
        return self._kept[key]

    def _pairs(self, roll: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        moves = self.catalogue.moves(roll)
        if moves.size:
            moves = moves[self.catalogue.sizes[roll] <= k]
        boards = self.boards(k)
        if moves.size == 0 or boards.size == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        if boards.size * moves.size <= PAIR_MATRIX_LIMIT:
            rows, cols = np.nonzero(self.game.legal(boards, moves))
            parents = boards[rows]
            return parents, parents & ~moves[cols]
        found = [(parents, children) for _, parents, children in self.successors(roll, k)]
        return np.concatenate([p for p, _ in found]), np.concatenate([c for _, c in found])

    def successors(self, roll: int, k: int):
        """Yield ``(move, parents, children)`` for the moves of outcome ``roll`` legal on k-tile boards."""
        masks, sizes = self.catalogue.moves(roll), self.catalogue.sizes.get(roll, ())
        needs = self.game.needs_of(masks) if masks.size else masks
        for move, j, need in zip(masks.tolist(), sizes.tolist(), needs.tolist(), strict=True):
            if j > k:
                continue
            children = insert_zero_bits(self._compact[j][k - j], move)
            if need:  # its blockers must be down once it is played
                children = children[(children & need) == 0]
            yield move, children | move, children
