"""Source 000's table: dice-weighted numbers of winning move sequences.

A winning sequence from board ``S`` is a sequence of (dice, throw, move) steps that ends with the game won: at each
step the player throws the dice the rules let them roll from the board (all of them; one die where a one-die rule
allows it, each choice its own sequence; one die alone where it is forced) and plays a legal move for the throw.
Each step is weighted by ``w_d(r)``, the number of the ``sides**dice`` equally likely throws of all the dice that
show outcome ``r`` when ``d`` dice are rolled (a single die's face counts ``sides**(dice - 1)``: the common
denominator). With ``D(S)`` the dice the player may roll from ``S`` and ``C_k(S)`` the weighted number of winning
sequences of exactly ``k`` moves:

    C_0(S) = 1 if S is won (``Game.won``) else 0,
    C_k(S) = 0 if S is won, else  sum_{d in D(S)} sum_r w_d(r) sum_{m in M(S, r)} C_{k-1}(S \\ m).

Dividing ``C_k`` by ``(sides**dice)**k`` gives, where the dice are never a choice, the probability of winning in
``k`` moves if every move were taken at once -- which is why counting sequences is not the same as maximising the
chance of winning.
"""

from __future__ import annotations

import numpy as np

from .boards import check_board
from .game import game_of
from .limits import EXACT_COUNT_MAX_TILES, exact_limit
from .rules import InputError, Rules, check_rules


def _pair_weights(game, pairs, dtype=object) -> np.ndarray:
    """The weight of each pair (board, outcome, move): the throws showing its outcome, summed over the dice the
    player may roll from its board, ``sum_{d in D(S)} w_d(r)`` (Python ints, or floats)."""
    catalogue, rules = game.catalogue, game.rules
    code = pairs.code - catalogue.lo
    by_dice = {d: np.array([game.weights(d).get(c, 0) for c in range(catalogue.lo, catalogue.hi + 1)],
                           dtype=dtype)[code] for d in rules.dice_counts}
    all_dice = by_dice[rules.dice]
    if not rules.has_one_die_rule:
        return all_dice
    single = game.one_die[pairs.parent]
    one_die = by_dice[1] if rules.one_die_forced else by_dice[1] + all_dice
    return np.where(single, one_die, all_dice)


def check_counts_reach(rules: Rules) -> None:
    """Refuse exact sequence counts beyond :data:`EXACT_COUNT_MAX_TILES` positions, in the user's terms."""
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
    exact = check_rules(rules).positions <= EXACT_COUNT_MAX_TILES
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
