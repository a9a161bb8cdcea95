"""Helpers every notebook calls: parameter checks, reproduction checks against published figures, exports.

A notebook's checks compare each figure a source published (``data/published/<stem>.csv``: ``key``,
``claim``, ``published``, ``tolerance``, ``citation``) with the value the engine computes now, and write the
verdicts to ``data/<run>/checks.json`` for the report's index page.
"""

from __future__ import annotations

import json
import math
import types
from fractions import Fraction
from pathlib import Path

import pandas as pd

from .paths import PUBLISHED_DIR, data_dir

PASS, FAIL, NOT_APPLICABLE = "✓", "✗", "not applicable to these parameters"
_IPYTHON_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}
_PARAMETER_TYPES = (bool, int, float, str, type(None), list, tuple, dict)


class ParameterError(ValueError):
    """A notebook parameter that is unknown or has the wrong type."""


def check_parameters(namespace: dict, defaults: dict) -> None:
    """Reject injected names the notebook does not declare (``-p tilez 10``) and values of the wrong type.

    Called right after the parameters cell, when the only plain-data globals are the parameters and
    whatever papermill injected; modules, functions, classes, ``_private`` and ``UPPER_CASE`` names are
    the notebook's own.
    """
    allowed = ", ".join(sorted(defaults))
    for name, value in namespace.items():
        if name.startswith("_") or name in _IPYTHON_NAMES or name.isupper() or name in defaults:
            continue
        if isinstance(value, types.ModuleType | type) or callable(value):
            continue
        if isinstance(value, _PARAMETER_TYPES):
            raise ParameterError(f"unknown parameter {name!r}; this notebook's parameters are: {allowed}")
    for name, default in defaults.items():
        value = namespace.get(name)
        if not same_kind(value, default):
            raise ParameterError(
                f"parameter {name!r} must be {type(default).__name__} like its default {default!r}, "
                f"got {value!r} ({type(value).__name__})"
            )


def same_kind(value, default) -> bool:
    if default is None or value is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))


def parameters_table(parameters: dict, rules=None) -> pd.DataFrame:
    """One row showing this run's parameters (and the rules they make), for the reader of the HTML."""
    row = {name: [str(value)] for name, value in parameters.items()}
    if rules is not None:
        row["rules"] = [rules.describe()]
    return pd.DataFrame(row)


def load_published(stem: str) -> pd.DataFrame:
    """The figures a source published, with their citation: ``data/published/<stem>.csv``."""
    path = PUBLISHED_DIR / f"{stem}.csv"
    return pd.read_csv(path, dtype={"key": str, "published": str}, keep_default_na=False)


def _matches(published: str, computed, tolerance: str) -> bool:
    if tolerance not in ("", None):
        try:
            return math.isclose(float(Fraction(published)), float(computed), rel_tol=0,
                                abs_tol=float(tolerance))
        except (TypeError, ValueError):
            return False
    return str(published).strip() == str(computed).strip()


def reproduction_checks(stem: str, computed: dict, applicable: bool = True) -> pd.DataFrame:
    """One row per published figure: claim, published, computed now, and ✓ / ✗.

    ``computed`` maps each ``key`` of the published table to the engine's value; a key left out, or
    ``applicable=False`` (parameters that differ from the source's game), gives "not applicable".
    """
    published = load_published(stem)
    unknown = set(computed) - set(published["key"])
    if unknown:
        raise KeyError(f"no published figure with key(s) {sorted(unknown)} in {stem}.csv")
    rows = []
    for record in published.itertuples(index=False):
        if applicable and record.key in computed:
            value = computed[record.key]
            verdict = PASS if _matches(record.published, value, record.tolerance) else FAIL
        else:
            value, verdict = "", NOT_APPLICABLE
        rows.append({"claim": record.claim, "published": record.published, "computed": _show(value),
                     "check": verdict})
    return pd.DataFrame(rows)


def consistency_checks(rows: list[tuple[str, str, object, bool]]) -> pd.DataFrame:
    """Checks with no published figure behind them — e.g. a simulation whose interval must contain the exact
    value: ``(claim, what it is compared with, computed value, passed)`` rows in the same shape as
    :func:`reproduction_checks`."""
    return pd.DataFrame([{"claim": claim, "published": reference, "computed": _show(value),
                          "check": PASS if passed else FAIL} for claim, reference, value, passed in rows])


def _show(value) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def write_checks(run: str, source: str, title: str, headline: dict, checks: pd.DataFrame, finding: str = "") -> Path:
    """Write ``data/<run>/checks.json``: the source, headline numbers, the notebook's main finding in one
    sentence (computed, for the index page) and each check's verdict."""
    counts = checks["check"].value_counts()
    record = {
        "run": run,
        "source": source,
        "title": title,
        "headline": {str(k): str(v) for k, v in headline.items()},
        "finding": finding,
        "checks": checks.to_dict(orient="records"),
        "passed": int(counts.get(PASS, 0)),
        "failed": int(counts.get(FAIL, 0)),
        "not_applicable": int(counts.get(NOT_APPLICABLE, 0)),
    }
    path = data_dir(run) / "checks.json"
    _write_text(path, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return path


def save_table(table: pd.DataFrame, run: str, name: str) -> Path:
    """Write ``data/<run>/<name>.csv`` (floats as ``%.10g``, ``\\n`` line ends, no index); return the path."""
    path = data_dir(run) / f"{name}.csv"
    _write_text(path, table.to_csv(index=False, float_format="%.10g", lineterminator="\n"))
    return path


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
