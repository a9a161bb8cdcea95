"""Source 001, the Riddler Classic of April 13 2018: tiles 1-9, and once 7, 8 and 9 are all shut the player
may roll one die instead of two. Its exhibits, shaped from the engine's solution.

The one-die choice is the engine's ``Rules(one_die="high-shut")``; ``Solution.dice_values`` gives the chance
of shutting the box after choosing each number of dice, with optimal play afterwards (the source's
``R_1(S)`` and ``R_2(S)``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..boards import board_label, board_space, board_sum, board_tiles
from ..evaluate import reach_probabilities
from ..rules import Rules
from ..solve import Solution, solve


def dice_choice_table(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """Every board (not yet won) on which the rules let the player choose one die: the chance of shutting
    the box rolling one die and rolling all the dice (``R_1`` and ``R_d``), the better choice, by how much,
    and the chance that optimal play from the full board ever stands on the board (``reach``).

    Sorted by the advantage of one die (largest first); ties by board.
    """
    solution = solution or solve(rules, "win")
    reach = np.asarray(reach_probabilities(solution), dtype=float)
    rows = []
    for board in board_space(rules).choosing_dice.tolist():
        values = solution.dice_values(board)
        one, many = float(values[1]), float(values[rules.dice])
        tiles = board_tiles(board)
        rows.append({"board": board_label(board), "board_mask": board, "open_sum": board_sum(board),
                     "open_tiles": len(tiles), "smallest_tile": min(tiles), "largest_tile": max(tiles),
                     "p_win_one_die": one, "p_win_two_dice": many,
                     "best": "one die" if one > many else ("two dice" if many > one else "either"),
                     "one_minus_two": one - many, "reach": float(reach[board])})
    table = pd.DataFrame(rows)
    if len(table):
        table = table.sort_values(["one_minus_two", "board_mask"], ascending=[False, True], kind="stable")
    return table.reset_index(drop=True)


def source_statements(table: pd.DataFrame) -> pd.DataFrame:
    """The source's two sentences on where the choice matters, tested on every board of ``table``
    (from :func:`dice_choice_table`): "with many small tiles still open ... one die gives a better chance"
    (read as: the tiles 1, 2 and 3 all open) and "with only large tiles left, two dice gives the only reach"
    (read as: every open tile 4 or more). Each row: how many boards the sentence covers, on how many it is
    right, and the exceptions."""
    small_open = table["board_mask"].map(lambda b: b & 0b111 == 0b111)
    only_large = table["smallest_tile"] >= 4
    rows = []
    for statement, covered, claimed in [
        ("many small tiles open (1, 2 and 3 all open): one die is better", small_open, "one die"),
        ("only large tiles left (every open tile 4 or more): two dice are better", only_large, "two dice"),
    ]:
        boards = table[covered]
        right = boards["best"] == claimed
        rows.append({"statement": statement, "boards": len(boards), "true_on": int(right.sum()),
                     "false_on": int((~right).sum()),
                     "exceptions": "  ".join(boards.loc[~right, "board"].tolist())})
    return pd.DataFrame(rows)


def sum_threshold(table: pd.DataFrame) -> int | None:
    """The largest open-tile total ``t`` such that one die is better exactly on the boards totalling ``t``
    or less (``None`` if no threshold separates the two choices)."""
    one = table.loc[table["best"] == "one die", "open_sum"]
    rest = table.loc[table["best"] != "one die", "open_sum"]
    if one.empty:
        return 0 if rest.empty or rest.min() > 0 else None
    if rest.empty or one.max() < rest.min():
        return int(one.max())
    return None
