"""``make pdf``: the whole report as one typeset PDF, ``report/report.pdf`` (``make pdf RUN=<run>``: a rerun's
chapter, ``report/runs/<run>.pdf``).

The book is the built pages set in LaTeX (:mod:`stb_core.report.typeset`): a title page with the report's version
and the abstract, the contents, the introduction and the sources' verdicts as the index states them, the chapters in
order (each with its verdict, prose, numbered tables, figures and display equations), the glossary, and the write-ups
as a bibliography. pdflatex and BibTeX typeset it in a staging folder inside the report, and the PDF is published
all or nothing (:mod:`stb_core.report.publish`) under the build's lock; the index then links it. A log with any
problem a reader would see (an error, an undefined reference, an overfull box over 10 pt) is said, line by line.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import latex, pdflatex, typeset
from . import publish as publishing
from .book_record import PdfError, pages_of, record
from .catalogue import chapter
from .export import cited_by, write_references
from .pages import write_index
from .paths import report_dir
from .staging import STAGING_PREFIX, ReportLock, recover


def book(run: str | None, folder: Path) -> str:
    """The LaTeX of the book whose PDF goes into ``folder`` (relative links start there)."""
    labels: set[str] = set()
    pages = pages_of(run)
    parts = []
    for stem, path in pages:
        page = typeset.Page(path, stem, labels, folder)
        if stem == "index":
            parts.append(front_matter(page))
        elif stem == "glossary":
            parts.append(r"\appendix" + "\n" + page.blocks(page.main))
        else:
            number = chapter(stem.split("--")[0]).number
            parts.append(rf"\setcounter{{chapter}}{{{number - 1}}}" + "\n" + page.blocks(page.main))
    title = "Shut the Box, solved exactly" if run is None else \
        f"Shut the Box, solved exactly: {chapter(run.split('--')[0]).title}, rerun ({run})"
    body = typeset.resolve("".join(parts), labels)
    return (f"\\documentclass[11pt,oneside]{{report}}\n{pdflatex.PREAMBLE}{BOOK_PREAMBLE}"
            f"\\title{{{latex.text(title)}}}\n\\author{{The Shut the Box report contributors}}\n"
            f"\\date{{{latex.text(_identity(pages))}}}\n\\begin{{document}}\n"
            + ("" if run is None else "\\maketitle\n\\tableofcontents\n") + body
            + pdflatex.bibliography(bool(cited_in(pages))) + "\\end{document}\n")


BOOK_PREAMBLE = r"""\usepackage{enumitem}
\setlist{itemsep=2pt}
\newenvironment{stbfinding}{\begin{leftbar}}{\end{leftbar}}
\setcounter{tocdepth}{1}
\setcounter{secnumdepth}{1}
"""


def front_matter(index: typeset.Page) -> str:
    """The index as the book's opening: the title page (its version line), the abstract, the contents, then its
    sections as an unnumbered introduction -- without its reference lists (the bibliography is the book's) and the
    claims each verdict lists as holding (every chapter's last table lists them all)."""
    main = index.main
    for details in main.find_all("details"):
        details.decompose()
    abstract = main.find(class_="stb-abstract")
    heading = main.find("h2", id="references")
    if heading is not None:  # the reference lists run up to the next heading
        for sibling in list(heading.find_next_siblings()):
            if sibling.name == "h2":
                break
            sibling.decompose()
        heading.decompose()
    for element in (main.find("h1"), main.find(class_="stb-cite-box"), main.find("h2", id="abstract"), abstract):
        if element is not None:
            element.extract()
    summary = index.inline(abstract).strip() if abstract is not None else ""
    return ("\\maketitle\n\\begin{abstract}\n" + summary + "\n\\end{abstract}\n\\tableofcontents\n"
            "\\chapter*{Introduction}\\addcontentsline{toc}{chapter}{Introduction}\\label{index:top}\n"
            + index.blocks(main))


def _identity(pages: list[tuple[str, Path]]) -> str:
    """The report's version line, as the index states it (its version, commit and date)."""
    import bs4

    index = report_dir() / "index.html"
    if not index.exists():
        return ""
    box = bs4.BeautifulSoup(index.read_text(encoding="utf-8"), "html.parser").find(class_="stb-cite-box")
    return box.get_text(" ", strip=True).split(" · ")[0] if box else ""


def cited_in(pages: list[tuple[str, Path]]) -> list[str]:
    """The BibTeX keys the book's chapters cite (:func:`stb_core.report.export.cited_by`)."""
    return [k for stem, _ in pages if stem not in ("index", "glossary") for k in cited_by(stem)]


def references(folder: Path, run: str | None) -> None:
    """The BibTeX file of every write-up the book cites, as the write-up kit writes it."""
    write_references(folder, cited_in(pages_of(run)))


def target_of(run: str | None) -> Path:
    return report_dir() / "report.pdf" if run is None else report_dir() / "runs" / f"{run}.pdf"


def make_pdf(run: str | None = None, log=print) -> Path:
    """Typeset the book and publish it (see the module docstring); return the PDF's path."""
    if not pdflatex.available():
        raise PdfError(pdflatex.INSTALL)
    target = target_of(run)
    with ReportLock(log):
        recover(log)
        pages_of(run)
        staging = report_dir() / f"{STAGING_PREFIX}pdf-{os.getpid()}"
        try:
            staging.mkdir()
            log(f"typesetting {target.name} from the built pages (pdflatex and BibTeX; a minute or so) ...",
                flush=True)
            (staging / "book.tex").write_text(book(run, target.parent), encoding="utf-8")
            references(staging, run)
            try:
                found = pdflatex.problems(pdflatex.compile_document(staging / "book.tex"))
            except RuntimeError as error:
                raise PdfError(f"{error}; {target} is as it was") from None
            for problem in found:
                log(f"  typesetting: {problem}", flush=True)
            with publishing.signals_held():
                publishing.publish(report_dir(), f"pdf-{target.stem}", [(staging / "book.pdf", target)])
        finally:
            publishing.discard(staging)
        if run is None:
            record(pages_of(None))
            write_index()
    return target





def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stb_core.report.pdf", description=__doc__.splitlines()[0])
    parser.add_argument("--run", help="a rerun's name (default: the whole report)")
    args = parser.parse_args(argv)
    try:
        path = make_pdf(args.run)
    except PdfError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except publishing.PublishError as error:
        print(f"{parser.prog}: error: {error.strerror}; {error.left}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted; the PDF is as it was", file=sys.stderr)
        return 130
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
