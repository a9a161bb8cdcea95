"""``make clean``: remove what the build and the export wrote, and nothing else.

``report/`` goes when it carries the marker every build leaves in it (:data:`stb_core.report.publish.MARKER`);
under ``export/`` each kit folder that carries its marker goes, with its zip when the zip is a kit's. A folder or
file the project did not write is left where it is, and named.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import publish
from .export import kit_zip
from .paths import output_root, report_dir


def clean(log=print) -> list[Path]:
    """Remove the report and the kits the project wrote; the paths left because the project did not write them."""
    left = []
    report = report_dir()
    if report.exists():
        if publish.owned(report):
            publish.remove(report)
        else:
            left.append(report)
    kits = output_root() / "export"
    if kits.is_dir():
        for entry in sorted(kits.iterdir()):
            if entry.is_dir() and publish.owned(entry):
                publish.remove(entry)
            elif entry.suffix == ".zip" and kit_zip(entry):
                publish.remove(entry)
            else:
                left.append(entry)
        if not any(kits.iterdir()):
            kits.rmdir()
    for path in left:
        log(f"left {path}: this project did not write it (no {publish.MARKER} in it)")
    return left


if __name__ == "__main__":
    clean()
    sys.exit(0)
