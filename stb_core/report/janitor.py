"""Clean up after a build that died: ``python -m stb_core.report.janitor <report folder> <build pid>``.

A build starts one janitor in a session of its own and stops it when it ends normally. The janitor asks Linux to
signal it when the build dies (``PR_SET_PDEATHSIG``) and also watches the build's pid; once the build is gone --
killed, even by SIGKILL, which no process can catch for itself -- it waits for the build's notebook processes to
end (they were told to by the same mechanism), then, if no other build has taken the report folder meanwhile,
finishes what the build left half-done (:func:`stb_core.report.staging.recover`: a folder set aside goes back, the
staging folder with its kernel files goes away). A build that started in the meantime does the same itself.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys
import time
from pathlib import Path

from .run import die_with_parent


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv: list[str] | None = None) -> int:
    folder, pid = (argv or sys.argv[1:])[:2]
    pid = int(pid)
    gone = {"build": False}

    def parent_died(*_):
        gone["build"] = True

    signal.signal(signal.SIGTERM, parent_died)
    die_with_parent(signal.SIGTERM)
    while not gone["build"] and alive(pid) and os.getppid() == pid:
        time.sleep(0.5)
    time.sleep(3.0)  # the notebook processes unwind (their kernels shut down) before their folder goes
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # another build holds the folder: it recovers what was left
    try:
        os.environ["STB_REPORT_DIR"] = str(Path(folder))
        from .staging import recover

        recover()
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
