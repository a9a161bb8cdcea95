"""Chapter 6, the whole map: every rule variant, objective and policy, solved exactly; what each rule of thumb
costs and where; the strategy cards; where the objectives disagree; how games end; ties; openings; more tiles.

Every table is built from the run's one ``Rules`` value (the main board), varied where a section compares
(``dataclasses.replace``): nothing takes loose tiles, dice or sides. The chapter's parts, in page order:
:func:`variants_part`, :func:`prices_part`, :func:`mistakes_part`, :func:`cards_part`, :func:`disagreements_part`,
:func:`endings_part`, :func:`ties_part`, :func:`openings_part` and :func:`more_tiles_part`; :func:`pipeline` runs
them all.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pandas as pd

from ..analysis import choice_disagreements, decision_losses, dice_choices_table, tied_pairs
from ..boards import board_mask
from ..cards import Card, all_cards, card_losses, fronts_by_rules, lines_for, pareto_front, search_cards, tables_bytes
from ..choice import NO_LOSS, TIE_BREAKS, no_loss, same_value
from ..frontier import frontier, frontier_estimate
from ..frontier import policy_point as frontier_point
from ..game import game_of
from ..limits import PAGE_EXACT_UP_TO
from ..objectives import get_objective
from ..rules import RULE_OPTIONS, InputError, Rules, analysis_of, one_die_when
from ..sweep import solve
from ..tables import value_name
from ..valuation import evaluate, final_sum_distribution, reachable_boards
from .findings import RULE_OF_THUMB_PERCENT, Part, Sentence, Table, derived, equal_to, parameter, won_at_start
from .words import (
    all_dice,
    apart,
    counted,
    dice_words,
    fraction,
    goal_gap,
    goal_value,
    integer,
    listing,
    named,
    number,
    percent,
    plural,
    points,
    share,
    tiles_of,
    tiles_range,
    winning,
)

SCORINGS_OF_SOURCES = ("win", "remaining-sum", "flipped-count")  # the objectives the five sources play for

# The rule variants the sources and the pub tradition use: a key, the rules it sets on top of the main board's
# (which otherwise has no one-die rule, no cap and is won when every tile is shut), and how it reads.
VARIANTS = {
    "all-dice": ({}, None),  # read as "<the dice> always"
    "high-shut": ({"one_die": "high-shut"}, "one die once every tile from 7 up is shut"),
    "pub-allowed": ({"one_die": "sum-le-6"}, "one die allowed at 6 or less"),
    "pub-forced": ({"one_die": "sum-le-6", "one_die_forced": True}, "one die forced at 6 or less"),
    "two-per-roll": ({"max_per_move": 2, "one_die": "sum-le-6"}, "at most two tiles per roll, one die at 6 or less"),
    "won-at-3": ({"win_at_most": 3}, "won at 3 or less left"),
}
THIS_RUN = "this-run"  # the variants table's row for a run whose rules are none of the variants
SOURCE_DICE = (2, 6)  # the dice every source rolls (this chapter plays their boards on the run's dice)
SOURCE_BOARD = {"layout": "row", "moves": "sum"}  # every source plays one row, a roll shutting tiles adding up to it
# the plain game's value of every other rule option (its declared default): a variant sets some on top of it
PLAIN = {o.name: o.default for o in RULE_OPTIONS if o.name not in ("tiles", "dice", "sides", *SOURCE_BOARD)}


def source_rules(rules: Rules, tiles: int, variant: str | None = None) -> Rules:
    """A source's game on this run's dice: one row of ``tiles`` tiles, the sum rule, and the named variant's
    options (None: the plain game)."""
    return replace(variant_rules(rules, variant, tiles) if variant else replace(rules, **PLAIN, tiles=tiles),
                   **SOURCE_BOARD)


def not_the_sources_board(rules: Rules) -> list[str]:
    """Where this run's board and move rule are not the sources' (one row, a roll shutting tiles that add up to it),
    in words: the sources' side of each difference."""
    return [w for w, differs in (("on one row", rules.layout != "row"),
                                 ("a roll shuts tiles that add up to it", rules.moves != "sum")) if differs]


def source_game_words(game: Rules, rules: Rules) -> str:
    """A source's game in words (``tiles 1–10, two 6-sided dice``), saying where it is not this run's: one row of
    tiles, a roll shutting tiles that add up to it, and the plain game's win and dice (:data:`PLAIN`)."""
    apart = not_the_sources_board(rules)
    if any(getattr(rules, option) != value for option, value in PLAIN.items()):  # this run's win, dice, cap aside
        apart.append("won only with every tile shut, all the dice always")
    return game.describe() + "".join(f", {w}" for w in apart) + (", not this run's rules" if apart else "")


def variant_rules(rules: Rules, variant: str, tiles: int | None = None) -> Rules:
    """The rules of a named variant on the main board's tiles (or ``tiles``), dice and sides (:data:`THIS_RUN`:
    the run's own rules); unknown names raise :class:`InputError` listing the known ones."""
    tiles = rules.tiles if tiles is None else tiles
    if variant == THIS_RUN:
        return replace(rules, tiles=tiles)
    if variant not in VARIANTS:
        raise InputError(f"variant must be one of {', '.join(VARIANTS)}; got {variant!r}")
    return replace(rules, **{**PLAIN, **VARIANTS[variant][0]}, tiles=tiles)


def variants_of(rules: Rules) -> tuple[str, ...]:
    """The variants a run compares: the sources' (:data:`VARIANTS`), and the run's own rules (:data:`THIS_RUN`)
    when they are none of them."""
    own = any(variant_rules(rules, v) == rules for v in VARIANTS)
    return (*VARIANTS, *(() if own else (THIS_RUN,)))


def own_variant(rules: Rules) -> str:
    """The variant that is the run's own game: the first of :func:`variants_of` whose rules are the run's."""
    return next(v for v in variants_of(rules) if variant_rules(rules, v) == rules)


def variant_name(rules: Rules, variant: str, *, why: bool = True) -> str:
    """How a variant reads, for these dice: ``two dice always``, ``one 12-sided die always``, ``won at 3 or less
    left, two dice always`` (a variant without a one-die rule says so, beside those with one); an option of the
    variant that changes nothing on this run's board says so (:func:`no_effect`), unless ``why`` is False (a
    figure's label or alt text, beside the table that says it)."""
    if variant == THIS_RUN:
        return "this run's rules"
    options, name = VARIANTS[variant]
    always = f"{dice_words(rules.dice, rules.sides)} always"
    name = always if name is None else name if "one_die" in options else f"{name}, {always}"
    moot = no_effect(rules, variant) if why else ""
    return f"{name} ({moot})" if moot else name


def no_effect(rules: Rules, variant: str, tiles: int | None = None) -> str:
    """What of a variant's rules changes nothing on this board (``tiles``, default the run's), and why: ``its cap
    changes nothing here: a move shuts one tile`` (empty when all of them count)."""
    if variant == THIS_RUN:
        return ""
    inert = variant_rules(rules, variant, tiles).inert()
    why: dict[str, list[str]] = {}
    for option in (o for o in VARIANTS[variant][0] if o in inert):
        why.setdefault(inert[option], []).append(MOOT_WORDS[option])
    return "; ".join(f"{listing(names)} change{'s' if len(names) == 1 else ''} nothing here: {reason}"
                     for reason, names in why.items())


MOOT_WORDS = {"one_die": "its one-die rule", "one_die_forced": "forcing the die", "max_per_move": "its cap",
              "win_at_most": "its threshold"}  # a variant's option, named where it changes nothing


# -- section 1: variants x objectives -----------------------------------------------------------------------------
def variants_table(rules: Rules, tiles=(9, 10), policies=("optimal", "worst")) -> pd.DataFrame:
    """Value of the full board for every variant x tiles x objective x policy (one row each), on the dice of
    ``rules``, the run's own rules among them (:func:`variants_of`). With one die the one-die variants are the same
    game as all the dice always, and say so by their equal values."""
    rows = []
    for variant, n, objective, policy in itertools.product(variants_of(rules), dict.fromkeys(tiles),
                                                           SCORINGS_OF_SOURCES,
                                                           policies):
        game = variant_rules(rules, variant, n)
        rows.append({"variant": variant, "variant_name": variant_name(rules, variant, why=False), "tiles": n,
                     "no_effect": no_effect(rules, variant, n), "objective": objective,
                     "value_name": value_name(objective), "policy": policy,
                     "value": float(evaluate(game, objective, policy).value())})
    return pd.DataFrame(rows)


def variants_wide(variants: pd.DataFrame, names: dict) -> pd.DataFrame:
    """The variants table one row per (variant, tiles), a column per objective and policy (for the page), a
    variant's name saying what of it changes nothing on that board."""
    named_rows = variants.assign(variant_name=[f"{n} ({why})" if isinstance(why, str) and why else n for n, why in
                                               zip(variants["variant_name"], variants["no_effect"], strict=True)])
    wide = named_rows.pivot_table(index=["variant_name", "tiles"], columns=["objective", "policy"], values="value",
                                  sort=False)
    wide.columns = [f"{named(o)}, {p}" for o, p in wide.columns]
    return wide.reset_index()


def allowed_or_forced(variants: pd.DataFrame) -> pd.DataFrame:
    """From :func:`variants_table`: the value of every game with one die allowed or forced at 6 or less, side
    by side per (tiles, objective, policy), with their difference."""
    rules = {"pub-allowed": "allowed", "pub-forced": "forced"}
    part = variants[variants["variant"].isin(rules)].assign(rule=lambda t: t["variant"].map(rules))
    table = part.pivot_table(index=["tiles", "objective", "policy"], columns="rule", values="value", sort=False)
    table = table.reset_index()[["tiles", "objective", "policy", "allowed", "forced"]].rename_axis(columns=None)
    table["difference"] = (table["allowed"] - table["forced"]).abs()
    return table


def variants_part(rules: Rules, compare_tiles: int) -> Part:
    """Every variant's value under each objective, optimal and worst play, on the main board and a second size."""
    part = Part()
    variants = part.table("variants", variants_table(rules, (rules.tiles, compare_tiles)))
    part.shown["optimal-for-the-win"] = variants.frame.query("objective == 'win' and policy == 'optimal'")
    s = Sentence()
    on = [("objective", "==", "win"), ("policy", "==", "optimal"), ("tiles", "==", rules.tiles)]
    low = {c: variants.fact(f"lowest_{c}", c, "first", on, [("value", "asc")]) for c in ("value", "variant_name")}
    high = {c: variants.fact(f"highest_{c}", c, "first", on, [("value", "desc")]) for c in ("value", "variant_name")}
    if s.holds(low["value"], "==", high["value"].value):  # every variant alike (no tile above the dice's reach)
        s.quiet(low["variant_name"], high["variant_name"])
        text = (f"With optimal play on {tiles_of(rules)}, every variant has the same chance of winning (each its own "
                f"win): {s(low['value'], percent(2))}.")
    else:
        text = (f"With optimal play on {tiles_of(rules)}, the chance of winning (each variant's own win) runs from "
                f"{s(low['value'], percent(2))} ({s(low['variant_name'])}) to {s(high['value'], percent(2))} "
                f"({s(high['variant_name'])}).")
    if not_the_sources_board(rules):
        text += (f" Each variant is played here on this run's board and move rule ({rules.describe()}), not the "
                 f"sources' ({', '.join(not_the_sources_board(rules))}).")
    part.add(s.finding("variants", text))
    s = Sentence()
    shown = []
    for n in dict.fromkeys((rules.tiles, compare_tiles)):
        for variant in variants_of(rules):
            value = variants.fact(f"p_win_{variant}_{n}", "value", "value",
                                  [("variant", "==", variant), ("tiles", "==", n), ("objective", "==", "win"),
                                   ("policy", "==", "optimal")])
            shown.append(f"{variant_name(rules, variant, why=False)}, {tiles_range(n)}: {s(value, percent(2))}")
    part.add(s.finding("variants-alt", "Dot plot: one row per rule variant, one marker per board size; "
                                       + "; ".join(shown) + ".", kind="alt"))
    forced = part.table("one-die-allowed-or-forced", allowed_or_forced(variants.frame))
    part.add(allowed_or_forced_finding(rules, forced))
    return part


def gaps_by_objective(forced: Table, s: Sentence, policy: str) -> list[str]:
    """The largest difference between one die allowed and forced under ``policy``, one per objective where the two
    differ, each in its objective's own unit (a chance in points, a sum as a number): never one maximum across
    units."""
    gaps = []
    for objective in dict.fromkeys(forced.frame["objective"]):
        gap = forced.fact(f"{policy}_difference_{objective}", "difference", "max",
                          [("policy", "==", policy), ("objective", "==", objective)])
        if s.holds(gap, ">", NO_LOSS):
            gaps.append(f"{s(gap, goal_gap(objective))} in {named(objective)}")
    return gaps


def allowed_or_forced_finding(rules: Rules, forced: Table):
    """Whether allowing one die is worth more than forcing it, for optimal and for worst play."""
    s = Sentence()
    if s.holds(parameter("dice", rules.dice), "==", 1):
        worst_gap = forced.fact("worst_difference", "difference", "max", [("policy", "==", "worst")])
        text = ("With one die there is nothing to choose: one die allowed and one die forced are the same game, and "
                f"every value in the table is the same for both (the largest difference is {s(worst_gap, number(0))}).")
        return s.finding("allowed-or-forced", text, kind="text")
    optimal = gaps_by_objective(forced, s, "optimal")
    pub = variant_rules(rules, "pub-allowed")
    other = ", not at this run's threshold" if pub.win_at_most != rules.win_at_most else ""
    games = f"the two games (each won by {winning(pub).noun}{other})"
    if not optimal:
        worst = gaps_by_objective(forced, s, "worst")
        played = (f"for the worst play they differ by up to {listing(worst)}" if worst else
                  "and for the worst play too")
        text = f"For optimal play {games} are worth exactly the same under every objective; {played}."
    else:
        text = (f"Even for optimal play {games} differ, by up to {listing(optimal)}: "
                f"forcing the single die takes away a choice of dice an optimal player uses.")
    return s.finding("allowed-or-forced", text, kind="text")


# -- section 2: the price of each rule of thumb --------------------------------------------------------------------
def highest_tile_card() -> Card:
    """The card "shut the highest tile you can" (ties among the moves with that tile to the lowest other tiles: not
    the literature's largest tile first, which then takes the largest second tile, chapter 8)."""
    return Card(("shut the highest tile you can",))


def price_policies() -> dict:
    """The policies priced in section 2, in the order the page shows them."""
    return {"optimal": "optimal", "highest-tile": "highest-tile", "highest tile you can": highest_tile_card().policy(),
            "sequence-count": "sequence-count", "random": "random", "worst": "worst"}


def policy_prices(rules: Rules, policies: dict, objectives=SCORINGS_OF_SOURCES) -> pd.DataFrame:
    """Exact value of each policy (``{label: policy}``) under each objective, and what it loses against
    optimal play: ``loss`` in the objective's units (>= 0) and ``loss_percent`` of the optimal value."""
    rows = []
    for objective in objectives:
        obj = get_objective(objective)
        best = float(solve(rules, obj).value())
        for label, policy in policies.items():
            value = float(evaluate(rules, obj, policy).value())
            loss = obj.sense * (best - value) + 0.0  # + 0.0: optimal play loses 0, not -0
            rows.append({"objective": obj.name, "value_name": value_name(obj), "policy": label, "value": value,
                         "optimal_value": best, "loss": loss,
                         "loss_percent": 100 * loss / abs(best) if best else 0.0})
    return pd.DataFrame(rows)


def prices_part(rules: Rules) -> Part:
    """Each policy valued exactly under each objective (:func:`add_source_000_gap`: and chapter 1's 10-tile game)."""
    part = Part()
    policies = price_policies()
    prices = part.table("policy-prices", policy_prices(rules, policies))
    wide = prices.frame.pivot(index="policy", columns="objective", values="value").loc[list(policies)].reset_index()
    part.shown["prices-wide"] = wide
    part.shown["rules-of-thumb-prices"] = prices.frame.query("policy != 'optimal'")  # what each rule gives up
    s = Sentence()
    losing = [("policy", "!=", "optimal")]
    shared = [*losing, ("optimal_value", "!=", 0)]  # a share of a nil optimum says nothing
    nil = prices.fact("nil_optima", "objective", "list", [("policy", "==", "optimal"), ("value", "==", 0)])
    if s.holds(prices.count("shared_losses", shared), "==", 0) or s.holds(
            prices.fact("most_shared_loss", "loss_percent", "max", shared), "==", 0):
        text = "No policy loses anything against optimal play on this board: every loss is nil."
    else:
        text = losses_range_words(s, prices, shared)
    if s.holds(nil, "!=", []) and not text.startswith("No policy"):
        text += (f" Optimal play's {s(nil, lambda v: listing([named(o) for o in v]))} is nil here, and so is every "
                 f"policy's: nothing can be lost there.")
    if rules.offers_dice_choice:
        text += (" Where the rules let the player roll one die, each policy picks its dice by its own values (the "
                 f"worst play the worse), except the card “{highest_tile_card().name}”: it has no line for the dice "
                 "and rolls all of them.")
    part.add(s.finding("prices", text, kind="text"))
    s = Sentence()
    panels = plural(len(SCORINGS_OF_SOURCES), "dot-plot panel", words=True).capitalize()
    part.add(s.finding("prices-alt", f"{panels}, one per objective, one dot per policy on a log scale of the loss; "
                                     f"{most_lost_words(s, prices, losing)}.", kind="alt"))
    add_source_000_gap(part, rules)
    return part


def losses_range_words(s: Sentence, prices: Table, shared: list) -> str:
    """``The losses run from 0.3% (a policy; an objective) to 13.5% (...)``, saying where others lose as much."""
    ends = []
    for end, order in (("least", "asc"), ("most", "desc")):
        row = {c: prices.fact(f"{end}_{c}", c, "first", shared, [("loss_percent", order)])
               for c in ("loss_percent", "policy", "objective")}
        tied = prices.count(f"{end}_ties", [*shared, *equal_to("loss_percent", row["loss_percent"].value)])
        also = f", one of {s(tied, integer)} at that loss" if s.holds(tied, ">", 1) else ""
        ends.append(f"{s(row['loss_percent'], share(2))} ({s(row['policy'], named)}; {s(row['objective'], named)}"
                    f"{also})")
    return f"The losses run from {ends[0]} to {ends[1]}."


def most_lost_words(s: Sentence, prices: Table, losing: list) -> str:
    """Which policies lose the most under each objective (all of those that tie), or that none loses anything."""
    most = {}
    for objective in SCORINGS_OF_SOURCES:
        where = [*losing, ("objective", "==", objective)]
        top = s.quiet(prices.fact(f"top_{objective}", "loss_percent", "max", where))
        tied = [*where, *equal_to("loss_percent", top.value)]
        most[objective] = prices.fact(f"most_{objective}", "policy", "list", tied)
    if s.holds(prices.fact("largest_loss", "loss", "max", losing), "<=", NO_LOSS):
        s.quiet(*most.values())
        return "no policy loses anything: every dot is at nil"
    if all([s.holds(m, "==", ["worst"]) for m in most.values()]):
        return "the worst play loses most in each"
    ends = []
    for objective, m in most.items():
        lost = prices.fact(f"largest_loss_{objective}", "loss", "max", [*losing, ("objective", "==", objective)])
        nil = s.holds(lost, "<=", NO_LOSS)
        ends.append(f"{named(objective)}, {'none loses anything' if nil else listing([named(p) for p in m.value])}")
        s.quiet(m)
    return "the most lost: " + "; ".join(ends)


def add_source_000_gap(part: Part, rules: Rules) -> None:
    """Chapter 1's 10-tile game on this run's dice: its most-winning-sequences rule against optimal play and the
    highest-tile rule, each's share of the optimum lost."""
    ten = source_rules(rules, 10)
    gap = part.table("source-000-gap", policy_prices(ten, {"optimal": "optimal", "sequence-count": "sequence-count",
                                                            "highest-tile": "highest-tile", "random": "random"},
                                                     ("win",)))
    s = Sentence()
    rule = {c: gap.cell(f"rule_{c}", c, policy="sequence-count") for c in ("value", "optimal_value", "loss_percent")}
    simple = gap.cell("highest_tile_loss_percent", "loss_percent", policy="highest-tile")
    compared = s.quiet(derived("rule_against_highest_tile", "relation", rule["loss_percent"], simple))
    words = {"more": "more than", "less": "less than", "the same": "as much as"}[compared.value]
    shown = apart(share, 2, rule["loss_percent"].value, simple.value)  # digits enough to show the order
    game = (f"On chapter 1's own game ({source_game_words(ten, rules)})" if (rules.dice, rules.sides) == SOURCE_DICE
            else f"On chapter 1's board with this run's dice ({source_game_words(ten, rules)}; chapter 1's own game "
                 f"rolls a pair of {SOURCE_DICE[1]}-sided dice)")
    if s.holds(rule["optimal_value"], "==", 0):
        s.quiet(rule["value"], rule["loss_percent"], simple)
        text = (f"{game} no play can win (optimal play wins {s(rule['optimal_value'], percent(0))}), so its rule "
                f"loses nothing.")
    else:
        text = (f"{game}, its most-winning-sequences rule wins {s(rule['value'], percent(2))} of games and optimal "
                f"play {s(rule['optimal_value'], percent(2))}: the rule gives up {s(rule['loss_percent'], shown)} of "
                f"the optimum, {words} the simple highest-tile rule ({s(simple, shown)}).")
    part.add(s.finding("source-000", text, kind="text"))


# -- section 3: where mistakes cost ----------------------------------------------------------------------------------
def loss_summary(rules: Rules, policies: dict, objective="win") -> pd.DataFrame:
    """For each policy (``{label: policy}``): its whole loss against optimal play, how many of the decisions
    it faces cost anything, the share of the loss in its ten costliest decisions, and the costliest one."""
    rows = []
    for label, policy in policies.items():
        table = decision_losses(rules, objective, policy)
        costly = table[~no_loss(table["loss"])].sort_values("weighted_loss", ascending=False, kind="stable")
        total = float(table["weighted_loss"].sum())
        top = costly.iloc[0] if len(costly) else None
        rows.append({"policy": label, "total_loss": total, "decisions_faced": int((table["options"] > 1).sum()),
                     "costly_decisions": len(costly),
                     "share_of_loss_in_top_10": float(costly["weighted_loss"].head(10).sum() / total) if total else 0.0,
                     "costliest_decision": "" if top is None else
                     (f"{top['board']}, roll {top['roll']}: {top['policy_move']} instead of {top['optimal_move']}"
                      if top["decision"] == "move" else f"{top['board']}: roll {top['dice']} dice") or "none"})
    return pd.DataFrame(rows)


def costliest(losses: pd.DataFrame) -> pd.DataFrame:
    """The decisions that cost anything (a loss above rounding, ``NO_LOSS``), the costliest per game first."""
    return losses[losses["loss"] > NO_LOSS].sort_values("weighted_loss", ascending=False, kind="stable")


def mistakes_part(rules: Rules) -> Part:
    """The highest-tile rule's whole loss split over its decisions, and the same for each rule of thumb."""
    part = Part()
    losses = part.table("decision-losses", decision_losses(rules, "win", "highest-tile"))
    part.shown["costliest-decisions"] = costliest(losses.frame)
    s = Sentence()
    faced = losses.count("faced", [("options", ">", 1)])  # a roll with two legal moves or more, a choice of dice
    if s.holds(faced, ">", 0):
        total = losses.fact("total_loss", "weighted_loss", "sum")
        costly = losses.count("costly", [("loss", ">", NO_LOSS)])
        part.add(s.finding("mistakes", f"The highest-tile rule loses {s(total, points(3))} (percentage points) of "
                                       f"winning chance in all; {s(costly, integer)} of the "
                                       f"{s(faced, counted('decision'))} it faces (a roll with two legal moves or "
                                       f"more, or a choice of dice) cost anything.", kind="text"))
    elif won_at_start(s, rules):
        part.add(s.finding("mistakes", f"The highest-tile rule faces {s(faced, counted('decision'))}: the game is "
                                       f"over before the first roll.", kind="text"))
    else:
        part.add(s.finding("mistakes", f"The highest-tile rule faces {s(faced, counted('decision'))}: no roll it meets "
                                       f"leaves two legal moves, and it has no dice to choose.", kind="text"))
    heuristics = {named(p): policy for p, policy in price_policies().items() if p not in ("optimal", "worst")}
    part.table("heuristic-losses", loss_summary(rules, heuristics))
    return part


# -- section 4: strategy cards --------------------------------------------------------------------------------------
def card_objectives(card_objective: str) -> tuple[str, ...]:
    """The objectives every card is valued for: the chance of winning, the sum left, and the run's own."""
    return tuple(dict.fromkeys(("win", "remaining-sum", card_objective)))


def recommended_card(cards: pd.DataFrame, objective: str, margin_percent: float) -> pd.Series:
    """The simplest card within ``margin_percent`` of the optimum for ``objective`` (fewest lines, then least loss,
    then by name); the best of all when none is that close."""
    target = cards[cards["objective"] == objective]
    close = target[target["loss_percent"] <= margin_percent].sort_values(["lines", "loss", "card"], kind="stable")
    return close.iloc[0] if len(close) else target.sort_values(["loss", "lines", "card"], kind="stable").iloc[0]


def cards_part(rules: Rules, card_lines: int, card_objective: str, margin_percent: float, progress=None) -> Part:
    """Every card of up to ``card_lines`` lines valued exactly; the Pareto front; the recommended card and its
    exceptions; the best cards on each source's rules."""
    part = Part()
    cards = searched_cards(part, rules, card_lines, card_objective, progress)
    recommend_card(part, cards, card_objective, margin_percent)
    printed_cards(part, cards, card_lines, card_objective)
    card_exceptions(part, rules, card_objective)
    sources = {"chapter 1: tiles 1–10": source_rules(rules, 10),
               "chapters 3 and 5: tiles 1–9": source_rules(rules, 9),
               "chapter 2: one die once every tile from 7 up is shut": source_rules(rules, 9, "high-shut"),
               "chapter 4: won at 3 or less": source_rules(rules, 9, "won-at-3")}
    by_source = fronts_by_rules(sources, ("win", "remaining-sum"), card_lines, progress=progress)
    part.table("cards-by-source", by_source.assign(objective_name=by_source["objective"].map(named)))
    return part


def searched_cards(part: Part, rules: Rules, card_lines: int, card_objective: str, progress=None):
    """Every card of up to ``card_lines`` lines valued for :func:`card_objectives`, and their Pareto front, into
    ``part``: the table of cards (returned) and the sentence counting them."""
    lines = lines_for(rules)
    part.shown["criteria"] = pd.DataFrame({"line": [c.lines[0] for c in all_cards(1, lines)]})
    cards = part.table("strategy-cards", search_cards(rules, card_objectives(card_objective), card_lines, lines,
                                                      progress=progress))
    front = part.table("card-front", pareto_front(cards.frame[cards.frame["objective"] != "flipped-count"]
                                                  if card_objective != "flipped-count" else cards.frame))
    s = Sentence()
    strategies = cards.fact("strategies", "plays_as", "nunique")
    played = (f"they all play the same moves ({s(strategies, counted('strategy', 'strategies'))}). The simplest "
              f"card that plays them (every card is in the CSV file):" if s.holds(strategies, "==", 1) else
              f"they play {s(strategies, counted('different strategy', 'different strategies'))}. The best "
              f"strategies (each shown by the simplest card that plays it; every card is in the CSV file):")
    part.add(s.finding("cards", f"{s(cards.fact('cards', 'card', 'nunique'), counted('card'))} searched, each valued "
                                f"exactly; {played}", kind="text"))
    s = Sentence()
    lines = []
    for row in front.frame.itertuples():
        loss = front.fact(f"front_{row.objective}_{row.lines}", "loss_percent", "value",
                          [("objective", "==", row.objective), ("lines", "==", row.lines)])
        lines.append(f"{named(row.objective)}, {plural_lines(row.lines)}: {s(loss, share(2))}")
    part.add(s.finding("front-alt", "Line chart: loss in per cent against the number of lines on the card, one line "
                                    "per objective; " + "; ".join(lines) + ".", kind="alt"))
    return cards


def distinct_strategies(cards: pd.DataFrame, card_objective: str) -> pd.DataFrame:
    """The cards that play differently (the first of each strategy, per objective: the simplest card playing it),
    the run's card objective first, each objective's least loss first, then the fewest lines."""
    distinct = cards.drop_duplicates(["objective", "plays_as"])
    return distinct.sort_values(["objective", "loss_percent", "lines"], kind="stable",
                                key=lambda c: c != card_objective if c.name == "objective" else c)


def recommend_card(part: Part, cards, card_objective: str, margin_percent: float) -> None:
    """The recommended card (:func:`recommended_card`) into ``part``, with the sentence that names it."""
    chosen = recommended_card(cards.frame, card_objective, margin_percent)
    s = Sentence()
    target = [("objective", "==", card_objective)]
    within = [*target, ("loss_percent", "<=", margin_percent)]
    close = s.holds(cards.count("within_margin", within), ">", 0)
    order = [("lines", "asc"), ("loss", "asc"), ("card", "asc")] if close else \
        [("loss", "asc"), ("lines", "asc"), ("card", "asc")]
    pick = {c: cards.fact(f"card_{c}", c, "first", within if close else target, order)
            for c in ("card", "value", "optimal_value", "loss_percent", "lines", "loss")}
    ties = cards.count("card_ties", [*(within if close else target), ("lines", "==", s.quiet(pick["lines"]).value),
                                     *equal_to("loss", s.quiet(pick["loss"]).value)])
    tie = f" (the first by name of {s(ties, integer)} cards as short and as good)" if s.holds(ties, ">", 1) else ""
    show = goal_value(card_objective)
    losing = f"{margin_percent:g}% of the optimum or less"
    how = (f"the simplest {'that plays optimally' if margin_percent == 0 else 'losing ' + losing} for "
           f"{named(card_objective)}" if close else
           f"no card {'plays optimally' if margin_percent == 0 else 'loses ' + losing} for {named(card_objective)}, "
           f"so the best of all")
    if s.holds(cards.fact("largest_loss", "loss", "max", target), "==", 0):  # every card plays to the optimum
        s.quiet(pick["value"], pick["loss_percent"])
        text = (f"No card can do better or worse here: the optimum for {named(card_objective)} is "
                f"{s(pick['optimal_value'], show)}, and every card's is too; the simplest is “**{s(pick['card'])}**”"
                f"{tie}.")
    else:
        text = (f"The recommended card — {how} — is “**{s(pick['card'])}**”{tie}: {s(pick['value'], show)} against the "
                f"optimum's {s(pick['optimal_value'], show)}, a loss of {s(pick['loss_percent'], share(3))} of the "
                f"optimum.")
    part.add(s.finding("recommended-card", text))
    part.shown["card"] = Card(tuple(chosen["card"].split("; then ")))
    part.shown["card_show"] = show


def printed_cards(part: Part, cards, card_lines: int, card_objective: str) -> None:
    """The best card of each length for ``card_objective``, each a figure to cut out with its caption and alt text
    saying what it loses and what the next length gains."""
    show, target = part.shown["card_show"], [("objective", "==", card_objective)]
    target_front = pareto_front(cards.frame[cards.frame["objective"] == card_objective]).reset_index(drop=True)
    own = part.table("card-front-target", target_front)
    part.shown["printed_cards"] = []
    for i, row in enumerate(target_front.itertuples()):
        s = Sentence()
        loss = own.fact("loss", "loss_percent", "value", [("lines", "==", row.lines)])
        if i + 1 < len(target_front):
            better = target_front.iloc[i + 1]
            next_loss = own.fact("next_loss", "loss_percent", "value", [("lines", "==", better["lines"])])
            gain = derived("gain", "difference", loss, next_loss)
            after = (f"the best card of {plural_lines(better['lines'])} loses {s(next_loss, share(3))}, "
                     f"{s(gain, number(3, gap=True))} percentage points less")
        else:  # the front ends here: no card up to the search's length beats it
            after = (f"no card of up to {plural_lines(card_lines)} does better" if row.lines < card_lines else
                     f"the search stops at {plural_lines(card_lines)}")
        caption = s.finding(f"card-{row.lines}-caption",
                            f"The best card of {plural_lines(row.lines)} for {named(card_objective)}, sized to cut "
                            f"out: it loses {s(loss, share(3))} of the optimum ({after}).", kind="caption")
        a = Sentence()
        on = [("lines", "==", row.lines)]
        reading = a(own.fact("card", "card", "value", on))
        loses = a(own.fact("loss", "loss_percent", "value", on), share(3))
        alt = a.finding(f"card-{row.lines}-alt", f"A strategy card reading: {reading}; it loses {loses} of the "
                                                  f"optimum.", kind="alt")
        footer = (f"{named(card_objective)} {show(row.value)}: it loses {share(3)(row.loss_percent)} of what perfect "
                  "play gets")
        name = f"strategy-card-{row.lines}-line{'s' if row.lines > 1 else ''}"
        part.shown["printed_cards"].append((row.card.split("; then "), footer, name, caption, alt))
        part.add(caption, alt)
    s = Sentence()
    longest = cards.fact("longest_searched", "lines", "max", target)
    shortest_best = own.fact("front_longest", "lines", "max")
    if s.holds(shortest_best, "<", longest.value):
        part.add(s.finding("no-longer", f"No card of more than {s(shortest_best, plural_lines)} does better for "
                                        f"{named(card_objective)}: the cards searched have up to "
                                        f"{s(longest, plural_lines)}, and further lines never lower the loss.",
                           kind="text"))


def card_exceptions(part: Part, rules: Rules, card_objective: str) -> None:
    """Whether the recommended card plays the highest-tile rule's moves, and the decisions where it costs most."""
    card = part.shown["card"]
    played, rule = evaluate(rules, "win", card.policy()), evaluate(rules, "win", "highest-tile")
    faced = facing(rules)
    versus = part.table("card-vs-highest-tile", pd.DataFrame([{
        "card": card.name, "pairs_playing_differently": pairs_playing_differently(played, rule),
        "boards_rolling_other_dice": int((played.dice[faced] != rule.dice[faced]).sum())}]))
    s = Sentence()
    differ = versus.cell("differing", "pairs_playing_differently", card=card.name)
    dice = versus.cell("other_dice", "boards_rolling_other_dice", card=card.name)
    exceptions = part.table("card-exceptions", card_losses(rules, card, card_objective))
    learning = exceptions.count("exceptions")
    alike = s.holds(differ, "==", 0) and s.holds(dice, "==", 0)
    part.shown["card_is_highest_tile"] = alike and card_objective == "win"
    if alike:
        where = ("those of section 3" if s.holds(parameter("card_objective", card_objective), "==", "win") else
                 f"the highest-tile rule's, listed below for {named(card_objective)}")
        text = (f"The card “{card.name}” plays exactly the moves and dice of the highest-tile rule (it plays "
                f"differently at {s(differ, counted('(board, roll) pair'))} and rolls other dice on "
                f"{s(dice, counted('board'))}), so its costliest decisions are {where}.")
    elif s.holds(learning, ">", 0):
        text = (f"The exceptions worth learning: the {s(learning, counted('position'))} where "
                f"“{card.name}” costs the most per game.")
    else:
        text = f"The card “{card.name}” loses nothing in any decision it faces."
    part.add(s.finding("card-exceptions", text, kind="text"))


def facing(rules: Rules) -> np.ndarray:
    """The boards a player can face: those a game from the full board can reach and is still playing on (every
    count of section 4, 5 and 7 is over these, never over boards no game shows)."""
    return reachable_boards(rules, include_won=False)


def pairs_playing_differently(a, b) -> int:
    """How many (board, roll) pairs a player can face (:func:`facing`, each roll their dice can show) two
    deterministic solutions of one game play different moves on."""
    game = a.game
    playing = facing(a.rules)
    shown = {code: playing[game.shows(playing, code)] for code in game.outcomes}
    return sum(int((a.played(f, code) != b.played(f, code)).sum()) for code, f in shown.items())


def plural_lines(count: int) -> str:
    """``1 line``, ``2 lines``."""
    return f"{int(count)} line{'s' if int(count) != 1 else ''}"


plural_lines.unit = "integer"


# -- section 5: objectives disagree ---------------------------------------------------------------------------------
def pairs_with_choice(rules: Rules) -> int:
    """How many (board, roll) pairs a player can face (:func:`facing`, each roll their dice can show) offer two
    or more legal moves."""
    game = game_of(rules)
    playing = facing(rules)
    return sum(int((game.legal(playing[game.shows(playing, code)], game.catalogue.of(code)).sum(axis=1) >= 2).sum())
               for code in game.outcomes if game.catalogue.of(code).size)


def disagreement_summary(rules: Rules) -> pd.DataFrame:
    """How often the win-optimal move differs from the sum-optimal and the highest-tile move, over every
    (board, roll) pair a player can face with a choice (:func:`facing`), and what the differences cost."""
    win, total = solve(rules, "win"), solve(rules, "remaining-sum")
    highest = evaluate(rules, "win", "highest-tile")
    pairs, faced = pairs_with_choice(rules), facing(rules)
    rows = []
    for label, other in (("sum-optimal move", total), ("highest-tile move", highest)):
        table = choice_disagreements(win, other, faced)
        rows.append({"compared with": label, "pairs with a choice": pairs, "pairs where it costs the win": len(table),
                     "share": len(table) / pairs if pairs else 0.0,
                     "largest loss of win probability": float(table["loss_for_a"].max()) if len(table) else 0.0})
    return pd.DataFrame(rows)


def disagreements_part(rules: Rules) -> Part:
    part = Part()
    part.table("disagreements", disagreement_summary(rules))
    stakes = choice_disagreements(solve(rules, "win"), solve(rules, "remaining-sum"), facing(rules))
    part.table("win-vs-sum-stakes", stakes.sort_values("loss_for_a", ascending=False, kind="stable")
               .reset_index(drop=True))
    return part


# -- section 6: how games end ----------------------------------------------------------------------------------------
def final_sum_table(rules: Rules, objective="remaining-sum") -> pd.DataFrame:
    """P(final sum left = s) under optimal play for ``objective``, one row per (variant, sum), every sum from 0 to
    the full board's (0 where it never happens); the sum is the game's score (on Double Shutter the front row counts
    double)."""
    rows = []
    for variant in variants_of(rules):
        game = variant_rules(rules, variant)
        dist = final_sum_distribution(game, objective)
        for s in range(game_of(game).worst_score + 1):
            rows.append({"variant": variant, "variant_name": variant_name(rules, variant, why=False), "final_sum": s,
                         "probability": float(dist.get(s, 0))})
    return pd.DataFrame(rows)


def endings_part(rules: Rules) -> Part:
    part = Part()
    endings = part.table("final-sum-distribution", final_sum_table(rules))
    s = Sentence()
    base = endings.cell("shut_all_dice", "probability", variant="all-dice", final_sum=0)
    variants = variants_of(rules)
    one_die = tuple(v for v in variants if variant_rules(rules, v).has_one_die_rule)
    spread = ""
    if one_die:  # with one die there is no one-die rule to compare
        low, high = (endings.fact(f"shut_one_die_{end}", "probability", agg, [("variant", "in", one_die),
                                                                               ("final_sum", "==", 0)])
                     for end, agg in (("lowest", "min"), ("highest", "max")))
        apart = not no_loss(high.value - low.value)
        shown = f"from {s(low, percent(2))} to {s(high, percent(2))}" if apart else s(low, percent(2))
        spread = f" and {shown} under the variants with a one-die rule"
    part.add(s.finding("endings-alt", f"{len(variants)} small bar charts of the final-sum distribution, one per rule "
                                      f"variant; every tile shut (sum 0) has probability {s(base, percent(2))} with "
                                      f"{variant_name(rules, 'all-dice')}{spread}.", kind="alt"))
    wide = endings.frame.pivot(index="final_sum", columns="variant_name", values="probability")
    part.shown["endings-wide"] = wide[[variant_name(rules, v, why=False) for v in variants]].reset_index()
    return part


# -- section 7: ties -------------------------------------------------------------------------------------------------
def tie_break_table(rules: Rules, objectives=SCORINGS_OF_SOURCES) -> pd.DataFrame:
    """For each objective: how many (board, roll) pairs have two or more equally good moves (where the
    tie-break decides), and the value of the full board under each tie-break (the same for all: ties
    change which moves are played, never the optimal value)."""
    rows, exact, with_choice = [], rules.positions <= PAGE_EXACT_UP_TO, pairs_with_choice(rules)
    faced = facing(rules)
    for objective in objectives:
        canonical = solve(rules, objective, exact=exact)
        row = {"objective": objective, "tied_pairs": tied_pairs(canonical, faced),
               "pairs_with_a_choice": with_choice}
        for name in TIE_BREAKS:
            row[f"value_{name}"] = float(solve(rules, objective, tie_break=name, exact=exact).value())
        rows.append(row)
    return pd.DataFrame(rows)


def tie_break_distributions(rules: Rules, objective="win", tie_breaks=tuple(TIE_BREAKS)) -> pd.DataFrame:
    """The exact final-sum distribution under optimal play for ``objective`` with each tie-break (one row per sum
    that happens, and one for each winning sum), and the spread between the tie-breaks for each sum (largest minus
    smallest probability)."""
    exact = rules.positions <= PAGE_EXACT_UP_TO
    columns = {name: final_sum_distribution(rules, objective, tie_break=name, exact=exact) for name in tie_breaks}
    sums = sorted({s for dist in columns.values() for s in dist} | set(range(rules.win_at_most + 1)))
    table = pd.DataFrame({"final_sum": sums})
    for name, dist in columns.items():
        table[name] = [float(dist.get(s, 0)) for s in sums]
    values = table[list(tie_breaks)]
    table["spread"] = values.max(axis=1) - values.min(axis=1)
    for name in tie_breaks:
        table[f"{name}_minus_canonical"] = (table[name] - table["canonical"]).abs()
    return table


def ties_part(rules: Rules) -> Part:
    part = Part()
    ties = part.table("tie-breaks", tie_break_table(rules))
    spread = part.table("tie-break-spread", tie_break_distributions(rules, "win"))
    part.shown["tie-break-differences"] = spread.frame[spread.frame["spread"] > 0]  # the sums a tie-break moves
    s = Sentence()
    tied = ties.cell("tied_pairs", "tied_pairs", objective="win")
    largest = spread.fact("largest_spread", "spread", "max")
    have = "has" if s.holds(tied, "in", [0, 1]) else "have"  # "no pair has", "1 pair has", "2 pairs have"
    text = f"For the chance of winning, {s(tied, counted('(board, roll) pair'))} {have} tied moves."
    if s.holds(largest, ">", 0):
        text += (f" Changing the tie-break shifts up to {s(largest, points(3))} (percentage points) of probability "
                 f"from one final sum to another, never the chance of winning: every tie-break plays only moves "
                 f"exactly as good for it.")
    else:
        text += " The tie-break never changes the final-sum distribution here."
    same = [t for t in TIE_BREAKS if t != "canonical"
            and s.holds(spread.fact(f"{t}_difference", f"{t}_minus_canonical", "max"), "==", 0)]
    if same and largest.value > 0:
        text += (f" Here {listing(same)} play{'s' if len(same) == 1 else ''} the same moves as canonical wherever it "
                 f"matters: {'its' if len(same) == 1 else 'their'} distribution is the canonical one.")
    part.add(s.finding("ties", text, kind="text"))
    part.shown["same_as_canonical"] = same
    if largest.value > 0:
        s = Sentence()
        part.add(s.finding("ties-alt", f"Grouped bars per final sum, differences of at most "
                                       f"{s(spread.fact('largest_spread', 'spread', 'max'), points(3))}.", kind="alt"))
    return part


# -- section 8: openings and the dice ---------------------------------------------------------------------------------
OPENING_COLUMNS = ["objective", "roll", "best_move", "value_after", "runner_up", "runner_up_value", "best_moves",
                   "legal_moves"]


def opening_moves(rules: Rules, objective="win") -> pd.DataFrame:
    """For each first roll with a legal move (a roll of the dice the full board may roll): the best first move, the
    value after it, the runner-up (None when the move is forced), and how many moves tie for the best
    (``best_moves``: where it is more than 1, the runner-up is as good and the tie-break named the best)."""
    solution = solve(rules, objective)
    game = solution.game
    label = game.layout.label
    rows = []
    for roll in [] if game.won[rules.full_board] else game.totals_from(rules.full_board):  # its dice's rolls
        moves = solution.move_values(rules.full_board, roll)
        if not moves:
            continue
        (best, value), *rest = moves
        rows.append({"objective": objective, "roll": game.roll_column([roll])[0], "best_move": label(board_mask(best)),
                     "value_after": float(value), "runner_up": label(board_mask(rest[0][0])) if rest else None,
                     "runner_up_value": float(rest[0][1]) if rest else np.nan,
                     "best_moves": sum(bool(same_value(v, value)) for _, v in moves), "legal_moves": len(moves)})
    return pd.DataFrame(rows, columns=OPENING_COLUMNS)


def dice_advice(rules: Rules, objective="win") -> pd.DataFrame:
    """Every board (not won) where the rules let the player choose one die: the value of each choice and
    which is better (``either`` when they are equal)."""
    table = dice_choices_table(solve(rules, objective))
    table["best"] = table["best"].replace({"all dice": all_dice(rules)})
    table["gain"] = table.pop("one_minus_all").abs()
    table = table[["board", "board_mask", "open_sum", "value_one_die", "value_all_dice", "best", "gain"]]
    return table.sort_values(["open_sum", "board_mask"], kind="stable").reset_index(drop=True)


def no_dice_choice(rules: Rules) -> str:
    """Why a run's rules give no choice of dice, in words."""
    if rules.dice == 1:
        return "one die on every roll"
    return "one die is forced where it is rolled" if rules.has_one_die_rule else "no one-die rule"


def advice_rules(rules: Rules) -> Rules:
    """The rules the dice advice is given for: the run's when they offer one die, else the run's game (its board,
    move rule, cap and win) with the pub rule's one die allowed at 6 or less."""
    return rules if rules.offers_dice_choice else replace(rules, **VARIANTS["pub-allowed"][0], one_die_forced=False)


def _on(s: Sentence, some, boards) -> str:
    """``on all 7 boards``, ``on 3 of the 7 boards``, ``on none of the 7 boards``; of one board, ``on the one board
    that offers it`` or ``on no board: not on the one that offers it``."""
    if s.holds(boards, "==", 1):
        return ("on the one board that offers it" if s.holds(some, "==", 1) else
                "on no board: not on the one that offers it")
    if s.holds(some, "==", boards.value):
        return f"on all {s(boards, counted('board'))}"
    if s.holds(some, "==", 0):
        return f"on none of the {s(boards, counted('board'))}"
    return f"on {s(some, integer)} of the {s(boards, counted('board'))}"


def openings_part(rules: Rules) -> Part:
    part = Part()
    openings = part.table("opening-moves", pd.concat([opening_moves(rules, o) for o in ("win", "remaining-sum")],
                                                     ignore_index=True))
    s = Sentence()
    opening = openings.count("openings")
    if won_at_start(s, rules):
        s.quiet(opening)
        part.add(s.finding("openings", "The game is won before the first roll, so there is no opening move to "
                                       "choose.", kind="text"))
    elif s.holds(opening, "==", 0):
        part.add(s.finding("openings", f"No roll of {dice_words(rules.dice, rules.sides)} has a legal move from the "
                                       f"full board ({s(opening, integer)} opening moves), so there "
                                       f"is no opening move to choose.", kind="text"))
    chosen = advice_rules(rules)
    advice = part.table("dice-advice", dice_advice(chosen))
    s = Sentence()
    boards = advice.count("boards")
    if s.holds(boards, ">", 0):
        ones = advice.count("one_die_better", [("best", "==", "one die")])
        when = one_die_when(chosen.one_die)
        whose = "" if chosen is rules else " under the pub rule"
        lead = "" if chosen is rules else (f"This run's rules give no choice of dice ({no_dice_choice(rules)}), so "
                                           f"this advice is for the pub rule on the same board. ")
        text = f"{lead}Where one die may be chosen ({when}{whose}), one die is the better roll {_on(s, ones, boards)}."
    elif won_at_start(s, rules):
        text = "The game is won before the first roll, so no dice are ever chosen."
    elif s.holds(parameter("dice", rules.dice), "==", 1):
        text = "With one die on every roll there is no choice of dice to advise on."
    else:
        whose = "this run's rules never allow" if chosen is rules else "even the pub rule never allows"
        text = f"No board in play offers a choice of dice: {whose} one die on any of them."
    part.add(s.finding("dice-advice", text, kind="text"))
    part.shown["advice_rules"] = chosen
    return part


# -- section 9: more tiles -------------------------------------------------------------------------------------------
def more_tiles_table(rules: Rules, max_tiles: int = 16, dice=(2, 3), exact_up_to: int = PAGE_EXACT_UP_TO,
                     log=None) -> pd.DataFrame:
    """Optimal values from the full board of 1 .. ``max_tiles`` tiles for each number of ``dice`` (the rest of
    ``rules`` kept: sides, one-die rule, layout): the chance of winning also as an exact fraction up to
    ``exact_up_to`` tiles in all (both rows of a Double Shutter), and as exactly 0 where the tiles above the largest
    roll exceed the winning threshold (:func:`never_won`). ``log`` (e.g. ``print``) hears about each size."""
    rows = []
    for d, n in itertools.product(dict.fromkeys(dice), range(1, max_tiles + 1)):
        game = replace(rules, tiles=n, dice=d)
        row = {"dice": d, "dice_name": dice_words(d, game.sides), "tiles": n, "largest_roll": game.largest_roll}
        for objective in SCORINGS_OF_SOURCES:
            exact = objective == "win" and game.positions <= exact_up_to
            value = solve(game, objective, exact=exact).value()
            row[value_name(objective)] = float(value)
            if objective == "win":  # tiles above the largest roll are never shut: over W, the chance is exactly 0
                row["p_win_exact"] = fraction(value) if exact else "0" if never_won(game) else None
        rows.append(row)
        if log:
            log(f"{dice_words(d, game.sides)}, {n} tiles: solved")
    return pd.DataFrame(rows)


def never_won(rules: Rules) -> bool:
    """Whether the tiles above the largest roll, which are never shut, add up to more than the winning threshold:
    then no game is ever won (with a threshold they may stay open and the game still be won)."""
    stuck = sum(v for v in game_of(rules).tile_values if v > rules.largest_roll)
    return not rules.is_won(stuck)


def more_dice(rules: Rules) -> tuple[int, ...]:
    """Three dice beside the run's, where its move rule takes three (die-or-sum reads one die or two)."""
    try:
        replace(rules, dice=3)
    except InputError:
        return ()
    return (3,)


def more_tiles_method(rules: Rules, max_tiles: int) -> str:
    """What the more-tiles section solves (boards of 1 to ``max_tiles`` tiles), in words that hold for this run's
    rules: exact fractions up to :data:`PAGE_EXACT_UP_TO` tiles in all, which may be every board of the table."""
    double = rules.layout == "double-shutter"
    front = " in front (each with its back row)" if double else ""
    three = " and with three dice of the same size" if 3 in more_dice(rules) and rules.dice != 3 else ""
    exact_front = PAGE_EXACT_UP_TO // 2 if double else PAGE_EXACT_UP_TO
    sizes = "a board of 1 tile" if max_tiles == 1 else f"boards of 1 to {max_tiles} tiles"
    exact = ("on every board of the section" if max_tiles <= exact_front else
             f"up to {PAGE_EXACT_UP_TO} tiles in all" + (f" ({exact_front} in front)" if double else ""))
    return (f"This section solves {sizes}{front}, with "
            f"{dice_words(rules.dice, rules.sides)}{three}. A tile above the largest total the dice can roll can "
            f"never be shut. {winning(rules).chance.capitalize()} is also given as an exact fraction {exact}. How "
            f"fast the engine solves large boards is in the reproducibility appendix.")


def more_tiles_part(rules: Rules, max_tiles: int, progress=None) -> Part:
    part = Part()
    counts = tuple(dict.fromkeys((rules.dice, *more_dice(rules))))
    table = part.table("more-tiles", more_tiles_table(rules, max_tiles, counts, log=progress))
    s = Sentence()
    clauses, everywhere = [], []  # the dice that win on every size, named in one clause
    for d in counts:
        where = [("dice", "==", d)]
        zero = table.fact(f"zero_tiles_{d}", "tiles", "list", [*where, ("p_win", "==", 0)])
        largest = table.fact(f"largest_roll_{d}", "largest_roll", "max", where)
        name = dice_words(d, rules.sides)
        s.quiet(largest)
        below = [n for n in zero.value if n <= largest.value]
        beyond = [n for n in zero.value if n > largest.value]
        if s.holds(zero, "==", []):
            everywhere.append(f"with {name}")
            continue
        parts = []
        if below:
            parts.append(f"on {_tile_counts(below)}")
        if beyond:
            why = f" (a tile above the largest roll, {s(largest)}, can never be shut)" if not rules.win_at_most else ""
            parts.append(f"from {plural(beyond[0], 'tile')} on{why}")
        clauses.append(f"with {name} {winning(rules).chance} is 0 " + " and ".join(parts))
    if everywhere:
        sizes = f"every board of {plural(max_tiles, 'tile')}" if max_tiles == 1 else \
            f"every board of up to {plural(max_tiles, 'tile')}"
        clauses.insert(0, f"{listing(everywhere)} {winning(rules).can} on {sizes}")
    text = "; ".join(clauses)
    part.add(s.finding("more-tiles", text[0].upper() + text[1:] + ".", kind="text"))
    s = Sentence()
    trends = []
    for d in counts:
        where = [("dice", "==", d)]
        first, last = (table.fact(f"p_win_{end}_{d}", "p_win", "first", where, [("tiles", order)])
                       for end, order in (("first", "asc"), ("last", "desc")))
        sum_first, sum_last = (table.fact(f"sum_{end}_{d}", "expected_remaining_sum", "first", where,
                                          [("tiles", order)]) for end, order in (("first", "asc"), ("last", "desc")))
        chance = (f"the chance of winning is {s(first, percent(2))} at every size" if s.holds(
            derived(f"p_win_flat_{d}", "equal", first, s.quiet(last)), "==", True) else
            f"the chance of winning goes from {s(first, percent(2))} at 1 tile to {s(last, percent(2))} at "
            f"{plural(max_tiles, 'tile')}")
        trends.append(f"{dice_words(d, rules.sides)}: {chance}, the expected sum left from "
                      f"{s(sum_first, number(2))} to {s(sum_last, number(2))}")
    part.add(s.finding("more-tiles-alt", "Two line charts against the number of tiles; " + "; ".join(trends) + ".",
                       kind="alt"))
    return part


# -- section 10: the risk frontier ----------------------------------------------------------------------------------
TIED = 1e-12  # distances this close are one distance (two ways of playing alike, valued by different float paths)
FRONTIER_POLICIES = ("highest-tile", "largest-tile", "lowest-tile", "most-tiles", "most-options", "sequence-count",
                     "random")  # the rules of thumb set against the frontier (the sources' rules among them)


def frontier_table(found) -> pd.DataFrame:
    """The corners of a frontier between the chance of winning and the expected sum left (floats), the most wins
    first: each corner's values, its interval of weights on the win, and the price of the edge to the next corner in
    points of sum per percentage point of winning."""
    table = found.table()
    return table.assign(points_per_pp=table["price"].astype(float) / 100).drop(columns="price")


def frontier_thumbs(found) -> pd.DataFrame:
    """Each rule of thumb's chance of winning and expected sum left, and what it gives up against the frontier
    ``found``: the chance of winning at its own expected sum, the sum at its own chance (:meth:`Frontier.gives_up`)."""
    rows = []
    for policy in FRONTIER_POLICIES:
        p, total = frontier_point(found.rules, ("win", "remaining-sum"), policy)
        win, more = found.gives_up((p, total))
        rows.append({"policy": policy, "p_win": float(p), "expected_remaining_sum": float(total),
                     "win_given_up": float(win) + 0.0, "sum_given_up": float(more) + 0.0})
    return pd.DataFrame(rows)


def frontier_part(rules: Rules) -> Part:
    """The risk frontier between the win and a low sum (:mod:`stb_core.frontier`), and the rules of thumb below it."""
    part = Part()
    found = frontier(rules, ("win", "remaining-sum"))
    corners = part.table("risk-frontier", frontier_table(found))
    thumbs = part.table("frontier-rules-of-thumb", frontier_thumbs(found))
    part.add(frontier_finding(rules, corners), thumbs_finding(thumbs), frontier_alt(corners, thumbs))
    return part


def frontier_alt(corners, thumbs) -> object:
    """The frontier figure in words."""
    s = Sentence()
    count = corners.count("alt_corners")
    rules_count = thumbs.count("alt_rules")
    return s.finding("frontier-alt", (
        f"Two scatter panels of the chance of winning against the expected sum left: on the left, "
        f"{s(rules_count, counted('rule of thumb', 'rules of thumb'))} as points and the frontier "
        + (f"as a single point ({s(count, counted('corner'))})" if s.holds(count, "==", 1) else
           f"as a line of {s(count, counted('corner'))}")
        + ", which no rule of thumb gets beyond; on the right, the frontier alone, close up."), kind="alt")


def frontier_finding(rules: Rules, corners) -> object:
    """The frontier in one paragraph: its ends, its corners and what the last share of wins costs."""
    s = Sentence()
    count = corners.count("corners")
    most = {c: corners.cell(f"most_wins_{c}", c, corner=1) for c in ("p_win", "expected_remaining_sum")}
    if not s.holds(count, ">", 1):
        return s.finding("frontier", (
            f"One way of playing is best for both goals at once: it wins {s(most['p_win'], percent(2))} of games and "
            f"leaves {s(most['expected_remaining_sum'], number(3))} on average; there is no trade-off to make."))
    last = len(corners)
    low = {c: corners.cell(f"lowest_sum_{c}", c, corner=last) for c in ("p_win", "expected_remaining_sum")}
    gain = derived("win_gained", "difference", most["p_win"], low["p_win"])
    cost = derived("sum_paid", "difference", most["expected_remaining_sum"], low["expected_remaining_sum"])
    dearest = corners.cell("dearest_price", "points_per_pp", corner=1)
    cheapest = corners.cell("cheapest_price", "points_per_pp", corner=last - 1)
    price = apart(number, 3, dearest.value, cheapest.value)
    if s.holds(count, "==", 2):
        prices = (f"Along the one edge between them, winning costs sum at a rate of {s(dearest, price)} points per "
                  f"percentage point.")
    else:
        prices = (f"The last share of wins is the dearest: next to the most-wins corner, winning costs sum at a rate "
                  f"of {s(dearest, price)} points per percentage point; next to the lowest-sum corner, "
                  f"{s(cheapest, price)}.")
    return s.finding("frontier", (
        f"The frontier runs from the most wins ({s(most['p_win'], percent(3))} of games, "
        f"{s(most['expected_remaining_sum'], number(3))} left on average) to the lowest sum left "
        f"({s(low['expected_remaining_sum'], number(3))} on average, {s(low['p_win'], percent(3))} of games won); "
        f"the search "
        f"finds {s(count, integer)} corners on it in floating point, each a way of playing that is best for some "
        f"mix of the two goals. From one end to the other, {s(gain, points(3))} of winning trade for "
        f"{s(cost, number(3))} points of sum. {prices}"))


def thumbs_finding(thumbs) -> object:
    """The rules of thumb nearest to and farthest from the frontier, in winning chance at their own sum (every rule
    that shares the nearest or farthest distance named)."""
    s = Sentence()
    ends = {}
    for end, agg, op, slack, column in (("nearest", "min", "<=", TIED, "win_given_up"),
                                        ("farthest", "max", ">=", -TIED, "win_given_up"),
                                        ("farthest_sum", "max", ">=", -TIED, "sum_given_up")):
        distance = thumbs.fact(f"{end}_{column}", column, agg)
        tied = [(column, op, distance.value + slack)]  # rules of thumb as far as the CSV's digits can tell
        ends[end] = (thumbs.fact(f"{end}_policies", "policy", "list", tied), distance)

    def who(end: str) -> str:
        return s(ends[end][0], lambda v: listing([named(p) for p in v]))

    if s.holds(ends["farthest"][1], "<=", NO_LOSS):
        if s.holds(ends["farthest_sum"][1], "<=", NO_LOSS):
            return s.finding("frontier-thumbs", "Every rule of thumb plays a point of the frontier here: none gives "
                                                "up anything in either goal.", kind="text")
        leave = "leaves" if len(ends["farthest_sum"][0].value) == 1 else "leave"
        return s.finding("frontier-thumbs", (
            f"No rule of thumb gives up any chance of winning at its own expected sum, but at its own chance of "
            f"winning {who('farthest_sum')} {leave} the most sum above the frontier "
            f"({s(ends['farthest_sum'][1], number(3))} points on average)."), kind="text")
    verb = "gives" if len(ends["nearest"][0].value) == 1 else "give"
    nearest = (f"{verb} up nothing" if s.holds(ends["nearest"][1], "<=", NO_LOSS) else
               f"{verb} up the least chance of winning ({s(ends['nearest'][1], points(3))})")
    return s.finding("frontier-thumbs", (
        f"The rules of thumb lie on or below the frontier. At its own expected sum, {who('nearest')} {nearest} and "
        f"{who('farthest')} the most ({s(ends['farthest'][1], points(2))}): for a player who cares about both goals, "
        f"the distance to the frontier is what a rule of thumb costs."), kind="text")


def _tile_counts(values) -> str:
    """``13, 14 and 15 tiles``, ``3 tiles``, ``1 tile``: boards of these sizes (singular only for one tile)."""
    values = list(values)
    return f"{listing([str(v) for v in values], most=8)} tile{'' if values == [1] else 's'}"


def solve_times(measured: pd.DataFrame) -> pd.DataFrame:
    """``make bench``'s path comparison (``data/bench/solve-times.csv``) as one row per board size: the median
    seconds and the peak memory of each sweep (numpy, compiled, and the plain loop it is held against)."""
    wide = measured.pivot(index="tiles", columns="sweep", values=["median_seconds", "peak_memory_gb"])
    order = [s for s in ("numpy", "compiled", "plain loop") if s in set(measured["sweep"])]
    table = pd.DataFrame({"tiles": wide.index, "boards": [1 << int(n) for n in wide.index]})
    for sweep in order:
        table[f"{sweep} seconds"] = wide["median_seconds"][sweep].to_numpy()
    for sweep in order:
        table[f"{sweep} peak GB"] = wide["peak_memory_gb"][sweep].to_numpy()
    return table


# -- the chapter ---------------------------------------------------------------------------------------------------
def published_claims(rules: Rules, prices: Part) -> dict:
    """What the engine computes for each published claim the chapter recomputes (``data/published/<stem>.csv``)."""
    gap = prices["source-000-gap"].set_index("policy")["value"]
    return {"riddler_value": float(solve(source_rules(rules, 9, "high-shut"), "win").value()),
            "source000_rule": gap["sequence-count"], "source000_random": gap["random"]}


def headline(rules: Rules, variants: Part, cards: Part) -> dict:
    """The numbers the index shows for this chapter."""
    table = variants["variants"]
    nine = table[(table["variant"] == own_variant(rules)) & (table["objective"] == "win")
                 & (table["policy"] == "optimal")]
    card = cards.findings["recommended-card"]
    facts = {f.name: f for f in card.facts}
    value = nine.loc[nine["tiles"] == rules.tiles, "value"].iloc[0]
    return {f"optimal win, {rules.tiles} tiles": percent(2)(value), "strategy card": facts["card_card"].value,
            "card loss": share(1)(facts["card_loss_percent"].value)}


@analysis_of(variants_part, prices_part, mistakes_part, cards_part, disagreements_part, endings_part, ties_part,
             openings_part, more_tiles_part, frontier_part)
def pipeline(rules: Rules, compare_tiles: int = 10, max_tiles: int = 16, margin_percent: float = RULE_OF_THUMB_PERCENT,
             card_lines: int = 3, card_objective: str = "win") -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    return [variants_part(rules, compare_tiles), prices_part(rules), mistakes_part(rules),
            cards_part(rules, card_lines, card_objective, margin_percent), disagreements_part(rules),
            endings_part(rules), ties_part(rules), openings_part(rules), more_tiles_part(rules, max_tiles),
            frontier_part(rules)]


__all__ = ["VARIANTS", "allowed_or_forced", "dice_advice", "disagreement_summary", "final_sum_table", "loss_summary",
           "more_tiles_table", "opening_moves", "pairs_with_choice", "pipeline", "policy_prices", "solve_times",
           "tie_break_distributions", "tie_break_table", "variant_rules", "variants_table"]


def estimate(rules: Rules, compare_tiles: int = 10, max_tiles: int = 16, margin_percent: float = RULE_OF_THUMB_PERCENT,
             card_lines: int = 3, card_objective: str = "win"):
    """What the chapter will take: the solves of every section, summed (the largest board sets the memory)."""
    from ..cost import ENGINE_BYTES, Estimate, games_played, solve_cost, solve_estimate

    main = solve_estimate(rules)
    variants = games_played((solve_cost(variant_rules(rules, v, n)), 6)
                            for v in variants_of(rules) for n in dict.fromkeys((rules.tiles, compare_tiles)))
    exact = solve_estimate(rules, exact=True) if rules.positions <= PAGE_EXACT_UP_TO else main
    nine = solve_estimate(source_rules(rules, 10))
    cards = len(all_cards(card_lines)) * 0.5  # cards that play the same moves are valued once
    cost = solve_cost(rules)
    total = variants + main * 60 + nine * 6 + exact * 15
    total = total + main * (cards * 3) + nine * (cards * 2 * 4)
    total = total.then(Estimate(cards * cost.pairs * 1e-7, tables_bytes(rules) - ENGINE_BYTES))  # beside kept games
    for n in range(1, max_tiles + 1):
        for d in dict.fromkeys((rules.dice, *more_dice(rules))):
            game = replace(rules, tiles=n, dice=d)
            fractions = solve_estimate(game, exact=True) if game.positions <= PAGE_EXACT_UP_TO else Estimate()
            total = total + solve_estimate(game) * 3 + fractions
    total = total + frontier_estimate(rules) + main * (2 * len(FRONTIER_POLICIES))
    return total * 2.3  # measured: the sections' own work (tables, decompositions) beside their solves
