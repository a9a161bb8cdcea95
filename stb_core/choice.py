r"""How a move is chosen: one ranking for every policy, one choice function, one equality rule.

A policy ranks the legal moves ``m`` of a board ``S`` for an outcome ``r`` lexicographically, each key larger
preferred:

1. the **value** the move leaves, ``direction x sense x V(S \ m)`` (``optimal``: direction +1, ``worst``: -1), two
   values counting as equal by :func:`same_value`;
2. a **key** of the move and of the board it leaves, added: ``move_key(m) + left_key(S \ m)`` (a heuristic, a
   strategy card; int64, compared exactly) -- see :mod:`stb_core.policies`;
3. the **tie-break** (:class:`TieBreak`): ``canonical`` (the first move in canonical order), ``fewest-tiles`` or
   ``most-tiles`` (then the highest tiles, compared by their values from the highest down, then canonical).

A **deterministic** ranking plays its first move: that choice, for every board and outcome, is the move table
``sigma`` (the move's index in ``game.catalogue.of(r)``; -1 where no move is legal), which the sweep records in the
pass that computes ``V``. A **mixture** plays each move whose keys 1 and 2 equal the best with the same chance: the
``random`` tie-break; ``random`` play has no keys at all, so every legal move alike. A ranking may also be a given
move table (a user's function asked once per board and outcome, a strategy card being searched).

**Dice.** Where the rules let the player choose, a ranking rolls one die when that is better for it by more than
the tolerance (for ``worst``: better *against* the objective), unless it follows a fixed dice rule
(:data:`DICE_RULES`: a strategy card's); where the rules force one die it rolls one. :func:`dice_plan` gives that
choice as a code per board for the sweeps.

:func:`choose` is the one choice function on (board, move) pairs (numpy: exact and float runs);
:mod:`stb_core._kernels` mirrors it board by board (``best_moves``) for the compiled loops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .boards import Pairs, board_tiles, frozen, tile_counts
from .game import Game, per_game
from .rules import InputError

VALUE_RTOL = 1e-9  # values within this relative distance of each other count as equal (float runs)
NO_LOSS = 1e-12    # a loss this small (absolute, in the objective's units) is rounding, shown as none


def same_value(a, b):
    """Whether two values (or arrays of them) are equal: exactly for Fractions, within ``VALUE_RTOL`` of the
    larger in size for floats -- the one value-equality rule (the compiled kernels mirror it).

    Float runs round at about 1e-15 relative, while two moves that differ exactly differ by 1e-5 relative or more
    on every board of up to 10 tiles, so float and exact runs play the same moves (a test checks it)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object or b.dtype == object:
        return a == b
    return np.abs(a - b) <= VALUE_RTOL * np.maximum(np.abs(a), np.abs(b))


def no_loss(loss):
    """Whether a loss (or an array of them) is nothing but rounding: at most ``NO_LOSS`` in size."""
    return np.abs(np.asarray(loss, dtype=float)) <= NO_LOSS


# -- the dice ------------------------------------------------------------------------------------------------------
# A fixed dice rule: from boards (bit-masks) and their open sums, whether the player wants one die (where allowed).
DICE_RULES = {
    "all": lambda boards, sums: np.zeros(np.shape(boards), dtype=bool),
    "one": lambda boards, sums: np.ones(np.shape(boards), dtype=bool),
    "le6": lambda boards, sums: np.asarray(sums) <= 6,
}
ALL_DICE, ONE_DIE_IF_BETTER, ONE_DIE = 0, 1, 2  # how a ranking picks its dice on a board (see dice_plan)


def dice_plan(game: Game, dice_rule: str | None) -> np.ndarray:
    """How a ranking picks its dice on every board, as int8 codes: ``ALL_DICE``; ``ONE_DIE`` (forced by the rules,
    or the ranking's fixed ``dice_rule`` says so where one die is allowed); ``ONE_DIE_IF_BETTER`` (the sweep compares
    the two expected values)."""
    if not game.rules.has_one_die_rule:
        return np.zeros(game.states, dtype=np.int8)
    allowed = game.one_die
    if game.rules.one_die_forced:
        return allowed.astype(np.int8) * np.int8(ONE_DIE)
    if dice_rule is not None:
        return (allowed & DICE_RULES[dice_rule](game.boards, game.sums)).astype(np.int8) * np.int8(ONE_DIE)
    return allowed.astype(np.int8) * np.int8(ONE_DIE_IF_BETTER)


# -- orders of moves -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveOrders:
    """For every move of the catalogue (``catalogue.flat``): its tile count and two dense ranks of its tiles' values,
    ``high`` ordering moves by their values in decreasing order, compared lexicographically (larger ranks higher:
    {9, 1} above {9}, {9} above {8, 7}) and ``low`` by their values in increasing order ({1, 8} below {2, 7},
    {1, 2, 6} below {1, 8}) -- by value, never by position, so a Double Shutter back tile ranks as its value."""

    count: np.ndarray
    high: np.ndarray
    low: np.ndarray


@per_game
def move_orders(game: Game) -> MoveOrders:
    """The :class:`MoveOrders` of ``game``'s catalogue."""
    flat = game.catalogue.flat
    values = [sorted((game.tile_values[t - 1] for t in board_tiles(m)), reverse=True) for m in flat.tolist()]

    def dense(keys) -> np.ndarray:
        order = {k: i for i, k in enumerate(sorted(set(keys)))}
        return frozen(np.array([order[k] for k in keys], dtype=np.int64))

    return MoveOrders(frozen(tile_counts(flat)), dense([tuple(v) for v in values]),
                      dense([tuple(reversed(v)) for v in values]))


# -- the tie-break -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TieBreak:
    """A named rule choosing among equally good moves: the fewest (``by_count`` -1) or most (+1) tiles, then the
    highest tiles by value, then canonical; canonical alone (0); or ``mix``: each of them with the same chance."""

    name: str
    description: str
    by_count: int = 0
    mix: bool = False

    def rank(self, game: Game) -> np.ndarray:
        """The rank of every move of the catalogue among the moves of its outcome (``catalogue.flat``; 0 = most
        preferred), unique within an outcome."""
        return tie_ranks(game, self.by_count)


@per_game
def tie_ranks(game: Game, by_count: int) -> np.ndarray:
    """:meth:`TieBreak.rank` for a count preference, over ``catalogue.flat``."""
    catalogue = game.catalogue
    rank = np.empty(catalogue.flat.size, dtype=np.int64)
    orders = move_orders(game)
    for code in catalogue.codes:
        first, last = catalogue.starts[code - catalogue.lo], catalogue.starts[code - catalogue.lo + 1]
        if by_count == 0:
            order = np.arange(last - first)
        else:  # the preferred first: (count preference, then the highest values), canonical among equals (stable)
            order = np.lexsort((-orders.high[first:last], -by_count * orders.count[first:last]))
        rank[first + order] = np.arange(last - first)
    return frozen(rank)


TIE_BREAKS = {
    "canonical": TieBreak("canonical", "the first move in lexicographic order of its sorted tiles"),
    "fewest-tiles": TieBreak("fewest-tiles", "fewest tiles, then the highest tiles", by_count=-1),
    "most-tiles": TieBreak("most-tiles", "most tiles, then the highest tiles", by_count=+1),
    "random": TieBreak("random", "each of the equally good moves with the same chance (valued exactly)", mix=True),
}


def get_tie_break(tie_break: str | TieBreak) -> TieBreak:
    """The tie-break named ``tie_break`` (one of ``TIE_BREAKS``), or the one given; anything else raises
    :class:`InputError` naming the choices."""
    if isinstance(tie_break, TieBreak):
        return tie_break
    if isinstance(tie_break, str) and tie_break in TIE_BREAKS:
        return TIE_BREAKS[tie_break]
    raise InputError(f"tie_break must be one of {', '.join(TIE_BREAKS)}; got {tie_break!r}")


# -- the ranking ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ranking:
    """A policy bound to one game (see the module docstring): ``values`` (+1, -1 or 0: the value key's direction),
    ``move_key`` (int64 over ``catalogue.flat``) and ``left_key`` (int64 over boards), each None when the policy has
    none, the tie-break's ``rank`` (over ``catalogue.flat``), ``mix``, the fixed ``dice_rule`` (None: by value), and
    ``table``: a given move table instead of keys."""

    name: str
    values: int = 0
    move_key: np.ndarray | None = field(default=None, compare=False)
    left_key: np.ndarray | None = field(default=None, compare=False)
    rank: np.ndarray | None = field(default=None, compare=False)
    mix: bool = False
    dice_rule: str | None = None
    table: np.ndarray | None = field(default=None, compare=False)
    canonical: bool = True  # the tie-break is canonical order: the first best move met is played

    @property
    def dice_direction(self) -> int:
        """+1: dice chosen for the objective; -1: against it (``worst``)."""
        return -1 if self.values < 0 else +1

    @property
    def keyed(self) -> bool:
        return self.move_key is not None or self.left_key is not None


def key_of(ranking: Ranking, pairs: Pairs, flat_index: np.ndarray) -> np.ndarray:
    """Key 2 of each pair: ``move_key`` + ``left_key`` (int64)."""
    key = np.zeros(pairs.parent.size, dtype=np.int64)
    if ranking.move_key is not None:
        key += ranking.move_key[flat_index]
    if ranking.left_key is not None:
        key += ranking.left_key[pairs.child]
    return key


LEAST, MOST = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def run_best(pairs: Pairs, key: np.ndarray) -> np.ndarray:
    """The largest ``key`` of each board's run of pairs, spread back over the run (exact for any dtype: a maximum
    rounds nothing)."""
    return pairs.per_pair(np.maximum.reduceat(key, pairs.starts, axis=0))


def best_moves(game: Game, ranking: Ranking, pairs: Pairs, values: np.ndarray | None, sense: int) -> np.ndarray:
    """Mask over ``pairs``: the moves ranking first on their board by keys 1 and 2 (the tie-break not applied).
    ``values`` are the values ranked by (``V`` of every board; unused by a ranking without a value key)."""
    alive = np.ones(pairs.parent.size, dtype=bool)
    if pairs.parent.size == 0:
        return alive
    if ranking.values:
        key = (ranking.values * sense) * values[pairs.child]
        alive &= same_value(key, run_best(pairs, key))
    if ranking.keyed:
        key = key_of(ranking, pairs, game.catalogue.starts[pairs.code - game.catalogue.lo] + pairs.move)
        alive &= key == run_best(pairs, np.where(alive, key, LEAST))
    return alive


def first_of(pairs: Pairs, among: np.ndarray, rank: np.ndarray | None) -> np.ndarray:
    """In each (board, outcome) run of pairs, the position of the pair of least ``rank`` among ``among`` (``rank``
    unique within a run; None: canonical, the first in the run; with a second axis, one per column of ``among``);
    every run must hold one of ``among``."""
    n = pairs.at.size
    place = np.arange(n).reshape((n,) + (1,) * (among.ndim - 1))
    if rank is None:
        return np.minimum.reduceat(np.where(among, place, n), pairs.starts, axis=0)
    key = np.where(among, rank.reshape(place.shape) * n + place, MOST)  # least rank first, then its place
    return np.minimum.reduceat(key, pairs.starts, axis=0) % n


def choose(game: Game, ranking: Ranking, pairs: Pairs, values: np.ndarray | None, sense: int) -> np.ndarray:
    """Mask over ``pairs``, one per board with a legal move: the move a deterministic ranking plays -- the
    tie-break's first among :func:`best_moves` (or the given move table's)."""
    if ranking.table is not None:
        return pairs.move == ranking.table[pairs.parent, pairs.code - game.catalogue.lo]
    if pairs.parent.size == 0:
        return np.zeros(0, dtype=bool)
    rank = ranking.rank[game.catalogue.starts[pairs.code - game.catalogue.lo] + pairs.move]
    chosen = np.zeros(pairs.at.size, dtype=bool)
    chosen[first_of(pairs, best_moves(game, ranking, pairs, values, sense), rank)] = True
    return chosen


def move_chances(game: Game, ranking: Ranking, pairs: Pairs, values: np.ndarray | None, sense: int,
                 exact: bool) -> np.ndarray:
    """The chance that the ranking plays each pair's move on its board: 1 for the chosen move of a deterministic
    ranking, ``1 / (moves ranking first)`` for a mixture's best moves, 0 otherwise (Fractions when ``exact``)."""
    among = best_moves(game, ranking, pairs, values, sense) if ranking.mix else \
        choose(game, ranking, pairs, values, sense)
    count = pairs.per_pair(np.add.reduceat(among.astype(np.int64), pairs.starts)) if among.size else among
    if exact:
        return np.array([Fraction(int(a), c) if c else Fraction(0)
                         for a, c in zip(among.tolist(), count.tolist(), strict=True)], dtype=object)
    return np.where(among, 1.0 / np.maximum(count, 1), 0.0)


def draw(game: Game, ranking: Ranking, pairs: Pairs, values, sense: int, rng: np.random.Generator) -> np.ndarray:
    """Mask over ``pairs``: one move per board -- the ranking's, or for a mixture one of its best moves drawn
    uniformly with ``rng``."""
    if not ranking.mix:
        return choose(game, ranking, pairs, values, sense)
    among = best_moves(game, ranking, pairs, values, sense)
    key = np.where(among, rng.random(pairs.parent.size), -1.0)
    if key.size == 0:
        return among
    return among & (key == run_best(pairs, key))
