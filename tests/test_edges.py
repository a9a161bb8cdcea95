"""Edges a fresh sample of 30 hand mutants found untested (11 survived): each test here fails with its mutant. The
expectations come from the plain references, from the rules, or from a hand-made table, never from the code
under test."""

import json
from fractions import Fraction

import pandas as pd
import pytest
from reference import dice_options, moves, outcomes, reference_value, utility

from stb_core import Rules, evaluate
from stb_core.cli import main


def test_a_turn_whose_best_moves_tie_lists_every_one_of_them(capsys):
    """``stb analyse``: on {1, 7, 8} with an 8, {1, 7} and {8} win equally often; 'best' lists both (each turn's
    best moves are the plain reference's optimal ones)."""
    assert main(["analyse", "--game", "12:3+9 11:5+6 6:2+4 8:1+7 3:-", "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)["turns"]
    rules = Rules()
    for turn in turns[:-1]:
        board = frozenset(int(t) for t in turn["open"].strip("{}").split(", "))
        after = {m: reference_value(rules, "win", open_tiles=board - set(m)) for m in moves(rules, board, turn["roll"])}
        best = {"{" + ", ".join(map(str, m)) + "}" for m, v in after.items() if v == max(after.values())}
        assert set(turn["best"]) == best, turn
    assert len(turns[3]["best"]) == 2


@pytest.mark.parametrize(("rules", "policy", "tie_break"), [
    (Rules(), "highest-tile", "random"),  # a keyed policy's random ties: a mixture among its own equals only
    (Rules(one_die="sum-le-6"), "worst", "canonical"),  # worst play picks the worse dice
    (Rules(tiles=8, one_die="sum-le-6"), "largest-tile", "random")])
def test_the_compiled_path_values_and_dice_equal_numpy_s(rules, policy, tie_break):
    numpy = evaluate(rules, "win", policy, tie_break=tie_break, path="numpy")
    compiled = evaluate(rules, "win", policy, tie_break=tie_break, path="compiled")
    assert compiled.values == pytest.approx(numpy.values, rel=1e-12, abs=1e-15)
    assert (compiled.dice == numpy.dice).all()


def test_a_relation_of_exact_values_reads_its_order():
    from stb_core.sources.words import relation

    assert relation(3, 2) == "more" and relation(2, 3) == "less" and relation(2, 2) == "the same"
    assert relation(Fraction(1, 3), Fraction(1, 2)) == "less" and relation(Fraction(1, 2), Fraction(1, 3)) == "more"


def test_going_second_costs_or_gains_as_the_seats_win():
    """Chapter 7's 'going second costs/gains': the word follows who finishes lower more often (the second player's
    wins against the first's, from the table the sentence names)."""
    from stb_core.sources.pub_game import seats_part, two_games_part

    part = two_games_part(seats_part(Rules(tiles=6), 2, "sum", 1.0))
    table = part.tables["two-games"] if "two-games" in part.tables else next(iter(part.tables.values()))
    text = part.findings["two-games"].text
    first, second = float(table["first_wins"].iloc[0]), float(table["second_wins"].iloc[0])
    assert ("going second gains" in text) == (second > first) and ("going second costs" in text) == (second < first)


@pytest.mark.parametrize(("objective", "word"), [("win", "more"), ("remaining-sum", "less")])
def test_knowing_every_throw_is_said_to_do_better(objective, word):
    """Hindsight is at least as good as perfect play: more wins, a lower sum left."""
    from stb_core.sources.luck_and_skill import bounds_part

    text = bounds_part(Rules(tiles=6), objective).findings["bounds"].text
    assert f" {word}. Of the distance" in text, text


def test_the_highest_tile_pick_is_labelled_by_its_own_size():
    """Chapter 3's exceptions: 'fewer than optimal' where the pick shuts fewer tiles than the optimal move (both
    read from the row's own move columns), on a game where the two differ (two tiles at most)."""
    from stb_core.sources.open_and_shut import pipeline

    table = next(p for p in pipeline(Rules(max_per_move=2)) if "exceptions" in p.tables).tables["exceptions"]
    first = lambda cell: [int(t) for t in cell.split("]")[0].strip("[ ").split(",") if t.strip()]  # noqa: E731
    sizes = [len(first(b)) - len(first(p)) for b, p in zip(table["Max Move"], table["Highest Tile Pick"], strict=True)]
    want = ["same" if d == 0 else "fewer than optimal" if d > 0 else "more than optimal" for d in sizes]
    assert list(table["pick_tiles"]) == want and set(want) != {"same"}


def test_the_highest_cost_states_are_six_and_those_tied_with_the_sixth():
    """Chapter 5's costliest states: the six dearest by the plain reference, and only those as dear as the sixth."""
    from stb_core.sources.expected_cost import highest_cost_states, state_value_table

    rules = Rules(tiles=7)
    table = highest_cost_states(state_value_table(rules))
    values = sorted((reference_value(rules, "remaining-sum", open_tiles=frozenset(b))
                     for b in _boards(rules) if b), reverse=True)
    assert len(table) == sum(v >= values[5] for v in values)


def test_a_total_where_one_die_is_only_sometimes_better_is_no_threshold():
    """``sum_threshold_of``: one die better on every board up to 10 and on some at 11 is no threshold."""
    from stb_core.sources.riddler import sum_threshold_of

    summary = pd.DataFrame({"open_sum": [9, 10, 11, 12], "boards": [2, 3, 4, 4], "one_die_better": [2, 3, 1, 0]})
    summary["one_die_always"] = summary["one_die_better"] == summary["boards"]
    assert sum_threshold_of(summary) is None
    summary.loc[2, "one_die_better"], summary.loc[2, "one_die_always"] = 4, True
    assert sum_threshold_of(summary) == 11


def test_a_count_of_zero_before_a_singular_noun_is_flagged():
    from stb_core.report.lint import lint_text

    assert any(p.kind == "number-noun" for p in lint_text("0 board is left open.", "here"))


def test_dice_advice_for_the_sum_left_picks_the_dice_that_leave_less(capsys):
    """``stb advise`` under remaining-sum from {1, 2}: the dice with the lower expected sum, by the plain reference
    (one die leaves 1.917, two dice 2.773)."""
    rules = Rules(one_die="sum-le-6")
    board = frozenset({1, 2})
    leave = {d: sum(p * (min(reference_value(rules, "remaining-sum", open_tiles=board - set(m))
                             for m in moves(rules, board, o)) if moves(rules, board, o) else
                         utility("remaining-sum", rules, board)) for o, p in outcomes(rules, d).items())
             for d in dice_options(rules, board)}
    assert main(["advise", "--one-die", "sum-le-6", "--objective", "remaining-sum", "--open", "1,2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] == min(leave, key=leave.get)


def _boards(rules):
    tiles = list(range(1, rules.tiles + 1))
    return [frozenset(t for i, t in enumerate(tiles) if m >> i & 1) for m in range(1 << len(tiles))]




def test_the_sources_small_tiles_are_read_by_value_on_a_double_shutter():
    """Chapter 2 said the source's "1, 2 and 3 all open" covers no board of a Double Shutter: it read the front
    row only, while the second sentence reads values (b4 is worth 4). Read by value, the boards offering a choice
    with tiles worth 1, 2 and 3 open, counted from the plain reference's rules."""
    from reference import blocker_of, is_won, positions, value_of

    from stb_core.sources.riddler import dice_choice_table, source_statements

    rules = Rules(max_per_move=2, layout="double-shutter", one_die="high-shut")
    tiles = positions(rules)
    count = 0
    for m in range(1 << len(tiles)):
        board = frozenset(t for i, t in enumerate(tiles) if m >> i & 1)
        if any(blocker_of(rules, t) in board for t in tiles if t not in board):  # a back tile down before its front
            continue
        if not is_won(rules, board) and len(dice_options(rules, board)) > 1 and \
                {1, 2, 3} <= {value_of(rules, t) for t in board}:
            count += 1
    table = source_statements(dice_choice_table(rules), rules).set_index("key")
    assert table.at["small_tiles", "boards"] == count > 0


def test_chapter_5_says_which_largest_tile_exceptions_are_ties():
    """Chapter 5 counted 566 pairs where 'the optimal action does not shut the largest tile' with 6 where an action
    shutting it is exactly as good. Each row's tie is the plain reference's, and the sentence counts them."""
    from stb_core import solve
    from stb_core.sources.expected_cost import exceptions_part

    rules = Rules(tiles=7, dice=1, sides=20, max_per_move=7, win_at_most=11)
    part = exceptions_part(rules, solve(rules, "remaining-sum", exact=True))
    table = part.tables["largest-tile-exceptions"]
    value = lambda label: reference_value(rules, "remaining-sum", open_tiles=frozenset(  # noqa: E731
        int(t) for t in label.strip("{}").split(",") if t.strip()))
    ties = []
    for row in table.itertuples():
        board = frozenset(int(t) for t in row.state.strip("{}").split(",") if t.strip())
        after = {m: value(str(set(board - set(m))) if board - set(m) else "{}") for m in moves(rules, board,
                                                                                            row.dice_total)}
        largest = max(max(m) for m in after)
        ties.append(min(v for m, v in after.items() if largest in m) == min(after.values()))
    assert list(table["as_good"]) == ties and any(ties)
    assert f"({sum(ties)} of them a tie" in part.findings["exceptions"].text or all(ties)


@pytest.mark.parametrize("rules", [Rules(tiles=6, dice=1, moves="die-or-sum"), Rules(tiles=5)])
def test_the_likeliest_length_of_a_game_names_every_length_as_likely(rules):
    """Chapter 8 said a game "most often lasts 3 rolls (27.8%)" where 3 and 4 rolls are each exactly 5/18. The
    likeliest lengths are the plain reference's (optimal play for the win, followed to the end)."""
    from reference import forward, reference_play

    from stb_core.sources.in_print import length_part

    _, _, rolls = forward(reference_play(rules, "win", "optimal"))
    likeliest = sorted(k for k, p in rolls.items() if p == max(rolls.values()))
    text = length_part(rules).findings["length"].text
    said = " or ".join(map(str, likeliest)) + (" rolls" if len(likeliest) > 1 else f" roll{'s' * (likeliest[0] > 1)}")
    assert f"most often lasts {said} (" in text, (likeliest, text)
