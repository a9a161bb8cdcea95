"""Reproduction checks: every figure and statement a source published, against what the engine computes now.

``data/published/<stem>.csv`` lists them, one row each, with its citation:

* ``claim_id``: the distinct claim a row belongs to -- a figure and its rounded or boxed restatements, or a
  simulated rate and the exact value it stands for, are one claim (the index's verdict sheet has a row per claim);
* ``kind``: ``figure`` (a number, list or set the source computed; compared within ``tolerance`` or exactly)
  or ``statement`` (a claim the source makes, which the notebook tests and reports as holding or not);
* ``unit``: how the figure reads -- ``probability`` (written as a percentage at the printed precision: 0.0388 is
  3.88%, the same style as every probability of the report), ``percent``, or empty (as printed);
* ``expected``: what this notebook says about the claim on the source's own game -- ``holds`` (it reproduces
  the figure, or confirms the statement) or ``fails`` (it shows the source wrong: a finding).

**How a claim is judged** (:data:`STANDARD`, printed on the index): one standard for every source.

Verdicts: a figure is **reproduced** (✓) or **off** (✗: the source printed another value; the right one is
shown beside it); a statement **holds** (✓) or is **contradicted** (✗). A ✗ is a finding about the source, not
a failure of the build: the build fails only where the engine disagrees with a claim the notebook says it
reproduces (``expected = holds``), as :class:`ReproductionError`. Simulations checked against exact values
are statistical: a value outside its 95% interval is a warning with its z-score (it happens one time in
twenty), a failure only beyond ``Z_FAIL`` standard errors.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

import pandas as pd

from ..sources.words import minus as _minus
from .paths import PUBLISHED_DIR, data_dir, output_root, write_text

PASS, FAIL, NOT_APPLICABLE, WARN = "✓", "✗", "–", "⚠"
from ..sources.findings import RULE_OF_THUMB_PERCENT  # noqa: E402 -- a rule of thumb holds within this % of the optimum

STANDARD = (
    "A published figure is reproduced when the exact value, written at the source's precision, equals the printed "
    "one; otherwise the source's figure is off, and the right value is shown beside it. A statement holds when the "
    "exact solution confirms it as the source means it, with the source's own qualifications, and is contradicted "
    "when the exact solution refutes it. Advice offered as a rule of thumb is judged as one: it holds when a "
    f"player following it keeps within {RULE_OF_THUMB_PERCENT:g}% of the best possible result, and is contradicted "
    "when it loses more, or when the source calls it optimal and it is not.")
VERDICTS = {
    ("figure", True): "reproduced",
    ("figure", False): "the source's figure is off",
    ("statement", True): "holds",
    ("statement", False): "contradicted",
}
Z_FAIL = 6.0  # a simulation this many standard errors from the exact value is an engine error, not chance


class ReproductionError(AssertionError):
    """The engine disagrees with a published claim the notebook says it reproduces."""


def load_published(stem: str) -> pd.DataFrame:
    """The figures and statements a source published, with their citations: ``data/published/<stem>.csv``."""
    table = pd.read_csv(PUBLISHED_DIR / f"{stem}.csv", dtype=str, keep_default_na=False)
    missing = {"key", "claim_id", "role", "kind", "claim", "published", "unit", "tolerance", "expected",
               "citation"} - set(table.columns)
    if missing:
        raise ValueError(f"data/published/{stem}.csv lacks the columns {sorted(missing)}")
    return table


def decimals(text: str) -> int | None:
    """Decimal places of a published number written as text (None if it is not a decimal number)."""
    match = re.fullmatch(r"-?\d+(?:\.(\d+))?", text.strip())
    return None if match is None else len(match.group(1) or "")


def as_read(text: str, unit: str) -> str:
    """A figure as the report writes its kind of quantity: a probability as a percentage at the printed precision
    (``0.0388`` -> ``3.88%``), a percentage with its sign, a large integer with thousands separators; else as it
    is."""
    text = text.strip()
    places = decimals(text)
    if unit == "probability" and places is not None:
        return _minus(f"{100 * float(text):,.{max(places - 2, 0)}f}%")
    if unit == "percent" and places is not None:
        return text + "%"
    return _pretty(text)


def shown_like(published: str, value, unit: str = "") -> str:
    """``value`` written at the published figure's precision: the same decimals, the same denominator for
    a fraction (``168/1296`` beside ``169/1296``), thousands separators for integers; text as it is; a probability
    as a percentage (see :func:`as_read`)."""
    text = published.strip()
    if unit in ("probability", "percent") and decimals(text) is not None and not isinstance(value, str | bool):
        return as_read(f"{float(value):.{decimals(text)}f}", unit)
    if isinstance(value, bool) or isinstance(value, str):
        return str(value)
    if re.fullmatch(r"\d+/\d+", text):
        denominator = int(text.split("/")[1])
        scaled = Fraction(value).limit_denominator(10**12) * denominator
        return f"{scaled.numerator}/{denominator}" if scaled.denominator == 1 else str(Fraction(value))
    places = decimals(text)
    if places is None:
        return str(value)
    if places == 0 and float(value) == round(float(value)):
        return _minus(f"{int(round(float(value))):,}")
    return _minus(f"{float(value):,.{places}f}")


def _published_number(text: str) -> float | None:
    try:
        return float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True)
class Result:
    """One check's outcome."""

    key: str
    kind: str
    claim: str
    claim_id: str
    role: str
    unit: str
    published: str
    computed: str
    tolerance: str
    mark: str
    verdict: str
    expected: str
    citation: str
    z: float | None = None

    @property
    def unexpected(self) -> bool:
        """The engine disagrees with a claim the notebook says holds."""
        return self.expected == "holds" and self.mark == FAIL


@dataclass
class Checks:
    """The checks of one run: published claims (``add``), statistical comparisons (``chance``), and their
    table and record for the index."""

    stem: str
    applicable: bool = True
    results: list[Result] = field(default_factory=list)

    def compare(self, computed: dict) -> Checks:
        """Compare every published row with ``computed[key]``: a number, text, or for a statement a pair
        ``(holds: bool, evidence: str)``. A key left out (or ``applicable=False``: parameters that are not
        the source's game) is "not applicable"."""
        published = load_published(self.stem)
        unknown = set(computed) - set(published["key"])
        if unknown:
            raise KeyError(f"no published claim with key(s) {sorted(unknown)} in {self.stem}.csv")
        for row in published.itertuples(index=False):
            if not self.applicable or row.key not in computed:
                self.results.append(Result(row.key, row.kind, row.claim, row.claim_id, row.role, row.unit,
                                           row.published, "",
                                           row.tolerance, NOT_APPLICABLE, "not applicable to these parameters",
                                           row.expected, row.citation))
                continue
            value = computed[row.key]
            if row.kind == "statement":
                holds, evidence = value
                ok, shown = bool(holds), str(evidence)
            else:
                ok, shown = _matches(row.published, value, row.tolerance), shown_like(row.published, value, row.unit)
            self.results.append(Result(row.key, row.kind, row.claim, row.claim_id, row.role, row.unit,
                                       row.published, shown,
                                       row.tolerance, PASS if ok else FAIL, VERDICTS[row.kind, ok], row.expected,
                                       row.citation))
        return self

    def chance(self, claim: str, simulated: float, exact: float, low: float, high: float, z: float,
               show=None) -> Checks:
        """A simulated value against the exact one: ✓ inside its 95% interval, ⚠ outside it (chance, one time
        in twenty; the z-score says how far), ✗ beyond ``Z_FAIL`` standard errors (not chance). ``show``
        formats the values (e.g. ``present.percent(3)``; six decimals by default)."""
        show = show or (lambda v: _minus(f"{v:.6f}"))
        inside = low <= exact <= high
        far = abs(z) > Z_FAIL
        mark = PASS if inside else (FAIL if far else WARN)
        verdict = ("exact value inside the 95% interval" if inside else
                   "outside the 95% interval: z = " + _minus(f"{z:+.1f}") + ("" if far else " (chance: 1 run in 20)"))
        self.results.append(Result("", "simulation", claim, "", "", "", show(exact), f"{show(simulated)} ({show(low)} "
                                   f"to {show(high)})", "95% interval", mark, verdict, "holds", "", z))
        return self

    def invariant(self, claim: str, value: str, holds: bool) -> Checks:
        """A property the numbers must have (e.g. probabilities adding up to 1)."""
        self.results.append(Result("", "invariant", claim, "", "", "", "—", value, "", PASS if holds else FAIL,
                                   "holds" if holds else "fails", "holds", ""))
        return self

    # -- summaries ------------------------------------------------------------------------------------
    def claims(self) -> list[dict]:
        """The distinct claims of the source (rows of one ``claim_id`` together: a figure and its restatements, a
        simulated rate and its exact value): the first row's claim, every printed figure and the figure computed
        now, and one verdict -- the failing row's if one fails."""
        groups: dict[str, list[Result]] = {}
        for r in self.results:
            if r.kind in ("figure", "statement"):
                groups.setdefault(r.claim_id or r.key, []).append(r)
        out = []
        for claim_id, rows in groups.items():
            failing = next((r for r in rows if r.mark == FAIL), None)
            mark = FAIL if failing else (NOT_APPLICABLE if all(r.mark == NOT_APPLICABLE for r in rows) else PASS)
            main = rows[0]

            def each(text: str, r: Result, several: bool = len(rows) > 1) -> str:
                return f"{text} ({r.role})" if r.role and several else text

            printed = "stated" if main.kind == "statement" else "; ".join(each(as_read(r.published, r.unit), r)
                                                                          for r in rows)
            computed = [r for r in rows if r.computed]
            same = len({r.computed for r in computed}) == 1  # one quantity printed twice: its value once
            shown = computed[0].computed if same else "; ".join(each(r.computed, r) for r in computed)
            out.append({"claim_id": claim_id, "kind": main.kind, "claim": main.claim, "published": printed,
                        "computed": shown, "mark": mark,
                        "verdict": (failing or main).verdict, "rows": len(rows), "citation": main.citation})
        return out

    def counts(self) -> dict[str, int]:
        """How many distinct claims were reproduced (or hold), are off, contradicted, not applicable; warnings."""
        claims = self.claims()
        return {
            "reproduced": sum(c["mark"] == PASS for c in claims),
            "off": sum(c["kind"] == "figure" and c["mark"] == FAIL for c in claims),
            "contradicted": sum(c["kind"] == "statement" and c["mark"] == FAIL for c in claims),
            "not_applicable": sum(c["mark"] == NOT_APPLICABLE for c in claims),
            "warnings": sum(r.mark == WARN for r in self.results),
            "failed_checks": sum(r.mark == FAIL and r.kind in ("simulation", "invariant") for r in self.results),
        }

    def verdict(self) -> str:
        """The page's verdict: reproduced; reproduced, the source's own figure is off; contradicted; or
        not applicable (parameters off the source's game), or none (no source)."""
        counts = self.counts()
        if not any(r.kind in ("figure", "statement") for r in self.results):
            return "no source"
        if counts["not_applicable"] and not (counts["reproduced"] + counts["off"] + counts["contradicted"]):
            return "not applicable"
        if counts["contradicted"]:
            return "contradicted"
        if counts["off"]:
            return "reproduced, the source's own figure is off"
        return "reproduced"

    def table(self) -> pd.DataFrame:
        """The Checks table as the page shows it."""
        return pd.DataFrame([{"claim": r.claim,
                              "published": "stated" if r.kind == "statement" else (
                                  as_read(r.published, r.unit) if r.kind == "figure" else r.published),
                              "computed now": r.computed,
                              "tolerance": _tolerance(r.tolerance, r.unit), "check": r.mark, "verdict": r.verdict}
                             for r in self.results])

    def raise_unexpected(self) -> None:
        """Raise :class:`ReproductionError` for every claim the notebook says holds but the engine does not
        reproduce (and for simulations too far from the exact value to be chance)."""
        bad = [r for r in self.results if r.unexpected]
        if bad:
            lines = "; ".join(f"{r.claim}: published {r.published}, computed {r.computed}" for r in bad)
            raise ReproductionError(f"{self.stem}: the engine disagrees with {len(bad)} claim(s) this notebook "
                                    f"reproduces: {lines}")

    def record(self, run: str, title: str, headline: dict, findings: list[str]) -> dict:
        """The run's record for the index: verdict, counts, headline numbers, findings, every check."""
        return {"run": run, "stem": self.stem, "title": title, "verdict": self.verdict(), "counts": self.counts(),
                "headline": {str(k): str(v) for k, v in headline.items()}, "findings": findings,
                "claims": self.claims(), "checks": [r.__dict__ for r in self.results]}


def _pretty(published: str) -> str:
    text = published.strip()
    return f"{int(text):,}" if re.fullmatch(r"\d{4,}", text) else text


def _tolerance(text: str, unit: str = "") -> str:
    """How a tolerance reads: exact, ± a plain decimal (± 5 × 10⁻⁹ below 10⁻⁴; in percentage points for a
    probability), or as given (a 95% interval)."""
    if not text.strip():
        return "exact"
    try:
        value = float(text)
    except ValueError:
        return text
    if unit == "probability":
        return _tolerance(repr(100 * value)) + " pp"
    if 0 < value < 1e-4:
        mantissa, exponent = f"{value:.0e}".split("e")
        superscript = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
        return f"±{mantissa} × 10{superscript}"
    return "±" + f"{value:.12f}".rstrip("0").rstrip(".")


def _matches(published: str, computed, tolerance: str) -> bool:
    if tolerance.strip():
        expected = _published_number(published)
        try:
            return expected is not None and math.isclose(expected, float(computed), rel_tol=0,
                                                         abs_tol=float(tolerance))
        except (TypeError, ValueError):
            return False
    return published.strip() == str(computed).strip()


def write_record(run: str, record: dict) -> None:
    """``data/<run>/checks.json``: the run's record for the index."""
    write_text(data_dir(run) / "checks.json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def read_record(run: str) -> dict | None:
    """The record a run wrote, or None."""
    path = output_root() / "data" / run / "checks.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
