"""``Game``: every array the rules imply, against the definitions written out on sets (the tests' reference);
and properties of the engine's tables checked against brute force rather than restated."""

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from depth import draws
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import (
    blocker_of,
    dice_options,
    is_won,
    moves,
    outcomes,
    positions,
    reference_values,
    total,
    value_of,
    weight_of,
)
from test_properties import small_rules

from stb_core import Rules, board_tiles, solve
from stb_core.cards import pareto_front, search_cards
from stb_core.game import Game, game_of
from stb_core.tables import legal_moves_table


@settings(max_examples=draws(120), deadline=None)
@given(small_rules(max_tiles=8))
def test_game_arrays_follow_the_definitions(rules):
    game = Game(rules)
    assert game.states == 2 ** len(positions(rules)) and game.full_board == game.states - 1
    assert game.tile_values == tuple(value_of(rules, t) for t in positions(rules))
    assert game.positions == len(game.tile_values) and game.total == sum(game.tile_values) == total(rules, positions(
        rules))  # the rules' closed forms, which the game reads, agree with its layout
    for mask in range(game.states):
        tiles = frozenset(board_tiles(mask))
        assert game.sums[mask] == total(rules, tiles) == game.open_sum(mask)
        assert game.scores[mask] == sum(weight_of(rules, t) * value_of(rules, t) for t in tiles)
        assert game.counts[mask] == len(tiles)
        assert bool(game.won[mask]) == is_won(rules, tiles) == game.is_won(mask)
        assert game.exposed[mask] == total(rules, [t for t in tiles if blocker_of(rules, t) not in tiles])
        arises = all(t in tiles or blocker_of(rules, t) not in tiles for t in positions(rules))
        assert bool(game.possible[mask]) == arises, mask
        options = dice_options(rules, tiles)
        assert game.dice_choices(mask) == tuple(sorted(options))
        assert bool(game.one_die[mask]) == (1 in options and rules.dice > 1)
    full = frozenset(positions(rules))
    for dice in game.dice_counts:
        chances = game.chances(dice, exact=True)
        expected = outcomes(rules, dice)
        key = (lambda c: c) if rules.moves == "sum" else game.dice_of
        assert {key(c): p for c, p in chances.items()} == expected
        assert sum(game.chances(dice).values()) == pytest.approx(1, abs=1e-15)
    for code in game.outcomes:
        key = code if rules.moves == "sum" else game.dice_of(code)
        on_full = [board_tiles(m) for m in game.catalogue.of(code).tolist()
                   if game.legal(np.array([game.full_board]), np.array([m]))[0, 0]]
        assert on_full == moves(rules, full, key), code
        for mask in range(0, game.states, 3):  # legality on other boards too: blockers decide there
            board = frozenset(board_tiles(mask))
            legal = [board_tiles(m) for m in game.catalogue.of(code).tolist()
                     if game.legal(np.array([mask]), np.array([m]))[0, 0]]
            assert legal == moves(rules, board, key), (code, board)


@pytest.mark.parametrize("tiles", [1, 12, 16])
def test_game_sums_on_larger_boards(tiles):
    """The one-pass sums against a direct count of bits, on boards too large for the set definitions."""
    game = game_of(Rules(tiles=tiles))
    boards = np.arange(game.states)
    direct = sum(((boards >> b) & 1) * (b + 1) for b in range(tiles))
    np.testing.assert_array_equal(game.sums, direct)
    np.testing.assert_array_equal(game.counts, sum((boards >> b) & 1 for b in range(tiles)))


@settings(max_examples=draws(40), deadline=None)
@given(small_rules(max_tiles=6), st.sampled_from(["win", "remaining-sum", "flipped-count"]))
def test_the_optimal_flag_is_the_brute_force_best(rules, objective):
    """A move is flagged optimal exactly when the value it leaves (the reference's, exact) is the best any legal
    move of that (board, roll) leaves."""
    table = legal_moves_table(solve(rules, objective, exact=True))
    value = reference_values(rules, objective, "optimal")
    sense = -1 if objective == "remaining-sum" else 1
    for (board, roll), rows in table.groupby(["board_mask", "roll"]):
        after = {m: value(frozenset(board_tiles(board & ~m))) for m in rows["move_mask"]}
        best = max(sense * v for v in after.values())
        flagged = dict(zip(rows["move_mask"], rows["optimal"], strict=True))
        assert flagged == {m: sense * v == best for m, v in after.items()}, (board, roll)


def test_the_pareto_front_is_the_brute_force_dominance_filter():
    """For each objective: the best card of each length (least loss, ties by name) is on the front exactly when
    no card with fewer lines loses as little or less -- checked card by card over the whole search."""
    searched = search_cards(Rules(tiles=7), ("win", "remaining-sum"), max_lines=3)
    made_up = pd.DataFrame({"objective": "win", "lines": [1, 2, 2, 3, 3], "card": ["a", "c", "b", "e", "d"],
                            "loss": [5.0, 7.0, 5.0, 3.0, 3.0]})  # 2 lines do no better than 1; 3 lines tie
    dropped = 0
    for table in (searched, made_up):
        expected = []
        for objective, cards in table.groupby("objective", sort=True):
            rows = list(cards.itertuples())
            for lines in sorted({r.lines for r in rows}):
                best = min((r for r in rows if r.lines == lines), key=lambda r: (r.loss, r.card))
                if all(r.loss > best.loss for r in rows if r.lines < lines):
                    expected.append((objective, lines, best.card))
                else:
                    dropped += 1
        front = pareto_front(table)
        assert list(zip(front["objective"], front["lines"], front["card"], strict=True)) == expected
    assert expected == [("win", 1, "a"), ("win", 3, "d")] and dropped >= 1


def test_same_value_is_the_one_rule():
    from stb_core.choice import VALUE_RTOL, same_value

    assert same_value(1.0, 1.0 + 0.5 * VALUE_RTOL) and not same_value(1.0, 1.0 + 3 * VALUE_RTOL)
    assert same_value(-2.0, -2.0 * (1 + 0.5 * VALUE_RTOL)) and same_value(0.0, 0.0)
    assert not same_value(0.0, 1e-300)  # relative: nothing is within a tolerance of zero but zero
    assert same_value(np.array([Fraction(1, 3)], dtype=object), np.array([Fraction(1, 3)], dtype=object)).all()
    assert not same_value(np.array([Fraction(1, 3)], dtype=object),
                          np.array([Fraction(1, 3) + Fraction(1, 10**12)], dtype=object)).any()


def test_brute_force_dice_choices_cover_every_rule():
    """The reference's dice options and the game's agree on every one-die rule, forced or not (a spot check of
    the cases hypothesis draws rarely: one die with many tiles open)."""
    for one_die, forced in itertools.product(("never", "high-shut", "sum-le-6"), (False, True)):
        rules = Rules(tiles=9, one_die=one_die, one_die_forced=forced)
        game = game_of(rules)
        for mask in (0b111111, 0b1000000, 0b111, 0b110000000):
            assert game.dice_choices(mask) == tuple(sorted(dice_options(rules, frozenset(board_tiles(mask)))))


# -- how long a game lasts --------------------------------------------------------------------------------------
def reference_rolls(rules, objective, policy, tie_break="canonical"):
    """E(S), the expected rolls from each board, by the reference's own choices: 0 if won, else one roll plus
    the expected rolls after the move (the average over the moves for the random policy or random ties)."""
    from functools import cache

    from reference import reference_solver

    _, move, dice = reference_solver(rules, objective, policy, tie_break)

    @cache
    def rolls(board):
        if is_won(rules, board):
            return Fraction(0)
        out = Fraction(1)
        for outcome, p in outcomes(rules, dice(board)).items():
            options = moves(rules, board, outcome)
            if not options:
                continue
            if policy == "random":
                out += p * sum(rolls(board - set(m)) for m in options) / len(options)
            else:
                out += p * rolls(board - set(move(board, outcome)))
        return out

    return rolls


@settings(max_examples=draws(60), deadline=None)
@given(small_rules(max_tiles=6), st.sampled_from(["win", "remaining-sum"]),
       st.sampled_from(["optimal", "largest-tile", "most-tiles", "random"]))
def test_game_length_is_a_distribution_with_the_reference_mean(rules, objective, policy):
    from stb_core import evaluate
    from stb_core.valuation import expected_rolls, roll_count_distribution

    solution = evaluate(rules, objective, policy, exact=True)
    distribution = roll_count_distribution(solution)
    assert sum(distribution.values()) == 1 and all(p > 0 for p in distribution.values())
    mean = sum(n * p for n, p in distribution.items())
    assert mean == expected_rolls(solution) == reference_rolls(rules, objective, policy)(frozenset(positions(rules)))
    assert max(distribution) <= len(positions(rules)) + 1


@pytest.mark.parametrize("rules", [Rules(), Rules(moves="die-or-sum"), Rules(layout="double-shutter", tiles=4,
                                                                             one_die="sum-le-6")], ids=str)
def test_simulated_game_lengths_cover_the_exact_mean(rules):
    from stb_core import evaluate
    from stb_core.monte_carlo import simulate
    from stb_core.valuation import expected_rolls

    solution = evaluate(rules, "remaining-sum", "largest-tile")
    result = simulate(solution, 100_000, seed=11)
    exact = float(expected_rolls(solution))
    low, high = result.mean_rolls_ci
    width = (high - low) / 2
    assert abs(result.mean_rolls - exact) <= 2 * width  # four standard errors
    # every number of rolls as often as the exact distribution says, within five standard errors
    from stb_core.valuation import roll_count_distribution

    exact_counts = roll_count_distribution(solution)
    for n, count in enumerate(result.roll_counts.tolist()):
        p = float(exact_counts.get(n, 0))
        assert abs(count - 100_000 * p) <= 5 * (100_000 * p * (1 - p)) ** 0.5, (n, count, p)


def test_tiles_open_after_rolls_agree_with_the_final_boards():
    """After as many rolls as a game can last, each tile is open with the chance that it is open at the end."""
    from stb_core.valuation import final_board_probabilities, tiles_open_after

    solution = solve(Rules(tiles=7), "win", exact=True)
    after = tiles_open_after(solution)
    ends = final_board_probabilities(solution)
    at_end = [sum(p for board, p in enumerate(ends.tolist()) if board >> t & 1) for t in range(7)]
    assert list(after[-1]) == at_end and list(after[0]) == [1] * 7
    assert all(after[k + 1][t] <= after[k][t] for k in range(len(after) - 1) for t in range(7))


def test_two_row_tables_name_the_tiles_and_hold_only_boards_that_arise():
    """A Double Shutter solution's tables: every board one that can arise (no back tile down while the tile in
    front of it stands: the reference's blocker rule), every (board, roll) in play there, tiles by name."""
    from stb_core.analysis import dice_choices_table

    rules = Rules(tiles=3, layout="double-shutter", one_die="sum-le-6")
    names = {t: str(value_of(rules, t)) if blocker_of(rules, t) is None else f"b{value_of(rules, t)}"
             for t in positions(rules)}
    arising = [m for m in range(1 << len(names))
               if all(m >> (t - 1) & 1 or not m >> (blocker_of(rules, t) - 1) & 1
                      for t in positions(rules) if blocker_of(rules, t))]
    in_play = {m for m in arising if not is_won(rules, board_tiles(m))}
    table = legal_moves_table(solve(rules, "remaining-sum"))
    assert set(table["board_mask"]) == {m for m in in_play
                                        if any(moves(rules, frozenset(board_tiles(m)), r) for r in range(1, 13))}
    for row in table.itertuples():
        assert row.board == "{" + ", ".join(names[t] for t in board_tiles(row.board_mask)) + "}"
        assert row.move == "{" + ", ".join(names[t] for t in board_tiles(row.move_mask)) + "}"
    assert set(dice_choices_table(solve(rules, "win"))["board_mask"]) <= in_play


def test_cells_at_is_ufunc_at_on_a_table():
    """The flat fast path gives what the two-dimensional ``ufunc.at`` gives, bit for bit, on whole rows and on
    single cells, repeated targets included (and a column or a non-contiguous table falls back to it)."""
    from stb_core.boards import cells_at

    rng = np.random.default_rng(7)
    rows, cols = rng.integers(0, 40, 3000), rng.integers(0, 6, 3000)
    values, cells = rng.random((3000, 6)), rng.random(3000)
    for ufunc in (np.add, np.maximum, np.minimum):
        for target in (np.zeros((40, 6)), np.zeros((6, 40)).T):
            mine, theirs = target.copy(order="K"), target.copy(order="K")
            cells_at(ufunc, mine, rows, values)
            ufunc.at(theirs, rows, values)
            assert np.array_equal(mine, theirs)
            cells_at(ufunc, mine, rows, cells, cols)
            ufunc.at(theirs, (rows, cols), cells)
            assert np.array_equal(mine, theirs)
    column, expected = np.zeros(40), np.zeros(40)
    cells_at(np.add, column, rows, cells)
    np.add.at(expected, rows, cells)
    assert np.array_equal(column, expected)


@pytest.mark.parametrize("rules", [Rules(), Rules(dice=3, sides=4), Rules(dice=1, sides=12), Rules(moves="die-or-sum"),
                                   Rules(moves="die-or-sum", dice=1, sides=9), Rules(moves="die-or-sum", sides=3)],
                         ids=str)
def test_distinct_rolls_are_the_games_outcomes_of_all_the_dice(rules):
    """What the rules count as different rolls (totals, or the dice in any order) is what the game tells apart."""
    assert rules.distinct_rolls == len(game_of(rules).chances(rules.dice))


def test_a_process_keeps_the_games_it_still_uses():
    """Playing many rule sets in one process (the findings audit, a notebook rerun after rerun) keeps a bounded
    number of games alive: what is computed for a game is kept on it, and the kept solutions play at most eight
    rule sets; a fresh fuzz of the audit grew past 12 GB when every cache kept its own games (21 games here)."""
    import subprocess
    import sys

    script = ("import gc\n"
              "from stb_core import Rules\n"
              "from stb_core.sources.whole_map import prices_part\n"
              "for w in range(20):\n"
              "    prices_part(Rules(tiles=4, win_at_most=w))\n"
              "gc.collect()\n"
              "print(len([o for o in gc.get_objects() if type(o).__name__ == 'Game']))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert int(run.stdout) <= 10


@pytest.mark.parametrize("rules", [Rules(tiles=10), Rules(tiles=6, layout="double-shutter"),
                                   Rules(tiles=7, layout="double-shutter", dice=3, sides=12)], ids=str)
def test_what_a_game_keeps_is_what_the_estimate_counts(rules):
    """The pairs a game keeps for its next numpy sweep are what the estimates count for each game a run plays
    (from a third under to twice over: on Double Shutter the estimate counts pairs of boards that cannot arise),
    up to the cap on kept pairs (the last of these has more pairs than the cap)."""
    from stb_core.cost import BYTES_PER_BOARD, solve_cost

    cost = solve_cost(rules)
    assert cost.auto_path == "numpy"
    solve(rules, "win")
    pairs = game_of(rules).levels._kept.values()
    kept = sum(a.nbytes for p in pairs for a in (p.parent, p.child, p.code, p.move, p.at))
    estimated = cost.kept_bytes - cost.boards * BYTES_PER_BOARD
    assert 0.67 * kept <= estimated <= 2 * kept


def test_the_rolls_a_board_can_face_are_those_its_dice_can_show():
    """A 1 is no roll of two dice; where one die may be rolled it is, and where one die is forced a 7 is not."""
    from stb_core.boards import board_mask
    from stb_core.game import game_of

    full, small = board_mask(range(1, 10)), board_mask([1, 2])
    allowed = game_of(Rules(one_die="sum-le-6"))
    assert allowed.shows([full, small], 1).tolist() == [False, True]
    assert allowed.shows([full, small], 7).tolist() == [True, True]
    forced = game_of(Rules(one_die="sum-le-6", one_die_forced=True))
    assert forced.shows([full, small], 7).tolist() == [True, False]
    assert forced.shows([full, small], 1).tolist() == [False, True]
    assert game_of(Rules()).shows([small], 1).tolist() == [False]


@pytest.mark.parametrize("rules", [Rules(), Rules(one_die="sum-le-3"), Rules(moves="die-or-sum"),
                                   Rules(moves="die-or-sum", one_die="sum-le-6"), Rules(dice=3, one_die="high-shut"),
                                   Rules(dice=1, sides=7), Rules(tiles=4, dice=1, moves="die-or-sum")])
def test_the_rolls_a_player_may_face_are_the_reference_s_outcomes(rules):
    """Rules.distinct_outcomes, counted as the reference enumerates every throw of every number of dice a board of
    these rules may roll."""
    counts = {rules.dice, *([1] if rules.one_die != "never" and rules.dice > 1 else [])}
    faced = {o for d in counts for o in outcomes(rules, d)}
    assert rules.distinct_outcomes == len(faced)


@pytest.mark.parametrize(("rules", "inert"), [
    (Rules(tiles=6, one_die_forced=True), {"one_die_forced"}),
    (Rules(tiles=6, dice=1, one_die="sum-le-3", one_die_forced=True), {"one_die", "one_die_forced"}),
    (Rules(tiles=6, max_per_move=6), {"max_per_move"}),
    (Rules(tiles=6, moves="die-or-sum", max_per_move=1), {"max_per_move"}),
    (Rules(tiles=6, one_die="sum-le-6", one_die_forced=True, max_per_move=5), set()),
    (Rules(tiles=4, one_die="high-shut", max_per_move=2, moves="die-or-sum", win_at_most=10),
     {"one_die", "max_per_move", "moves"}),  # won before the first roll: no rule of play matters
])
def test_an_option_that_changes_nothing_is_inert_and_the_game_is_the_same(rules, inert):
    """Rules.inert names the options the others make moot; the effective rules (those reset) play the same game: the
    reference's value of every board is the same under both."""
    assert set(rules.inert()) == inert
    assert (rules.effective == rules) == (not inert)
    boards = [frozenset(b) for n in range(len(positions(rules)) + 1)
              for b in itertools.combinations(positions(rules), n)]
    for objective in ("win", "remaining-sum"):
        values, effective = reference_values(rules, objective), reference_values(rules.effective, objective)
        assert [values(b) for b in boards] == [effective(b) for b in boards]
