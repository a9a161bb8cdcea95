"""Source 002, "Open and Shut Case" (D. Castner): its exhibits, in its own conventions, from the engine.

The source scores a finished game three ways and plays three strategies:

==================  ==========================================  ================================
source's scoring    its value of a finished game                engine objective
==================  ==========================================  ================================
traditional         sum of the tiles flipped down (shut)        ``remaining-sum`` (score = total - V)
all or nothing      1 if every tile is down, else 0             ``win``
flipped count       number of tiles flipped down                ``flipped-count``
==================  ==========================================  ================================

Strategies: *max* (optimal for that scoring), *min* (worst) and *highest tile* (fewest tiles, then the
highest tiles: the engine's ``highest-tile``). Its conventions, reproduced here: a **Board Id** is the
binary number of the *flipped* tiles with tile 1 as the most significant bit; a **Board** string shows the
open tiles and ``-`` for flipped ones (``1 2 - - - - - - -``); **Board Sum** is the sum of the *flipped*
tiles; a move cell lists every move whose expected score is within 0.0001 of the strategy's chosen move,
as ``[1, 8], [4, 5]`` — the source applies that tie rule to every strategy, its highest-tile column too.
"""

from __future__ import annotations

import pandas as pd

from ..rules import Rules
from ..solve import Solution, solve
from ..tables import move_table

TIE_TOLERANCE = 0.0001  # the source's get_optimal_move: moves within this of the chosen one are listed
SCORINGS = {"traditional": "remaining-sum", "all or nothing": "win", "flipped count": "flipped-count"}
STRATEGIES = {"Max": "optimal", "Min": "worst", "Highest Tile": "highest-tile"}


def source_board_id(mask: int, tiles: int) -> int:
    """The source's Board Id: flipped (shut) tiles as bits, tile 1 the most significant."""
    return sum(1 << (tiles - t) for t in range(1, tiles + 1) if not mask >> (t - 1) & 1)


def source_board_string(mask: int, tiles: int) -> str:
    """The source's Board string: open tiles as digits, flipped ones as ``-``."""
    return " ".join(str(t) if mask >> (t - 1) & 1 else "-" for t in range(1, tiles + 1))


def flipped_sum(mask: int, rules: Rules) -> int:
    """The source's Board Sum: the sum of the flipped (shut) tiles."""
    return rules.total - sum(t for t in range(1, rules.tiles + 1) if mask >> (t - 1) & 1)


def _score(solution: Solution, value: float, scoring: str) -> float:
    """Engine value -> the source's expected score (traditional: tiles flipped = total - sum left)."""
    return solution.rules.total - float(value) if scoring == "traditional" else float(value)


def solutions(rules: Rules) -> dict[tuple[str, str], Solution]:
    """The nine (scoring, strategy) solutions."""
    return {(scoring, strategy): solve(rules, objective, policy)
            for scoring, objective in SCORINGS.items() for strategy, policy in STRATEGIES.items()}


def expected_score_table(rules: Rules, solved: dict | None = None) -> pd.DataFrame:
    """The 3 x 3 table: expected score of the full board for each scoring (rows) and strategy (columns)."""
    solved = solved or solutions(rules)
    rows = {scoring: {strategy: _score(solved[scoring, strategy], solved[scoring, strategy].value(), scoring)
                      for strategy in STRATEGIES} for scoring in SCORINGS}
    return pd.DataFrame(rows).T.rename_axis("scoring")


def board_exhibit(rules: Rules, scoring: str, solved: dict | None = None) -> pd.DataFrame:
    """Exhibits A, B, C: every board with its expected score under each strategy and the strategic
    difference (Max - Min), sorted by Board Sum (boards of equal sum in Board Id order, as the source)."""
    solved = solved or solutions(rules)
    masks = range(rules.states)
    table = pd.DataFrame({
        "Board Id": [source_board_id(m, rules.tiles) for m in masks],
        "Board (Remaining)": [source_board_string(m, rules.tiles) for m in masks],
        "Board Sum": [flipped_sum(m, rules) for m in masks],
        "board_mask": list(masks),
    })
    for strategy in STRATEGIES:
        sol = solved[scoring, strategy]
        table[f"{strategy} ES"] = [_score(sol, v, scoring) for v in sol.values.tolist()]
    table["Strategic Difference"] = table["Max ES"] - table["Min ES"]
    table = table.sort_values("Board Id", kind="stable").sort_values("Board Sum", kind="stable")
    return table.reset_index(drop=True)


def _tied_moves(solution: Solution) -> pd.DataFrame:
    """For each (board, roll) with a legal move: the moves within the tie tolerance of the chosen one,
    written as the source writes them."""
    moves = move_table(solution)
    after = moves.columns[moves.columns.str.endswith("_after") & ~moves.columns.str.startswith("best_")][0]
    chosen = moves.loc[moves["chosen"], ["board_mask", "roll", after]].rename(columns={after: "chosen_value"})
    moves = moves.merge(chosen, on=["board_mask", "roll"], how="left")
    tied = moves[(moves[after] - moves["chosen_value"]).abs() <= TIE_TOLERANCE].copy()
    tied["text"] = tied["move"].str.replace("{", "[", regex=False).str.replace("}", "]", regex=False)
    return tied.groupby(["board_mask", "roll"], sort=True)["text"].agg(", ".join)


def move_exhibit(rules: Rules, scoring: str, solved: dict | None = None) -> pd.DataFrame:
    """Every (board, roll) with a legal move and each strategy's move cell (the source's move tables),
    with the board's expected score under Max and Highest Tile, sorted as the source sorts its exhibits."""
    solved = solved or solutions(rules)
    cells = pd.concat({f"{strategy} Move": _tied_moves(solved[scoring, strategy]) for strategy in STRATEGIES},
                      axis=1).reset_index()
    masks = cells["board_mask"].tolist()
    cells.insert(0, "Board Id", [source_board_id(m, rules.tiles) for m in masks])
    cells.insert(1, "Board (Remaining)", [source_board_string(m, rules.tiles) for m in masks])
    cells.insert(2, "Board Sum", [flipped_sum(m, rules) for m in masks])
    for strategy in ("Max", "Highest Tile"):
        sol = solved[scoring, strategy]
        cells[f"{strategy} ES"] = [_score(sol, sol.values[m], scoring) for m in masks]
    cells = cells.rename(columns={"roll": "Roll"})
    return cells.sort_values(["Board Sum", "Board (Remaining)", "Roll"], kind="stable").reset_index(drop=True)


def optimal_moves_exhibit(moves: pd.DataFrame) -> pd.DataFrame:
    """Exhibits D, E, F: the rows of a move exhibit where the Max and Min moves differ."""
    columns = ["Board Id", "Board (Remaining)", "Board Sum", "Roll", "Max Move", "Min Move", "Highest Tile Move"]
    return moves.loc[moves["Max Move"] != moves["Min Move"], columns].reset_index(drop=True)


def comparison_exhibit(moves: pd.DataFrame) -> pd.DataFrame:
    """Exhibit G: every (board, roll), optimal move against the highest-tile move (traditional scoring)."""
    columns = ["Board Id", "Board (Remaining)", "Board Sum", "Roll", "Max Move", "Max ES", "Highest Tile Move",
               "Highest Tile ES"]
    return moves[columns]


def exceptions(moves: pd.DataFrame) -> pd.DataFrame:
    """The source's table of exceptions: rows of Exhibit G where the Max Move cell differs from the
    Highest Tile Move cell (compared as the source compares them: as text)."""
    table = comparison_exhibit(moves)
    return table[table["Max Move"] != table["Highest Tile Move"]].reset_index(drop=True)
