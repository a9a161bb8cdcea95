"""The page linter: what a careful reader would mark in red on a rendered page, found mechanically.

A page's prose, captions and table cells are read from its HTML (code cells, scripts and styles left out) and
checked for the kinds of defect the reruns review found (issue 29):

* ``negative-zero`` -- a number that rounds to zero printed with a minus sign (``−0.00``);
* ``zero-difference`` -- a gap printed as zero and called a difference (``0.000 pp more``): a real gap too small
  for the digits reads ``<0.001 pp``, an equality "the same";
* ``equal-comparison`` -- two figures compared that are equal as printed (``4.32% against 4.32%``, ``7.1% more
  than 7.1%``): a comparison must print enough digits to show its order, or say "the same";
* ``number-noun`` -- a count and its noun that disagree (``1 weighted winning sequences``, ``3 board``, ``no
  pair have``);
* ``leftover`` -- a value that escaped formatting (``nan``, ``None``, ``inf``, ``{tiles}``) or a float where an exact
  value belongs (``0.9999999999999999``);
* ``absent-file`` -- a file the prose names, or a link or image the page points to, that the run did not write;
* ``caption-count`` -- a caption counting rows ("six rules") that its table does not have;
* ``duplicate-rows`` -- a table with two rows that read exactly alike;
* with the run's rules (read from the record it wrote): ``shut-box`` -- "shut the box" where winning is not shutting
  every tile; ``tile-name`` -- a tile named by a number the board does not name it by (tile 15 on a Double Shutter);
* ``printed-warning`` -- a warning or error a notebook printed (its stderr), shown on the page;
* and in a run's CSV tables, ``inexact-float``: a float cell that is an exact value's rounding error.

:func:`lint_page` checks one page (and the tables it links), :func:`lint_text` one sentence; ``python -m
stb_core.report.lint report/`` lints every page of a built report and exits 1 when any problem is found.
"""

from __future__ import annotations

import csv
import html
import re
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12}
NOUNS = ("board", "pair", "tile", "move", "game", "row", "state", "decision", "player", "seat", "card", "line",
         "exception", "group", "strategy", "sequence", "roll", "rule", "variant", "claim", "figure", "write-up",
         "chapter", "turn", "round", "die")
PLURAL = {"strategy": "strategies", "die": "dice"}
# words that may stand between a count and its noun ("1 weighted winning sequence", "3 open tiles")
ADJECTIVE = r"(?:[a-z]+(?:ed|ing|al|ive|ble|ent|ant)|open|shut|more|legal|best|worst|other|exact|equal|distinct|" \
            r"possible|different|whole|same|new|further|printed|published|simulated)"
TABLE_NOUNS = ("rules", "variants", "heuristics", "players", "rows", "strategies", "objectives", "policies", "seats",
               "boards", "write-ups", "claims")
NUMBER = r"[−+]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|pp\b|percentage points))?"
SKIPPED = {"script", "style", "pre", "code", "svg", "math", "annotation", "nav"}  # nav: the other pages' titles
SKIPPED_CLASSES = ("jp-InputArea", "jp-InputPrompt", "jp-OutputPrompt", "MathJax", "katex")
STDERR = re.compile(r'data-mime-type="application/vnd\.jupyter\.stderr"[^>]*>\s*<pre>(.*?)</pre>', re.S)
FILE_NAME = re.compile(r"(?<![\w/.-])([A-Za-z0-9_][\w-]*\.(?:csv|json|png|svg|pdf|ipynb))\b")
VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "area", "base", "col", "embed", "param",
        "track"}


@dataclass(frozen=True)
class Problem:
    """One defect: its kind, where it is (the page and a short context) and what was found."""

    kind: str
    where: str
    found: str

    def __str__(self) -> str:
        return f"{self.where}: {self.kind}: {self.found}"


# -- sentences ------------------------------------------------------------------------------------------------
def _plural(noun: str) -> str:
    return PLURAL.get(noun, noun + "s")


def _as_printed(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("-", "−")).strip()


# lower case only: "Shut the Box" is the game's name
SHUT_WORDS = re.compile(r"\b(?:shut(?:s|ting)? the box|box (?:is|was|can be|gets) shut|shut box)\b")
QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")  # a source's own words, quoted: not the run's claim
QUOTED_TABLES = ("stb-claims", "stb-quoted")  # tables of the sources' claims, in their words, of their own games
AGREEMENT_VERBS = r"have|offer|make|give|lose|win|need|play|reach|leave|take|show|allow|fit|differ"  # not past tenses


def lint_run_text(text: str, rules, where: str = "") -> list[Problem]:
    """The defects of a sentence that only the run's rules show: "shut the box" where winning is not shutting every
    tile (``shut-box``); a tile named by its position where the board names it otherwise (``tile-name``: no tile 15
    on a Double Shutter of 8, whose back tiles are b1 to b8)."""
    problems = []
    own = QUOTED.sub("", text)
    if rules.win_at_most > 0 and "threshold" not in own:  # a sentence that says what a threshold changes is true
        problems += [Problem("shut-box", where, m.group(0)) for m in SHUT_WORDS.finditer(own)]
    if rules.layout == "double-shutter":
        for m in re.finditer(r"\btiles? (\d+)\b(?![.,]\d|\s*%|\s*[–-])", own):
            if int(m.group(1)) > rules.tiles:
                problems.append(Problem("tile-name", where, own[max(0, m.start() - 20):m.end() + 10]))
    return problems


def _comparisons(text: str):
    """Each comparison of two printed figures: ``a against b``, and ``a ... more than b`` or ``a ... less than the
    rule (b)``, ``a`` the last figure before the comparing words (in the same clause, at most 60 characters back);
    as (a, b, start, end)."""
    for m in re.finditer(rf"({NUMBER}) (?:against|versus|vs\.?|compared with) ({NUMBER})", text):
        yield m.group(1), m.group(2), m.start(), m.end()
    than = r"\b(?:more|less|higher|lower|better|worse|fewer|greater|smaller) than "
    for m in re.finditer(rf"{than}(?:({NUMBER})|[^.;()\d]{{1,60}}\(({NUMBER})\))", text):
        clause = re.split(r"[;()]|\.(?!\d)", text[max(0, m.start() - 60):m.start()])[-1]
        before = [n for n in re.finditer(NUMBER, clause)  # a difference ("0.2 pp more than") is not a side
                  if not re.match(r"\s*(?:pp\b|percentage points|points)", clause[n.end():]) and "pp" not in n.group(0)]
        if before:
            yield before[-1].group(0), m.group(1) or m.group(2), m.start() - len(clause) + before[-1].start(), m.end()


def lint_text(text: str, where: str = "", rules=None) -> list[Problem]:
    """The defects of one piece of prose, a caption or a table cell (with the run's ``rules``, those only they show
    too: :func:`lint_run_text`)."""
    problems = [] if rules is None else lint_run_text(text, rules, where)

    def found(kind: str, match: str) -> None:
        problems.append(Problem(kind, where, match))

    for m in re.finditer(r"(?<![\w.,/])[−-]0(?:[.,]0+)?(?![.,]?\d)", text):
        found("negative-zero", text[max(0, m.start() - 30):m.end() + 10])
    for first, second, at, end in _comparisons(text):
        said_equal = re.search(r"\b(same|equal|as much as|as many as|exactly as|tie|tied)\b", text[max(0, at - 80):at])
        if _as_printed(first) == _as_printed(second) and not said_equal:
            found("equal-comparison", text[at:end])
    nouns = "|".join(map(re.escape, NOUNS))
    plurals = "|".join(re.escape(_plural(n)) for n in NOUNS)
    for m in re.finditer(rf"(?<![\d.,/−-])\b1 (?:{ADJECTIVE} ){{0,2}}({plurals})\b", text):
        found("number-noun", m.group(0))
    counts = r"[02-9]|\d{2,}|" + "|".join(w for w, n in NUMBER_WORDS.items() if n > 1)
    head_noun = r"(?! (?!is\b|was\b|has\b|does\b)[a-z]+s\b)"  # "3 board states": board is not the noun counted
    for m in re.finditer(rf"(?<![\d.,/−-])\b({counts}) (?:{ADJECTIVE} ){{0,2}}({nouns})\b(?![-\w’']){head_noun}",
                         re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)):  # 1,234 boards; not "= 2, board = ..."
        found("number-noun", m.group(0))
    for m in re.finditer(rf"\b(?:[Nn]o|[Ee]ach|[Ee]very|[Oo]ne|1) (?:[a-z]+ )?(?:\([^)]*\) )?(?:{nouns}) "
                         rf"(?:{AGREEMENT_VERBS})\b(?!-)", text):
        found("number-noun", m.group(0))
    for m in re.finditer(r"(?<![\w-])(nan|NaN|None(?! of\b)|-?inf)(?![\w-])|\{[a-z_]+\}", text):  # "None of": words
        found("leftover", text[max(0, m.start() - 30):m.end() + 10])
    for m in re.finditer(r"\d\.\d*?(?:9{13,}|0{13,}[1-9])\d*", text):
        found("leftover", m.group(0))
    zero = r"(?<![\d.,<>])[−+]?0(?:\.0+)?(?:\s?(?:%|pp\b|percentage points|points?))?"
    for m in re.finditer(rf"{zero}(?: \([a-z ]+\))? (?:more|less|higher|lower|better|worse)(?=[.,;:)—]|\s+than\b|\s*$)",
                         text):
        found("zero-difference", text[max(0, m.start() - 30):m.end()])  # a real gap printed as none
    for m in re.finditer(r"\btiles 1[–-]1\b(?![\d–-])", text):  # a one-tile board is "tile 1"
        found("number-noun", m.group(0))
    return problems


# -- a page ---------------------------------------------------------------------------------------------------
@dataclass
class _Table:
    caption: str = ""
    rows: list = None
    row: list = None
    cell: list = None
    in_head: bool = False
    head: list = None
    quoted: bool = False  # a table of the sources' claims: their words, not the run's


class _Reader(HTMLParser):
    """A page's prose (paragraphs and list items), its tables (caption, header, body rows) and its local links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0  # depth inside an element left out
        self.stack: list[tuple[str, bool]] = []
        self.prose: list[str] = []
        self.cited: set[int] = set()  # prose paragraphs holding an external link (a citation names its own files)
        self.paragraph: list[str] | None = None
        self.tables: list[_Table] = []
        self.table: _Table | None = None
        self.in_caption = False
        self.links: list[str] = []
        self.titles: set[int] = set()  # prose entries that are the page's title (a name, not a claim)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skipped = tag in SKIPPED or any(c in (attrs.get("class") or "") for c in SKIPPED_CLASSES)
        if tag not in VOID:
            self.stack.append((tag, skipped))
            self.skip += skipped
        for name in ("href", "src"):
            if attrs.get(name) and tag in ("a", "img", "source"):
                self.links.append(attrs[name])
                if urlsplit(attrs[name]).scheme in ("http", "https") and self.paragraph is not None:
                    self.cited.add(len(self.prose))
        if self.skip:
            return
        if tag in ("p", "li", "dd", "dt", "figcaption", "h1", "h2", "h3", "h4", "summary") and self.table is None:
            self._flush()
            self.paragraph = []
            if tag == "h1":
                self.titles.add(len(self.prose))
        elif tag == "table":
            self.table = _Table(rows=[], head=[], quoted=any(c in (attrs.get("class") or "") for c in QUOTED_TABLES))
        elif self.table is not None:
            if tag == "caption":
                self.in_caption = True
            elif tag == "thead":
                self.table.in_head = True
            elif tag == "tr":
                self.table.row = []
            elif tag in ("td", "th"):
                self.table.cell = []
        elif tag == "br" and self.paragraph is not None:
            self.paragraph.append(" ")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            open_tag, skipped = self.stack.pop()
            self.skip -= skipped
            if open_tag == tag:
                break
        if self.skip:
            return
        if tag in ("p", "li", "dd", "dt", "figcaption", "h1", "h2", "h3", "h4", "summary"):
            self._flush()
        elif self.table is not None:
            table = self.table
            if tag == "caption":
                self.in_caption = False
            elif tag == "thead":
                table.in_head = False
            elif tag in ("td", "th") and table.cell is not None and table.row is not None:
                table.row.append(re.sub(r"\s+", " ", "".join(table.cell)).strip())
                table.cell = None
            elif tag == "tr" and table.row is not None:
                (table.head if table.in_head else table.rows).append(table.row)
                table.row = None
            elif tag == "table":
                self.tables.append(table)
                self.table = None

    def handle_data(self, data):
        if self.skip:
            return
        if self.table is not None:
            if self.in_caption:
                self.table.caption += data
            elif self.table.cell is not None:
                self.table.cell.append(data)
        elif self.paragraph is not None:
            self.paragraph.append(data)

    def _flush(self):
        if self.paragraph is not None:
            text = re.sub(r"\s+", " ", "".join(self.paragraph)).strip()
            if text:
                self.prose.append(text)
        self.paragraph = None


def _context(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def lint_tables(tables: list[_Table], where: str, rules=None) -> list[Problem]:
    """Caption counts against rows, duplicate rows and each cell's text (with the run's rules, if known)."""
    problems = []
    for table in tables:
        caption = re.sub(r"\s+", " ", table.caption).strip()
        label = _context(caption) or "a table"
        run = None if table.quoted else rules  # the sources' claims are in their own words, of their own games
        problems += lint_text(caption, f"{where}, caption {label!r}", run)
        columns = max((len(r) for r in table.head + table.rows), default=0)
        words = "|".join(NUMBER_WORDS)
        for m in re.finditer(rf"\b({words}) (?:{ADJECTIVE} )?({'|'.join(map(re.escape, TABLE_NOUNS))})\b",
                             caption.lower()):
            n = NUMBER_WORDS[m.group(1)]
            if n not in (len(table.rows), columns, columns - 1) and not re.search(r"\bfirst \d", caption):
                problems.append(Problem("caption-count", f"{where}, {label!r}",
                                        f"{m.group(0)!r} over {len(table.rows)} rows and {columns} columns"))
        seen = set()
        for row in table.rows:
            key = tuple(row)
            if key in seen and any(row):
                problems.append(Problem("duplicate-rows", f"{where}, {label!r}", " | ".join(row)))
            seen.add(key)
            for cell in row:
                problems += lint_text(cell, f"{where}, {label!r}", run)
    return problems


def lint_links(page: Path, links: list[str]) -> list[Problem]:
    """Every local link and image of ``page`` points to a file that exists."""
    problems = []
    for link in dict.fromkeys(links):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        target = (page.parent / unquote(parts.path)).resolve()
        if not target.exists():
            problems.append(Problem("absent-file", page.name, f"link to {link}"))
    return problems


def lint_csv(path: Path) -> list[Problem]:
    """Float cells of a CSV table that are an exact value's rounding error (``0.9999999999999999``)."""
    problems = []
    with open(path, encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle), 1):
            for cell in row:
                if re.fullmatch(r"-?\d+\.\d*?(?:9{13,}\d?|0{13,}[1-9]\d?)", cell):
                    problems.append(Problem("inexact-float", f"{path.parent.name}/{path.name}, line {number}", cell))
    return problems


def run_rules(page: Path):
    """The rules of the run a page shows, from the record its run wrote beside the report (``data/<run>/
    checks.json``), or None (an appendix, the index)."""
    import json

    from .parameters import rules_value

    root = page.parent.parent if page.parent.name == "runs" else page.parent
    record = root / "data" / page.stem / "checks.json"
    if not record.exists():
        return None
    return rules_value(json.loads(record.read_text(encoding="utf-8")).get("parameters", {}))


def lint_page(page: Path) -> list[Problem]:
    """Every defect of one rendered page: its prose, captions and cells (with the run's rules: what only they show,
    :func:`lint_run_text`), the files it names or links, and the CSV tables it links."""
    rules = run_rules(page)
    reader = _Reader()
    source = page.read_text(encoding="utf-8")
    reader.feed(source)
    reader._flush()
    where = page.name
    problems = [Problem("printed-warning", where, " ".join(html.unescape(m.group(1)).split())[:160])
                for m in STDERR.finditer(source)]
    local = {Path(unquote(urlsplit(link).path)).name for link in reader.links if not urlsplit(link).scheme}
    for at, text in enumerate(reader.prose):
        problems += lint_text(text, f"{where}: {_context(text)!r}", None if at in reader.titles else rules)
        for name in [] if at in reader.cited else FILE_NAME.findall(text):
            if name not in local:
                problems.append(Problem("absent-file", f"{where}: {_context(text)!r}", f"{name} is named but not "
                                                                                       f"linked from the page"))
    problems += lint_tables(reader.tables, where, rules)
    problems += lint_links(page, reader.links)
    for link in dict.fromkeys(reader.links):
        target = page.parent / unquote(urlsplit(link).path)
        if target.suffix == ".csv" and not urlsplit(link).scheme and target.exists():
            problems += lint_csv(target)
    return problems


def lint_report(folder: Path) -> list[Problem]:
    """Every page of a built report: its chapters, appendices and reruns."""
    pages = sorted(folder.glob("*.html")) + sorted((folder / "runs").glob("*.html"))
    return [problem for page in pages for problem in lint_page(page)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "report")
    targets = [folder] if folder.is_file() else None
    problems = lint_page(folder) if targets else lint_report(folder)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
