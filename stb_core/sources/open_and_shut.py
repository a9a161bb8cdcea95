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

import numpy as np
import pandas as pd

from ..boards import board_label, board_mask
from ..choice import NO_LOSS, no_loss, same_value
from ..game import game_of
from ..rules import Rules, analysis_of, refuses
from ..sweep import Solution
from ..tables import legal_moves_table
from ..valuation import evaluate
from .findings import RULE_OF_THUMB_PERCENT, Part, Sentence, Table, derived, of_rules, parameter, won_at_start
from .words import a_roll, as_sets, compact, counted, dice_words, integer, listing, number, percent, share, tiles_range

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
    """Engine value -> the source's expected score (traditional: tiles flipped = total - sum left; a sum left equal
    to the total within the engine's equality rule flips nothing, 0 -- not a float's -4e-16)."""
    if scoring != "traditional":
        return float(value)
    total = solution.rules.total
    return 0.0 if same_value(float(value), total) else total - float(value)


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
    """For each (board, roll) with a legal move: the moves within ``tolerance`` of the chosen one (and those exactly
    as good, within the engine's value equality, whatever the tolerance), written
    as the source writes them (``[1, 8], [2, 7]``, moves in sorted order)."""
    after, chosen = values["after"].to_numpy(dtype=float), values["chosen_value"].to_numpy(dtype=float)
    tied = values[(np.abs(after - chosen) <= tolerance) | same_value(after, chosen)].copy()  # equal: tied at 0 too
    moves = tied["move"].astype(str)  # text, also when no board has a move (won before the first roll)
    tied["text"] = moves.str.replace("{", "[", regex=False).str.replace("}", "]", regex=False)
    tied["key"] = moves.str.strip("{}").map(lambda text: tuple(int(t) for t in text.split(", ")))
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
    picks["Highest Tile Pick"] = (picks["move"].astype(str).str.replace("{", "[", regex=False)
                                  .str.replace("}", "]", regex=False))
    picks["Board Id"] = [source_board_id(m, rules.tiles) for m in picks["board_mask"]]
    out = table.merge(picks[["Board Id", "roll", "Highest Tile Pick", "Points Lost"]].rename(columns={"roll": "Roll"}),
                      on=["Board Id", "Roll"], how="left")
    lost = out["Points Lost"].to_numpy(dtype=float)
    out["Kind"] = np.where((lost > tolerance) & ~no_loss(lost), "genuine", "tie listing")  # rounding is no loss
    best = out["Max Move"].map(_first_move)
    pick = out["Highest Tile Pick"].map(_first_move)
    sizes = [len(b) - len(p) for b, p in zip(best, pick, strict=True)]
    out["pick_tiles"] = ["same" if d == 0 else ("fewer than optimal" if d > 0 else "more than optimal") for d in sizes]
    out["keeps_top_tile"] = [max(p) not in b if p else False for b, p in zip(best, pick, strict=True)]
    return out


def _first_move(cell) -> tuple[int, ...]:
    """The first move of a cell written ``[1, 8], [4, 5]`` (empty for no move)."""
    if not isinstance(cell, str) or not cell.strip():
        return ()
    return tuple(int(t) for t in cell.split("]")[0].strip("[ ").split(",") if t.strip())


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
            row[strategy] = int(table[f"{strategy} Move"].astype(str).str.contains("], [", regex=False).sum())
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


# -- the chapter's parts: tables and findings, in page order -----------------------------------------------------
def example_board(rules: Rules) -> int:
    """The source's worked board, {1, 2} (the full board when the game has fewer tiles)."""
    return board_mask([1, 2]) if rules.tiles >= 2 else rules.full_board


@refuses(layout=(("double-shutter",), "the source's example boards are tiles of one row"))
def example_part(rules: Rules, solved: dict) -> Part:
    """The source's worked example: the board with only 1 and 2 open, roll by roll (traditional score after the
    roll, optimal play afterwards; ``contribution``: chance times score)."""
    part = Part()
    by_sum = solved["traditional", "Max"]
    board = example_board(rules)
    game = by_sum.game
    chances = {} if game.won[board] else game.chances(int(by_sum.dice[board]), exact=True)  # the dice rolled there
    table = pd.DataFrame({"roll": game.roll_column(list(chances)), "probability": [float(p) for p in chances.values()],
                          "score_after": [rules.total - float(by_sum.roll_value(board, r)) for r in chances]},
                         columns=["roll", "probability", "score_after"])
    table["contribution"] = table["probability"] * table["score_after"]
    example = part.table("example-board-1-2", table)
    s = Sentence()
    if s.holds(example.count("rolls"), "==", 0):
        part.add(s.finding("example", f"On {tiles_range(rules.tiles)} the board {board_label(board)} is already won "
                                      f"(at {rules.win_at_most} or less left): its traditional score is "
                                      f"{rules.total - int(game.sums[board])}, with no roll.", kind="text"))
        return part
    score = example.fact("example_score", "contribution", "sum")
    text = (f"The expected traditional score of {board_label(board)} on {tiles_range(rules.tiles)} is "
            f"**{s(score, number(3))}**")
    rolled = int(by_sum.dice[board])
    if rolled != rules.dice:  # the table's chances are one die's
        why = "as the rules require there" if len(game.dice_choices(board)) == 1 else "the better choice there"
        text += f", rolling {dice_words(rolled, rules.sides)} ({why})"
    part.add(s.finding("example", text + ".", kind="text"))
    return part


def losses_table(rules: Rules, solved: dict) -> pd.DataFrame:
    """Per scoring: optimal, highest-tile and worst expected scores, and the highest-tile rule's loss."""
    return highest_tile_losses(expected_score_table(rules, solved))


def scores_part(rules: Rules, solved: dict) -> Part:
    """The 3 x 3 table of expected scores, and what the highest-tile rule loses under each scoring."""
    part = Part()
    part.table("expected-scores", expected_score_table(rules, solved).reset_index())
    losses = part.table("highest-tile-losses", losses_table(rules, solved))
    s = Sentence()
    row = {c: losses.cell(f"traditional_{c}", c, scoring="traditional")
           for c in ("optimal", "worst", "highest_tile", "loss")}
    spread = derived("spread", "difference", row["optimal"], row["worst"])
    s.quiet(row["optimal"], row["worst"])
    below = s.holds(derived("rule_against_optimum", "relation", row["highest_tile"], row["optimal"]), "==", "less")
    rule = f"{s(row['loss'], number(3))} points below the optimum" if below else "the same as the optimum"
    dice = (" Where the rules let the player roll one die, each strategy picks its dice as it picks its moves: max "
            "and the highest-tile rule for the better score, min for the worse." if rules.offers_dice_choice else "")
    part.add(s.finding("scores", f"Under traditional scoring (the tiles shut, of {rules.total} in all) best play "
                                 f"scores {s(row['optimal'], number(3))} and the worst {s(row['worst'], number(3))}: a "
                                 f"spread of {s(spread, number(3))} points. The highest-tile rule scores "
                                 f"{s(row['highest_tile'], number(3))}, {rule}.{dice}", kind="text"))
    s = Sentence()
    shown = []
    for scoring in SCORINGS:
        share_lost = losses.cell(f"{_key(scoring)}_loss_percent", "loss_percent", scoring=scoring)
        if pd.isna(share_lost.value):
            optimum = losses.cell(_key(scoring) + "_optimal", "optimal", scoring=scoring)
            shown.append(f"nothing under {scoring} (the optimum is {s(optimum, compact(3))})")
        else:
            shown.append(f"{scoring} {s(share_lost, share(2))}")
    part.add(s.finding("loss-alt", "Horizontal bars, one per scoring: the highest-tile rule's loss in per cent of the "
                                   "optimum — " + listing(shown, most=3) + ".", kind="alt"))
    s = Sentence()
    traditional = losses.cell("traditional_loss_percent", "loss_percent", scoring="traditional")
    others = []
    for scoring in ("all or nothing", "flipped count"):
        other = losses.cell(f"{_key(scoring)}_loss_percent", "loss_percent", scoring=scoring)
        if pd.isna(other.value) or pd.isna(traditional.value):
            continue
        compared = s.quiet(traditional, other, derived(f"{_key(scoring)}_against_traditional", "relation", other,
                                                       traditional))
        word = {"more": "more", "less": "less", "the same": "as much"}[compared.value]
        others.append((word, f"{scoring} scoring ({s(other, share(2))})"))
    if others:
        words = {word for word, _ in others}
        compared = (f"{others[0][0]} under both {others[0][1]} and {others[1][1]}" if len(others) == 2
                    and len(words) == 1 else listing([f"{word} under {which}" for word, which in others], most=2))
        part.add(s.finding("scorings-compared", f"In per cent of the optimum, the highest-tile rule loses "
                                                f"{s(traditional, share(2))} under traditional scoring, and "
                                                + compared + ".", kind="text"))
    return part


def are(s: Sentence, count) -> str:
    """``is one`` / ``are 3``: the verb agreeing with a count the sentence states."""
    if s.holds(count, "==", 1):
        return f"is {s(count, lambda n: 'one')}"
    return f"are {s(count, integer)}"


def _key(scoring: str) -> str:
    return scoring.replace(" ", "_")


@refuses(
    layout=(("double-shutter",),
          "its exhibits name boards by the source's Board Id and Board string, which read one row of tiles"),
)
def exhibits_part(rules: Rules, solved: dict, tolerance: float) -> Part:
    """Exhibits A-G in the source's conventions, and how many move cells list tied moves."""
    part = Part()
    for letter, scoring in zip("ABC", SCORINGS, strict=True):
        part.table(f"exhibit-{letter}", board_exhibit(rules, scoring, solved))
    move_tables = {scoring: move_exhibit(rules, scoring, solved, tolerance) for scoring in SCORINGS}
    part.shown["move_tables"] = move_tables
    for letter, scoring in zip("DEF", SCORINGS, strict=True):
        part.table(f"exhibit-{letter}", optimal_moves_exhibit(move_tables[scoring]))
    part.table("exhibit-G", comparison_exhibit(move_tables["traditional"]))
    ties = part.table("tied-cells", tied_cells(move_tables))
    s = Sentence()
    counts = [f"{s(ties.cell(_key(scoring) + '_tied', 'Max', scoring=scoring), integer)} under {scoring}"
              for scoring in SCORINGS]
    part.add(s.finding("tied-cells", f"With moves within {tolerance:g} of each other counted as tied, the cells of the "
                                     f"max column that list more than one move number {listing(counts, most=3)}.",
                       kind="text"))
    return part


def exceptions_part(rules: Rules, solved: dict, tolerance: float, exhibits: Part, scores: Part) -> Part:
    """The source's table of exceptions (traditional scoring), what each costs, and the same under each scoring."""
    part = Part()
    move_tables = exhibits.shown["move_tables"]
    found = exception_losses(exceptions(move_tables["traditional"]), rules, solved, tolerance)
    table = part.table("exceptions", found.drop(columns="board_mask", errors="ignore"))
    part.shown["genuine"] = table.frame[table.frame["Kind"] == "genuine"]  # the figure's exceptions
    part.table("exceptions-by-scoring",
               exceptions_by_scoring(move_tables, scores["expected-scores"].set_index("scoring")))
    pairs = Table("exhibit-G", exhibits["exhibit-G"])
    s = Sentence()
    everything, genuine = table.count("exceptions"), table.count("genuine", [("Kind", "==", "genuine")])
    if s.holds(genuine, ">", 0):
        one = s.holds(everything, "==", 1)
        kind = (("it is genuine" if one else "all of them genuine") if s.holds(genuine, "==", everything.value) else
                f"{s(genuine, integer)} of them genuine")
        over = table.count("over_a_point", [("Kind", "==", "genuine"), ("Points Lost", ">", 1)])
        largest = table.fact('largest_loss', 'Points Lost', 'max', [('Kind', '==', 'genuine')])
        median = table.fact('median_loss', 'Points Lost', 'median', [('Kind', '==', 'genuine')])
        if s.holds(genuine, "==", 1):
            s.quiet(median)
            costs = f"It costs {s(largest, number(3))} points (on every board, reached in play or not)"
        else:
            costs = (f"Each costs {s(median, number(3))} points at the median and {s(largest, number(3))} at most "
                     f"(on every board, reached in play or not)")
        text = (f"{s(everything, integer)} of the {s(pairs.count('pairs'), integer)} (board, roll) pairs "
                f"{'is an exception' if one else 'are exceptions'}, {kind} (the highest-tile move loses more than "
                f"{_points(tolerance)}). {costs}; "
                f"{s(over, counted('exception'))} cost{'s' if s.holds(over, '<=', 1) else ''} more than a whole point.")
    elif won_at_start(s, rules):
        s.quiet(everything)
        text = (f"No exception can arise in play: on {tiles_range(rules.tiles)} the game is won before the first "
                f"roll, so no move is ever chosen.")
    else:
        cells = "a cell listing tied moves" if s.holds(everything, "==", 1) else "all cells listing tied moves"
        listings = ("there is no exception at all" if s.holds(everything, "==", 0) else
                    f"{s(everything, counted('exception'))}, {cells}")
        whose = ("the source's tie rule" if tolerance == TIE_TOLERANCE else
                 f"this run's tolerance; the source's is {TIE_TOLERANCE:g}")
        within = "optimal" if tolerance == 0 else f"within {_points(tolerance)} of the optimal move ({whose})"
        text = (f"No genuine exception: on {tiles_range(rules.tiles)} the highest-tile move is always {within} under "
                f"traditional scoring ({listings}).")
    part.add(s.finding("exceptions", text))
    s = Sentence()
    if s.holds(genuine, ">", 1):
        largest = table.fact("largest_loss", "Points Lost", "max", [("Kind", "==", "genuine")])
        smallest = table.fact("smallest_loss", "Points Lost", "min", [("Kind", "==", "genuine")])
        part.add(s.finding("exceptions-alt", f"Dot plot of {s(genuine, counted('exception'))} ranked by points lost, "
                                             f"from {s(largest, number(3))} down to {s(smallest, number(4))}.",
                           kind="alt"))
    return part


def verdict_part(rules: Rules, solved: dict, scores: Part, exceptions_found: Part) -> Part:
    """The hypothesis judged: the highest-tile rule's whole loss split over the decisions it meets."""
    from ..analysis import decision_losses

    part = Part()
    losses = decision_losses(rules, "remaining-sum", "highest-tile", optimal=solved["traditional", "Max"],
                             heuristic=solved["traditional", "Highest Tile"])
    costly = losses[~no_loss(losses["loss"])].sort_values("weighted_loss", ascending=False, kind="stable")
    table = part.table("highest-tile-decision-losses", costly.reset_index(drop=True))
    totals = Table("highest-tile-losses", scores["highest-tile-losses"])
    part.add(verdict_finding(rules, table, totals))
    if table.count("costly_decisions").value == 0:
        return part
    part.add(shapes_finding(rules, Table("exceptions", exceptions_found["exceptions"])))
    s = Sentence()
    costly_decisions = table.count("costly_decisions")
    if s.holds(costly_decisions, ">", 1):
        count = s(costly_decisions, counted("decision"))
        part.add(s.finding("costly-alt", f"Log-log scatter of {count}: points lost when the decision happens against "
                                         f"points lost per game.", kind="alt"))
    return part


def nothing_lost(rules: Rules, s: Sentence, row: dict) -> str:
    """Why the highest-tile rule loses nothing: the game is won before the first roll, no decision in play changes
    the score (best and worst play score the same), or the rule's decisions are optimal where some decision matters
    -- only the last is evidence for the hypothesis."""
    where = f"On {tiles_range(rules.tiles)} with {dice_words(rules.dice, rules.sides)}"
    score = s(row["highest_tile"], number(3))
    if won_at_start(s, rules):
        return (f"{where} the game is won before the first roll: no move is ever chosen, so the hypothesis is never "
                f"put to the test (every strategy scores {score} under traditional scoring).")
    s.quiet(row["optimal"], row["worst"])
    if s.holds(derived("spread", "difference", row["optimal"], row["worst"]), "<=", NO_LOSS):
        return (f"{where} no decision in play changes the score: best and worst play both score {score} under "
                f"traditional scoring, so the "
                f"hypothesis holds, but untested.")
    return (f"{where} the highest-tile rule loses nothing under traditional scoring: it scores {score}, as optimal "
            f"play does, so the hypothesis holds.")


def verdict_finding(rules: Rules, table, totals):
    """The hypothesis against optimal play over a whole game, and the moves in play that cost it most."""
    s = Sentence()
    row = {c: totals.cell(f"traditional_{c}", c, scoring="traditional")
           for c in ("optimal", "worst", "highest_tile", "loss", "loss_percent")}
    if s.holds(table.count("costly_decisions"), "==", 0):
        return s.finding("verdict", nothing_lost(rules, s, row))
    spread = derived("spread", "difference", row["optimal"], row["worst"])
    whole = table.fact("whole_loss", "weighted_loss", "sum")
    s.quiet(row["worst"], whole)
    text = (f"As an optimal strategy the hypothesis is wrong — as the source itself goes on to say — by "
            f"{s(row['loss_percent'], share(2))} of the optimum. Over a whole game the "
            f"highest-tile rule scores {s(row['highest_tile'], number(3))} against the optimum's "
            f"{s(row['optimal'], number(3))}: **{s(row['loss'], number(3))} points less**, against a spread of "
            f"{s(spread, number(3))} points between best and worst play.")
    moves = [("decision", "==", "move")]  # a choice of dice (one-die rules) has no move to name, and its loss is
    # in the whole (under the sum rule the rule's dice have never been seen to cost it anything)
    if s.holds(table.count("costly_moves", moves), ">", 0):
        worst = {c: table.fact(f"worst_{c}", c, "first", where=moves, order=[("loss", "desc")])
                 for c in ("board", "roll", "policy_move", "optimal_move", "loss")}
        most = {c: table.fact(f"most_{c}", c, "first", where=moves, order=[("weighted_loss", "desc")])
                for c in ("board", "roll", "policy_move", "optimal_move", "weighted_loss")}
        part_of = derived("most_share", "ratio", most["weighted_loss"], whole)
        s.quiet(most["weighted_loss"])
        text += (f" Of the moves it makes in play, the worst is on {s(worst['board'])} with "
                 f"{s(worst['roll'], a_roll)}: it shuts "
                 f"{s(worst['policy_move'])} where {s(worst['optimal_move'])} is optimal, "
                 f"{s(worst['loss'], number(3))} points when it happens. The move that costs it most per game is on "
                 f"{s(most['board'])} with {s(most['roll'], a_roll)} ({s(most['policy_move'])} instead of "
                 f"{s(most['optimal_move'])}): {s(part_of, percent(1))} of the whole loss.")
    return s.finding("verdict", text)


def shapes_finding(rules: Rules, shapes):
    """The genuine exceptions' shapes: whether the optimal move flips as many tiles as the highest-tile pick (None
    when there is no genuine exception). Where every move shuts one tile, that is so by the rules, and said so."""
    s = Sentence()
    g = [("Kind", "==", "genuine")]
    count = shapes.count("genuine", g)
    if not s.holds(count, ">", 0):
        return None
    if s.holds(of_rules("most_per_move", "most_per_move", rules), "==", 1):
        example = shapes.fact("example_optimal", "Max Move", "first", g)
        pick = shapes.fact("example_pick", "Highest Tile Pick", "first", g)
        return s.finding("shapes", f"Every move shuts one tile under these rules, so the *fewest tiles* half of the "
                                   f"hypothesis cannot be wrong: in all {s(count, integer)} genuine exceptions the "
                                   f"optimal move shuts a lower tile than the highest it may — for example "
                                   f"{s(example, as_sets)} instead of {s(pick, as_sets)}.", kind="text")
    same = shapes.count("same_size", [*g, ("pick_tiles", "==", "same")])
    more = shapes.count("more_tiles", [*g, ("pick_tiles", "==", "fewer than optimal")])
    fewer = shapes.count("fewer_tiles", [*g, ("pick_tiles", "==", "more than optimal")])
    s.quiet(more, fewer)
    if s.holds(same, ">", 0):
        lead = "In all" if s.holds(same, "==", count.value) else f"In {s(same, integer)} of the"
        example = shapes.fact("example_optimal", "Max Move", "first", [*g, ("pick_tiles", "==", "same")])
        pick = shapes.fact("example_pick", "Highest Tile Pick", "first", [*g, ("pick_tiles", "==", "same")])
        text = (f"{lead} {s(count, integer)} genuine exceptions the optimal move flips as many tiles as the "
                f"highest-tile pick, but not the highest ones — for example {s(example, as_sets)} instead of "
                f"{s(pick, as_sets)}")
    else:
        text = f"In none of the {s(count)} genuine exceptions does the optimal move flip as many tiles as the pick"
    if s.holds(more, "==", 0) and s.holds(fewer, "==", 0):
        keeps = shapes.fact("keeps_top_tile", "keeps_top_tile", "all", g)
        text += ". So the *fewest tiles* half of the hypothesis is never wrong: every error is in its *highest " \
                "tiles* half"
        if s.holds(keeps, "==", True):
            text += ", and in each the optimal move leaves the pick's highest tile open"
        text += "."
    else:
        text += f"; in {s(more)} it flips more tiles and in {s(fewer)} fewer."
    return s.finding("shapes", text, kind="text")


def missed_part(rules: Rules, solved: dict, exhibits: Part) -> Part:
    """The source's count of cases, and its example of a roll of 9 from the full board."""
    part, game = Part(), game_of(rules)
    pairs = Table("exhibit-G", exhibits["exhibit-G"])
    s = Sentence()
    boards, outcomes = of_rules("boards", "states", rules), of_rules("outcomes", "throws", rules)
    rolls = of_rules("rolls", "distinct_outcomes", rules)
    s.quiet(boards, outcomes, rolls)
    roll = "total" if s.holds(parameter("moves", rules.moves), "==", "sum") else "dice, in any order"
    if s.holds(of_rules("has_one_die_rule", "has_one_die_rule", rules), "==", True):
        roll += " of all the dice or of one"
    part.add(s.finding("cases", f"(board, ordered throw of all the dice) pairs: {s(boards, integer)} × "
                                f"{s(outcomes, integer)}; (board, {roll}) pairs: {rules.states:,} × "
                                f"{s(rolls, integer)}; with at least one legal move: "
                                f"{s(pairs.count('pairs'), integer)}"
                                + (" (every board is won before any roll)" if won_at_start(s, rules) else "") + ".",
                       kind="text"))
    nines = nine_throws(rules)
    s = Sentence()
    if rules.tiles >= 9 and nines and won_at_start(s, rules):
        part.add(s.finding("roll-9", "Its example of a roll of 9 from the full board does not arise here: the game "
                                     "is won before the first roll.", kind="text"))
    elif rules.tiles >= 9 and nines and game.shows([rules.full_board], nines[0])[0]:
        by_sum = solved["traditional", "Max"]
        table = part.table("roll-9-moves", pd.DataFrame(
            [{"roll": game.roll_words(code), "move": board_label(board_mask(m)), "expected_sum_after": float(v)}
             for code in nines for m, v in by_sum.move_values(rules.full_board, code)],
            columns=["roll", "move", "expected_sum_after"]))
        s = Sentence()
        if rules.moves == "sum":
            listed, count = table.fact("moves", "move", "list"), table.count("count")
            tied = s.holds(table.fact("scores", "expected_sum_after", "nunique"), "<", count.value)
            order = "best first for the traditional score" + ("; equally good moves in the order of their tiles"
                                                              if tied else "")
            part.add(s.finding("roll-9", f"Its example of a roll of 9 from the full board lists three moves; on "
                                         f"{tiles_range(rules.tiles)} there {are(s, count)}: "
                                         f"{s(listed, lambda v: '; '.join(v))} ({order}).", kind="text"))
        else:
            throws = table.fact("throws", "roll", "nunique")
            per = []
            for i, throw in enumerate(game.roll_words(c) for c in nines):
                moves = table.fact(f"moves_{i}", "move", "list", [("roll", "==", throw)])
                per.append(f"{throw}: {s(moves, lambda v: ', '.join(v))}")
            part.add(s.finding("roll-9", f"Its example of a roll of 9 from the full board lists three of the sets "
                                         f"adding up to 9; under {rules.moves} a 9 is {s(throws, counted('throw'))} of "
                                         f"the dice, each shutting one tile — {'; '.join(per)} (best first for the "
                                         f"traditional score).", kind="text"))
    return part


def nine_throws(rules: Rules) -> list[int]:
    """The outcomes a first roll of 9 can be: the total 9 under the sum rule; under a rule that reads the dice, each
    throw of them (in any order) totalling 9."""
    game = game_of(rules)
    if rules.moves == "sum":
        return [9] if 9 in game.weights(rules.dice) else []
    return [c for c in game.weights(rules.dice) if sum(game.dice_of(c)) == 9 and len(game.dice_of(c)) == rules.dice]


def _points(amount: float) -> str:
    """An amount of the Open and Shut Case's points in words: ``1 point``, ``0.5 points``, ``2 points``."""
    return f"{amount:g} point{'' if amount == 1 else 's'}"


def _short_of(tolerance: float) -> str:
    """How the highest-tile move falls short where it is a genuine exception, at this tie tolerance."""
    return "not the best move" if tolerance <= TIE_TOLERANCE else f"more than {_points(tolerance)} short of the best"


def published_claims(rules: Rules, solved: dict, example: Part, exceptions_found: Part, verdict: Part,
                     tolerance: float = TIE_TOLERANCE) -> dict:
    """What the engine computes for each published claim of the source (``data/published/<stem>.csv`` keys)."""
    by_sum = solved["traditional", "Max"]
    rows = example["example-board-1-2"].set_index("roll")
    genuine = int((exceptions_found["exceptions"]["Kind"] == "genuine").sum())
    losses = highest_tile_losses(expected_score_table(rules, solved)).set_index("scoring")
    overall, percent_lost = losses.loc["traditional", "loss"], losses.loc["traditional", "loss_percent"]
    after_first = rules.full_board & ~board_mask([9])
    return {
        "example_score": float(example["example-board-1-2"]["contribution"].sum()),
        "example_roll2": rows.loc[2, "score_after"], "example_roll3": rows.loc[3, "score_after"],
        "example_other": rows.loc[7, "score_after"],
        "example_p_other": float(rows.loc[~rows.index.isin([2, 3]), "probability"].sum()),
        "pairs": rules.states * rules.throws,
        "hypothesis_first": board_label(board_mask(by_sum.move_values(rules.full_board, 9)[0][0])),
        "hypothesis_second": board_label(board_mask(by_sum.move_values(after_first, 9)[0][0])),
        "hypothesis": (percent_lost <= RULE_OF_THUMB_PERCENT,
                       f"as qualified: {_short_of(tolerance)} at {genuine} (board, roll) pairs, and "
                       f"{number(3)(overall)} points per game ({share(2)(percent_lost)} of the optimum) below optimal "
                       f"play — within the {RULE_OF_THUMB_PERCENT:g}% a rule of thumb may lose"
                       if percent_lost <= RULE_OF_THUMB_PERCENT else
                       f"it loses {share(2)(percent_lost)} of the optimum, more than a rule of thumb may"),
    }


def headline(scores: Part, exceptions_found: Part) -> dict:
    """The numbers the index shows for this chapter."""
    row = scores["highest-tile-losses"].set_index("scoring").loc["traditional"]
    genuine = int((exceptions_found["exceptions"]["Kind"] == "genuine").sum())
    return {"traditional, optimal": number(3)(row["optimal"]),
            "traditional, highest tile": number(3)(row["highest_tile"]),
            "highest-tile loss": share(2)(row["loss_percent"]), "genuine exceptions": str(genuine)}


@analysis_of(solutions, scores_part, exhibits_part, exceptions_part, example_part, verdict_part, missed_part)
def pipeline(rules: Rules, tolerance: float = TIE_TOLERANCE) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    solved = solutions(rules)
    scores = scores_part(rules, solved)
    exhibits = exhibits_part(rules, solved, tolerance)
    found = exceptions_part(rules, solved, tolerance, exhibits, scores)
    return [example_part(rules, solved), scores, exhibits, found, verdict_part(rules, solved, scores, found),
            missed_part(rules, solved, exhibits)]


def estimate(rules: Rules, tolerance: float = TIE_TOLERANCE):
    """What the chapter will take: nine solves, and the exhibits -- a row per (board, roll, legal move) for each
    scoring and strategy, in pandas."""
    from ..cost import Estimate, solve_cost, solve_estimate

    cost = solve_cost(rules)
    return solve_estimate(rules) * 12 + Estimate(cost.pairs * 1.2e-4 + cost.boards * 1e-4, cost.pairs * 900)
