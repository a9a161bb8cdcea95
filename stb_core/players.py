r"""The pub game for stakes: two to six players take one turn each, the lowest score takes the pot, and a
player who shuts the box ends the round at once and is paid a bonus by everyone.

**The game.** Each of ``players`` stakes 1 and plays a full turn alone, in seat order, under the same
:class:`~stb_core.rules.Rules`. A finished turn scores the open tiles, by their ``sum`` or read in increasing
order as a decimal number (``digits``: {1, 5, 9} scores 159, {2, 10} scores 210); lower is better. A player
who wins the turn (shuts the box; with ``win_at_most`` > 0, leaves that total or less) ends the round and is
paid ``shut_pays`` stakes by each other player. Otherwise, once every seat has played, the lowest score takes
the pot -- 1 stake from each other player -- and players tied for lowest share it: with ``n`` players and ``c``
tied, each of them wins ``n / c - 1`` and everyone else loses 1. Payoffs add up to zero.

**Play.** Each player knows the scores already made and maximises their own expected winnings, knowing how the
later seats will respond (backward induction over seats): a seat playing for the ``stakes``, the default. A seat
may instead play one way whatever the scores before it (``plays``): optimally for one objective alone (``win``,
``remaining-sum``, ...) or by a named policy (``highest-tile``, ..., its dice chosen for the round's score); its
result distribution ``P_k`` is then the same from every state, and the other seats play for the stakes knowing it.
When seat ``k`` plays, what matters of the earlier scores is the best one so far, ``b``, and how many share it,
``c``: the state ``(b, c)``. With ``G_k(b, c, in)`` the expected winnings of a player who has already played
(``in``: tied for the best), before seat ``k`` plays,

.. math::

    G_{n+1}(b, c, \text{in}) = n / c - 1 \text{ if in else } -1, \qquad
    G_k(b, c, \text{in}) = -x\,P_k(\text{shut}) + \sum_t P_k(t)\, G_{k+1}(b', c', \text{in}')

where ``x`` is ``shut_pays``, ``P_k`` the distribution of seat ``k``'s result when it plays its best from
``(b, c)``, and ``(b', c', in')`` the state after a score ``t``: a new best ``(t, 1)`` (no longer in) when
``t < b``, one more at the best ``(b, c + 1)`` when ``t = b``, unchanged when ``t > b``. Seat ``k``'s own best play
is the single-player Bellman equation of :mod:`stb_core.sweep` with the terminal utility
``u_k(F) = x (n - 1)`` for a won board and ``G_{k+1}`` of the state its score ``t`` makes, with itself in
the best group when ``t <= b``. All the states of one seat are solved at once (one utility per column,
``bellman_sweep``), and their result distributions come from the same move choice (ties: canonical).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from .choice import get_tie_break
from .game import game_of
from .objectives import OBJECTIVES, check_digit_board, custom_objective, get_objective
from .policies import OPTIMAL, POLICIES
from .rules import InputError, Rules
from .sweep import Solution, bellman_sweep, solve
from .valuation import evaluate, final_board_columns, final_board_probabilities, reachable_boards

if TYPE_CHECKING:
    import pandas

SCORING_OBJECTIVES = {"sum": "remaining-sum", "digits": "digits"}  # a scoring is the objective's finished score
SCORINGS = tuple(SCORING_OBJECTIVES)
PLAYERS_RANGE = (2, 6)
# The bonus for a shut box, in stakes from each other player: from nothing extra (0) to 1,000 -- the range in which
# float and exact runs play the same moves (at 10**9 the pot is lost in the bonus's rounding and they differ)
SHUT_PAYS_RANGE = (0, 1000)
STAKES = "stakes"  # a seat's default play: its best reply to the scores before it, for the round's payoffs
SEAT_PLAYS = (STAKES, *OBJECTIVES, *(p for p in POLICIES if p != "optimal"))  # optimal play is named by its objective
SEAT_STATES_PER_SWEEP = 64  # at most this many states of one seat solved together (one sweep's columns): fastest
SEAT_SWEEP_BYTES = 2 * 2**30  # and at most what their columns' arrays may hold together (Double Shutter: 14 columns)


@dataclass(frozen=True)
class PubGame:
    """One game for stakes; invalid values raise :class:`InputError` naming the parameter and what is allowed."""

    rules: Rules = field(default_factory=Rules)
    players: int = 2          # 2-6 players, seat 1 first
    scoring: str = "sum"      # sum | digits
    shut_pays: Real = 1       # stakes paid by each other player to one who shuts the box (SHUT_PAYS_RANGE)
    plays: dict | tuple = ()  # {seat: play} for seats not playing for the stakes (SEAT_PLAYS); a tuple once checked
    tie_break: str = "canonical"  # how a seat with a fixed play chooses among equally good moves

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InputError(f"rules must be a stb_core.Rules value, got {type(self.rules).__name__}")
        low, high = PLAYERS_RANGE
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not low <= self.players <= high:
            raise InputError(f"players must be an integer between {low} and {high}, got {self.players!r}")
        if self.scoring not in SCORINGS:
            raise InputError(f"scoring must be one of {', '.join(SCORINGS)}; got {self.scoring!r}")
        if self.scoring == "digits":
            check_digit_board(game_of(self.rules), "scoring 'digits'")
        check_shut_pays(self.shut_pays)
        object.__setattr__(self, "plays", check_plays(self.plays, self.players, self.rules))
        get_tie_break(self.tie_break)

    def play_of(self, seat: int) -> str:
        """How seat ``seat`` (1 first) plays: ``stakes`` or a fixed play of :data:`SEAT_PLAYS`."""
        return self.plays[seat - 1]


def check_plays(plays, players: int, rules: Rules) -> tuple[str, ...]:
    """One play per seat from ``{seat: play}`` (or a tuple of them, one per seat); :class:`InputError` naming the
    seat and the choices for a seat outside 1 .. ``players`` or an unknown play."""
    if isinstance(plays, tuple | list):
        plays = dict(enumerate(plays, start=1))
    if not isinstance(plays, dict):
        raise InputError(f"plays must map seats to plays, like {{1: 'win'}}; got {plays!r}")
    for seat, how in plays.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
            raise InputError(f"seat must be a seat number from 1 to {players}; got {seat!r}")
        if how not in SEAT_PLAYS:
            raise InputError(f"seat {seat} must play one of {', '.join(SEAT_PLAYS)}; got {how!r}")
        if how == "digits":
            check_digit_board(game_of(rules), f"seat {seat}'s play 'digits'")
    return tuple(plays.get(seat, STAKES) for seat in range(1, players + 1))


def scorings_of(rules: Rules) -> tuple[str, ...]:
    """The scorings a round on these rules can use: the sum always, the digits only on a row of at most
    ``DIGITS_MAX_TILES`` tiles (:func:`check_digit_board`)."""
    try:
        check_digit_board(game_of(rules))
    except InputError:
        return ("sum",)
    return SCORINGS


def check_shut_pays(value) -> Real:
    """``value`` if it is a number in ``SHUT_PAYS_RANGE``; :class:`InputError` otherwise."""
    low, high = SHUT_PAYS_RANGE
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)) \
            or not low <= float(value) <= high:
        raise InputError(f"shut_pays must be a number from {low:g} to {high:,} (stakes from each other player); "
                         f"got {value!r}")
    return value


# -- scores ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scores:
    """The scores a turn can end with: ``rank[F]`` of each final board among the distinct scores (``-1`` for a
    won board), and ``value[t]`` the score of rank ``t``."""

    rank: np.ndarray
    value: list[int]

    @property
    def count(self) -> int:
        return len(self.value)


def final_scores(rules: Rules, scoring: str) -> Scores:
    """Rank the scores of every board a turn can end on (reachable from the full board, not won), lowest first.
    A board no turn can reach may score what no reachable board does: it takes the rank of the nearest reachable
    score at or above its own (the worst, above them all), so a seat's values there are not the game's -- only the
    boards a turn can reach are (every statement of the report reads those)."""
    game = game_of(rules)
    finished = get_objective(SCORING_OBJECTIVES[scoring]).utility(game, game.playing)  # whole numbers, as floats
    score = dict(zip(game.playing.tolist(), (int(u) for u in finished.tolist()), strict=True))
    values = sorted({score[int(b)] for b in reachable_boards(rules, include_won=False)})
    rank = np.full(rules.states, -1, dtype=np.int64)
    if values:
        boards = np.array(list(score), dtype=np.int64)
        at = np.searchsorted(values, np.array(list(score.values())))  # exact where the score is ranked
        rank[boards] = np.minimum(at, len(values) - 1)
    return Scores(rank, values)


# -- the backward induction ------------------------------------------------------------------------------
@dataclass
class SeatTables:
    """What seat ``k``'s turn does from each state ``(b, c)``: its own expected winnings ``value``, the
    chance it shuts the box ``shut``, and the chance of each final score ``result[:, t]``."""

    states: list[tuple[int, int]]
    value: np.ndarray
    shut: np.ndarray
    result: np.ndarray


@dataclass
class PubResult:
    """The exact outcome of a :class:`PubGame` under best play by every seat."""

    game: PubGame
    exact: bool
    scores: Scores
    seat_tables: list[SeatTables]
    seats: pandas.DataFrame        # seat, expected_payoff, p_win, p_shut
    p_tie: object                  # P(the pot is split)
    later: list = field(repr=False, default_factory=list)  # G_{k+1} tables per seat, to rebuild utilities
    shut_pays: object = None       # the bonus played (the game's, or the one asked for)

    def seat_utility(self, seat: int, best: int, count: int) -> np.ndarray:
        """Seat ``seat``'s terminal utility over every board from state ``(best, count)``."""
        return _utility(self.game, self.scores, self.later[seat - 1], best, count, self.exact, self.shut_pays)

    def seat_solution(self, seat: int = 1, best: int | None = None, count: int = 0) -> Solution:
        """The single-player solution of one seat's turn from a state (seat 1: the empty state)."""
        best = self.scores.count if best is None else best
        utility = self.seat_utility(seat, best, count)
        objective = custom_objective(f"seat {seat} winnings", of_board=lambda boards, u=utility: u[boards])
        return solve(self.game.rules, objective, exact=self.exact)


def _number(value, exact: bool):
    return Fraction(value) if exact else float(value)


def _utility(game: PubGame, scores: Scores, later, best: int, count: int, exact: bool, bonus) -> np.ndarray:
    """``u_k(F)`` for every board: the bonus for a won board, else the later seats' ``G`` of the state made."""
    g_in, g_out = later
    n, rank = game.players, scores.rank
    won = game_of(game.rules).won
    dtype = object if exact else float
    u = np.empty(game.rules.states, dtype=dtype)
    u[won] = bonus * (n - 1)
    t = rank[~won]
    u[~won] = np.where(t < best, g_in[np.minimum(t, scores.count - 1), 1],
                       np.where(t == best, g_in[best if best < scores.count else 0, count + 1],
                                g_out[best, count]))
    return u


def _end_tables(game: PubGame, scores: Scores, exact: bool):
    """``G_{n+1}``: ``n / c - 1`` for a player in the best group of ``c``, ``-1`` otherwise; and the same for
    the indicator of ending in the best group (``H``)."""
    n, m = game.players, scores.count
    dtype = object if exact else float
    g_in = np.empty((m + 1, n + 2), dtype=dtype)
    for c in range(n + 2):
        g_in[:, c] = _number(Fraction(n, c) - 1, exact) if c else _number(-1, exact)
    g_out = np.full((m + 1, n + 2), _number(-1, exact), dtype=dtype)
    h_in = np.full((m + 1, n + 2), _number(1, exact), dtype=dtype)
    h_out = np.full((m + 1, n + 2), _number(0, exact), dtype=dtype)
    return (g_in, g_out), (h_in, h_out)


def _seat_states(seat: int, scores: Scores) -> list[tuple[int, int]]:
    """The states seat ``seat`` may play from: ``(none, 0)`` for the first seat (``none`` = ``scores.count``),
    else every score and 1 .. seat-1 players sharing it."""
    if seat == 1:
        return [(scores.count, 0)]
    return [(b, c) for c in range(1, seat) for b in range(scores.count)]


def _split(result: np.ndarray, best: np.ndarray, zero):
    """For each state (row): the result distribution below its best score (a masked copy), at it, and the
    total above it."""
    t = np.arange(result.shape[1])
    below = np.where(t[None, :] < best[:, None], result, zero)
    if result.shape[1] == 0:  # no score is possible: every turn is won before its first roll
        at = np.full(len(best), zero, dtype=result.dtype)
    else:
        inside = best < result.shape[1]
        at = np.where(inside, result[np.arange(len(best)), np.minimum(best, result.shape[1] - 1)], zero)
    above = np.where(t[None, :] > best[:, None], result, zero).sum(axis=1)
    return below, at, above


def _step(tables, result: np.ndarray, shut: np.ndarray, best: np.ndarray, count: np.ndarray, penalty, zero):
    """``G_k`` (or ``H_k``) of every state ``(b, c)`` of a seat, for a player in and out of the best group:
    the next seat's tables weighted by this seat's result distribution from each state."""
    later_in, later_out = tables
    m = result.shape[1]
    below, at, above = _split(result, best, zero)
    lower = (below * later_out[:m, 1][None, :]).sum(axis=1) + shut * penalty
    b = np.minimum(best, m)
    value_in = lower + at * later_in[b, count + 1] + above * later_in[b, count]
    value_out = lower + at * later_out[b, count + 1] + above * later_out[b, count]
    return value_in, value_out


def play(game: PubGame, *, exact: bool = False, shut_pays: Real | None = None, progress=None) -> PubResult:
    """Solve the game by backward induction over the seats (see the module docstring) and follow it forward:
    each seat's expected winnings, chance of winning (alone or shared) and of shutting the box, and the
    chance that the pot is split. ``shut_pays`` overrides the game's bonus (the fair-bonus search tries many)."""
    rules, n = game.rules, game.players
    bonus = game.shut_pays if shut_pays is None else check_shut_pays(shut_pays)
    if exact and not isinstance(bonus, int | Fraction):
        raise InputError("exact=True needs shut_pays as an int or a Fraction (a float is not exact)")
    scores = final_scores(rules, game.scoring)
    m = scores.count
    dtype = object if exact else float
    zero = _number(0, exact)
    x = _number(bonus, exact)
    g_next, h_next = _end_tables(game, scores, exact)
    seat_tables: list[SeatTables | None] = [None] * n
    later: list = [None] * n
    h_tables: list = [None] * n
    won = game_of(rules).won
    ranking = OPTIMAL.ranking(game_of(rules), get_tie_break("canonical"))
    fixed = [fixed_play(game, how, exact) for how in game.plays]
    for seat in range(n, 0, -1):
        states = _seat_states(seat, scores)
        later[seat - 1] = g_next
        h_tables[seat - 1] = h_next
        value = np.empty(len(states), dtype=dtype)
        shut = np.empty(len(states), dtype=dtype)
        result = np.full((len(states), m), zero, dtype=dtype)
        width = columns_per_sweep(rules, exact)
        for start in range(0, len(states), width):
            chunk = states[start:start + width]
            utility = np.stack([_utility(game, scores, g_next, b, c, exact, x) for b, c in chunk], axis=1)
            rows = slice(start, start + len(chunk))
            value[rows], ends = _turns(game_of(rules), ranking, fixed[seat - 1], utility, exact)
            shut[rows] = ends[won].sum(axis=0)
            finals = np.flatnonzero(~won & (scores.rank >= 0))
            np.add.at(result[rows].T, scores.rank[finals], ends[finals])
            if progress:
                progress(f"seat {seat} of {n}: {min(start + width, len(states))} of {len(states)} states solved")
        seat_tables[seat - 1] = SeatTables(states, value, shut, result)
        best = np.array([b for b, _ in states], dtype=np.int64)
        count = np.array([c for _, c in states], dtype=np.int64)
        made = []
        for tables, penalty in ((g_next, -x), (h_next, zero)):
            t_in = np.full((m + 1, n + 2), zero, dtype=dtype)
            t_out = np.full((m + 1, n + 2), zero, dtype=dtype)
            t_in[best, count], t_out[best, count] = _step(tables, result, shut, best, count, penalty, zero)
            made.append((t_in, t_out))
        g_next, h_next = made
    return _follow_round(game, scores, seat_tables, later, h_tables, exact, x)


def fixed_play(game: PubGame, how: str, exact: bool) -> np.ndarray | None:
    """For a seat with a fixed play, the chance of each final board of its turn (the same from every state); None
    for a seat playing for the stakes. An objective's name plays optimally for it alone; a policy's name plays it,
    its dice chosen for the round's score."""
    if how == STAKES:
        return None
    if how in OBJECTIVES:
        solution = solve(game.rules, how, tie_break=game.tie_break, exact=exact)
    else:
        solution = evaluate(game.rules, SCORING_OBJECTIVES[game.scoring], how, tie_break=game.tie_break, exact=exact)
    return final_board_probabilities(solution)


def _turns(board_game, ranking, fixed: np.ndarray | None, utility: np.ndarray, exact: bool):
    """One seat's turn from each state (a column of ``utility``: ``u_k`` over every board): its expected winnings
    and the chance of each final board. Playing for the stakes, one sweep maximises every column's ``u_k``;
    with a fixed play, the turn ends as it always does and is worth ``sum_F P(F) u_k(F)``."""
    if fixed is None:
        objective = get_objective("win")  # only its sense is read: seats maximise their winnings
        values, dice, sigma = bellman_sweep(board_game, objective, ranking, exact, utility)
        return values[board_game.full_board], final_board_columns(board_game, dice, sigma, exact=exact)
    ends = np.repeat(fixed[:, None], utility.shape[1], axis=1)
    return (ends * utility).sum(axis=0), ends


def _follow_round(game: PubGame, scores: Scores, seat_tables, later, h_tables, exact: bool, x) -> PubResult:
    """Follow the round seat by seat: the chance of each state, each seat's results, the split pot."""
    n, m = game.players, scores.count
    zero, one = _number(0, exact), _number(1, exact)
    dtype = object if exact else float
    mass = np.full((m + 1, n + 2), zero, dtype=dtype)  # P(seat k plays from state (b, c)), no shut before
    mass[m, 0] = one
    ended = zero
    rows = []
    for seat in range(1, n + 1):
        tables = seat_tables[seat - 1]
        best = np.array([b for b, _ in tables.states], dtype=np.int64)
        count = np.array([c for _, c in tables.states], dtype=np.int64)
        q = mass[best, count]
        h_in, h_out = h_tables[seat - 1]
        below, at, above = _split(tables.result, best, zero)
        p_shut = (q * tables.shut).sum()
        b = np.minimum(best, m)
        p_win = p_shut + (q * ((below * h_in[:m, 1][None, :]).sum(axis=1) + at * h_in[b, count + 1]
                                + above * h_out[b, count])).sum()
        rows.append({"seat": seat, "expected_payoff": (q * tables.value).sum() - x * ended, "p_win": p_win,
                     "p_shut": p_shut})
        following = np.full((m + 1, n + 2), zero, dtype=dtype)
        following[:m, 1] += (q[:, None] * below).sum(axis=0)
        inside = best < m
        np.add.at(following, (best[inside], count[inside] + 1), (q * at)[inside])
        np.add.at(following, (best, count), q * above)
        mass = following
        ended += p_shut
    p_tie = mass[:, 2:].sum()
    if not exact:  # a sum of float chances may overshoot [0, 1] by a rounding error
        p_tie = min(max(float(p_tie), 0.0), 1.0)
    import pandas as pd  # here, not at the top: the command line's other commands never load pandas

    return PubResult(game, exact, scores, seat_tables, pd.DataFrame(rows), p_tie, later, x)


def column_bytes(rules: Rules, exact: bool = False) -> int:
    """What one more column (one state of a seat) adds to a sweep of many: the level's gathered values, moved
    flags and choices (about 32 bytes per (board, move) pair of the largest level) and the per-board arrays
    (values, utility, dice, the move table, the final boards' chances: about 48 bytes per board); Python
    fractions behind every value when ``exact``."""
    from .cost import solve_cost

    cost = solve_cost(rules)
    return (cost.largest_level_pairs * 32 + cost.boards * 48) * (4 if exact else 1)


def columns_per_sweep(rules: Rules, exact: bool = False) -> int:
    """How many states of a seat one sweep solves together: :data:`SEAT_STATES_PER_SWEEP`, or fewer where their
    columns would hold more than :data:`SEAT_SWEEP_BYTES` (at least one)."""
    return max(1, min(SEAT_STATES_PER_SWEEP, SEAT_SWEEP_BYTES // column_bytes(rules, exact)))


def play_estimate(game: PubGame, exact: bool = False):
    """What :func:`play` will take, before it starts (:class:`stb_core.cost.Estimate`): each seat sweeps its
    states in groups of :func:`columns_per_sweep` columns, every (board, move) pair once per column and once per
    sweep, and builds each column's utility over every board; the peak is one sweep's columns on top of the game
    itself. A seat's states are every distinct score times every count of players sharing it (at most the
    boards: digits)."""
    from .cost import EXACT_SECONDS_PER_PAIR, Estimate, solve_cost

    cost = solve_cost(game.rules)
    scores = (game_of(game.rules).worst_score + 1 if game.scoring == "sum"
              else min(cost.boards, 10 ** min(game.rules.tiles, 9)))
    width = columns_per_sweep(game.rules, exact)
    columns = [1] + [scores * (seat - 1) for seat in range(2, game.players + 1)]
    sweeps = sum(-(-c // width) for c in columns)
    per_pair = EXACT_SECONDS_PER_PAIR * 2 if exact else PUB_SECONDS_PER_PAIR
    seconds = (cost.pairs * (sum(columns) + sweeps) * per_pair
               + sum(columns) * cost.boards * PUB_SECONDS_PER_BOARD)
    return Estimate(seconds + TABLE_SECONDS,
                    TABLE_BYTES + cost.bytes("numpy", exact) + width * column_bytes(game.rules, exact))


PUB_SECONDS_PER_PAIR = 4e-8  # one (board, move) pair of one column of a many-column sweep, its final boards included
PUB_SECONDS_PER_BOARD = 5e-8  # one board of one column: its utility, its final score
TABLE_SECONDS, TABLE_BYTES = 0.2, 60 * 2**20  # pandas, loaded for the seats' table


# Games a fair-bonus search solves: about 4 when W is one straight piece near its root, up to about 25 when a seat's
# change of play makes it jump across zero there (located to 1e-7 by halving); 12 is what is announced
FAIR_TRIALS = 12


# -- the fair bonus ------------------------------------------------------------------------------------------
def first_seat_payoff(game: PubGame, shut_pays: float) -> float:
    """Seat 1's expected winnings when the bonus is ``shut_pays`` (strategies re-optimised for it)."""
    return float(play(game, shut_pays=shut_pays).seats.loc[0, "expected_payoff"])


@dataclass(frozen=True)
class FairBonus:
    """The bonus at which seat 1 breaks even: ``shut_pays``, seat 1's winnings there (``payoff``: 0 within the
    tolerance, unless the payoff jumps across 0 there -- a later seat changing its play -- and ``exact_zero`` is
    False), and how many games were solved to find it."""

    shut_pays: float | None
    payoff: float | None
    exact_zero: bool
    evaluations: int


def fair_shut_pays(game: PubGame, tolerance: float = 1e-10, upper: float = SHUT_PAYS_RANGE[1], most: int = 40,
                   progress=None, resolution: float = 1e-7) -> FairBonus:
    r"""The ``shut_pays`` at which seat 1's expected winnings are zero, strategies re-optimised at each trial.

    While every seat keeps its strategy, seat 1's winnings are linear in the bonus ``x``:
    ``W(x) = A + x ((n - 1) P_1 - \sum_{k >= 2} P_k)``, with ``P_k`` the chance that seat ``k`` shuts the box (the
    round ends at the first shut box, so these are disjoint). So each trial solves the game once at ``x``, reads
    ``W`` and that slope from the same solution, and goes to the root of its line -- Newton's method on a
    piecewise-linear function, exact within one piece, so a few trials suffice. Once the sign change is
    bracketed, a step leaving the bracket, or one after a step that did not halve ``|W|`` (``W`` jumping from
    piece to piece, as many strategy changes close together make it do), is a bisection step instead; a jump
    across zero is located to ``resolution`` (relative) and then ``exact_zero`` is False. The result may be
    below 1 (seat 1 is favoured even when a shut box pays only the pot); ``shut_pays`` is None when no bonus
    from 0 up to ``upper`` is fair.
    ``progress`` (optional) hears about each trial."""
    calls = 0

    def trial(x: float) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        seats = play(game, shut_pays=x).seats
        shut = seats["p_shut"].astype(float).to_numpy()
        payoff = float(seats.loc[0, "expected_payoff"])
        if progress:
            progress(f"fair bonus, {game.players} players, {game.scoring} scoring: trial {calls}, a bonus of "
                     f"{x:.6g} gives seat 1 {payoff:+.3g}")
        return payoff, (game.players - 1) * shut[0] - shut[1:].sum()

    x = 1.0
    payoff, slope = trial(x)
    below = above = None  # the largest bonus known to leave seat 1 losing, the smallest known to leave it winning
    last = None  # |W| before the last step
    while True:
        if abs(payoff) <= tolerance:
            return FairBonus(x, payoff, True, calls)
        if payoff < 0:
            below = x if below is None or x > below else below
        else:
            above = x if above is None or x < above else above
        bracketed = below is not None and above is not None
        if bracketed and abs(above - below) <= resolution * max(1.0, x):
            return FairBonus(x, payoff, False, calls)  # a jump across zero: no bonus makes seat 1 exactly even
        if calls >= most:
            return FairBonus(x, payoff, False, calls) if bracketed else FairBonus(None, None, False, calls)
        step = x - payoff / slope if slope != 0 else None
        if bracketed:
            inside = step is not None and min(below, above) < step < max(below, above)
            halving = last is None or abs(payoff) <= last / 2
            x = step if inside and halving else (below + above) / 2
        elif step is not None and 0 <= step <= upper and step != x:
            x = step
        elif payoff < 0 and below < upper:  # no root in sight yet: widen the search
            x = min(2 * below if below > 0 else 1.0, upper)
        elif payoff > 0 and above > 0:
            x = above / 2 if above > tolerance else 0.0
        else:
            return FairBonus(None, None, False, calls)
        last = abs(payoff)
        payoff, slope = trial(x)
