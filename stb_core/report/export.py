"""The write-up kit: every figure and table of the report (or of one rerun), ready for a paper, in one folder and a zip.

``make export`` (``stb export``, or ``python -m stb_core export``) writes ``export/report/`` and
``export/report.zip``; ``make export RUN=<run>`` does the same for a rerun (``export/<run>/``). Inside:

* ``figures/<chapter>/`` -- every figure as PDF (TrueType fonts), SVG (text as text) and PNG (200 dpi);
* ``tables/<chapter>/`` -- every table as CSV (as the report exports it) and as a LaTeX table set for print by
  :func:`stb_core.report.latex.table` (booktabs rules, numbers aligned on the decimal point, the page's columns and
  headers), its caption citing the write-ups it comes from by their BibTeX keys, and a label
  (``tab:<chapter>:<name>``);
* ``captions.md`` -- every figure's and table's number, caption and files, as a list;
* ``references.bib`` -- every write-up the report cites (the five sources and chapter 8's thirteen), keyed as the
  captions cite them;
* ``README.txt`` -- what is where, and the LaTeX packages the tables need;
* ``main.tex`` -- every table and figure typeset, and ``main.pdf`` where TeX is installed.

It reads only what the build wrote (``data/<run>/datapackage.json`` for each table's caption and headers,
``figures/<run>/captions.json`` for the figures), so it exports exactly what the pages show.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile
from pathlib import Path

import pandas as pd

from ..sources.published import load_published, references
from . import latex, pdflatex
from . import publish as publishing
from .catalogue import CHAPTERS, sources
from .paths import PUBLISHED_DIR, output_root

KIT = "the write-up kit"  # what the kit's marker says it is (publish.mark): only a folder marked so is replaced


class ExportError(Exception):
    """The export cannot be made (a run that was never built): one line saying why."""


# -- the references -----------------------------------------------------------------------------------------------
def bib_entries() -> dict[str, str]:
    """Every cited write-up as a BibTeX ``@misc`` entry, by key."""
    return {key: _entry(key, ref["author"], ref["title"], ref["year"], ref["address"],
                        "; ".join(p for p in (ref["published_in"], ref["note"]) if p))
            for key, ref in references().items()}


def _entry(key: str, author: str, title: str, date: str, address: str, note: str) -> str:
    """One ``@misc`` entry: a person's name as BibTeX parses it (sorted by the last name), a handle or a body braced
    whole; one whose author is not known carries a ``key`` (its title's first words), which BibTeX sorts and labels
    it by."""
    fields = [f"  title = {{{{{latex.text(title)}}}}}"]
    if author and not author.startswith(("not stated", "author not stated")):
        person = re.fullmatch(r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+", author)  # First Last: BibTeX sorts by Last
        fields.insert(0, f"  author = {{{latex.text(author)}}}" if person else
                      f"  author = {{{{{latex.text(author)}}}}}")  # a handle or a body: as written
    else:
        fields.insert(0, f"  key = {{{latex.text(' '.join(title.split()[:3]))}}}")
    year = re.search(r"\b(1[89]|20)\d\d\b", date or "")
    if year:
        fields.append(f"  year = {{{year[0]}}}")
    if address.startswith("http"):
        fields.append(f"  howpublished = {{\\url{{{address}}}}}")
    if note:
        fields.append(f"  note = {{{latex.text(note)}}}")
    return f"@misc{{{key},\n" + ",\n".join(fields) + "\n}\n"


def cited_by(stem: str) -> list[str]:
    """The BibTeX keys a chapter's tables cite: its source's, and every write-up of the printed figures it judges
    (``data/published/<chapter>.csv``)."""
    chapter = next(c for c in CHAPTERS if stem == c.stem or stem.startswith(c.stem + "--"))
    keys = [] if chapter.source is None else [sources()[chapter.source].bibkey]
    if (PUBLISHED_DIR / f"{chapter.stem}.csv").exists():
        keys += list(load_published(chapter.stem)["source"])  # each figure's write-up, by its BibTeX key
    return list(dict.fromkeys(k for k in keys if k))


def write_references(folder: Path, keys: list[str]) -> None:
    """``references.bib`` in ``folder``: the write-ups of ``keys`` (those the tables and pages cite), by key."""
    entries = bib_entries()
    (folder / "references.bib").write_text("".join(entries[k] for k in sorted(set(keys))), encoding="utf-8")


# -- the tables -----------------------------------------------------------------------------------------------------
def kit_table(frame: pd.DataFrame, resource: dict, label: str, cite: list[str], csv: str) -> latex.Typeset:
    """One table of the kit set for print (:func:`stb_core.report.latex.table`): the columns its page shows, under
    the page's headers (every column when the page shows it otherwise), its caption citing ``cite``, the report's
    number kept for ``\\stbnumber``; a table too long to print whole says where its CSV is (``csv``)."""
    fields = resource["schema"]["fields"]
    shown = [f for f in fields if "title" in f] or fields
    cells = pd.DataFrame({i: [latex.number_text(v) for v in frame[f["name"]].tolist()] for i, f in enumerate(shown)})
    cells.columns = [f.get("title", f["name"]).replace("_", " ") for f in shown]
    caption = latex.text(resource.get("description", resource["name"]).rstrip(".")) + \
        (f" (from \\cite{{{','.join(cite)}}})" if cite else "") + "."
    number = resource.get("title", "").removeprefix("Table ")
    left_out = len(fields) - len(shown)
    note = f"{left_out} more {'column' if left_out == 1 else 'columns'} in {csv}." if left_out else ""
    return latex.table(cells, caption, label, number=number, note=note, rest=f"every row is in {csv}",
                       cell=latex.text)


# -- the kit --------------------------------------------------------------------------------------------------------
def runs_to_export(run: str | None) -> list[str]:
    """The runs a kit covers: the default report's chapters, or one rerun (which must have been built)."""
    root = output_root()
    if run is None:
        built = [c.stem for c in CHAPTERS if (root / "data" / c.stem / "datapackage.json").exists()]
        if not built:
            raise ExportError("the report has not been built yet: run make report first")
        return built
    if not re.fullmatch(r"[0-9]{2}-[a-z0-9-]+(--[A-Za-z0-9_.=,+-]+)?", run) or \
            not (root / "data" / run / "datapackage.json").exists():
        known = sorted(p.name for p in (root / "data").glob("0*--*") if (p / "datapackage.json").exists())
        raise ExportError(f"run must be a built rerun ({', '.join(known) or 'none built yet'}); got {run!r}")
    return [run]


KIT_STAGING = ".kit-"


def export(run: str | None = None, out: Path | None = None, log=print, typeset: bool = True) -> Path:
    """Write the kit (see the module docstring) and its zip into ``out`` (default ``export/``) and return the folder:
    one export at a time into a folder, built in a staging folder beside it and put in place with the zip all or
    nothing (:mod:`stb_core.report.publish`: a kill at any instant leaves the old kit or the new one, and the next
    export finishes what it began); the kit and the zip it replaces must be ones the project wrote. ``log`` hears the
    announcement and one line per chapter; ``typeset=False`` leaves ``main.pdf`` out (``--no-pdf``)."""
    runs = runs_to_export(run)
    root, name = output_root(), run or "report"
    destination = out or root / "export"
    folder, archive = destination / name, destination / f"{name}.zip"
    refuse_what_the_project_did_not_write(folder, archive)
    try:
        publishing.probe([destination])
    except publishing.PublishError as error:
        raise ExportError(error.strerror) from None
    with publishing.locked(destination, "export", log):
        for repaired in publishing.recover(destination):
            log(f"repaired: the export of {repaired.removeprefix('kit-')}, which a stopped export had begun, is "
                f"finished", flush=True)
        publishing.sweep(destination, (KIT_STAGING,))
        refuse_what_the_project_did_not_write(folder, archive)  # checked again: it may have changed while waiting
        staging = destination / f"{KIT_STAGING}{os.getpid()}"
        try:
            staging.mkdir()
            write_kit(runs, root, staging / name, log, typeset)
            zip_kit(staging / name, staging / f"{name}.zip")
            try:
                with publishing.signals_held():  # the folder and the zip are replaced together
                    publishing.publish(destination, f"kit-{name}", [(staging / name, folder),
                                                                      (staging / f"{name}.zip", archive)])
            except KeyboardInterrupt:  # held until both were in place
                raise ExportError(f"interrupted once the kit was in place: {folder} and {archive} are the new "
                                  f"kit") from None
        except publishing.PublishError as error:
            raise ExportError(f"{error.strerror}; the kit in {destination}: {error.left}") from None
        except OSError as error:
            raise ExportError(f"{publishing.refusal(error)}; the kit in {destination} is as it was") from None
        finally:
            publishing.discard(staging)
    return folder


def refuse_what_the_project_did_not_write(folder: Path, archive: Path) -> None:
    """The kit is written over a folder and a zip only where they are a kit the project wrote (or absent, or an
    empty folder): anything else is refused in one line, and nothing is touched."""
    if not publishing.owned(folder, KIT):
        written = publishing.written_as(folder)
        what = f"it holds {written}, not a kit" if written else f"no {publishing.MARKER} in it"
        raise ExportError(f"{folder} exists and is not a kit this project wrote ({what}): move it or give --out "
                          f"another folder; nothing was written")
    if archive.exists() and not kit_zip(archive):
        raise ExportError(f"{archive} exists and is not a kit this project wrote: move it or give --out another "
                          f"folder; nothing was written")


def kit_zip(path: Path) -> bool:
    """Whether ``path`` is a zip of a kit the project wrote (its marker inside)."""
    try:
        with zipfile.ZipFile(path) as zipped:
            return any(n.endswith("/" + publishing.MARKER) for n in zipped.namelist())
    except (zipfile.BadZipFile, OSError):
        return False


def write_kit(runs: list[str], root: Path, folder: Path, log, typeset: bool = True) -> None:
    """The kit's folder: each chapter's figures and tables, the captions, the references, ``main.tex`` (typeset to
    ``main.pdf`` where TeX is installed), the README, the marker."""
    tables = sum(len(json.loads((root / "data" / r / "datapackage.json").read_text())["resources"]) for r in runs)
    log(f"exporting {len(runs)} {'chapter' if len(runs) == 1 else 'chapters'} ({tables} tables and their figures) "
        f"into {folder.parent.parent}: estimated {export_estimate(tables, typeset)} ...", flush=True)
    folder.mkdir()
    chapters = []
    for i, stem in enumerate(runs, 1):
        cite = cited_by(stem)
        title = json.loads((root / "data" / stem / "datapackage.json").read_text(encoding="utf-8"))["title"]
        chapters.append({"stem": stem, "title": title, "cite": cite, "figures": _figures(root, stem, folder),
                         "tables": _tables(root, stem, folder, cite)})
        log(f"[{i}/{len(runs)}] {stem}", flush=True)
    write_references(folder, [k for chapter in chapters for k in chapter["cite"]])
    (folder / "captions.md").write_text(captions_md(chapters), encoding="utf-8")
    (folder / "main.tex").write_text(main_tex(chapters), encoding="utf-8")
    (folder / "README.txt").write_text(README, encoding="utf-8")
    if typeset:
        typeset_main(folder, log)
    publishing.mark(folder, KIT)


SECONDS_PER_TABLE = 0.1  # set as CSV and LaTeX, its figures copied: measured on 2 cores, 97 tables in 7 s
SECONDS_PER_TYPESET_TABLE = 0.6  # main.tex's pdflatex and BibTeX passes: the default kit's 97 tables in about 56 s


def export_estimate(tables: int, typeset: bool) -> str:
    """How long an export of ``tables`` tables will take (main.pdf's typesetting too, when asked and TeX is there),
    in words."""
    from ..cost import duration

    typesetting = SECONDS_PER_TYPESET_TABLE * tables if typeset and pdflatex.available() else 0.0
    return duration(SECONDS_PER_TABLE * tables + typesetting)


def typeset_main(folder: Path, log) -> None:
    """``main.tex`` typeset to ``main.pdf`` beside it (the compiler's other files removed), or why not."""
    if not pdflatex.available():
        log(f"main.pdf not made: {pdflatex.INSTALL}", flush=True)
        return
    log("typesetting main.tex (pdflatex and BibTeX; a minute or so) ...", flush=True)
    try:
        found = pdflatex.problems(pdflatex.compile_document(folder / "main.tex"))
        log(f"main.pdf: {len(found)} problems in the log: {found[0]} ..." if found else "main.pdf: typeset cleanly",
            flush=True)
    except RuntimeError as error:
        log(f"main.pdf not made: {error}", flush=True)
    for leftover in folder.glob("main.*"):
        if leftover.suffix not in (".tex", ".pdf"):
            leftover.unlink()


def zip_kit(folder: Path, archive: Path) -> None:
    """The kit as one zip, byte for byte the same for the same kit (fixed dates, sorted entries)."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                entry = Path(folder.name) / path.relative_to(folder)
                info = zipfile.ZipInfo(str(entry), date_time=(2026, 1, 1, 0, 0, 0))
                zipped.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)


def _figures(root: Path, stem: str, staging: Path) -> list[dict]:
    """Each figure of a chapter into the kit (PDF, SVG, PNG); return its number, caption, files and width."""
    path = root / "figures" / stem / "captions.json"
    if not path.exists():
        return []
    target = staging / "figures" / stem
    target.mkdir(parents=True, exist_ok=True)
    figures = []
    for figure in json.loads(path.read_text(encoding="utf-8")):
        for file in figure["files"]:
            shutil.copy2(root / "figures" / stem / file, target / file)
        figures.append({"number": figure["figure"], "caption": figure["caption"], "name": figure["name"],
                        "label": f"fig:{stem}:{figure['name']}", "width": figure.get("width_inches", 6.5),
                        "files": [f"figures/{stem}/{f}" for f in figure["files"]]})
    return figures


def _tables(root: Path, stem: str, staging: Path, cite: list[str]) -> list[dict]:
    """Each table of a chapter into the kit (its CSV and its LaTeX); return what ``captions.md`` and ``main.tex`` say
    of each: number, caption, files, label and how it is set."""
    package = json.loads((root / "data" / stem / "datapackage.json").read_text(encoding="utf-8"))
    target = staging / "tables" / stem
    target.mkdir(parents=True, exist_ok=True)
    entries, supplementary = [], 0
    for resource in package["resources"]:
        source = root / "data" / stem / resource["path"]
        shutil.copy2(source, target / resource["path"])
        frame = pd.read_csv(source, keep_default_na=False, na_values=[""])
        name = resource["path"].removesuffix(".csv")
        label, csv = f"tab:{stem}:{name}", f"tables/{stem}/{resource['path']}"
        if "title" not in resource:  # saved, not shown on its page: numbered as a supplementary table, S3.1
            supplementary += 1
            resource = {**resource, "title": f"Table S{stem[:2].lstrip('0')}.{supplementary}"}
        typeset = kit_table(frame, resource, label, cite, csv)
        (target / f"{name}.tex").write_text(typeset.latex, encoding="utf-8")
        entries.append({"stem": stem, "name": name, "number": resource.get("title", ""), "label": label,
                        "caption": resource.get("description", name), "csv": csv, "tex": f"tables/{stem}/{name}.tex",
                        "kind": typeset.kind, "rows": len(frame), "shown": typeset.rows})
    return entries


def captions_md(chapters: list[dict]) -> str:
    """``captions.md``: for each chapter, every figure and every table with its number, caption, files and, for a
    table, how it is set for print."""
    lines = []
    for chapter in chapters:
        lines.append(f"## {chapter['title']} ({chapter['stem']})\n\n")
        for figure in chapter["figures"]:
            lines.append(f"- **{figure['number']}**. {figure['caption']} Files: {', '.join(figure['files'])} "
                         f"(\\label{{{figure['label']}}}).\n")
        for table in chapter["tables"]:
            supplementary = table["number"].startswith("Table S")
            number = table["number"] + (" (saved, not shown on its page)" if supplementary else "")
            lines.append(f"- **{number}**. {table['caption'].rstrip('.')}. {set_as(table)} Files: {table['csv']}, "
                         f"{table['tex']} (\\label{{{table['label']}}}).\n")
        lines.append("\n")
    return "".join(lines)


def set_as(table: dict) -> str:
    """How a table of the kit is set for print, in a sentence."""
    rows = f"{table['rows']:,} {'row' if table['rows'] == 1 else 'rows'}"
    if table["kind"] == "summary":
        return (f"Too long to print ({rows}): its LaTeX sets the first {table['shown']:,} rows and says the CSV holds "
                f"them all.")
    return f"{rows}, set as a {'longtable (it may break across pages)' if table['kind'] == 'longtable' else 'table'}."


def main_tex(chapters: list[dict]) -> str:
    """``main.tex``: every table and figure of the kit typeset, chapter by chapter, with the report's numbers, and
    every write-up they cite, so a writer sees each as it prints and copies what they need."""
    body = []
    for chapter in chapters:
        body.append(f"\\section*{{{latex.text(chapter['title'])}}}\\addcontentsline{{toc}}{{section}}"
                    f"{{{latex.text(chapter['title'])}}}\n")
        body += [_figure_tex(f) for f in chapter["figures"]]
        body += [f"\\input{{{t['tex']}}}\n" for t in chapter["tables"]]
        body.append("\\clearpage\n")
    return (f"\\documentclass[11pt]{{article}}\n{pdflatex.PREAMBLE}\\title{{Shut the Box, solved exactly: the tables "
            f"and figures of the write-up kit}}\n\\author{{The Shut the Box report contributors}}\n\\date{{}}\n"
            f"\\begin{{document}}\n\\maketitle\n{KIT_INTRODUCTION}\\tableofcontents\n\\clearpage\n"
            + "".join(body) + pdflatex.bibliography(any(chapter["cite"] for chapter in chapters))
            + "\\end{document}\n")


KIT_INTRODUCTION = r"""\noindent Every table and figure of the kit as it prints, with the number it has in the report.
A table here is \verb|\input{tables/<chapter>/<name>.tex}| (it needs the packages booktabs, siunitx, longtable, array
and amssymb), a figure \verb|\includegraphics{figures/<chapter>/<name>.pdf}|; each caption cites the write-up its
figures come from (\verb|references.bib|). A table too long to print sets its first rows and says where the CSV
holds them all. To keep the report's numbers in your document, define \verb|\stbnumber| as this file's preamble
does; without it, the tables are numbered as your document numbers them.

"""


def _figure_tex(figure: dict) -> str:
    """A figure of the kit as a float: its PDF at its own width (the text width at most), its caption, its label."""
    pdf = next(f for f in figure["files"] if f.endswith(".pdf"))
    width = "[width=\\linewidth]" if figure["width"] > 6.2 else ""
    number = figure["number"].removeprefix("Figure ")
    return (f"\\begin{{figure}}[htbp]\n\\centering\\stbnumber{{figure}}{{{number}}}\n"
            f"\\includegraphics{width}{{{pdf}}}\n\\caption{{{latex.inline(figure['caption'])}}}"
            f"\\label{{{figure['label']}}}\n\\end{{figure}}\n")


README = f"""Shut the Box, solved exactly: the write-up kit

figures/<chapter>/   every figure as PDF (TrueType fonts), SVG (text as text) and PNG (200 dpi)
tables/<chapter>/    every table as CSV and as a LaTeX table: \\input{{...}} it; it needs the packages
                     {", ".join(pdflatex.TABLE_PACKAGES)}. A table longer than a few pages sets its first rows
                     and says where its CSV is; one longer than a page is a longtable.
captions.md          every figure's and table's number, caption, files and how it is set
references.bib       the write-ups the captions cite (\\cite{{...}} keys), for BibTeX or biblatex
main.tex             every table and figure typeset with the report's numbers, citing every write-up
main.pdf             main.tex typeset (where TeX is installed: pdflatex main, bibtex main, pdflatex main twice)

The tables and figures are under CC BY 4.0: cite the report (see CITATION.cff in the project) and, for a figure a
source printed, that source.
"""
