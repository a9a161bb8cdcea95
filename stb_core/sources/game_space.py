"""Source 003, Matter of Stats, "Finding an Optimal Strategy for Shut The Box: Part 1": its game space.

The source (in R) plays tiles 1-9 with two dice and **wins as soon as the open tiles total 3 or less**. It
lists the states a player can face (every non-empty set of open tiles, less the won ones and the one no
roll can produce), then one row per (state, roll total, legal move) — or one row with no move when the roll
loses — and calls each row a *strategy*. Its conventions, reproduced here:

* ``X1..Xn``: the open tiles in increasing order, ``999`` filling the unused columns; ``Open``: them
  written together (``"12478"``) -- the source's code, unambiguous up to 9 tiles; with 10 or more tiles ("12"
  would be both {12} and {1, 2}) the set is written out (``{1, 2, 4, 7, 8}``); ``StateNum``: ``S1, S2, ...`` in
  the order of its enumeration (by number of open tiles, then lexicographically, as R's ``combn``).
* ``P1..Pk``: the tiles shut, lowest first (empty when no move is legal), ``k`` the most tiles one move of this
  game can shut (4 in the source's); moves of one (state, roll) are listed by number of tiles, then
  lexicographically (its ``for (num_picked in 1:4)`` loop).
* ``F1..Fn``: the open tiles after the move (``999`` filled); ``Outcome``: ``Win`` (what is left totals
  the win threshold or less: 3 in the source), ``Loss`` (no legal move) or ``Undetermined``.
* ``RivalGroup``: the number of the (``Open``, ``TotalRolled``) group, groups numbered in sorted order with
  ``Open`` compared **as text** (dplyr's ``cur_group_id``); ``StrategyCount``: rows in the group;
  ``StrategyNum``: the row number before redundant rows are removed.
* **Redundant** rows: in a group with several winning moves, every winning move after the first.
  ``Removed``: the shut tiles written together (as a set from 10 tiles on).

The state list is computed here from the engine's reachability (boards some sequence of rolls and moves
reaches without having won), not from the source's hand-written list of exclusions; the two agree.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ..analysis import difference
from ..boards import board_label, board_mask, board_tiles
from ..choice import same_value
from ..game import game_of, legal_moves
from ..limits import PAGE_EXACT_UP_TO
from ..rules import Rules, analysis_of, refuses
from ..sweep import solve
from ..valuation import reachable_boards
from .findings import Part, Sentence, Table, derived, parameter, won_at_start
from .words import a_roll, agrees, counted, fraction, integer, listing, number, percent

FILL = 999  # the source's filler for unused tile columns
CODES_UP_TO = 9  # tiles up to which a set is written as its digits together, as the source writes it


def open_code(tiles: tuple[int, ...], rules: Rules) -> str:
    """How a set of tiles is written in the game space: the source's digits together (``"12478"``) up to 9
    tiles, the set itself from 10 tiles on, where digits together would be ambiguous."""
    if rules.tiles <= CODES_UP_TO:
        return "".join(str(t) for t in tiles)
    return board_label(board_mask(tiles))


def _tile_columns(tiles: tuple[int, ...], prefix: str, width: int) -> dict:
    padded = list(tiles) + [FILL] * (width - len(tiles))
    return {f"{prefix}{i + 1}": padded[i] for i in range(width)}


def move_width(rules: Rules) -> int:
    """How many P columns the game space needs: the most tiles one move can shut (at least the source's 4)."""
    catalogue = game_of(rules).catalogue
    sizes = [int(catalogue.sizes[r].max()) for r in catalogue.codes if catalogue.sizes[r].size]
    return max([4, *sizes])


def valid_states(rules: Rules) -> pd.DataFrame:
    """The states the player can face, in the source's order, with its columns."""
    boards = reachable_boards(rules, include_won=False)
    ordered = sorted((board_tiles(int(b)) for b in boards if b), key=lambda t: (len(t), t))
    rows = [{**_tile_columns(t, "X", rules.tiles), "Open": open_code(t, rules), "StateNum": f"S{i}",
             "board_mask": board_mask(t)} for i, t in enumerate(ordered, 1)]
    columns = [*_tile_columns((), "X", rules.tiles), "Open", "StateNum", "board_mask"]
    return pd.DataFrame(rows, columns=columns)


def exclusions_table(rules: Rules, states: pd.DataFrame) -> pd.DataFrame:
    """Every non-empty set of open tiles that is *not* a valid state, in the source's order, with why: ``won``
    (it totals the win threshold or less) or ``unreachable`` (no roll and move ever leaves it)."""
    valid = set(states["board_mask"])
    rows = [{"Open": open_code(board_tiles(m), rules), "board_mask": m,
             "reason": "won" if game_of(rules).won[m] else "unreachable"}
            for m in sorted(range(1, rules.states), key=lambda b: (len(board_tiles(b)), board_tiles(b)))
            if m not in valid]
    return pd.DataFrame(rows, columns=["Open", "board_mask", "reason"])


def source_exclusions(rules: Rules) -> list[str]:
    """Which non-empty sets of open tiles are *not* valid states (the source removes "1", "2", "3",
    "12" and "23456789" by hand), as ``Open`` codes."""
    return list(exclusions_table(rules, valid_states(rules))["Open"])


def threshold_values(rules: Rules, thresholds) -> pd.DataFrame:
    """The chance of winning with optimal play for each win threshold (the rest of ``rules`` kept), with the
    change from the threshold before; this run's own threshold also as an exact fraction (up to 12 tiles)."""
    rows = []
    for w in thresholds:
        exact = rules.positions <= PAGE_EXACT_UP_TO and w == rules.win_at_most
        value = solve(replace(rules, win_at_most=w), "win", exact=exact).value()
        rows.append({"win_at_most": w, "p_win": float(value), "p_win_exact": fraction(value) if exact else "",
                     "this_run": w == rules.win_at_most})
    table = pd.DataFrame(rows)
    p = table["p_win"].to_numpy()
    table["change"] = np.concatenate([[0.0], difference(p[1:], p[:-1])]) if len(p) else []  # rounding not a change
    return table


def thresholds_of(rules: Rules) -> list[int]:
    """The thresholds the page compares: 0 to 6, and on to two past this run's threshold (at most the tile total,
    from which on the game is won before the first roll), and this run's own."""
    return sorted({*range(0, min(rules.total, max(6, rules.win_at_most + 2)) + 1), rules.win_at_most})


def game_space(rules: Rules) -> pd.DataFrame:
    """One row per (state, roll total, legal move) — or per losing (state, roll) — with the source's
    columns, plus ``Redundant`` (the rows its ``remove_redundancy`` drops) and the engine's Part 2 columns:
    ``PWinAfter`` (the chance of winning after the move, optimal play afterwards), ``Optimal`` and
    ``Decisive`` (whether the choice in the row's rival group changes the chance of winning)."""
    states = valid_states(rules)
    values = solve(rules, "win").values
    width = move_width(rules)
    rows = []
    for state in states.itertuples(index=False):
        board = state.board_mask
        for roll in rolls_at(rules, board):
            moves = sorted(legal_moves(rules, board, roll), key=lambda m: (len(m), m))
            for move in moves or [None]:
                after = board & ~board_mask(move) if move else board
                left = board_tiles(after)
                outcome = "Loss" if move is None else ("Win" if game_of(rules).won[after] else "Undetermined")
                rows.append({
                    **{f"X{i + 1}": getattr(state, f"X{i + 1}") for i in range(rules.tiles)},
                    "Open": state.Open, "StateNum": state.StateNum, "TotalRolled": roll,
                    **{f"P{i + 1}": (move[i] if move and i < len(move) else None) for i in range(width)},
                    **_tile_columns(left, "F", rules.tiles), "Outcome": outcome,
                    "PWinAfter": float(values[after]) if move else 0.0,
                    "Removed": open_code(move, rules) if move else "",
                })
    if not rows:
        return pd.DataFrame(columns=[*source_columns(rules), "Redundant", "PWinAfter", "Optimal", "Decisive"])
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
    table["Optimal"] = same_value(table["PWinAfter"], best) & table["Outcome"].ne("Loss")
    low = table.groupby("RivalGroup")["PWinAfter"].transform("min")
    table["Decisive"] = ~same_value(low, best)  # two values apart, not rounding apart
    return table


def rolls_at(rules: Rules, board: int) -> list[int]:
    """The totals a roll can show from ``board``: those of every number of dice the rules let the player roll
    there (one die too, where a one-die rule allows it)."""
    return game_of(rules).totals_from(board)


def source_columns(rules: Rules) -> list[str]:
    """The columns of the source's GameSpace.csv, in its order (as many P columns as this game's moves need)."""
    x = [f"X{i + 1}" for i in range(rules.tiles)]
    f = [f"F{i + 1}" for i in range(rules.tiles)]
    p = [f"P{i + 1}" for i in range(move_width(rules))]
    return [*x, "Open", "StateNum", "TotalRolled", *p, *f, "Outcome", "RivalGroup", "StrategyCount", "StrategyNum",
            "Removed"]


def column_meanings(rules: Rules) -> pd.DataFrame:
    """What each column of GameSpace.csv means, for this run's game."""
    code = ("the open tiles written together, e.g. 12478" if rules.tiles <= CODES_UP_TO else
            "the open tiles as a set, e.g. {1, 2, 4, 7, 8} (with 10 or more tiles, digits together would be "
            "ambiguous)")
    width = move_width(rules)
    won = "every tile shut" if rules.win_at_most == 0 else f"what is left totals {rules.win_at_most} or less"
    if rules.dice == 1 or not rules.has_one_die_rule:
        rolled = "what the one die shows" if rules.dice == 1 else "the dice total"
    elif rules.one_die_forced:
        rolled = "the dice total; where the rules force one die, what that die shows instead"
    else:
        rolled = "the dice total; where the rules allow one die, also what that die shows"
    meanings = {
        "X1..Xn": f"open tiles before the roll, increasing; {FILL} fills the unused columns",
        "Open": code,
        "StateNum": "state number S1.. in the source's enumeration order (by number of open tiles, then "
                    "lexicographic)",
        "TotalRolled": rolled,
        f"P1..P{width}": "tiles shut by this strategy, lowest first; empty when no move is legal",
        "F1..Fn": f"open tiles after the move, increasing; {FILL} fills the unused columns",
        "Outcome": f"Win ({won}), Loss (no legal move) or Undetermined",
        "RivalGroup": "number of the (Open, TotalRolled) group, groups sorted with Open compared as text",
        "StrategyCount": "number of strategies in the group (before redundant ones are removed)",
        "StrategyNum": "row number before redundant rows are removed",
        "Removed": "the shut tiles, written as Open is",
        "PWinAfter": "(Part 2, added here) chance of winning after this move with optimal play afterwards",
        "Optimal": "(Part 2, added here) whether this move maximises PWinAfter within its rival group",
        "Decisive": "(Part 2, added here) whether the choice in this rival group changes the chance of winning",
    }
    return pd.DataFrame(list(meanings.items()), columns=["column", "meaning"])


def optimal_strategy(space: pd.DataFrame) -> pd.DataFrame:
    """Part 2 from :func:`game_space`: the optimal rows of every rival group where the choice changes the
    chance of winning (two or more rows where moves are equally good: ``OptimalMoves``, the group's optimal rows)."""
    chosen = space[space["Decisive"] & space["Optimal"]].reset_index(drop=True)
    return chosen.assign(OptimalMoves=chosen.groupby("RivalGroup")["RivalGroup"].transform("size"))


# -- the chapter's parts --------------------------------------------------------------------------------------
@refuses(layout=(("double-shutter",), "its tables name states by their tile numbers on one row, as the source's do"))
def states_part(rules: Rules) -> Part:
    """The valid states, and the sets of open tiles that are not states, with why."""
    part = Part()
    if rules.won_at_start:
        return part
    states = part.table("valid-states", valid_states(rules))
    excluded = part.table("exclusions", exclusions_table(rules, states.frame))
    s = Sentence()
    parts = []
    for reason, words in (("won", "total{s} " + f"{rules.win_at_most} or less (already won)"),
                          ("unreachable", "cannot be reached: no roll and move leaves {them}")):
        where = [("reason", "==", reason)]
        count = excluded.count(f"{reason}_count", where)
        if s.holds(count, ">", 0):
            one = s.holds(count, "==", 1)
            words = words.format(them="it" if one else "them", s="s" if one else "")
            listed = excluded.fact(f"{reason}_sets", "Open", "list", where)
            parts.append(f"{s(count, counted('set'))} {words}" + (f" — {s(listed, lambda v: listing(v, most=8))}"))
    reasons = "; ".join(parts) if parts else "none"
    code = "written as the source writes them (12 is the set {1, 2})" if rules.tiles <= CODES_UP_TO else "as sets"
    part.add(s.finding("states", f"**{s(states.count('states'), counted('valid state'))}**. The non-empty sets of "
                                 f"open tiles that are not states, {code}: {reasons}.", kind="text"))
    return part


@refuses(
    moves=(("die-or-sum",),
          "its game space lists each state's moves by the total rolled, as the source's GameSpace.csv does"),
    layout=(("double-shutter",), "its tables name states by their tile numbers on one row, as the source's do"),
)
def space_part(rules: Rules) -> Part:
    """The game space: one row per (state, roll, legal move), the redundant rows, and what each column means."""
    part = Part()
    if rules.won_at_start:
        return part
    space = game_space(rules)
    part.shown["space"] = space
    everything = part.table("GameSpace-part2", space.drop(columns=[c for c in space.columns if c.startswith("X")]))
    kept = part.table("GameSpace", space.loc[~space["Redundant"], source_columns(rules)].reset_index(drop=True))
    part.shown["printed-columns"] = [c for c in kept.frame.columns if not c.startswith(("X", "F"))]  # X, F: CSV only
    part.shown["redundant-rows"] = everything.frame[everything.frame["Redundant"]]
    part.table("GameSpace-columns", column_meanings(rules))
    s = Sentence()
    rows, redundant = everything.count("rows"), everything.count("redundant", [("Redundant", "==", True)])
    distinct = derived("distinct", "difference", rows, redundant)
    part.add(s.finding("space", f"**{s(rows, integer)}** rows; **{s(redundant, integer)}** redundant; "
                                f"**{s(distinct, integer)}** distinct strategies, in "
                                f"{s(everything.fact('groups', 'RivalGroup', 'nunique'), counted('rival group'))}.",
                       kind="text"))
    s = Sentence()
    if s.holds(redundant, ">", 0):
        first = {c: everything.fact(f"first_{c}", c, "first", [("Redundant", "==", True)])
                 for c in ("Open", "TotalRolled")}
        rolled = s(first["TotalRolled"], a_roll)
        part.add(s.finding("redundant", f"Each redundant row is a second way to win at once from the same (state, "
                                        f"roll) — e.g. with {s(first['Open'])} open and {rolled} rolled. The source "
                                        f"keeps the first and drops the others.", kind="text"))
    return part


def part2(rules: Rules, space: Part) -> Part:
    """Part 2: optimal play's chance of winning for this threshold and its neighbours, and the optimal moves."""
    part = Part()
    thresholds = part.table("win-probability-by-threshold", threshold_values(rules, thresholds_of(rules)))
    s = Sentence()
    value = thresholds.cell("p_win", "p_win", this_run=True)
    exact = thresholds.cell("p_win_exact", "p_win_exact", this_run=True)
    if s.holds(parameter("win_at_most", rules.win_at_most), ">", 0):
        all_shut = thresholds.cell("p_win_all_shut", "p_win", win_at_most=0)
        rule = (f" when {s(parameter('win_at_most', rules.win_at_most))} or less left counts as a win; played to shut "
                f"every box, the same board is won {s(all_shut, percent(2))} of the time")
    else:
        rule = " (every tile must be shut)"
    if s.holds(value, "==", 0):
        s.quiet(exact)
        text = f"No way of playing can win: optimal play wins with probability **{s(value, integer)}**"
    elif won_at_start(s, rules):
        s.quiet(exact)
        text = (f"The game is won before the first roll: every way of playing wins with probability "
                f"**{s(value, integer)}**")
    else:
        detail = f" = {s(exact)}" if s.holds(exact, "!=", "") else ""
        text = f"Optimal play wins with probability **{s(value, number(6))}** ({s(_again(value), percent(2))}){detail}"
    part.add(s.finding("part2", f"{text}{rule}."))
    s = Sentence()
    first, last = thresholds.fact("lowest", "win_at_most", "min"), thresholds.fact("highest", "win_at_most", "max")
    low = thresholds.cell("p_win_lowest", "p_win", win_at_most=first.value)
    high = thresholds.cell("p_win_highest", "p_win", win_at_most=last.value)
    never_falls = thresholds.fact("never_falls", "change", "min")
    flat = thresholds.fact("most_change", "change", "max")
    if s.holds(flat, "<=", 0) and s.holds(never_falls, ">=", 0):
        text = (f"Line chart: the chance of winning is {s(low, percent(2))} at every threshold from {s(first)} to "
                f"{s(last)}.")
    else:
        trend = ("rises with the threshold (it never falls)" if s.holds(never_falls, ">=", 0) else
                 "changes with the threshold")
        text = (f"Line chart: the chance of winning {trend}, from {s(low, percent(2))} at {s(first)} to "
                f"{s(high, percent(2))} at {s(last)}.")
    part.add(s.finding("threshold-alt", text, kind="alt"))
    s = Sentence()
    marked = thresholds.count("marked", [("this_run", "==", True)])
    line = "; the dashed line marks this run's threshold" if s.holds(marked, ">", 0) else ""
    part.add(s.finding("threshold-caption", "The chance of winning with optimal play against the total at or below "
                                            f"which the game is won (0: every tile shut){line}.", kind="caption"))
    if "GameSpace-part2" in space.tables:
        optimal_strategy_part(part, space)
    return part


def optimal_strategy_part(part: Part, space: Part) -> None:
    """The optimal move of each rival group into ``part``, with how many groups offer a choice and how many of those
    choices change the chance of winning."""
    strategy = part.table("optimal-strategy", optimal_strategy(space.shown["space"]))
    everything = Table("GameSpace-part2", space["GameSpace-part2"])
    s = Sentence()
    choice = everything.fact("with_choice", "RivalGroup", "nunique", [("StrategyCount", ">", 1)])
    decisive = everything.fact("decisive", "RivalGroup", "nunique", [("Decisive", "==", True)])
    rows = strategy.count("optimal_rows")
    s.quiet(rows)
    tied = strategy.fact("tied_groups", "RivalGroup", "nunique", [("OptimalMoves", ">", 1)])
    offer = agrees(choice.value, "offers", "offer")
    if s.holds(choice, "==", 0):
        text = "No rival group offers a choice of moves: every move of this game is forced."
    elif s.holds(decisive, "==", 0):
        one = s.holds(choice, "==", 1)
        none = "it does not change" if one else "in none of them does the choice change"
        each = "its moves are" if one else "each group's moves are all"
        text = (f"{s(choice, counted('rival group'))} {offer} a choice, and {none} the chance of winning "
                f"({s(decisive, integer)} decisive groups): {each} equally good.")
    else:
        text = (f"{s(choice, counted('rival group'))} {offer} a choice; in {s(decisive, integer)} of them the "
                f"choice changes the chance of winning. The optimal move in each")
        text += (f" ({s(rows, counted('row'))}: in {s(tied, counted('group'))} two or more moves are equally "
                 f"good):" if s.holds(tied, ">", 0) else ":")
    part.add(s.finding("optimal-strategy", text, kind="text"))


def _again(fact):
    return replace(fact, name=fact.name + "_percent")


def published_claims(rules: Rules, states: Part, space: Part) -> dict:
    """What the engine computes for each published claim of the source (``data/published/<stem>.csv`` keys)."""
    table = space.shown["space"]
    redundant = int(table["Redundant"].sum())
    return {"states": len(states["valid-states"]), "exclusions": ", ".join(states["exclusions"]["Open"]),
            "rows": len(table), "redundant": redundant, "distinct": len(table) - redundant,
            "example_moves": "; ".join(board_label(board_mask(m)) for m in sorted(
                legal_moves(rules, rules.full_board, 7), key=lambda m: (len(m), m)))}


def headline(states: Part, space: Part, part_two: Part) -> dict:
    """The numbers the index shows for this chapter."""
    p_win = part_two["win-probability-by-threshold"].set_index("this_run").loc[True, "p_win"]
    if not space.tables:
        return {"valid states": "0", "distinct strategies": "0", "P(win), optimal (Part 2)": percent(2)(p_win)}
    table = space.shown["space"]
    return {"valid states": str(len(states["valid-states"])),
            "distinct strategies": f"{len(table) - int(table['Redundant'].sum()):,}",
            "P(win), optimal (Part 2)": percent(2)(p_win)}


@analysis_of(space_part, states_part, part2)
def pipeline(rules: Rules) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    space = space_part(rules)
    return [states_part(rules), space, part2(rules, space)]


def estimate(rules: Rules):
    """What the chapter will take: a Python row per (state, roll, legal move), and a solve per threshold."""
    from ..cost import Estimate, solve_cost, solve_estimate

    cost = solve_cost(rules)
    rows = cost.pairs + cost.boards * cost.rolls
    exact = solve_estimate(rules, exact=True) if rules.positions <= PAGE_EXACT_UP_TO else Estimate()
    return solve_estimate(rules) * (len(thresholds_of(rules)) + 2) + exact + Estimate(rows * 2e-5, rows * 600)
