"""Compile the engine's kernels into numba's disk cache, once: ``python -m stb_core.precompile`` (``make setup`` runs
it), so that a user's first command runs as fast as the next one instead of paying several seconds of compiling.

numba compiles a kernel once per combination of its arguments' types. :mod:`stb_core.compiled` hands the kernels
one type per argument (read-only, contiguous inputs), so the types left are the pass and the integer type of the
move indices (:attr:`stb_core.boards.MoveCatalogue.index_dtype`): a solve and the value of a fixed play (the
backward kernel, each with a move table and with a mixture), and the chances pushed forward, on one game whose moves
fit 8 bits and one that needs 16. A game with more than 32,767 moves for one roll (32-bit indices: four dice of many
sides on over 20 tiles) compiles its kernels on its first solve.
"""

from __future__ import annotations

import time

from .rules import Rules
from .valuation import evaluate, expected_rolls, final_sum_distribution, roll_count_distribution, solve

# One small game per integer type of the move indices: 8 bits, 16 bits (four 20-sided dice: 397 moves for a roll)
GAMES = (Rules(tiles=5), Rules(tiles=14, dice=4, sides=20))


def compile_game(rules: Rules) -> None:
    """Every compiled pass once on ``rules``: the solve, a fixed play's value (move table and mixture), and the
    chances pushed to the game's end and roll by roll."""
    for tie_break in ("canonical", "random"):  # a move table; a mixture (its moves chosen again from the values)
        solution = solve(rules, "win", tie_break=tie_break, path="compiled")
        expected_rolls(solution)
        final_sum_distribution(solution=solution)
        roll_count_distribution(solution)
    evaluate(rules, "remaining-sum", "random", path="compiled")


def main() -> None:
    start = time.perf_counter()
    print("compiling the engine's kernels into numba's cache (once, about 15 s)", flush=True)
    for rules in GAMES:
        compile_game(rules)
    print(f"kernels compiled in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
