r"""Where a policy's mistakes cost, and where two policies disagree.

The loss of a policy ``h`` against the optimum splits exactly over the decisions ``h`` actually faces (the
performance-difference identity): with ``V*`` and ``Q*`` the optimal values, ``P_h(S)`` the chance that ``h``
reaches board ``S`` and ``c_h(S)`` its dice,

.. math::

    \sigma\,(V^*(S_0) - V^h(S_0)) = \sum_S P_h(S)\Big[\sigma\big(V^*(S) - V^*_{c_h}(S)\big)
        + \sum_r p_{c_h}(r)\,\sigma\big(Q^*(S, r) - Q^*(S, r; \pi_h)\big)\Big]

where ``V*_c(S) = sum_r p_c(r) Q*(S, r)``, ``Q*(S, r; pi_h)`` is ``V*`` after ``h``'s move (averaged over
its moves for a mixture; ``u(S)`` when stuck) and ``sigma`` the objective's sense. Each term is the loss of
one decision judged with optimal play afterwards, weighted by how often ``h`` makes it; every term is >= 0
and they add up to the whole loss. Moves are read from each solution's move table; nothing here chooses.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .boards import pairs_on
from .choice import VALUE_RTOL, no_loss, same_value
from .game import game_of
from .rules import InputError, Rules
from .sweep import Solution, judged_roll_values, rolled_value, solve
from .valuation import evaluate, reach_probabilities


class NegativeLossError(InputError):
    """A decision that loses less than nothing against the optimum: a sign error somewhere, never clipped."""


def _move_labels(solution: Solution, boards: np.ndarray, roll: int) -> list[str]:
    if solution.moves_kept == "mixture":  # its moves have chances, not one move: named by its policy
        return [solution.policy.name] * boards.size
    label = solution.game.layout.label
    return [label(m) if m >= 0 else "" for m in solution.played(boards, roll).tolist()]


def _dice_labels(dice: np.ndarray) -> list[str]:
    """A choice of dice as a decision table names it in its move columns: ``roll 1 die``, ``roll 2 dice``."""
    return [f"roll {d} {'die' if d == 1 else 'dice'}" for d in np.asarray(dice, dtype=int).tolist()]


def _check_losses(loss: np.ndarray, scale: np.ndarray, what: str) -> None:
    worst = loss < -VALUE_RTOL * np.maximum(np.abs(scale), 1e-300)
    if worst.any():
        raise NegativeLossError(f"{what}: a decision loses {loss[worst].min():.3g} (< 0) against the optimum")


DIFFERENCE_DIGITS = 13  # significant digits of the larger value that a float difference keeps (the rest is rounding)


def difference(a, b, sense: int = 1) -> np.ndarray:
    """``sense * (a - b)`` as floats: of Fractions, the exact difference (a loss of 1e-21 stays one, a tie is 0);
    of floats, rounded to :data:`DIFFERENCE_DIGITS` significant digits of the larger of ``a`` and ``b``: the digits
    below are the rounding of the two values (a loss of 0.005 between values near 5 reads 0.0049999999999999
    otherwise), so tables print the difference as it is."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object or b.dtype == object:
        return np.array([float(sense * (x - y)) for x, y in zip(a.tolist(), b.tolist(), strict=True)], dtype=float)
    a, b = a.astype(float), b.astype(float)
    size = np.maximum(np.abs(a), np.abs(b))
    scale = 10.0 ** (np.floor(np.log10(np.where(size > 0, size, 1.0))) - DIFFERENCE_DIGITS)
    return np.round(sense * (a - b) / scale) * scale + 0.0  # + 0.0: never a negative zero


def _dice_decisions(optimal: Solution, heuristic: Solution, playing: np.ndarray, chosen_dice: np.ndarray,
                    reach: np.ndarray, q_best: dict) -> pd.DataFrame:
    """The choices of dice ``heuristic`` makes on the boards of ``playing`` (``chosen_dice``, on each) that offer
    one, each with its loss ``sigma (V*(S) - V*_c(S))`` (``q_best``: Q* of every outcome on those boards)."""
    space, exact = optimal.game, optimal.exact and heuristic.exact
    dice_value = {d: rolled_value(space, d, q_best.__getitem__, exact) for d in space.dice_counts}
    v_star = (optimal.values if exact else np.asarray(optimal.values, dtype=float))[playing]
    choosing = space.one_die[playing]
    taken = np.select([chosen_dice == d for d in space.dice_counts], [dice_value[d] for d in space.dice_counts])
    loss = difference(v_star, taken, optimal.objective.sense)[choosing]
    _check_losses(loss, v_star[choosing], f"{heuristic.policy.name}'s dice")
    at = playing[choosing]
    return pd.DataFrame({"board_mask": at, "decision": "dice", "dice": chosen_dice[choosing], "roll": -1,
                         "options": len(space.dice_counts), "reach": reach[at], "p_roll": 1.0,
                         "optimal_move": _dice_labels(optimal.dice[at]),
                         "policy_move": _dice_labels(chosen_dice[choosing]), "loss": loss})


def decision_losses(rules: Rules, objective="win", policy="highest-tile", *, tie_break="canonical",
                    optimal: Solution | None = None, heuristic: Solution | None = None,
                    exact: bool = False) -> pd.DataFrame:
    """Every decision ``policy`` faces with positive probability, with its loss against optimal play.

    Rows: ``decision`` is ``dice`` (one per board where dice could be chosen) or ``move`` (one per board and
    roll); ``options``, how many there are to choose from (the numbers of dice, or the legal moves: 0 or 1 is no
    choice at all); ``reach`` = P_h(board), ``p_roll``, the moves (a mixture shows its name), ``loss`` (>= 0, in the
    objective's units, judged with optimal play afterwards; a negative loss raises :class:`NegativeLossError`)
    and ``weighted_loss`` = reach x p_roll x loss, which sums to the policy's whole loss from the full board.
    With ``exact`` (or two exact solutions given) every loss is the float of an exact difference: a loss is
    nil only when it is exactly 0 (:func:`loses_something`); otherwise within rounding of the float values.
    """
    optimal = optimal or solve(rules, objective, tie_break=tie_break, exact=exact)
    heuristic = heuristic or evaluate(rules, objective, policy, tie_break=tie_break, exact=exact)
    exact = optimal.exact and heuristic.exact
    sense = optimal.objective.sense
    space = game_of(rules)
    reach = np.asarray(reach_probabilities(heuristic), dtype=float)
    playing = space.boards[(reach > 0) & ~space.won]
    q_best, q_taken = {}, {}
    for roll in space.outcomes:
        q_best[roll] = judged_roll_values(optimal, optimal, playing, roll, exact=exact)
        q_taken[roll] = judged_roll_values(optimal, heuristic, playing, roll, exact=exact)
    chosen_dice = heuristic.dice[playing].astype(int)
    frames = [_dice_decisions(optimal, heuristic, playing, chosen_dice, reach, q_best)] \
        if rules.offers_dice_choice else []
    for dice in space.dice_counts:
        at = chosen_dice == dice
        if not at.any():
            continue
        boards = playing[at]
        for roll, p in space.chances(dice, exact=True).items():
            loss = difference(q_best[roll][at], q_taken[roll][at], sense)
            _check_losses(loss, q_best[roll][at], f"{heuristic.policy.name}'s moves for roll {roll}")
            moves = space.catalogue.of(roll)
            frames.append(pd.DataFrame({
                "board_mask": boards, "decision": "move", "dice": dice, "roll": roll,
                "options": space.legal(boards, moves).sum(axis=1) if moves.size else 0,
                "reach": reach[boards], "p_roll": float(p),
                "optimal_move": _move_labels(optimal, boards, roll),
                "policy_move": _move_labels(heuristic, boards, roll), "loss": loss}))
    columns = ["board_mask", "decision", "dice", "roll", "options", "reach", "p_roll", "optimal_move", "policy_move",
               "loss"]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)  # won before a roll
    table["weighted_loss"] = table["reach"] * table["p_roll"] * table["loss"]
    table.insert(0, "board", [space.layout.label(m) for m in table["board_mask"].tolist()])
    table = table.sort_values(["board_mask", "decision", "roll"], kind="stable").reset_index(drop=True)
    table["roll"] = space.roll_column(table["roll"])
    table.attrs["exact"] = exact
    return table


def loses_something(losses: pd.DataFrame) -> pd.Series:
    """Which decisions of a :func:`decision_losses` table lose something: an exact loss above 0, a float one
    beyond rounding (:func:`stb_core.choice.no_loss`)."""
    return losses["loss"] > 0 if losses.attrs.get("exact") else ~no_loss(losses["loss"])


def choice_disagreements(a: Solution, b: Solution, boards: np.ndarray | None = None) -> pd.DataFrame:
    """(board, roll) pairs -- on ``boards`` (default: every board still in play), for each roll their dice can
    show -- where ``b``'s move is worse for ``a``'s objective than ``a``'s move (beyond the value tolerance): what
    each picks and what it costs each (in each one's units). Both must be deterministic."""
    game = a.game
    playing, label = game.playing if boards is None else boards, game.layout.label
    exact = a.exact and b.exact  # then a loss is exact: any above 0 counts
    va, vb = (a.values, b.values) if exact else (np.asarray(a.values, dtype=float), np.asarray(b.values, dtype=float))
    frames = []
    for roll in game.outcomes:
        facing = playing[game.shows(playing, roll)]
        ma, mb = a.played(facing, roll), b.played(facing, roll)
        differ = (ma >= 0) & (mb >= 0) & (ma != mb)
        boards, ma, mb = facing[differ], ma[differ], mb[differ]
        after_a, after_b = va[boards & ~ma], va[boards & ~mb]
        loss_a = difference(after_a, after_b, a.objective.sense)
        keep = (loss_a > 0) & ~same_value(after_a, after_b)
        frames.append(pd.DataFrame({
            "board_mask": boards[keep], "roll": roll,
            "move_a": [label(m) for m in ma[keep].tolist()],
            "move_b": [label(m) for m in mb[keep].tolist()],
            "loss_for_a": loss_a[keep],
            "loss_for_b": difference(vb[boards & ~mb], vb[boards & ~ma], b.objective.sense)[keep]}))
    table = pd.concat(frames, ignore_index=True)
    table.insert(0, "board", [label(m) for m in table["board_mask"].tolist()])
    table = table.sort_values(["board_mask", "roll"], kind="stable").reset_index(drop=True)
    table["roll"] = game.roll_column(table["roll"])
    return table


def dice_choices_table(solution: Solution) -> pd.DataFrame:
    """Every board (not won) on which the rules let the player choose one die, with what the solution's
    policy expects from each choice (``value_one_die``, ``value_all_dice``), which is better for its objective
    (``best``: ``one die``, ``all dice`` or ``either`` when they are the same value) and ``one_minus_all``;
    the boards increasing. The one table of the dice choice: each chapter words and sorts it its own way."""
    game = solution.game
    rows = []
    for board in game.choosing_dice.tolist():
        values = solution.dice_values(board)
        one, many = float(values[1]), float(values[game.rules.dice])
        better = solution.objective.sense * (one - many)
        best = "either" if same_value(one, many) else ("one die" if better > 0 else "all dice")
        tiles = [game.tile_values[t] for t in range(game.positions) if board >> t & 1]  # the open tiles' values
        rows.append({"board": game.layout.label(board), "board_mask": board, "open_sum": int(game.sums[board]),
                     "open_tiles": len(tiles), "smallest_tile": min(tiles), "largest_tile": max(tiles),
                     "value_one_die": one, "value_all_dice": many, "best": best, "one_minus_all": one - many})
    return pd.DataFrame(rows, columns=["board", "board_mask", "open_sum", "open_tiles", "smallest_tile",
                                       "largest_tile", "value_one_die", "value_all_dice", "best", "one_minus_all"])


def tied_pairs(solution: Solution, boards: np.ndarray | None = None) -> int:
    """How many (board, roll) pairs -- on ``boards`` (default: every board still in play), each roll their dice can
    show -- have two or more moves exactly as good for the solution's objective (within the value tolerance in
    float runs): where the tie-break decides."""
    rules = solution.rules
    playing = game_of(rules).playing if boards is None else boards
    values = solution.values
    count = 0
    for roll in game_of(rules).outcomes:
        facing = playing[solution.game.shows(playing, roll)]
        move = solution.played(facing, roll)
        pairs = pairs_on(solution.game, facing, roll)
        if pairs.at.size == 0:
            continue
        best = values[facing & ~np.maximum(move, 0)][pairs.at]
        after = values[pairs.child]
        equal = same_value(after, best)
        count += int((np.bincount(pairs.at[equal], minlength=facing.size) >= 2).sum())
    return count
