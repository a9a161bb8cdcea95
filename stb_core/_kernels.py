"""The compiled kernels of :mod:`stb_core.compiled` (numba, cached on disk). Imported only when a compiled sweep
is first needed: importing numba costs over half a second, more than solving a 9-tile game.

Read :mod:`stb_core.compiled` for the equations. The kernels know nothing of the rules: the game's arrays (which
boards are won, how the ranking rolls its dice, the moves of each outcome, the chances) are all they read.

* :func:`legal_moves` lists the legal moves of one board for every outcome, by one of three **enumerations**:
  ``PATTERNS`` (the legal moves of each pattern of the low tiles, listed once: two dice), ``CATALOGUE`` (every move
  of the outcome tried, blockers checked: any layout or move rule) or ``SUBSETS`` (the sets of open tiles, depth
  first: many dice);
* :func:`best_moves` is :func:`stb_core.choice.choose` for one board and outcome: the ranking's move, or a
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
def legal_moves(s, mode, flat, needs, cstarts, tile_values, most, lo, width, buf_mask, buf_index, buf_code,
                buf_start, scratch_mask, scratch_code, work):
    """The legal moves of board ``s`` for every outcome ``lo + c`` (``CATALOGUE`` or ``SUBSETS``; ``PATTERNS`` reads
    them in place): ``buf_mask[buf_start[c]:buf_start[c + 1]]`` and their indices in the outcome's moves
    (``buf_index``; -1 where not known: looked up by mask), in canonical order."""
    n = 0
    if mode == CATALOGUE:
        for c in range(width):
            buf_start[c] = n
            for j in range(cstarts[c], cstarts[c + 1]):
                m = flat[j]
                if s & m == m and (s ^ m) & needs[j] == 0:
                    buf_mask[n] = m
                    buf_index[n] = j - cstarts[c]
                    n += 1
        buf_start[width] = n
        return
    # SUBSETS: the sets of open tiles of total at most the largest outcome, depth first (canonical order within a
    # total), at most ``most`` tiles; then bucketed by total, keeping that order
    top = lo + width - 1
    k = 0
    values, bits, position, chosen, total = work[0], work[1], work[2], work[3], work[4]
    for b in range(tile_values.size):
        if (s >> b) & 1 and tile_values[b] <= top:
            values[k] = tile_values[b]
            bits[k] = 1 << b
            k += 1
    depth = 0
    position[0] = 0
    chosen[0] = 0
    total[0] = 0
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
            position[depth] = i + 1
            chosen[depth] = m
            total[depth] = t
        elif depth == 0:
            break
        else:
            depth -= 1
    for c in range(width):
        buf_start[c + 1] += buf_start[c]
    for c in range(width):
        buf_code[c] = buf_start[c]
    for j in range(found):
        c = scratch_code[j]
        buf_mask[buf_code[c]] = scratch_mask[j]
        buf_index[buf_code[c]] = -1
        buf_code[c] += 1


@njit(cache=True, inline="always")
def move_index(c, masks, index, j, mask_index, cstarts):
    """The index (among its outcome's moves) of the listed move ``j``: listed with it, or looked up by its mask."""
    move = index[j]
    return move if move >= 0 else mask_index[masks[j]]


@njit(cache=True, inline="always")
def first_best(s, masks, first, last, value_dir, rank_values):
    """:func:`best_moves` for the common ranking -- by value alone, canonical ties, one move -- written out small so
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
def best_moves(s, c, masks, index, first, last, value_dir, rank_values, move_key, left_key, tie_rank, canonical,
               mix, cstarts, mask_index, kids):
    """:func:`stb_core.choice.choose` for board ``s`` and outcome column ``c``, over its legal moves
    ``masks[first:last]``: the moves whose value (``value_dir`` x ``rank_values`` of the board left; equal by
    :func:`same_value`) and then key (``move_key`` + ``left_key``) are the best; a deterministic ranking keeps the
    tie-break's first (least ``tie_rank``; the first met when ``canonical``). Returns ``(count, child, j)``: how
    many moves it plays (0: no legal move), the board the first leaves and its place ``j`` in ``masks``; a mixture
    writes the boards every one of its moves leaves into ``kids``. (Returned, not stored: stores in the loop cost
    several times the choice itself.)"""
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
    return count, kids[0], -1


@njit(cache=True)
def backward(first, last, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat, needs, cstarts,
             mask_index, tile_values, most, lo, value_dir, rank_values, move_key, left_key, tie_rank,
             canonical, mix, table, values, step, won, plan, p_all, p_one, dice_all, direction, fixed_dice, dice_in,
             dice, record, sigma):
    """Boards ``first .. last - 1`` in increasing order (every smaller board done): ``values[s]`` holds ``u(s)`` on
    entry and ``V(s)`` on exit, ``V(s) = step + opt_c sum_r p_c(r) Q(s, r)`` (``step`` added to every roll's value:
    0 for an objective, 1 to count rolls), ``Q`` by the ranking's move(s) (or ``table``'s move, ``mode`` TABLE),
    ``u(s)`` when stuck. Dice: ``fixed_dice`` reads ``dice_in[s]``; else by ``plan`` (one die when better in
    ``direction`` beyond the tolerance; no plan of a single entry: all the dice), written to ``dice``. ``record``:
    the move played into ``sigma``."""
    width = p_all.size
    capacity = max(flat.size, 1)
    buf_mask = np.empty(capacity, dtype=np.int64)
    buf_index = np.empty(capacity, dtype=np.int64)
    buf_code = np.empty(width + 1, dtype=np.int64)
    buf_start = np.empty(width + 1, dtype=np.int64)
    scratch_mask = np.empty(capacity, dtype=np.int64)
    scratch_code = np.empty(capacity, dtype=np.int64)
    kids = np.empty(capacity, dtype=np.int64)
    work = np.empty((5, tile_values.size + 1), dtype=np.int64)
    fast = move_key.size == 0 and left_key.size == 0 and canonical and not mix and value_dir != 0.0
    found = np.zeros(width, dtype=np.bool_)
    best = np.zeros(width)
    pick = np.zeros(width, dtype=np.int64)
    picked = np.zeros(width)
    floor = np.zeros(width)
    for s in range(first, last):
        if won[s]:
            if not fixed_dice and dice.size > 1:
                dice[s] = dice_all
            continue
        u = values[s]
        masks, index, starts = buf_mask, buf_index, buf_start
        if mode == PATTERNS:  # read in place: the legal moves of the board's pattern of low tiles
            masks, index, starts = pattern_moves, pattern_index, pattern_starts[s & low_mask]
        elif mode == SUBSETS and fast:
            subsets_first_best(s, value_dir, rank_values, tile_values, most, lo, width, work, found, best, pick,
                               picked, floor)
        elif mode != TABLE:
            legal_moves(s, mode, flat, needs, cstarts, tile_values, most, lo, width, buf_mask, buf_index, buf_code,
                        buf_start, scratch_mask, scratch_code, work)
        expected_all = 0.0
        expected_one = 0.0
        for c in range(width):
            if p_all[c] == 0.0 and p_one[c] == 0.0:
                continue
            q = u
            if mode == TABLE:
                move = table[s, c]
                if move >= 0:
                    q = values[s ^ flat[cstarts[c] + move]]
            elif fast and mode == SUBSETS:
                if found[c]:
                    q = value_dir * best[c]
                if record:
                    sigma[s, c] = mask_index[pick[c]] if found[c] else -1
            else:
                if fast:
                    count, child, j, q_best = first_best(s, masks, starts[c], starts[c + 1], value_dir, rank_values)
                else:
                    count, child, j = best_moves(s, c, masks, index, starts[c], starts[c + 1], value_dir,
                                                 rank_values, move_key, left_key, tie_rank, canonical, mix, cstarts,
                                                 mask_index, kids)
                    q_best = 0.0
                if count == 1:
                    q = q_best if fast and rank_values is values else values[child]
                elif count > 1:
                    q = 0.0
                    for j in range(count):
                        q += values[kids[j]]
                    q /= count
                if record:
                    sigma[s, c] = -1 if count != 1 else index[j] if mode != SUBSETS else mask_index[masks[j]]
            q += step
            expected_all += p_all[c] * q
            expected_one += p_one[c] * q
        if fixed_dice:
            values[s] = expected_all if dice_in[s] == dice_all else expected_one
            continue
        one = plan.size > 1 and plan[s] == ONE_DIE
        if plan.size > 1 and plan[s] == ONE_DIE_IF_BETTER:
            one = direction * (expected_one - expected_all) > 0 and not same_value(expected_one, expected_all)
        values[s] = expected_one if one else expected_all
        if dice.size > 1:
            dice[s] = 1 if one else dice_all


@njit(cache=True)
def forward(first, last, mode, low_mask, pattern_moves, pattern_index, pattern_starts, flat, needs, cstarts,
            mask_index, tile_values, most, lo, value_dir, rank_values, move_key, left_key, tie_rank,
            canonical, mix, table, going, target, won, p_all, p_one, dice_all, dice, ends, ended):
    """Push the chance ``going[s]`` of being on board ``s`` one roll on, boards ``last - 1`` down to ``first``: to the
    boards the ranking's moves leave (``target``; a mixture shares it among its best moves), or to the board's end
    when it is won (``ended[0]``) or the roll finds no move (``ended[1]``; ``ends[s]`` too, when ``ends`` has a
    place per board). With ``target`` the same array as ``going`` (descending order: every board complete before it
    is spread) it follows the game to its end; else one roll."""
    width = p_all.size
    capacity = max(flat.size, 1)
    buf_mask = np.empty(capacity, dtype=np.int64)
    buf_index = np.empty(capacity, dtype=np.int64)
    buf_code = np.empty(width + 1, dtype=np.int64)
    buf_start = np.empty(width + 1, dtype=np.int64)
    scratch_mask = np.empty(capacity, dtype=np.int64)
    scratch_code = np.empty(capacity, dtype=np.int64)
    kids = np.empty(capacity, dtype=np.int64)
    work = np.empty((5, tile_values.size + 1), dtype=np.int64)
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
        masks, index, starts = buf_mask, buf_index, buf_start
        if mode == PATTERNS:  # read in place: the legal moves of the board's pattern of low tiles
            masks, index, starts = pattern_moves, pattern_index, pattern_starts[s & low_mask]
        elif mode != TABLE:
            legal_moves(s, mode, flat, needs, cstarts, tile_values, most, lo, width, buf_mask, buf_index, buf_code,
                        buf_start, scratch_mask, scratch_code, work)
        chance = p_one if dice[s] != dice_all else p_all
        stuck = 0.0
        for c in range(width):
            p = chance[c]
            if p == 0.0:
                continue
            share = mass * p
            if mode == TABLE:
                move = table[s, c]
                if move >= 0:
                    target[s ^ flat[cstarts[c] + move]] += share
                else:
                    stuck += share
                continue
            if fast:
                count, child, _, _ = first_best(s, masks, starts[c], starts[c + 1], value_dir, rank_values)
            else:
                count, child, _ = best_moves(s, c, masks, index, starts[c], starts[c + 1], value_dir,
                                             rank_values, move_key, left_key, tie_rank, canonical, mix, cstarts,
                                             mask_index, kids)
            if count == 0:
                stuck += share
            elif count == 1:
                target[child] += share
            else:
                for j in range(count):
                    target[kids[j]] += share / count
        ended[1] += stuck
        if per_board:
            ends[s] += stuck
