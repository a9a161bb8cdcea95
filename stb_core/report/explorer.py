"""The position explorer: ``report/explorer.html``, a page that answers "these tiles are open and I rolled
this: what do I shut?" offline, from the engine's own values.

For each rules choice a reader can pick (tiles 9, 10 or 12; one die never, once 7-9 are shut, or at 6 or less
left) the page embeds two numbers per board, computed here by :func:`stb_core.sweep.solve`: the chance of
shutting the box with optimal play, ``V_win(S)``, and the least expected sum left, ``V_sum(S)`` -- as
little-endian float64 arrays in base64, exact to the last bit. The page's script (``assets/explorer.js``) finds
the legal moves itself and reads the values after each move; it defines ``stbAdvise(rules, open, roll)`` for
readers who script and for the tests.
"""

from __future__ import annotations

import base64
import json

import numpy as np

from ..rules import Rules
from ..sweep import solve
from .catalogue import EXPLORER

EXPLORER_TILES = (9, 10, 12)
EXPLORER_ONE_DIE = ("never", "high-shut", "sum-le-6")


def _encode(values: np.ndarray) -> str:
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def explorer_data() -> dict:
    """``{"9/never": {"win": base64, "sum": base64}, ...}`` for every rules choice of the page."""
    data = {}
    for tiles in EXPLORER_TILES:
        for one_die in EXPLORER_ONE_DIE:
            rules = Rules(tiles=tiles, one_die=one_die)
            data[f"{tiles}/{one_die}"] = {"win": _encode(solve(rules, "win").values),
                                          "sum": _encode(solve(rules, "remaining-sum").values)}
    return data


def write_explorer() -> None:
    """Write ``report/explorer.html`` in the report's frame (its script and stylesheet are among the assets)."""
    from .build import write_site_page

    write_site_page("explorer.html.j2", EXPLORER[0], EXPLORER[0], EXPLORER[1],
                    data=json.dumps(explorer_data(), separators=(",", ":")), tiles=EXPLORER_TILES)
