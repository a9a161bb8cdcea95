"""Putting built files in place all or nothing, whatever stops the process that does it.

A run (or the write-up kit) is built in a staging folder; publishing it moves each of its folders and files over
the one it replaces -- a table folder under ``data/``, its copy in the report, the figures, the notebook, the
page. A rename is atomic, several are not, so a publication is a transaction with a journal:

1. **Prepare.** Every new item is brought onto its target's filesystem (copied beside the target as
   ``.<name>.new`` when the staging folder is on another one): nothing is in place yet.
2. **Journal.** ``.publish-<name>.json`` beside the staging folder names every (new, target) pair. It is written
   to a temporary file and renamed, so it exists whole or not at all.
3. **Move.** For each pair, the target (if any) is set aside as ``.<name>.old`` and the new item renamed into
   place; then the set-aside items are removed and the journal last.

Whatever comes next -- a build, a rerun, the export, the janitor of a killed build -- runs :func:`recover` before
anything else: a journal left behind is **rolled forward** (every new item still waiting is moved in, every
set-aside item removed), so that each published thing is wholly the old one (no journal was written: nothing had
moved) or wholly the new one; it says what it repaired. A publication that an error stops (a filesystem that
refuses a rename) is rolled forward by the next command once the filesystem allows it.

**Probes.** Before the heavy work, :func:`probe` writes and removes a file in each folder a publication will write
into: a read-only folder, a full disk, a path that is a file or cannot be made is refused in one line naming the
path and the cause (:func:`refusal`).

**What the project did not write is never removed.** A folder the project writes whole (the report, the kit)
carries a marker file (:data:`MARKER`); one is replaced or removed only when it carries the marker or is empty.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shutil
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

JOURNAL_PREFIX = ".publish-"
OLD_SUFFIX = ".old"
NEW_SUFFIX = ".new"
MARKER = ".stb-written"  # in a folder the project writes whole: it may replace or remove that folder
KILL_AFTER = "STB_PUBLISH_KILL_AFTER"  # tests: SIGKILL this process after that many steps of a publication
CAUSES = {errno.ENOSPC: "no space left on the device", errno.EROFS: "the filesystem is read-only",
          errno.EACCES: "permission denied", errno.EPERM: "permission denied", errno.ENOTDIR: "it is not a folder",
          errno.ENOENT: "no such folder", errno.EEXIST: "it exists and is not a folder", errno.EXDEV:
          "another filesystem", errno.EDQUOT: "the disk quota is exceeded", errno.EISDIR: "it is a folder"}


NOTHING_PUBLISHED = "nothing was published (what was there before is whole)"
HALF_WAY = "the publication stopped half way: the next build or rerun finishes it"


class PublishError(OSError):
    """A filesystem that refuses what a publication needs: one line naming the path and the cause; ``left`` says
    what the refusal left (:data:`NOTHING_PUBLISHED`, or :data:`HALF_WAY` where even undoing was refused)."""

    def __init__(self, number: int | None, line: str, left: str = NOTHING_PUBLISHED):
        super().__init__(number, line)
        self.left = left


def refusal(error: OSError, path: Path | str | None = None) -> str:
    """An OSError in one line: the path and the cause, in words (``report/: the filesystem is read-only``); a copy
    of a folder that failed on several files (``shutil.Error``) by its first, with how many more."""
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list) and error.args[0]:
        failed = error.args[0]
        _, target, why = failed[0]
        number = re.match(r"\[Errno (\d+)\]", str(why))
        cause = CAUSES.get(int(number[1]), str(why)) if number else str(why)
        others = len(failed) - 1
        more = f" (and {others} more {'file' if others == 1 else 'files'})" if others else ""
        return f"{path if path is not None else target}: {cause}{more}"
    where = path if path is not None else (error.filename or "")
    cause = CAUSES.get(error.errno, error.strerror or str(error))
    return f"{where}: {cause}" if str(where) else cause


def _kill_countdown():
    """The countdown of the steps a test lets a publication take before it is killed (None: no test)."""
    left = os.environ.get(KILL_AFTER)
    return [int(left)] if left else None


def _step(countdown) -> None:
    if countdown is None:
        return
    countdown[0] -= 1
    if countdown[0] <= 0:
        os.kill(os.getpid(), signal.SIGKILL)


def remove(path: Path) -> None:
    """Remove a file or a folder the project wrote (missing, or removed meanwhile by the build that wrote it as it
    ends: nothing to do)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, onerror=_gone_is_fine)
    else:
        path.unlink(missing_ok=True)


def _gone_is_fine(function, path, info) -> None:
    """``shutil.rmtree``'s error handler: an entry already gone is fine, any other error is raised."""
    if not issubclass(info[0], FileNotFoundError):
        raise info[1]


@dataclass(frozen=True)
class Move:
    """One item of a publication: ``new`` goes where ``target`` is; the target is set aside at ``old`` meanwhile."""

    new: Path
    target: Path

    @property
    def old(self) -> Path:
        return self.target.with_name(f".{self.target.name}{OLD_SUFFIX}")

    def move_in(self, countdown=None) -> None:
        """Set the target aside (if any) and move the new item in; from any state a kill left, the same."""
        if not self.new.exists() and not self.new.is_symlink():
            return  # already moved in
        if self.target.exists() and not self.old.exists():
            os.replace(self.target, self.old)
            _step(countdown)
        elif self.target.exists():  # both: the target is a copy moved in by an earlier, finished publication
            remove(self.target)
        os.replace(self.new, self.target)
        _step(countdown)


def prepare(pairs: list[tuple[Path, Path]]) -> list[Move]:
    """Each (new, target) as a :class:`Move`, the new item brought onto the target's filesystem (a rename cannot
    cross filesystems: it is copied beside the target as ``.<name>.new`` and the staged one left for the staging
    folder's removal); stale items set aside by an earlier publication are removed. Nothing is in place yet."""
    moves = []
    for new, target in pairs:
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.stat(new.parent).st_dev != os.stat(target.parent).st_dev:
            near = target.with_name(f".{target.name}{NEW_SUFFIX}")
            remove(near)
            shutil.copytree(new, near, symlinks=True) if new.is_dir() else shutil.copy2(new, near)
            new = near
        move = Move(new, target)
        remove(move.old)
        moves.append(move)
    return moves


def journal_path(folder: Path, name: str) -> Path:
    return folder / f"{JOURNAL_PREFIX}{name}.json"


def write_journal(path: Path, moves: list[Move]) -> None:
    """The journal of a publication, whole or not at all (a temporary file renamed, its data on disk first)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump({"moves": [[str(m.new), str(m.target)] for m in moves]}, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def commit(journal: Path, moves: list[Move], countdown=None) -> None:
    """Move every item in, then remove what was set aside and the journal (each step repeatable after a kill)."""
    for move in moves:
        move.move_in(countdown)
    for move in moves:
        if move.old.exists() or move.old.is_symlink():
            remove(move.old)
            _step(countdown)
    journal.unlink(missing_ok=True)


def publish(folder: Path, name: str, pairs: list[tuple[Path, Path]]) -> None:
    """Publish ``pairs`` (new, target) all or nothing, the journal in ``folder`` (see the module docstring). A
    filesystem that refuses raises :class:`PublishError` in one line; what it stopped is rolled forward by the next
    :func:`recover`."""
    countdown = _kill_countdown()
    try:
        moves = prepare(pairs)
        journal = journal_path(folder, name)
        write_journal(journal, moves)
        _step(countdown)
    except OSError as error:
        raise PublishError(error.errno, refusal(error)) from None
    try:
        commit(journal, moves, countdown)
    except OSError as error:
        raise PublishError(error.errno, refusal(error), undone(journal, moves)) from None


def undone(journal: Path, moves: list[Move]) -> str:
    """After a refused step: every item moved back where it was (each new one to its staging place, each old one
    put back), the journal removed; what that leaves, in words, for the refusal's line. Where the filesystem
    refuses that too, the journal stays (and, with it, the staging folder: :func:`pending`) and the next command
    rolls the publication forward."""
    try:
        for move in reversed(moves):
            if not move.new.exists() and (move.target.exists() or move.target.is_symlink()):
                os.replace(move.target, move.new)  # moved in: back to its staging place
            if move.old.exists() or move.old.is_symlink():
                os.replace(move.old, move.target)
        journal.unlink(missing_ok=True)
    except OSError:
        return HALF_WAY
    return NOTHING_PUBLISHED


def discard(staging: Path) -> None:
    """Remove a staging folder once it is done with -- unless a publication journalled beside it still needs it."""
    if not pending(staging):
        shutil.rmtree(staging, ignore_errors=True)


def pending(staging: Path) -> bool:
    """Whether a journal beside ``staging`` still names an item in it (a publication to roll forward): such a
    staging folder is kept until that is done."""
    for journal in staging.parent.glob(f"{JOURNAL_PREFIX}*.json"):
        try:
            named = json.loads(journal.read_text(encoding="utf-8"))["moves"]
        except (OSError, ValueError, KeyError):
            continue
        if any(Path(new).is_relative_to(staging) for new, _ in named):
            return True
    return False


def recover(folder: Path) -> list[str]:
    """Roll forward every publication a killed or failed process left journalled in ``folder``; the names of those
    finished (for the line that says so)."""
    repaired = []
    if not folder.is_dir():
        return repaired
    for journal in sorted(folder.glob(f"{JOURNAL_PREFIX}*.json")):
        moves = [Move(Path(new), Path(target)) for new, target in json.loads(journal.read_text())["moves"]]
        commit(journal, moves)
        repaired.append(journal.name[len(JOURNAL_PREFIX):-len(".json")])
    for tmp in folder.glob(f"{JOURNAL_PREFIX}*.json.tmp"):  # a journal never finished: nothing had moved
        tmp.unlink(missing_ok=True)
    return repaired


def sweep(root: Path, staged: tuple[str, ...] = ()) -> None:
    """Remove what a stopped publication or build left under ``root`` once no journal needs it: items set aside
    (``.<name>.old``), copies brought beside a target (``.<name>.new``), temporary files, and the folders whose
    names start with one of ``staged``."""
    if not root.is_dir():
        return
    for entry in root.iterdir():
        name = entry.name
        if name.startswith(".") and (name.endswith((OLD_SUFFIX, NEW_SUFFIX, ".tmp")) or name.startswith(staged)):
            remove(entry)


def probe(folders: list[Path]) -> None:
    """Write and remove a file in each folder (made if missing): :class:`PublishError` in one line naming the first
    folder that refuses, and why, before any work is done."""
    for folder in folders:
        test = folder / f".probe-{os.getpid()}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise PublishError(error.errno, f"{folder}: the folder cannot be made: {refusal(error, '')}") from None
        try:
            with open(test, "wb") as handle:
                handle.write(b"\0" * 4096)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise PublishError(error.errno, f"{folder}: cannot be written: {refusal(error, '')}") from None
        finally:
            try:
                test.unlink(missing_ok=True)
            except OSError:
                pass


def owned(folder: Path, what: str | None = None) -> bool:
    """Whether the project may replace or remove ``folder``: it does not exist, is empty, or carries the marker the
    project writes into every folder it writes whole -- naming ``what`` it holds, where given (a folder written
    as the HTML report is no write-up kit, and is never replaced by one)."""
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    if not any(folder.iterdir()):
        return True
    written = written_as(folder)
    return written is not None and (what is None or written == what)


def written_as(folder: Path) -> str | None:
    """What the project wrote ``folder`` as (the ``what`` of its marker: "the write-up kit"), or None."""
    try:
        text = (folder / MARKER).read_text(encoding="utf-8")
    except OSError:
        return None
    return text.partition(": ")[2].partition(";")[0] or None


def mark(folder: Path, what: str) -> None:
    """Leave the marker that says the project wrote ``folder`` as ``what`` (and may replace it)."""
    (folder / MARKER).write_text(f"written by the Shut the Box report: {what}; replaced whole by the next one\n",
                                 encoding="utf-8")


@contextmanager
def locked(folder: Path, what: str, log=print):
    """Hold an exclusive lock on ``folder`` (``flock`` on the folder itself: no lock file is left); one who finds it
    taken says so and waits."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"another {what} into {folder} is running; waiting for it to finish ...", flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


@contextmanager
def signals_held():
    """Hold Ctrl-C and SIGTERM for the block (a publication is not stopped half way); one that came meanwhile
    stops the process once the block is done (a KeyboardInterrupt). Only in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending = []
    previous = {s: signal.signal(s, lambda signum, frame: pending.append(signum))
                for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if pending:
        raise KeyboardInterrupt
