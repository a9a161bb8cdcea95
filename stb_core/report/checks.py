"""Reproduction checks: every figure and statement a source published, against what the engine computes now.

``data/published/<stem>.csv`` lists them, one row each, with its citation:

* ``claim_id``: the distinct claim a row belongs to -- a figure and its rounded or boxed restatements are one claim
  (the index's verdict sheet has a row per claim);
* ``kind``: ``figure`` (a number, list or set the source computed) or ``statement`` (a claim the source makes,
  which the notebook tests and reports as holding or not);
* ``published``, ``unit`` (``probability``: printed as a fraction of 1 and shown as a percentage at the printed
  precision, 0.0388 is 3.88%; ``percent``; or empty), and how the source obtained the figure -- ``method``
  (``exact``, ``approximate``, ``simulated`` with its ``games``, ``test`` with its ``delta``), ``truncated`` when
  it cut digits off, and a later figure of the same source (``corrected``, ``corrected_citation``): what
  :func:`stb_core.sources.verdicts.judge` reads, never a tolerance set by hand;
* ``same_as``: ``<stem>:<key>`` -- the figure is another page's, judged there and here alike (one home each);
* ``expected``: what this notebook says about the claim on the source's own game -- ``holds`` (it reproduces the
  figure, or confirms the statement) or ``fails`` (it shows the source wrong: a finding);
* ``source`` (the key of its write-up in ``sources.csv`` or ``references.csv``) and ``citation``.

**How a claim is judged** (:data:`STANDARD`, printed on the index): :mod:`stb_core.sources.verdicts`, one rule for
every source. A figure is **reproduced**, **corrected by the source**, **off** (the right value beside it) or
**cannot compare**; a statement **holds** or is **contradicted**. A ✗ is a finding about the source, not a failure
of the build: the build fails only where the engine disagrees with what the notebook says of a claim -- one it says
it reproduces (``expected = holds``) fails, or one it says the source gets wrong (``fails``) reproduces -- as
:class:`ReproductionError`. The page's own simulations, checked against exact values,
are statistical: a value outside its 95% interval is a warning with its z-score (it happens one time in twenty), a
failure only beyond ``Z_FAIL`` standard errors; they are checks of the engine, never evidence for a source.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import pandas as pd

from ..sources.findings import Computed
from ..sources.published import (  # noqa: F401 -- the published claims, re-exported for the pages and notebooks
    COLUMNS,
    SHARED,
    as_read,
    brief_reference,
    decimals,
    load_published,
    reference_parts,
    references,
    repeated_claims,
    short_reference,
)
from ..sources.verdicts import CANNOT, CORRECTED, OFF, STANDARD, judge, printed_of  # noqa: F401 (the index)
from ..sources.words import minus as _minus
from .paths import data_dir, output_root, write_text

PASS, FAIL, NOT_APPLICABLE, WARN = "✓", "✗", "–", "⚠"
SUM_ROUNDING = 1e-9  # relative: a mean of equal outcomes meets the exact value only to the rounding of its sum
Z_FAIL = 6.0  # a simulation this many standard errors from the exact value is an engine error, not chance



class ReproductionError(AssertionError):
    """The engine disagrees with a published claim the notebook says it reproduces."""


def tally_claims(claims: list[dict]) -> dict[str, int]:
    """How many of a record's ``claims`` were reproduced (or hold), corrected by the source, off (a figure),
    contradicted (a statement), could not be compared, are not applicable."""
    return {
        "reproduced": sum(c["mark"] == PASS and c["verdict"] != CORRECTED for c in claims),
        "corrected": sum(c["verdict"] == CORRECTED for c in claims),
        "off": sum(c["kind"] == "figure" and c["mark"] == FAIL for c in claims),
        "contradicted": sum(c["kind"] == "statement" and c["mark"] == FAIL for c in claims),
        "cannot_compare": sum(c["verdict"] == CANNOT for c in claims),
        "not_applicable": sum(c["mark"] == NOT_APPLICABLE and c["verdict"] != CANNOT for c in claims),
    }


def chance_odds(z: float) -> int:
    """How many runs, one of which falls at least ``|z|`` standard errors from the exact value by chance alone
    (two-sided, normal): 20 at z = 1.96, 28 at 2.1."""
    return round(1 / math.erfc(abs(z) / math.sqrt(2)))


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
    allowance: str
    mark: str
    verdict: str
    expected: str
    citation: str
    source: str = ""
    z: float | None = None

    @property
    def unexpected(self) -> bool:
        """The engine disagrees with what the notebook says of the claim: one it says holds fails, or one it says
        fails holds (a finding the page would state that the numbers no longer bear out)."""
        return (self.expected == "holds" and self.mark == FAIL) or (self.expected == "fails" and self.mark == PASS)


def _printed_text(row) -> str:
    """The figure as the page prints it: as read, and a later figure of the source beside it."""
    if row.kind == "statement":
        return "stated"
    text = as_read(row.published, row.unit)
    if row.corrected:
        text += f" (first printed); {as_read(row.corrected, row.unit)} (printed later)"
    return text


@dataclass
class Checks:
    """The checks of one run: published claims (``compare``), statistical comparisons (``chance``), and their
    table and record for the index."""

    stem: str
    applicable: bool = True
    results: list[Result] = field(default_factory=list)

    def compare(self, computed: dict) -> Checks:
        """Compare every published row with ``computed[key]``: a value or a :class:`Computed`, or for a statement a
        pair ``(holds: bool, evidence: str)``. A key left out (or ``applicable=False``: parameters that are not the
        source's game) is "not applicable"."""
        published = load_published(self.stem)
        unknown = set(computed) - set(published["key"])
        if unknown:
            raise KeyError(f"no published claim with key(s) {sorted(unknown)} in {self.stem}.csv")
        for row in published.itertuples(index=False):
            common = dict(key=row.key, kind=row.kind, claim=row.claim, claim_id=row.claim_id, role=row.role,
                          unit=row.unit, published=_printed_text(row), expected=row.expected, citation=row.citation,
                          source=row.source)
            if not self.applicable or row.key not in computed:
                self.results.append(Result(**common, computed="", allowance="", mark=NOT_APPLICABLE,
                                           verdict="not applicable to these parameters"))
                continue
            value = computed[row.key]
            if row.kind == "statement":
                holds, evidence = value
                self.results.append(Result(**common, computed=str(evidence), allowance="",
                                           mark=PASS if holds else FAIL,
                                           verdict="holds" if holds else "contradicted"))
                continue
            value = value if isinstance(value, Computed) else Computed(value)
            found = judge(printed_of(row), value.value, value.sd, value.shown)
            shown = found.shown if value.shown is not None else as_read(found.shown, row.unit)  # as published
            self.results.append(Result(**common, computed=shown or found.reason, allowance=found.allowance,
                                       mark=FAIL if found.verdict == OFF else NOT_APPLICABLE
                                       if found.verdict == CANNOT else PASS, verdict=found.verdict))
        return self

    def chance(self, claim: str, simulated: float, exact: float, low: float, high: float, z: float,
               show=None, bound: float | None = None) -> Checks:
        """A simulated value against the exact one: ✓ inside its 95% interval, ⚠ outside it (chance, one time
        in twenty; the z-score says how far), ✗ beyond ``Z_FAIL`` standard errors (not chance) -- and, where a
        ``bound`` is given, farther from the exact value than it: the distance chance cannot reach whatever the
        distribution (a normal z-score misleads for rare events). ``show`` formats the values (e.g.
        ``present.percent(3)``; six decimals by default)."""
        show = show or (lambda v: _minus(f"{v:.6f}"))
        slack = SUM_ROUNDING * max(1.0, abs(exact))  # an outcome that never varies: an interval of zero width
        inside = low - slack <= exact <= high + slack
        far = abs(z) > Z_FAIL and (bound is None or abs(simulated - exact) > bound)
        mark = PASS if inside else (FAIL if far else WARN)
        verdict = ("exact value inside the 95% interval" if inside else
                   "outside the 95% interval: z = " + _minus(f"{z:+.1f}") + ("" if far else f" (by chance about 1 run "
                                                                               f"in {chance_odds(z)} is as far out)"))
        self.results.append(Result("", "simulation", claim, "", "", "", show(exact), f"{show(simulated)} ({show(low)} "
                                   f"to {show(high)})", "95% interval", mark, verdict, "holds", "", z=z))
        return self

    def invariant(self, claim: str, value: str, holds: bool) -> Checks:
        """A property the numbers must have (e.g. probabilities adding up to 1)."""
        self.results.append(Result("", "invariant", claim, "", "", "", "—", value, "", PASS if holds else FAIL,
                                   "holds" if holds else "fails", "holds", ""))
        return self

    # -- summaries ------------------------------------------------------------------------------------
    def claims(self) -> list[dict]:
        """The distinct claims of the source (rows of one ``claim_id`` together: a figure and its restatements): the
        first row's claim, every printed figure and the figure computed now, who printed it, and one verdict -- the
        failing row's if one fails."""
        groups: dict[str, list[Result]] = {}
        for r in self.results:
            if r.kind in ("figure", "statement"):
                groups.setdefault(r.claim_id or r.key, []).append(r)
        out = []
        for claim_id, rows in groups.items():
            failing = next((r for r in rows if r.mark == FAIL), None)
            main = failing or rows[0]
            mark = FAIL if failing else (NOT_APPLICABLE if all(r.mark == NOT_APPLICABLE for r in rows) else PASS)

            def each(text: str, r: Result, several: bool = len(rows) > 1) -> str:
                return f"{text} ({r.role})" if r.role and several else text

            printed_ = "stated" if main.kind == "statement" else "; ".join(each(r.published, r) for r in rows)
            computed = [r for r in rows if r.computed]
            same = len({r.computed for r in computed}) == 1  # one quantity printed twice: its value once
            shown = computed[0].computed if same else "; ".join(each(r.computed, r) for r in computed)
            out.append({"claim_id": claim_id, "kind": main.kind, "claim": rows[0].claim, "published": printed_,
                        "computed": shown, "mark": mark, "verdict": main.verdict, "allowance": main.allowance,
                        "rows": len(rows), "source": rows[0].source, "by": brief_reference(rows[0].source),
                        "citation": rows[0].citation})
        return out

    def counts(self) -> dict[str, int]:
        """How many distinct claims were reproduced (or hold), corrected by the source, off, contradicted, could not
        be compared, are not applicable; warnings."""
        return {
            **tally_claims(self.claims()),
            "warnings": sum(r.mark == WARN for r in self.results),
            "failed_checks": sum(r.mark == FAIL and r.kind in ("simulation", "invariant") for r in self.results),
        }

    def verdict(self) -> str:
        """The page's verdict: all reproduced; a figure off (or some figures off); a claim contradicted; not
        applicable (parameters off the source's game); or none (no source)."""
        counts = self.counts()
        if not any(r.kind in ("figure", "statement") for r in self.results):
            return "no source"
        if counts["not_applicable"] and not (counts["reproduced"] + counts["corrected"] + counts["off"]
                                             + counts["contradicted"]):
            return "not applicable"
        if counts["contradicted"]:
            return "a claim contradicted"
        if counts["off"]:
            return "a figure off" if counts["off"] == 1 else "some figures off"
        return "all reproduced"

    def table(self) -> pd.DataFrame:
        """The Checks table as the page shows it: each figure with who printed it, the figure computed now, the
        allowance the verdict applied and the verdict."""
        return pd.DataFrame([{"claim": r.claim, "printed by": brief_reference(r.source), "published": r.published,
                              "computed now": r.computed, "allowance": r.allowance, "check": r.mark,
                              "verdict": r.verdict} for r in self.results])

    def raise_unexpected(self) -> None:
        """Raise :class:`ReproductionError` for every claim the engine judges otherwise than the notebook says (and
        for simulations too far from the exact value to be chance)."""
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


def write_record(run: str, record: dict) -> None:
    """``data/<run>/checks.json``: the run's record for the index."""
    write_text(data_dir(run) / "checks.json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def read_record(run: str) -> dict | None:
    """The record a run wrote, or None."""
    path = output_root() / "data" / run / "checks.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
