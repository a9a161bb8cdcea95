"""The write-up kit: every figure and table of the report (or of one rerun), ready for a paper, in one folder and a zip.

``make export`` (``python -m stb_core.report.export``, or ``stb export``) writes ``export/report/`` and
``export/report.zip``; ``make export RUN=<run>`` does the same for a rerun (``export/<run>/``). Inside:

* ``figures/<chapter>/`` -- every figure as PDF (TrueType fonts), SVG (text as text) and PNG (200 dpi);
* ``tables/<chapter>/`` -- every table as CSV (as the report exports it) and as a LaTeX table: pandas'
  ``Styler.to_latex`` with booktabs rules, numbers right-aligned, the page's headers, its caption (citing the
  write-ups it comes from by their BibTeX keys) and a label (``tab:<chapter>:<name>``);
* ``captions.md`` -- every figure's and table's number, caption and files, as a list;
* ``references.bib`` -- every write-up the report cites (the five sources and chapter 8's thirteen), keyed as the
  captions cite them;
* ``README.txt`` -- what is where, and the LaTeX packages the tables need (booktabs).

It reads only what the build wrote (``data/<run>/datapackage.json`` for each table's caption and headers,
``figures/<run>/captions.json`` for the figures), so it exports exactly what the pages show.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

import pandas as pd

from .catalogue import CHAPTERS, sources
from .paths import PUBLISHED_DIR, output_root

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
UNICODE = {"–": "--", "—": "---", "−": "-", "×": r"$\times$", "“": "``", "”": "''", "’": "'", "‘": "`",
           "≤": r"$\leq$", "≥": r"$\geq$", "±": r"$\pm$", "\u2009": " ", "\u202f": r"\,", "\u200b": "",
           "→": r"$\rightarrow$",
           "✓": "yes", "✗": "no", "⚠": "!", "·": r"$\cdot$", "…": r"\ldots{}", "é": r"\'e", "ü": r'\"u'}


class ExportError(Exception):
    """The export cannot be made (a run that was never built): one line saying why."""


def latex(text) -> str:
    """Text as LaTeX: its special characters escaped, the report's typography in LaTeX's own terms."""
    out = "".join(LATEX_SPECIAL.get(c, c) for c in str(text))
    for char, replacement in UNICODE.items():
        out = out.replace(char, replacement)
    return out


# -- the references -----------------------------------------------------------------------------------------------
def bib_entries() -> dict[str, str]:
    """Every cited write-up as a BibTeX ``@misc`` entry, by key."""
    entries = {}
    with open(PUBLISHED_DIR / "sources.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["bibkey"]:
                entries[row["bibkey"]] = _entry(row["bibkey"], row["author"], row["title"], row["date"],
                                                row["address"], row["citation"])
    with open(PUBLISHED_DIR / "references.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            entries[row["key"]] = _entry(row["key"], row["author"], row["title"], row["year"], row["address"],
                                         "; ".join(p for p in (row["published_in"], row["note"]) if p))
    return entries


def _entry(key: str, author: str, title: str, date: str, address: str, note: str) -> str:
    fields = [f"  title = {{{{{latex(title)}}}}}"]
    if author and not author.startswith(("not stated", "author not stated")):
        fields.insert(0, f"  author = {{{{{latex(author)}}}}}")
    year = re.search(r"\b(1[89]|20)\d\d\b", date or "")
    if year:
        fields.append(f"  year = {{{year[0]}}}")
    if address.startswith("http"):
        fields.append(f"  howpublished = {{\\url{{{address}}}}}")
    if note:
        fields.append(f"  note = {{{latex(note)}}}")
    return f"@misc{{{key},\n" + ",\n".join(fields) + "\n}\n"


def cited_by(stem: str) -> list[str]:
    """The BibTeX keys a chapter's tables cite: its source's, or every write-up of its printed figures."""
    chapter = next(c for c in CHAPTERS if stem == c.stem or stem.startswith(c.stem + "--"))
    if chapter.source is None:
        return []
    source = sources()[chapter.source]
    if source.bibkey:
        return [source.bibkey]
    published = pd.read_csv(PUBLISHED_DIR / f"{chapter.stem}.csv", dtype=str, keep_default_na=False)
    return list(dict.fromkeys(k for k in published["source"] if k))


# -- the tables -----------------------------------------------------------------------------------------------------
def latex_table(frame: pd.DataFrame, resource: dict, label: str, cite: list[str]) -> str:
    """One table as LaTeX (booktabs): the page's headers, numbers right-aligned, its caption citing ``cite``."""
    headers = {f["name"]: f.get("title", f["name"].replace("_", " ")) for f in resource["schema"]["fields"]}
    shown = frame.rename(columns=lambda c: latex(headers.get(c, c)))
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
               for c in frame.columns]
    caption = resource.get("description", resource["name"]).rstrip(".")
    number = resource.get("title", "")
    text = latex(caption) + (f" (from \\cite{{{','.join(cite)}}})" if cite else "") + "."
    styler = shown.style.hide(axis="index").format(_cell, escape=None)
    return styler.to_latex(column_format="".join("r" if n else "l" for n in numeric), hrules=True,
                           caption=(f"{latex(number)}. " if number else "") + text, label=label,
                           position_float="centering")


def _cell(value) -> str:
    """A cell as LaTeX: whole numbers with thin-space thousands, floats to four decimals (six significant digits
    below 1), text escaped."""
    if isinstance(value, bool) or value is None or (isinstance(value, float) and pd.isna(value)):
        return "" if value is None or (isinstance(value, float) and pd.isna(value)) else ("yes" if value else "no")
    if isinstance(value, int) or (hasattr(value, "is_integer") and isinstance(value, float) and value.is_integer()
                                  and abs(value) < 1e15):
        return f"{int(value):,}".replace(",", r"\,")
    if isinstance(value, float):  # four decimals, or six significant digits below 1 (the CSV beside it is exact)
        text = f"{value:,.4f}".rstrip("0").rstrip(".") if abs(value) >= 1 else f"{value:.6g}"
        return latex(text).replace(",", r"\,").replace("-", "$-$")
    return latex(value)


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


def export(run: str | None = None, out: Path | None = None) -> Path:
    """Write the kit (see the module docstring) and its zip; returns the folder."""
    runs = runs_to_export(run)
    root = output_root()
    name = run or "report"
    folder = (out or root / "export") / name
    staging = folder.with_name(f".{name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    captions, cited = [], set()
    for stem in runs:
        cite = cited_by(stem)
        cited.update(cite)
        captions += _figures(root, stem, staging)
        captions += _tables(root, stem, staging, cite)
    entries = bib_entries()
    (staging / "references.bib").write_text("".join(entries[k] for k in sorted(entries)), encoding="utf-8")
    (staging / "captions.md").write_text("".join(captions), encoding="utf-8")
    (staging / "README.txt").write_text(README, encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)
    archive = folder.with_suffix(".zip")
    with zipfile.ZipFile(archive.with_suffix(".zip.partial"), "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                info = zipfile.ZipInfo(str(path.relative_to(folder.parent)), date_time=(2026, 1, 1, 0, 0, 0))
                zipped.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    archive.with_suffix(".zip.partial").replace(archive)
    return folder


def _figures(root: Path, stem: str, staging: Path) -> list[str]:
    path = root / "figures" / stem / "captions.json"
    if not path.exists():
        return []
    target = staging / "figures" / stem
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for figure in json.loads(path.read_text(encoding="utf-8")):
        for file in figure["files"]:
            shutil.copy2(root / "figures" / stem / file, target / file)
        files = ", ".join(f"figures/{stem}/{f}" for f in figure["files"])
        lines.append(f"- **{figure['figure']}** ({stem}). {figure['caption']} Files: {files}.\n")
    return lines


def _tables(root: Path, stem: str, staging: Path, cite: list[str]) -> list[str]:
    package = json.loads((root / "data" / stem / "datapackage.json").read_text(encoding="utf-8"))
    target = staging / "tables" / stem
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for resource in package["resources"]:
        source = root / "data" / stem / resource["path"]
        shutil.copy2(source, target / resource["path"])
        frame = pd.read_csv(source, keep_default_na=False, na_values=[""])
        name = resource["path"].removesuffix(".csv")
        label = f"tab:{stem}:{name}"
        (target / f"{name}.tex").write_text(latex_table(frame, resource, label, cite), encoding="utf-8")
        if "description" in resource:
            number = resource.get("title") or name
            lines.append(f"- **{number}** ({stem}). {resource['description'].rstrip('.')}. Files: "
                         f"tables/{stem}/{name}.csv, tables/{stem}/{name}.tex (\\label{{{label}}}).\n")
    return lines


README = """Shut the Box, solved exactly: the write-up kit

figures/<chapter>/   every figure as PDF (TrueType fonts), SVG (text as text) and PNG (200 dpi)
tables/<chapter>/    every table as CSV and as a LaTeX table (\\input{...} it; needs \\usepackage{booktabs})
captions.md          every figure's and table's number, caption and files
references.bib       the write-ups the captions cite (\\cite{...} keys), for BibTeX or biblatex

The tables and figures are under CC BY 4.0: cite the report (see CITATION.cff in the project) and, for a figure a
source printed, that source.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stb_core.report.export", description=__doc__.splitlines()[0])
    parser.add_argument("--run", help="a rerun's name (default: the report's chapters)")
    parser.add_argument("--out", type=Path, help="the folder to write into (default: export/)")
    args = parser.parse_args(argv)
    try:
        folder = export(args.run, args.out)
    except ExportError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {folder} and {folder.with_suffix('.zip')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
