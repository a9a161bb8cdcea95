"""Every cell of the tables a chapter writes, recomputed from the rules by the plain reference of ``reference.py``.

The findings audit re-derives each sentence from the run's exported CSV files; a table computed under the wrong
rules would pass it. These checks recompute the tables themselves, cell by cell, with nothing of ``stb_core`` but
the ``Rules`` value: the boards, the dice each board may roll, the moves, the values of every policy, play followed
forward from the full board (reach, endings, game length) and the decisions a policy faces are all the reference's.

:data:`TABLE_CHECKS` maps each chapter to its tables: a check, or the reason a table has none of its own (a table
derived from others that are checked, a simulation judged by the chapter's own interval check, the printed
figures of other games that do not depend on the run). A test holds the map to every table each chapter exports.
The reference is exponential, so the checks run on boards of at most :data:`SMALL` tiles in all.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import replace
from fractions import Fraction

import pandas as pd
from reference import (
    blocker_of,
    boards_reached,
    decision_losses,
    dice_options,
    forward,
    is_won,
    moves,
    objective_sense,
    outcomes,
    positions,
    reachable_states,
    reference_play,
    reference_value,
    sequences_by_moves,
    tile_name,
    total,
    utility,
    value_of,
    winning_sequences,
)

from stb_core import Rules

SMALL = 8  # tiles in all (both rows) up to which the tables are recomputed
RTOL = 1e-9


# -- how the tables write boards, moves and rolls (from the rules' words, not the engine's) ----------------------
def label(rules: Rules, tiles) -> str:
    """A board or a move as the tables write it: its tiles by name, front row first (``{1, 4, b9}``)."""
    return "{" + ", ".join(tile_name(rules, t) for t in sorted(tiles)) + "}"


def roll_text(rules: Rules, outcome) -> str:
    """An outcome as a table's roll column writes it: the total, or the dice (``3,4``)."""
    return str(outcome) if rules.moves == "sum" else ",".join(map(str, outcome))


def possible(rules: Rules, board: frozenset) -> bool:
    """Whether a board can arise: no back tile down while the tile in front of it stands."""
    return all(blocker_of(rules, t) not in board for t in positions(rules) if t not in board)


def boards(rules: Rules):
    """Every board that can arise, smallest first."""
    tiles = positions(rules)
    for size in range(len(tiles) + 1):
        for board in map(frozenset, itertools.combinations(tiles, size)):
            if possible(rules, board):
                yield board


def faced(rules: Rules, board: frozenset) -> dict:
    """The outcomes the dice the player may roll from ``board`` can show, each with the dice that can show it."""
    found = {}
    for d in dice_options(rules, board):
        for o in outcomes(rules, d):
            found.setdefault(o, []).append(d)
    return found


def missing(x) -> bool:
    return x is None or x == "" or (isinstance(x, float) and math.isnan(x))


def as_text(x) -> str:
    """A cell as text: a whole number read back from a CSV as a float (``4.0``) is ``4``."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, Fraction) and x.denominator == 1:
        return str(x.numerator)
    return str(x)


def same(a, b) -> bool:
    """Two cells alike: a missing one (a blank, NaN) only with another; text as text; numbers within RTOL."""
    if missing(a) or missing(b):
        return missing(a) and missing(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return str(a) == str(b)
    if isinstance(a, str) or isinstance(b, str):
        return as_text(a) == as_text(b)
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=1e-12)


def rows_equal(table: pd.DataFrame, expected: list[dict], key: tuple[str, ...], what: str) -> None:
    """The table has exactly the expected rows (by ``key``), and each of their cells the expected value."""
    got = {tuple(as_text(r[k]) for k in key): r for r in table.to_dict("records")}
    want = {tuple(as_text(r[k]) for k in key): r for r in expected}
    assert set(got) == set(want), (what, sorted(set(got) ^ set(want))[:6])
    for k, row in want.items():
        for column, value in row.items():
            assert same(got[k][column], value), (what, k, column, got[k][column], value)


def small(rules: Rules) -> bool:
    return len(positions(rules)) <= SMALL


# -- chapter 1 ---------------------------------------------------------------------------------------------------
def sequences_by_length(tables, values, rules):
    count = sequences_by_moves(rules)
    full = frozenset(positions(rules))
    board = frozenset(int(t) for t in values["board"].split(",")) if values.get("board") else None
    for name, at in (("counts-by-moves", full), ("counts-for-board", board)):
        if at is None:
            continue
        table = tables[name]
        assert list(table["moves"]) == list(range(len(positions(rules)) + 1))
        counts = [count(at, k) for k in table["moves"]]
        assert [int(c) for c in table["sequences"]] == counts, name
        shares = [c / sum(counts) if sum(counts) else 0.0 for c in counts]
        assert all(same(a, b) for a, b in zip(table["share"], shares, strict=True)), name


def distinct_sets(total_: int):
    """Every set of distinct whole numbers adding up to ``total_``, by trying every subset of 1..total_."""
    return [s for size in range(1, total_ + 1) for s in itertools.combinations(range(1, total_ + 1), size)
            if sum(s) == total_]


def totals_shown(rules) -> list[int]:
    """Every total the dice can show: all of them, and one die where a rule lets it be rolled."""
    rolled = {rules.dice} | ({1} if rules.one_die != "never" else set())
    return sorted({t for d in rolled for t in outcomes(rules, d)})


def partitions(tables, values, rules):
    totals = totals_shown(rules)
    expected = [{"roll": t, "sets": len(distinct_sets(t)), "on_board": sum(max(s) <= rules.tiles
                                                                          for s in distinct_sets(t))}
                for t in totals if t <= 24]
    if len(expected) == len(totals):
        rows_equal(tables["partitions"], expected, ("roll",), "partitions")


def partition_sets(tables, values, rules):
    expected = [{"roll": t, "tiles": "{" + ", ".join(map(str, s)) + "}", "on_board": max(s) <= rules.tiles}
                for t in totals_shown(rules) for s in distinct_sets(t)]
    rows_equal(tables["partition-sets"], expected, ("roll", "tiles"), "partition-sets")


def one_move_boards(tables, values, rules):
    """Each board one roll wins, with each roll that wins it and its weight: the throws showing it (each of the dice
    the player may roll there, one die's face counting sides**(dice-1)) times the winning moves it allows."""
    expected = []
    for board in boards(rules):
        if is_won(rules, board):
            continue
        for o, dice in faced(rules, board).items():
            wins = sum(is_won(rules, board - set(m)) for m in moves(rules, board, o))
            weight = wins * sum(int(outcomes(rules, d)[o] * rules.sides**rules.dice) for d in dice)
            if weight:
                expected.append({"board": label(rules, board), "roll": roll_text(rules, o), "weight": weight})
    rows_equal(tables["one-move-boards"], expected, ("board", "roll"), "one-move-boards")


def example_moves(tables, values, rules):
    board = frozenset((1, 3, 4, 6, 7))
    legal = moves(rules, board, 7)
    win = reference_play(rules, "win")
    count = winning_sequences(rules)
    expected = [{"move": label(rules, m), "board_after": label(rules, board - set(m)),
                 "sequences_after": count(board - set(m)), "p_win_after": win.value(board - set(m))} for m in legal]
    rows_equal(tables["example-moves"], expected, ("move",), "example-moves")


def strategies(tables, values, rules):
    table = tables["strategies"].set_index("policy")
    for policy in ("sequence-count", "random", "optimal"):
        assert same(table.loc[policy, "exact_p_win"], reference_value(rules, "win", policy)), policy


def rule_pairs(tables, values, rules):
    """The (board, roll) pairs a player can face where the most-sequences rule's move has a smaller chance of
    winning than the optimal move (optimal play afterwards), with the sequences after each."""
    best, rule = reference_play(rules, "win"), reference_play(rules, "win", "sequence-count")
    count = winning_sequences(rules)
    expected = []
    for board in boards(rules):
        if is_won(rules, board):
            continue
        for o in faced(rules, board):
            if not moves(rules, board, o):
                continue
            a, b = best.move(board, o), rule.move(board, o)
            loss = best.value(board - set(a)) - best.value(board - set(b))
            if loss > 0 and not math.isclose(float(loss), 0, abs_tol=1e-12):
                expected.append({"board": label(rules, board), "roll": roll_text(rules, o),
                                 "optimal_move": label(rules, a), "source_rule_move": label(rules, b),
                                 "win_chance_lost": loss, "sequences_after_optimal": count(board - set(a)),
                                 "sequences_after_rule": count(board - set(b))})
    rows_equal(tables["rule-vs-optimal-pairs"], expected, ("board", "roll"), "rule-vs-optimal-pairs")


def costly_decisions(rules: Rules, objective: str, policy, tie_break: str = "canonical") -> list[dict]:
    """The decisions a policy faces that cost anything, as the decision tables write them (a choice of dice: roll
    -1 under the sum rule, blank under a dice rule), with the weighted loss."""
    out = []
    for row in decision_losses(rules, objective, policy, tie_break):
        if math.isclose(float(row["loss"]), 0, abs_tol=1e-12):
            continue
        roll = ("-1" if rules.moves == "sum" else "") if row["outcome"] is None else roll_text(rules, row["outcome"])
        out.append({"board": label(rules, row["board"]), "decision": row["decision"], "roll": roll,
                    "dice": row["dice"], "options": row["options"], "reach": row["reach"], "p_roll": row["p_roll"],
                    "loss": row["loss"],
                    "weighted_loss": row["reach"] * row["p_roll"] * row["loss"]})
    return out


def decision_table(table: pd.DataFrame, rules: Rules, objective: str, policy, what: str,
                   costly_only: bool = True) -> None:
    """A decision-loss table against the reference's decisions of the policy: its costly rows exactly (a table of
    every decision also has the reference's costly ones, and its other rows lose nothing)."""
    table = table.assign(roll=table["roll"].fillna("").map(lambda r: str(int(r)) if isinstance(r, float) else str(r)))
    expected = costly_decisions(rules, objective, policy)
    if not costly_only:  # every decision faced: as many with a choice as the reference's
        choices = sum(row["options"] > 1 for row in decision_losses(rules, objective, policy))
        assert int((table["options"] > 1).sum()) == choices, what
        nothing = table[table["loss"].abs() <= 1e-12]
        table = table[table["loss"].abs() > 1e-12]
        assert (nothing["weighted_loss"].abs() <= 1e-12).all(), what
    rows_equal(table, expected, ("board", "decision", "roll"), what)


def rule_decisions(tables, values, rules):
    table = tables["rule-decision-losses"]
    decision_table(table, rules, "win", "sequence-count", "rule-decision-losses")
    total_ = sum(float(r["weighted_loss"]) for r in costly_decisions(rules, "win", "sequence-count"))
    if total_ > 0:
        assert all(same(s, w / total_) for s, w in zip(table["share_of_loss"], table["weighted_loss"], strict=True))


# -- chapter 2 ---------------------------------------------------------------------------------------------------
def named_rules(rules: Rules) -> list[str]:
    return list(dict.fromkeys(("never", "high-shut", "sum-le-6", rules.one_die)))


def value_and_contrast(tables, values, rules):
    base = reference_value(replace(rules, one_die="never"), "win")
    expected = []
    for option in named_rules(rules):
        value = reference_value(replace(rules, one_die=option), "win")
        expected.append({"one_die": option, "p_win": value, "gain": value - base, "this_run": option == rules.one_die,
                         "p_win_exact": f"{value.numerator}/{value.denominator}" if value.denominator != 1 else
                         str(value.numerator)})
    rows_equal(tables["value-and-contrast"], expected, ("one_die",), "value-and-contrast")


def choosing_boards(rules: Rules):
    return [b for b in boards(rules) if not is_won(rules, b) and len(dice_options(rules, b)) > 1]


def dice_values(rules: Rules, board: frozenset, play) -> dict[int, Fraction]:
    """What rolling each number of dice the player may roll is worth, optimal play afterwards."""
    def rolled(dice):
        return sum(q * (play.value(board - set(play.move(board, o))) if moves(rules, board, o) else
                        utility("win", rules, board)) for o, q in outcomes(rules, dice).items())
    return {d: rolled(d) for d in dice_options(rules, board)}


def dice_choice(tables, values, rules):
    play = reference_play(rules, "win")
    reach, _, _ = forward(play)
    count = {2: "two", 3: "three", 4: "four"}[rules.dice]
    many = f"{count} {'' if rules.sides == 6 else f'{rules.sides}-sided '}dice"
    expected = []
    for board in choosing_boards(rules):
        got = dice_values(rules, board, play)
        one, every = got[1], got[rules.dice]
        best = "either" if one == every else "one die" if one > every else many
        expected.append({"board": label(rules, board), "open_sum": total(rules, board), "p_win_one_die": one,
                         "p_win_all_dice": every, "best": best, "one_minus_all": one - every,
                         "reach": reach.get(board, 0)})
    rows_equal(tables["dice-choice"], expected, ("board",), "dice-choice")


def one_die_by_sum(tables, values, rules):
    play = reference_play(rules, "win")
    by_sum = {}
    for board in choosing_boards(rules):
        got = dice_values(rules, board, play)
        row = by_sum.setdefault(total(rules, board), {"boards": 0, "one_die_better": 0, "equal": 0})
        row["boards"] += 1
        row["one_die_better"] += got[1] > got[rules.dice]
        row["equal"] += got[1] == got[rules.dice]
    expected = [{"open_sum": t, **r, "all_dice_better": r["boards"] - r["one_die_better"] - r["equal"]}
                for t, r in sorted(by_sum.items())]
    rows_equal(tables["one-die-by-sum"], expected, ("open_sum",), "one-die-by-sum")


def source_statements(tables, values, rules):
    play = reference_play(rules, "win")
    covered = {"small_tiles": lambda b: rules.tiles >= 3 and {1, 2, 3} <= b,  # the row's (front row's) 1, 2, 3
               "large_tiles": lambda b: min(value_of(rules, t) for t in b) >= 4}
    one_better = {"small_tiles": True, "large_tiles": False}
    table = tables["source-statements"].set_index("key")
    for key, covers in covered.items():
        hit = [b for b in choosing_boards(rules) if covers(b)]
        right = 0
        for board in hit:
            got = dice_values(rules, board, play)
            right += (got[1] > got[rules.dice]) if one_better[key] else (got[rules.dice] > got[1])
        assert int(table.loc[key, "boards"]) == len(hit) and int(table.loc[key, "true_on"]) == right, key


# -- chapter 3 ---------------------------------------------------------------------------------------------------
SCORINGS = {"traditional": "remaining-sum", "all or nothing": "win", "flipped count": "flipped-count"}
STRATEGIES = {"Max": "optimal", "Min": "worst", "Highest Tile": "highest-tile"}


def score(rules: Rules, scoring: str, value) -> Fraction:
    """The source's expected score from the engine's value of a board: traditional = tile total - sum left."""
    return total(rules, positions(rules)) - value if scoring == "traditional" else value


def source_board(rules: Rules, board: frozenset) -> dict:
    """The source's names of a board: Board Id (the flipped tiles as bits, tile 1 first), Board string, Board Sum."""
    flipped = [t for t in positions(rules) if t not in board]
    return {"Board Id": sum(1 << (rules.tiles - t) for t in flipped),
            "Board (Remaining)": " ".join(str(t) if t in board else "-" for t in positions(rules)),
            "Board Sum": sum(flipped)}


def plays(rules: Rules) -> dict:
    return {(scoring, strategy): reference_play(rules, objective, policy)
            for scoring, objective in SCORINGS.items() for strategy, policy in STRATEGIES.items()}


def board_exhibits(tables, values, rules):
    every = plays(rules)
    for letter, scoring in zip("ABC", SCORINGS, strict=True):
        expected = []
        for board in boards(rules):
            row = source_board(rules, board)
            for strategy in STRATEGIES:
                row[f"{strategy} ES"] = score(rules, scoring, every[scoring, strategy].value(board))
            row["Strategic Difference"] = row["Max ES"] - row["Min ES"]
            expected.append(row)
        rows_equal(tables[f"exhibit-{letter}"], expected, ("Board Id",), f"exhibit-{letter}")


def cell(rules: Rules, play, board: frozenset, outcome, tolerance: float) -> str:
    """A strategy's move cell: every legal move whose value after it (the strategy's own values) is within the
    tolerance of its chosen move's, written as the source writes lists, in order."""
    chosen = play.value(board - set(play.move(board, outcome)))
    tied = [m for m in moves(rules, board, outcome) if abs(play.value(board - set(m)) - chosen) <= tolerance]
    return ", ".join("[" + ", ".join(map(str, m)) + "]" for m in sorted(tied))


def move_exhibits(rules: Rules, tolerance: float) -> dict[str, list[dict]]:
    """Per scoring, every (board, roll) a player can face with a legal move: the three strategies' cells and the
    board's Max and Highest Tile expected scores."""
    every = plays(rules)
    out = {}
    for scoring in SCORINGS:
        rows = []
        for board in boards(rules):
            if is_won(rules, board):
                continue
            for o in faced(rules, board):
                if moves(rules, board, o):
                    row = {**source_board(rules, board), "Roll": roll_text(rules, o)}
                    for strategy in STRATEGIES:
                        row[f"{strategy} Move"] = cell(rules, every[scoring, strategy], board, o, tolerance)
                    row["Max ES"] = score(rules, scoring, every[scoring, "Max"].value(board))
                    row["Highest Tile ES"] = score(rules, scoring, every[scoring, "Highest Tile"].value(board))
                    rows.append(row)
        out[scoring] = rows
    return out


def move_tables(tables, values, rules):
    found = move_exhibits(rules, values["tolerance"])
    key = ("Board Id", "Roll")
    rows_equal(tables["exhibit-G"], [{k: v for k, v in r.items() if k != "Min Move"} for r in found["traditional"]],
               key, "exhibit-G")
    for letter, scoring in zip("DEF", SCORINGS, strict=True):
        rows_equal(tables[f"exhibit-{letter}"], [{k: r[k] for k in (*key, "Max Move", "Min Move",
                                                                  "Highest Tile Move")}
                                                for r in found[scoring] if r["Max Move"] != r["Min Move"]],
                   key, f"exhibit-{letter}")
    tied = [{"scoring": scoring, **{strategy: sum("], [" in r[f"{strategy} Move"] for r in found[scoring])
                                    for strategy in STRATEGIES}} for scoring in SCORINGS]
    rows_equal(tables["tied-cells"], tied, ("scoring",), "tied-cells")


def exception_rows(tables, values, rules):
    """The rows of Exhibit G whose Max and Highest Tile cells differ, with the highest-tile rule's one move and the
    points it loses there (optimal play afterwards)."""
    best, rule = reference_play(rules, "remaining-sum"), reference_play(rules, "remaining-sum", "highest-tile")
    expected = []
    for row in move_exhibits(rules, values["tolerance"])["traditional"]:
        if row["Max Move"] == row["Highest Tile Move"]:
            continue
        board = frozenset(int(t) for t in row["Board (Remaining)"].split() if t != "-")
        outcome = int(row["Roll"]) if rules.moves == "sum" else tuple(int(d) for d in row["Roll"].split(","))
        pick = rule.move(board, outcome)
        lost = best.value(board - set(pick)) - best.value(board - set(best.move(board, outcome)))
        expected.append({"Board Id": row["Board Id"], "Roll": row["Roll"], "Max Move": row["Max Move"],
                         "Highest Tile Pick": "[" + ", ".join(map(str, pick)) + "]", "Points Lost": lost,
                         "Kind": "genuine" if lost > values["tolerance"] else "tie listing"})
    rows_equal(tables["exceptions"], expected, ("Board Id", "Roll"), "exceptions")


def expected_scores(tables, values, rules):
    full = frozenset(positions(rules))
    every = plays(rules)
    scores = {scoring: {strategy: score(rules, scoring, every[scoring, strategy].value(full))
                        for strategy in STRATEGIES} for scoring in SCORINGS}
    rows_equal(tables["expected-scores"], [{"scoring": k, **v} for k, v in scores.items()], ("scoring",),
               "expected-scores")
    losses = []
    for scoring, row in scores.items():
        loss = row["Max"] - row["Highest Tile"]
        losses.append({"scoring": scoring, "optimal": row["Max"], "highest_tile": row["Highest Tile"],
                       "worst": row["Min"], "loss": loss,
                       "loss_percent": 100 * loss / row["Max"] if row["Max"] else math.nan})
    rows_equal(tables["highest-tile-losses"], losses, ("scoring",), "highest-tile-losses")
    found = move_exhibits(rules, values["tolerance"])
    by_scoring = [{"scoring": scoring, "pairs": len(found[scoring]),
                   "max_differs_from_highest_tile": sum(r["Max Move"] != r["Highest Tile Move"]
                                                        for r in found[scoring]),
                   "max_differs_from_traditional_max": sum(r["Max Move"] != t["Max Move"] for r, t in
                                                           zip(found[scoring], found["traditional"], strict=True))}
                  for scoring in SCORINGS]
    rows_equal(tables["exceptions-by-scoring"], by_scoring, ("scoring",), "exceptions-by-scoring")


def example_board_12(tables, values, rules):
    board = frozenset((1, 2)) if rules.tiles >= 2 else frozenset(positions(rules))
    best = reference_play(rules, "remaining-sum")
    if is_won(rules, board):
        assert tables["example-board-1-2"].empty
        return
    expected = []
    for o, q in outcomes(rules, best.dice(board)).items():
        left = best.value(board - set(best.move(board, o))) if moves(rules, board, o) else total(rules, board)
        expected.append({"roll": roll_text(rules, o), "probability": q, "score_after": score(rules, "traditional",
                                                                                              left)})
    rows_equal(tables["example-board-1-2"], expected, ("roll",), "example-board-1-2")


def highest_tile_decisions(tables, values, rules):
    decision_table(tables["highest-tile-decision-losses"], rules, "remaining-sum", "highest-tile",
                   "highest-tile-decision-losses")


def nine_moves(tables, values, rules):
    best = reference_play(rules, "remaining-sum")
    full = frozenset(positions(rules))
    throws = [9] if rules.moves == "sum" else [o for o in outcomes(rules, rules.dice) if sum(o) == 9]
    expected = [{"roll": roll_text(rules, o), "move": label(rules, m), "expected_sum_after": best.value(full - set(m))}
                for o in throws for m in moves(rules, full, o)]
    rows_equal(tables["roll-9-moves"], expected, ("roll", "move"), "roll-9-moves")


# -- chapter 4 ---------------------------------------------------------------------------------------------------
def open_code(rules: Rules, tiles) -> str:
    """The source's ``Open``: the tiles' digits together, or from 10 tiles on the set written out."""
    tiles = sorted(tiles)
    return "".join(map(str, tiles)) if rules.tiles <= 9 else "{" + ", ".join(map(str, tiles)) + "}"


def source_order(rules: Rules, collection):
    return sorted(collection, key=lambda b: (len(b), sorted(b)))


def states(rules: Rules) -> list[frozenset]:
    """The states a player can face, by search (not won, reached by some rolls and moves), in the source's order."""
    from reference import reachable_states

    return source_order(rules, reachable_states(rules))


def valid_states(tables, values, rules):
    expected = [{"Open": open_code(rules, b), "StateNum": f"S{i}"} for i, b in enumerate(states(rules), 1)]
    rows_equal(tables["valid-states"], expected, ("StateNum",), "valid-states")
    valid = set(states(rules))
    others = [b for b in source_order(rules, [frozenset(c) for n in range(1, rules.tiles + 1)
                                              for c in itertools.combinations(positions(rules), n)]) if b not in valid]
    expected = [{"Open": open_code(rules, b), "reason": "won" if is_won(rules, b) else "unreachable"} for b in others]
    rows_equal(tables["exclusions"], expected, ("Open",), "exclusions")


def space_rows(rules: Rules) -> list[dict]:
    """The game space, row by row in the source's order: each state, each total its dice can show (increasing),
    each legal move (by number of tiles, then lexicographically) or one row with none; and the rival groups
    (Open as text, then the total), the redundant winning rows and Part 2's columns from the reference values."""
    win = reference_play(rules, "win")
    rows = []
    for board in states(rules):
        for total_ in sorted(faced(rules, board)):
            legal = sorted(moves(rules, board, total_), key=lambda m: (len(m), m))
            for m in legal or [None]:
                after = board - set(m) if m else board
                rows.append({"Open": open_code(rules, board), "TotalRolled": total_,
                             "Removed": open_code(rules, m) if m else "",
                             "Outcome": "Loss" if m is None else ("Win" if is_won(rules, after) else "Undetermined"),
                             "PWinAfter": win.value(after) if m else Fraction(0)})
    groups = {k: i for i, k in enumerate(sorted({(r["Open"], r["TotalRolled"]) for r in rows}), 1)}
    for number, row in enumerate(rows, 1):
        mates = [r for r in rows if (r["Open"], r["TotalRolled"]) == (row["Open"], row["TotalRolled"])]
        best = max(r["PWinAfter"] for r in mates)
        row.update(StrategyNum=number, RivalGroup=groups[row["Open"], row["TotalRolled"]], StrategyCount=len(mates),
                   Optimal=row["PWinAfter"] == best and row["Outcome"] != "Loss",
                   Decisive=len({r["PWinAfter"] for r in mates}) > 1,
                   Redundant=row["Outcome"] == "Win" and any(r["Outcome"] == "Win" for r in mates[:mates.index(row)]))
    return rows


def game_space(tables, values, rules):
    rows = space_rows(rules)
    rows_equal(tables["GameSpace-part2"], rows, ("StrategyNum",), "GameSpace-part2")
    kept = [{k: r[k] for k in ("StrategyNum", "Open", "TotalRolled", "Removed", "Outcome", "RivalGroup",
                               "StrategyCount")} for r in rows if not r["Redundant"]]
    rows_equal(tables["GameSpace"], kept, ("StrategyNum",), "GameSpace")
    chosen = [{k: r[k] for k in ("StrategyNum", "Open", "TotalRolled", "Removed", "PWinAfter")} for r in rows
              if r["Decisive"] and r["Optimal"]]
    for row in chosen:  # how many optimal moves the row's (state, roll) has
        row["OptimalMoves"] = sum((c["Open"], c["TotalRolled"]) == (row["Open"], row["TotalRolled"]) for c in chosen)
    rows_equal(tables["optimal-strategy"], chosen, ("StrategyNum",), "optimal-strategy")


def by_threshold(tables, values, rules):
    table = tables["win-probability-by-threshold"]
    previous = None
    for row in table.itertuples():
        value = reference_value(replace(rules, win_at_most=int(row.win_at_most)), "win")
        assert same(row.p_win, value), row.win_at_most
        assert same(row.change, 0 if previous is None else value - previous), row.win_at_most
        previous = value
    assert rules.win_at_most in set(table["win_at_most"])


# -- chapter 5 ---------------------------------------------------------------------------------------------------
def r_order(found) -> list:
    """Moves as the source's R code lists them: by number of tiles, then lexicographically."""
    return sorted(found, key=lambda m: (len(m), m))


def first_best(play, board: frozenset, found, sense: int):
    """The source's ``optimal_action``: the first move in R's order among the best for the objective."""
    return min(r_order(found), key=lambda m: -sense * play.value(board - set(m)))


def exact_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def board_values(tables, values, rules):
    cost = reference_play(rules, "remaining-sum")
    full = frozenset(positions(rules))
    chosen = [full] + [frozenset(b) for b in ((8,), (2, 6), (1, 8), (4, 5)) if max(b) <= rules.tiles]
    expected = [{"board": label(rules, b), "value": cost.value(b), "exact": exact_text(cost.value(b))}
                for b in dict.fromkeys(chosen)]
    rows_equal(tables["board-values"], expected, ("board",), "board-values")


def example_action(tables, values, rules):
    cost = reference_play(rules, "remaining-sum")
    five = frozenset(range(1, min(5, rules.tiles) + 1))
    row = {"board": label(rules, five), "open_sum": total(rules, five), "won": is_won(rules, five),
           "dice": " or ".join(map(str, sorted(dice_options(rules, five)))),
           "can_roll_8": 8 in faced(rules, five)}
    rows_equal(tables["example-board"], [row], ("board",), "example-board")
    if "example-actions" in tables:
        expected = [{"action": label(rules, m), "value_after": cost.value(five - set(m))}
                    for m in r_order(moves(rules, five, 8))]
        rows_equal(tables["example-actions"], expected, ("action",), "example-actions")


def policy_rows(rules: Rules) -> list[dict]:
    cost, reached = reference_play(rules, "remaining-sum"), boards_reached(rules)
    return [{"label": label(rules, b), "value": cost.value(b), "state_average": Fraction(sum(b), len(b)),
             "tiles_open": len(b), "reached": b in reached} for b in boards(rules) if b]


def policy_table(tables, values, rules):
    rows = policy_rows(rules)
    rows_equal(tables["policy-table"], rows, ("label",), "policy-table")
    ordered = sorted(source_order(rules, [frozenset(int(t) for t in r["label"].strip("{}").split(", "))
                                          for r in rows]), key=lambda b: -reference_play(
        rules, "remaining-sum").value(b))[:6]
    from stb_core.sources.expected_cost import highest_cost_states  # the notebook's table, from the checked one

    got = highest_cost_states(tables["policy-table"])
    assert list(got["label"]) == [label(rules, b) for b in ordered], list(got["label"])


def largest_tile_exceptions(tables, values, rules):
    cost = reference_play(rules, "remaining-sum")
    expected = []
    for board in source_order(rules, [b for b in boards(rules) if b and not is_won(rules, b)]):
        for roll in sorted(faced(rules, board)):
            found = r_order(moves(rules, board, roll))
            if not found:
                continue
            best = first_best(cost, board, found, -1)
            largest = max(max(m) for m in found)
            if max(best) == largest:
                continue
            with_largest = first_best(cost, board, [m for m in found if largest in m], -1)
            expected.append({"state": label(rules, board), "dice_total": roll,
                             "valid_actions": "; ".join(label(rules, m) for m in found),
                             "optimal_action": label(rules, best), "value_after_optimal": cost.value(board - set(best)),
                             "largest_tile_action": label(rules, with_largest),
                             "value_after_largest_tile_action": cost.value(board - set(with_largest))})
    rows_equal(tables["largest-tile-exceptions"], expected, ("state", "dice_total"), "largest-tile-exceptions")


def played_turns(table: pd.DataFrame, rules: Rules, play, what: str, rolls=None) -> None:
    """A game turn by turn: each turn starts where the last left off, rolls dice the board may roll (or, for the
    source's own rolls, the next of them), plays the policy's move for the roll (none where none is legal) and
    ends there; the game stops once won or stuck."""
    board = frozenset(positions(rules))
    for i, row in enumerate(table.itertuples()):
        assert not is_won(rules, board), (what, i)
        assert row.open == label(rules, board), (what, i, row.open)
        roll = int(row.roll)
        if rolls is not None:
            assert roll == rolls[i], (what, i)
        assert roll in faced(rules, board), (what, i, roll)
        chosen = play.move(board, roll)
        assert as_text(row.move) == (label(rules, chosen) if chosen else "nan"), (what, i, row.move, chosen)
        if chosen is None:
            assert i == len(table) - 1, what
            return
        board = board - set(chosen)
        assert row.open_after == label(rules, board), (what, i)
    assert is_won(rules, board) or rolls is not None, what


def narrated_games(tables, values, rules):
    cost = reference_play(rules, "remaining-sum")
    played_turns(tables["narrated-game"], rules, cost, "narrated-game")
    if "source-game-replayed" in tables:
        played_turns(tables["source-game-replayed"], rules, cost, "source-game-replayed", [8, 10, 6, 11, 3, 7])


def one_four_five_eight(tables, values, rules):
    cost, win = reference_play(rules, "remaining-sum"), reference_play(rules, "win")
    expected = [{"board": label(rules, b), "cost": cost.value(b), "p_win": win.value(b),
                 "p_win_exact": exact_text(win.value(b))} for b in (frozenset({1, 8}), frozenset({4, 5}))]
    rows_equal(tables["one-four-five-eight"], expected, ("board",), "one-four-five-eight")
    board = frozenset({1, 4, 5, 8})
    found = moves(rules, board, 9)
    picks = list(tables["one-four-five-eight-choice"]["shuts"])
    assert picks == [label(rules, first_best(cost, board, found, -1)), label(rules, first_best(win, board, found, 1))]
    ties = [play.value(frozenset({1, 8})) == play.value(frozenset({4, 5})) for play in (cost, win)]
    assert list(tables["one-four-five-eight-choice"]["other_move"]) == \
        ["as good (a tie)" if tie else "worse" for tie in ties]
    if "hand-arithmetic" in tables:
        exact = win.value(frozenset({4, 5}))
        got = tables["hand-arithmetic"].set_index("what")
        assert same(got.loc["exact", "p_win"], exact) and got.loc["exact", "exact"] == exact_text(exact)
        formula = Fraction(3, 36) ** 2 + Fraction(4, 36) ** 2 + Fraction(4, 36)  # the source's, as written
        assert same(got.loc["the source's formula", "p_win"], formula)


def advice(tables, values, rules):
    best = reference_value(rules, "remaining-sum")
    rule = reference_value(rules, "remaining-sum", "highest-tile")
    expected = [{"play": "optimal play", "expected_sum_left": best, "more_than_optimal": 0},
                {"play": "fewer tiles, higher numbers first", "expected_sum_left": rule,
                 "more_than_optimal": rule - best, "percent_more": 100 * (rule - best) / best if best else 0}]
    rows_equal(tables["advice"], expected, ("play",), "advice")


# -- chapter 6 ---------------------------------------------------------------------------------------------------
VARIANT_RULES = {"all-dice": {}, "high-shut": {"one_die": "high-shut"}, "pub-allowed": {"one_die": "sum-le-6"},
                 "pub-forced": {"one_die": "sum-le-6", "one_die_forced": True},
                 "two-per-roll": {"max_per_move": 2, "one_die": "sum-le-6"}, "won-at-3": {"win_at_most": 3}}
PLAIN = {"one_die": "never", "one_die_forced": False, "max_per_move": None, "win_at_most": 0}


def variant(rules: Rules, key: str, tiles: int | None = None) -> Rules:
    """A chapter 6 variant as its name states it, on the run's board, dice and move rule ("this-run": the run's
    rules as they are)."""
    if key == "this-run":
        return replace(rules, tiles=tiles or rules.tiles)
    return replace(rules, **{**PLAIN, **VARIANT_RULES[key]}, tiles=tiles or rules.tiles)


def names_of(rules: Rules, found) -> list[str]:
    return [tile_name(rules, t) for t in found]


def card_line(rules: Rules, line: str):
    """A strategy card's line as its words say, a key of (board, move) -- larger preferred: of the move itself, or
    of the board it leaves; "playable" counts the throws (or the totals) of all the dice that leave some move."""
    def throws(left):
        return sum(int(q * rules.sides**rules.dice) for o, q in outcomes(rules, rules.dice).items()
                   if moves(rules, left, o))

    def ways(left):
        if rules.moves != "sum":
            return sum(int(q * rules.sides**rules.dice) for o, q in outcomes(rules, rules.dice).items()
                       if sum(o) == total(rules, left))
        return int(outcomes(rules, rules.dice).get(total(rules, left), 0) * rules.sides**rules.dice)

    by_move = {
        "shut the fewest tiles": lambda m: -len(m), "shut the most tiles": lambda m: len(m),
        "shut the highest tile you can": lambda m: max(value_of(rules, t) for t in m),
        "shut the lowest tile you can": lambda m: -min(value_of(rules, t) for t in m),
        "shut tiles close together": lambda m: -(max(value_of(rules, t) for t in m) -
                                                 min(value_of(rules, t) for t in m)),
        "keep 6, 7 and 8 open": lambda m: -sum(n in ("6", "7", "8") for n in names_of(rules, m)),
        "shut tiles above 6 first": lambda m: sum(value_of(rules, t) > 6 for t in m),
        "keep 1 and 2 open": lambda m: -sum(n in ("1", "2") for n in names_of(rules, m)),
    }
    by_left = {
        "leave the most rolls playable": throws,
        "leave the most totals makeable": lambda left: sum(bool(moves(rules, left, o))
                                                           for o in outcomes(rules, rules.dice)),
        "leave a sum the dice roll often": ways,
        "leave an even sum": lambda left: total(rules, left) % 2 == 0,
    }
    if line in by_move:
        return lambda board, m: by_move[line](m)
    return lambda board, m: by_left[line](board - set(m))


DICE_LINES = {"roll one die when you may": "one", "roll one die when 6 or less is left": "le6"}


def card_policy(rules: Rules, card: str):
    """A card as a policy function and a dice rule: its move lines ranking the legal moves in order (then the lowest
    tiles first), its dice line choosing the dice (none: all the dice)."""
    lines = card.split("; then ")
    keys = [card_line(rules, line) for line in lines if line not in DICE_LINES]

    def play(open_tiles, roll, options):
        board = frozenset(open_tiles)
        return min(options, key=lambda m: (tuple(-k(board, m) for k in keys), tuple(sorted(m))))

    return play, next((DICE_LINES[line] for line in lines if line in DICE_LINES), "all")


def card_play(rules: Rules, objective: str, card: str):
    play, dice = card_policy(rules, card)
    return reference_play(rules, objective, play, dice_rule=dice)


PRICED = {"optimal": "optimal", "highest-tile": "highest-tile", "sequence-count": "sequence-count",
          "random": "random", "worst": "worst"}


def priced(rules: Rules, objective: str, policy: str):
    if policy == "highest tile you can":
        return card_play(rules, objective, "shut the highest tile you can").value(frozenset(positions(rules)))
    return reference_value(rules, objective, PRICED[policy])


def prices_rows(rules: Rules, policies, objectives) -> list[dict]:
    rows = []
    for objective in objectives:
        best = reference_value(rules, objective)
        for policy in policies:
            value = priced(rules, objective, policy)
            loss = objective_sense(objective) * (best - value)
            rows.append({"objective": objective, "policy": policy, "value": value, "optimal_value": best,
                         "loss": loss, "loss_percent": 100 * loss / abs(best) if best else 0})
    return rows


def variant_keys(rules: Rules) -> list[str]:
    """Every variant the sources name, and the run's own rules when they are none of them."""
    return [*VARIANT_RULES, *(() if any(variant(rules, k, rules.tiles) == rules for k in VARIANT_RULES)
                              else ("this-run",))]


def variants(tables, values, rules):
    """Every variant the sources name, and the run's own rules as a row of its own when they are none of them."""
    keys = variant_keys(rules)
    expected = [{"variant": key, "tiles": n, "objective": o, "policy": p,
                 "value": reference_value(variant(rules, key, n), o, p)}
                for key in keys for n in dict.fromkeys((rules.tiles, values["compare_tiles"]))
                if len(positions(replace(rules, tiles=n))) <= SMALL
                for o in ("win", "remaining-sum", "flipped-count") for p in ("optimal", "worst")]
    table = tables["variants"]
    small_rows = table[[len(positions(replace(rules, tiles=int(n)))) <= SMALL for n in table["tiles"]]]
    rows_equal(small_rows, expected, ("variant", "tiles", "objective", "policy"), "variants")


def policy_prices(tables, values, rules):
    rows_equal(tables["policy-prices"], prices_rows(rules, ("optimal", "highest-tile", "highest tile you can",
                                                            "sequence-count", "random", "worst"),
                                                    ("win", "remaining-sum", "flipped-count")),
               ("objective", "policy"), "policy-prices")
    ten = replace(rules, **PLAIN, tiles=10, layout="row", moves="sum")
    if rules.sides**rules.dice <= 144:
        rows_equal(tables["source-000-gap"], prices_rows(ten, ("optimal", "sequence-count", "highest-tile", "random"),
                                                         ("win",)), ("policy",), "source-000-gap")


def mistakes(tables, values, rules):
    decision_table(tables["decision-losses"], rules, "win", "highest-tile", "decision-losses", costly_only=False)
    expected = []
    for policy in ("highest-tile", "highest tile you can", "sequence-count", "random"):
        play, dice = card_policy(rules, "shut the highest tile you can") if policy == "highest tile you can" else \
            (policy, None)
        rows = decision_losses(rules, "win", play, dice_rule=dice)
        costly = sorted((r for r in rows if not math.isclose(float(r["loss"]), 0, abs_tol=1e-12)),
                        key=lambda r: -r["reach"] * r["p_roll"] * r["loss"])
        whole = sum(r["reach"] * r["p_roll"] * r["loss"] for r in rows)
        expected.append({"total_loss": whole, "decisions_faced": sum(r["options"] > 1 for r in rows),
                         "costly_decisions": len(costly),
                         "share_of_loss_in_top_10": sum(r["reach"] * r["p_roll"] * r["loss"] for r in costly[:10]) /
                         whole if whole else 0})
    got = tables["heuristic-losses"]
    assert len(got) == len(expected)
    for row, want in zip(got.to_dict("records"), expected, strict=True):
        for column, value in want.items():
            assert same(row[column], value), (row["policy"], column, row[column], value)


def strategy_cards(tables, values, rules):
    """A sample of the cards (one row in fifty, and every card of the fronts), each valued by the reference
    playing its lines as their words say."""
    table = tables["strategy-cards"]
    front = set(tables["card-front"]["card"]) | set(tables["card-front-target"]["card"])
    sample = table[(table.index % 50 == 0) | table["card"].isin(front)]
    for row in sample.itertuples():
        if row.objective not in ("win", "remaining-sum", "flipped-count"):
            continue
        value = card_play(rules, row.objective, row.card).value(frozenset(positions(rules)))
        assert same(row.value, value), (row.card, row.objective, row.value, float(value))
        assert same(row.optimal_value, reference_value(rules, row.objective)), row.objective


def card_against_highest(tables, values, rules):
    card = tables["card-vs-highest-tile"]["card"].iloc[0]
    ours = card_play(rules, values["card_objective"], card)
    rule = reference_play(rules, values["card_objective"], "highest-tile")
    facing = reachable_states(rules)  # the boards a player can face: reached from the full board, still in play
    differ = sum(ours.move(b, o) != rule.move(b, o) for b in facing for o in faced(rules, b) if moves(rules, b, o))
    assert int(tables["card-vs-highest-tile"]["pairs_playing_differently"].iloc[0]) == differ
    ours, rule = card_play(rules, "win", card), reference_play(rules, "win", "highest-tile")  # their dice for the win
    dice = sum(ours.dice(b) != rule.dice(b) for b in facing)
    assert int(tables["card-vs-highest-tile"]["boards_rolling_other_dice"].iloc[0]) == dice


def disagreements(tables, values, rules):
    win, low, high = (reference_play(rules, "win"), reference_play(rules, "remaining-sum"),
                      reference_play(rules, "win", "highest-tile"))
    pairs = [(b, o) for b in sorted(reachable_states(rules), key=sorted) for o in faced(rules, b)
             if len(moves(rules, b, o)) >= 2]  # the pairs a player can face
    rows, stakes = [], []
    for name, other in (("sum-optimal move", low), ("highest-tile move", high)):
        losses = []
        for b, o in pairs:
            a, m = win.move(b, o), other.move(b, o)
            loss = win.value(b - set(a)) - win.value(b - set(m))
            if loss > 0:
                losses.append(loss)
                if name == "sum-optimal move":
                    stakes.append({"board": label(rules, b), "roll": roll_text(rules, o), "move_a": label(rules, a),
                                   "move_b": label(rules, m), "loss_for_a": loss,
                                   "loss_for_b": low.value(b - set(a)) - low.value(b - set(m))})
        rows.append({"compared with": name, "pairs with a choice": len(pairs),
                     "pairs where it costs the win": len(losses), "largest loss of win probability": max(losses,
                                                                                                      default=0)})
    rows_equal(tables["disagreements"], rows, ("compared with",), "disagreements")
    rows_equal(tables["win-vs-sum-stakes"], stakes, ("board", "roll"), "win-vs-sum-stakes")


def final_sums(rules: Rules, objective: str, tie_break: str = "canonical") -> dict[int, Fraction]:
    """The chance of each final score (the sum left; on Double Shutter the front row counts double)."""
    _, ends, _ = forward(reference_play(rules, objective, tie_break=tie_break))
    found = {}
    for board, p in ends.items():
        left = int(utility("remaining-sum", rules, board))
        found[left] = found.get(left, 0) + p
    return found


def endings(tables, values, rules):
    expected = []
    for key in variant_keys(rules):
        game = variant(rules, key)
        dist = final_sums(game, "remaining-sum")
        expected += [{"variant": key, "final_sum": s_, "probability": dist.get(s_, 0)}
                     for s_ in range(int(utility("remaining-sum", game, frozenset(positions(game)))) + 1)]
    rows_equal(tables["final-sum-distribution"], expected, ("variant", "final_sum"), "final-sum-distribution")


def tied_pairs(rules: Rules, objective: str) -> int:
    """How many (board, roll) pairs a player can face (reached from the full board, still in play) have two or more
    moves exactly as good for ``objective``, by the reference's exact values."""
    play, sense, tied = reference_play(rules, objective), objective_sense(objective), 0
    for b in reachable_states(rules):
        for o in faced(rules, b):
            after = [play.value(b - set(m)) for m in moves(rules, b, o)]
            tied += len(after) >= 2 and after.count(sense * max(sense * a for a in after)) >= 2
    return tied


def ties(tables, values, rules):
    expected = []
    for objective in ("win", "remaining-sum", "flipped-count"):
        tied = tied_pairs(rules, objective)
        value = reference_value(rules, objective)
        expected.append({"objective": objective, "tied_pairs": tied, "value_canonical": value,
                         "value_fewest-tiles": value, "value_most-tiles": value, "value_random": value})
    rows_equal(tables["tie-breaks"], expected, ("objective",), "tie-breaks")
    spread = tables["tie-break-spread"].set_index("final_sum")
    dists = {t: final_sums(rules, "win", t) for t in ("canonical", "fewest-tiles", "most-tiles", "random")}
    for s_ in spread.index:
        for t, dist in dists.items():
            assert same(spread.loc[s_, t], dist.get(int(s_), 0)), (t, s_)


def openings(tables, values, rules):
    expected = []
    full = frozenset(positions(rules))
    for objective in ("win", "remaining-sum"):
        if is_won(rules, full):
            continue
        play, sense = reference_play(rules, objective), objective_sense(objective)
        for o in sorted(faced(rules, full)):
            found = moves(rules, full, o)
            if not found:
                continue
            ranked = sorted(found, key=lambda m: (-sense * play.value(full - set(m)), tuple(sorted(m))))
            best = play.value(full - set(ranked[0]))
            row = {"objective": objective, "roll": roll_text(rules, o), "best_move": label(rules, ranked[0]),
                   "value_after": best, "legal_moves": len(found),
                   "best_moves": sum(play.value(full - set(m)) == best for m in found)}
            if len(ranked) > 1:
                row.update(runner_up=label(rules, ranked[1]), runner_up_value=play.value(full - set(ranked[1])))
            expected.append(row)
    rows_equal(tables["opening-moves"], expected, ("objective", "roll"), "opening-moves")


def dice_advice(tables, values, rules):
    chosen = rules if (rules.one_die != "never" and rules.dice > 1 and not rules.one_die_forced) else \
        replace(rules, one_die="sum-le-6", one_die_forced=False)  # the run's game, one die allowed at 6 or less
    play = reference_play(chosen, "win")
    count = {2: "two", 3: "three", 4: "four"}.get(chosen.dice)
    expected = []
    for board in choosing_boards(chosen):
        got = dice_values(chosen, board, play)
        one, every = got[1], got[chosen.dice]
        best = ("either" if one == every else "one die" if one > every else
                f"{count} {'' if chosen.sides == 6 else f'{chosen.sides}-sided '}dice")
        expected.append({"board": label(chosen, board), "open_sum": total(chosen, board), "value_one_die": one,
                         "value_all_dice": every, "best": best, "gain": abs(one - every)})
    rows_equal(tables["dice-advice"], expected, ("board",), "dice-advice")


def more_tiles(tables, values, rules):
    for row in tables["more-tiles"].itertuples():
        game = replace(rules, tiles=int(row.tiles), dice=int(row.dice))
        if len(positions(game)) > SMALL:
            continue
        assert same(row.p_win, reference_value(game, "win")), row
        assert same(row.expected_remaining_sum, reference_value(game, "remaining-sum")), row
        assert same(row.expected_tiles_shut, reference_value(game, "flipped-count")), row


# -- chapter 7 ---------------------------------------------------------------------------------------------------
PUB_SMALL = 4  # tiles in all up to which the pub game's game-tree recursion is run (it expands every seat's turn)


def pub_round(rules: Rules, players: int, scoring: str, shut_pays) -> dict:
    from reference_players import reference_round

    return reference_round(rules, players, scoring, Fraction(shut_pays).limit_denominator(10**6))


def pub_seats(tables, values, rules):
    if len(positions(rules)) > PUB_SMALL:
        return
    if values["players"] <= 3:
        found = pub_round(rules, values["players"], values["scoring"], values["shut_pays"])
        expected = [{"seat": i + 1, "expected_payoff": found["expected_payoff"][i], "p_win": found["p_win"][i],
                     "p_shut": found["p_shut"][i], "p_split_pot": found["p_tie"]} for i in range(values["players"])]
        rows_equal(tables["seats"], expected, ("seat",), "seats")
    by_players = tables["seats-by-players"]
    for n in sorted(set(by_players["players"])):
        if n > 3:
            continue
        found = pub_round(rules, int(n), values["scoring"], values["shut_pays"])
        expected = [{"seat": i + 1, "players": n, "expected_payoff": found["expected_payoff"][i],
                     "p_win": found["p_win"][i], "p_shut": found["p_shut"][i]} for i in range(int(n))]
        rows_equal(by_players[by_players["players"] == n], expected, ("seat",), f"seats-by-players, {n}")


def fair_bonus(tables, values, rules):
    """Where a fair bonus is found exactly, the first seat's expected winnings at that bonus are zero; where no box is
    ever shut (no bonus found, none paid), "exactly even" says whether seat 1's winnings, whatever the bonus, are."""
    if len(positions(rules)) > PUB_SMALL:
        return
    for row in tables["fair-bonus"].itertuples():
        never = row.games_solved == 0  # no box is ever shut: the bonus changes nothing
        if row.players > 3 or not (never or row.found and row.exactly_even):
            continue
        found = pub_round(rules, int(row.players), row.scoring, 0 if never else row.fair_shut_pays)
        assert (abs(float(found["expected_payoff"][0])) < 1e-6) == bool(row.exactly_even), row


# -- chapter 8 ---------------------------------------------------------------------------------------------------
PRINTED_VARIANTS = {  # what each variant's name states, on the run's tiles, dice, sides, cap and threshold
    "classic": {}, "less-than-6": {"one_die": "sum-le-5"}, "pub": {"one_die": "sum-le-6"},
    "any-time": {"one_die": "sum-le-300"}, "thai": {"moves": "die-or-sum"},
    "double-shutter": {"layout": "double-shutter", "one_die": "sum-le-6"}}


def printed_variant(rules: Rules, key: str) -> Rules:
    spec = {"layout": "row", "moves": "sum", "one_die": "never", "one_die_forced": False, **PRINTED_VARIANTS[key]}
    if key == "thai":
        spec["dice"] = min(rules.dice, 2)
    if key == "double-shutter":
        spec["tiles"] = min(rules.tiles, 10)
    return replace(rules, **spec)


def mean_rolls(play) -> Fraction:
    _, _, rolls = forward(play)
    return sum(k * p for k, p in rolls.items())


def printed_variants(tables, values, rules):
    expected = []
    for key in PRINTED_VARIANTS:
        game = printed_variant(rules, key)
        if len(positions(game)) > SMALL:
            continue
        win = reference_play(game, "win")
        full = frozenset(positions(game))
        row = {"variant": key, "p_win": win.value(full), "expected_score": reference_value(game, "remaining-sum"),
               "expected_rolls": mean_rolls(win)}
        if game.layout == "row" and game.tiles <= 12:
            row["expected_digits"] = reference_value(game, "digits")
        expected.append(row)
    table = tables["variants"]
    rows_equal(table[table["variant"].isin([r["variant"] for r in expected])], expected, ("variant",), "variants")


HEURISTICS = ("optimal", "largest-tile", "highest-tile", "fewest-tiles", "most-tiles", "lowest-tile", "most-options",
              "random", "worst")


def heuristics(tables, values, rules):
    best_win, best_sum = reference_value(rules, "win"), reference_value(rules, "remaining-sum")
    expected = []
    for name in HEURISTICS:
        win = reference_play(rules, "win", name)
        w, v = win.value(frozenset(positions(rules))), reference_value(rules, "remaining-sum", name)
        expected.append({"policy": name, "p_win": w, "win_loss_percent": 100 * (best_win - w) / best_win if best_win
                         else 0, "expected_remaining_sum": v,
                         "sum_loss_percent": 100 * (v - best_sum) / best_sum if best_sum else 0,
                         "expected_rolls": mean_rolls(win)})
    places = sorted({row["p_win"] for row in expected}, reverse=True)  # equal exact chances share a place
    for row in expected:
        row["win_rank"] = places.index(row["p_win"]) + 1
    rows_equal(tables["heuristics"], expected, ("policy",), "heuristics")


def roll_counts(tables, values, rules):
    expected = []
    for name in ("optimal", "largest-tile", "random"):
        _, ends, rolls = forward(reference_play(rules, "win", name))
        won = sum(p for board, p in ends.items() if is_won(rules, board))
        expected += [{"policy": name, "rolls": k, "probability": p, "p_win": won}
                     for k, p in sorted(rolls.items()) if p]
    table = tables["roll-counts"]
    rows_equal(table[table["probability"] > 0], expected, ("policy", "rolls"), "roll-counts")


def open_after_rolls(play, rolls: int) -> list[dict]:
    """The chance each tile is still open after each number of rolls, a game that has ended keeping its board."""
    rules = play.rules
    now = {(frozenset(positions(rules)), False): Fraction(1)}  # (board, game over): chance
    out = []
    for _ in range(rolls + 1):
        out.append({t: sum(p for (b, _), p in now.items() if t in b) for t in positions(rules)})
        later = {}
        for (board, over), p in now.items():
            if over or is_won(rules, board):
                later[board, True] = later.get((board, True), 0) + p
                continue
            for o, q in outcomes(rules, play.dice(board)).items():
                chosen = play.chances(board, o)
                if not chosen:  # stuck: the game ends on this board
                    later[board, True] = later.get((board, True), 0) + p * q
                for m, c in chosen.items():
                    after = board - set(m)
                    later[after, False] = later.get((after, False), 0) + p * q * c
        now = later
    return out


def tiles_open(tables, values, rules):
    table = tables["tiles-open"]
    found = open_after_rolls(reference_play(rules, "win"), int(table["rolls"].max()))
    expected = [{"rolls": k, "position": t, "tile": tile_name(rules, t), "p_open": row[t]}
                for k, row in enumerate(found) for t in positions(rules)]
    rows_equal(table, expected, ("rolls", "position"), "tiles-open")


# -- chapter 9 ---------------------------------------------------------------------------------------------------
PLAYERS = ("optimal", "highest-tile", "largest-tile", "fewest-tiles", "most-tiles", "lowest-tile", "random", "worst")
GRADE_AT = {"win": (Fraction(1, 1000), Fraction(5, 1000), Fraction(20, 1000)),
            "remaining-sum": (Fraction(1, 4), Fraction(1), Fraction(3))}  # inaccuracy, mistake, blunder at least


def bounds(tables, values, rules):
    table = tables["bounds"]
    played = table[table["play"] != "hindsight"]
    rows_equal(played, [{"play": p, "value": reference_value(rules, values["objective"], p)} for p in PLAYERS],
               ("play",), "bounds")


def example_game(tables, values, rules):
    """Each turn of the example game: the board, the dice it may roll, the roll, and its luck (the value after the
    best move for the roll, less the value of rolling those dice) and loss (the dice given up, and the move's value
    against the best's), graded by the report's thresholds; the value after the turn."""
    objective = values["objective"]
    best = reference_play(rules, objective)
    sense = objective_sense(objective)
    table = tables["example-game"]
    board = frozenset(positions(rules))

    def q(at, o):
        found = moves(rules, at, o)
        return max((best.value(at - set(m)) for m in found), key=lambda v: sense * v) if found else \
            utility(objective, rules, at)

    for row in table.itertuples():
        assert row.open == label(rules, board), row
        dice = int(row.dice)
        assert dice in dice_options(rules, board), row
        o = int(row.roll) if rules.moves == "sum" else tuple(sorted(int(d) for d in str(row.roll).split(",")))
        rolled = sum(p * q(board, x) for x, p in outcomes(rules, dice).items())
        best_dice = max((sum(p * q(board, x) for x, p in outcomes(rules, d).items()) for d in dice_options(
            rules, board)), key=lambda v: sense * v)
        found = moves(rules, board, o)
        chosen = next((m for m in found if label(rules, m) == row.played), None)
        assert (chosen is None) == (not found), row
        after = board - set(chosen) if chosen else board
        value_after = best.value(after) if chosen else utility(objective, rules, board)
        loss = sense * (best_dice - rolled) + sense * (q(board, o) - value_after)
        grade = sum(loss >= at for at in GRADE_AT[objective])
        assert same(row.luck, sense * (q(board, o) - rolled)), row
        assert same(row.loss, loss), row
        assert same(row.value_after, value_after), row
        assert row.grade == (["best", "good", "inaccuracy", "mistake", "blunder"][1 + grade] if loss else "best"), row
        board = after


DERIVED = "derived from tables checked cell by cell here"
SIMULATED = "a simulation: the chapter's own checks hold it to its exact value's interval"
OTHER_GAMES = "the sources' printed figures, each from its own game, whatever the run: checked in the default report"
CHECKS = "the checks against the sources: their own figures, compared by the verdict rule's tests"

def two_games(tables, values, rules):
    """The no-stakes game (who finishes lower; a tie is no win): the second player, facing a first score ``t``,
    plays to finish below it; the first plays to leave a score the second most often fails to beat. Both by plain
    recursion over the reference's moves and dice, scores as the game counts them (a Double Shutter's front row
    double); equally good moves and dice: the first in the reference's order, as the engine's canonical tie-break."""
    if len(positions(rules)) > SMALL or "two-games" not in tables:
        return
    full = frozenset(positions(rules))

    def score(board) -> Fraction:
        return utility("remaining-sum", rules, board)

    def best(outcome_of_end):
        @functools.cache
        def value(board):
            if is_won(rules, board):
                return outcome_of_end(board)
            found = None
            for dice in dice_options(rules, board):
                total = (Fraction(0),) * 3
                for o, p in outcomes(rules, dice).items():
                    after = [value(board - set(m)) for m in moves(rules, board, o)]
                    end = max(after, key=lambda v: v[0]) if after else outcome_of_end(board)
                    total = tuple(a + p * b for a, b in zip(total, end, strict=True))
                if found is None or total[0] > found[0]:
                    found = total
            return found
        return value(full)

    @functools.cache
    def second(target):  # (the second finishes below, level, above)
        return best(lambda b: (Fraction(int(score(b) < target)), Fraction(int(score(b) == target)),
                               Fraction(int(score(b) > target))))

    first = best(lambda b: (second(score(b))[2], second(score(b))[1], second(score(b))[0]))
    row = tables["two-games"].iloc[0]
    assert [same(row[c], v) for c, v in zip(("first_wins", "tie", "second_wins"), first, strict=True)] == [True] * 3, \
        ("two-games", list(row), [float(v) for v in first])


def risk_frontier(tables, values, rules):
    """The float frontier's corners are the plain reference's (:mod:`reference_frontier`, exact), each to 1e-9: every
    corner shown is a reference corner, and a reference corner not shown lies on an edge shown to within 1e-9 (a
    float run merges what rounding cannot tell apart, as the page says); each edge's price is the corners' own, to
    what their printed digits can tell."""
    from reference_frontier import reference_frontier

    table = tables["risk-frontier"]
    shown = list(zip(table["p_win"], table["expected_remaining_sum"], strict=True))
    exact = [(float(p), float(e)) for p, e in reference_frontier(rules)]
    close = lambda a, b: abs(a[0] - b[0]) <= 1e-9 and abs(a[1] - b[1]) <= 1e-9 * max(1, abs(b[1]))  # noqa: E731
    assert all(any(close(c, e) for e in exact) for c in shown), ("risk-frontier", shown, exact)
    for e in exact:
        if not any(close(c, e) for c in shown):
            assert any(_on_segment(e, a, b) for a, b in zip(shown, shown[1:], strict=False)), ("risk-frontier", e)
    for i in range(len(shown) - 1):  # to what the two corners' printed digits can tell (a ratio of close values)
        (p, e), (q, f) = shown[i], shown[i + 1]
        price = (e - f) / (p - q) / 100  # the CSV keeps 14 significant digits of each value
        slack = 1e-14 * (abs(e) + abs(f) + 100 * abs(price) * (abs(p) + abs(q))) / abs(p - q) / 100
        assert abs(table["points_per_pp"][i] - price) <= 1e-9 * abs(price) + slack, ("risk-frontier price", i)


def _on_segment(point, a, b) -> bool:
    """Whether ``point`` lies on the segment from ``a`` to ``b`` (win, sum) to within 1e-9."""
    share = (a[0] - point[0]) / (a[0] - b[0]) if a[0] != b[0] else 0.0
    return -1e-9 <= share <= 1 + 1e-9 and abs(a[1] + share * (b[1] - a[1]) - point[1]) <= 1e-9 * max(1, abs(point[1]))


def frontier_thumbs(tables, values, rules):
    """Each rule of thumb's chance of winning and expected sum left, its dice chosen for the win, followed forward by
    the plain solver; what it gives up, against the reference frontier, at its own sum and at its own chance."""
    from reference_frontier import reference_frontier

    corners = [(float(p), -float(e)) for p, e in reference_frontier(rules)]
    expected = []
    for policy in tables["frontier-rules-of-thumb"]["policy"]:
        _, ends, _ = forward(reference_play(rules, "win", policy))
        p = float(sum(q for board, q in ends.items() if is_won(rules, board)))
        e = float(sum(q * utility("remaining-sum", rules, board) for board, q in ends.items()))
        win = _frontier_at(corners, -e) - p
        more = e + _frontier_at([(b, a) for a, b in corners], p)
        expected.append({"policy": policy, "p_win": p, "expected_remaining_sum": e, "win_given_up": win,
                         "sum_given_up": more})
    rows_equal(tables["frontier-rules-of-thumb"], expected, ("policy",), "frontier-rules-of-thumb")


def _frontier_at(corners, level):
    """The most of the first coordinate a mix of ``corners`` reaches with the second at least ``level``."""
    ordered = sorted(corners, key=lambda c: c[1])
    if level <= ordered[0][1]:
        return ordered[0][0]
    for a, b in zip(ordered, ordered[1:], strict=False):
        if level <= b[1]:
            return a[0] + (level - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
    return ordered[-1][0]


def seat_costs(tables, values, rules):
    """Each seat's winnings with a fixed way of playing, every other seat for the stakes, by the game-tree
    recursion with that seat's play (``reference_play``), against its winnings playing for the stakes."""
    if len(positions(rules)) > PUB_SMALL or values["players"] > 3:
        return
    from reference_players import reference_round

    scoring, bonus = values["scoring"], Fraction(values["shut_pays"]).limit_denominator(10**6)
    solo = {"sum": "remaining-sum", "digits": "digits"}[scoring]
    base = reference_round(rules, values["players"], scoring, bonus)["expected_payoff"]
    expected = []
    for row in tables["seat-costs"].itertuples():
        play = (row.play, "optimal") if row.play in ("win", "remaining-sum", "digits", "flipped-count") else \
            (solo, row.play)
        found = reference_round(rules, values["players"], scoring, bonus, {row.seat: play})
        payoff = found["expected_payoff"][row.seat - 1]
        expected.append({"seat": row.seat, "play": row.play, "expected_payoff": payoff,
                         "stakes_payoff": base[row.seat - 1], "cost": base[row.seat - 1] - payoff,
                         "p_shut": found["p_shut"][row.seat - 1]})
    rows_equal(tables["seat-costs"], expected, ("seat", "play"), "seat-costs")


def strategy_changes(tables, values, rules):
    """Where the first seat's stakes-best move (by the game-tree recursion, every seat playing for the stakes) and
    solo play's differ on a board a turn can reach, with the stakes the solo move loses: small games only."""
    from reference_players import first_seat_value

    if values["players"] > 3 or len(positions(rules)) > 5:
        return
    value = first_seat_value(rules, values["players"], values["scoring"], Fraction(values["shut_pays"]))
    solo = reference_play(rules, {"sum": "remaining-sum", "digits": "digits"}[values["scoring"]])
    expected = []
    for board in reachable_states(rules):
        for o in faced(rules, board):
            legal = moves(rules, board, o)
            if len(legal) < 2:
                continue
            best, theirs = max(legal, key=lambda m: value(board - set(m))), solo.move(board, o)
            loss = value(board - set(best)) - value(board - set(theirs))
            if loss > 1e-12:
                expected.append({"board": label(rules, board), "roll": roll_text(rules, o),
                                 "move_a": label(rules, best), "move_b": label(rules, theirs), "loss_for_a": loss})
    rows_equal(tables["strategy-changes"], expected, ("board", "roll"), "strategy-changes")


TABLE_CHECKS: dict[str, dict] = {
    "01-sequence-counts": {
        "counts-by-moves": sequences_by_length, "counts-for-board": sequences_by_length, "partitions": partitions,
        "partition-sets": partition_sets, "one-move-boards": one_move_boards, "example-moves": example_moves,
        "strategies": strategies, "rule-vs-optimal-pairs": rule_pairs, "rule-decision-losses": rule_decisions,
        "checks": CHECKS},
    "02-riddler-one-die": {
        "value-and-contrast": value_and_contrast, "dice-choice": dice_choice, "one-die-by-sum": one_die_by_sum,
        "source-statements": source_statements, "checks": CHECKS},
    "03-open-and-shut": {
        "exhibit-A": board_exhibits, "exhibit-B": DERIVED, "exhibit-C": DERIVED, "exhibit-G": move_tables,
        "exhibit-D": DERIVED, "exhibit-E": DERIVED, "exhibit-F": DERIVED, "tied-cells": DERIVED,
        "exceptions": exception_rows, "expected-scores": expected_scores, "highest-tile-losses": DERIVED,
        "exceptions-by-scoring": DERIVED, "example-board-1-2": example_board_12,
        "highest-tile-decision-losses": highest_tile_decisions, "roll-9-moves": nine_moves, "checks": CHECKS},
    "04-game-space": {
        "valid-states": valid_states, "exclusions": DERIVED, "GameSpace-part2": game_space, "GameSpace": DERIVED,
        "optimal-strategy": DERIVED, "win-probability-by-threshold": by_threshold,
        "GameSpace-columns": "what each column means, in words", "checks": CHECKS},
    "05-expected-cost-mdp": {
        "board-values": board_values, "example-board": example_action, "example-actions": DERIVED,
        "policy-table": policy_table, "highest-cost-states": DERIVED, "cost-trend": DERIVED,
        "largest-tile-exceptions": largest_tile_exceptions, "narrated-game": narrated_games,
        "source-game-replayed": DERIVED, "one-four-five-eight": one_four_five_eight,
        "one-four-five-eight-choice": DERIVED, "hand-arithmetic": DERIVED, "advice": advice, "checks": CHECKS},
    "06-whole-map": {
        "variants": variants, "one-die-allowed-or-forced": DERIVED, "policy-prices": policy_prices,
        "source-000-gap": DERIVED, "decision-losses": mistakes, "heuristic-losses": DERIVED,
        "strategy-cards": strategy_cards, "card-front": DERIVED, "card-front-target": DERIVED,
        "card-vs-highest-tile": card_against_highest, "card-exceptions": "the recommended card's costliest decisions: "
        "the same decision table as decision-losses, for the card", "cards-by-source": "the sources' own boards "
        "(9 and 10 tiles, beyond the reference), searched by the same code as strategy-cards",
        "disagreements": disagreements, "win-vs-sum-stakes": DERIVED, "final-sum-distribution": endings,
        "tie-breaks": ties, "tie-break-spread": DERIVED, "opening-moves": openings, "dice-advice": dice_advice,
        "more-tiles": more_tiles, "risk-frontier": risk_frontier, "frontier-rules-of-thumb": frontier_thumbs,
        "checks": CHECKS},
    "07-pub-game": {
        "seats": pub_seats, "seats-by-players": DERIVED, "fair-bonus": fair_bonus,
        "two-games": two_games,
        "strategy-changes": strategy_changes,
        "seat-costs": seat_costs, "simulation": SIMULATED, "checks": CHECKS},
    "08-in-print": {
        "variants": printed_variants, "heuristics": heuristics, "roll-counts": roll_counts, "tiles-open": tiles_open,
        "claims-computed": OTHER_GAMES, "rolls-excess": OTHER_GAMES, "simulated-rule": OTHER_GAMES,
        "references": "the write-ups cited, in words", "checks": CHECKS},
    "09-luck-and-skill": {
        "bounds": bounds, "example-game": example_game, "luck-summary": SIMULATED, "game-luck": SIMULATED,
        "checks": CHECKS},
}


def check_tables(stem: str, tables: dict, values: dict, rules: Rules) -> None:
    """Every table the run exported, against the reference (on small boards)."""
    unknown = set(tables) - set(TABLE_CHECKS[stem])
    assert not unknown, f"{stem}: no reference and no reason for the tables {sorted(unknown)}"
    if not small(rules):
        return
    for name in tables:
        check = TABLE_CHECKS[stem][name]
        if callable(check):
            check(tables, values, rules)
