"""Build the report: run the notebooks with papermill, render them to offline HTML, write the index.

``python -m stb_core.report`` (``make report``) runs every chapter of :mod:`stb_core.report.catalogue` with its
default parameters and writes ``report/<stem>.html`` and the executed ``report/notebooks/<stem>.ipynb``;
``--notebook STEM -p name value ...`` (``make notebook``) reruns one notebook with other parameters into
``report/runs/<run>.html``, named after them; it never touches the default report's files (the default parameters
are refused: that is ``make report``). ``report/`` also gets every table and figure file the pages link to, the
position explorer and the assets (CSS, script, MathJax 3 with its SVG output, which needs no font files), so the
folder travels whole and opens from ``file://`` with the network off.

**Before any work** the parameters are checked against the notebook's declared domain (one line naming the
parameter and what is allowed, exit 2), and a run estimated to take more than a minute says so.

**One build at a time.** A build holds a lock on the report folder (``flock`` on the folder itself: no lock file
is left behind); a second build started meanwhile says it is waiting and starts when the first ends.

**Staging and an atomic publish.** Each notebook runs in a process of its own (:mod:`stb_core.report.run`, its own
process group) into the build's staging folder, ``report/.build-<pid>/<run>/``; its page is rendered there too.
Only a run that succeeded is published, one folder or file at a time, each by a rename: a table or figure folder
replaces the old one in two renames (the old one set aside as ``.<name>.old``, then removed), a page or notebook
file in one. A build killed at any instant leaves each published folder either old or new and whole; the next
build puts back a folder set aside but not replaced, and removes leftover staging. Shared files -- the index, the
explorer, the assets -- are written last.

**Interrupts stop.** Ctrl-C or SIGTERM stops the running kernels (their process groups are signalled), starts no
further notebook, removes the staging folder and says exactly which runs were published. A build whose parent
(``make``) dies gets SIGTERM and stops the same way. Kernel chatter goes to a log in the staging folder, shown only
when a kernel fails; progress lines a notebook reports (``Page.progress``) are printed as they come.
"""

from __future__ import annotations

import argparse
import fcntl
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..cost import ANNOUNCE_AFTER
from ..sources.words import NUMBER_WORDS
from . import crossref, shell
from . import publish as publishing
from .catalogue import CHAPTERS, EXPLORER, Chapter, chapter, sources
from .checks import read_record, repeated_claims, tally_claims
from .parameters import ParameterError, domain, parse_value, run_name
from .paths import TEMPLATES, output_root, report_dir, write_text
from .present import claims_table, prose_inline
from .run import die_with_parent, skip_the_iri_grammar
from .site import label, many, slug, tally, write_site_page

ASSETS = "assets"
HEARTBEAT = 30.0  # seconds between "still running" lines for a run estimated to take over a minute
STAGING_PREFIX = ".build-"
REPAIRED_NOTE = ".repaired"  # the runs a killed build's janitor finished publishing, said by the next build


class ReportError(Exception):
    """A problem with the request (unknown notebook or parameter, the default report asked as a rerun)."""


class NotebookFailed(Exception):
    """A notebook raised an error while running: reported with its message, status 1."""


@dataclass(frozen=True)
class Job:
    """One notebook run: which chapter, with which parameters, under which name (and what it is estimated to
    take, when known)."""

    chapter: Chapter
    parameters: dict
    run: str
    estimate: object = None

    @property
    def stem(self) -> str:
        return self.chapter.stem

    @property
    def default(self) -> bool:
        return self.run == self.stem

    @property
    def html_path(self) -> Path:
        return report_dir() / (f"{self.stem}.html" if self.default else f"runs/{self.run}.html")

    @property
    def notebook_path(self) -> Path:
        return report_dir() / (f"notebooks/{self.stem}.ipynb" if self.default else f"runs/{self.run}.ipynb")


# -- planning ----------------------------------------------------------------------------------------------
def defaults_of(stem: str) -> dict:
    from .page import notebook_defaults

    return notebook_defaults(stem)


def plan(stem: str | None, pairs: list[tuple[str, str]]) -> list[Job]:
    """The runs to do; raises :class:`ReportError` for an unknown notebook, an unknown or out-of-domain
    parameter, a parameter given twice, or a rerun with the default parameters -- before any work."""
    if stem is None:
        if pairs:
            raise ReportError("parameters (-p) need one notebook: add --notebook STEM")
        return [Job(c, {}, c.stem) for c in CHAPTERS]
    stems = [c.stem for c in CHAPTERS]
    if stem not in stems:
        raise ReportError(f"notebook must be one of {', '.join(stems)}; got {stem!r}")
    defaults = defaults_of(stem)
    declared = {p.name: p for p in domain(stem).parameters}
    given = {}
    for name, text in pairs:
        if name in given:
            raise ReportError(f"parameter {name!r} is given twice")
        text_parameter = name in declared and declared[name].kind is str
        given[name] = text if text_parameter else parse_value(text)
    try:
        values = domain(stem).check({**defaults, **given})
    except ParameterError as error:
        raise ReportError(str(error)) from None
    run = run_name(stem, values, defaults)
    if run == stem:
        raise ReportError(f"these are the default parameters of {stem}: that is the default report -- "
                          f"run make report")
    cost = estimate_run(stem, values)
    if not cost.affordable:
        from ..cost import MEMORY_BUDGET, TIME_BUDGET

        raise ReportError(f"{stem} with these parameters is out of reach: it would take {cost.describe()} (the "
                          f"budget: {TIME_BUDGET / 60:.0f} minutes and {MEMORY_BUDGET / 2**30:.0f} GB); use fewer "
                          f"tiles, dice or sides")
    return [Job(chapter(stem), {k: v for k, v in values.items() if defaults.get(k) != v}, run, cost)]


def estimate_run(stem: str, values: dict):
    """What a run of ``stem`` with these (checked) parameters is expected to take, from its chapter module's
    ``estimate`` (built on :mod:`stb_core.cost`: counted from the rules, before any work)."""
    import importlib

    from ..cost import Estimate
    from .page import rules_of

    module = importlib.import_module(f"stb_core.sources.{chapter(stem).module}")
    rules = rules_of(values)
    work = module.estimate(rules, **{k: v for k, v in values.items() if k not in rules.__dataclass_fields__})
    return work + Estimate(10.0)  # a kernel started, the figures drawn, the page rendered


# -- one build at a time, and what a killed build left behind ---------------------------------------------------
class ReportLock:
    """An exclusive lock on the report folder (``flock`` on the folder itself, so no lock file is left behind);
    a build that finds it taken says so and waits."""

    def __init__(self, log=print):
        self.log, self.fd = log, None

    def __enter__(self) -> ReportLock:
        folder = report_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.log(f"another build of {folder} is running; waiting for it to finish ...", flush=True)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def published_roots() -> list[Path]:
    """The folders whose entries a build replaces (and a killed build may have left half-replaced)."""
    return [output_root() / "data", output_root() / "figures", report_dir() / "data", report_dir() / "figures",
            report_dir() / "runs", report_dir() / "notebooks", report_dir()]


def recover(log=None) -> list[str]:
    """Finish what a killed or failed build left (called under the lock, before any work): a publication it left
    journalled is rolled forward (:mod:`stb_core.report.publish`: the run wholly new), then what was set aside,
    copied beside a target or staged is removed. ``log`` (a build) hears one line per publication finished, those
    its janitor finished included; without one (the janitor) they are noted for the next build to say."""
    note = report_dir() / REPAIRED_NOTE  # what a killed build's janitor repaired, for the next command to say
    repaired = (note.read_text(encoding="utf-8").split() if note.exists() else []) + publishing.recover(report_dir())
    if log:
        for run in repaired:
            log(f"repaired: the publication of {run}, which a stopped build had begun, is finished (the run is wholly "
                f"the new one)", flush=True)
        note.unlink(missing_ok=True)
    elif repaired:
        write_text(note, "\n".join(repaired) + "\n")
    for root in published_roots():
        publishing.sweep(root, (STAGING_PREFIX,))
    return repaired


# -- running ----------------------------------------------------------------------------------------------
class _Progress(threading.Thread):
    """Print the lines a running notebook appends to its progress file."""

    def __init__(self, path: Path, label: str, log):
        super().__init__(daemon=True)
        self.path, self.label, self.log, self.done = path, label, log, threading.Event()

    def run(self) -> None:
        seen = 0
        while not self.done.wait(0.5):
            seen = self._drain(seen)
        self._drain(seen)

    def _drain(self, seen: int) -> int:
        if not self.path.exists():
            return seen
        lines = self.path.read_text(encoding="utf-8").splitlines()
        for line in lines[seen:]:
            self.log(f"{self.label} {line}", flush=True)
        return len(lines)


@dataclass
class Running:
    """A notebook running in its own process group, with its staging folder and progress watcher."""

    job: Job
    label: str
    folder: Path
    process: subprocess.Popen
    watcher: _Progress
    started: float
    heard: float = 0.0  # when the build last said something about it


def start(job: Job, staging: Path, label: str, log) -> Running:
    """Start the notebook of ``job`` in a process of its own (a new process group) staging into ``staging``."""
    folder = staging / job.run
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "out").mkdir(parents=True)
    (folder / "runtime").mkdir()
    spec = folder / "job.json"
    spec.write_text(json.dumps({"stem": job.stem, "run": job.run, "parameters": job.parameters,
                                "folder": str(folder)}), encoding="utf-8")
    watcher = _Progress(folder / "progress.txt", f"{label} {job.run}:", log)
    watcher.start()
    runtime = str(folder / "runtime")  # kernel connection files (jupyter_client writes them to TMPDIR) go here
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": runtime, "TMPDIR": runtime, "PYTHONUNBUFFERED": "1"}
    with open(folder / "runner.log", "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "stb_core.report.run", str(spec)], stdout=out,
                                   stderr=subprocess.STDOUT, env=env, start_new_session=True)
    now = time.perf_counter()
    return Running(job, label, folder, process, watcher, now, now)


def longest_first(queue: list[tuple[int, Job]]) -> list[tuple[int, Job]]:
    """The runs in the order they start: the longest estimated first (so that, two at a time, the build does not
    end with one long notebook running alone); equal estimates in catalogue order. The order changes no output."""
    def seconds(job: Job) -> float:
        try:
            cost = job.estimate or estimate_run(job.stem, {**defaults_of(job.stem), **job.parameters})
        except ValueError:  # bad rules or parameters (the run will fail and say so): price it last
            return 0.0
        return cost.seconds

    return sorted(queue, key=lambda item: -seconds(item[1]))


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} minutes"


def stop(running: list[Running], grace: float = 5.0) -> None:
    """Stop running notebooks at once: SIGTERM to each process group, SIGKILL to what is left after ``grace``."""
    for r in running:
        _signal_group(r.process, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for r in running:
        try:
            r.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        _signal_group(r.process, signal.SIGKILL)
        r.process.wait()
        r.watcher.done.set()


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _make_reproducible(path: Path) -> None:
    """Drop what differs between two runs of the same parameters -- papermill's random id for the cell it injects,
    its clock times, durations and paths -- so that the notebook and its page are the same, byte for byte."""
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell["id"] = "injected-parameters"
        for key in ("papermill", "execution"):
            cell.get("metadata", {}).pop(key, None)
    run = notebook.metadata.get("papermill", {})
    for key in ("start_time", "end_time", "duration", "input_path", "output_path", "exception"):
        run.pop(key, None)
    nbformat.write(notebook, path)


def publish(job: Job, folder: Path) -> None:
    """Publish a successful run from its staging folder, all or nothing (:func:`stb_core.report.publish.publish`):
    its tables and figures (under the project root and in the report), its executed notebook, then its page."""
    pairs = []
    for kind in ("data", "figures"):
        made = folder / "out" / kind / job.run
        if made.exists():
            copy = folder / f"{kind}-copy"
            try:
                shutil.copytree(made, copy)
            except OSError as error:  # nothing is in place yet
                raise publishing.PublishError(error.errno, publishing.refusal(error, copy.parent)) from None
            pairs += [(made, output_root() / kind / job.run), (copy, report_dir() / kind / job.run)]
    pairs += [(folder / "executed.ipynb", job.notebook_path), (folder / "page.html", job.html_path)]
    publishing.publish(report_dir(), job.run, pairs)


def targets(jobs: list[Job]) -> list[Path]:
    """Every folder the jobs' publication writes into: probed before any notebook runs."""
    folders = {report_dir()}
    for job in jobs:
        folders |= {output_root() / "data", output_root() / "figures", report_dir() / "data",
                    report_dir() / "figures", job.notebook_path.parent, job.html_path.parent}
    return sorted(folders)


# -- rendering --------------------------------------------------------------------------------------------
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
            f'{html.escape(record["verdict"].capitalize())}</span> {tally(record)}.</p>')


def _heading(notebook) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, re.M)
            if match:
                return match.group(1).strip()
    return ""


def render(job: Job, folder: Path) -> None:
    """Render the staged executed notebook to offline HTML with the reader template, into ``folder/page.html``."""
    import nbformat
    from nbconvert import HTMLExporter

    up = "" if job.default else "../"
    notebook = nbformat.read(folder / "executed.ipynb", as_version=4)
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


# -- the index ---------------------------------------------------------------------------------------------
def identity() -> dict:
    """Who made the report, which version of it this is and how to cite it: the package's version, the commit
    the pages were built from and that commit's date (not the clock: the same commit gives the same bytes)."""
    from importlib.metadata import PackageNotFoundError, version

    from .paths import PROJECT_ROOT

    try:
        release = version("stb-core")
    except PackageNotFoundError:
        release = "unreleased"
    commit = date = ""
    if (PROJECT_ROOT / ".git").exists():
        def git(*args):
            done = subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True)
            return done.stdout.strip() if done.returncode == 0 else ""
        commit, date = git("rev-parse", "--short=12", "HEAD"), git("log", "-1", "--format=%cs")
    built = f"commit {commit}, {date}" if commit else "not built from a git checkout"
    author = "the Shut the Box report contributors"
    return {"version": release, "commit": commit, "date": date, "author": author,
            "line": f"Version {release} ({built}) · by {author} · code under the MIT licence, text, tables and "
                    f"figures under CC BY 4.0.",
            "cite": f"The Shut the Box report contributors, “Shut the Box, solved exactly”, version {release}"
                    + (f", {date[:4]}" if date else "") + (f" (commit {commit})" if commit else "")
                    + ". See CITATION.cff in the project for the citation in machine-readable form."}


def write_index() -> None:
    """``report/index.html`` from the catalogue and the chapters' records (nothing written by hand)."""
    from ..sources.words import listing
    from .checks import STANDARD, load_published, reference_parts, references
    from .paths import PUBLISHED_DIR
    from .pdf import current as pdf_current

    records = {c.stem: _current(read_record(c.stem)) for c in CHAPTERS}
    written = references()  # every write-up cited, in the chapters' order
    listed = {s.bibkey for s in sources().values()}  # the first list; the second, every other write-up cited
    citing = {c.number: [key for key in load_published(c.stem)["source"] if key in written and key not in listed]
              for c in CHAPTERS if (PUBLISHED_DIR / f"{c.stem}.csv").exists()}
    cited = dict.fromkeys(key for keys in citing.values() for key in keys)
    numbers = [str(n) for n, keys in citing.items() if keys]
    write_site_page("index.html.j2", "index.html", "index.html", "Verdicts and abstract", math=True,
                    chapters=CHAPTERS, records=records, sources=sources(), explorer=EXPLORER,
                    abstract=abstract(records), identity=identity(), standard=STANDARD,
                    references=[reference_parts(key) for key in cited], pdf=pdf_current(),
                    citing_chapters=f"chapter{'s' if len(numbers) > 1 else ''} {listing(numbers, most=len(numbers))}")


def write_appendices() -> None:
    """The glossary and the reproducibility appendix (with the speed measurements of ``make bench``)."""
    from importlib.metadata import PackageNotFoundError, version

    from .catalogue import GLOSSARY
    from .paths import SOLVE_TIMES

    write_site_page("glossary.html.j2", "glossary.html", "glossary.html", "Glossary", terms=GLOSSARY)
    versions = []
    for name in ("stb-core", "numpy", "pandas", "numba", "matplotlib", "nbconvert", "papermill"):
        try:
            versions.append((name, version(name)))
        except PackageNotFoundError:
            pass
    versions.append(("Python", sys.version.split()[0]))
    times = None
    if SOLVE_TIMES.exists():
        import pandas as pd

        from ..sources.whole_map import solve_times
        from .present import integer, number, table_html

        measured = pd.read_csv(SOLVE_TIMES)
        table = solve_times(measured)
        caption = (f"Seconds to solve every board for the least expected sum left, two dice: median of "
                   f"{int(measured['processes'].max())} fresh processes, measured by make bench on "
                   f"{measured['measured'].iloc[0]} ({measured['machine'].iloc[0]}), and the peak memory of the whole "
                   f"process. The plain loop is the plainest compiled loop over the same equation, the yardstick the "
                   f"engine's loop is held to")
        formats = {c: number(2) for c in table.columns if c.endswith(("seconds", "GB"))} | {"boards": integer}
        times = {"caption": "Timings vary from machine to machine and run to run; these are the last measurement.",
                 "table": table_html(table, caption, "solve-times", formats=formats, max_rows=None,
                                     label="Table B.1")}
    write_site_page("reproducibility.html.j2", "reproducibility.html", "reproducibility.html", "Reproducibility",
                    identity=identity(), versions=versions, times=times)


def write_runs_index() -> None:
    """``report/runs/index.html``: every rerun page, the one shared file a rerun writes beside its own (the
    reproducibility appendix links to it)."""
    write_site_page("runs.html.j2", "runs/index.html", "runs/index.html", "Runs with other parameters", up="../",
                    runs=_runs())


def _runs() -> list[tuple[str, str]]:
    """Every rerun page in ``report/runs/``, with a label from its record (its file name is only ever text)."""
    folder = report_dir() / "runs"
    if not folder.exists():
        return []
    found = []
    for page in sorted(folder.glob("*.html")):
        if page.name == "index.html":
            continue
        record = read_record(page.stem)
        found.append(("./" + urllib.parse.quote(page.name), page.stem if record is None else
                      f"{record['title']}: " + ", ".join(f"{k} = {v}" for k, v in _changed(page.stem, record).items())))
    return found


def _changed(run: str, record: dict) -> dict:
    """The parameters a run's record gives that differ from its notebook's defaults, in the declared order."""
    defaults = defaults_of(record.get("stem", run.split("--")[0]))
    return {k: v for k, v in record.get("parameters", {}).items() if defaults.get(k) != v}


def _current(record: dict | None) -> dict | None:
    """A record in this version's shape (one from an older build is treated as missing)."""
    return record if record and "claims" in record else None


def abstract(records: dict) -> list[str]:
    """Four sentences with the key numbers, from the chapters' headline values and their distinct claims."""
    def value(stem, key):
        record = records.get(stem) or {}
        return record.get("headline", {}).get(key, "…")

    counts = {"reproduced": 0, "corrected": 0, "off": 0, "contradicted": 0}
    claims, refuted, checked = 0, 0, 0
    analyses = {s.bibkey for s in sources().values() if not s.author.startswith("several")}  # one analysis each
    printed = 0  # figures printed by other write-ups (chapter 8's many, chapter 9's)
    for c in CHAPTERS:
        record = records.get(c.stem)
        if record and (c.source or record["claims"]):
            checked += 1
            repeated = repeated_claims(c.stem)  # read once per chapter, not once per claim
            distinct = [k for k in record["claims"] if k["claim_id"] not in repeated]
            claims += len(distinct)
            printed += sum(k["source"] not in analyses for k in distinct)
            tally = tally_claims(distinct)
            for k in counts:
                counts[k] += tally[k]
            refuted += record["counts"]["contradicted"] > 0
    more = f", and {printed} further figures printed by other write-ups," if printed else ""
    margin = (records.get("06-whole-map") or {}).get("parameters", {}).get("margin_percent")  # the card's margin
    margin = "…" if margin is None else f"{margin:g}"
    return [
        "This report solves the dice game Shut the Box exactly, by dynamic programming over every set of open "
        f"tiles, and checks {NUMBER_WORDS.get(len(analyses), str(len(analyses)))} published analyses of the "
        f"game{more} against one engine.",
        f"On the classic board (tiles 1–9, two dice) perfect play shuts the box in "
        f"{value('06-whole-map', 'optimal win, 9 tiles')} of games, "
        f"{value('02-riddler-one-die', 'P(win), perfect play')} when one die may be rolled once 7, 8 and 9 are "
        f"shut, and leaves {value('05-expected-cost-mdp', 'expected sum left')} open on average when playing "
        f"for the lowest sum.",
        f"Of the {claims} distinct published claims the report judges, {counts['reproduced']} are reproduced or "
        "confirmed, "
        + (f"{many(counts['corrected'], 'figure')} corrected by the source itself, " if counts['corrected'] else "")
        + f"{many(counts['off'], 'printed figure')} {'is' if counts['off'] == 1 else 'are'} off and "
        f"{many(counts['contradicted'], 'statement')} {'is' if counts['contradicted'] == 1 else 'are'} "
        f"contradicted: in {refuted} of the {checked} chapters that judge published claims, a statement is refuted "
        "by the "
        f"exact solution.",
        f"The rule of thumb the report recommends for two dice, the simplest strategy card within {margin}% of the "
        f"optimum, “{value('06-whole-map', 'strategy card')}”, gives up {value('06-whole-map', 'card loss')} of the "
        f"optimal chance of winning.",
    ]


# -- the command --------------------------------------------------------------------------------------------
def _serialised(log):
    """``log`` behind a lock: lines from the notebooks running side by side never interleave."""
    lock = threading.Lock()

    def write(*args, **kwargs):
        with lock:
            log(*args, **kwargs)
    return write


class Interrupted(Exception):
    """Ctrl-C or SIGTERM during a build: the runs published before it are listed."""

    def __init__(self, published: list[str], total: int):
        self.published, self.total = published, total
        done = (f"{len(published)} of {total} runs published before it ({', '.join(published)}); the others are as "
                f"they were" if published else "nothing was published: the report is as it was before this run")
        super().__init__(f"interrupted: the running notebooks were stopped; {done}")


class _Signals:
    """How a build answers Ctrl-C and SIGTERM: the first signal stops it (a KeyboardInterrupt where it is), except
    while a run is being published, when it is held until that run is wholly in place (a chapter is never half
    published); once the build is stopping, further signals (make forwards its own SIGTERM) change nothing."""

    def __init__(self) -> None:
        self.deferring, self.pending, self.stopping = False, None, False

    def handler(self, signum, frame) -> None:
        if self.stopping:
            return
        if self.deferring:
            self.pending = signum
            return
        self.stopping = True
        raise KeyboardInterrupt

    @contextmanager
    def deferred(self):
        """Hold signals for the block; a signal that came meanwhile stops the build once the block is done."""
        self.deferring = True
        try:
            yield
        finally:
            self.deferring = False
        if self.pending is not None and not self.stopping:
            self.stopping = True
            raise KeyboardInterrupt


def build(jobs: list[Job], workers: int = 2, log=print) -> None:
    """Run, render and publish every job, ``workers`` notebooks at a time, with a progress line as each starts
    and finishes, one build at a time (see the module docstring). The first failure stops the build; what was
    published before stays. Ctrl-C or SIGTERM raises :class:`Interrupted` once the running notebooks are stopped."""
    log = _serialised(log)
    started = time.perf_counter()
    signals = _Signals()
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)} if threading.current_thread() is \
        threading.main_thread() else {}
    for s in previous:
        signal.signal(s, signals.handler)
    finished, default = "", any(job.default for job in jobs)
    published: list[str] = []
    running: list[Running] = []
    staging = report_dir() / f"{STAGING_PREFIX}{os.getpid()}"
    janitor = None
    try:
        with ReportLock(log):
            recover(log)
            publishing.probe(targets(jobs))  # a folder that cannot be written: one line, before any work
            publishing.mark(report_dir(), "the HTML report")  # make clean may remove it
            staging.mkdir(parents=True)
            janitor = subprocess.Popen([sys.executable, "-m", "stb_core.report.janitor", str(report_dir()),
                                        str(os.getpid())], start_new_session=True, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            run_all(jobs, staging, signals, running, published, workers, log)
            with signals.deferred():  # the pages every run shares: written together
                write_shared(default)
            publishing.discard(staging)  # gone before the next build takes the folder
            seconds = time.perf_counter() - started
            finished = (f"report built in {seconds:.1f} s: {report_dir() / 'index.html'}" if default else
                        f"built in {seconds:.1f} s: " + ", ".join(str(job.html_path) for job in jobs))
    except KeyboardInterrupt:
        signals.stopping = True
        stop(running)
        if published:  # the index, search and runs pages then show what was published
            write_shared(default)
        raise Interrupted(published, len(jobs)) from None
    finally:
        signals.stopping = True  # the clean-up is not interrupted
        stop(running)
        publishing.discard(staging)
        if janitor is not None:  # the build ends normally: nothing is left for it to clean
            janitor.kill()
            janitor.wait()
        if finished:
            log(finished)
        for s, handler in previous.items():
            signal.signal(s, handler)


def run_all(jobs: list[Job], staging: Path, signals, running: list, published: list, workers: int, log) -> None:
    """Start the jobs longest first, ``workers`` at a time, each with its progress lines; render and publish each as
    it finishes (``running`` and ``published`` are the build's own lists: its clean-up reads them)."""
    queue = longest_first(list(enumerate(jobs, 1)))
    while queue or running:
        while queue and len(running) < max(1, workers):
            i, job = queue.pop(0)
            label = f"[{i}/{len(jobs)}]"
            note = ""
            if job.estimate is not None and job.estimate.seconds > ANNOUNCE_AFTER:
                note = f" (estimated: {job.estimate.describe()}; a line every {HEARTBEAT:.0f} s while it runs)"
            log(f"{label} {job.run} running ...{note}", flush=True)
            running.append(start(job, staging, label, log))
        heartbeats(running, log)
        time.sleep(0.1)
        for r in [r for r in running if r.process.poll() is not None]:
            running.remove(r)
            finish(r, signals, published, log)


def heartbeats(running: list, log) -> None:
    """A line for each long run not heard from for :data:`HEARTBEAT` seconds."""
    for r in running:
        if r.job.estimate is not None and r.job.estimate.seconds > ANNOUNCE_AFTER and \
                time.perf_counter() - r.heard > HEARTBEAT:
            r.heard = time.perf_counter()
            log(f"{r.label} {r.job.run}: still running, {_minutes(r.heard - r.started)} so far", flush=True)


def finish(r: Running, signals, published: list, log) -> None:
    """A run's process has ended: stop on its failure, else make it reproducible, render and publish it whole."""
    r.watcher.done.set()
    r.watcher.join()
    if r.process.returncode != 0:
        raise NotebookFailed(why_stopped(r))
    _make_reproducible(r.folder / "executed.ipynb")
    render(r.job, r.folder)
    with signals.deferred():  # a run is published wholly, or not at all
        publish(r.job, r.folder)
        published.append(r.job.run)
    log(f"{r.label} {r.job.run} done in {time.perf_counter() - r.started:.1f} s -> {r.job.html_path}", flush=True)


def why_stopped(r: Running) -> str:
    """Why a run's process ended without success: the notebook's own error, else the signal that killed it (the
    system's memory killer, or a kill from outside), else the end of its log."""
    error = r.folder / "error.txt"
    if error.exists() and error.read_text().strip():
        return error.read_text()
    code = r.process.returncode
    if code < 0:
        name = signal.Signals(-code).name
        why = " (the system may have run out of memory)" if name == "SIGKILL" else ""
        return f"{r.job.run}: the run was killed by {name}{why}; nothing of it was published"
    log = r.folder / "runner.log"
    tail = log.read_text()[-2000:].strip() if log.exists() else ""
    return f"{r.job.run}: the run stopped with status {code}" + (f": {tail}" if tail else " and no message")


def write_shared(default: bool) -> None:
    """The files every run shares: the assets, the runs page, and for the default report its index, appendices,
    explorer, reference data packages and search index."""
    install_assets(default)
    if default:
        from .explorer import write_explorer

        write_explorer()
        write_index()
        write_appendices()
        write_reference_packages()
        shell.search_index(report_dir())
    write_runs_index()


def check_checkout() -> None:
    """The report is built from the project's repository: its notebooks and published figures are not part of the
    installed package (``pip install .`` gives the engine, the ``stb`` command and the notebooks' helpers)."""
    from .paths import NOTEBOOK_DIR, PUBLISHED_DIR

    missing = [f"{path.name}/" for path in (NOTEBOOK_DIR, PUBLISHED_DIR) if not path.is_dir()]
    if missing:
        raise ReportError(f"the report is built from a clone of the project's repository, and {' and '.join(missing)} "
                          f"{'is' if len(missing) == 1 else 'are'} not beside this installed package "
                          f"({NOTEBOOK_DIR.parent}); clone the project and run make report there")


def main(argv: list[str] | None = None) -> int:
    die_with_parent()
    skip_the_iri_grammar()
    parser = argparse.ArgumentParser(prog="python -m stb_core.report", description=__doc__.split("\n")[0])
    parser.add_argument("--notebook", default=None, help="rerun only this notebook (its stem, e.g. 01-sequence-counts)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at a time (default 2)")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="a parameter for --notebook (repeatable)")
    args = parser.parse_args(argv)
    try:
        check_checkout()
        build(plan(args.notebook, [tuple(p) for p in args.parameter]), args.jobs)
    except ReportError as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 2
    except NotebookFailed as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 1
    except publishing.PublishError as error:  # a folder the filesystem refuses: probed first, or while publishing
        print(f"python -m stb_core.report: error: {error.strerror}; {error.left}", file=sys.stderr)
        return 1
    except Interrupted as error:
        print(f"python -m stb_core.report: {error}", file=sys.stderr)
        return 130
    except OSError as error:  # the shared pages, or the staging folder: the filesystem refused
        print(f"python -m stb_core.report: error: {publishing.refusal(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # stopped while planning, before any notebook started
        print("python -m stb_core.report: stopped before any notebook ran; nothing was changed", file=sys.stderr)
        return 130
    return 0


__all__ = ["Interrupted", "Job", "NotebookFailed", "ReportError", "build", "main", "plan", "render", "write_index"]
