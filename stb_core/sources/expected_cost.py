"""Source 004, "Shut the box!" as a Markov decision process (R): its tables, from the engine.

The source minimises the expected sum left open (the engine's ``remaining-sum`` objective). Its R code lists
the legal actions of a (state, roll) as ``combn`` does — by number of tiles, then lexicographically — and
its ``optimal_action`` takes ``which.min`` of their values, so exact ties go to the first action in that
order. The functions here follow that order, using exact values so that ties are recognised exactly.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from ..boards import board_label, board_mask, board_tiles, legal_moves
from ..rules import Rules
from ..solve import Solution, solve


def r_order(moves: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Moves in the order of the source's ``valid_actions``: by number of tiles, then lexicographically."""
    return sorted(moves, key=lambda m: (len(m), m))


def source_optimal_action(solution: Solution, board: int, roll: int) -> tuple[int, ...] | None:
    """The source's ``optimal_action``: the first action in R's order among those best for the solution's
    objective (the least value for a cost such as ``remaining-sum``, the largest for the chance of winning)."""
    moves = r_order(legal_moves(solution.rules, board, roll))
    if not moves:
        return None
    sense = solution.objective.sense
    return min(moves, key=lambda m: -sense * solution.values[board & ~board_mask(m)])  # min keeps the first tie


def state_value_table(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """Every non-empty state with its minimum expected cost, mean open tile and number of open tiles."""
    solution = solution or solve(rules, "remaining-sum", exact=rules.tiles <= 12)
    rows = [{"label": board_label(m), "board_mask": m, "value": float(solution.values[m]),
             "state_average": sum(board_tiles(m)) / len(board_tiles(m)), "tiles_open": len(board_tiles(m))}
            for m in range(1, rules.states)]
    return pd.DataFrame(rows)


def largest_tile_exceptions(rules: Rules, solution: Solution | None = None) -> pd.DataFrame:
    """The source's table: (state, roll) pairs where the optimal action does not shut the largest tile any
    legal action could shut; with the value after the optimal action and after the best action that does."""
    solution = solution or solve(rules, "remaining-sum", exact=rules.tiles <= 12)
    rows = []
    states = sorted(range(1, rules.states), key=lambda b: (len(board_tiles(b)), board_tiles(b)))  # the source's order
    for board in states:
        for roll in sorted(rules.roll_weights):
            moves = r_order(legal_moves(rules, board, roll))
            if not moves:
                continue
            best = source_optimal_action(solution, board, roll)
            largest = max(max(m) for m in moves)
            if max(best) == largest:
                continue
            with_largest = min((m for m in moves if largest in m),
                               key=lambda m: solution.values[board & ~board_mask(m)])
            rows.append({
                "state": board_label(board), "dice_total": roll,
                "valid_actions": "; ".join(board_label(board_mask(m)) for m in moves),
                "optimal_action": board_label(board_mask(best)),
                "value_after_optimal": float(solution.values[board & ~board_mask(best)]),
                "largest_tile_action": board_label(board_mask(with_largest)),
                "value_after_largest_tile_action": float(solution.values[board & ~board_mask(with_largest)]),
            })
    return pd.DataFrame(rows)


def highest_cost_states(table: pd.DataFrame, n: int = 6) -> pd.DataFrame:
    """The ``n`` states with the highest expected cost (the source's ``arrange(desc(value)) |> head()``;
    ties keep the source's state order: by number of tiles, then lexicographically)."""
    ordered = table.assign(order=[(len(board_tiles(m)), board_tiles(m)) for m in table["board_mask"]])
    ordered = ordered.sort_values("order", kind="stable").sort_values("value", ascending=False, kind="stable")
    return ordered[["label", "value"]].head(n).reset_index(drop=True)


def cost_trend(table: pd.DataFrame) -> pd.DataFrame:
    """From :func:`state_value_table`: per number of open tiles, how many states and the rank correlation
    between the mean open tile and the expected cost (1: the cost always rises with the mean tile)."""
    rows = []
    for count, group in table.groupby("tiles_open"):
        correlation = group["state_average"].rank().corr(group["value"].rank()) if len(group) > 1 else float("nan")
        rows.append({"tiles_open": count, "states": len(group), "rank_correlation": correlation})
    return pd.DataFrame(rows)


def hand_arithmetic_4_5() -> Fraction:
    """The source's formula for P(win from {4, 5}), as written: 3/36 * 3/36 + 4/36 * 4/36 + 4/36."""
    return Fraction(3, 36) * Fraction(3, 36) + Fraction(4, 36) * Fraction(4, 36) + Fraction(4, 36)
