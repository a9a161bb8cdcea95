"""Tables and figures written to disk: byte-stable, through temporary files, under the run's own name.

Tables go to ``data/<run>/<name>.csv`` (tidy, machine column names, floats to 14 significant digits in their
shortest form -- the last bits of a float's arithmetic are noise: ``0.0625``, not ``0.06249999999999999`` -- no
index); figures to
``figures/<run>/<name>.{png,svg,pdf}``: PNG at 200 dpi without a software stamp, SVG with text as text and a
fixed hash salt and no date, PDF with TrueType (Type 42) fonts and no creation date -- the same parameters
give the same bytes. A run with other parameters writes under its own name (``run_names.run_name``), never
over the default run's files.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd

from .paths import data_dir, figure_dir, write_text

FIGURE_FORMATS = ("png", "svg", "pdf")
_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None},
    "pdf": {"CreationDate": None, "Producer": None},
}
_SAVE_RC = {"svg.hashsalt": "shut-the-box", "svg.fonttype": "none", "pdf.fonttype": 42, "ps.fonttype": 42,
            "pdf.compression": 6}


FLOAT_DIGITS = 14  # significant digits a long float sum keeps: 0.8125, never 0.812499999999999


def as_written(value):
    """A float as a table writes it: rounded to :data:`FLOAT_DIGITS` significant digits, then in its shortest
    form, so a value whose last bit is arithmetic noise reads as the value (``1.0000000000000002`` -> ``1.0``);
    anything else as it is."""
    if isinstance(value, float | np.floating) and np.isfinite(value):
        return float(f"{float(value):.{FLOAT_DIGITS}g}") + 0.0  # + 0.0: never -0.0
    return value


def save_table(table: pd.DataFrame, run: str, name: str) -> Path:
    """Write ``data/<run>/<name>.csv`` (floats to 14 significant digits in their shortest form, ``\\n`` line ends,
    no index); return the path. A table always has its columns, also with no rows: a reader loads its header."""
    if len(table.columns) == 0:
        raise ValueError(f"table {name!r} has no columns: a table with no rows still names its columns")
    written = table.copy()
    for column in written.columns:
        if written[column].dtype.kind in "fO":
            written[column] = written[column].map(as_written)
    text = written.to_csv(index=False, lineterminator="\n")
    return write_text(data_dir(run) / f"{name}.csv", text)


def save_figure(fig, run: str, name: str) -> list[Path]:
    """Write ``fig`` to ``figures/<run>/<name>.{png,svg,pdf}`` with deterministic bytes; return the paths."""
    paths = []
    with mpl.rc_context(_SAVE_RC):
        for fmt in FIGURE_FORMATS:
            path = figure_dir(run) / f"{name}.{fmt}"
            tmp = path.with_name(f".{path.name}.tmp")
            try:
                fig.savefig(tmp, format=fmt, dpi=200, metadata=_METADATA[fmt])
                tmp.replace(path)
            finally:
                tmp.unlink(missing_ok=True)
            paths.append(path)
    return paths
