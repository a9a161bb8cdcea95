"""The position explorer: ``report/explorer.html``, a page that answers "these tiles are open and I rolled
this: what do I shut?" offline, from the engine's own values.

For each rules choice a reader can pick -- tiles 9, 10 or 12; one die never, once 7 and up are shut, or once the
open tiles total 5 or less, or 6 or less; moves that add up to the roll, or the Thai style (one tile equal to
either die or to their sum) -- the engine's values of every board are written to one small script under
``assets/explorer/`` that the page loads when the reader picks those rules: the chance of shutting the box with
optimal play ``V_win(S)``, the least expected sum left ``V_sum(S)`` and the least expected digit score
``V_digits(S)`` (the open tiles read as a number), each computed by :func:`stb_core.sweep.solve` and stored as
little-endian float64 arrays in base64, exact to the last bit. The page's script (``assets/explorer.js``) finds
the legal moves itself and reads the values after each move; it defines ``stbAdvise(rules, open, roll)`` for
readers who script and for the tests, which hold it to the command line's ``advise``.
"""

from __future__ import annotations

import base64
import json

import numpy as np

from ..rules import Rules
from ..sweep import solve
from .catalogue import EXPLORER

EXPLORER_TILES = (9, 10, 12)
EXPLORER_ONE_DIE = ("never", "high-shut", "sum-le-5", "sum-le-6")
EXPLORER_MOVES = ("sum", "die-or-sum")
EXPLORER_OBJECTIVES = {"win": "win", "sum": "remaining-sum", "digits": "digits"}
VALUES_FOLDER = "assets/explorer"


def _encode(values: np.ndarray) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def rules_key(tiles: int, one_die: str, moves: str) -> str:
    """The name of a rules choice, as the page spells it: ``9-never-sum``."""
    return f"{tiles}-{one_die}-{moves}"


def rules_choices() -> dict[str, Rules]:
    """Every rules choice of the page, by key."""
    return {rules_key(t, o, m): Rules(tiles=t, one_die=o, moves=m)
            for t in EXPLORER_TILES for o in EXPLORER_ONE_DIE for m in EXPLORER_MOVES}


def values_script(key: str, rules: Rules) -> str:
    """The script the page loads for one rules choice: ``stbValues(key, {win: ..., sum: ..., digits: ...})``."""
    values = {name: _encode(solve(rules, objective).values) for name, objective in EXPLORER_OBJECTIVES.items()}
    return f"stbValues({json.dumps(key)}, {json.dumps(values, separators=(',', ':'))});\n"


def write_explorer() -> None:
    """Write ``report/explorer.html`` in the report's frame and one values script per rules choice (the page's
    script and stylesheet are among the assets)."""
    from .build import write_site_page
    from .paths import report_dir, write_text

    for key, rules in rules_choices().items():
        write_text(report_dir() / VALUES_FOLDER / f"{key}.js", values_script(key, rules))
    write_site_page("explorer.html.j2", EXPLORER[0], EXPLORER[0], EXPLORER[1], tiles=EXPLORER_TILES,
                    one_die=EXPLORER_ONE_DIE, moves=EXPLORER_MOVES)
