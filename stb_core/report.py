"""Build the report: run the notebooks with papermill, render them to offline HTML, write the index.

``python -m stb_core.report`` (``make report``) runs every notebook in ``notebooks/`` with its default
parameters and writes ``report/<stem>.html``, the executed ``report/notebooks/<stem>.ipynb``, copies of
its tables under ``report/data/<stem>/`` and ``report/index.html``. ``--notebook STEM -p name value ...``
(``make notebook``) reruns one notebook with new parameters into ``report/runs/<run>.html``, named after the
parameters, never over the default report.

Everything the HTML needs is local: images are embedded, MathJax is copied from ``jupyter_server_mathjax``
into ``report/mathjax/``, and the template loads no script from a CDN. Parameters are checked against the
notebook's own ``parameters`` cell before anything runs; each output is written to a temporary file and
moved into place, so a failed run leaves the last good report untouched.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .exports import run_stem
from .notebook import same_kind
from .paths import NOTEBOOK_DIR, PROJECT_ROOT, output_root

REPORT_DIR = Path(os.environ.get("STB_REPORT_DIR", PROJECT_ROOT / "report"))  # tests build elsewhere
TEMPLATES = Path(__file__).parent / "templates"
MATHJAX_CONFIG = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"


class ReportError(Exception):
    """A problem with the request (unknown notebook or parameter): reported in one line, status 2."""


class NotebookFailed(Exception):
    """A notebook raised an error while running: reported with its message, status 1."""


@dataclass(frozen=True)
class Job:
    """One notebook run: which notebook, with which parameters, written under which name."""

    stem: str
    parameters: dict
    run: str

    @property
    def default(self) -> bool:
        return self.run == self.stem

    @property
    def html_path(self) -> Path:
        return REPORT_DIR / (f"{self.stem}.html" if self.default else f"runs/{self.run}.html")

    @property
    def notebook_path(self) -> Path:
        return REPORT_DIR / (f"notebooks/{self.stem}.ipynb" if self.default else f"runs/{self.run}.ipynb")


# -- finding notebooks and checking parameters --------------------------------------------------------
def notebook_stems() -> list[str]:
    """Every notebook in ``notebooks/``, in report order (``NN-name.ipynb``)."""
    return sorted(p.stem for p in NOTEBOOK_DIR.glob("[0-9][0-9]-*.ipynb"))


def declared_parameters(stem: str) -> dict:
    """The notebook's parameters and their default values, read from its ``parameters`` cell."""
    import papermill

    found = papermill.inspect_notebook(str(NOTEBOOK_DIR / f"{stem}.ipynb"))
    return {name: ast.literal_eval(spec["default"]) for name, spec in found.items()}


def parse_value(text: str):
    """A ``-p`` value as papermill reads it: ``True``/``False``/``None``, an int, a float, else text."""
    if text in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[text]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def plan(stem: str | None, pairs: list[tuple[str, str]]) -> list[Job]:
    """The runs to do; raises :class:`ReportError` for an unknown notebook or parameter, before any work."""
    stems = notebook_stems()
    if stem is None:
        if pairs:
            raise ReportError("parameters (-p) need one notebook: add --notebook STEM")
        return [Job(s, {}, s) for s in stems]
    if stem not in stems:
        raise ReportError(f"notebook must be one of {', '.join(stems) or '(none yet)'}; got {stem!r}")
    defaults = declared_parameters(stem)
    parameters = {}
    for name, text in pairs:
        if name not in defaults:
            raise ReportError(f"unknown parameter {name!r} for {stem}; its parameters are: "
                              f"{', '.join(sorted(defaults))}")
        value = parse_value(text)
        if not same_kind(value, defaults[name]):
            raise ReportError(f"parameter {name!r} of {stem} must be {type(defaults[name]).__name__} "
                              f"like its default {defaults[name]!r}; got {text!r}")
        parameters[name] = value
    return [Job(stem, parameters, run_stem(stem, {**defaults, **parameters}, defaults))]


# -- running and rendering ----------------------------------------------------------------------------
def execute(job: Job) -> None:
    """Run the notebook with papermill into ``job.notebook_path`` (via a temporary file)."""
    import papermill

    job.notebook_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = job.notebook_path.with_name(f".{job.notebook_path.name}.tmp.ipynb")
    try:
        papermill.execute_notebook(
            str(NOTEBOOK_DIR / f"{job.stem}.ipynb"), str(tmp), parameters=job.parameters,
            kernel_name="python3", cwd=str(NOTEBOOK_DIR), progress_bar=False, log_output=False,
        )
    except papermill.PapermillExecutionError as error:
        tmp.unlink(missing_ok=True)
        raise NotebookFailed(f"{job.run} failed in cell {error.exec_count}: {error.ename}: {error.evalue}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(job.notebook_path)


def ensure_mathjax() -> None:
    """Copy MathJax (from ``jupyter_server_mathjax``) into ``report/mathjax/`` once."""
    target = REPORT_DIR / "mathjax"
    if not (target / "MathJax.js").exists():
        import jupyter_server_mathjax

        source = Path(jupyter_server_mathjax.__file__).parent / "static"
        shutil.copytree(source, target, dirs_exist_ok=True)


def render(job: Job) -> None:
    """Render the executed notebook to offline HTML with the reader template, into ``job.html_path``."""
    import nbformat
    from nbconvert import HTMLExporter

    up = "" if job.default else "../"
    exporter = HTMLExporter(template_name="reader", extra_template_basedirs=[str(TEMPLATES)])
    exporter.mathjax_url = f"{up}mathjax/{MATHJAX_CONFIG}"
    exporter.embed_images = True
    notebook = nbformat.read(job.notebook_path, as_version=4)
    resources = {"metadata": {"name": job.run}, "stb_index_href": f"{up}index.html",
                 "stb_notebook_href": job.notebook_path.relative_to(job.html_path.parent).as_posix()}
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    _write(job.html_path, body)


def copy_tables(job: Job) -> list[str]:
    """Copy the run's CSV tables into ``report/data/<run>/`` so the report folder stands alone."""
    source = output_root() / "data" / job.run
    target = REPORT_DIR / "data" / job.run
    names = sorted(p.name for p in source.glob("*.csv")) if source.exists() else []
    if names:
        target.mkdir(parents=True, exist_ok=True)
        for name in names:
            shutil.copyfile(source / name, target / name)
    return names


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


# -- the index ----------------------------------------------------------------------------------------
INTRODUCTION = """
<p><em>Shut the Box</em> is a pub dice game. Tiles 1 to 9 start open; each turn the player rolls two dice
and shuts any open tiles that add up to the roll. The game ends when no open tiles add up to the roll
— or, the goal, when every tile is shut. Players score what is left open (the lower the better), or simply
win or lose.</p>
<p>This report solves the game <strong>exactly</strong>: one dynamic-programming engine computes, for every
set of open tiles, the best achievable expected outcome under any rules and any objective,</p>
<p class="eq">V(S) = opt<sub>dice</sub> &sum;<sub>r</sub> p(r) &middot; opt<sub>m &isin; M(S, r)</sub> V(S &minus; m),
&nbsp; with V(S) = u(S) when the game is over,</p>
<p>and every notebook below uses it to reproduce one published analysis of the game — each figure the
source published is checked against the engine (✓ or ✗) — and to say where the source falls short.</p>
"""

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; color: #1f2328; }
table { border-collapse: collapse; width: 100%; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: .4em .6em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
.ok { color: #1a7f37; font-weight: bold; } .bad { color: #cf222e; font-weight: bold; }
.na { color: #57606a; } .eq { font-family: serif; font-size: 1.1em; text-align: center; }
ul.headline { margin: 0; padding-left: 1.2em; }
"""


def _checks(run: str) -> dict | None:
    path = output_root() / "data" / run / "checks.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _badge(checks: dict | None) -> str:
    if checks is None:
        return '<span class="na">no checks written</span>'
    passed, failed = checks["passed"], checks["failed"]
    if failed:
        return f'<span class="bad">✗ {failed} of {passed + failed} checks fail</span>'
    if passed:
        return f'<span class="ok">✓ {passed} of {passed} checks reproduced</span>'
    return '<span class="na">no published figures to check</span>'


def _row(stem: str) -> str:
    checks = _checks(stem)
    title = html.escape(checks["title"] if checks else stem)
    source = html.escape(checks["source"]) if checks else ""
    headline = "".join(f"<li>{html.escape(k)}: <strong>{html.escape(v)}</strong></li>"
                       for k, v in (checks or {}).get("headline", {}).items())
    tables = sorted(p.name for p in (REPORT_DIR / "data" / stem).glob("*.csv"))
    table_links = ", ".join(f'<a href="data/{stem}/{n}">{html.escape(n)}</a>' for n in tables)
    return (f"<tr><td>{source}</td><td><a href=\"{stem}.html\">{title}</a><br><small>{stem}</small></td>"
            f"<td><ul class=\"headline\">{headline}</ul></td><td>{_badge(checks)}</td>"
            f"<td><a href=\"notebooks/{stem}.ipynb\">notebook</a><br>{table_links}</td></tr>")


def _findings(stems: list[str]) -> str:
    items = []
    for stem in stems:
        checks = _checks(stem)
        if checks and checks.get("finding"):
            items.append(f'<li><a href="{stem}.html">{html.escape(checks["title"])}</a>: '
                         f'{html.escape(checks["finding"])}</li>')
    return f"<h2>Headline findings</h2><ul>{''.join(items)}</ul>" if items else ""


def write_index(stems: list[str]) -> None:
    """``report/index.html``: the introduction and headline findings, one row per notebook, other runs."""
    rows = "\n".join(_row(s) for s in stems)
    runs = sorted(p.stem for p in (REPORT_DIR / "runs").glob("*.html")) if (REPORT_DIR / "runs").exists() else []
    run_list = "".join(f'<li><a href="runs/{r}.html">{html.escape(r)}</a></li>' for r in runs)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Shut the Box, solved exactly</title>
<style>{STYLE}</style></head>
<body>
<h1>Shut the Box, solved exactly</h1>
{INTRODUCTION}
{_findings(stems)}
<h2>The notebooks</h2>
<table>
<tr><th>source</th><th>notebook</th><th>headline numbers (computed now)</th><th>reproduction</th><th>files</th></tr>
{rows}
</table>
{f"<h2>Runs with other parameters</h2><ul>{run_list}</ul>" if runs else ""}
<p><small>Rebuild with <code>make report</code>; rerun one notebook with new parameters with
<code>make notebook NB=&lt;stem&gt; PARAMS="-p name value"</code> (written under <code>runs/</code>).</small></p>
</body></html>
"""
    _write(REPORT_DIR / "index.html", page)


# -- the command ----------------------------------------------------------------------------------------
def _run_one(job: Job, label: str, log) -> float:
    log(f"{label} {job.run} running ...", flush=True)
    start = time.perf_counter()
    execute(job)
    render(job)
    copy_tables(job)
    return time.perf_counter() - start


def build(jobs: list[Job], workers: int = 2, log=print) -> None:
    """Run, render and index every job, ``workers`` notebooks at a time (each runs in its own kernel
    process), with a progress line as each starts and finishes. The first failure stops the build."""
    ensure_mathjax()
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {pool.submit(_run_one, job, f"[{i}/{len(jobs)}]", log): (i, job) for i, job in enumerate(jobs, 1)}
        for future in as_completed(futures):
            i, job = futures[future]
            try:
                seconds = future.result()
            except BaseException:
                for other in futures:
                    other.cancel()
                raise
            log(f"[{i}/{len(jobs)}] {job.run} done in {seconds:.1f} s -> {job.html_path}", flush=True)
    write_index(notebook_stems())
    index = REPORT_DIR / "index.html"
    log(f"report built in {time.perf_counter() - started:.1f} s: {index}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stb_core.report", description=__doc__.split("\n")[0])
    parser.add_argument("--notebook", default=None, help="run only this notebook (its stem, e.g. 01-sequence-counts)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at a time (default 2)")
    parser.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                        help="a parameter for --notebook (repeatable)")
    args = parser.parse_args(argv)
    try:
        jobs = plan(args.notebook, [tuple(p) for p in args.parameter])
        if not jobs:
            print("no notebooks in notebooks/ yet: writing an empty index", flush=True)
        build(jobs, args.jobs)
    except ReportError as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 2
    except NotebookFailed as error:
        print(f"python -m stb_core.report: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
