r"""The hindsight value: what a player who knows every future throw before choosing a move can expect.

Perfect play (:func:`~stb_core.sweep.solve`) chooses each move knowing only the throw in hand. A player who sees
the whole sequence of throws in advance plays, for that sequence, its best line; the **hindsight value** is the
expectation of that best outcome over the sequences, an upper bound no strategy reaches. Its distance from the
optimal value is how much of the game is luck no skill can answer.

After the same throws, every line of play has shut tiles adding up to the same totals, so what matters of the past
is the set ``B`` of boards some line could be on. With ``B_o = {S \ m : S in B, m a legal move for S and o}``:

* for the **win**: ``H(B) = 1`` if some board of ``B`` is won, else ``H(B) = sum_o p(o) H(B_o)`` with
  ``H(empty set) = 0`` (a line that cannot move has lost, and a line that goes on may still win);
* for the **sum left open** (tiles in one row, the sum rule, no choice of dice): every board of ``B`` has the same
  open total ``s``; a line that cannot move ends at ``s`` and a line that goes on ends lower, so
  ``H(B) = sum_o p(o) (H(B_o) if B_o is not empty else s)``, and ``H(B) = s`` if ``B``'s total is already won.

**A choice of dice.** Under a one-die rule the throw a player sees depends on the dice they roll. Here the player
knows the sequence of throws of *all* the dice, one per roll, each equally likely; rolling one die reads the
first die of that roll's throw. Rules with a choice of dice are valued for the win only (the boards of ``B`` may
then differ in their open totals).

The other objectives (tiles shut, the digit score, a custom utility) are refused: the best line for them depends
on more than the set of boards. Boards of up to :data:`HINDSIGHT_MAX_TILES` tile positions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .boards import check_board
from .game import Game, game_of
from .limits import HINDSIGHT_MAX_TILES, exact_limit
from .rules import InputError, Rules, check_rules
from .sweep import check_exact

HINDSIGHT_OBJECTIVES = ("win", "remaining-sum")
MAX_STORED_BOARDS = 40_000_000  # boards held in the valued sets: about 2.5 GB; beyond it the run stops, refused
SECONDS_PER_SET_THROW = 4e-6    # measured: tiles 1-12 two dice 0.34 s, three 12-sided dice 10 s, 1-14 three dice 41 s


def hindsight_refusal(rules: Rules, objective: str) -> str | None:
    """Why the hindsight value of ``objective`` is not computed for ``rules`` (None: it is), in the user's terms."""
    if objective not in HINDSIGHT_OBJECTIVES:
        return (f"the hindsight value is computed for the objectives {' and '.join(HINDSIGHT_OBJECTIVES)} (the best "
                f"line for {objective!r} depends on more than the boards a player could be on); got {objective!r}")
    if rules.positions > HINDSIGHT_MAX_TILES:
        return exact_limit(rules, "hindsight values", HINDSIGHT_MAX_TILES)
    if objective == "remaining-sum" and (rules.layout != "row" or rules.moves != "sum" or rules.has_one_die_rule):
        return ("the hindsight value of the sum left open is computed for tiles in one row, the sum rule and no "
                "one-die rule, forced or optional (otherwise two lines after the same throws may leave different "
                "totals); use the objective win")
    return None


@dataclass
class _Throws:
    """The throws of one roll, as the player who knows them sees them: for each, its chance and, for each number
    of dice a board may roll, the outcome code it gives."""

    chances: list
    codes: list[dict[int, int]] = field(default_factory=list)


def _throws(game: Game, exact: bool) -> _Throws:
    rules = game.rules
    if not rules.has_one_die_rule:  # the outcome of all the dice is all that matters: one entry per outcome
        chances = game.chances(rules.dice, exact)
        return _Throws(list(chances.values()), [{rules.dice: code} for code in chances])
    share = Fraction(1, rules.sides ** rules.dice) if exact else 1.0 / rules.sides ** rules.dice
    out = _Throws([])
    for faces in itertools.product(range(1, rules.sides + 1), repeat=rules.dice):  # every ordered throw
        out.chances.append(share)
        out.codes.append({rules.dice: game.outcome_code(faces), 1: game.outcome_code(faces[:1])})
    return out


class _Lines:
    """The boards a line may move to from one board and throw: computed once per (board, outcome)."""

    def __init__(self, game: Game):
        self.game, self.cache = game, {}

    def children(self, board: int, code: int) -> tuple[int, ...]:
        key = (board, code)
        if key not in self.cache:
            moves = self.game.catalogue.of(code)
            legal = self.game.legal(np.array([board]), moves)[0] if moves.size else np.zeros(0, bool)
            self.cache[key] = tuple(int(board ^ m) for m in moves[legal])
        return self.cache[key]


def hindsight_estimate(rules: Rules, exact: bool = False):
    """A rough forecast of a hindsight computation (:class:`~stb_core.cost.Estimate`): the sets of boards a player
    may be on grow with the tiles and the throws; the forecast takes ``2**positions`` sets, each valued over every
    throw (exact fractions four times slower). The run itself stops, refused, past :data:`MAX_STORED_BOARDS`."""
    from .cost import Estimate

    throws = rules.sides ** rules.dice if rules.has_one_die_rule else len(game_of(rules).chances(rules.dice))
    sets = 2 ** rules.positions * (rules.positions / 9) ** 6
    if rules.has_one_die_rule:  # lines part in more sets where the dice are a choice, and more under die-or-sum
        sets *= 20
    if rules.moves != "sum":
        sets *= 100
    if rules.layout != "row":  # on two rows the sets grow faster with the tiles (measured at 10 to 14 positions)
        sets *= (rules.positions / 12) ** 6
    seconds = SECONDS_PER_SET_THROW * sets * throws * (4 if exact else 1)
    return Estimate(seconds, int(200 * 2**20 + 600 * sets))


def hindsight(rules: Rules, objective: str = "win", *, board: int | None = None, exact: bool = False,
              progress=None):
    """The hindsight value of ``board`` (default: the full board) under ``rules``: the chance that some line of
    play shuts the box (objective ``win``), or the expected lowest sum left open any line reaches
    (``remaining-sum``), for a player who knows every throw in advance (see the module docstring). ``exact``:
    a Fraction. ``progress`` (optional) hears how many sets of boards are valued, now and then."""
    rules, exact = check_rules(rules), check_exact(exact)
    refusal = hindsight_refusal(rules, objective)
    if refusal:
        raise InputError(refusal)
    game = game_of(rules)
    start = rules.full_board if board is None else check_board(board, rules)
    throws, lines = _throws(game, exact), _Lines(game)
    won, sums = game.won, game.sums
    dice: dict[int, tuple[int, ...]] = {}  # the numbers of dice each board met may roll
    zero = Fraction(0) if exact else 0.0
    memo: dict[frozenset, object] = {}
    stored = [0]

    def choices(b: int) -> tuple[int, ...]:
        if b not in dice:
            dice[b] = game.dice_choices(b)
        return dice[b]

    def after(boards: frozenset, codes: dict[int, int]) -> frozenset:
        return frozenset(child for b in boards for d in choices(b) for child in lines.children(b, codes[d]))

    def value(boards: frozenset):
        if boards in memo:
            return memo[boards]
        total = zero
        if objective == "win":
            if any(won[b] for b in boards):
                return 1
            for p, codes in zip(throws.chances, throws.codes, strict=True):
                nxt = after(boards, codes)
                if nxt:
                    total += p * value(nxt)
        else:
            s = int(sums[next(iter(boards))])
            if won[next(iter(boards))]:
                return s
            for p, codes in zip(throws.chances, throws.codes, strict=True):
                nxt = after(boards, codes)
                total += p * (value(nxt) if nxt else s)
        memo[boards] = total
        stored[0] += len(boards)
        if stored[0] > MAX_STORED_BOARDS:
            raise InputError(f"the hindsight value of {rules.describe()} is beyond reach: the sets of boards a player "
                             f"may be on hold more than {MAX_STORED_BOARDS:,} boards; try fewer tiles or dice")
        if progress is not None and len(memo) % 20_000 == 0:
            progress(f"{len(memo):,} sets of boards valued")
        return total

    result = _deep(value, frozenset((start,)), rules.positions)
    return Fraction(result) if exact else float(result)


def _deep(function, argument, depth: int):
    """``function(argument)`` with room for ``depth`` nested calls (one per roll of a game)."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * depth + 200))
    try:
        return function(argument)
    finally:
        sys.setrecursionlimit(limit)
