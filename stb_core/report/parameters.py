"""Every notebook's parameters and what each may be: one declaration, used by the build driver before a
kernel starts, by the notebook's own first cell (so a run from JupyterLab or plain papermill is checked the same
way), and to make the notebook's ``parameters`` cell (:mod:`stb_core.report.cells`).

A :class:`Parameter` has a type, a default and a range or a list of choices; the rule options' are made from their
one declaration in :mod:`stb_core.rules`. A :class:`Domain` adds the checks on combinations (a board must fit the
tiles; a rule option the chapter's functions do not handle is refused, :func:`chapter_coverage`). The domain check is
the whole check: every value it accepts runs, and everything a notebook would refuse is refused here, before a kernel
starts. ``quick`` is the largest value the tests' rerun matrix runs and ``audit`` the largest the findings audit
draws (the domain may allow slower runs: a reader waits, a test does not).
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from ..objectives import OBJECTIVES
from ..players import SHUT_PAYS_RANGE
from ..rules import OPTIONS, RULE_OPTIONS, Coverage, Option
from ..sources.findings import RULE_OF_THUMB_PERCENT
from ..sources.open_and_shut import TIE_TOLERANCE

CELL_WIDTH = 116  # a parameters cell's lines, within the linter's 120


class ParameterError(ValueError):
    """A parameter that is unknown, of the wrong type or outside its domain: one line naming it."""


@dataclass(frozen=True)
class Parameter:
    """One notebook parameter: its name, type, default and allowed values, and what it means."""

    name: str
    kind: type
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    pattern: str | None = None      # for text: a regular expression the value must match
    quick: object = None            # the largest value the rerun matrix runs (default: high)
    words: Callable | None = None   # how a value reads on a page (a rule option's words)
    audit: object = None            # the largest value the findings audit draws (default: quick, else high)
    samples: tuple | None = None    # for text decided by ``accepts``: the values the rerun matrix and the audit try
    spelled: str | None = None      # for text decided by ``accepts``: the allowed values in words
    default: object = None          # the value of the notebook's parameters cell
    note: str = ""                  # what the chapter adds to the help in its parameters cell (``the source: 10``)
    accepts: Callable | None = None  # for text: whether a value is allowed (a rule option's own test)

    @classmethod
    def of_option(cls, spec: Option, **chapter) -> Parameter:
        """A rule option as a notebook parameter, from its one declaration; ``chapter`` may narrow its range and
        set its default, note and test sizes. An option that may be unset (no cap) takes 0 for unset."""
        declared = {"low": spec.low, "high": spec.high, "choices": spec.choices, "words": spec.words,
                    "samples": spec.samples or None, "spelled": spec.spelled, "accepts": spec.accepts,
                    "default": spec.default}
        if spec.kind is bool:
            declared["choices"] = (False, True)
        help = spec.help
        if spec.unset is not None:
            declared.update(low=0, default=0)
            help = f"{help} (0: {spec.unset})"
        return cls(spec.name, spec.kind, help, **{**declared, **chapter})

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
        if self.accepts is not None and not self.accepts(value):
            raise ParameterError(f"{self.name} must be {self.allowed()}; got {value!r}")
        return float(value) + 0.0 if self.kind is float else value  # + 0.0: -0.0 is 0.0 (one value, one run page)

    def read(self, value) -> str:
        """A value as the page's table of parameters shows it: ``high-shut: once every tile from 7 up is shut``,
        ``no: the player's choice`` (never a bare ``False``)."""
        shown = ("yes" if value else "no") if isinstance(value, bool) else _plain(value)
        said = self.words(value) if self.words else None
        return f"{shown}: {said}" if said and said != shown else shown

    def comment(self) -> str:
        """The comment beside the parameter in the notebook's parameters cell: its help, and the chapter's note."""
        help = f"True: {self.help}" if self.kind is bool else self.help
        return f"{help}; {self.note}" if self.note else help

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


def _plain(value) -> str:
    """A value as a reader reads it: text without quotes (empty shown as "(empty)"), numbers with thousands
    separators."""
    if isinstance(value, str):
        return value if value else "(empty)"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,g}"


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

    @property
    def defaults(self) -> dict:
        """The default of every parameter: the values of the notebook's parameters cell (:func:`parameters_cell`)."""
        return {p.name: p.default for p in self.parameters}

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
TEST_SIZES = {"dice": {"quick": 3}, "sides": {"quick": 12}, "max_per_move": {"quick": 2, "audit": 3},
              "win_at_most": {"quick": 3, "audit": 3}}  # the rerun matrix's and the audit's largest, unless a chapter's


def rule_parameters(**chapter: dict) -> tuple[Parameter, ...]:
    """Every rule option the engine takes, as the notebook parameters of a chapter, each made from its one
    declaration (:data:`stb_core.rules.RULE_OPTIONS`); ``chapter`` maps an option to what the chapter sets for it
    (``tiles={"high": 16, "default": 10, "note": "the source: 10"}``). Which options a chapter's analysis covers
    is not said here: it is what the chapter's functions handle (:func:`chapter_coverage`)."""
    unknown = set(chapter) - set(OPTIONS)
    if unknown:
        raise ParameterError(f"no rule option {sorted(unknown)[0]!r}")
    return tuple(Parameter.of_option(spec, **{**TEST_SIZES.get(spec.name, {}), **chapter.get(spec.name, {})})
                 for spec in RULE_OPTIONS)


RULE_NAMES = tuple(OPTIONS)  # the rule options' names, in their declared order


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


def chapter_coverage(stem: str) -> Coverage:
    """What a chapter's analysis covers: what every function of it covers (its module's ``pipeline``, made of
    them), so a chapter can neither accept what a function mishandles nor refuse what all of them handle."""
    import importlib

    from .catalogue import chapter

    return importlib.import_module(f"stb_core.sources.{chapter(stem).module}").pipeline.coverage


def _covered(stem: str) -> Callable[[dict], str | None]:
    """The check refusing, in one line, a rule option outside the chapter's analysis (:func:`chapter_coverage`)."""
    from ..rules import InputError

    def check(values: dict) -> str | None:
        try:
            rules = rules_value(values)
        except InputError:
            return None  # refused by _rules_hold, with its own line
        from .catalogue import chapter

        return chapter_coverage(stem).refusal(rules, f"chapter {chapter(stem).number}'s analysis")

    return check


def seed(default: int, help: str = "random seed of the simulations") -> Parameter:
    return Parameter("seed", int, help, 0, 2**32 - 1, quick=2**32 - 1, default=default)


def games(default: int, help: str, note: str = "", low: int = 1_000, high: int = 10_000_000, quick: int = 20_000,
          audit: int | None = None) -> Parameter:
    return Parameter("games", int, help, low, high, quick=quick, audit=audit, default=default, note=note)


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


def _board_size_fits(name: str) -> Callable[[dict], str | None]:
    """A chapter parameter naming another board size to solve under this run's rules (chapter 6's ``compare_tiles``
    and ``max_tiles``) must make a board of these rules (a Double Shutter front row of at most 12): the engine's own
    refusal, naming the parameter."""
    def check(values: dict) -> str | None:
        from dataclasses import replace

        from ..rules import InputError

        try:
            rules = rules_value(values)
        except InputError:
            return None  # refused by _rules_hold, with its own line
        try:
            replace(rules, tiles=values[name])
        except InputError as error:
            return f"{name} = {values[name]} is too many for these rules: {error}"
        return None

    return check


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


def source(value, **sizes) -> dict:
    """A rule option's default that is the source's own game, said in the parameters cell."""
    return {"default": value, "note": f"the source: {value}", **sizes}


DOMAINS: dict[str, Domain] = {
    "01-sequence-counts": Domain((
        *rule_parameters(tiles=source(10, high=16, quick=12, audit=8), dice=source(2), sides=source(6)),
        Parameter("board", str, "open tiles for a second table of counts by number of moves, e.g. 1,3,4,6,7 (empty: "
                  "none)", pattern=r"(|[0-9]+(,[0-9]+)*)", default=""),
        games(100_000, "simulated games per strategy", "the source: 1000000", quick=20_000, audit=3_000),
        seed(1),
    ), (_rules_hold, _covered("01-sequence-counts"), _board_fits), {"tiles": 8, "games": 5_000}),
    "02-riddler-one-die": Domain(rule_parameters(
        tiles=source(9, high=16, quick=12, audit=8), dice=source(2), sides=source(6), one_die=source("high-shut")),
        (_rules_hold, _covered("02-riddler-one-die")), quick={"tiles": 8}),
    "03-open-and-shut": Domain((
        *rule_parameters(tiles=source(9, high=12, quick=10, audit=7), dice=source(2), sides=source(6)),
        Parameter("tolerance", float, "the source's tie rule: moves within this of the chosen move are listed "
                  "together", 0.0, 1.0, default=TIE_TOLERANCE),
    ), (_rules_hold, _covered("03-open-and-shut")), quick={"tiles": 7}),
    "04-game-space": Domain(rule_parameters(
        tiles=source(9, high=12, quick=10, audit=7), dice=source(2), sides=source(6),
        win_at_most=source(3, quick=78, audit=30)), (_rules_hold, _covered("04-game-space")), quick={"tiles": 7}),
    "05-expected-cost-mdp": Domain((
        *rule_parameters(tiles=source(9, high=12, quick=10, audit=9), dice=source(2), sides=source(6)),
        seed(123, "seed of the narrated game (the source's R seed was 123; R's generator differs from numpy's)"),
    ), (_rules_hold, _covered("05-expected-cost-mdp")), quick={"tiles": 8}),
    "06-whole-map": Domain((
        *rule_parameters(tiles={"high": 12, "quick": 9, "audit": 7, "note": "the main board"}),
        Parameter("compare_tiles", int, "a second board size for the variants table", 1, 16, quick=12, audit=8,
                  default=10),
        Parameter("max_tiles", int, "the more-tiles section solves boards of 1 to this many tiles", 1, 24, quick=14,
                  audit=8, default=16),
        Parameter("margin_percent", float, "the recommended strategy card is the simplest within this % of the "
                  "optimum", 0.0, 100.0, default=RULE_OF_THUMB_PERCENT),
        Parameter("card_lines", int, "the longest strategy card searched", 1, 3, quick=2, audit=2, default=3),
        Parameter("card_objective", str, "what the strategy card is chosen for", choices=OBJECTIVES[:3],
                  default="win"),
    ), (_rules_hold, _covered("06-whole-map"), _board_size_fits("compare_tiles"), _board_size_fits("max_tiles")),
        quick={"tiles": 7, "compare_tiles": 8, "max_tiles": 9, "card_lines": 1}),
    "07-pub-game": Domain((
        Parameter("players", int, "how many players, each staking 1, play in turn", 2, 6, quick=4, audit=3,
                  default=2),
        Parameter("scoring", str, "a finished turn scores the sum of the open tiles, or their digits read as a number",
                  choices=("sum", "digits"), default="sum"),
        Parameter("shut_pays", float, "what a player who shuts the box (under a threshold: reaches it) wins from each "
                  "other player, in stakes",
                  float(SHUT_PAYS_RANGE[0]), float(SHUT_PAYS_RANGE[1]), quick=10.0, default=1.0,
                  note="1: the pot, 2: double"),
        *rule_parameters(tiles={"high": 10, "quick": 8, "audit": 5}),
        Parameter("max_players", int, "the tables by number of players run from 2 players to this many", 2, 6,
                  quick=4, audit=3, default=4),
        Parameter("rounds", int, "simulated rounds beside the exact values", 1_000, 1_000_000, quick=5_000,
                  audit=2_000, default=100_000),
        seed(1),
    ), (_rules_hold, _covered("07-pub-game"), _scoring_fits),
        quick={"tiles": 6, "max_players": 2, "rounds": 2_000}),
    "08-in-print": Domain(rule_parameters(tiles={"high": 12, "quick": 7, "audit": 6,
                                                 "note": "of the variants and the rules of thumb"}),
                          (_rules_hold, _covered("08-in-print")), quick={"tiles": 7}),
    "09-luck-and-skill": Domain((
        *rule_parameters(tiles={"high": 12, "quick": 9, "audit": 7}),
        Parameter("objective", str, "what a finished game is worth: the win, or the sum left open",
                  choices=("win", "remaining-sum"), default="win"),
        games(20_000, "seeded games of each way of playing, analysed turn by turn", low=100, high=200_000,
              quick=2_000, audit=300),
        seed(9, "random seed of the games"),
    ), (_rules_hold, _covered("09-luck-and-skill")), quick={"tiles": 7, "games": 500}),
}


def domain(stem: str) -> Domain:
    """The declared parameters of a notebook."""
    if stem not in DOMAINS:
        raise ParameterError(f"notebook must be one of {', '.join(DOMAINS)}; got {stem!r}")
    return DOMAINS[stem]


def parameters_cell(stem: str) -> str:
    """The notebook's ``parameters`` cell, made from its declared parameters: one literal a line, commented with
    what it means (papermill injects its ``-p`` values after this cell; JupyterLab users edit it)."""
    lines = []
    for p in domain(stem).parameters:
        literal = json.dumps(p.default) if isinstance(p.default, str) else repr(p.default)
        lines += textwrap.wrap(p.comment(), CELL_WIDTH, initial_indent=f"{p.name} = {literal}  # ",
                               subsequent_indent="#   ", break_on_hyphens=False)
    return "\n".join(lines)
