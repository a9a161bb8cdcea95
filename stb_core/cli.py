"""``stb`` (``python -m stb_core``): the engine's questions from the command line, one subcommand each (``stb
--help`` lists them).

Every subcommand that plays a game takes one flag per rule option, made from its declaration in
:data:`stb_core.rules.RULE_OPTIONS` (``--tiles``, ``--one-die``, ``--layout`` ...); the single-player ones add
``--objective --policy --tie-break --exact``. A user error --
a value of the wrong type or out of range, an impossible board or roll, an unknown choice -- exits with status 2
and one line on stderr naming the parameter and what is allowed; no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from fractions import Fraction
from pathlib import Path

from .boards import board_mask, layout_of, parse_tiles
from .choice import TIE_BREAKS, get_tie_break
from .cost import MEMORY_BUDGET, TIME_BUDGET, Estimate, counts_estimate, simulation_estimate, solve_cost
from .counts import check_counts_reach, counts_by_moves
from .frontier import DEFAULT_OBJECTIVES, check_objectives, frontier, frontier_estimate
from .game import check_roll, game_of
from .hindsight import hindsight, hindsight_estimate, hindsight_refusal
from .limits import EXACT_MAX_TILES
from .luck import GRADE_NAMES, analyse, number_format, parse_record, record_of, thresholds
from .monte_carlo import MAX_GAMES, narrate_game, simulate
from .objectives import OBJECTIVES
from .players import (
    FAIR_TRIALS,
    PLAYERS_RANGE,
    SCORINGS,
    SEAT_PLAYS,
    SHUT_PAYS_RANGE,
    PubGame,
    fair_shut_pays,
    play,
    play_estimate,
)
from .policies import POLICIES, get_policy
from .rules import RULE_OPTIONS, InputError, Option, Rules
from .sweep import Solution, check_exact_reach
from .valuation import evaluate, expected_rolls, final_sum_distribution, roll_count_distribution

EXACT_HELP = (f"exact fractions (up to {EXACT_MAX_TILES} tiles; Double Shutter up to {EXACT_MAX_TILES // 2} "
              "in front)")


def program_name() -> str:
    """How the command was called: ``stb`` (the installed script) or ``python -m stb_core``."""
    return "stb" if Path(sys.argv[0]).name == "stb" else "python -m stb_core"


MIN_GAMES = 100  # fewer simulated games give no useful interval


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line, no abbreviated flags, and a flag given twice refused (argparse would
    silently keep the last value)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def error(self, message: str):  # argparse's own errors (a missing value, an unknown flag): one line
        raise UserError(message)

    def parse_args(self, args=None, namespace=None):
        given = [a.split("=", 1)[0] for a in (sys.argv[1:] if args is None else args) if a.startswith("--")]
        repeated = sorted({flag for flag in given if given.count(flag) > 1 and flag not in REPEATABLE})
        if repeated:
            raise UserError(f"{repeated[0]} is given twice: give each option once")
        return super().parse_args(args, namespace)


REPEATABLE = {"--seat"}  # the flags a command takes more than once (one seat each)


# -- value types: each names its parameter and what is allowed ---------------------------------------------
def integer(name: str, low: int, high: int):
    """An argparse type: an integer in ``[low, high]``, else one line naming ``name`` and the range."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):  # ASCII digits only: not "1_0", "١٢" or "1e3"
            raise UserError(f"{name} must be an integer between {low:,} and {high:,}; got {text!r}")
        value = int(text)
        if not low <= value <= high:
            raise UserError(f"{name} must be an integer between {low:,} and {high:,}; got {value:,}")
        return value
    return parse


NUMBER_TEXT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def number(name: str, low: float, high: float):
    """An argparse type: a decimal number (ASCII digits) from ``low`` to ``high``."""
    def parse(text: str) -> float:
        if not NUMBER_TEXT.fullmatch(text.strip()):
            raise UserError(f"{name} must be a number from {low:g} to {high:,}; got {text!r}")
        value = float(text)
        if not low <= value <= high:
            raise UserError(f"{name} must be a number from {low:g} to {high:,}; got {text}")
        return value
    return parse


def choice(name: str, options):
    """An argparse type: one of ``options``."""
    def parse(text: str) -> str:
        if text not in options:
            raise UserError(f"{name} must be one of {', '.join(options)}; got {text!r}")
        return text
    return parse


def seat_play(text: str) -> tuple[int, str]:
    """``--seat K=PLAY``: a seat number and a play of ``SEAT_PLAYS`` (the seat's range is checked with the game)."""
    seat, _, how = text.partition("=")
    if not re.fullmatch(r" *[0-9]+ *", seat) or how.strip() not in SEAT_PLAYS:
        raise argparse.ArgumentTypeError(f"seat must be K=PLAY, a seat number and one of {', '.join(SEAT_PLAYS)}, "
                                         f"like 1=win; got {text!r}")
    return int(seat), how.strip()


def board_text(text: str) -> str:
    """``--open``: tiles separated by commas (``2,6``), or ``none`` for the finished game with every tile shut.
    An empty value, an empty item (``1,,2``) or a trailing comma is a mistake, not a board."""
    stripped = text.strip()
    if stripped.lower() == "none":
        return "none"
    items = stripped.split(",")
    if not stripped or any(not item.strip() for item in items):
        raise UserError(f"open must be tiles separated by commas, like 2,6 (or none: every tile shut); got {text!r}")
    return stripped


def _add(group, flag: str, kind, default, help: str) -> None:
    group.add_argument(flag, type=kind, default=default, help=help, metavar=flag.strip("-").upper().replace("-", "_"))


def option_flag(spec: Option) -> tuple[str, dict]:
    """The command line's flag for a rule option, made from its declaration: ``--max-per-move``, its value type
    (an integer in range, one of the choices, or text the rules check), default and help."""
    flag = "--" + spec.name.replace("_", "-")
    if spec.kind is bool:
        return flag, {"action": "store_true", "help": f"{spec.help} (default: {spec.read(spec.default)})"}
    kind = (integer(spec.name, spec.low, spec.high) if spec.kind is int else
            choice(spec.name, spec.choices) if spec.choices is not None else str)
    allowed = f"{spec.low}-{spec.high}; " if spec.kind is int else ""
    default = spec.unset if spec.default is None else spec.default
    return flag, {"type": kind, "default": spec.default, "metavar": spec.name.upper(),
                  "help": f"{spec.help} ({allowed}default {default})"}


def _rule_flags() -> argparse.ArgumentParser:
    shared = _Parser(add_help=False)
    rules = shared.add_argument_group("rules")
    for spec in RULE_OPTIONS:
        flag, settings = option_flag(spec)
        rules.add_argument(flag, **settings)
    shared.add_argument("--json", action="store_true", help="print JSON")
    return shared


def _play_flags() -> argparse.ArgumentParser:
    shared = _Parser(add_help=False)
    play_ = shared.add_argument_group("play")
    _add(play_, "--objective", choice("objective", OBJECTIVES), "win",
         f"what a finished game is worth: {', '.join(OBJECTIVES)} (default win)")
    _add(play_, "--policy", choice("policy", (*POLICIES, HINDSIGHT)), "optimal",
         f"how moves are chosen: {', '.join(POLICIES)}; or {HINDSIGHT} (solve only: the value for a player who "
         "knows every throw in advance)")
    _add(play_, "--tie-break", choice("tie_break", tuple(TIE_BREAKS)), "canonical",
         f"which of equally good moves is played: {', '.join(TIE_BREAKS)} (default canonical: lowest tiles first)")
    play_.add_argument("--exact", action="store_true",
                       help=EXACT_HELP)
    return shared


def _open_flag() -> argparse.ArgumentParser:
    shared = _Parser(add_help=False)
    _add(shared, "--open", board_text, None, "open tiles, e.g. 2,6, or none (default: every tile); on a Double "
         "Shutter board a back tile is b and its value: 1,b9")
    return shared


class _Version(argparse.Action):
    """``--version``: the installed package's version, read only when asked for (reading it costs every other
    command a fortieth of a second)."""

    def __call__(self, parser, namespace, values, option_string=None):
        import stb_core

        print(f"{parser.prog} {stb_core.__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one subcommand per question."""
    parser = _Parser(prog=program_name(), description="Shut the Box, solved exactly.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                     metavar="{solve,advise,distribution,counts,simulate,players,frontier,analyse,export}")
    single = [_rule_flags(), _play_flags(), _open_flag()]
    commands.add_parser("solve", parents=single, help="value of a board under a policy")
    advise = commands.add_parser("advise", parents=single, help="every legal move for a roll, best first")
    dist = commands.add_parser("distribution", parents=single,
                               help="distribution of the final sum left, or of the number of rolls")
    _add(dist, "--of", choice("of", ("sum", "rolls")), "sum",
         "what to give the distribution of: sum (the final sum left) or rolls (how many rolls a game lasts, the "
         "last one that finds no move included) (default sum)")
    commands.add_parser("counts", parents=[_rule_flags(), _open_flag()],
                        help="winning move sequences by number of moves")
    sim = commands.add_parser("simulate", parents=single, help="Monte Carlo games with 95%% intervals")
    pub = commands.add_parser("players", parents=[_rule_flags()], help="the pub game for stakes, 2-6 players")
    front = commands.add_parser("frontier", parents=[_rule_flags()],
                                help="every way of playing best for some mix of two objectives: the risk frontier")
    _add(front, "--objectives", str, ",".join(DEFAULT_OBJECTIVES), f"the two objectives, first,second: two of "
         f"{', '.join(OBJECTIVES)} (default {','.join(DEFAULT_OBJECTIVES)})")
    front.add_argument("--exact", action="store_true",
                       help=EXACT_HELP)
    review = commands.add_parser("analyse", parents=[_rule_flags(), _play_flags()],
                                 help="a game's luck and decisions, turn by turn")
    _add(review, "--game", str, None, "the game, one turn per roll: the total, then the tiles shut joined by + (or "
         "- where no move was legal), e.g. '8:2+6 7:7 11:8+3 12:-'; with a choice of dice, the dice first: 1d4:4")
    _add(review, "--seed", integer("seed", 0, 2**63 - 1), None, "instead of --game: play one game with --policy "
         "from this seed, and analyse it")
    kit = commands.add_parser("export", help="the report's write-up kit: figures, tables as CSV and LaTeX, captions, "
                              "BibTeX (from a clone where the report is built)")
    _add(kit, "--run", str, None, "a rerun's name (default: the report's chapters)")
    _add(kit, "--out", str, None, "the folder to write into (default: export/ in the project)")
    kit.add_argument("--no-pdf", action="store_true", help="leave main.pdf out (typesetting main.tex takes a minute "
                     "or so where TeX is installed)")
    _add(advise, "--roll", str, None, "the roll to advise on: its total (e.g. 9), or the dice for moves "
         "die-or-sum (e.g. 3,5)")
    _add(sim, "--games", integer("games", MIN_GAMES, MAX_GAMES), 100_000, f"games to play ({MIN_GAMES}-{MAX_GAMES:_})")
    _add(sim, "--seed", integer("seed", 0, 2**63 - 1), 0, "random seed (default 0)")
    _add(pub, "--players", integer("players", *PLAYERS_RANGE), 2, "players, each staking 1 (2-6; default 2)")
    _add(pub, "--scoring", choice("scoring", SCORINGS), "sum", "score: sum of the open tiles, or their digits")
    _add(pub, "--shut-pays", number("shut_pays", *SHUT_PAYS_RANGE), 1.0,
         f"stakes each other player pays one who shuts the box ({SHUT_PAYS_RANGE[0]} to {SHUT_PAYS_RANGE[1]:,})")
    pub.add_argument("--seat", action="append", type=seat_play, default=[], metavar="K=PLAY",
                     help=f"seat K plays one way whatever the scores before it (repeatable): optimally for one "
                     f"objective alone or by a named policy; one of {', '.join(SEAT_PLAYS)} (default stakes: the "
                     f"best reply to the scores before it)")
    _add(pub, "--tie-break", choice("tie_break", tuple(TIE_BREAKS)), "canonical",
         f"which of equally good moves a seat with a fixed play makes: {', '.join(TIE_BREAKS)} (default canonical)")
    pub.add_argument("--fair", action="store_true", help="also find the shut_pays that makes seat 1 even")
    pub.add_argument("--exact", action="store_true", help="exact fractions (shut_pays given as a whole number)")
    return parser


def _rules(args) -> Rules:
    return Rules(**{spec.name: getattr(args, spec.name) for spec in RULE_OPTIONS})


def _parse_roll(text: str, rules: Rules, board: int) -> int:
    """The outcome ``--roll`` names, checked before any work: a total (``9``), or under ``die-or-sum`` the dice
    (``3,5``; one number where one die is rolled)."""
    game = game_of(rules)
    if game.rolls_are_totals:
        if not re.fullmatch(r"[0-9]+", text.strip()):
            raise UserError(f"roll must be a total the dice can show, like 9; got {text!r}")
        return check_roll(int(text), rules, board)
    words = ",".join(part.strip() for part in text.split(","))
    dice = words.count(",") + 1
    if dice not in game.dice_choices(board):
        raise UserError(f"roll must be {' or '.join(map(str, game.dice_choices(board)))} dice from open "
                        f"{_board_text(rules, board)}; got {text!r}")
    try:  # the dice as a record writes them (Game.roll_of_words)
        return game.roll_of_words(words, dice)
    except InputError:
        raise UserError(f"roll must be the dice, each 1 to {rules.sides}, like 3,5 (one number for one die); "
                        f"got {text!r}") from None


def _board(args, rules: Rules) -> int:
    if args.open is None:
        return rules.full_board
    return 0 if args.open == "none" else parse_tiles(args.open, rules, "open")


def _board_text(rules: Rules, board: int) -> str:
    """A board or move in the tiles' own names: ``{1, 4, 5, 8}``; on Double Shutter ``{1, b9}``."""
    return layout_of(rules).label(board)


def _fraction(value) -> str:
    f = Fraction(value)
    return f"{f.numerator}/{f.denominator}"


def _emit(args, payload: dict | list, lines: list[str]) -> None:
    print(json.dumps(payload, indent=2) if args.json else "\n".join(lines))


def _header(args, rules: Rules, board: int) -> dict:
    return {"rules": rules.describe(), "objective": args.objective, "policy": args.policy,
            "tie_break": args.tie_break, "open": layout_of(rules).names(board)}


HINDSIGHT = "hindsight"  # solve's value for a player who knows every throw (stb_core.hindsight), not a policy
LONG_RUN = 10.0  # seconds: a run estimated to take longer says so first, and shows its progress


def _announce(what: str, estimate: Estimate):
    """Refuse a run beyond the machine's budgets (one line with the estimate); say what a long one will take and
    return a progress printer for it (None for a short one)."""
    if not estimate.affordable:
        raise UserError(f"{what} is out of reach: it would take {estimate.describe()} (the budget: "
                        f"{TIME_BUDGET / 60:.0f} minutes and {MEMORY_BUDGET / 2**30:.0f} GB); try fewer tiles or dice")
    if os.environ.get("STB_ESTIMATES"):  # make bench holds every estimate to what the command then takes
        print(f"{program_name()}: estimate: {estimate.seconds:.3f} s {int(estimate.bytes)} bytes", file=sys.stderr,
              flush=True)
    if estimate.seconds <= LONG_RUN:
        return None
    print(f"{program_name()}: {what}: estimated {estimate.describe()}", file=sys.stderr, flush=True)
    start, shown = time.perf_counter(), [-1]

    def progress(done) -> None:
        if isinstance(done, str):
            print(f"  {done} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
        elif int(done * 10) > shown[0]:
            shown[0] = int(done * 10)
            print(f"  {done:.0%} done ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return progress


def _solution(args, rules: Rules, exact: bool | None = None, policy: str | None = None,
              then: tuple[str, ...] = ()) -> Solution:
    """The solve a command needs, announced with what the command does with it next (``then``: the passes of
    :meth:`stb_core.cost.SolveCost.follow`)."""
    exact = args.exact if exact is None else exact
    policy = args.policy if policy is None else policy
    if policy == HINDSIGHT:
        raise UserError(f"policy hindsight is a value, not a way to play: only solve takes it (here: one of "
                        f"{', '.join(POLICIES)})")
    check_exact_reach(rules, exact)  # refused at once, not after an estimate
    cost, playing = solve_cost(rules), get_policy(policy)
    mixture = playing.plays_mixture(get_tie_break(args.tie_break))
    estimate = cost.estimate("auto", exact, mixture).then(playing.key_estimate(cost))
    for what in then:
        estimate = estimate.then(cost.follow(what, exact, mixture, lengths=rules.positions + 2))
    progress = _announce(f"solving {rules.describe()}", estimate)
    return evaluate(rules, args.objective, policy, tie_break=args.tie_break, exact=exact, progress=progress)


# -- subcommands -----------------------------------------------------------------------------------------------
def cmd_solve(args, rules: Rules) -> None:
    board = _board(args, rules)
    if args.policy == HINDSIGHT:
        return _hindsight(args, rules, board)
    solution = _solution(args, rules, then=("back",))
    value = solution.value(board)
    rolls = expected_rolls(solution, board)
    payload, shown = _value_out(args, value, {"expected_rolls": float(rolls), "seconds": solution.seconds,
                                              **_header(args, rules, board)})
    _emit(args, payload, [
        f"{rules.describe()}; objective {args.objective}; policy {args.policy}; ties {args.tie_break}",
        f"value of open {_board_text(rules, board)}: {shown}",
        f"expected rolls of a game: {float(rolls):.10g} (the last one, that finds no move, included)",
        f"solved in {solution.seconds:.3f} s",
    ])


def _value_out(args, value, fields: dict) -> tuple[dict, str]:
    """A board's value as the JSON payload (``value``, ``exact`` with ``--exact``, then ``fields``) and as the text
    line shows it."""
    payload = {"value": float(value), **fields}
    if args.exact:
        payload["exact"] = _fraction(value)
    return payload, f"{float(value):.10g}" + (f" = {_fraction(value)}" if args.exact else "")


def _hindsight(args, rules: Rules, board: int) -> None:
    refusal = hindsight_refusal(rules, args.objective)
    if refusal:
        raise UserError(refusal)
    start = time.perf_counter()
    progress = _announce(f"the hindsight value of {rules.describe()}", hindsight_estimate(rules, args.exact))
    value = hindsight(rules, args.objective, board=board, exact=args.exact, progress=progress)
    seconds = time.perf_counter() - start
    payload, shown = _value_out(args, value, {"seconds": seconds, **_header(args, rules, board)})
    _emit(args, payload, [
        f"{rules.describe()}; objective {args.objective}; hindsight (every throw known in advance)",
        f"value of open {_board_text(rules, board)}: {shown}",
        f"computed in {seconds:.3f} s",
    ])


def cmd_analyse(args, rules: Rules) -> None:
    if (args.game is None) == (args.seed is None):
        raise UserError("analyse needs a game: --game '8:2+6 7:7 11:8+3 12:-', or --seed S to play one with --policy")
    if args.policy == HINDSIGHT:
        raise UserError("policy hindsight is a value, not a way to play: analyse plays --policy from --seed with one "
                        f"of {', '.join(POLICIES)}")
    solution = _solution(args, rules, policy="optimal")
    if args.game is not None:
        record = args.game
    else:
        player = solution if args.policy == "optimal" else _solution(args, rules)
        record = record_of(narrate_game(player, seed=args.seed), rules)
    report = analyse(solution, parse_record(record, solution))
    number = _fraction if args.exact else float
    turns = [{**{k: t[k] for k in ("open", "dice", "roll", "played", "best", "grade")},
              **{k: number(t[k]) for k in ("luck", "dice_loss", "move_loss", "loss", "value_after")}}
             for t in report["turns"]]
    payload = {"game": record, "start": number(report["start"]), "outcome": number(report["outcome"]),
               "luck": number(report["luck"]), "loss": number(report["loss"]), "identity": report["identity"],
               "holds": report["holds"], "turns": turns, "grades": dict(zip(GRADE_NAMES, thresholds(
                   args.objective, report["start"]), strict=False)), "rules": rules.describe(),
               "objective": args.objective}
    _emit(args, payload, analysis_lines(rules, args, record, report, solution.objective.sense))


def analysis_lines(rules: Rules, args, record: str, report: dict, sense: int) -> list[str]:
    """``analyse``'s table: a column per field, each as wide as its widest entry; luck and losses in the objective's
    units (percentage points for the win) at :func:`stb_core.luck.decimals` decimals, with digit groups."""
    shape = number_format(args.objective, report["start"])
    places, percent = shape["decimals"], shape["percent"]

    def amount(x, signed: bool = False) -> str:
        x = 100 * float(x) if percent else float(x)
        text = f"{x:{'+' if signed else ''},.{places}f}"
        return "0" if re.fullmatch(r"[+-]?0(\.0+)?", text) else text

    rows = [[str(n), t["open"], f"{t['dice']}d{t['roll_words']}" if rules.has_one_die_rule else t["roll_words"],
             t["played"], "; ".join(t["best"]) or "-", amount(t["luck"], True), amount(t["loss"]), t["grade"]]
            for n, t in enumerate(report["turns"], 1)]
    unit = " (pp)" if percent else ""
    head = ["turn", "open", "roll", "played", "best", f"luck{unit}", f"loss{unit}", "grade"]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    right = {0, 2, 5, 6}  # numbers stand right-aligned

    def line(cells) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths,
                                                                                                 strict=True))).rstrip()

    start, outcome = (f"{amount(report[k])}%" if percent else f"{float(report[k]):,.{places}f}"
                      for k in ("start", "outcome"))
    if not percent and float(report["outcome"]).is_integer():
        outcome = f"{int(report['outcome']):,}"
    unit = " pp" if percent else ""
    sums = (f"start {start} {'+' if sense > 0 else '-'} luck ({amount(report['luck'], True)}{unit}) "
            f"{'-' if sense > 0 else '+'} loss {amount(report['loss'])}{unit} = outcome {outcome}"
            + (", exactly" if args.exact and report["holds"] else ""))
    return [f"{rules.describe()}; objective {args.objective}; values of optimal play afterwards", f"game: {record}",
            line(head), *(line(r) for r in rows), sums]


def cmd_advise(args, rules: Rules) -> None:
    board = _board(args, rules)
    if game_of(rules).is_won(board):
        raise UserError(f"open {_board_text(rules, board)} is already won under these rules: "
                        "there is nothing to advise")
    roll = None if args.roll is None else _parse_roll(args.roll, rules, board)  # before any work
    solution = _solution(args, rules)
    if roll is None:
        return _advise_dice(args, rules, board, solution)
    moves = solution.move_values(board, roll)
    layout = layout_of(rules)
    payload = [{"move": layout.names(board_mask(move)), "value": float(value)} for move, value in moves]
    if not moves:
        lines = [f"No move is legal for open {_board_text(rules, board)} and roll {args.roll}: the game is over "
                 f"with {game_of(rules).open_sum(board)} left open."]
    else:
        lines = [f"open {_board_text(rules, board)}, roll {args.roll}, objective {args.objective}: "
                 f"value after each move, best first (ties: {args.tie_break})"]
        lines += [f"  shut {layout.label(board_mask(move)):<16} {float(value):.10g}"
                  for move, value in moves]
    _emit(args, payload, lines)


def _advise_dice(args, rules: Rules, board: int, solution: Solution) -> None:
    values = solution.dice_values(board)
    best = max(values, key=lambda d: solution.objective.sense * values[d])
    payload = {"dice": {str(d): float(v) for d, v in values.items()}, "best": best, **_header(args, rules, board)}
    if len(values) == 1:
        lines = [f"These rules give no choice of dice from open {_board_text(rules, board)}: roll {best} "
                 f"(value {float(values[best]):.10g})."]
    else:
        lines = [f"open {_board_text(rules, board)}, objective {args.objective}: "
                 f"roll {best} {'die' if best == 1 else 'dice'}"]
        lines += [f"  {d} {'die ' if d == 1 else 'dice'}  {float(v):.10g}" for d, v in values.items()]
    _emit(args, payload, lines)


def cmd_distribution(args, rules: Rules) -> None:
    board = _board(args, rules)
    start = time.perf_counter()
    solution = _solution(args, rules, then=("lengths" if args.of == "rolls" else "forward",))
    if args.of == "rolls":
        dist = roll_count_distribution(solution, board)
        what, column = "number of rolls", "rolls"
    else:
        dist = final_sum_distribution(rules, board=board, solution=solution)
        what, column = "final sum left", "sum"
    seconds = time.perf_counter() - start
    mean = sum(s * p for s, p in dist.items())
    payload = {"of": args.of, "distribution": {str(s): float(p) for s, p in dist.items()}, "mean": float(mean),
               "seconds": seconds, **_header(args, rules, board)}
    if args.exact:
        payload["exact"] = {str(s): _fraction(p) for s, p in dist.items()}
    lines = [f"{what} from open {_board_text(rules, board)} ({args.policy} play for {args.objective}, ties "
             f"{args.tie_break})", f"  {column:>5}  probability"]
    lines += [f"  {s:>5}  {float(p):.10g}" for s, p in dist.items()]
    lines.append(f"mean {float(mean):.10g}")
    _emit(args, payload, lines)


def cmd_counts(args, rules: Rules) -> None:
    board = _board(args, rules)
    check_counts_reach(rules)
    _announce(f"counting winning sequences of {rules.describe()}", counts_estimate(rules))
    counts = {k: c for k, c in counts_by_moves(rules, board).items() if c}
    payload = {"counts": {str(k): c for k, c in counts.items()}, "total": sum(counts.values()),
               "rules": rules.describe(), "open": layout_of(rules).names(board)}
    lines = [f"dice-weighted winning move sequences from open {_board_text(rules, board)}", "  moves  sequences"]
    lines += [f"  {k:>5}  {c}" for k, c in counts.items()] or ["  (none: the box cannot be shut from here)"]
    lines.append(f"  total  {sum(counts.values())}")
    _emit(args, payload, lines)


def cmd_simulate(args, rules: Rules) -> None:
    board = _board(args, rules)
    progress = _announce(f"simulating {args.games:,} games", simulation_estimate(rules, args.games))
    solution = _solution(args, rules, exact=False)
    start = time.perf_counter()
    result = simulate(solution, args.games, args.seed, board,
                      progress=(lambda done, total: progress(done / total)) if progress else None)
    seconds = time.perf_counter() - start
    exact_value = float(solution.value(board))
    payload = {**result.summary(), "seconds": seconds, "exact_value": exact_value, **_header(args, rules, board)}
    lo, hi = result.win_rate_ci
    slo, shi = result.mean_remaining_sum_ci
    _emit(args, payload, [
        f"{args.games} games from open {_board_text(rules, board)}, {args.policy} play for {args.objective}, "
        f"seed {args.seed}",
        f"  win rate            {result.win_rate:.6f}  (95% interval {lo:.6f} to {hi:.6f}, Wilson)",
        f"  mean sum left open  {result.mean_remaining_sum:.6f}  (95% interval {slo:.6f} to {shi:.6f})",
        f"  exact value ({args.objective}) {exact_value:.6f}; simulated in {seconds:.2f} s",
    ])


def cmd_players(args, rules: Rules) -> None:
    shut_pays = args.shut_pays
    if args.exact:
        if shut_pays != int(shut_pays):
            raise UserError(f"--exact needs shut_pays as a whole number; got {shut_pays:g}")
        shut_pays = int(shut_pays)
    seats = [seat for seat, _ in args.seat]
    if len(set(seats)) < len(seats):
        raise UserError(f"--seat names seat {next(k for k in seats if seats.count(k) > 1)} twice: give each seat once")
    game = PubGame(rules, args.players, args.scoring, shut_pays, dict(args.seat), args.tie_break)
    estimate = play_estimate(game, args.exact) * (1 + (FAIR_TRIALS if args.fair else 0))
    progress = _announce(f"the pub game for {args.players} players, {rules.describe()}", estimate)
    result = play(game, exact=args.exact, progress=progress)
    seats = [{"seat": int(r.seat), "plays": game.play_of(int(r.seat)), "expected_payoff": float(r.expected_payoff),
              "p_win": float(r.p_win), "p_shut": float(r.p_shut)} for r in result.seats.itertuples()]
    payload = {"seats": seats, "p_tie": float(result.p_tie), "players": args.players, "scoring": args.scoring,
               "shut_pays": float(shut_pays), "rules": rules.describe()}
    lines = [f"{args.players} players, {args.scoring} scoring, a shut box pays {shut_pays:g} from each other player; "
             f"{rules.describe()}", "  seat  plays           expected winnings  P(win)    P(shut the box)"]
    lines += [f"  {s['seat']:>4}  {s['plays']:<14}  {s['expected_payoff']:>+17.6f}  {s['p_win']:.6f}  {s['p_shut']:.6f}"
              for s in seats]
    lines.append(f"  the pot is split with probability {float(result.p_tie):.6f}")
    if args.fair:
        fair = fair_shut_pays(game, progress=progress)
        payload["fair_shut_pays"] = fair.shut_pays
        if fair.shut_pays is None:
            lines.append(f"  no bonus from {SHUT_PAYS_RANGE[0]} to {SHUT_PAYS_RANGE[1]:,} makes seat 1 even")
        elif fair.exact_zero:
            lines.append(f"  seat 1 breaks even when a shut box pays {fair.shut_pays:.6f} from each other player")
        else:
            lines.append(f"  seat 1's winnings jump across 0 at a bonus of {fair.shut_pays:.6f} (a later seat changes "
                         f"its play there): no bonus makes it exactly even")
    _emit(args, payload, lines)


def cmd_frontier(args, rules: Rules) -> None:
    pair = check_objectives(args.objectives)
    check_exact_reach(rules, args.exact)
    names = " and ".join(o.name for o in pair)
    progress = _announce(f"the frontier of {names}, {rules.describe()}", frontier_estimate(rules, args.exact))
    found = frontier(rules, pair, exact=args.exact, progress=progress)
    first, second = found.names
    table = found.table()
    payload = []
    for row in table.itertuples(index=False):
        corner = {"corner": int(row.corner), first: float(getattr(row, first)), second: float(getattr(row, second)),
                  "weights": [float(row.w_low), float(row.w_high)],
                  "price": None if row.price is None or row.price != row.price else float(row.price)}
        if args.exact:
            corner["exact"] = {first: _fraction(getattr(row, first)), second: _fraction(getattr(row, second)),
                               "weights": [_fraction(row.w_low), _fraction(row.w_high)]}
        payload.append(corner)
    lines = [f"the frontier of {names}: {len(payload)} corner{'s' if len(payload) != 1 else ''}, {rules.describe()}",
             f"  the weight w is the first objective's ({pair[0].name}); each corner is best for the weights shown",
             f"  corner  {first:>14}  {second:>14}  w from      to"]
    lines += [f"  {c['corner']:>6}  {c[first]:>14.9f}  {c[second]:>14.9f}  {c['weights'][0]:.6f}  "
              f"{c['weights'][1]:.6f}" for c in payload]
    _emit(args, payload, lines)


def cmd_export(args, rules: Rules) -> None:
    try:
        from .report.export import ExportError, export
    except ImportError as error:  # pip install . without the report's packages
        raise UserError(f"export needs the report's packages ({error.name}): pip install \".[report]\"") from None
    try:
        folder = export(args.run, Path(args.out) if args.out else None, typeset=not args.no_pdf)
    except ExportError as error:
        raise UserError(str(error)) from None
    except KeyboardInterrupt:
        raise UserError("interrupted; the kit is as it was before this export") from None
    print(f"wrote {folder} and {folder.with_suffix('.zip')}")


COMMANDS = {"solve": cmd_solve, "advise": cmd_advise, "distribution": cmd_distribution, "analyse": cmd_analyse,
            "counts": cmd_counts, "simulate": cmd_simulate, "players": cmd_players, "frontier": cmd_frontier,
            "export": cmd_export}


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; user errors print ``stb: error: ...`` (or ``python -m stb_core: error: ...``) and
    return 2."""
    try:
        args = build_parser().parse_args(argv)
        COMMANDS[args.command](args, _rules(args) if hasattr(args, "tiles") else None)
    except (UserError, InputError) as error:
        print(f"{program_name()}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped reading (``| head``): nothing to say, and nothing more to write
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


if __name__ == "__main__":
    sys.exit(main())
