"""What a finished game is worth: objectives.

An objective gives the value ``u(F)`` of a finished game from its final board ``F`` (the open tiles when
it ended) and a sense: the optimal player maximises (``sense = +1``) or minimises (``sense = -1``) the
expected value. Built in:

* ``win``            -- ``u(F) = 1`` if the game is won on ``F`` (:attr:`stb_core.game.Game.won`), else 0; maximise;
* ``remaining-sum``  -- ``u(F)`` = sum of the open tiles; minimise (source 002's "traditional score" is
                        the tile total minus this);
* ``flipped-count``  -- ``u(F)`` = number of tiles shut; maximise;
* ``digits``         -- ``u(F)`` = the open tiles read in increasing order as a number ({1, 4, 7} scores 147);
                        minimise (one row of up to 12 tiles).

``remaining-sum`` is the board's score: the sum left on one row; with Double Shutter the back row's values plus
twice the front row's.

:func:`custom_objective` builds any other from a function of the final board or of the final sum left.

How a player picks a move is :mod:`stb_core.policies`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

import numpy as np

from .game import Game, per_game
from .rules import InputError

OBJECTIVES = ("win", "remaining-sum", "flipped-count", "digits")
# The column an objective's value goes by in every table (a board's, a frontier corner's, a rule of thumb's);
# any other objective's is ``expected_`` and its name
VALUE_NAMES = {"win": "p_win", "remaining-sum": "expected_remaining_sum", "flipped-count": "expected_tiles_shut"}


@dataclass(frozen=True)
class Objective:
    """The value of a finished game as a function of its final boards, and whether to maximise it."""

    name: str
    sense: int                                       # +1: maximise, -1: minimise
    utility: Callable[[Game, np.ndarray], np.ndarray]  # (the game, final boards) -> values

    @property
    def value_name(self) -> str:
        """The column name of its expected value (``p_win``, ``expected_remaining_sum``, ``expected_digits``...)."""
        return VALUE_NAMES.get(self.name, "expected_" + re.sub(r"[^0-9a-zA-Z]+", "_", self.name).strip("_"))

    def values(self, game: Game, boards: np.ndarray | None = None) -> np.ndarray:
        """``u(F)`` for each final board ``F`` in ``boards`` (bit-masks; default every board of the game, in
        order -- read as a slice of the game's arrays, no copy of the boards needed). A value that is not a
        finite number (NaN, an infinity, None, text) raises :class:`InputError` naming the objective."""
        boards = slice(None) if boards is None else np.asarray(boards, dtype=np.int64)
        return check_utilities(self.name, self.utility(game, boards))


def check_utilities(name: str, values) -> np.ndarray:
    """``values`` as an array if every one is a finite number (a Fraction, a float, or a bool read as 0 or 1);
    :class:`InputError` naming the objective otherwise -- an objective's values become every board's value."""
    values = np.asarray(values)
    if values.dtype == object:
        bad = [v for v in values.ravel().tolist() if not _finite(v)]
    elif np.issubdtype(values.dtype, np.number) or values.dtype == bool:
        bad = values[~np.isfinite(values)].ravel().tolist()[:1]
    else:
        bad = values.ravel().tolist()[:1]
    if bad:
        raise InputError(f"objective {name!r} must give a finite number for every final board; got {bad[0]!r}")
    return values


def _finite(value) -> bool:
    """A real number a float can hold (``10**400`` is a number, but no float)."""
    if not isinstance(value, Real):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _won(game: Game, boards: np.ndarray) -> np.ndarray:
    return game.won[boards].astype(float)


def _remaining_sum(game: Game, boards: np.ndarray) -> np.ndarray:
    return game.scores[boards].astype(float)


DIGITS_MAX_TILES = 12  # up to here every digit score is an integer a float holds exactly (below 2**53)


def check_digit_board(game: Game, name: str = "objective 'digits'") -> None:
    """Raise :class:`InputError` (naming ``name``) unless the digit score applies: one row of at most
    ``DIGITS_MAX_TILES`` tiles."""
    if game.layout.name != "row" or game.positions > DIGITS_MAX_TILES:
        raise InputError(f"{name} reads a row of up to {DIGITS_MAX_TILES} tiles as a number; "
                         f"got {game.rules.describe()}")


@per_game
def digit_scores(game: Game) -> np.ndarray:
    """Every board's open tiles read in increasing order as one decimal number ({1, 4, 7} scores 147, {2, 10}
    210, the shut box 0): appending tile ``t`` to the number of the tiles below it, one tile at a time."""
    check_digit_board(game)
    scores = np.zeros(game.states, dtype=np.int64)
    for b, value in enumerate(game.tile_values):
        scores[1 << b: 2 << b] = scores[: 1 << b] * 10 ** len(str(value)) + value
    scores.flags.writeable = False
    return scores


def _digits(game: Game, boards: np.ndarray) -> np.ndarray:
    return digit_scores(game)[boards].astype(float)


def _flipped_count(game: Game, boards: np.ndarray) -> np.ndarray:
    return game.positions - game.counts[boards].astype(float)


BUILT_IN = {
    "win": Objective("win", +1, _won),
    "remaining-sum": Objective("remaining-sum", -1, _remaining_sum),
    "flipped-count": Objective("flipped-count", +1, _flipped_count),
    "digits": Objective("digits", -1, _digits),
}


def custom_objective(name: str, *, of_sum=None, of_board=None, maximise: bool = True) -> Objective:
    """An objective from a terminal utility given as a function of the final sum left (``of_sum``, a plain
    ``int -> number``; the sum as the game scores it, :attr:`Game.scores`: on Double Shutter the front row counts
    double, as ``remaining-sum`` and the final-sum distributions count it) or of the final board masks
    (``of_board``).

    >>> beat_7 = custom_objective("beat 7", of_sum=lambda s: s < 7)
    """
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"custom_objective's name must be a text naming it, like 'beat 7'; got {name!r}")
    if not isinstance(maximise, bool):
        raise InputError(f"custom_objective's maximise must be True or False; got {maximise!r}")
    if (of_sum is None) == (of_board is None):
        raise InputError("custom_objective needs exactly one of of_sum or of_board")
    if of_sum is not None:

        def utility(game: Game, boards: np.ndarray) -> np.ndarray:
            values = check_utilities(name, np.array([of_sum(s) for s in range(game.worst_score + 1)], dtype=object))
            exact = any(isinstance(v, Fraction) for v in values)  # keep exact utilities exact
            return np.array(values, dtype=object if exact else float)[game.scores[boards]]

    else:

        def utility(game: Game, boards: np.ndarray) -> np.ndarray:
            given = game.boards[boards]
            values = np.asarray(of_board(given), dtype=object)
            if values.shape != np.shape(given):
                raise InputError(f"objective {name!r}: of_board must give one value per board it is given "
                                 f"({np.size(given)}); got {values.size}")
            return np.asarray(check_utilities(name, values), dtype=float)

    return Objective(name, +1 if maximise else -1, utility)


def get_objective(objective: str | Objective) -> Objective:
    """The objective named ``objective`` (or the one given); unknown names raise :class:`InputError`."""
    if isinstance(objective, Objective):
        return objective
    if objective not in BUILT_IN:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
    return BUILT_IN[objective]
