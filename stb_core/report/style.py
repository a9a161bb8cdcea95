"""One look for every figure of the report: a colour and a name for each policy, objective, variant and
outcome, the same on every page, and figure sizes and fonts that drop into a write-up.

Colours are the Okabe-Ito palette for policies and Paul Tol's muted palette for rule variants and objectives (both
readable with every common colour-vision deficiency), so no policy, variant or objective shares a colour; the
dice choices, outcomes, tie-breaks and scorings reuse colours but are never drawn beside those. Figures are made
at one of two widths -- a column (3.3 in) or the full text width (6.5 in) -- with 8-9 pt type, so a PDF or SVG placed at
its own width in LaTeX or Word has legible labels; PDFs embed TrueType (Type 42) fonts and SVGs keep text as
text. :func:`apply` sets this once per notebook (never at import).
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from ..sources.words import READER_NAMES

BLACK, ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, GREY = (
    "#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999")
# Paul Tol's "muted" scheme, also colour-blind safe, for the names that must not share a colour with a policy
INDIGO, CYAN, TEAL, FOREST, OLIVE, SAND, ROSE, WINE, MAGENTA = (
    "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499")

COLOURS = {
    # policies: Okabe-Ito, one colour each, on every page
    "optimal": BLACK, "highest-tile": ORANGE, "sequence-count": SKY, "random": GREY, "worst": WINE,
    "highest tile you can": PURPLE, "strategy card": GREEN,
    # rule variants: Tol's muted colours, none shared with a policy
    "all-dice": INDIGO, "high-shut": CYAN, "pub-allowed": TEAL, "pub-forced": FOREST, "two-per-roll": OLIVE,
    "won-at-3": ROSE, "this-run": MAGENTA,  # this-run: a run's own rules beside them (whole_map.THIS_RUN)
    # objectives: none shared with a policy or a variant
    "win": BLUE, "remaining-sum": VERMILLION, "flipped-count": SAND,
    # the choice of dice, and the outcomes of a game between players (never drawn with the names above)
    "one die": MAGENTA, "two dice": INDIGO, "either": GREY,
    "first wins": BLUE, "tie": GREY, "second wins": MAGENTA,
    # tie-breaks (canonical is the report's default, drawn as the reference)
    "canonical": BLACK, "fewest-tiles": MAGENTA, "most-tiles": TEAL,
    # scorings of the pub game
    "sum scoring": BLUE, "digits scoring": MAGENTA,
}

NAMES = READER_NAMES  # how each machine name reads on a page (one list, shared with the chapters' sentences)

DICE = {1: MAGENTA, 2: INDIGO, 3: OLIVE, 4: WINE}  # a number of dice, where it is a series of its own

WIDTHS = {"column": 3.3, "full": 6.5}  # inches
SERIES = [INDIGO, TEAL, OLIVE, ROSE, WINE, CYAN, SAND, MAGENTA]  # series with no fixed name (numbers of players)


def colour(name: str) -> str:
    """The report's colour for ``name`` (a policy, objective, variant, outcome ...)."""
    if name not in COLOURS:
        raise KeyError(f"no fixed colour for {name!r}; add it to stb_core.report.style.COLOURS")
    return COLOURS[name]


def name(key: str) -> str:
    """How a machine name reads on a page."""
    return NAMES.get(key, key)


RC = {
    "font.size": 8.5, "axes.labelsize": 8.5, "axes.titlesize": 8.5, "xtick.labelsize": 8, "ytick.labelsize": 8,
    "legend.fontsize": 8, "legend.title_fontsize": 8, "font.family": "DejaVu Sans",
    "lines.linewidth": 2, "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
    "grid.color": "#dddddd", "grid.linewidth": 0.6, "axes.axisbelow": True, "axes.unicode_minus": True,
    "pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none", "svg.hashsalt": "shut-the-box",
    "figure.dpi": 100, "savefig.dpi": 200, "axes.prop_cycle": mpl.cycler(color=SERIES),
    "legend.frameon": False,
}


def apply() -> None:
    """Set the report's look for this notebook's figures (call once, in the notebook's set-up cell)."""
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=SERIES, rc=RC)
    mpl.rcParams.update(RC)


def figure(width: str = "full", height: float = 2.6, ncols: int = 1, nrows: int = 1, **kwargs):
    """A new figure at a write-up width (``column`` 3.3 in or ``full`` 6.5 in) and ``height`` inches."""
    if width not in WIDTHS:
        raise ValueError(f"width must be one of {', '.join(WIDTHS)}; got {width!r}")
    return plt.subplots(nrows, ncols, figsize=(WIDTHS[width], height), layout="constrained", **kwargs)


def legend_outside(ax, title: str | None = None, **kwargs) -> None:
    """A legend to the right of the axes, clear of the data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, title=title, **kwargs)


def legend_above(ax, ncol: int = 3, title: str | None = None, **kwargs) -> None:
    """A legend above the axes, clear of the data and of the axis labels."""
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=ncol, title=title, **kwargs)


def sequential(count: int) -> list:
    """``count`` colours of a sequential scale (viridis), light to dark: for a series ordered by a number."""
    return [mpl.colormaps["viridis"](x) for x in np.linspace(0.9, 0.1, count)]
