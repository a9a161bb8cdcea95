"""Tidy pandas tables: the raw material of every exhibit in the report.

Boards appear twice in every table: as a readable label (``{1, 4, 5, 8}``) and as the bit-mask
(``board_mask``). Rows are sorted by key and columns carry their meaning (``p_win``,
``expected_remaining_sum``, ``expected_tiles_shut``), so a CSV round-trips through ``pandas.read_csv``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .boards import board_tiles, tile_counts
from .choice import same_value
from .game import game_of
from .limits import PER_BOARD_MAX_TILES
from .objectives import get_objective
from .rules import InputError, Rules
from .sweep import Solution
from .valuation import evaluate


def value_name(objective) -> str:
    """Column name for the value of a board under ``objective`` (``p_win``, ``expected_remaining_sum``...)."""
    return get_objective(objective).value_name


def _check_size(rules: Rules) -> None:
    if rules.positions > PER_BOARD_MAX_TILES:
        raise InputError(f"tiles must be at most {PER_BOARD_MAX_TILES} for per-board tables, got {rules.positions}")


def board_table(rules: Rules, objective="win", policies=("optimal",), *, tie_break="canonical",
                exact: bool = False, solutions: dict | None = None) -> pd.DataFrame:
    """One row per board: label, mask, open tiles, their sum, whether won, and its value under each policy.

    Value columns are named ``<value>_<policy>``, e.g. ``p_win_optimal``; with ``exact=True`` a column
    ``<value>_<policy>_exact`` holds the fraction as text ``p/q``.
    """
    _check_size(rules)
    name = value_name(objective)
    space = game_of(rules)
    table = pd.DataFrame({
        "board": [space.layout.label(m) for m in space.boards.tolist()],
        "board_mask": space.boards,
        "open_tiles": space.counts.astype(np.int64),
        "open_sum": space.sums.astype(np.int64),
        "won": space.won,
    })
    for policy in policies:
        sol = (solutions or {}).get(policy) or evaluate(rules, objective, policy, tie_break=tie_break, exact=exact)
        table[f"{name}_{policy}"] = np.asarray(sol.values, dtype=float)
        if exact:
            table[f"{name}_{policy}_exact"] = [str(v) for v in sol.values.tolist()]
    return table


def legal_moves_table(solution: Solution) -> pd.DataFrame:
    """One row per (board, roll, legal move) for boards still in play whose dice can show the roll
    (:meth:`~stb_core.game.Game.shows`): the value after the move, whether
    it is optimal (as good as the best value after any legal move for that roll, within the solver's value
    tolerance) and whether it is the solution's policy's choice (its move table; a mixture chooses none).
    """
    rules = solution.rules
    _check_size(rules)
    name = value_name(solution.objective)
    sense = solution.objective.sense
    game = game_of(rules)
    playing = game.playing
    frames = []
    for roll in game.outcomes:
        moves, facing = game.catalogue.of(roll), playing[game.shows(playing, roll)]  # boards that can roll it
        if moves.size == 0 or facing.size == 0:
            continue
        rows, cols = np.nonzero(game.legal(facing, moves))  # boards increasing, then canonical move order
        boards, chosen_moves = facing[rows], moves[cols]
        after = np.asarray(solution.values[boards & ~chosen_moves], dtype=float)
        best = pd.Series(sense * after).groupby(boards).transform("max").to_numpy() * sense
        policy_choice = np.full(facing.size, -1) if solution.moves_kept == "mixture" else solution.played(facing, roll)
        frames.append(pd.DataFrame({
            "board_mask": boards,
            "roll": roll,
            "move": [game.layout.label(m) for m in chosen_moves.tolist()],
            "move_mask": chosen_moves,
            "move_tiles": tile_counts(chosen_moves),
            f"{name}_after": after,
            f"best_{name}_after": best,
            "optimal": same_value(after, best),
            "chosen": policy_choice[rows] == chosen_moves,
        }))
    columns = ["board_mask", "roll", "move", "move_mask", "move_tiles", f"{name}_after", f"best_{name}_after",
               "optimal", "chosen"]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    table.insert(0, "board", [game.layout.label(m) for m in table["board_mask"].tolist()])
    order = np.lexsort((np.arange(len(table)), table["roll"].to_numpy(), table["board_mask"].to_numpy()))
    table = table.iloc[order].reset_index(drop=True)
    table["roll"] = game.roll_column(table["roll"])
    return table


def tiles_label(tiles) -> str:
    """``{1, 4}`` from a tuple of tiles (``None`` for no move gives an empty string)."""
    return "" if tiles is None else "{" + ", ".join(map(str, tiles)) + "}"


TURN_COLUMNS = ("turn", "open", "dice", "roll", "move", "open_after")  # a narrated turn's fields


def turns_table(turns: list[dict]) -> pd.DataFrame:
    """A narrated game (``simulate.narrate_game`` / ``replay_rolls``) as a table with readable boards."""
    table = pd.DataFrame(turns, columns=list(TURN_COLUMNS) if not turns else None)  # no turn: won before the first roll
    for column in ("open", "move", "open_after"):
        table[column] = [tiles_label(t) for t in table[column]]
    return table


__all__ = ["board_table", "board_tiles", "legal_moves_table", "turns_table",
           "value_name"]
