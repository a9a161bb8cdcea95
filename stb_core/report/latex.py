"""LaTeX for the write-up kit and the typeset report: text, tables and captions.

* :func:`text` -- any text the report writes, as LaTeX pdflatex can set: its special characters escaped, every
  character outside ASCII written as LaTeX (``≠`` as ``$\\neq$``, ``⁹`` as ``\\textsuperscript{9}``, ``é`` as
  ``\\'e``); a character with no LaTeX is refused, naming it, so that no document stops pdflatex;
* :func:`table` -- one table as a paper takes it (booktabs rules, numbers aligned on the decimal point by siunitx,
  text columns wrapped to the text width, the caption without a second number): a ``table`` float when it fits a
  page, a ``longtable`` with its head repeated when it fits :data:`LONG_PAGES` pages, else a printable summary of
  its first rows that says where the rest is;
* :func:`inline` -- a caption's Markdown-like text as LaTeX.

The documents' preamble and the compiler run are :mod:`stb_core.report.pdflatex`.

A table keeps the report's number (``Table 3.15``) through ``\\stbnumber``: a document that defines it (the kit's
``main.tex``, the report's PDF) numbers the table as the report does; one that does not numbers it as its own.
"""

from __future__ import annotations

import math
import re
import textwrap
import unicodedata
from dataclasses import dataclass

import pandas as pd

# -- text ------------------------------------------------------------------------------------------------------------
SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
           "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
           ">": r"\textgreater{}", "|": r"\textbar{}"}
SYMBOLS = {"–": "--", "—": "---", "−": "$-$", "×": r"$\times$", "÷": r"$\div$", "“": "``", "”": "''", "’": "'",
           "‘": "`", "„": ",,", "≤": r"$\leq$", "≥": r"$\geq$", "≠": r"$\neq$", "≈": r"$\approx$", "±": r"$\pm$",
           "∓": r"$\mp$", "∞": r"$\infty$", "∈": r"$\in$", "∉": r"$\notin$", "∅": r"$\varnothing$", "∑": r"$\sum$",
           "√": r"$\surd$", "→": r"$\rightarrow$", "←": r"$\leftarrow$", "↔": r"$\leftrightarrow$",
           "⇒": r"$\Rightarrow$", "↑": r"$\uparrow$", "↓": r"$\downarrow$", "·": r"$\cdot$", "•": r"\textbullet{}",
           "…": r"\ldots{}",
           "✓": r"$\checkmark$", "✔": r"$\checkmark$", "✗": r"$\times$", "✘": r"$\times$", "⚠": "!", "§": r"\S{}",
           "¶": r"\P{}", "°": r"\textdegree{}", "′": "$'$", "″": "$''$", "€": "EUR", "£": r"\pounds{}",
           "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "\u2002": r"\enspace{}", "\u2003": r"\quad{}",
           "\u200b": "", "\u00ad": r"\-", "\ufe0f": "", "ß": r"\ss{}", "æ": r"\ae{}", "ø": r"\o{}", "å": r"\aa{}",
           "½": r"$\frac{1}{2}$", "¼": r"$\frac{1}{4}$", "¾": r"$\frac{3}{4}$", "☐": r"$\square$", "□": r"$\square$",
           "■": r"$\blacksquare$", "▲": r"$\blacktriangle$", "▼": r"$\blacktriangledown$", "★": r"$\bigstar$"}
ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c", "\u030c": "v",
           "\u0304": "=", "\u0306": "u", "\u030a": "r"}
GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lamda", "mu", "nu",
         "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"}


class UnsetCharacter(ValueError):
    """A character pdflatex cannot set and :func:`text` has no LaTeX for."""


def text(value) -> str:
    """``value`` as LaTeX text: special characters escaped, each character outside ASCII written as LaTeX; a long
    word (an address, a file's path, a program's name) may break after each slash, underscore and inner dot, as
    after its hyphens."""
    written = "".join(SPECIAL.get(c) or (c if c.isascii() else character(c)) for c in str(value))
    return re.sub(r"\S{17,}", lambda m: re.sub(r"(/|\\_|\.(?=\w))", r"\1\\allowbreak{}", m.group(0)), written)


def character(char: str) -> str:
    """One character outside ASCII as LaTeX: the table of symbols, then Unicode's own decomposition (a letter and
    its accent, a superscript or subscript digit, a Greek letter); :class:`UnsetCharacter` when none applies."""
    if char in SYMBOLS:
        return SYMBOLS[char]
    decomposed = unicodedata.decomposition(char).split()
    if decomposed and decomposed[0] in ("<super>", "<sub>") and len(decomposed) == 2:
        inner = text(chr(int(decomposed[1], 16)))
        return rf"\textsuperscript{{{inner}}}" if decomposed[0] == "<super>" else rf"$_{{\mathrm{{{inner}}}}}$"
    parts = unicodedata.normalize("NFD", char)
    if len(parts) == 2 and parts[0].isascii() and parts[1] in ACCENTS:
        base = r"\i" if parts[0] == "i" else parts[0]
        return rf"\{ACCENTS[parts[1]]}{{{base}}}"
    name = unicodedata.name(char, "").split()
    if name[:2] == ["GREEK", "SMALL"] and name[-1].lower() in GREEK:
        return rf"$\{name[-1].lower().replace('lamda', 'lambda')}$"
    if name[:2] == ["GREEK", "CAPITAL"] and name[-1].lower() in GREEK:
        return rf"$\{name[-1].capitalize().replace('Lamda', 'Lambda')}$"
    raise UnsetCharacter(f"no LaTeX for the character {char!r} (U+{ord(char):04X} "
                         f"{unicodedata.name(char, 'unnamed')}): add it to stb_core.report.latex.SYMBOLS")


MATH = re.compile(r"(\$\$.+?\$\$|\$[^$\n]+?\$|\\\(.+?\\\))", re.S)


def prose(value: str) -> str:
    """Text that may hold math between ``$`` signs (as the pages' MathJax reads it): the math as written, the rest
    as :func:`text`."""
    parts = MATH.split(str(value))
    return "".join(part if i % 2 else text(part) for i, part in enumerate(parts))


def number_text(value) -> str:
    """A number as a kit's table cell: whole numbers as they are, others to four decimals at 1 or more, to six
    significant digits below (the CSV beside the table is exact); booleans as yes/no; missing as empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e15):
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) >= 1 else f"{value:.6g}"
    return str(value)


# -- tables ----------------------------------------------------------------------------------------------------------
TEXT_WIDTH_PT = 455.0  # A4 with 2.5 cm margins (PREAMBLE's geometry)
TEXT_HEIGHT_PT = 660.0  # its text height less a caption's and a head's room
LANDSCAPE_WIDTH_PT, LANDSCAPE_HEIGHT_PT = 700.0, 415.0  # the same page turned
FLOAT_PAGE = 0.6  # a table up to this much of a page is a float, a longer one a longtable (its estimate's margin)
LONG_PAGES = 5  # a table longer than a page is a longtable up to this many pages, else a printable summary
SUMMARY_ROWS = 20
COLUMN_SEP_PT = 4.0
SIZES = (("small", 5.0, 11.0), ("footnotesize", 4.45, 9.5), ("scriptsize", 3.8, 8.0))  # (size, pt a char, a line)
NATURAL_SHARE = 0.9  # columns set as wide as they are fill at most this much of the width (the estimate's margin)
NUMBER = re.compile(r"^([-+]?)(\d+)(?:\.(\d+))?(?:e([-+]?)(\d+))?$")
UNIT = re.compile(r"^(.*?\d)\s?(%|pp|points|s)$")


def breadth(words: str) -> float:
    """How wide text sets, in average characters: capitals and wide letters count more, narrow ones less."""
    return sum(1.4 if c.isupper() or c in "mw%" else 0.55 if c in "iljtf.,;:'| " else 1.0 for c in words)


def _pieces(word: str) -> list[str]:
    """A word as the pieces a line may break it into: after its hyphens, and in a long word (as :func:`text` writes
    it) after each slash, underscore and inner dot."""
    return re.split(r"(?<=[-/_.])", word) if len(word) >= 17 else re.split(r"(?<=-)", word)


@dataclass
class Column:
    """One column as set: its header, its cells (as text), whether it is a column of numbers, and its unit."""

    header: str
    cells: list[str]
    numeric: bool = False
    unit: str = ""

    @classmethod
    def of(cls, header: str, cells: list[str]) -> Column:
        """A column read from its cells: numbers (``1234``, ``-0.25``, ``1.5e-07``; ``1,234`` and ``−3`` as the pages
        write them; with one unit after each: ``12.5%``, ``+0.3 pp``) when every cell that is not empty is one."""
        plain = [c.replace(",", "").replace("\u2009", "").replace("\u202f", "").replace("−", "-").strip()
                 for c in cells]
        filled = [c for c in plain if c]
        if not filled:
            return cls(header, cells)
        if all(NUMBER.match(c) for c in filled):
            return cls(header, plain, True)
        units = {m.group(2) if m else None for m in map(UNIT.match, filled)}
        if len(units) == 1 and None not in units:
            bare = [UNIT.match(c).group(1) if c else "" for c in plain]
            if all(NUMBER.match(c) for c in bare if c):
                return cls(header, bare, True, units.pop())
        return cls(header, cells)

    def format(self) -> str:
        """siunitx's ``table-format`` for the column: sign, integer digits, decimals, exponent."""
        parsed = [NUMBER.match(c) for c in self.cells if c]
        if not parsed:
            return "1"
        sign = "-" if any(m.group(1) for m in parsed) else ""
        whole = max(len(m.group(2)) for m in parsed)
        decimals = max(len(m.group(3) or "") for m in parsed)
        spec = f"{sign}{whole}" + (f".{decimals}" if decimals else "")
        if any(m.group(5) for m in parsed):
            spec += f"e{'-' if any(m.group(4) == '-' for m in parsed if m.group(5)) else ''}" + \
                    str(max(len(m.group(5) or "") for m in parsed))
        return spec

    def title(self) -> str:
        return f"{self.header} ({self.unit})" if self.unit else self.header

    def natural(self) -> float:
        """Characters of the widest cell (a number's digits with siunitx's digit groups), or of its header set in
        lines of at most eight characters (or its longest word), whichever is wider."""
        if self.numeric:
            cells = max((len(c) + len(re.sub(r"\D", "", c.split(".")[0])) // 3 // 2 for c in self.cells if c),
                        default=1)
        else:
            cells = max((breadth(c) for c in self.cells), default=1)
        words = self.title().split()
        return max(cells, max((breadth(w) for w in words), default=1), min(breadth(self.title()), 8))

    def narrowest(self) -> float:
        """Characters of the longest word, the narrowest a text column can wrap to (a long word breaks where
        :func:`text` lets it)."""
        return self.natural() if self.numeric else max(
            (breadth(piece) for c in [*self.cells, self.title()] for w in c.split() for piece in _pieces(w)),
            default=1)


@dataclass
class Layout:
    """How a table is set: the font size, each column's width in points (None: as wide as its widest cell) and
    the header's lines, and the rows' estimated height."""

    size: str
    widths: list[float | None]
    headers: list[str]
    height: float


def layout(columns: list[Column], width: float = TEXT_WIDTH_PT) -> Layout | None:
    """The first font size at which the columns fit ``width``: numbers and short text as wide as they are; when
    they would fill more than :data:`NATURAL_SHARE` of it, the long text columns wrap, sharing what is left (none
    narrower than its longest word); None when no size fits."""
    for size, char, line in SIZES:
        room = width - 2 * COLUMN_SEP_PT * len(columns)
        natural = [c.natural() * char for c in columns]
        widths: list[float | None] | None = [None] * len(columns)
        if sum(natural) > NATURAL_SHARE * room:
            widths = _wrapped(columns, natural, NATURAL_SHARE * room, char)
        if widths is None:
            continue
        headers = [_header_lines(c, w) for c, w in zip(columns, widths, strict=True)]
        rows = [max(1, *(math.ceil(len(cell) * char / w) if w else 1 for cell, w in zip(cells, widths, strict=True)))
                for cells in zip(*(c.cells for c in columns), strict=True)]
        height = line * (sum(rows) + max(h.count(r"\\") + 1 for h in headers) + 1)
        return Layout(size, widths, headers, height)
    return None


def _wrapped(columns, natural, room, char) -> list[float | None] | None:
    """Estimated widths of the columns that wrap: numbers and the narrower text as wide as they are; the wider text
    columns share the rest, the narrow ones first (each at most its natural width); None when a wrapped column would
    be narrower than its longest word."""
    text_columns = sorted((i for i, c in enumerate(columns) if not c.numeric), key=lambda i: natural[i])
    left = room - sum(n for n, c in zip(natural, columns, strict=True) if c.numeric)
    widths: list[float | None] = [None] * len(columns)
    for k, i in enumerate(text_columns):
        share = left / (len(text_columns) - k)
        if natural[i] <= min(share, room / 4):  # a wide one wraps even where it would fit: the estimate's margin
            left -= natural[i]
            continue
        if columns[i].narrowest() * char > share:
            return None
        widths[i] = share
        left -= share
    return widths if any(w is not None for w in widths) else None


def _header_lines(column: Column, width: float | None) -> str:
    """The header, in lines no wider than its column's cells (a wrapped column wraps its header itself)."""
    words = text(column.title())
    if width is not None:
        return words
    lines = textwrap.wrap(column.title(), max(1, round(column.natural())), break_long_words=False) or [""]
    if len(lines) == 1:
        return words
    align = "r" if column.numeric else "l"
    return rf"\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}" + r" \\ ".join(text(x) for x in lines) + r"\end{tabular}"


def _spec(column: Column, width: float | None, mean: float) -> str:
    """A column's specification: siunitx's ``S`` for numbers, tabularx's ``X`` (its share of the width) for text
    that wraps, ``l`` for the rest."""
    if column.numeric:
        return f"S[table-format={column.format()},group-digits=integer]"
    if width is not None:
        return rf">{{\raggedright\arraybackslash\hsize={width / mean:.2f}\hsize}}X"
    return "l"


@dataclass
class Typeset:
    """A table set for print: its LaTeX, how it is set (``table``, ``longtable`` or ``summary``), the rows shown."""

    latex: str
    kind: str
    rows: int


PAGES = (("portrait", TEXT_WIDTH_PT, TEXT_HEIGHT_PT), ("landscape", LANDSCAPE_WIDTH_PT, LANDSCAPE_HEIGHT_PT))


def table(frame: pd.DataFrame, caption: str, label: str, *, number: str = "", note: str = "", rest: str = "",
          cell=prose, foot: str = "") -> Typeset:
    """``frame`` (its cells as text, its columns the headers) set for print: see the module docstring. ``number``
    is the report's (``3.15``); ``note`` (text) and ``foot`` (LaTeX) follow the table; ``rest`` says where every
    row is, for a table too long to print whole (the kit's CSV); ``cell`` writes a text cell as LaTeX."""
    columns = [Column.of(str(h), [str(v) for v in frame.iloc[:, i]]) for i, h in enumerate(frame.columns)]
    columns, fitted, page, height, dropped = fit(columns)
    notes = [note] if note else []
    if dropped:
        notes.append(f"Not printed, too wide for the page: {', '.join(dropped)} ({rest or 'see the CSV'}).")
    summary = fitted.height / height > LONG_PAGES
    shown = SUMMARY_ROWS if summary else len(frame)
    if summary:
        notes.insert(0, f"The first {shown:,} of {len(frame):,} rows; {rest or 'the CSV holds them all'}.")
        columns = [Column(c.header, c.cells[:shown], c.numeric, c.unit) for c in columns]
        fitted = layout(columns, dict((p, w) for p, w, _ in PAGES)[page]) or fitted
    long = fitted.height / height > FLOAT_PAGE
    body = _tabular(columns, fitted, cell, caption if long else None, label)
    size = rf"\{fitted.size}\setlength{{\tabcolsep}}{{{COLUMN_SEP_PT:g}pt}}" + \
        (rf"\stbnumber{{table}}{{{number}}}" if number else "")
    below = " ".join([*(prose(n) for n in notes), foot]).strip()
    foot = rf"\par\smallskip{{\footnotesize {below}\par}}" + "\n" if below else ""
    if long:  # in the flow of the text: the floats before it are set first, so that tables keep their order
        barrier = "\\ifdefined\\FloatBarrier\\FloatBarrier\\fi\n"
        inner = barrier + "\\begingroup" + size + "\n" + body + foot + "\\endgroup\n"
    else:
        inner = (f"\\begin{{table}}[htbp]\n\\centering{size}\n\\caption{{{caption}}}\\label{{{label}}}\n"
                 f"{body}{foot}\\end{{table}}\n")
    continued = "\\caption[]{(continued)} \\\\\n"  # a longtable's head on the pages after its first
    inner = re.sub(r"\\caption\[\]\{.*\} \\\\\n", lambda _: continued, inner, count=1)
    if not number:  # a table its page does not number (a verdict box's): no number in print either
        inner = inner.replace("\\caption{", "\\caption*{", 1).replace("\\caption[]{", "\\caption*{", 1)
    if page == "landscape":  # a page of its own, turned (pdflscape: turned in the viewer too)
        inner = f"\\begin{{landscape}}\n{inner}\\end{{landscape}}\n"
    kind = "summary" if summary else "longtable" if long else "table"
    head = "\\providecommand{\\stbnumber}[2]{}% the report's number, where the document keeps it\n"
    return Typeset(head + inner, kind, shown)


def fit(columns: list[Column]) -> tuple[list[Column], Layout, str, float, list[str]]:
    """The columns as they fit: on a portrait page, else a landscape one, else without their last columns (named);
    with the layout, the page's orientation and text height, and the columns left out."""
    dropped: list[str] = []
    while True:
        for page, width, height in PAGES:
            fitted = layout(columns, width)
            if fitted is not None:
                return columns, fitted, page, height, dropped
        if len(columns) == 1:
            raise ValueError(f"a column too wide for a page: {columns[0].header}")
        dropped.insert(0, columns[-1].header)
        columns = columns[:-1]


def _tabular(columns: list[Column], fitted: Layout, cell, caption: str | None, label: str) -> str:
    """The tabular (or, with a caption, the longtable) by pandas' Styler: booktabs rules, siunitx columns (a number
    cell as it is, an empty one braced; a text cell by ``cell``)."""
    shown = pd.DataFrame({i: [(v or "{}") if c.numeric else cell(v) for v in c.cells] for i, c in enumerate(columns)})
    shown.columns = fitted.headers
    wrapped = [w for w in fitted.widths if w is not None]
    mean = sum(wrapped) / len(wrapped) if wrapped else 1.0
    spec = "".join(_spec(c, w, mean) for c, w in zip(columns, fitted.widths, strict=True))
    styler = shown.style.hide(axis="index").format(lambda v: v, escape=None)
    options = dict(column_format=spec, hrules=True, siunitx=True)
    if caption is not None:
        body = styler.to_latex(environment="longtable", caption=caption, label=label, **options)
        return body.replace(r"\begin{longtable}{", r"\begin{xltabular}{\linewidth}{", 1).replace(
            r"\end{longtable}", r"\end{xltabular}") if wrapped else body
    body = styler.to_latex(**options)
    return body.replace(r"\begin{tabular}{", r"\begin{tabularx}{\linewidth}{", 1).replace(
        r"\end{tabular}" + "\n", r"\end{tabularx}" + "\n") if wrapped else body


# -- captions --------------------------------------------------------------------------------------------------------
def inline(source: str) -> str:
    """A caption's Markdown-like text (``**bold**``, ``*em*``, `` `code` ``, ``[text](link)``, ``$math$``) as LaTeX,
    as :func:`stb_core.report.present.prose_inline` reads it for the page."""
    parts = MATH.split(str(source))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)
            continue
        part = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", "\x01\\1\x02", part)  # links: their words (the page's anchors)
        part = text(part)
        part = re.sub(r"`([^`]+)`", r"\\texttt{\1}", part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"\\textbf{\1}", part)
        part = re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])", r"\\emph{\1}", part)
        out.append(part.replace("\x01", "").replace("\x02", ""))
    return "".join(out)
