"""Where the project's files live, all taken from the package root (never from the working directory).

``PROJECT_ROOT`` holds the committed reference data (``data/published/``) and the notebooks. Outputs -- tables
under ``data/<run>/``, figures under ``figures/<run>/`` -- go under :func:`output_root`, the project root
unless ``STB_OUTPUT_ROOT`` points elsewhere (the tests use it, so a test run never touches the committed
outputs); the HTML report goes to :func:`report_dir` (``report/``, or ``STB_REPORT_DIR``).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..sources.published import PUBLISHED_DIR  # noqa: F401 -- the committed reference data

PROJECT_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = PROJECT_ROOT / "notebooks"
SOLVE_TIMES = PROJECT_ROOT / "data" / "bench" / "solve-times.csv"  # measured and written by ``make bench``
TEMPLATES = Path(__file__).resolve().parent / "templates"


def output_root() -> Path:
    """The folder under which ``data/<run>/`` and ``figures/<run>/`` are written."""
    return Path(os.environ.get("STB_OUTPUT_ROOT", PROJECT_ROOT))


def report_dir() -> Path:
    """The folder of the HTML report."""
    return Path(os.environ.get("STB_REPORT_DIR", PROJECT_ROOT / "report"))


def data_dir(run: str) -> Path:
    """``data/<run>/``, created if missing."""
    path = output_root() / "data" / run
    path.mkdir(parents=True, exist_ok=True)
    return path


def figure_dir(run: str) -> Path:
    """``figures/<run>/``, created if missing."""
    path = output_root() / "figures" / run
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file moved into place (a failure leaves the old file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
