"""The position explorer: ``report/explorer.html``, a page that answers "these tiles are open and I rolled
this: what do I shut?" offline, from the engine's own game and values.

For each rules choice a reader can pick -- one row of 9, 10 or 12 tiles, or the two rows of Double Shutter (front
tiles 1-9, a back tile behind each); one die never, once 7 and up are shut, or once the tiles that can be shut
total 5 or less, or 6 or less; moves that add up to the roll, or the Thai style (one tile equal to either die or
to their sum) -- the engine writes one small script under ``assets/explorer/`` that the page loads when the
reader picks those rules. It holds the game as :class:`stb_core.game.Game` computes it, so that the page's script
(``assets/explorer.js``) knows no rule of its own and looks everything up:

* the board's layout (each tile's value, score weight, blockers and name) and the boards that can arise;
* the dice each board may roll (``Game.dice_choices``), each number of dice's outcomes with their weights and the
  words and data a roll is written with, and each throw of the dice (the faces) with the outcome it gives;
* each outcome's moves (``Game.catalogue``) with the tiles each needs down after it (``Game.needs_of``): a move
  is legal on a board where its tiles are open and those are down, as ``Game.legal`` reads them;
* for each goal the command line names (``win``, ``remaining-sum``, ``digits``: ``--objective``), the value of a
  finished game on every board (the objective's utility) and of perfect play (:func:`stb_core.sweep.solve`),
  little-endian float64 arrays in base64, exact to the last bit.

The page defines ``stbAdvise(rules, open, roll)`` (the command line's ``advise``) and ``stbAnalyse(rules,
record)`` (``stb analyse``) for readers who script and for the tests; ``rules`` takes the command line's option
names and values (``{tiles: 9, one_die: "sum-le-6", objective: "remaining-sum"}``) and refuses any other key or
value with the command line's words, which are written here (:func:`page_options`).
"""

from __future__ import annotations

import base64
import itertools
import json

import numpy as np

from ..game import game_of
from ..luck import GRADE_NAMES, RECORD_HELP, TURN, TURN_HELP, number_format, thresholds
from ..objectives import get_objective
from ..rules import OPTIONS, InputError, Rules
from ..sources.words import dice_words
from ..sweep import solve
from .catalogue import EXPLORER

EXPLORER_TILES = {"row": (9, 10, 12), "double-shutter": (9,)}  # the front row's tiles, per layout
EXPLORER_ONE_DIE = ("never", "high-shut", "sum-le-5", "sum-le-6")
EXPLORER_MOVES = OPTIONS["moves"].choices
EXPLORER_OBJECTIVES = ("win", "remaining-sum", "digits")  # as the command line's --objective names them
VALUES_FOLDER = "assets/explorer"
PLAY_FOR = {"win": "shutting the box", "remaining-sum": "the lowest sum left", "digits": "the lowest digit score"}


def _encode(values, dtype: str = "<f8") -> str:
    return base64.b64encode(np.asarray(values, dtype=dtype).tobytes()).decode("ascii")


KEY_PARTS = ("layout", "tiles", "one_die", "moves")  # the options a rules choice's script is named by


def rules_key(rules: Rules) -> str:
    """The name of a rules choice's script, its :data:`KEY_PARTS` joined by ``-``: ``row-9-never-sum``."""
    return "-".join(str(getattr(rules, name)) for name in KEY_PARTS)


def rules_choices() -> dict[str, Rules]:
    """Every rules choice of the page, by key."""
    choices = [Rules(tiles=t, one_die=o, moves=m, layout=layout)
               for layout, tiles in EXPLORER_TILES.items() for t in tiles
               for o in EXPLORER_ONE_DIE for m in EXPLORER_MOVES]
    return {rules_key(r): r for r in choices}


def goals(rules: Rules) -> tuple[str, ...]:
    """The objectives of the page that apply to ``rules`` (the digit score reads one row only)."""
    out = []
    for objective in EXPLORER_OBJECTIVES:
        try:
            get_objective(objective).utility(game_of(rules), np.zeros(1, dtype=np.int64))
        except InputError:
            continue
        out.append(objective)
    return tuple(out)


def dice_data(rules: Rules) -> dict:
    """The dice as the page reads them: each number of dice's outcomes (``[code, roll, words, weight]``: the roll as
    ``stb advise --json`` gives it, as a game record writes it, and how many of the ``throws`` equally likely throws
    give it), each throw's faces with the outcome they give, the faces of a die, whether a roll is read as its total,
    each number of dice in words, and each board's choices of dice (an index into ``choices`` per board that can
    arise)."""
    game = game_of(rules)
    outcomes, throws = {}, {}
    for dice in game.dice_counts:
        outcomes[str(dice)] = [[code, game.roll_data(code), game.roll_words(code), weight]
                               for code, weight in game.weights(dice).items()]
        faces = itertools.product(range(1, rules.sides + 1), repeat=dice)
        throws[str(dice)] = {",".join(map(str, f)): _outcome_of(game, f) for f in faces}
    choices = sorted({game.dice_choices(int(b)) for b in game.boards[game.possible]})
    index = [choices.index(game.dice_choices(int(b))) for b in game.boards[game.possible]]
    return {"outcomes": outcomes, "throws": throws, "faces": list(range(1, rules.sides + 1)),
            "totals": game.rolls_are_totals, "words": {str(d): dice_words(d, rules.sides) for d in game.dice_counts},
            "choices": [list(c) for c in choices], "board": _encode(index, "u1"), "all": rules.dice}


def _outcome_of(game, faces: tuple[int, ...]) -> int:
    """The outcome code a throw gives: its total under the sum rule, else the dice (sorted)."""
    return sum(faces) if game.rules.moves == "sum" else game.outcome_code(tuple(sorted(faces)))


def move_data(rules: Rules) -> dict:
    """Each outcome's moves in canonical order and the tiles each needs down once played, as base64 int32 pairs."""
    game = game_of(rules)
    return {str(code): [_encode(game.catalogue.masks[code], "<i4"),
                        _encode(game.needs_of(game.catalogue.masks[code]), "<i4")] for code in game.outcomes}


def values_script(rules: Rules) -> str:
    """The script the page loads for one rules choice: ``stbValues(key, {...})`` (see the module docstring), each
    goal's values over the boards that can arise (``Game.possible``), in increasing board order."""
    game = game_of(rules)
    layout, boards = game.layout, game.boards[game.possible]
    payload = {"rules": rules.describe(), "options": {name: getattr(rules, name) for name in OPTIONS},
               "moveWords": OPTIONS["moves"].words(rules.moves),
               "layout": {"values": layout.values, "weights": layout.weights, "needs": layout.needs,
                          "labels": layout.labels},
               "boards": _encode(boards, "<u4"), "dice": dice_data(rules), "moves": move_data(rules),
               "finished": {}, "values": {}}
    payload |= {"grades": {}, "formats": {}}
    for objective in goals(rules):
        solution = solve(rules, objective)
        start = float(solution.value())
        payload["finished"][objective] = _encode(get_objective(objective).values(game, boards))
        payload["values"][objective] = _encode(solution.values[game.possible])
        payload["grades"][objective] = list(thresholds(objective, start))
        payload["formats"][objective] = number_format(objective, start)
    return f"stbValues({json.dumps(rules_key(rules))}, {json.dumps(payload, separators=(',', ':'))});\n"


def menus() -> dict:
    """The page's menus of rule options, each ``[(value, words)]``, worded as the options' declarations say."""
    offered = {"layout": tuple(EXPLORER_TILES), "one_die": EXPLORER_ONE_DIE, "moves": EXPLORER_MOVES}
    return {name: [(value, OPTIONS[name].short(value)) for value in values] for name, values in offered.items()} | {
        "objective": [(name, PLAY_FOR[name]) for name in EXPLORER_OBJECTIVES]}


def page_options() -> dict:
    """The rules object the page's functions take: each key (the command line's option name) with its default and
    the values the page offers, and the one-line refusal of any other (the command line's words)."""
    fixed = {name: [OPTIONS[name].default] for name in OPTIONS if name not in ("tiles", "one_die", "moves", "layout")}
    offered = {"tiles": sorted({t for tiles in EXPLORER_TILES.values() for t in tiles}),
               "one_die": list(EXPLORER_ONE_DIE), "moves": list(EXPLORER_MOVES), "layout": list(EXPLORER_TILES),
               **fixed, "objective": list(EXPLORER_OBJECTIVES)}
    defaults = {name: OPTIONS[name].default for name in OPTIONS} | {"objective": "win"}
    return {"defaults": defaults, "offered": offered, "keyParts": list(KEY_PARTS),
            "refusals": {name: f"{name} must be one of {', '.join(map(_word, values))} in the explorer; got "
                         for name, values in offered.items()},
            "unknown": f"unknown rule option {{key}}; the explorer's options are {', '.join(offered)}"}


def _word(value) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def page_choices() -> dict:
    """What the page offers, per layout: the front row's tiles, the goals, and the score's name in the goal menu
    (the sum left on one row, the score where tiles weigh differently; read by the page's script)."""
    out = {}
    for layout, tiles in EXPLORER_TILES.items():
        rules = Rules(tiles=tiles[0], layout=layout)
        weighted = len(set(game_of(rules).layout.weights)) > 1
        out[layout] = {"tiles": list(tiles), "objectives": list(goals(rules)),
                       "score": "the lowest score" if weighted else PLAY_FOR["remaining-sum"]}
    return out


def page_analysis() -> dict:
    """What the page's game analysis (``stbAnalyse``) needs from the engine, so that it grades and compares as
    ``stb analyse`` does: each objective's sense (+1 maximise, -1 minimise), the grades' names (their thresholds
    depend on the rules: in each rules choice's script), the value-equality rule, and how a game record's turn is
    read, with the words of its refusals."""
    from ..choice import NO_LOSS, VALUE_RTOL

    return {"senses": {name: get_objective(name).sense for name in EXPLORER_OBJECTIVES},
            "gradeNames": list(GRADE_NAMES), "valueRtol": VALUE_RTOL, "noLoss": NO_LOSS,
            "turn": TURN.pattern, "recordHelp": RECORD_HELP, "turnHelp": TURN_HELP}


def write_explorer() -> None:
    """Write ``report/explorer.html`` in the report's frame and one values script per rules choice (the page's
    script and stylesheet are among the assets)."""
    from .paths import report_dir, write_text
    from .site import write_site_page

    for key, rules in rules_choices().items():
        write_text(report_dir() / VALUES_FOLDER / f"{key}.js", values_script(rules))
    write_site_page("explorer.html.j2", EXPLORER[0], EXPLORER[0], EXPLORER[1],
                    choices=page_choices(), analysis=page_analysis(), options=page_options(),
                    tiles=sorted({t for tiles in EXPLORER_TILES.values() for t in tiles}), menus=menus())
