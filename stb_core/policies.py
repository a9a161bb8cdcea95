"""How a player picks a move (policies), and the named rule that picks among equally good moves (tie-breaks).

A policy chooses, for every board ``S`` and roll total ``r`` with a legal move, one move ``sigma(S, r)`` (a
bit-mask). For a deterministic policy that choice is data, the **move table** ``sigma``, which
:class:`stb_core.sweep.Solution` builds on request together with the dice rolled from each board. Four kinds:

* :class:`ValueRanked` -- ranks moves by the value of the board they leave: ``optimal`` (the objective's
  best) and ``worst`` (its worst: source 002's *min* strategy);
* :class:`KeyRanked` -- ranks moves by a key of (board, move) that needs no values: ``highest-tile``
  (fewest tiles, then the highest tiles: source 002's hypothesis), ``sequence-count`` (most dice-weighted
  winning sequences after the move: source 000's rule), or any vectorised key (:func:`key_policy`);
* :class:`UniformRandom` -- a mixture: every legal move with the same chance (``random``, valued exactly);
* :class:`FunctionPolicy` -- a function ``(open_tiles, roll, legal_moves) -> move`` on tuples of tiles.

**Ties.** Moves that rank equal are decided by a :class:`TieBreak`, part of every solution:

* ``canonical``    -- the first move in lexicographic order of its sorted tiles: ``(1, 6) < (3, 4) < (7,)``;
* ``fewest-tiles`` -- fewest tiles, then the highest tiles (source 002's rule, used as a tie-break);
* ``most-tiles``   -- most tiles, then the highest tiles.

Exact (Fraction) runs find equal values exactly. Float runs treat two values within a relative ``VALUE_RTOL``
(1e-9) of each other as equal (:func:`same_value`, the one rule every float comparison of values uses): their
rounding error is about 1e-15 relative, while two moves that differ exactly differ by 1e-5 relative or more on
every board of up to 10 tiles, so float and exact runs pick the same moves (a test checks it). Keys of
key-ranked policies are compared exactly.

**Dice.** A policy rolls all the dice unless the rules allow one die and one die is better for it by more
than the tolerance (for ``worst``: better *against* the objective), or the rules force one die. A policy
with a fixed ``dice_rule`` (a strategy card) follows it instead: one of :data:`DICE_RULES` -- ``"all"`` (never one
die), ``"one"`` (one die whenever allowed), ``"le6"`` (one die when allowed and 6 or less is left).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .boards import board_tiles, tile_counts
from .game import game_of
from .objectives import Objective
from .rules import InputError, Rules

VALUE_RTOL = 1e-9  # values within this relative distance of each other count as equal (float runs)


def same_value(a, b):
    """Whether two values (or arrays of them) are equal: exactly for Fractions, within ``VALUE_RTOL`` of the
    larger in size for floats -- the one value-equality rule of the engine (the compiled kernels mirror it)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object or b.dtype == object:
        return a == b
    return np.abs(a - b) <= VALUE_RTOL * np.maximum(np.abs(a), np.abs(b))

PolicyFunction = Callable[[tuple[int, ...], int, list[tuple[int, ...]]], tuple[int, ...]]


# A fixed dice rule: from boards (bit-masks) and their open sums, whether the player wants one die (where allowed).
DICE_RULES = {
    "all": lambda boards, sums: np.zeros(np.shape(boards), dtype=bool),
    "one": lambda boards, sums: np.ones(np.shape(boards), dtype=bool),
    "le6": lambda boards, sums: np.asarray(sums) <= 6,
}
ALL_DICE, ONE_DIE_IF_BETTER, ONE_DIE = 0, 1, 2  # how a policy picks its dice on a board (see one_die_plan)


def one_die_plan(rules: Rules, policy: Policy, allowed: np.ndarray, boards: np.ndarray, sums: np.ndarray):
    """How ``policy`` picks its dice on each board (``allowed``: where the rules allow one die; ``sums``: the
    open totals), as int8 codes: ``ALL_DICE``; ``ONE_DIE`` (forced by the rules, or the policy's fixed
    ``dice_rule`` says so); ``ONE_DIE_IF_BETTER`` (the sweep compares the two expected values)."""
    allowed = np.asarray(allowed, dtype=bool)
    if rules.one_die_forced:
        return allowed.astype(np.int8) * np.int8(ONE_DIE)
    if policy.dice_rule is not None:
        return (allowed & DICE_RULES[policy.dice_rule](boards, sums)).astype(np.int8) * np.int8(ONE_DIE)
    return allowed.astype(np.int8) * np.int8(ONE_DIE_IF_BETTER)


# -- ranking moves --------------------------------------------------------------------------------------
def _per_parent_best(index: np.ndarray, size: int, key: np.ndarray) -> np.ndarray:
    """For each parent ``0 .. size - 1``: the largest ``key`` among its pairs (``-inf`` where it has none)."""
    best = np.full(size, -np.inf, dtype=object if key.dtype == object else float)
    np.maximum.at(best, index, key)
    return best


def _equal_to_best(key: np.ndarray, best: np.ndarray, tolerant: bool) -> np.ndarray:
    """Whether each key equals its parent's best: exactly, or by :func:`same_value` when ``tolerant``."""
    if not tolerant or key.dtype == object:
        return key == best
    return same_value(key, best)


def pick_moves(index: np.ndarray, size: int, keys: list[tuple[np.ndarray, bool]], rank: np.ndarray) -> np.ndarray:
    """Choose one pair per parent, lexicographically: the largest first key (equal within tolerance when its
    flag says so), then the largest second key among those, ..., then the smallest ``rank``.

    ``index[i]`` is the parent (``0 .. size - 1``) of pair ``i``; each key is aligned with the pairs; ``rank``
    (unique among one parent's pairs) is the tie-break's preference. Returns a boolean mask over the pairs
    with exactly one ``True`` per parent that has pairs.
    """
    alive = np.ones(index.size, dtype=bool)
    for key, tolerant in keys:
        best = _per_parent_best(index[alive], size, key[alive])
        alive &= _equal_to_best(key, best[index], tolerant)
    least = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(least, index[alive], rank[alive])
    return alive & (rank == least[index])


@dataclass(frozen=True)
class TieBreak:
    """A named rule choosing among equally good moves: a preference among moves (``preference``: larger is
    preferred), then ``canonical``. ``kind`` is its code in the compiled kernels."""

    name: str
    description: str
    preference: Callable[[np.ndarray, int], np.ndarray] | None = None
    kind: int = 0

    def rank(self, moves: np.ndarray, tiles: int) -> np.ndarray:
        """Rank of each move of one roll total given in canonical order (0 = most preferred); unique."""
        moves = np.asarray(moves, dtype=np.int64)
        if self.preference is None:
            return np.arange(moves.size, dtype=np.int64)
        order = np.argsort(-self.preference(moves, tiles), kind="stable")  # stable: canonical among equals
        rank = np.empty(moves.size, dtype=np.int64)
        rank[order] = np.arange(moves.size)
        return rank


def fewest_then_highest(moves: np.ndarray, tiles: int) -> np.ndarray:
    """Preference "fewest tiles, then the highest tiles" (larger preferred): among moves of as many
    tiles, the one holding the highest tile where they differ has the larger bit-mask, so the key is
    ``mask - count * 2**tiles`` (exact in int64)."""
    moves = np.asarray(moves, dtype=np.int64)
    return moves - tile_counts(moves) * (1 << tiles)


def most_then_highest(moves: np.ndarray, tiles: int) -> np.ndarray:
    """Preference "most tiles, then the highest tiles" (larger preferred): ``mask + count * 2**tiles``."""
    moves = np.asarray(moves, dtype=np.int64)
    return moves + tile_counts(moves) * (1 << tiles)


TIE_BREAKS = {
    "canonical": TieBreak("canonical", "the first move in lexicographic order of its sorted tiles"),
    "fewest-tiles": TieBreak("fewest-tiles", "fewest tiles, then the highest tiles", fewest_then_highest, 1),
    "most-tiles": TieBreak("most-tiles", "most tiles, then the highest tiles", most_then_highest, 2),
    "random": TieBreak("random", "each of the equally good moves with the same chance (valued exactly)", kind=-1),
}


def get_tie_break(tie_break: str | TieBreak) -> TieBreak:
    """The tie-break named ``tie_break`` (``canonical``, ``fewest-tiles`` or ``most-tiles``), or the one given;
    unknown names raise :class:`InputError`."""
    if isinstance(tie_break, TieBreak):
        return tie_break
    if isinstance(tie_break, str) and tie_break in TIE_BREAKS:
        return TIE_BREAKS[tie_break]
    raise InputError(f"tie_break must be one of {', '.join(TIE_BREAKS)}; got {tie_break!r}")


# -- the pairs a choice is made among -------------------------------------------------------------------
class Pairs:
    """Every legal (board, move) pair for one ``roll`` total on some boards, as aligned arrays: ``parent`` (the
    board), ``child`` (the board left after the move), ``index`` (the parent's position among the ``size``
    boards), ``move``, and ``rank`` (the move's tie-break rank: smaller preferred).

    ``index``, ``move`` and ``rank`` may be given as functions of the pairs, computed on first use (the
    solver's fast path needs only parents and children)."""

    def __init__(self, roll: int, size: int, parent: np.ndarray, child: np.ndarray, index, move=None, rank=None):
        self.roll, self.size, self.parent, self.child = roll, size, parent, child
        self._lazy = {"index": index, "move": move if move is not None else (lambda p: p.parent & ~p.child),
                      "rank": rank}

    def __getattr__(self, name: str):
        lazy = self.__dict__.get("_lazy", {})
        if name not in lazy:
            raise AttributeError(name)
        value = lazy[name](self) if callable(lazy[name]) else lazy[name]
        setattr(self, name, value)
        return value

    def subset(self, keep: np.ndarray) -> Pairs:
        """The pairs at positions ``keep``."""
        return Pairs(self.roll, self.size, self.parent[keep], self.child[keep], self.index[keep], self.move[keep],
                     self.rank[keep])

    @classmethod
    def on(cls, rules: Rules, boards: np.ndarray, roll: int, tie: TieBreak) -> Pairs:
        """The pairs of ``boards`` (any int array) for ``roll``, in board order then canonical move order."""
        boards = np.asarray(boards, dtype=np.int64)
        moves = game_of(rules).moves.moves(roll)
        if moves.size == 0:
            empty = np.zeros(0, dtype=np.int64)
            return cls(roll, boards.size, empty, empty, empty, empty, empty)
        rows, cols = np.nonzero(game_of(rules).legal(boards, moves))
        parent = boards[rows]
        return cls(roll, boards.size, parent, parent & ~moves[cols], rows, moves[cols],
                   tie.rank(moves, rules.positions)[cols])


@dataclass(frozen=True)
class Context:
    """What a policy may look at when it chooses: the rules, the objective it is judged by, the tie-break,
    the values ``V`` known so far."""

    rules: Rules
    objective: Objective
    tie_break: TieBreak
    exact: bool
    values: np.ndarray


# -- policies ---------------------------------------------------------------------------------------------
class Policy:
    """How a player picks a move. Subclasses say how moves rank (:meth:`keys`) or, for a mixture, how the
    chances spread (:meth:`weights`); :meth:`choose` and the solver's sweep do the rest."""

    name: str
    mixture: bool = False      # True: no single move, a chance for each legal move (no move table)
    dice_direction: int = +1   # +1: dice chosen for the objective; -1: against it (``worst``)
    dice_rule: str | None = None  # None: dice chosen by value; else a key of DICE_RULES
    uses_values: bool = False  # whether the ranking reads the values of the boards after the moves

    def bind(self, rules: Rules) -> Policy:
        """The policy ready for ``rules`` (e.g. with a table it needs computed); ``self`` by default."""
        return self

    def keys(self, context: Context, pairs: Pairs) -> list[tuple[np.ndarray, bool]]:
        """Keys ranking each pair, most significant first (larger preferred), each with whether values
        within ``VALUE_RTOL`` count as equal."""
        raise NotImplementedError

    def choose(self, context: Context, pairs: Pairs) -> np.ndarray:
        """Mask over ``pairs``: the one move chosen per board (the tie-break decides among equals)."""
        return pick_moves(pairs.index, pairs.size, self.keys(context, pairs), pairs.rank)

    def weights(self, pairs: Pairs, exact: bool = False, context: Context | None = None) -> np.ndarray:
        """Chance of each pair's move for a mixture policy (summing to 1 per board with a move; Fractions
        when ``exact``; ``context``: the values so far, for a mixture that ranks by them)."""
        raise InputError(f"policy {self.name!r} is deterministic: it has a move table, not move chances")

    def __repr__(self) -> str:
        return f"<policy {self.name}>"


@dataclass(frozen=True, repr=False)
class ValueRanked(Policy):
    """Moves ranked by ``direction x sense x V(S \\ m)``: ``optimal`` (+1) or ``worst`` (-1)."""

    name: str
    direction: int
    uses_values = True

    @property
    def dice_direction(self) -> int:  # type: ignore[override]
        return self.direction

    def keys(self, context: Context, pairs: Pairs) -> list[tuple[np.ndarray, bool]]:
        return [(self.direction * context.objective.sense * context.values[pairs.child], True)]


@dataclass(frozen=True, repr=False)
class KeyRanked(Policy):
    """Moves ranked by a key of (board, move) needing no values, larger preferred, compared exactly:
    ``key(rules)`` returns the function ``(parents, children, moves) -> keys`` on aligned int arrays."""

    name: str
    key: Callable[[Rules], Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]]
    dice_rule: str | None = None
    bound: Callable | None = field(default=None, compare=False)

    def bind(self, rules: Rules) -> KeyRanked:
        return KeyRanked(self.name, self.key, self.dice_rule, self.key(rules))

    def keys(self, context: Context, pairs: Pairs) -> list[tuple[np.ndarray, bool]]:
        if self.bound is None:
            raise InputError(f"policy {self.name!r} must be bound to the rules first (Policy.bind)")
        return [(np.asarray(self.bound(pairs.parent, pairs.child, pairs.move)), False)]


def key_policy(name: str, key: Callable[[Rules], Callable]) -> KeyRanked:
    """A heuristic from a vectorised key: ``key(rules)`` gives ``(parents, children, moves) -> keys``
    (larger preferred). E.g. shut the most tiles:
    ``key_policy("most tiles", lambda rules: lambda parents, children, moves: tile_counts(moves))``."""
    return KeyRanked(name, key)


def _uniform(among: np.ndarray, pairs: Pairs, exact: bool) -> np.ndarray:
    """The chance of each pair when each board plays one of its pairs in ``among`` (a mask), each alike."""
    count = np.bincount(pairs.index[among], minlength=pairs.size)[pairs.index]
    if exact:
        return np.array([Fraction(int(a), c) if c else Fraction(0) for a, c in zip(among.tolist(), count.tolist(),
                                                                                    strict=True)], dtype=object)
    return np.where(among, 1.0 / np.maximum(count, 1), 0.0)


def _draw(among: np.ndarray, pairs: Pairs, rng: np.random.Generator) -> np.ndarray:
    """Mask over ``pairs``: one pair in ``among`` per board, drawn uniformly with ``rng``."""
    key = np.where(among, rng.random(pairs.index.size), -1.0)
    return pick_moves(pairs.index, pairs.size, [(key, False)], pairs.rank) & among


class UniformRandom(Policy):
    """Every legal move with equal chance: valued exactly as the average over the legal moves."""

    name = "random"
    mixture = True

    def keys(self, context: Context, pairs: Pairs):
        raise InputError("policy 'random' has no single move: it is a mixture of every legal move")

    def weights(self, pairs: Pairs, exact: bool = False, context: Context | None = None) -> np.ndarray:
        return _uniform(np.ones(pairs.index.size, dtype=bool), pairs, exact)

    def sample(self, pairs: Pairs, rng: np.random.Generator, context: Context | None = None) -> np.ndarray:
        """Mask over ``pairs``: one move per board drawn uniformly with ``rng``."""
        return _draw(np.ones(pairs.index.size, dtype=bool), pairs, rng)


@dataclass(frozen=True, repr=False)
class RandomTies(Policy):
    """A ranking policy whose equally ranked moves are played with equal chances (``tie_break="random"``): a
    mixture over the moves it ranks first, valued exactly as their average."""

    inner: Policy
    mixture = True

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.inner.name

    @property
    def dice_direction(self) -> int:  # type: ignore[override]
        return self.inner.dice_direction

    @property
    def dice_rule(self) -> str | None:  # type: ignore[override]
        return self.inner.dice_rule

    @property
    def uses_values(self) -> bool:  # type: ignore[override]
        return self.inner.uses_values

    def bind(self, rules: Rules) -> RandomTies:
        return RandomTies(self.inner.bind(rules))

    def _first(self, context: Context, pairs: Pairs) -> np.ndarray:
        """The pairs the inner policy ranks first on their board (every key equal to the best)."""
        alive = np.ones(pairs.index.size, dtype=bool)
        for key, tolerant in self.inner.keys(context, pairs):
            best = _per_parent_best(pairs.index[alive], pairs.size, key[alive])
            alive &= _equal_to_best(key, best[pairs.index], tolerant)
        return alive

    def weights(self, pairs: Pairs, exact: bool = False, context: Context | None = None) -> np.ndarray:
        return _uniform(self._first(context, pairs), pairs, exact)

    def sample(self, pairs: Pairs, rng: np.random.Generator, context: Context | None = None) -> np.ndarray:
        return _draw(self._first(context, pairs), pairs, rng)


def with_random_ties(policy: Policy) -> Policy:
    """``policy`` playing its equally ranked moves with equal chances; refused for a policy that ranks no moves."""
    if policy.mixture or not isinstance(policy, ValueRanked | KeyRanked):
        raise InputError(f"tie_break random needs a policy that ranks moves (optimal, worst or a named heuristic); "
                         f"policy {policy.name!r} does not")
    return RandomTies(policy)


@dataclass(frozen=True, repr=False)
class FunctionPolicy(Policy):
    """A user function ``(open_tiles, roll, legal_moves) -> move`` on tuples of tiles, asked once per
    (board, roll); the move it returns must be one of the legal ones."""

    function: PolicyFunction

    @property
    def name(self) -> str:  # type: ignore[override]
        return getattr(self.function, "__name__", "function")

    def choose(self, context: Context, pairs: Pairs) -> np.ndarray:
        chosen = np.zeros(pairs.index.size, dtype=bool)
        starts = np.flatnonzero(np.r_[True, pairs.index[1:] != pairs.index[:-1]]) if pairs.index.size else []
        bounds = [*starts, pairs.index.size]
        for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
            options = pairs.move[start:stop].tolist()
            move = call_policy(self.function, int(pairs.parent[start]), pairs.roll, options)
            chosen[start + options.index(move)] = True
        return chosen


@dataclass(frozen=True, repr=False)
class TablePolicy(Policy):
    """A deterministic policy given as data: its move table ``sigma[S, r]`` (``-1`` where no move) and a
    fixed ``dice_rule``. Valuing one move table under several objectives needs no new choices."""

    name: str
    sigma: np.ndarray = field(compare=False)
    dice_rule: str | None = None

    def choose(self, context: Context, pairs: Pairs) -> np.ndarray:
        return pairs.move == self.sigma[pairs.parent, pairs.roll]


def call_policy(function: PolicyFunction, board: int, roll: int, options: list[int]) -> int:
    """Ask a user policy function for its move and check that it is one of the legal ones."""
    tuples = [board_tiles(m) for m in options]
    move = tuple(sorted(int(t) for t in function(board_tiles(board), roll, tuples)))
    if move not in tuples:
        raise InputError(f"policy function returned {move} for open {board_tiles(board)} and roll {roll}; "
                         f"legal moves are {tuples}")
    return options[tuples.index(move)]


# -- the named policies -----------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _move_ranks(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every move of the game (sorted bit-masks) with its tile count and two dense ranks of its tiles' values:
    ``high`` orders moves by their values in decreasing order, compared lexicographically (the larger ranks
    higher: {9, 1} above {9}, {9} above {8, 7}); ``low`` by their values in increasing order ({1, 8} below
    {2, 7}, {1, 2, 6} below {1, 8})."""
    game = game_of(rules)
    masks = np.unique(np.concatenate([game.moves.moves(r) for r in game.roll_totals] + [np.zeros(0, np.int64)]))
    values = [sorted((game.tile_values[t - 1] for t in board_tiles(m)), reverse=True) for m in masks.tolist()]

    def dense(keys) -> np.ndarray:
        order = {k: i for i, k in enumerate(sorted(set(keys)))}
        return np.array([order[k] for k in keys], dtype=np.int64)

    high = dense([tuple(v) for v in values])
    low = dense([tuple(reversed(v)) for v in values])
    return masks, np.array([len(v) for v in values], dtype=np.int64), high, low


def _lookup(rules: Rules, column: int):
    """A key function reading one column of :func:`_move_ranks` for the moves of the pairs."""
    table = _move_ranks(rules)
    masks, values = table[0], table[column]
    return lambda moves: values[np.searchsorted(masks, moves)]


def _highest_tile(rules: Rules):
    """Fewest tiles, then the highest tiles (by value, compared from the highest down): source 002's rule."""
    count, high = _lookup(rules, 1), _lookup(rules, 2)
    return lambda parents, children, moves: high(moves) - count(moves) * (1 << 40)


def _largest_tile(rules: Rules):
    """The largest tile, then the largest second tile, and so on (the literature's "largest tile first")."""
    high = _lookup(rules, 2)
    return lambda parents, children, moves: high(moves)


def _lowest_tile(rules: Rules):
    """The lowest tile, then the lowest second tile, and so on."""
    low = _lookup(rules, 3)
    return lambda parents, children, moves: -low(moves)


def _tile_count(sign: int):
    def key(rules: Rules):
        count = _lookup(rules, 1)
        return lambda parents, children, moves: sign * count(moves)
    return key


def over_outcomes(rules: Rules, per_board, weighted: bool = False) -> np.ndarray:
    """For every board, ``per_board(legal)`` added up over the outcomes of a throw of all the dice, where ``legal``
    is the board-by-move matrix of that outcome's legal moves (outcomes with no move at all add nothing); with
    ``weighted``, each outcome counts as many times as the ``sides**dice`` equally likely throws that show it."""
    game = game_of(rules)
    total = np.zeros(game.states, dtype=np.int64)
    for code, throws in game.weights(rules.dice).items():
        moves = game.moves.moves(code)
        if moves.size:
            total += per_board(game.legal(game.boards, moves)) * (throws if weighted else 1)
    total.flags.writeable = False
    return total


@lru_cache(maxsize=16)
def playable_outcomes(rules: Rules) -> np.ndarray:
    """For every board: how many outcomes of a throw of all the dice leave it some legal move."""
    return over_outcomes(rules, lambda legal: legal.any(axis=1))


def _most_options(rules: Rules):
    """The move after which the most outcomes of the next throw can still be played."""
    options = playable_outcomes(rules)
    return lambda parents, children, moves: options[children]


class _SequenceCount:
    """Key of ``sequence-count``: the dice-weighted winning sequences left after the move (source 000)."""

    def __call__(self, rules: Rules):
        from .counts import total_winning_sequences

        counts = total_winning_sequences(rules)
        return lambda parents, children, moves: counts[children]


OPTIMAL = ValueRanked("optimal", +1)
POLICY_OBJECTS: dict[str, Policy] = {
    "optimal": OPTIMAL,
    "worst": ValueRanked("worst", -1),
    "highest-tile": KeyRanked("highest-tile", _highest_tile),
    "sequence-count": KeyRanked("sequence-count", _SequenceCount()),
    "random": UniformRandom(),
    "largest-tile": KeyRanked("largest-tile", _largest_tile),
    "lowest-tile": KeyRanked("lowest-tile", _lowest_tile),
    "fewest-tiles": KeyRanked("fewest-tiles", _tile_count(-1)),
    "most-tiles": KeyRanked("most-tiles", _tile_count(+1)),
    "most-options": KeyRanked("most-options", _most_options),
}
POLICIES = tuple(POLICY_OBJECTS)


def get_policy(policy: str | Policy | PolicyFunction) -> Policy:
    """The policy named ``policy`` (one of ``POLICIES``), a :class:`Policy`, or a user function wrapped as
    one; anything else raises :class:`InputError` naming the choices."""
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, str) and policy in POLICY_OBJECTS:
        return POLICY_OBJECTS[policy]
    if callable(policy):
        return FunctionPolicy(policy)
    raise InputError(f"policy must be one of {', '.join(POLICIES)} or a function; got {policy!r}")

