"""The compiled kernels of :mod:`stb_core.compiled` (numba, cached on disk). Imported only when a compiled sweep
is first needed: importing numba costs over half a second, more than solving a 9-tile game.

Read :mod:`stb_core.compiled` for the equation; each kernel's docstring says which part it computes.
"""

import numpy as np
from numba import njit

from .policies import ONE_DIE, ONE_DIE_IF_BETTER  # the codes of one_die_plan: compile-time constants here


@njit(cache=True)
def open_sums(n):
    """The sum of the open tiles of every board: sum(S) = sum(S without its lowest tile) + that tile."""
    sums = np.zeros(n, dtype=np.int16)
    for s in range(1, n):
        low = s & -s
        tile = 1
        while (low >> (tile - 1)) != 1:
            tile += 1
        sums[s] = sums[s & (s - 1)] + tile
    return sums


@njit(cache=True)
def store_board(s, expected_all, expected_one, plan, dice_direction, dice_all, rtol, values, dice):
    """V(S) = opt over the dice choices of the expected value of the roll: one die where the plan says so, or
    where it may be chosen and is better for the policy by more than the tolerance; else all the dice."""
    one = plan == ONE_DIE
    if plan == ONE_DIE_IF_BETTER:
        gap = dice_direction * (expected_one - expected_all)
        one = gap > rtol * max(abs(expected_one), abs(expected_all))
    if one:
        values[s] = expected_one
        dice[s] = 1
    else:
        values[s] = expected_all
        dice[s] = dice_all


@njit(cache=True)
def optimal_values(utility, plan, win_at_most, move_direction, dice_direction, low_bits, legal, starts, p_all,
                   p_one, dice_all, rtol, values, dice):
    """V for the optimal (move_direction = +sense) or worst (-sense) policy, boards in increasing order.

    A move only uses tiles 1..low_bits (the largest roll), so the legal moves of (S, r) are those of the low
    bits of S: ``legal[starts[p, r]:starts[p, r + 1]]`` for the pattern ``p = S & (2**low_bits - 1)``."""
    n = utility.size
    sums = open_sums(n)
    rolls = p_all.size
    mask = (1 << low_bits) - 1
    for s in range(n):
        if sums[s] <= win_at_most:
            values[s] = utility[s]
            dice[s] = dice_all
            continue
        expected_all = 0.0
        expected_one = 0.0
        pattern = s & mask
        for r in range(rolls):
            if p_all[r] == 0.0 and p_one[r] == 0.0:
                continue
            best = 0.0
            found = False
            for j in range(starts[pattern, r], starts[pattern, r + 1]):
                v = move_direction * values[s ^ legal[j]]
                if not found or v > best:
                    best = v
                    found = True
            q = move_direction * best if found else utility[s]
            expected_all += p_all[r] * q
            expected_one += p_one[r] * q
        store_board(s, expected_all, expected_one, plan[s], dice_direction, dice_all, rtol, values, dice)
    return values, dice


@njit(cache=True)
def table_values(utility, plan, win_at_most, dice_direction, sigma, totals, p_all, p_one, dice_all, rtol, values,
                 dice):
    """V of the deterministic policy whose move for (S, totals[r]) is sigma[S, totals[r]] (-1: none)."""
    n = utility.size
    sums = open_sums(n)
    for s in range(n):
        if sums[s] <= win_at_most:
            values[s] = utility[s]
            dice[s] = dice_all
            continue
        expected_all = 0.0
        expected_one = 0.0
        for r in range(totals.size):
            m = sigma[s, totals[r]]
            q = values[s ^ m] if m >= 0 else utility[s]
            expected_all += p_all[r] * q
            expected_one += p_one[r] * q
        store_board(s, expected_all, expected_one, plan[s], dice_direction, dice_all, rtol, values, dice)
    return values, dice


@njit(cache=True)
def optimal_moves(values, win_at_most, move_direction, ranked_moves, offsets, totals, rtol, sigma):
    """sigma[S, r]: among the legal moves (listed in the tie-break's order), the first whose value after
    is within the tolerance of the best."""
    n = values.size
    sums = open_sums(n)
    for s in range(n):
        if sums[s] <= win_at_most:
            continue
        for r in range(totals.size):
            best = 0.0
            found = False
            for j in range(offsets[r], offsets[r + 1]):
                m = ranked_moves[j]
                if s & m == m:
                    v = move_direction * values[s ^ m]
                    if not found or v > best:
                        best = v
                        found = True
            if not found:
                continue
            for j in range(offsets[r], offsets[r + 1]):
                m = ranked_moves[j]
                if s & m == m and move_direction * values[s ^ m] >= best - rtol * abs(best):
                    sigma[s, totals[r]] = m
                    break
    return sigma
