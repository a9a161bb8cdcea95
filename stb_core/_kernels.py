"""The compiled kernels of :mod:`stb_core.compiled` (numba, cached on disk). Imported only when a compiled sweep
is first needed: importing numba costs over half a second, more than solving a 9-tile game.

Read :mod:`stb_core.compiled` for the equations. The kernels know nothing of the rules: the game's arrays (which
boards are won, how the ranking rolls its dice, the moves of each outcome, the chances) are all they read.

* :func:`legal_moves` lists the legal moves of one board for every outcome, by one of three **enumerations**:
  ``PATTERNS`` (the legal moves of each pattern of the low tiles, listed once: two dice), ``CATALOGUE`` (every move
  of the outcome tried, blockers checked: any layout or move rule) or ``SUBSETS`` (the sets of open tiles, depth
  first: many dice);
* :func:`choose` is :func:`stb_core.choice.choose` for one board and outcome: the ranking's move, or a
  mixture's best moves;
* :func:`backward` solves or evaluates boards in increasing order (``V`` and the move table in one pass, or the
  value of a fixed move table or mixture); :func:`forward` pushes probability from boards to the boards the moves
  leave.
"""

import numpy as np
from numba import njit

from .choice import ONE_DIE, ONE_DIE_IF_BETTER  # the codes of dice_plan: compile-time constants here
from .choice import VALUE_RTOL as RTOL

PATTERNS, CATALOGUE, SUBSETS, TABLE = 0, 1, 2, 3  # how a board's legal moves are found (TABLE: read from sigma)


@njit(cache=True, inline="always")
def same_value(a, b):
    """The value-equality rule of :func:`stb_core.choice.same_value`: within ``RTOL``, relative."""
    return abs(a - b) <= RTOL * max(abs(a), abs(b))


@njit(cache=True)
def catalogue_moves(s, flat, needs, cstarts, width, buf_mask, buf_index, buf_start):
    """``CATALOGUE``: every move of every outcome tried on board ``s`` (its tiles open, their blockers down after it):
    the legal ones of outcome column ``c`` are ``buf_mask[buf_start[c]:buf_start[c + 1]]``, their indices in the
    outcome's moves ``buf_index``, in canonical order."""
    n = 0
    for c in range(width):
        buf_start[c] = n
        for j in range(cstarts[c], cstarts[c + 1]):
            m = flat[j]
            if s & m == m and (s ^ m) & needs[j] == 0:
                buf_mask[n] = m
                buf_index[n] = j - cstarts[c]
                n += 1
    buf_start[width] = n


@njit(cache=True)
def subset_moves(s, tile_values, most, lo, width, buf_mask, buf_index, buf_code, buf_start, scratch_mask,
                 scratch_code, work):
    """``SUBSETS``: the sets of open tiles of board ``s`` with total at most the largest outcome, depth first (so in
    canonical order within a total), at most ``most`` tiles; then bucketed by total, keeping that order, as
    :func:`catalogue_moves` lays them out (indices -1: looked up by mask)."""
    top = lo + width - 1
    k = 0
    values, bits, position, chosen, total = work[0], work[1], work[2], work[3], work[4]
    for b in range(tile_values.size):
        if (s >> b) & 1 and tile_values[b] <= top:
            values[k] = tile_values[b]
            bits[k] = 1 << b
            k += 1
    depth = 0
    position[0] = chosen[0] = total[0] = 0
    for c in range(width + 1):
        buf_start[c] = 0
    found = 0
    while True:
        i = position[depth]
        if i < k and depth < most and total[depth] + values[i] <= top:
            t = total[depth] + values[i]
            m = chosen[depth] | bits[i]
            position[depth] = i + 1
            if t >= lo:
                scratch_mask[found] = m
                scratch_code[found] = t - lo
                buf_start[t - lo + 1] += 1
                found += 1
            depth += 1
            position[depth], chosen[depth], total[depth] = i + 1, m, t
        elif depth == 0:
            break
        else:
            depth -= 1
    for c in range(width):
        buf_start[c + 1] += buf_start[c]
        buf_code[c] = buf_start[c]
    for j in range(found):
        c = scratch_code[j]
        buf_mask[buf_code[c]] = scratch_mask[j]
        buf_index[buf_code[c]] = -1
        buf_code[c] += 1


@njit(cache=True)
def buffers(capacity, width, positions):
    """Work arrays for a kernel call: the listed moves, their outcome runs, the depth-first search's stack, and three
    per-outcome floats."""
    return (np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64), np.empty(width + 1, dtype=np.int64),
            np.empty(width + 1, dtype=np.int64), np.empty(capacity, dtype=np.int64),
            np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64),
            np.empty((5, positions + 1), dtype=np.int64), np.empty(width), np.empty(width), np.empty(width))


@njit(cache=True, inline="always")
def list_moves(s, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat, needs, cstarts, tile_values,
               most, lo, width, bufs):
    """The legal moves of board ``s`` as ``(masks, index, starts)``: outcome column ``c``'s are
    ``masks[starts[c]:starts[c + 1]]`` -- read in place from the pattern table (``PATTERNS``), or listed into
    ``bufs`` (:func:`catalogue_moves`, :func:`subset_moves`)."""
    buf_mask, buf_index, buf_code, buf_start, scratch_mask, scratch_code, _, work = bufs[:8]
    if mode == PATTERNS:  # the legal moves of the board's pattern of low tiles
        return pattern_moves, pattern_index, pattern_starts[s & low_mask]
    if mode == CATALOGUE:
        catalogue_moves(s, flat, needs, cstarts, width, buf_mask, buf_index, buf_start)
    elif mode == SUBSETS:
        subset_moves(s, tile_values, most, lo, width, buf_mask, buf_index, buf_code, buf_start, scratch_mask,
                     scratch_code, work)
    return buf_mask, buf_index, buf_start


@njit(cache=True, inline="always")
def move_index(c, masks, index, j, mask_index, cstarts):
    """The index (among its outcome's moves) of the listed move ``j``: listed with it, or looked up by its mask."""
    move = index[j]
    return move if move >= 0 else mask_index[masks[j]]


@njit(cache=True, inline="always")
def first_best(s, masks, first, last, value_dir, rank_values):
    """:func:`choose` for the common ranking -- by value alone, canonical ties, one move -- written out small so
    that it compiles to a tight loop: ``(found, child, j)``, the first move ``masks[j]`` in canonical order as good
    as the best."""
    best = -np.inf
    for j in range(first, last):
        v = value_dir * rank_values[s ^ masks[j]]
        if v > best:
            best = v
    for j in range(first, last):
        child = s ^ masks[j]
        if same_value(value_dir * rank_values[child], best):
            return 1, child, j, value_dir * best
    return 0, s, -1, 0.0


@njit(cache=True, inline="always")
def subsets_first_best(s, value_dir, rank_values, tile_values, most, lo, width, work, found, best, pick, picked,
                       floor):
    """:func:`first_best` for every outcome at once while the board's moves are listed depth first (``SUBSETS``: the
    sets of open tiles, canonical order within a total): per column ``c``, ``found[c]``, the best ranked value
    ``best[c]`` and ``pick[c]``, the first move as good as the best met so far -- a move better beyond the
    tolerance replaces it, one as good does not (``floor``: the least value still as good as the pick)."""
    top = lo + width - 1
    k = 0
    values, bits, position, chosen, total = work[0], work[1], work[2], work[3], work[4]
    for b in range(tile_values.size):
        if (s >> b) & 1 and tile_values[b] <= top:
            values[k] = tile_values[b]
            bits[k] = 1 << b
            k += 1
    for c in range(width):
        found[c] = False
    depth = 0
    position[0] = 0
    chosen[0] = 0
    total[0] = 0
    while True:
        i = position[depth]
        if i < k and depth < most and total[depth] + values[i] <= top:
            t = total[depth] + values[i]
            m = chosen[depth] | bits[i]
            position[depth] = i + 1
            if t >= lo:
                c = t - lo
                v = value_dir * rank_values[s ^ m]
                if not found[c]:
                    found[c] = True
                    best[c] = v
                    pick[c] = m
                    picked[c] = v
                    floor[c] = v - RTOL * abs(v)
                else:
                    if v > best[c]:
                        best[c] = v
                    if v >= floor[c] and not same_value(v, picked[c]):
                        pick[c] = m
                        picked[c] = v
                        floor[c] = v - RTOL * abs(v)
            depth += 1
            position[depth] = i + 1
            chosen[depth] = m
            total[depth] = t
        elif depth == 0:
            break
        else:
            depth -= 1


@njit(cache=True)
def choose(s, c, masks, index, first, last, value_dir, rank_values, move_key, left_key, tie_rank, canonical,
           mix, cstarts, mask_index, kids):
    """:func:`stb_core.choice.choose` for board ``s`` and outcome column ``c``, over its legal moves
    ``masks[first:last]``: the moves whose value (``value_dir`` x ``rank_values`` of the board left; equal by
    :func:`same_value`) and then key (``move_key`` + ``left_key``) are the best; a deterministic ranking keeps the
    tie-break's first (least ``tie_rank``; the first met when ``canonical``). Returns ``(count, child, j)``: how
    many moves it plays (0: no legal move, and ``j`` -1), the board the first leaves and its place ``j`` in
    ``masks``; a mixture writes the boards every one of its moves leaves into ``kids``. (Returned, not stored:
    stores in the loop cost several times the choice itself.)"""
    if first == last:
        return 0, s, -1
    keyed = move_key.size > 0 or left_key.size > 0
    best = -np.inf
    if value_dir != 0.0:
        for j in range(first, last):
            v = value_dir * rank_values[s ^ masks[j]]
            if v > best:
                best = v
    chosen = -1
    chosen_key = 0
    chosen_rank = 0
    for j in range(first, last):
        child = s ^ masks[j]
        if value_dir != 0.0 and not same_value(value_dir * rank_values[child], best):
            continue
        key = 0
        if move_key.size > 0:
            key += move_key[cstarts[c] + move_index(c, masks, index, j, mask_index, cstarts)]
        if left_key.size > 0:
            key += left_key[child]
        rank = j if canonical or mix else tie_rank[cstarts[c] + move_index(c, masks, index, j, mask_index, cstarts)]
        if chosen < 0 or key > chosen_key or (key == chosen_key and rank < chosen_rank):
            chosen, chosen_key, chosen_rank = j, key, rank
    if not mix:
        return 1, s ^ masks[chosen], chosen
    count = 0
    for j in range(first, last):
        child = s ^ masks[j]
        if value_dir != 0.0 and not same_value(value_dir * rank_values[child], best):
            continue
        if keyed:
            key = 0
            if move_key.size > 0:
                key += move_key[cstarts[c] + move_index(c, masks, index, j, mask_index, cstarts)]
            if left_key.size > 0:
                key += left_key[child]
            if key != chosen_key:
                continue
        kids[count] = child
        count += 1
    return count, kids[0], chosen


@njit(cache=True, inline="always")
def dice_value(s, expected_all, expected_one, plan, direction, dice_all, dice):
    """``V(s)`` = opt over the dice choices: one die where the plan says so, or where it may be chosen and is better
    in ``direction`` by more than the tolerance; else all the dice (a plan of one entry: no one-die rule). The dice
    chosen go to ``dice`` (when it has a place per board)."""
    one = plan.size > 1 and plan[s] == ONE_DIE
    if plan.size > 1 and plan[s] == ONE_DIE_IF_BETTER:
        one = direction * (expected_one - expected_all) > 0 and not same_value(expected_one, expected_all)
    if dice.size > 1:
        dice[s] = 1 if one else dice_all
    return expected_one if one else expected_all


@njit(cache=True)
def backward(first, last, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat, needs, cstarts,
             mask_index, tile_values, most, lo, value_dir, rank_values, move_key, left_key, tie_rank,
             canonical, mix, table, values, step, won, plan, p_all, p_one, dice_all, direction, fixed_dice, dice_in,
             dice, record, sigma):
    """Boards ``first .. last - 1`` in increasing order: ``values[s]``, ``u(s)`` on entry, becomes ``V(s) = step +
    opt_c sum_r p_c(r) Q(s, r)`` by the ranking's move(s) (``table``'s, ``mode`` TABLE); dice ``dice_in[s]`` when
    ``fixed_dice`` (``dice_in[0]`` on every board when it has one entry), else :func:`dice_value`; ``record``: the
    move played into ``sigma``."""
    width, solving = p_all.size, rank_values is values
    bufs = buffers(max(flat.size, 1), width, tile_values.size)
    kids, best, picked, floor = bufs[6], bufs[8], bufs[9], bufs[10]
    found, pick = np.zeros(width, np.bool_), np.zeros(width, np.int64)  # the depth-first listing's own best moves
    fast = move_key.size == 0 and left_key.size == 0 and canonical and not mix and value_dir != 0.0
    for s in range(first, last):
        if won[s]:
            if not fixed_dice and dice.size > 1:
                dice[s] = dice_all
            continue
        if mode == PATTERNS:  # (read here, not through list_moves: that costs this loop half its speed)
            masks, index, starts = pattern_moves, pattern_index, pattern_starts[s & low_mask]
        elif mode == SUBSETS and fast:  # each outcome's best move found while listing
            subsets_first_best(s, value_dir, rank_values, tile_values, most, lo, width, bufs[7], found, best, pick,
                               picked, floor)
        elif mode != TABLE:
            masks, index, starts = list_moves(s, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat,
                                              needs, cstarts, tile_values, most, lo, width, bufs)
        expected_all = expected_one = 0.0
        for c in range(width):
            if p_all[c] == 0.0 and p_one[c] == 0.0:
                continue
            q, move = values[s], -1  # u(s) where the roll finds no move (V(s) is written after the loop)
            if mode == TABLE:
                move = table[s, c]
                if move >= 0:
                    q = values[s ^ flat[cstarts[c] + move]]
            elif mode == SUBSETS and fast:
                if found[c]:
                    q, move = value_dir * best[c], mask_index[pick[c]]
            else:  # (the two calls written out: a wrapper around them compiles to a loop four times slower)
                if fast:
                    count, child, j, q_best = first_best(s, masks, starts[c], starts[c + 1], value_dir, rank_values)
                else:
                    count, child, j = choose(s, c, masks, index, starts[c], starts[c + 1], value_dir, rank_values,
                                             move_key, left_key, tie_rank, canonical, mix, cstarts, mask_index, kids)
                if count == 1:
                    q = q_best if fast and solving else values[child]  # the extreme itself, as the numpy sweep
                    move = index[j] if mode != SUBSETS else mask_index[masks[j]]
                elif count > 1:
                    q = 0.0
                    for i in range(count):
                        q += values[kids[i]]
                    q /= count
            if record:
                sigma[s, c] = move
            expected_all += p_all[c] * (q + step)
            expected_one += p_one[c] * (q + step)
        if fixed_dice:
            values[s] = expected_all if dice_in[s if dice_in.size > 1 else 0] == dice_all else expected_one
        else:
            values[s] = dice_value(s, expected_all, expected_one, plan, direction, dice_all, dice)


@njit(cache=True)
def forward(first, last, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat, needs, cstarts,
            mask_index, tile_values, most, lo, value_dir, rank_values, move_key, left_key, tie_rank,
            canonical, mix, table, going, target, won, p_all, p_one, dice_all, dice, ends, ended):
    """Push the chance ``going[s]`` of being on board ``s`` one roll on, boards ``last - 1`` down to ``first``: to the
    boards the ranking's moves leave (``target``; a mixture shares it among its best moves), or to the board's end
    when it is won (``ended[0]``) or the roll finds no move (``ended[1]``; ``ends[s]`` too, when ``ends`` has a
    place per board). Board ``s`` rolls ``dice[s]`` (``dice[0]`` everywhere when it has one entry). With ``target``
    the same array as ``going`` (descending order: every board complete before it is spread) it follows the game to
    its end; else one roll."""
    width = p_all.size
    bufs = buffers(max(flat.size, 1), width, tile_values.size)
    kids = bufs[6]
    fast = move_key.size == 0 and left_key.size == 0 and canonical and not mix and value_dir != 0.0
    per_board = ends.size > 1
    for s in range(last - 1, first - 1, -1):
        mass = going[s]
        if mass == 0.0:
            continue
        if won[s]:
            ended[0] += mass
            if per_board:
                ends[s] += mass
            continue
        if mode != TABLE:
            masks, index, starts = list_moves(s, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat,
                                              needs, cstarts, tile_values, most, lo, width, bufs)
        chance = p_one if dice[s if dice.size > 1 else 0] != dice_all else p_all
        stuck = 0.0
        for c in range(width):
            share = mass * chance[c]
            if share == 0.0:
                continue
            if mode == TABLE:
                move = table[s, c]
                count, child = (1, s ^ flat[cstarts[c] + move]) if move >= 0 else (0, s)
            elif fast:
                count, child, _, _ = first_best(s, masks, starts[c], starts[c + 1], value_dir, rank_values)
            else:
                count, child, _ = choose(s, c, masks, index, starts[c], starts[c + 1], value_dir, rank_values,
                                         move_key, left_key, tie_rank, canonical, mix, cstarts, mask_index, kids)
            if count == 0:
                stuck += share
            elif count == 1:
                target[child] += share
            else:
                for i in range(count):
                    target[kids[i]] += share / count
        ended[1] += stuck
        if per_board:
            ends[s] += stuck
