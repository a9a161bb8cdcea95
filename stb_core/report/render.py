"""A run's page: its executed notebook rendered to offline HTML with the reader template, the chapter's opening box
(verdict, findings, source, claims) under its title; and the assets every page loads (CSS, scripts, MathJax)."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import sys
from pathlib import Path

from . import crossref, shell
from .catalogue import CHAPTERS, sources
from .jobs import Job
from .paths import TEMPLATES, output_root, report_dir, write_text
from .present import claims_table, prose_inline
from .site import label, many, slug, tally

ASSETS = "assets"
# What the kernel's own messaging logs to stderr when a malformed message reaches it (seen under heavy load:
# "ERROR:tornado.general:Uncaught exception in ZMQStream callback ... DELIM not in msg_list"): not the notebook's
KERNEL_NOISE = re.compile(r"\A(?:ERROR|WARNING):tornado\.")


def insert_opening(notebook, box: str) -> None:
    """Put the opening ``box`` right under the page's title: the first markdown cell is split after its ``#``
    heading, the introduction following the box (fixed cell ids: the page stays byte-identical)."""
    import nbformat

    first = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown")
    heading, _, introduction = notebook.cells[first].source.partition("\n")
    if heading.startswith("# ") and introduction.strip():
        notebook.cells[first].source = heading
        rest = nbformat.v4.new_markdown_cell(introduction.strip("\n"), metadata=notebook.cells[first].metadata)
        rest["id"] = "introduction"
        notebook.cells.insert(first + 1, rest)
    opening = nbformat.v4.new_raw_cell(box, metadata={"stb": "opening"})
    opening["id"] = "opening"
    notebook.cells.insert(first + 1, opening)

def opening_box(record: dict | None, job: Job) -> str:
    """The box that opens every chapter's page, right under its title, so that its first screen states its result:
    where the chapter judges published claims (a source's, or a further write-up's) its verdict first, then what the
    page finds, then the source, each claim where it is wrong with the figure computed now, and the claims that hold
    folded below."""
    key, record = job.chapter.source, record or {}
    judged = bool(record) and (key is not None or bool(record.get("claims")))
    parts = [verdict_line(record)] if judged else []
    if record.get("findings"):
        items = "".join(f'<li id="result-{n}">{prose_inline(text)}</li>'
                        for n, text in enumerate(record["findings"], 1))
        parts.append(f'<h2 class="stb-opening-title" id="results">What this chapter finds</h2><ul>{items}</ul>')
    if key is not None:
        source = sources()[key]
        parts.append(f'<p class="stb-cite"><strong>The source.</strong> {html.escape(source.cite())}'
                     + (f' (<a href="{html.escape(source.address)}">{html.escape(source.address)}</a>)'
                        if source.address.startswith("http") else "") + f". Its game: {html.escape(source.rules)}.</p>")
    if judged and record["verdict"] != "not applicable":
        wrong = [c for c in record["claims"] if c["mark"] == "✗"]
        right = [c for c in record["claims"] if c["mark"] != "✗"]
        if wrong:
            parts.append(claims_table(wrong, "Where the source is wrong" if key else "Where a write-up is wrong"))
        if right:
            parts.append(f'<details><summary>The {many(len(right), "claim")} that hold, each with the figure '
                         f'computed now</summary>{claims_table(right, "Claims reproduced or confirmed")}</details>')
    return f'<section class="stb-opening">{"".join(parts)}</section>' if parts else ""

def verdict_line(record: dict) -> str:
    """The chapter's verdict on the claims it judges, with their tally (or why none applies to this run)."""
    if record["verdict"] == "not applicable":
        return ('<p class="stb-verdict-line">This run’s parameters are not the game of the published figures, so '
                'none of them is judged on this page; the checks at the end list each one.</p>')
    return (f'<p class="stb-verdict-line"><span class="stb-badge stb-{slug(record["verdict"])}">'
            f'{html.escape(record["verdict"].capitalize())}</span> — {tally(record)}.</p>')

def _heading(notebook) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, re.M)
            if match:
                return match.group(1).strip()
    return ""


def drop_kernel_noise(notebook) -> int:
    """Remove the stderr blocks the kernel's messaging wrote into cells (:data:`KERNEL_NOISE`), saying how many on
    the build's stderr; any other stderr stays on the page, where the page linter flags it."""
    dropped = 0
    for cell in notebook.cells:
        if "outputs" not in cell:  # a text cell
            continue
        kept = [o for o in cell["outputs"] if not (o.get("output_type") == "stream" and o.get("name") == "stderr"
                                                   and KERNEL_NOISE.match(o.get("text", "")))]
        dropped += len(cell["outputs"]) - len(kept)
        cell["outputs"] = kept
    if dropped:
        print(f"dropped {dropped} stderr block{'s' if dropped != 1 else ''} of the kernel's own messaging "
              "(tornado) from the page", file=sys.stderr)
    return dropped


def render(job: Job, folder: Path) -> None:
    """Render the staged executed notebook to offline HTML with the reader template, into ``folder/page.html``."""
    import nbformat
    from nbconvert import HTMLExporter

    up = "" if job.default else "../"
    notebook = nbformat.read(folder / "executed.ipynb", as_version=4)
    drop_kernel_noise(notebook)
    title = _heading(notebook) or job.chapter.title
    notebook.metadata["title"] = f"{title} — Shut the Box, solved exactly"
    record_path = folder / "out" / "data" / job.run / "checks.json"
    record = json.loads(record_path.read_text(encoding="utf-8")) if record_path.exists() else None
    box = opening_box(record, job)
    if box:
        insert_opening(notebook, box)
    order = shell.entries()
    position = next(i for i, e in enumerate(order) if e.page == job.chapter.page)
    previous, following = order[position - 1], order[position + 1] if position + 1 < len(order) else None
    notebook_href = job.notebook_path.relative_to(job.html_path.parent).as_posix()
    extra = (f'<button id="stb-toggle-code" type="button" aria-pressed="false">show code</button>'
             f'<a class="stb-button" href="{html.escape(notebook_href)}" download>notebook (.ipynb)</a>')
    resources = {
        "metadata": {"name": title},
        "stb": {
            "up": up, "assets": f"{up}{ASSETS}/", "chapter": job.chapter.number,
            "frame": shell.frame(job.chapter.page, up, extra),
            "previous": (f"{up}{previous.page}", label(previous)),
            "next": (f"{up}{following.page}", label(following)) if following else None,
            "rerun": None if job.default else {html.escape(str(k)): html.escape(str(v))
                                               for k, v in job.parameters.items()},
        },
    }
    exporter = HTMLExporter(template_name="reader", extra_template_basedirs=[str(TEMPLATES)])
    exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    body = crossref.number_headings(body, job.chapter.number)
    body = crossref.link_references(body, job.chapter.number, {c.number: c.page for c in CHAPTERS}, up)
    body = crossref.fold_findings(body, job.chapter.number)
    write_text(folder / "page.html", body)


MATHJAX = ("django-static-mathjax", "mathjax/static/mathjax/", ("es5/tex-svg-full.js", "LICENSE"))


def install_assets(default: bool) -> None:
    """The CSS, the scripts and MathJax 3 in the report: written by a build of the default report (a file only when
    its bytes change), and by a rerun only when missing. MathJax is one file, ``es5/tex-svg-full.js`` of the
    ``django-static-mathjax`` package (every TeX extension and the SVG glyphs bundled: it needs no other file), with
    MathJax's licence beside it."""
    from importlib.metadata import distribution

    target = report_dir() / ASSETS
    wanted = {target / asset.name: asset for asset in sorted((TEMPLATES / "assets").iterdir())}
    package, folder, files = MATHJAX
    located = {str(f): f for f in distribution(package).files}
    for name in files:
        wanted[target / "mathjax" / Path(name).name] = Path(distribution(package).locate_file(located[folder + name]))
    if default and (target / "mathjax").is_dir():  # a report built before MathJax was one file
        for old in (target / "mathjax").iterdir():
            if old.is_dir():
                shutil.rmtree(old)
            elif old not in wanted:
                old.unlink()
    for path, source in wanted.items():
        if default or not path.exists():
            if not path.exists() or path.read_bytes() != source.read_bytes():
                write_bytes(path, source.read_bytes())

def write_reference_packages() -> None:
    """``datapackage.json`` of the committed reference data (``data/published``, ``data/bench``), written only when
    its bytes change (a fresh clone's build leaves the committed files as they are)."""
    from . import dictionary

    for name in dictionary.REFERENCE:
        folder = output_root() / "data" / name
        if folder.is_dir():
            data = dictionary.reference_package(folder).encode("utf-8")
            path = folder / "datapackage.json"
            if not path.exists() or path.read_bytes() != data:
                write_bytes(path, data)

def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` through a temporary file renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


__all__ = ["ASSETS", "install_assets", "opening_box", "render", "write_bytes", "write_reference_packages"]
