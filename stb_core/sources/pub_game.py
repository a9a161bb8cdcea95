"""Chapter 7, the pub game for stakes: its tables, its findings and a simulation of whole rounds, from the game
and its backward induction in :mod:`stb_core.players`.

Also here, for the comparison the chapter draws for two players: the simpler game of the previous edition, *who
finishes lower* -- two players, one turn each to the end of the game; the lower sum left open wins, equal sums
tie. The second player knows the sum ``t`` to beat and plays to maximise ``P(s2 < t)`` (goal ``beat``) or
``P(s2 <= t)`` (goal ``tie-or-beat``): a terminal utility of the final sum, solved by the same Bellman sweep as
every built-in objective. Playing that way from the full board gives, for each ``t``,

    L(t) = P(s2 < t),   E(t) = P(s2 = t),   G(t) = P(s2 > t).

The first player, knowing this, maximises the chance of winning outright, the terminal utility ``u1(s) = G(s)``.
Then ``P(first wins) = sum_s P1(s) G(s)``, ``P(tie) = sum_s P1(s) E(s)`` with ``P1`` the first player's
final-sum distribution, and the second wins the rest.

The chapter's parts, in page order: :func:`seats_part`, :func:`two_games_part`, :func:`players_part`,
:func:`fair_part`, :func:`first_seat_part` and :func:`simulation_part`; :func:`pipeline` runs them all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ..analysis import choice_disagreements
from ..choice import NO_LOSS
from ..game import game_of
from ..objectives import custom_objective
from ..players import (
    FAIR_TRIALS,
    SCORING_OBJECTIVES,
    PubGame,
    PubResult,
    fair_shut_pays,
    play,
    play_estimate,
    scorings_of,
)
from ..rules import InputError, Rules, analysis_of
from ..sweep import Solution, solve
from ..valuation import final_sum_distribution, reachable_boards
from .findings import Part, Sentence, Table, derived, equal_to, parameter, won_at_start
from .words import a_roll, apart, counted, integer, listing, minus, number, percent, play_name, points, winning

ZERO_SUM_ROUNDING = 1e-12  # float payoffs or chances this close to zero are zero (their rounding)

# -- who finishes lower: the previous edition's two-player game -----------------------------------------------
SECOND_GOALS = ("beat", "tie-or-beat")


def second_player_objective(target: int, goal: str = "beat"):
    """The second player's objective facing a first-player sum of ``target``."""
    if goal not in SECOND_GOALS:
        raise InputError(f"goal must be one of {', '.join(SECOND_GOALS)}; got {goal!r}")
    if goal == "beat":
        return custom_objective(f"beat {target}", of_sum=lambda s: s < target)
    return custom_objective(f"tie or beat {target}", of_sum=lambda s: s <= target)


def second_player_table(rules: Rules, goal: str = "beat", exact: bool = False) -> pd.DataFrame:
    """For each sum ``t`` the first player may leave: the second player's chances of finishing below,
    equal to and above ``t`` when playing for ``goal``."""
    rows = []
    for target in range(game_of(rules).worst_score + 1):
        sol = solve(rules, second_player_objective(target, goal), exact=exact)
        dist = final_sum_distribution(rules, solution=sol)
        below = sum((p for s, p in dist.items() if s < target), start=0)
        equal = dist.get(target, 0)
        rows.append({"target": target, "p_below": below, "p_equal": equal, "p_above": 1 - below - equal})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class TwoPlayerResult:
    """Exact outcome of the two-player game under one rules value."""

    rules: Rules
    goal: str
    p_first_wins: object
    p_tie: object
    p_second_wins: object
    second: pd.DataFrame          # second_player_table
    first: Solution               # the first player's optimal solution
    first_distribution: dict      # the first player's final-sum distribution


def two_player_game(rules: Rules, goal: str = "beat", exact: bool = False) -> TwoPlayerResult:
    """Solve the two-player game described in the module docstring."""
    second = second_player_table(rules, goal, exact)
    above = dict(zip(second["target"], second["p_above"], strict=True))
    equal = dict(zip(second["target"], second["p_equal"], strict=True))
    first_objective = custom_objective("first player wins", of_sum=lambda s: above[s])
    first = solve(rules, first_objective, exact=exact)
    dist = final_sum_distribution(rules, solution=first)
    p_first = sum((p * above[s] for s, p in dist.items()), start=0)
    p_tie = sum((p * equal[s] for s, p in dist.items()), start=0)
    return TwoPlayerResult(rules, goal, p_first, p_tie, 1 - p_first - p_tie, second, first, dist)



# -- beside the exact values: a simulation of whole rounds ---------------------------------------------------
def seats_by_players(rules: Rules, scoring: str, shut_pays, players=range(2, 5), progress=None) -> pd.DataFrame:
    """Each seat's expected winnings, chance of winning and of shutting the box, for each number of players
    (floats, one row per (players, seat))."""
    parts = []
    for n in players:
        seats = play(PubGame(rules, n, scoring, shut_pays), progress=progress).seats
        parts.append(seats.astype({"expected_payoff": float, "p_win": float, "p_shut": float}).assign(players=n))
        if progress:
            progress(f"{n} players solved")
    return pd.concat(parts, ignore_index=True)


def fair_bonus_table(rules: Rules, players=range(2, 5), scorings=None, tolerance: float = 1e-9,
                     progress=None) -> pd.DataFrame:
    """The fair bonus (:func:`fair_shut_pays`) for each scoring (default: every scoring these rules can use)
    and number of players: one row each, with whether seat 1 is exactly even there and how many games were
    solved to find it. ``progress`` (e.g. ``print``) hears about each game."""
    rows = []
    never = solve(rules, "win").value() == 0  # no box is ever shut: no bonus is ever paid, none is fair or unfair
    for scoring in scorings or scorings_of(rules):
        for n in players:
            if never:  # seat 1's winnings are the same whatever the bonus: even or not, once and for all
                first = play(PubGame(rules, n, scoring, 0)).seats["expected_payoff"][0]
                rows.append({"scoring": scoring, "players": n, "fair_shut_pays": None,
                             "exactly_even": bool(abs(first) <= tolerance), "games_solved": 0})
                continue
            fair = fair_shut_pays(PubGame(rules, n, scoring, 1), tolerance=tolerance, progress=progress)
            found = fair.shut_pays
            found = 0.0 if found is not None and abs(found) <= tolerance else found  # the search's zero is 0
            rows.append({"scoring": scoring, "players": n, "fair_shut_pays": found,
                         "exactly_even": fair.exact_zero, "games_solved": fair.evaluations})
            if progress:
                found = "none up to the search's limit" if fair.shut_pays is None else f"{fair.shut_pays:.4f}"
                progress(f"fair bonus, {n} players, {scoring} scoring: {found}")
    return pd.DataFrame(rows)


def simulate_rounds(result: PubResult, rounds: int, seed: int) -> pd.DataFrame:
    """Play ``rounds`` whole rounds with every seat's best strategy (seeded): per seat the mean winnings with its
    standard error, and the shares of rounds won (alone or shared) and shut; ``attrs["p_tie"]``: the share of
    split pots, ``attrs["rounds"]``: the rounds played."""
    from ..monte_carlo import check_games, check_seed, play_games

    rounds, seed = check_games(rounds), check_seed(seed)
    game, scores = result.game, result.scores
    n, m, x = game.players, scores.count, float(result.shut_pays)
    rng = np.random.default_rng(seed)
    best = np.full(rounds, m)
    count = np.zeros(rounds, dtype=np.int64)
    shut_by = np.zeros(rounds, dtype=np.int64)
    finals = np.full((rounds, n), m + 1, dtype=np.int64)  # a seat that did not play never holds the best
    for seat in range(1, n + 1):
        at = np.flatnonzero(shut_by == 0)
        best_at, count_at = best[at], count[at]  # the states before this seat plays (groups must not move)
        for b, c in sorted(set(zip(best_at.tolist(), count_at.tolist(), strict=True))):
            group = at[(best_at == b) & (count_at == c)]
            solution = result.seat_solution(seat, b, c)
            ended = play_games(solution, int(group.size), np.random.default_rng(int(rng.integers(2**31))),
                               game.rules.full_board)
            shut = game_of(game.rules).won[ended]
            shut_by[group[shut]] = seat
            kept, ranks = group[~shut], scores.rank[ended[~shut]]
            finals[kept, seat - 1] = ranks
            best[kept[ranks < b]] = ranks[ranks < b]
            count[kept[ranks < b]] = 1
            count[kept[ranks == b]] += 1
    payoff = np.zeros((rounds, n))
    won = np.zeros((rounds, n), dtype=bool)
    shut = shut_by > 0
    for seat in range(1, n + 1):
        mine = shut_by == seat
        payoff[shut, seat - 1] = np.where(mine[shut], x * (n - 1), -x)
        won[mine, seat - 1] = True
    lowest = finals[~shut].min(axis=1)
    in_best = finals[~shut] == lowest[:, None]
    sharing = in_best.sum(axis=1)
    payoff[~shut] = np.where(in_best, n / sharing[:, None] - 1, -1.0)
    won[~shut] = in_best
    table = pd.DataFrame([{"seat": seat, "mean_payoff": payoff[:, seat - 1].mean(),
                           "payoff_se": payoff[:, seat - 1].std(ddof=1) / math.sqrt(rounds) if rounds > 1 else math.inf,
                           "p_win": won[:, seat - 1].mean(), "p_shut": (shut_by == seat).mean()}
                          for seat in range(1, n + 1)])
    table.attrs["p_tie"] = float((sharing >= 2).sum() / rounds)
    table.attrs["rounds"] = rounds
    return table


def rounds_against_exact(result: PubResult, simulated: pd.DataFrame) -> pd.DataFrame:
    """The simulation of :func:`simulate_rounds` beside the exact values: each seat's mean winnings (normal
    95% interval from its standard error) and the share of split pots (Wilson interval), with the z-score of
    the gap. Columns: quantity, seat (0 for the split pots), simulated, exact, low, high, z."""
    from ..monte_carlo import Z95, wilson_interval

    rows = []
    for mine, exact in zip(simulated.itertuples(), result.seats.itertuples(), strict=True):
        se, exact_payoff = mine.payoff_se, float(exact.expected_payoff)
        rows.append({"quantity": "winnings", "seat": mine.seat, "simulated": mine.mean_payoff, "exact": exact_payoff,
                     "low": mine.mean_payoff - Z95 * se, "high": mine.mean_payoff + Z95 * se,
                     "z": (mine.mean_payoff - exact_payoff) / se if se > 0 else 0.0})
    rounds = simulated.attrs["rounds"]
    split, p_split = round(simulated.attrs["p_tie"] * rounds), float(result.p_tie)
    low, high = wilson_interval(split, rounds)
    spread = math.sqrt(max(p_split * (1 - p_split), 0.0) / rounds)
    rows.append({"quantity": "split pots", "seat": 0, "simulated": split / rounds, "exact": p_split, "low": low,
                 "high": high, "z": (split / rounds - p_split) / spread if spread else 0.0})
    return pd.DataFrame(rows)


# -- the chapter's parts ---------------------------------------------------------------------------------------
PUB_EXACT_MAX_TILES = 9  # exact fractions for the seats' winnings up to this many tiles (sum scoring, or two players)


def the_game(rules: Rules, players: int, scoring: str, shut_pays: float) -> tuple[PubGame, bool]:
    """The game of this run, and whether it is solved in exact fractions (a whole-number bonus, up to 9 tiles,
    sum scoring or two players)."""
    bonus = int(shut_pays) if float(shut_pays) == int(shut_pays) else shut_pays
    exact = isinstance(bonus, int) and rules.tiles <= PUB_EXACT_MAX_TILES and (scoring == "sum" or players == 2)
    return PubGame(rules, players, scoring, bonus), exact


STAKES_FROM = 10  # winnings this large read in stakes (``+3,000.00 stakes``), not thousands of per cent of one


def stakes(x) -> str:
    """Winnings in per cent of a stake, signed: ``+3.21% of a stake``; from :data:`STAKES_FROM` stakes up, in
    stakes: ``+3,000.00 stakes``."""
    if abs(float(x)) >= STAKES_FROM:
        return minus(f"{float(x):+,.2f} stakes")
    return points(2, "% of a stake", signed=True)(x)


stakes.unit = "hundredths"
stakes.decimals = 2


def winnings_scale(payoffs) -> tuple[int, str, str]:
    """One unit for winnings shown together (a figure's axis): stakes where any reaches :data:`STAKES_FROM`, else
    per cent of a stake -- ``(scale, axis unit, words)``, e.g. ``(100, "% of a stake", "per cent of a stake")``."""
    if (np.abs(np.asarray(payoffs, dtype=float)) >= STAKES_FROM).any():
        return 1, "stakes", "stakes"
    return 100, "% of a stake", "per cent of a stake"


def seats_part(rules: Rules, players: int, scoring: str, shut_pays: float, progress=None) -> Part:
    """Each seat's expected winnings, chance of winning and of shutting the box, and the chance the pot is split."""
    part = Part()
    game, exact = the_game(rules, players, scoring, shut_pays)
    result = play(game, exact=exact, progress=progress)
    part.shown["result"], part.shown["exact"] = result, exact
    seats = result.seats.copy()
    short = exact and all(len(str(Fraction(v))) <= 24 for v in seats["expected_payoff"])
    table = seats.assign(**{c: seats[c].astype(float) for c in ("expected_payoff", "p_win", "p_shut")})
    table["expected_payoff"] = [nil_if_rounding(v) for v in table["expected_payoff"]]  # a float's rounding of 0 is 0
    table["seat"] = table["seat"].astype(int)
    if short:
        table["exact"] = [str(Fraction(v)) for v in seats["expected_payoff"]]
    table["p_split_pot"] = float(result.p_tie)
    seats_table = part.table("seats", table)
    s = Sentence()
    best = {c: seats_table.fact(f"best_{c}", c, "first", order=[("expected_payoff", "desc"), ("seat", "asc")])
            for c in ("seat", "expected_payoff")}
    worst = {c: seats_table.fact(f"worst_{c}", c, "first", order=[("expected_payoff", "asc"), ("seat", "asc")])
             for c in ("seat", "expected_payoff")}
    split = seats_table.fact("split", "p_split_pot", "max")
    s.quiet(best["expected_payoff"], worst["expected_payoff"])
    setting = f"With {players} players ({scoring} scoring, {winning(rules).a_won_game} paid {float(shut_pays):g})"
    if s.holds(derived("all_even", "equal", best["expected_payoff"], worst["expected_payoff"]), "==", True):
        text = f"{setting}, every seat is worth the same: {s(best['expected_payoff'], stakes)} per round."
    else:
        last = seats_table.fact("worst_seats", "seat", "list",
                                [("expected_payoff", "==", worst["expected_payoff"].value)])
        s.quiet(worst["seat"])
        worst_seats = (f"seat {s(last, lambda v: str(v[0]))}," if len(last.value) == 1 else
                       f"seats {s(last, lambda v: listing([str(n) for n in v]))}, each")
        text = (f"{setting}, the best seat is **seat {s(best['seat'])}**, worth {s(best['expected_payoff'], stakes)} "
                f"per round; the worst is {worst_seats} {s(worst['expected_payoff'], stakes)}.")
    text += f" The pot is split in {s(split, percent(2))} of rounds."
    part.add(s.finding("seats", text))
    return part


def two_games_table(result: PubResult) -> pd.DataFrame:
    """Two players, two games: who finishes lower without stakes (a tie is no win, a shut box does not end the
    round) against this game for stakes; the chance of each outcome in each."""
    if result.game.players != 2:
        raise InputError(f"players must be 2 to compare with the two-player game, got {result.game.players}")
    lower = two_player_game(result.game.rules, "beat")
    tie = float(result.p_tie)
    first, second = (float(p) - tie for p in result.seats["p_win"].iloc[:2])
    rows = [{"game": "who finishes lower, no stakes", "first_wins": lower.p_first_wins, "tie": lower.p_tie,
             "second_wins": lower.p_second_wins},
            {"game": f"for stakes, {winning(result.game.rules).a_won_game} pays {float(result.shut_pays):g}",
             "first_wins": first, "tie": tie, "second_wins": second}]
    return pd.DataFrame([{k: v if k == "game" else nil_if_rounding(v) for k, v in row.items()} for row in rows])


def nil_if_rounding(value) -> float:
    """A chance or a payoff as a float: one within a float's rounding of 0 (the difference of two equal chances,
    seats' winnings that cancel) is 0."""
    value = float(value)
    return 0.0 if abs(value) < ZERO_SUM_ROUNDING else value


def two_games_part(seats: Part) -> Part:
    """For two players with sum scoring: the same two players without stakes, who finishes lower."""
    part = Part()
    result = seats["result"]
    if result.game.players != 2 or result.game.scoring != "sum":
        return part
    table = part.table("two-games", two_games_table(result))
    s = Sentence()
    s.holds(parameter("players", result.game.players), "==", 2)  # the previous edition's game: two players,
    s.holds(parameter("scoring", result.game.scoring), "==", "sum")  # scoring the sum
    lower_game = "who finishes lower, no stakes"
    lower = {c: table.cell(f"lower_{c}", c, game=lower_game) for c in ("first_wins", "tie", "second_wins")}
    game = table.frame["game"].iloc[1]
    staked = {c: table.cell(f"stakes_{c}", c, game=game) for c in ("first_wins", "second_wins")}
    advantage = derived("second_minus_first", "difference", lower["second_wins"], lower["first_wins"])
    compared = s.quiet(derived("second_against_first", "relation", lower["second_wins"], lower["first_wins"]))
    intro, alike = Sentence(), True
    for c in ("first_wins", "tie", "second_wins"):  # every outcome, each compared (none left unchecked)
        sides = intro.quiet(table.cell(f"intro_lower_{c}", c, game=lower_game)), \
            intro.quiet(table.cell(f"intro_stakes_{c}", c, game=game))
        alike = intro.holds(derived(f"same_{c}", "relation", *sides), "==", "the same") and alike
    won = winning(result.game.rules)
    part.add(intro.finding("two-games-intro", (
        f"**The same two players without stakes.** A simpler question is only *who finishes lower*, each player "
        f"playing for a strict win (a tie counts as a loss) and {won.a_won_game} not ending the round (the second "
        f"player could still tie it). With stakes a tie is worth half a win and {won.a_won_game} ends the round, so "
        + ("the two games differ." if not alike else
           "the two games could differ; here they give every outcome the same chance.")), kind="text"))
    going = {"more": "gains", "less": "costs", "the same": "neither gains nor costs"}[compared.value]
    size = f" {s(advantage, _abs_points)}" if compared.value != "the same" else ""
    s.quiet(advantage)
    part.add(s.finding("two-games", f"Who finishes lower: the first player wins {s(lower['first_wins'], percent(3))}, "
                                    f"ties {s(lower['tie'], percent(3))} and loses "
                                    f"{s(lower['second_wins'], percent(3))}, so going second {going}{size} (where "
                                    f"the second player can no longer finish lower, every move is as good to it and "
                                    f"it plays the lowest tiles first: that play splits those games between a tie "
                                    f"and a win for the first). For stakes "
                                    f"the first player wins outright {s(staked['first_wins'], percent(2))} of rounds "
                                    f"and the second {s(staked['second_wins'], percent(2))}.", kind="text"))
    return part


def _abs_points(x) -> str:
    """A difference of probabilities without its sign, in percentage points."""
    return f"{abs(100 * float(x)):.3f} percentage points"


_abs_points.unit = "pp_abs"
_abs_points.decimals = 3


def players_part(rules: Rules, scoring: str, shut_pays: float, max_players: int, progress=None) -> Part:
    """Each seat's winnings for 2 up to ``max_players`` players."""
    part = Part()
    game, _ = the_game(rules, 2, scoring, shut_pays)
    table = part.table("seats-by-players", seats_by_players(rules, scoring, game.shut_pays, range(2, max_players + 1),
                                                            progress=progress))
    s = Sentence()
    shown = []
    for n in range(2, max_players + 1):
        first = table.cell(f"seat_1_with_{n}", "expected_payoff", players=n, seat=1)
        shown.append(f"{n} players: seat 1 {s(first, stakes)}")
    part.add(s.finding("players-alt", "Line chart: expected winnings against seat, one line per number of players; "
                                      + "; ".join(shown) + ".", kind="alt"))
    return part


def bonus_decimals(bonuses: list[float], least: int = 3, most: int = 8) -> int:
    """The fewest decimals (from ``least``) at which no fair bonus other than 1 prints as 1: a bonus just below the
    pot (0.99982) is "below 1" in the prose and must not read 1.000 in the table."""
    return max((apart(number, least, x, 1.0, most).decimals for x in bonuses), default=least)


def fair_part(rules: Rules, max_players: int, progress=None) -> Part:
    """The bonus for a shut box that makes the first seat's winnings zero, for each scoring and number of players."""
    part = Part()
    fair = fair_bonus_table(rules, range(2, max_players + 1), progress=progress)
    fair["found"] = fair["fair_shut_pays"].notna()
    fair["below_one"] = fair["found"] & (fair["fair_shut_pays"].astype(float) < 1)
    table = part.table("fair-bonus", fair)
    found = fair.loc[fair["found"], "fair_shut_pays"].astype(float)
    part.shown["drawn"] = bool(len(found))  # a figure only where some bonus was found
    part.shown["scale"] = "log" if len(found) and (found > 0).all() else "linear"  # a fair bonus of 0 has no log
    part.shown["decimals"] = decimals = bonus_decimals(found.tolist())
    s = Sentence()
    shown = []
    for row in fair.itertuples():
        if row.found:
            value = table.cell(f"fair_{row.scoring}_{row.players}", "fair_shut_pays", scoring=row.scoring,
                               players=row.players)
            shown.append(f"{row.scoring}, {row.players} players: {s(value, number(decimals))}")
        else:
            s.holds(table.cell(f"found_{row.scoring}_{row.players}", "found", scoring=row.scoring, players=row.players),
                    "==", False)
            shown.append(f"{row.scoring}, {row.players} players: none found")
    part.add(s.finding("fair-alt", "Line chart of the fair bonus against players: " + "; ".join(shown) + ".",
                       kind="alt"))
    s = Sentence()
    below = table.fact("sum_below_one", "below_one", "all", [("scoring", "==", "sum")])
    if s.holds(table.fact("paid", "games_solved", "sum"), "==", 0):
        text = (f"No bonus is ever paid in this game: {winning(rules).never}, so no bonus changes a seat's winnings "
                f"and there is no fair bonus to find.")
    else:
        fewest, most = (table.fact(f"{end}_players", "players", agg)
                        for end, agg in (("fewest", "min"), ("most", "max")))
        one = s.holds(fewest, "==", most.value)
        among = f"{s(fewest, integer)} players" if one else f"{s(fewest, integer)} to {s(most, integer)} players"
        some = table.fact("sum_some_below_one", "below_one", "any", [("scoring", "==", "sum")])
        if s.holds(below, "==", True):
            text = (f"With sum scoring the first seat is favoured by a bonus of 1 with {'' if one else 'each of '}"
                    f"{among} (a fair bonus below 1).")
        elif s.holds(some, "==", True):
            text = f"With sum scoring a bonus of 1 favours the first seat for some of {among}, not for all."
        else:
            text = (f"With sum scoring a bonus of 1 does not favour the first seat with {'' if one else 'any of '}"
                    f"{among} (no fair bonus is below 1).")
    part.add(s.finding("fair", text, kind="text"))
    s = Sentence()
    where = [("found", "==", True), ("exactly_even", "==", False)]
    if s.holds(table.count("jump_count", where), ">", 0):
        listed = table.fact("jumps", "players", "list", where)
        scorings = table.fact("jump_scorings", "scoring", "list", where)
        s.quiet(listed, scorings)
        places = listing([f"{n} players ({sc})" for n, sc in zip(listed.value, scorings.value, strict=True)])
        part.add(s.finding("fair-jumps", f"At {places} no bonus makes the first seat exactly even: its winnings jump "
                                         f"across zero where a later seat switches strategy; the table gives the bonus "
                                         f"at the jump.", kind="text"))
    return part


def scoring_note(rules: Rules) -> str | None:
    """What the sum scores on a board whose tiles do not all count once (Double Shutter), else None."""
    game = game_of(rules)
    if all(w == 1 for w in game.layout.weights):
        return None
    times = {1: "once", 2: "twice"}
    front, back = (times.get(w, f"{w} times") for w in (game.layout.weights[0], game.layout.weights[-1]))
    return (f"On this board a turn's sum counts each open front tile {front} and each back tile {back}: the full "
            f"board scores {game.worst_score}, though its tiles add up to {rules.total}.")


def players_words(max_players: int) -> str:
    """The numbers of players the tables run over: ``2 to 4 players``, or ``2 players`` alone."""
    return "2 players" if max_players == 2 else f"2 to {max_players} players"


def scorings_words(fair: pd.DataFrame) -> str:
    """The scorings a fair-bonus table holds, for its caption: ``each scoring`` or ``sum scoring``."""
    scorings = fair["scoring"].unique().tolist()
    return "each scoring" if len(scorings) > 1 else f"{scorings[0]} scoring"


SOLO = {"sum": "the least expected sum", "digits": "the least expected digit score"}  # solo play, by scoring


def first_seat_part(rules: Rules, seats: Part) -> Part:
    """Where the first seat's best move differs from solo play for the least expected score of the round's
    scoring (the sum left, or the digit score), on the boards a turn can reach (a seat's values hold there:
    :func:`stb_core.players.final_scores`)."""
    part = Part()
    result = seats["result"]
    first = result.seat_solution(1)
    changes = choice_disagreements(first, solve(rules, SCORING_OBJECTIVES[result.game.scoring]),
                                   reachable_boards(rules, include_won=False))
    table = part.table("strategy-changes", changes.sort_values("loss_for_a", ascending=False, kind="stable")
                       .reset_index(drop=True))
    s = Sentence()
    count = table.count("pairs")
    if s.holds(count, ">", 0):
        top = {c: table.fact(f"top_{c}", c, "first", order=[("loss_for_a", "desc")])
               for c in ("board", "roll", "move_a", "move_b", "loss_for_a")}
        worst = top["loss_for_a"].value
        tied = table.count("top_tied", equal_to("loss_for_a", worst, ZERO_SUM_ROUNDING * max(1.0, abs(worst))))
        also = f" (one of {s(tied, integer)} as costly)" if s.holds(tied, ">", 1) else ""
        text = (f"The first seat plays differently from solo play for {SOLO[result.game.scoring]} at "
                f"{s(count, counted('(board, roll) pair'))} (on the boards a turn can reach). The "
                f"costliest to get wrong{also}: open {s(top['board'])} with {s(top['roll'], a_roll)}, where it shuts "
                f"{s(top['move_a'])} instead of {s(top['move_b'])}, worth {s(top['loss_for_a'], number(4))} stakes.")
    elif won_at_start(s, rules):
        text = "The round is won before the first roll: no seat makes a decision."
    else:
        text = f"The first seat plays exactly as solo play for {SOLO[result.game.scoring]} here."
    part.add(s.finding("first-seat", text))
    return part


SEAT_RULES = ("win", "highest-tile", "largest-tile", "random")  # set in one seat against the stakes, beside solo play


def seat_plays(scoring: str) -> tuple[str, ...]:
    """The ways of playing set in one seat: solo play for the round's score, then :data:`SEAT_RULES`."""
    return (SCORING_OBJECTIVES[scoring], *SEAT_RULES)


def seat_costs_table(rules: Rules, players: int, scoring: str, shut_pays: float, progress=None) -> pd.DataFrame:
    """For each seat and each way of playing of :func:`seat_plays`: the seat's expected winnings when it plays that
    way whatever the scores and every other seat plays for the stakes (knowing it), against its winnings when it
    too plays for the stakes; ``cost`` is the difference (stakes per round; floats)."""
    base = play(PubGame(rules, players, scoring, shut_pays), progress=progress).seats["expected_payoff"]
    rows = []
    for seat in range(1, players + 1):
        for how in seat_plays(scoring):
            seats = play(PubGame(rules, players, scoring, shut_pays, {seat: how}), progress=progress).seats
            payoff, best = float(seats["expected_payoff"][seat - 1]), float(base[seat - 1])
            rows.append({"seat": seat, "play": how, "expected_payoff": payoff, "stakes_payoff": best,
                         "cost": best - payoff if abs(best - payoff) > NO_LOSS else 0.0,
                         "p_shut": float(seats["p_shut"][seat - 1])})
    return pd.DataFrame(rows)


def seat_costs_part(rules: Rules, players: int, scoring: str, shut_pays: float, progress=None) -> Part:
    """What a rule of thumb, or solo play, costs one seat against opponents who play for the stakes."""
    part = Part()
    table = part.table("seat-costs", seat_costs_table(rules, players, scoring, shut_pays, progress))
    s = Sentence()
    ends = {end: {c: table.fact(f"{end}_{c}", c, "first", order=[("cost", order), ("seat", "asc")])
                  for c in ("seat", "play", "cost")} for end, order in (("cheapest", "asc"), ("dearest", "desc"))}
    solo = table.cell("solo_cost", "cost", seat=1, play=SCORING_OBJECTIVES[scoring])

    def amount(fact) -> str:
        if s.holds(fact, "<=", NO_LOSS) and s.holds(fact, ">=", -NO_LOSS):
            return "nothing"
        shown = s(fact, abs_stakes(fact.value))
        return f"a gain of {shown}" if s.holds(fact, "<", 0) else shown

    def end(key: str) -> str:
        cost = ends[key]["cost"]
        tied = table.count(f"{key}_ties", equal_to("cost", cost.value, NO_LOSS))  # equal as the page prints it
        also = f"; {s(tied, integer)} (way, seat) pairs cost that" if s.holds(tied, ">", 1) else ""
        return f"{amount(cost)} ({s(ends[key]['play'], play_name)}, seat {s(ends[key]['seat'])}{also})"

    s.quiet(ends["cheapest"]["cost"], ends["dearest"]["cost"])
    if s.holds(derived("all_costs_equal", "equal", ends["cheapest"]["cost"], ends["dearest"]["cost"]), "==", True):
        text = (f"Against opponents who play for the stakes, every fixed way of playing tried costs its seat the same: "
                f"{amount(ends['cheapest']['cost'])} per round.")
    else:
        text = (f"Against opponents who play for the stakes and know how it plays, a fixed way of playing costs its "
                f"seat from {end('cheapest')} to {end('dearest')} per round. Playing seat 1 as a solo player would, "
                f"for {SOLO[scoring]}, costs it {amount(solo)} per round.")
    part.add(s.finding("seat-costs", text, kind="text"))
    return part


def abs_stakes(x) -> Callable:
    """A format for a cost in per cent of a stake, unsigned (its sign is said in words), with two significant digits
    at least: ``0.0123`` -> ``1.23% of a stake``, ``0.0000412`` -> ``0.0041% of a stake``; from
    :data:`STAKES_FROM` stakes up in stakes, as :func:`stakes` reads winnings: ``47.39 stakes``."""
    size = abs(100 * float(x))
    decimals = 2 if size == 0 or size >= 0.01 else min(8, 1 - math.floor(math.log10(size)))

    def show(value) -> str:
        if abs(float(value)) >= STAKES_FROM:
            return f"{abs(float(value)):,.2f} stakes"
        return f"{abs(100 * float(value)):,.{decimals}f}% of a stake"
    show.unit, show.decimals = "pp_abs", decimals
    return show


def simulation_part(seats: Part, rounds: int, seed: int) -> Part:
    """Whole rounds played seat by seat with every seat's strategy (seeded), beside the exact values."""
    part = Part()
    result = seats["result"]
    simulated = simulate_rounds(result, rounds, seed)
    exact = seats["seats"][["seat", "expected_payoff"]]
    part.table("simulation", simulated.merge(exact, on="seat"))
    part.shown["simulated"] = simulated
    part.shown["against_exact"] = rounds_against_exact(result, simulated)
    part.shown["winnings_in"] = winnings_scale(seats["seats"]["expected_payoff"])[2]  # the figure's unit
    table = Table("seats", seats["seats"])
    s = Sentence()
    shown = [f"seat {row.seat}: {s(table.cell(f'seat_{row.seat}', 'expected_payoff', seat=row.seat), stakes)}"
             for row in seats["seats"].itertuples()]
    part.add(s.finding("simulation-alt", "Dot plot with intervals, one row per seat: " + "; ".join(shown) + ".",
                       kind="alt"))
    return part


def zero_sum(seats: Part) -> tuple[str, bool]:
    """Whether the seats' expected winnings add up to zero (the pot only changes hands): what they add up to, as the
    checks table shows it ("0" exactly; a float's rounding in floats), and whether that is within rounding."""
    payoffs = seats["result"].seats["expected_payoff"]
    total = sum(Fraction(v) if seats["exact"] else float(v) for v in payoffs)
    shown = "0" if total == 0 else f"{abs(float(total)):.0e} (rounding)"
    return shown, abs(float(total)) < ZERO_SUM_ROUNDING


def simulation_checks(simulation: Part) -> list[dict]:
    """The simulated rounds against the exact values, with each one's 95% interval and z-score (the arguments of
    the page's ``checks.chance``): each seat's winnings, and the share of pots split."""
    checks = []
    for row in simulation["against_exact"].itertuples():
        seat = row.quantity == "winnings"
        claim = (f"seat {row.seat}: simulated winnings against the exact value" if seat
                 else "split pots: simulated share against the exact chance")
        checks.append({"claim": claim, "simulated": row.simulated, "exact": row.exact, "low": row.low,
                       "high": row.high, "z": row.z, "show": number(4, signed=True) if seat else percent(2)})
    return checks


def headline(seats: Part, fair: Part, max_players: int) -> dict:
    """The numbers the index shows for this chapter."""
    table = seats["seats"]
    best = table.sort_values(["expected_payoff", "seat"], ascending=[False, True], kind="stable").iloc[0]
    fair_four = fair["fair-bonus"].set_index(["scoring", "players"]).loc[("sum", min(4, max_players)), "fair_shut_pays"]
    fair_shown = "none" if fair_four is None or pd.isna(fair_four) else number(fair.shown["decimals"])(fair_four)
    return {"best seat": f"seat {int(best['seat'])}",
            "seat 1 winnings": number(4, signed=True)(table.loc[0, "expected_payoff"]),
            f"fair bonus, {min(4, max_players)} players, sum": fair_shown}


@analysis_of(seats_part, players_part, fair_part, first_seat_part, seat_costs_part)
def pipeline(rules: Rules, players: int = 2, scoring: str = "sum", shut_pays: float = 1.0, max_players: int = 4,
             rounds: int = 100_000, seed: int = 1) -> list[Part]:
    """Every part of the chapter, in page order (what the notebook shows, without a kernel)."""
    seats = seats_part(rules, players, scoring, shut_pays)
    return [seats, two_games_part(seats), players_part(rules, scoring, shut_pays, max_players),
            fair_part(rules, max_players), first_seat_part(rules, seats),
            seat_costs_part(rules, players, scoring, shut_pays), simulation_part(seats, rounds, seed)]


def estimate(rules: Rules, players: int = 2, scoring: str = "sum", shut_pays: float = 1.0, max_players: int = 4,
             rounds: int = 100_000, seed: int = 1):
    """What the chapter will take: each game for stakes is one sweep per seat over every state of the seat (one
    column each); the tables by number of players and the fair-bonus search solve many such games."""
    from ..cost import Estimate

    def game(n: int, how: str) -> Estimate:
        return play_estimate(PubGame(rules, n, how, 1))

    total = game(players, scoring) * (2 + players * len(seat_plays(scoring)))
    for n in range(2, max_players + 1):
        total = total + game(n, scoring) + sum((game(n, how) * FAIR_TRIALS for how in scorings_of(rules)), Estimate())
    return total + Estimate(rounds * players * (rules.tiles + 2) * 3e-6)
