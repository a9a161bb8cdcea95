"""Exact dynamic programming for the dice game Shut the Box.

Read top-down: ``rules`` (one validated value per variant) -> ``boards`` (bit-mask boards and moves) ->
``objectives`` (what a game is worth, how a policy picks) -> ``solve`` (the Bellman equation) ->
``counts`` (source 000's winning sequences) -> ``evaluate`` (distributions, reachability) ->
``simulate`` (Monte Carlo) -> ``tables`` (pandas) -> ``analysis``, ``overview``, ``two_player`` (questions
beyond the sources) and ``sources`` (each source's own exhibits). ``cli`` is ``python -m stb_core``;
``notebook``, ``exports`` and ``report`` serve the notebooks and build the HTML report.
"""

from .boards import board_label, board_mask, board_sum, board_tiles, legal_moves, parse_tiles
from .counts import counts_by_moves, total_winning_sequences, winning_sequence_counts
from .objectives import OBJECTIVES, POLICIES, Objective, custom_objective, get_objective
from .rules import ONE_DIE_OPTIONS, Rules, RulesError
from .solve import Solution, expected_remaining_sum, expected_tiles_shut, solve, win_probability

__all__ = [
    "OBJECTIVES", "ONE_DIE_OPTIONS", "POLICIES", "Objective", "Rules", "RulesError", "Solution",
    "board_label", "board_mask", "board_sum", "board_tiles", "counts_by_moves", "custom_objective",
    "expected_remaining_sum", "expected_tiles_shut", "get_objective", "legal_moves", "parse_tiles",
    "solve", "total_winning_sequences", "win_probability", "winning_sequence_counts",
]
