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
                     for _, b in _boards(rules) if b), reverse=True)
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


def _boards(rules, arising=False):
    """Every board as ``(bit-mask, open tiles)``, tile ``t`` at bit ``t - 1`` over the plain reference's positions;
    with ``arising``, only those a game can show (no back tile down while the tile it waits for stands)."""
    from reference import blocker_of, positions

    tiles = positions(rules)
    for m in range(1 << len(tiles)):
        board = frozenset(t for t in tiles if m >> (t - 1) & 1)
        if not arising or not any(t not in board and blocker_of(rules, t) in board for t in tiles):
            yield m, board


def _tiles_of(label: str) -> frozenset:
    """The tiles of a board or move as a row's page writes it: ``{1, 4, 5}``."""
    return frozenset(int(t) for t in label.strip("{}").split(",") if t.strip())




def test_the_sources_small_tiles_are_read_by_value_on_a_double_shutter():
    """Chapter 2 said the source's "1, 2 and 3 all open" covers no board of a Double Shutter: it read the front
    row only, while the second sentence reads values (b4 is worth 4). Read by value, the boards offering a choice
    with tiles worth 1, 2 and 3 open, counted from the plain reference's rules."""
    from reference import is_won, value_of

    from stb_core.sources.riddler import dice_choice_table, source_statements

    rules = Rules(max_per_move=2, layout="double-shutter", one_die="high-shut")
    count = sum(not is_won(rules, board) and len(dice_options(rules, board)) > 1 and
                {1, 2, 3} <= {value_of(rules, t) for t in board} for _, board in _boards(rules, arising=True))
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
    ties = []
    for row in table.itertuples():
        board = _tiles_of(row.state)
        after = {m: reference_value(rules, "remaining-sum", open_tiles=board - set(m))
                 for m in moves(rules, board, row.dice_total)}
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


# -- the second sample (30 more hand mutants) ---------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["row", "double-shutter"])
def test_one_die_from_the_start_is_one_die_on_every_board(layout):
    """``Rules.one_die_from_start`` (the rules' words "on every roll") holds exactly where the plain reference lets
    every board a game can show, not yet won, roll one die: with 7 tiles, tile 7 stands at the start, so
    ``high-shut`` does not."""
    from reference import is_won

    for tiles in range(1, 8 if layout == "row" else 5):
        for one_die in ("never", "high-shut", "sum-le-6", "sum-le-21"):
            for dice in (1, 2):
                rules = Rules(tiles=tiles, one_die=one_die, dice=dice, layout=layout)
                every = all(dice > 1 and 1 in dice_options(rules, board)
                            for _, board in _boards(rules, arising=True) if not is_won(rules, board))
                assert rules.one_die_from_start == every, rules


def test_a_tile_named_in_capitals_is_the_same_tile():
    """A Double Shutter's back tile typed ``B9`` or ``B09`` is ``b9`` (the reference's name of that position)."""
    from reference import positions, tile_name

    from stb_core.boards import layout_of

    rules = Rules(layout="double-shutter")
    layout = layout_of(rules)
    for tile in positions(rules):
        name = tile_name(rules, tile)
        assert layout.position(name) == layout.position(name.upper()) == tile, name
    assert layout.position("B09") == next(t for t in positions(rules) if tile_name(rules, t) == "b9")


def test_every_digit_score_is_the_open_tiles_written_one_after_another():
    """The digits objective's score of every board of 12 tiles, two-digit tiles included ({1, 10} scores 110), is
    the plain reference's utility."""
    from stb_core.game import game_of
    from stb_core.objectives import digit_scores

    rules = Rules(tiles=12)
    scores = digit_scores(game_of(rules))
    for m, board in _boards(rules):
        assert scores[m] == utility("digits", rules, board), sorted(board)


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=6), Rules(tiles=12, max_per_move=3), Rules(tiles=4, sides=8),
                                   Rules(tiles=10, dice=1, sides=20)])
def test_the_cost_model_counts_the_moves_there_are(rules):
    """``cost.move_counts[k, r]``: the sets of ``k`` distinct tiles of 1..N adding up to ``r``, as every subset
    counts them."""
    import itertools

    from stb_core.cost import move_counts

    counts = move_counts(rules)
    most, largest = counts.shape[0] - 1, counts.shape[1] - 1
    for k in range(most + 1):
        found = [0] * (largest + 1)
        for subset in itertools.combinations(range(1, rules.tiles + 1), k):
            if sum(subset) <= largest:
                found[sum(subset)] += 1
        assert list(counts[k]) == found, k


@pytest.mark.parametrize("rules", [Rules(one_die="high-shut"),
                                   Rules(tiles=6, one_die="sum-le-6", layout="double-shutter")])
def test_the_dice_choice_table_describes_each_board_by_its_tiles(rules):
    """Every board of the dice-choice table (not won, where one die may be rolled and a game can arise) with its
    open tiles' count, total, smallest and largest value, by the plain reference's tile values."""
    from reference import is_won, positions, total, value_of

    from stb_core import solve
    from stb_core.analysis import dice_choices_table

    table = dice_choices_table(solve(rules, "win"))
    choosing = {m for m, board in _boards(rules, arising=True)
                if len(dice_options(rules, board)) > 1 and not is_won(rules, board)}
    assert set(table["board_mask"]) == choosing
    for row in table.itertuples():
        board = [t for t in positions(rules) if row.board_mask >> (t - 1) & 1]
        values = [value_of(rules, t) for t in board]
        assert (row.open_tiles, row.open_sum, row.smallest_tile, row.largest_tile) == \
            (len(values), total(rules, board), min(values), max(values)), row


def test_a_run_of_numbers_is_written_as_a_range_from_three_on():
    from stb_core.sources.words import ranges

    assert ranges([1, 2, 3, 5, 7, 8]) == "1\u20133, 5, 7 and 8"
    assert ranges([3, 4], "or") == "3 or 4"
    assert ranges([2, 3, 4, 5]) == "2\u20135"


@pytest.mark.parametrize(("text", "unit", "shown"), [("0.0388", "probability", "3.88%"),
                                                    ("0.5", "probability", "50%"),
                                                    ("0.097614", "probability", "9.7614%"),
                                                    ("12.5", "percent", "12.5%")])
def test_a_published_probability_reads_as_a_percentage_at_its_printed_precision(text, unit, shown):
    from stb_core.sources.published import as_read

    assert as_read(text, unit) == shown


def test_a_bonus_at_the_bottom_of_its_range_is_accepted(capsys):
    """``--shut-pays`` takes a number from 0 (no bonus) to 1,000: both ends are allowed."""
    from stb_core.players import SHUT_PAYS_RANGE

    for bonus in SHUT_PAYS_RANGE:
        assert main(["players", "--tiles", "4", "--players", "2", "--shut-pays", f"{bonus:g}", "--json"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_the_bounds_of_skill_are_listed_best_first(objective):
    """Chapter 9's bounds: knowing every throw first, then perfect play, the worst play last, each row at least as
    good as the next for the objective (a theorem of the values: no way of playing beats perfect play, none does
    worse than the worst, and hindsight bounds them all)."""
    from stb_core.sources.luck_and_skill import bounds_table

    table = bounds_table(Rules(tiles=6), objective)
    assert list(table["play"].iloc[[0, 1, -1]]) == ["hindsight", "optimal", "worst"]
    better = table["value"].diff().iloc[1:]
    assert ((better <= 1e-12) if objective == "win" else (better >= -1e-12)).all()


def test_what_changes_nothing_agrees_with_how_many_it_names():
    """A variant's options that change nothing read "its cap changes nothing", but "its one-die rule and forcing
    the die change nothing": the verb agrees with its subject, on every board from 1 to 12 tiles."""
    from stb_core.sources.whole_map import VARIANTS, no_effect

    forms = set()
    for tiles in range(1, 13):
        for dice in (1, 2, 3):
            for variant in VARIANTS:
                for clause in filter(None, no_effect(Rules(tiles=tiles, dice=dice), variant).split("; ")):
                    subject, verb = clause.split(" nothing here")[0].rsplit(" ", 1)
                    assert verb == ("change" if " and " in subject else "changes"), clause
                    forms.add(verb)
    assert forms == {"change", "changes"}


def test_one_exception_to_the_largest_tile_is_one_pair():
    """Chapter 5 counts the (state, roll) pairs where the optimal action leaves the largest tile it could shut:
    "1 (state, roll) pair" on four tiles with two four-sided dice, "pairs" for more; the count is the table's."""
    import re

    from stb_core import solve
    from stb_core.sources.expected_cost import exceptions_part

    counts = []
    for rules in (Rules(tiles=4, sides=4), Rules(tiles=5)):
        part = exceptions_part(rules, solve(rules, "remaining-sum"))
        text = part.findings["exceptions"].text
        count, noun = re.search(r"In \*\*([\d,]+)\*\* \(state, roll\) (pairs?) ", text).groups()
        assert int(count) == len(part.tables["largest-tile-exceptions"]) and (noun == "pair") == (count == "1")
        counts.append(int(count))
    assert counts[0] == 1 < counts[1]


@pytest.mark.parametrize("won_at", [1, 3])
def test_the_sets_already_won_are_counted_in_agreeing_words(won_at):
    """Chapter 4's sets that are not states: "1 set totals 1 or less", "4 sets total 3 or less" (the non-empty sets
    of tiles 1..6 adding up to ``won_at`` or less, counted here), and "1 set ... leaves it", "2 sets ... leaves
    them"."""
    import itertools
    import re

    from stb_core.sources.game_space import states_part

    text = states_part(Rules(tiles=6, win_at_most=won_at)).findings["states"].text
    won = sum(sum(c) <= won_at for k in range(1, 7) for c in itertools.combinations(range(1, 7), k))
    assert f"{won} set{'s' * (won > 1)} total{'s' * (won == 1)} {won_at} or less (already won)" in text, text
    count, pronoun = re.search(r"(\d+) sets? cannot be reached: no roll and move leaves (it|them)", text).groups()
    assert pronoun == ("it" if count == "1" else "them")


def test_the_first_seat_s_costliest_change_is_one_of_several_only_where_they_tie():
    """Chapter 7: "The costliest to get wrong (one of N as costly)" only where N > 1 (board, roll) pairs cost as
    much as the costliest; on eight tiles one pair costs the most."""
    from stb_core.sources.pub_game import first_seat_part, seats_part

    rules = Rules(tiles=8)
    part = first_seat_part(rules, seats_part(rules, 2, "sum", 1.0))
    losses = part.tables["strategy-changes"]["loss_for_a"]
    tied = int((losses >= losses.max() - 1e-9).sum())
    text = next(iter(part.findings.values())).text
    assert tied == 1 and "The costliest to get wrong:" in text and "one of" not in text, text


@pytest.mark.parametrize(("tolerance", "words"), [(1, "more than 1 point)"), (0.5, "more than 0.5 points)")])
def test_a_tolerance_of_one_point_is_one_point(tolerance, words):
    from stb_core.sources.open_and_shut import pipeline

    found = next(p for p in pipeline(Rules(), tolerance) if "exceptions" in p.findings)
    assert words in found.findings["exceptions"].text


@pytest.mark.parametrize("tiles", [10, 11])
def test_the_sets_off_the_board_are_counted_in_agreeing_words(tiles):
    """Chapter 1: the sets of distinct numbers adding up to a total two dice show that need a tile above the board
    (counted here: one on 11 tiles, {12}; three on 10), "the other one needs ... it can never occur"."""
    import itertools

    from stb_core.sources.sequence_counts import partitions_part

    off = sum(1 for k in range(1, 5) for c in itertools.combinations(range(1, 13), k)
              if 2 <= sum(c) <= 12 and max(c) > tiles)
    text = partitions_part(Rules(tiles=tiles)).findings
    text = " ".join(f.text for f in text.values())
    want = ("the other one needs a tile above 11" if off == 1 else f"the other {off} need a tile above {tiles}")
    assert want in text and ("it can never occur" if off == 1 else "they can never occur") in text, (off, text)


@pytest.mark.parametrize("rules", [Rules(), Rules(win_at_most=7)])
def test_the_source_s_example_names_every_optimal_action(rules):
    """Chapter 5's roll of 8 on {1, ..., 5}: the optimal action, or every one of those that tie (won at 7 or less,
    all three leave a won board), by the plain reference's expected sum after each."""
    import re

    from stb_core import solve
    from stb_core.sources.expected_cost import values_part

    board = frozenset(range(1, 6))
    after = {m: reference_value(rules, "remaining-sum", open_tiles=board - set(m)) for m in moves(rules, board, 8)}
    best = {"{" + ", ".join(map(str, m)) + "}" for m, v in after.items() if v == min(after.values())}
    text = values_part(rules, solve(rules, "remaining-sum")).findings["example-action"].text
    named = set(re.findall(r"\*\*(\{[\d, ]+\})\*\*", text))
    assert named == best and ("equally good" in text) == (len(best) > 1), text


# -- the third sample ---------------------------------------------------------------------------------------------
def test_a_cap_of_one_tile_reads_one_tile():
    assert "at most 1 tile per roll" in Rules(max_per_move=1).describe()
    assert "at most 2 tiles per roll" in Rules(max_per_move=2).describe()


def test_what_each_objective_loses_to_the_other_s_move_is_the_reference_s():
    """``choice_disagreements(a, b)``: where play for the win and play for the least sum move differently, what
    each loses by the other's move, in its own units (both >= 0), by the plain reference's values."""
    from stb_core import solve
    from stb_core.analysis import choice_disagreements

    rules = Rules(tiles=6)
    table = choice_disagreements(solve(rules, "win"), solve(rules, "remaining-sum"))
    assert len(table) > 0
    for row in table.itertuples():
        board = frozenset(t for t in range(1, 7) if row.board_mask >> (t - 1) & 1)
        after_a, after_b = board - _tiles_of(row.move_a), board - _tiles_of(row.move_b)
        win = {b: reference_value(rules, "win", open_tiles=b) for b in (after_a, after_b)}
        left = {b: reference_value(rules, "remaining-sum", open_tiles=b) for b in (after_a, after_b)}
        assert row.loss_for_a == pytest.approx(float(win[after_a] - win[after_b]), abs=1e-12)
        assert row.loss_for_b == pytest.approx(float(left[after_a] - left[after_b]), abs=1e-12) and row.loss_for_b >= 0


def test_a_card_s_costliest_decisions_are_the_heaviest():
    """``card_losses``: the ``top`` decisions with the largest weighted loss, heaviest first; none left out weighs
    more than the lightest kept."""
    from stb_core.analysis import decision_losses
    from stb_core.cards import Card, card_losses

    rules, card = Rules(tiles=7), Card(("shut the fewest tiles",))
    kept = card_losses(rules, card, "win", top=4)["weighted_loss"].tolist()
    every = sorted(decision_losses(rules, "win", card.policy())["weighted_loss"], reverse=True)
    assert kept == sorted(kept, reverse=True) and kept == pytest.approx(every[:4]) and kept[0] > kept[-1]


def test_the_second_named_seat_is_the_one_named_twice(capsys):
    assert main(["players", "--players", "3", "--seat", "2=highest-tile", "--seat", "1=win", "--seat",
                 "1=lowest-tile"]) == 2
    assert "--seat names seat 1 twice" in capsys.readouterr().err


def test_a_won_game_s_outcome_reads_as_a_percentage(capsys):
    """``stb analyse`` for the win: a game that shuts the box ends at 100% (a chance), not at 1."""
    assert main(["analyse", "--game", "3:1+2 7:3+4 11:5+6 7:7 8:8 9:9"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("= outcome 100.00%")


def test_seven_items_are_listed_whole_where_six_are_shown():
    """``listing``: "and 1 more" saves no words, so seven items are named; eight name six and 2 more."""
    from stb_core.sources.words import agrees, listing

    assert listing(list("abcdefg")) == "a, b, c, d, e, f and g"
    assert listing(list("abcdefgh")) == "a, b, c, d, e, f and 2 more"
    assert [agrees(n, "is", "are") for n in (0, 1, 3)] == ["is", "is", "are"]  # no board is, 1 board is, 3 are


def test_a_verdict_says_how_many_decimals_it_rounded_to():
    from stb_core.sources.published import as_read
    from stb_core.sources.verdicts import Printed, judge

    exact = Fraction(956177159, 9795520512)  # 9.7614%
    assert judge(Printed("9.8", "percent"), exact).allowance == "exact, rounded to 1 decimal"
    assert judge(Printed("9.76", "percent"), exact).allowance == "exact, rounded to 2 decimals"
    assert (as_read("1234", ""), as_read("123", ""), as_read("18432", "")) == ("1,234", "123", "18,432")


def test_equal_values_are_those_within_the_tolerance_or_the_floor():
    """``findings.equal_to``: within a relative 1e-9 of the value, or within ``floor`` where that is wider."""
    from stb_core.sources.findings import equal_to, query

    frame = pd.DataFrame({"x": [1.0, 1.0 + 5e-10, 1.0 + 1e-8, 0.0, 5e-10, 2e-9]})
    assert query(frame, "x", "count", equal_to("x", 1.0)) == 2
    assert query(frame, "x", "count", equal_to("x", 0.0, floor=1e-9)) == 2
    assert query(frame, "x", "count", equal_to("x", 1.0, floor=1e-12)) == 2


@pytest.mark.parametrize(("rules", "shown"), [(Rules(), range(0, 7)), (Rules(win_at_most=10), range(0, 13)),
                                              (Rules(tiles=4, win_at_most=9), range(0, 11))])
def test_chapter_4_compares_thresholds_to_two_past_the_run_s(rules, shown):
    from stb_core.sources.game_space import thresholds_of

    assert thresholds_of(rules) == list(shown)


def test_the_rule_s_ten_heaviest_decisions_are_ten():
    from stb_core.sources.sequence_counts import errors_part, strategies_part

    rules = Rules()
    part = errors_part(rules, strategies_part(rules, 1000, 1))
    assert "The ten heaviest make" in part.findings["rule-decisions"].text


def test_a_simulated_seat_s_standard_error_is_the_sample_s():
    """Chapter 7's simulated rounds, two players, sum scoring, a shut box paying 1: each round pays seat 1 +1, 0
    (a split pot) or -1, so its shares of wins, splits and the mean give the sample variance (n - 1 in the
    denominator) and the standard error, derived here."""
    import math

    from stb_core.sources.pub_game import seats_part, simulate_rounds

    rules = Rules(tiles=6)
    rounds = 1000
    table = simulate_rounds(seats_part(rules, 2, "sum", 1.0)["result"], rounds, 7)
    seat, split = table.iloc[0], table.attrs["p_tie"]
    alone = seat.p_win - split
    lost = alone - seat.mean_payoff
    variance = (alone + lost - seat.mean_payoff ** 2) * rounds / (rounds - 1)
    assert seat.payoff_se == pytest.approx(math.sqrt(variance / rounds), rel=1e-9)


def test_the_linter_counts_its_problems_in_agreeing_words(tmp_path, capsys):
    from stb_core.report.lint import main as lint

    for text, said in (("0 board is left open.", "1 problem found"), ("No board is left open.", "0 problems found")):
        page = tmp_path / "page.html"
        page.write_text(f"<html><body><main><p>{text}</p></main></body></html>")
        lint([str(page)])
        assert capsys.readouterr().err.strip() == said


def test_a_mixture_valued_on_the_compiled_path_reads_its_objective_s_sense():
    """Random ties among the best moves for the least sum, valued for the win and for the rolls a game lasts: the
    compiled path chooses the mixture's moves again from the sum's values (lower is better) as numpy does."""
    from stb_core import solve
    from stb_core.valuation import expected_rolls, policy_values

    rules = Rules(tiles=6)
    compiled, numpy = (solve(rules, "remaining-sum", tie_break="random", path=p) for p in ("compiled", "numpy"))
    assert policy_values(compiled, "win") == pytest.approx(policy_values(numpy, "win"), rel=1e-12, abs=1e-15)
    assert float(expected_rolls(compiled)) == pytest.approx(float(expected_rolls(numpy)), rel=1e-12)
