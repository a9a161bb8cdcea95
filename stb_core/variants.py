"""The whole map: every rule variant, objective and policy, solved exactly; how games end; more tiles.

Thin layers over :func:`stb_core.solve.solve`, :func:`stb_core.evaluate.evaluate` and
:mod:`stb_core.analysis`, shaped as tidy tables (one row per case) for the whole-map notebook.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from .analysis import choice_disagreements, decision_losses, tied_pairs
from .boards import board_label, board_mask, board_space, legal_matrix, move_catalogue
from .evaluate import evaluate, final_sum_distribution
from .objectives import OBJECTIVES, get_objective
from .policies import TIE_BREAKS
from .rules import Rules, RulesError
from .solve import solve
from .tables import value_name

# The rule variants the sources and the pub tradition use (keyword arguments of ``Rules``).
VARIANTS = {
    "two dice always": {},
    "one die once 7–9 are shut": {"one_die": "high-shut"},
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
    """Value of the full board for every variant x tiles x objective x policy (one row each). With one die
    the one-die variants are the same game as "two dice always" (nothing to choose), and say so by their
    equal values."""
    rows = []
    for variant, n, objective, policy in itertools.product(VARIANTS, dict.fromkeys(tiles), OBJECTIVES, policies):
        rules = variant_rules(variant, n, dice, sides)
        rows.append({"variant": variant, "tiles": n, "objective": objective, "value_name": value_name(objective),
                     "policy": policy, "value": float(evaluate(rules, objective, policy).value())})
    return pd.DataFrame(rows)


def policy_prices(rules: Rules, policies: dict, objectives=OBJECTIVES) -> pd.DataFrame:
    """Exact value of each policy (``{label: policy}``) under each objective, and what it loses against
    optimal play: ``loss`` in the objective's units (>= 0) and ``loss_percent`` of the optimal value."""
    rows = []
    for objective in objectives:
        obj = get_objective(objective)
        best = float(solve(rules, obj).value())
        for label, policy in policies.items():
            value = float(evaluate(rules, obj, policy).value())
            loss = obj.sense * (best - value) + 0.0  # + 0.0: optimal play loses 0, not -0
            rows.append({"objective": obj.name, "value_name": value_name(obj), "policy": label, "value": value,
                         "optimal_value": best, "loss": loss,
                         "loss_percent": 100 * loss / abs(best) if best else 0.0})
    return pd.DataFrame(rows)


def loss_summary(rules: Rules, policies: dict, objective="win") -> pd.DataFrame:
    """For each policy (``{label: policy}``): its whole loss against optimal play, how many of the decisions
    it faces cost anything, the share of the loss in its ten costliest decisions, and the costliest one."""
    rows = []
    for label, policy in policies.items():
        table = decision_losses(rules, objective, policy)
        costly = table[table["loss"] > 0].sort_values("weighted_loss", ascending=False, kind="stable")
        total = float(table["weighted_loss"].sum())
        top = costly.iloc[0] if len(costly) else None
        rows.append({"policy": label, "total_loss": total, "decisions_faced": len(table),
                     "costly_decisions": len(costly),
                     "share_of_loss_in_top_10": float(costly["weighted_loss"].head(10).sum() / total) if total else 0.0,
                     "costliest_decision": "" if top is None else
                     (f"{top['board']}, roll {top['roll']}: {top['policy_move']} instead of {top['optimal_move']}"
                      if top["decision"] == "move" else f"{top['board']}: roll {top['dice']} dice")})
    return pd.DataFrame(rows)


# -- disagreements, endings, openings, ties --------------------------------------------------------------
def pairs_with_choice(rules: Rules) -> int:
    """How many (board, roll) pairs on boards still in play offer two or more legal moves."""
    playing = board_space(rules).playing
    catalogue = move_catalogue(rules)
    return sum(int((legal_matrix(playing, catalogue.moves(r)).sum(axis=1) >= 2).sum())
               for r in rules.roll_totals if catalogue.moves(r).size)


def disagreement_summary(rules: Rules) -> pd.DataFrame:
    """How often the win-optimal move differs from the sum-optimal and the highest-tile move, over every
    (board, roll) pair still in play with a choice, and what the differences cost."""
    win, total = solve(rules, "win"), solve(rules, "remaining-sum")
    highest = evaluate(rules, "win", "highest-tile")
    pairs = pairs_with_choice(rules)
    rows = []
    for label, other in (("sum-optimal move", total), ("highest-tile move", highest)):
        table = choice_disagreements(win, other)
        rows.append({"compared with": label, "pairs with a choice": pairs, "pairs where it costs the win": len(table),
                     "share": len(table) / pairs if pairs else 0.0,
                     "largest loss of win probability": float(table["loss_for_a"].max()) if len(table) else 0.0})
    return pd.DataFrame(rows)


def final_sum_table(tiles: int = 9, dice: int = 2, sides: int = 6, objective="remaining-sum") -> pd.DataFrame:
    """P(final sum left = s) under optimal play for ``objective``, one row per (variant, sum)."""
    rows = []
    for variant in VARIANTS:
        rules = variant_rules(variant, tiles, dice, sides)
        for s, p in final_sum_distribution(rules, objective).items():
            rows.append({"variant": variant, "final_sum": s, "probability": float(p)})
    return pd.DataFrame(rows)


def tie_break_table(rules: Rules, objectives=OBJECTIVES) -> pd.DataFrame:
    """For each objective: how many (board, roll) pairs have two or more equally good moves (where the
    tie-break decides), and the value of the full board under each tie-break (the same for all: ties
    change which moves are played, never the optimal value)."""
    rows, exact, with_choice = [], rules.tiles <= 12, pairs_with_choice(rules)
    for objective in objectives:
        canonical = solve(rules, objective, exact=exact)
        row = {"objective": objective, "tied_pairs": tied_pairs(canonical), "pairs_with_a_choice": with_choice}
        for name in TIE_BREAKS:
            row[f"value_{name}"] = float(solve(rules, objective, tie_break=name, exact=exact).value())
        rows.append(row)
    return pd.DataFrame(rows)


def tie_break_distributions(rules: Rules, objective="win", tie_breaks=tuple(TIE_BREAKS)) -> pd.DataFrame:
    """The exact final-sum distribution under optimal play for ``objective`` with each tie-break (one row
    per sum), and the spread between the tie-breaks for each sum (largest minus smallest probability)."""
    exact = rules.tiles <= 12
    columns = {name: final_sum_distribution(rules, objective, tie_break=name, exact=exact) for name in tie_breaks}
    sums = sorted({s for dist in columns.values() for s in dist})
    table = pd.DataFrame({"final_sum": sums})
    for name, dist in columns.items():
        table[name] = [float(dist.get(s, 0)) for s in sums]
    values = table[list(tie_breaks)]
    table["spread"] = values.max(axis=1) - values.min(axis=1)
    return table


def allowed_or_forced(variants: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    """From :func:`variants_table`: the value of every game with one die allowed or forced at 6 or less, side
    by side per (tiles, objective, policy); and whether the two rules are worth the same (to 1e-12) for
    optimal play under every objective."""
    rules = {"one die allowed at 6 or less": "allowed", "one die forced at 6 or less": "forced"}
    part = variants[variants["variant"].isin(rules)].assign(rule=lambda t: t["variant"].map(rules))
    table = part.pivot_table(index=["tiles", "objective", "policy"], columns="rule", values="value", sort=False)
    table = table.reset_index()[["tiles", "objective", "policy", "allowed", "forced"]].rename_axis(columns=None)
    optimal = table[table["policy"] == "optimal"]
    return table, bool((optimal["allowed"] - optimal["forced"]).abs().max() < 1e-12)


def solve_times(measured: pd.DataFrame) -> pd.DataFrame:
    """``make bench``'s path comparison (``data/bench/solve-times.csv``) as one row per board size: the median
    seconds and the peak memory of each sweep (numpy, compiled, and the plain loop it is held against)."""
    wide = measured.pivot(index="tiles", columns="sweep", values=["median_seconds", "peak_memory_gb"])
    order = [s for s in ("numpy", "compiled", "plain loop") if s in set(measured["sweep"])]
    table = pd.DataFrame({"tiles": wide.index, "boards": [1 << int(n) for n in wide.index]})
    for sweep in order:
        table[f"{sweep} seconds"] = wide["median_seconds"][sweep].to_numpy()
    for sweep in order:
        table[f"{sweep} peak GB"] = wide["peak_memory_gb"][sweep].to_numpy()
    return table


OPENING_COLUMNS = ["roll", "best_move", "value_after", "runner_up", "runner_up_value", "legal_moves"]


def opening_moves(rules: Rules, objective="win") -> pd.DataFrame:
    """For each first roll with a legal move: the best first move, the value after it, and the runner-up (None
    when the move is forced)."""
    solution = solve(rules, objective)
    rows = []
    for roll in rules.dice_weights(rules.dice):
        moves = solution.move_values(rules.full_board, roll)
        if not moves:
            continue
        (best, value), *rest = moves
        rows.append({"roll": roll, "best_move": board_label(board_mask(best)), "value_after": float(value),
                     "runner_up": board_label(board_mask(rest[0][0])) if rest else None,
                     "runner_up_value": float(rest[0][1]) if rest else np.nan, "legal_moves": len(moves)})
    return pd.DataFrame(rows, columns=OPENING_COLUMNS)


def dice_advice(rules: Rules, objective="win") -> pd.DataFrame:
    """Every board (not won) where the rules let the player choose one die: the value of each choice and
    which is better (``either`` when they are equal)."""
    solution = solve(rules, objective)
    sense, space = solution.objective.sense, board_space(rules)
    rows = []
    for board in space.choosing_dice.tolist():
        values = solution.dice_values(board)
        one, many = float(values[1]), float(values[rules.dice])
        best = "one die" if sense * (one - many) > 0 else (f"{rules.dice} dice" if sense * (many - one) > 0
                                                           else "either")
        rows.append({"board": board_label(board), "board_mask": board, "open_sum": int(space.sums[board]),
                     "value_one_die": one, "value_all_dice": many, "best": best, "gain": abs(one - many)})
    return pd.DataFrame(rows, columns=["board", "board_mask", "open_sum", "value_one_die", "value_all_dice", "best",
                                       "gain"])


def more_tiles_table(max_tiles: int = 16, dice=(2, 3), exact_up_to: int = 12, log=None) -> pd.DataFrame:
    """Optimal values of boards of 1..max_tiles tiles for each number of dice. The win probability is also
    given as an exact fraction for two dice up to ``exact_up_to`` tiles, and as ``"0"`` wherever no roll can
    reach the highest tile (then no game is won); None elsewhere. ``log`` (e.g. ``print``) hears about each size."""
    rows = []
    for d, n in itertools.product(dict.fromkeys(dice), range(1, max_tiles + 1)):
        rules = Rules(tiles=n, dice=d)
        row = {"dice": d, "tiles": n}
        for objective in OBJECTIVES:
            exact = objective == "win" and d == 2 and n <= exact_up_to
            value = solve(rules, objective, exact=exact).value()
            row[value_name(objective)] = float(value)
            if objective == "win":
                unreachable = n > max(rules.roll_totals)
                row["p_win_exact"] = str(value) if exact else ("0" if unreachable else None)
        rows.append(row)
        if log:
            log(f"{d} dice, {n} tiles: solved")
    return pd.DataFrame(rows)

