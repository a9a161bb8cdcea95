"""Chapter 8, "The game in print": the game as people play and publish it -- its variants, the literature's rules
of thumb, how long a game lasts -- and every figure printed about them that the engine can check.

The published figures (``data/published/08-in-print.csv``) come from simulators' READMEs, a thesis's notebooks,
unit tests, a puzzle column and blog posts; each row names its own game (tiles, dice, one-die rule, move rule,
layout, objective, policy, tie-break), what is measured (``value``: the objective's value; ``exact``: the same
as a fraction; ``p_win``: the chance that the policy's game ends won; ``rolls``: the expected number of rolls)
and, where it is a board other than the full one, the board. :func:`claims_table` computes every one of them
from its own game, so the checks do not depend on this run's parameters.

Three rules of thumb are the sources' own and are defined here: ``hilo`` (Thai style: the tile first in the order
9, 8, 7, 1, 2, 3, 4, 5, 6), ``most-moves`` (the move after which the most legal moves remain, over every total:
the thesis's "viele Folgeoptionen"; not the engine's ``most-options``, which counts totals) and ``most-throws``
(the move after which the most of the 36 throws can still be played, then the highest tile, then the fewest
tiles: andy327's "Most Options" as its stored code defines it).

Beyond one game's value, a row may measure a **head-to-head** of two independent games, this policy against
another (``beats:<policy>``, ``loses-to:<policy>``, ``ties:<policy>``: the chance that this policy's final sum is
lower, higher, the same), or count the (board, total) pairs that leave some legal move (``playable-pairs``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd

from ..boards import parse_tiles, tile_counts
from ..choice import VALUE_RTOL, same_value
from ..game import Game, game_of
from ..limits import PAGE_EXACT_UP_TO
from ..policies import Policy, get_policy, over_outcomes, playable_outcomes
from ..rules import OPTIONS, Rules, analysis_of
from ..sweep import Solution, solve
from ..valuation import (
    evaluate,
    expected_rolls,
    final_board_probabilities,
    final_sum_distribution,
    roll_count_distribution,
    tiles_open_after,
)
from .findings import Computed, Part, Sentence, derived, equal_to, query
from .published import as_read, brief_reference, load_published, references
from .verdicts import printed_of, written_like
from .words import all_dice, apart, counted, integer, listing, number, percent, relation, share, winning

HEURISTICS = ("largest-tile", "highest-tile", "fewest-tiles", "most-tiles", "lowest-tile", "most-options", "random")
NAMES = {"optimal": "optimal play", "worst": "the worst play", "largest-tile": "the largest tile first",
         "highest-tile": "the fewest tiles, then the highest", "fewest-tiles": "the fewest tiles",
         "most-tiles": "the most tiles", "lowest-tile": "the lowest tile first",
         "most-options": "the most rolls left playable", "random": "a random legal move",
         "hilo": "HiLo (9, 8, 7, then 1 to 6)", "most-moves": "the most moves left",
         "most-throws": "the most throws left playable, then the highest tile, then the fewest tiles",
         "largest-number": "a move holding the largest tile"}
GOALS = {"win": "shutting the box", "remaining-sum": "the lowest sum left", "digits": "the lowest digit score",
         "flipped-count": "the most tiles shut"}
TIES = {"canonical": "", "random": ", ties at random", "most-tiles": ", ties to the most tiles, then the highest",
        "fewest-tiles": ", ties to the fewest tiles, then the highest"}
MEASURES = {"value": {"win": "P(shut the box)", "remaining-sum": "expected sum left", "digits": "expected digit score",
                      "flipped-count": "expected tiles shut"},
            "exact": "P(shut the box), as a fraction", "p_win": "P(shut the box)", "rolls": "expected rolls",
            "playable-pairs": "(open tiles, roll) pairs with a legal move", "beats": "P(it leaves less)",
            "loses-to": "P(it leaves more)", "ties": "P(both leave the same)"}


def measured(measure: str, objective: str) -> str:
    """What a printed figure measures, in words."""
    outcome, _, versus = measure.partition(":")
    if versus:
        return f"{MEASURES[outcome]} than {NAMES.get(versus, versus)}" if outcome != "ties" else \
            f"{MEASURES[outcome]} as {NAMES.get(versus, versus)}"
    words = MEASURES[measure]
    return words[objective] if isinstance(words, dict) else words
# The variants of the game in print: a key, what it changes in the run's rules, and its name in words
VARIANTS = {
    "classic": ({}, "{dice} on every roll"),
    "less-than-6": ({"one_die": "sum-le-5"}, "one die allowed at 5 or less (\u2018less than 6\u2019)"),
    "pub": ({"one_die": "sum-le-6"}, "one die allowed at 6 or less"),
    "any-time": ({"one_die": "sum-le-300"}, "{any_time}"),
    "thai": ({"moves": "die-or-sum"}, "Thai style: one tile a roll, {thai}"),
    "double-shutter": ({"layout": "double-shutter", "one_die": "sum-le-6"},
                       "Double Shutter, one die allowed at 6 or less"),
}
DOUBLE_SHUTTER_SOLVED = 10  # the largest front row the chapter solves (20 tiles in all, numpy's sweep)


# -- the sources' own rules of thumb ---------------------------------------------------------------------------
def _hilo(game: Game) -> np.ndarray:
    """HiLo: one tile, in the order 9, 8, 7, 1, 2, ..., 6 (a move of several tiles ranks last)."""
    order = [9, 8, 7, 1, 2, 3, 4, 5, 6]
    rank = {1 << (t - 1): len(order) - i for i, t in enumerate(order)}
    return np.array([rank.get(int(m), 0) for m in game.catalogue.flat.tolist()], dtype=np.int64)


def _most_moves(game: Game) -> np.ndarray:
    """The most legal moves left, over every outcome, on the board a move leaves."""
    return over_outcomes(game, lambda legal: legal.sum(axis=1))


def _room(game: Game) -> int:
    """A power of two above every lower criterion of most-throws, so each ranks below the one above."""
    return 1 << max(game.total, game.positions).bit_length()


def _throws_left(game: Game) -> np.ndarray:
    """The throws (of the 36) still playable on each board."""
    return over_outcomes(game, lambda legal: legal.any(axis=1), weighted=True)


def _highest_then_fewest(game: Game) -> np.ndarray:
    """Most Options' lower criteria: the highest tile, then the fewest tiles (below its first criterion)."""
    flat = game.catalogue.flat
    return game.largest[flat].astype(np.int64) * _room(game) - tile_counts(flat)


def _most_throws(game: Game) -> np.ndarray:
    """andy327's "Most Options" as committed when its README printed 6.757% (MoveStrategy.scala since b0ab652a): the
    throws (of the 36) still playable from the full board less the move -- ``allTiles -- combo``, not the board in
    play --, then the highest tile, then the fewest tiles; a key of the move alone."""
    playable = _throws_left(game)[game.full_board & ~game.catalogue.flat]
    return playable * _room(game) ** 2 + _highest_then_fewest(game)


MOST_THROWS_ON_THE_BOARD = Policy("most-throws on the board", move_key=_highest_then_fewest,
                                  left_key=lambda game: _throws_left(game) * _room(game) ** 2)


def _largest_number(game: Game) -> np.ndarray:
    """The move's largest tile alone: arcini's "TopDown" (the first move once sorted by it, the canonical order
    among equals) and heathhenley's "option containing the largest number" (one of them at random)."""
    return game.largest[game.catalogue.flat].astype(np.int64)


OWN_POLICIES = {"hilo": Policy("hilo", move_key=_hilo), "most-moves": Policy("most-moves", left_key=_most_moves),
                "most-throws": Policy("most-throws", move_key=_most_throws),
                "largest-number": Policy("largest-number", move_key=_largest_number)}


def policy_of(name: str) -> Policy:
    return OWN_POLICIES.get(name) or get_policy(name)


# -- measures ------------------------------------------------------------------------------------------------
def p_win(solution: Solution) -> float:
    """The chance that the solution's policy ends the game won (whatever it plays for)."""
    ends = np.asarray(final_board_probabilities(solution), dtype=float)
    return float(ends[game_of(solution.rules).won].sum())


HEAD_TO_HEAD = {"beats": lambda mine, theirs: mine < theirs, "loses-to": lambda mine, theirs: mine > theirs,
                "ties": lambda mine, theirs: mine == theirs}


def head_to_head(solution: Solution, other: Solution, outcome: str) -> float:
    """The chance that two independent games, one played by each solution's policy, end with ``solution``'s sum
    left lower (``beats``), higher (``loses-to``) or the same (``ties``): from the two final-sum distributions."""
    mine = final_sum_distribution(solution.rules, solution=solution)
    theirs = final_sum_distribution(other.rules, solution=other)
    settles = HEAD_TO_HEAD[outcome]
    return float(sum(p * q for a, p in mine.items() for b, q in theirs.items() if settles(a, b)))


def _measure(solution: Solution, measure: str, board: int):
    if measure == "value":
        return float(solution.value(board))
    if measure == "exact":
        return Fraction(solution.value(board))
    if measure == "p_win":
        return p_win(solution)
    if measure == "rolls":
        return float(expected_rolls(solution, board))
    if measure == "playable-pairs":
        return int(playable_outcomes(solution.game).sum())
    outcome, _, versus = measure.partition(":")
    if outcome in HEAD_TO_HEAD:
        other = evaluate(solution.rules, solution.objective, policy_of(versus), tie_break=solution.tie_break)
        return head_to_head(solution, other, outcome)
    raise ValueError(measure)


def claim_rules(row) -> Rules:
    return Rules(tiles=int(row.tiles), dice=int(row.dice), sides=int(row.sides), one_die=row.one_die,
                 one_die_forced=row.one_die_forced == "True",
                 max_per_move=int(row.max_per_move) if row.max_per_move else None, moves=row.moves,
                 layout=row.layout)


def outcome_sd(solution: Solution, board: int) -> float:
    """The standard deviation of one game's outcome (the objective's value of its final board) from ``board``: what a
    simulated mean's standard error is made of."""
    ends = np.asarray(final_board_probabilities(solution, board), dtype=float)
    utility = np.asarray(solution.objective.values(solution.game), dtype=float)
    mean = float(ends @ utility)
    return math.sqrt(max(float(ends @ utility**2) - mean * mean, 0.0))


def claims_table(published: pd.DataFrame) -> pd.DataFrame:
    """Every published figure computed now from its own game: the rules in words, the objective, the policy and
    its tie-break, what is measured, and the value (``computed``; ``exact`` as a fraction where measured so; ``sd``
    the standard deviation of one game's outcome, for an objective's value)."""
    rows = []
    for row in published.itertuples(index=False):
        rules = claim_rules(row)
        exact = row.measure == "exact"
        solution = evaluate(rules, row.objective, policy_of(row.policy), tie_break=row.tie_break, exact=exact)
        board = parse_tiles(row.board, rules) if row.board else rules.full_board
        value = _measure(solution, row.measure, board)
        sd = outcome_sd(solution, board) if row.measure == "value" and row.objective != "win" else np.nan
        play = f"{NAMES.get(row.policy, row.policy)}{TIES[row.tie_break]}, for {GOALS[row.objective]}"
        rows.append({"key": row.key, "claim": row.claim, "printed_by": brief_reference(row.source),
                     "rules": rules.describe(), "objective": row.objective, "policy": row.policy,
                     "tie_break": row.tie_break, "measure": row.measure, "board": row.board or "every tile",
                     "play": play, "measured": measured(row.measure, row.objective),
                     "game": f"{rules.describe()}; {play}; {measured(row.measure, row.objective)}"
                             + (f", from {{{row.board}}}" if row.board else ""),
                     "computed": float(value), "exact": str(value) if exact else "", "sd": sd,
                     "computed_shown": shown_as_printed(row, value)})
    return pd.DataFrame(rows)


def shown_as_printed(row, value) -> str:
    """The computed value written as the source printed its figure (its decimals; a probability as a percentage)."""
    text = written_like(printed_of(row), value)
    return as_read(text, row.unit) if row.unit == "probability" else text


# -- the variants ----------------------------------------------------------------------------------------------
PRINTED_BASE = {"layout": "row", "moves": "sum", "one_die": "never", "one_die_forced": False}  # what a variant sets


def variant_rules(rules: Rules, key: str) -> Rules:
    """The run's tiles, dice and sides, cap per roll and winning threshold under one of :data:`VARIANTS`: each sets
    the board, the move rule and the one-die rule its name states (one row, tiles adding up to the roll and all the
    dice always, unless it says otherwise; two dice at most for Thai style; a front row of at most
    ``DOUBLE_SHUTTER_SOLVED`` tiles for Double Shutter)."""
    changes = {**PRINTED_BASE, **VARIANTS[key][0]}
    if key == "thai":
        changes["dice"] = min(rules.dice, 2)
    if key == "double-shutter":
        changes["tiles"] = min(rules.tiles, DOUBLE_SHUTTER_SOLVED)
    return replace(rules, **changes)


def variant_name(rules: Rules, key: str) -> str:
    """The variant's name in words, for the run's dice (``two dice on every roll``; Thai style with one die shuts
    the tile equal to the die)."""
    game = variant_rules(rules, key)
    thai = "equal to the die" if game.dice == 1 else "either die or the sum"
    if key == "thai" and rules.dice > game.dice:  # the Thai style is played with two dice
        pair = "a pair of dice" if game.sides == 6 else f"a pair of {game.sides}-sided dice"
        thai = f"from {pair}, {thai}"
    any_time = (f"one die or {all_dice(game)}, the player's choice, on every roll" if game.dice > 1
                else "one die on every roll (with one die there is no choice)")
    name = VARIANTS[key][1].format(dice=all_dice(game), thai=thai, any_time=any_time)
    if "one_die" in VARIANTS[key][0] and game.dice == 1 and key != "any-time":  # one die: nothing to allow
        name += " (with one die, the same game as on every roll)"
    if game.tiles < rules.tiles:  # Double Shutter's front row is capped: say so wherever it is compared
        name += f" (on a front row of {game.tiles} tiles, not {rules.tiles})"
    return name


def variants_table(rules: Rules) -> pd.DataFrame:
    """Each variant: its rules in words, the chance of shutting the box with perfect play, the least expected
    score (the sum left; Double Shutter's front row counting double), the least expected digit score (one row of
    up to 12 tiles, else empty), how many rolls a game played for the win lasts on average, and whether the game is
    won before the first roll."""
    rows = []
    for key in VARIANTS:
        game, name = variant_rules(rules, key), variant_name(rules, key)
        win = solve(game, "win")
        digits = float(solve(game, "digits").value()) if game.layout == "row" and game.tiles <= 12 else np.nan
        rows.append({"variant": key, "variant_name": name, "rules": game.describe(),
                     "won_at_start": game.won_at_start, "p_win": float(win.value()),
                     "expected_score": float(solve(game, "remaining-sum").value()), "expected_digits": digits,
                     "expected_rolls": float(expected_rolls(win))})
    return pd.DataFrame(rows)


def quoted(names) -> str:
    """``“a” and “b”``: names that read as one phrase each."""
    return listing([f"“{name}”" for name in names])


def variants_part(rules: Rules) -> Part:
    part = Part()
    table = part.table("variants", variants_table(rules))
    s = Sentence()
    part.add(s.finding("variants", variants_sentence(rules, table, s)))
    s = Sentence()
    double = table.cell("double_score", "expected_score", variant="double-shutter")
    double_rules = table.cell("double_rules", "rules", variant="double-shutter")
    part.add(s.finding("double-shutter", f"Played for the least score, Double Shutter scores "
                                         f"{s(double, number(3))} on average (the game: {s(double_rules)}).",
                       kind="text"))
    return part


def variants_sentence(rules: Rules, table, s: Sentence) -> str:
    """The best variant for perfect play, and the run's game and Thai style where they are not among the best (none
    at all where no variant can be won)."""
    best = s.quiet(table.fact("best_variant", "variant_name", "first", order=[("p_win", "desc")]))
    best_p = table.fact("best_p_win", "p_win", "first", order=[("p_win", "desc")])
    classic = table.cell("classic_p_win", "p_win", variant="classic")
    thai = table.cell("thai_p_win", "p_win", variant="thai")
    compared = s.quiet(derived("thai_vs_classic", "relation", thai, classic))
    level = equal_to("p_win", best_p.value)
    tied = table.count("best_variants", level)
    if s.holds(best_p, "==", 0):
        s.quiet(tied, classic, thai)
        return (f"In none of these variants can perfect play win: its {winning(rules).axis} is "
                f"{s(best_p, percent(0))} in each.")
    if s.holds(tied, ">", 1):
        names = table.fact("best_variant_names", "variant_name", "list", level, [("p_win", "desc")])
        before = table.count("best_won_at_start", [*level, ("won_at_start", "==", True)])
        why = (f" ({'all' if s.holds(before, '==', tied.value) else s(before, integer)} of them won before the first "
               f"roll)" if s.holds(before, ">", 0) else "")
        lead = (f"Of these variants, {s(tied, counted('variant', words=True))} give perfect play the same best "
                f"{winning(rules).axis}, {s(best_p, percent(2))}{why}: {s(names, quoted)}")
    else:
        lead = (f"Of these variants, {s(best)} gives perfect play the best {winning(rules).axis}, "
                f"{s(best_p, percent(2))}")
    leading = set(query(table.frame, "variant", "list", level))
    every_roll = f"with {all_dice(rules)} on every roll"
    than = {"more": "more than", "less": "less than"}.get(compared.value, "the same as")
    clauses = [] if "classic" in leading else [f"{every_roll} it is {s(classic, percent(2))}"]
    if "thai" not in leading:
        clauses.append(f"Thai style {s(thai, percent(2))} ({than} {every_roll})")
    for key, fact in (("classic", classic), ("thai", thai)):
        if key in leading:  # among the best, named there
            s.quiet(fact)
    thrown = " where a roll is thrown" if table.frame["won_at_start"].any() else ""
    moved = (f" Every variant but the Thai style shuts {OPTIONS['moves'].short('sum')}{thrown}, not this run's move "
             f"rule ({own_move_rule(rules)})." if rules.moves != PRINTED_BASE["moves"] else "")
    return lead + ("; " + ", and ".join(clauses) if clauses else "") + "." + moved


def own_move_rule(rules: Rules) -> str:
    """The run's move rule in a few words, for its dice: with one die there is no sum to take."""
    if rules.moves == "die-or-sum" and rules.dice == 1:
        return "Thai style: one tile, equal to the die"
    return OPTIONS["moves"].short(rules.moves)


# -- the literature's heuristics ------------------------------------------------------------------------------
def heuristics_table(rules: Rules) -> pd.DataFrame:
    """Each named rule of thumb (and optimal and worst play) on the run's game: its chance of shutting the box,
    its expected sum left, what each gives up against perfect play (in percent of the optimum), and how many
    rolls its games last on average."""
    best_win, best_sum = float(solve(rules, "win").value()), float(solve(rules, "remaining-sum").value())
    rows = []
    for name in ("optimal", *HEURISTICS, "worst"):
        win = evaluate(rules, "win", name)
        score = evaluate(rules, "remaining-sum", name)
        w, v = float(win.value()), float(score.value())
        rows.append({"policy": name, "policy_name": NAMES[name], "p_win": w,
                     "win_loss_percent": 100 * (best_win - w) / best_win if best_win else 0.0,
                     "expected_remaining_sum": v,
                     "sum_loss_percent": 100 * (v - best_sum) / best_sum if best_sum else 0.0,
                     "expected_rolls": float(expected_rolls(win))})
    table = pd.DataFrame(rows)
    return table.assign(win_rank=win_ranks(rules, table))


def win_ranks(rules: Rules, table: pd.DataFrame) -> list[int]:
    """Each way of playing's place by its chance of winning, 1 the most, equal chances sharing a place. Floats
    further apart than :data:`VALUE_RTOL` are ordered as they are; those within it are compared again in exact
    arithmetic up to :data:`PAGE_EXACT_UP_TO` tiles in all (two rules 1e-10 apart are not tied), and share a
    place beyond."""
    groups = []
    for i, p in table["p_win"].sort_values(ascending=False, kind="stable").items():
        if groups and same_value(p, table.at[groups[-1][0], "p_win"]):
            groups[-1].append(i)
        else:
            groups.append([i])
    ranks, place = {}, 0
    for group in groups:
        if len(group) > 1 and rules.positions <= PAGE_EXACT_UP_TO:
            exact = {i: evaluate(rules, "win", table.at[i, "policy"], exact=True).value() for i in group}
            levels = sorted(set(exact.values()), reverse=True)
            ranks |= {i: place + 1 + levels.index(exact[i]) for i in group}
            place += len(levels)
        else:
            place += 1
            ranks |= dict.fromkeys(group, place)
    return [ranks[i] for i in table.index]


def heuristics_part(rules: Rules) -> Part:
    part = Part()
    table = part.table("heuristics", heuristics_table(rules))
    s = Sentence()
    named_ = [("policy", "in", HEURISTICS)]
    first = [("win_rank", "asc"), ("policy", "asc")]  # the best, exactly where it can be told
    best = s.quiet(table.fact("best_heuristic", "policy_name", "first", named_, first))
    best_p = table.fact("best_heuristic_p_win", "p_win", "first", named_, first)
    best_rank = s.quiet(table.fact("best_heuristic_rank", "win_rank", "first", named_, first))
    best_loss = table.fact("best_heuristic_loss", "win_loss_percent", "first", named_, first)
    ranks = {p: s.quiet(table.cell(f"{p.replace('-', '_')}_rank", "win_rank", policy=p))
             for p in ("optimal", "worst", "largest-tile", "highest-tile")}
    largest = table.cell("largest_p_win", "p_win", policy="largest-tile")
    highest = table.cell("highest_p_win", "p_win", policy="highest-tile")
    # a lower place wins more: the largest tile's place against the highest-tile rule's, turned
    compared = s.quiet(derived("highest_place_vs_largest", "relation", ranks["highest-tile"], ranks["largest-tile"]))
    than = {"more": "more than", "less": "less than"}.get(compared.value, "the same as")
    level = [*named_, ("win_rank", "==", best_rank.value)]
    tied = table.count("best_heuristics", level)
    if s.holds(best_rank, "==", ranks["optimal"].value):
        s.quiet(best_loss)
        lower = "as much as perfect play"
    else:
        lower = f"a chance {s(best_loss, share(1))} lower than perfect play’s"
    if s.holds(best_p, "==", 0):
        s.quiet(tied, largest, highest)
        worst = table.cell("worst_p_win", "p_win", policy="worst")
        part.add(s.finding("heuristics", f"For the win, no way of playing wins a game here, perfect play and the worst "
                                         f"play included ({s(worst, percent(0))} each): no rule of thumb has "
                                         f"anything to gain or lose."))
        return part
    if s.holds(ranks["worst"], "==", ranks["optimal"].value):
        s.quiet(tied, largest, highest)
        part.add(s.finding("heuristics", f"For the win, every way of playing wins {s(best_p, percent(2))} here, the "
                                         f"worst play included: no decision changes the "
                                         f"chance, so every rule of thumb does as well as perfect play."))
        return part
    part.add(s.finding("heuristics", heuristics_words(s, table, (best, best_p, tied, level, lower), largest, highest,
                                                      than)))
    return part


def heuristics_words(s: Sentence, table, best: tuple, largest, highest, than: str) -> str:
    """The best rule of thumb for the win (or the ones that tie for it), and the literature's largest tile first
    against this report's fewest tiles, then the highest."""
    name, best_p, tied, level, lower = best
    shown = max((apart(percent, 2, a, b) for a, b in itertools.combinations(
        (largest.value, highest.value, best_p.value), 2)), key=lambda f: f.decimals)  # digits to show every order
    if s.holds(tied, ">", 1):
        names = table.fact("best_heuristic_names", "policy_name", "list", level, [("policy", "asc")])
        lead = (f"For the win, {s(tied, counted('rule', words=True))} of thumb tie for the best, "
                f"{s(names, quoted)}: {s(best_p, shown)}, {lower}")
    else:
        lead = f"For the win, the best of these rules of thumb is {s(name)}: {s(best_p, shown)}, {lower}"
    fine = f"; the two differ by less than one part in {1 / VALUE_RTOL:,.0f}" if than != "the same as" and relation(
        largest.value, highest.value) == "the same" else ""  # apart by their exact values, not their floats
    return (f"{lead}. The literature's \u201clargest tile first\u201d wins "
            f"{s(largest, shown)}, {than} this report's \u201cfewest tiles, then the highest\u201d "
            f"({s(highest, shown)}{fine}).")


# -- how long a game lasts -------------------------------------------------------------------------------------
def roll_counts_table(rules: Rules) -> pd.DataFrame:
    """The chance that a game lasts each number of rolls (the last, the one that finds no move, included), under
    optimal play for the win and two rules of thumb, each with its chance of winning."""
    rows = []
    for name in ("optimal", "largest-tile", "random"):
        played = evaluate(rules, "win", name)
        for n, p in roll_count_distribution(played).items():
            rows.append({"policy": name, "policy_name": NAMES[name], "rolls": n, "probability": float(p),
                         "p_win": float(played.value())})
    return pd.DataFrame(rows)


def tiles_open_table(rules: Rules) -> pd.DataFrame:
    """The chance that each tile is still open after each number of rolls, optimal play for the win: each tile by
    its name on the board (``7``; a Double Shutter back tile ``b2``) and its place in the board's order
    (``position``, from 1)."""
    solution = solve(rules, "win")
    after, names = tiles_open_after(solution), solution.game.layout.labels
    return pd.DataFrame([{"rolls": k, "position": t + 1, "tile": names[t], "p_open": float(after[k, t])}
                         for k in range(after.shape[0]) for t in range(after.shape[1])])


def length_part(rules: Rules) -> Part:
    part = Part()
    counts = part.table("roll-counts", roll_counts_table(rules))
    tiles = part.table("tiles-open", tiles_open_table(rules))
    s = Sentence()
    optimal = [("policy", "==", "optimal")]
    likeliest = counts.fact("likeliest_rolls", "rolls", "first", optimal, [("probability", "desc"), ("rolls", "asc")])
    its_p = counts.fact("likeliest_p", "probability", "first", optimal, [("probability", "desc"), ("rolls", "asc")])
    longest = counts.fact("longest", "rolls", "max", optimal)
    if s.holds(longest, "==", 0):
        s.quiet(likeliest, its_p)
        text = "Played for the win, every game is over before the first roll."
    else:
        never = s.holds(counts.fact("optimal_p_win", "p_win", "max", optimal), "==", 0)
        first = ("the front row's lowest tiles first, then the back row's highest" if rules.layout == "double-shutter"
                 else "the lowest tiles first")
        lead = (f"No way of playing wins here, so play for the win is its tie-break alone ({first}): a game"
                if never else "Played for the win, a game")
        top = [*optimal, *equal_to("probability", its_p.value)]  # every length as likely as the likeliest
        alike = counts.fact("likeliest_lengths", "rolls", "list", top, [("rolls", "asc")])
        if s.holds(alike, "==", [likeliest.value]):
            often = f"{s(likeliest, counted('roll'))} ({s(its_p, percent(1))} of games)"
        else:
            s.quiet(likeliest)
            lengths = s(alike, lambda v: listing([str(n) for n in v], conjunction="or"))
            often = f"{lengths} rolls ({s(its_p, percent(1))} of games each)"
        text = f"{lead} most often lasts {often} and never more than {s(longest, counted('roll'))}."
    part.add(s.finding("length", text))
    part.add(tiles_open_finding(tiles))
    return part


def tiles_open_finding(tiles):
    """The tile (or tiles, tied) most often left standing at the end of a game played for the win."""
    s = Sentence()
    last = tiles.fact("after_rolls", "rolls", "max")
    at_end = [("rolls", "==", last.value)]
    stays_p = tiles.fact("stays_open_p", "p_open", "max", at_end)
    top = [*at_end, *equal_to("p_open", stays_p.value)]
    stays = tiles.fact("stays_open", "tile", "list", top, [("position", "asc")])
    names = s(stays, lambda v: listing([str(t) for t in v], most=len(v)))  # every one: a reader looks for them
    if s.holds(stays_p, ">=", 1 - 1e-12):  # every game: a sum of float chances may fall short of 1 by rounding
        text = (f"{'Tile' if len(stays.value) == 1 else 'Tiles'} {names} {'is' if len(stays.value) == 1 else 'are'} "
                f"never shut: open at the end of every game.")
    elif len(stays.value) > 1:
        text = f"The tiles most often left standing at the end are {names}, each open in {s(stays_p, percent(1))} of " \
               f"finished games."
    else:
        text = (f"The tile most often left standing at the end is {names}, open in {s(stays_p, percent(1))} of "
                f"finished games.")
    return s.finding("tiles-open", text, kind="text")


# -- what has been printed --------------------------------------------------------------------------------------
def print_part(published: pd.DataFrame) -> Part:
    part = Part()
    table = part.table("claims-computed", claims_table(published))
    computed = table.frame.set_index("key")["computed"]
    printed = published.set_index("key")["published"]
    rows = []
    plays = {"most": "the most tiles (ties to the higher tiles)", "high": "the largest tile first",
             "moves": "the most follow-up moves", "random": "a random legal move",
             "opt": "the least sum left (optimal play for it)"}
    first = published.set_index("key")
    for key in plays:  # the first notebook's expected rolls (the second prints the exact values, where it has them)
        row = first.loc[f"lp_{key}_rolls"]
        exact, won = computed[f"lp_{key}_rolls"], computed[f"lp_{key}_win"]
        rows.append({"policy": key, "play": plays[key], "printed": float(row["published"]), "exact": exact,
                     "excess": float(row["published"]) - exact, "p_win": won,
                     "gap": abs(float(row["published"]) - exact - won), "corrected_later": bool(row["corrected"])})
    excess = part.table("rolls-excess", pd.DataFrame(rows))
    s = Sentence()
    rows_n = excess.count("rules")
    later = excess.count("later", [("corrected_later", "==", True)])
    largest = excess.fact("largest_excess", "excess", "max")
    worst = excess.fact("largest_gap", "gap", "max")
    text = (f"The thesis's first notebook prints expected rolls that are too high for {s(rows_n, counted('rule'))}, "
            f"by up to {s(largest, number(4))} rolls, and each excess is that rule's chance of a win in the "
            f"thesis's game, every tile shut (to within {s(worst, number(5))}, inside its four printed decimals): its "
            f"count goes on rolling after the last tile is down. Its second notebook prints the exact value for "
            f"{s(later, counted('rule'))}: corrected by the source.")
    part.add(s.finding("rolls-excess", text))
    simulated_rule(part, published, computed, printed)
    return part


def simulated_rule(part: Part, published: pd.DataFrame, computed: pd.Series, printed: pd.Series) -> None:
    """The simulator's own rule of thumb (``most-throws``, as its code stood when its README printed the figure):
    its printed win rate, the exact one, the games simulated and how many standard errors lie between the two; and
    the same rule scored on the board in play, as its name means (and as its earlier commits had it)."""
    row = published.set_index("key").loc["ap_most_options"]
    rules = claim_rules(row)
    games, exact = int(row["games"]), float(computed["ap_most_options"])
    shown = float(printed["ap_most_options"]) / (100 if row["unit"] == "percent" else 1)
    error = math.sqrt(exact * (1 - exact) / games)
    meant = float(evaluate(rules, "win", MOST_THROWS_ON_THE_BOARD).value())
    table = part.table("simulated-rule", pd.DataFrame([{
        "key": "ap_most_options", "play": NAMES["most-throws"], "printed": shown, "exact": exact, "games": games,
        "standard_error": error, "errors_away": abs(shown - exact) / error, "side": "below" if shown < exact
        else "above", "exact_on_the_board": meant}]))
    s = Sentence()
    exact_, shown_ = table.fact("rule_exact", "exact"), table.fact("rule_printed", "printed")
    games_, away = table.fact("rule_games", "games"), table.fact("rule_away", "errors_away")
    meant_ = table.fact("rule_meant", "exact_on_the_board")
    text = (f"Andres Perez's Scala simulator benchmarks a rule it calls \u201cMost Options\u201d. In the code that "
            f"printed its figure each move is scored by the throws still playable from the full board less the move, "
            f"not from the board in play (its earlier commits used the board in play); that rule, then the highest "
            f"tile, then the fewest tiles, wins {s(exact_, percent(3))} exactly, and the README's "
            f"{s(shown_, percent(3))} from {s(games_, integer)} simulated games lies {s(away, number(1))} standard "
            f"errors from it: the figure is reproduced, bug and all. Scored on the board in play, as its name means, "
            f"the rule would win {s(meant_, percent(3))}.")
    part.add(s.finding("simulated-rule", text))


def references_table(published: pd.DataFrame) -> pd.DataFrame:
    """The write-ups the chapter's printed figures come from, in order of first appearance: who, what, when, where."""
    found = references()
    rows = []
    for key in dict.fromkeys(published["source"]):
        ref = found[key]
        rows.append({"key": key, "author": ref["author"], "title": ref["title"], "year": ref["year"],
                     "published_in": ref["published_in"], "address": ref["address"], "note": ref.get("note", ""),
                     "figures": int((published["source"] == key).sum())})
    return pd.DataFrame(rows)


def published_claims(published: pd.DataFrame, claims: Part) -> dict:
    """What the checks compare with ``data/published/08-in-print.csv``: every figure from its own game (in percent
    where it was printed so), and the HiLo statement."""
    table = claims["claims-computed"].set_index("key")
    out = {}
    for row in published.itertuples(index=False):
        if row.kind == "statement":
            continue
        found = table.loc[row.key]
        value = Fraction(found["exact"]) if found["exact"] else float(found["computed"])
        out[row.key] = Computed(value, None if pd.isna(found["sd"]) else float(found["sd"]))
    hilo, best = float(table.loc["mf_hilo", "computed"]), thai_optimum()
    out["mf_optimal"] = (bool(same_value(hilo, best)),
                         f"it wins {percent(4)(hilo)}; optimal play wins {percent(4)(best)}")
    return out


def thai_optimum() -> float:
    """The best chance of shutting the box Thai style (tiles 1-9, two dice)."""
    return float(solve(Rules(moves="die-or-sum"), "win").value())


def headline(variants: Part) -> dict:
    """The numbers the index shows for this chapter."""
    table = variants["variants"].set_index("variant")
    return {"Thai style, perfect play": percent(2)(table.loc["thai", "p_win"]),
            "Double Shutter, least score": number(3)(table.loc["double-shutter", "expected_score"])}


@analysis_of(variants_part, heuristics_part, length_part)
def pipeline(rules: Rules, published: pd.DataFrame | None = None) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    published = load_published("08-in-print") if published is None else published
    return [variants_part(rules), heuristics_part(rules), length_part(rules), print_part(published)]


def estimate(rules: Rules):
    """What the chapter will take: a few solves of each variant and of each rule of thumb, and the published
    figures' own games (a few seconds)."""
    from ..cost import Estimate, solve_estimate

    total = Estimate(20.0, 2**28)
    for key in VARIANTS:
        total = total + solve_estimate(variant_rules(rules, key)) * 5
    return total + solve_estimate(rules) * 2 * (len(HEURISTICS) + 2)
