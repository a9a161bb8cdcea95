"""Chapter 9, luck and skill: how far perfect play is from knowing every throw in advance, how much of the way
from random play to that bound skill covers, and, game by game, how much of each outcome the dice decided and how
much the decisions cost (:mod:`stb_core.hindsight`, :mod:`stb_core.luck`).

The chapter's parts, in page order: :func:`bounds_part` (the hindsight value against every way of playing),
:func:`example_part` (one game turn by turn), :func:`games_part` (luck and loss over seeded games) and
:func:`published_claims` (the one printed figure about luck, judged with the exact hindsight value of its own
game); :func:`pipeline` runs them all.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..choice import NO_LOSS, no_loss, same_value
from ..hindsight import HINDSIGHT_MAX_TILES, hindsight, hindsight_refusal
from ..luck import analyse, luck_of_games, parse_record, record_of
from ..monte_carlo import Z95, narrate_game
from ..objectives import get_objective
from ..rules import Rules, analysis_of
from ..sweep import solve
from ..valuation import evaluate
from .findings import Computed, Part, Sentence, Table, derived, won_at_start
from .words import counted, goal_gap, goal_value, integer, listing, number, percent, points, share, winning

PLAYERS = ("optimal", "highest-tile", "largest-tile", "fewest-tiles", "most-tiles", "lowest-tile", "random",
           "worst")
IN_GAMES = ("optimal", "highest-tile", "random")  # the ways of playing whose games are analysed one by one
NAMES = {"hindsight": "knowing every throw in advance", "optimal": "perfect play", "worst": "the worst play",
         "highest-tile": "the fewest tiles, then the highest", "largest-tile": "the largest tile first",
         "fewest-tiles": "the fewest tiles", "most-tiles": "the most tiles", "lowest-tile": "the lowest tile first",
         "random": "a random legal move"}
SOURCE_RULES = Rules(one_die="high-shut")  # the game of the one printed figure about luck (n-o-r.xyz)


def bounds_table(rules: Rules, objective: str) -> pd.DataFrame:
    """The value of the full board under ``objective`` for each way of playing, best first, with the hindsight
    value on top where it is defined: ``value``, and ``skill_share``, the share of the distance from random play
    to the hindsight value that each way of playing covers (empty without a hindsight value)."""
    sense = 1 if objective == "win" else -1
    rows = []
    refusal = hindsight_refusal(rules, objective)
    if refusal is None:
        rows.append({"play": "hindsight", "play_name": NAMES["hindsight"], "value": hindsight(rules, objective)})
    for name in PLAYERS:
        rows.append({"play": name, "play_name": NAMES[name], "value": float(evaluate(rules, objective, name).value())})
    table = pd.DataFrame(rows)
    if refusal is None:
        top = table.loc[table["play"] == "hindsight", "value"].iloc[0]
        bottom = table.loc[table["play"] == "random", "value"].iloc[0]
        span = sense * (top - bottom)  # nothing to share out where the bound is random play's value (to rounding)
        covered = span > 0 and not same_value(top, bottom)
        table["skill_share"] = [100 * sense * (v - bottom) / span if covered else np.nan for v in table["value"]]
    else:
        table["skill_share"] = np.nan
    return table.sort_values("value", ascending=sense < 0, kind="stable").reset_index(drop=True)


def bounds_view(rules: Rules, objective: str, table: pd.DataFrame) -> dict:
    """How the page shows the bounds: the table's ``caption`` and ``columns`` (name: header) and the dot plot's
    ``figure`` caption; without a hindsight value, neither the bound nor the share of the way to it."""
    what = winning(rules).chance if objective == "win" else "the expected sum left open"
    columns = {"play_name": "play", "value": "value"}
    if "hindsight" in set(table["play"]):
        return {"caption": f"Knowing every throw in advance against each way of playing ({rules.describe()}; {what})",
                "columns": {**columns, "skill_share": "share of the way covered"},
                "figure": "The value of each way of playing, best first; hollow: knowing every throw in advance."}
    return {"caption": f"Each way of playing ({rules.describe()}; {what})", "columns": columns,
            "figure": "The value of each way of playing, best first."}


def bounds_part(rules: Rules, objective: str) -> Part:
    part = Part()
    table = part.table("bounds", bounds_table(rules, objective))
    show = goal_value(objective)
    refusal = hindsight_refusal(rules, objective)
    s = Sentence()
    optimal = table.cell("optimal", "value", play="optimal")
    random_ = table.cell("random", "value", play="random")
    if refusal is None:
        top = table.cell("hindsight", "value", play="hindsight")
        if table.frame["skill_share"].isna().all():  # the bound is random play's value: every way is worth as much
            s.quiet(random_)
            nothing = objective == "win" and s.holds(top, "==", 0)  # no throws at all would win: nothing decides
            why = ("the game is won before the first roll." if won_at_start(s, rules) else
                   f"{winning(rules).never}, whatever the dice and the play." if nothing else
                   "no way of playing does better than chance here.")
            part.add(s.finding("bounds", f"Perfect play is worth {s(optimal, show)}, as much as a random legal move "
                                         f"and as knowing every throw in advance ({s(top, show)}): {why}"))
            return _with_alt(part, table, show)
        skill = table.cell("skill_share", "skill_share", play="optimal")
        won = winning(rules)
        what = f"{won.does} in" if objective == "win" else "leaves"
        gap = derived("gap", "difference", top, optimal) if objective == "win" else \
            derived("gap", "difference", optimal, top)
        if s.holds(derived("bound_against_optimal", "relation", top, optimal), "==", "the same"):
            s.quiet(gap)
            beyond = "as much: knowing the throws gains nothing here"
        else:
            beyond = f"{s(gap, goal_gap(objective))} {'more' if objective == 'win' else 'less'}"
        text = (f"Perfect play {what} {s(optimal, show)}{' of games' if objective == 'win' else ' on average'}; a "
                f"player who knew every throw in advance would {won.do + ' in' if objective == 'win' else 'leave'} "
                f"{s(top, show)}, {beyond}. Of the distance from random play "
                f"({s(random_, show)}) to that bound, perfect play covers {s(skill, share(1))}"
                + (": the dice decide nothing more." if s.holds(skill, ">=", 100 - 1e-9) else
                   ": the rest is the dice."))
        part.add(s.finding("bounds", text))
    else:
        worth = f"{winning(rules).does} in" if objective == "win" else "leaves on average"
        if rules.positions > HINDSIGHT_MAX_TILES:
            refusal = (f"it is computed for boards of up to {HINDSIGHT_MAX_TILES} tiles in all, and this one has "
                       f"{rules.positions}")
        part.add(s.finding("bounds", f"Perfect play {worth} {s(optimal, show)} and random play {s(random_, show)}; "
                                     f"knowing every throw in advance is not valued here ({refusal}).", kind="text"))
    return _with_alt(part, table, show)


def _with_alt(part: Part, table: Table, show) -> Part:
    """``part`` with the alt text of the dot plot of ``table``."""
    a = Sentence()
    shown = [f"{row.play_name} {a(table.cell(f'alt_{row.play}', 'value', play=row.play), show)}"
             for row in table.frame.itertuples()]
    part.add(a.finding("bounds-alt", "Dot plot, one row per way of playing, best first: " + "; ".join(shown) + ".",
                       kind="alt"))
    return part


EXAMPLE_PLAY = "random"  # the example game: random legal moves, whose decisions show every grade


def example_table(rules: Rules, objective: str, seed: int, play: str = EXAMPLE_PLAY) -> tuple[pd.DataFrame, str]:
    """One seeded game of ``play`` analysed turn by turn with perfect play's values (:func:`stb_core.luck.analyse`),
    and its record."""
    optimal = solve(rules, objective)
    record = record_of(narrate_game(evaluate(rules, objective, play), seed=seed), rules)
    report = analyse(optimal, parse_record(record, optimal))
    rows = [{"turn": n, "open": t["open"], "dice": t["dice"],
             "roll": t["roll"] if rules.moves == "sum" else t["roll_words"], "played": t["played"],
             "best": "; ".join(t["best"]) or "-", "luck": float(t["luck"]), "loss": float(t["loss"]),
             "grade": t["grade"], "value_after": float(t["value_after"])} for n, t in enumerate(report["turns"], 1)]
    columns = ["turn", "open", "dice", "roll", "played", "best", "luck", "loss", "grade", "value_after"]
    return pd.DataFrame(rows, columns=columns), record


def example_part(rules: Rules, objective: str, seed: int, bounds: Part) -> Part:
    part = Part()
    frame, record = example_table(rules, objective, seed)
    table = part.table("example-game", frame)
    show = goal_value(objective)
    s = Sentence()
    start = Table("bounds", bounds["bounds"]).cell("start", "value", play="optimal")
    turns = table.count("turns")
    if s.holds(turns, "==", 0):  # won before the first roll: no turn, no luck, no decision
        part.add(s.finding("example-game", f"The game is won before the first roll, with "
                                           f"{s(turns, counted('turn'))} to play: it is worth {s(start, show)}, and "
                                           f"neither the dice nor a decision change that.", kind="text"))
        part.shown["record"] = record
        return part
    luck = table.fact("luck_total", "luck", "sum")
    loss = table.fact("loss_total", "loss", "sum")
    end = table.fact("outcome", "value_after", "value", [("turn", "==", len(frame))])
    worst = table.fact("worst_grade", "grade", "first", order=[("loss", "desc"), ("turn", "asc")])
    costly = table.fact("worst_turn", "turn", "first", order=[("loss", "desc"), ("turn", "asc")])
    sign, back = ("+", "−") if objective == "win" else ("−", "+")
    change, cost = changes(objective)
    text = (f"The game {record} ({NAMES[EXAMPLE_PLAY]} each turn; seed {seed}) starts at {s(start, show)} and "
            f"ends at {s(end, show)}: start {sign} luck ({s(luck, change)}) {back} loss ({s(loss, cost)}) = "
            f"outcome.")
    if no_loss(loss.value):
        s.quiet(worst, costly)
        text += " Every decision was as good as perfect play's."
    else:
        text += f" Its costliest decision, at turn {s(costly)}, is graded “{s(worst)}”."
    part.add(s.finding("example-game", text, kind="text"))
    part.shown["record"] = record
    return part


def changes(objective: str):
    """How luck (signed) and a loss read for ``objective``: percentage points of the chance of winning, or points
    of the sum left open."""
    if objective == "win":
        return points(2, signed=True), points(2)
    return number(3, signed=True), number(3)


def outcome_format(objective: str, rules: Rules | None = None):
    """How a game's outcome reads: for the objective ``win`` won or not in the run's words (``shut``, ``not shut``;
    under a threshold ``won``, ``not won``), else the sum left open."""
    if objective == "win":
        done = winning(rules or Rules()).done_word

        def show(x) -> str:
            return done if float(x) == 1 else f"not {done}"
        show.unit = "name"
        return show
    return integer


def units(objective: str, rules: Rules) -> str:
    """What luck and loss are counted in, in words."""
    return (f"percentage points (pp) of {winning(rules).chance}" if objective == "win"
            else "points of the sum left open")


def games_table(rules: Rules, objective: str, games: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``games`` seeded games of each way of playing in :data:`IN_GAMES`, each analysed turn by turn with perfect
    play's values: one row per game (``per_game``: its total luck, loss, outcome and rolls) and one per way of
    playing (``summary``): the mean luck (zero but for chance), the mean loss against its exact value (the
    difference of the two ways' exact values), the spread of luck and of the outcome, and ``luck_r2``, the share of
    the outcome's variance that the luck of the game explains (the squared correlation)."""
    optimal = solve(rules, objective)
    per_game, summary = [], []
    for k, name in enumerate(IN_GAMES):
        player = evaluate(rules, objective, name)
        found = luck_of_games(optimal, player, games, seed + k)
        per_game.append(pd.DataFrame({"play": name, "game": np.arange(1, games + 1), "luck": found["luck"],
                                      "loss": found["loss"], "outcome": found["outcome"], "rolls": found["rolls"]}))
        spread = float(np.std(found["outcome"]))
        r2 = round(float(np.corrcoef(found["outcome"], found["luck"])[0, 1] ** 2), 12) if spread > 0 and np.std(
            found["luck"]) > 0 else np.nan  # to 12 decimals: a correlation's last digits are rounding noise
        summary.append({"play": name, "play_name": NAMES[name], "games": games,
                        "mean_luck": float(found["luck"].mean()),
                        "luck_se": float(found["luck"].std(ddof=1) / math.sqrt(games)),
                        "mean_loss": float(found["loss"].mean()),
                        "loss_se": float(found["loss"].std(ddof=1) / math.sqrt(games)),
                        "exact_loss": float(optimal.objective.sense * (optimal.value() - player.value())) + 0.0,
                        "sd_luck": float(found["luck"].std()), "sd_loss": float(found["loss"].std()),
                        "sd_outcome": spread, "luck_r2": r2,
                        "identity_error": float(np.max(np.abs(found["start"] + optimal.objective.sense * (
                            found["luck"] - found["loss"]) - found["outcome"])))})
    return pd.concat(per_game, ignore_index=True), pd.DataFrame(summary)


def games_part(rules: Rules, objective: str, games: int, seed: int) -> Part:
    part = Part()
    per_game, summary = games_table(rules, objective, games, seed)
    part.table("game-luck", per_game)
    table = part.table("luck-summary", summary)
    s = Sentence()
    defined = summary.set_index("play")["luck_r2"].notna()  # no share where the outcome or the luck never varies
    known = [name for name in IN_GAMES if defined[name]]
    if known:
        unknown = [name for name in IN_GAMES if name not in known]
        part.add(s.finding("luck-share", luck_share_text(s, table, known, objective, games, unknown)))
    else:
        spreads = [table.cell(f"spread_{name}", "sd_outcome", play=name) for name in IN_GAMES]
        text = ("Every game here ends alike, so luck explains nothing of an outcome that does not vary."
                if all([s.holds(spread, "==", 0) for spread in spreads]) else
                "No roll here changes the value of the game, so luck explains nothing: the outcome's spread is the "
                "decisions'.")
        part.add(s.finding("luck-share", text, kind="text"))
    a = Sentence()
    change, cost = changes(objective)
    parts = [f"{NAMES[n]}: mean luck {a(table.cell(f'luck_{n}', 'mean_luck', play=n), change)}, mean loss "
             f"{a(table.cell(f'loss_{n}', 'mean_loss', play=n), cost)}" for n in IN_GAMES]
    part.add(a.finding("luck-alt", "Histograms of each game's total luck and total loss, one panel per way of "
                                   "playing; " + "; ".join(parts) + ".", kind="alt"))
    part.shown["per_game"] = per_game
    return part


def luck_share_text(s: Sentence, table: Table, known: list[str], objective: str, games: int,
                    unknown: list[str] = ()) -> str:
    """What the luck share (the squared correlation of a game's luck and its outcome) is for each way of playing:
    an identity for one whose exact expected loss is none (a loss is never negative, so it loses nothing in any game
    and its outcome is the start plus the luck: the share is 1 by definition), a measurement for the others -- of
    how little the loss varies from game to game, not of how much the decisions cost (that is the mean loss); none
    for the ways of playing in ``unknown``, whose outcome or luck never varied."""
    cost = changes(objective)[1]
    spread = {n: table.cell(f"sd_loss_{n}", "sd_loss", play=n) for n in known}
    exact = [n for n in known if s.holds(table.cell(f"exact_loss_{n}", "exact_loss", play=n), "<=", NO_LOSS)]
    measured = [n for n in known if n not in exact]
    if measured:
        r2 = {n: table.cell(f"r2_{n}", "luck_r2", play=n) for n in measured}
        text = (f"Over {games:,} games of each, how much of the spread of a game's outcome its total luck explains "
                "(the squared correlation of the two): " +
                listing([f"{s(r2[n], percent(1))} for {NAMES[n]}" for n in measured]) + ".")
    else:
        text = (f"Over {games:,} games of each, how much of the spread of a game's outcome its total luck explains "
                f"is measured for no way of playing.")
    if exact:
        text += (f" For {listing([NAMES[n] for n in exact])}, which never lose"
                 f"{'s' if len(exact) == 1 else ''} anything, it is 100% by definition, not a measurement: the "
                 f"outcome is the start {'plus' if get_objective(objective).sense > 0 else 'minus'} the luck, "
                 "exactly.")
    if unknown:
        spreads = [s(table.cell(f"sd_outcome_{n}", "sd_outcome", play=n), changes(objective)[0]) for n in unknown]
        which = listing([f"{NAMES[n]} (an outcome spread of {x})" for n, x in zip(unknown, spreads, strict=True)])
        text += f" For {which} the outcome or the luck never varied from game to game, so there is no share to measure."
    if measured:
        n = measured[-1]
        text += (f" A share near 100% does not say that decisions matter little: it says that what a way of playing "
                 f"loses varies little from game to game ({NAMES[n]}: a spread of {s(spread[n], cost)} against the "
                 f"luck's {s(table.cell(f'sd_luck_{n}', 'sd_luck', play=n), cost)}); what its decisions cost is its "
                 f"expected loss, {s(table.cell(f'exact_loss_{n}', 'exact_loss', play=n), cost)} a game exactly "
                 f"({s(table.cell(f'mean_loss_{n}', 'mean_loss', play=n), cost)} over these games).")
    return text


RULED_OUT = 1e-9  # a chance this small is no chance: beyond it a simulation disagrees with the engine
ALIKE = 1e-12  # a standard error this small, against the mean, is rounding: the games all came out alike


def hoeffding(spread: float, games: int, alpha: float) -> float:
    """Hoeffding's bound: the mean of ``games`` independent values that each lie in a range of width ``spread`` is
    within this of its expectation but with probability ``alpha``, whatever their distribution."""
    return spread * math.sqrt(math.log(2 / alpha) / (2 * games))


IDENTITY_GAP = 1e-9  # a game's start + luck - loss may miss its outcome by this much: float rounding, no more


def identity_words(objective: str) -> str:
    """The luck identity in the objective's direction: ``start + luck − loss = outcome`` where more is better,
    ``start − luck + loss = outcome`` for a sum left (luck and loss are counted in the player's favour and
    against it)."""
    return "start + luck − loss = outcome" if get_objective(objective).sense > 0 else "start − luck + loss = outcome"


def identity_checks(summary: pd.DataFrame, objective: str) -> list[tuple[str, str, bool]]:
    """For each way of playing, the identity ``start + sense (luck - loss) = outcome`` in every one of its games:
    ``(claim, the largest gap, whether it holds within IDENTITY_GAP)``."""
    return [(f"{row.play_name}: {identity_words(objective)} in every game", f"largest gap {row.identity_error:.0e}",
             bool(row.identity_error < IDENTITY_GAP)) for row in summary.itertuples()]


def game_checks(summary: pd.DataFrame, rules: Rules, objective: str) -> list[dict]:
    """Each way of playing's games against the exact values: the mean luck of a game against zero, the mean loss
    against the exact expected loss. Each check has a 95% interval -- normal, from the games' spread; Hoeffding's,
    from the range a game's value can take, where every game came out alike and the spread says nothing -- its
    z-score, and the distance chance cannot reach (Hoeffding's at one in a billion: a rare event's normal z-score
    overstates it). A finished game is worth between the objective's least and most (0 and 1 for the win, 0 and
    the full board's score for a sum), so a game's loss lies in a range that wide and its luck in twice that. For
    the win, a game's luck carries at least the spread of its outcome, a win with the way of playing's exact chance
    ``v``: its standard error is never taken below ``sqrt(v (1 - v) / games)`` (a few wins in few games understate
    it). A way of playing whose exact expected loss is 0 loses nothing in any game (a loss is never negative): its
    games' mean loss must be 0 but for rounding."""
    solution = solve(rules, objective)
    game, best = solution.game, float(solution.value())
    width = 1.0 if objective == "win" else float(game.worst_score)
    rows = []
    for row in summary.itertuples():
        chance = min(max(best - row.exact_loss, 0.0), 1.0) if objective == "win" else None
        floor = math.sqrt(chance * (1 - chance) / row.games) if chance is not None else 0.0
        for what, mean, se, exact, spread, loss in (
                ("mean luck of a game against zero", row.mean_luck, max(row.luck_se, floor), 0.0, 2 * width, False),
                ("mean loss of a game against the exact expected loss", row.mean_loss, row.loss_se, row.exact_loss,
                 width, True)):
            alike = se <= ALIKE * max(1.0, abs(mean))  # every game came out the same, but for rounding
            half = hoeffding(spread, row.games, 0.05) if alike else Z95 * se
            if loss and exact == 0:  # no decision loses anything: no game's loss may be above rounding
                half = ALIKE * max(1.0, width)
            method = ("; every game came out alike, so the interval is Hoeffding's bound from the range a game's value "
                      "can take" if alike and not (loss and exact == 0) else "")
            rows.append({"claim": f"{row.play_name}: {what}{method}", "simulated": mean, "exact": exact,
                         "low": mean - half, "high": mean + half, "z": (mean - exact) / (half / Z95) if half else 0.0,
                         "bound": hoeffding(spread, row.games, RULED_OUT)})
    return rows


def published_claims() -> dict:
    """What the engine computes for the printed figure about luck: the hindsight chance of its own game (tiles
    1-9, two dice, one die allowed once 7, 8 and 9 are shut), whatever this run's parameters."""
    return {"winnable": Computed(hindsight(SOURCE_RULES, "win"))}


def headline(bounds: Part) -> dict:
    """The numbers the index shows for this chapter."""
    table = bounds["bounds"].set_index("play")
    out = {"perfect play": str(round(float(table.loc["optimal", "value"]), 6))}
    if "hindsight" in table.index:
        out["hindsight"] = str(round(float(table.loc["hindsight", "value"]), 6))
        if not math.isnan(table.loc["optimal", "skill_share"]):
            out["skill share"] = share(1)(table.loc["optimal", "skill_share"])
    return out


@analysis_of(bounds_part, example_part, games_part)
def pipeline(rules: Rules, objective: str = "win", games: int = 2_000, seed: int = 9) -> list[Part]:
    """Every part of the chapter, in page order."""
    bounds = bounds_part(rules, objective)
    return [bounds, example_part(rules, objective, seed, bounds), games_part(rules, objective, games, seed)]


def estimate(rules: Rules, objective: str = "win", games: int = 2_000, seed: int = 9):
    """What the chapter will take: the hindsight value (where defined) and that of its source's game, one solve per
    way of playing, and ``games`` games of three ways of playing, each roll of each game a few array steps."""
    from ..cost import Estimate, solve_estimate
    from ..hindsight import hindsight_estimate

    bound = hindsight_estimate(rules) if hindsight_refusal(rules, objective) is None else Estimate()
    return (bound + hindsight_estimate(SOURCE_RULES) + solve_estimate(rules) * (len(PLAYERS) + 1)
            + Estimate(len(IN_GAMES) * games * (rules.tiles + 2) * 2e-6))
