"""The bench's yardstick for the compiled sweep: the plainest serial numba loop over the Bellman equation.

Expected sum left under optimal play, tiles 1..N, D dice of S sides (two six-sided by default), no one-die rule:
``V(0) = 0``, ``V(S) = sum_r p(r) min_{m legal} V(S \\ m)`` (``sum(S)`` when no move is legal). Every move of
every roll is tried against every board; nothing else. Run as a script it prints one JSON line (median
seconds, peak memory, value), like the bench's other fresh-process cases.

    python benchmarks/plain_loop.py TILES REPEATS [DICE SIDES]
"""

import itertools
import json
import resource
import statistics
import sys
import time

import numpy as np
from numba import njit


@njit(cache=True)
def plain_sweep(tiles, moves, offsets, chances):
    n = 1 << tiles
    values = np.zeros(n)
    sums = np.zeros(n, dtype=np.int64)
    for s in range(1, n):
        sums[s] = sums[s & (s - 1)] + np.int64(np.log2(s & -s)) + 1
        expected = 0.0
        for r in range(chances.size):
            best = np.inf
            for j in range(offsets[r], offsets[r + 1]):
                if moves[j] & s == moves[j] and values[s ^ moves[j]] < best:
                    best = values[s ^ moves[j]]
            expected += chances[r] * (sums[s] if best == np.inf else best)
        values[s] = expected
    return values


def moves_by_roll(tiles: int, dice: int = 2, sides: int = 6):
    """Every set of distinct tiles with total r, for every total r the dice can show, as bit-masks with offsets,
    and the chance of each total (counted over the sides**dice equally likely throws)."""
    ways = {0: 1}
    for _ in range(dice):
        ways = {t: sum(ways.get(t - f, 0) for f in range(1, sides + 1)) for t in range(dice * sides + 1)}
    totals = [r for r in range(dice, dice * sides + 1)]
    chunks = [[sum(1 << (t - 1) for t in c) for k in range(1, r + 1)
               for c in itertools.combinations(range(1, min(tiles, r) + 1), k) if sum(c) == r] for r in totals]
    offsets = np.concatenate([[0], np.cumsum([len(c) for c in chunks])]).astype(np.int64)
    chances = np.array([ways[r] / sides**dice for r in totals])
    return np.array(sum(chunks, []), dtype=np.int64), offsets, chances


if __name__ == "__main__":
    tiles, repeats = int(sys.argv[1]), int(sys.argv[2])
    dice, sides = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (2, 6)
    moves, offsets, chances = moves_by_roll(tiles, dice, sides)
    plain_sweep(2, moves[:0], np.zeros(chances.size + 1, dtype=np.int64), chances)  # compile (or load the cache)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        values = plain_sweep(tiles, moves, offsets, chances)
        times.append(time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    print(json.dumps({"seconds": statistics.median(times), "peak_gb": peak, "value": float(values[-1])}))
