"""The whole-map tables (chapter 6): variants, policy prices, disagreements, tie-breaks, scaling."""

from fractions import Fraction

import pytest
from reference import reference_solver, reference_values

from stb_core import Rules, RulesError, evaluate, solve
from stb_core.sources.whole_map import (
    disagreement_summary,
    loss_summary,
    more_tiles_table,
    pairs_with_choice,
    policy_prices,
    tie_break_distributions,
    tie_break_table,
    variant_rules,
    variants_table,
)


def test_variants_table_forced_and_optional_agree_for_optimal_play():
    table = variants_table(Rules(), tiles=(7,)).set_index(["variant", "objective", "policy"])["value"]
    for objective in ("win", "remaining-sum", "flipped-count"):
        allowed = table[("pub-allowed", objective, "optimal")]
        assert allowed == pytest.approx(table[("pub-forced", objective, "optimal")], abs=1e-12)


def test_variants_with_one_die_are_the_same_game_as_all_the_dice_always():
    """A one-die rule with one die is a no-op: the sweep over dice does not stop, the values coincide; and the
    variants are named for the dice of the run."""
    table = variants_table(Rules(dice=1), tiles=(6,))
    values = table.set_index(["variant", "objective", "policy"])["value"]
    for objective in ("win", "remaining-sum"):
        assert values[("pub-allowed", objective, "optimal")] == values[("all-dice", objective, "optimal")]
    assert set(table.loc[table["variant"] == "all-dice", "variant_name"]) == {"one die always"}


def test_variants_keep_the_runs_dice_and_sides():
    rules = variant_rules(Rules(tiles=8, dice=3, sides=4, one_die="sum-le-6"), "high-shut", 10)
    assert (rules.tiles, rules.dice, rules.sides, rules.one_die) == (10, 3, 4, "high-shut")
    assert variant_rules(Rules(one_die="sum-le-6"), "all-dice").one_die == "never"


def test_unknown_variant():
    with pytest.raises(RulesError, match="variant must be one of all-dice"):
        variant_rules(Rules(), "three dice sometimes")


def test_policy_prices_against_the_reference():
    rules = Rules(tiles=6)
    prices = policy_prices(rules, {"highest": "highest-tile", "random": "random"}).set_index(["objective", "policy"])
    for objective in ("win", "remaining-sum"):
        best = float(reference_values(rules, objective)(frozenset(range(1, 7))))
        for label, policy in (("highest", "highest-tile"), ("random", "random")):
            value = float(reference_values(rules, objective, policy)(frozenset(range(1, 7))))
            row = prices.loc[(objective, label)]
            assert row["value"] == pytest.approx(value, abs=1e-12)
            assert row["loss"] == pytest.approx(abs(best - value), abs=1e-12)


def test_loss_summary_totals_are_the_whole_losses():
    rules = Rules(tiles=7)
    summary = loss_summary(rules, {"highest": "highest-tile"}).set_index("policy")
    whole = float(solve(rules, "win").value() - evaluate(rules, "win", "highest-tile").value())
    assert summary.loc["highest", "total_loss"] == pytest.approx(whole, abs=1e-12)


def _brute_force_disagreements(rules: Rules) -> tuple[int, int]:
    """(pairs with a choice, pairs where the sum-optimal move loses win chance), by the reference's moves."""
    win, win_move, _ = reference_solver(rules, "win")
    _, sum_move, _ = reference_solver(rules, "remaining-sum")
    choice = costly = 0
    from reference import moves as legal
    from reference import outcomes, reachable_states

    for board in reachable_states(rules):  # the boards a player can face
        for roll in outcomes(rules, rules.dice):
            if len(legal(rules, board, roll)) >= 2:
                choice += 1
                a, b = win_move(board, roll), sum_move(board, roll)
                costly += win(board - set(a)) > win(board - set(b))
    return choice, costly


def test_disagreements_counted_independently():
    rules = Rules(tiles=7)
    choice, costly = _brute_force_disagreements(rules)
    summary = disagreement_summary(rules).set_index("compared with")
    assert pairs_with_choice(rules) == choice
    assert summary.loc["sum-optimal move", "pairs where it costs the win"] == costly


def test_tie_breaks_share_the_value_and_count_the_ties():
    """The classic game's tied pairs, counted over the boards a player can face from the reference's values (39 over
    every board in play, unreachable ones included, as an earlier issue counted them)."""
    from table_references import tied_pairs

    rules = Rules()
    table = tie_break_table(rules).set_index("objective")
    assert table.loc["win", "tied_pairs"] == tied_pairs(rules, "win")
    assert (table.filter(like="value_").nunique(axis=1) == 1).all()
    spread = tie_break_distributions(Rules(), "win")
    assert spread[["canonical", "fewest-tiles", "most-tiles"]].sum().tolist() == pytest.approx([1, 1, 1], abs=1e-12)
    assert spread["spread"].max() > 0  # the tie rule moves probability between final sums


def test_more_tiles_keeps_the_sides():
    """Four-sided dice: the table is the game of four-sided dice (the bug of the issue: six-sided values)."""
    table = more_tiles_table(Rules(dice=3, sides=4), 8, dice=(3,)).set_index("tiles")
    assert table.loc[8, "p_win"] == pytest.approx(float(solve(Rules(tiles=8, dice=3, sides=4)).value()), abs=1e-15)
    assert table.loc[8, "p_win"] == pytest.approx(float(reference_values(Rules(tiles=8, dice=3, sides=4), "win")(
        frozenset(range(1, 9)))), abs=1e-12)


def test_more_tiles_zero_beyond_twelve_with_two_dice():
    table = more_tiles_table(Rules(), 14, dice=(2, 3))
    two = table[table["dice"] == 2].set_index("tiles")
    assert (two.loc[13:, "p_win"] == 0).all() and (two.loc[:12, "p_win_exact"] != "").all()
    assert float(Fraction(two.loc[9, "p_win_exact"])) == pytest.approx(two.loc[9, "p_win"], abs=1e-15)
    assert (table[table["dice"] == 3].set_index("tiles").loc[13:, "p_win"] > 0).all()


@pytest.mark.parametrize("rules", [Rules(tiles=4, layout="double-shutter"), Rules(tiles=6, moves="die-or-sum"),
                                   Rules(tiles=5)], ids=str)
def test_opening_moves_shut_tiles_worth_the_roll(rules):
    """Each opening move is named by the board's own tiles (``b4``: the back tile worth 4) and the tiles it names
    are worth the roll: their values add up to the total, or (die-or-sum) one tile equals a die or the dice's sum."""
    from stb_core.sources.whole_map import opening_moves

    table = opening_moves(rules)
    assert len(table)
    for row in table.itertuples():
        for move in (row.best_move, row.runner_up):
            if not isinstance(move, str):  # no runner-up: the move was forced
                continue
            worth = [int(t.strip().lstrip("b")) for t in move.strip("{}").split(",")]
            if rules.moves == "sum":
                assert sum(worth) == row.roll, row
            else:
                dice = [int(d) for d in str(row.roll).split(",")]
                assert len(worth) == 1 and worth[0] in (*dice, sum(dice)), row


def test_the_sources_games_are_theirs_on_any_board():
    """Chapter 1's board and the Riddler's game, which chapter 6 quotes, are one row under the sum rule whatever
    board the run plays: the same table on a Double Shutter or die-or-sum run as on a row."""
    from stb_core.sources.whole_map import prices_part, published_claims

    row = prices_part(Rules(tiles=4))
    for other in (Rules(tiles=4, layout="double-shutter"), Rules(tiles=4, moves="die-or-sum")):
        prices = prices_part(other)
        assert prices["source-000-gap"].equals(row["source-000-gap"])
        assert published_claims(other, prices) == published_claims(Rules(tiles=4), row)


def test_more_tiles_are_exact_up_to_twelve_tiles_in_all():
    """On a Double Shutter the exact fractions stop at 6 front tiles (12 in all), where exact solves would be
    refused further on (a board of 9 front tiles is 18 in all), and agree with the floats where given."""
    from stb_core.sources.whole_map import more_tiles_table

    table = more_tiles_table(Rules(layout="double-shutter"), max_tiles=9, dice=(2,))
    exact = table.set_index("tiles")["p_win_exact"]
    assert exact.loc[1:6].notna().all() and exact.loc[7:9].isna().all()
    for n in range(1, 7):
        assert float(Fraction(exact.loc[n])) == pytest.approx(table.set_index("tiles").loc[n, "p_win"], abs=1e-15)


def test_allowed_or_forced_gives_each_objective_its_own_largest_difference():
    """A chance and a sum are not one scale: the sentence names each objective's largest difference between one die
    allowed and forced, in its unit, read from the variants as a plain max over that objective's rows."""
    from stb_core.sources.whole_map import variants_part

    part = variants_part(Rules(tiles=7, dice=3), 8)
    text = part.findings["allowed-or-forced"].text
    frame = part["variants"]
    for objective, unit in (("win", "percentage points"), ("remaining-sum", "")):
        rows = frame[(frame["policy"] == "worst") & (frame["objective"] == objective)]
        rows = rows.set_index(["tiles", "variant"])["value"]
        gap = max(abs(rows[(n, "pub-allowed")] - rows[(n, "pub-forced")]) for n in (7, 8))
        shown = f"{100 * gap:.2f} {unit}" if unit else f"{gap:.3f}"
        assert shown in text, (shown, text)
    assert "the largest difference)" not in text


def test_card_lines_name_only_what_the_board_has():
    """A line that cannot tell two moves of the game apart (tiles the board lacks) is not searched: no card on
    tiles 1-5 keeps 6, 7 and 8 open, and no card rolls one die where one die is never a choice; on tiles 1-9 with
    the pub rule every line is."""
    from stb_core.cards import DICE_LINES, LINES, lines_for, search_cards

    assert lines_for(Rules(tiles=9, one_die="sum-le-6")) == LINES
    for never in (Rules(tiles=9), Rules(tiles=9, one_die="sum-le-6", one_die_forced=True)):
        assert set(lines_for(never)) == set(LINES) - set(DICE_LINES)
    small = lines_for(Rules(tiles=5))
    assert "keep 6, 7 and 8 open" not in small and "shut tiles above 6 first" not in small
    cards = search_cards(Rules(tiles=5), ("win",), max_lines=1)
    assert not cards["card"].str.contains("6, 7 and 8|above 6").any()


def test_a_game_whose_cards_all_play_alike_says_so():
    """One tile, two dice: no card can move, every card plays the same; the page says "the same moves", not "1
    different strategy"."""
    from stb_core.sources.findings import Part
    from stb_core.sources.whole_map import searched_cards

    part = Part()
    searched_cards(part, Rules(tiles=1), 2, "win")
    text = part.findings["cards"].text
    assert "they all play the same moves" in text and "1 different strategy" not in text
