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
                     "p_win_one_die": one, "p_win_all_dice": many,
                     "best": "one die" if one > many else (dice_name(rules.dice) if many > one else "either"),
                     "one_minus_two": one - many, "reach": float(reach[board])})
    table = pd.DataFrame(rows, columns=["board", "board_mask", "open_sum", "open_tiles", "smallest_tile",
                                        "largest_tile", "p_win_one_die", "p_win_all_dice", "best", "one_minus_two",
                                        "reach"])
    table = table.sort_values(["one_minus_two", "board_mask"], ascending=[False, True], kind="stable")
    table = table.reset_index(drop=True)
    table.attrs["dice"] = rules.dice
    return table


def dice_name(dice: int) -> str:
    """``one die``, ``two dice``, ``3 dice``: how a number of dice reads."""
    return {1: "one die", 2: "two dice"}.get(dice, f"{dice} dice")


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
        (f"only large tiles left (every open tile 4 or more): {dice_name(int(table.attrs.get('dice', 2)))} are "
         f"better", only_large, dice_name(int(table.attrs.get("dice", 2)))),
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


def one_die_by_sum(table: pd.DataFrame) -> pd.DataFrame:
    """From :func:`dice_choice_table`: for each total of the open tiles, how many boards offer the choice and
    on how many one die is better, two dice are better, or both are worth the same."""
    grouped = table.groupby("open_sum")["best"]
    summary = pd.DataFrame({"boards": grouped.size(),
                            "one_die_better": grouped.agg(lambda s: int((s == "one die").sum())),
                            "all_dice_better": grouped.agg(lambda s: int(((s != "one die") & (s != "either")).sum())),
                            "equal": grouped.agg(lambda s: int((s == "either").sum()))})
    return summary.reset_index()


def describe_one_die(summary: pd.DataFrame) -> str:
    """Where one die is the better choice, in words, from :func:`one_die_by_sum`: "exactly when 6 or less is
    left open", or the totals where it always wins and those where it sometimes does."""
    always = summary.loc[summary["one_die_better"] == summary["boards"], "open_sum"].tolist()
    some = summary.loc[(summary["one_die_better"] > 0) & (summary["one_die_better"] < summary["boards"]),
                       "open_sum"].tolist()
    threshold = sum_threshold_of(summary)
    if not always and not some:
        return "one die is never the better choice"
    if threshold is not None:
        return f"one die is the better choice exactly when the open tiles total {threshold} or less"
    parts = []
    if always:
        parts.append(f"on every board whose open tiles total {_ranges(always)}")
    if some:
        parts.append(f"on some of the boards totalling {_ranges(some)}")
    return "one die is the better choice " + ", and ".join(parts) + " — no single total separates the two"


def sum_threshold_of(summary: pd.DataFrame) -> int | None:
    """The total ``t`` with one die better on every board totalling ``t`` or less and on none above."""
    one = summary[summary["one_die_better"] > 0]
    if one.empty:
        return None
    t = int(one["open_sum"].max())
    below, above = summary[summary["open_sum"] <= t], summary[summary["open_sum"] > t]
    if (below["one_die_better"] == below["boards"]).all() and (above["one_die_better"] == 0).all():
        return t
    return None


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 5, 7, 8]`` -> ``1–3, 5, 7 and 8``."""
    runs, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            runs += [f"{start}\u2013{v}"] if v >= start + 2 else [str(x) for x in range(start, v + 1)]
            start = None
    return runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]
