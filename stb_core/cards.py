"""Strategy cards: short rules a person can memorise, each valued exactly as a policy, and the search for
the best one.

A card is an ordered list of lines, each a **criterion** a player can apply at the table by looking at the
open tiles, the roll and the candidate moves ("shut the fewest tiles", "keep 6, 7 and 8 open", ...). The
first line ranks the legal moves; the next line decides among the moves the first left equal, and so on;
moves that no line separates go to the tie-break (the first move in the usual order, lowest tiles first).
A card plays the dice by a line too, at the end: "roll one die when you may" or "roll one die when 6 or less is
left" (without one, a card always rolls all the dice).

Each criterion is a key of the move or of the board it leaves (:mod:`stb_core.policies`), an integer in
``[0, 2**20)``; a card packs its lines into one int64 (line 1 most significant): the move lines' keys and the
board lines' keys add up, so a card is a plain :class:`~stb_core.policies.Policy` with a move key and a left key,
valued by the same Bellman sweep as every other policy. :func:`search_cards` values every card of up to three
lines; cards that play the same move table are valued once, each move table by :func:`stb_core.valuation.evaluate`
as data.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .analysis import decision_losses
from .boards import pairs_on
from .choice import DICE_RULES, Ranking, choose, dice_plan, move_orders, no_loss, tie_ranks
from .game import Game, game_of, per_game
from .objectives import get_objective
from .policies import Policy, playable_outcomes, table_policy
from .rules import InputError, Rules
from .sweep import solve
from .valuation import evaluate

LINE_BITS = 20  # each line's key is below 2**LINE_BITS; three lines fit an int64
PAIR_BYTES = 110  # measured: CardTables' pairs of the boards in play and a card's keys and choice, per pair
DICE_LINES = {"roll one die when you may": "one", "roll one die when 6 or less is left": "le6"}


@per_game
def playable_weight(game: Game) -> np.ndarray:
    """For every board: how many of the ``sides**dice`` throws of all the dice leave some legal move."""
    weight = np.zeros(game.states, dtype=np.int64)
    for code, throws in game.weights(game.rules.dice).items():
        moves = game.catalogue.of(code)
        if moves.size:
            weight += throws * game.legal(game.boards, moves).any(axis=1)
    weight.flags.writeable = False
    return weight


def _named(game: Game, tiles) -> int:
    """The positions of the tiles named ``tiles`` (on one row, the tiles themselves)."""
    return sum(1 << (game.layout.labels.index(str(t))) for t in tiles if str(t) in game.layout.labels)


def _value_range(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value among each move's tiles (``catalogue.flat``)."""
    flat = game.catalogue.flat
    values = np.array(game.tile_values, dtype=np.int64)
    bits = (flat[:, None] >> np.arange(game.positions)[None, :]) & 1
    return np.where(bits, values, values.max() + 1).min(axis=1), np.where(bits, values, 0).max(axis=1)


def _counted(game: Game, moves: np.ndarray, mask: int) -> np.ndarray:
    return np.bitwise_count(moves & mask).astype(np.int64)


@dataclass(frozen=True)
class Criterion:
    """One line of a card: what it says, and its key -- of the move (``on`` "move": one per move of
    ``catalogue.flat``) or of the board it leaves (``on`` "left": one per board); larger preferred, 0 to 2**20."""

    text: str
    on: str
    key: Callable[[Game], np.ndarray]


CRITERIA: dict[str, Criterion] = {criterion.text: criterion for criterion in [
    Criterion("shut the fewest tiles", "move", lambda g: g.positions - move_orders(g).count),
    Criterion("shut the most tiles", "move", lambda g: move_orders(g).count),
    Criterion("shut the highest tile you can", "move", lambda g: _value_range(g)[1]),
    Criterion("shut the lowest tile you can", "move", lambda g: max(g.tile_values) + 1 - _value_range(g)[0]),
    Criterion("shut tiles close together", "move",
              lambda g: max(g.tile_values) - (_value_range(g)[1] - _value_range(g)[0])),
    Criterion("keep 6, 7 and 8 open", "move",
              lambda g: 3 - _counted(g, g.catalogue.flat, _named(g, (6, 7, 8)))),
    Criterion("shut tiles above 6 first", "move",
              lambda g: _counted(g, g.catalogue.flat, sum(1 << b for b, v in enumerate(g.tile_values) if v > 6))),
    Criterion("keep 1 and 2 open", "move", lambda g: 2 - _counted(g, g.catalogue.flat, _named(g, (1, 2)))),
    Criterion("leave the most rolls playable", "left", playable_weight),
    Criterion("leave the most totals makeable", "left", playable_outcomes),
    Criterion("leave a sum the dice roll often", "left", lambda g: _ways_to_roll(g)[g.sums]),
    Criterion("leave an even sum", "left", lambda g: 1 - g.sums.astype(np.int64) % 2),
]}


def _ways_to_roll(game: Game) -> np.ndarray:
    """For each sum 0..total: the throws of all the dice showing it as their total (0 where none does)."""
    ways = np.zeros(game.total + 1, dtype=np.int64)
    for total, w in game.rules.roll_weights.items():
        if total <= game.total:
            ways[total] = w
    return ways


LINES = (*CRITERIA, *DICE_LINES)


def lines_for(rules: Rules) -> tuple[str, ...]:
    """The lines a card may use in this game: the dice lines where some board in play offers a choice of dice, and
    each move line whose key is not the same for every move (or every board left) of the game -- a line naming
    tiles the board lacks ("keep 6, 7 and 8 open" on tiles 1-5), "shut tiles above 6 first" with no such tile, or
    "roll one die when you may" where one die is never a choice can never decide anything, and a card printing it
    would name what the game does not have."""
    game = game_of(rules)
    choosing = game.choosing_dice.size > 0
    return tuple(line for line in LINES if (choosing if line in DICE_LINES else
                                            np.unique(CRITERIA[line].key(game)).size > 1))


@dataclass(frozen=True)
class Card:
    """A rule a player can memorise: lines applied in order, each deciding among the moves the lines
    above left equal (then the first move in the usual order)."""

    lines: tuple[str, ...]

    def __post_init__(self) -> None:
        unknown = [line for line in self.lines if line not in LINES]
        if unknown:
            raise InputError(f"card lines must be among {', '.join(LINES)}; got {unknown[0]!r}")
        if len(set(self.lines)) != len(self.lines):
            raise InputError(f"a card names each line once; got {self.lines}")
        if sum(line in DICE_LINES for line in self.lines) > 1:
            raise InputError(f"a card has at most one dice line; got {self.lines}")

    @property
    def name(self) -> str:
        return "; then ".join(self.lines)

    @property
    def move_lines(self) -> tuple[str, ...]:
        return tuple(line for line in self.lines if line not in DICE_LINES)

    @property
    def dice_rule(self) -> str:
        """The card's dice rule (a key of ``policies.DICE_RULES``): its dice line's, else all the dice."""
        return next((DICE_LINES[line] for line in self.lines if line in DICE_LINES), "all")

    def policy(self) -> Policy:
        """The card as a policy: its lines packed into one key, larger preferred (the move lines' part and the
        board lines' part added)."""
        lines = [CRITERIA[line] for line in self.move_lines]
        shifts = [LINE_BITS * (len(lines) - 1 - i) for i in range(len(lines))]

        def part(on: str):
            chosen = [(c, shift) for c, shift in zip(lines, shifts, strict=True) if c.on == on]
            if not chosen:
                return None
            return lambda game: sum(np.asarray(c.key(game), dtype=np.int64) << shift for c, shift in chosen)

        return Policy(self.name, move_key=part("move"), left_key=part("left"), dice_rule=self.dice_rule)


def all_cards(max_lines: int = 3, lines=LINES) -> list[Card]:
    """Every ordered choice of 1..max_lines distinct move lines, and each with one dice line last in place of
    its last move line (a dice line's place is moot: it decides the dice, not the moves)."""
    moves = [line for line in lines if line not in DICE_LINES]
    dice = [line for line in lines if line in DICE_LINES]
    cards = []
    for n in range(1, max_lines + 1):
        cards += [Card(c) for c in itertools.permutations(moves, n)]
        cards += [Card((*c, d)) for d in dice for c in itertools.permutations(moves, n - 1)]
    return cards


def _dice_rolled(rules: Rules) -> dict[str, bytes]:
    """For each dice rule, the dice it rolls on every board in play (as bytes, for :func:`_table_key`)."""
    game = game_of(rules)
    return {rule: np.ascontiguousarray(dice_plan(game, rule)[game.playing]).tobytes() for rule in DICE_RULES}


def _table_key(sigma: np.ndarray, dice: bytes) -> str:
    """What a card plays, as a hash: its move table, and the dice its dice rule rolls on every board in play
    (:func:`_dice_rolled`: two dice lines that roll alike on this game -- "when you may" and "when 6 or less is
    left" under a sum-le-6 rule -- are one strategy)."""
    digest = hashlib.sha1(np.ascontiguousarray(sigma).tobytes())
    digest.update(dice)
    return digest.hexdigest()


def tables_bytes(rules: Rules) -> int:
    """The peak memory of a card search's :class:`CardTables`: every (board, move) pair of the game at once
    (measured within 10% from 66 thousand to 38 million pairs)."""
    from .cost import ENGINE_BYTES, solve_cost

    return ENGINE_BYTES + solve_cost(rules).pairs * PAIR_BYTES


class CardTables:
    """Every (board, move) pair of every outcome on the boards still in play, with each criterion's key, computed
    once: a card's move table is then one choice per outcome (:meth:`sigma`) -- the card's ranking, without
    recomputing the keys for each card."""

    def __init__(self, rules: Rules, lines=LINES):
        self.game = game = game_of(rules)
        self.pairs = pairs_on(game, game.playing)  # every outcome at once
        self.keys = {line: np.asarray(CRITERIA[line].key(game), dtype=np.int64) for line in lines
                     if line not in DICE_LINES}

    def sigma(self, card: Card) -> np.ndarray:
        """The card's move table ``sigma[S, r - lo]`` (move indices, -1: none)."""
        game = self.game
        parts = {"move": None, "left": None}
        for i, line in enumerate(card.move_lines):
            on = CRITERIA[line].on
            shifted = self.keys[line] << (LINE_BITS * (len(card.move_lines) - 1 - i))
            parts[on] = shifted if parts[on] is None else parts[on] + shifted
        ranking = Ranking(card.name, move_key=parts["move"], left_key=parts["left"], rank=tie_ranks(game, 0))
        catalogue, pairs = game.catalogue, self.pairs
        table = np.full((game.states, catalogue.width), -1, dtype=catalogue.index_dtype)
        if pairs.parent.size:
            chosen = choose(game, ranking, pairs, None, +1)
            table[pairs.parent[chosen], pairs.code[chosen] - catalogue.lo] = pairs.move[chosen]
        return table


def search_cards(rules: Rules, objectives=("win", "remaining-sum"), max_lines: int = 3, lines=None,
                 progress=None) -> pd.DataFrame:
    """Every card of up to ``max_lines`` lines (of ``lines``, default: :func:`lines_for` the rules) valued exactly
    under each objective: one row per (card, objective) with its value, the optimal value, the loss (>= 0, in the
    objective's units and in % of the optimum) and ``plays_as``: the simplest card playing the same moves (cards
    that never consult a line play like a shorter card and are valued once). Best first per objective: least
    loss, then fewest lines."""
    lines = lines_for(rules) if lines is None else lines
    cards = all_cards(max_lines, lines)
    tables, dice = CardTables(rules, lines), _dice_rolled(rules)
    optimal = {o: float(solve(rules, o).value()) for o in objectives}
    senses = {o: get_objective(o).sense for o in objectives}
    values: dict[str, dict[str, float]] = {}
    plays_as: dict[str, str] = {}
    rows = []
    for i, card in enumerate(cards):
        sigma = tables.sigma(card)
        key = _table_key(sigma, dice[card.dice_rule])
        if key not in values:
            policy = table_policy(card.name, sigma, card.dice_rule)
            values[key] = {o: float(evaluate(rules, o, policy).value()) for o in objectives}
            plays_as[key] = card.name
        for objective in objectives:
            value = values[key][objective]
            loss = senses[objective] * (optimal[objective] - value)
            rows.append({"card": card.name, "lines": len(card.lines), "objective": objective, "value": value,
                         "optimal_value": optimal[objective], "loss": loss,
                         "loss_percent": 100 * loss / abs(optimal[objective]) if optimal[objective] else 0.0,
                         "plays_as": plays_as[key]})
        if progress and (i + 1) % 250 == 0:
            progress(f"{i + 1} of {len(cards)} cards valued ({len(values)} distinct move tables)")
    table = pd.DataFrame(rows)
    table["loss"] = table["loss"].where(~no_loss(table["loss"]), 0.0)
    return table.sort_values(["objective", "loss", "lines", "card"], kind="stable").reset_index(drop=True)


def pareto_front(table: pd.DataFrame) -> pd.DataFrame:
    """From :func:`search_cards`: per objective and number of lines, the best card (least loss; ties by
    name), kept only where it improves on every shorter card."""
    best = table.sort_values(["objective", "lines", "loss", "card"], kind="stable").groupby(
        ["objective", "lines"], sort=True).head(1)
    keep = best.groupby("objective")["loss"].transform(lambda s: s < s.cummin().shift(fill_value=np.inf))
    return best[keep].reset_index(drop=True)


def fronts_by_rules(rules_by_label: dict[str, Rules], objectives=("win", "remaining-sum"), max_lines: int = 3,
                    progress=None) -> pd.DataFrame:
    """The Pareto front (:func:`pareto_front`) of each labelled rule set, one table: ``rules`` (the label),
    objective, lines, card and its loss in % of the optimum. ``progress`` hears about each rule set."""
    parts = []
    for label, rules in rules_by_label.items():
        front = pareto_front(search_cards(rules, objectives, max_lines))
        parts.append(front[["objective", "lines", "card", "loss_percent"]].assign(rules=label))
        if progress:
            progress(f"cards searched on {label}")
    return pd.concat(parts, ignore_index=True)[["rules", "objective", "lines", "card", "loss_percent"]]


def card_losses(rules: Rules, card: Card, objective="win", top: int = 10) -> pd.DataFrame:
    """The decisions that cost ``card`` the most (loss judged with optimal play afterwards, weighted by how
    often the card faces them): the exceptions worth learning."""
    table = decision_losses(rules, objective, card.policy())
    costly = table[~no_loss(table["loss"])].sort_values("weighted_loss", ascending=False, kind="stable").head(top)
    return costly.reset_index(drop=True)
