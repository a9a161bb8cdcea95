"""Where the project's files live.

``PROJECT_ROOT`` holds the committed reference data (``data/published/``). Outputs — tables under
``data/<run>/``, figures under ``figures/<run>/`` — go under ``output_root()``, which is the project root
unless the environment variable ``STB_OUTPUT_ROOT`` points elsewhere (the tests use it so that a test run
never touches the committed outputs).
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PUBLISHED_DIR = PROJECT_ROOT / "data" / "published"
NOTEBOOK_DIR = PROJECT_ROOT / "notebooks"


def output_root() -> Path:
    """The folder under which ``data/<run>/`` and ``figures/<run>/`` are written."""
    return Path(os.environ.get("STB_OUTPUT_ROOT", PROJECT_ROOT))


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
