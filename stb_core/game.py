r"""The game a :class:`~stb_core.rules.Rules` value implies, computed once: one :class:`Game` per rules value.

``Rules`` is the validated description a person writes (tiles, dice, the one-die option, the win threshold, how
a roll is used, the board's layout); ``Game`` is what follows from it, each fact with one home:

* the **tiles** (:class:`~stb_core.boards.Layout`, from :mod:`stb_core.boards`): each tile position's value,
  its weight in the score, the tiles that must be down before it can be shut, and its name. The classic board
  is a row ``1..N``; *Double Shutter* puts behind front tile ``k`` a back tile worth ``N + 1 - k`` (named
  ``b`` and its value) that can be shut only once front tile ``k`` is down (or in the same move), and scores the
  front row double. A board of other values, weights or blockers is new data there, not a change to the
  solvers.
* the **boards** (bit-masks ``0 .. 2**n - 1``) and, for every board, the open tiles' total (``sums``), its score
  (``scores``: weighted), the tiles that can be shut now (``exposed``), their number (``counts``), whether the
  game is over and **won** there (``won``: the only place the rules' win threshold is applied to boards),
  whether the **one-die** option is open there (``one_die``), and whether it can arise at all (``possible``: no
  tile down while one it waits for is up);
* the **outcomes** of a throw and their chances (``chances``), and the **moves** each outcome allows, in
  canonical order (``catalogue``). With the sum rule an outcome is the dice's total and a move is a set of open tiles
  adding up to it; with ``die-or-sum`` an outcome is the pair of dice (its code, :meth:`Game.outcome_code`) and a
  move is one open tile equal to either die or to their total. Another dice-based rule is one more function
  from the dice to the values a move may take (:data:`TARGETS`).
* the boards grouped by open tiles for the level-by-level sweeps (``levels``).

A move is **legal** on a board when its tiles are open and every tile it shuts has its blockers down after the
move (:meth:`Game.legal`). ``game_of(rules)`` returns the cached ``Game`` of a rules value; every module reads
the game from it rather than re-deriving boards, moves or chances from the rules.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cached_property, lru_cache, wraps

import numpy as np

from .boards import Levels, MoveCatalogue, board_tiles, check_board, frozen, layout_of, subsets_with_total
from .limits import KEPT_GAMES
from .rules import InputError, Rules, check_rules


def die_or_sum(dice: tuple[int, ...]) -> set[int]:
    """The values one tile may have to be shut by a throw under ``die-or-sum``: either die, or their total."""
    return {*dice, sum(dice)}


TARGETS = {"die-or-sum": die_or_sum}  # dice-based move rules: the values a one-tile move may take from a throw


class Game:
    """Everything ``rules`` implies (see the module docstring). Per-board arrays are computed on first use and
    read-only; the compiled sweep of a large board reads only the ones it needs."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.layout = layout_of(rules)
        self.tile_values = self.layout.values  # the value of the tile at bit t - 1
        # the board's size, as the rules state it (their closed forms agree with the layout: a test holds them)
        self.positions, self.states, self.full_board, self.total = (rules.positions, rules.states, rules.full_board,
                                                                    rules.total)
        self.plain = not self.layout.blocked and self.rolls_are_totals  # moves are any open tiles adding up
        self.memo: dict = {}  # what per_game functions computed for this game, freed with it

    def __repr__(self) -> str:
        return f"Game({self.rules!r})"

    # -- per board -------------------------------------------------------------------------------------------
    def _by_bits(self, per_tile, combine=np.add, dtype=np.int16) -> np.ndarray:
        """An array over every board built one tile at a time: the boards holding bit ``b`` are those without
        it, combined with that tile's number -- one pass per tile, no temporaries the size of the board space."""
        out = np.zeros(self.states, dtype=dtype)
        for b, value in enumerate(per_tile):
            combine(out[: 1 << b], value, out=out[1 << b: 2 << b])
        return frozen(out)

    @cached_property
    def sums(self) -> np.ndarray:
        """The open tiles' total value on every board (int16)."""
        return self._by_bits(self.tile_values)

    @cached_property
    def scores(self) -> np.ndarray:
        """The score of every board as a final board: its open tiles' values times their weights (the sum left,
        on a one-row board)."""
        if not any(w != 1 for w in self.layout.weights):
            return self.sums
        return self._by_bits([v * w for v, w in zip(self.tile_values, self.layout.weights, strict=True)])

    @property
    def worst_score(self) -> int:
        """The score of the full board, the highest any final board can have."""
        return int(self.scores[self.rules.full_board])

    @cached_property
    def counts(self) -> np.ndarray:
        """The number of open tiles of every board (int8)."""
        return self._by_bits([1] * self.positions, dtype=np.int8)

    @cached_property
    def largest(self) -> np.ndarray:
        """The largest value among each board's open tiles (0 for the shut box)."""
        return self._by_bits(self.tile_values, np.maximum)

    @cached_property
    def exposed(self) -> np.ndarray:
        """The total value of the tiles that can be shut now on every board (open, with their blockers down)."""
        if not self.layout.blocked:
            return self.sums
        out = np.zeros(self.states, dtype=np.int16)
        for b, value in enumerate(self.tile_values):  # the tiles a one-tile move may shut (the legal-move rule)
            out += np.where(self.fits(self.boards, 1 << b), value, 0).astype(np.int16)
        return frozen(out)

    @cached_property
    def possible(self) -> np.ndarray:
        """Whether each board can arise in a game: no tile down while a tile it waits for is up (every board,
        on a layout without blockers)."""
        return frozen(self.layout.shut_too_soon(self.boards) == 0)

    @cached_property
    def won(self) -> np.ndarray:
        """Whether the game is over and won on each board (the rules' threshold on its open total). The sums it reads
        are kept only if something else asked for them (on 24 tiles they are 32 MB a solve for the win need not
        keep)."""
        sums = self.__dict__.get("sums")
        if sums is None:
            sums = self._by_bits(self.tile_values)
        return frozen(np.asarray(self.rules.is_won(sums), dtype=bool))

    @cached_property
    def one_die(self) -> np.ndarray:
        """Whether the rules let a single die be rolled from each board."""
        if not self.rules.has_one_die_rule:
            return frozen(np.zeros(self.states, dtype=bool))
        return frozen(np.asarray(self.rules.one_die_allowed(self.largest, self.exposed), dtype=bool))

    @cached_property
    def boards(self) -> np.ndarray:
        """Every board, ``boards[S] = S`` (int64)."""
        return frozen(np.arange(self.states, dtype=np.int64))

    @property
    def playing(self) -> np.ndarray:
        """The boards where the game goes on (not won) and that can arise (:attr:`possible`), increasing."""
        return self.boards[~self.won & self.possible]

    @property
    def choosing_dice(self) -> np.ndarray:
        """The boards of :attr:`playing` where the player chooses between one die and all the dice, increasing."""
        return self.boards[self.one_die & ~self.won & self.possible] if self.rules.offers_dice_choice \
            else self.boards[:0]

    # -- one board -------------------------------------------------------------------------------------------
    def open_sum(self, board: int) -> int:
        """The open tiles' total of one board."""
        return sum(self.tile_values[t - 1] for t in board_tiles(board))

    def is_won(self, board: int) -> bool:
        """Whether one board is won (the same rule as :attr:`won`, without building the arrays)."""
        return bool(self.rules.is_won(self.open_sum(board)))

    def dice_choices(self, board: int) -> tuple[int, ...]:
        """The numbers of dice the player may roll from ``board``, increasing: the rules' dice, one die when the
        one-die option is open there (:attr:`one_die`), or one die alone when it is forced."""
        rules = self.rules
        if not self.one_die[board]:
            return (rules.dice,)
        return (1,) if rules.one_die_forced else (1, rules.dice)

    def shows(self, boards, code: int) -> np.ndarray:
        """Whether the dice the player rolls from each of ``boards`` can show outcome ``code``: all the dice,
        unless one die is forced there; one die, where it may be rolled. The (board, outcome) pairs a player can
        face are those where this holds: a total of 1 is no roll of two dice."""
        rules, boards = self.rules, np.asarray(boards)
        by_all = code in self._throws[rules.dice]
        if not rules.has_one_die_rule:
            return np.full(boards.shape, by_all)
        one = self.one_die[boards]
        all_dice = ~one if rules.one_die_forced else np.ones(boards.shape, dtype=bool)
        return (all_dice & by_all) | (one & (code in self._throws[1]))

    def totals_from(self, board: int) -> list[int]:
        """Every outcome code the dice may show from ``board`` (one die only where it may be rolled there)."""
        return sorted({r for d in self.dice_choices(board) for r in self.chances(d)})

    # -- outcomes of a throw ---------------------------------------------------------------------------------
    @cached_property
    def _throws(self) -> dict[int, Counter]:
        """For each number of dice: how many of the ``sides**dice`` equally likely throws give each outcome."""
        sides, out = self.rules.sides, {}
        for dice in self.rules.dice_counts:
            if self.rolls_are_totals:  # weights out of sides**dice for all the dice, one die included
                out[dice] = Counter(self.rules.dice_weights(dice))
            else:
                throws = Counter(self.outcome_code(t) for t in itertools.product(range(1, sides + 1), repeat=dice))
                out[dice] = Counter({c: n * self.rules.throw_weight(dice) for c, n in throws.items()})
        return out

    def outcome_code(self, dice: tuple[int, ...]) -> int:
        """The code of a throw: its total under the sum rule; under a dice-based rule, the die itself for one die
        and ``sides + 1 + `` the pair's place among the unordered pairs for two (:meth:`throw_codes`, for one)."""
        return int(self.throw_codes(np.array([dice], dtype=np.int64), np.array([len(dice)]))[0])

    def throw_codes(self, faces: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """The outcome code of many throws at once: ``faces[i]`` holds throw i's dice, of which the first
        ``dice[i]`` are used (:meth:`outcome_code` for arrays)."""
        used = np.arange(faces.shape[1])[None, :] < dice[:, None]
        if self.rolls_are_totals:
            return (faces * used).sum(axis=1)
        low = faces[:, 0]
        if faces.shape[1] == 1:
            return low
        high = np.where(dice > 1, faces[:, 1], faces[:, 0])
        low, high = np.minimum(low, high), np.maximum(low, high)
        s = self.rules.sides
        pair = s + 1 + (low - 1) * s - (low - 1) * (low - 2) // 2 + (high - low)
        return np.where(dice > 1, pair, faces[:, 0])

    def dice_of(self, code: int) -> tuple[int, ...]:
        """The throw an outcome code stands for: the dice, sorted (under the sum rule, the total alone)."""
        return self._dice_of[code]

    def roll_words(self, code: int) -> str:
        """An outcome as a game record writes it: the total under the sum rule (``8``); under a dice-based rule
        the dice, joined by a comma (``3,4``; one die: ``5``)."""
        return ",".join(map(str, self.dice_of(code)))

    def roll_column(self, codes) -> list:
        """Outcome codes as a table's ``roll`` column writes them: the totals themselves under the sum rule, the
        dice (:meth:`roll_words`, ``3,4``) under a dice-based rule; ``-1`` (a row that is no roll, like a choice
        of dice) stays -1 under the sum rule and is blank under a dice-based one."""
        codes = [int(c) for c in np.asarray(codes).tolist()]
        if self.rolls_are_totals:
            return codes
        return ["" if c < 0 else self.roll_words(c) for c in codes]

    def roll_data(self, code: int) -> int | list[int]:
        """An outcome as the command line's JSON and the explorer give it: the total under the sum rule, the dice
        under a dice-based rule (``[3, 4]``; one die: the die alone)."""
        dice = self.dice_of(code)
        return dice[0] if len(dice) == 1 else list(dice)

    def roll_of_words(self, text: str, dice: int) -> int:
        """The outcome code of a roll written as :meth:`roll_words` writes it, ``dice`` dice rolled;
        :class:`InputError` for a roll these dice cannot show."""
        chances, noun = self.weights(dice), f"{dice} {'die' if dice == 1 else 'dice'}"
        if self.rolls_are_totals:
            if not text.isdigit() or int(text) not in chances:
                raise InputError(f"{noun} show a total from {min(chances)} to {max(chances)}; got {text}")
            return int(text)
        faces = text.split(",")
        if len(faces) != dice or not all(f.isdigit() and 1 <= int(f) <= self.rules.sides for f in faces):
            example = self.roll_words(list(chances)[len(chances) // 2])
            raise InputError(f"under moves {self.rules.moves} a roll is the dice, each 1 to {self.rules.sides}: "
                             f"{noun}, like {example}; got {text}")
        return self.outcome_code(tuple(int(f) for f in faces))

    @property
    def rolls_are_totals(self) -> bool:
        """Whether a roll is read as its total (the sum rule) rather than as the dice themselves."""
        return self.rules.moves == "sum"

    @cached_property
    def _dice_of(self) -> dict[int, tuple[int, ...]]:
        """The throw each code stands for (a total stands for itself)."""
        if self.rolls_are_totals:
            return {r: (r,) for r in self.outcomes}
        s = self.rules.sides
        pairs = {self.outcome_code((a, b)): (a, b) for a in range(1, s + 1) for b in range(a, s + 1)}
        return {**{d: (d,) for d in range(1, s + 1)}, **pairs}

    def weights(self, dice: int) -> dict[int, int]:
        """How many of the ``sides**dice`` equally likely throws of the rules' dice give each outcome when
        ``dice`` dice are rolled (the common denominator of :meth:`chances`)."""
        if dice not in self._throws:
            raise InputError(f"dice must be {' or '.join(map(str, self._throws))} under these rules, got {dice}")
        return dict(sorted(self._throws[dice].items()))

    def chances(self, dice: int, exact: bool = False) -> dict[int, float | Fraction]:
        """The chance of each outcome when ``dice`` dice are rolled: exact fractions or floats."""
        throws = self.rules.throws
        return {c: Fraction(w, throws) if exact else w / throws for c, w in self.weights(dice).items()}

    @property
    def dice_counts(self) -> tuple[int, ...]:
        """Every number of dice some board may roll, increasing."""
        return self.rules.dice_counts

    @cached_property
    def outcomes(self) -> tuple[int, ...]:
        """Every outcome code a throw can give (one die included where it may be rolled), increasing."""
        return tuple(sorted({c for counts in self._throws.values() for c in counts}))

    def chance_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(p_all, p_one)`` indexed by outcome code: the chance of each outcome with all the dice, and with one
        die (zero where the rules never roll one)."""
        width = max(self.outcomes) + 1
        p_all, p_one = np.zeros(width), np.zeros(width)
        for r, p in self.chances(self.rules.dice).items():
            p_all[r] = p
        if self.rules.has_one_die_rule:
            for r, p in self.chances(1).items():
                p_one[r] = p
        return p_all, p_one

    # -- moves -----------------------------------------------------------------------------------------------
    @cached_property
    def catalogue(self) -> MoveCatalogue:
        """Every move of every outcome, in canonical order (tuples of tiles compared lexicographically)."""
        masks, sizes = {}, {}
        for code in self.outcomes:
            if self.rolls_are_totals:
                subsets = subsets_with_total(code, self.tile_values, self.rules.most_per_move)
            else:
                targets = TARGETS[self.rules.moves](self._dice_of[code])
                subsets = [(t,) for t in range(1, self.positions + 1) if self.tile_values[t - 1] in targets]
            masks[code] = frozen(np.array([sum(1 << (t - 1) for t in s) for s in subsets], dtype=np.int64))
            sizes[code] = frozen(np.array([len(s) for s in subsets], dtype=np.int64))
        return MoveCatalogue(self.outcomes, masks, sizes)

    def needs_of(self, moves: np.ndarray) -> np.ndarray:
        """For each move (bit-masks): the tiles that must be down after it (the blockers of the tiles it shuts)."""
        moves = np.asarray(moves, dtype=np.int64)
        out = np.zeros(moves.shape, dtype=np.int64)
        for b, need in enumerate(self.layout.needs):
            if need:
                out |= np.where((moves >> b) & 1, need, 0)
        return out

    def fits(self, boards: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """Whether each move may be played on its board (arrays that broadcast together) -- its tiles are open, and
        every tile it shuts has its blockers down once the move is played. The one definition of a legal move."""
        boards, moves = np.asarray(boards, dtype=np.int64), np.asarray(moves, dtype=np.int64)
        legal = (boards & moves) == moves
        if self.layout.blocked:
            legal &= ((boards & ~moves) & self.needs_of(moves)) == 0
        return legal

    def legal(self, boards: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """``legal[i, j]``: whether move ``moves[j]`` may be played on board ``boards[i]`` (:meth:`fits`; the moves
        are those of one outcome)."""
        return self.fits(np.asarray(boards, dtype=np.int64)[:, None], np.asarray(moves, dtype=np.int64)[None, :])

    @cached_property
    def levels(self) -> Levels:
        """The boards grouped by number of open tiles, with the (board, move) pairs of each outcome."""
        return Levels(self)


def check_roll(roll: int, rules: Rules, board: int | None = None) -> int:
    """Return ``roll`` (an outcome code: the total, under the sum rule) if the dice can show it (from ``board``,
    when given: one die only where the rules allow it there); raise :class:`InputError` otherwise."""
    game = game_of(rules)
    if board is None:
        totals, where = sorted(game.outcomes), ""
    else:
        totals, where = game.totals_from(board), f" from open {game.layout.label(board)}"
    if isinstance(roll, bool) or not isinstance(roll, int | np.integer) or int(roll) not in totals:
        shown = f"{totals[0]} to {totals[-1]}" if game.rolls_are_totals else "an outcome code of Game.outcome_code"
        raise InputError(f"roll must be a total the dice can show{where}, {shown}; got {roll!r}")
    return int(roll)


def legal_moves(rules: Rules, board: int, roll: int) -> list[tuple[int, ...]]:
    """Every legal move for ``board`` and ``roll``, as tuples of tiles in canonical order.

    >>> from stb_core import Rules, board_mask
    >>> legal_moves(Rules(tiles=10), board_mask([1, 3, 4, 6, 7]), 7)
    [(1, 6), (3, 4), (7,)]
    """
    board = check_board(board, check_rules(rules))
    roll = check_roll(roll, rules)
    return [board_tiles(m) for m in legal_move_masks(rules, board, roll)]


def legal_move_masks(rules: Rules, board: int, roll: int) -> list[int]:
    """Bit-masks of the legal moves for ``board`` and ``roll``, canonical order (no validation)."""
    game = game_of(rules)
    moves = game.catalogue.of(roll)
    if moves.size == 0:
        return []
    return [int(m) for m in moves[game.legal(np.array([board]), moves)[0]]]


def game_of(rules: Rules) -> Game:
    """The :class:`Game` of ``rules`` (the last ``limits.KEPT_GAMES`` are kept)."""
    return _game_of(check_rules(rules))


@lru_cache(maxsize=KEPT_GAMES)
def _game_of(rules: Rules) -> Game:
    return Game(rules)


game_of.cache_clear = _game_of.cache_clear  # forget the kept games (make bench times games never seen before)


def per_game(function):
    """Keep ``function(game, *args)`` on the game itself: what it computed lives exactly as long as the game, so a
    process that plays many rule sets holds the arrays of the games it still uses, not of every game it met."""
    @wraps(function)
    def kept(game: Game, *args):
        key = (function.__qualname__, *args)
        if key not in game.memo:
            game.memo[key] = function(game, *args)
        return game.memo[key]
    return kept
