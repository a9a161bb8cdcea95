"""Source 001, the Riddler Classic of April 13 2018: tiles 1-9, and once 7, 8 and 9 are all shut the player
may roll one die instead of two. Its exhibits and findings, shaped from the engine's solution for any rules.

The one-die choice is the engine's ``Rules(one_die="high-shut")``; ``Solution.dice_values`` gives the chance
of shutting the box after choosing each number of dice, with optimal play afterwards (the source's
``R_1(S)`` and ``R_2(S)``). The chapter's parts, in page order: :func:`value_part` (the value of the game and
the same board under each one-die rule), :func:`choice_part` (every board where one die may be chosen),
:func:`statements_part` (the source's two sentences tested on every such board) and :func:`other_rule_part`
(the other one-die rule against this run's); :func:`pipeline` runs them all from the page's parameters.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd

from ..analysis import dice_choices_table
from ..game import game_of
from ..limits import PAGE_EXACT_UP_TO
from ..rules import ONE_DIE_OPTIONS, Rules, analysis_of, one_die_short, one_die_when, refuses
from ..sweep import Solution, solve
from ..valuation import reach_probabilities
from .findings import Part, Sentence, Table, derived, of_rules, parameter
from .words import (
    agrees,
    all_dice,
    apart,
    counted,
    dice_words,
    fraction,
    integer,
    number,
    percent,
    points,
    ranges,
    tiles_of,
    winning,
)


# -- section 1: the value, and the same board under each one-die rule ----------------------------------------
def contrast_table(rules: Rules) -> pd.DataFrame:
    """The chance of shutting the box with perfect play under each one-die rule (the rest of ``rules`` kept):
    float, exact fraction as text (up to ``PAGE_EXACT_UP_TO`` tiles), the gain over all the dice always, which row is
    this run's rule, and how many boards the solve values that can arise (every set of open tiles, but on a Double
    Shutter no back tile down while its front tile stands: 3^N of the 4^N)."""
    exact = rules.positions <= PAGE_EXACT_UP_TO
    rows = []
    for option in dict.fromkeys((*ONE_DIE_OPTIONS, rules.one_die)):  # the named rules, and this run's
        variant = replace(rules, one_die=option)
        solution = solve(variant, "win", exact=exact)
        value = solution.value()
        rows.append({"one_die": option, "one_die_rule": one_die_short(option), "rules": variant.describe(),
                     "boards": int(solution.game.possible.sum()), "p_win": float(value),
                     "p_win_exact": fraction(value) if exact else "", "this_run": option == rules.one_die})
    table = pd.DataFrame(rows)
    table["gain"] = table["p_win"] - table.loc[table["one_die"] == "never", "p_win"].item()
    return table


def value_part(rules: Rules) -> Part:
    """The value of this run's game with perfect play, and the same board under each one-die rule."""
    part = Part()
    table = part.table("value-and-contrast", contrast_table(rules))
    s = Sentence()
    value = table.cell("p_win", "p_win", one_die=rules.one_die)
    exact = table.cell("p_win_exact", "p_win_exact", one_die=rules.one_die)
    count = table.cell("boards", "boards", one_die=rules.one_die)
    arise = " that the back-row rule allows" if s.holds(count, "<", rules.states) else ""  # not all reached
    boards = s(count, integer)
    won = winning(rules)
    if s.holds(value, "==", 0):
        head = f"With perfect play {won.never} ({s(value, percent(2))})"
    else:
        head = f"With perfect play {won.subject} is {won.done_word} in **{s(value, percent(2))}** of games{won.at}"
    detail = (f"exactly {s(exact)} ({s(derived_value(value), number(6))})" if s.holds(exact, "!=", "") else
              f"{s(derived_value(value), number(6))}")
    part.add(s.finding("value", f"{head}: {detail}, solving all {boards} boards of {tiles_of(rules)}{arise}."))

    s = Sentence()
    if not s.holds(of_rules("has_one_die_rule", "has_one_die_rule", rules), "==", True):
        if rules.dice == 1:
            text = (f"This run rolls {s(parameter('dice', rules.dice), lambda d: dice_words(d, rules.sides))} on "
                    f"every turn, so no one-die rule changes anything: each row of the table is this run's game.")
        else:
            text = (f"This run's rules never offer one die (one die: {s(parameter('one_die', rules.one_die))}); the "
                    f"table shows what each one-die rule would be worth.")
        part.add(s.finding("one-die-worth", text, kind="text"))
        return part
    base = table.cell("p_win_never", "p_win", one_die="never")
    gain = s.quiet(base, value, derived("gain", "difference", value, base))
    change = derived("gain_relation", "relation", value, base)
    many = all_dice(rules)
    if s.holds(change, "==", "the same"):
        text = (f"The right to roll one die is worth nothing here: perfect play wins {s(value, percent(2))} of games "
                f"with it and without it.")
    elif s.holds(base, "==", 0):
        text = (f"The right to roll one die lifts {winning(rules).chance} from {s(base, percent(0))}, with "
                f"{many} always, to {s(value, percent(3))}.")
    else:
        relative = s.quiet(derived("relative_gain", "ratio", gain, base))
        text = (f"The right to roll one die is worth {s(gain, points(2, signed=True))} (percentage points) of "
                f"winning chance here, {s(relative, percent(1))} more than with {many} always.")
    part.add(s.finding("one-die-worth", text, kind="text"))
    return part


def derived_value(fact):
    """The same fact under a second name, to be shown in a second format."""
    return replace(fact, name=fact.name + "_decimal")


# -- section 2: where the choice exists ------------------------------------------------------------------------
def dice_choice_table(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """Every board (not yet won) on which the rules let the player choose one die: the chance of shutting
    the box rolling one die and rolling all the dice (``R_1`` and ``R_d``), the better choice, by how much,
    and the chance that optimal play from the full board ever stands on the board (``reach``).

    Sorted by the advantage of one die (largest first); ties by board.
    """
    solution = solution or solve(rules, "win")
    reach = np.asarray(reach_probabilities(solution), dtype=float)
    table = dice_choices_table(solution).rename(columns={"value_one_die": "p_win_one_die",
                                                         "value_all_dice": "p_win_all_dice"})
    table["best"] = table["best"].replace({"all dice": all_dice(rules)})
    table["reach"] = reach[table["board_mask"].to_numpy(dtype=np.int64)]
    table = table.sort_values(["one_minus_all", "board_mask"], ascending=[False, True], kind="stable")
    return table.reset_index(drop=True)


def one_die_by_sum(table: pd.DataFrame) -> pd.DataFrame:
    """From :func:`dice_choice_table`: for each total of the open tiles, how many boards offer the choice and
    on how many one die is better, the other choice is better, or both are worth the same; and whether one die
    is better on all of them, on some, or on none."""
    grouped = table.groupby("open_sum")["best"]
    summary = pd.DataFrame({"boards": grouped.size(),
                            "one_die_better": grouped.agg(lambda s: int((s == "one die").sum())),
                            "all_dice_better": grouped.agg(lambda s: int(((s != "one die") & (s != "either")).sum())),
                            "equal": grouped.agg(lambda s: int((s == "either").sum()))}).reset_index()
    summary["one_die_always"] = summary["one_die_better"] == summary["boards"]
    summary["one_die_never"] = summary["one_die_better"] == 0
    summary["one_die_sometimes"] = ~summary["one_die_always"] & ~summary["one_die_never"]
    return summary


def sum_threshold_of(summary: pd.DataFrame) -> int | None:
    """The total ``t`` with one die better on every board totalling ``t`` or less and on none above."""
    one = summary[summary["one_die_better"] > 0]
    if one.empty:
        return None
    t = int(one["open_sum"].max())
    if summary.loc[summary["open_sum"] <= t, "one_die_always"].all():
        return t
    return None


def where_one_die(summary, s: Sentence) -> str:
    """Where one die is the better choice, in words, with the facts that say so (``summary``: the exported
    one-die-by-sum table)."""
    threshold = sum_threshold_of(summary.frame)
    if s.holds(summary.count("one_die_boards", [("one_die_better", ">", 0)]), "==", 0):
        s.quiet(summary.fact("one_die_never_anywhere", "one_die_never", "all"))
        return "one die is never the better choice"
    better, offered = summary.fact("one_die_better_boards", "one_die_better", "sum"), summary.fact(
        "choice_boards", "boards", "sum")
    if s.holds(better, "==", offered.value):  # no total separates anything: the rule's own condition is the answer
        s.quiet(offered)
        return "one die is the better choice on every board where the rules offer it"
    if threshold is not None:
        t = summary.fact("threshold", "open_sum", "max", [("one_die_better", ">", 0)])
        s.quiet(summary.fact("one_die_at_or_below", "one_die_always", "all", [("open_sum", "<=", threshold)]),
                summary.fact("one_die_above", "one_die_never", "all", [("open_sum", ">", threshold)]))
        return f"one die is the better choice exactly when the numbers on the open tiles add up to {s(t)} or less"
    always = summary.fact("totals_always", "open_sum", "list", [("one_die_always", "==", True)])
    some = summary.fact("totals_sometimes", "open_sum", "list", [("one_die_sometimes", "==", True)])
    parts = []
    if s.holds(always, "!=", []):
        parts.append(f"on every board whose open tiles' numbers add up to {s(always, lambda v: ranges(v, 'or'))}")
    if s.holds(some, "!=", []):
        parts.append(f"on some of the boards totalling {s(some, lambda v: ranges(v, 'or'))}")
    return "one die is the better choice " + ", and ".join(parts) + " — no single total separates the two"


@refuses(one_die_forced=((True,), "it weighs rolling one die against all of them, a choice a forced die takes away"))
def choice_part(rules: Rules) -> Part:
    """Every board where one die may be chosen: the chance of winning after each choice, and where one die wins."""
    part = Part()
    table = dice_choice_table(rules) if rules.has_one_die_rule else None
    if table is None or table.empty:  # no board offers the choice (no one-die rule, or none reached in play)
        return part
    choice = part.table("dice-choice", table)
    by_sum = part.table("one-die-by-sum", one_die_by_sum(choice.frame))
    many = all_dice(rules)
    s = Sentence()
    boards = choice.count("boards")
    one = choice.count("one_die_better", [("best", "==", "one die")])
    other = choice.count("all_dice_better", [("best", "==", many)])
    equal = choice.count("equal", [("best", "==", "either")])
    where = where_one_die(by_sum, s)
    offer = agrees(boards.value, "offers", "offer")
    text = (f"{s(boards, counted('board'))} {offer} the choice; one die is better on {s(one)} and {many} "
            f"on {s(other)}" + (f", and both are worth the same on {s(equal)}" if s.holds(equal, ">", 0) else "")
            + f". By the sum of the open tiles, {where}.")
    reached = choice.count("reached", [("reach", ">", 0)])
    if s.holds(reached, "==", 0):
        text += (" No game played optimally from the full board reaches any of these boards (each has P(reach) 0 "
                 "below), so optimal play never meets the choice.")
    elif s.holds(reached, "<", boards.value):
        text += (f" Of the {s(boards, counted('board'))}, {s(reached, integer)} "
                 f"{agrees(reached.value, 'arises', 'arise')} in a game played "
                 f"optimally from the full board.")
    part.add(s.finding("choice", text))
    s = Sentence()
    where = where_one_die(by_sum, s)
    part.add(s.finding("choice-alt", f"Scatter plot of {s(choice.count('boards'), counted('board'))}: "
                                     f"the advantage of one die against the open tiles' sum; {where}.", kind="alt"))
    return part


def no_choice(rules: Rules) -> str:
    """Why a run has no board where one die may be chosen, and what that leaves of this section and the next."""
    if rules.won_at_start:
        why = f"the game is won before the first roll: its tiles add up to {rules.win_at_most} or less"
    elif rules.dice == 1:
        why = "one die is rolled on every turn"
    elif rules.one_die == "never":
        why = "its rules never allow one die"
    elif rules.one_die_forced:
        why = "the single die is forced wherever it is allowed"
    else:
        why = "no board where its rule allows one die is ever reached"
    return f"No board of this run offers a choice of dice ({why}), so this section and the next have nothing to study."


# -- section 3: the source's two sentences -----------------------------------------------------------------------
def source_statements(table: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """The source's two sentences on where the choice matters, tested on every board of ``table`` (from
    :func:`dice_choice_table`): "with many small tiles still open ... one die gives a better chance" (read as:
    tiles worth 1, 2 and 3 all open: on a Double Shutter in either row, as the second reads values) and "with only
    large tiles left, two dice gives the only reach" (read as: every open tile worth 4 or more). Each row: how many
    boards the sentence covers, on how many it is right, on how many the other choice is better, and the exceptions
    (the boards where it is wrong)."""
    many = all_dice(rules)
    masks = table["board_mask"].to_numpy(dtype=np.int64)  # boolean arrays: an empty table selects no rows
    small_open = np.ones(masks.shape, dtype=bool)  # tiles worth 1, 2 and 3 open, on either row
    values = game_of(rules).tile_values
    for value in (1, 2, 3):
        small_open &= (masks & sum(1 << bit for bit, v in enumerate(values) if v == value)) != 0
    only_large = table["smallest_tile"].to_numpy(dtype=np.int64) >= 4
    rows = []
    for key, statement, covered, claimed, opposite in [
        ("small_tiles", "many small tiles open (1, 2 and 3 all open): one die is better", small_open, "one die",
         many),
        ("large_tiles", f"only large tiles left (every open tile worth 4 or more): {many} are better", only_large, many,
         "one die"),
    ]:
        boards = table[covered]
        right = boards["best"] == claimed
        rows.append({"key": key, "statement": statement, "boards": len(boards), "true_on": int(right.sum()),
                     "false_on": int((~right).sum()), "opposite_on": int((boards["best"] == opposite).sum()),
                     "exceptions": "  ".join(boards.loc[~right, "board"].tolist())})
    return pd.DataFrame(rows)


def _holds_on(s: Sentence, true_on, boards) -> str:
    """``holds on all 8 boards it covers``, ``holds on 1 of the 7``, ``holds on none of the 8``."""
    if s.holds(boards, "==", 0):
        return "covers no board here"
    if s.holds(boards, "==", 1):
        return f"{'holds' if s.holds(true_on, '>', 0) else 'fails'} on the {s(boards, lambda n: 'one')} board it covers"
    if s.holds(true_on, "==", boards.value):
        return ("holds on both boards it covers" if s.holds(boards, "==", 2) else
                f"holds on all {s(boards)} boards it covers")
    if s.holds(true_on, "==", 0):
        return f"holds on none of the {s(boards)} boards it covers"
    return f"holds on {s(true_on)} of the {s(boards)} boards it covers"


def statements_part(rules: Rules, choice: Part) -> Part:
    """The source's two sentences tested on every board where the choice exists."""
    part = Part()
    if "dice-choice" not in choice.tables:
        return part
    table = part.table("source-statements", source_statements(choice.tables["dice-choice"], rules))
    many = all_dice(rules)
    clauses = []
    s = Sentence()
    for key, label, other in (("small_tiles", "The source's first sentence (one die is better when 1, 2 and 3 are "
                               "all open)", many),
                              ("large_tiles", f"its second ({many} are better when every open tile is worth 4 or more)",
                               "one die")):
        true_on = table.cell(f"{key}_true_on", "true_on", key=key)
        boards = table.cell(f"{key}_boards", "boards", key=key)
        opposite = table.cell(f"{key}_opposite_on", "opposite_on", key=key)
        clause = f"{label} {_holds_on(s, true_on, boards)}"
        verb = "is" if other == "one die" else "are"
        several = s.holds(boards, ">", 1)
        if several and s.holds(opposite, "==", boards.value) and boards.value > 0:
            clause += f": {other} {verb} better on every one of them"
        elif several:
            not_true = s.quiet(derived(f"{key}_not_true", "difference", boards, true_on))
            tied = derived(f"{key}_tied", "difference", not_true, opposite)  # both choices worth the same
            also = ([f"{other} {verb} better on {s(opposite)}"] if s.holds(opposite, ">", 0) else []) + \
                   ([f"both are worth the same on {s(tied)}"] if s.holds(tied, ">", 0) else [])
            clause += "; " + " and ".join(also) + " of them" if also else ""
        clauses.append(clause)
    part.add(s.finding("statements", f"{clauses[0]}, and {clauses[1]}."))
    return part


# -- section 4: the other one-die rule ---------------------------------------------------------------------------
def other_rule_part(rules: Rules, value: Part, choice: Part) -> Part:
    """The other one-die rule (pub or Riddler) against this run's rule, from the contrast table."""
    part = Part()
    if not rules.has_one_die_rule:
        return part
    table = Table("value-and-contrast", value.tables["value-and-contrast"])
    other = "high-shut" if rules.one_die == "sum-le-6" else "sum-le-6"
    exact = rules.positions <= PAGE_EXACT_UP_TO
    column = "p_win_exact" if exact else "p_win"
    s = Sentence()
    mine = table.cell("p_win", "p_win", one_die=rules.one_die)
    theirs = table.cell("p_win_other", "p_win", one_die=other)
    if exact:
        mine_exact = table.cell("p_win_exact", column, one_die=rules.one_die)
        theirs_exact = table.cell("p_win_other_exact", column, one_die=other)
        s.quiet(mine_exact, theirs_exact)
        compared = derived("relation", "relation", _as_fraction(theirs_exact), _as_fraction(mine_exact))
    else:
        s.quiet(mine, theirs)
        compared = derived("relation", "relation", theirs, mine)
    s.quiet(compared)
    words = {"the same": "exactly as much as" if exact else "as much as (to nine digits)", "more": "more than",
             "less": "less than"}[compared.value]
    name = {"sum-le-6": "The pub rule", "high-shut": "The Riddler's rule"}[other] + \
        f" (one die allowed {one_die_when(other)})"
    shown = apart(percent, 2, theirs.value, mine.value)  # digits enough to tell two different chances apart
    text = f"{name} is worth **{words}** the rule of this run: {s(theirs, shown)} against {s(mine, shown)}"
    if compared.value != "the same" and exact and rules.tiles <= 9:
        text += f" ({s(theirs_exact)} against {s(mine_exact)})"
    if compared.value == "the same" and rules.one_die == "high-shut" and rules.layout == "row" and \
            "one-die-by-sum" in choice.tables:  # on one row the open tiles are the tiles that can be shut
        summary = Table("one-die-by-sum", choice["one-die-by-sum"])
        if sum_threshold_of(summary.frame) == 6:
            t = summary.fact("threshold", "open_sum", "max", [("one_die_better", ">", 0)])
            s.quiet(t, summary.fact("one_die_at_or_below", "one_die_always", "all", [("open_sum", "<=", 6)]),
                    summary.fact("one_die_above", "one_die_never", "all", [("open_sum", ">", 6)]))
            text += (f" — under the Riddler's rule an optimal player rolls one die exactly when the open tiles total "
                     f"{s(t)} or less, which are the boards where the pub rule allows it")
    part.add(s.finding("other-rule", text + ".", kind="text"))
    return part


def _as_fraction(fact):
    """A fact holding a fraction written ``p/q`` (as the table exports it), as a ``Fraction`` for comparing."""
    return replace(fact, value=Fraction(fact.value))


# -- the chapter ------------------------------------------------------------------------------------------------
def published_claims(rules: Rules, value: Part, statements: Part) -> dict:
    """What the engine computes for each published claim of the source (``data/published/<stem>.csv`` keys)."""
    p_win = float(value["value-and-contrast"].set_index("one_die").loc[rules.one_die, "p_win"])
    claims = {"value": p_win, "percent": p_win, "official": p_win, "states": rules.states}  # one chance, as printed
    if "source-statements" in statements.tables:
        for row in statements["source-statements"].itertuples():
            claims[row.key] = (row.false_on == 0, f"false on {row.false_on} of the {row.boards} boards it covers")
    return claims


def headline(rules: Rules, value: Part, choice: Part) -> dict:
    """The numbers the index shows for this chapter."""
    p_win = value["value-and-contrast"].set_index("one_die").loc[rules.one_die, "p_win"]
    s = Sentence()
    where = where_one_die(Table("one-die-by-sum", choice["one-die-by-sum"]), s) if choice.tables else \
        "these rules never offer one die"
    return {"P(win), perfect play": percent(2)(p_win), "one die better": where}



@analysis_of(value_part, choice_part, statements_part, other_rule_part)
def pipeline(rules: Rules) -> list[Part]:
    """Every part of the chapter for ``rules``, in page order (what the notebook shows, without a kernel)."""
    value = value_part(rules)
    choice = choice_part(rules)
    return [value, choice, statements_part(rules, choice), other_rule_part(rules, value, choice)]


def estimate(rules: Rules):
    """What the chapter will take: the one-die rules solved exactly and in floats, and each board offering the
    choice valued for each number of dice."""
    from ..cost import Estimate, solve_cost, solve_estimate

    cost = solve_cost(rules)
    exact = solve_estimate(rules, exact=True) * 3 if rules.positions <= PAGE_EXACT_UP_TO else Estimate()
    return exact + solve_estimate(rules) * 4 + Estimate(cost.boards * cost.rolls * 4e-6)
