"""One verdict rule for every published figure: what the source printed, how it got it, against the exact value.

A figure is judged by how its source obtained it (the ``method`` of its row in ``data/published/``):

* ``exact`` -- the source computed it exactly and printed it at some precision: **reproduced** when the exact value,
  written at that precision (rounded, or truncated where the source truncates), is the printed figure;
* ``approximate`` -- the source wrote "about" a round number (``about 14800``): reproduced when the exact value
  rounds to it at the place of its last non-zero digit;
* ``simulated`` -- the source played ``games`` games: reproduced when the exact value lies inside the 99.9%
  interval of a simulation of that many games around the printed figure (``Z`` standard errors, the standard error
  of a rate ``sqrt(p (1 - p) / n)``, of a mean the exact standard deviation over ``sqrt(n)``), widened by half a
  unit of the last printed digit; without ``games`` (the source does not say) the allowance is that of
  ``ASSUMED_GAMES`` games, and the page says so;
* ``test`` -- a unit test's expected value: reproduced when within the test's own ``delta`` of the exact value.

A figure that is not reproduced is **off**, the right value beside it -- unless the source itself later printed a
figure that is reproduced (``corrected``): then it is **corrected by the source**, with that later citation. A figure
the engine cannot compute for the source's game is **cannot compare**, with the reason. :data:`STANDARD` is this
rule in words, printed on the index as it is applied here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction

Z = 3.2905267314919255  # two-sided 99.9% normal quantile
CONFIDENCE = "99.9%"
ASSUMED_GAMES = 10_000  # the allowance for a simulated figure whose source does not say how many games it played
METHODS = ("exact", "approximate", "simulated", "test")
REPRODUCED, OFF, CORRECTED, CANNOT = ("reproduced", "the source's figure is off", "corrected by the source",
                                     "cannot compare")
MARKS = {REPRODUCED: "✓", OFF: "✗", CORRECTED: "✓", CANNOT: "–"}

STANDARD = (
    "A published figure is judged by how its source obtained it. A figure computed exactly is reproduced when the "
    "exact value, written at the precision the source printed (rounded, or cut off where the source cuts), is the "
    "printed figure; a figure written as “about” a round number, when the exact value rounds to it. A figure from "
    f"a simulation is reproduced when the exact value lies inside the {CONFIDENCE} interval of a simulation of as "
    f"many games as the source played, around the printed figure, widened by half its last printed digit; where "
    f"the source does not say how many games, the interval of {ASSUMED_GAMES:,} games is used, and the page says "
    "so. A unit test's expected value is reproduced when it lies within the test's own tolerance. Otherwise the "
    "figure is off, and the right value is shown beside it; if the source later printed a figure that is "
    "reproduced, it is “corrected by the source”, with that citation. The report's own simulations are checks of "
    "the engine, never evidence for a source's figure.")


@dataclass(frozen=True)
class Printed:
    """A figure as its source printed it: its text (``"3.88"``, ``"956177159/9795520512"``, ``"{3, 5}"``), its unit
    (``percent``, ``probability`` -- printed as a fraction of 1 -- or ``""``), how it was obtained (``method``), the
    games of a simulation (None: not stated), a unit test's ``delta``, whether the source cut digits off instead of
    rounding (``truncated``), and a later figure of the same source (``corrected``, with its citation)."""

    text: str
    unit: str = ""
    method: str = "exact"
    games: int | None = None
    delta: float | None = None
    truncated: bool = False
    corrected: str = ""
    corrected_citation: str = ""

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}; got {self.method!r}")
        if self.method == "test" and self.delta is None:
            raise ValueError(f"a test figure needs its delta: {self.text!r}")

    @property
    def number(self) -> Fraction | None:
        """The printed figure as a number (in the unit it is printed in), or None for a text."""
        try:
            return Fraction(self.text.strip().replace(",", ""))
        except (ValueError, ZeroDivisionError):
            return None

    @property
    def places(self) -> int | None:
        """Decimal places printed (negative: an "about" integer's trailing zeros), None for a fraction or text."""
        text = self.text.strip().replace(",", "")
        match = re.fullmatch(r"-?\d+(?:\.(\d+))?", text)
        if match is None:
            return None
        if self.method == "approximate" and match.group(1) is None:
            return -(len(text) - len(text.rstrip("0")))
        return len(match.group(1) or "")


@dataclass(frozen=True)
class Verdict:
    """What :func:`judge` finds: the verdict, its mark, the computed value written like the printed one, the
    allowance applied (in words, for the page) and why, when it cannot compare."""

    verdict: str
    shown: str
    allowance: str
    reason: str = ""

    @property
    def mark(self) -> str:
        return MARKS[self.verdict]

    @property
    def holds(self) -> bool:
        """Whether the source's figure stands (reproduced, or corrected by the source)."""
        return self.verdict in (REPRODUCED, CORRECTED)


def printed_of(row) -> Printed:
    """A row of ``data/published/`` as :func:`judge` reads it."""
    return Printed(row.published, row.unit, row.method or "exact", int(row.games) if row.games else None,
                   float(row.delta) if row.delta else None, row.truncated == "True", row.corrected,
                   row.corrected_citation)


def scale(unit: str) -> int:
    """How many printed units one unit of the computed value is: 100 for a percentage, else 1."""
    return 100 if unit == "percent" else 1


def at_precision(value, places: int, truncated: bool = False) -> Decimal:
    """``value`` written with ``places`` decimals (negative: to tens, hundreds...), rounded half up or cut off."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    quantum = Decimal(1).scaleb(-places)
    return exact.quantize(quantum, rounding=ROUND_DOWN if truncated else ROUND_HALF_UP)


def allowance(printed: Printed, exact: float, sd: float | None) -> float:
    """How far (in printed units) a simulated figure may lie from the exact value: ``Z`` standard errors of the
    source's games, and half a unit of its last printed digit."""
    games = printed.games or ASSUMED_GAMES
    if sd is None:  # a rate: its standard deviation follows from the exact chance itself
        p = exact / scale(printed.unit)
        sd = math.sqrt(max(p * (1 - p), 0.0)) * scale(printed.unit)
    places = printed.places if printed.places is not None else 12
    return Z * sd / math.sqrt(games) + 0.5 * 10.0 ** -places


def judge(printed: Printed, exact, sd: float | None = None, shown=None) -> Verdict:
    """The verdict on one figure (see the module docstring): ``exact`` is the exact value (a number in the computed
    unit -- a fraction of 1 for a percentage --, a Fraction, or a text for a list, set or name); ``sd`` the exact
    standard deviation of one game's outcome for a simulated mean; ``shown`` how to write the computed value for
    the page (default: like the printed figure)."""
    if exact is None:
        return Verdict(CANNOT, "", "", shown or "the engine does not compute this figure for the source's game")
    verdict = _first_verdict(printed, exact, sd)
    text = shown if shown is not None else written_like(printed, exact)
    if verdict.verdict == OFF and printed.corrected:
        later = _first_verdict(Printed(printed.corrected, printed.unit, printed.method, printed.games, printed.delta,
                                       printed.truncated), exact, sd)
        if later.verdict == REPRODUCED:
            return Verdict(CORRECTED, text, verdict.allowance)
    return Verdict(verdict.verdict, text, verdict.allowance)


def _first_verdict(printed: Printed, exact, sd) -> Verdict:
    number = printed.number
    if number is None or isinstance(exact, str):  # a list, a set, a name: as printed
        same = _normal(printed.text) == _normal(str(exact))
        return Verdict(REPRODUCED if same else OFF, "", "as printed")
    value = Fraction(exact) * scale(printed.unit) if not isinstance(exact, float) else exact * scale(printed.unit)
    if printed.method == "test":
        ok = abs(float(number) - float(value)) <= printed.delta
        return Verdict(REPRODUCED if ok else OFF, "", f"the test's own tolerance, ±{printed.delta:g}")
    if printed.method == "simulated":
        width = allowance(printed, float(value), None if sd is None else sd * scale(printed.unit))
        ok = abs(float(number) - float(value)) <= width
        games = f"{printed.games:,} games" if printed.games else f"{ASSUMED_GAMES:,} games (the source does not say)"
        return Verdict(REPRODUCED if ok else OFF, "",
                       f"{CONFIDENCE} interval of {games}: ±{_in_points(width, printed.unit)}")
    places = printed.places
    if places is None:  # a fraction: exactly (a value computed in floating point, to its rounding)
        ok = Fraction(value) == number if not isinstance(value, float) else \
            math.isclose(float(number), value, rel_tol=1e-12, abs_tol=1e-15)
        return Verdict(REPRODUCED if ok else OFF, "", "exact")
    ok = at_precision(Fraction(value) if not isinstance(value, float) else value, places, printed.truncated) \
        == Decimal(printed.text.strip().replace(",", ""))
    how = "cut off" if printed.truncated else "rounded"
    shown = places - 2 if printed.unit == "probability" else places  # the page writes a probability in percent
    where = (f"{shown} decimal{'s' if shown > 1 else ''}" if shown > 0 else "a whole number" if shown == 0
             else f"the nearest {10 ** -shown:,}")
    if printed.method == "approximate":
        return Verdict(REPRODUCED if ok else OFF, "", f"“about”: rounded to {where}")
    return Verdict(REPRODUCED if ok else OFF, "", f"exact, {how} to {where}")


def written_like(printed: Printed, exact) -> str:
    """The computed value written like the printed figure: its decimals (a percentage with %), its denominator for
    a fraction, thousands separators for a whole number; a text as it is."""
    if isinstance(exact, str):
        return exact
    value = Fraction(exact) if not isinstance(exact, float) else exact
    value = value * scale(printed.unit)
    suffix = "%" if printed.unit == "percent" else ""
    text = printed.text.strip()
    if re.fullmatch(r"\d+/\d+", text):
        denominator = int(text.split("/")[1])
        scaled = Fraction(value).limit_denominator(10**12) * denominator
        return f"{scaled.numerator}/{denominator}" if scaled.denominator == 1 else str(Fraction(value))
    places = printed.places
    if places is None:
        return str(exact)
    value = Fraction(value) if not isinstance(value, float) else value
    about = printed.method == "approximate" and places < 0
    grouped = "," in text or about
    shown = (2 if abs(value) < 100 else 0) if about else max(places, 0)  # "about" a round number: the exact figure
    written = f"{at_precision(value, shown, printed.truncated):{',' if grouped else ''}}{suffix}"
    if about:  # and the round number it is about
        written += f", about {at_precision(value, places):,.0f}{suffix}"
    return written.replace("-", "\u2212")


def _in_points(width: float, unit: str) -> str:
    """An allowance as the page writes the figure: in percentage points for a percentage or a probability (the
    report writes probabilities as percentages), else in the figure's own unit."""
    if unit == "probability":
        width *= 100
    return _short(width) + (" pp" if unit in ("percent", "probability") else "")


def _short(width: float) -> str:
    """An allowance written with two significant digits."""
    return f"{width:.2g}" if width < 1 else f"{width:,.1f}"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())
