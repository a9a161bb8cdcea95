"""How numbers, counts, lists and comparisons read, in a table cell or a sentence: one style for the whole report.

Number formats (each returns a function of one value, ``""`` for a missing one):

* :func:`percent` -- a probability as a percentage at stated decimals (``0.071432`` -> ``7.14%``);
* :func:`points` -- a difference of probabilities in percentage points (``0.00157`` -> ``0.16 pp``);
* :func:`number` -- a number at fixed decimals with thousands separators; :func:`compact` drops trailing zeros;
* :func:`share` -- a number that is already a percentage (``2.01498`` -> ``2.01%``);
* :func:`integer`, :func:`fraction`, :func:`text`.

Words that follow the numbers: :func:`plural` (``1 board``, ``3 boards``), :func:`listing` (``a, b and 12 more``),
:func:`relation` (``more``, ``less``, ``the same``), :func:`dice_words` (``two dice``, ``one 12-sided die``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from ..choice import same_value
from ..luck import CHANCES

MINUS = "\u2212"
DIFFERENCE_NOISE = 1e-10  # pp: a difference of two float chances this small is their rounding, and reads as zero


def present(x) -> bool:
    """Whether ``x`` is a value to show (not None, NA, NaN or empty text)."""
    return x is not None and x is not pd.NA and not (isinstance(x, float) and np.isnan(x)) and x != ""


def minus(s: str) -> str:
    """A true minus sign in a formatted number; a number that rounds to zero has no sign (``-0.00`` reads
    ``0.00``: a negative zero says less than nothing)."""
    if s.startswith(("-", "+")) and not re.search(r"[1-9]", s):
        s = s[1:]
    return s.replace("-", MINUS) if s.startswith("-") or "+-" in s else s


# -- number formats ---------------------------------------------------------------------------------------
SHOWN_DIGITS = 13  # significant digits of a float that stand for the decimal it was computed as (the rest is rounding)


def fixed(value: float, spec: str) -> str:
    """``format(value, spec)`` (a fixed-point spec such as ``,.2f``) of the decimal a float stands for: its first
    :data:`SHOWN_DIGITS` significant digits, so a float's rounding does not decide a halfway case -- 1523/20000
    summed to 0.0761499999999998 reads 7.62%, as 0.07615 does (halves to even, as Python's format does)."""
    return format(Decimal(f"{value:.{SHOWN_DIGITS}g}"), spec) if abs(value) < 10**SHOWN_DIGITS else format(value, spec)


def percent(decimals: int = 2) -> Callable:
    """A probability shown as a percentage: ``0.071432`` -> ``7.14%`` (true minus sign); a positive value too
    small for the decimals reads ``<0.01%`` rather than ``0.00%`` (a negative one ``>−0.01%``), a chance short of
    certain that would round to it ``>99.99%``, and zero -- or a float's rounding of it just below -- reads
    ``0%``."""
    def show(x) -> str:
        if not present(x):
            return ""
        value = 100 * float(x)
        if -DIFFERENCE_NOISE <= value <= 0:  # no chance is below zero: a float's rounding of an exact 0
            return "0%"
        if 100 - 0.5 * 10**-decimals <= value < 100 - DIFFERENCE_NOISE:  # not certain: never "100.0%"
            return f">{100 - 10**-decimals:.{decimals}f}%"
        return below_shown(value, decimals, "%") or minus(fixed(value, f",.{decimals}f") + "%")
    show.unit = "percent"
    show.decimals = decimals
    return show


def below_shown(value: float, decimals: int, suffix: str, noise: float = 0.0) -> str | None:
    """How a nonzero ``value`` too small for ``decimals`` places reads: ``<0.01%`` (a negative one ``>−0.01%``),
    never a zero that hides a real difference; None for a value the decimals show, and for one no larger than
    ``noise`` in size (a float's rounding of zero)."""
    if not noise < abs(value) < 0.5 * 10**-decimals:
        return None
    step = f"{10**-decimals:.{decimals}f}{suffix}"
    return f"<{step}" if value > 0 else f">{MINUS}{step}"


def points(decimals: int = 2, suffix: str = " pp", signed: bool = False) -> Callable:
    """A difference of probabilities in percentage points (pp): ``0.00157`` -> ``0.16 pp``; ``signed`` shows the
    sign of a change (``−0.16 pp``); a real difference too small for the decimals reads ``<0.01 pp``
    (:func:`below_shown`). A table using it says what pp means in its caption."""
    spec = f"{'+' if signed else ''},.{decimals}f"

    def show(x) -> str:
        if not present(x):
            return ""
        value = 100 * float(x)
        return below_shown(value, decimals, suffix, DIFFERENCE_NOISE) or minus(f"{fixed(value, spec)}{suffix}")
    show.unit = "pp" if suffix.strip() in ("pp", "percentage points") else "hundredths"
    show.decimals = decimals
    return show


def number(decimals: int = 4, signed: bool = False, gap: bool = False) -> Callable:
    """A number at ``decimals`` places, thousands separated: ``11.157508`` -> ``11.1575``; a ``gap`` (a difference
    of two values) too small for the decimals reads ``<0.001`` (:func:`below_shown`)."""
    spec = f"{'+' if signed else ''},.{decimals}f"

    def show(x) -> str:
        if not present(x):
            return ""
        tiny = below_shown(float(x), decimals, "", DIFFERENCE_NOISE / 100) if gap else None
        return tiny or minus(fixed(float(x), spec))
    show.unit = "number"
    show.decimals = decimals
    return show


def compact(decimals: int = 3) -> Callable:
    """A number at up to ``decimals`` places, trailing zeros dropped: ``44.0`` -> ``44``, ``42.2222`` -> ``42.222``."""
    def show(x) -> str:
        if not present(x):
            return ""
        return minus(fixed(float(x), f",.{decimals}f").rstrip("0").rstrip("."))
    show.unit = "number"
    show.decimals = decimals
    return show


def goal_value(objective: str) -> Callable:
    """How a value of ``objective`` reads in prose: a chance (:data:`stb_core.luck.CHANCES`) as a percentage, any
    other amount to three decimals."""
    return percent(2) if objective in CHANCES else number(3)


def goal_gap(objective: str) -> Callable:
    """How a difference of two values of ``objective`` reads in prose: in percentage points for a chance, to three
    decimals otherwise; a real gap too small for the digits is never a zero."""
    return points(2, " percentage points") if objective in CHANCES else number(3, gap=True)


def share(decimals: int = 2) -> Callable:
    """A number that is already a percentage: ``2.01498`` -> ``2.01%``; a nonzero one too small for the decimals
    reads ``<0.01%`` (:func:`below_shown`)."""
    def show(x) -> str:
        if not present(x):
            return ""
        return below_shown(float(x), decimals, "%", DIFFERENCE_NOISE) or minus(fixed(float(x), f",.{decimals}f") + "%")
    show.unit = "share"
    show.decimals = decimals
    return show


def integer(x) -> str:
    """An integer with thousands separators: ``161989632000`` -> ``161,989,632,000``."""
    return minus(f"{int(x):,}") if present(x) else ""


integer.unit = "integer"


def fraction(x) -> str:
    """An exact fraction ``p/q`` (or an integer)."""
    return minus(str(Fraction(x))) if present(x) else ""


fraction.unit = "fraction"


def text(x) -> str:
    return str(x) if present(x) else ""


text.unit = "text"

LONG_DECIMALS = re.compile(r"(\d)\.(\d{9,})")


LONG_FRACTION = re.compile(r"(\d{6,})/(\d{6,})")


def digits(x) -> str:
    """Text with every long decimal tail (nine digits or more) grouped in fives by thin spaces, as in
    ``0.00010 76788 69490 46407`` (a long number stays readable, and a narrow column breaks it between two groups,
    never inside one), and a long fraction free to break after its slash, the one place it may."""
    grouped = LONG_DECIMALS.sub(lambda m: m[1] + "." + "\u2009".join(m[2][i:i + 5] for i in range(0, len(m[2]), 5)),
                                text(x))
    return LONG_FRACTION.sub(lambda m: f"{m[1]}/\u200b{m[2]}", grouped)


digits.unit = "text"


def as_sets(x) -> str:
    """Moves a source wrote as lists, ``[1, 8], [2, 7]``, in the report's one notation for a set of tiles:
    ``{1, 8}, {2, 7}``."""
    return str(x).replace("[", "{").replace("]", "}") if present(x) else ""


as_sets.unit = "sets"


# -- names ------------------------------------------------------------------------------------------------------
READER_NAMES = {  # how each machine name of a policy or objective reads on a page
    "optimal": "optimal play", "highest-tile": "fewest tiles, then highest",
    "sequence-count": "most winning sequences", "random": "random legal move", "worst": "worst play",
    "highest tile you can": "highest tile you can", "largest-tile": "largest tile first",
    "lowest-tile": "lowest tile first", "fewest-tiles": "fewest tiles first", "most-tiles": "most tiles first",
    "most-options": "most options left",
    "win": "P(win)", "remaining-sum": "expected sum left", "flipped-count": "expected tiles shut",
}


def named(key) -> str:
    """How a machine name (a policy, an objective) reads on a page."""
    return READER_NAMES.get(key, key)


named.unit = "name"


GOAL_ALONE = {"win": "play for the win alone", "remaining-sum": "play for the lowest sum alone",
              "flipped-count": "play for the most tiles shut alone", "digits": "play for the lowest digit score alone"}


def play_name(how: str) -> str:
    """How a seat's fixed play reads: an objective played for alone (``play for the win alone``), or a policy's
    name."""
    return GOAL_ALONE.get(how) or named(how)


play_name.unit = "play"


# -- words that follow the numbers --------------------------------------------------------------------------
NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


def plural(count: int, noun: str, many: str | None = None, *, words: bool = False) -> str:
    """``1 board``, ``3 boards``, ``no board`` (``many``: an irregular plural); ``words=True`` spells counts up to
    twelve."""
    if int(count) == 0:
        return f"no {noun}"
    shown = NUMBER_WORDS.get(int(count), f"{int(count):,}") if words else f"{int(count):,}"
    return f"{shown} {noun if count == 1 else (many or noun + 's')}"


def agrees(count: int, one: str, many: str) -> str:
    """The verb that agrees with a count as :func:`plural` writes it: ``one`` for ``no board`` and ``1 board``,
    ``many`` for ``3 boards``."""
    return one if int(count) in (0, 1) else many


def counted(noun: str, many: str | None = None, *, words: bool = False) -> Callable:
    """A format for a count with its noun: ``counted("board")(3)`` -> ``3 boards`` (see :func:`plural`)."""
    def show(count) -> str:
        return plural(count, noun, many, words=words)
    show.unit = "integer"
    show.decimals = 0
    return show


def listing(items: Sequence[str], most: int = 6, conjunction: str = "and") -> str:
    """``a, b and c``; past ``most`` items the rest are counted: ``a, b, c, d, e, f and 12 more`` (one more is
    named: "and 1 more" saves no words)."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) > most + 1:
        return ", ".join(items[:most]) + f" {conjunction} {len(items) - most:,} more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def relation(a, b) -> str:
    """How ``a`` compares with ``b``: ``more``, ``less`` or ``the same`` (the engine's value equality,
    :func:`stb_core.choice.same_value`: exact for fractions and integers, within its tolerance for floats)."""
    if isinstance(a, int | Fraction) and isinstance(b, int | Fraction):
        return "the same" if a == b else ("more" if a > b else "less")
    a, b = float(a), float(b)
    if same_value(a, b):
        return "the same"
    return "more" if a > b else "less"


def apart(fmt: Callable, decimals: int, a, b, most: int = 8) -> Callable:
    """The format ``fmt(d)`` at the fewest decimals ``d`` (from ``decimals``, at most ``most``) that print ``a`` and
    ``b`` differently when they differ (:func:`relation`), so that a comparison never sets two figures side by side
    that read the same: ``4.32%`` against ``4.32%`` becomes ``4.3198%`` against ``4.3207%``. Equal values keep
    ``decimals``."""
    show = fmt(decimals)
    if relation(a, b) == "the same":
        return show
    while show(a) == show(b) and decimals < most:
        decimals += 1
        show = fmt(decimals)
    return show


def dice_words(dice: int, sides: int = 6) -> str:
    """``two dice``, ``one die``, ``three 4-sided dice``: six-sided dice need no size."""
    count = NUMBER_WORDS.get(dice, str(dice))
    size = "" if sides == 6 else f"{sides}-sided "
    return f"{count} {size}{'die' if dice == 1 else 'dice'}"


def all_dice(rules) -> str:
    """The dice a rules value rolls, in words: ``two dice``, ``four 20-sided dice``."""
    return dice_words(rules.dice, rules.sides)


def roll_or_dice(roll) -> str:
    """A decision's roll in a table: the roll, or ``dice`` for the choice of dice made before it (roll -1)."""
    return "dice" if int(roll) < 0 else str(int(roll))


def a_roll(roll) -> str:
    """The roll with its article: a total ``a 7``, ``an 8``, ``an 11``, ``an 18``; dice as a dice-based rule's
    table writes them (``3,4``) die by die: ``a 3 and a 4``."""
    spoken = [str(int(d)) for d in str(roll).split(",")]
    return " and ".join(f"an {d}" if d.startswith("8") or d in ("11", "18") else f"a {d}" for d in spoken)


a_roll.unit = "roll"


def tiles_range(tiles: int) -> str:
    """``tiles 1–9`` (``tile 1`` for a one-tile board)."""
    return "tile 1" if tiles == 1 else f"tiles 1–{tiles}"


def tiles_of(rules, *sizes: int) -> str:
    """The boards a run plays, in words: ``tiles 1–9`` (``tiles 1–9 and 1–10`` for each of ``sizes``; default the
    run's), and on Double Shutter ``tiles 1–5 of a Double Shutter`` (the front row's tiles)."""
    first, *more = dict.fromkeys(sizes or (rules.tiles,))
    text = tiles_range(first) + "".join(f" and {'tile 1' if n == 1 else f'1–{n}'}" for n in more)
    return text + (" of a Double Shutter" if rules.layout == "double-shutter" else "")


def ranges(values: Sequence[int], conjunction: str = "and") -> str:
    """``[1, 2, 3, 5, 7, 8]`` -> ``1–3, 5, 7 and 8`` (``conjunction="or"``: ``1–3, 5, 7 or 8``, the totals a board
    may have)."""
    runs, start = [], None
    values = list(values)
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            runs += [f"{start}\u2013{v}"] if v >= start + 2 else [str(x) for x in range(start, v + 1)]
            start = None
    return listing(runs, most=len(runs), conjunction=conjunction)


@dataclass(frozen=True)
class Winning:
    """How a page says that a game is won, true for the run's rules: the box shut (every tile down), or, under a
    threshold ``W``, the open tiles at ``W`` or less (``at`` is then ``" (at W or less left)"``)."""

    subject: str   # "the box" / "the game"
    done_word: str  # "shut" / "won"
    at: str = ""   # "" / " (at 3 or less left)"

    @property
    def noun(self) -> str:
        """``shutting the box`` / ``winning (at 3 or less left)``."""
        return "shutting the box" if not self.at else f"winning{self.at}"

    @property
    def does(self) -> str:
        """``shuts the box`` / ``wins (at 3 or less left)``."""
        return "shuts the box" if not self.at else f"wins{self.at}"

    @property
    def do(self) -> str:
        """``shut the box`` / ``win (at 3 or less left)``."""
        return "shut the box" if not self.at else f"win{self.at}"

    @property
    def done(self) -> str:
        """``the box is shut`` / ``the game is won (at 3 or less left)``."""
        return f"{self.subject} is {self.done_word}{self.at}"

    @property
    def never(self) -> str:
        """``the box is never shut`` / ``the game is never won (at 3 or less left)``."""
        return f"{self.subject} is never {self.done_word}{self.at}"

    @property
    def can(self) -> str:
        """``the box can be shut`` / ``the game can be won (at 3 or less left)``."""
        return f"{self.subject} can be {self.done_word}{self.at}"

    @property
    def short(self) -> str:
        """A column's few words: ``P(shut the box)`` / ``P(win)``."""
        return "P(shut the box)" if not self.at else "P(win)"

    @property
    def reached(self) -> str:
        """A column's words for the chance of a game won: ``P(shut the box)`` / ``P(3 or less left)``."""
        return "P(shut the box)" if not self.at else f"P({self.at.strip(' ()').removeprefix('at ')})"

    @property
    def a_won_game(self) -> str:
        """``a shut box`` / ``a win (at 3 or less left)``."""
        return "a shut box" if not self.at else f"a win{self.at}"

    @property
    def chance(self) -> str:
        return f"the chance of {self.noun}"

    @property
    def axis(self) -> str:
        """An axis label: ``chance of shutting the box``."""
        return f"chance of {self.noun}"


def winning(rules) -> Winning:
    """The words for a won game under ``rules`` (:class:`Winning`): "shut the box" only when winning is shutting
    every tile."""
    if rules.win_at_most == 0:
        return Winning("the box", "shut")
    return Winning("the game", "won", f" (at {rules.win_at_most} or less left)")
