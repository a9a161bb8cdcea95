"""The report's figures, one function each: a tidy table in, a matplotlib figure out (``style.figure``), in the
report's colours and names. Captions and alt text belong to the page (``Page.figure``), not here.
"""

from __future__ import annotations

import itertools
import textwrap

import matplotlib.ticker as mticker
import numpy as np
import pandas as pd

from . import style


def integer_ticks(axis) -> None:
    axis.set_major_locator(mticker.MaxNLocator(integer=True))


def percent_axis(axis, decimals: int | None = None) -> None:
    axis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=decimals))


def counts_by_moves(table: pd.DataFrame):
    """Dots (not bars: on a log scale a bar's length would depend on where the axis starts) of dice-weighted winning
    sequences by number of moves; lengths with none are marked on the axis."""
    fig, ax = style.figure("column", 2.3)
    shown = table[table["sequences"] > 0]
    ax.plot(shown["moves"], shown["sequences"].astype(float), "o", color=style.BLUE, ms=6)
    ax.vlines(shown["moves"], 0, shown["sequences"].astype(float), color=style.BLUE, lw=0.6, alpha=0.4)
    ax.set_yscale("log")
    ax.set_xlabel("number of moves")
    ax.set_ylabel("winning sequences")
    integer_ticks(ax.xaxis)
    return fig


def win_rates(table: pd.DataFrame, published: dict | None = None, won: str = "chance of shutting the box"):
    """Simulated win rates with their 95% intervals (points and bars) beside the exact values (ticks), one
    row per policy; ``published``: the source's own simulated rates by policy (crosses); ``won``: the axis's words
    for the chance of winning (:func:`stb_core.sources.words.winning`)."""
    fig, ax = style.figure("full", 0.55 * len(table) + 1.1)
    y = np.arange(len(table))[::-1]
    for yi, row in zip(y, table.itertuples(), strict=True):
        c = style.colour(row.policy)
        spread = [[row.simulated_p_win - row.low_95], [row.high_95 - row.simulated_p_win]]
        ax.errorbar(row.simulated_p_win, yi - 0.12, xerr=spread, fmt="o", color=c, capsize=3, lw=1.5, ms=5,
                    mfc="white", mew=1.5)
        ax.plot(row.exact_p_win, yi + 0.14, marker="D", color="black", ms=5, ls="none")
        if published and row.policy in published:
            ax.plot(published[row.policy], yi + 0.32, marker="x", color=style.VERMILLION, ms=6, mew=1.5, ls="none")
    ax.set_yticks(y, [style.name(p) for p in table["policy"]])
    ax.set_ylim(-0.6, len(table) - 0.3)
    ax.set_xlabel(won)
    ax.set_xlim(left=0)
    percent_axis(ax.xaxis, 1)
    handles = [ax.errorbar([], [], xerr=[], fmt="o", color="#57606a", mfc="white", mew=1.5,
                           label="simulated, 95% interval (in each row's colour)"),
               ax.plot([], [], marker="D", color="black", ls="none", label="exact")[0]]
    if published:
        handles.append(ax.plot([], [], marker="x", color=style.VERMILLION, ls="none",
                               label="the source's simulation")[0])
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=3)
    return fig


def one_die_advantage(table: pd.DataFrame, dice_label: str):
    """Each board offering the choice: the open tiles' total (x) against how much more often one die shuts
    the box than all the dice (y, percentage points), coloured by the better choice."""
    fig, ax = style.figure("full", 2.6)
    for best, part in table.groupby("best", sort=False):
        key = "one die" if best == "one die" else ("either" if best == "either" else "two dice")
        label = "one die better" if best == "one die" else ("equal" if best == "either" else f"{dice_label} better")
        ax.scatter(part["open_sum"], 100 * part["one_minus_all"], s=16, color=style.colour(key), label=label,
                   alpha=0.85, edgecolor="white", linewidth=0.4)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("sum of the open tiles")
    ax.set_ylabel("one die minus\n" + dice_label + " (pp)")
    integer_ticks(ax.xaxis)
    style.legend_outside(ax)
    return fig


def policy_loss_by_objective(table: pd.DataFrame, policy: str, label: str = "scoring"):
    """Bars: what ``policy`` loses against optimal play under each objective or scoring, in % of the
    optimum, labelled with the loss in the objective's own units (``table``: ``label``, ``loss``,
    ``loss_percent``)."""
    fig, ax = style.figure("column", 0.45 * len(table) + 0.9)
    y = np.arange(len(table))[::-1]
    ax.barh(y, table["loss_percent"], color=style.colour(policy), height=0.6)
    for yi, row in zip(y, table.itertuples(), strict=True):
        ax.annotate(f"{row.loss_percent:.2f}%  ({row.loss:.3g})", (row.loss_percent, yi), xytext=(3, 0),
                    textcoords="offset points", va="center", fontsize=7.5)
    ax.set_yticks(y, table[label])
    ax.set_xlabel("loss, % of the optimum")
    ax.set_xlim(0, table["loss_percent"].max() * 2.1 if len(table) and table["loss_percent"].max() > 0 else 1)
    ax.grid(axis="y", visible=False)
    return fig


def ranked_losses(table: pd.DataFrame, value: str, colour_by: str, xlabel: str, ylabel: str, colour_label: str):
    """Each row a dot: ``value`` ranked largest first, coloured by a numeric column (a sequential scale)."""
    fig, ax = style.figure("full", 2.5)
    ranked = table.sort_values(value, ascending=False, kind="stable").reset_index(drop=True)
    points = ax.scatter(np.arange(1, len(ranked) + 1), ranked[value], c=ranked[colour_by], cmap="viridis", s=12,
                        linewidth=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    integer_ticks(ax.xaxis)
    bar = fig.colorbar(points, ax=ax, pad=0.01)
    bar.set_label(colour_label)
    return fig


def loss_when_and_per_game(table: pd.DataFrame):
    """Each costly decision: what it costs when it happens (x) against what it costs per game (y), log-log."""
    fig, ax = style.figure("column", 2.6)
    ax.scatter(table["loss"], table["weighted_loss"], s=10, color=style.colour("highest-tile"), linewidth=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("lost when it happens")
    ax.set_ylabel("lost per game")
    return fig


def by_threshold(table: pd.DataFrame, marked: int | None = None):
    """The chance of winning with optimal play against the win threshold."""
    fig, ax = style.figure("column", 2.3)
    ax.plot(table["win_at_most"], table["p_win"], marker="o", color=style.colour("win"), ms=4)
    if marked is not None and marked in set(table["win_at_most"]):
        ax.axvline(marked, color=style.GREY, lw=1, ls="--")
    ax.set_xlabel("won at or below this sum")
    ax.set_ylabel("P(win), optimal play")
    integer_ticks(ax.xaxis)
    percent_axis(ax.yaxis)
    ax.set_ylim(bottom=0)
    return fig


def _small_multiples(panels: int, ncols: int, row_height: float, margin: float, xlabel: str, ylabel: str):
    """A full-width grid for ``panels`` panels, ``ncols`` a row, axes shared, the unused cells hidden, the x label
    on the bottom row and the y label on the first column; returns the figure and its 2-D array of axes."""
    nrows = -(-panels // ncols)
    fig, axes = style.figure("full", row_height * nrows + margin, ncols=ncols, nrows=nrows, sharex=True,
                             sharey=True, squeeze=False)
    for ax in axes.flat[panels:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    return fig, axes


def cost_by_mean_tile(table: pd.DataFrame, tiles: int):
    """Small multiples, one panel per number of open tiles: each state's expected cost against its mean open tile."""
    counts = sorted(table["tiles_open"].unique())
    fig, axes = _small_multiples(len(counts), 3 if len(counts) > 1 else 1, 1.55, 0.4, "mean open tile",
                                 "expected cost")
    for ax, count in zip(axes.flat, counts, strict=False):
        part = table[table["tiles_open"] == count]
        ax.scatter(part["state_average"], part["value"], s=6, color=style.colour("remaining-sum"), linewidth=0)
        ax.set_title(f"{count} tile{'s' if count > 1 else ''} open", fontsize=8)
    return fig


def variants_value(table: pd.DataFrame, column: str = "value",
                   xlabel: str = "chance of shutting the box, optimal play"):
    """One row per rule variant (``variant``: its key, for the colour; ``variant_name``: its label): the value for
    each board size (marker shape), in the variant's colour."""
    fig, ax = style.figure("full", 2.7)
    variants = list(dict.fromkeys(table["variant"]))
    labels = dict(zip(table["variant"], table["variant_name"], strict=True))
    sizes = list(dict.fromkeys(table["tiles"]))
    markers = ["o", "s", "^", "D"]
    y = {v: len(variants) - 1 - i for i, v in enumerate(variants)}
    for m, n in zip(markers, sizes, strict=False):
        part = table[table["tiles"] == n]
        ax.scatter(part[column], [y[v] for v in part["variant"]], marker=m, s=36,
                   color=[style.colour(v) for v in part["variant"]], edgecolor="black", linewidth=0.5, zorder=3)
        ax.scatter([], [], marker=m, s=36, color="white", edgecolor="black",
                   label="tile 1" if n == 1 else f"tiles 1–{n}")
    ax.set_yticks(list(y.values()), [labels[v] for v in y])
    ax.set_xlabel(xlabel)
    if column == "value" and table[column].max() <= 1:
        percent_axis(ax.xaxis, 0)
    style.legend_above(ax, ncol=len(sizes))
    return fig


def heuristic_prices(table: pd.DataFrame, order: list[str] | None = None):
    """Small multiples, one panel per objective: each policy's loss against optimal play, % of the optimum, as a dot
    on a log axis, with a faint guide across the whole row (a bar or stem from the axis would encode a length that
    depends on where the axis starts); a loss of 0 is written beside the axis rather than drawn. Policies in
    ``order`` (default: the table's)."""
    objectives = list(dict.fromkeys(table["objective"]))
    order = list(dict.fromkeys(table["policy"])) if order is None else order
    fig, axes = style.figure("full", 0.32 * len(order) + 1.0, ncols=len(objectives), sharey=True, squeeze=False)
    for ax, objective in zip(axes[0], objectives, strict=True):
        part = table[table["objective"] == objective].set_index("policy").loc[order]
        y = np.arange(len(order))[::-1]
        positive = part["loss_percent"] > 0
        low = 10 ** np.floor(np.log10(max(part.loc[positive, "loss_percent"].min() if positive.any() else 1, 1e-3)))
        high = 10 ** np.ceil(np.log10(max(part["loss_percent"].max(), low * 10)))
        for yi in y:
            ax.axhline(yi, color="#e5e8eb", lw=0.8, zorder=1)
        ax.scatter(part.loc[positive, "loss_percent"], y[positive.to_numpy()],
                   color=[style.colour(p) for p in part.index[positive]], s=36, zorder=3, edgecolor="black",
                   linewidth=0.4)
        for yi in y[~positive.to_numpy()]:
            ax.annotate("0 (no loss)", (low, yi), xytext=(2, 0), textcoords="offset points", va="center", fontsize=7)
        ax.set_xscale("log")
        ax.set_xlim(low, high)
        ax.xaxis.set_major_locator(mticker.LogLocator(base=10, numticks=6))
        ax.xaxis.set_minor_locator(mticker.NullLocator())
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}%"))
        ax.set_title(style.name(objective), fontsize=8)
        ax.set_xlabel("% of the optimum lost")
        ax.grid(axis="y", visible=False)
    axes[0][0].set_yticks(np.arange(len(order))[::-1], [style.name(p) for p in order])
    fig.get_layout_engine().set(wspace=0.06)  # room between one panel's last tick and the next panel's first
    return fig


def card_front(front: pd.DataFrame):
    """The best card of each length: its loss against optimal play (%), one line per objective."""
    fig, ax = style.figure("column", 2.2)
    for objective, part in front.groupby("objective", sort=False):
        ax.plot(part["lines"], part["loss_percent"], marker="o", color=style.colour(objective),
                label=style.name(objective), ms=5)
    ax.set_xlabel("lines on the card")
    ax.set_ylabel("loss, % of the optimum")
    integer_ticks(ax.xaxis)
    ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}%"))
    ax.set_ylim(bottom=0)
    style.legend_above(ax, ncol=2)
    return fig


def strategy_card(lines: list[str], rules_text: str, cost_text: str):
    """A card to cut out (3.3 in wide, as tall as its lines need): the rules it is for, its lines in order, and
    what it costs, inside a dashed cutting line."""
    import textwrap

    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    small, width = 8, 48  # the small print at 8 pt, wrapped to the card's width (about 48 characters)
    rules_text, cost_text = (textwrap.fill(t, width) for t in (rules_text, cost_text))
    extra_rules, extra_cost = (t.count("\n") * 0.15 for t in (rules_text, cost_text))  # inches per extra line
    line_height, head, foot = 0.30, 0.66 + extra_rules, 0.42 + extra_cost  # inches
    height = head + line_height * len(lines) + foot
    fig = plt.figure(figsize=(style.WIDTHS["column"], height))
    inch = 1 / height  # one inch in figure coordinates, vertically
    fig.patches.append(FancyBboxPatch((0.02, 0.03), 0.96, 0.94, boxstyle="round,pad=0,rounding_size=0.02",
                                      transform=fig.transFigure, fill=False, lw=1.0, ls=(0, (4, 3)),
                                      edgecolor="#57606a"))
    fig.text(0.07, 1 - 0.18 * inch, "Shut the Box: what to shut", fontsize=10, weight="bold", va="top")
    fig.text(0.07, 1 - 0.42 * inch, rules_text, fontsize=small, color="#57606a", va="top")
    for i, line in enumerate(lines):
        lead = "1." if i == 0 else f"{i + 1}. if still equal,"
        fig.text(0.07, 1 - (head + (i + 0.15) * line_height) * inch, f"{lead} {line}", fontsize=8.5, va="top")
    fig.text(0.07, 0.12 * inch + 0.03, cost_text, fontsize=small, color="#57606a", va="bottom")
    return fig


def distributions_by_variant(table: pd.DataFrame, base: str = "all-dice"):
    """Small multiples, one panel per variant (``variant`` key, ``variant_name`` label): P(final sum left = s),
    with the base variant outlined."""
    variants = list(dict.fromkeys(table["variant"]))
    labels = dict(zip(table["variant"], table["variant_name"], strict=True))
    fig, axes = _small_multiples(len(variants), 3, 1.45, 0.5, "sum left open", "probability")
    reference = table[table["variant"] == base]
    for ax, variant in zip(axes.flat, variants, strict=False):
        part = table[table["variant"] == variant]
        ax.bar(part["final_sum"], part["probability"], width=0.9, color=style.colour(variant))
        if variant != base:
            ax.step(reference["final_sum"], reference["probability"], where="mid", color="black", lw=0.7)
        ax.set_title(textwrap.fill(labels[variant], 28), fontsize=7.5)
    for ax in axes[:, 0]:
        ax.yaxis.set_major_locator(mticker.MaxNLocator(4))
        ax.yaxis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=None))
    return fig


def tie_break_differences(table: pd.DataFrame, rules_names: list[str], base: str = "canonical"):
    """For each final sum: how much each tie-break's probability differs from the base rule's (percentage points)."""
    fig, ax = style.figure("full", 2.3)
    width = 0.8 / max(len(rules_names) - 1, 1)
    others = [r for r in rules_names if r != base]
    for i, name in enumerate(others):
        ax.bar(table["final_sum"] + (i - (len(others) - 1) / 2) * width, 100 * (table[name] - table[base]),
               width=width, color=style.colour(name), label=f"{name} minus {base}")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("sum left open")
    ax.set_ylabel("difference (pp)")
    ax.set_xticks(table["final_sum"])
    style.legend_above(ax, ncol=len(others))
    return fig


def more_tiles(table: pd.DataFrame):
    """The optimal chance of winning and expected sum left against the number of tiles, per number of dice."""
    fig, axes = style.figure("full", 2.4, ncols=2)
    for ax, column, label in zip(axes, ["p_win", "expected_remaining_sum"],
                                 ["P(win), optimal play", "expected sum left"], strict=True):
        for d, part in table.groupby("dice"):
            shown = part[part[column] > 0]
            ax.plot(shown["tiles"], shown[column], marker="o", ms=3, color=style.DICE[d],
                    label=part["dice_name"].iloc[0])
        ax.set_yscale("log")
        ax.set_xlabel("tiles")
        ax.set_ylabel(label)
        integer_ticks(ax.xaxis)
    style.legend_above(axes[0], ncol=3)
    return fig


def risk_frontier(corners: pd.DataFrame, thumbs: pd.DataFrame, won: str = "chance of shutting the box"):
    """Two panels, the expected sum left across and the chance of winning up: every rule of thumb (``thumbs``:
    ``policy_name``, ``p_win``, ``expected_remaining_sum``) with the frontier's corners joined by its edges
    (``corners``, the most wins first); the second panel zoomed on the frontier alone."""
    fig, axes = style.figure("full", 2.8, ncols=2)
    for ax in axes:
        ax.plot(corners["expected_remaining_sum"], corners["p_win"], color=style.BLACK, lw=1, marker="o", ms=2.5,
                label="the frontier (its corners)", zorder=3)
        ax.set_xlabel("expected sum left")
        percent_axis(ax.yaxis)
    axes[0].set_ylabel(won)
    markers = "sDv^P*Xh"
    for (_, row), marker in zip(thumbs.iterrows(), itertools.cycle(markers), strict=False):
        axes[0].scatter(row["expected_remaining_sum"], row["p_win"], s=28, marker=marker, color=style.SERIES[
            list(thumbs.index).index(row.name) % len(style.SERIES)], label=row["policy_name"], zorder=4)
    axes[0].set_title("every rule of thumb, and the frontier", fontsize=8)
    axes[1].set_title("the frontier, close up", fontsize=8)
    axes[1].yaxis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=3))
    axes[0].legend(fontsize=6.5, loc="upper right", frameon=False)
    return fig
