"""Where games go: exact distributions of how they end, and which boards can be reached.

The distribution of the final board follows the game forward. With ``P(S)`` the probability that the
game passes through board ``S`` (``P(full) = 1``) and the policy's move ``pi(S, r)``:

    P(S \\ pi(S, r)) += P(S) p(r)              if a move is legal,
    P(end on S)      += P(S) p(r)              if the player is stuck (or S is already won).

Boards are visited from the most open tiles down, so every board's ``P`` is complete before it is
spread. ``random`` spreads ``P(S) p(r)`` evenly over the legal moves.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .boards import check_board, move_catalogue, tile_counts, tile_sums
from .rules import Rules
from .solve import Solution, one_die_mask, solve


def _roll_probabilities(rules: Rules, dice: int, exact: bool) -> dict[int, object]:
    dist = rules.roll_distribution(dice)
    return dist if exact else {r: float(p) for r, p in dist.items()}


def final_board_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) ends on each board (array over masks)."""
    return _forward(solution, board)[1]


def reach_probabilities(solution: Solution, board: int | None = None) -> np.ndarray:
    """Probability that the game from ``board`` (default: full) passes through each board, playing the
    solution's policy (array over masks; the starting board has probability 1)."""
    return _forward(solution, board)[0]


def _forward(solution: Solution, board: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Push probability from ``board`` down the levels: (reach probability, end probability) per board."""
    rules, exact = solution.rules, solution.exact
    start = rules.full_board if board is None else check_board(board, rules)
    dtype = object if exact else float
    reach = np.zeros(rules.states, dtype=dtype)
    ends = np.zeros(rules.states, dtype=dtype)
    reach[start] = Fraction(1) if exact else 1.0
    everything = np.arange(rules.states, dtype=np.int64)
    counts, sums = tile_counts(everything), tile_sums(everything)
    won = sums <= rules.win_at_most
    catalogue = move_catalogue(rules)
    for k in range(int(counts[start]), -1, -1):
        boards = everything[(counts == k) & ((everything & ~start) == 0)]
        boards = boards[reach[boards] != 0]
        if boards.size == 0:
            continue
        mass = reach[boards]
        done = won[boards]
        ends[boards[done]] += mass[done]
        boards, mass = boards[~done], mass[~done]
        single = solution.dice[boards] == 1
        for dice in sorted({int(d) for d in solution.dice[boards]}):
            chosen = single if dice == 1 else ~single
            _spread(solution, boards[chosen], mass[chosen], dice, catalogue, reach, ends)
    return reach, ends


def _spread(solution, boards, mass, dice, catalogue, reach, ends) -> None:
    """Move the probability ``mass`` on ``boards`` one roll forward with ``dice`` dice."""
    rules, exact = solution.rules, solution.exact
    for roll, p in _roll_probabilities(rules, dice, exact).items():
        share = mass * p
        moves = catalogue.moves(roll)
        legal = (boards[:, None] & moves[None, :]) == moves[None, :]
        stuck = ~legal.any(axis=1)
        np.add.at(ends, boards[stuck], share[stuck])
        if solution.policy == "random":
            count = legal.sum(axis=1)
            for j, move in enumerate(moves.tolist()):
                on = legal[:, j]
                np.add.at(reach, boards[on] & ~move, share[on] / count[on])
        else:
            chosen = solution.choose(boards, roll)
            on = chosen >= 0
            np.add.at(reach, boards[on] & ~chosen[on], share[on])


def final_sum_distribution(
    rules: Rules,
    objective="win",
    policy="optimal",
    *,
    board: int | None = None,
    exact: bool = False,
    solution: Solution | None = None,
) -> dict[int, object]:
    """Probability of each final sum of open tiles, ``{sum: p}`` in increasing sum, under ``policy``
    playing for ``objective`` from ``board`` (default: full). Pass a ``solution`` to reuse one."""
    solution = solution or solve(rules, objective, policy, exact=exact)
    ends = final_board_probabilities(solution, board)
    sums = tile_sums(np.arange(solution.rules.states))
    out: dict[int, object] = {}
    for s, p in zip(sums.tolist(), ends.tolist(), strict=True):
        if p:
            out[s] = out.get(s, 0) + p
    return dict(sorted(out.items()))


def reachable_boards(rules: Rules, *, include_won: bool = True) -> np.ndarray:
    """Every board some sequence of rolls and legal moves can reach from the full board, increasing.

    The game stops at won boards, so nothing is reached through one; the full board counts as reached.
    ``include_won=False`` keeps only the boards where the game is still being played.
    """
    everything = np.arange(rules.states, dtype=np.int64)
    counts, sums = tile_counts(everything), tile_sums(everything)
    playing = sums > rules.win_at_most
    reached = np.zeros(rules.states, dtype=bool)
    reached[rules.full_board] = True
    catalogue = move_catalogue(rules)
    all_moves = np.unique(np.concatenate([catalogue.moves(r) for r in rules.roll_totals]))
    for k in range(rules.tiles, 0, -1):
        boards = everything[(counts == k) & reached & playing]
        if boards.size == 0:
            continue
        legal = (boards[:, None] & all_moves[None, :]) == all_moves[None, :]
        children = (boards[:, None] & ~all_moves[None, :])[legal]
        reached[children] = True
    return everything[reached if include_won else reached & playing]


def one_die_boards(rules: Rules) -> np.ndarray:
    """Boards (not yet won) from which the rules let the player roll a single die, increasing."""
    everything = np.arange(rules.states, dtype=np.int64)
    sums = tile_sums(everything)
    return everything[one_die_mask(rules, everything, sums) & (sums > rules.win_at_most)]
