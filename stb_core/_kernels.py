"""The compiled kernels of :mod:`stb_core.compiled` (numba, cached on disk). Imported only when a compiled sweep
is first needed: importing numba costs over half a second, more than solving a 9-tile game.

Read :mod:`stb_core.compiled` for the equation; each kernel's docstring says which part it computes. The kernels
know nothing of the rules: the game's arrays (which boards are won, how the policy rolls its dice, the tiles'
values, the chances of each total) are all they read.
"""

import numpy as np
from numba import njit

from .policies import ONE_DIE, ONE_DIE_IF_BETTER  # the codes of one_die_plan: compile-time constants here
from .policies import VALUE_RTOL as RTOL


@njit(cache=True, inline="always")
def same_value(a, b):
    """The value-equality rule of :func:`stb_core.policies.same_value`: within ``RTOL``, relative."""
    return abs(a - b) <= RTOL * max(abs(a), abs(b))


@njit(cache=True)
def preference(move, tie_kind, tiles):
    """The tie-break's preference between moves of one total (larger preferred): fewest-tiles (1) and most-tiles
    (2) prefer the fewest (most) tiles, then the highest tiles (the larger bit-mask). Canonical (0) prefers the
    move met first, as the kernels meet moves in canonical order."""
    count = 0
    m = move
    while m:
        m &= m - 1
        count += 1
    return move - count * (1 << tiles) if tie_kind == 1 else move + count * (1 << tiles)


@njit(cache=True)
def store_board(s, expected_all, expected_one, plan, dice_direction, dice_all, values, dice):
    """V(S) = opt over the dice choices of the expected value of the roll: one die where the plan says so, or
    where it may be chosen and is better for the policy by more than the tolerance; else all the dice."""
    one = plan == ONE_DIE
    if plan == ONE_DIE_IF_BETTER:
        one = dice_direction * (expected_one - expected_all) > 0 and not same_value(expected_one, expected_all)
    if one:
        values[s] = expected_one
        dice[s] = 1
    else:
        values[s] = expected_all
        dice[s] = dice_all


@njit(cache=True)
def by_patterns(first, last, utility, plan, won, move_direction, dice_direction, low_bits, legal, starts, lo, p_all,
                p_one, dice_all, tie_kind, tiles, record, values, dice, sigma):
    """V (and, with ``record``, the move table) of the optimal (``move_direction`` = +sense) or worst (-sense)
    policy on the boards ``first .. last - 1``, in increasing order (every smaller board already solved), for
    rules whose moves use few tiles.

    A move only uses tiles 1..low_bits (the largest roll), so the legal moves of (S, r) are those of the low
    bits of S, listed once per pattern in canonical order: ``legal[starts[p, i]:starts[p, i + 1]]`` for the
    pattern ``p = S & (2**low_bits - 1)`` and the total ``r = lo + i``."""
    width = p_all.size
    mask = (1 << low_bits) - 1
    for s in range(first, last):
        if won[s]:
            values[s] = utility[s]
            dice[s] = dice_all
            continue
        pattern = s & mask
        expected_all = 0.0
        expected_one = 0.0
        for t in range(lo, width):
            begin, end = starts[pattern, t - lo], starts[pattern, t - lo + 1]
            q = utility[s]
            if begin < end:
                best = move_direction * values[s ^ legal[begin]]
                for j in range(begin + 1, end):
                    v = move_direction * values[s ^ legal[j]]
                    if v > best:
                        best = v
                q = move_direction * best
                if record:  # the tie-break's first move as good as the best, in canonical order
                    for j in range(begin, end):
                        m = legal[j]
                        if same_value(move_direction * values[s ^ m], best) and (
                                sigma[s, t] < 0 or tie_kind != 0 and (
                                    preference(m, tie_kind, tiles) > preference(sigma[s, t], tie_kind, tiles))):
                            sigma[s, t] = m
                            if tie_kind == 0:
                                break
            expected_all += p_all[t] * q
            expected_one += p_one[t] * q
        store_board(s, expected_all, expected_one, plan[s], dice_direction, dice_all, values, dice)
    return values, dice


@njit(cache=True)
def by_subsets(first, last, utility, plan, won, move_direction, dice_direction, tile_values, most, lo, p_all, p_one,
               dice_all, tie_kind, record, values, dice, sigma):
    """The same for any rules: the legal moves of each board are found by listing the sets of its open tiles
    whose values add up to at most the largest roll (depth first, tiles in increasing order, so each set
    comes in canonical order and no set is visited twice), with at most ``most`` tiles; each set of total ``t``
    from ``lo`` up is a move for the roll ``t``. The tiles' values increase with their position."""
    width = p_all.size
    top = width - 1
    tiles = tile_values.size
    best = np.zeros(width)
    found = np.zeros(width, dtype=np.bool_)
    pick = np.full(width, -1, dtype=np.int64)
    picked = np.zeros(width)  # the value of the move played, and that less the tolerance
    floor = np.zeros(width)
    value_of = np.empty(tiles, dtype=np.int64)
    bit_of = np.empty(tiles, dtype=np.int64)
    position = np.empty(tiles + 1, dtype=np.int64)
    chosen = np.empty(tiles + 1, dtype=np.int64)
    total = np.empty(tiles + 1, dtype=np.int64)
    for s in range(first, last):
        if won[s]:
            values[s] = utility[s]
            dice[s] = dice_all
            continue
        k = 0
        for b in range(tiles):
            if (s >> b) & 1 and tile_values[b] <= top:
                value_of[k] = tile_values[b]
                bit_of[k] = 1 << b
                k += 1
        for t in range(lo, width):
            found[t] = False
            pick[t] = -1
        depth = 0
        position[0] = 0
        chosen[0] = 0
        total[0] = 0
        while True:
            i = position[depth]
            if i < k and depth < most and total[depth] + value_of[i] <= top:
                t = total[depth] + value_of[i]
                m = chosen[depth] | bit_of[i]
                position[depth] = i + 1
                if t >= lo:
                    v = move_direction * values[s ^ m]
                    if not found[t]:
                        found[t] = True
                        best[t] = v
                        if record:
                            pick[t] = m
                            picked[t] = v
                            floor[t] = v - RTOL * abs(v)
                    else:
                        if v > best[t]:
                            best[t] = v
                        if record and v >= floor[t]:  # as good as the move played so far, or better
                            if not same_value(v, picked[t]):
                                pick[t] = m
                                picked[t] = v
                                floor[t] = v - RTOL * abs(v)
                            elif tie_kind != 0 and (preference(m, tie_kind, tiles)
                                                    > preference(pick[t], tie_kind, tiles)):
                                pick[t] = m
                depth += 1
                position[depth] = i + 1
                chosen[depth] = m
                total[depth] = t
            elif depth == 0:
                break
            else:
                depth -= 1
        expected_all = 0.0
        expected_one = 0.0
        for t in range(lo, width):
            q = move_direction * best[t] if found[t] else utility[s]
            expected_all += p_all[t] * q
            expected_one += p_one[t] * q
            if record:
                sigma[s, t] = pick[t]
        store_board(s, expected_all, expected_one, plan[s], dice_direction, dice_all, values, dice)
    return values, dice


@njit(cache=True)
def by_table(first, last, utility, plan, won, dice_direction, sigma, lo, p_all, p_one, dice_all, values, dice):
    """V of the deterministic policy whose move for (S, t) is sigma[S, t] (-1: none)."""
    width = p_all.size
    for s in range(first, last):
        if won[s]:
            values[s] = utility[s]
            dice[s] = dice_all
            continue
        expected_all = 0.0
        expected_one = 0.0
        for t in range(lo, width):
            m = sigma[s, t]
            q = values[s ^ m] if m >= 0 else utility[s]
            expected_all += p_all[t] * q
            expected_one += p_one[t] * q
        store_board(s, expected_all, expected_one, plan[s], dice_direction, dice_all, values, dice)
    return values, dice
