"""``make bench``: how fast the engine is, as medians and as ratios against plain baselines run here.

Each case is timed several times and the median reported. Baselines run in the same process (or, for
peak memory, the same kind of fresh subprocess): the plain frozenset reference solver of the tests
(``tests/reference.py``) and a plain-Python game loop for the simulator. The targets are those of the
engine issue; a shared, noisy machine makes single timings unreliable, so nothing here is asserted in tests.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from reference import reference_values  # noqa: E402

from stb_core import OBJECTIVES, POLICIES, Rules, solve  # noqa: E402
from stb_core.simulate import simulate  # noqa: E402


def median_seconds(work, repeats: int) -> tuple[float, list[float]]:
    """Median wall time of ``repeats`` calls of ``work()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def reference_seconds(rules: Rules, objective: str, exact: bool = False) -> float:
    """Time for the plain reference (fractions as in the tests, or floats) to value the full board."""
    start = time.perf_counter()
    reference_values(rules, objective, "optimal", exact=exact)(frozenset(range(1, rules.tiles + 1)))
    return time.perf_counter() - start


def in_subprocess(tiles: int, objective: str) -> dict:
    """Solve in a fresh interpreter: solve time (imports excluded) and peak resident memory."""
    code = (
        "import json, resource, time\n"
        "from stb_core import Rules, solve\n"
        f"s = solve(Rules(tiles={tiles}), {objective!r})\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2\n"
        "print(json.dumps({'seconds': s.seconds, 'peak_gb': peak, 'value': float(s.value())}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def python_games(rules: Rules, games: int, seed: int) -> float:
    """Baseline: the same optimal policy played one game at a time in plain Python; seconds per game."""
    solution = solve(rules, "win")
    table = solution.policy_table()
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


def row(case, seconds, runs, target, note=""):
    met = "yes" if target is None or seconds < target else "NO"
    target_text = "-" if target is None else f"< {target:g} s"
    return f"| {case} | {seconds * 1000:,.1f} ms | {runs} | {target_text} | {met} | {note} |"


def main() -> None:
    lines = ["| case | median | runs | target | met | notes |", "|---|---:|---:|---|---|---|"]
    print("benchmarking (medians; ratios against plain baselines in this process)...", flush=True)

    nine = Rules()
    worst_case, worst = "", 0.0
    for objective in OBJECTIVES:
        for policy in POLICIES:
            seconds, _ = median_seconds(lambda o=objective, p=policy: solve(nine, o, p), 5)
            if seconds > worst:
                worst_case, worst = f"{objective}/{policy}", seconds
    ref9 = reference_seconds(nine, "win")
    opt9, _ = median_seconds(lambda: solve(nine, "win"), 7)
    lines.append(row("N=9, slowest of every objective x policy", worst, 5, 0.05,
                     f"slowest: {worst_case}; optimal win {opt9 * 1000:.1f} ms = {ref9 / opt9:,.0f}x the reference"))
    print(lines[-1], flush=True)

    twelve = Rules(tiles=12)
    opt12, _ = median_seconds(lambda: solve(twelve, "win"), 5)
    ref12 = reference_seconds(twelve, "win", exact=True)
    ref12f = reference_seconds(twelve, "win", exact=False)
    lines.append(row("N=12 optimal win probability", opt12, 5, 0.5,
                     f"speed-up (target >= 100x): {ref12 / opt12:,.0f}x the tests' exact reference ({ref12:.2f} s), "
                     f"{ref12f / opt12:,.0f}x its float version ({ref12f:.2f} s)"))
    print(lines[-1], flush=True)

    twenty = [in_subprocess(20, "remaining-sum") for _ in range(3)]
    t20 = statistics.median(r["seconds"] for r in twenty)
    peak20 = max(r["peak_gb"] for r in twenty)
    lines.append(row("N=20 optimal expected remaining sum", t20, 3, 5.0,
                     f"peak memory {peak20:.2f} GB (target < 2 GB); aim < 0.3 s: "
                     f"{'met' if t20 < 0.3 else 'missed'}; value {twenty[0]['value']:.6f}"))
    print(lines[-1], flush=True)

    r24 = in_subprocess(24, "remaining-sum")
    lines.append(row("N=24 optimal expected remaining sum", r24["seconds"], 1, None,
                     f"finishes; peak memory {r24['peak_gb']:.2f} GB; aim < 10 s: "
                     f"{'met' if r24['seconds'] < 10 else 'missed'}; value {r24['value']:.6f}"))
    print(lines[-1], flush=True)

    solution = solve(nine, "win")
    solution.policy_table()  # built once per solution; part of set-up, like the solve
    sim, _ = median_seconds(lambda: simulate(solution, 1_000_000, seed=1), 3)
    per_game = python_games(nine, 20_000, seed=1)
    lines.append(row("1,000,000 simulated games, optimal policy", sim, 3, 3.0,
                     f"plain-Python loop: {per_game * 1e6:.1f} s per million = {per_game * 1e6 / sim:,.0f}x slower; "
                     f"aim < 1 s: {'met' if sim < 1 else 'missed'}"))
    print(lines[-1], flush=True)

    print("\n" + "\n".join(lines))
    print(f"\n(N=20 has {1 << 20:,} boards, N=24 {1 << 24:,}; timings exclude imports.)")


if __name__ == "__main__":
    main()
