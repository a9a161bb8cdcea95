"""Source 000, "Shut the Box with Dynamic Programming": its exhibits and findings, shaped from the engine's
tables for any rules.

The source counts, for every board, the dice-weighted number of winning move sequences by number of moves
(each roll total weighted by the number of ways the dice make it), and plays the move leading to the board
with the most winning sequences, the first such move in its generator's order (the engine's
``sequence-count`` policy, whose ties go to the first move in the same lexicographic order).

The chapter's parts, in page order: :func:`counts_part` (sequences from the full board, and from a board of the
reader's choice), :func:`partitions_part` (the one-move configurations), :func:`example_part` (the source's
worked example), :func:`strategies_part` (its rule, random moves and optimal play, exact and simulated) and
:func:`errors_part` (where and how much its rule loses); :func:`pipeline` runs them all.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from ..analysis import choice_disagreements, decision_losses, loses_something
from ..boards import board_label, board_mask, parse_tiles
from ..counts import total_winning_sequences, winning_sequence_counts
from ..game import game_of, legal_move_masks
from ..limits import PAGE_EXACT_UP_TO
from ..monte_carlo import simulate
from ..rules import Rules, analysis_of, one_die_when, refuses
from ..sweep import solve
from ..valuation import evaluate, reachable_boards
from .findings import Part, Sentence, Table, derived, equal_to, of_rules, won_at_start
from .words import a_roll, counted, dice_words, integer, listing, named, percent, plural, points, tiles_range, winning

LIST_LIMIT = 400  # the one-move configurations are listed one by one up to this many (else counted per total)
EXAMPLE_BOARD, EXAMPLE_ROLL = (1, 3, 4, 6, 7), 7  # the source's worked example


# -- section 1: winning sequences by number of moves -----------------------------------------------------------
def counts_table(rules: Rules, board: int) -> pd.DataFrame:
    """Weighted winning sequences from ``board`` by number of moves (0 .. tiles), exact integers, with each
    length's share of all of them (0 when there is none)."""
    table = winning_sequence_counts(rules)
    counts = [int(table[k, board]) for k in range(rules.tiles + 1)]
    total = sum(counts)
    return pd.DataFrame({"board": board_label(board), "moves": range(rules.tiles + 1), "sequences": counts,
                         "share": [c / total if total else 0.0 for c in counts]})


def _lengths(s: Sentence, table: Table) -> str:
    """``in 5 to 9 moves, and in no other number`` or ``in 3, 5 or 7 moves``: the lengths with a sequence."""
    lengths = table.fact("lengths", "moves", "list", [("sequences", ">", 0)])
    s.quiet(lengths)
    found = lengths.value
    if found == [0]:  # won before the first roll: the one winning sequence is the empty one
        s.quiet(table.fact("shortest", "moves", "min", [("sequences", ">", 0)]))
        return "with no move at all: the board is already won"
    if len(found) == 1:
        only = table.fact("shortest", "moves", "min", [("sequences", ">", 0)])
        return f"in exactly {s(only, counted('move'))}"
    if found == list(range(found[0], found[-1] + 1)):
        return (f"in {s(table.fact('shortest', 'moves', 'min', [('sequences', '>', 0)]))} to "
                f"{s(table.fact('longest', 'moves', 'max', [('sequences', '>', 0)]))} moves, and in no other number")
    return f"in {s(lengths, lambda v: listing([str(x) for x in v], most=len(v), conjunction='or'))} moves"


def never_won_reason(rules: Rules, s: Sentence) -> str:
    """Why no sequence wins from the full board, when a simple reason exists: the top tile must be shut (the open
    tiles cannot total the threshold or less with it up) and no roll reaches it."""
    largest = of_rules("largest_roll", "largest_roll", rules)
    if rules.win_at_most < rules.tiles and s.holds(largest, "<", rules.tiles):
        return f" — no roll of {dice_words(rules.dice, rules.sides)} exceeds {s(largest)}, so tile {rules.tiles} " \
               f"is never shut —"
    return ""


@refuses(layout=(("double-shutter",), "the source counts sequences on one row of tiles"))
def counts_part(rules: Rules, board: str = "") -> Part:
    """Winning sequences from the full board by number of moves, and from ``board`` (tiles such as ``1,3,4``;
    empty: none) when given."""
    part = Part()
    full = part.table("counts-by-moves", counts_table(rules, rules.full_board))
    part.shown["moves-that-win"] = full.frame[full.frame["sequences"] > 0]  # the page's rows: numbers of moves that win
    s = Sentence()
    total = full.fact("total", "sequences", "sum")
    if s.holds(total, ">", 0):
        are = "is" if s.holds(total, "==", 1) else "are"
        text = (f"From the full board of {tiles_range(rules.tiles)} there {are} "
                f"**{s(total, counted('weighted winning sequence'))}**; {winning(rules).can} {_lengths(s, full)}.")
        most = full.fact("most_at", "moves", "first", order=[("sequences", "desc")])
        part.add(s.finding("counts", text, kind="text"))
        a = Sentence()
        lengths = _lengths(a, full)
        most_at = "" if a.holds(most, "==", 0) else f"; the most at {a(most, counted('move'))}"
        part.add(a.finding("counts-alt", f"Dot plot, log scale: winning sequences by number of moves, won "
                                         f"{lengths}{most_at}.", kind="alt"))
    else:
        part.add(s.finding("counts", f"No sequence of rolls and moves {winning(rules).does} from the full board of "
                                     f"{tiles_range(rules.tiles)}{never_won_reason(rules, s)} and every count is "
                                     f"{s(total)}.", kind="text"))
    if board:
        mask = parse_tiles(board, rules, "board")
        part.shown["board"] = board_label(mask)
        chosen = part.table("counts-for-board", counts_table(rules, mask))
        s = Sentence()
        total = chosen.fact("board_total", "sequences", "sum")
        if s.holds(total, ">", 0):
            sequences = counted("weighted winning sequence")
            are = "is" if s.holds(total, "==", 1) else "are"
            text = f"From {board_label(mask)} there {are} {s(total, sequences)}; {winning(rules).can} " \
                   f"{_lengths(s, chosen)}."
        else:
            text = (f"No sequence of rolls and moves {winning(rules).does} from {board_label(mask)} ({s(total)} "
                    f"sequences).")
        part.add(s.finding("counts-board", text, kind="text"))
    return part


# -- section 2: the one-move configurations ------------------------------------------------------------------
@cache
def distinct_partitions(total: int, largest: int) -> int:
    """How many sets of distinct whole numbers from 1 to ``largest`` add up to ``total`` (0 is the empty set's)."""
    if total == 0:
        return 1
    if largest == 0 or total < 0:
        return 0
    return distinct_partitions(total, largest - 1) + distinct_partitions(total - largest, largest - 1)


def _sets_with_sum(total: int, largest: int) -> list[tuple[int, ...]]:
    """The sets themselves, in lexicographic order (only called when they are few)."""
    found: list[tuple[int, ...]] = []

    def extend(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        if remaining == 0:
            found.append(chosen)
            return
        for t in range(start, min(largest, remaining) + 1):
            extend(t + 1, remaining - t, chosen + (t,))

    extend(1, total, ())
    return found


def partition_table(rules: Rules) -> pd.DataFrame:
    """The source's list of one-move configurations, counted for every total the dice can show (one die's too,
    where a rule lets it be rolled): the sets of distinct numbers adding up to it (whether or not the tiles are on
    the board) and those whose tiles all are."""
    return pd.DataFrame([{"roll": roll, "sets": distinct_partitions(roll, roll),
                          "on_board": distinct_partitions(roll, min(roll, rules.tiles))}
                         for roll in rules.dice_totals])


def partition_list(rules: Rules) -> pd.DataFrame:
    """Every one of those sets (when there are at most ``LIST_LIMIT``), with whether its tiles are on the board:
    the source printed the sets with the tiles 11 and 12, which a 10-tile board does not have."""
    rows = [{"roll": roll, "tiles": "{" + ", ".join(map(str, subset)) + "}", "on_board": max(subset) <= rules.tiles}
            for roll in rules.dice_totals for subset in _sets_with_sum(roll, roll)]
    return pd.DataFrame(rows, columns=["roll", "tiles", "on_board"])


def strategy_comparison(rules: Rules, games: int, seed: int) -> pd.DataFrame:
    """Win probability of the source's rule, random moves and optimal play: exact, and simulated as the
    source did (``games`` games each, seeded) with Wilson 95% intervals and the simulation's z-score."""
    rows = []
    for offset, (policy, label) in enumerate([("sequence-count", "source's 'optimal' rule (most sequences)"),
                                              ("random", "random legal move"), ("optimal", "truly optimal")]):
        solution = evaluate(rules, "win", policy)
        result = simulate(solution, games, seed + offset)
        low, high = result.win_rate_ci
        rows.append({"policy": policy, "strategy": label, "exact_p_win": float(solution.value()),
                     "simulated_p_win": result.win_rate, "low_95": low, "high_95": high, "games": games,
                     "z": result.z_score(float(solution.value()))})
    return pd.DataFrame(rows)


@refuses(
    layout=(("double-shutter",), "the source counts sequences on one row of tiles"),
    moves=(("die-or-sum",), "the source's sets, rule and example read a roll as its total"),
)
def partitions_part(rules: Rules) -> Part:
    """The sets of distinct numbers adding up to a dice total, against the boards of this game one roll wins."""
    part = Part()
    counts = part.table("partitions", partition_table(rules))
    boards = part.table("one-move-boards", one_move_boards(rules))
    s = Sentence()
    sets, on = counts.fact("sets", "sets", "sum"), counts.fact("on_board", "on_board", "sum")
    never = (" (this game never rolls them: one die is forced on every roll)"
             if s.holds(of_rules("one_die_on_every_roll", "one_die_from_start", rules), "==", True)
             and rules.one_die_forced else "")
    dice = dice_words(rules.dice, rules.sides)
    shown = f"one die or {dice}" if rules.has_one_die_rule else dice
    text = (f"{s(sets, counted('set'))} of distinct numbers add{'s' if s.holds(sets, '==', 1) else ''} up to a total "
            f"{shown} can show{never}")
    every = part.table("partition-sets", partition_list(rules)) if sets.value <= LIST_LIMIT else None
    off = derived("off_board", "difference", sets, on)
    if s.holds(off, ">", 0):
        listed = ""
        if s.holds(sets, "<=", LIST_LIMIT):
            listed = ": " + s(every.fact("off_board_sets", "tiles", "list", [("on_board", "==", False)]),
                              lambda v: listing(v, most=6))
        one = s.holds(off, "==", 1)
        other = "the other one needs" if one else f"the other {s(off, integer)} need"
        text += (f"; {s(on, integer)} of them use only {tiles_range(rules.tiles)}, and {other} a tile above "
                 f"{rules.tiles}{listed} — {'it' if one else 'they'} can never occur in this game.")
    else:
        s.quiet(on)
        text += f", and every one of them uses only {tiles_range(rules.tiles)}."
    cleared = boards.fact("one_move_boards", "board_mask", "nunique")
    how, does = ("cleared", "clears") if rules.win_at_most == 0 else ("won", "wins")
    if won_at_start(s, rules):
        s.quiet(cleared)
        part.add(s.finding("one-move", text + f" Every board of this game is already won (its tiles add up to "
                                              f"{rules.win_at_most} or less), so no roll is ever needed.", kind="text"))
        return part
    text += f" {s(cleared, lambda n: counted('board')(n).capitalize())} of this game can be {how} by one roll"
    arising = boards.fact("one_move_boards_reached", "board_mask", "nunique", [("reached", "==", True)])
    if s.holds(arising, "<", cleared.value):
        some = s(arising, integer) if s.holds(arising, ">", 0) else "none"
        text += f", {some} of which a game from the full board can reach"
    else:
        s.quiet(arising)
    differs = one_move_rules(rules)
    if differs and not rules.win_at_most and s.holds(cleared, "==", on.value):  # a board one roll clears is a set
        # that fits (without a threshold), so as many boards as sets are the same sets
        text += f": here exactly those sets, although {differs} could make the two differ."
    elif differs:
        text += f" ({differs}: a set that fits is not the same as a board one roll {does})."
    else:
        s.quiet(on, cleared, derived("on_board_are_the_one_move_boards", "equal", on, cleared))
        text += ": exactly those sets."
    part.add(s.finding("one-move", text, kind="text"))
    return part


def one_move_rules(rules: Rules) -> str:
    """The rules of this game under which the sets that fit on the board are not simply the boards one roll wins:
    a cap per roll, a winning threshold, a single die (``""`` when there is none)."""
    found = []
    if rules.max_per_move is not None and rules.max_per_move < rules.tiles:
        found.append(f"at most {plural(rules.max_per_move, 'tile')} per roll")
    if rules.win_at_most:
        found.append(f"won at {rules.win_at_most} or less")
    if rules.has_one_die_rule:
        found.append(f"one die {'forced' if rules.one_die_forced else 'allowed'} {one_die_when(rules.one_die)}")
    return listing(found, most=3)


def one_move_boards(rules: Rules) -> pd.DataFrame:
    """Boards of this game one roll can win (``C_1(S) > 0`` in the engine's count), one row per roll that wins it:
    the board, the roll and its weight in the count (the roll's throws, over the dice the player may roll there,
    times the winning moves it allows; a board's rows add up to its ``C_1``), and whether a game from the full
    board can reach the board. Under the source's rules each board
    has one row: the total that clears it, and that total's dice weight (the source's first column)."""
    game, counts = game_of(rules), winning_sequence_counts(rules)
    reached = set(reachable_boards(rules).tolist())
    rows = []
    for board in (b for b in range(1, rules.states) if counts[1, b]):
        for roll in game.totals_from(board):
            wins = sum(bool(game.won[board & ~m]) for m in legal_move_masks(rules, board, roll))
            weight = wins * sum(game.weights(d).get(roll, 0) for d in game.dice_choices(board))
            if weight:
                rows.append({"board": board_label(board), "board_mask": board, "roll": roll, "weight": weight,
                             "reached": board in reached})
    return pd.DataFrame(rows, columns=["board", "board_mask", "roll", "weight", "reached"])


def move_comparison(rules: Rules, board: int, roll: int) -> pd.DataFrame:
    """Every legal move for ``(board, roll)``: the weighted winning sequences left after it (the source's
    ranking) and the chance of shutting the box after it with optimal play (the true ranking), with the
    move each ranking picks (ties to the first move in lexicographic order, as the source's code does)."""
    counts = total_winning_sequences(rules)
    optimal = solve(rules, "win")
    masks = legal_move_masks(rules, board, roll)
    table = pd.DataFrame([{"move": board_label(m), "board_after": board_label(board & ~m),
                           "sequences_after": int(counts[board & ~m]),
                           "p_win_after": float(optimal.values[board & ~m])} for m in masks])
    if len(table):
        table["source_rule_picks"] = table.index == table["sequences_after"].idxmax()
        table["optimal_picks"] = table.index == table["p_win_after"].idxmax()
    return table


def rule_errors(rules: Rules) -> pd.DataFrame:
    """The (board, roll) pairs where the source's rule (most winning sequences) plays a move with a strictly
    smaller chance of shutting the box than the optimal move, both judged with optimal play afterwards:
    both moves, the win chance after each, what the rule gives up, and the sequence counts it compared. Up to
    :data:`PAGE_EXACT_UP_TO` tiles in exact arithmetic, so that every loss above 0 counts, however small."""
    exact = rules.positions <= PAGE_EXACT_UP_TO
    optimal = solve(rules, "win", exact=exact)
    rule = evaluate(rules, "win", "sequence-count", exact=exact)
    table = choice_disagreements(optimal, rule)
    counts = total_winning_sequences(rules)
    values = np.asarray(optimal.values, dtype=float)
    after_opt = [table_board & ~board_mask(parse_move(m)) for table_board, m in
                 zip(table["board_mask"].tolist(), table["move_a"].tolist(), strict=True)]
    after_rule = [table_board & ~board_mask(parse_move(m)) for table_board, m in
                  zip(table["board_mask"].tolist(), table["move_b"].tolist(), strict=True)]
    out = pd.DataFrame({
        "board": table["board"], "board_mask": table["board_mask"], "roll": table["roll"],
        "optimal_move": table["move_a"], "source_rule_move": table["move_b"],
        "p_win_after_optimal": values[after_opt], "p_win_after_rule": values[after_rule],
        "win_chance_lost": table["loss_for_a"],
        "sequences_after_optimal": [int(counts[b]) for b in after_opt],
        "sequences_after_rule": [int(counts[b]) for b in after_rule]})
    out["more_sequences"] = out["sequences_after_rule"] > out["sequences_after_optimal"]
    return out.sort_values("win_chance_lost", ascending=False, kind="stable").reset_index(drop=True)


def parse_move(label: str) -> list[int]:
    """The tiles of a move written ``{1, 6}``."""
    return [int(t) for t in label.strip("{}").split(",") if t.strip()]


def rule_losses(rules: Rules) -> pd.DataFrame:
    """The source rule's decisions that lose win chance, heaviest first: ``analysis.decision_losses``
    (loss judged with optimal play afterwards, weighted by the chance the rule faces the decision), with
    each decision's share of the rule's whole loss and the running share (exact losses up to
    :data:`PAGE_EXACT_UP_TO` tiles, as :func:`rule_errors`)."""
    losses = decision_losses(rules, "win", "sequence-count", exact=rules.positions <= PAGE_EXACT_UP_TO)
    total = losses["weighted_loss"].sum()
    costly = losses[loses_something(losses)].sort_values("weighted_loss", ascending=False, kind="stable")
    costly = costly[["board", "decision", "dice", "roll", "options", "reach", "p_roll", "policy_move",
                     "optimal_move", "loss", "weighted_loss"]]
    costly = costly.rename(columns={"policy_move": "source_rule_move"}).reset_index(drop=True)
    costly["share_of_loss"] = costly["weighted_loss"] / total if total > 0 else 0.0
    costly["cumulative_share"] = costly["share_of_loss"].cumsum().round(12)  # a long sum's last digits are noise
    costly.insert(0, "rank", np.arange(1, len(costly) + 1))
    return costly


# -- section 3: the worked example -------------------------------------------------------------------------------
@refuses(
    layout=(("double-shutter",), "the source counts sequences on one row of tiles"),
    moves=(("die-or-sum",), "the source's sets, rule and example read a roll as its total"),
)
def example_part(rules: Rules) -> Part:
    """The source's example (open {1, 3, 4, 6, 7}, a roll of 7): the legal moves, and how each ranking sees them.
    Empty when this run's game has no tile 7, its dice cannot roll a 7, or a roll is not read as its total."""
    part = Part()
    if rules.tiles < max(EXAMPLE_BOARD) or EXAMPLE_ROLL not in rules.roll_weights or rules.moves != "sum":
        return part
    board = board_mask(EXAMPLE_BOARD)
    table = part.table("example-moves", move_comparison(rules, board, EXAMPLE_ROLL))
    s = Sentence()
    moves = table.fact("moves", "move", "list")
    rule = table.fact("rule_pick", "move", "first", order=[("sequences_after", "desc")])
    text = (f"Open {board_label(board)}, roll {EXAMPLE_ROLL}: the legal moves are {s(moves, lambda v: '; '.join(v))}. "
            f"The most-sequences rule shuts {s(rule)}; ")
    highest, lowest = (table.fact(f"{end}_p_win_after", "p_win_after", end) for end in ("max", "min"))
    s.quiet(lowest)
    if s.holds(derived("moves_alike", "equal", highest, lowest), "==", True):
        text += f"every move leaves the same {winning(rules).axis}, {s(highest, percent(2))}: none is better."
    else:
        s.quiet(highest)
        best = table.fact("best_pick", "move", "first", order=[("p_win_after", "desc")])
        same = s.holds(derived("same_move", "equal", rule, best), "==", True)
        text += (f"the move with the best {winning(rules).axis} is {s(best)}"
                 + (" — the same move." if same else " — a different move."))
    part.add(s.finding("example", text, kind="text"))
    return part


# -- section 4: the three strategies --------------------------------------------------------------------------
def strategies_part(rules: Rules, games: int, seed: int) -> Part:
    """The source's rule, random moves and optimal play: exact chances of winning, and simulated ones."""
    part = Part()
    table = part.table("strategies", strategy_comparison(rules, games, seed))
    s = Sentence()
    values = {p: table.cell(f"p_win_{p.replace('-', '_')}", "exact_p_win", policy=p)
              for p in ("optimal", "sequence-count", "random")}
    text = (f"Dot plot with intervals: for each of the three strategies the simulated win rate, its interval and the "
            f"exact value; optimal play {s(values['optimal'], percent(2))}, the most-sequences rule "
            f"{s(values['sequence-count'], percent(2))}, random moves {s(values['random'], percent(2))}.")
    part.add(s.finding("strategies-alt", text, kind="alt"))
    return part


# -- section 5: what the rule loses ----------------------------------------------------------------------------
def errors_part(rules: Rules, strategies: Part) -> Part:
    """What the most-sequences rule gives up against optimal play, where it errs and which mistakes cost most."""
    part = Part()
    table = Table("strategies", strategies["strategies"])
    rule = table.cell("p_win_rule", "exact_p_win", policy="sequence-count")
    best = table.cell("p_win_optimal", "exact_p_win", policy="optimal")
    part.add(rule_loss_finding(rules, rule, best))
    errors = part.table("rule-vs-optimal-pairs", rule_errors(rules))
    part.add(rule_errors_finding(errors))
    losses = part.table("rule-decision-losses", rule_losses(rules))
    part.add(rule_decisions_finding(losses, errors, rule, best))
    return part


def rule_loss_finding(rules: Rules, rule, best):
    """The rule's chance of winning against optimal play's, and the share of the best chance it forfeits."""
    s = Sentence()
    s.quiet(rule, best)
    if won_at_start(s, rules):
        text = (f"On {tiles_range(rules.tiles)} the game is won before the first roll ({s(best, percent(0))} of "
                f"games): the rule never moves, so it has nothing to lose.")
    elif s.holds(best, "==", 0):
        text = (f"On {tiles_range(rules.tiles)} no way of playing {winning(rules).does} (optimal play "
                f"{s(best, percent(0))}), so the rule has nothing to lose.")
    elif s.holds(derived("rule_against_optimal", "relation", rule, best), "==", "the same"):
        text = (f"On {tiles_range(rules.tiles)} the most-sequences rule loses nothing from the full board: it wins "
                f"{s(rule, percent(3))} of games, as optimal play does.")
    else:
        gap = derived("gap", "difference", best, rule)
        share = derived("share_lost", "ratio", gap, best)
        text = (f"The most-sequences rule {winning(rules).does} in **{s(rule, percent(3))}** of games; optimal play in "
                f"**{s(best, percent(3))}**, {s(gap, points(3))} (percentage points) more: the rule forfeits "
                f"{s(share, percent(1))} of the best possible chance.")
    if rules.offers_dice_choice and not rules.won_at_start:
        text += (" Where the rules let the player roll one die, the rule and the random player each roll the dice "
                 "that serve their own moves best.")
    return s.finding("rule-loss", text)


def rule_errors_finding(errors):
    """How many (board, roll) pairs the rule errs at, and at how many its move leaves more winning sequences."""
    s = Sentence()
    pairs = errors.count("pairs")
    if s.holds(pairs, ">", 0):
        misled = s.quiet(errors.count("misled", [("more_sequences", "==", True)]))
        tied = derived("as_many_sequences", "difference", pairs, misled)  # the rule never leaves fewer
        text = f"The rule errs at **{s(pairs, counted('(board, roll) pair'))}** (on every board, reached or not); "
        if s.holds(tied, "==", 0):
            text += ("at every one of them its move leaves more winning sequences than the optimal move, which misled "
                     "it.")
        elif s.holds(misled, "==", 0):
            text += ("at every one of them both moves leave as many winning sequences, and the rule's tie-break (the "
                     "move with the lowest tiles) chose the worse.")
        else:
            text += (f"at {s(misled, integer)} of them its move leaves more winning sequences than the optimal "
                     f"move, which misled it; at the other {s(tied, integer)} both leave as many, and its tie-break "
                     f"(the move with the lowest tiles) chose the worse.")
        text += " The table below lists them, the costliest first."
    else:
        text = "The rule never plays a move with a smaller chance of winning than the optimal one on any board."
    return s.finding("rule-errors", text, kind="text")


def rule_decisions_finding(losses, errors, rule, best):
    """The decisions the rule actually faces that cost winning chance, their sum (the whole gap) and the heaviest;
    None when the rule never errs."""
    s = Sentence()
    costly = losses.count("costly")
    if s.holds(costly, ">", 0):
        total = losses.fact("total_loss", "weighted_loss", "sum")
        gap = derived("gap", "difference", best, rule)
        s.quiet(rule, best, gap, derived("losses_make_the_gap", "equal", total, gap))
        top = min(costly.value, 10)
        share = losses.fact("top_share", "share_of_loss", "sum", [("rank", "<=", top)])
        first = {c: losses.fact(f"first_{c}", c, "value", [("rank", "==", 1)])
                 for c in ("board", "decision", "roll", "source_rule_move", "optimal_move", "share_of_loss")}
        if s.holds(first["decision"], "==", "dice"):  # one die or all of them, where the rules give the choice
            s.quiet(first["roll"])
            decision = (f"the choice of dice on {s(first['board'])}, where the rule chooses to "
                        f"{s(first['source_rule_move'])} and optimal play to {s(first['optimal_move'])}")
        else:
            decision = (f"{s(first['board'])} with {s(first['roll'], a_roll)}, where the rule shuts "
                        f"{s(first['source_rule_move'])} instead of {s(first['optimal_move'])}")
        costs = "costs" if s.holds(costly, "==", 1) else "cost"
        text = (f"{s(costly, counted('decision'))} the rule actually faces {costs} winning chance; together they cost "
                f"{s(total, points(3))} per game, the whole gap. ")
        if top > 1:
            text += heaviest_words(s, losses, costly, top, share, first["share_of_loss"], decision)
        else:
            s.quiet(share, first["share_of_loss"])
            text += f"All of it is one decision: {decision}."
        return s.finding("rule-decisions", text)
    if s.holds(errors.count("pairs"), ">", 0):
        return s.finding("rule-decisions", (
            "The rule's mistakes cost nothing in play: from the full board it never reaches a board where one of "
            f"them costs winning chance ({s(costly, counted('costly decision'))} among those it faces)."))
    return None


def heaviest_words(s: Sentence, losses: Table, costly, top: int, share, first_share, decision: str) -> str:
    """The heaviest decisions' share of the loss, and the first's -- or, where several cost exactly as much, that
    they tie (their order is rounding)."""
    lead = f"The {plural_words(top)} heaviest make {s(share, percent(0))} of it; " if s.holds(costly, ">", top) else ""
    if not lead:
        s.quiet(share)
    tied = losses.count("tied_with_first", equal_to("share_of_loss", first_share.value))
    if s.holds(tied, ">", 1):
        count = s(tied, lambda n: plural_words(n) if lead else plural_words(n).capitalize())
        return lead + f"{count} tie for the heaviest, {s(first_share, percent(1))} each, among them {decision}."
    return lead + f"{'the' if lead else 'The'} first alone — {decision} — {s(first_share, percent(1))}."


def plural_words(count: int) -> str:
    """``twelve``, ``6``: small counts in words for the start of a phrase."""
    from .words import NUMBER_WORDS

    return NUMBER_WORDS.get(count, str(count)) if count > 1 else "one"


# -- the chapter ------------------------------------------------------------------------------------------------
@analysis_of(strategies_part, counts_part, partitions_part, example_part, errors_part)
def pipeline(rules: Rules, board: str = "", games: int = 100_000, seed: int = 1) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    strategies = strategies_part(rules, games, seed)
    return [counts_part(rules, board), partitions_part(rules), example_part(rules), strategies,
            errors_part(rules, strategies)]


def printed_rates(published: pd.DataFrame) -> dict[str, float]:
    """The win rates the source printed from its simulations, by policy (for the figure beside the exact ones)."""
    rates = published.set_index("key")["published"]
    return {"sequence-count": float(rates["exact_rule"]), "random": float(rates["exact_random"])}


def published_claims(counts: Part, partitions: Part, example: Part, strategies: Part, games: int) -> dict:
    """What the engine computes for each published claim of the source (``data/published/<stem>.csv`` keys)."""
    by_length = counts["counts-by-moves"].set_index("moves")["sequences"]
    claims = {f"count_{k}": int(by_length.get(k, 0)) for k in range(5, 10)}
    claims["count_other"] = int(by_length[~by_length.index.isin(range(5, 10))].sum())
    claims["partitions"] = int(partitions["partitions"]["sets"].sum())
    if example.tables:
        claims["example_moves"] = "; ".join(example["example-moves"]["move"])
    by_policy = strategies["strategies"].set_index("policy")
    claims["exact_rule"] = by_policy.loc["sequence-count", "exact_p_win"]  # its simulation, judged by the exact value
    claims["exact_random"] = by_policy.loc["random", "exact_p_win"]
    rule, optimal = by_policy.loc["sequence-count", "exact_p_win"], by_policy.loc["optimal", "exact_p_win"]
    claims["rule_optimal"] = (rule >= optimal, f"it wins {percent(3)(rule)}; optimal play wins {percent(3)(optimal)}")
    return claims


def simulation_checks(strategies: Part) -> list[dict]:
    """Each strategy's simulated win rate against its exact chance, with the simulation's 95% interval and z-score
    (the arguments of the page's ``checks.chance``)."""
    return [{"claim": f"{named(row.policy)}: simulated win rate, against the exact value",
             "simulated": row.simulated_p_win, "exact": row.exact_p_win, "low": row.low_95, "high": row.high_95,
             "z": row.z, "show": percent(3)}
            for row in strategies["strategies"].itertuples()]


def headline(counts: Part, strategies: Part) -> dict:
    """The numbers the index shows for this chapter."""
    by_policy = strategies["strategies"].set_index("policy")["exact_p_win"]
    return {"winning sequences, full board": integer(counts["counts-by-moves"]["sequences"].sum()),
            "most-sequences rule": percent(3)(by_policy["sequence-count"]),
            "optimal play": percent(3)(by_policy["optimal"])}


def estimate(rules: Rules, board: str = "", games: int = 100_000, seed: int = 1):
    """What the chapter will take (:class:`stb_core.cost.Estimate`): exact sequence counts (Python integers over
    every (board, move) pair, once per length), a dozen solves, and the simulations."""
    from ..cost import Estimate, solve_cost, solve_estimate

    cost = solve_cost(rules)
    counts = Estimate(4 * cost.pairs * (rules.tiles / 2 + 1) * 1e-7, (rules.tiles + 1) * cost.boards * 80)
    simulation = Estimate(3 * games * (rules.tiles + 2) * 5e-8, games * 60)
    return solve_estimate(rules) * 12 + counts + simulation
