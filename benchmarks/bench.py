"""``make bench``: how fast the engine is, as medians and as ratios against baselines timed in the same run.

Each case is timed several times and the median reported. Baselines run in the same run: the plain
frozenset reference solver of the tests (``tests/reference.py``), a plain-Python game loop for the simulator,
and, for the solver itself, an earlier version of this project (``--baseline REV``, default ``BASELINE``:
the engine before policies became objects) checked out with ``git worktree`` into a temporary folder and
timed in alternating fresh processes with this one. Machines are shared and noisy, so nothing here is
asserted in tests; a ratio near 1.00 means "no change".
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from reference import reference_values  # noqa: E402

from stb_core import OBJECTIVES, POLICIES, Rules, evaluate, solve  # noqa: E402
from stb_core.simulate import simulate  # noqa: E402

BASELINE = "e76ce86"  # the engine before the policies redesign (issue 10): solve(rules, objective, policy)

# Timed in fresh processes, for this tree and the baseline: (label, tiles, objective, repeats inside a process)
PROCESS_CASES = [("N=12 optimal win probability", 12, "win", 9),
                 ("N=20 optimal expected sum left", 20, "remaining-sum", 2)]
CASE_SCRIPT = """
import json, resource, statistics, sys, time
from stb_core import Rules, solve
tiles, objective, repeats = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
rules = Rules(tiles=tiles)
times = []
for _ in range(repeats):
    start = time.perf_counter(); solution = solve(rules, objective); times.append(time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
print(json.dumps({"seconds": statistics.median(times), "peak_gb": peak, "value": float(solution.value())}))
"""


def median_seconds(work, repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``work()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process(tree: Path, tiles: int, objective: str, repeats: int) -> dict:
    """One fresh interpreter importing ``stb_core`` from ``tree``: median solve time and peak memory."""
    out = subprocess.run([sys.executable, "-c", CASE_SCRIPT, str(tiles), objective, str(repeats)],
                         capture_output=True, text=True, check=True, cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout)


def reference_seconds(rules: Rules, objective: str, exact: bool = False) -> float:
    """Time for the plain reference (fractions as in the tests, or floats) to value the full board."""
    start = time.perf_counter()
    reference_values(rules, objective, "optimal", exact=exact)(frozenset(range(1, rules.tiles + 1)))
    return time.perf_counter() - start


def python_games(rules: Rules, games: int, seed: int) -> float:
    """Baseline: the same optimal policy played one game at a time in plain Python; seconds per game."""
    table = solve(rules, "win").sigma
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(games):
        board = rules.full_board
        while board:
            roll = int(rng.integers(1, 7)) + int(rng.integers(1, 7))
            move = int(table[board, roll])
            if move < 0:
                break
            board &= ~move
    return (time.perf_counter() - start) / games


def checkout(rev: str, folder: Path) -> Path | None:
    """``git worktree`` of ``rev`` in ``folder`` (None, with a note, when the revision is not available)."""
    made = subprocess.run(["git", "worktree", "add", "--detach", "-f", str(folder), rev], cwd=ROOT,
                          capture_output=True, text=True)
    if made.returncode:
        print(f"(baseline {rev} not available: {made.stderr.strip().splitlines()[-1]})", flush=True)
        return None
    return folder


def compare_with_baseline(rev: str, rounds: int) -> list[str]:
    """Each process case for this tree and the baseline, alternating, ``rounds`` processes each."""
    lines = []
    with tempfile.TemporaryDirectory(prefix="stb-bench-") as scratch:
        base = checkout(rev, Path(scratch) / "baseline")
        try:
            for label, tiles, objective, repeats in PROCESS_CASES:
                now, then = [], []
                for _ in range(rounds):
                    now.append(in_process(ROOT, tiles, objective, repeats))
                    if base:
                        then.append(in_process(base, tiles, objective, repeats))
                t_now = statistics.median(r["seconds"] for r in now)
                peak = max(r["peak_gb"] for r in now)
                note = f"peak memory {peak:.2f} GB; value {now[0]['value']:.6f}"
                if then:
                    t_then = statistics.median(r["seconds"] for r in then)
                    note = (f"baseline {rev}: {t_then * 1000:,.1f} ms, ratio now/baseline "
                            f"{t_now / t_then:.2f} (target <= 1.10); " + note)
                lines.append(row(label, t_now, rounds, None, note))
                print(lines[-1], flush=True)
        finally:
            if base:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    return lines


def row(case, seconds, runs, target, note=""):
    met = "yes" if target is None or seconds < target else "NO"
    target_text = "-" if target is None else f"< {target:g} s"
    return f"| {case} | {seconds * 1000:,.1f} ms | {runs} | {target_text} | {met} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per case and tree (default 5)")
    args = parser.parse_args()
    lines = ["| case | median | runs | target | met | notes |", "|---|---:|---:|---|---|---|"]
    print("benchmarking (medians; ratios against baselines timed in this run)...", flush=True)

    nine = Rules()
    worst_case, worst = "", 0.0
    for objective in OBJECTIVES:
        for policy in POLICIES:
            seconds = median_seconds(lambda o=objective, p=policy: evaluate(nine, o, p), 5)
            if seconds > worst:
                worst_case, worst = f"{objective}/{policy}", seconds
    ref9 = reference_seconds(nine, "win")
    opt9 = median_seconds(lambda: solve(nine, "win"), 7)
    lines.append(row("N=9, slowest of every objective x policy", worst, 5, 0.05,
                     f"slowest: {worst_case}; optimal win {opt9 * 1000:.1f} ms = {ref9 / opt9:,.0f}x the reference"))
    print(lines[-1], flush=True)

    twelve = Rules(tiles=12)
    opt12 = median_seconds(lambda: solve(twelve, "win"), 9)
    ref12 = reference_seconds(twelve, "win", exact=True)
    ref12f = reference_seconds(twelve, "win", exact=False)
    lines.append(row("N=12 optimal win, against the reference", opt12, 9, 0.5,
                     f"{ref12 / opt12:,.0f}x the tests' exact reference ({ref12:.2f} s), "
                     f"{ref12f / opt12:,.0f}x its float version ({ref12f:.2f} s)"))
    print(lines[-1], flush=True)

    lines += compare_with_baseline(args.baseline, args.rounds)

    r24 = in_process(ROOT, 24, "remaining-sum", 1)
    lines.append(row("N=24 optimal expected sum left", r24["seconds"], 1, None,
                     f"peak memory {r24['peak_gb']:.2f} GB; value {r24['value']:.6f}"))
    print(lines[-1], flush=True)

    solution = solve(nine, "win")
    _ = solution.sigma  # built once per solution; part of set-up, like the solve
    sim = median_seconds(lambda: simulate(solution, 1_000_000, seed=1), 3)
    per_game = python_games(nine, 20_000, seed=1)
    lines.append(row("1,000,000 simulated games, optimal policy", sim, 3, 3.0,
                     f"plain-Python loop: {per_game * 1e6:.1f} s per million = {per_game * 1e6 / sim:,.0f}x slower"))
    print(lines[-1], flush=True)

    print("\n" + "\n".join(lines))
    print(f"\n(N=20 has {1 << 20:,} boards, N=24 {1 << 24:,}; timings exclude imports.)")


if __name__ == "__main__":
    main()
