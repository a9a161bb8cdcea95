"""Source 000's table: dice-weighted numbers of winning move sequences.

A winning sequence from board ``S`` is a sequence of (roll, move) steps that ends with the game won;
each step is weighted by the number of ways ``w(r)`` the dice show its roll (out of ``sides**dice``).
With ``C_k(S)`` the weighted number of winning sequences of exactly ``k`` moves:

    C_0(S) = 1 if S is won (``Game.won``) else 0,
    C_k(S) = 0 if S is won, else  sum_r w(r) sum_{m in M(S, r)} C_{k-1}(S \\ m).

(The one-die option plays no part: rolls are weighted as all the dice show them.) Dividing ``C_k`` by
``(sides**dice)**k`` gives the probability of winning in ``k`` moves if every move were taken at once,
which is why counting sequences is not the same as maximising the chance of winning.
"""

from __future__ import annotations

import numpy as np

from .boards import check_board
from .game import game_of
from .rules import InputError, Rules, check_rules

EXACT_COUNT_MAX_TILES = 16


def _pair_weights(game, pairs, dtype=object) -> np.ndarray:
    """The dice weight of each pair's outcome: the throws of all the dice showing it (Python ints, or floats)."""
    weights, catalogue = game.weights(game.rules.dice), game.catalogue
    table = np.array([weights.get(c, 0) for c in range(catalogue.lo, catalogue.hi + 1)], dtype=dtype)
    return table[pairs.code - catalogue.lo]


def check_counts_reach(rules: Rules) -> None:
    """Refuse exact sequence counts beyond :data:`EXACT_COUNT_MAX_TILES` positions, in the user's terms."""
    from .sweep import exact_limit

    if rules.positions > EXACT_COUNT_MAX_TILES:
        raise InputError(exact_limit(rules, "exact sequence counts", EXACT_COUNT_MAX_TILES))


def winning_sequence_counts(rules: Rules) -> np.ndarray:
    """Array ``C[k, S]`` of exact (Python int) weighted winning-sequence counts, ``k = 0 .. tiles``."""
    check_counts_reach(check_rules(rules))
    game = game_of(rules)
    levels, n, won = game.levels, game.states, game.won
    counts = np.zeros((rules.positions + 1, n), dtype=object)
    counts[0, won] = 1
    for k in range(1, rules.positions + 1):
        boards = levels.boards(k)
        acc = np.zeros((k + 1, n), dtype=object)  # acc[j, S]: sequences of j moves from S, summed over rolls
        pairs = levels.pairs(k)
        weight = _pair_weights(game, pairs)
        for moves in range(1, k + 1):
            np.add.at(acc[moves], pairs.parent, weight * counts[moves - 1, pairs.child])
        for moves in range(1, k + 1):
            counts[moves, boards] = np.where(won[boards], 0, acc[moves, boards])
    return counts


def counts_by_moves(rules: Rules, board: int | None = None) -> dict[int, int]:
    """Weighted winning sequences from ``board`` (default: full) by number of moves, ``{moves: count}``.

    >>> from stb_core import Rules
    >>> counts_by_moves(Rules(tiles=10))[5]
    117120
    """
    rules = check_rules(rules)
    board = rules.full_board if board is None else check_board(board, rules)
    table = winning_sequence_counts(rules)
    return {k: int(table[k, board]) for k in range(rules.positions + 1)}


def total_winning_sequences(rules: Rules) -> np.ndarray:
    """Total weighted winning sequences from every board (all lengths): exact ints up to
    ``EXACT_COUNT_MAX_TILES`` tiles, float64 beyond (the key of the ``sequence-count`` policy)."""
    exact = rules.positions <= EXACT_COUNT_MAX_TILES
    game = game_of(rules)
    levels, n, won = game.levels, game.states, game.won
    total = np.zeros(n, dtype=object if exact else float)
    total[won] = 1
    acc = np.zeros(n, dtype=total.dtype)
    for k in range(1, rules.positions + 1):
        boards = levels.boards(k)
        acc[boards] = 0
        pairs = levels.pairs(k)
        np.add.at(acc, pairs.parent, _pair_weights(game, pairs, total.dtype) * total[pairs.child])
        total[boards] = np.where(won[boards], 1, acc[boards])
    return total
