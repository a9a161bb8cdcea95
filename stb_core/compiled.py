r"""The Bellman sweep as a compiled loop (numba), for large boards.

The same equation as :mod:`stb_core.sweep`, read board by board:

.. math::

    V(S) = u(S) \text{ if } S \text{ is won}, \qquad
    V(S) = \operatorname{opt}_{c \in C(S)} \sum_r p_c(r)\, Q(S, r), \qquad
    Q(S, r) = \operatorname{opt}_{m \in M(S, r)} V(S \setminus m) \text{ (or } u(S) \text{ when stuck)}.

Every child board ``S \ m`` is a smaller number than ``S``, so one pass over the boards in increasing order has
every value it needs, and the reads stay close to the board being solved. The numpy sweep instead gathers every
(board, move) pair of a level into temporary arrays: on large boards the loop is several times faster in a
fraction of the memory.

Three kernels, each recording the move table ``sigma`` in the same pass when asked (the tie-break's first
move among those as good as the best, by :func:`stb_core.policies.same_value`):

* :func:`~stb_core._kernels.by_patterns` (the optimal or worst policy when moves use few tiles -- two dice: the
  legal moves of each pattern of tiles 1..12 listed once, looked up per board);
* :func:`~stb_core._kernels.by_subsets` (the same for any dice: each board's legal moves listed depth first from
  its open tiles, never trying a move that is not legal -- three or four dice, twenty sides);
* :func:`~stb_core._kernels.by_table` (a fixed move table: a heuristic or strategy card).

Floats only; exact runs use the numpy sweep. numba is imported only when a kernel is first needed (importing it
costs over half a second, more than solving a 9-tile game), and the kernels are cached on disk.
"""

from __future__ import annotations

import numpy as np

from .game import Game
from .policies import TieBreak, one_die_plan

PATTERN_BITS = 13  # the pattern kernel when a move uses at most this many low tiles (its table stays small)
CHUNK = 1 << 20    # boards per call of a kernel: progress is reported between calls


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

    return kernels


# -- the Python side: the game as flat arrays ---------------------------------------------------------------
def _legal_by_pattern(game: Game, low_bits: int, lo: int):
    """For every pattern of the low tiles (those a move can use) and every total from ``lo`` up, the legal moves
    in canonical order, as one flat array with a (patterns x totals + 1) table of start offsets."""
    patterns = np.arange(1 << low_bits, dtype=np.int64)
    totals = range(lo, max(game.roll_totals) + 1)
    starts = np.zeros((patterns.size, len(totals) + 1), dtype=np.int64)
    counts = np.zeros((patterns.size, len(totals)), dtype=np.int64)
    lists = []
    for i, total in enumerate(totals):
        moves = game.moves.moves(total)
        legal = game.legal(patterns, moves) if moves.size else np.zeros((patterns.size, 0), dtype=bool)
        counts[:, i] = legal.sum(axis=1)
        lists.append((moves, legal))
    starts[:, 1:] = np.cumsum(counts, axis=1)
    row_start = np.concatenate([[0], np.cumsum(starts[:, -1])[:-1]])
    starts += row_start[:, None]
    flat = np.empty(int(starts[-1, -1]), dtype=np.int64)
    for i, (moves, legal) in enumerate(lists):
        rows, cols = np.nonzero(legal)
        if rows.size:
            position = starts[rows, i] + (np.arange(rows.size) - np.searchsorted(rows, rows))
            flat[position] = moves[cols]
    return flat, starts


def board_arrays(game: Game, objective, policy) -> tuple[np.ndarray, np.ndarray]:
    """``u(S)`` for every board (float64) and how ``policy`` picks its dice there
    (:func:`stb_core.policies.one_die_plan`, int8): the game's rules keep their one home, the kernels only read
    the codes."""
    utility = np.asarray(objective.values(game), dtype=float)
    if not game.rules.has_one_die_rule:
        return utility, np.zeros(game.states, dtype=np.int8)
    plan = one_die_plan(game.rules, policy, game.one_die, game.boards, game.exposed)
    return utility, plan.astype(np.int8)


def _moves_low_bits(game: Game) -> int:
    """How many of the lowest tiles a move can use: those worth no more than the largest roll."""
    top = max(game.roll_totals)
    return max((b + 1 for b, v in enumerate(game.tile_values) if v <= top), default=0)


def _in_chunks(states: int, run, progress) -> None:
    """``run(first, last)`` over the boards in increasing chunks, telling ``progress`` the share done."""
    for first in range(0, states, CHUNK):
        last = min(first + CHUNK, states)
        run(first, last)
        if progress is not None:
            progress(last / states)


def sweep_values(game: Game, objective, policy, tie: TieBreak, record: bool, progress=None):
    """``(values, dice, sigma)`` of the optimal or worst policy (``policy.dice_direction`` = +1 or -1),
    compiled; ``sigma`` the move table played (``record``), else None."""
    kernels = _kernels()
    rules = game.rules
    utility, plan = board_arrays(game, objective, policy)
    p_all, p_one = game.chance_arrays()
    lo = min(game.roll_totals)
    direction = float(policy.dice_direction * objective.sense)
    values = np.empty(game.states, dtype=float)
    dice = np.empty(game.states, dtype=np.int8)
    sigma = np.full((game.states if record else 1, p_all.size), -1, dtype=np.int64)
    low_bits = _moves_low_bits(game)
    ascending = list(game.tile_values) == sorted(game.tile_values)
    if low_bits <= PATTERN_BITS or not ascending:
        legal, starts = _legal_by_pattern(game, low_bits, lo)

        def run(first, last):
            kernels.by_patterns(first, last, utility, plan, game.won, direction, direction, low_bits, legal, starts,
                                lo, p_all, p_one, rules.dice, tie.kind, game.tiles, record, values, dice, sigma)
    else:
        tile_values = np.array(game.tile_values, dtype=np.int64)

        def run(first, last):
            kernels.by_subsets(first, last, utility, plan, game.won, direction, direction, tile_values,
                               rules.most_per_move, lo, p_all, p_one, rules.dice, tie.kind, record, values, dice,
                               sigma)
    _in_chunks(game.states, run, progress)
    return values, dice, (sigma if record else None)


def sweep_table(game: Game, objective, policy, sigma: np.ndarray, progress=None):
    """``(values, dice)`` of a fixed deterministic policy given by its move table, compiled."""
    utility, plan = board_arrays(game, objective, policy)
    p_all, p_one = game.chance_arrays()
    values = np.empty(game.states, dtype=float)
    dice = np.empty(game.states, dtype=np.int8)
    sigma = np.ascontiguousarray(sigma)
    by_table = _kernels().by_table

    def run(first, last):
        by_table(first, last, utility, plan, game.won, float(policy.dice_direction * objective.sense), sigma,
                 min(game.roll_totals), p_all, p_one, game.rules.dice, values, dice)
    _in_chunks(game.states, run, progress)
    return values, dice


__all__ = ["available", "board_arrays", "sweep_table", "sweep_values"]
