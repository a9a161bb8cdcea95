"""How a player picks a move: the named policies, each one ranking of :mod:`stb_core.choice`.

A :class:`Policy` says what ranks a roll's legal moves, and nothing else -- the choice itself, the tie-break, the
dice and the move table are :mod:`stb_core.choice`'s and the sweep's. The kinds, all one class:

* ranked by the **value** the move leaves: ``optimal`` (the objective's best) and ``worst`` (its worst: source
  002's *min* strategy);
* ranked by a **key** of the move and of the board it leaves (``move_key(game)``: one int per move of the
  catalogue; ``left_key(game)``: one per board): the rules of thumb ``highest-tile`` (fewest tiles, then the
  highest tiles: source 002's hypothesis), ``largest-tile`` (the largest tile, then the largest second tile...: the
  literature's usual one), ``lowest-tile``, ``fewest-tiles``, ``most-tiles``, ``most-options`` (the most outcomes
  of the next throw still playable), ``sequence-count`` (the most dice-weighted winning sequences: source 000's
  rule), a strategy card (:mod:`stb_core.cards`), or any :func:`key_policy` -- a new heuristic is one key function;
* ``random``: every legal move with the same chance (a mixture, valued exactly);
* a user's **function** ``(open_tiles, roll, legal_moves) -> move`` on tuples of tiles, asked once per board and
  outcome: its choices become a move table.

Tile values, never bit positions, decide every order here, so Double Shutter's back tiles rank as their values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .boards import board_tiles, pairs_on
from .choice import Ranking, TieBreak, move_orders
from .cost import Estimate, SolveCost, playable_key_cost, sequence_key_cost
from .game import Game, per_game
from .rules import InputError

PolicyFunction = Callable[[tuple[int, ...], int, list[tuple[int, ...]]], tuple[int, ...]]
MoveKey = Callable[[Game], np.ndarray]  # game -> one int64 key per move of game.catalogue.flat (larger preferred)
LeftKey = Callable[[Game], np.ndarray]  # game -> one int64 key per board, of the board a move leaves


@dataclass(frozen=True)
class Policy:
    """How a player picks a move (see the module docstring): by the value left (``values`` +1 or -1), by keys
    (``move_key``, ``left_key``), at random among every legal move (``uniform``), by a user ``function``, or as a
    given move ``table`` (:func:`table_policy`); ``dice_rule`` (a key of :data:`stb_core.choice.DICE_RULES`) fixes
    the dice, else they are chosen by value."""

    name: str
    values: int = 0
    move_key: MoveKey | None = None
    left_key: LeftKey | None = None
    uniform: bool = False
    function: PolicyFunction | None = None
    dice_rule: str | None = None
    table: np.ndarray | None = field(default=None, compare=False, repr=False)
    key_cost: Callable[[SolveCost], Estimate] | None = field(default=None, compare=False, repr=False)

    def key_estimate(self, cost: SolveCost) -> Estimate:
        """What computing the policy's keys adds to a solve of that cost (:mod:`stb_core.cost`); nothing for
        keys read from the move alone."""
        return self.key_cost(cost) if self.key_cost is not None else Estimate()

    def plays_mixture(self, tie: TieBreak) -> bool:
        """Whether the policy with tie-break ``tie`` plays a chance for each of several moves: random play, or any
        ranking whose equally good moves are each played with the same chance (the ``random`` tie-break) -- the one
        rule for whether a solve has move chances rather than a move table."""
        return self.uniform or tie.mix

    def ranking(self, game: Game, tie: TieBreak) -> Ranking:
        """The policy bound to ``game`` with tie-break ``tie``: its keys computed once (cached per game)."""
        if tie.mix and (self.uniform or self.function is not None or self.table is not None):
            raise InputError(f"tie_break random needs a policy that ranks moves (optimal, worst or a named heuristic);"
                             f" policy {self.name!r} does not")
        if self.function is not None:
            return Ranking(self.name, table=_function_table(game, self.function), dice_rule=self.dice_rule)
        if self.table is not None:
            return Ranking(self.name, table=_checked_table(game, self), dice_rule=self.dice_rule)
        move_key, left_key = _keys(game, self)
        return Ranking(self.name, self.values, move_key, left_key, tie.rank(game), self.plays_mixture(tie),
                       self.dice_rule, canonical=tie.by_count == 0)

    def __repr__(self) -> str:
        return f"<policy {self.name}>"


@per_game
def _keys(game: Game, policy: Policy) -> tuple[np.ndarray | None, np.ndarray | None]:
    move_key = None if policy.move_key is None else _checked(policy, policy.move_key(game), game.catalogue.flat.size)
    left_key = None if policy.left_key is None else _checked(policy, policy.left_key(game), game.states)
    return move_key, left_key


def _checked(policy: Policy, keys, size: int) -> np.ndarray:
    """``keys`` as read-only int64 if they are ``size`` integers; :class:`InputError` naming the policy otherwise."""
    keys = np.asarray(keys)
    if keys.shape != (size,) or not (np.issubdtype(keys.dtype, np.integer) or keys.dtype == bool):
        raise InputError(f"policy {policy.name!r} must give one integer key per move (or per board): {size} "
                         f"integers; got {keys.dtype} of shape {keys.shape}")
    out = keys.astype(np.int64)
    out.flags.writeable = False
    return out


def table_policy(name: str, sigma: np.ndarray, dice_rule: str | None = None) -> Policy:
    """A deterministic policy given as data: its move table ``sigma[S, r - lo]`` (the index of the move played in
    ``game.catalogue.of(r)``, -1 where none; a :attr:`~stb_core.sweep.Solution.sigma`), and a fixed ``dice_rule``
    (None: dice chosen by value). Valuing one move table under several objectives needs no new choices."""
    return Policy(name, dice_rule=dice_rule, table=np.asarray(sigma))


def _checked_table(game: Game, policy: Policy) -> np.ndarray:
    """The policy's move table if it fits ``game`` and names only its moves; :class:`InputError` otherwise."""
    table, catalogue = policy.table, game.catalogue
    if table.shape != (game.states, catalogue.width) or not np.issubdtype(table.dtype, np.integer):
        raise InputError(f"policy {policy.name!r}: a move table for {game.rules.describe()} has "
                         f"{game.states} x {catalogue.width} move indices; got {table.dtype} of shape {table.shape}")
    sizes = np.diff(catalogue.starts)
    if np.any(table < -1) or np.any(table >= sizes[None, :]):
        raise InputError(f"policy {policy.name!r}: a move index must be -1 (no move) or one of its outcome's moves")
    for c in range(catalogue.width):
        boards = np.flatnonzero(table[:, c] >= 0)
        moves = catalogue.of(catalogue.lo + c)[table[boards, c]] if boards.size else boards
        legal = game.fits(boards, moves)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise InputError(f"policy {policy.name!r} plays {game.layout.label(int(moves[bad]))} on open "
                             f"{game.layout.label(int(boards[bad]))} for outcome {catalogue.lo + c}: not a legal move")
    return np.ascontiguousarray(table, dtype=catalogue.index_dtype)


def dense_rank(keys) -> np.ndarray:
    """Integer keys in the same order as ``keys`` (any comparable numbers: exact ints, floats): equal keys get
    equal ranks, a larger key a larger rank."""
    _, inverse = np.unique(np.asarray(keys), return_inverse=True)
    return inverse.astype(np.int64).ravel()


def key_policy(name: str, *, move: MoveKey | None = None, left: LeftKey | None = None,
               dice_rule: str | None = None) -> Policy:
    """A heuristic from key functions, larger preferred, added: ``move(game)`` gives one integer per move of
    ``game.catalogue.flat`` (bit-masks), ``left(game)`` one per board (``game.boards``), for the board a move
    leaves. E.g. shut the most tiles:
    ``key_policy("most tiles", move=lambda game: tile_counts(game.catalogue.flat))``."""
    if move is None and left is None:
        raise InputError("key_policy needs a move key, a left key or both")
    return Policy(name, move_key=move, left_key=left, dice_rule=dice_rule)


# -- the named keys ------------------------------------------------------------------------------------------------
def _highest_tile(game: Game) -> np.ndarray:
    """Fewest tiles, then the highest tiles (by value, compared from the highest down): source 002's rule."""
    orders = move_orders(game)
    return orders.high - orders.count * (1 << 40)


def _largest_tile(game: Game) -> np.ndarray:
    """The largest tile, then the largest second tile, and so on (the literature's "largest tile first")."""
    return move_orders(game).high


def _lowest_tile(game: Game) -> np.ndarray:
    """The lowest tile, then the lowest second tile, and so on."""
    return -move_orders(game).low


def _tile_count(sign: int) -> MoveKey:
    return lambda game: sign * move_orders(game).count


def over_outcomes(game: Game, per_board, weighted: bool = False) -> np.ndarray:
    """For every board, ``per_board(legal)`` added up over the outcomes of a throw of all the dice, where ``legal``
    is the board-by-move matrix of that outcome's legal moves (outcomes with no move at all add nothing); with
    ``weighted``, each outcome counts as many times as the ``sides**dice`` equally likely throws that show it."""
    total = np.zeros(game.states, dtype=np.int64)
    for code, throws in game.weights(game.rules.dice).items():
        moves = game.catalogue.of(code)
        if moves.size:
            total += per_board(game.legal(game.boards, moves)) * (throws if weighted else 1)
    total.flags.writeable = False
    return total


def makeable_totals(game: Game) -> np.ndarray | None:
    """For every board, the totals some set of its open tiles adds up to, as bits (bit ``t``: total ``t``) -- where
    a legal move is any set of open tiles adding up to the roll (one row, the sum rule, no cap) and every roll fits
    in 63 bits; None otherwise. One pass per tile: a board's totals are those of the board without its highest tile,
    with and without that tile's value added."""
    rules = game.rules
    capped = rules.max_per_move is not None and rules.max_per_move < game.positions
    if not game.plain or capped or rules.largest_roll > 63:
        return None
    totals = np.zeros(game.states, dtype=np.uint64)
    totals[0] = 1  # the empty set adds up to 0
    for b, value in enumerate(game.tile_values):
        low = totals[: 1 << b]
        totals[1 << b: 2 << b] = low | (low << np.uint64(value)) if value <= 63 else low
    return totals


@per_game
def playable_outcomes(game: Game) -> np.ndarray:
    """For every board: how many outcomes of a throw of all the dice leave it some legal move (where the totals a
    board can make are known at once, :func:`makeable_totals`, a count of bits; else outcome by outcome)."""
    totals = makeable_totals(game)
    if totals is None:
        return over_outcomes(game, lambda legal: legal.any(axis=1))
    rolls = sum(1 << r for r, _ in game.weights(game.rules.dice).items())
    found = np.bitwise_count(totals & np.uint64(rolls)).astype(np.int64)
    found.flags.writeable = False
    return found


def _sequence_count(game: Game) -> np.ndarray:
    """The dice-weighted winning sequences left after the move (source 000): exact counts, ranked."""
    from .counts import total_winning_sequences

    return dense_rank(total_winning_sequences(game.rules))


def _function_table(game: Game, function: PolicyFunction) -> np.ndarray:
    """A user function's move table: asked once for every board not won and outcome with a legal move."""
    catalogue = game.catalogue
    table = np.full((game.states, catalogue.width), -1, dtype=catalogue.index_dtype)
    for code in game.outcomes:
        pairs = pairs_on(game, game.boards[~game.won], code)  # every board a value is given for
        starts = np.flatnonzero(np.r_[True, pairs.at[1:] != pairs.at[:-1]]) if pairs.at.size else []
        bounds = [*starts, pairs.at.size]
        for first, last in zip(bounds[:-1], bounds[1:], strict=True):
            options = pairs.move[first:last].tolist()
            board = int(pairs.parent[first])
            table[board, code - catalogue.lo] = options[call_policy(function, board, code, catalogue.of(code)[options])]
    table.flags.writeable = False
    return table


def call_policy(function: PolicyFunction, board: int, roll: int, options: np.ndarray) -> int:
    """Ask a user policy function for its move among ``options`` (bit-masks) and return its place there; a move
    that is not one of them raises :class:`InputError` naming the legal ones."""
    tuples = [board_tiles(m) for m in options.tolist()]
    try:
        answer = function(board_tiles(board), roll, tuples)
        move = tuple(sorted(int(t) for t in answer))
    except (TypeError, ValueError) as error:
        raise InputError(f"policy function must return a move (tiles, like (3, 4)) for open {board_tiles(board)} "
                         f"and roll {roll}; it raised {type(error).__name__}: {error}") from None
    if move not in tuples:
        raise InputError(f"policy function returned {move} for open {board_tiles(board)} and roll {roll}; "
                         f"legal moves are {tuples}")
    return tuples.index(move)


OPTIMAL = Policy("optimal", values=+1)
POLICY_OBJECTS: dict[str, Policy] = {
    "optimal": OPTIMAL,
    "worst": Policy("worst", values=-1),
    "highest-tile": Policy("highest-tile", move_key=_highest_tile),
    "sequence-count": Policy("sequence-count", left_key=_sequence_count, key_cost=sequence_key_cost),
    "random": Policy("random", uniform=True),
    "largest-tile": Policy("largest-tile", move_key=_largest_tile),
    "lowest-tile": Policy("lowest-tile", move_key=_lowest_tile),
    "fewest-tiles": Policy("fewest-tiles", move_key=_tile_count(-1)),
    "most-tiles": Policy("most-tiles", move_key=_tile_count(+1)),
    "most-options": Policy("most-options", left_key=playable_outcomes, key_cost=playable_key_cost),
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
        return Policy(getattr(policy, "__name__", "function"), function=policy)
    raise InputError(f"policy must be one of {', '.join(POLICIES)} or a function; got {policy!r}")
