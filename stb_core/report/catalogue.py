"""The one list that drives the report: its chapters (one notebook each, in order) and the sources they check.

The build runs the chapters in this order, the index lists them from here, and every page's navigation
(all pages, previous / next) comes from here; nothing in the index is written by hand. The sources'
titles, authors and dates are reference data in ``data/published/sources.csv`` (as the texts give them:
a missing author or date is written as not stated, never invented).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..sources.findings import RULE_OF_THUMB_PERCENT
from ..sources.published import source_rows


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
    bibkey: str = ""  # its key in the write-up kit's BibTeX file

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
    Chapter(4, "04-game-space", "The game space: every state, roll and legal move", "003",
            "How many states and strategies does the game have, and what does optimal play win?",
            "game_space"),
    Chapter(5, "05-expected-cost-mdp", "Minimising the sum left open", "004",
            "What does each board cost with optimal play, and when is the largest tile the wrong one?",
            "expected_cost"),
    Chapter(6, "06-whole-map", "The whole map: variants, objectives, heuristics", None,
            "What is every variant worth, what does each rule of thumb cost, and what should a player memorise?",
            "whole_map"),
    Chapter(7, "07-pub-game", "The pub game: players, stakes and a bonus for shutting the box", None,
            "Which seat is favoured when players play for stakes (two to four in these pages, up to six in a rerun), "
            "and "
            "what bonus makes the game fair?",
            "pub_game"),
    Chapter(8, "08-in-print", "The game in print: variants, heuristics and game length", "in-print",
            "What are the variants people play worth, what do the literature's rules of thumb give up, how long does "
            "a game last, and which printed figures about them hold?",
            "in_print"),
    Chapter(9, "09-luck-and-skill", "Luck and skill", None,
            "How much of Shut the Box is luck: how far is perfect play from knowing every throw in advance, and in "
            "one game, how much did the dice decide and how much the decisions cost?",
            "luck_and_skill"),
)

EXPLORER = ("explorer.html", "Position explorer")

GLOSSARY = (  # the words the chapters use, each in one sense (report/glossary.html)
    ("board", "The tiles still open, written as a set: {1, 4, 5, 8}. The full board has every tile open; the box is "
              "shut when none is."),
    ("tile", "One of the numbered pieces, 1 to n, each open or shut (some sources say box)."),
    ("roll", "What the dice show in one throw, added up: a roll of 7. With a one-die rule the player may throw a "
             "single die instead of all of them."),
    ("move", "The tiles shut after a roll, written as a set: {4, 5} after a roll of 9. A move is legal when its tiles "
             "are all open and add up to the roll (and, under some rules, shuts at most so many tiles)."),
    ("win", "Ending the game with every tile shut (\u201cshutting the box\u201d) or, under a rule that sets a "
            "threshold, with the open tiles totalling that or less (\u201cwon at 3 or less\u201d). P(win) is the "
            "chance of it; in the classic game it is the chance of shutting the box."),
    ("objective", "What a finished game is worth: a win (the chance of winning, P(win)), the sum of the tiles "
                  "left open (the expected sum left, lower is better), or the number of tiles shut."),
    ("optimal play", "Playing every move, and choosing the dice where the rules allow it, to do best for the "
                     "objective: the exact solution of the game's dynamic programme."),
    ("policy", "A way of choosing a move for every board and roll: optimal play, a rule of thumb such as the "
               "highest-tile rule, random legal moves, or the worst play."),
    ("tie-break", "The rule that picks among moves that are exactly as good. The report's own: the first move in "
                  "lexicographic order of its tiles, so {1, 6} before {3, 4} before {7}."),
    ("highest-tile rule", "Shut the fewest tiles, and of those the highest: the hypothesis of chapter 3 and the advice "
                          "of chapter 5."),
    ("rule of thumb", "Advice a person can follow at the table. The report judges one as holding when following it "
                      f"keeps within {RULE_OF_THUMB_PERCENT:g}% of the best possible result."),
    ("strategy card", "A rule of thumb written as a few ordered lines (chapter 6), valued exactly as a policy."),
    ("one-die rule", "When the player may throw a single die instead of all the dice: once every tile from 7 up is "
                     "shut, or once the open tiles total 6 or less (or 5 or less: \u201cless than 6\u201d)."),
    ("Thai style", "Each roll shuts exactly one tile, equal to either die or to their sum (chapter 8)."),
    ("Double Shutter", "A second row behind the first: on front tiles 1\u2013n, behind front tile k stands a back "
                       "tile worth n + 1 \u2212 k (on 1\u20139: 10 \u2212 k), written b and its value (b9 stands "
                       "behind 1), which can be shut only once the tile in front of it is down or in the same move. "
                       "The score counts the front row double; a one-die rule counts only the tiles that can be shut "
                       "now."),
    ("digit score", "The open tiles read in increasing order as one number: {1, 4, 7} scores 147; lower is better."),
    ("head-to-head", "Two independent games, one played each way, compared: the chance that the first leaves less "
                     "than the second, more, or the same."),
    ("percentage point (pp)", "The difference between two percentages: from 7.14% to 9.76% is 2.62 percentage "
                              "points."),
    ("reach", "The chance that a way of playing, from the full board, ever stands on a given board."),
    ("exact", "Computed in fractions, with no rounding: 7/54 rather than 0.129630."),
    ("hindsight value", "What a player who knew every throw in advance could expect: the chance that some line of "
                        "play shuts the box (chapter 9). With a one-die rule the known throws are those of all the "
                        "dice, one die reading the first."),
    ("luck", "How much a roll moved the value of the game before any move: the value after the best move for that "
             "roll, less the value before rolling (chapter 9). Over many games it averages zero."),
    ("loss", "What a decision cost against the best one, with perfect play afterwards; never negative. Graded an "
             "inaccuracy, a mistake or a blunder by its size (chapter 9)."),
)


def chapter(stem: str) -> Chapter:
    """The chapter of a notebook stem."""
    for entry in CHAPTERS:
        if entry.stem == stem:
            return entry
    raise KeyError(f"no chapter {stem!r}; chapters: {', '.join(c.stem for c in CHAPTERS)}")


@cache
def sources() -> dict[str, Source]:
    """Every source, by key (``000`` .. ``004``)."""
    return {row["key"]: Source(**row) for row in source_rows()}
