"""Source 000, "Shut the Box with Dynamic Programming": its exhibits, shaped from the engine's tables.

The source counts, for every board, the dice-weighted number of winning move sequences by number of moves
(each roll total weighted by the number of ways two dice make it), and plays the move leading to the board
with the most winning sequences, the first such move in its generator's order (the engine's
``sequence-count`` policy, whose ties go to the first move in the same lexicographic order).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..analysis import choice_disagreements, decision_losses
from ..boards import board_label, board_mask, board_sum, legal_move_masks, move_catalogue
from ..counts import total_winning_sequences, winning_sequence_counts
from ..evaluate import evaluate
from ..rules import Rules
from ..simulate import simulate
from ..solve import solve


def partition_list(rules: Rules) -> pd.DataFrame:
    """The source's list of one-move configurations: every set of distinct tiles adding up to a roll total
    (its "integer partitions with unique elements" of 2..12), whether or not the tiles are on the board.

    ``on_board`` says whether every tile is at most ``rules.tiles`` (the source printed partitions with the
    tiles 11 and 12, which a 10-tile board does not have).
    """
    largest = max(rules.roll_weights)
    every_tile = Rules(tiles=max(rules.tiles, largest), dice=rules.dice, sides=rules.sides)
    catalogue = move_catalogue(every_tile)
    rows = [{"roll": roll, "tiles": board_label(int(move)), "on_board": int(move).bit_length() <= rules.tiles}
            for roll in sorted(rules.roll_weights) for move in catalogue.moves(roll).tolist()]
    return pd.DataFrame(rows)


def strategy_comparison(rules: Rules, games: int, seed: int) -> pd.DataFrame:
    """Win probability of the source's rule, random moves and optimal play: exact, and simulated as the
    source did (``games`` games each, seeded) with Wilson 95% intervals and the simulation's z-score."""
    rows = []
    for offset, (policy, label) in enumerate([("sequence-count", "source's 'optimal' rule (most sequences)"),
                                              ("random", "random legal move"), ("optimal", "truly optimal")]):
        solution = evaluate(rules, "win", policy)
        result = simulate(solution, games, seed + offset)
        low, high = result.win_rate_ci
        rows.append({"policy": policy, "strategy": label, "exact_p_win": float(solution.value()),
                     "simulated_p_win": result.win_rate, "low_95": low, "high_95": high, "games": games,
                     "z": result.z_score(float(solution.value()))})
    return pd.DataFrame(rows)


def one_move_boards(rules: Rules) -> pd.DataFrame:
    """Boards of this game that one roll can clear (``C_1(S) > 0`` in the engine's count): the board,
    the roll total that clears it and that total's dice weight (the source's first column)."""
    counts = winning_sequence_counts(rules)
    boards = [b for b in range(1, rules.states) if counts[1, b]]
    return pd.DataFrame([{"board": board_label(b), "board_mask": b, "roll": board_sum(b),
                          "weight": int(counts[1, b])} for b in boards])


def move_comparison(rules: Rules, board: int, roll: int) -> pd.DataFrame:
    """Every legal move for ``(board, roll)``: the weighted winning sequences left after it (the source's
    ranking) and the chance of shutting the box after it with optimal play (the true ranking), with the
    move each ranking picks (ties to the first move in lexicographic order, as the source's code does)."""
    counts = total_winning_sequences(rules)
    optimal = solve(rules, "win")
    masks = legal_move_masks(rules, board, roll)
    table = pd.DataFrame([{"move": board_label(m), "board_after": board_label(board & ~m),
                           "sequences_after": int(counts[board & ~m]),
                           "p_win_after": float(optimal.values[board & ~m])} for m in masks])
    if len(table):
        table["source_rule_picks"] = table.index == table["sequences_after"].idxmax()
        table["optimal_picks"] = table.index == table["p_win_after"].idxmax()
    return table


def rule_errors(rules: Rules) -> pd.DataFrame:
    """The (board, roll) pairs where the source's rule (most winning sequences) plays a move with a strictly
    smaller chance of shutting the box than the optimal move, both judged with optimal play afterwards:
    both moves, the win chance after each, what the rule gives up, and the sequence counts it compared."""
    optimal = solve(rules, "win")
    rule = evaluate(rules, "win", "sequence-count")
    table = choice_disagreements(optimal, rule)
    counts = total_winning_sequences(rules)
    values = np.asarray(optimal.values, dtype=float)
    after_opt = [table_board & ~board_mask(parse_move(m)) for table_board, m in
                 zip(table["board_mask"].tolist(), table["move_a"].tolist(), strict=True)]
    after_rule = [table_board & ~board_mask(parse_move(m)) for table_board, m in
                  zip(table["board_mask"].tolist(), table["move_b"].tolist(), strict=True)]
    return pd.DataFrame({
        "board": table["board"], "board_mask": table["board_mask"], "roll": table["roll"],
        "optimal_move": table["move_a"], "source_rule_move": table["move_b"],
        "p_win_after_optimal": values[after_opt], "p_win_after_rule": values[after_rule],
        "win_chance_lost": table["loss_for_a"],
        "sequences_after_optimal": [int(counts[b]) for b in after_opt],
        "sequences_after_rule": [int(counts[b]) for b in after_rule]})


def parse_move(label: str) -> list[int]:
    """The tiles of a move written ``{1, 6}``."""
    return [int(t) for t in label.strip("{}").split(",") if t.strip()]


def rule_losses(rules: Rules) -> pd.DataFrame:
    """The source rule's decisions that lose win chance, heaviest first: ``analysis.decision_losses``
    (loss judged with optimal play afterwards, weighted by the chance the rule faces the decision), with
    each decision's share of the rule's whole loss and the running share."""
    losses = decision_losses(rules, "win", "sequence-count")
    total = losses["weighted_loss"].sum()
    costly = losses[losses["loss"] > 1e-12].sort_values("weighted_loss", ascending=False, kind="stable")
    costly = costly[["board", "roll", "reach", "p_roll", "policy_move", "optimal_move", "loss",
                     "weighted_loss"]].rename(columns={"policy_move": "source_rule_move"}).reset_index(drop=True)
    costly["share_of_loss"] = costly["weighted_loss"] / total if total > 0 else 0.0
    costly["cumulative_share"] = costly["share_of_loss"].cumsum()
    return costly
