"""``make bench``: how fast the engine is, as medians and as ratios against baselines timed in the same run.

Each case is timed several times and the median reported. Baselines run in the same run: the plain
frozenset reference solver of the tests (``tests/reference.py``), a plain-Python game loop for the simulator,
the plainest serial numba loop over the Bellman equation (``plain_loop.py``) for the compiled sweep, the numpy
sweep against the compiled one on the same boards, and, for the solver itself, an earlier version of this
project (``--baseline REV``, default ``BASELINE``:
the engine before policies became objects) checked out with ``git worktree`` into a temporary folder and
timed in alternating fresh processes with this one. Machines are shared and noisy, so nothing here is
asserted in tests; a ratio near 1.00 means "no change".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from reference import reference_values  # noqa: E402

from stb_core import OBJECTIVES, POLICIES, Rules, evaluate, solve  # noqa: E402
from stb_core.cards import all_cards, search_cards  # noqa: E402
from stb_core.game import game_of  # noqa: E402
from stb_core.monte_carlo import simulate  # noqa: E402
from stb_core.players import PubGame, play  # noqa: E402
from stb_core.report.paths import SOLVE_TIMES  # noqa: E402  (written by full runs; shown in notebook 06)
from stb_core.sweep import forget_solutions  # noqa: E402

BASELINE = "e76ce86"  # the engine before the policies redesign (issue 10): solve(rules, objective, policy)
BASELINE_RATIO = 1.10  # a case against the baseline is met when it takes at most this many times as long

# Timed in fresh processes, for this tree and the baseline: (label, tiles, objective, repeats inside a process)
PROCESS_CASES = [("N=12 optimal win probability", 12, "win", 9),
                 ("N=20 optimal expected sum left", 20, "remaining-sum", 3)]
CASE_SCRIPT = """
import json, resource, statistics, sys, time
from stb_core import Rules, solve
try:  # each repeat solves a game never seen before: nothing kept from the last one (kept solutions, pairs)
    from stb_core.game import game_of
    from stb_core.sweep import forget_solutions
    def fresh():
        forget_solutions()
        game_of.cache_clear()
except ImportError:  # the baseline keeps nothing
    def fresh():
        pass
tiles, objective, repeats = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
options = {"path": sys.argv[4]} if len(sys.argv) > 4 and sys.argv[4] != "-" else {}  # the baseline has no path
dice, sides = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (2, 6)
if options:
    solve(Rules(tiles=2), objective, **options)  # imports (numba for the compiled path) before the clock starts
rules = Rules(tiles=tiles, dice=dice, sides=sides)
times = []
for _ in range(repeats):
    fresh()
    start = time.perf_counter()
    solution = solve(rules, objective, **options)
    times.append(time.perf_counter() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
print(json.dumps({"seconds": statistics.median(times), "peak_gb": peak, "value": float(solution.value())}))
"""
# Whole processes: interpreter start, imports, one solve (9 tiles: numpy; 20 tiles: compiled, numba imported).
NINE_SCRIPT = "from stb_core import Rules, solve; solve(Rules(), 'win')"
COMPILED_SCRIPT = "from stb_core import Rules, solve; solve(Rules(tiles=20), 'remaining-sum')"


def median_seconds(work, repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``work()``, each on a game never solved before in this process
    (the engine keeps solutions of named games and each game's pairs: timing a second call would time a look-up)."""
    times = []
    for _ in range(repeats):
        forget_solutions()
        game_of.cache_clear()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process(tree: Path, tiles: int, objective: str, repeats: int, path: str | None = None,
               extra_env: dict | None = None, dice: int = 2, sides: int = 6) -> dict:
    """One fresh interpreter importing ``stb_core`` from ``tree``: median solve time and peak memory."""
    arguments = [str(tiles), objective, str(repeats)] + ([path or "-"] if path or (dice, sides) != (2, 6) else [])
    arguments += [str(dice), str(sides)] if (dice, sides) != (2, 6) else []
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", **(extra_env or {})}
    out = subprocess.run([sys.executable, "-c", CASE_SCRIPT, *arguments], capture_output=True, text=True,
                         check=True, cwd=tree, env=env)
    return json.loads(out.stdout)


def plain_loop(tiles: int, repeats: int, dice: int = 2, sides: int = 6) -> dict:
    """The yardstick of issue 13: the plainest serial numba loop (``benchmarks/plain_loop.py``), fresh process."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "plain_loop.py"), str(tiles), str(repeats),
                          str(dice), str(sides)], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def process_seconds(tree: Path, script: str, extra_env: dict | None = None) -> float:
    """Wall time of a whole fresh process running ``script`` with ``stb_core`` from ``tree``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", script], check=True, cwd=tree, capture_output=True,
                   env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", **(extra_env or {})})
    return time.perf_counter() - start


def _numba_imported(script: str) -> str:
    """Whether ``script``, run in a fresh process from this tree, imports numba: ``imported`` or ``not imported``."""
    out = subprocess.run([sys.executable, "-c", script + "; import sys; print('numba' in sys.modules)"], check=True,
                         cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return "imported" if out.stdout.strip().endswith("True") else "not imported"


def reference_seconds(rules: Rules, objective: str, exact: bool = False) -> float:
    """Time for the plain reference (fractions as in the tests, or floats) to value the full board."""
    start = time.perf_counter()
    reference_values(rules, objective, "optimal", exact=exact)(frozenset(range(1, rules.tiles + 1)))
    return time.perf_counter() - start


def python_games(rules: Rules, games: int, seed: int) -> float:
    """Baseline: the same optimal policy played one game at a time in plain Python; seconds per game."""
    table = solve(rules, "win").move_masks()  # bit-masks by board and roll total
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
    """Each process case for this tree and the baseline, alternating, ``rounds`` processes each; then a whole
    process solving one 9-tile game (start-up included), which must not get slower."""
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
                note, ratio_met = f"peak memory {peak:.2f} GB; value {now[0]['value']:.6f}", None
                if then:
                    t_then = statistics.median(r["seconds"] for r in then)
                    ratio_met = t_now / t_then <= BASELINE_RATIO
                    note = (f"baseline {rev}: {t_then * 1000:,.1f} ms, ratio now/baseline "
                            f"{t_now / t_then:.2f} (target <= {BASELINE_RATIO:.2f}); " + note)
                lines.append(row(label, t_now, rounds, None, note, ratio_met))
                print(lines[-1], flush=True)
            now = [process_seconds(ROOT, NINE_SCRIPT) for _ in range(2 * rounds)]
            then = [process_seconds(base, NINE_SCRIPT) for _ in range(2 * rounds)] if base else []
            note, ratio_met = f"interpreter start, imports and one solve (numba {_numba_imported(NINE_SCRIPT)})", None
            if then:
                ratio = statistics.median(now) / statistics.median(then)
                ratio_met = ratio <= BASELINE_RATIO
                note = (f"baseline {rev}: {statistics.median(then) * 1000:,.0f} ms, ratio now/baseline "
                        f"{ratio:.2f} (target <= {BASELINE_RATIO:.2f}); " + note)
            lines.append(row("a whole process solving one 9-tile game", statistics.median(now), 2 * rounds, None,
                             note, ratio_met))
            print(lines[-1], flush=True)
        finally:
            if base:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    return lines


def compare_paths(cases: list[tuple[int, int, int, bool]], rounds: int) -> tuple[list[str], list[dict]]:
    """The compiled sweep against the plain serial loop, and against the numpy sweep where it is timed
    (``cases``: tiles, dice, sides, whether to time numpy), on the same large boards, each in fresh processes:
    medians, their ratios and the peak memory of the whole process (as table rows, and as records for
    :data:`SOLVE_TIMES`: two six-sided dice only)."""
    lines, records = [], []
    for tiles, dice, sides, with_numpy in cases:
        repeats = 3 if tiles <= 20 else 1
        game = f"N={tiles}" + ("" if (dice, sides) == (2, 6) else f", {dice}d{sides}")
        options = {"dice": dice, "sides": sides}
        numpy_runs = [in_process(ROOT, tiles, "remaining-sum", repeats, "numpy", **options)
                      for _ in range(rounds)] if with_numpy else []
        compiled_runs = [in_process(ROOT, tiles, "remaining-sum", repeats, "compiled", **options)
                         for _ in range(rounds)]
        plain_runs = [plain_loop(tiles, repeats, dice, sides) for _ in range(rounds)]
        t_compiled, t_plain = (statistics.median(r["seconds"] for r in runs) for runs in (compiled_runs, plain_runs))
        p_compiled, p_plain = (max(r["peak_gb"] for r in runs) for runs in (compiled_runs, plain_runs))
        same = abs(plain_runs[0]["value"] - compiled_runs[0]["value"]) <= 1e-9 * abs(plain_runs[0]["value"])
        if with_numpy:
            t_numpy = statistics.median(r["seconds"] for r in numpy_runs)
            p_numpy = max(r["peak_gb"] for r in numpy_runs)
            lines.append(row(f"{game} expected sum left, numpy sweep", t_numpy, rounds, None,
                             f"peak memory {p_numpy:.2f} GB"))
        lines.append(row(f"{game} expected sum left, compiled sweep", t_compiled, rounds, None,
                         (f"numpy/compiled {t_numpy / t_compiled:.1f}x; " if with_numpy else "")
                         + f"compiled/plain loop {t_compiled / t_plain:.2f} (target <= 1.5); peak memory "
                         f"{p_compiled:.2f} GB (target < 1 GB); same value as the plain loop: {same}"))
        lines.append(row(f"{game} plain serial numba loop (yardstick)", t_plain, rounds, None,
                         f"peak memory {p_plain:.2f} GB"))
        print("\n".join(lines[-3 if with_numpy else -2:]), flush=True)
        if (dice, sides) == (2, 6):
            for path, seconds, peak in (("numpy", t_numpy, p_numpy), ("compiled", t_compiled, p_compiled),
                                        ("plain loop", t_plain, p_plain)):
                records.append({"tiles": tiles, "sweep": path, "median_seconds": round(seconds, 3),
                                "peak_memory_gb": round(peak, 2), "processes": rounds})
    with tempfile.TemporaryDirectory(prefix="stb-numba-cache-") as cache:
        cold = process_seconds(ROOT, COMPILED_SCRIPT, {"NUMBA_CACHE_DIR": cache})
        warm = statistics.median(process_seconds(ROOT, COMPILED_SCRIPT, {"NUMBA_CACHE_DIR": cache})
                                 for _ in range(3))
    lines.append(row("a whole process solving N=20 compiled, empty numba cache", cold, 1, None,
                     f"compiles the kernels; with the cache written: {warm * 1000:,.0f} ms (median of 3)"))
    print(lines[-1], flush=True)
    return lines, records


# Whole commands, as a user runs them: (the stb arguments, the plain loop's game (tiles, dice) it is held to or None,
# the peak memory it must stay under, GB)
COMMANDS = [
    (["solve", "--tiles", "22", "--dice", "4", "--objective", "remaining-sum", "--json"], (22, 4), 1.0),
    (["solve", "--tiles", "24", "--json"], (24, 2), 0.6),
    (["solve", "--tiles", "24", "--dice", "4", "--json"], (24, 4), 1.0),
    (["distribution", "--of", "rolls", "--tiles", "24", "--tie-break", "random", "--json"], None, 1.0),
    (["solve", "--tiles", "20", "--policy", "most-options", "--json"], None, 1.0),
]
QUICK_COMMANDS = [COMMANDS[0], (["solve", "--tiles", "20", "--json"], (20, 2), 0.6)]


def command_run(arguments: list[str], extra_env: dict | None = None) -> dict:
    """One ``stb`` command in a fresh process, as a user runs it: wall seconds (start-up, imports and output included),
    the process's peak memory, and what the command estimated before it started (``STB_ESTIMATES``: every estimate
    it makes, added up)."""
    stb = Path(sys.executable).with_name("stb")
    with tempfile.TemporaryFile("w+") as said:
        start = time.perf_counter()
        child = subprocess.Popen([str(stb), *arguments], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=said,
                                 env={**os.environ, "STB_ESTIMATES": "1", **(extra_env or {})})
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        said.seek(0)
        estimates = re.findall(r"estimate: ([\d.]+) s ([\d]+) bytes", said.read())
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"stb {' '.join(arguments)} failed")
    return {"seconds": seconds, "peak_gb": usage.ru_maxrss / 1024**2,
            "estimated_seconds": sum(float(s) for s, _ in estimates),
            "estimated_gb": max((int(b) for _, b in estimates), default=0) / 2**30}


# What the commands announce against what they take (issue 31: within 2x in time and 1.5x in memory on an idle
# machine); the estimate covers the work, plus the process's start-up measured here, against the whole process.
ESTIMATED = [
    ["solve", "--tiles", "16", "--json"],
    ["solve", "--tiles", "20", "--dice", "3", "--json"],
    ["solve", "--tiles", "22", "--dice", "4", "--objective", "remaining-sum", "--json"],
    ["solve", "--tiles", "18", "--dice", "4", "--json"],
    ["solve", "--tiles", "24", "--json"],
    ["solve", "--tiles", "22", "--tie-break", "random", "--json"],
    ["solve", "--tiles", "22", "--policy", "sequence-count", "--json"],
    ["solve", "--tiles", "24", "--policy", "most-options", "--json"],
    ["solve", "--tiles", "12", "--exact", "--json"],
    ["solve", "--tiles", "12", "--policy", "hindsight", "--json"],
    ["distribution", "--tiles", "20", "--of", "rolls", "--json"],
    ["distribution", "--tiles", "18", "--of", "rolls", "--json"],
    ["distribution", "--tiles", "14", "--of", "rolls", "--exact", "--json"],
    ["distribution", "--tiles", "22", "--of", "sum", "--tie-break", "random", "--json"],
    ["counts", "--tiles", "16", "--json"],
    ["counts", "--tiles", "16", "--dice", "3", "--json"],
    ["simulate", "--games", "2000000", "--json"],
    ["players", "--players", "3", "--json"],
    ["players", "--players", "6", "--tiles", "12", "--json"],
    ["players", "--players", "2", "--scoring", "digits", "--json"],
    ["players", "--players", "3", "--scoring", "digits", "--shut-pays", "2", "--fair", "--json"],
    ["players", "--players", "6", "--exact", "--shut-pays", "1000", "--json"],
    ["players", "--players", "2", "--layout", "double-shutter", "--json"],
]
ESTIMATES = SOLVE_TIMES.with_name("estimates.csv")  # written by full runs, described in data/bench/datapackage.json


def compare_estimates(commands) -> tuple[list[str], list[dict]]:
    """Each command's announced estimate against its measured whole-process time and peak memory; the estimate
    counts the work, so the process's own start-up (``stb --version``: time and memory) is added to it. Returns
    the table's lines and its rows."""
    start_up = command_run(["--version"])
    lines = ["", "| command | estimated | measured | ratio | estimated memory | peak memory | ratio | "
                 "within 2x / 1.5x |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    records = []
    for arguments in commands:
        run = command_run(arguments)
        run["estimated_seconds"] += start_up["seconds"]
        run["estimated_gb"] += start_up["peak_gb"]
        time_ratio = run["seconds"] / run["estimated_seconds"] if run["estimated_seconds"] else float("inf")
        memory_ratio = run["peak_gb"] / run["estimated_gb"] if run["estimated_gb"] else float("inf")
        within = 0.5 <= time_ratio <= 2 and memory_ratio <= 1.5
        lines.append(f"| stb {' '.join(arguments)} | {run['estimated_seconds']:.2f} s | {run['seconds']:.2f} s | "
                     f"{time_ratio:.2f} | {run['estimated_gb']:.2f} GB | {run['peak_gb']:.2f} GB | "
                     f"{memory_ratio:.2f} | {'yes' if within else 'NO'} |")
        print(lines[-1], flush=True)
        records.append({"command": "stb " + " ".join(arguments),
                        "estimated_seconds": round(run["estimated_seconds"], 2),
                        "measured_seconds": round(run["seconds"], 2), "time_ratio": round(time_ratio, 2),
                        "estimated_gb": round(run["estimated_gb"], 3), "peak_memory_gb": round(run["peak_gb"], 3),
                        "memory_ratio": round(memory_ratio, 2), "within": within})
    return lines, records


def save_estimates(records: list[dict]) -> None:
    """The estimate table (:func:`compare_estimates`) with the date and the machine, for data/bench."""
    _save(records, ESTIMATES)


def first_run(arguments: list[str], precompiled: bool) -> dict:
    """The command's first run on a machine: numba's cache empty, then filled by ``python -m stb_core.precompile``
    as ``make setup`` fills it (``precompiled``), or left empty (the command compiles what it uses)."""
    with tempfile.TemporaryDirectory(prefix="stb-numba-cache-") as cache:
        if precompiled:
            subprocess.run([sys.executable, "-m", "stb_core.precompile"], cwd=ROOT, check=True, capture_output=True,
                           env={**os.environ, "NUMBA_CACHE_DIR": cache})
        return command_run(arguments, {"NUMBA_CACHE_DIR": cache})


def verdict(seconds: float, limit: float) -> str:
    return f"{seconds:.2f} s, {'met' if seconds <= limit else 'NOT met'}"


def compare_commands(commands, rounds: int) -> list[str]:
    """Each whole command against the plain serial loop on the same game (the target: at most 1.5 x its sweep plus one
    second of start-up) and its memory target -- the numbers a user sees, not the library's: warm (the median of
    ``rounds``), and its first run on a machine after ``make setup`` (and, for scale, with nothing compiled)."""
    lines = []
    for arguments, game, memory in commands:
        runs = [command_run(arguments) for _ in range(rounds)]
        first, cold = first_run(arguments, precompiled=True), first_run(arguments, precompiled=False)
        seconds, peak = statistics.median(r["seconds"] for r in runs), max(r["peak_gb"] for r in runs + [first])
        note = f"peak memory {peak:.2f} GB (target < {memory:g} GB: {'met' if peak < memory else 'NOT met'})"
        limit = 1.5 * plain_loop(game[0], 1, game[1], 6)["seconds"] + 1.0 if game else float("inf")
        if game:
            note = (f"target <= 1.5 x the plain loop + 1 s = {limit:.2f} s: warm {verdict(seconds, limit)}, "
                    f"first run after make setup {verdict(first['seconds'], limit)}; " + note)
        else:
            note = f"first run after make setup {first['seconds']:.2f} s; " + note
        note += f"; first run with nothing compiled {cold['seconds']:.2f} s"
        lines.append(row(f"stb {' '.join(arguments)} (whole command)", seconds, rounds, None, note))
        print(lines[-1], flush=True)
    return lines


def sigma_cost(rounds: int) -> str:
    """What recording the move table costs the compiled solve: the same solve with and without it, in process."""
    from stb_core import compiled
    from stb_core.choice import get_tie_break
    from stb_core.objectives import get_objective
    from stb_core.policies import OPTIMAL

    game = game_of(Rules(tiles=20))
    ranking, objective = OPTIMAL.ranking(game, get_tie_break("canonical")), get_objective("remaining-sum")
    compiled.solve_values(game, objective, ranking)  # kernels loaded
    times = {record: statistics.median(
        _timed(lambda r=record: compiled.solve_values(game, objective, ranking, record=r)) for _ in range(rounds))
        for record in (False, True)}
    extra = times[True] - times[False]
    return row("N=20 move table recorded by the compiled solve", times[True], rounds, None,
               f"without recording {times[False] * 1000:,.0f} ms: the table costs {extra / times[False]:+.0%} of the "
               f"solve (target < 25%), and nothing more when asked for")


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def save_solve_times(records: list[dict]) -> None:
    """The path comparison as a small table for the report (notebook 06 shows it): what was measured, where
    and when. Written by full runs only (``--quick`` skips N=24)."""

    _save([{**record, "objective": "remaining-sum"} for record in records], SOLVE_TIMES)


def _save(records: list[dict], path: Path) -> None:
    """``records`` as a CSV table at ``path``, each row with the date and the machine it was measured on."""
    import platform

    table = pd.DataFrame(records)
    table["measured"] = time.strftime("%Y-%m-%d")
    table["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False)
    print(f"wrote {path.relative_to(ROOT)}", flush=True)


def row(case, seconds, runs, target, note="", ratio_met: bool | None = None):
    """A table row; ``met`` judges the time target and, where the note states one, the ratio's (``ratio_met``)."""
    met = "yes" if (target is None or seconds < target) and ratio_met is not False else "NO"
    target_text = "-" if target is None else f"< {target:g} s"
    return f"| {case} | {seconds * 1000:,.1f} ms | {runs} | {target_text} | {met} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per case and tree (default 5)")
    parser.add_argument("--quick", action="store_true",
                        help="one round per case and no N=24 (a minute or two instead of several)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    rounds = 1 if args.quick else args.rounds
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

    lines += compare_with_baseline(args.baseline, rounds)
    cases = [(20, 2, 6, True), (20, 4, 6, True)] if args.quick else [
        (20, 2, 6, True), (24, 2, 6, True), (20, 4, 6, True), (22, 4, 6, False), (24, 4, 6, False),
        (20, 2, 20, False)]
    path_lines, records = compare_paths(cases, min(rounds, 3))
    lines += path_lines
    lines += compare_commands(QUICK_COMMANDS if args.quick else COMMANDS, min(rounds, 3))
    estimates, estimated = compare_estimates(ESTIMATED[:3] if args.quick else ESTIMATED)
    lines.append(sigma_cost(rounds))
    print(lines[-1], flush=True)
    if not args.quick:
        save_solve_times(records)
        save_estimates(estimated)

    solution = solve(nine, "win")
    _ = solution.sigma  # built once per solution; part of set-up, like the solve
    sim = median_seconds(lambda: simulate(solution, 1_000_000, seed=1), 3)
    per_game = python_games(nine, 20_000, seed=1)
    lines.append(row("1,000,000 simulated games, optimal policy", sim, 3, 3.0,
                     f"plain-Python loop: {per_game * 1e6:.1f} s per million = {per_game * 1e6 / sim:,.0f}x slower"))
    print(lines[-1], flush=True)

    six = PubGame(players=6, scoring="digits")
    pub = median_seconds(lambda: play(six), 1 if args.quick else 3)
    lines.append(row("pub game, 6 players, digits scoring", pub, 1 if args.quick else 3, None,
                     "every seat's strategy by backward induction (notebook 07)"))
    print(lines[-1], flush=True)
    cards = median_seconds(lambda: search_cards(nine), 1)
    lines.append(row("every strategy card of up to 3 lines, valued exactly", cards, 1, None,
                     f"{len(all_cards()):,} cards, two objectives (notebook 06)"))
    print(lines[-1], flush=True)

    print("\n" + "\n".join(lines + estimates))
    print(f"\n(N=20 has {1 << 20:,} boards, N=24 {1 << 24:,}; timings exclude imports except where a row says "
          "'whole process'.)")


if __name__ == "__main__":
    main()
