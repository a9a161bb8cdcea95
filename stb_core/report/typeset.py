"""The built pages as LaTeX: each page's HTML read back and set as a chapter of one book (``make pdf``).

Nothing is computed here: the prose, the findings, the numbered tables, the figures and the display equations are
those the build wrote into the pages (``report/<chapter>.html``), from the same executed notebooks and tables. Each
piece keeps its page's number: a chapter is the chapter of its number, its sections are numbered as the page numbers
them, each table and figure carries the page's number (``\\stbnumber``), and its display equations are numbered by
chapter as MathJax numbers them. Every link of a page becomes a link of the book -- to a table, figure, section,
finding, chapter or glossary term the book holds -- or, for a file beside the pages (a CSV, the explorer), a link to
that file; a table is set by :func:`stb_core.report.latex.table`, as the write-up kit sets its tables.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import bs4
import pandas as pd

from . import latex

SKIPPED_TAGS = {"script", "style", "form", "button", "input", "nav", "noscript", "svg", "img", "select", "textarea",
                "label", "hr", "template"}
SKIPPED_CLASSES = {"jp-CodeMirrorEditor", "highlight", "stb-progress", "stb-files", "anchor-link", "jp-Collapser",
                   "stb-chapter-number", "jp-InputPrompt", "jp-OutputPrompt"}  # code cells' code; the page's chrome
ADDRESS = re.compile(r"(https?://[^\s<>()]+[^\s<>().,;:])")
BOOKMARK = str.maketrans({"×": "x", "–": "-", "—": "-", "−": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
                          "≤": "<=", "≥": ">=", "≠": "!="})  # a heading's math in the PDF's bookmarks
REF, TO, TEXT, END = "\x00", "\x01", "\x02", "\x03"  # a link, resolved once every label of the book is known


class Page:
    """One page of the report read as LaTeX: ``stem`` names its labels (``<stem>:<id>``); ``folder`` is where its
    relative links start; ``labels`` collects every label the book defines."""

    def __init__(self, path: Path, stem: str, labels: set[str], pdf_folder: Path):
        self.path, self.stem, self.labels = path, stem, labels
        self.soup = bs4.BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        self.main = self.soup.find("main") or self.soup.body
        self.pdf_folder = pdf_folder

    # -- labels and links ------------------------------------------------------------------------------------------
    def label(self, anchor: str) -> str:
        """A label of the book for an anchor of this page (and keep it as defined)."""
        name = f"{self.stem}:{anchor}"
        self.labels.add(name)
        return rf"\label{{{name}}}"

    def anchor(self, element: bs4.Tag) -> str:
        """A label where an element with an id stands in the text (a finding, a list item, a term)."""
        return rf"\phantomsection{self.label(element['id'])}" if element.get("id") else ""

    def link(self, a: bs4.Tag) -> str:
        """A link: to a label of the book where its target is one, else to the file it names, else its words."""
        words = "".join(self.inline(child) for child in a.children)
        href = a.get("href", "")
        if re.match(r"^(https?|mailto):", href):
            shown = a.get_text().strip()
            return rf"\url{{{_url(href)}}}" if shown == href else rf"\href{{{_url(href)}}}{{{words}}}"
        page, _, fragment = href.partition("#")
        stem = Path(page).stem if page else self.stem
        target = f"{stem}:{fragment}" if fragment else f"{stem}:top"
        file = _relative(self.path.parent / page, self.pdf_folder) if page else ""
        return f"{REF}{target}{TO}{file}{TEXT}{words}{END}"

    # -- inline text -------------------------------------------------------------------------------------------------
    def inline(self, element) -> str:
        """An element's content as running text: emphasis, code, links, sub- and superscripts; math as written."""
        if isinstance(element, bs4.NavigableString):
            if isinstance(element, bs4.Comment):
                return ""
            parts = ADDRESS.split(re.sub(r"\s+", " ", str(element)))  # an address in the text: breakable
            return "".join(rf"\url{{{_url(p)}}}" if i % 2 else latex.prose(p) for i, p in enumerate(parts))
        if element.name in SKIPPED_TAGS or SKIPPED_CLASSES & set(element.get("class") or []):
            return ""
        inner = "".join(self.inline(child) for child in element.children)
        wrap = {"strong": r"\textbf", "b": r"\textbf", "em": r"\emph", "i": r"\emph", "code": r"\texttt",
                "sup": r"\textsuperscript", "sub": r"\textsubscript"}
        if element.name == "a":
            return self.link(element)
        if element.name == "br":
            return r"\newline "
        if "stb-badge" in (element.get("class") or []):  # a verdict's label, set apart from the tally after it
            return rf"\fbox{{\textbf{{{inner}}}}}\enspace "
        return rf"{wrap[element.name]}{{{inner}}}" if element.name in wrap else inner

    # -- blocks ------------------------------------------------------------------------------------------------------
    def blocks(self, element) -> str:
        """An element's content as paragraphs, headings, lists, tables, figures and equations."""
        out = []
        for child in element.children:
            if isinstance(child, bs4.NavigableString):
                words = self.displays(self.inline(child).strip())
                out.append(f"{words}\n\n" if words else "")
            else:
                out.append(self.block(child))
        return "".join(out)

    def block(self, element: bs4.Tag) -> str:
        """One block-level element as LaTeX."""
        classes = set(element.get("class") or [])
        if element.name in SKIPPED_TAGS or classes & SKIPPED_CLASSES:
            return ""
        if "stb-table-wrap" in classes:
            return self.table(element)
        handler = {"h1": self.chapter_title, "h2": self.section, "h3": self.subsection, "h4": self.subsection,
                   "p": self.paragraph, "figure": self.figure, "ul": self.listing, "ol": self.listing,
                   "dl": self.terms, "details": self.details, "blockquote": self.quote, "pre": self.verbatim,
                   "table": self.bare_table}.get(element.name)
        if handler is not None:
            return handler(element)
        inner = self.blocks(element)
        if "stb-finding" in classes:
            return f"{self.anchor(element)}\\begin{{stbfinding}}\n{inner.strip()}\n\\end{{stbfinding}}\n\n"
        return self.anchor(element) + inner

    def heading(self, element: bs4.Tag) -> str:
        """A heading's words, with a plain version for the PDF's bookmarks where they hold math (``×``)."""
        words = self.inline(element).strip()
        if "$" not in words:
            return words
        plain = element.get_text(" ", strip=True).translate(BOOKMARK)
        plain = latex.text("".join(c for c in plain if c.isascii()))
        return rf"\texorpdfstring{{{words}}}{{{plain}}}"

    def chapter_title(self, h1: bs4.Tag) -> str:
        return rf"\chapter{{{self.heading(h1)}}}\label{{{self.stem}:top}}" + "\n\n"

    def section(self, h2: bs4.Tag) -> str:
        title = self.heading(h2)
        if "stb-opening-title" in (h2.get("class") or []) or not h2.find(class_="stb-chapter-number"):
            return rf"\section*{{{title}}}{self.anchor(h2)}" + "\n\n"
        return rf"\section{{{title}}}{self.anchor(h2)}" + "\n\n"

    def subsection(self, heading: bs4.Tag) -> str:
        return rf"\subsection*{{{self.heading(heading)}}}{self.anchor(heading)}" + "\n\n"

    def paragraph(self, p: bs4.Tag) -> str:
        """A paragraph; a display equation (``$$...$$``) set numbered, as MathJax numbers every display."""
        if "stb-finding-ref" in (p.get("class") or []):
            return rf"{self.anchor(p)}{{\small\itshape {self.inline(p).strip()}\par}}" + "\n\n"
        words = self.displays(self.anchor(p) + self.inline(p).strip())
        return f"{words}\n\n" if words.strip() else ""

    def displays(self, words: str) -> str:
        """Display equations (``$$...$$``) set as equations, numbered within a chapter (as MathJax numbers them)
        and not in the introduction."""
        environment = "equation*" if self.stem == "index" else "equation"
        return re.sub(r"\$\$(.+?)\$\$", lambda m: f"\n\\begin{{{environment}}}\n{m.group(1).strip()}\n"
                      f"\\end{{{environment}}}\n", words, flags=re.S)

    def listing(self, element: bs4.Tag) -> str:
        environment = "enumerate" if element.name == "ol" else "itemize"
        items = [rf"\item {self.anchor(li)}{self.item(li)}" for li in element.find_all("li", recursive=False)]
        return f"\\begin{{{environment}}}\n" + "\n".join(items) + f"\n\\end{{{environment}}}\n\n" if items else ""

    def item(self, li: bs4.Tag) -> str:
        """A list item: its words, and any list inside it as a nested list."""
        return "".join(self.block(c) if isinstance(c, bs4.Tag) and c.name in ("ul", "ol", "p", "div")
                       else self.inline(c) for c in li.children).strip()

    def terms(self, dl: bs4.Tag) -> str:
        """A list of terms (the glossary): each term labelled, so a link to it from any chapter lands on it."""
        items = []
        for dt in dl.find_all("dt", recursive=False):
            dd = dt.find_next_sibling("dd")
            items.append(rf"\item[{self.inline(dt).strip()}]{self.anchor(dt)} {self.inline(dd).strip() if dd else ''}")
        return "\\begin{description}\n" + "\n".join(items) + "\n\\end{description}\n\n"

    def details(self, details: bs4.Tag) -> str:
        summary = details.find("summary")
        head = rf"\paragraph{{{self.inline(summary).strip()}.}}" + "\n" if summary else ""
        return head + "".join(self.block(c) for c in details.children
                              if isinstance(c, bs4.Tag) and c.name != "summary")

    def quote(self, element: bs4.Tag) -> str:
        return f"\\begin{{quote}}\n{self.blocks(element).strip()}\n\\end{{quote}}\n\n"

    def verbatim(self, pre: bs4.Tag) -> str:
        """Text as the page prints it (a program's output), its long lines folded to the page's width."""
        lines = [part for line in pre.get_text().replace("\\end{verbatim}", "").splitlines()
                 for part in (textwrap.wrap(line, 80, drop_whitespace=False) or [""])]
        return "{\\small\n\\begin{verbatim}\n" + "\n".join(lines) + "\n\\end{verbatim}\n}\n\n"

    # -- tables and figures ------------------------------------------------------------------------------------------
    def table(self, wrap: bs4.Tag) -> str:
        """A numbered table of the page, set as the kit sets its tables; its note (and the CSV it links) beneath."""
        element = wrap.find("table")
        if element is None:
            return ""
        caption = element.find("caption")
        number = ""
        if caption is not None and caption.find("strong"):
            number = caption.find("strong").get_text().strip().rstrip(".").removeprefix("Table ")
            caption.find("strong").decompose()
        words = self.inline(caption).strip() if caption is not None else ""
        note = wrap.find("p", class_="stb-table-note")
        label = f"{self.stem}:{wrap['id']}" if wrap.get("id") else f"{self.stem}:table-{id(wrap)}"
        self.labels.add(label)
        below = self.inline(note).strip() if note is not None else ""
        typeset = latex.table(self.frame(element), words, label, number=number, cell=latex.prose, foot=below)
        return typeset.latex.replace(r"\providecommand{\stbnumber}[2]{}% the report's number, where the document "
                                     r"keeps it" + "\n", "") + "\n"

    def frame(self, table: bs4.Tag) -> pd.DataFrame:
        """A table's header and rows as text (a claim's write-up and a verdict's allowance in brackets)."""
        head = table.find("thead")
        headers = [th.get_text(" ", strip=True) for th in head.find_all("th")] if head else []
        rows = []
        for tr in (table.find("tbody") or table).find_all("tr", recursive=False):
            cells = []
            for td in tr.find_all(["td", "th"], recursive=False):
                extra = [span.extract().get_text(" ", strip=True) for span in
                         td.find_all("span", class_=["stb-by", "stb-allowance"])]
                cells.append(" ".join([td.get_text(" ", strip=True), *(f"({e})" for e in extra if e)]))
            rows.append(cells)
        width = max([len(headers), *(len(r) for r in rows)])
        headers = headers + [""] * (width - len(headers))
        frame = pd.DataFrame([r + [""] * (width - len(r)) for r in rows], columns=range(width))
        frame.columns = headers
        return frame

    def bare_table(self, element: bs4.Tag) -> str:
        """A table outside the report's table frame: set the same way, without a number."""
        wrap = self.soup.new_tag("div")
        wrap.append(element.extract() if element.parent else element)
        return self.table(wrap)

    def figure(self, figure: bs4.Tag) -> str:
        """A numbered figure: its PDF (the file the page links), at its own width, with the page's caption."""
        caption = figure.find("figcaption")
        pdf = next((a["href"] for a in figure.find_all("a", href=True) if a["href"].endswith(".pdf")), None)
        if caption is None or pdf is None:
            return ""
        strong = caption.find("strong")
        number = strong.get_text().strip().rstrip(".").removeprefix("Figure ") if strong else ""
        if strong:
            strong.decompose()
        file = (self.path.parent / pdf).resolve()
        label = self.label(figure["id"]) if figure.get("id") else ""
        width = r"[width=\linewidth]" if "stb-full" in (figure.get("class") or []) else ""
        return (f"\\begin{{figure}}[htbp]\n\\centering\\stbnumber{{figure}}{{{number}}}\n"
                f"\\includegraphics{width}{{{file}}}\n\\caption{{{self.inline(caption).strip()}}}{label}\n"
                f"\\end{{figure}}\n\n")


def resolve(text: str, labels: set[str]) -> str:
    """Every link of the book made: to its label where the book defines it, else to the file it names, else its
    words alone."""
    def made(match: re.Match) -> str:
        target, file, words = match.groups()
        if target in labels:
            return rf"\hyperref[{target}]{{{words}}}"
        return rf"\href{{{_url(file)}}}{{{words}}}" if file else words

    return re.sub(f"{REF}([^{TO}]*){TO}([^{TEXT}]*){TEXT}(.*?){END}", made, text, flags=re.S)


def _url(address: str) -> str:
    """An address as hyperref's ``\\href`` takes it (its ``#`` and ``%`` escaped)."""
    return address.replace("\\", "/").replace("#", r"\#").replace("%", r"\%")


def _relative(target: Path, start: Path) -> str:
    """``target`` as a path relative to ``start`` (the PDF's folder), for a link that opens beside the PDF."""
    import os

    return os.path.relpath(target.resolve(), start.resolve())
