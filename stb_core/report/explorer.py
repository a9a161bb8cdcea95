"""The position explorer: ``report/explorer.html``, a page that answers "these tiles are open and I rolled
this: what do I shut?" offline, from the engine's own values.

For each rules choice a reader can pick -- one row of 9, 10 or 12 tiles, or the two rows of Double Shutter (front
tiles 1-9, a back tile behind each); one die never, once 7 and up are shut, or once the tiles that can be shut
total 5 or less, or 6 or less; moves that add up to the roll, or the Thai style (one tile equal to either die or
to their sum) -- the engine's values of every board that can arise are written to one small script under
``assets/explorer/`` that the page loads when the reader picks those rules: the chance of shutting the box with
optimal play ``V_win(S)``, the least expected score left ``V_sum(S)`` (the sum left; Double Shutter's front row
counting double) and, on one row, the least expected digit score ``V_digits(S)`` (the open tiles read as a
number), each computed by :func:`stb_core.sweep.solve` and stored as little-endian float64 arrays in base64, exact
to the last bit. The script carries the board's layout too (each tile's value, score weight, blockers and name,
:class:`stb_core.boards.Layout`), so the page's script (``assets/explorer.js``) knows no layout of its own: it
finds the legal moves from that data and reads the values after each move. It defines ``stbAdvise(rules, open,
roll)`` for readers who script and for the tests, which hold it to the command line's ``advise``, and
``stbAnalyse(rules, record)``, a game record analysed as ``stb analyse`` does (the luck of each roll, the loss and
grade of each decision), which the page's trainer shows after a seeded game the reader plays.
"""

from __future__ import annotations

import base64
import json

import numpy as np

from ..game import game_of
from ..objectives import get_objective
from ..rules import InputError, Rules
from ..sweep import solve
from .catalogue import EXPLORER

EXPLORER_TILES = {"row": (9, 10, 12), "double-shutter": (9,)}  # the front row's tiles, per layout
EXPLORER_ONE_DIE = ("never", "high-shut", "sum-le-5", "sum-le-6")
EXPLORER_MOVES = ("sum", "die-or-sum")
EXPLORER_OBJECTIVES = {"win": "win", "sum": "remaining-sum", "digits": "digits"}
VALUES_FOLDER = "assets/explorer"


def _encode(values: np.ndarray) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def rules_key(rules: Rules) -> str:
    """The name of a rules choice, as the page spells it: ``row-9-never-sum``."""
    return f"{rules.layout}-{rules.tiles}-{rules.one_die}-{rules.moves}"


def rules_choices() -> dict[str, Rules]:
    """Every rules choice of the page, by key."""
    choices = [Rules(tiles=t, one_die=o, moves=m, layout=layout)
               for layout, tiles in EXPLORER_TILES.items() for t in tiles
               for o in EXPLORER_ONE_DIE for m in EXPLORER_MOVES]
    return {rules_key(r): r for r in choices}


def goals(rules: Rules) -> dict[str, str]:
    """The page's goals that apply to ``rules`` (the digit score reads one row only), page name -> objective."""
    out = {}
    for name, objective in EXPLORER_OBJECTIVES.items():
        try:
            get_objective(objective).utility(game_of(rules), np.zeros(1, dtype=np.int64))
        except InputError:
            continue
        out[name] = objective
    return out


def values_script(rules: Rules) -> str:
    """The script the page loads for one rules choice: ``stbValues(key, {layout, win, sum[, digits]})``, each
    goal's values over the boards that can arise (``Game.possible``), in increasing board order."""
    game = game_of(rules)
    layout = game.layout
    payload = {"rules": rules.describe(),
               "layout": {"values": layout.values, "weights": layout.weights, "needs": layout.needs,
                          "labels": layout.labels}}
    for name, objective in goals(rules).items():
        payload[name] = _encode(solve(rules, objective).values[game.possible])
    return f"stbValues({json.dumps(rules_key(rules))}, {json.dumps(payload, separators=(',', ':'))});\n"


def page_choices() -> dict:
    """What the page offers, per layout: the front row's tiles and the goals (read by the page's script)."""
    return {layout: {"tiles": list(tiles), "goals": list(goals(Rules(tiles=tiles[0], layout=layout)))}
            for layout, tiles in EXPLORER_TILES.items()}


def page_analysis() -> dict:
    """What the page's game analysis (``stbAnalyse``) needs from the engine, so that it grades and compares as
    ``stb analyse`` does: the grades' thresholds per objective, the value-equality rule and the goals' objectives."""
    from ..choice import NO_LOSS, VALUE_RTOL
    from ..luck import GRADE_NAMES, GRADES

    return {"grades": {name: list(GRADES[name]) for name in EXPLORER_OBJECTIVES.values()},
            "gradeNames": list(GRADE_NAMES), "valueRtol": VALUE_RTOL, "noLoss": NO_LOSS,
            "objectives": EXPLORER_OBJECTIVES}


def write_explorer() -> None:
    """Write ``report/explorer.html`` in the report's frame and one values script per rules choice (the page's
    script and stylesheet are among the assets)."""
    from .build import write_site_page
    from .paths import report_dir, write_text

    for key, rules in rules_choices().items():
        write_text(report_dir() / VALUES_FOLDER / f"{key}.js", values_script(rules))
    write_site_page("explorer.html.j2", EXPLORER[0], EXPLORER[0], EXPLORER[1],
                    choices=page_choices(), analysis=page_analysis(),
                    tiles=sorted({t for tiles in EXPLORER_TILES.values() for t in tiles}), one_die=EXPLORER_ONE_DIE,
                    moves=EXPLORER_MOVES)
