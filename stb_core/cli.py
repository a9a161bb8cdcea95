"""``python -m stb_core``: solve, advise, distribution, counts and simulate from the command line.

Every subcommand takes the shared rule flags (``--tiles --dice --sides --one-die --one-die-forced
--max-per-move --win-at-most``) and ``--objective --policy --exact --json``. A user error (a value out of
range, an impossible board or roll, an unknown choice) exits with status 2 and one line on stderr saying
what is wrong and what is allowed; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction

from .boards import board_label, board_sum, board_tiles, check_roll, parse_tiles
from .counts import counts_by_moves
from .evaluate import evaluate, final_sum_distribution
from .objectives import OBJECTIVES
from .policies import POLICIES, TIE_BREAKS
from .rules import ONE_DIE_OPTIONS, Rules, RulesError
from .simulate import MAX_GAMES, simulate
from .solve import Solution

PROG = "python -m stb_core"


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors: one line, no usage block
        raise UserError(message)


def _shared_flags() -> argparse.ArgumentParser:
    shared = _Parser(add_help=False)
    rules = shared.add_argument_group("rules")
    rules.add_argument("--tiles", type=int, default=9, help="tiles 1..N start open (1-24; default 9)")
    rules.add_argument("--dice", type=int, default=2, help="dice rolled (1-4; default 2)")
    rules.add_argument("--sides", type=int, default=6, help="faces per die (2-20; default 6)")
    rules.add_argument("--one-die", choices=ONE_DIE_OPTIONS, default="never",
                       help="when one die may be rolled (default never)")
    rules.add_argument("--one-die-forced", action="store_true",
                       help="one die must be rolled when allowed (default: the player's option)")
    rules.add_argument("--max-per-move", type=int, default=None, help="at most K tiles shut per roll")
    rules.add_argument("--win-at-most", type=int, default=0,
                       help="won when the open tiles total W or less (default 0: all shut)")
    play = shared.add_argument_group("play")
    play.add_argument("--objective", choices=OBJECTIVES, default="win", help="what a finished game is worth")
    play.add_argument("--policy", choices=POLICIES, default="optimal", help="how moves are chosen")
    play.add_argument("--tie-break", choices=tuple(TIE_BREAKS), default="canonical",
                      help="which of equally good moves is played (default canonical: lowest tiles first)")
    play.add_argument("--exact", action="store_true", help="exact fractions (up to 16 tiles)")
    play.add_argument("--json", action="store_true", help="print JSON")
    return shared


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one subcommand per question."""
    parser = _Parser(prog=PROG, description="Shut the Box, solved exactly.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                     metavar="{solve,advise,distribution,counts,simulate}")
    shared = [_shared_flags()]
    solve_ = commands.add_parser("solve", parents=shared, help="value of a board under a policy")
    advise = commands.add_parser("advise", parents=shared, help="every legal move for a roll, best first")
    dist = commands.add_parser("distribution", parents=shared, help="distribution of the final sum left")
    counts = commands.add_parser("counts", parents=shared, help="winning move sequences by number of moves")
    sim = commands.add_parser("simulate", parents=shared, help="Monte Carlo games with 95%% intervals")
    for sub in (solve_, advise, dist, counts, sim):
        sub.add_argument("--open", default=None, help="open tiles, e.g. 2,6 (default: every tile)")
    advise.add_argument("--roll", type=int, default=None, help="the roll total to advise on")
    sim.add_argument("--games", type=int, default=100_000, help=f"games to play (1-{MAX_GAMES:_})")
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    return parser


def _rules(args) -> Rules:
    return Rules(tiles=args.tiles, dice=args.dice, sides=args.sides, one_die=args.one_die,
                 one_die_forced=args.one_die_forced, max_per_move=args.max_per_move,
                 win_at_most=args.win_at_most)


def _board(args, rules: Rules) -> int:
    return rules.full_board if args.open is None else parse_tiles(args.open, rules, "open")


def _fraction(value) -> str:
    f = Fraction(value)
    return f"{f.numerator}/{f.denominator}"


def _emit(args, payload: dict | list, lines: list[str]) -> None:
    print(json.dumps(payload, indent=2) if args.json else "\n".join(lines))


def _header(args, rules: Rules, board: int) -> dict:
    return {"rules": rules.describe(), "objective": args.objective, "policy": args.policy,
            "tie_break": args.tie_break, "open": list(board_tiles(board))}


def _solution(args, rules: Rules, exact: bool | None = None) -> Solution:
    exact = args.exact if exact is None else exact
    return evaluate(rules, args.objective, args.policy, tie_break=args.tie_break, exact=exact)


# -- subcommands -----------------------------------------------------------------------------------
def cmd_solve(args, rules: Rules) -> None:
    board = _board(args, rules)
    solution = _solution(args, rules)
    value = solution.value(board)
    payload = {"value": float(value), "seconds": solution.seconds, **_header(args, rules, board)}
    if args.exact:
        payload["exact"] = _fraction(value)
    shown = f"{float(value):.10g}" + (f" = {_fraction(value)}" if args.exact else "")
    _emit(args, payload, [
        f"{rules.describe()}; objective {args.objective}; policy {args.policy}",
        f"value of open {board_label(board)}: {shown}",
        f"solved in {solution.seconds:.3f} s",
    ])


def cmd_advise(args, rules: Rules) -> None:
    if args.open is None:
        raise UserError("advise needs --open, e.g. --open 1,4,5,8")
    board = _board(args, rules)
    solution = _solution(args, rules)
    if args.roll is None:
        return _advise_dice(args, rules, board, solution)
    check_roll(args.roll, rules, board)
    moves = solution.move_values(board, args.roll)
    payload = [{"move": list(move), "value": float(value)} for move, value in moves]
    if not moves:
        lines = [f"No move is legal for open {board_label(board)} and roll {args.roll}: the game is over "
                 f"with {board_sum(board)} left open."]
    else:
        lines = [f"open {board_label(board)}, roll {args.roll}, objective {args.objective}: "
                 f"value after each move, best first"]
        lines += [f"  shut {board_label(sum(1 << (t - 1) for t in move)):<16} {float(value):.10g}"
                  for move, value in moves]
    _emit(args, payload, lines)


def _advise_dice(args, rules: Rules, board: int, solution: Solution) -> None:
    values = solution.dice_values(board)
    best = max(values, key=lambda d: solution.objective.sense * values[d])
    payload = {"dice": {str(d): float(v) for d, v in values.items()}, "best": best,
               **_header(args, rules, board)}
    if len(values) == 1:
        lines = [f"These rules give no choice of dice from open {board_label(board)}: roll {best} "
                 f"(value {float(values[best]):.10g})."]
    else:
        lines = [f"open {board_label(board)}, objective {args.objective}: roll {best} "
                 f"{'die' if best == 1 else 'dice'}"]
        lines += [f"  {d} {'die ' if d == 1 else 'dice'}  {float(v):.10g}" for d, v in values.items()]
    _emit(args, payload, lines)


def cmd_distribution(args, rules: Rules) -> None:
    board = _board(args, rules)
    start = time.perf_counter()
    dist = final_sum_distribution(rules, board=board, solution=_solution(args, rules))
    seconds = time.perf_counter() - start
    mean = sum(s * p for s, p in dist.items())
    payload = {"distribution": {str(s): float(p) for s, p in dist.items()}, "mean": float(mean),
               "seconds": seconds, **_header(args, rules, board)}
    if args.exact:
        payload["exact"] = {str(s): _fraction(p) for s, p in dist.items()}
    lines = [f"final sum left from open {board_label(board)} ({args.policy} play for {args.objective})",
             "  sum  probability"]
    lines += [f"  {s:>3}  {float(p):.10g}" for s, p in dist.items()]
    lines.append(f"mean {float(mean):.10g}")
    _emit(args, payload, lines)


def cmd_counts(args, rules: Rules) -> None:
    board = _board(args, rules)
    counts = {k: c for k, c in counts_by_moves(rules, board).items() if c}
    payload = {"counts": {str(k): c for k, c in counts.items()}, "total": sum(counts.values()),
               "rules": rules.describe(), "open": list(board_tiles(board))}
    lines = [f"dice-weighted winning move sequences from open {board_label(board)}", "  moves  sequences"]
    lines += [f"  {k:>5}  {c}" for k, c in counts.items()] or ["  (none: the box cannot be shut from here)"]
    lines.append(f"  total  {sum(counts.values())}")
    _emit(args, payload, lines)


def cmd_simulate(args, rules: Rules) -> None:
    board = _board(args, rules)
    if not 1 <= args.games <= MAX_GAMES:
        raise RulesError(f"games must be between 1 and {MAX_GAMES}, got {args.games}")
    if args.seed < 0:
        raise RulesError(f"seed must be a non-negative integer, got {args.seed}")
    solution = _solution(args, rules, exact=False)
    start = time.perf_counter()
    result = simulate(solution, args.games, args.seed, board)
    seconds = time.perf_counter() - start
    summary = result.summary()
    payload = {**summary, "seconds": seconds, "exact_value": float(solution.value(board)),
               **_header(args, rules, board)}
    lo, hi = result.win_rate_ci
    slo, shi = result.mean_remaining_sum_ci
    _emit(args, payload, [
        f"{args.games} games from open {board_label(board)}, {args.policy} play for {args.objective}, "
        f"seed {args.seed}",
        f"  win rate            {result.win_rate:.6f}  (95% interval {lo:.6f} to {hi:.6f})",
        f"  mean sum left open  {result.mean_remaining_sum:.6f}  (95% interval {slo:.6f} to {shi:.6f})",
        f"  exact value ({args.objective}) {float(solution.value(board)):.6f}; simulated in {seconds:.2f} s",
    ])


COMMANDS = {"solve": cmd_solve, "advise": cmd_advise, "distribution": cmd_distribution,
            "counts": cmd_counts, "simulate": cmd_simulate}


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; user errors print ``python -m stb_core: error: ...`` and return 2."""
    try:
        args = build_parser().parse_args(argv)
        rules = _rules(args)
        COMMANDS[args.command](args, rules)
    except (UserError, RulesError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    return 0
