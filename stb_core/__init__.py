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



# Each public name and the module it lives in: imported when first asked for (PEP 562), so that ``python -m
# stb_core.report`` can install its Ctrl-C handler before numpy loads, and ``--help`` answers at once.
_HOMES = {
    "boards": ("board_label", "board_mask", "board_tiles", "parse_tiles"),
    "choice": ("TIE_BREAKS", "TieBreak", "get_tie_break"),
    "counts": ("counts_by_moves", "total_winning_sequences", "winning_sequence_counts"),
    "game": ("Game", "game_of", "legal_moves"),
    "hindsight": ("hindsight",),
    "objectives": ("OBJECTIVES", "Objective", "custom_objective", "get_objective"),
    "policies": ("POLICIES", "Policy", "get_policy", "key_policy", "table_policy"),
    "rules": ("ONE_DIE_OPTIONS", "InputError", "Rules", "RulesError"),
    "sweep": ("Solution", "expected_remaining_sum", "expected_tiles_shut", "solve", "win_probability"),
    "valuation": ("evaluate", "policy_values"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
__all__ = ["__version__", *sorted(_HOME_OF)]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def __getattr__(name: str):
    """A public name, from its module when first asked for; ``__version__`` from the installed package's metadata
    (importlib.metadata costs a quarter of the engine's import time, and a solve never needs it)."""
    if name in _HOME_OF:
        from importlib import import_module

        value = getattr(import_module(f".{_HOME_OF[name]}", __name__), name)
        globals()[name] = value
        return value
    if name != "__version__":
        raise AttributeError(f"module 'stb_core' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("stb-core")
    except PackageNotFoundError:  # imported from a checkout that was never installed
        return "unknown"
