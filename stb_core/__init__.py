"""Exact dynamic programming for the dice game Shut the Box.

Read top-down: ``rules`` (one validated value per variant) -> ``boards`` (bit-mask boards and moves) ->
``objectives`` (what a finished game is worth) and ``policies`` (how a player picks a move, and the tie-break
among equal moves) -> ``solve`` (the Bellman equation, optimal play) and ``evaluate`` (any policy's value,
its final boards and the boards it reaches), with ``compiled`` (the same sweep as a numba loop, for large
boards) -> ``counts`` (source 000's winning sequences) -> ``simulate`` (Monte Carlo) -> ``tables`` (pandas)
-> ``analysis``, ``variants``, ``cards`` (strategy cards), ``players`` (the pub game for stakes),
``two_player`` (the previous edition's two-player game) -> ``sources`` (each source's own exhibits). ``cli``
is ``python -m stb_core``; the ``report`` subpackage serves the notebooks and builds the HTML report.
"""

from .boards import board_label, board_mask, board_sum, board_tiles, legal_moves, parse_tiles
from .counts import counts_by_moves, total_winning_sequences, winning_sequence_counts
from .evaluate import evaluate
from .objectives import OBJECTIVES, Objective, custom_objective, get_objective
from .policies import POLICIES, TIE_BREAKS, Policy, TieBreak, get_policy, get_tie_break, key_policy
from .rules import ONE_DIE_OPTIONS, Rules, RulesError
from .solve import Solution, expected_remaining_sum, expected_tiles_shut, solve, win_probability

__all__ = [
    "OBJECTIVES", "ONE_DIE_OPTIONS", "POLICIES", "TIE_BREAKS", "Objective", "Policy", "Rules", "RulesError",
    "Solution", "TieBreak", "board_label", "board_mask", "board_sum", "board_tiles", "counts_by_moves",
    "custom_objective", "evaluate", "expected_remaining_sum", "expected_tiles_shut", "get_objective",
    "get_policy", "get_tie_break", "key_policy", "legal_moves", "parse_tiles", "solve",
    "total_winning_sequences", "win_probability", "winning_sequence_counts",
]
