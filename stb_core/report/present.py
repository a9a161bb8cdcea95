"""How tables, figures and sentences look on a page: HTML built from pandas and matplotlib, byte-stable.

* :func:`table_html` -- a pandas ``Styler`` with human headers (with units), no index column, formatted numbers
  (percentages at stated decimals, thousands separators, exact fractions as fractions), nothing cut short, a
  caption, and a fixed id so the same table gives the same bytes. A long table shows its first rows and says
  so, with a link to the full CSV.
* :func:`figure_html` -- a ``<figure>`` with the SVG drawn sharp at any zoom, real alt text, a caption and
  links to the PNG, SVG and PDF files.
* :func:`prose_html` -- a sentence or two of Markdown-like text (``**bold**``, ``*em*``, `` `code` ``, ``$math$``)
  as HTML, for findings written from the computed numbers.

Numbering ("Table 3.2", "Figure 6.1") is done by the page's CSS counters, not here.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable

import pandas as pd

from ..sources.words import (  # noqa: F401 -- the report's number formats, re-exported for the notebooks
    as_sets,
    compact,
    digits,
    fraction,
    integer,
    number,
    percent,
    points,
    roll_or_dice,
    share,
    text,
)
from ..sources.words import present as _present

SNAKE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")


# -- number formats: one style for the whole report (stb_core.sources.words) -------------------------------
class by_objective:  # noqa: N801 (used like the formatters above)
    """Format a column that mixes objectives by each row's objective (``key`` names the objective column, as
    keys or as reader names): ``win`` with ``win_format`` (a percentage), the others with ``other_format``."""

    def __init__(self, key: str = "objective", win_format: Callable | None = None,
                 other_format: Callable | None = None):
        self.key = key
        self.win_format = win_format or percent(2)
        self.other_format = other_format or number(2)

    def apply(self, table: pd.DataFrame, column: str) -> pd.Series:
        from .style import name

        is_win = table[self.key].isin(["win", name("win")])
        return pd.Series([(self.win_format if win else self.other_format)(v) if _present(v) else None
                          for v, win in zip(table[column], is_win, strict=True)], index=table.index)


def default_format(series: pd.Series) -> Callable:
    """Integers with separators, floats at 4 decimals, everything else as text."""
    if pd.api.types.is_bool_dtype(series):
        return lambda x: "yes" if x else "no"
    if pd.api.types.is_integer_dtype(series):
        return integer
    if pd.api.types.is_float_dtype(series):
        return number(4)
    return text


# -- tables ---------------------------------------------------------------------------------------------
def table_html(table: pd.DataFrame, caption: str, uid: str, *, columns: dict | None = None,
               formats: dict | None = None, max_rows: int | None = 25, csv_href: str | None = None,
               note: str | None = None, label: str | None = None, cards: bool = False, quoted: bool = False) -> str:
    """The HTML of ``table`` for a page: ``columns`` maps machine names to headers (and picks and orders the
    columns shown); ``formats`` maps a header (or machine name) to a formatter; at most ``max_rows`` rows,
    with a note and the CSV link when there are more; ``label`` (``Table 3.2``) numbers the caption and gives the
    table its anchor (``table-3-2``); ``cards``: on a phone each row reads as a card, every cell under its header
    (a table of sentences, too wide to scroll through); ``quoted``: its cells are the sources' own words, of their own
    games (the page linter does not read them as the run's). Raises ``ValueError`` for a snake_case header."""
    shown = (table if columns is None else table[list(columns)].rename(columns=columns)).reset_index(drop=True)
    snake = [c for c in shown.columns if SNAKE.match(str(c))]
    if snake:
        raise ValueError(f"give the column(s) {snake} a reader's header (columns={{'{snake[0]}': '...'}})")
    total = len(shown)
    if max_rows is not None and total > max_rows:
        shown = shown.head(max_rows)
    shown = shown.copy()
    by_header = {}
    for machine, header in (columns or {c: c for c in shown.columns}).items():
        chosen = (formats or {}).get(header, (formats or {}).get(machine))
        if isinstance(chosen, by_objective):  # formatted here, row by row
            shown[header] = chosen.apply(shown, header)
            chosen = text
        by_header[header] = chosen or default_format(shown[header])
    styler = shown.style.hide(axis="index").format(by_header, na_rep="—").set_uuid(uid)
    short = [c for c in shown.columns if max((len(str(v)) for v in shown[c]), default=0) <= 24]
    if short:  # short cells (numbers, boards, moves) never break across lines
        styler = styler.set_properties(subset=short, **{"white-space": "nowrap"})
    classes = "stb-table" + (" stb-cards" if cards else "") + (" stb-quoted" if quoted else "")
    styler = styler.set_table_attributes(f'class="{classes}"')
    cap = html.escape(caption.rstrip("."))
    if any(getattr(f, "unit", None) == "pp" for f in by_header.values()):
        cap += " (pp: percentage points)"
    cap += f". First {len(shown):,} of {total:,} rows." if len(shown) < total else "."
    if label:
        cap = f"<strong>{html.escape(label)}.</strong> {cap}"
    styler = styler.set_caption(f'<span class="stb-cap">{cap}</span>')
    body = styler.to_html()
    if cards:  # each cell labelled with its header, for the phone's cards
        headers = [html.escape(str(c)) for c in shown.columns]
        body = re.sub(r'(class="data row\d+ col(\d+)")', lambda m: f'{m[1]} data-label="{headers[int(m[2])]}"', body)
    links = []
    if csv_href:
        which = "the full table" if len(shown) < total else "this table"
        links.append(f'Download {which} as CSV: <a href="{html.escape(csv_href)}">'
                     f'{html.escape(csv_href.rsplit("/", 1)[-1])}</a>.')
    if note:
        links.insert(0, prose_inline(note))
    foot = f'<p class="stb-table-note">{" ".join(links)}</p>' if links else ""
    anchor = f' id="{anchor_of(label)}"' if label else ""
    return f'<div class="stb-table-wrap"{anchor}>{body}{foot}</div>'


def claims_table(claims: list[dict], caption: str, label: str | None = None, csv_href: str | None = None,
                 name_each: bool = False) -> str:
    """A table of claims (one row per claim: what the source printed, what is computed now, the verdict with the
    allowance it applied), each cell labelled, so that on a phone every row reads as a card with its value and
    verdict; where the claims come from several write-ups, each claim names its own (``by``). ``label`` (``Table
    8.9``) numbers the caption and gives the table its anchor."""
    several = name_each or len({c.get("by", "") for c in claims}) > 1
    head = "<thead><tr><th>claim</th><th>published</th><th>computed now</th><th>verdict</th></tr></thead>"
    rows = "".join(
        f'<tr><td>{html.escape(c["claim"])}'
        + (f'<span class="stb-by">{html.escape(c["by"])}</span>' if several and c.get("by") else "") + '</td>'
        f'<td data-label="published">{html.escape(digits(c["published"]))}</td>'
        f'<td data-label="computed now">{html.escape(digits(c["computed"]))}</td>'
        f'<td data-label="verdict" class="stb-mark {"stb-bad" if c["mark"] == "✗" else "stb-good"}">'
        f'{c["mark"]} {html.escape(c["verdict"])}'
        + (f'<span class="stb-allowance">{html.escape(c["allowance"])}</span>' if c.get("allowance") else "")
        + '</td></tr>'
        for c in claims)
    cap = html.escape(caption.rstrip("."))
    anchor = ""
    if label:
        cap, anchor = f"<strong>{html.escape(label)}.</strong> {cap}.", f' id="{anchor_of(label)}"'
    foot = (f'<p class="stb-table-note">Download this table as CSV: <a href="{html.escape(csv_href)}">'
            f'{html.escape(csv_href.rsplit("/", 1)[-1])}</a>.</p>' if csv_href else "")
    return (f'<div class="stb-table-wrap"{anchor}><table class="stb-table stb-claims"><caption>{cap}'
            f'</caption>{head}<tbody>{rows}</tbody></table>{foot}</div>')


def anchor_of(label: str) -> str:
    """The anchor of a numbered table, figure or equation: ``Table 3.2`` -> ``table-3-2``."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


# -- figures ----------------------------------------------------------------------------------------------
SCALE = 1.3  # figures are drawn at 130% of their print size on screen: 8.5 pt type reads at 14.7 CSS px


def figure_html(svg: bytes, caption: str, alt: str, files: dict[str, str], width_in: float,
                label: str | None = None) -> str:
    """A numbered ``<figure>`` (``label``: ``Figure 3.1``, its anchor ``figure-3-1``) showing ``svg`` (sharp at any
    zoom) with ``alt`` text, its caption and file links. On a phone the figure fits the screen; tapping it opens
    it full-screen at its reading size (its type at 11 CSS px or more), to scroll; without the page's script the
    tap opens the SVG file."""
    if not alt or alt.lower().startswith("no description"):
        raise ValueError("a figure needs alt text that says what it shows")
    data = base64.b64encode(svg).decode("ascii")
    links = " · ".join(f'<a href="{html.escape(href)}">{fmt.upper()}</a>' for fmt, href in files.items())
    width = round(width_in * 96 * SCALE)
    kind = "stb-full" if width_in > 4 else "stb-column"
    image = (f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt)}" width="{width}" '
             f'style="width: min(100%, {width}px)">')
    if "svg" in files:
        image = (f'<a class="stb-zoom" href="{html.escape(files["svg"])}" data-width="{width}" '
                 f'title="open the figure full-screen, to read and scroll">{image}</a>')
    number = f"<strong>{html.escape(label)}.</strong> " if label else ""
    anchor = f' id="{anchor_of(label)}"' if label else ""
    return (f'<figure class="stb-figure {kind}"{anchor}><div class="stb-figure-scroll">{image}</div>'
            f'<figcaption>{number}{prose_inline(caption)} <span class="stb-files">Files: {links}</span></figcaption>'
            f'</figure>')


# -- prose ---------------------------------------------------------------------------------------------------
def prose_inline(source: str) -> str:
    """One paragraph of Markdown-like text as HTML: ``**bold**``, ``*em*``, `` `code` ``, ``[text](link)``;
    math between ``$`` signs is left for MathJax."""
    out = html.escape(source, quote=False)
    out = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])", r"<em>\1</em>", out)
    return out


def prose_html(source: str, kind: str = "text") -> str:
    """Paragraphs (blank-line separated) as HTML; ``kind="finding"`` draws them as a finding box."""
    paragraphs = [p.strip() for p in source.strip().split("\n\n") if p.strip()]
    body = "".join(f"<p>{prose_inline(' '.join(p.split()))}</p>" for p in paragraphs)
    return f'<div class="stb-{kind}">{body}</div>'
