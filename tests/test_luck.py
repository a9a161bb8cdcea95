"""Luck and skill in one game: each turn's luck and loss against an independent recursion (tests/reference.py's
Bellman equation written out by enumeration), the identity start + luck - loss = outcome exactly, every bad record
refused naming its turn, and the CLI's analysis."""

import json
from fractions import Fraction

import pytest
from reference import dice_options, moves, outcomes, reference_values, utility

from stb_core import Rules, evaluate, solve
from stb_core.cli import main
from stb_core.luck import analyse, parse_record, record_of
from stb_core.monte_carlo import narrate_game
from stb_core.rules import InputError


def reference_turns(rules: Rules, objective: str, record: str):
    """Luck and loss of each turn, from the reference values alone: ``Q`` the best value after the roll (the
    game's end value when no move), ``V_d`` the average of ``Q`` over the dice rolled."""
    sense = 1 if objective in ("win", "flipped-count") else -1
    value = reference_values(rules, objective)
    open_tiles, rows = frozenset(range(1, rules.tiles + 1)), []

    def q(tiles, roll):
        options = moves(rules, tiles, roll)
        if not options:
            return utility(objective, rules, tiles)
        return max((value(tiles - set(m)) for m in options), key=lambda v: sense * v)

    for item in record.split():
        head, tiles = item.split(":")
        dice = int(head.split("d")[0]) if "d" in head else max(dice_options(rules, open_tiles))
        roll = int(head.split("d")[-1])
        rolled = sum(p * q(open_tiles, o) for o, p in outcomes(rules, dice).items())
        best_dice = max((sum(p * q(open_tiles, o) for o, p in outcomes(rules, d).items())
                         for d in dice_options(rules, open_tiles)), key=lambda v: sense * v)
        after = open_tiles if tiles == "-" else open_tiles - {int(t) for t in tiles.split("+")}
        played = utility(objective, rules, open_tiles) if tiles == "-" else value(after)
        rows.append((sense * (q(open_tiles, roll) - rolled), sense * (best_dice - rolled) + sense * (
            q(open_tiles, roll) - played)))
        open_tiles = after
    return rows


def random_record(rules: Rules, policy: str, seed: int) -> str:
    return record_of(narrate_game(evaluate(rules, "win", policy), seed=seed), rules)


@pytest.mark.parametrize(("rules", "objective"), [
    (Rules(tiles=7), "win"), (Rules(tiles=7), "remaining-sum"), (Rules(tiles=6, one_die="sum-le-6"), "win"),
    (Rules(tiles=6, one_die="sum-le-6"), "remaining-sum"),  # a dice choice judged for the least sum
    (Rules(tiles=6, dice=3, sides=4), "flipped-count"), (Rules(tiles=7, win_at_most=3), "win"),
])
def test_each_turn_equals_the_independent_recursion_and_the_sums_telescope_exactly(rules, objective):
    solution = solve(rules, objective, exact=True)
    sense = solution.objective.sense
    for seed, policy in enumerate(("random", "highest-tile", "worst", "lowest-tile", "random", "random")):
        record = random_record(rules, policy, seed)
        report = analyse(solution, parse_record(record, solution))
        expected = reference_turns(rules, objective, record)
        assert [(t["luck"], t["loss"]) for t in report["turns"]] == expected, record
        assert all(t["loss"] >= 0 for t in report["turns"])
        assert report["start"] + sense * (report["luck"] - report["loss"]) == report["outcome"]  # exactly
        assert report["holds"] and isinstance(report["start"], Fraction)


def test_float_and_exact_analyses_agree_and_optimal_play_loses_nothing():
    rules = Rules()
    exact, floats = solve(rules, "win", exact=True), solve(rules, "win")
    for seed in range(5):
        record = record_of(narrate_game(floats, seed=seed), rules)
        a, b = analyse(exact, parse_record(record, exact)), analyse(floats, parse_record(record, floats))
        assert [t["grade"] for t in a["turns"]] == [t["grade"] for t in b["turns"]] and b["holds"]
        for x, y in zip(a["turns"], b["turns"], strict=True):
            assert abs(float(x["luck"]) - y["luck"]) < 1e-12 and abs(float(x["loss"]) - y["loss"]) < 1e-12
            assert x["grade"] == "best" and (x["played"] in x["best"] or x["played"] == "-")  # its own moves


@pytest.mark.parametrize(("record", "message"), [
    ("", "got an empty record"),
    ("8:2+6 7:7 11:9+2 5:-", "game turn 3: tiles {2} are not open"),
    ("8:2+6 7:7", "game ends at turn 2 with open {1, 3, 4, 5, 8, 9}, which is neither won nor ended"),
    ("13:4+9", "game turn 1: 2 dice show a total from 2 to 12; got 13"),
    ("8:3+4", "game turn 1: shutting {3, 4} is not a legal move for a roll of 8"),
    ("8:-", "game turn 1: a roll of 8 on open {1, 2, 3, 4, 5, 6, 7, 8, 9} has a legal move"),
    ("12:3+9 12:4+8 12:5+7 12:- 5:5", "game turn 5 (5:5) comes after the game ended: turn 4 found no move for 12"),
    ("8-8", "game turn 1 must read ROLL:TILES"),
    ("8:8x", "game turn 1: tiles must be"),
    ("8:8+8", "game turn 1: tiles must be"),
])
def test_a_bad_record_is_refused_naming_the_turn(record, message):
    solution = solve(Rules(), "win")
    with pytest.raises(InputError) as raised:
        parse_record(record, solution)
    assert message in str(raised.value), str(raised.value)


def test_the_dice_are_written_where_the_rules_give_a_choice():
    rules = Rules(tiles=3, one_die="sum-le-6")
    solution = solve(rules, "win")
    with pytest.raises(InputError, match="the player may roll 1 or 2 dice; write the number rolled, like 1d3:3"):
        parse_record("3:3", solution)
    report = analyse(solution, parse_record("1d3:3 2d7:-", solution))
    assert report["turns"][0]["dice"] == 1 and report["holds"]


def test_the_command_prints_every_turn_and_the_identity(capsys):
    assert main(["analyse", "--game", "8:2+6 7:7 11:8+3 12:-", "--json", "--exact"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [t["played"] for t in payload["turns"]] == ["{2, 6}", "{7}", "{3, 8}", "-"]
    assert payload["turns"][0]["best"] == ["{8}"] and payload["turns"][0]["grade"] == "blunder"
    start, luck, loss = (Fraction(payload[k]) for k in ("start", "luck", "loss"))
    assert start + luck - loss == Fraction(payload["outcome"]) == 0 and payload["holds"]
    assert main(["analyse", "--seed", "7", "--policy", "random", "--objective", "remaining-sum"]) == 0
    text = capsys.readouterr().out
    assert "start " in text and "= outcome" in text and "grade" in text
    assert main(["analyse"]) == 2 and "analyse needs a game" in capsys.readouterr().err


def test_hindsight_from_the_command(capsys):
    assert main(["solve", "--policy", "hindsight", "--exact", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["exact"] == "35974417/408146688"
    assert main(["advise", "--policy", "hindsight", "--roll", "5"]) == 2
    assert "policy hindsight is a value, not a way to play" in capsys.readouterr().err


@pytest.mark.parametrize(("record", "message"), [
    ("19:7", "game turn 1: under moves die-or-sum a roll is the dice, each 1 to 6: 2 dice, like 2,6; got 19"),
    ("3,7:7", "each 1 to 6"),
    ("3,4,5:7", "2 dice, like 2,6"),
    ("3,4:5", "shutting {5} is not a legal move for a roll of 3,4"),
])
def test_a_dice_based_record_writes_the_dice(record, message):
    solution = solve(Rules(moves="die-or-sum"), "win")
    with pytest.raises(InputError) as raised:
        parse_record(record, solution)
    assert message in str(raised.value), str(raised.value)


def test_a_dice_based_game_reads_back_as_its_dice():
    """Under die-or-sum a record names the dice (3,4: a tile 3, 4 or 7 may be shut), the JSON gives them as a list,
    and a narrated game's record names its dice and parses back."""
    rules = Rules(moves="die-or-sum")
    solution = solve(rules, "win")
    report = analyse(solution, parse_record("3,4:7 4,3:4 1,2:3 1,1:1 1,1:2 1,1:-", solution))
    assert [t["roll"] for t in report["turns"]] == [[3, 4], [3, 4], [1, 2], [1, 1], [1, 1], [1, 1]]
    assert [t["roll_words"] for t in report["turns"]][:2] == ["3,4", "3,4"] and report["holds"]
    for seed in range(4):
        record = record_of(narrate_game(solution, seed=seed), rules)
        assert all("," in turn.split(":")[0] for turn in record.split()), record
        assert analyse(solution, parse_record(record, solution))["holds"]


@pytest.mark.parametrize("rules", [Rules(moves="die-or-sum"), Rules(tiles=12, one_die="sum-le-5"),
                                   Rules(layout="double-shutter", moves="die-or-sum")])
def test_the_identity_is_a_plain_bool_that_json_prints(rules):
    """``holds`` is True or False (json prints it) also where the sums meet only within rounding (a won game: the
    outcome is 0, so only the absolute test can pass)."""
    for objective in ("win", "remaining-sum", "digits") if rules.layout == "row" else ("win", "remaining-sum"):
        optimal = solve(rules, objective)
        player = evaluate(rules, objective, "random")
        for seed in range(6):
            report = analyse(optimal, parse_record(record_of(narrate_game(player, seed=seed), rules), optimal))
            assert type(report["holds"]) is bool and report["holds"], (objective, seed)
            json.dumps({"holds": report["holds"]})


def test_the_games_checks_hold_for_a_game_almost_never_won():
    """A game won 0.2% of the time, 200 games: perfect play loses every one, so every game's luck is the same and
    the games' spread is zero; the check falls back on Hoeffding's interval and does not call chance an engine error
    (issue 36: the run stopped with a ReproductionError)."""
    from stb_core.report.checks import FAIL, Checks
    from stb_core.sources.luck_and_skill import game_checks, games_table

    rules = Rules(tiles=12, one_die="sum-le-15", one_die_forced=True, win_at_most=2)
    _, summary = games_table(rules, "win", 200, 9)
    assert summary.loc[summary["play"] == "optimal", "luck_se"].item() < 1e-15  # alike, but for rounding
    checks = Checks("09-luck-and-skill")
    for check in game_checks(summary, rules, "win"):
        checks.chance(**check)
        assert check["low"] <= check["simulated"] <= check["high"]
    assert not [r for r in checks.results if r.mark == FAIL]


def test_a_check_drawn_with_hoeffding_s_bound_says_so():
    """Chapter 9 on a game won before the first roll showed every game's luck, exactly 0, against an interval of
    +-0.864 labelled like the others: the claim says when the interval is Hoeffding's bound (every game alike)."""
    from stb_core.sources.luck_and_skill import game_checks, games_table

    won = Rules(tiles=9, win_at_most=96)  # 45 <= 96: won before any roll, every game's luck is 0
    _, alike = games_table(won, "remaining-sum", 300, 4)
    luck = [c["claim"] for c in game_checks(alike, won, "remaining-sum") if "mean luck" in c["claim"]]
    assert luck and all("Hoeffding's bound" in claim for claim in luck), luck
    _, spread = games_table(Rules(tiles=6), "win", 300, 4)  # games that differ: the normal interval, said as usual
    assert not any("Hoeffding" in check["claim"] for check in game_checks(spread, Rules(tiles=6), "win"))


def test_every_game_s_luck_and_loss_add_up_to_its_outcome_and_a_gap_is_caught():
    """start + luck - loss = outcome for every game of every way of playing, within rounding; a gap of a millionth
    (a dropped term) is not rounding."""
    from stb_core.sources.luck_and_skill import games_table, identity_checks

    _, summary = games_table(Rules(tiles=6), "remaining-sum", 300, 4)
    checks = identity_checks(summary, "remaining-sum")
    assert [holds for _, _, holds in checks] == [True] * len(summary)
    assert all("start − luck + loss = outcome" in claim for claim, _, _ in checks)  # a sum left: luck lowers it
    broken = summary.assign(identity_error=summary["identity_error"] + 1e-6)
    assert not any(holds for _, _, holds in identity_checks(broken, "remaining-sum"))


def test_a_far_simulation_is_still_an_engine_error():
    """The fallback does not blind the check: a mean luck far past Hoeffding's one-in-a-billion distance fails."""
    import pandas as pd

    from stb_core.report.checks import FAIL, Checks
    from stb_core.sources.luck_and_skill import game_checks

    summary = pd.DataFrame([{"play": "optimal", "play_name": "perfect play", "games": 200, "mean_luck": 0.9,
                             "luck_se": 0.001, "mean_loss": 0.0, "loss_se": 0.0, "exact_loss": 0.0}])
    checks = Checks("09-luck-and-skill")
    for check in game_checks(summary, Rules(), "win"):
        checks.chance(**check)
    assert [r.mark for r in checks.results] == [FAIL, checks.results[1].mark] and checks.results[1].mark != FAIL
    rare = summary.assign(mean_luck=0.01)  # ten standard errors out, but well within what chance can do in 200 games
    checks = Checks("09-luck-and-skill")
    for check in game_checks(rare, Rules(), "remaining-sum"):
        checks.chance(**check)
    assert checks.results[0].z > 6 and checks.results[0].mark != FAIL


def test_a_few_wins_do_not_shrink_the_luck_s_error():
    """The review's case: 3 wins in 126 games of perfect play (exact chance p = 7.14%). Their own spread says
    z = -3.5 ("1 run in 2,089"); a win's own spread, sqrt(p (1 - p)), says z = -2.1, as the binomial does."""
    import math

    import pandas as pd

    from stb_core.sources.luck_and_skill import game_checks

    p, n, wins = float(solve(Rules(), "win").value()), 126, 3
    rate = wins / n
    summary = pd.DataFrame([{"play": "optimal", "play_name": "perfect play", "games": n, "mean_luck": rate - p,
                             "luck_se": math.sqrt(rate * (1 - rate) / n), "mean_loss": 0.0, "loss_se": 0.0,
                             "exact_loss": 0.0}])
    z = game_checks(summary, Rules(), "win")[0]["z"]
    assert z == pytest.approx((rate - p) / math.sqrt(p * (1 - p) / n), abs=1e-9) and -2.2 < z < -2.0


def test_the_luck_share_of_a_way_of_playing_that_never_loses_is_said_to_be_an_identity():
    """Perfect play's luck share is 1 by definition (outcome = start + luck in every game): the finding says so and
    does not list it as a measurement; a way of playing that loses is measured, with what the share means."""
    from stb_core.sources.luck_and_skill import NAMES, games_part

    for objective in ("win", "remaining-sum"):
        text = games_part(Rules(tiles=6), objective, 300, 5).findings["luck-share"].text
        measured, _, rest = text.partition(". For ")
        assert NAMES["optimal"] not in measured and NAMES["random"] in measured, text
        assert rest.startswith(f"{NAMES['optimal']}, which never loses anything, it is 100% by definition"), text
        assert "what its decisions cost is its expected loss" in text, text


def test_every_seeded_game_s_luck_and_loss_add_up_to_its_outcome():
    """Many games at once (luck_of_games), played by the lowest-sum player whose dice are not the win's: in every
    game start + luck - loss = outcome (a loss that left out the dice chosen against the win would not add up),
    and some game's loss comes from its dice alone."""
    from stb_core.luck import luck_of_games

    rules = Rules(tiles=6, one_die="high-shut")
    optimal, player = solve(rules, "win"), solve(rules, "remaining-sum")
    assert (player.dice != optimal.dice).any()  # they roll differently somewhere
    games = luck_of_games(optimal, player, 3000, seed=5)
    start = float(optimal.value())
    assert abs(start + games["luck"] - games["loss"] - games["outcome"]).max() < 1e-12
    assert games["loss"].max() > 0


@pytest.mark.parametrize(("loss", "objective", "expected"), [
    (0.0, "win", "best"), (0.0009, "win", "good"), (0.001, "win", "inaccuracy"), (0.005, "win", "mistake"),
    (0.02, "win", "blunder"), (0.25, "remaining-sum", "inaccuracy"), (2.9, "remaining-sum", "mistake"),
    (3.0, "remaining-sum", "blunder")])
def test_a_loss_at_a_threshold_reaches_its_grade(loss, objective, expected):
    """The grades as the page states them: a decision that loses at least 0.1 percentage points of the chance of
    winning is an inaccuracy, at least 0.5 a mistake, at least 2 a blunder (a quarter, one and three points of
    the sum)."""
    from stb_core.luck import grade

    assert grade(loss, objective) == expected


@pytest.mark.parametrize(("objective", "start", "places"), [
    ("remaining-sum", 11.0, 3), ("remaining-sum", 38.35, 3), ("digits", 1234.5, 1), ("digits", 45678.0, 0),
    ("digits", 987654.0, 0), ("flipped-count", 0.5, 3), ("win", 0.0714, 2)])
def test_amounts_print_five_significant_digits_of_the_game_s_value(objective, start, places):
    """11.157 (five digits of a game worth 11), 1,234.5, 45,678: never more than three decimals nor fewer than none;
    a chance in per cent with two."""
    from stb_core.luck import decimals

    assert decimals(objective, start) == places


def test_a_record_names_the_dice_only_where_the_rules_offer_a_choice():
    """The record format of the module docstring: "8:2+6" with two dice always; "1d5:5" where one die was chosen
    (and "2d8:..." for two dice where one was allowed)."""
    from stb_core.luck import record_of

    turn = {"open": list(range(1, 10)), "dice": 2, "roll": 8, "move": [2, 6]}
    assert record_of([turn], Rules()) == "8:2+6"
    late = {"open": [1, 2, 3], "dice": 1, "roll": 3, "move": [3]}
    assert record_of([late], Rules(one_die="sum-le-6")) == "1d3:3"
