"""Every notebook's parameters and what each may be: one declaration, used by the build driver before a
kernel starts and by the notebook's own first cell (so a run from JupyterLab or plain papermill is checked
the same way).

A :class:`Parameter` has a type and a range or a list of choices; a :class:`Domain` adds the checks on
combinations (a board must fit the tiles). The domain check is the whole check: every value it accepts runs, and
everything a notebook would refuse is refused here, before a kernel starts. ``quick`` is the largest value the
tests' rerun matrix runs and ``audit`` the largest the findings audit draws (the domain may allow slower runs: a
reader waits, a test does not). The defaults are the literals of each notebook's ``parameters`` cell; a test
checks that every declared name is there and every default is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..objectives import OBJECTIVES
from ..players import SHUT_PAYS_RANGE
from ..rules import (
    DICE_RANGE,
    LAYOUTS,
    MAX_PER_MOVE_RANGE,
    MOVE_RULES,
    ONE_DIE_OPTIONS,
    SIDES_RANGE,
    TILES_RANGE,
    WIN_AT_MOST_RANGE,
)


class ParameterError(ValueError):
    """A parameter that is unknown, of the wrong type or outside its domain: one line naming it."""


@dataclass(frozen=True)
class Parameter:
    """One notebook parameter: its name, type and allowed values, and what it means."""

    name: str
    kind: type
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    pattern: str | None = None      # for text: a regular expression the value must match
    quick: object = None            # the largest value the rerun matrix runs (default: high)
    labels: dict | None = None      # for choices: how each reads on a page
    audit: object = None            # the largest value the findings audit draws (default: quick, else high)
    samples: tuple | None = None    # for patterned text: the values the rerun matrix and the audit try
    spelled: str | None = None      # for patterned text: the allowed values in words

    def allowed(self) -> str:
        """The allowed values, in words; limits as they are written (``4294967295``, ``0.5``)."""
        if self.choices is not None:
            return "one of " + ", ".join(map(str, self.choices))
        if self.kind is str:
            if self.spelled:
                return self.spelled
            return f"text like {self.help.split('e.g. ')[-1]}" if "e.g. " in self.help else "text"
        noun = {int: "an integer", float: "a number"}[self.kind]
        return f"{noun} between {_written(self.low)} and {_written(self.high)}"

    def check(self, value):
        """``value`` if allowed (ints accepted for a float parameter, as floats; a whole number for a text
        parameter, as its digits: papermill's ``-p board 13`` gives the int 13); ParameterError otherwise."""
        if self.kind is str and self.pattern is not None and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        ok_type = (isinstance(value, self.kind) and not isinstance(value, bool)) or (
            self.kind is float and isinstance(value, int) and not isinstance(value, bool)) or (
            self.kind is bool and isinstance(value, bool))
        if not ok_type:
            raise ParameterError(f"{self.name} must be {self.allowed()}; got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"{self.name} must be {self.allowed()}; got {value!r}")
        if self.kind in (int, float) and not self.low <= value <= self.high:
            raise ParameterError(f"{self.name} must be {self.allowed()}; got {value!r}")
        if self.pattern is not None and not re.fullmatch(self.pattern, value, re.ASCII):
            raise ParameterError(f"{self.name} must be {self.allowed()}; got {value!r}")
        return float(value) + 0.0 if self.kind is float else value  # + 0.0: -0.0 is 0.0 (one value, one run page)

    def corners(self) -> list:
        """The values the rerun matrix tries: each choice, or the smallest and the quick largest."""
        if self.choices is not None:
            return list(self.choices)
        if self.kind is str:
            return list(self.samples or ())
        return [self.kind(self.low), self.kind(self.quick if self.quick is not None else self.high)]

    @property
    def audit_high(self):
        """The largest value the findings audit draws."""
        return next(v for v in (self.audit, self.quick, self.high) if v is not None)


def _written(value) -> str:
    """A limit as it is written: ``4294967295``, ``10000000``, ``0.5`` (never ``4.29497e+09``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Domain:
    """A notebook's parameters, checks of their combinations (each returns an error message or None), and
    ``quick``: small values of the slow parameters, the base from which the tests' rerun matrix varies each
    parameter to the corners of its domain."""

    parameters: tuple[Parameter, ...]
    combinations: tuple[Callable[[dict], str | None], ...] = field(default=())
    quick: dict = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parameters)

    def check(self, values: dict) -> dict:
        """The values checked one by one, then together; the first problem raises :class:`ParameterError`."""
        unknown = sorted(set(values) - set(self.names))
        if unknown:
            raise ParameterError(f"unknown parameter {unknown[0]!r}; this notebook's parameters are: "
                                 f"{', '.join(self.names)}")
        checked = {p.name: p.check(values[p.name]) for p in self.parameters if p.name in values}
        for combination in self.combinations:
            problem = combination(checked)
            if problem:
                raise ParameterError(problem)
        return checked


# -- the parameters the notebooks share --------------------------------------------------------------------
def tiles(high: int = 16, quick: int | None = None, help: str = "the tiles 1 to this number start open",
          audit: int | None = None) -> Parameter:
    return Parameter("tiles", int, help, TILES_RANGE[0], high, quick=quick, audit=audit)


DICE = Parameter("dice", int, "dice rolled", *DICE_RANGE, quick=3)
SIDES = Parameter("sides", int, "faces per die", *SIDES_RANGE, quick=12)
ONE_DIE = Parameter("one_die", str, "when one die may be rolled instead of all the dice: never, high-shut (once every "
                    "tile from 7 up is shut) or sum-le-K (once the open tiles total K or less), e.g. sum-le-6",
                    pattern=r"never|high-shut|sum-le-[1-9][0-9]{0,2}", samples=(*ONE_DIE_OPTIONS, "sum-le-3"),
                    spelled=f"never, high-shut or sum-le-K with K from 1 to {WIN_AT_MOST_RANGE[1]}",
                    labels={"never": "never", "high-shut": "once every tile from 7 up is shut",
                            "sum-le-6": "once the open tiles total 6 or less"})
FORCED = Parameter("one_die_forced", bool, "True: the single die must be rolled whenever the one-die rule allows it",
                   choices=(False, True))
MAX_PER_MOVE = Parameter("max_per_move", int, "at most this many tiles shut by one roll (0: no limit)", 0,
                         MAX_PER_MOVE_RANGE[1], quick=2, audit=3)
MOVES = Parameter("moves", str, "what a roll shuts", choices=MOVE_RULES,
                  labels={"sum": "open tiles adding up to the roll", "die-or-sum": "one tile: either die or their sum"})
LAYOUT = Parameter("layout", str, "the board", choices=LAYOUTS,
                   labels={"row": "one row of tiles numbered from 1 up",
                           "double-shutter": "Double Shutter: a front row numbered from 1 up and behind it a back row "
                                             "of the same numbers reversed (the highest behind tile 1), each back tile "
                                             "shut only once the tile in front of it is"})


def win_at_most(quick: int = 3, audit: int = 3) -> Parameter:
    return Parameter("win_at_most", int, "won once the open tiles total this or less", *WIN_AT_MOST_RANGE,
                     quick=quick, audit=audit)


def rule_parameters(tiles_parameter: Parameter, win: Parameter | None = None) -> tuple[Parameter, ...]:
    """Every rule option the engine takes, in one declaration shared by the chapters: the board's ``tiles`` (each
    chapter its own range), dice, sides, the one-die rule (``sum-le-K`` for any K), whether that die is forced,
    a cap on tiles per roll, the winning threshold, the move rule and the layout. A chapter whose analysis does
    not cover an option refuses it with :func:`covers`."""
    return (tiles_parameter, DICE, SIDES, ONE_DIE, FORCED, MAX_PER_MOVE, win or win_at_most(), MOVES, LAYOUT)


RULE_NAMES = tuple(p.name for p in rule_parameters(tiles()))  # the names the declaration gives, in its order


def rules_value(values: dict):
    """The ``Rules`` a run's rule parameters make (``max_per_move`` 0: no cap); the rest keep the defaults."""
    from ..rules import Rules

    rules = {k: v for k, v in values.items() if k in RULE_NAMES}
    if rules.get("max_per_move") == 0:
        rules["max_per_move"] = None
    return Rules(**rules)


def _rules_hold(values: dict) -> str | None:
    """The rule parameters must make a game (``die-or-sum`` with one or two dice, a Double Shutter front row of at
    most 10 tiles, a one-die threshold the rules take): the engine's own one-line refusal."""
    from ..rules import InputError

    try:
        rules_value(values)
    except InputError as error:
        return str(error)
    return None


def covers(chapter: str, **limits: tuple[tuple, str]) -> Callable[[dict], str | None]:
    """A check refusing the rule options a chapter's analysis does not cover: ``limits`` maps a parameter to the
    values allowed and why (``layout=(("row",), "it counts sequences on one row")``)."""
    def check(values: dict) -> str | None:
        for name, (allowed, why) in limits.items():
            if name in values and values[name] not in allowed:
                return (f"{name} = {values[name]} is outside {chapter}'s analysis ({why}); allowed: "
                        f"{', '.join(map(str, allowed))}")
        return None
    check.limits = {name: allowed for name, (allowed, _) in limits.items()}  # what the README's table lists
    return check


SEED = Parameter("seed", int, "random seed", 0, 2**32 - 1, quick=2**32 - 1)


def games(low: int = 1_000, high: int = 10_000_000, quick: int = 20_000, audit: int | None = None) -> Parameter:
    return Parameter("games", int, "simulated games", low, high, quick=quick, audit=audit)


def _board_fits(values: dict) -> str | None:
    """The board parameter must be a board of this run's tiles: each tile once, between 1 and ``tiles``."""
    from ..boards import parse_tiles
    from ..rules import InputError, Rules

    board = values.get("board", "")
    if not board:
        return None
    try:
        parse_tiles(board, Rules(tiles=values["tiles"]), "board")
    except InputError as error:
        return f"{error} (tiles = {values['tiles']})"
    return None


def _scoring_fits(values: dict) -> str | None:
    """The pub game's scoring must apply to the board (the digits: one row of at most 12 tiles): the engine's
    own refusal."""
    from ..players import PubGame
    from ..rules import InputError

    try:
        rules = rules_value(values)
    except InputError:
        return None  # refused by _rules_hold, with its own line
    try:
        PubGame(rules, 2, values.get("scoring", "sum"))
    except InputError as error:
        return str(error)
    return None


ROW = (("row",), "it is defined on one row of tiles")
SOURCE_ROW = (("row",), "its tables name states by their tile numbers on one row, as the source's do")

DOMAINS: dict[str, Domain] = {
    "01-sequence-counts": Domain((
        *rule_parameters(tiles(16, quick=12, audit=8)),
        Parameter("board", str, "open tiles for the counts by number of moves, e.g. 1,3,4,6,7 (empty: all open)",
                  pattern=r"(|[0-9]+(,[0-9]+)*)"),
        games(quick=20_000, audit=3_000),
        SEED,
    ), (_rules_hold, covers("chapter 1", layout=ROW, moves=(("sum",), "the source counts sequences of totals, and "
                                                                    "its rule, example and tables read a roll as its "
                                                                    "total")), _board_fits),
        {"tiles": 8, "games": 5_000}),
    "02-riddler-one-die": Domain(rule_parameters(tiles(16, quick=12, audit=8)), (
        _rules_hold, covers("chapter 2", one_die_forced=(
            (False,), "it weighs rolling one die against all of them, a choice a forced die takes away"))),
        quick={"tiles": 8}),
    "03-open-and-shut": Domain((
        *rule_parameters(tiles(12, quick=10, audit=7)),
        Parameter("tolerance", float, "the source's tie rule: moves within this of the chosen one are listed together",
                  0.0, 1.0),
    ), (_rules_hold, covers("chapter 3", layout=(("row",), "its exhibits name boards by the source's Board Id and "
                                                          "Board string, which read one row of tiles"))),
        quick={"tiles": 7}),
    "04-game-space": Domain(rule_parameters(tiles(12, quick=10, help="the tiles 1 to this number start open", audit=7),
                                            win_at_most(quick=78, audit=30)), (
        _rules_hold, covers("chapter 4", moves=(("sum",), "its game space lists each state's moves by the total "
                                                          "rolled, as the source's GameSpace.csv does"),
                            layout=SOURCE_ROW)),
        quick={"tiles": 7}),
    "05-expected-cost-mdp": Domain((*rule_parameters(tiles(12, quick=10, audit=9)), SEED), (
        _rules_hold, covers("chapter 5", moves=(("sum",), "its tables of actions are by the total rolled"),
                            layout=SOURCE_ROW)),
        quick={"tiles": 8}),
    "06-whole-map": Domain((
        *rule_parameters(tiles(12, quick=9, help="the main board: tiles 1 to this number", audit=7)),
        Parameter("compare_tiles", int, "a second board size for the variants table", 1, 16, quick=12, audit=8),
        Parameter("max_tiles", int, "the more-tiles section solves boards of 1 to this many tiles", 1, 24, quick=14,
                  audit=8),
        Parameter("margin_percent", float, "the strategy card must get within this % of the optimum", 0.0, 100.0),
        Parameter("card_lines", int, "the longest strategy card searched", 1, 3, quick=2, audit=2),
        Parameter("card_objective", str, "what the strategy card is chosen for", choices=OBJECTIVES[:3]),
    ), (_rules_hold,),
        quick={"tiles": 7, "compare_tiles": 8, "max_tiles": 9, "card_lines": 1}),
    "07-pub-game": Domain((
        Parameter("players", int, "how many players, each staking 1, play in turn", 2, 6, quick=4, audit=3),
        Parameter("scoring", str, "a finished turn scores the sum of the open tiles, or their digits read as a number",
                  choices=("sum", "digits")),
        Parameter("shut_pays", float, "what a player who shuts the box wins from each other player, in stakes",
                  float(SHUT_PAYS_RANGE[0]), float(SHUT_PAYS_RANGE[1]), quick=10.0),
        *rule_parameters(tiles(10, quick=8, audit=5)),
        Parameter("max_players", int, "the tables by number of players run from 2 players to this many", 2, 6,
                  quick=4, audit=3),
        Parameter("rounds", int, "simulated rounds beside the exact values", 1_000, 1_000_000, quick=5_000,
                  audit=2_000),
        SEED,
    ), (_rules_hold, _scoring_fits),
        quick={"tiles": 6, "max_players": 2, "rounds": 2_000}),
    "08-in-print": Domain(rule_parameters(tiles(12, quick=7, audit=6)), (_rules_hold,), quick={"tiles": 7}),
    "09-luck-and-skill": Domain((
        *rule_parameters(tiles(12, quick=9, audit=7)),
        Parameter("objective", str, "what a finished game is worth: the win, or the sum left open",
                  choices=("win", "remaining-sum")),
        games(low=100, high=200_000, quick=2_000, audit=300),
        SEED,
    ), (_rules_hold,), quick={"tiles": 7, "games": 500}),
}


def domain(stem: str) -> Domain:
    """The declared parameters of a notebook."""
    if stem not in DOMAINS:
        raise ParameterError(f"notebook must be one of {', '.join(DOMAINS)}; got {stem!r}")
    return DOMAINS[stem]


def parse_value(text: str):
    """A ``-p`` value as papermill reads it from the command line: ``True``/``False``/``None``, an int, a
    float, else the text itself."""
    if text in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[text]
    if re.fullmatch(r"[+-]?[0-9]+", text):  # ASCII digits only: "1_0" and other scripts' digits stay text
        return int(text)
    if re.fullmatch(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?", text):
        return float(text)
    return text


def run_name(stem: str, values: dict, defaults: dict) -> str:
    """``stem`` for the default parameters, else ``stem--name=value--...`` for each changed one, in the
    declared order: signs and decimals kept (``margin_percent=-1`` and ``=1`` differ), text made file-safe.

    >>> run_name("06-whole-map", {"tiles": 8, "margin_percent": 2.5}, {"tiles": 9, "margin_percent": 2.5})
    '06-whole-map--tiles=8'
    """
    order = DOMAINS[stem].names if stem in DOMAINS else tuple(values)  # the declared order: one name per run
    changed = [f"{name}={_file_safe(values[name])}" for name in sorted(values, key=lambda n: (
        order.index(n) if n in order else len(order))) if defaults.get(name) != values[name]]
    return "--".join([stem, *changed])


def _file_safe(value) -> str:
    if isinstance(value, float):
        return repr(value)
    return re.sub(r"[^A-Za-z0-9.,_+-]", "_", str(value)) or "empty"
