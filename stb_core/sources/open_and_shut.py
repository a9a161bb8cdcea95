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

from ..evaluate import evaluate
from ..rules import Rules
from ..solve import Solution
from ..tables import legal_moves_table

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
    return {(scoring, strategy): evaluate(rules, objective, policy)
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


def _move_values(solution: Solution) -> pd.DataFrame:
    """The engine's move table of ``solution`` with each move's value after it (``after``) and the value
    after the strategy's chosen move (``chosen_value``), both in the engine's units."""
    moves = legal_moves_table(solution)
    after = moves.columns[moves.columns.str.endswith("_after") & ~moves.columns.str.startswith("best_")][0]
    moves = moves.rename(columns={after: "after"})
    chosen = moves.loc[moves["chosen"], ["board_mask", "roll", "after"]].rename(columns={"after": "chosen_value"})
    return moves.merge(chosen, on=["board_mask", "roll"], how="left")


def _tied_moves(values: pd.DataFrame, tolerance: float = TIE_TOLERANCE) -> pd.Series:
    """For each (board, roll) with a legal move: the moves within ``tolerance`` of the chosen one, written
    as the source writes them (``[1, 8], [2, 7]``, moves in sorted order)."""
    tied = values[(values["after"] - values["chosen_value"]).abs() <= tolerance].copy()
    tied["text"] = tied["move"].str.replace("{", "[", regex=False).str.replace("}", "]", regex=False)
    tied["key"] = tied["move"].str.strip("{}").map(lambda text: tuple(int(t) for t in text.split(", ")))
    tied = tied.sort_values(["board_mask", "roll", "key"])
    return tied.groupby(["board_mask", "roll"], sort=True)["text"].agg(", ".join)


def move_exhibit(rules: Rules, scoring: str, solved: dict | None = None,
                 tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """Every (board, roll) with a legal move and each strategy's move cell (the source's move tables,
    ties within ``tolerance`` listed together), with the board's expected score under Max and Highest Tile,
    sorted as the source sorts its exhibits (Board Sum, then the Board string, then Roll)."""
    solved = solved or solutions(rules)
    cells = pd.concat({f"{strategy} Move": _tied_moves(_move_values(solved[scoring, strategy]), tolerance)
                       for strategy in STRATEGIES}, axis=1).reset_index()
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


def exception_losses(table: pd.DataFrame, rules: Rules, solved: dict | None = None,
                     tolerance: float = TIE_TOLERANCE) -> pd.DataFrame:
    """The exceptions table with what each exception costs (traditional scoring): ``Highest Tile Pick`` is
    the one move the highest-tile rule plays, ``Points Lost`` = expected score after the optimal move minus
    expected score after that pick (optimal play afterwards, exact engine values), and ``Kind``: ``genuine``
    when the pick loses more than ``tolerance``, ``tie listing`` when the two cells differ only because the
    tie rule lists different sets of equally good moves."""
    solved = solved or solutions(rules)
    best = _move_values(solved["traditional", "Max"])
    picks = _move_values(solved["traditional", "Highest Tile"])
    picks = picks.loc[picks["chosen"], ["board_mask", "roll", "move", "move_mask"]]
    picks = picks.merge(best[["board_mask", "roll", "move_mask", "after", "chosen_value"]],
                        on=["board_mask", "roll", "move_mask"])
    picks["Points Lost"] = picks["after"] - picks["chosen_value"]  # expected sum left: higher is worse
    picks["Highest Tile Pick"] = picks["move"].str.replace("{", "[", regex=False).str.replace("}", "]", regex=False)
    picks["Board Id"] = [source_board_id(m, rules.tiles) for m in picks["board_mask"]]
    out = table.merge(picks[["Board Id", "roll", "Highest Tile Pick", "Points Lost"]].rename(columns={"roll": "Roll"}),
                      on=["Board Id", "Roll"], how="left")
    out["Kind"] = out["Points Lost"].gt(tolerance).map({True: "genuine", False: "tie listing"})
    return out


def expected_score_shares(scores: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """The 3 x 3 table in long form, with each expected score as a share of its scoring's maximum
    (traditional: the tile total; all or nothing: 1; flipped count: the number of tiles), so the three
    scorings can share one axis."""
    maximum = {"traditional": rules.total, "all or nothing": 1, "flipped count": rules.tiles}
    long = scores.reset_index().melt(id_vars="scoring", var_name="strategy", value_name="expected score")
    long["maximum"] = long["scoring"].map(maximum)
    long["share of maximum"] = long["expected score"] / long["maximum"]
    return long


def tied_cells(move_tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per scoring and strategy column: how many move cells list more than one move (the tie rule at work)."""
    rows = []
    for scoring, table in move_tables.items():
        row = {"scoring": scoring}
        for strategy in STRATEGIES:
            row[strategy] = int(table[f"{strategy} Move"].str.contains("], [", regex=False).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def highest_tile_losses(scores: pd.DataFrame) -> pd.DataFrame:
    """Per scoring: the expected score of optimal play, of the highest-tile rule and of the worst play, and
    what the rule loses against the optimum (in the scoring's units and in % of the optimum)."""
    table = scores.reset_index().rename(columns={"Max": "optimal", "Highest Tile": "highest_tile", "Min": "worst"})
    table["loss"] = table["optimal"] - table["highest_tile"]
    table["loss_percent"] = 100 * table["loss"] / table["optimal"].where(table["optimal"] != 0)
    table["worst_loss_percent"] = 100 * (table["optimal"] - table["worst"]) / table["optimal"].where(
        table["optimal"] != 0)
    return table[["scoring", "optimal", "highest_tile", "worst", "loss", "loss_percent", "worst_loss_percent"]]


def exceptions_by_scoring(move_tables: dict[str, pd.DataFrame], scores: pd.DataFrame) -> pd.DataFrame:
    """For each scoring: the (board, roll) pairs with a legal move, where its Max cell differs from its Highest
    Tile cell and from the traditional Max cell, and the highest-tile rule's loss per game."""
    losses = highest_tile_losses(scores).set_index("scoring")
    traditional = move_tables["traditional"]["Max Move"]
    return pd.DataFrame([{
        "scoring": scoring, "pairs": len(table),
        "max_differs_from_highest_tile": int((table["Max Move"] != table["Highest Tile Move"]).sum()),
        "max_differs_from_traditional_max": int((table["Max Move"] != traditional).sum()),
        "highest_tile_loss": losses.loc[scoring, "loss"], "loss_percent": losses.loc[scoring, "loss_percent"],
    } for scoring, table in move_tables.items()])


def exception_shapes(genuine: pd.DataFrame) -> dict:
    """How the highest-tile pick differs from the optimal move over the genuine exceptions: ``same_size`` (as
    many tiles, but not the highest ones), ``more_tiles`` (the optimum shuts more tiles), with one example."""
    pick = genuine["Highest Tile Pick"].str.count(",") + 1
    best = genuine["Max Move"].str.split("], [", regex=False).str[0].str.count(",") + 1
    same = genuine[pick == best]
    return {"same_size": len(same), "more_tiles": int((best > pick).sum()), "fewer_tiles": int((best < pick).sum()),
            "example": (same["Max Move"].iloc[0], same["Highest Tile Pick"].iloc[0]) if len(same) else None}
