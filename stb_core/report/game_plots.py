"""The figures of the games played through (chapters 7 to 9): the pub game's seats and bonus, how long a game lasts
and how it ends, and the luck of each game; as :mod:`stb_core.report.plots`, a tidy table in, a figure out."""

from __future__ import annotations

import matplotlib.ticker as mticker
import numpy as np
import pandas as pd

from ..monte_carlo import Z95
from ..sources.pub_game import winnings_scale
from . import style
from .plots import integer_ticks, percent_axis


def seat_values(table: pd.DataFrame):
    """Each seat's expected winnings (in stakes) for each number of players: one line per number of players."""
    fig, ax = style.figure("column", 2.4)
    for i, (players, part) in enumerate(table.groupby("players")):
        ax.plot(part["seat"], part["expected_payoff"], marker="o", ms=4, color=style.SERIES[i % len(style.SERIES)],
                label=f"{players} players")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("seat (order of play)")
    ax.set_ylabel("expected winnings (stakes)")
    integer_ticks(ax.xaxis)
    style.legend_outside(ax)
    return fig


def fair_bonus(table: pd.DataFrame, scale: str = "log"):
    """The fair bonus for a shut box against the number of players, one line per scoring (on a ``scale`` of "log",
    or "linear" where a bonus is 0)."""
    fig, ax = style.figure("column", 2.4)
    for scoring, part in table.groupby("scoring", sort=False):
        shown = part.dropna(subset=["fair_shut_pays"])
        ax.plot(shown["players"], shown["fair_shut_pays"], marker="o", ms=4, color=style.colour(f"{scoring} scoring"),
                label=f"{scoring} scoring")
    ax.axhline(1, color=style.GREY, lw=0.8, ls="--")
    if scale == "log":
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(mticker.LogLocator(base=10, subs=(1, 2, 5)))
        ax.yaxis.set_minor_locator(mticker.NullLocator())
        ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel("players")
    ax.set_ylabel("fair bonus (stakes from each)")
    integer_ticks(ax.xaxis)
    style.legend_above(ax, ncol=2)
    return fig


def seat_payoffs_with_simulation(exact: pd.DataFrame, simulated: pd.DataFrame):
    """Each seat's expected winnings in per cent of a stake (in stakes where one reaches ``STAKES_FROM``, as the page
    words them): exact (black diamond) and simulated with a 95% interval."""
    fig, ax = style.figure("column", 0.45 * len(exact) + 1.1)
    y = np.arange(len(exact))[::-1]
    scale, unit, _ = winnings_scale(exact["expected_payoff"])
    mean, half = scale * simulated["mean_payoff"], scale * Z95 * simulated["payoff_se"]
    ax.errorbar(mean, y - 0.12, xerr=half, fmt="o", color=style.BLUE, capsize=3, ms=5, lw=1.5, mfc="white", mew=1.5,
                label="simulated, 95% interval")
    ax.plot(scale * exact["expected_payoff"], y + 0.14, marker="D", color="black", ms=5, ls="none", label="exact")
    ax.axvline(0, color=style.GREY, lw=0.8)
    ax.set_yticks(y, [f"seat {s}" for s in exact["seat"]])
    ax.set_xlabel(f"expected winnings ({unit})")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=2)
    return fig


def _from_zero(ax, top: float) -> None:
    """An x axis from zero to a little past ``top`` (to 1 when every value is zero: a chance that is nil)."""
    ax.set_xlim(0, top * 1.12 if top > 0 else 1)


def heuristic_chances(table: pd.DataFrame, won: str = "chance of shutting the box"):
    """Two dot panels, one row per rule of thumb (optimal and worst play included): its chance of winning (axis:
    ``won``) and its expected sum left, each on a linear axis from zero (``table``: ``policy_name``, ``p_win``,
    ``expected_remaining_sum``, in the page's order)."""
    fig, axes = style.figure("full", 0.3 * len(table) + 0.9, ncols=2, sharey=True)
    y = np.arange(len(table))[::-1]
    for ax, column, label in zip(axes, ["p_win", "expected_remaining_sum"], [won, "expected sum left"], strict=True):
        for yi in y:
            ax.axhline(yi, color="#e5e8eb", lw=0.8, zorder=1)
        ax.scatter(table[column], y, s=30, color=style.BLACK, zorder=3)
        _from_zero(ax, table[column].max())
        ax.set_xlabel(label)
        ax.grid(axis="y", visible=False)
    percent_axis(axes[0].xaxis)
    axes[0].set_yticks(y, table["policy_name"])
    return fig


def roll_count_bars(table: pd.DataFrame):
    """The chance that a game lasts each number of rolls, one group of bars per number, one bar per policy
    (``table``: ``policy_name``, ``rolls``, ``probability``)."""
    fig, ax = style.figure("column", 2.4)
    names = list(dict.fromkeys(table["policy_name"]))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        part = table[table["policy_name"] == name]
        ax.bar(part["rolls"] + (i - (len(names) - 1) / 2) * width, part["probability"], width=width,
               color=style.SERIES[i % len(style.SERIES)], label=name)
    ax.set_xlabel("rolls in the game (the last one included)")
    ax.set_ylabel("share of games")
    percent_axis(ax.yaxis)
    integer_ticks(ax.xaxis)
    style.legend_above(ax, ncol=1)
    return fig


def tiles_open_lines(table: pd.DataFrame):
    """The chance that each tile is still open after each number of rolls: one line per tile, in the board's order
    and named as the board names it (``table``: ``rolls``, ``position``, ``tile``, ``p_open``)."""
    tiles = table.drop_duplicates("position").sort_values("position")
    fig, ax = style.figure("column", 2.6 + 0.1 * max(0, len(tiles) - 12))  # room for a long legend
    colours = style.sequential(len(tiles))
    for colour, position, tile in zip(colours, tiles["position"], tiles["tile"], strict=True):
        part = table[table["position"] == position]
        ax.plot(part["rolls"], part["p_open"], color=colour, lw=1.2, marker="o", ms=2.5, label=f"tile {tile}")
    ax.set_xlabel("rolls so far")
    ax.set_ylabel("chance the tile is open")
    percent_axis(ax.yaxis)
    integer_ticks(ax.xaxis)
    ax.set_ylim(0, 1.02)
    style.legend_outside(ax)
    return fig


def luck_bounds(table: pd.DataFrame, objective: str, won: str = "chance of shutting the box"):
    """One dot per way of playing, best first, with knowing every throw in advance (where it is defined) drawn
    hollow as the bound (``table``: ``play``, ``play_name``, ``value``; ``won``: the axis's words for the win)."""
    fig, ax = style.figure("full", 0.26 * len(table) + 0.9)
    y = np.arange(len(table))[::-1]
    for yi in y:
        ax.axhline(yi, color="#e5e8eb", lw=0.8, zorder=1)
    bound = (table["play"] == "hindsight").to_numpy()
    ax.scatter(table["value"][~bound], y[~bound], s=28, color=style.BLACK, zorder=3)
    ax.scatter(table["value"][bound], y[bound], s=34, facecolor="white", edgecolor=style.BLACK, lw=1.4, zorder=3)
    ax.set_yticks(y, table["play_name"])
    _from_zero(ax, table["value"].max())
    ax.grid(axis="y", visible=False)
    if objective == "win":
        percent_axis(ax.xaxis)
        ax.set_xlabel(won)
    else:
        ax.set_xlabel("expected sum left open")
    return fig


def luck_and_loss(per_game: pd.DataFrame, names: dict, objective: str = "win"):
    """Histograms of each game's total luck (top) and total loss (bottom), one column per way of playing
    (``per_game``: ``play``, ``luck``, ``loss``), on shared axes: in percentage points (pp) of the chance of
    shutting the box for the objective ``win``, else in points of the sum left open."""
    plays = list(dict.fromkeys(per_game["play"]))
    scale, unit = (100, "pp") if objective == "win" else (1, "points")
    fig, axes = style.figure("full", 3.4, ncols=len(plays), nrows=2, sharex="row", sharey="row")
    axes = np.asarray(axes).reshape(2, len(plays))
    for row, column, label in ((0, "luck", "luck of a game"), (1, "loss", "loss of a game")):
        values = scale * per_game[column].to_numpy()
        edges = np.histogram_bin_edges(values, bins=30)
        for k, play in enumerate(plays):
            ax = axes[row, k]
            part = scale * per_game.loc[per_game["play"] == play, column].to_numpy()
            ax.hist(part, bins=edges, weights=np.full(part.size, 1 / max(part.size, 1)), color=style.BLUE)
            ax.axvline(0, color=style.GREY, lw=0.8)
            ax.set_xlabel(f"{label} ({unit})")
            if row == 0:
                ax.set_title(names[play])
        axes[row, 0].set_ylabel("share of games")
        percent_axis(axes[row, 0].yaxis)
    return fig
