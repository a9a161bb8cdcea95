"""The beyond-the-sources tables: variants, strategy cards, disagreements, scaling, two players, notebook helpers."""

from fractions import Fraction

import pandas as pd
import pytest

from stb_core import Rules, RulesError, solve
from stb_core.notebook import (
    FAIL,
    NOT_APPLICABLE,
    PASS,
    ParameterError,
    check_parameters,
    consistency_checks,
    reproduction_checks,
    save_table,
)
from stb_core.overview import (
    Card,
    best_card,
    card_policy,
    card_table,
    disagreement_summary,
    more_tiles_table,
    variant_rules,
    variants_table,
)
from stb_core.two_player import simulate_two_player, two_player_game


def test_variants_table_forced_and_optional_agree_for_optimal_play():
    table = variants_table(tiles=(7,)).set_index(["variant", "objective", "policy"])["value"]
    for objective in ("win", "remaining-sum", "flipped-count"):
        allowed = table[("one die allowed at 6 or less", objective, "optimal")]
        assert allowed == pytest.approx(table[("one die forced at 6 or less", objective, "optimal")], abs=1e-12)
    wins = table.xs("win", level="objective")
    assert wins.between(0, 1).all()


def test_unknown_variant_and_card_line():
    with pytest.raises(RulesError, match="variant must be one of two dice always"):
        variant_rules("three dice sometimes")
    with pytest.raises(RulesError, match="card lines must be among"):
        card_policy(Card(("shut everything",)), Rules())


def test_two_line_card_is_the_highest_tile_policy():
    """'fewest tiles, then the highest tile' written as a card gives source 002's rule exactly."""
    rules = Rules(tiles=8)
    card = card_policy(Card(("shut the fewest tiles", "shut the highest tile you can")), rules)
    for objective in ("win", "remaining-sum"):
        assert solve(rules, objective, card, exact=True).value() == solve(rules, objective, "highest-tile",
                                                                          exact=True).value()


def test_card_table_and_best_card():
    table = card_table(Rules(tiles=7), "win")
    assert table.loc[0, "rule"].startswith("optimal") and (table["loss"] >= -1e-12).all()
    card = best_card(table, margin_percent=100)
    assert card["lines"] == 1
    strict = best_card(table, margin_percent=0)  # none within 0%: the best card of all
    assert strict["loss"] == table[table["lines"].fillna(0) > 0]["loss"].min()


def test_disagreements_on_nine_tiles():
    summary = disagreement_summary(Rules()).set_index("compared with")
    assert summary.loc["sum-optimal move", "pairs where it costs the win"] == 85
    assert (summary["share"] < 1).all()


def test_more_tiles_zero_beyond_twelve_with_two_dice():
    table = more_tiles_table(14, dice=(2, 3))
    two = table[table["dice"] == 2].set_index("tiles")
    assert (two.loc[13:, "p_win"] == 0).all() and (two.loc[:12, "p_win_exact"] != "").all()
    assert float(Fraction(two.loc[9, "p_win_exact"])) == pytest.approx(two.loc[9, "p_win"], abs=1e-15)
    assert (table[table["dice"] == 3].set_index("tiles").loc[13:, "p_win"] > 0).all()


def test_two_player_simulation_covers_the_exact_values():
    result = two_player_game(Rules(tiles=6))
    simulated = simulate_two_player(result, 50_000, seed=3)
    for name in ("first_wins", "tie", "second_wins"):
        assert simulated[f"{name}_low"] <= float(getattr(result, f"p_{name}")) <= simulated[f"{name}_high"]


# -- notebook helpers ---------------------------------------------------------------------------------
def test_check_parameters_rejects_unknown_and_mistyped():
    defaults = {"tiles": 9, "seed": 1, "margin": 2.5}
    check_parameters({"tiles": 9, "seed": 1, "margin": 3, "pd": pd, "STEM": "x"}, defaults)
    with pytest.raises(ParameterError, match="unknown parameter 'tilez'; this notebook's parameters are: margin"):
        check_parameters({"tiles": 9, "seed": 1, "margin": 2.5, "tilez": 10}, defaults)
    with pytest.raises(ParameterError, match="parameter 'tiles' must be int"):
        check_parameters({"tiles": "nine", "seed": 1, "margin": 2.5}, defaults)
    with pytest.raises(ParameterError, match="parameter 'seed' must be int"):
        check_parameters({"tiles": 9, "seed": True, "margin": 2.5}, defaults)


def test_reproduction_checks_pass_fail_and_not_applicable():
    table = reproduction_checks("06-whole-map", {"riddler_value": 0.0976137, "source000_rule": 0.05})
    assert list(table["check"]) == [PASS, FAIL, NOT_APPLICABLE]
    assert set(reproduction_checks("06-whole-map", {"riddler_value": 0.0976137}, applicable=False)["check"]) == {
        NOT_APPLICABLE}
    with pytest.raises(KeyError, match="no published figure"):
        reproduction_checks("06-whole-map", {"nonsense": 1})
    assert list(consistency_checks([("a", "b", 1.0, True), ("c", "d", 2, False)])["check"]) == [PASS, FAIL]


def test_save_table_is_byte_stable(tmp_path, monkeypatch):
    monkeypatch.setenv("STB_OUTPUT_ROOT", str(tmp_path))
    table = pd.DataFrame({"board": ["{1, 2}"], "value": [1 / 3]})
    first = save_table(table, "run", "t").read_bytes()
    assert save_table(table, "run", "t").read_bytes() == first == b"board,value\n\"{1, 2}\",0.3333333333\n"
