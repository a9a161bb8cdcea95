"""Source 000, "Shut the Box with Dynamic Programming": its exhibits, shaped from the engine's tables.

The source counts, for every board, the dice-weighted number of winning move sequences by number of moves
(each roll total weighted by the number of ways two dice make it), and plays the move leading to the board
with the most winning sequences, the first such move in its generator's order (the engine's
``sequence-count`` policy, whose ties go to the first move in the same lexicographic order).
"""

from __future__ import annotations

import pandas as pd

from ..boards import board_label, move_catalogue
from ..rules import Rules
from ..simulate import simulate
from ..solve import solve


def partition_list(rules: Rules) -> pd.DataFrame:
    """The source's list of one-move configurations: every set of distinct tiles adding up to a roll total
    (its "integer partitions with unique elements" of 2..12), whether or not the tiles are on the board.

    ``on_board`` says whether every tile is at most ``rules.tiles`` (the source printed partitions with the
    tiles 11 and 12, which a 10-tile board does not have).
    """
    largest = max(rules.roll_weights)
    every_tile = Rules(tiles=max(rules.tiles, largest), dice=rules.dice, sides=rules.sides)
    catalogue = move_catalogue(every_tile)
    rows = [{"roll": roll, "tiles": board_label(int(move)), "on_board": int(move).bit_length() <= rules.tiles}
            for roll in sorted(rules.roll_weights) for move in catalogue.moves(roll).tolist()]
    return pd.DataFrame(rows)


def strategy_comparison(rules: Rules, games: int, seed: int) -> pd.DataFrame:
    """Win probability of the source's rule, random moves and optimal play: exact, and simulated as the
    source did (``games`` games each, seeded) with 95% intervals."""
    rows = []
    for offset, (policy, label) in enumerate([("sequence-count", "source's 'optimal' rule (most sequences)"),
                                              ("random", "random legal move"), ("optimal", "truly optimal")]):
        solution = solve(rules, "win", policy)
        result = simulate(solution, games, seed + offset)
        low, high = result.win_rate_ci
        rows.append({"policy": policy, "strategy": label, "exact_p_win": float(solution.value()),
                     "simulated_p_win": result.win_rate, "low_95": low, "high_95": high, "games": games})
    return pd.DataFrame(rows)
