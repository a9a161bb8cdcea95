"""How long a new user waits: clone the project afresh and time the README's two commands there.

    python3 benchmarks/fresh_clone.py            # make report, then make test, in a fresh clone
    python3 benchmarks/fresh_clone.py --report   # make report only

Each command runs in a new clone of this repository's last commit (``git clone``; uncommitted work is not
included), so ``.venv`` is created from nothing, as on a fresh machine. Prints the wall time of each command and
the size of ``.venv``; the clone is removed at the end. pip's download cache is left as it is: with an empty
cache the first install adds the download time (set ``PIP_NO_CACHE_DIR=1`` to measure that case).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def timed(command: list[str], cwd: Path) -> float:
    print(f"$ {' '.join(command)}", flush=True)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        lines = [line for line in done.stdout.splitlines() if "is ignored: it is neither a file" not in line]
        sys.exit(f"{' '.join(command)} failed after {seconds:.0f} s; the end of its output:\n" + "\n".join(lines[-60:]))
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", action="store_true", help="time make report only")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="stb-fresh-clone-"))
    try:
        rows = []
        for target in ["report"] + ([] if args.report else ["test"]):
            clone = scratch / target
            subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
            rows.append((f"make {target}", timed(["make", target], clone), folder_size(clone / ".venv")))
        print(f"\n{'command':<14}{'minutes':>9}{'.venv (MB)':>12}")
        for command, seconds, size in rows:
            print(f"{command:<14}{seconds / 60:>9.1f}{size / 1e6:>12.0f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
