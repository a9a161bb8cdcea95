r"""The game a :class:`~stb_core.rules.Rules` value implies, computed once: one :class:`Game` per rules value.

``Rules`` is the validated description a person writes (tiles, dice, the one-die option, the win threshold);
``Game`` is what follows from it, each fact with one home:

* the **tiles**: each tile position's value (``tile_values``: tile ``t`` at bit ``t - 1`` is worth ``t`` on the
  classic board) -- a board whose tiles are not 1..N is a change here, not in the solvers;
* the **boards** (bit-masks ``0 .. 2**n - 1``) and, for every board, the open tiles' total (``sums``) and number
  (``counts``), whether the game is over and **won** there (``won``: the only place the rules' win threshold is
  applied to boards), and whether the **one-die** option is open there (``one_die``);
* the **moves** for each roll total, in canonical order (``moves``: a :class:`~stb_core.boards.MoveCatalogue`),
  and the boards grouped by open tiles for the level-by-level sweeps (``levels``);
* the **chances** of each roll total for each number of dice the rules may roll, exact or float (``chances``).

``game_of(rules)`` returns the cached ``Game`` of a rules value; every module reads the game from it rather
than re-deriving boards, moves or chances from the rules.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property, lru_cache

import numpy as np

from .boards import Levels, MoveCatalogue, board_label, board_tiles, check_board, subsets_with_total
from .rules import InputError, Rules


class Game:
    """Everything ``rules`` implies (see the module docstring). Per-board arrays are computed on first use and
    read-only; the compiled sweep of a large board reads only the ones it needs."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.tile_values = tuple(range(1, rules.tiles + 1))  # the value of the tile at bit t - 1
        self.tiles = len(self.tile_values)
        self.states = 1 << self.tiles
        self.full_board = self.states - 1
        self.total = sum(self.tile_values)

    def __repr__(self) -> str:
        return f"Game({self.rules!r})"

    # -- per board -------------------------------------------------------------------------------------------
    @cached_property
    def sums(self) -> np.ndarray:
        """The open tiles' total of every board (int16): the boards holding bit ``b`` are those without it,
        plus that tile's value -- one pass per tile, no temporaries the size of the board space."""
        sums = np.zeros(self.states, dtype=np.int16)
        for b, value in enumerate(self.tile_values):
            np.add(sums[: 1 << b], value, out=sums[1 << b: 2 << b])
        return _frozen(sums)

    @cached_property
    def counts(self) -> np.ndarray:
        """The number of open tiles of every board (int8)."""
        counts = np.zeros(self.states, dtype=np.int8)
        for b in range(self.tiles):
            np.add(counts[: 1 << b], 1, out=counts[1 << b: 2 << b])
        return _frozen(counts)

    @cached_property
    def won(self) -> np.ndarray:
        """Whether the game is over and won on each board (the rules' threshold on its open total)."""
        return _frozen(np.asarray(self.rules.is_won(self.sums), dtype=bool))

    @cached_property
    def one_die(self) -> np.ndarray:
        """Whether the rules let a single die be rolled from each board."""
        if not self.rules.has_one_die_rule:
            return _frozen(np.zeros(self.states, dtype=bool))
        allowed = np.empty(self.states, dtype=bool)
        step = 1 << 20
        for start in range(0, self.states, step):
            boards = np.arange(start, min(start + step, self.states), dtype=np.int64)
            allowed[start:start + boards.size] = self.rules.one_die_allowed(boards, self.sums[boards])
        return _frozen(allowed)

    @cached_property
    def boards(self) -> np.ndarray:
        """Every board, ``boards[S] = S`` (int64)."""
        return _frozen(np.arange(self.states, dtype=np.int64))

    @property
    def playing(self) -> np.ndarray:
        """The boards where the game goes on (not won), increasing."""
        return self.boards[~self.won]

    @property
    def choosing_dice(self) -> np.ndarray:
        """The boards (not won) where the player chooses between one die and all the dice, increasing."""
        return self.boards[self.one_die & ~self.won] if self.rules.offers_dice_choice else self.boards[:0]

    def open_sum(self, board: int) -> int:
        """The open tiles' total of one board."""
        return sum(self.tile_values[t - 1] for t in board_tiles(board))

    def is_won(self, board: int) -> bool:
        """Whether one board is won (the same rule as :attr:`won`, without building the arrays)."""
        return bool(self.rules.is_won(self.open_sum(board)))

    def dice_choices(self, board: int) -> tuple[int, ...]:
        """The numbers of dice the player may roll from ``board``, increasing: the rules' dice, one die when the
        one-die option is open there (:meth:`Rules.one_die_allowed`), or one die alone when it is forced."""
        rules = self.rules
        if not rules.one_die_allowed(int(board), self.open_sum(board)):
            return (rules.dice,)
        return (1,) if rules.one_die_forced else (1, rules.dice)

    def totals_from(self, board: int) -> list[int]:
        """Every total the dice may show from ``board`` (one die only where it may be rolled there)."""
        return sorted({r for d in self.dice_choices(board) for r in self.rules.dice_weights(d)})

    # -- moves -----------------------------------------------------------------------------------------------
    @cached_property
    def moves(self) -> MoveCatalogue:
        """Every move of every roll total, in canonical order (tuples of tiles compared lexicographically)."""
        masks, sizes = {}, {}
        for total in self.roll_totals:
            subsets = subsets_with_total(total, self.tile_values, self.rules.most_per_move)
            masks[total] = _frozen(np.array([sum(1 << (t - 1) for t in s) for s in subsets], dtype=np.int64))
            sizes[total] = _frozen(np.array([len(s) for s in subsets], dtype=np.int64))
        return MoveCatalogue(self.roll_totals, masks, sizes)

    @cached_property
    def levels(self) -> Levels:
        """The boards grouped by number of open tiles, with the (board, move) pairs of each roll total."""
        return Levels(self)

    # -- dice ------------------------------------------------------------------------------------------------
    @property
    def dice_counts(self) -> tuple[int, ...]:
        """Every number of dice some board may roll, increasing."""
        return self.rules.dice_counts

    @property
    def roll_totals(self) -> tuple[int, ...]:
        """Every total a roll can show (one die included where it may be rolled), increasing."""
        return self.rules.roll_totals

    def chances(self, dice: int, exact: bool = False) -> dict[int, float | Fraction]:
        """The chance of each roll total when ``dice`` dice are rolled: exact fractions or floats."""
        weights, outcomes = self.rules.dice_weights(dice), self.rules.outcomes
        return {r: Fraction(w, outcomes) if exact else w / outcomes for r, w in weights.items()}

    def chance_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(p_all, p_one)`` indexed by roll total: the chance of each total with all the dice, and with one
        die (zero where the rules never roll one)."""
        width = max(self.roll_totals) + 1
        p_all, p_one = np.zeros(width), np.zeros(width)
        for r, p in self.chances(self.rules.dice).items():
            p_all[r] = p
        if self.rules.has_one_die_rule:
            for r, p in self.chances(1).items():
                p_one[r] = p
        return p_all, p_one


def check_roll(roll: int, rules: Rules, board: int | None = None) -> int:
    """Return ``roll`` if the dice can show that total (from ``board``, when given: one die only where the
    rules allow it there); raise :class:`InputError` otherwise."""
    if board is None:
        totals, where = sorted(rules.roll_totals), ""
    else:
        totals, where = game_of(rules).totals_from(board), f" from open {board_label(board)}"
    if isinstance(roll, bool) or not isinstance(roll, int | np.integer) or int(roll) not in totals:
        raise InputError(f"roll must be a total the dice can show{where}, {totals[0]} to {totals[-1]}; got {roll!r}")
    return int(roll)


def legal_moves(rules: Rules, board: int, roll: int) -> list[tuple[int, ...]]:
    """Every legal move for ``board`` and ``roll``, as tuples of tiles in canonical order.

    >>> from stb_core import Rules, board_mask
    >>> legal_moves(Rules(tiles=10), board_mask([1, 3, 4, 6, 7]), 7)
    [(1, 6), (3, 4), (7,)]
    """
    board = check_board(board, rules)
    roll = check_roll(roll, rules)
    return [board_tiles(m) for m in legal_move_masks(rules, board, roll)]


def legal_move_masks(rules: Rules, board: int, roll: int) -> list[int]:
    """Bit-masks of the legal moves for ``board`` and ``roll``, canonical order (no validation)."""
    moves = game_of(rules).moves.moves(roll)
    return [int(m) for m in moves if board & int(m) == int(m)]


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@lru_cache(maxsize=8)
def game_of(rules: Rules) -> Game:
    """The :class:`Game` of ``rules`` (cached per rules value)."""
    return Game(rules)
