"""One build at a time, a run staged and published whole, and what a killed build left behind: the report folder's
lock (:class:`ReportLock`), the recovery every command runs under it first (:func:`recover`), and the publication
of one successful run from its staging folder (:func:`publish`, over :mod:`stb_core.report.publish`)."""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from . import publish as publishing
from .paths import output_root, report_dir, write_text

if TYPE_CHECKING:  # the janitor imports this module: it stays light
    from .jobs import Job

STAGING_PREFIX = ".build-"
REPAIRED_NOTE = ".repaired"  # the runs a killed build's janitor finished publishing, said by the next build


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

def make_reproducible(path: Path) -> None:
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


__all__ = ["REPAIRED_NOTE", "STAGING_PREFIX", "ReportLock", "make_reproducible", "publish", "published_roots",
           "recover", "targets"]
