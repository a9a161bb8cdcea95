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
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import cached_property, wraps

ONE_DIE_OPTIONS = ("never", "high-shut", "sum-le-6")  # the named one-die rules; sum-le-K takes any K (see Rules)
HIGH_TILE = 7  # the ``high-shut`` rule opens the one-die option once every tile from this one up is shut
DOUBLE_SHUTTER_MAX = 12  # a double-shutter board of 12 front tiles has 24 tiles in all
MOST_TILES = 24
MOST_TOTAL = MOST_TILES * (MOST_TILES + 1) // 2  # 300: the largest tile total, the bound of every sum a rule names
DIE_OR_SUM_DICE = 2  # die-or-sum reads each die and their sum: one or two dice


class InputError(ValueError):
    """Bad input -- a rule parameter, a board, a roll, a policy or objective name outside its allowed values; the
    message names the parameter and what is allowed."""


RulesError = InputError  # the name earlier versions raised; kept so that existing code catching it still works


def _one_die_threshold(value) -> int | None:
    """``K`` of the one-die rule ``sum-le-K`` (K from 1 to 300, written without leading zeros), else None."""
    text = value.removeprefix("sum-le-") if isinstance(value, str) else ""
    if text != value and text.isascii() and text.isdigit() and text == str(int(text)) and 1 <= int(text) <= MOST_TOTAL:
        return int(text)
    return None


def one_die_when(value: str) -> str:
    """When a one-die rule lets a player roll one die, in the page's words: ``never``, ``once every tile from 7 up
    is shut``, ``once the tiles that can be shut total 6 or less`` (on one row: the open tiles)."""
    if value in ("never", "high-shut"):
        return {"never": "never", "high-shut": f"once every tile from {HIGH_TILE} up is shut"}[value]
    return f"once the tiles that can be shut total {_one_die_threshold(value)} or less"


def one_die_short(value: str) -> str:
    """The same in a table's few words: ``never``, ``once 7 and up are shut``, ``at 6 or less to shut`` (the
    tiles that can be shut: on Double Shutter a back tile behind an open one is left but not counted)."""
    if value in ("never", "high-shut"):
        return {"never": "never", "high-shut": f"once {HIGH_TILE} and up are shut"}[value]
    return f"at {_one_die_threshold(value)} or less to shut"


@dataclass(frozen=True)
class Option:
    """One rule option, declared once: its type, allowed values, default and meaning. ``Rules`` checks its fields
    with it; the command line's flags, the notebooks' parameters and the explorer's choices are made from it.

    ``low``/``high`` bound an integer; ``choices`` list a text's values, or ``accepts`` decides them (``spelled``
    says which in words, ``samples`` are values to try); ``unset`` is what ``None`` means (an option that may be
    off); ``words`` writes a value as a page reads it."""

    kind: type
    default: object
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple | None = None
    accepts: Callable[[object], bool] | None = None
    spelled: str | None = None
    samples: tuple = ()
    unset: str | None = None
    words: Callable[[object], str] | None = None
    short: Callable[[object], str] | None = None  # a value in a menu's or a table's few words
    kinds: dict | None = None  # the kinds of value a function may refuse, each with an example (default: each choice)
    name: str = ""

    @property
    def kind_examples(self) -> dict:
        """``{kind: an example value}`` of the kinds of value a function's coverage speaks of: each choice, True
        and False, ``sum-le-K``, a limit or none; empty for a plain number (no function refuses a size by kind)."""
        if self.kinds is not None:
            return self.kinds
        if self.choices is not None:
            return {c: c for c in self.choices}
        return {False: False, True: True} if self.kind is bool else {}

    def kind_of(self, value):
        """The kind of ``value`` (:attr:`kind_examples`): the value itself, or the kind it is an instance of."""
        if self.kinds is None:
            return value
        return next(kind for kind, example in self.kinds.items() if _same_kind(self.name, value, example))

    def allowed(self) -> str:
        """The allowed values in words, as every refusal says them."""
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        if self.spelled is not None:
            return self.spelled
        if self.kind is bool:
            return "True or False"
        return f"an integer between {self.low} and {self.high}"

    def refusal(self, value) -> str | None:
        """Why ``value`` is not allowed (one line naming the option and what is), or None when it is."""
        if value is None and self.unset is not None:
            return None
        if self.kind is bool:
            return None if isinstance(value, bool) else f"{self.name} must be True or False, got {value!r}"
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.name} must be an integer between {self.low} and {self.high}, got {value!r}"
            return None if self.low <= value <= self.high else \
                f"{self.name} must be between {self.low} and {self.high}, got {value}"
        ok = isinstance(value, str) and (value in self.choices if self.choices is not None else self.accepts(value))
        return None if ok else f"{self.name} must be {self.allowed()}; got {value!r}"

    def values(self) -> tuple:
        """Values to try the option at: each choice, or the samples, or the bounds (and ``None`` when it may be
        unset)."""
        found = self.choices or self.samples or ((False, True) if self.kind is bool else (self.low, self.high))
        return (*found, None) if self.unset is not None else tuple(found)

    def read(self, value) -> str:
        """A value as a page reads it."""
        if value is None:
            return self.unset
        return self.words(value) if self.words else str(value)


def _same_kind(name: str, value, example) -> bool:
    """Whether two values of option ``name`` are of one kind: the same named rule or both ``sum-le-K``; both unset
    or both set."""
    if name == "one_die":
        named = ("never", "high-shut")
        return value == example if value in named or example in named else True
    return (value is None) == (example is None)


def option(default, help: str, kind: type | None = None, **declared):
    """A field of :class:`Rules` declared with its :class:`Option` (kept in the field's metadata)."""
    declared_kind = kind or type(default)
    return field(default=default, metadata={"option": Option(declared_kind, default, help, **declared)})


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
    """One variant of the game; invalid values raise :class:`InputError` when the value is built. Each field is
    one rule option, declared here once (:data:`RULE_OPTIONS`)."""

    tiles: int = option(9, "tiles 1..tiles start open (on a Double Shutter board: the front row, at most "
                           f"{DOUBLE_SHUTTER_MAX})", low=1, high=MOST_TILES)
    dice: int = option(2, "dice rolled", low=1, high=4)
    sides: int = option(6, "faces per die", low=2, high=20)
    one_die: str = option("never", "when one die may be rolled instead of all the dice: never, high-shut (once every "
                                   f"tile from {HIGH_TILE} up is shut) or sum-le-K (once the tiles that can be shut "
                                   "total K or less; sum-le-6 is the pub rule)",
                          accepts=lambda v: v in ("never", "high-shut") or _one_die_threshold(v) is not None,
                          spelled=f"never, high-shut or sum-le-K with K from 1 to {MOST_TOTAL} (e.g. sum-le-6)",
                          samples=(*ONE_DIE_OPTIONS, "sum-le-3"), words=one_die_when, short=one_die_short,
                          kinds={"never": "never", "high-shut": "high-shut", "sum-le-K": "sum-le-6"})
    one_die_forced: bool = option(False, "the single die must be rolled whenever the one-die rule allows it",
                                  words=lambda v: "forced" if v else "the player's choice")
    max_per_move: int | None = option(None, "at most this many tiles shut by one roll", kind=int, low=1,
                                      high=MOST_TILES, unset="no limit", kinds={"no limit": None, "a limit": 2})
    win_at_most: int = option(0, "won as soon as the open tiles total this or less (0: every tile must be shut)",
                              low=0, high=MOST_TOTAL)
    moves: str = option("sum", "what a roll shuts: sum (open tiles adding up to the roll) or die-or-sum (one tile, "
                               "equal to either die or to their sum; one or two dice)", choices=("sum", "die-or-sum"),
                        words={"sum": "open tiles adding up to the roll",
                               "die-or-sum": "one tile: either die or their sum"}.get,
                        short={"sum": "tiles adding up to the roll",
                               "die-or-sum": "Thai style: one tile, a die or the sum"}.get)
    layout: str = option("row", "the board: row (tiles 1..tiles) or double-shutter (behind each front tile k a back "
                                "tile worth tiles + 1 - k, shut only once k is down; the front row scores double)",
                         choices=("row", "double-shutter"),
                         words={"row": "one row of tiles numbered from 1 up",
                                "double-shutter": "Double Shutter: a front row numbered from 1 up and behind it a "
                                                  "back row of the same numbers reversed (the highest behind tile 1), "
                                                  "each back tile shut only once the tile in front of it is"}.get,
                         short={"row": "one row", "double-shutter": "Double Shutter: a back row"}.get)

    def __post_init__(self) -> None:
        for spec in RULE_OPTIONS:
            value = getattr(self, spec.name)  # a numpy integer or bool is one: kept as Python's (one value, one hash)
            if type(value).__module__ == "numpy" and isinstance(getattr(value, "item", None) and value.item(),
                                                                 bool | int):
                object.__setattr__(self, spec.name, value.item())
        for spec in sorted(RULE_OPTIONS, key=lambda o: o.name != "layout"):  # the layout bounds the tiles
            problem = spec.refusal(getattr(self, spec.name))
            if problem:
                raise InputError(problem)
        for problem in (combination(self) for combination in COMBINATIONS):
            if problem:
                raise InputError(problem)

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
        return _one_die_threshold(self.one_die)

    def is_won(self, open_sum):
        """Whether a board whose open tiles total ``open_sum`` is won (works on arrays too)."""
        return open_sum <= self.win_at_most

    @property
    def won_at_start(self) -> bool:
        """Whether the full board is already won (its tiles add up to ``win_at_most`` or less): no roll is thrown."""
        return bool(self.is_won(self.total))

    # -- the dice ----------------------------------------------------------------------------------
    @property
    def throws(self) -> int:
        """Equally likely throws of all the dice, ``sides**dice``: the common denominator of every chance."""
        return self.sides**self.dice

    @cached_property
    def roll_weights(self) -> dict[int, int]:
        """Throws (out of ``throws``) giving each total when all the dice are rolled."""
        return total_distribution(self.dice, self.sides)

    def throw_weight(self, dice: int) -> int:
        """How many of the ``throws`` of all the dice one throw of ``dice`` dice stands for: ``sides**(D - dice)``
        with ``D`` the rules' dice (each face of a single die is ``sides**(D-1)`` of the ``sides**D`` throws)."""
        return self.sides ** (self.dice - dice)

    def roll_distribution(self, dice: int | None = None) -> dict[int, Fraction]:
        """Exact probability of each total rolling ``dice`` dice (default: the rules' number)."""
        dice = self.dice if dice is None else dice
        return {total: Fraction(w, self.throws) for total, w in self.dice_weights(dice).items()}

    @property
    def has_one_die_rule(self) -> bool:
        """Whether a single die is ever rolled instead of ``dice`` (never with one die: nothing changes)."""
        return self.one_die != "never" and self.dice > 1

    @property
    def one_die_from_start(self) -> bool:
        """Whether the one-die rule holds on every board: a threshold at or above the tiles' total, or ``high-shut``
        on a board with no tile from ``HIGH_TILE`` up (the largest value is ``tiles`` on either layout)."""
        if not self.has_one_die_rule:
            return False
        if self.one_die == "high-shut":
            return self.tiles < HIGH_TILE
        return self.one_die_threshold >= self.total

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
        if dice == self.dice:
            return self.roll_weights
        return {total: w * self.throw_weight(dice) for total, w in total_distribution(dice, self.sides).items()}

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
    def distinct_outcomes(self) -> int:
        """How many different rolls a player may face, as the move rule reads a roll: those of all the dice
        (:attr:`distinct_rolls`) and, where a one-die rule lets one die be rolled, those of one die that all the
        dice cannot show (under the sum rule a total of 1; under a dice-based rule every face of one die)."""
        if self.moves == "sum":
            return len(self.dice_totals)
        return self.distinct_rolls + (self.sides if self.has_one_die_rule else 0)

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

    def inert(self) -> dict[str, str]:
        """The options set away from their defaults that change nothing under the other options, each with why
        (the degenerate rule sets the module docstring lists): a one-die rule with one die, a forced die never
        allowed, a cap no move reaches, and every rule of play where the game is won before the first roll."""
        if self.won_at_start:
            return {name: "the game is won before the first roll" for name in PLAY_OPTIONS
                    if getattr(self, name) != OPTIONS[name].default}
        found = {}
        if self.dice == 1 and self.one_die != "never":
            found["one_die"] = "one die is rolled on every turn"
        if self.one_die_forced and not self.has_one_die_rule:
            found["one_die_forced"] = ("one die is rolled on every turn" if self.dice == 1 else
                                       "one die is never allowed")
        most = 1 if self.moves == "die-or-sum" else self.positions
        if self.max_per_move is not None and self.max_per_move >= most:
            found["max_per_move"] = ("a move shuts one tile" if self.moves == "die-or-sum" else
                                     ("the board has one tile" if self.positions == 1 else
                                      f"no move can shut more than the board's {self.positions} tiles"))
        return found

    @property
    def effective(self) -> Rules:
        """The same game with every :meth:`inert` option at its default: two rule sets that play the same game
        have the same effective rules."""
        return replace(self, **{name: OPTIONS[name].default for name in self.inert()})

    def describe(self) -> str:
        """One line naming the variant, for tables and figure captions."""
        counts = {1: "one", 2: "two", 3: "three", 4: "four"}
        dice = f"{counts[self.dice]} {self.sides}-sided {'die' if self.dice == 1 else 'dice'}"
        parts = ["tile 1" if self.tiles == 1 else f"tiles 1–{self.tiles}", dice]
        if self.layout == "double-shutter":
            parts[0] = f"Double Shutter ({parts[0]} in front, a back row behind; the sum left counts the front twice)"
        if self.won_at_start:  # no roll is thrown: the rules of play say nothing of this game
            return ", ".join([*parts, "won before the first roll"])
        if self.moves == "die-or-sum":
            parts.append("one tile a roll: a die or their sum" if self.dice == 2
                         else "one tile a roll, equal to the die")
        if self.has_one_die_rule:
            when = "on every roll" if self.one_die_from_start else one_die_when(self.one_die)
            parts.append(f"one die {'forced' if self.one_die_forced else 'allowed'} {when}")
        if self.moves == "sum" and self.max_per_move is not None and self.max_per_move < self.positions:
            parts.append(f"at most {self.max_per_move} tile{'s' if self.max_per_move > 1 else ''} per roll")
        if self.win_at_most:
            parts.append(f"won at {self.win_at_most} or less")
        return ", ".join(parts)


RULE_OPTIONS: tuple[Option, ...] = tuple(replace(f.metadata["option"], name=f.name) for f in fields(Rules))
OPTIONS: dict[str, Option] = {o.name: o for o in RULE_OPTIONS}
PLAY_OPTIONS = ("one_die", "one_die_forced", "max_per_move", "moves")  # how rolls are thrown and read


def _double_shutter_front(rules: Rules) -> str | None:
    if rules.layout == "double-shutter" and rules.tiles > DOUBLE_SHUTTER_MAX:
        return (f"tiles must be between 1 and {DOUBLE_SHUTTER_MAX}, got {rules.tiles} (for layout double-shutter: the "
                f"front row, which the back row doubles)")
    return None


def _die_or_sum_dice(rules: Rules) -> str | None:
    if rules.moves == "die-or-sum" and rules.dice > DIE_OR_SUM_DICE:
        return f"dice must be 1 or 2 for moves die-or-sum (one tile: a die or their sum); got {rules.dice}"
    return None


COMBINATIONS = (_double_shutter_front, _die_or_sum_dice)  # what two options allow together


@dataclass(frozen=True)
class Coverage:
    """The rule options an analysis covers: every kind of value of every option (:attr:`Option.kind_examples`)
    but those in ``refused``, each ``(option, kinds, why)``. A function declares its own with :func:`refuses`; an
    analysis made of several functions covers what all of them cover (``a | b``)."""

    refused: tuple[tuple[str, tuple, str], ...] = ()

    def handles(self, name: str, kind) -> bool:
        """Whether the kind ``kind`` of option ``name`` is covered."""
        return not any(option == name and kind in kinds for option, kinds, _ in self.refused)

    def allowed(self, name: str) -> tuple:
        """The kinds of option ``name`` covered."""
        return tuple(k for k in OPTIONS[name].kind_examples if self.handles(name, k))

    def refusal(self, rules: Rules, what: str) -> str | None:
        """One line saying which option of ``rules`` is outside ``what`` and why, or None when all are covered."""
        for name in dict.fromkeys(option for option, _, _ in self.refused):
            value = getattr(rules, name)
            kind = OPTIONS[name].kind_of(value)
            whys = [why for option, kinds, why in self.refused if option == name and kind in kinds]
            if whys:
                return (f"{name} = {value} is outside {what} ({'; '.join(dict.fromkeys(whys))}); allowed: "
                        f"{', '.join(map(str, self.allowed(name)))}")
        return None

    def __or__(self, other: Coverage) -> Coverage:
        return Coverage(tuple(dict.fromkeys(self.refused + other.refused)))


def refuses(**refused: tuple[tuple, str]) -> Callable:
    """Declare what a function taking ``rules`` first does not handle, and refuse it: ``layout=(("double-shutter",),
    "it names states by tile number on one row")``. The function raises :class:`InputError` naming the option
    before any work; every other kind of every option it handles (a test calls it on each). Its declaration is
    its ``coverage``."""
    coverage = Coverage(tuple((name, tuple(kinds), why) for name, (kinds, why) in refused.items()))
    unknown = [(n, k) for n, kinds, _ in coverage.refused for k in kinds if k not in OPTIONS[n].kind_examples]
    if unknown:
        raise ValueError(f"refuses: {unknown[0][0]} has no kind {unknown[0][1]!r}")
    return _covering(coverage)


def analysis_of(*functions: Callable) -> Callable:
    """Declare that a function's analysis is made of ``functions`` (each taking ``rules`` first): it covers what
    every one of them covers (a function that declares nothing covers every option) and refuses the rest before
    any work."""
    found = Coverage()
    for function in functions:
        found = found | getattr(function, "coverage", Coverage())
    return _covering(found)


def _covering(coverage: Coverage) -> Callable:
    def declare(function: Callable) -> Callable:
        @wraps(function)
        def checked(rules, *args, **kwargs):
            problem = coverage.refusal(check_rules(rules), f"{function.__name__}'s analysis")
            if problem:
                raise InputError(problem)
            return function(rules, *args, **kwargs)

        checked.coverage = coverage
        return checked

    return declare


def check_rules(rules) -> Rules:
    """``rules`` if it is a :class:`Rules` value; :class:`InputError` otherwise."""
    if not isinstance(rules, Rules):
        raise InputError(f"rules must be a stb_core.Rules value, got {type(rules).__name__}")
    return rules
