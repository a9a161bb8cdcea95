"""Source 002 ("Open and Shut Case", D. Castner): the module's exhibits against a port of the source's own
algorithm (its Board ids, its F = max / min / highest-tile, its 0.0001 tie rule, its sort orders)."""

import itertools
from fractions import Fraction

import pytest

from stb_core import Rules, board_mask, solve
from stb_core.sources.open_and_shut import (
    board_exhibit,
    comparison_exhibit,
    exception_losses,
    exceptions,
    expected_score_shares,
    expected_score_table,
    flipped_sum,
    move_exhibit,
    optimal_moves_exhibit,
    solutions,
    source_board_id,
    source_board_string,
)

TILES = 9


# -- a port of the source's algorithm (its calculate_expected_scores and get_optimal_move) -------------
def _flipped(board_id):
    return [t for t in range(1, TILES + 1) if board_id >> (TILES - t) & 1]


def _source_solve(score, strategy):
    counts = {}
    for outcome in itertools.product(range(1, 7), repeat=2):
        counts[sum(outcome)] = counts.get(sum(outcome), 0) + 1
    prob = {roll: n / 36 for roll, n in counts.items()}
    by_sum = {}
    for b in range(2 ** TILES):
        by_sum.setdefault(sum(_flipped(b)), []).append(b)
    es = {}
    nexts = {}
    for total in range(45, -1, -1):
        for b in by_sum.get(total, []):
            acc = 0.0
            for roll in prob:
                options = [n for n in by_sum.get(total + roll, []) if n & b == b]
                nexts[b, roll] = options
                if not options:
                    value = score(b)
                else:
                    value = es[strategy(options, es)]
                acc += prob[roll] * value
            es[b] = acc
    return es, nexts


def _max(options, es):
    return max(options, key=lambda n: es[n])


def _min(options, es):
    return min(options, key=lambda n: es[n])


def _highest_tile(options, es):
    def key(n):
        return (-bin(n).count("1"), int("".join(str(t) if t in _flipped(n) else "0" for t in range(TILES, 0, -1))))
    return max(options, key=key)


SCORES = {"traditional": lambda b: sum(_flipped(b)), "all or nothing": lambda b: int(b == 2 ** TILES - 1),
          "flipped count": lambda b: bin(b).count("1")}
RULES_F = {"Max": _max, "Min": _min, "Highest Tile": _highest_tile}


def _source_cell(b, options, es, strategy):
    chosen = es[strategy(options, es)]
    moves = sorted(tuple(sorted(set(_flipped(n)) - set(_flipped(b)))) for n in options if abs(es[n] - chosen) <= 0.0001)
    return str([list(m) for m in moves])[1:-1]


@pytest.fixture(scope="module")
def source():
    return {(s, f): _source_solve(SCORES[s], RULES_F[f]) for s in SCORES for f in RULES_F}


@pytest.fixture(scope="module")
def solved():
    return solutions(Rules())


# -- conventions ---------------------------------------------------------------------------------------
def test_board_conventions():
    assert source_board_id(board_mask([1, 2]), 9) == 127  # flipped 3..9, tile 1 the most significant bit
    assert source_board_id(board_mask(range(2, 10)), 9) == 256
    assert source_board_id(board_mask(range(1, 10)), 9) == 0
    assert source_board_string(board_mask([1, 2]), 9) == "1 2 - - - - - - -"
    assert flipped_sum(board_mask([1, 2]), Rules()) == 42
    for b in range(512):  # the id and the string describe the same board
        mask = sum(1 << (t - 1) for t in range(1, 10) if t not in _flipped(b))
        assert source_board_id(mask, 9) == b


# -- the published numbers --------------------------------------------------------------------------------
def test_example_board_and_known_values(solved):
    rules = Rules()
    scores = expected_score_table(rules, solved)
    assert scores.loc["traditional", "Max"] == pytest.approx(45 - 11.157508, abs=1e-6)
    assert scores.loc["traditional", "Min"] == pytest.approx(45 - 24.344562, abs=1e-6)
    assert scores.loc["traditional", "Highest Tile"] == pytest.approx(45 - 11.323147, abs=1e-6)
    a = board_exhibit(rules, "traditional", solved)
    row = a.loc[a["Board (Remaining)"] == "1 2 - - - - - - -"]
    assert row["Max ES"].item() == pytest.approx(float(Fraction(1520, 36)), abs=1e-12)  # 42.222...
    assert (scores["Max"] >= scores["Highest Tile"]).all() and (scores["Highest Tile"] >= scores["Min"]).all()


# -- row for row against the source's algorithm -----------------------------------------------------------
@pytest.mark.parametrize("scoring", list(SCORES))
def test_board_exhibits_match_the_source(scoring, source, solved):
    table = board_exhibit(Rules(), scoring, solved)
    expected_order = sorted(range(512), key=lambda b: sum(_flipped(b)))  # stable: ids ascending in a sum
    assert table["Board Id"].tolist() == expected_order
    for strategy in RULES_F:
        es = source[scoring, strategy][0]
        assert table[f"{strategy} ES"].tolist() == pytest.approx([es[b] for b in expected_order], abs=1e-9)


@pytest.mark.parametrize("scoring", list(SCORES))
def test_move_exhibits_match_the_source_cell_for_cell(scoring, source, solved):
    moves = move_exhibit(Rules(), scoring, solved)
    rows = []
    nexts = source[scoring, "Max"][1]
    for (b, roll), options in nexts.items():
        if options:
            rows.append((sum(_flipped(b)), " ".join("-" if t in _flipped(b) else str(t) for t in range(1, 10)), roll,
                         *(_source_cell(b, options, source[scoring, f][0], RULES_F[f]) for f in RULES_F)))
    rows.sort(key=lambda r: r[:3])
    ours = list(moves[["Board Sum", "Board (Remaining)", "Roll", "Max Move", "Min Move", "Highest Tile Move"]]
                .itertuples(index=False, name=None))
    assert ours == rows
    d = optimal_moves_exhibit(moves)
    assert len(d) == sum(r[3] != r[4] for r in rows)


def test_exceptions_match_the_source_row_for_row(source, solved):
    moves = move_exhibit(Rules(), "traditional", solved)
    table = exceptions(moves)
    assert len(comparison_exhibit(moves)) == 4040
    expected = [(b, roll) for (b, roll), options in source["traditional", "Max"][1].items()
                if options and _source_cell(b, options, source["traditional", "Max"][0], _max)
                != _source_cell(b, options, source["traditional", "Highest Tile"][0], _highest_tile)]
    assert len(table) == len(expected) == 181
    assert sorted(zip(table["Board Id"], table["Roll"], strict=True)) == sorted(expected)
    first = table.iloc[0]
    assert (first["Board (Remaining)"], first["Roll"], first["Max Move"], first["Highest Tile Move"]) == (
        "1 - 3 4 5 6 7 8 9", 12, "[4, 8]", "[3, 9]")


def test_exception_losses_are_the_exact_cost_of_the_highest_tile_pick(solved):
    rules = Rules()
    table = exception_losses(exceptions(move_exhibit(rules, "traditional", solved)), rules, solved)
    assert (table["Points Lost"] > 0).all() and (table["Kind"] == "genuine").all()
    worst = table.sort_values("Points Lost").iloc[-1]
    assert (worst["Board (Remaining)"], worst["Roll"], worst["Highest Tile Pick"]) == (
        "1 - - 4 5 6 7 8 -", 12, "[4, 8]")
    by_sum = solve(rules, "remaining-sum")
    open_tiles = board_mask([1, 4, 5, 6, 7, 8])
    after = {frozenset(m): v for m, v in by_sum.move_values(open_tiles, 12)}
    assert worst["Points Lost"] == pytest.approx(after[frozenset({4, 8})] - after[frozenset({5, 7})], abs=1e-12)


def test_tie_rule_lists_tied_moves_together(solved):
    moves = move_exhibit(Rules(), "all or nothing", solved)
    # {1, 2, 3} open, roll 3: shutting {3} or {1, 2} leaves a board won only by a 3: an exact tie
    row = moves[(moves["Board (Remaining)"] == "1 2 3 - - - - - -") & (moves["Roll"] == 3)]
    assert row["Max Move"].item() == "[1, 2], [3]"
    assert moves["Highest Tile Move"].str.contains("], [", regex=False).sum() > 0  # applied to that column too
    wide = move_exhibit(Rules(), "all or nothing", solved, tolerance=0.01)
    assert wide["Max Move"].str.count(r"\[").sum() > moves["Max Move"].str.count(r"\[").sum()


def test_score_shares_put_the_three_scorings_on_one_axis(solved):
    rules = Rules()
    long = expected_score_shares(expected_score_table(rules, solved), rules)
    assert len(long) == 9 and long["share of maximum"].between(0, 1).all()
    trad = long[(long["scoring"] == "traditional") & (long["strategy"] == "Max")]
    assert trad["share of maximum"].item() == pytest.approx((45 - 11.157508) / 45, abs=1e-7)


@pytest.mark.parametrize("rules", [Rules(tiles=5), Rules(tiles=5, moves="die-or-sum")], ids=str)
def test_the_worked_example_adds_up_to_the_boards_expected_score(rules):
    """The worked example lists every roll of the dice once, as a record writes it (totals, or the dice under
    die-or-sum), and its chance-weighted scores add up to the board's expected score in the engine's own
    exhibit: a roll read as the wrong outcome would not."""
    from stb_core.game import game_of
    from stb_core.sources.open_and_shut import example_part

    solved = solutions(rules)
    table = example_part(rules, solved)["example-board-1-2"]
    game = game_of(rules)
    assert sorted(table["roll"], key=str) == sorted(game.roll_column(list(game.chances(rules.dice))), key=str)
    assert table["probability"].sum() == pytest.approx(1, abs=1e-12)
    exhibit = board_exhibit(rules, "traditional", solved)
    board = exhibit.loc[exhibit["Board (Remaining)"] == "1 2 - - -", "Max ES"].item()
    assert table["contribution"].sum() == pytest.approx(board, abs=1e-12)


def test_one_tile_moves_make_the_fewest_tiles_half_true_by_the_rules():
    """Under die-or-sum every move shuts one tile, so the hypothesis' "fewest tiles" half cannot fail: the page
    says it is so by the rules, not as a finding."""
    from stb_core.sources.open_and_shut import pipeline

    texts = [p.findings["shapes"].text for p in pipeline(Rules(tiles=8, moves="die-or-sum")) if "shapes" in p.findings]
    assert texts and texts[0].startswith("Every move shuts one tile under these rules")


@pytest.mark.parametrize(("rules", "says"), [
    (Rules(tiles=2, sides=5, win_at_most=225), "the game is won before the first roll: no move is ever chosen"),
    (Rules(tiles=8, dice=1, sides=11, max_per_move=1, win_at_most=1), "no decision in play changes the score"),
    (Rules(tiles=4, dice=1), "the highest-tile rule loses nothing"),
], ids=["won-at-start", "no-choice", "a-choice"])
def test_a_rule_that_loses_nothing_says_whether_it_was_put_to_the_test(rules, says):
    """"The hypothesis holds" only where some roll offers moves worth different scores; a game won before the first
    roll, or one where best and worst play score the same (one die, one tile a roll), never tests it (a fuzz reader)."""
    from stb_core.sources.open_and_shut import pipeline

    verdict = next(p.findings["verdict"].text for p in pipeline(rules, 0.3) if "verdict" in p.findings)
    assert says in verdict, verdict
    assert ("so the hypothesis holds." in verdict) == (says == "the highest-tile rule loses nothing")
