"""Figures and run names for the notebooks' exports.

Every figure is written as PNG (dpi 200), SVG and PDF with byte-stable output: no creation dates, no
software stamps, a fixed SVG hash salt. A notebook run with non-default parameters writes under a name
built from those parameters (``01-sequence-counts--tiles-10``), so it never replaces the default run's
tables and figures.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib as mpl

from .paths import figure_dir

FIGURE_FORMATS = ("png", "svg", "pdf")
_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None},
    "pdf": {"CreationDate": None, "Producer": None},
}


def _slug(value) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", str(value)).strip("-").lower() or "x"


def run_stem(stem: str, parameters: dict, defaults: dict) -> str:
    """``stem`` for a run with the default parameters, else ``stem--name-value--...`` for the changed ones.

    >>> run_stem("01-sequence-counts", {"tiles": 10, "games": 5}, {"tiles": 10, "games": 1000})
    '01-sequence-counts--games-5'
    """
    changed = [f"{_slug(k)}-{_slug(v)}" for k, v in sorted(parameters.items()) if defaults.get(k) != v]
    return "--".join([stem, *changed])


def save_figure(fig, stem: str, name: str) -> list[Path]:
    """Write ``fig`` to ``figures/<stem>/<name>.{png,svg,pdf}`` with deterministic bytes; return the paths.

    Each file is written to a temporary name first and moved into place, so a failure leaves the last
    good figure alone.
    """
    paths = []
    with mpl.rc_context({"svg.hashsalt": "shut-the-box", "pdf.compression": 6}):
        for fmt in FIGURE_FORMATS:
            path = figure_dir(stem) / f"{name}.{fmt}"
            tmp = path.with_name(path.name + ".tmp")
            fig.savefig(tmp, format=fmt, dpi=200, bbox_inches="tight", metadata=_METADATA[fmt])
            tmp.replace(path)
            paths.append(path)
    return paths
