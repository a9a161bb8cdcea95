"""Strategy cards: short rules a person can memorise, each valued exactly as a policy, and the search for
the best one.

A card is an ordered list of lines, each a **criterion** a player can apply at the table by looking at the
open tiles, the roll and the candidate moves ("shut the fewest tiles", "keep 6, 7 and 8 open", ...). The
first line ranks the legal moves; the next line decides among the moves the first left equal, and so on;
moves that no line separates go to the tie-break (the first move in the usual order, lowest tiles first).
A card plays the dice by a line too, at the end: "roll one die when you may" or "roll one die when 6 or less is
left" (without one, a card always rolls all the dice).

Each criterion is a vectorised key of (board, child, move) arrays, larger preferred, an integer in
``[0, 2**20)``; a card's key packs its lines into one int64 (line 1 most significant), so a card is a plain
:class:`stb_core.policies.KeyRanked` policy and its value comes from the same Bellman sweep as every other
policy. :func:`search_cards` values every card of up to three lines; cards that play the same move table are
valued once.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .analysis import decision_losses
from .boards import tile_counts
from .game import game_of
from .objectives import get_objective
from .policies import KeyRanked, Pairs, TablePolicy, get_tie_break, pick_moves, playable_outcomes
from .rules import InputError, Rules
from .sweep import solve
from .valuation import evaluate

LINE_BITS = 20  # each line's key is below 2**LINE_BITS; three lines fit an int64
DICE_LINES = {"roll one die when you may": "one", "roll one die when 6 or less is left": "le6"}

Key = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@lru_cache(maxsize=16)
def playable_weight(rules: Rules) -> np.ndarray:
    """For every board: how many of the ``sides**dice`` throws of all the dice leave some legal move."""
    game = game_of(rules)
    weight = np.zeros(rules.states, dtype=np.int64)
    for roll, p in game.chances(rules.dice, exact=True).items():
        moves = game.moves.moves(roll)
        if moves.size:
            weight += int(p * rules.outcomes) * game.legal(game.boards, moves).any(axis=1)
    return weight


def _mask(tiles) -> int:
    return sum(1 << (t - 1) for t in tiles)


def _lowest_tile(moves: np.ndarray) -> np.ndarray:
    return tile_counts((moves & -moves) - 1) + 1


@dataclass(frozen=True)
class Criterion:
    """One line of a card: what it says, and ``key(rules) -> (boards, children, moves) -> keys``."""

    text: str
    key: Callable[[Rules], Key]


CRITERIA: dict[str, Criterion] = {criterion.text: criterion for criterion in [
    Criterion("shut the fewest tiles", lambda r: lambda b, c, m: r.tiles - tile_counts(m)),
    Criterion("shut the most tiles", lambda r: lambda b, c, m: tile_counts(m)),
    Criterion("shut the highest tile you can", lambda r: lambda b, c, m: _highest(m)),
    Criterion("shut the lowest tile you can", lambda r: lambda b, c, m: r.tiles + 1 - _lowest_tile(m)),
    Criterion("shut tiles close together", lambda r: lambda b, c, m: r.tiles - (_highest(m) - _lowest_tile(m))),
    Criterion("keep 6, 7 and 8 open", lambda r: lambda b, c, m: 3 - tile_counts(m & _mask((6, 7, 8)))),
    Criterion("shut tiles above 6 first", lambda r: lambda b, c, m: tile_counts(m >> 6)),
    Criterion("keep 1 and 2 open", lambda r: lambda b, c, m: 2 - tile_counts(m & _mask((1, 2)))),
    Criterion("leave the most rolls playable", lambda r: lambda b, c, m: playable_weight(r)[c]),
    Criterion("leave the most totals makeable", lambda r: lambda b, c, m: playable_outcomes(r)[c]),
    Criterion("leave a sum the dice roll often",
              lambda r: lambda b, c, m: _ways_to_roll(r)[game_of(r).sums[c]]),
    Criterion("leave an even sum", lambda r: lambda b, c, m: 1 - game_of(r).sums[c].astype(np.int64) % 2),
]}


def _highest(moves: np.ndarray) -> np.ndarray:
    """The highest tile of each move (its bit length)."""
    return np.frexp(np.asarray(moves, dtype=float))[1].astype(np.int64)


def _ways_to_roll(rules: Rules) -> np.ndarray:
    """For each sum 0..total: the throws of all the dice showing it (0 where none does)."""
    ways = np.zeros(rules.total + 1, dtype=np.int64)
    for roll, w in rules.roll_weights.items():
        if roll <= rules.total:
            ways[roll] = w
    return ways


LINES = (*CRITERIA, *DICE_LINES)


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

    def policy(self) -> KeyRanked:
        """The card as a policy (its lines packed into one key, larger preferred)."""
        lines = [CRITERIA[line] for line in self.move_lines]

        def key(rules: Rules) -> Key:
            parts = [line.key(rules) for line in lines]

            def packed(boards, children, moves):
                total = np.zeros(np.shape(moves), dtype=np.int64)
                for part in parts:
                    total = (total << LINE_BITS) | np.asarray(part(boards, children, moves), dtype=np.int64)
                return total

            return packed

        return KeyRanked(self.name, key, dice_rule=self.dice_rule)


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


def _table_key(sigma: np.ndarray, dice_rule: str, rules: Rules) -> str:
    """What a card plays, as a hash: its move table, and its dice rule where the rules offer a choice."""
    digest = hashlib.sha1(np.ascontiguousarray(sigma).tobytes())
    digest.update((dice_rule if rules.offers_dice_choice else "-").encode())
    return digest.hexdigest()


class CardTables:
    """Every (board, move) pair of every roll on the boards still in play, with each criterion's key, computed
    once: a card's move table is then one choice per roll (:meth:`sigma`), the same as
    ``move_table(rules, card.policy())`` but without recomputing the keys for each card."""

    def __init__(self, rules: Rules, lines=LINES):
        self.rules = rules
        playing = game_of(rules).playing
        self.pairs = {roll: Pairs.on(rules, playing, roll, get_tie_break("canonical")) for roll in rules.roll_totals}
        self.keys = {line: {roll: np.asarray(CRITERIA[line].key(rules)(p.parent, p.child, p.move), dtype=np.int64)
                            for roll, p in self.pairs.items()} for line in lines if line not in DICE_LINES}

    def sigma(self, card: Card) -> np.ndarray:
        """The card's move table ``sigma[S, r]``."""
        rules = self.rules
        table = np.full((rules.states, max(rules.roll_totals) + 1), -1, dtype=np.int64)
        for roll, pairs in self.pairs.items():
            if pairs.parent.size == 0:
                continue
            packed = np.zeros(pairs.parent.size, dtype=np.int64)
            for line in card.move_lines:
                packed = (packed << LINE_BITS) | self.keys[line][roll]
            chosen = pick_moves(pairs.index, pairs.size, [(packed, False)], pairs.rank)
            table[pairs.parent[chosen], roll] = pairs.move[chosen]
        return table


def search_cards(rules: Rules, objectives=("win", "remaining-sum"), max_lines: int = 3, lines=LINES,
                 progress=None) -> pd.DataFrame:
    """Every card of up to ``max_lines`` lines valued exactly under each objective: one row per (card,
    objective) with its value, the optimal value, the loss (>= 0, in the objective's units and in % of the
    optimum) and ``plays_as``: the simplest card playing the same moves (cards that never consult a line
    play like a shorter card and are valued once). Best first per objective: least loss, then fewest lines."""
    cards = all_cards(max_lines, lines)
    tables = CardTables(rules, lines)
    optimal = {o: float(solve(rules, o).value()) for o in objectives}
    senses = {o: get_objective(o).sense for o in objectives}
    values: dict[str, dict[str, float]] = {}
    plays_as: dict[str, str] = {}
    rows = []
    for i, card in enumerate(cards):
        sigma = tables.sigma(card)
        key = _table_key(sigma, card.dice_rule, rules)
        if key not in values:
            policy = TablePolicy(card.name, sigma, card.dice_rule)
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
    table["loss"] = table["loss"].where(table["loss"].abs() > 1e-12, 0.0)
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
    costly = table[table["loss"] > 0].sort_values("weighted_loss", ascending=False, kind="stable").head(top)
    return costly.reset_index(drop=True)
