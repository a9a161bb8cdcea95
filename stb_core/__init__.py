"""Exact dynamic programming for the dice game Shut the Box.

Read top-down: ``rules`` (one validated value per variant) -> ``boards`` (bit-mask boards and moves) and
``game`` (everything the rules imply, computed once: won boards, moves, chances) -> ``objectives`` (what a
finished game is worth) and ``policies`` (how a player picks a move, and the tie-break among equal moves) ->
``sweep`` (the Bellman equation: :func:`solve` for optimal play, the move table recorded as it goes),
``hindsight`` (the value for a player who knows every throw in advance), ``luck`` (one game's luck and losses)
and ``valuation`` (:func:`evaluate`: any policy's value, its final boards and the boards it reaches), with
``compiled`` (the same sweep as a numba loop, for large boards) and ``cost`` (what a solve will take, known
before it starts) -> ``counts`` (source 000's winning sequences) -> ``monte_carlo`` (simulated games) ->
``tables`` (pandas) -> ``analysis``, ``cards`` (strategy cards), ``players`` (the pub game for stakes) ->
``sources`` (each chapter's shaping). ``cli`` is ``python -m stb_core``; the ``report`` subpackage serves the
notebooks and builds the HTML report.
"""


from .boards import board_label, board_mask, board_tiles, parse_tiles
from .choice import TIE_BREAKS, TieBreak, get_tie_break
from .counts import counts_by_moves, total_winning_sequences, winning_sequence_counts
from .game import Game, game_of, legal_moves
from .hindsight import hindsight
from .objectives import OBJECTIVES, Objective, custom_objective, get_objective
from .policies import POLICIES, Policy, get_policy, key_policy, table_policy
from .rules import ONE_DIE_OPTIONS, InputError, Rules, RulesError
from .sweep import Solution, expected_remaining_sum, expected_tiles_shut, solve, win_probability
from .valuation import evaluate, policy_values

__all__ = [
    "__version__",
    "OBJECTIVES", "ONE_DIE_OPTIONS", "POLICIES", "TIE_BREAKS", "Game", "InputError", "Objective", "Policy", "Rules",
    "RulesError",
    "Solution", "TieBreak", "board_label", "board_mask", "board_tiles", "counts_by_moves",
    "custom_objective", "evaluate", "expected_remaining_sum", "expected_tiles_shut", "game_of", "get_objective",
    "get_policy", "get_tie_break", "hindsight", "key_policy", "legal_moves", "parse_tiles", "policy_values", "solve",
    "table_policy",
    "total_winning_sequences", "win_probability", "winning_sequence_counts",
]



def __getattr__(name: str):
    """``__version__``, read from the installed package's metadata when first asked for (importlib.metadata costs a
    quarter of the engine's import time, and a solve never needs it)."""
    if name != "__version__":
        raise AttributeError(f"module 'stb_core' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stb-core")
    except PackageNotFoundError:  # imported from a checkout that was never installed
        return "unknown"
