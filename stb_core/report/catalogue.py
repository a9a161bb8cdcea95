"""The one list that drives the report: its chapters (one notebook each, in order) and the sources they check.

The build runs the chapters in this order, the index lists them from here, and every page's navigation
(all pages, previous / next) comes from here; nothing in the index is written by hand. The sources'
titles, authors and dates are reference data in ``data/published/sources.csv`` (as the texts give them:
a missing author or date is written as not stated, never invented).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache

from .paths import PUBLISHED_DIR


@dataclass(frozen=True)
class Source:
    """A published analysis of the game, cited as its text allows."""

    key: str
    title: str
    author: str
    date: str
    address: str
    rules: str
    citation: str

    def cite(self) -> str:
        """"Title", author (date) -- the parts that are known."""
        parts = [f"“{self.title}”"]
        if not self.author.startswith("not stated"):
            parts.append(self.author)
        if not self.date.startswith("not stated"):
            parts.append(self.date)
        return ", ".join(parts)


@dataclass(frozen=True)
class Chapter:
    """One page of the report: its notebook, title, the source it checks (if any) and its question."""

    number: int
    stem: str
    title: str
    source: str | None
    question: str
    module: str  # its module in stb_core.sources: the tables and findings the page shows, and their pipeline

    @property
    def page(self) -> str:
        return f"{self.stem}.html"


CHAPTERS = (
    Chapter(1, "01-sequence-counts", "Counting winning sequences", "000",
            "Does the move with the most winning sequences maximise the chance of shutting the box?",
            "sequence_counts"),
    Chapter(2, "02-riddler-one-die", "The Riddler: one die or two", "001",
            "How often can perfect play shut the box, and when should one die be rolled?",
            "riddler"),
    Chapter(3, "03-open-and-shut", "Open and Shut Case: three scorings, three strategies", "002",
            "Is shutting the fewest, highest tiles the optimal strategy?",
            "open_and_shut"),
    Chapter(4, "04-game-space", "The game space of “won at 3 or less”", "003",
            "How many states and strategies does the game have, and what does optimal play win?",
            "game_space"),
    Chapter(5, "05-expected-cost-mdp", "Minimising the sum left open", "004",
            "What does each board cost with optimal play, and when is the largest tile the wrong one?",
            "expected_cost"),
    Chapter(6, "06-whole-map", "The whole map: variants, objectives, heuristics", None,
            "What is every variant worth, what does each rule of thumb cost, and what should a player memorise?",
            "whole_map"),
    Chapter(7, "07-pub-game", "The pub game: players, stakes and a bonus for shutting the box", None,
            "Which seat is favoured when two to six players play for stakes, and what bonus makes the game fair?",
            "pub_game"),
)

EXPLORER = ("explorer.html", "Position explorer")


def chapter(stem: str) -> Chapter:
    """The chapter of a notebook stem."""
    for entry in CHAPTERS:
        if entry.stem == stem:
            return entry
    raise KeyError(f"no chapter {stem!r}; chapters: {', '.join(c.stem for c in CHAPTERS)}")


@cache
def sources() -> dict[str, Source]:
    """Every source, by key (``000`` .. ``004``)."""
    with open(PUBLISHED_DIR / "sources.csv", encoding="utf-8", newline="") as handle:
        return {row["key"]: Source(**row) for row in csv.DictReader(handle, dialect="excel")}
