r"""Where a policy's mistakes cost, and where two policies disagree.

The loss of a policy ``h`` against the optimum splits exactly over the decisions ``h`` actually faces
(the performance-difference identity): with ``V*`` and ``Q*`` the optimal values, ``P_h(S)`` the chance
that ``h`` reaches board ``S`` and ``c_h(S)`` its dice,

.. math::

    \sigma\,(V^*(S_0) - V^h(S_0)) = \sum_S P_h(S)\Big[\sigma\big(V^*(S) - V^*_{c_h}(S)\big)
        + \sum_r p_{c_h}(r)\,\sigma\big(Q^*(S, r) - Q^*(S, r; \pi_h)\big)\Big]

where ``V*_c(S) = sum_r p_c(r) Q*(S, r)``, ``Q*(S, r; pi_h)`` is ``V*`` after ``h``'s move (``u(S)`` when
stuck) and ``sigma`` the objective's sense. Each term is the loss of one decision judged with optimal
play afterwards, weighted by how often ``h`` makes it; they add up to the whole loss.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .boards import board_label, move_catalogue, tile_sums
from .evaluate import reach_probabilities
from .rules import Rules
from .solve import Solution, solve


def _q_after(optimal: Solution, boards: np.ndarray, roll: int, heuristic: Solution, rng) -> tuple:
    """(optimal Q*, Q* after the heuristic's move, heuristic move, optimal move) for boards and roll."""
    values = np.asarray(optimal.values, dtype=float)
    stuck_value = np.asarray(optimal.objective.values(boards, optimal.rules), dtype=float)
    best_move = optimal.choose(boards, roll)
    best = np.where(best_move >= 0, values[boards & ~np.maximum(best_move, 0)], stuck_value)
    if heuristic.policy == "random":
        moves = move_catalogue(optimal.rules).moves(roll)
        legal = (boards[:, None] & moves[None, :]) == moves[None, :]
        after = np.where(legal, values[boards[:, None] & ~moves[None, :]], 0).sum(axis=1)
        count = legal.sum(axis=1)
        taken = np.where(count > 0, after / np.maximum(count, 1), stuck_value)
        return best, taken, np.full(boards.shape, -2), best_move
    move = heuristic.choose(boards, roll, rng)
    taken = np.where(move >= 0, values[boards & ~np.maximum(move, 0)], stuck_value)
    return best, taken, move, best_move


def decision_losses(rules: Rules, objective="win", policy="highest-tile", *, optimal: Solution | None = None,
                    heuristic: Solution | None = None) -> pd.DataFrame:
    """Every decision ``policy`` faces with positive probability, with its loss against optimal play.

    Rows: ``decision`` is ``dice`` (one per board where dice could be chosen) or ``move`` (one per board
    and roll); ``reach`` = P_h(board), ``p_roll``, the moves (``random`` shows ``random``), ``loss`` (>= 0,
    in the objective's units, judged with optimal play afterwards) and ``weighted_loss`` = reach x p_roll x
    loss. ``weighted_loss`` sums to the policy's whole loss from the full board.
    """
    optimal = optimal or solve(rules, objective, "optimal")
    heuristic = heuristic or solve(rules, objective, policy)
    sense = optimal.objective.sense
    reach = np.asarray(reach_probabilities(heuristic), dtype=float)
    everything = np.arange(rules.states, dtype=np.int64)
    playing = everything[(reach > 0) & (tile_sums(everything) > rules.win_at_most)]
    rng = np.random.default_rng(0)
    frames = []
    dice_options = sorted({rules.dice, 1} if rules.one_die != "never" else {rules.dice})
    q_star = {}
    for dice in dice_options:
        for roll in rules.roll_distribution(dice):
            if roll not in q_star:
                q_star[roll] = _q_after(optimal, playing, roll, heuristic, rng)
    dice_value = {d: sum(float(p) * q_star[r][0] for r, p in rules.roll_distribution(d).items())
                  for d in dice_options}
    chosen_dice = heuristic.dice[playing].astype(int)
    v_star = np.asarray(optimal.values, dtype=float)[playing]
    if len(dice_options) > 1:
        taken = np.where(chosen_dice == 1, dice_value[1], dice_value[rules.dice])
        loss = sense * (v_star - taken)
        frames.append(pd.DataFrame({"board_mask": playing, "decision": "dice", "dice": chosen_dice,
                                    "roll": -1, "reach": reach[playing], "p_roll": 1.0,
                                    "optimal_move": "", "policy_move": "", "loss": loss}))
    for dice in dice_options:
        at = chosen_dice == dice
        if not at.any():
            continue
        for roll, p in rules.roll_distribution(dice).items():
            best, taken, move, best_move = (a[at] for a in q_star[roll])
            frames.append(pd.DataFrame({
                "board_mask": playing[at], "decision": "move", "dice": dice, "roll": roll,
                "reach": reach[playing[at]], "p_roll": float(p),
                "optimal_move": [board_label(m) if m >= 0 else "" for m in best_move.tolist()],
                "policy_move": [board_label(m) if m >= 0 else ("random" if m == -2 else "")
                                for m in move.tolist()],
                "loss": sense * (best - taken)}))
    table = pd.concat(frames, ignore_index=True)
    table["loss"] = table["loss"].clip(lower=0.0)  # float round-off only: every term is >= 0 exactly
    table["weighted_loss"] = table["reach"] * table["p_roll"] * table["loss"]
    table.insert(0, "board", [board_label(m) for m in table["board_mask"].tolist()])
    return table.sort_values(["board_mask", "decision", "roll"], kind="stable").reset_index(drop=True)


def choice_disagreements(a: Solution, b: Solution, tolerance: float = 1e-9) -> pd.DataFrame:
    """(board, roll) pairs, on boards still in play, where ``b``'s move is strictly worse for ``a``'s
    objective than ``a``'s move (by more than ``tolerance``): what each picks and what it costs each."""
    rules = a.rules
    everything = np.arange(rules.states, dtype=np.int64)
    playing = everything[tile_sums(everything) > rules.win_at_most]
    va, vb = np.asarray(a.values, dtype=float), np.asarray(b.values, dtype=float)
    rng = np.random.default_rng(0)
    frames = []
    for roll in rules.roll_totals:
        ma, mb = a.choose(playing, roll, rng), b.choose(playing, roll, rng)
        differ = (ma >= 0) & (mb >= 0) & (ma != mb)
        boards, ma, mb = playing[differ], ma[differ], mb[differ]
        loss_a = a.objective.sense * (va[boards & ~ma] - va[boards & ~mb])
        keep = loss_a > tolerance
        frames.append(pd.DataFrame({
            "board_mask": boards[keep], "roll": roll,
            "move_a": [board_label(m) for m in ma[keep].tolist()],
            "move_b": [board_label(m) for m in mb[keep].tolist()],
            "loss_for_a": loss_a[keep],
            "loss_for_b": b.objective.sense * (vb[boards & ~mb] - vb[boards & ~ma])[keep]}))
    table = pd.concat(frames, ignore_index=True)
    table.insert(0, "board", [board_label(m) for m in table["board_mask"].tolist()])
    return table.sort_values(["board_mask", "roll"], kind="stable").reset_index(drop=True)
