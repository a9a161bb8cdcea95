"""The command line: every example in the issue and the README, and one-line errors with status 2."""

import json
import subprocess
import sys

import pytest
from depth import draws

from stb_core.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv):
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


def test_solve_riddler(capsys):
    result = run_json(capsys, "solve", "--one-die", "high-shut", "--exact")
    assert round(result["value"], 6) == 0.097614
    assert result["exact"] == "956177159/9795520512"
    assert 0 < result["seconds"] < 60


def test_solve_a_board(capsys):
    result = run_json(capsys, "solve", "--objective", "remaining-sum", "--open", "2,6")
    assert round(result["value"], 6) == 5.969136 and result["open"] == [2, 6]


def test_advise_a_roll_best_first(capsys):
    moves = run_json(capsys, "advise", "--open", "1,4,5,8", "--roll", "9", "--objective", "remaining-sum")
    assert [m["move"] for m in moves] == [[4, 5], [1, 8]]
    assert moves[0]["value"] < moves[1]["value"]
    win = run_json(capsys, "advise", "--open", "1,4,5,8", "--roll", "9")
    assert win[0]["move"] == [1, 8]


def test_advise_when_no_move_is_legal(capsys):
    status, out, _ = run(capsys, "advise", "--open", "1,2", "--roll", "12")
    assert status == 0 and "No move is legal" in out and "game is over" in out
    assert run_json(capsys, "advise", "--open", "1,2", "--roll", "12") == []


def test_advise_how_many_dice(capsys):
    result = run_json(capsys, "advise", "--open", "1,2,3", "--one-die", "sum-le-6")
    assert result["best"] == 1 and result["dice"]["1"] > result["dice"]["2"]
    status, out, _ = run(capsys, "advise", "--open", "1,2,3", "--one-die", "sum-le-6")
    assert "roll 1 die" in out
    status, out, _ = run(capsys, "advise", "--open", "1,2,9", "--one-die", "high-shut")
    assert "no choice of dice" in out


def test_distribution_sums_to_one(capsys):
    result = run_json(capsys, "distribution", "--objective", "remaining-sum")
    assert abs(sum(result["distribution"].values()) - 1) < 1e-12
    assert abs(result["mean"] - 11.157508) < 1e-6


def test_counts(capsys):
    result = run_json(capsys, "counts", "--tiles", "10")
    assert result["counts"] == {"5": 117120, "6": 465677280, "7": 27229396320, "8": 166670380800,
                                "9": 161989632000}


def test_simulate_within_its_interval(capsys):
    result = run_json(capsys, "simulate", "--games", "200000", "--seed", "1")
    assert result["win_rate_low"] <= result["exact_value"] <= result["win_rate_high"]


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "--tiles", "0"], "tiles must be an integer between 1 and 24; got 0"),
    (["solve", "--sides", "1"], "sides must be an integer between 2 and 20; got 1"),
    (["solve", "--open", "1,11"], "open tiles must be between 1 and 9, got 11"),
    (["advise", "--open", "1,2", "--roll", "13"],
     "roll must be a total the dice can show from open {1, 2}, 2 to 12; got 13"),
    (["advise", "--open", "2,7", "--roll", "1", "--one-die", "high-shut"], "from open {2, 7}, 2 to 12; got 1"),
    (["solve", "--one-die", "sometimes"], "one_die must be never, high-shut or sum-le-K with K from 1 to 300 (e.g. "
                                          "sum-le-6); got 'sometimes'"),
    (["solve", "--one-die", "sum-le-301"], "one_die must be never, high-shut or sum-le-K with K from 1 to 300"),
    (["solve", "--one-die", "sum-le-06"], "one_die must be never, high-shut or sum-le-K"),
    (["solve", "--objective", "score"], "objective must be one of win, remaining-sum, flipped-count, digits; got "
                                        "'score'"),
    (["solve", "--tie-break", "coin"], "tie_break must be one of canonical, fewest-tiles, most-tiles, random; got "
                                       "'coin'"),
    (["solve", "--tie-break", "random", "--policy", "random"], "tie_break random needs a policy that ranks moves"),
    (["solve", "--moves", "die-or-sum", "--dice", "3"], "dice must be 1 or 2 for moves die-or-sum"),
    (["solve", "--layout", "double-shutter", "--tiles", "13"], "tiles must be between 1 and 12, got 13"),
    (["solve", "--layout", "triple"], "layout must be one of row, double-shutter; got 'triple'"),
    (["solve", "--layout", "double-shutter", "--open", "1,10"], "open tiles must be 1 to 9 or b1 to b9, got 10"),
    (["solve", "--layout", "double-shutter", "--open", "1,2,3"],
     "open {1, 2, 3} cannot arise: tile b9 is shut while tile 1 is open, and b9 can be shut only once 1 is down"),
    (["solve", "--open", "b9"], "open tiles must be between 1 and 9, got b9"),
    (["solve", "--objective", "digits", "--tiles", "13"], "objective 'digits' reads a row of up to 12 tiles"),
    (["advise", "--moves", "die-or-sum", "--roll", "3,7"], "roll must be the dice, each 1 to 6, like 3,5"),
    (["advise", "--moves", "die-or-sum", "--roll", "3"], "roll must be 2 dice from open"),
    (["solve", "--tiles", "abc"], "tiles must be an integer between 1 and 24; got 'abc'"),
    (["simulate", "--seed", "abc"], "seed must be an integer between 0 and"),
    (["simulate", "--games", "1e3"], "games must be an integer between 100 and 100,000,000; got '1e3'"),
    (["simulate", "--games", "5"], "games must be an integer between 100 and 100,000,000; got 5"),
    (["solve", "--open", "1,,2"], "open must be tiles separated by commas, like 2,6 (or none: every tile shut); "
                                  "got '1,,2'"),
    (["solve", "--open", "1,2,"], "open must be tiles separated by commas"),
    (["solve", "--open="], "open must be tiles separated by commas"),
    (["players", "--players", "1"], "players must be an integer between 2 and 6; got 1"),
    (["players", "--players", "7"], "players must be an integer between 2 and 6; got 7"),
    (["players", "--scoring", "count"], "scoring must be one of sum, digits; got 'count'"),
    (["players", "--shut-pays", "-2"], "shut_pays must be a number from 0 to 1,000; got -2"),
    (["players", "--shut-pays", "1e9"], "shut_pays must be a number from 0 to 1,000; got 1e9"),
    (["players", "--shut-pays", "lots"], "shut_pays must be a number from 0 to 1,000; got 'lots'"),
    (["players", "--shut-pays", "nan"], "shut_pays must be a number from 0 to 1,000; got 'nan'"),
    (["solve", "--tiles", "1_0"], "tiles must be an integer between 1 and 24; got '1_0'"),
    (["solve", "--tiles", "\u0669"], "tiles must be an integer between 1 and 24; got '\u0669'"),
    (["solve", "--tiles", "5", "--tiles", "6"], "--tiles is given twice: give each option once"),
    (["solve", "--til", "5"], "unrecognized arguments: --til 5"),
    (["advise", "--open", "1,2", "--roll", "2", "--win-at-most", "3"], "open {1, 2} is already won"),
    (["advise", "--tiles", "16", "--dice", "4", "--sides", "20", "--exact", "--open", "1", "--roll", "3"],
     "roll must be a total the dice can show from open {1}, 4 to 80; got 3"),
    (["solve", "--exact", "--tiles", "17"], "tiles must be at most 16 for exact values"),
    # Double Shutter: refused at once (no estimate first), in the flags the user typed: the front row's tiles
    (["solve", "--exact", "--layout", "double-shutter"], "for Double Shutter, tiles at most 8 (the front row; the "
                                                         "back row doubles it); got tiles 9"),
    (["solve", "--exact", "--layout", "double-shutter", "--tiles", "9", "--open", "1,b9"], "got tiles 9"),
    (["counts", "--layout", "double-shutter", "--open", "b9"],
     "exact sequence counts are computed for boards of up to 16 tiles in all: for Double Shutter, tiles at most 8"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("python -m stb_core: error:")


def test_open_none_is_the_finished_game(capsys):
    result = run_json(capsys, "solve", "--open", "none")
    assert result["open"] == [] and result["value"] == 1.0


def test_tie_break_is_echoed_and_changes_moves_not_values(capsys):
    canonical = run_json(capsys, "distribution", "--tie-break", "canonical")
    fewest = run_json(capsys, "distribution", "--tie-break", "fewest-tiles")
    assert canonical["tie_break"] == "canonical" and fewest["tie_break"] == "fewest-tiles"
    assert canonical["distribution"]["0"] == pytest.approx(fewest["distribution"]["0"], abs=1e-15)
    assert canonical["distribution"] != fewest["distribution"]


def test_players(capsys):
    result = run_json(capsys, "players", "--players", "3", "--scoring", "digits", "--shut-pays", "2", "--tiles", "6")
    assert [s["seat"] for s in result["seats"]] == [1, 2, 3]
    assert sum(s["expected_payoff"] for s in result["seats"]) == pytest.approx(0, abs=1e-12)
    assert set(result["seats"][0]) == {"seat", "plays", "expected_payoff", "p_win", "p_shut"}
    assert 0 <= result["p_tie"] <= 1
    assert [s["plays"] for s in result["seats"]] == ["stakes"] * 3
    fair = run_json(capsys, "players", "--tiles", "6", "--fair")
    assert "fair_shut_pays" in fair


def test_module_entry_point_without_traceback():
    ok = subprocess.run([sys.executable, "-m", "stb_core", "solve", "--json"], capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["value"] > 0
    bad = subprocess.run([sys.executable, "-m", "stb_core", "solve", "--tiles", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


# -- fuzz: every input either runs to a finite, checked answer or is refused in one line ----------------------
FUZZ_VALUES = {
    "--tiles": ["1", "3", "9", "12", "24", "25", "0", "-1", "1_0", "\u0669", "\uff11\uff12", "9.0", "", " 7"],
    "--dice": ["1", "2", "4", "5", "0", "two"], "--sides": ["2", "6", "20", "21", "1"],
    "--one-die": ["never", "high-shut", "sum-le-6", "always", ""],
    "--win-at-most": ["0", "3", "45", "300", "301", "-1"], "--max-per-move": ["1", "2", "24", "25", "0"],
    "--objective": ["win", "remaining-sum", "flipped-count", "lose"],
    "--policy": ["optimal", "worst", "highest-tile", "sequence-count", "random", "best"],
    "--tie-break": ["canonical", "fewest-tiles", "most-tiles", "then-win"],
    "--open": ["1,2", "none", "2,6", "{}", "[]", "", ",", "1,1", "30", "1,,2", "\u0661"],
    "--roll": ["2", "7", "12", "13", "1", "80", "x"], "--games": ["100", "1000", "99", "1e3"],
    "--seed": ["0", "7", "-1"], "--players": ["2", "3", "6", "7"], "--scoring": ["sum", "digits", "count"],
    "--shut-pays": ["0", "1", "2.5", "1000", "1001", "1e9", "nan", "inf", "-1"],
}
SWITCHES = ["--exact", "--one-die-forced", "--fair"]
COMMANDS = ["solve", "advise", "distribution", "counts", "simulate", "players"]


def finite_numbers(payload) -> bool:
    if isinstance(payload, dict):
        return all(finite_numbers(v) for v in payload.values())
    if isinstance(payload, list):
        return all(finite_numbers(v) for v in payload)
    return not isinstance(payload, float) or payload == payload and abs(payload) != float("inf")


@pytest.fixture
def small_budget(monkeypatch):
    """Budgets a fuzz can afford: a run estimated over a few seconds or 1 GB is refused (and that is tested too)."""
    import stb_core.cost as cost

    monkeypatch.setattr(cost, "TIME_BUDGET", 3.0)
    monkeypatch.setattr(cost, "MEMORY_BUDGET", 2**30)


def test_fuzz_every_outcome_is_an_answer_or_one_line(capsys, small_budget):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    flags = st.dictionaries(st.sampled_from(sorted(FUZZ_VALUES)), st.just(None), max_size=5).flatmap(
        lambda chosen: st.fixed_dictionaries({k: st.sampled_from(FUZZ_VALUES[k]) for k in chosen}))

    @settings(max_examples=draws(250), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.sampled_from(COMMANDS), flags, st.lists(st.sampled_from(SWITCHES), max_size=2, unique=True))
    def attempt(command, options, switches):
        argv = [command, *(x for k, v in options.items() for x in (k, v)), *switches, "--json"]
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse's --help: never drawn here
            raise AssertionError(argv) from exit_
        out, err = capsys.readouterr()
        if status == 0:
            assert err == "" or all(line.startswith(("python -m stb_core:", "  ")) for line in err.splitlines())
            assert finite_numbers(json.loads(out)), (argv, out)
        else:
            assert status == 2 and out == "" and err.count("\n") == 1, (argv, err)
            assert err.startswith("python -m stb_core: error: ") and "Traceback" not in err

    attempt()


def test_fuzz_library_inputs_raise_input_errors_only():
    """The library's parsers, rules and objectives: a value or an InputError naming the parameter, never another
    exception."""
    from fractions import Fraction

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from stb_core import InputError, Rules, custom_objective, parse_tiles, solve

    odd = st.one_of(st.integers(-3, 40), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
                    st.none(), st.booleans(), st.lists(st.integers(-2, 30), max_size=4))

    @settings(max_examples=draws(300), deadline=None, derandomize=True)
    @given(odd, st.sampled_from(["tiles", "dice", "sides", "win_at_most", "max_per_move", "one_die"]), odd)
    def attempt(board, field, value):
        try:
            parse_tiles(board, Rules(tiles=9))
        except InputError as error:
            assert "open" in str(error)
        try:
            Rules(**{field: value})
        except InputError as error:
            assert field in str(error)

    attempt()
    for utility in (float("nan"), None, float("inf"), "x", Fraction(1, 3), True, 2.5):
        try:
            value = solve(Rules(tiles=3), custom_objective("odd", of_sum=lambda s, u=utility: u)).value()
        except InputError as error:
            assert "objective 'odd'" in str(error)
        else:
            assert value == value and abs(float(value)) != float("inf")


def test_a_reader_who_stops_reading_gets_no_traceback():
    """``stb distribution --json | head -1``, with the reader gone before anything is written: exit 141 (a broken
    pipe, as shells report it), nothing on stderr."""
    import subprocess

    process = subprocess.Popen([sys.executable, "-m", "stb_core", "distribution", "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()
    errors = process.stderr.read()
    process.stderr.close()
    assert process.wait(60) == 141 and errors == b"", errors


def test_double_shutter_tiles_by_name(capsys):
    """On a Double Shutter board a back tile is typed and shown as ``b`` and its value: ``advise`` takes and gives
    the names, and each value after a move is the reference solver's for the board written out from the rules."""
    from reference import positions, reference_value, value_of

    from stb_core import Rules

    rules = ["--layout", "double-shutter", "--tiles", "4", "--objective", "remaining-sum"]
    advice = run_json(capsys, "advise", "--open", "1,3,b4,b3,b2", "--roll", "5", *rules)
    game = Rules(tiles=4, layout="double-shutter")
    back = {f"b{value_of(game, t)}": t for t in positions(game) if t > game.tiles}  # b4 stands behind 1
    # b4 and b2 go down with the tiles in front of them, 1 and 3; b3 + b2 is not a move while 3 stands
    assert {tuple(row["move"]) for row in advice} == {(1, "b4"), (3, "b2")}
    for row in advice:
        shut = {back.get(t, t) for t in row["move"]}
        left = frozenset({1, 3, back["b4"], back["b3"], back["b2"]} - shut)
        assert row["value"] == pytest.approx(float(reference_value(game, "remaining-sum", open_tiles=left)), rel=1e-12)
    solved = run_json(capsys, "solve", "--open", "3,b4,b2", *rules)
    assert solved["open"] == [3, "b4", "b2"]
    status, out, _ = run(capsys, "advise", "--open", "1,3,b4,b3,b2", "--roll", "5", *rules)
    assert status == 0 and "shut {1, b4}" in out and "shut {3, b2}" in out


def test_the_command_line_leaves_pandas_out_until_a_table_needs_it():
    """pandas is about 40 MB of a process: ``stb solve --tiles 24`` stays under 0.6 GB only without it (make bench)."""
    loaded = subprocess.run([sys.executable, "-c", "import sys, stb_core.cli, stb_core.luck; print(sorted("
                             "m for m in sys.modules if m.split('.')[0] == 'pandas')[:3])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]", loaded
