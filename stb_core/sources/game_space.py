"""Source 003, Matter of Stats, "Finding an Optimal Strategy for Shut The Box: Part 1": its game space.

The source (in R) plays tiles 1-9 with two dice and **wins as soon as the open tiles total 3 or less**. It
lists the states a player can face (every non-empty set of open tiles, less the won ones and the one no
roll can produce), then one row per (state, roll total, legal move) — or one row with no move when the roll
loses — and calls each row a *strategy*. Its conventions, reproduced here:

* ``X1..Xn``: the open tiles in increasing order, ``999`` filling the unused columns; ``Open``: them
  written together (``"12478"``); ``StateNum``: ``S1, S2, ...`` in the order of its enumeration (by
  number of open tiles, then lexicographically, as R's ``combn``).
* ``P1..P4``: the tiles shut, lowest first (empty when no move is legal); moves of one (state, roll) are
  listed by number of tiles, then lexicographically (its ``for (num_picked in 1:4)`` loop).
* ``F1..Fn``: the open tiles after the move (``999`` filled); ``Outcome``: ``Win`` (what is left totals
  3 or less), ``Loss`` (no legal move) or ``Undetermined``.
* ``RivalGroup``: the number of the (``Open``, ``TotalRolled``) group, groups numbered in sorted order with
  ``Open`` compared **as text** (dplyr's ``cur_group_id``); ``StrategyCount``: rows in the group;
  ``StrategyNum``: the row number before redundant rows are removed.
* **Redundant** rows: in a group with several winning moves, every winning move after the first.
  ``Removed``: the shut tiles written together.

The state list is computed here from the engine's reachability (boards some sequence of rolls and moves
reaches without having won), not from the source's hand-written list of exclusions; the two agree.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..boards import board_mask, board_tiles, legal_moves
from ..evaluate import reachable_boards
from ..rules import Rules
from ..solve import solve

FILL = 999  # the source's filler for unused tile columns


def _tile_columns(tiles: tuple[int, ...], prefix: str, width: int) -> dict:
    padded = list(tiles) + [FILL] * (width - len(tiles))
    return {f"{prefix}{i + 1}": padded[i] for i in range(width)}


def _open_text(tiles: tuple[int, ...]) -> str:
    return "".join(str(t) for t in tiles)


def valid_states(rules: Rules) -> pd.DataFrame:
    """The states the player can face, in the source's order, with its columns."""
    boards = reachable_boards(rules, include_won=False)
    ordered = sorted((board_tiles(int(b)) for b in boards if b), key=lambda t: (len(t), t))
    rows = [{**_tile_columns(t, "X", rules.tiles), "Open": _open_text(t), "StateNum": f"S{i}",
             "board_mask": board_mask(t)} for i, t in enumerate(ordered, 1)]
    columns = [*_tile_columns((), "X", rules.tiles), "Open", "StateNum", "board_mask"]
    return pd.DataFrame(rows, columns=columns)


def source_exclusions(rules: Rules) -> list[str]:
    """Which non-empty sets of open tiles are *not* valid states (the source removes "1", "2", "3",
    "12" and "23456789" by hand), as ``Open`` strings."""
    valid = set(valid_states(rules)["Open"])
    everything = (board_tiles(m) for m in range(1, rules.states))
    return sorted((_open_text(t) for t in everything if _open_text(t) not in valid), key=lambda s: (len(s), s))


def exclusion_reasons(rules: Rules, excluded: list[str]) -> str:
    """Why each excluded set is not a state, in words: won already, or never left by any roll and move."""
    won = [e for e in excluded if sum(int(c) for c in e) <= rules.win_at_most] if rules.tiles <= 9 else []
    other = [e for e in excluded if e not in won]
    parts = []
    if won:
        parts.append(f"{', '.join(won)} total {rules.win_at_most} or less (already won)")
    if other:
        them = "them" if len(other) > 1 else "it"
        parts.append(f"{', '.join(other)} cannot be reached: no roll and move leaves {them}")
    return "; ".join(parts)


def threshold_values(rules: Rules, thresholds) -> pd.DataFrame:
    """The chance of winning with optimal play for each win threshold (the rest of ``rules`` kept)."""
    from dataclasses import replace

    return pd.DataFrame([{"win_at_most": w, "p_win": float(solve(replace(rules, win_at_most=w), "win").value())}
                         for w in thresholds])


def game_space(rules: Rules) -> pd.DataFrame:
    """One row per (state, roll total, legal move) — or per losing (state, roll) — with the source's
    columns, plus ``Redundant`` (the rows its ``remove_redundancy`` drops) and the engine's Part 2 columns:
    ``PWinAfter`` (the chance of winning after the move, optimal play afterwards) and ``Optimal``."""
    states = valid_states(rules)
    values = solve(rules, "win").values
    width = max(4, rules.max_per_move or 4)
    rows = []
    for state in states.itertuples(index=False):
        board = state.board_mask
        for roll in sorted(rules.roll_weights):
            moves = sorted(legal_moves(rules, board, roll), key=lambda m: (len(m), m))
            for move in moves or [None]:
                after = board & ~board_mask(move) if move else board
                left = board_tiles(after)
                outcome = "Loss" if move is None else ("Win" if sum(left) <= rules.win_at_most else "Undetermined")
                rows.append({
                    **{f"X{i + 1}": getattr(state, f"X{i + 1}") for i in range(rules.tiles)},
                    "Open": state.Open, "StateNum": state.StateNum, "TotalRolled": roll,
                    **{f"P{i + 1}": (move[i] if move and i < len(move) else None) for i in range(width)},
                    **_tile_columns(left, "F", rules.tiles), "Outcome": outcome,
                    "PWinAfter": float(values[after]) if move else 0.0,
                    "Removed": _open_text(move) if move else "",
                })
    if not rows:
        return pd.DataFrame(columns=[*source_columns(rules), "Redundant", "PWinAfter", "Optimal"])
    table = pd.DataFrame(rows)
    for i in range(width):
        table[f"P{i + 1}"] = table[f"P{i + 1}"].astype("Int64")
    keys = sorted(set(zip(table["Open"], table["TotalRolled"], strict=True)))  # Open sorts as text
    group_id = {key: i for i, key in enumerate(keys, 1)}
    table["RivalGroup"] = [group_id[key] for key in zip(table["Open"], table["TotalRolled"], strict=True)]
    table["StrategyCount"] = table.groupby("RivalGroup")["RivalGroup"].transform("size")
    table["StrategyNum"] = np.arange(1, len(table) + 1)
    wins = table["Outcome"].eq("Win")
    table["Redundant"] = wins & (wins.groupby(table["RivalGroup"]).cumsum() > 1)
    best = table.groupby("RivalGroup")["PWinAfter"].transform("max")
    table["Optimal"] = (table["PWinAfter"] >= best - 1e-12) & table["Outcome"].ne("Loss")
    return table


def source_columns(rules: Rules) -> list[str]:
    """The columns of the source's GameSpace.csv, in its order."""
    x = [f"X{i + 1}" for i in range(rules.tiles)]
    f = [f"F{i + 1}" for i in range(rules.tiles)]
    return [*x, "Open", "StateNum", "TotalRolled", "P1", "P2", "P3", "P4", *f, "Outcome", "RivalGroup",
            "StrategyCount", "StrategyNum", "Removed"]


COLUMN_MEANINGS = {
    "X1..Xn": "open tiles before the roll, increasing; 999 fills the unused columns",
    "Open": "the open tiles written together, e.g. 12478",
    "StateNum": "state number S1.. in the source's enumeration order (by number of open tiles, then lexicographic)",
    "TotalRolled": "the dice total",
    "P1..P4": "tiles shut by this strategy, lowest first; empty when no move is legal",
    "F1..Fn": "open tiles after the move, increasing; 999 fills the unused columns",
    "Outcome": "Win (what is left totals 3 or less), Loss (no legal move) or Undetermined",
    "RivalGroup": "number of the (Open, TotalRolled) group, groups sorted with Open compared as text",
    "StrategyCount": "number of strategies in the group (before redundant ones are removed)",
    "StrategyNum": "row number before redundant rows are removed",
    "Removed": "the shut tiles written together",
    "PWinAfter": "(Part 2, added here) chance of winning after this move with optimal play afterwards",
    "Optimal": "(Part 2, added here) whether this move maximises PWinAfter within its rival group",
}


def optimal_strategy(space: pd.DataFrame) -> tuple[pd.DataFrame, int, int]:
    """Part 2 from :func:`game_space`: the optimal rows of every rival group where the choice changes the
    chance of winning (two rows where two moves are equally good), with the number of groups that offer a
    choice and of those where it matters."""
    choices = space[space["StrategyCount"] > 1]
    decisive = choices.groupby("RivalGroup").filter(lambda g: g["PWinAfter"].nunique() > 1)
    return decisive[decisive["Optimal"]], int(choices["RivalGroup"].nunique()), int(decisive["RivalGroup"].nunique())
