"""Game variants of Shut the Box, each described by one immutable, validated :class:`Rules` value.

A game: tiles ``1..tiles`` start open. Each turn the player rolls the dice and shuts open tiles whose
numbers add up to the roll total (at most ``max_per_move`` of them). The game ends when no set of open
tiles adds up to the roll (the player is stuck), or as soon as the open tiles total ``win_at_most`` or
less (the player has won; the default 0 means every tile is shut).

The one-die option lets the player roll a single die instead of ``dice`` dice:

* ``never``      -- always roll all the dice;
* ``high-shut``  -- allowed once every tile from 7 up is shut (The Riddler, April 13 2018);
* ``sum-le-6``   -- allowed when the open tiles total 6 or less (the common pub rule).

With ``one_die_forced`` the single die is not an option but the rule: it must be rolled whenever the
condition holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

ONE_DIE_OPTIONS = ("never", "high-shut", "sum-le-6")

TILES_RANGE = (1, 24)
DICE_RANGE = (1, 4)
SIDES_RANGE = (2, 20)


class RulesError(ValueError):
    """A rule parameter outside its allowed values; the message names the parameter and what is allowed."""


def _check_int(name: str, value, low: int, high: int) -> None:
    """Raise RulesError unless ``value`` is an int (not a bool) in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be an integer between {low} and {high}, got {value!r}")
    if not low <= value <= high:
        raise RulesError(f"{name} must be between {low} and {high}, got {value}")


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
    """One variant of the game; invalid values raise :class:`RulesError` when the value is built."""

    tiles: int = 9                    # tiles 1..tiles start open (1-24)
    dice: int = 2                     # dice rolled normally (1-4)
    sides: int = 6                    # faces per die (2-20)
    one_die: str = "never"            # never | high-shut | sum-le-6: when a single die may be rolled
    one_die_forced: bool = False      # True: the single die must be rolled when allowed
    max_per_move: int | None = None   # at most this many tiles shut by one roll (None: no limit)
    win_at_most: int = 0              # won as soon as the open tiles total this or less

    def __post_init__(self) -> None:
        _check_int("tiles", self.tiles, *TILES_RANGE)
        _check_int("dice", self.dice, *DICE_RANGE)
        _check_int("sides", self.sides, *SIDES_RANGE)
        if self.one_die not in ONE_DIE_OPTIONS:
            raise RulesError(f"one_die must be one of {', '.join(ONE_DIE_OPTIONS)}; got {self.one_die!r}")
        if not isinstance(self.one_die_forced, bool):
            raise RulesError(f"one_die_forced must be True or False, got {self.one_die_forced!r}")
        if self.one_die != "never" and self.dice == 1:
            raise RulesError("one_die needs dice of 2 or more (with one die there is no choice); got dice=1")
        if self.one_die_forced and self.one_die == "never":
            raise RulesError("one_die_forced needs one_die to be high-shut or sum-le-6, got one_die='never'")
        if self.max_per_move is not None:
            _check_int("max_per_move", self.max_per_move, 1, self.tiles)
        _check_int("win_at_most", self.win_at_most, 0, self.total - 1)

    # -- the board ---------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Sum of all the tiles, 1 + 2 + ... + tiles."""
        return self.tiles * (self.tiles + 1) // 2

    @property
    def full_board(self) -> int:
        """Bit-mask of the starting board: every tile open."""
        return (1 << self.tiles) - 1

    @property
    def states(self) -> int:
        """Number of boards (bit-masks 0 .. 2**tiles - 1)."""
        return 1 << self.tiles

    # -- the dice ----------------------------------------------------------------------------------
    @property
    def outcomes(self) -> int:
        """Equally likely outcomes of one throw of all the dice, ``sides**dice``: the common denominator."""
        return self.sides**self.dice

    @cached_property
    def roll_weights(self) -> dict[int, int]:
        """Outcomes (out of ``outcomes``) giving each total when all the dice are rolled."""
        return total_distribution(self.dice, self.sides)

    @cached_property
    def one_die_weights(self) -> dict[int, int]:
        """Outcomes (out of ``outcomes``) giving each total with one die: ``sides**(dice-1)`` each."""
        return {face: self.sides ** (self.dice - 1) for face in range(1, self.sides + 1)}

    def roll_distribution(self, dice: int | None = None) -> dict[int, Fraction]:
        """Exact probability of each total rolling ``dice`` dice (default: the rules' number)."""
        dice = self.dice if dice is None else dice
        if dice not in (1, self.dice):
            raise RulesError(f"dice must be 1 or {self.dice} under these rules, got {dice}")
        weights = self.roll_weights if dice == self.dice else self.one_die_weights
        return {total: Fraction(w, self.outcomes) for total, w in weights.items()}

    @property
    def roll_totals(self) -> tuple[int, ...]:
        """Every total a roll can show under these rules (one die included when it may be rolled)."""
        totals = set(self.roll_weights)
        if self.one_die != "never":
            totals |= set(self.one_die_weights)
        return tuple(sorted(totals))

    def one_die_allowed(self, open_tiles_sum: int, open_high_tiles: bool) -> bool:
        """Whether the single die may be rolled: ``open_high_tiles`` says if any tile from 7 up is open."""
        if self.one_die == "high-shut":
            return not open_high_tiles
        if self.one_die == "sum-le-6":
            return open_tiles_sum <= 6
        return False

    def describe(self) -> str:
        """One line naming the variant, for tables and figure captions."""
        parts = [f"tiles 1-{self.tiles}", f"{self.dice}d{self.sides}"]
        if self.one_die != "never":
            parts.append(f"one die {'forced' if self.one_die_forced else 'allowed'} ({self.one_die})")
        if self.max_per_move is not None:
            parts.append(f"at most {self.max_per_move} tiles per roll")
        if self.win_at_most:
            parts.append(f"won at {self.win_at_most} or less")
        return ", ".join(parts)


HIGH_TILE = 7  # the ``high-shut`` rule opens the one-die option once every tile from this one up is shut
