r"""The Bellman sweep as a compiled loop (numba), for large boards.

The same equation as :mod:`stb_core.solve`, read board by board:

.. math::

    V(S) = u(S) \text{ if } S \text{ is won}, \qquad
    V(S) = \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r), \qquad
    Q(S, r) = \operatorname{opt}_{m \in M(S, r)} V(S \setminus m) \text{ (or } u(S) \text{ when stuck)}.

Every child board ``S \ m`` is a smaller number than ``S``, so one pass over the boards in increasing order has
every value it needs; and with two six-sided dice a move only touches tiles 1-12, so the reads stay within a few
kilobytes of the board being solved. The numpy sweep instead gathers every (board, move) pair of a level into
temporary arrays: on large boards the loop is several times faster in a fraction of the memory.

Three kernels: :func:`optimal_values` (the optimal or worst policy: only the best value after a move matters),
:func:`table_values` (any move table ``sigma``: the value of a fixed deterministic policy) and
:func:`optimal_moves` (the move table of the optimal or worst policy, ties by a static tie-break: the first
move, in the tie-break's order, within the value tolerance of the best). Floats only; exact runs use the numpy
sweep. numba is imported only when a kernel is first needed (importing it costs over half a second, more than
solving a 9-tile game), and the kernels are cached on disk.
"""

from __future__ import annotations

import numpy as np

from .boards import legal_matrix, move_catalogue
from .policies import VALUE_RTOL, TieBreak, one_die_plan
from .rules import Rules

CHUNK = 1 << 20  # boards per chunk when the per-board arrays are computed


def available() -> bool:
    """Whether numba can be imported here."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _kernels():
    """The compiled kernels (numba imported here, on first use; compiled code loaded from the disk cache)."""
    from . import _kernels as kernels

    return kernels.optimal_values, kernels.table_values, kernels.optimal_moves, kernels.open_sums


# -- the Python side: the rules as flat arrays ---------------------------------------------------------------
def _moves_by_roll(rules: Rules, tie: TieBreak):
    """Every roll total's moves in one flat array, in the tie-break's order, with offsets."""
    catalogue = move_catalogue(rules)
    chunks = []
    for roll in rules.roll_totals:
        moves = catalogue.moves(roll)
        if moves.size:
            moves = moves[np.argsort(tie.rank(moves, rules.tiles), kind="stable")]
        chunks.append(moves)
    offsets = np.zeros(len(chunks) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([c.size for c in chunks])
    flat = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
    return flat.astype(np.int64), offsets


def _legal_by_pattern(rules: Rules):
    """For every pattern of the low tiles (those a move can use: up to the largest roll) and every roll total,
    the legal moves, as one flat array with a (patterns x rolls + 1) table of start offsets."""
    low_bits = min(rules.tiles, max(rules.roll_totals))
    patterns = np.arange(1 << low_bits, dtype=np.int64)
    catalogue = move_catalogue(rules)
    starts = np.zeros((patterns.size, len(rules.roll_totals) + 1), dtype=np.int64)
    counts = np.zeros((patterns.size, len(rules.roll_totals)), dtype=np.int64)
    lists = []
    for r, roll in enumerate(rules.roll_totals):
        moves = catalogue.moves(roll)
        legal = legal_matrix(patterns, moves) if moves.size else np.zeros((patterns.size, 0), dtype=bool)
        counts[:, r] = legal.sum(axis=1)
        lists.append((moves, legal))
    starts[:, 1:] = np.cumsum(counts, axis=1)
    row_start = np.concatenate([[0], np.cumsum(starts[:, -1])[:-1]])
    starts += row_start[:, None]
    flat = np.empty(int(starts[-1, -1]), dtype=np.int64)
    for r, (moves, legal) in enumerate(lists):
        rows, cols = np.nonzero(legal)
        if rows.size:
            position = starts[rows, r] + (np.arange(rows.size) - np.searchsorted(rows, rows))
            flat[position] = moves[cols]
    return low_bits, flat, starts


def _chances(rules: Rules):
    """The chance of each roll total with all the dice and with one die (0 where the rules never roll one)."""
    totals = np.array(rules.roll_totals, dtype=np.int64)
    p_all = np.array([rules.roll_weights.get(r, 0) / rules.outcomes for r in rules.roll_totals])
    p_one = np.array([rules.one_die_weights.get(r, 0) / rules.outcomes if rules.has_one_die_rule else 0.0
                      for r in rules.roll_totals])
    return totals, p_all, p_one


def board_arrays(objective, rules: Rules, policy) -> tuple[np.ndarray, np.ndarray]:
    """``u(S)`` for every board (float64) and how ``policy`` picks its dice there
    (:func:`stb_core.policies.one_die_plan`, int8), computed a chunk of boards at a time (no full-size
    temporaries): the rules and the policy's dice rule keep their one home, the kernels only read the codes."""
    open_sums = _kernels()[3]
    sums = open_sums(rules.states)  # int16: at most 300
    utility = np.empty(rules.states, dtype=float)
    plan = np.zeros(rules.states, dtype=np.int8)  # all the dice everywhere, unless the rules allow one die
    for start in range(0, rules.states, CHUNK):
        boards = np.arange(start, min(start + CHUNK, rules.states), dtype=np.int64)
        part = sums[start:start + boards.size]
        utility[start:start + boards.size] = objective.values(boards, rules, part)
        if rules.has_one_die_rule:
            allowed = rules.one_die_allowed(boards, part)
            plan[start:start + boards.size] = one_die_plan(rules, policy, allowed, boards, part)
    return utility, plan


def sweep_values(rules: Rules, objective, policy):
    """``(values, dice)`` of the optimal or worst policy (``policy.dice_direction`` = +1 or -1), compiled."""
    optimal_values = _kernels()[0]
    utility, plan = board_arrays(objective, rules, policy)
    low_bits, legal, starts = _legal_by_pattern(rules)
    _, p_all, p_one = _chances(rules)
    direction = float(policy.dice_direction * objective.sense)
    values = np.empty(rules.states, dtype=float)
    dice = np.empty(rules.states, dtype=np.int8)
    return optimal_values(utility, plan, rules.win_at_most, direction, direction, low_bits, legal, starts, p_all,
                          p_one, rules.dice, VALUE_RTOL, values, dice)


def sweep_table(rules: Rules, objective, policy, sigma: np.ndarray):
    """``(values, dice)`` of a fixed deterministic policy given by its move table, compiled."""
    table_values = _kernels()[1]
    utility, plan = board_arrays(objective, rules, policy)
    totals, p_all, p_one = _chances(rules)
    values = np.empty(rules.states, dtype=float)
    dice = np.empty(rules.states, dtype=np.int8)
    return table_values(utility, plan, rules.win_at_most, float(policy.dice_direction * objective.sense),
                        np.ascontiguousarray(sigma), totals, p_all, p_one, rules.dice, VALUE_RTOL, values, dice)


def move_table(rules: Rules, values: np.ndarray, direction: int, tie: TieBreak) -> np.ndarray:
    """The move table of the optimal (``direction`` +sense) or worst policy from its values, ties by ``tie``."""
    optimal_moves = _kernels()[2]
    moves, offsets = _moves_by_roll(rules, tie)
    totals = np.array(rules.roll_totals, dtype=np.int64)
    sigma = np.full((rules.states, max(rules.roll_totals) + 1), -1, dtype=np.int64)
    return optimal_moves(np.asarray(values, dtype=float), rules.win_at_most, float(direction), moves, offsets, totals,
                         VALUE_RTOL, sigma)


__all__ = ["available", "board_arrays", "move_table", "sweep_table", "sweep_values"]
