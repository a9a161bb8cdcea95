"""How far the engine goes, in one leaf module every other one may read (it imports only :mod:`stb_core.rules`): how
many games a process keeps, the largest board exact fractions are computed for, and the one sentence that says why a
board is beyond such a limit."""

from __future__ import annotations

from .rules import Rules

KEPT_GAMES = 8  # the games a process keeps with their arrays (game_of's last eight; the kept solutions' too)
EXACT_MAX_TILES = 16  # tile positions up to which exact fractions are computed (the front and back rows together)
EXACT_COUNT_MAX_TILES = 16  # tile positions up to which sequence counts are exact integers (float64 beyond)
HINDSIGHT_MAX_TILES = 16  # tile positions up to which the hindsight values (every future roll known) are computed
PER_BOARD_MAX_TILES = 16  # tile positions up to which a table has a row per board (or per board and move)
CACHE_MAX_TILES = 16  # tile positions up to which solutions of named objectives and policies are kept for reuse
PAGE_EXACT_UP_TO = 12  # tile positions (both rows) up to which a chapter also prints its values as exact fractions
CHUNK_GAMES = 1 << 20  # simulated games played together: memory stays the same up to any number of games
SIGMA_BYTES = 1 << 29  # a compiled solve records its move table up to this size (beyond, moves are chosen again)


def move_table_bytes(boards: int, outcomes: int, itemsize: int = 1) -> int:
    """The size of a move table: one move index (``itemsize`` bytes; int8 for every game of today's dice) per board
    and outcome code."""
    return boards * outcomes * itemsize


def records_move_table(size: int) -> bool:
    """Whether a compiled solve records a move table of ``size`` bytes (the numpy sweep always does)."""
    return size <= SIGMA_BYTES


def exact_limit(rules: Rules, what: str = "exact values", limit: int = EXACT_MAX_TILES) -> str:
    """Why ``what`` is refused for ``rules`` (more than ``limit`` tile positions), in the terms the user typed: the
    tiles of the front row for Double Shutter, whose back row doubles the positions."""
    if rules.layout == "double-shutter":
        return (f"{what} are computed for boards of up to {limit} tiles in all: for Double Shutter, tiles at most "
                f"{limit // 2} (the front row; the back row doubles it); got tiles {rules.tiles}")
    return f"tiles must be at most {limit} for {what}; got {rules.tiles}"
