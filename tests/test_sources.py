"""The per-source shaping modules: each source's conventions, and its published numbers."""

import pytest

from stb_core import Rules, board_mask, solve
from stb_core.sources.expected_cost import (
    highest_cost_states,
    largest_tile_exceptions,
    r_order,
    source_optimal_action,
    state_value_table,
)
from stb_core.sources.game_space import (
    game_space,
    optimal_strategy,
    source_columns,
    source_exclusions,
    valid_states,
)
from stb_core.sources.open_and_shut import (
    board_exhibit,
    exceptions,
    expected_score_table,
    move_exhibit,
    optimal_moves_exhibit,
    source_board_id,
    source_board_string,
)
from stb_core.sources.sequence_counts import partition_list, strategy_comparison


# -- source 000 -------------------------------------------------------------------------------------
def test_partition_list_has_the_sources_68_and_65_on_ten_tiles():
    table = partition_list(Rules(tiles=10))
    assert len(table) == 68 and table["on_board"].sum() == 65
    assert set(table.loc[~table["on_board"], "tiles"]) == {"{11}", "{1, 11}", "{12}"}


def test_strategy_comparison_simulations_cover_the_exact_values():
    """Seeded, so deterministic; 4 standard errors (a correct engine misses with chance 6e-5)."""
    table = strategy_comparison(Rules(tiles=7), games=100_000, seed=5)
    se = (table["exact_p_win"] * (1 - table["exact_p_win"]) / table["games"]) ** 0.5
    assert ((table["simulated_p_win"] - table["exact_p_win"]).abs() <= 4 * se).all()
    by = table.set_index("policy")["exact_p_win"]
    assert by["optimal"] >= by["sequence-count"] >= by["random"]


# -- source 002 -------------------------------------------------------------------------------------
def test_source_002_board_conventions():
    assert source_board_id(board_mask([1, 2]), 9) == 127  # flipped 3..9, tile 1 the most significant bit
    assert source_board_id(board_mask(range(2, 10)), 9) == 256
    assert source_board_string(board_mask([1, 2]), 9) == "1 2 - - - - - - -"


def test_source_002_tables():
    rules = Rules()
    scores = expected_score_table(rules)
    assert scores.loc["traditional", "Max"] == pytest.approx(45 - 11.157508, abs=1e-6)
    assert scores.loc["all or nothing", "Max"] == pytest.approx(0.0714316, abs=1e-7)
    assert (scores["Max"] >= scores["Highest Tile"]).all() and (scores["Highest Tile"] >= scores["Min"]).all()
    a = board_exhibit(rules, "traditional")
    shut = [45 - sum(int(t) for t in board.split() if t != "-") for board in a["Board (Remaining)"]]
    assert list(a["Board Sum"]) == shut and len(a) == 512  # the source's Board Sum: the tiles shut, added up
    assert a.loc[a["Board (Remaining)"] == "1 2 - - - - - - -", "Max ES"].item() == pytest.approx(42.222, abs=5e-4)
    moves = move_exhibit(rules, "traditional")
    assert (optimal_moves_exhibit(moves)["Max Move"] != optimal_moves_exhibit(moves)["Min Move"]).all()
    table = exceptions(moves)
    assert len(table) > 0 and (table["Max Move"] != table["Highest Tile Move"]).all()
    first = moves[(moves["Board Sum"] == 0) & (moves["Roll"] == 9)]
    assert first["Max Move"].item() == "[9]" and first["Highest Tile Move"].item() == "[9]"


def test_source_002_tie_rule_lists_tied_moves_together():
    moves = move_exhibit(Rules(tiles=5), "all or nothing")
    # with tiles 1-5, some (board, roll) pairs have two moves of equal winning chance: both are listed
    assert moves["Max Move"].str.contains(r"\], \[").any()


# -- source 003 -------------------------------------------------------------------------------------
def test_source_003_game_space_counts():
    rules = Rules(win_at_most=3)
    assert len(valid_states(rules)) == 506
    assert source_exclusions(rules) == ["1", "2", "3", "12", "23456789"]
    space = game_space(rules)
    assert len(space) == 8607 and space["Redundant"].sum() == 8
    assert list(space.loc[~space["Redundant"], source_columns(rules)].columns)[:2] == ["X1", "X2"]
    groups = space.groupby("RivalGroup")
    assert (groups["Optimal"].any() | groups["Outcome"].first().eq("Loss")).all()  # every playable group has a best
    strategy = optimal_strategy(space)
    best_after = space.groupby("RivalGroup")["PWinAfter"].max()
    assert (strategy["PWinAfter"].to_numpy() == best_after[strategy["RivalGroup"]].to_numpy()).all()
    assert set(strategy["RivalGroup"]) == {g for g, rows in groups if rows["PWinAfter"].nunique() > 1}
    decisive = space.loc[space["Decisive"], "RivalGroup"].nunique()
    assert decisive == sum(rows["PWinAfter"].nunique() > 1 for _, rows in groups) < int((groups.size() > 1).sum())


def test_game_space_codes_are_sets_past_nine_tiles_and_moves_keep_every_tile():
    """From 10 tiles the source's digit codes would be ambiguous ("12": {12} or {1, 2}): sets instead; a move of
    five tiles keeps all five in P1..P5."""
    from stb_core.sources.game_space import move_width, open_code

    assert open_code((1, 2), Rules(tiles=12)) == "{1, 2}" and open_code((1, 2), Rules()) == "12"
    rules = Rules(tiles=8, win_at_most=10, dice=3)
    assert move_width(rules) == 5
    space = game_space(rules)
    shut = space[[f"P{i}" for i in range(1, 6)]].notna().sum(axis=1)
    assert (shut == space["Removed"].str.len()).all()  # every tile shut is written (tiles 1-8: one digit each)


# -- source 004 -------------------------------------------------------------------------------------
def test_source_004_order_ties_and_tables():
    rules = Rules()
    cost = solve(rules, "remaining-sum", exact=True)
    assert r_order([(1, 2, 5), (3, 5), (1, 3, 4)]) == [(3, 5), (1, 2, 5), (1, 3, 4)]
    assert source_optimal_action(cost, board_mask([1, 2, 3, 4, 5]), 8) == (3, 5)
    assert source_optimal_action(cost, board_mask([1, 2]), 12) is None
    table = state_value_table(rules, cost)
    assert list(highest_cost_states(table)["label"])[:3] == ["{5, 6, 7, 8, 9}", "{4, 5, 7, 8, 9}", "{6, 7, 8, 9}"]
    exc = largest_tile_exceptions(rules, cost)
    row = exc[(exc["state"] == "{1, 4, 5, 8}") & (exc["dice_total"] == 9)]
    assert row["optimal_action"].item() == "{4, 5}"
    assert (exc["value_after_optimal"] <= exc["value_after_largest_tile_action"]).all()


# -- chapter 8's own rules of thumb and measures, against plain versions ------------------------------------------
def test_most_throws_is_the_simulator_s_rule_as_committed_by_the_reference():
    """andy327's "Most Options" written out plainly as its code stood when its README printed 6.757% (each move scored
    by the throws still playable from the full board less the move -- ``allTiles -- combo``, not the board in play
    --, then the highest tile, then the fewest tiles; the first such move in canonical order) and valued by the
    reference solver, equals chapter 8's ``most-throws``; the same rule on the board in play equals the chapter's
    ``MOST_THROWS_ON_THE_BOARD``; for the win and the sum, on small boards."""
    import itertools

    from reference import moves, outcomes, reference_value

    from stb_core import Rules, evaluate
    from stb_core.sources.in_print import MOST_THROWS_ON_THE_BOARD, policy_of

    for rules in (Rules(tiles=5), Rules(tiles=6), Rules(tiles=6, sides=4)):
        throws = list(itertools.product(range(1, rules.sides + 1), repeat=rules.dice))
        totals = set(outcomes(rules, rules.dice))
        every = frozenset(range(1, rules.tiles + 1))

        def playable(open_tiles, rules=rules, throws=throws, totals=totals):
            return sum(1 for t in throws if sum(t) in totals and moves(rules, frozenset(open_tiles), sum(t)))

        def rule(on_the_board: bool, every=every, playable=playable):
            def play(open_tiles, roll, options):
                def rank(m):
                    left = (set(open_tiles) if on_the_board else every) - set(m)
                    return (playable(left), max(m), -len(m))
                best = max(rank(m) for m in options)
                return min(m for m in options if rank(m) == best)
            return play

        for objective in ("win", "remaining-sum"):
            for policy, on_the_board in ((policy_of("most-throws"), False), (MOST_THROWS_ON_THE_BOARD, True)):
                engine = evaluate(rules, objective, policy).value()
                plain = reference_value(rules, objective, rule(on_the_board))
                assert float(engine) == pytest.approx(float(plain), rel=1e-12), (rules, objective, on_the_board)


@pytest.mark.parametrize("tie_break", ["canonical", "random"])
def test_a_move_holding_the_largest_tile_by_the_reference(tie_break):
    """arcini's "TopDown" (the moves sorted by their largest tile alone, stably over the lexicographic order: the
    first played) and heathhenley's "option containing the largest number" (one of those moves at random): chapter
    8's ``largest-number`` with either tie-break against the reference's own ranking by the largest tile."""
    from reference import reference_values

    from stb_core import Rules, evaluate
    from stb_core.sources.in_print import policy_of

    for rules in (Rules(tiles=6), Rules(tiles=7, sides=4)):
        for objective in ("win", "remaining-sum"):
            engine = evaluate(rules, objective, policy_of("largest-number"), tie_break=tie_break, exact=True)
            reference = reference_values(rules, objective, "largest-number", tie_break=tie_break)
            assert engine.value() == reference(frozenset(range(1, rules.tiles + 1))), (rules, objective)
    # where it differs from the literature's largest tile first: {1, 2, 9} before {3, 9} for a roll of 12
    from stb_core import legal_moves
    from stb_core.boards import board_mask

    rules, board = Rules(tiles=12), board_mask(range(1, 10))
    assert {(1, 2, 9), (3, 9)} <= set(legal_moves(rules, board, 12))
    assert evaluate(rules, "win", policy_of("largest-number")).played([board], 12)[0] == board_mask([1, 2, 9])
    assert evaluate(rules, "win", "largest-tile").played([board], 12)[0] == board_mask([3, 9])


def test_head_to_head_and_playable_pairs_by_plain_recursion():
    """The chance that one policy's game leaves less than another's, as two final-sum distributions written out
    by recursion over the reference's moves; the (board, total) pairs with a move, by enumeration."""
    import itertools
    from fractions import Fraction

    from reference import moves, outcomes, reference_solver

    from stb_core import Rules, evaluate
    from stb_core.sources.in_print import _measure, head_to_head

    rules = Rules(tiles=6)
    chances = outcomes(rules, rules.dice)

    def final_sums(policy):
        _, move, _ = reference_solver(rules, "remaining-sum", policy)

        def spread(open_tiles):
            out = {}
            for o, p in chances.items():
                m = move(open_tiles, o)
                ends = {sum(open_tiles): Fraction(1)} if m is None else spread(open_tiles - set(m))
                for s, q in ends.items():
                    out[s] = out.get(s, 0) + p * q
            return out
        return spread(frozenset(range(1, rules.tiles + 1)))

    mine, theirs = final_sums("largest-tile"), final_sums("fewest-tiles")
    ours = evaluate(rules, "remaining-sum", "largest-tile")
    other = evaluate(rules, "remaining-sum", "fewest-tiles")
    for outcome, settles in (("beats", lambda a, b: a < b), ("loses-to", lambda a, b: a > b),
                             ("ties", lambda a, b: a == b)):
        plain = sum(p * q for a, p in mine.items() for b, q in theirs.items() if settles(a, b))
        assert head_to_head(ours, other, outcome) == pytest.approx(float(plain), abs=1e-12), outcome
    assert sum(head_to_head(ours, other, o) for o in ("beats", "loses-to", "ties")) == pytest.approx(1, abs=1e-12)
    pairs = sum(1 for k in range(rules.tiles + 1) for s in itertools.combinations(range(1, rules.tiles + 1), k)
                for o in chances if moves(rules, frozenset(s), o))
    assert _measure(ours, "playable-pairs", rules.full_board) == pairs


@pytest.mark.parametrize("rules", [Rules(), Rules(one_die="sum-le-6"), Rules(one_die="sum-le-4"),
                                   Rules(one_die="sum-le-3"), Rules(one_die="high-shut"), Rules(win_at_most=4),
                                   Rules(max_per_move=1), Rules(tiles=12, one_die="sum-le-9", one_die_forced=True)],
                         ids=str)
def test_the_hand_formula_is_compared_only_on_the_source_s_game_from_4_5(rules):
    """Chapter 5 sets the source's hand formula for P(win from {4, 5}) beside the run's exact chance only where the
    game from {4, 5} is the source's: there the reference's chance is the classic game's (7/54). A one-die rule at 4
    or 5 left open changes it (31/216 under one die at 6 or less, which the page once called the source's)."""
    from reference import reference_value

    from stb_core.sources.expected_cost import source_game_from_4_5

    same = reference_value(rules, "win", open_tiles={4, 5}) == reference_value(Rules(), "win", open_tiles={4, 5})
    assert not source_game_from_4_5(rules) or same
    assert source_game_from_4_5(rules) or rules != Rules()
