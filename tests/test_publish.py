"""Publishing all or nothing: a publication killed (SIGKILL) after any single one of its steps is finished by the next
command, so that every published item is wholly new and nothing is left behind; a folder the filesystem refuses is
refused in one line before any work; what the project did not write is never replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from stb_core.report import publish

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("data", "figures")


def layout(tmp: Path) -> tuple[Path, list[tuple[Path, Path]]]:
    """An old run in place (each item marked old) and a new one staged: folders and files, as a run has them."""
    staging = tmp / "report" / ".build-1"
    pairs = []
    for where in ("out", "report"):
        for kind in KINDS:
            target = tmp / where / kind / "run"
            target.mkdir(parents=True)
            (target / "table.csv").write_text("old\n")
            new = staging / f"{where}-{kind}"
            new.mkdir(parents=True)
            (new / "table.csv").write_text("new\n")
            (new / "extra.csv").write_text("new\n")
            pairs.append((new, target))
    for name in ("run.ipynb", "run.html"):
        target = tmp / "report" / name
        target.write_text("old\n")
        (staging / name).write_text("new\n")
        pairs.append((staging / name, target))
    return staging, pairs


def state(target: Path) -> str:
    """``old`` or ``new``, from what the item holds (a folder: every file the same)."""
    texts = {p.read_text() for p in target.iterdir()} if target.is_dir() else {target.read_text()}
    assert len(texts) == 1, (target, texts)
    if target.is_dir():
        names = sorted(p.name for p in target.iterdir())
        assert names == (["extra.csv", "table.csv"] if texts == {"new\n"} else ["table.csv"]), (target, names)
    return texts.pop().strip()


PUBLISHER = """
import json, sys
from pathlib import Path
from stb_core.report import publish
pairs = [(Path(a), Path(b)) for a, b in json.loads(sys.argv[1])]
publish.publish(Path(sys.argv[2]), "run", pairs)
"""


def run_publisher(pairs, folder: Path, kill_after: int | None) -> int:
    import json

    env = {**os.environ, **({publish.KILL_AFTER: str(kill_after)} if kill_after else {})}
    done = subprocess.run([sys.executable, "-c", PUBLISHER, json.dumps([[str(a), str(b)] for a, b in pairs]),
                           str(folder)], env=env, capture_output=True, text=True, cwd=ROOT, timeout=60)
    return done.returncode


STEPS = 1 + 2 * 6 + 6  # the journal, each item set aside and moved in, each set-aside item removed


@pytest.mark.parametrize("kill_after", range(1, STEPS + 1))
def test_a_publication_killed_after_any_step_is_finished_by_the_next_command(tmp_path, kill_after):
    staging, pairs = layout(tmp_path)
    folder = tmp_path / "report"
    assert run_publisher(pairs, folder, kill_after) == -signal.SIGKILL
    assert publish.recover(folder) == ["run"] or kill_after == STEPS  # the journal, removed last, was left
    for root in {target.parent for _, target in pairs}:
        publish.sweep(root, (".build-",))
    assert {state(target) for _, target in pairs} == {"new"}
    left = [p for p in tmp_path.rglob(".*") if ".build-" not in str(p)]
    assert not left, left


def test_a_publication_runs_whole_and_leaves_nothing(tmp_path):
    staging, pairs = layout(tmp_path)
    assert run_publisher(pairs, tmp_path / "report", None) == 0
    assert {state(target) for _, target in pairs} == {"new"}
    assert publish.recover(tmp_path / "report") == []
    assert not [p for p in tmp_path.rglob(".*") if ".build-" not in str(p)]


def test_the_count_of_steps_is_every_step():
    """The parametrised kills reach the last step: one more lets the publication end on its own."""
    assert STEPS == 19


RENAMES = 1 + 2 * 6  # the journal put in place, then each item set aside and moved in


def refusing_after(allowed: int, then_all: bool):
    """``os.replace`` that refuses (EPERM) its ``allowed + 1``-th call, and every later one when ``then_all``."""
    real, calls = os.replace, [0]

    def replace(a, b):
        calls[0] += 1
        if calls[0] == allowed + 1 or (then_all and calls[0] > allowed):
            raise PermissionError(1, "Operation not permitted", str(b))
        real(a, b)
    return replace


def refused_publication(tmp_path, monkeypatch, allowed: int, then_all: bool):
    """A run published with renames refused (:func:`refusing_after`): its staging folder, pairs, report folder and
    the PublishError raised, the filesystem allowing everything again afterwards."""
    staging, pairs = layout(tmp_path)
    folder = tmp_path / "report"
    monkeypatch.setattr(publish.os, "replace", refusing_after(allowed, then_all=then_all))
    with pytest.raises(publish.PublishError) as raised:
        publish.publish(folder, "run", pairs)
    monkeypatch.undo()
    return staging, pairs, folder, raised.value


@pytest.mark.parametrize("allowed", range(RENAMES))
def test_a_rename_refused_half_way_puts_everything_back(tmp_path, monkeypatch, allowed):
    """The review's T4b: a page that could not be replaced left a run half new, its journal naming a staging folder
    the build then removed. Now what was moved goes back, and the line says nothing was published."""
    staging, pairs, folder, error = refused_publication(tmp_path, monkeypatch, allowed, then_all=False)
    assert error.left == publish.NOTHING_PUBLISHED and "permission denied" in error.strerror
    assert {state(target) for _, target in pairs} == {"old"} and all(new.exists() for new, _ in pairs)
    assert publish.recover(folder) == [] and not publish.pending(staging)


@pytest.mark.parametrize("allowed", [2, 7, RENAMES - 1])  # an item set aside, or moved in, before the refusal
def test_a_publication_that_cannot_be_undone_keeps_what_the_next_command_needs(tmp_path, monkeypatch, allowed):
    """Where undoing is refused too, the journal stays and so does the staging folder it names: the next command,
    once the filesystem allows it, finishes the publication (every item new)."""
    staging, pairs, folder, error = refused_publication(tmp_path, monkeypatch, allowed, then_all=True)
    assert error.left == publish.HALF_WAY
    publish.discard(staging)
    assert staging.exists() and publish.pending(staging)
    assert publish.recover(folder) == ["run"]
    assert {state(target) for _, target in pairs} == {"new"}
    publish.discard(staging)
    assert not staging.exists()


def test_a_failed_copy_of_many_files_reads_as_one_line():
    """The review's T2: a full disk printed shutil's whole list of failed files (2,015 characters)."""
    import shutil

    error = shutil.Error([(f"/s/{n}.csv", f"/r/{n}.csv", f"[Errno 28] No space left on device: '/r/{n}.csv'")
                          for n in range(40)])
    assert publish.refusal(error) == "/r/0.csv: no space left on the device (and 39 more files)"


@pytest.fixture
def mounted(tmp_path):
    """A small filesystem of its own (tmpfs) at a folder, read-only or nearly full as asked (skipped where this
    process may not mount one)."""
    made = []

    def mount(folder: Path, *, read_only: bool = False, size: str = "256k") -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True).returncode:
            pytest.skip("this process may not mount a filesystem")
        made.append(folder)
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        return folder

    yield mount
    for folder in reversed(made):
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_read_only_folder_is_refused_in_one_line_before_any_work(tmp_path, mounted):
    folder = mounted(tmp_path / "figures", read_only=True)
    with pytest.raises(publish.PublishError) as raised:
        publish.probe([tmp_path / "data", folder])
    assert raised.value.strerror == f"{folder}: cannot be written: the filesystem is read-only"


def test_a_full_filesystem_is_refused_in_one_line_before_any_work(tmp_path, mounted):
    folder = mounted(tmp_path / "report", size="64k")
    with pytest.raises(OSError):  # filled to the last byte
        (folder / "filler").write_bytes(b"\0" * 1_000_000)
    with pytest.raises(publish.PublishError) as raised:
        publish.probe([folder])
    assert raised.value.strerror == f"{folder}: cannot be written: no space left on the device"
    assert not list(folder.glob(".probe-*"))


def test_a_rerun_into_a_read_only_folder_says_so_in_one_line_and_writes_nothing(tmp_path, mounted):
    """figures/ read-only (the review's T4: data/ and report/data/ were replaced before the traceback): the rerun is
    refused before any kernel starts, in one line, and nothing is published."""
    out = tmp_path / "out"
    mounted(out / "figures", read_only=True)
    env = {**os.environ, "STB_REPORT_DIR": str(tmp_path / "report"), "STB_OUTPUT_ROOT": str(out)}
    done = subprocess.run([sys.executable, "-m", "stb_core.report", "--notebook", "02-riddler-one-die", "-p", "tiles",
                           "3"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert f"{out / 'figures'}: cannot be written: the filesystem is read-only" in line, line
    assert not (out / "data" / "02-riddler-one-die--tiles=3").exists()
    assert not list((tmp_path / "report").rglob("*.html"))


def test_a_path_that_is_a_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "report").write_text("not a folder\n")
    with pytest.raises(publish.PublishError) as raised:
        publish.probe([tmp_path / "report"])
    assert str(raised.value.strerror).startswith(f"{tmp_path / 'report'}: ") and "\n" not in str(raised.value)


def test_only_what_the_project_wrote_may_be_replaced(tmp_path):
    mine, theirs, empty = tmp_path / "kit", tmp_path / "thesis", tmp_path / "empty"
    mine.mkdir(), theirs.mkdir(), empty.mkdir()
    publish.mark(mine, "the write-up kit")
    (theirs / "thesis.tex").write_text("mine\n")
    assert publish.owned(mine) and publish.owned(empty) and publish.owned(tmp_path / "absent")
    assert not publish.owned(theirs) and not publish.owned(theirs / "thesis.tex")


def rerun(tmp_path: Path, tiles: int, **env) -> subprocess.CompletedProcess:
    environ = {**os.environ, "STB_REPORT_DIR": str(tmp_path / "report"), "STB_OUTPUT_ROOT": str(tmp_path / "out"),
               **env}
    return subprocess.run([sys.executable, "-m", "stb_core.report", "--notebook", "02-riddler-one-die", "-p", "tiles",
                           str(tiles)], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_rerun_killed_while_it_publishes_is_finished_and_said_by_the_next_command(tmp_path):
    """The review's R1/R4: the build killed (SIGKILL) in the middle of putting a rerun in place. The next command's
    first lines say it finished that publication, and every item of the run is the new one: its tables, figures,
    their copies in the report, its notebook and its page."""
    run = "02-riddler-one-die--tiles=3"
    assert rerun(tmp_path, 3).returncode == 0
    items = [tmp_path / "out" / "data" / run, tmp_path / "out" / "figures" / run, tmp_path / "report" / "data" / run,
             tmp_path / "report" / "figures" / run, tmp_path / "report" / "runs" / f"{run}.html",
             tmp_path / "report" / "runs" / f"{run}.ipynb"]
    for item in items:  # the old run, marked
        (item / "OLD").write_text("old\n") if item.is_dir() else item.write_text(item.read_text() + "OLD")
    killed = rerun(tmp_path, 3, **{publish.KILL_AFTER: "6"})
    assert killed.returncode == -signal.SIGKILL
    following = rerun(tmp_path, 4)
    assert following.returncode == 0, following.stderr
    assert f"repaired: the publication of {run}" in following.stdout.splitlines()[0], following.stdout
    for item in items:
        assert item.exists(), item
        assert not ((item / "OLD").exists() if item.is_dir() else item.read_text().endswith("OLD")), item
    assert not [p for p in (tmp_path / "report").rglob(".*") if p.name not in (".stb-written",)]


def test_what_a_build_removes_as_another_sweeps_is_no_error(tmp_path, monkeypatch):
    """A build that ends removes its staging folder while the next build's recovery sweeps the same folder: an entry
    already gone is not an error (each file below is removed twice, as by the two builds)."""
    folder = tmp_path / ".build-1"
    (folder / "run").mkdir(parents=True)
    (folder / "run" / "page.html").write_text("x")
    real = os.unlink

    def racing(path, *args, **kwargs):
        real(path, *args, **kwargs)  # the other build got there first
        real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", racing)
    publish.sweep(tmp_path, (".build-",))
    assert not folder.exists()
