"""Tidy pandas tables: the raw material of every exhibit in the report.

Boards appear twice in every table: as a readable label (``{1, 4, 5, 8}``) and as the bit-mask
(``board_mask``). Rows are sorted by key and columns carry their meaning (``p_win``,
``expected_remaining_sum``, ``expected_tiles_shut``), so a CSV round-trips through ``pandas.read_csv``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .boards import board_label, board_tiles, move_catalogue, tile_counts, tile_sums
from .counts import winning_sequence_counts
from .objectives import get_objective
from .rules import Rules, RulesError
from .solve import Solution, solve

VALUE_NAMES = {
    "win": "p_win",
    "remaining-sum": "expected_remaining_sum",
    "flipped-count": "expected_tiles_shut",
}
TABLE_MAX_TILES = 16


def value_name(objective) -> str:
    """Column name for the value of a board under ``objective`` (``p_win``, ``expected_remaining_sum``...)."""
    obj = get_objective(objective)
    return VALUE_NAMES.get(obj.name, "expected_" + obj.name.replace("-", "_").replace(" ", "_"))


def _check_size(rules: Rules) -> None:
    if rules.tiles > TABLE_MAX_TILES:
        raise RulesError(f"tiles must be at most {TABLE_MAX_TILES} for per-board tables, got {rules.tiles}")


def _number(x):
    """Plain float for a float or Fraction value (tables hold floats; exact values stay in Solution)."""
    return float(x)


def board_table(rules: Rules, objective="win", policies=("optimal",), *, exact: bool = False,
                solutions: dict | None = None) -> pd.DataFrame:
    """One row per board: label, mask, open tiles, their sum, whether won, and its value under each policy.

    Value columns are named ``<value>_<policy>``, e.g. ``p_win_optimal``; with ``exact=True`` a column
    ``<value>_<policy>_exact`` holds the fraction as text ``p/q``.
    """
    _check_size(rules)
    name = value_name(objective)
    masks = np.arange(rules.states, dtype=np.int64)
    table = pd.DataFrame({
        "board": [board_label(m) for m in masks.tolist()],
        "board_mask": masks,
        "open_tiles": tile_counts(masks),
        "open_sum": tile_sums(masks),
    })
    table["won"] = table["open_sum"] <= rules.win_at_most
    for policy in policies:
        sol = (solutions or {}).get(policy) or solve(rules, objective, policy, exact=exact)
        table[f"{name}_{policy}"] = [_number(v) for v in sol.values.tolist()]
        if exact:
            table[f"{name}_{policy}_exact"] = [str(v) for v in sol.values.tolist()]
    return table


def move_table(solution: Solution, tolerance: float = 1e-9) -> pd.DataFrame:
    """One row per (board, roll, legal move) for boards still in play: the value after the move and
    whether it is optimal (within ``tolerance`` of the best value after any legal move for that roll),
    and whether it is the solution's policy's choice.
    """
    rules = solution.rules
    _check_size(rules)
    name = value_name(solution.objective)
    sense = solution.objective.sense
    masks = np.arange(rules.states, dtype=np.int64)
    playing = masks[tile_sums(masks) > rules.win_at_most]
    frames = []
    for roll in rules.roll_totals:
        moves = move_catalogue(rules).moves(roll)
        if moves.size == 0:
            continue
        legal = (playing[:, None] & moves[None, :]) == moves[None, :]
        rows, cols = np.nonzero(legal)  # row-major: boards increasing, then canonical move order
        boards, chosen_moves = playing[rows], moves[cols]
        after = np.array([_number(v) for v in solution.values[boards & ~chosen_moves].tolist()], dtype=float)
        best = pd.Series(sense * after).groupby(boards).transform("max").to_numpy() * sense
        if solution.policy == "random":
            policy_choice = np.full(playing.size, -1)
        else:
            policy_choice = solution.choose(playing, roll)
        frames.append(pd.DataFrame({
            "board_mask": boards,
            "roll": roll,
            "move": [board_label(m) for m in chosen_moves.tolist()],
            "move_mask": chosen_moves,
            "move_tiles": tile_counts(chosen_moves),
            f"{name}_after": after,
            f"best_{name}_after": best,
            "optimal": np.abs(after - best) <= tolerance,
            "chosen": policy_choice[rows] == chosen_moves,
        }))
    table = pd.concat(frames, ignore_index=True)
    table.insert(0, "board", [board_label(m) for m in table["board_mask"].tolist()])
    order = np.lexsort((np.arange(len(table)), table["roll"].to_numpy(), table["board_mask"].to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def counts_table(rules: Rules, boards=None) -> pd.DataFrame:
    """Source 000's table: weighted winning sequences by number of moves, one row per (board, moves),
    for ``boards`` (default: the full board); counts are exact integers."""
    table = winning_sequence_counts(rules)
    boards = [rules.full_board] if boards is None else list(boards)
    rows = [{"board": board_label(b), "board_mask": int(b), "moves": k, "sequences": int(table[k, b])}
            for b in boards for k in range(rules.tiles + 1)]
    return pd.DataFrame(rows)


def policy_values(rules: Rules, objectives=("win", "remaining-sum", "flipped-count"),
                  policies=("optimal", "highest-tile", "sequence-count", "random", "worst"),
                  board: int | None = None, exact: bool = False) -> pd.DataFrame:
    """Value of ``board`` (default: full) for every objective x policy, long format."""
    rows = []
    for objective in objectives:
        for policy in policies:
            sol = solve(rules, objective, policy, exact=exact)
            value = sol.value(board)
            rows.append({"objective": objective, "policy": policy, "value_name": value_name(objective),
                         "value": _number(value), **({"exact": str(value)} if exact else {})})
    return pd.DataFrame(rows)


def tiles_label(tiles) -> str:
    """``{1, 4}`` from a tuple of tiles (``None`` for no move gives an empty string)."""
    return "" if tiles is None else "{" + ", ".join(map(str, tiles)) + "}"


def turns_table(turns: list[dict]) -> pd.DataFrame:
    """A narrated game (``simulate.narrate_game`` / ``replay_rolls``) as a table with readable boards."""
    table = pd.DataFrame(turns)
    for column in ("open", "move", "open_after"):
        table[column] = [tiles_label(t) for t in table[column]]
    return table


__all__ = ["VALUE_NAMES", "board_table", "board_tiles", "counts_table", "move_table", "policy_values",
           "turns_table", "value_name"]
