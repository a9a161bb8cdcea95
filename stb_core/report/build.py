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

This module schedules the runs and is the command; the runs planned (:mod:`~stb_core.report.jobs`), the lock,
staging and recovery (:mod:`~stb_core.report.staging`), a run's page (:mod:`~stb_core.report.render`) and the
report's own pages (:mod:`~stb_core.report.pages`) have modules of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..cost import ANNOUNCE_AFTER
from . import publish as publishing
from . import shell
from .jobs import Job, NotebookFailed, ReportError, defaults_of, estimate_run, plan
from .pages import write_appendices, write_index, write_runs_index
from .paths import report_dir
from .render import install_assets, render, write_reference_packages
from .run import die_with_parent, skip_the_iri_grammar
from .staging import STAGING_PREFIX, ReportLock, make_reproducible, publish, recover, targets

HEARTBEAT = 30.0  # seconds between "still running" lines for a run estimated to take over a minute


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
    make_reproducible(r.folder / "executed.ipynb")
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


__all__ = ["Interrupted", "build", "main"]
