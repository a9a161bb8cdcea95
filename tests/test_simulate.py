"""The simulator: seeded, deterministic, and within its interval of the exact values."""

import numpy as np
import pytest

from stb_core import Rules, evaluate, solve
from stb_core.monte_carlo import narrate_game, replay_rolls, simulate, wilson_interval
from stb_core.rules import RulesError
from stb_core.valuation import final_board_probabilities


def test_same_seed_same_games():
    sol = solve(Rules(), "win")
    a, b = simulate(sol, 20_000, seed=7), simulate(sol, 20_000, seed=7)
    ends = final_board_probabilities(sol)
    assert np.array_equal(a.board_counts, b.board_counts) and not a.board_counts[ends == 0].any()  # only real ends
    assert not np.array_equal(a.board_counts, simulate(sol, 20_000, seed=8).board_counts)


def test_chunks_keep_memory_flat_and_the_games_independent(monkeypatch):
    """Played a chunk at a time the games are the same kind of games: the summaries from chunks of 1,000 agree
    with the exact value as well as unchunked ones, and the per-board counts add up to the games played."""
    import stb_core.monte_carlo as monte_carlo

    sol = solve(Rules(), "win")
    monkeypatch.setattr(monte_carlo, "CHUNK_GAMES", 1_000)
    seen = []
    result = simulate(sol, 30_500, seed=3, progress=lambda done, total: seen.append(done))
    assert seen == [*range(1_000, 30_001, 1_000), 30_500]
    assert abs(result.z_score(float(sol.value()))) < 4
    sums = np.repeat(result.sums, result.board_counts)
    assert result.mean_remaining_sum == pytest.approx(sums.mean(), rel=1e-12)
    assert result.mean_remaining_sum_ci[1] - result.mean_remaining_sum == pytest.approx(
        1.959963984540054 * sums.std(ddof=1) / np.sqrt(sums.size), rel=1e-9)


@pytest.mark.parametrize("rules,objective,policy", [
    (Rules(), "win", "optimal"),
    (Rules(tiles=10), "win", "sequence-count"),
    (Rules(tiles=10), "win", "random"),
    (Rules(one_die="high-shut"), "win", "optimal"),
    (Rules(one_die="sum-le-6", one_die_forced=True), "remaining-sum", "highest-tile"),
    (Rules(win_at_most=3, max_per_move=2), "remaining-sum", "worst"),
    (Rules(tiles=5, layout="double-shutter", one_die="sum-le-6"), "remaining-sum", "optimal"),  # front row double
    (Rules(moves="die-or-sum", one_die="sum-le-5"), "remaining-sum", "largest-tile"),
], ids=str)
def test_simulation_covers_the_exact_value(rules, objective, policy):
    """Fixed seeds, so these are deterministic; a 95% interval would miss 1 time in 20 by chance, so the
    test widens it to 4 standard errors (a miss then has chance 6e-5 for a correct engine)."""
    sol = evaluate(rules, objective, policy)
    result = simulate(sol, 200_000, seed=2024)
    exact = float(sol.value())
    if objective == "win":
        se = np.sqrt(exact * (1 - exact) / result.games)
        assert abs(result.win_rate - exact) <= 4 * se
    else:
        se = np.repeat(result.sums, result.board_counts).std(ddof=1) / np.sqrt(result.games)
        assert abs(result.mean_remaining_sum - exact) <= 4 * se


@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (0, 10, 0.0, 0.2775),      # Wilson's interval for 0 of 10 (Brown, Cai and DasGupta 2001, Table 5 style)
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (1, 1, 0.2065, 1.0),
])
def test_wilson_interval_known_values(successes, trials, low, high):
    lo, hi = wilson_interval(successes, trials)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_tiny_simulations_give_intervals_without_nan():
    result = simulate(solve(Rules(), "win"), 1, seed=1)
    assert result.win_rate_ci[0] >= 0 and result.win_rate_ci[1] <= 1
    assert result.mean_remaining_sum_ci == (0.0, 45.0)  # one game: no spread, the whole range
    assert not np.isnan(list(result.summary().values())).any()


def test_source_004_game_replayed():
    """The source's narrated game: rolls 8, 10, 6, 11, 3, 7 and the optimal (cost-minimising) actions."""
    turns = replay_rolls(solve(Rules(), "remaining-sum"), [8, 10, 6, 11, 3, 7])
    assert [t["move"] for t in turns] == [(8,), (1, 9), (6,), (4, 7), (3,), (2, 5)]
    assert turns[-1]["open_after"] == ()


def test_narrated_game_is_seeded_and_legal():
    sol = solve(Rules(), "remaining-sum")
    assert narrate_game(sol, seed=3) == narrate_game(sol, seed=3)
    for turn in narrate_game(sol, seed=3):
        if turn["move"] is not None:
            assert sum(turn["move"]) == turn["roll"] and set(turn["move"]) <= set(turn["open"])


@pytest.mark.parametrize("games,seed,message", [(0, 1, "games must be"), (10, -1, "seed must be"),
                                                ("5", 1, "games must be")])
def test_bad_simulation_input(games, seed, message):
    with pytest.raises(RulesError, match=message):
        simulate(solve(Rules(tiles=3)), games, seed)


@pytest.mark.parametrize("rules", [Rules(tiles=5, layout="double-shutter"), Rules(moves="die-or-sum")], ids=str)
def test_the_final_score_distribution_has_the_value_as_its_mean(rules):
    """What ``distribution`` shows: the final score's chances add up to one and their mean is the value of
    playing for the lowest score (on Double Shutter the score counts the front row double)."""
    from stb_core.valuation import final_sum_distribution

    solution = evaluate(rules, "remaining-sum", "optimal", exact=True)
    spread = final_sum_distribution(rules, solution=solution)
    assert sum(spread.values()) == 1
    assert sum(s * p for s, p in spread.items()) == solution.value()


def test_a_wilson_interval_holds_its_own_rate():
    """At no success and at every success the interval holds the observed rate (a hair past it, the figure's error
    bars were negative: a rerun of chapter 1 on a game never won crashed)."""
    from stb_core.monte_carlo import wilson_interval

    for games in (1, 7, 100, 3_000, 5_000, 20_000, 100_000, 10_000_000):
        for wins in (0, 1, games // 2, games - 1, games):
            low, high = wilson_interval(wins, games)
            assert 0 <= low <= wins / games <= high <= 1, (wins, games, low, high)


def test_a_replay_ends_with_the_game_and_refuses_a_roll_the_dice_cannot_show():
    from stb_core import InputError, Rules, solve
    from stb_core.monte_carlo import replay_rolls

    won_at_6 = solve(Rules(win_at_most=6), "remaining-sum")
    turns = replay_rolls(won_at_6, [9, 8, 7, 6, 5, 4, 3, 2])  # won at 6 or less left: after the sixth roll
    assert [sum(t["open_after"]) <= 6 for t in turns] == [False] * 5 + [True]
    forced = solve(Rules(one_die="sum-le-20", one_die_forced=True), "remaining-sum")
    with pytest.raises(InputError, match="roll 7 cannot be thrown from"):
        replay_rolls(forced, [8, 10, 6, 11, 3, 7])
