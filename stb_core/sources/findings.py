"""Findings as computed data: a sentence together with the facts it states, each traced to a table and columns.

A chapter never prints a result from a template written for one game. Its module in :mod:`stb_core.sources`
builds each sentence from the run's own tables: every number, comparison, count or board named in the sentence
is a :class:`Fact`, made from a :class:`Table` (a DataFrame under the name it is exported as, ``<name>.csv``)
by a small query -- a cell, a count of rows, a sum, a largest value, the first row in a stated order -- or
derived from other facts (a difference, a ratio, a comparison). The fact keeps the query, the value and the
text it shows, so the findings audit of the tests can re-derive every fact from the exported CSV files with
its own code and check that the sentence shows what the tables hold.

A query ``where`` is a list of ``(column, op, value)`` with ``op`` one of ``== != < <= > >= in``. Aggregations:
``value`` (the one row left), ``count``, ``sum``, ``max``, ``min``, ``mean``, ``median``, ``nunique``, ``first``
(the first row once sorted by ``order``: ``[(column, "asc" | "desc"), ...]``, stably), ``all``, ``any`` and
``list`` (the column's values, in order). Derivations: ``difference`` (a - b), ``ratio`` (a / b), ``relation``
(``more`` / ``less`` / ``the same`` of a against b), ``equal`` (a == b, within the value tolerance). A fact may
also state a run parameter (``parameter``) or a property of the rules (``rules``: ``states``, ``total``...).

A sentence's preconditions are facts too. Where the wording depends on what a fact holds (a count above zero,
two players, the objective it speaks of), the sentence asks ``s.holds(fact, op, bound)``: the answer picks the
wording, and the fact is kept with the condition that held (``requires``: ``count > 0``, or its negation
``count <= 0`` for the other wording). A finding whose recorded condition is false cannot be made, and the
findings audit re-derives each such fact from the exported tables and checks the condition again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from ..choice import VALUE_RTOL
from .words import relation

RULE_OF_THUMB_PERCENT = 2.5  # the standard for advice: it holds when following it keeps within this % of the optimum
OPS = {"==": lambda s, v: s == v, "!=": lambda s, v: s != v, "<": lambda s, v: s < v, "<=": lambda s, v: s <= v,
       ">": lambda s, v: s > v, ">=": lambda s, v: s >= v, "in": lambda s, v: s.isin(list(v))}
CONDITIONS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
              "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
              "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}
NEGATION = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}
AGGREGATIONS = ("value", "count", "sum", "max", "min", "mean", "median", "nunique", "first", "all", "any", "list")
DERIVATIONS = ("difference", "ratio", "relation", "equal")


def _hashable(value):
    """A list as a tuple (a condition's bound is kept in a tuple of conditions; a list value compares with it)."""
    return tuple(value) if isinstance(value, list) else value


def plain(value):
    """A value as JSON keeps it: numpy scalars as Python numbers, fractions as ``p/q`` text, tuples as lists."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else value.numerator
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Fact:
    """One thing a sentence states: its ``value``, the text ``shown`` for it, and where it comes from."""

    name: str
    value: object
    shown: str = ""
    unit: str = "text"          # how ``shown`` writes the value: percent, pp, number, share, integer, fraction, text
    decimals: int | None = None
    table: str | None = None    # the exported table (``<table>.csv``) a query reads
    column: str | None = None
    where: tuple = ()
    agg: str | None = None
    order: tuple = ()
    derive: str | None = None   # or a derivation from the facts named in ``of``
    of: tuple[str, ...] = ()
    parameter: str | None = None  # or a run parameter
    rules: str | None = None      # or a property of the run's rules
    requires: tuple = ()          # the sentence's preconditions on the value: ((op, bound), ...), each must hold

    def meets(self) -> list[str]:
        """The preconditions the value fails, in words (none: the sentence may be printed)."""
        return [f"{self.name} {op} {bound!r} (it is {self.value!r})" for op, bound in self.requires
                if not CONDITIONS[op](_hashable(self.value), bound)]

    def show(self, fmt: Callable | None = None) -> Fact:
        """This fact as ``fmt`` writes it (``fmt``: a format of :mod:`stb_core.sources.words`, or None for text)."""
        if fmt is None:
            shown = self.value if isinstance(self.value, str) else str(self.value)
            return _replace(self, shown=shown, unit="text", decimals=None)
        return _replace(self, shown=fmt(self.value), unit=getattr(fmt, "unit", "text"),
                        decimals=getattr(fmt, "decimals", None))

    def record(self) -> dict:
        """The fact as the findings file keeps it."""
        out = {"name": self.name, "value": plain(self.value), "shown": self.shown, "unit": self.unit}
        for key in ("decimals", "table", "column", "agg", "derive", "parameter", "rules"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.where:
            out["where"] = [[c, op, plain(v)] for c, op, v in self.where]
        if self.order:
            out["order"] = [list(o) for o in self.order]
        if self.of:
            out["of"] = list(self.of)
        if self.requires:
            out["requires"] = [[op, plain(bound)] for op, bound in self.requires]
        return out


def _replace(fact: Fact, **changes) -> Fact:
    from dataclasses import replace

    return replace(fact, **changes)


def equal_to(column: str, value: float, floor: float = 0.0) -> list:
    """The conditions keeping the rows whose ``column`` is ``value`` as float values are compared: within
    ``VALUE_RTOL`` of it, relatively, or within ``floor`` where that is wider (a nil as the page prints it)."""
    band = max(abs(value) * VALUE_RTOL, floor)
    return [(column, ">=", value - band), (column, "<=", value + band)]


def _where(frame: pd.DataFrame, where) -> pd.DataFrame:
    keep = np.ones(len(frame), dtype=bool)
    for column, op, value in where:
        if op not in OPS:
            raise ValueError(f"op must be one of {', '.join(OPS)}; got {op!r}")
        keep &= np.asarray(OPS[op](frame[column], value), dtype=bool)
    return frame[keep]


def query(frame: pd.DataFrame, column: str | None, agg: str, where=(), order=()):
    """Evaluate a fact's query on ``frame`` (the library's side; the audit has its own interpreter)."""
    rows = _where(frame, where)
    if agg == "count":
        return len(rows)
    values = rows[column]
    if agg == "value":
        if len(rows) != 1:
            raise ValueError(f"a 'value' query must leave one row, left {len(rows)} (column {column!r}, where {where})")
        return values.iloc[0]
    if agg == "first":
        if order:
            rows = rows.sort_values([c for c, _ in order], ascending=[d == "asc" for _, d in order], kind="stable")
        if rows.empty:
            raise ValueError(f"a 'first' query found no row (column {column!r}, where {where})")
        return rows[column].iloc[0]
    if agg == "list":
        if order:
            rows = rows.sort_values([c for c, _ in order], ascending=[d == "asc" for _, d in order], kind="stable")
        return list(rows[column])
    if agg == "nunique":
        return int(values.nunique())
    if agg in ("all", "any"):
        return bool(getattr(values.astype(bool), agg)())
    if agg in ("sum", "max", "min", "mean", "median"):
        if values.empty:
            raise ValueError(f"a {agg!r} query found no row (column {column!r}, where {where})")
        if agg == "sum" and pd.api.types.is_integer_dtype(values):  # exact: numpy's 64 bits would wrap around
            return sum(int(v) for v in values)
        return getattr(values, agg)()
    raise ValueError(f"agg must be one of {', '.join(AGGREGATIONS)}; got {agg!r}")


@dataclass(frozen=True)
class Table:
    """A table as it is exported (``<name>.csv``), from which facts are read."""

    name: str
    frame: pd.DataFrame

    def fact(self, name: str, column: str | None = None, agg: str = "value", where=(), order=()) -> Fact:
        """A fact read from this table by a query (see the module docstring)."""
        where = tuple((c, op, tuple(v) if op == "in" else v) for c, op, v in where)
        order = tuple((c, d) for c, d in order)
        value = query(self.frame, column, agg, where, order)
        if isinstance(value, np.generic):
            value = value.item()
        return Fact(name, value, table=self.name, column=column, where=where, agg=agg, order=order)

    def cell(self, name: str, column: str, **equal) -> Fact:
        """The value of ``column`` in the one row where each given column equals its value."""
        return self.fact(name, column, "value", [(c, "==", v) for c, v in equal.items()])

    def count(self, name: str, where=()) -> Fact:
        return self.fact(name, None, "count", where)

    def __len__(self) -> int:
        return len(self.frame)


@dataclass(frozen=True)
class Computed:
    """What the engine computes for a published figure (:mod:`stb_core.report.checks` judges it): the exact
    ``value`` (a number -- a fraction of 1 for a percentage --, a Fraction, or a text), for a simulated mean the
    exact standard deviation ``sd`` of one game's outcome, and optionally how to write it (``shown``); ``value``
    None: the engine cannot compute it (``shown`` says why)."""

    value: object
    sd: float | None = None
    shown: str | None = None


def derived(name: str, derive: str, *facts: Fact) -> Fact:
    """A fact derived from others: ``difference``, ``ratio``, ``relation`` or ``equal``."""
    values = [f.value for f in facts]
    if derive == "difference":
        value = values[0] - values[1]
    elif derive == "ratio":
        value = values[0] / values[1] if values[1] else math.nan
    elif derive == "relation":
        value = relation(values[0], values[1])
    elif derive == "equal":
        if isinstance(values[0], str) or isinstance(values[1], str):
            value = values[0] == values[1]
        else:
            value = relation(values[0], values[1]) == "the same"
    else:
        raise ValueError(f"derive must be one of {', '.join(DERIVATIONS)}; got {derive!r}")
    if isinstance(value, np.generic):
        value = value.item()
    return Fact(name, value, derive=derive, of=tuple(f.name for f in facts))


def parameter(name: str, value) -> Fact:
    """A fact that is a run parameter, stated as given."""
    return Fact(name, value, parameter=name)


def of_rules(name: str, attribute: str, rules) -> Fact:
    """A fact that is a property of the run's rules (``states``, ``total``, ``tiles``, ``dice``, ``sides``...)."""
    return Fact(name, plain(getattr(rules, attribute)), rules=attribute)


def won_at_start(s: Sentence, rules) -> bool:
    """Whether the game is won before the first roll (:attr:`Rules.won_at_start`), as a condition ``s`` states."""
    return s.holds(of_rules("won_at_start", "won_at_start", rules), "==", True)


@dataclass(frozen=True)
class Finding:
    """A sentence (or caption, or alt text) and the facts it states. ``kind``: ``finding`` (highlighted, and
    listed on the index), ``text``, ``caption`` or ``alt``."""

    key: str
    text: str
    facts: tuple[Fact, ...] = ()
    kind: str = "finding"

    def __post_init__(self) -> None:
        names = [f.name for f in self.facts]
        if len(set(names)) != len(names):
            raise ValueError(f"finding {self.key!r} names a fact twice: {names}")
        known = set(names)
        for fact in self.facts:
            missing = [n for n in fact.of if n not in known]
            if missing:
                raise ValueError(f"finding {self.key!r}: fact {fact.name!r} is derived from unknown {missing}")
            if fact.shown and fact.shown not in self.text:
                raise ValueError(f"finding {self.key!r}: fact {fact.name!r} shows {fact.shown!r}, not in its text")
            if fact.meets():
                raise ValueError(f"finding {self.key!r} assumes {'; '.join(fact.meets())}")

    def record(self) -> dict:
        return {"key": self.key, "kind": self.kind, "text": " ".join(self.text.split()),
                "facts": [f.record() for f in self.facts]}


class Sentence:
    """Build a sentence and its facts together: ``s(fact, fmt)`` records the fact as ``fmt`` shows it and returns
    the text to put in the sentence; ``s.quiet(fact)`` records a fact the sentence relies on without showing it
    (a comparison that picks the wording); ``s.holds(fact, op, bound)`` answers a precondition that picks the
    wording and records it; ``s.finding(key, text)`` makes the :class:`Finding`."""

    def __init__(self):
        self.facts: dict[str, Fact] = {}

    def __call__(self, fact: Fact, fmt: Callable | None = None) -> str:
        shown = fact.show(fmt)
        self._add(shown)
        return shown.shown

    def quiet(self, *facts: Fact) -> Fact:
        for fact in facts:
            self._add(_replace(fact, shown="") if fact.shown else fact)
        return facts[-1]

    def holds(self, fact: Fact, op: str, bound) -> bool:
        """Whether ``fact``'s value ``op`` ``bound`` (``op``: ``== != < <= > >= in``, ``not in``); the fact is
        recorded with the condition that held -- this one, or its negation -- as the sentence's precondition."""
        if op not in CONDITIONS:
            raise ValueError(f"op must be one of {', '.join(CONDITIONS)}; got {op!r}")
        bound = _hashable(bound)
        held = bool(CONDITIONS[op](_hashable(fact.value), bound))
        condition = (op if held else NEGATION[op], bound)
        self._add(_replace(fact, shown="", requires=(*fact.requires, condition)))
        return held

    def _add(self, fact: Fact) -> None:
        old = self.facts.get(fact.name)
        if old is not None and (old.value != fact.value or (old.shown and fact.shown and old.shown != fact.shown)):
            raise ValueError(f"fact {fact.name!r} recorded twice with different values")
        if old is not None:  # one fact, shown where it was shown, with every precondition asked of it
            fact = _replace(old if old.shown else fact, requires=tuple(dict.fromkeys((*old.requires, *fact.requires))))
        self.facts[fact.name] = fact

    def finding(self, key: str, text: str, kind: str = "finding") -> Finding:
        return Finding(key, " ".join(text.split()), tuple(self.facts.values()), kind)


@dataclass
class Part:
    """What one section of a chapter computes: its tables as exported (``tables``: name -> DataFrame), the
    findings it states (``findings``: key -> :class:`Finding`), and any other value the page shows (``shown``)."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)
    shown: dict = field(default_factory=dict)

    def table(self, name: str, frame: pd.DataFrame) -> Table:
        self.tables[name] = frame
        return Table(name, frame)

    def add(self, *findings: Finding | None) -> None:
        for finding in findings:
            if finding is not None:
                if finding.key in self.findings:
                    raise ValueError(f"finding {finding.key!r} made twice")
                self.findings[finding.key] = finding

    def __getitem__(self, name: str):
        """A table by its export name (or a value the page shows); findings are ``part.findings[key]``."""
        if name in self.tables:
            return self.tables[name]
        return self.shown[name]


def merge(parts: Sequence[Part]) -> Part:
    """Every table and finding of a chapter's parts (a name or key made twice is an error)."""
    whole = Part()
    for part in parts:
        for name, frame in part.tables.items():
            if name in whole.tables and whole.tables[name] is not frame:
                raise ValueError(f"table {name!r} made twice")
            whole.tables[name] = frame
        whole.add(*part.findings.values())
        whole.shown.update(part.shown)
    return whole


def findings_json(findings: Sequence[Finding]) -> str:
    """The findings file of a run (``findings.json``): every finding with its facts, in page order."""
    return json.dumps([f.record() for f in findings], indent=1, ensure_ascii=False, allow_nan=False) + "\n"
