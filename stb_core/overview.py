"""Tables for the notebooks that go beyond the sources: every variant, every heuristic, strategy cards.

Everything here is a thin layer over :func:`stb_core.solve.solve` and :mod:`stb_core.analysis`: exact
values of named rule variants and policies, short memorisable rules ("strategy cards") evaluated exactly
as policies, opening moves, and how the game scales with the number of tiles.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .analysis import choice_disagreements
from .boards import board_label, board_mask, board_sum, move_catalogue, one_die_allowed, tile_counts
from .evaluate import final_sum_distribution
from .objectives import OBJECTIVES
from .rules import Rules, RulesError
from .solve import solve
from .tables import value_name

# The rule variants the sources and the pub tradition use (keyword arguments of ``Rules``).
VARIANTS = {
    "two dice always": {},
    "one die once 7-9 are shut": {"one_die": "high-shut"},
    "one die allowed at 6 or less": {"one_die": "sum-le-6"},
    "one die forced at 6 or less": {"one_die": "sum-le-6", "one_die_forced": True},
    "at most two tiles per roll, one die at 6 or less": {"max_per_move": 2, "one_die": "sum-le-6"},
    "won at 3 or less left": {"win_at_most": 3},
}


def variant_rules(variant: str, tiles: int = 9, dice: int = 2, sides: int = 6) -> Rules:
    """The ``Rules`` of a named variant; unknown names raise :class:`RulesError` listing the known ones."""
    if variant not in VARIANTS:
        raise RulesError(f"variant must be one of {', '.join(VARIANTS)}; got {variant!r}")
    return Rules(tiles=tiles, dice=dice, sides=sides, **VARIANTS[variant])


def variants_table(tiles=(9, 10), dice: int = 2, sides: int = 6, policies=("optimal", "worst")) -> pd.DataFrame:
    """Value of the full board for every variant x tiles x objective x policy (one row each)."""
    rows = []
    for variant, n, objective, policy in itertools.product(VARIANTS, tiles, OBJECTIVES, policies):
        if dice == 1 and "one_die" in VARIANTS[variant]:
            continue  # with one die there is no dice choice to make
        rules = variant_rules(variant, n, dice, sides)
        rows.append({"variant": variant, "tiles": n, "objective": objective, "value_name": value_name(objective),
                     "policy": policy, "value": float(solve(rules, objective, policy).value())})
    return pd.DataFrame(rows)


# -- heuristics and strategy cards ------------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    """A rule a player can memorise: criteria applied in order, ties broken by the next line (then by the
    first move in the usual order)."""

    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return " / then ".join(self.lines)


def _makeable_totals(rules: Rules) -> np.ndarray:
    """For every board: how many of the two-dice totals some set of its open tiles adds up to."""
    boards = np.arange(rules.states, dtype=np.int64)
    count = np.zeros(rules.states, dtype=np.int64)
    catalogue = move_catalogue(rules)
    for roll in rules.roll_weights:
        moves = catalogue.moves(roll)
        if moves.size:
            count += ((boards[:, None] & moves[None, :]) == moves[None, :]).any(axis=1)
    return count


CRITERIA = {
    "shut the fewest tiles": lambda move, board, makeable: -int(tile_counts(np.array([move]))[0]),
    "shut the highest tile you can": lambda move, board, makeable: move.bit_length(),
    "keep tiles 1 and 2 open": lambda move, board, makeable: -((move & 0b11) != 0) - ((move & 0b1) != 0),
    "leave the most totals makeable": lambda move, board, makeable: int(makeable[board & ~move]),
}


def card_policy(card: Card, rules: Rules):
    """The card as a policy function ``(open tiles, roll, legal moves) -> move`` for :func:`solve`."""
    unknown = [line for line in card.lines if line not in CRITERIA]
    if unknown:
        raise RulesError(f"card lines must be among {', '.join(CRITERIA)}; got {unknown[0]!r}")
    makeable = _makeable_totals(rules)
    keys = [CRITERIA[line] for line in card.lines]

    def choose(open_tiles, roll, moves):
        board = board_mask(open_tiles)
        return max(moves, key=lambda m: tuple(k(board_mask(m), board, makeable) for k in keys))

    return choose


def all_cards(max_lines: int = 2) -> list[Card]:
    """Every ordered choice of 1..max_lines distinct criteria."""
    return [Card(lines) for n in range(1, max_lines + 1) for lines in itertools.permutations(CRITERIA, n)]


def card_table(rules: Rules, objective="win", max_lines: int = 2, policies=("highest-tile", "sequence-count",
               "random", "worst")) -> pd.DataFrame:
    """Exact value and loss against the optimum of every strategy card and named policy, best first."""
    optimal = solve(rules, objective)
    sense = optimal.objective.sense
    rows = [{"rule": "optimal (the full table)", "lines": 0, "value": float(optimal.value())}]
    for policy in policies:
        rows.append({"rule": f"policy: {policy}", "lines": None,
                     "value": float(solve(rules, objective, policy).value())})
    for card in all_cards(max_lines):
        rows.append({"rule": card.name, "lines": len(card.lines),
                     "value": float(solve(rules, objective, card_policy(card, rules)).value())})
    table = pd.DataFrame(rows)
    table["loss"] = sense * (float(optimal.value()) - table["value"])
    table["loss_percent"] = 100 * table["loss"] / abs(float(optimal.value()))
    return table.sort_values(["loss", "rule"], kind="stable").reset_index(drop=True)


def best_card(table: pd.DataFrame, margin_percent: float) -> pd.Series:
    """The simplest card (fewest lines, then smallest loss) within ``margin_percent`` of the optimum;
    the best card of all when none is that close."""
    cards = table[table["lines"].fillna(0) > 0]
    close = cards[cards["loss_percent"] <= margin_percent]
    pool = close if len(close) else cards
    return pool.sort_values(["lines", "loss"], kind="stable").iloc[0]


# -- disagreements, endings, openings, scaling ---------------------------------------------------------
def disagreement_summary(rules: Rules) -> pd.DataFrame:
    """How often the win-optimal move differs from the sum-optimal and the highest-tile move, over every
    (board, roll) pair still in play with a choice, and what the differences cost."""
    win, total, highest = solve(rules, "win"), solve(rules, "remaining-sum"), solve(rules, "win", "highest-tile")
    pairs = _pairs_with_choice(rules)
    rows = []
    for label, other in (("sum-optimal move", total), ("highest-tile move", highest)):
        table = choice_disagreements(win, other)
        rows.append({"compared with": label, "pairs with a choice": pairs, "pairs where it costs the win": len(table),
                     "share": len(table) / pairs, "largest loss of win probability": table["loss_for_a"].max()})
    return pd.DataFrame(rows)


def _pairs_with_choice(rules: Rules) -> int:
    boards = np.arange(rules.states, dtype=np.int64)
    catalogue, count = move_catalogue(rules), 0
    for roll in rules.roll_totals:
        moves = catalogue.moves(roll)
        if moves.size:
            count += int((((boards[:, None] & moves[None, :]) == moves[None, :]).sum(axis=1) >= 2).sum())
    return count


def final_sum_table(tiles: int = 9, dice: int = 2, sides: int = 6, objective="remaining-sum") -> pd.DataFrame:
    """P(final sum left = s) under optimal play for ``objective``, one column per variant (long format)."""
    rows = []
    for variant in VARIANTS:
        if dice == 1 and "one_die" in VARIANTS[variant]:
            continue
        rules = variant_rules(variant, tiles, dice, sides)
        for s, p in final_sum_distribution(rules, objective).items():
            rows.append({"variant": variant, "final_sum": s, "probability": float(p)})
    return pd.DataFrame(rows)


def opening_moves(rules: Rules, objective="win") -> pd.DataFrame:
    """For each first roll: the best first move, the value after it, and the runner-up."""
    solution = solve(rules, objective)
    rows = []
    for roll in rules.roll_weights:
        moves = solution.move_values(rules.full_board, roll)
        if not moves:
            continue
        (best, value), *rest = moves
        rows.append({"roll": roll, "best_move": board_label(board_mask(best)), "value_after": float(value),
                     "runner_up": board_label(board_mask(rest[0][0])) if rest else "",
                     "runner_up_value": float(rest[0][1]) if rest else np.nan, "legal_moves": len(moves)})
    return pd.DataFrame(rows)


def dice_advice(rules: Rules, objective="win") -> pd.DataFrame:
    """Every board where the rules let the player choose one die: the value of each choice and the best."""
    solution = solve(rules, objective)
    sense = solution.objective.sense
    rows = []
    for board in range(1, rules.states):
        if rules.one_die == "never" or rules.one_die_forced or not one_die_allowed(rules, board):
            continue
        if board_sum(board) <= rules.win_at_most:
            continue
        values = solution.dice_values(board)
        one, many = float(values[1]), float(values[rules.dice])
        rows.append({"board": board_label(board), "board_mask": board, "open_sum": board_sum(board),
                     "value_one_die": one,
                     f"value_{rules.dice}_dice": many, "best": "one die" if sense * (one - many) > 0 else
                     (f"{rules.dice} dice" if sense * (many - one) > 0 else "either"),
                     "gain": abs(one - many), "one_die_minus_dice": one - many})
    return pd.DataFrame(rows)


def more_tiles_table(max_tiles: int = 16, dice=(2, 3), exact_up_to: int = 12, log=None) -> pd.DataFrame:
    """Optimal values of boards of 1..max_tiles tiles for each number of dice, with each solve's time.

    The win probability is also given as an exact fraction for two dice up to ``exact_up_to`` tiles.
    ``log`` (e.g. ``print``) is told about each board size as it is done: large boards take a while."""
    rows = []
    for d, n in itertools.product(dice, range(1, max_tiles + 1)):
        rules = Rules(tiles=n, dice=d)
        row = {"dice": d, "tiles": n}
        for objective in OBJECTIVES:
            start = time.perf_counter()
            exact = objective == "win" and d == 2 and n <= exact_up_to
            value = solve(rules, objective, exact=exact).value()
            row[f"{value_name(objective)}"] = float(value)
            row[f"seconds_{value_name(objective)}"] = time.perf_counter() - start
            if objective == "win":
                row["p_win_exact"] = str(value) if exact else ""
        rows.append(row)
        if log:
            log(f"{d} dice, {n} tiles: solved in {sum(v for k, v in row.items() if k.startswith('seconds')):.2f} s")
    return pd.DataFrame(rows)


__all__ = ["CRITERIA", "VARIANTS", "Card", "all_cards", "best_card", "card_policy", "card_table", "dice_advice",
           "disagreement_summary", "final_sum_table", "more_tiles_table", "opening_moves",
           "variant_rules", "variants_table"]
