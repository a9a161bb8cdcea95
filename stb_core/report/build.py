"""Build the report: run the notebooks with papermill, render them to offline HTML, write the index.

``python -m stb_core.report`` (``make report``) runs every chapter of :mod:`stb_core.report.catalogue` with its
default parameters and writes ``report/<stem>.html`` and the executed ``report/notebooks/<stem>.ipynb``;
``--notebook STEM -p name value ...`` (``make notebook``) reruns one notebook with other parameters into
``report/runs/<run>.html``, named after them; it never touches the default report (the default parameters are
refused: that is ``make report``). ``report/`` also gets every table and figure file the pages link to, the
position explorer and the assets (CSS, script, MathJax 3 with its SVG output, which needs no font files), so
the folder travels whole and opens from ``file://`` with the network off.

Before any kernel starts, parameters are checked against the notebook's declared domain (one line naming the
parameter and what is allowed, exit 2). Each notebook runs in a staging folder (``report/.build/``): its
tables, figures and executed notebook move into place only when it succeeds, so a failed run overwrites
nothing already built, and the staging folder is removed at the end (and, from a killed build, at the next
start). Kernel chatter goes to a log in the staging folder, shown only when a kernel fails; progress lines a
notebook reports (``Page.progress``) are printed as they come.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .catalogue import CHAPTERS, EXPLORER, Chapter, chapter, sources
from .checks import read_record
from .parameters import ParameterError, domain, parse_value, run_name
from .paths import NOTEBOOK_DIR, TEMPLATES, output_root, report_dir, write_text
from .present import prose_inline

ASSETS = "assets"


class ReportError(Exception):
    """A problem with the request (unknown notebook or parameter, the default report asked as a rerun)."""


class NotebookFailed(Exception):
    """A notebook raised an error while running: reported with its message, status 1."""


@dataclass(frozen=True)
class Job:
    """One notebook run: which chapter, with which parameters, under which name."""

    chapter: Chapter
    parameters: dict
    run: str

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
    parameter, or a rerun with the default parameters -- before any work."""
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
    return [Job(chapter(stem), {k: v for k, v in values.items() if defaults.get(k) != v}, run)]


# -- running ----------------------------------------------------------------------------------------------
def _kernel_manager(log: Path, env: dict):
    """A kernel manager whose kernel writes its own chatter (TCP warnings, shutdown interrupts) to ``log``
    and gets ``env`` added to its environment."""
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        async def _async_launch_kernel(self, kernel_cmd, **kw):
            handle = open(log, "ab")  # noqa: SIM115 -- kept open for the kernel's lifetime
            kw["stdout"] = kw["stderr"] = handle
            kw["env"] = {**kw.get("env", os.environ), **env}
            try:
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            finally:
                handle.close()  # the kernel process has its own copy

    return QuietKernelManager


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


def execute(job: Job, staging: Path, label: str = "", log=print) -> Path:
    """Run the notebook with papermill into ``staging`` (outputs, executed notebook); return its folder."""
    import papermill

    folder = staging / job.run
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "out").mkdir(parents=True)
    kernel_log, progress = folder / "kernel.log", folder / "progress.txt"
    env = {"STB_OUTPUT_ROOT": str(folder / "out"), "STB_PROGRESS_FILE": str(progress), "MPLBACKEND": "agg"}
    watcher = _Progress(progress, f"{label} {job.run}:", log)
    watcher.start()
    try:
        papermill.execute_notebook(
            str(NOTEBOOK_DIR / f"{job.stem}.ipynb"), str(folder / "executed.ipynb"), parameters=job.parameters,
            kernel_name="python3", cwd=str(NOTEBOOK_DIR), progress_bar=False, log_output=False,
            kernel_manager_class=_kernel_manager(kernel_log, env),
        )
    except papermill.PapermillExecutionError as error:
        raise NotebookFailed(f"{job.run} failed in cell {error.exec_count}: {error.ename}: "
                             f"{error.evalue.splitlines()[0] if error.evalue else ''}") from None
    except RuntimeError as error:  # the kernel died or would not start: show what it said
        chatter = kernel_log.read_text(errors="replace")[-2000:] if kernel_log.exists() else ""
        raise NotebookFailed(f"{job.run}: the kernel failed: {error}\n{chatter}") from None
    finally:
        watcher.done.set()
        watcher.join()
    _make_reproducible(folder / "executed.ipynb")
    return folder


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


def _replace_tree(source: Path, target: Path) -> None:
    """Put ``source`` where ``target`` is (the old one removed only once the new one is in place)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    old = target.with_name(f".{target.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    shutil.move(str(source), str(target))
    shutil.rmtree(old, ignore_errors=True)


def publish(job: Job, folder: Path) -> None:
    """Move a successful run's tables and figures into place, and copy them into the report."""
    for kind in ("data", "figures"):
        made = folder / "out" / kind / job.run
        if made.exists():
            copy = folder / f"{kind}-copy"
            shutil.copytree(made, copy)
            _replace_tree(made, output_root() / kind / job.run)
            _replace_tree(copy, report_dir() / kind / job.run)
    job.notebook_path.parent.mkdir(parents=True, exist_ok=True)
    (folder / "executed.ipynb").replace(job.notebook_path)


# -- rendering --------------------------------------------------------------------------------------------
def _heading(notebook) -> str:
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, re.M)
            if match:
                return match.group(1).strip()
    return ""


def verdict_box(record: dict | None, job: Job) -> str:
    """The box that opens a source's page: the source, the verdict, each claim with the figure computed now."""
    key = job.chapter.source
    if key is None:
        return ""
    source = sources()[key]
    cite = (f'<p class="stb-cite"><strong>The source.</strong> {html.escape(source.cite())}'
            + (f' (<a href="{html.escape(source.address)}">{html.escape(source.address)}</a>)'
               if source.address.startswith("http") else "") + f". Its game: {html.escape(source.rules)}.</p>")
    if record is None:
        return f'<section class="stb-verdict">{cite}</section>'
    checks = [c for c in record["checks"] if c["kind"] in ("figure", "statement")]
    if record["verdict"] == "not applicable":
        return (f'<section class="stb-verdict stb-na">{cite}<p class="stb-verdict-line">This run’s parameters are '
                f'not the source’s game, so none of its published figures applies; the checks at the end say '
                f'which.</p></section>')
    counts = record["counts"]
    line = (f'<p class="stb-verdict-line"><span class="stb-badge stb-{_slug(record["verdict"])}">'
            f'{html.escape(record["verdict"].capitalize())}</span> {counts["reproduced"]} reproduced or confirmed, '
            f'{many(counts["off"], "published figure")} off, {many(counts["contradicted"], "claim")} '
            f'contradicted.</p>')

    def rows(items):
        return "".join(
            f'<tr><td>{html.escape(c["claim"])}</td>'
            f'<td>{"stated" if c["kind"] == "statement" else html.escape(c["published"])}</td>'
            f'<td>{html.escape(c["computed"])}</td>'
            f'<td class="stb-mark">{c["mark"]} {html.escape(c["verdict"])}</td></tr>'
            for c in items)

    head = "<tr><th>claim</th><th>published</th><th>computed now</th><th>verdict</th></tr>"
    wrong = [c for c in checks if c["mark"] == "✗"]
    right = [c for c in checks if c["mark"] != "✗"]
    parts = [cite, line]
    if wrong:
        parts.append(f'<div class="stb-table-wrap"><table class="stb-table stb-claims"><caption>Where the source '
                     f'is wrong</caption>{head}{rows(wrong)}</table></div>')
    if right:
        parts.append(f'<details><summary>The {len(right)} claims that hold (each with the figure computed '
                     f'now)</summary><div class="stb-table-wrap"><table class="stb-table stb-claims"><caption>'
                     f'Claims reproduced or confirmed</caption>{head}{rows(right)}</table></div></details>')
    return f'<section class="stb-verdict">{"".join(parts)}</section>'


def _slug(text: str) -> str:
    return re.sub(r"[^a-z]+", "-", text.lower()).strip("-")


def render(job: Job) -> None:
    """Render the executed notebook to offline HTML with the reader template, into ``job.html_path``."""
    import nbformat
    from nbconvert import HTMLExporter

    up = "" if job.default else "../"
    notebook = nbformat.read(job.notebook_path, as_version=4)
    title = _heading(notebook) or job.chapter.title
    notebook.metadata["title"] = f"{title} — Shut the Box, solved exactly"
    box = verdict_box(read_record(job.run), job)
    if box:
        first = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown")
        verdict = nbformat.v4.new_raw_cell(box, metadata={"stb": "verdict"})
        verdict["id"] = "verdict"  # a fixed id: the page stays byte-identical
        notebook.cells.insert(first + 1, verdict)
    position = [c.stem for c in CHAPTERS].index(job.stem)
    pages = [(f"{up}{c.page}", f"{c.number}. {c.title}", c.stem == job.stem) for c in CHAPTERS]
    resources = {
        "metadata": {"name": title},
        "stb": {
            "up": up, "assets": f"{up}{ASSETS}/", "index": f"{up}index.html", "pages": pages,
            "explorer": (f"{up}{EXPLORER[0]}", EXPLORER[1]), "chapter": job.chapter.number,
            "previous": pages[position - 1] if position > 0 else None,
            "next": pages[position + 1] if position + 1 < len(pages) else None,
            "notebook": job.notebook_path.relative_to(job.html_path.parent).as_posix(),
            "rerun": None if job.default else job.parameters,
        },
    }
    exporter = HTMLExporter(template_name="reader", extra_template_basedirs=[str(TEMPLATES)])
    exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    write_text(job.html_path, body)


def install_assets() -> None:
    """Copy the CSS, the scripts and MathJax 3 (from the ``sphinx-mathjax-offline`` package) into the report."""
    from importlib.metadata import distribution

    target = report_dir() / ASSETS
    target.mkdir(parents=True, exist_ok=True)
    for asset in sorted((TEMPLATES / "assets").iterdir()):
        shutil.copyfile(asset, target / asset.name)
    mathjax = target / "mathjax"
    if not (mathjax / "tex-svg.js").exists():
        dist = distribution("sphinx-mathjax-offline")
        entry = next(f for f in dist.files if str(f).endswith("static/mathjax/tex-svg.js"))
        shutil.copytree(Path(dist.locate_file(entry)).parent, mathjax, dirs_exist_ok=True)


# -- the index ---------------------------------------------------------------------------------------------
def _runs() -> list[tuple[str, str]]:
    folder = report_dir() / "runs"
    if not folder.exists():
        return []
    found = []
    for page in sorted(folder.glob("*.html")):
        record = read_record(page.stem)
        found.append((f"runs/{page.name}", page.stem if record is None else
                      f"{record['title']}: " + ", ".join(f"{k} = {v}" for k, v in sorted(_changed(page.stem).items()))))
    return found


def _changed(run: str) -> dict:
    return dict(part.split("=", 1) for part in run.split("--")[1:])


def _current(record: dict | None) -> dict | None:
    """A record in this version's shape (one from an older build is treated as missing)."""
    return record if record and "verdict" in record else None


def write_index() -> None:
    """``report/index.html`` from the catalogue and the runs' records (nothing written by hand)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from markupsafe import Markup

    records = {c.stem: _current(read_record(c.stem)) for c in CHAPTERS}
    environment = Environment(loader=FileSystemLoader(TEMPLATES / "site"), autoescape=select_autoescape(),
                              trim_blocks=True, lstrip_blocks=True)
    environment.filters["prose"] = lambda text: Markup(prose_inline(text))
    environment.filters["many"] = many
    page = environment.get_template("index.html.j2").render(
        chapters=CHAPTERS, records=records, sources=sources(), runs=_runs(), assets=f"{ASSETS}/",
        explorer=EXPLORER, abstract=abstract(records))
    write_text(report_dir() / "index.html", page)


def many(count: int, noun: str, plural: str | None = None) -> str:
    """``1 claim``, ``4 claims``: a count with its noun."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


def abstract(records: dict) -> list[str]:
    """Three or four sentences with the key numbers, from the chapters' headline values."""
    def value(stem, key):
        record = records.get(stem) or {}
        return record.get("headline", {}).get(key, "…")

    counts = {"reproduced": 0, "off": 0, "contradicted": 0}
    judged = {"reproduced": 0, "off": 0, "contradicted": 0}
    for c in CHAPTERS:
        record = records.get(c.stem)
        if c.source and record:
            for k in counts:
                counts[k] += record["counts"][k]
            verdict = record["verdict"]
            judged["contradicted" if verdict == "contradicted" else "off" if "off" in verdict else "reproduced"] += 1
    return [
        "This report solves the dice game Shut the Box exactly, by dynamic programming over every set of open "
        "tiles, and checks five published analyses of the game against one engine.",
        f"On the classic board (tiles 1–9, two dice) perfect play shuts the box in "
        f"{value('06-whole-map', 'optimal win, 9 tiles')} of games, "
        f"{value('02-riddler-one-die', 'P(win), perfect play')} when one die may be rolled once 7, 8 and 9 are "
        f"shut, and leaves {value('05-expected-cost-mdp', 'expected sum left')} open on average when playing "
        f"for the lowest sum.",
        f"Of the sources' {sum(counts.values())} published figures and claims, {counts['reproduced']} are "
        f"reproduced or confirmed, {many(counts['off'], 'printed figure')} {'is' if counts['off'] == 1 else 'are'} "
        f"off and {many(counts['contradicted'], 'claim')} {'is' if counts['contradicted'] == 1 else 'are'} "
        f"contradicted: {judged['contradicted']} of the five sources make a claim the exact solution refutes.",
        f"The best rule a player can memorise, “{value('06-whole-map', 'strategy card')}”, gives up "
        f"{value('06-whole-map', 'card loss')} of the optimal chance of winning.",
    ]


# -- the command --------------------------------------------------------------------------------------------
def _run_one(job: Job, label: str, staging: Path, log) -> float:
    log(f"{label} {job.run} running ...", flush=True)
    start = time.perf_counter()
    folder = execute(job, staging, label, log)
    publish(job, folder)
    render(job)
    shutil.rmtree(folder, ignore_errors=True)
    return time.perf_counter() - start


def _serialised(log):
    """``log`` behind a lock: lines from the notebooks running side by side never interleave."""
    lock = threading.Lock()

    def write(*args, **kwargs):
        with lock:
            log(*args, **kwargs)
    return write


def build(jobs: list[Job], workers: int = 2, log=print) -> None:
    """Run, render and index every job, ``workers`` notebooks at a time, with a progress line as each starts
    and finishes. The first failure stops the build; what was built before stays."""
    log = _serialised(log)
    staging = report_dir() / ".build"
    shutil.rmtree(staging, ignore_errors=True)  # left by a killed build
    staging.mkdir(parents=True)
    started = time.perf_counter()
    try:
        install_assets()
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = {pool.submit(_run_one, job, f"[{i}/{len(jobs)}]", staging, log): (i, job)
                       for i, job in enumerate(jobs, 1)}
            for future in as_completed(futures):
                i, job = futures[future]
                try:
                    seconds = future.result()
                except BaseException:
                    for other in futures:
                        other.cancel()
                    raise
                log(f"[{i}/{len(jobs)}] {job.run} done in {seconds:.1f} s -> {job.html_path}", flush=True)
        from .explorer import write_explorer

        if any(job.default for job in jobs):
            write_explorer()
        write_index()
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    log(f"report built in {time.perf_counter() - started:.1f} s: {report_dir() / 'index.html'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stb_core.report", description=__doc__.split("\n")[0])
    parser.add_argument("--notebook", default=None, help="rerun only this notebook (its stem, e.g. 01-sequence-counts)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at a time (default 2)")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="a parameter for --notebook (repeatable)")
    args = parser.parse_args(argv)
    try:
        build(plan(args.notebook, [tuple(p) for p in args.parameter]), args.jobs)
    except ReportError as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 2
    except NotebookFailed as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("python -m stb_core.report: interrupted; the report is as it was before this run", file=sys.stderr)
        return 130
    return 0


__all__ = ["Job", "NotebookFailed", "ReportError", "build", "main", "plan", "render", "write_index"]
