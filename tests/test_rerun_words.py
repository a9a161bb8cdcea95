"""Sentences a fuzz of reruns found false or misleading (seed 1126: 40 reruns read against the plain references),
each held to the run's own truth, computed here from the rules or the plain references, never from the chapter."""

from fractions import Fraction

import pytest
from reference_players import reference_round

from stb_core import Rules, solve
from stb_core.sources.words import percent

WON_AT_START = Rules(tiles=4, dice=3, sides=6, win_at_most=30)  # tiles 1-4 add up to 10: won before any roll


@pytest.mark.parametrize(("chance", "decimals", "shown"), [
    (0.999881, 1, ">99.9%"), (0.9994, 1, "99.9%"), (1.0, 1, "100.0%"), (1 - 1e-16, 2, "100.00%"),
    (1 - 1.9e-10, 4, ">99.9999%")])
def test_a_chance_short_of_certain_never_reads_certain(chance, decimals, shown):
    """Chapter 8 said tile 1 was open "in 100.0% of finished games" at 0.999881."""
    assert percent(decimals)(chance) == shown


def test_an_exact_zero_only_where_the_tiles_never_shut_exceed_the_threshold():
    """Table 6.16 printed an exact 0 beside 100% for boards won at the start (tiles above the largest roll, but
    within the winning threshold)."""
    from stb_core.sources.whole_map import more_tiles_table

    table = more_tiles_table(Rules(tiles=1, dice=1, sides=12, win_at_most=113), max_tiles=15, dice=(1,))
    exact = dict(zip(table["tiles"], table["p_win_exact"], strict=True))
    for n in (13, 14, 15):  # 13 + 14 + 15 = 42 <= 113: never shut, and still maybe won
        assert exact[n] is None or exact[n] != "0", (n, exact[n])
    classic = more_tiles_table(Rules(tiles=1), max_tiles=13, dice=(2,))
    assert classic["p_win_exact"].iloc[-1] == "0"  # tile 13 > 12 and the box must be shut


def test_two_dice_lines_that_roll_alike_are_one_strategy():
    """Under sum-le-6 on one row, "roll one die when you may" and "... when 6 or less is left" roll the same dice on
    every board: one strategy, not two (the page counted 9 strategies of 8)."""
    from stb_core.cards import search_cards

    cards = search_cards(Rules(tiles=6, moves="die-or-sum", one_die="sum-le-6"), ("win",), max_lines=1)
    plays = dict(zip(cards["card"], cards["plays_as"], strict=True))
    assert plays["roll one die when you may"] == plays["roll one die when 6 or less is left"]


def test_equal_seats_and_tied_worst_seats_are_said_so():
    """Seats whose exact values are equal are "worth the same" (not a best and a worst of 0.00% apart by float
    noise), and seats tied for last are all named."""
    from stb_core.sources.pub_game import seats_part

    rules = Rules(tiles=6, dice=1, sides=12, one_die="sum-le-6", one_die_forced=True, win_at_most=174)
    values = reference_round(rules, 4, "sum", Fraction(5))["expected_payoff"]
    assert values[1] == values[2] == values[3] < values[0]
    text = seats_part(rules, 4, "sum", 5).findings["seats"].text
    assert "the worst is seats 2, 3 and 4, each" in text


@pytest.mark.parametrize(("stem", "says"), [
    ("sequence_counts", "Every board of this game is already won"),
    ("riddler", "the game is won before the first roll"),
    ("expected_cost", "The game is won before the first roll: no action is ever taken"),
    ("whole_map", "The game is won before the first roll, so there is no opening move to choose."),
])
def test_a_game_won_before_the_first_roll_says_so(stem, says):
    """A rerun won at the start gave reasons that do not apply (a cap, an unreached board, no legal opening roll)."""
    import importlib

    module = importlib.import_module(f"stb_core.sources.{stem}")
    part = {"sequence_counts": lambda: module.partitions_part(WON_AT_START),
            "riddler": lambda: None,
            "expected_cost": lambda: module.exceptions_part(WON_AT_START, solve(WON_AT_START, "remaining-sum")),
            "whole_map": lambda: module.openings_part(WON_AT_START)}[stem]()
    texts = [module.no_choice(Rules(tiles=4, win_at_most=30, one_die="sum-le-6"))] if stem == "riddler" else \
        [f.text for f in part.findings.values()]
    assert any(says in text for text in texts), texts


def test_moves_that_all_win_alike_have_no_best():
    """The source's example board, already won: every move keeps a chance of 1, none is "the best"."""
    from stb_core.sources.sequence_counts import example_part

    text = example_part(Rules(tiles=10, dice=1, sides=12, win_at_most=284)).findings["example"].text
    assert "every move leaves the same" in text and "the best" not in text


def test_a_list_one_item_past_its_limit_names_it():
    """"… and 1 more" saves no words (chapter 8 named six rules of thumb and "1 more")."""
    from stb_core.sources.words import listing

    assert listing(list("abcdefg"), most=6) == "a, b, c, d, e, f and g"
    assert listing(list("abcdefgh"), most=6) == "a, b, c, d, e, f and 2 more"


def test_a_round_won_before_the_first_roll_has_no_decision():
    from stb_core.sources.pub_game import first_seat_part, seats_part

    seats = seats_part(WON_AT_START, 3, "sum", 2)
    text = first_seat_part(WON_AT_START, seats).findings["first-seat"].text
    assert text == "The round is won before the first roll: no seat makes a decision."


def test_winnings_of_many_stakes_read_in_stakes():
    """"+300,000.00% of a stake" read as a per cent of something small; from ten stakes up the unit is the stake."""
    from stb_core.sources.pub_game import stakes

    assert (stakes(3000), stakes(-94.783), stakes(0.0321)) == ("+3,000.00 stakes", "−94.78 stakes",
                                                                "+3.21% of a stake")


def test_where_no_policy_and_no_card_can_lose_the_page_names_no_loser():
    """Won at the start, every policy and every card plays to the optimum: no "most lost", no recommended card."""
    from stb_core.sources.findings import Part
    from stb_core.sources.whole_map import prices_part, recommend_card, searched_cards

    assert prices_part(WON_AT_START).findings["prices-alt"].text.endswith("no policy loses anything: every dot is "
                                                                          "at nil.")
    part = Part()
    cards = searched_cards(part, WON_AT_START, 1, "win")
    recommend_card(part, cards, "win", 2.5)
    assert part.findings["recommended-card"].text.startswith("No card can do better or worse here")


@pytest.mark.parametrize(("stem", "changed", "only", "source"), [
    ("01-sequence-counts", {}, (), True),
    ("01-sequence-counts", {"games": 5000, "seed": 7}, (), True),  # not rules: the source's game still
    ("01-sequence-counts", {"tiles": 9}, (), False),  # the source's box has ten tiles
    ("01-sequence-counts", {"one_die_forced": True}, (), True),  # forced, with no one-die rule: no change
    ("01-sequence-counts", {"one_die": "sum-le-6", "one_die_forced": True}, (), False),
    ("02-riddler-one-die", {"one_die": "never"}, (), False),  # the Riddler's game rolls one die
    ("04-game-space", {"win_at_most": 0}, (), False),  # its source wins at 3 or less
    ("06-whole-map", {"tiles": 6, "layout": "double-shutter", "max_tiles": 8}, ("dice", "sides"), True),
    ("06-whole-map", {"sides": 8}, ("dice", "sides"), False)])
def test_a_run_plays_its_source_game_when_its_rules_are_the_sources(stem, changed, only, source):
    """A page says "the source's game" only where the run's rules are the source's: chapter 1's is ten tiles and
    two six-sided dice, the Riddler's rolls one die once 7, 8 and 9 are shut, chapter 4's is won at 3 or less."""
    from stb_core.report.page import Page, notebook_defaults

    page = Page(stem, {**notebook_defaults(stem), **changed})
    assert page.is_source_game(*only) is source


@pytest.mark.parametrize(("rules", "shut_pays"), [(Rules(tiles=4, sides=2, win_at_most=208), 179),
                                                  (Rules(tiles=4), 1)])
def test_the_seats_figure_names_the_unit_it_draws(rules, shut_pays):
    """Figure 7.3's caption said "in per cent of a stake" over an axis in stakes (seats winning 179 stakes)."""
    from stb_core.report.game_plots import seat_payoffs_with_simulation
    from stb_core.sources import pub_game

    exact = reference_round(rules, 2, "sum", Fraction(shut_pays))["expected_payoff"]
    words = "stakes" if max(abs(x) for x in exact) >= 10 else "per cent of a stake"
    seats = pub_game.seats_part(rules, 2, "sum", float(shut_pays))
    simulation = pub_game.simulation_part(seats, 1000, 1)
    assert simulation["winnings_in"] == words
    figure = seat_payoffs_with_simulation(seats["seats"], simulation["simulated"])
    label = figure.axes[0].get_xlabel()
    assert label == ("expected winnings (stakes)" if words == "stakes" else "expected winnings (% of a stake)")


def test_one_die_allowed_or_forced_says_which_win_its_games_play_for():
    """Chapter 6 said "Here the two rules differ even for optimal play, by up to 53.12 percentage points" on a run
    won at 185 or less, where the run's own game is won before any roll: the two pub variants are won by shutting
    every tile, and the sentence says so."""
    from stb_core.sources.whole_map import variants_part

    rules = Rules(tiles=3, dice=4, sides=2, one_die="high-shut", one_die_forced=True, win_at_most=185)
    text = variants_part(rules, 4).findings["allowed-or-forced"].text
    assert "(each won by shutting the box, not at this run's threshold)" in text and not text.startswith("Here"), text


@pytest.mark.slow  # the plain reference's count on ten tiles and three dice: about 17 s
def test_a_total_beyond_64_bits_is_stated_exactly():
    """Chapter 1 with three dice under high-shut stated 3,372,170,618,953,763,840 winning sequences from tiles 1-10:
    the true 21,818,914,692,663,315,456 less 2**64 (a column of counts above the int64 range summed in uint64)."""
    import sys

    sys.setrecursionlimit(10_000)
    from reference import sequences_by_moves

    from stb_core.sources.sequence_counts import counts_part

    rules = Rules(tiles=10, dice=3, one_die="high-shut")
    count = sequences_by_moves(rules)
    total = sum(count(frozenset(range(1, 11)), k) for k in range(11))
    assert total > 2**64
    finding = counts_part(rules).findings["counts"]
    assert f"**{total:,} weighted winning sequences**" in finding.text, finding.text


def test_the_dice_advice_of_a_one_die_game_does_not_say_one_die_is_never_allowed():
    """Chapter 6 with one die said "even the pub rule never allows one die on any of them" of a game that rolls
    one die on every turn."""
    from stb_core.sources.whole_map import openings_part

    text = openings_part(Rules(tiles=6, dice=1, one_die="sum-le-6")).findings["dice-advice"].text
    assert "never allow" not in text and "one die on every roll" in text, text


def test_a_traditional_score_of_nothing_flipped_is_zero_not_a_negative_residue():
    """Chapter 3 with tiles 1-2 and four dice (no roll ever has a move) stored the traditional expected score as
    -4.44e-16, a negative score, and printed its loss as 0.00% of a zero optimum where the other scorings print --."""
    from reference import reference_value

    from stb_core.sources.open_and_shut import expected_score_table

    rules = Rules(tiles=2, dice=4)
    table = expected_score_table(rules)
    flipped = rules.total - reference_value(rules, "remaining-sum")  # the tiles a game flips, on average: 0
    assert flipped == 0
    assert (table.loc["traditional"] == 0.0).all() and (table.loc["traditional"] >= 0).all(), table


def test_chapter_5_says_how_many_of_its_states_a_game_can_reach():
    """With two 2-sided dice only totals 2-4 are rolled: chapter 5 listed 511 states (and six highest-cost ones,
    some of which no game reaches) without saying that a game reaches only 14 of them."""
    from reference import boards_reached

    from stb_core import solve
    from stb_core.sources.expected_cost import trend_part

    rules = Rules(sides=2)
    reached = sum(1 for b in boards_reached(rules) if b)
    part = trend_part(rules, solve(rules, "remaining-sum"))
    assert f"reaches {reached} of these 511 states" in part.findings["trend"].text, part.findings["trend"].text
    assert int(part["policy-table"]["reached"].sum()) == reached


@pytest.mark.slow  # the plain reference's game space of 7 tiles and two 12-sided dice: minutes
def test_chapter_4_counts_the_groups_with_equally_good_moves_not_the_extra_rows():
    """Chapter 4 said "in 134 groups two or more moves are equally good" where 115 groups have them (134 was the
    optimal rows beyond one per group: a group with three equally good moves counted twice)."""
    from collections import Counter

    from table_references import space_rows

    from stb_core.sources.game_space import part2, space_part

    rules = Rules(tiles=7, sides=12, max_per_move=6, win_at_most=10)
    rows = [r for r in space_rows(rules) if r["Decisive"] and r["Optimal"]]
    per_group = Counter((r["Open"], r["TotalRolled"]) for r in rows)
    tied = sum(n > 1 for n in per_group.values())
    assert tied != len(rows) - len(per_group)  # a group with three or more: the old count differs
    text = part2(rules, space_part(rules)).findings["optimal-strategy"].text
    assert f"in {tied} groups two or more moves are equally good" in text, text


@pytest.mark.parametrize(("rules", "said"), [(Rules(tiles=3, sides=9), "This run's board has no tiles 4 and 5"),
                                             (Rules(sides=8), "This run's game from {4, 5} is not the source's")])
def test_chapter_5_says_why_the_hand_formula_is_not_compared(rules, said):
    """Chapter 5 on tiles 1-3 spoke of "this run's game from {4, 5}", a board the run does not have."""
    from stb_core.sources.expected_cost import hand_part
    from stb_core.sources.findings import Part

    part = hand_part(rules, Part())
    assert not part.tables and part.findings["hand-arithmetic"].text.startswith(said)


@pytest.mark.parametrize("rules", [
    Rules(tiles=11, dice=1, sides=16, win_at_most=131),  # {1, 4, 5, 8} is won: no 9 is ever thrown there
    Rules(win_at_most=18), Rules(win_at_most=17), Rules(),
    Rules(one_die="sum-le-18", one_die_forced=True),  # one die alone from {1, 4, 5, 8}: no 9
    Rules(one_die="sum-le-18"), Rules(sides=4, dice=2), Rules(sides=4, dice=3), Rules(moves="die-or-sum"),
    Rules(max_per_move=1), Rules(tiles=7)])
def test_chapter_5_shows_the_sources_nine_only_where_a_player_can_face_it(rules):
    """Chapter 5, won at 131 or less, said "From {1, 4, 5, 8} a 9 can leave {1, 8} or {4, 5}" of a board already
    won, where no roll is made. Whether the choice arises is read here from the plain reference's rules."""
    from reference import dice_options, is_won, moves, outcomes

    from stb_core.sources.expected_cost import exceptions_part

    board = frozenset({1, 4, 5, 8})
    faced = rules.tiles >= 8 and rules.moves == "sum" and not is_won(rules, board) and \
        any(9 in outcomes(rules, d) for d in dice_options(rules, board)) and \
        {(1, 8), (4, 5)} <= set(moves(rules, board, 9))
    part = exceptions_part(rules, solve(rules, "remaining-sum"))
    assert ("one-four-five-eight" in part.tables) == faced


def test_an_objective_no_policy_can_lose_is_not_given_a_loser_in_the_alt_text():
    """Figure 6.2's alt text named "the most lost: P(win), fewest tiles, …, worst play" where every policy wins
    0% alike (a 3-sided pair of dice on tiles 1-9). Nil here is the plain reference's optimum of 0."""
    from reference import reference_value

    from stb_core.sources.whole_map import prices_part
    from stb_core.sources.words import named

    rules = Rules(tiles=6, sides=2)  # totals 2 to 4: tiles 5 and 6 never shut
    assert reference_value(rules, "win") == 0
    text = prices_part(rules).findings["prices-alt"].text
    assert f"{named('win')}, none loses anything" in text, text
    assert f"{named('remaining-sum')}, none loses anything" not in text, text


@pytest.mark.parametrize("rules", [
    Rules(tiles=7, dice=4, sides=12),  # floats: 9 decisions cost chance; exactly 6
    pytest.param(Rules(tiles=8, dice=4, sides=18), marks=pytest.mark.slow)])  # and 88 pairs, not 90 (4 minutes)
def test_chapter_1_counts_every_decision_and_pair_that_costs_winning_chance(rules):
    """Chapter 1 with four 18-sided dice said "600 decisions … cost winning chance" and "the rule errs at 1,269
    (board, roll) pairs" (exact: 571 and 1,284): float noise of 1e-12 counted ties as losses and hid real losses
    of 1e-15. Both counts and each decision's share of the loss are held to the plain reference's exact ones."""
    from reference import decision_losses, dice_options, is_won, moves, outcomes, positions, reference_play

    from stb_core.sources.sequence_counts import rule_errors, rule_losses

    rows = [r for r in decision_losses(rules, "win", "sequence-count") if r["loss"] > 0]
    weights = [r["reach"] * r["p_roll"] * r["loss"] for r in rows]
    shares = sorted((float(w / sum(weights)) for w in weights), reverse=True)
    losses = rule_losses(rules)
    assert len(losses) == len(rows)
    assert losses["share_of_loss"].tolist() == pytest.approx(shares, rel=1e-9, abs=0)
    best, rule = (reference_play(rules, "win", p) for p in ("optimal", "sequence-count"))
    tiles = positions(rules)
    boards = [frozenset(t for i, t in enumerate(tiles) if m >> i & 1) for m in range(1 << len(tiles))]
    errs = {(b, o) for b in boards if not is_won(rules, b) for d in dice_options(rules, b)
            for o in outcomes(rules, d) if moves(rules, b, o)
            and best.value(b - set(rule.move(b, o))) < best.value(b - set(best.move(b, o)))}
    assert len(rule_errors(rules)) == len(errs)


@pytest.mark.parametrize("rules", [Rules(tiles=6, dice=3, sides=12), Rules(tiles=6, dice=4, sides=8),
                                   Rules(tiles=5, dice=4, sides=12)])
def test_chapter_8_ties_rules_of_thumb_only_where_they_win_exactly_as_often(rules):
    """Chapter 8 with three 20-sided dice said "two rules of thumb tie for the best" of two 8e-12 apart (relative
    2e-10, inside the float tolerance). The best, and whether several share it, are the plain reference's exact
    values (floats put three rules within 1e-9 of each other on each of these games)."""
    from reference import reference_value

    from stb_core.sources.in_print import HEURISTICS, heuristics_part

    exact = {p: reference_value(rules, "win", p) for p in HEURISTICS}
    best = {p for p, v in exact.items() if v == max(exact.values())}
    part = heuristics_part(rules)
    frame = part.tables["heuristics"]
    best_rank = frame.loc[frame["policy"].isin(HEURISTICS), "win_rank"].min()
    assert set(frame.loc[frame["policy"].isin(HEURISTICS) & (frame["win_rank"] == best_rank), "policy"]) == best
    text = part.findings["heuristics"].text
    assert ("tie for the best" in text) == (len(best) > 1), text
    every = {p: reference_value(rules, "win", p) for p in ("optimal", "worst")}
    assert ("every way of playing wins" in text) == (every["optimal"] == every["worst"]), text
    order = {"more than": exact["largest-tile"] > exact["highest-tile"],
             "less than": exact["largest-tile"] < exact["highest-tile"],
             "the same as": exact["largest-tile"] == exact["highest-tile"]}
    if "“largest tile first” wins" in text:
        said = text.split("“largest tile first” wins")[1].split("this report")[0]
        assert [w for w, holds in order.items() if holds] == [w for w in order if w in said], text


def test_the_cheapest_and_dearest_seat_costs_say_how_many_ways_and_seats_share_them():
    """Chapter 7 said "from nothing (play for the win alone, seat 1)" where six (way, seat) pairs cost nothing. The
    pairs at each end are counted here from the plain reference's exact round, never from the chapter."""
    from reference_players import reference_round

    from stb_core.sources.pub_game import seat_costs_part, seat_plays

    rules, players, bonus = Rules(tiles=4, one_die="high-shut", one_die_forced=True, win_at_most=3), 2, 1
    base = reference_round(rules, players, "sum", bonus)["expected_payoff"]
    costs = []
    for seat in range(1, players + 1):
        for how in seat_plays("sum"):
            play = (how, "optimal") if how in ("win", "remaining-sum") else ("remaining-sum", how)
            found = reference_round(rules, players, "sum", bonus, {seat: play})
            costs.append(base[seat - 1] - found["expected_payoff"][seat - 1])
    cheapest, dearest = costs.count(min(costs)), costs.count(max(costs))
    text = seat_costs_part(rules, players, "sum", float(bonus)).findings["seat-costs"].text
    for count, where in ((cheapest, text.split(" to ")[0]), (dearest, text.split(" to ")[1])):
        assert (f"; {count} (way, seat) pairs cost that" in where) == (count > 1), (count, text)
    assert cheapest > 1, text  # the case the fuzz found: several ways cost nothing


@pytest.mark.parametrize(("rules", "said"), [(Rules(sides=5, one_die="high-shut", win_at_most=35), True),
                                             (Rules(sides=5), False), (Rules(max_per_move=2), True)])
def test_chapter_1s_board_on_this_runs_dice_says_it_drops_this_runs_win_and_dice(rules, said):
    """Chapter 6 gave chapter 1's board "with this run's dice" a chance of winning that shuts every tile with all
    the dice always, on a run won at 35 or less with a one-die rule, without saying so."""
    from stb_core.sources.findings import Part
    from stb_core.sources.whole_map import add_source_000_gap

    part = Part()
    add_source_000_gap(part, rules)
    text = " ".join(f.text for f in part.findings.values())
    assert ("won only with every tile shut, all the dice always, not this run's rules" in text) == said, text
