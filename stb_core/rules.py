"""Game variants of Shut the Box, each described by one immutable, validated :class:`Rules` value.

A game: tiles ``1..tiles`` start open (or, with ``layout="double-shutter"``, a front row ``1..tiles`` and a back
row behind it, see :mod:`stb_core.game`). Each turn the player rolls the dice and shuts open tiles whose
numbers add up to the roll total (at most ``max_per_move`` of them). The game ends when no set of open
tiles adds up to the roll (the player is stuck), or as soon as the open tiles total ``win_at_most`` or
less (the player has won; the default 0 means every tile is shut).

The one-die option lets the player roll a single die instead of ``dice`` dice:

* ``never``      -- always roll all the dice;
* ``high-shut``  -- allowed once every tile from 7 up is shut (The Riddler, April 13 2018);
* ``sum-le-K``   -- allowed when the tiles that can be shut now total ``K`` or less, for any ``K`` from 1 to the
  tile total (``sum-le-6``: the common pub rule; ``sum-le-5``: "less than 6", as many writers put it).

With ``one_die_forced`` the single die is not an option but the rule: it must be rolled whenever the
condition holds.

How a roll is used (``moves``): ``sum`` shuts open tiles adding up to the dice's total; ``die-or-sum`` (one or
two dice: "Thai style") shuts exactly one open tile equal to either die or to their total.

Degenerate but legitimate rule sets are accepted as the no-ops they are: a one-die rule with one die (there
is nothing to choose), a per-move cap above the number of tiles (no cap), a win threshold at or above the
tile total (the game is won before the first roll), a forced single die that is never allowed.

Which dice a player may roll from a board, and whether a board is won, are defined here and nowhere else:
:meth:`Rules.one_die_allowed` and :meth:`Rules.is_won`. :class:`stb_core.game.Game` applies them once to every
board (``Game.one_die``, ``Game.won``); everything else reads the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

ONE_DIE_OPTIONS = ("never", "high-shut", "sum-le-6")  # the named ones; sum-le-K takes any K (see Rules)
MOVE_RULES = ("sum", "die-or-sum")
LAYOUTS = ("row", "double-shutter")
DOUBLE_SHUTTER_MAX = 12  # a double-shutter board of 12 front tiles has 24 tiles in all

TILES_RANGE = (1, 24)
DICE_RANGE = (1, 4)
SIDES_RANGE = (2, 20)
MAX_PER_MOVE_RANGE = (1, TILES_RANGE[1])
WIN_AT_MOST_RANGE = (0, TILES_RANGE[1] * (TILES_RANGE[1] + 1) // 2)
HIGH_TILE = 7  # the ``high-shut`` rule opens the one-die option once every tile from this one up is shut


class InputError(ValueError):
    """Bad input -- a rule parameter, a board, a roll, a policy or objective name outside its allowed values; the
    message names the parameter and what is allowed."""


RulesError = InputError  # the name earlier versions raised; kept so that existing code catching it still works


def _check_int(name: str, value, low: int, high: int) -> None:
    """Raise InputError unless ``value`` is an int (not a bool) in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be an integer between {low} and {high}, got {value!r}")
    if not low <= value <= high:
        raise InputError(f"{name} must be between {low} and {high}, got {value}")


def total_distribution(dice: int, sides: int) -> dict[int, int]:
    """Number of the ``sides**dice`` equally likely outcomes giving each total (exact convolution)."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + count
        ways = nxt
    return dict(sorted(ways.items()))


@dataclass(frozen=True)
class Rules:
    """One variant of the game; invalid values raise :class:`InputError` when the value is built."""

    tiles: int = 9                    # tiles 1..tiles start open (1-24; the front row of a double-shutter board)
    dice: int = 2                     # dice rolled normally (1-4)
    sides: int = 6                    # faces per die (2-20)
    one_die: str = "never"            # never | high-shut | sum-le-K: when a single die may be rolled
    one_die_forced: bool = False      # True: the single die must be rolled when allowed
    max_per_move: int | None = None   # at most this many tiles shut by one roll (None: no limit)
    win_at_most: int = 0              # won as soon as the open tiles total this or less
    moves: str = "sum"                # sum: tiles adding up to the roll | die-or-sum: one tile, a die or the sum
    layout: str = "row"               # row: tiles 1..tiles | double-shutter: a back row behind them

    def __post_init__(self) -> None:
        for name in ("tiles", "dice", "sides", "max_per_move", "win_at_most", "one_die_forced"):
            value = getattr(self, name)  # a numpy integer or bool is one: kept as Python's (one value, one hash)
            if type(value).__module__ == "numpy" and isinstance(getattr(value, "item", None) and value.item(),
                                                                 bool | int):
                object.__setattr__(self, name, value.item())
        if self.layout not in LAYOUTS:
            raise InputError(f"layout must be one of {', '.join(LAYOUTS)}; got {self.layout!r}")
        if self.layout == "double-shutter":
            _check_int("tiles", self.tiles, 1, DOUBLE_SHUTTER_MAX)
        else:
            _check_int("tiles", self.tiles, *TILES_RANGE)
        _check_int("dice", self.dice, *DICE_RANGE)
        _check_int("sides", self.sides, *SIDES_RANGE)
        if self.moves not in MOVE_RULES:
            raise InputError(f"moves must be one of {', '.join(MOVE_RULES)}; got {self.moves!r}")
        if self.moves == "die-or-sum" and self.dice > 2:
            raise InputError(f"dice must be 1 or 2 for moves die-or-sum (one tile: a die or their sum); got "
                             f"{self.dice}")
        if not isinstance(self.one_die, str) or not (self.one_die in ("never", "high-shut")
                                                     or self.one_die_threshold is not None):
            raise InputError(f"one_die must be never, high-shut or sum-le-K with K from 1 to {WIN_AT_MOST_RANGE[1]} "
                             f"(e.g. sum-le-6); got {self.one_die!r}")
        if not isinstance(self.one_die_forced, bool):
            raise InputError(f"one_die_forced must be True or False, got {self.one_die_forced!r}")
        if self.max_per_move is not None:
            _check_int("max_per_move", self.max_per_move, *MAX_PER_MOVE_RANGE)
        _check_int("win_at_most", self.win_at_most, *WIN_AT_MOST_RANGE)

    # -- the board ---------------------------------------------------------------------------------
    @property
    def positions(self) -> int:
        """How many tiles the board has (bits of a board): ``tiles``, or twice that with a back row."""
        return 2 * self.tiles if self.layout == "double-shutter" else self.tiles

    @property
    def total(self) -> int:
        """Sum of all the tiles' values: 1 + 2 + ... + tiles (each row, with a back row)."""
        return self.tiles * (self.tiles + 1) // (1 if self.layout == "double-shutter" else 2)

    @property
    def full_board(self) -> int:
        """Bit-mask of the starting board: every tile open."""
        return (1 << self.positions) - 1

    @property
    def states(self) -> int:
        """Number of boards (bit-masks 0 .. 2**positions - 1)."""
        return 1 << self.positions

    @property
    def most_per_move(self) -> int:
        """The most tiles one move may shut (the cap, or every tile when there is none)."""
        most = 1 if self.moves == "die-or-sum" else self.positions
        return min(self.max_per_move or most, most)

    @property
    def one_die_threshold(self) -> int | None:
        """``K`` of ``sum-le-K``, else None. ``K`` runs from 1 to 300 (the largest tile total); one at or above
        this board's total is the degenerate rule it reads as: one die wherever the game goes on."""
        text = self.one_die.removeprefix("sum-le-") if isinstance(self.one_die, str) else ""
        if text != self.one_die and text.isascii() and text.isdigit() and text == str(int(text)) \
                and 1 <= int(text) <= WIN_AT_MOST_RANGE[1]:
            return int(text)
        return None

    def is_won(self, open_sum):
        """Whether a board whose open tiles total ``open_sum`` is won (works on arrays too)."""
        return open_sum <= self.win_at_most

    # -- the dice ----------------------------------------------------------------------------------
    @property
    def throws(self) -> int:
        """Equally likely throws of all the dice, ``sides**dice``: the common denominator of every chance."""
        return self.sides**self.dice

    @cached_property
    def roll_weights(self) -> dict[int, int]:
        """Throws (out of ``throws``) giving each total when all the dice are rolled."""
        return total_distribution(self.dice, self.sides)

    @cached_property
    def one_die_weights(self) -> dict[int, int]:
        """Throws (out of ``throws``) giving each total with one die: ``sides**(dice-1)`` each."""
        return {face: self.sides ** (self.dice - 1) for face in range(1, self.sides + 1)}

    def roll_distribution(self, dice: int | None = None) -> dict[int, Fraction]:
        """Exact probability of each total rolling ``dice`` dice (default: the rules' number)."""
        dice = self.dice if dice is None else dice
        return {total: Fraction(w, self.throws) for total, w in self.dice_weights(dice).items()}

    @property
    def has_one_die_rule(self) -> bool:
        """Whether a single die is ever rolled instead of ``dice`` (never with one die: nothing changes)."""
        return self.one_die != "never" and self.dice > 1

    @property
    def offers_dice_choice(self) -> bool:
        """Whether some board lets the player choose between one die and all the dice."""
        return self.has_one_die_rule and not self.one_die_forced

    @property
    def dice_counts(self) -> tuple[int, ...]:
        """Every number of dice some board may roll, increasing: ``(dice,)`` or ``(1, dice)``."""
        return (1, self.dice) if self.has_one_die_rule else (self.dice,)

    def dice_weights(self, dice: int) -> dict[int, int]:
        """Throws (out of ``throws``) giving each total when ``dice`` dice (1 or the rules') are rolled."""
        if dice not in self.dice_counts:
            raise InputError(f"dice must be {' or '.join(map(str, self.dice_counts))} under these rules, got {dice}")
        return self.roll_weights if dice == self.dice else self.one_die_weights

    @property
    def distinct_totals(self) -> int:
        """How many different totals a roll of all the dice can show."""
        return len(self.roll_weights)

    @property
    def distinct_rolls(self) -> int:
        """How many different rolls all the dice can show, as the move rule reads a roll: its total under the sum
        rule, the dice themselves (in any order: 3,4 is 4,3) under a dice-based rule."""
        if self.moves == "sum":
            return self.distinct_totals
        return math.comb(self.sides + self.dice - 1, self.dice)

    @property
    def largest_roll(self) -> int:
        """The largest total a roll can show (all the dice on their top face)."""
        return self.dice * self.sides

    @property
    def dice_totals(self) -> tuple[int, ...]:
        """Every total the dice can show under these rules (one die included when it may be rolled). Not the
        outcomes a move is chosen for: under ``die-or-sum`` those are the dice themselves (``Game.outcomes``)."""
        return tuple(sorted({r for d in self.dice_counts for r in self.dice_weights(d)}))

    def one_die_allowed(self, largest_open, exposed_sums):
        """Whether the single die may be rolled from each board, given the largest value among its open tiles
        and the total of the tiles that can be shut now (arrays or plain ints): ``high-shut`` once every tile
        worth 7 or more is shut, ``sum-le-K`` when the tiles that can be shut now total ``K`` or less; never when
        the rules have no one-die option (or only one die)."""
        if not self.has_one_die_rule:
            return exposed_sums < 0  # all False, in the shape of the input
        if self.one_die == "high-shut":
            return largest_open < HIGH_TILE
        return exposed_sums <= self.one_die_threshold

    def describe(self) -> str:
        """One line naming the variant, for tables and figure captions."""
        counts = {1: "one", 2: "two", 3: "three", 4: "four"}
        dice = f"{counts[self.dice]} {self.sides}-sided {'die' if self.dice == 1 else 'dice'}"
        parts = ["tile 1" if self.tiles == 1 else f"tiles 1–{self.tiles}", dice]
        if self.layout == "double-shutter":
            parts[0] = f"Double Shutter ({parts[0]} in front, a back row behind)"
        if self.moves == "die-or-sum":
            parts.append("one tile a roll: a die or their sum" if self.dice == 2
                         else "one tile a roll, equal to the die")
        if self.has_one_die_rule:
            when = ("once every tile from 7 up is shut" if self.one_die == "high-shut"
                    else "on every roll" if self.one_die_threshold >= self.total
                    else f"at {self.one_die_threshold} or less left")
            parts.append(f"one die {'forced' if self.one_die_forced else 'allowed'} {when}")
        if self.moves == "sum" and self.max_per_move is not None and self.max_per_move < self.positions:
            parts.append(f"at most {self.max_per_move} tile{'s' if self.max_per_move > 1 else ''} per roll")
        if self.win_at_most >= self.total:
            parts.append("won before the first roll")
        elif self.win_at_most:
            parts.append(f"won at {self.win_at_most} or less")
        return ", ".join(parts)


def check_rules(rules) -> Rules:
    """``rules`` if it is a :class:`Rules` value; :class:`InputError` otherwise."""
    if not isinstance(rules, Rules):
        raise InputError(f"rules must be a stb_core.Rules value, got {type(rules).__name__}")
    return rules
