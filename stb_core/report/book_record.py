"""Which pages make a book and whether ``report/report.pdf`` is current: typeset from the pages the report has now
(the index links the PDF only then). A leaf of :mod:`stb_core.report.pdf`, which makes the book, and of
:mod:`stb_core.report.pages`, which writes the index that links it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .catalogue import CHAPTERS
from .paths import report_dir

RECORD = ".report-pdf.json"  # which pages the default report's PDF was typeset from (the index links a current one)


class PdfError(Exception):
    """The PDF cannot be made (the report not built, TeX missing, pdflatex stopped): one line saying why."""


def pages_of(run: str | None) -> list[tuple[str, Path]]:
    """The pages a book is made of, as (label stem, path): the index, the chapters and the glossary; or a rerun's
    page and the glossary. Raises :class:`PdfError` for a report or rerun not built."""
    folder = report_dir()
    if run is None:
        pages = [("index", folder / "index.html"), *((c.stem, folder / c.page) for c in CHAPTERS)]
    else:
        pages = [(run, folder / "runs" / f"{run}.html")]
    pages.append(("glossary", folder / "glossary.html"))
    missing = [str(p) for _, p in pages if not p.exists()]
    if missing:
        what = "the report has not been built: run make report first" if run is None else \
            f"the rerun {run} has not been built (make notebook NB=... PARAMS=...)"
        raise PdfError(f"{what} ({missing[0]} is missing)")
    return pages


def fingerprint(pages: list[tuple[str, Path]]) -> str:
    """The pages a PDF is typeset from, as one hash."""
    digest = hashlib.sha256()
    for _, path in pages:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def record(pages: list[tuple[str, Path]]) -> None:
    """Note which pages the default report's PDF was typeset from (the index is left out: it changes to link it)."""
    (report_dir() / RECORD).write_text(json.dumps({"pages": fingerprint(pages[1:])}) + "\n", encoding="utf-8")


def current() -> bool:
    """Whether ``report/report.pdf`` was typeset from the pages the report has now (so the index may link it)."""
    path = report_dir() / RECORD
    if not (report_dir() / "report.pdf").exists() or not path.exists():
        return False
    try:
        return json.loads(path.read_text(encoding="utf-8"))["pages"] == fingerprint(pages_of(None)[1:])
    except (PdfError, ValueError, KeyError):
        return False


__all__ = ["RECORD", "PdfError", "current", "fingerprint", "pages_of", "record"]
