"""Source 004, "Shut the box!" as a Markov decision process (R): its tables, from the engine.

The source minimises the expected sum left open (the engine's ``remaining-sum`` objective). Its R code lists
the legal actions of a (state, roll) as ``combn`` does — by number of tiles, then lexicographically — and
its ``optimal_action`` takes ``which.min`` of their values, so exact ties go to the first action in that
order. The functions here follow that order, using exact values so that ties are recognised exactly.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pandas as pd

from ..boards import board_label, board_mask, board_tiles
from ..choice import same_value
from ..game import game_of, legal_moves
from ..limits import PAGE_EXACT_UP_TO
from ..rules import InputError, Rules, analysis_of, refuses
from ..sweep import Solution, solve
from ..valuation import reachable_boards
from .findings import RULE_OF_THUMB_PERCENT, Part, Sentence, derived, equal_to, of_rules, parameter, won_at_start
from .words import (
    all_dice,
    apart,
    compact,
    counted,
    fraction,
    integer,
    listing,
    number,
    percent,
    plural,
    share,
    tiles_range,
    winning,
)


def r_order(moves: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Moves in the order of the source's ``valid_actions``: by number of tiles, then lexicographically."""
    return sorted(moves, key=lambda m: (len(m), m))


def source_optimal_action(solution: Solution, board: int, roll: int) -> tuple[int, ...] | None:
    """The source's ``optimal_action``: the first action in R's order among those best for the solution's
    objective (the least value for a cost such as ``remaining-sum``, the largest for the chance of winning)."""
    moves = r_order(legal_moves(solution.rules, board, roll))
    if not moves:
        return None
    sense = solution.objective.sense
    return min(moves, key=lambda m: -sense * solution.values[board & ~board_mask(m)])  # min keeps the first tie


def state_value_table(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """Every non-empty state with its minimum expected cost, mean open tile and number of open tiles, and whether a
    game from the full board can reach it (``reached``: the source's table lists every state, some of which no game
    reaches)."""
    solution = solution or solve(rules, "remaining-sum", exact=rules.positions <= PAGE_EXACT_UP_TO)
    reached = set(reachable_boards(rules).tolist())
    rows = [{"label": board_label(m), "board_mask": m, "value": float(solution.values[m]),
             "state_average": sum(board_tiles(m)) / len(board_tiles(m)), "tiles_open": len(board_tiles(m)),
             "reached": m in reached}
            for m in range(1, rules.states)]
    return pd.DataFrame(rows)


def largest_tile_exceptions(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """The source's table: (state, roll) pairs of the game (boards in play, rolls their dice can show) where the
    optimal action does not shut the largest tile any legal action could shut; with the value after the optimal
    action and after the best action that does, and whether a game from the full board can reach the state (the
    source lists every state, some of which no game reaches)."""
    solution = solution or solve(rules, "remaining-sum", exact=rules.positions <= PAGE_EXACT_UP_TO)
    game, rows = solution.game, []
    reached = set(reachable_boards(rules).tolist())
    states = sorted(game.playing.tolist(), key=lambda b: (len(board_tiles(b)), board_tiles(b)))  # the source's order
    for board in states:
        for roll in game.totals_from(board):
            moves = r_order(legal_moves(rules, board, roll))
            if not moves:
                continue
            best = source_optimal_action(solution, board, roll)
            largest = max(max(m) for m in moves)
            if max(best) == largest:
                continue
            with_largest = min((m for m in moves if largest in m),
                               key=lambda m: solution.values[board & ~board_mask(m)])
            after_best, after_largest = (solution.values[board & ~board_mask(m)] for m in (best, with_largest))
            rows.append({
                "state": board_label(board), "dice_total": roll,
                "valid_actions": "; ".join(board_label(board_mask(m)) for m in moves),
                "optimal_action": board_label(board_mask(best)),
                "value_after_optimal": float(after_best),
                "largest_tile_action": board_label(board_mask(with_largest)),
                "value_after_largest_tile_action": float(after_largest),
                "as_good": bool(same_value(after_largest, after_best)),
                "reached": board in reached,
            })
    return pd.DataFrame(rows, columns=["state", "dice_total", "valid_actions", "optimal_action", "value_after_optimal",
                                       "largest_tile_action", "value_after_largest_tile_action", "as_good", "reached"])


def highest_cost_states(table: pd.DataFrame, n: int = 6) -> pd.DataFrame:
    """The ``n`` states with the highest expected cost (the source's ``arrange(desc(value)) |> head()``), and every
    state as costly as the last of them (the source's ``head`` cuts a tie where it falls); ties keep the source's
    state order: by number of tiles, then lexicographically."""
    ordered = table.assign(order=[(len(board_tiles(m)), board_tiles(m)) for m in table["board_mask"]])
    ordered = ordered.sort_values("order", kind="stable").sort_values("value", ascending=False, kind="stable")
    ordered = ordered[["label", "value", "reached"]].reset_index(drop=True)
    if len(ordered) <= n:
        return ordered
    last = ordered["value"].iloc[n - 1]
    tied = [same_value(v, last) for v in ordered["value"].iloc[n:]]
    return ordered.head(n + (tied.index(False) if False in tied else len(tied)))


def cost_trend(table: pd.DataFrame) -> pd.DataFrame:
    """From :func:`state_value_table`: per number of open tiles, how many states and the rank correlation
    between the mean open tile and the expected cost (1: the cost always rises with the mean tile)."""
    rows = []
    for count, group in table.groupby("tiles_open"):
        correlation = group["state_average"].rank().corr(group["value"].rank()) if len(group) > 1 else float("nan")
        rows.append({"tiles_open": count, "states": len(group), "rank_correlation": correlation})
    return pd.DataFrame(rows)


def hand_arithmetic_4_5() -> Fraction:
    """The source's formula for P(win from {4, 5}), as written: 3/36 * 3/36 + 4/36 * 4/36 + 4/36."""
    return Fraction(3, 36) * Fraction(3, 36) + Fraction(4, 36) * Fraction(4, 36) + Fraction(4, 36)


# -- the chapter's parts ----------------------------------------------------------------------------------------
SOURCE_BOARDS = ((8,), (2, 6), (1, 8), (4, 5))  # the boards the source evaluates
SOURCE_ROLLS = (8, 10, 6, 11, 3, 7)  # the rolls of its narrated game


def cost_solution(rules: Rules) -> Solution:
    """The least expected sum left, for every board (exact fractions up to 12 tiles)."""
    return solve(rules, "remaining-sum", exact=rules.positions <= PAGE_EXACT_UP_TO)


@refuses(
    moves=(("die-or-sum",), "its tables of actions are by the total rolled"),
    layout=(("double-shutter",), "its tables name states by their tile numbers on one row, as the source's do"),
)
def values_part(rules: Rules, cost: Solution) -> Part:
    """The value of the full board and of the boards the source evaluates; the source's example action."""
    part = Part()
    boards = [rules.full_board] + [board_mask(b) for b in SOURCE_BOARDS if max(b) <= rules.tiles]
    values = part.table("board-values", pd.DataFrame([
        {"board": board_label(b), "board_mask": b, "full_board": b == rules.full_board,
         "value": float(cost.value(b)), "exact": fraction(cost.value(b)) if rules.positions <= PAGE_EXACT_UP_TO else ""}
        for b in dict.fromkeys(boards)]))
    s = Sentence()
    full = values.cell("full_value", "value", full_board=True)
    part.add(s.finding("full-board", f"From the full board of {tiles_range(rules.tiles)}, optimal play leaves open "
                                     f"tiles summing to **{s(full, number(2))}** on average.", kind="text"))
    five = board_mask(range(1, min(5, rules.tiles) + 1))
    game = cost.game
    example = part.table("example-board", pd.DataFrame([{
        "board": board_label(five), "open_sum": int(game.sums[five]), "won": bool(game.won[five]),
        "dice": " or ".join(map(str, game.dice_choices(five))), "can_roll_8": bool(game.shows([five], 8)[0])}]))
    s = Sentence()
    if s.holds(example.cell("won", "won"), "==", True):
        part.add(s.finding("example-action", f"With {board_label(five)} open {winning(rules).done} already, so no "
                                             f"roll of 8 is thrown.", kind="text"))
    elif 8 in rules.roll_weights and s.holds(example.cell("can_roll_8", "can_roll_8"), "==", False):
        s.quiet(example.cell("dice", "dice"))
        part.add(s.finding("example-action", f"From {board_label(five)} the rules have the player roll one die, "
                                             f"which cannot show an 8.", kind="text"))
    elif 8 not in rules.roll_weights:
        s.holds(of_rules("largest_roll", "largest_roll", rules), "<", 8)
        part.add(s.finding("example-action", f"The source's example is a roll of 8, and {all_dice(rules)} cannot show "
                                             f"an 8: it has no counterpart here.", kind="text"))
    else:
        example_actions(part, rules, cost, five)
    return part


def example_actions(part: Part, rules: Rules, cost: Solution, five: int) -> None:
    """The source's example, a roll of 8 on {1, ..., 5}: every legal action in its order, and the optimal one (each
    one of those that tie for the least expected sum after it)."""
    moves = r_order(legal_moves(rules, five, 8))
    actions = part.table("example-actions", pd.DataFrame(
        [{"action": board_label(board_mask(m)), "value_after": float(cost.value(five & ~board_mask(m)))}
         for m in moves], columns=["action", "value_after"]))
    s = Sentence()
    listed = actions.fact("actions", "action", "list")
    if moves:
        least = s.quiet(actions.fact("least_value_after", "value_after", "min"))
        best = actions.fact("optimal_actions", "action", "list", equal_to("value_after", least.value))
        bold = lambda v: listing([f"**{a}**" for a in v], most=len(v))  # noqa: E731
        tail = (f"the optimal actions, equally good, are {s(best, bold)}." if len(best.value) > 1 else
                f"the optimal action is {s(best, bold)}.")
        text = (f"With {board_label(five)} open and a roll of 8 the legal actions, in the source's order, are "
                f"{s(listed, lambda v: '; '.join(v))}; {tail}")
    else:
        s.quiet(listed)
        capped = rules.max_per_move is not None and rules.max_per_move < 2  # every set adding up to 8 is 2+ tiles
        text = (f"With {board_label(five)} open no legal action takes a roll of 8"
                + (f" (at most {plural(rules.max_per_move, 'tile')} a roll, and no open tile is 8)" if capped
                   else "") + ", so the game ends.")
    part.add(s.finding("example-action", text, kind="text"))


def game_part(rules: Rules, cost: Solution, seed: int) -> Part:
    """A game narrated with the optimal policy, and the source's own rolls replayed through it."""
    from ..monte_carlo import narrate_game, replay_rolls
    from ..tables import turns_table

    part = Part()
    part.table("narrated-game", turns_table(narrate_game(cost, seed=seed)))
    if not (rules.tiles >= 9 and all(r in rules.roll_weights for r in SOURCE_ROLLS)):
        s = Sentence()
        missing = [r for r in SOURCE_ROLLS if r not in rules.roll_weights]
        if missing:
            s.quiet(of_rules("largest_roll", "largest_roll", rules), parameter("dice", rules.dice))
            why = f"{all_dice(rules)} cannot show {listing([str(r) for r in missing])}"
        else:
            s.holds(parameter("tiles", rules.tiles), "<", 9)
            why = "this board has no tile 9" if rules.tiles == 8 else f"this board has no tiles {rules.tiles + 1} to 9"
        part.add(s.finding("replayed", f"The source's own game (tiles 1–9, rolls {', '.join(map(str, SOURCE_ROLLS))}) "
                                       f"has no counterpart here: {why}.", kind="text"))
        return part
    rolls = f"the source's rolls ({', '.join(map(str, SOURCE_ROLLS))})"
    try:
        turns = replay_rolls(cost, list(SOURCE_ROLLS))
    except InputError as error:  # a roll the dice of that board cannot show (a single die)
        part.add(Sentence().finding("replayed", f"Under these rules {rolls} cannot all be thrown in one game: "
                                                f"{error}.", kind="text"))
        return part
    replayed = part.table("source-game-replayed", turns_table(turns))
    s = Sentence()
    turns = replayed.count("turns")
    if s.holds(turns, "==", 0):
        text = f"The game is won before the first roll, so {rolls} are never thrown."
    else:
        actions = replayed.fact("actions", "move", "list")
        last = replayed.fact("last_left", "open_after", "first", order=[("turn", "desc")])
        won = Rules.is_won(rules, sum(int(t) for t in re.findall(r"\d+", last.value)))
        text = (f"The engine's actions for {rolls} are "
                f"{s(actions, lambda v: '; '.join(x or 'none (no legal action)' for x in v))}"
                + (f", and {winning(rules).done}" if won else f", leaving {s(last)} open"))
        if s.holds(turns, "<", len(SOURCE_ROLLS)):
            text += f" after {s(turns, integer)} of them"
        text += "; the checks at the end compare them with the source's narration." if rules == Rules() else "."
    part.add(s.finding("replayed", text, kind="text"))
    return part


def trend_part(rules: Rules, cost: Solution) -> Part:
    """Every state's cost against its mean open tile, and within each number of open tiles how the two rank."""
    part = Part()
    table = part.table("policy-table", state_value_table(rules, cost))
    trend = cost_trend(table.frame)
    trend["has_correlation"] = trend["rank_correlation"].notna()
    ranks = part.table("cost-trend", trend)
    s = Sentence()
    panels = table.fact("panels", "tiles_open", "nunique")
    with_two = ranks.count("ranked_panels", [("has_correlation", "==", True)])
    if s.holds(with_two, ">", 0):
        where = [("has_correlation", "==", True)]
        low = ranks.fact("lowest_correlation", "rank_correlation", "min", where)
        high = ranks.fact("highest_correlation", "rank_correlation", "max", where)
        rises = s.holds(low, ">", 0)
        always = rises and s.holds(low, ">=", 1 - 1e-9)  # 1 in every panel (to rounding): ordered as their mean tile
        positive = ("always positive: the source reads the pattern right" if always else
                    "always positive: the source reads the tendency right, though the costs do not follow the mean "
                    "tile's order exactly" if rises else "not always positive")
        rounded = "" if always else ", rounded"
        spread = (f"is {s(high, number(2))} in every one{rounded}" if number(2)(low.value) == number(2)(high.value) else
                  f"runs from {s(low, number(2))} to {s(high, number(2))}, rounded")
        text = (f"Within each panel with two or more states the rank correlation between the mean open tile and the "
                f"expected cost {spread} ({positive}).")
        if won_at_start(s, rules):  # every state is won: its cost is its own sum, and no game reaches another
            text += (" Here every state is already won, so its expected cost is its own sum, and a game never leaves "
                     "the full board: the pattern is arithmetic, not play.")
        trend_words = ("the expected cost rises with the mean open tile" if always else
                       "the expected cost tends to rise with the mean open tile" if rises else
                       "the expected cost does not always rise with the mean open tile")
    else:
        text = "No panel has two states to compare."
        trend_words = "no two states to compare"
    reached = table.count("reached", [("reached", "==", True)])
    states = table.count("states")
    if s.holds(reached, "<", states.value):
        text += (f" A game from the full board reaches {s(reached, integer)} of these {s(states, integer)} states; "
                 f"the source's table, and this one, list them all (the column reached says which).")
    part.add(s.finding("trend", text, kind="text"))
    a = Sentence()
    a.quiet(*s.facts.values())
    within = "in it" if a.holds(panels, "==", 1) else "within each"
    part.add(a.finding("trend-alt", f"Small multiples, {a(panels, counted('panel'))}: {within}, {trend_words}.",
                       kind="alt"))
    return part


def exceptions_part(rules: Rules, cost: Solution) -> Part:
    """Where the optimal action does not shut the largest tile it could; the source's {1, 4, 5, 8} with a 9."""
    part = Part()
    found = part.table("largest-tile-exceptions", largest_tile_exceptions(rules, cost))
    s = Sentence()
    count = found.count("exceptions")
    if s.holds(count, ">", 0):
        pairs = "pairs" if s.holds(count, ">", 1) else "pair"
        text = (f"In **{s(count, integer)}** (state, roll) {pairs} the optimal action "
                f"does not shut the largest tile that some legal action could shut")
        tied = found.count("exceptions_tied", [("as_good", "==", True)])
        if s.holds(tied, ">", 0):
            text += (f" ({'all' if s.holds(tied, '==', count.value) else s(tied, integer)} of them a tie: an action "
                     f"that shuts it is as good, and the source's order picks another)")
        reached = found.count("exceptions_reached", [("reached", "==", True)])
        if s.holds(reached, "<", count.value):
            some = s(reached, integer) if s.holds(reached, ">", 0) else "none"
            text += (f"; {some} of {'them are' if s.holds(count, '>', 1) else 'it is'} on a state a game from "
                     f"the full board can reach (the source lists every state)")
        text += "."
    elif won_at_start(s, rules):
        s.quiet(count)
        text = "The game is won before the first roll: no action is ever taken, so there is no exception to find."
    else:
        text = (f"The optimal action always shuts the largest tile some legal action could shut: "
                f"{s(count, counted('(state, roll) pair'))} is an exception.")
    part.add(s.finding("exceptions", text, kind="text"))
    if faces_the_sources_nine(rules):
        add_one_four_five_eight(part, rules, cost)
    return part


def faces_the_sources_nine(rules: Rules) -> bool:
    """Whether a player can face the source's choice: on {1, 4, 5, 8}, not yet won there, a throw totalling 9
    with the dice they may roll there, which can leave {1, 8} or {4, 5}."""
    if rules.tiles < 8:
        return False
    game, board = game_of(rules), board_mask([1, 4, 5, 8])
    return game.rolls_are_totals and not game.is_won(board) and 9 in game.totals_from(board) and \
        {(1, 8), (4, 5)} <= set(legal_moves(rules, board, 9))


def add_one_four_five_eight(part: Part, rules: Rules, cost: Solution) -> None:
    """The source's {1, 4, 5, 8} with a 9: what each objective shuts, and whether the two disagree."""
    win = solve(rules, "win", exact=rules.positions <= PAGE_EXACT_UP_TO)
    board = board_mask([1, 4, 5, 8])
    compare = part.table("one-four-five-eight", pd.DataFrame([
        {"board": board_label(board_mask(b)), "cost": float(cost.value(board_mask(b))),
         "p_win": float(win.value(board_mask(b))), "p_win_exact": fraction(win.value(board_mask(b)))}
        for b in ([1, 8], [4, 5])]))
    won = winning(rules)
    picks = {"least expected sum": cost, won.chance.removeprefix("the "): win}
    part.table("one-four-five-eight-choice", pd.DataFrame(
        [{"objective": objective, "shuts": board_label(board_mask(source_optimal_action(solution, board, 9))),
          "other_move": "as good (a tie)" if same_value(solution.value(board_mask([1, 8])),
                                                        solution.value(board_mask([4, 5]))) else "worse"}
         for objective, solution in picks.items()]))
    s = Sentence()
    p45 = compare.cell("p_win_4_5", "p_win", board="{4, 5}")
    p18 = compare.cell("p_win_1_8", "p_win", board="{1, 8}")
    c45, c18 = compare.cell("cost_4_5", "cost", board="{4, 5}"), compare.cell("cost_1_8", "cost", board="{1, 8}")
    more_often = s.quiet(derived("won_more_often", "relation", p45, p18)).value
    costs_more = s.quiet(derived("costs_more", "relation", c45, c18)).value
    often = {"more": "more often", "less": "less often", "the same": "exactly as often"}[more_often]
    higher = {"more": "higher", "less": "lower", "the same": "the same"}[costs_more]
    chance, sums = apart(percent, 2, p45.value, p18.value), apart(number, 3, c45.value, c18.value)
    text = (f"From {board_label(board)} a 9 can leave {{1, 8}} (shutting {{4, 5}}) or {{4, 5}} (shutting "
            f"{{1, 8}}). From {{4, 5}} {won.done} {often} ({s(p45, chance)} against {s(p18, chance)} from "
            f"{{1, 8}}) and the expected cost is {higher} ({s(c45, sums)} against {s(c18, sums)}): ")
    by_cost = {"more": "{4, 5}", "less": "{1, 8}", "the same": None}[costs_more]  # what minimising cost shuts
    by_win = {"more": "{1, 8}", "less": "{4, 5}", "the same": None}[more_often]   # what the win shuts
    if by_cost is None or by_win is None:
        indifferent = ["minimising the expected cost"] * (by_cost is None) + [f"playing to {won.do}"] * (
            by_win is None)
        text += f"{' and '.join(indifferent)} {'is' if len(indifferent) == 1 else 'are'} indifferent between them"
        text += "." if by_cost is None and by_win is None else (
            f", and {'minimising the expected cost' if by_cost else f'playing to {won.do}'} shuts "
            f"{by_cost or by_win}; the two objectives do not disagree here.")
    elif by_cost == by_win:
        text += f"both objectives shut {by_cost}; they agree here."
    else:
        text += (f"minimising the expected cost shuts {by_cost} and playing to {won.do} shuts {by_win} — the two "
                 f"objectives disagree, as the source explains.")
    part.add(s.finding("one-four-five-eight", text, kind="text"))


def source_game_from_4_5(rules: Rules) -> bool:
    """Whether the game from {4, 5} is the source's: two six-sided dice always rolled there and on every board it
    can leave ({4}, {5}), a move adding up to the roll, won only with every tile shut -- where its hand formula
    speaks of this game (a board with tiles 4 and 5)."""
    if rules.tiles < 5:
        return False
    boards = [board_mask(tiles) for tiles in ([4, 5], [4], [5])]
    game, plain = game_of(rules), game_of(Rules(tiles=rules.tiles))
    return (rules.dice, rules.sides, rules.win_at_most, rules.moves) == (2, 6, 0, "sum") and \
        (rules.max_per_move or 2) >= 2 and not game.one_die[boards].any() and \
        (plain.won[boards] == game.won[boards]).all()


def hand_part(rules: Rules, exceptions_found: Part) -> Part:
    """The source's hand arithmetic for P(win from {4, 5}) against the exact value, where the game from {4, 5} is the
    source's (:func:`source_game_from_4_5`: the formula is written in 36ths of two dice)."""
    part = Part()
    if not (source_game_from_4_5(rules) and "one-four-five-eight" in exceptions_found.tables):
        s = Sentence()
        text = ("This run's board has no tiles 4 and 5" if s.holds(parameter("tiles", rules.tiles), "<", 5) else
                "This run's game from {4, 5} is not the source's (two six-sided dice, moves adding up to the roll, "
                "every tile to be shut)")
        part.add(s.finding("hand-arithmetic", text + ", so the source's formula for it is not compared here."))
        return part
    written = hand_arithmetic_4_5()
    exact = Fraction(exceptions_found["one-four-five-eight"].set_index("board").loc["{4, 5}", "p_win_exact"])
    table = part.table("hand-arithmetic", pd.DataFrame([
        {"what": what, "p_win": float(p), "in_1296ths": float(p * 1296), "exact": fraction(p)}
        for what, p in (("the source's formula", written), ("exact", exact))]))
    s = Sentence()
    formula = table.cell("formula_1296ths", "in_1296ths", what="the source's formula")
    right = table.cell("exact_1296ths", "in_1296ths", what="exact")
    formula_p = table.cell("formula_p", "p_win", what="the source's formula")
    right_p = table.cell("exact_p", "p_win", what="exact")
    right_fraction = table.cell("exact_fraction", "exact", what="exact")
    text = (f"Its formula gives {s(formula, compact(3))}/1296 = {s(formula_p, number(6))}; the chance is "
            f"**{s(right, compact(3))}/1296** = {s(right_fraction)} = {s(right_p, number(6))}.")
    rounded = round(right_p.value, 2) == 0.13
    if rounded:
        text += " Its rounded 0.13 survives."
    part.add(s.finding("hand-arithmetic", text))
    return part


@refuses(moves=(("die-or-sum",), "its tables of actions are by the total rolled"))
def advice_part(rules: Rules) -> Part:
    """The source's closing advice -- close fewer tiles, prioritising higher numbers: the highest-tile rule (fewest
    tiles, then the highest), valued exactly for the sum left open against optimal play."""
    from ..valuation import evaluate

    part = Part()
    best = float(solve(rules, "remaining-sum").value())
    rule = float(evaluate(rules, "remaining-sum", "highest-tile").value())
    table = part.table("advice", pd.DataFrame([
        {"play": "optimal play", "expected_sum_left": best},
        {"play": "fewer tiles, higher numbers first", "expected_sum_left": rule}]).assign(
            more_than_optimal=lambda t: t["expected_sum_left"] - best,
            percent_more=lambda t: 100 * (t["expected_sum_left"] - best) / best if best else 0.0))
    s = Sentence()
    left = table.cell("rule_sum", "expected_sum_left", play="fewer tiles, higher numbers first")
    optimum = table.cell("optimal_sum", "expected_sum_left", play="optimal play")
    more = table.cell("percent_more", "percent_more", play="fewer tiles, higher numbers first")
    within = s.quiet(more).value <= RULE_OF_THUMB_PERCENT
    standard = f"the {RULE_OF_THUMB_PERCENT:g}% of the optimum a rule of thumb may lose (the report's standard)"
    judged = f"within {standard}: the advice holds, as advice" if within else f"more than {standard}"
    if s.holds(derived("rule_against_optimal", "relation", left, optimum), "==", "the same"):
        s.quiet(more, optimum)
        compared = (f"{s(left, number(3))} on average, as optimal play does: "
                    + ("the game is won before the first roll, so the advice is never followed"
                       if won_at_start(s, rules) else
                       "the advice loses nothing here"))
    else:
        compared = (f"{s(left, number(3))} on average against optimal play's {s(optimum, number(3))}, "
                    f"{s(more, share(2))} more: {judged}")
    part.add(s.finding("advice", f"Its closing advice — close fewer tiles, prioritising higher numbers — is the "
                                 f"highest-tile rule of chapter 3. Played for the sum left open it leaves "
                                 f"{compared}."))
    return part


def published_claims(rules: Rules, cost: Solution, values: Part, game: Part, trend: Part, found: Part,
                     hand: Part, advice: Part) -> dict:
    """What the engine computes for each published claim of the source (``data/published/<stem>.csv`` keys)."""
    def value_of(*tiles_open):
        return float(cost.value(board_mask(tiles_open)))

    sample = {"sample_1": (1, 3, 5, 7, 9), "sample_2": (4, 7, 8), "sample_3": (1, 3, 4, 7, 8),
              "sample_4": (3, 4, 7, 8), "sample_5": (4, 5, 6, 9), "sample_6": (1, 5), "sample_7": (3, 5, 6, 8, 9),
              "sample_8": (1, 3, 4, 6), "sample_9": (2, 6, 7), "sample_10": (2, 6, 8)}
    top = highest_cost_states(trend["policy-table"])
    choices = found["one-four-five-eight-choice"].set_index("objective")["shuts"]
    compare = found["one-four-five-eight"].set_index("board")
    ranked = trend["cost-trend"].dropna(subset=["rank_correlation"])
    return {
        "ddice_7": float(rules.roll_distribution()[7]),
        "valid_actions": "; ".join(values["example-actions"]["action"]),
        "value_8": value_of(8), "value_2_6": value_of(2, 6),
        "optimal_action": values["example-actions"].sort_values("value_after", kind="stable")["action"].iloc[0],
        "game_actions": "; ".join(game["source-game-replayed"]["move"]),
        **{key: value_of(*b) for key, b in sample.items()},
        "choice_1_4_5_8": choices["least expected sum"],
        "value_1_8": value_of(1, 8), "value_4_5": value_of(4, 5),
        "p_win_4_5": float(compare.loc["{4, 5}", "p_win"]), "p_win_1_8": float(compare.loc["{1, 8}", "p_win"]),
        **{f"top_{i + 1}": v for i, v in enumerate(top["value"].head(6))},
        "top_labels": "; ".join(top["label"].head(6)),
        "p_win_4_5_hand": Fraction(compare.loc["{4, 5}", "p_win_exact"]),
        "cost_trend": (bool((ranked["rank_correlation"] > 0).all()),
                       f"rank correlation {ranked['rank_correlation'].min():.2f} to "
                       f"{ranked['rank_correlation'].max():.2f} in every panel"),
        "advice": _advice_claim(advice),
    }


def _advice_claim(advice: Part) -> tuple[bool, str]:
    more = float(advice["advice"].set_index("play").loc["fewer tiles, higher numbers first", "percent_more"])
    return more <= RULE_OF_THUMB_PERCENT, (f"as a rule of thumb: it leaves {share(2)(more)} more than optimal play, "
                                           f"within the {RULE_OF_THUMB_PERCENT:g}% a rule of thumb may lose"
                                           if more <= RULE_OF_THUMB_PERCENT else
                                           f"it leaves {share(2)(more)} more than optimal play")


def headline(values: Part) -> dict:
    """The numbers the index shows for this chapter."""
    table = values["board-values"].set_index("board")
    return {"expected sum left": number(2)(table.loc[table["full_board"], "value"].iloc[0]),
            "V({8})": number(6)(table.loc["{8}", "value"]) if "{8}" in table.index else "n/a"}


@analysis_of(cost_solution, exceptions_part, values_part, game_part, trend_part, hand_part, advice_part)
def pipeline(rules: Rules, seed: int = 123) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    cost = cost_solution(rules)
    found = exceptions_part(rules, cost)
    return [values_part(rules, cost), game_part(rules, cost, seed), trend_part(rules, cost), found,
            hand_part(rules, found), advice_part(rules)]


def estimate(rules: Rules, seed: int = 123):
    """What the chapter will take: two solves in fractions, and every (state, roll) looked at in Python."""
    from ..cost import Estimate, solve_cost, solve_estimate

    cost = solve_cost(rules)
    exact = solve_estimate(rules, exact=rules.positions <= PAGE_EXACT_UP_TO)
    return exact * 2 + Estimate(cost.boards * cost.rolls * 6e-6 + cost.pairs * 3e-6 + cost.boards * 2e-5)
