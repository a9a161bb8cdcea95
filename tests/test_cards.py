"""Strategy cards: each card's value against an independent evaluation of the same rule, and the search."""

import pytest
from reference import reference_solver

from stb_core import Rules, RulesError, evaluate
from stb_core.cards import Card, card_losses, pareto_front, search_cards


def _by_hand(lines):
    """The card's rule written out plainly on tuples of tiles (independent of the vectorised keys)."""
    def key(open_tiles, roll, move):
        after = set(open_tiles) - set(move)
        values = []
        for line in lines:
            if line == "shut the fewest tiles":
                values.append(-len(move))
            elif line == "shut the highest tile you can":
                values.append(max(move))
            elif line == "shut the lowest tile you can":
                values.append(-min(move))
            elif line == "keep 6, 7 and 8 open":
                values.append(-len({6, 7, 8} & set(move)))
            elif line == "leave an even sum":
                values.append(sum(after) % 2 == 0)
            elif line == "leave a sum the dice roll often":
                values.append(6 - abs(sum(after) - 7) if 2 <= sum(after) <= 12 else 0)
            else:
                raise ValueError(line)
        return values

    def policy(open_tiles, roll, moves):
        best = max(key(open_tiles, roll, m) for m in moves)
        return min(m for m in moves if key(open_tiles, roll, m) == best)  # then the first in canonical order

    return policy


@pytest.mark.parametrize("lines", [("shut the fewest tiles",), ("shut the lowest tile you can",),
                                   ("keep 6, 7 and 8 open", "shut the highest tile you can"),
                                   ("leave an even sum", "shut the fewest tiles"),
                                   ("leave a sum the dice roll often", "shut the lowest tile you can")])
@pytest.mark.parametrize("objective", ["win", "remaining-sum"])
def test_card_value_equals_an_independent_evaluation(lines, objective):
    rules = Rules(tiles=8)
    value, _, _ = reference_solver(rules, objective, _by_hand(lines))
    card = evaluate(rules, objective, Card(lines).policy(), exact=True)
    assert card.value() == value(frozenset(range(1, 9)))


@pytest.mark.parametrize(("one_die", "line", "one_where"), [
    ("sum-le-6", "roll one die when you may", lambda tiles: sum(tiles) <= 6),
    ("sum-le-3", "roll one die when you may", lambda tiles: sum(tiles) <= 3),
    ("sum-le-3", "roll one die when 6 or less is left", lambda tiles: sum(tiles) <= 3),
    ("high-shut", "roll one die when 6 or less is left", lambda tiles: sum(tiles) <= 6),
    ("high-shut", "roll one die when you may", lambda tiles: max(tiles) < 7),
])
def test_dice_line_rolls_one_die_where_allowed_and_only_there(one_die, line, one_where):
    """A dice line rolls one die where it says and the rules allow it (on one row, sum-le-K allows it when the open
    tiles total K or less, high-shut once no tile from 7 up is open), all the dice everywhere else."""
    rules = Rules(tiles=7, one_die=one_die)
    card = evaluate(rules, "win", Card(("shut the fewest tiles", line)).policy())
    plain = evaluate(rules, "win", Card(("shut the fewest tiles",)).policy())
    boards = [[t + 1 for t in range(7) if b >> t & 1] for b in range(1, rules.states)]
    expected = [1 if one_where(tiles) else 2 for tiles in boards]
    assert card.dice[1:].tolist() == expected and (plain.dice == 2).all()


def test_unknown_or_repeated_line():
    with pytest.raises(RulesError, match="card lines must be among"):
        Card(("shut everything",))
    with pytest.raises(RulesError, match="names each line once"):
        Card(("shut the fewest tiles", "shut the fewest tiles"))


def test_search_values_every_card_and_the_front_improves():
    rules = Rules(tiles=7)
    table = search_cards(rules, ("win",), max_lines=2)
    assert (table["loss"] >= 0).all()
    # cards that play alike are valued once: every card's value is still its own policy's, valued afresh
    for row in table.iloc[::37].itertuples():
        own = evaluate(rules, "win", Card(tuple(row.card.split("; then "))).policy(), exact=True).value()
        assert float(own) == pytest.approx(row.value, abs=1e-15), row.card
    best = pareto_front(table).iloc[-1]
    card = Card(tuple(best["card"].split("; then ")))
    assert float(evaluate(rules, "win", card.policy()).value()) == pytest.approx(best["value"], abs=1e-15)
    assert len(card_losses(rules, card)) > 0
