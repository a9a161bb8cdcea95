"""The choice machinery on hand-made cases: tie-break orders by tile value, the one equality rule, and the two
places where one fact had two homes (the outcomes a throw can show; a card's dice at its boundary)."""

import numpy as np
import pytest
from reference import dice_options, outcomes, positions, reachable_states, reference_solver
from reference import moves as reference_moves
from test_cards import _by_hand

from stb_core import InputError, Rules, board_tiles, evaluate, game_of, key_policy
from stb_core.boards import board_mask
from stb_core.cards import Card, search_cards
from stb_core.choice import TIE_BREAKS, VALUE_RTOL, no_loss, same_value
from stb_core.sources.whole_map import pairs_with_choice


def ranked(rules, tie_break, code):
    """The moves of outcome ``code`` in the tie-break's order of preference, in the tiles' own names."""
    game = game_of(rules)
    moves = game.catalogue.of(code)
    first = game.catalogue.starts[code - game.catalogue.lo]
    rank = TIE_BREAKS[tie_break].rank(game)[first:first + moves.size]
    return [game.layout.label(int(moves[i])) for i in np.argsort(rank)]


def test_tie_breaks_order_a_roll_of_9_as_they_say():
    rules = Rules()
    assert ranked(rules, "canonical", 9) == ["{1, 2, 6}", "{1, 3, 5}", "{1, 8}", "{2, 3, 4}", "{2, 7}", "{3, 6}",
                                              "{4, 5}", "{9}"]
    assert ranked(rules, "fewest-tiles", 9) == ["{9}", "{1, 8}", "{2, 7}", "{3, 6}", "{4, 5}", "{1, 2, 6}",
                                                 "{1, 3, 5}", "{2, 3, 4}"]
    assert ranked(rules, "most-tiles", 9) == ["{1, 2, 6}", "{1, 3, 5}", "{2, 3, 4}", "{1, 8}", "{2, 7}", "{3, 6}",
                                               "{4, 5}", "{9}"]


def test_tie_breaks_compare_tile_values_not_positions_on_double_shutter():
    """A back tile ranks as its value: {1, 3} (3 then 1) before {2, b2} (2 then 2), although b2 sits at a higher bit
    than 3; equal values fall back on the canonical order ({1, 3} before {1, b3})."""
    order = ranked(Rules(layout="double-shutter"), "fewest-tiles", 4)
    assert order[:2] == ["{4}", "{b4}"]
    assert order.index("{1, 3}") < order.index("{1, b3}") < order.index("{2, b2}")
    assert order.index("{3, b1}") < order.index("{2, b2}")


def test_same_value_and_no_loss():
    assert same_value(1.0, 1.0 + 0.5 * VALUE_RTOL) and not same_value(1.0, 1.0 + 3 * VALUE_RTOL)
    assert no_loss(-1e-13) and no_loss(0.0) and not no_loss(2e-12)


@pytest.mark.parametrize("rules", [Rules(moves="die-or-sum"), Rules(tiles=6, moves="die-or-sum", one_die="sum-le-6"),
                                   Rules(layout="double-shutter", tiles=4), Rules(tiles=7)], ids=str)
def test_pairs_with_a_choice_count_every_outcome_of_the_dice(rules):
    """Under die-or-sum an outcome is the pair of dice, not their total: counted by the reference over every board
    a player can face and every outcome a throw of the dice can show (the engine once counted totals)."""
    expected = 0
    for board in reachable_states(rules):
        expected += sum(len(reference_moves(rules, board, o)) >= 2
                        for o in {o for d in dice_options(rules, board) for o in outcomes(rules, d)})
    assert pairs_with_choice(rules) == expected


def test_cards_are_searched_under_the_thai_style():
    """Every one-line card valued on die-or-sum rules (an IndexError before), each value that of its own policy."""
    rules = Rules(tiles=6, moves="die-or-sum")
    table = search_cards(rules, ("win",), 1)
    assert len(table) > 0 and (table["loss"] >= 0).all()
    for row in table.itertuples():
        card = Card(tuple(row.card.split("; then ")))
        assert float(evaluate(rules, "win", card.policy()).value()) == pytest.approx(row.value, abs=1e-15)


@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_a_card_rolls_one_die_at_exactly_6_left(objective):
    """The dice line "when 6 or less is left" at its boundary, on the Riddler's rules (one die once 7 and up are
    shut): the card against the reference solver playing the same rule written out by hand."""
    rules = Rules(tiles=7, one_die="high-shut")
    lines = ("shut the fewest tiles",)
    value, _, dice = reference_solver(rules, objective, _by_hand(lines), dice_rule="le6")
    card = evaluate(rules, objective, Card((*lines, "roll one die when 6 or less is left")).policy(), exact=True)
    assert card.value() == value(frozenset(positions(rules)))
    six = board_mask([1, 5])
    assert card.dice[six] == dice(frozenset({1, 5})) == 1 and card.dice[board_mask([1, 6])] == 2


def test_keys_must_be_one_integer_per_move():
    with pytest.raises(InputError, match="policy 'halves' must give one integer key per move"):
        evaluate(Rules(tiles=5), "win", key_policy("halves", move=lambda game: game.catalogue.flat / 2))
    with pytest.raises(InputError, match="key_policy needs"):
        key_policy("nothing")


@pytest.mark.parametrize("rules", [Rules(tiles=9), Rules(tiles=12, dice=3, sides=4),
                                   Rules(tiles=10, one_die="sum-le-6"), Rules(tiles=8, dice=1, sides=20),
                                   Rules(tiles=7, win_at_most=4)])
def test_the_totals_a_board_makes_count_its_playable_outcomes_as_the_moves_do(rules):
    """The one-pass count of the totals each board can make (the most-options key on a plain game) is the count of
    the outcomes with a legal move, found move by move."""
    from stb_core.game import game_of
    from stb_core.policies import makeable_totals, over_outcomes, playable_outcomes

    game = game_of(rules)
    assert makeable_totals(game) is not None
    assert (playable_outcomes(game) == over_outcomes(game, lambda legal: legal.any(axis=1))).all()
    assert makeable_totals(game_of(Rules(tiles=6, max_per_move=2))) is None  # a cap: moves are not any set


@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_a_dice_rule_of_one_die_rolls_it_only_where_the_rules_allow(objective):
    """"Roll one die when you may" on the Riddler's rules (one die once 7 and up are shut): two dice from the full
    board and wherever a tile of 7 or more stands, against the reference solver playing the same rule."""
    rules = Rules(tiles=7, one_die="high-shut")
    lines = ("shut the fewest tiles",)
    value, _, dice = reference_solver(rules, objective, _by_hand(lines), dice_rule="one")
    played = evaluate(rules, objective, key_policy("fewest", move=lambda game: -np.array(
        [len(board_tiles(int(m))) for m in game.catalogue.flat]), dice_rule="one"), exact=True)
    assert played.value() == value(frozenset(positions(rules)))
    for mask in (rules.full_board, board_mask([1, 7]), board_mask([1, 6])):
        assert played.dice[mask] == dice(frozenset(board_tiles(mask)))
    assert played.dice[rules.full_board] == 2 and played.dice[board_mask([1, 6])] == 1
