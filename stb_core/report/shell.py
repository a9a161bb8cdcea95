"""The frame around every page of the report: the bar at the top, the sidebar listing every page with its number
(a drawer on phones), and the offline search over every page's text.

Every page -- the index, the chapters, the appendices, the explorer, the reruns -- gets the same frame from
:func:`frame` (its HTML strings go into the page's template), so a reader finds the same navigation everywhere.
The pages are numbered once, here: chapters by their number, appendices by letter. The search needs no network
and no server: :func:`search_index` writes ``assets/search-index.js`` (every page's sections as plain text),
which ``assets/search.js`` reads from a ``<script>`` tag, so it works from ``file://``.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

from .catalogue import CHAPTERS, EXPLORER


@dataclass(frozen=True)
class Entry:
    """One page in the sidebar: its file, its number or letter (empty for the index), its title."""

    page: str
    number: str
    title: str


APPENDICES = (Entry("glossary.html", "A", "Glossary"), Entry("reproducibility.html", "B", "Reproducibility"))


def entries() -> list[Entry]:
    """Every page of the report, in reading order."""
    return [Entry("index.html", "", "Verdicts and abstract"),
            *(Entry(c.page, str(c.number), c.title) for c in CHAPTERS),
            Entry(EXPLORER[0], "", EXPLORER[1]), *APPENDICES]


def sidebar(current: str, up: str = "") -> str:
    """The sidebar: every page with its number, the current one marked, and the search box."""
    items = []
    for entry in entries():
        number = f'<span class="stb-num">{html.escape(entry.number)}</span>' if entry.number else \
            '<span class="stb-num"></span>'
        mark = ' aria-current="page"' if entry.page == current else ""
        items.append(f'<li><a href="{html.escape(up + entry.page)}"{mark}>{number}'
                     f'<span class="stb-title">{html.escape(entry.title)}</span></a></li>')
    return (f'<nav class="stb-sidebar" id="stb-sidebar" aria-label="Chapters">'
            f'<form class="stb-search" role="search" onsubmit="return false">'
            f'<label for="stb-search-box">Search the report</label>'
            f'<input type="search" id="stb-search-box" autocomplete="off" placeholder="a word, e.g. Riddler" '
            f'data-up="{html.escape(up)}"></form>'
            f'<ol class="stb-search-results" id="stb-search-results" aria-live="polite"></ol>'
            f'<ol class="stb-pages">{"".join(items)}</ol></nav>')


def bar(up: str = "", extra: str = "") -> str:
    """The bar at the top: the report's name, the button that opens the sidebar on a phone, and ``extra``."""
    return (f'<header class="stb-bar"><button type="button" class="stb-drawer-button" id="stb-drawer-button" '
            f'aria-controls="stb-sidebar" aria-expanded="false">☰ Chapters</button>'
            f'<a class="stb-home" href="{html.escape(up)}index.html">Shut the Box, solved exactly</a>{extra}</header>')


def scripts(up: str = "") -> str:
    """The frame's scripts: the drawer, the figure viewer, scroll cues, and the search with its index."""
    assets = f"{up}assets/"
    return (f'<script src="{assets}search-index.js"></script><script src="{assets}search.js"></script>'
            f'<script src="{assets}report.js"></script>')


def frame(current: str, up: str = "", extra: str = "") -> dict:
    """The HTML strings a page's template places: ``bar``, ``sidebar`` and ``scripts``."""
    return {"bar": bar(up, extra), "sidebar": sidebar(current, up), "scripts": scripts(up)}


# -- the search index ---------------------------------------------------------------------------------------------
TAG = re.compile(r"<[^>]+>")
SKIP = re.compile(r"<(script|style|mjx-container|svg|pre)\b.*?</\1>", re.S | re.I)  # code is not prose
SECTION = re.compile(r'<h([12])[^>]*\bid="([^"]+)"[^>]*>(.*?)</h\1>', re.S | re.I)


MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
SYMBOLS = {"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "times": "×", "cdot": "·", "sum": "Σ", "in": "∈",
           "ne": "≠", "neq": "≠", "approx": "≈", "to": "→", "mid": "|", "setminus": "∖", "cup": "∪", "cap": "∩",
           "ldots": "…", "dots": "…", "infty": "∞", "sigma": "σ", "pi": "π", "mu": "μ", "quad": " ", "qquad": " "}


def plain_math(tex: str) -> str:
    """TeX as a reader would type it in a search box: ``\\frac{a}{b}`` as ``a/b``, symbols as symbols, commands
    without their backslash, no braces or dollar signs."""
    tex = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"\1/\2", tex)
    tex = re.sub(r"\\(left|right|big|Big|mathrm|mathbf|mathbb|mathcal|operatorname|text|tag\{[^}]*\})\b", "", tex)
    tex = re.sub(r"\\([A-Za-z]+)", lambda m: SYMBOLS.get(m.group(1), m.group(1)), tex)
    tex = re.sub(r"\\[,;:! ]", " ", tex).replace("~", " ")
    return " ".join(re.sub(r"[{}\\]", "", tex).split())


def page_sections(page_html: str) -> list[tuple[str, str, str]]:
    """``(anchor, heading, text)`` of each section of a page (its ``h1`` and each ``h2`` with an id), as plain text:
    the page's own text only (not the pager or the frame), its mathematics as plain symbols."""
    body = page_html.split("<main", 1)[-1].split("</main>", 1)[0]
    body = SKIP.sub(" ", body)
    marks = list(SECTION.finditer(body))
    sections = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        heading = " ".join(html.unescape(TAG.sub(" ", mark.group(3))).replace("¶", "").split())  # "A Glossary"
        text = html.unescape(TAG.sub(" ", body[mark.end():end]))
        text = MATH.sub(lambda m: plain_math(next(g for g in m.groups() if g is not None)), text)
        sections.append((mark.group(2), heading, " ".join(text.split())))
    return sections


def search_index(report: Path) -> Path:
    """Write ``assets/search-index.js``: every page's sections (the default report's pages), as plain text."""
    records = []
    for entry in entries():
        path = report / entry.page
        if not path.exists():
            continue
        for anchor, heading, text in page_sections(path.read_text(encoding="utf-8")):
            records.append({"page": entry.page, "anchor": anchor, "number": entry.number, "title": entry.title,
                            "heading": heading, "text": text})
    target = report / "assets" / "search-index.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    body = "window.STB_SEARCH = " + json.dumps(records, ensure_ascii=False, separators=(",", ":")) + ";\n"
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(body, encoding="utf-8")
    tmp.replace(target)
    return target
