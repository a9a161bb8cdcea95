"""The page a notebook builds: its checked parameters and rules, its tables, figures and findings, its checks.

A notebook's first code cell is ``page = Page("<stem>", globals())``: it checks the parameters the kernel was
given against the notebook's declared domain (:mod:`stb_core.report.parameters`; an injected unknown name such
as ``tilez`` is refused), names the run after the parameters that differ from the defaults, and sets the
figures' look. Then, in the notebook's sections:

* ``page.table(df, caption, name, columns=..., formats=...)`` saves ``data/<run>/<name>.csv`` and shows it;
* ``page.figure(fig, name, caption, alt)`` saves ``figures/<run>/<name>.{png,svg,pdf}`` and shows it;
* ``page.state(finding)`` shows a :class:`~stb_core.sources.findings.Finding` -- a sentence built by the chapter's
  module in :mod:`stb_core.sources` from the run's own tables, with the facts it states -- and keeps it for
  ``data/<run>/findings.json``; figure captions and alt texts that state a result are findings too;
* ``page.say(text)`` shows prose that states no result (a question, a method, a pointer);
* ``page.checks`` collects the reproduction checks, ``page.finish(headline)`` shows them, writes the run's
  record for the index and its findings file, and raises if the engine disagrees with a claim the notebook
  reproduces.
"""

from __future__ import annotations

import ast
import html
import json
import os
import time
import types
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import HTML, display

from ..rules import OPTIONS, Rules
from ..sources.findings import Finding, findings_json
from . import dictionary, present, style
from .catalogue import chapter, sources
from .checks import Checks, brief_reference, write_record
from .exports import save_figure, save_table
from .parameters import ParameterError, domain
from .parameters import rules_value as rules_of  # the one Rules a run's parameters make
from .paths import NOTEBOOK_DIR, data_dir, figure_dir, write_text
from .run_names import run_name

_IPYTHON_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}
_PARAMETER_TYPES = (bool, int, float, str, type(None), list, tuple, dict)
LONG_TABLE = 40  # a table asked to be shown whole is shown whole up to this many rows, else previewed
PREVIEW_ROWS = 25


def _execution_count() -> int | None:
    """The running cell's number in an interactive kernel (``None`` outside IPython)."""
    from IPython import get_ipython

    shell = get_ipython()
    return None if shell is None else shell.execution_count


def _notebook(stem: str) -> dict:
    return json.loads((NOTEBOOK_DIR / f"{stem}.ipynb").read_text(encoding="utf-8"))


def notebook_defaults(stem: str) -> dict:
    """The notebook's default parameters: its declared parameters' defaults, which its ``parameters`` cell is made
    from (:mod:`stb_core.report.cells`)."""
    return domain(stem).defaults


def notebook_names(stem: str) -> set[str]:
    """Every global name the notebook's own code cells bind (assignments, loops, imports, definitions); the cell
    papermill injects is not the notebook's own. A name it binds is not an injected parameter, so a notebook run
    once and then rerun in the same kernel (JupyterLab: edit ``tiles = 8``, run all again) is not refused."""
    names: set[str] = set()
    for cell in _notebook(stem)["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code" or "injected-parameters" in tags:
            continue
        code = "".join(line for line in "".join(cell["source"]).splitlines(keepends=True)
                       if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
    return names


def injected_names(namespace: dict, declared) -> list[str]:
    """Plain-data names in the notebook's globals that are neither declared parameters nor bound by the notebook's
    own code (``-p tilez 10``)."""
    found = []
    for name, value in namespace.items():
        if name.startswith("_") or name in _IPYTHON_NAMES or name.isupper() or name in declared:
            continue
        if isinstance(value, types.ModuleType | type) or callable(value):
            continue
        if isinstance(value, _PARAMETER_TYPES):
            found.append(name)
    return sorted(found)


def printed_columns(shown: pd.DataFrame, exported: pd.DataFrame, columns: dict | None,
                    printed: dict | None = None) -> dict | None:
    """The columns of ``exported`` the write-up kit prints, with their headers (None: every column, as named):
    ``printed`` where given, else those the page shows under its ``columns`` headers -- and every column under
    its CSV name when the page shows the table in another shape (pivoted: the CSV holds columns the page's table
    does not, and the page's headers name the pivot's columns)."""
    if printed:
        return printed
    if not set(exported.columns) <= set(shown.columns):
        return None
    return columns


class Page:
    """One run of one notebook: see the module docstring."""

    def __init__(self, stem: str, namespace: dict):
        self.stem = stem
        self.chapter = chapter(stem)
        self.domain = domain(stem)
        self.defaults = notebook_defaults(stem)
        extra = injected_names(namespace, set(self.domain.names) | notebook_names(stem))
        if extra:
            raise ParameterError(f"unknown parameter {extra[0]!r}; this notebook's parameters are: "
                                 f"{', '.join(self.domain.names)}")
        self.values = self.domain.check({name: namespace[name] for name in self.domain.names})
        self.run = run_name(stem, self.values, self.defaults)
        self.default = self.run == stem
        self.checks = Checks(stem)
        self.findings: list[Finding] = []
        self._rules = rules_of(self.values)
        self.written: list[tuple[str, str]] = []  # (kind, relative href) of every file this run wrote
        self.shown_tables = 0
        self.shown_figures = 0
        self.schemas: dict[str, dict] = {}  # each exported table's columns: type, meaning, unit (datapackage.json)
        self.captions: list[dict] = []  # each figure: number, files, caption, alt (figures/<run>/captions.json)
        self._progress = None  # (cell, start, display handle) of the interactive progress line
        style.apply()

    # -- parameters and rules --------------------------------------------------------------------------
    def rules(self) -> Rules:
        """The one ``Rules`` value made of this run's rule parameters (:func:`rules_of`): every library call of the
        page takes it, or what the engine derives from it."""
        return self._rules

    def is_source_game(self, *only: str) -> bool:
        """Whether this run plays its chapter's source game: the rules of the notebook's default parameters (each
        chapter's defaults are its source's game), compared on every rule option -- or only on the options named
        in ``only`` (chapter 6 quotes the sources' games on the run's dice alone, each on its own board). An option
        that changes nothing under the others (:meth:`Rules.inert`: a forced die with no one-die rule) is no
        change."""
        source, played = rules_of(self.defaults).effective, self._rules.effective
        return all(getattr(played, name) == getattr(source, name) for name in (only or OPTIONS))

    def parameters(self, rules: Rules | None = None) -> None:
        """Show this run's parameters (so a reader of the HTML sees them with the code hidden)."""
        rows, inert = [], self._rules.inert()
        for parameter in self.domain.parameters:
            value, default = self.values[parameter.name], self.defaults.get(parameter.name)
            shown = parameter.read(value)
            if value != default:
                shown += f" (default {parameter.read(default).split(':')[0]})"
            if parameter.name in inert:
                shown += f"; no effect on this run's own game: {inert[parameter.name]}"
            rows.append({"parameter": parameter.name.replace("_", " "), "value": shown, "meaning": parameter.help})
        caption = "The parameters of this run" + (f"; the rules they make: {rules.describe()}" if rules else "")
        self.table(pd.DataFrame(rows), caption, None, columns={"parameter": "parameter", "value": "value",
                                                                 "meaning": "meaning"})

    # -- what a page shows -------------------------------------------------------------------------------
    def href(self, relative: str) -> str:
        """A link from this run's page to a file of the report (the default pages sit one folder up)."""
        return relative if self.default else f"../{relative}"

    def table(self, table: pd.DataFrame, caption: str, name: str | None, *, columns: dict | None = None,
              formats: dict | None = None, max_rows: int | None = 25, note: str | None = None,
              export: pd.DataFrame | None = None, show: bool = True, cards: bool = False, quoted: bool = False,
              printed: dict | None = None) -> None:
        """Save the table as ``data/<run>/<name>.csv`` (``export`` if given, else the table itself, with its
        machine column names) and show it with ``columns`` as headers; ``name=None`` shows without saving,
        ``show=False`` saves without showing (a table the page's prose already points to); ``cards=True`` draws each
        row as a card on a phone (a table of sentences); ``printed`` names the columns the write-up kit prints
        (column -> header) where the page shows columns the CSV does not have. A table with no rows (a case the
        parameters do not produce) is said in a sentence instead of drawn empty."""
        href = None
        kit_headers = columns
        if name is not None:
            exported = table if export is None else export
            kit_headers = printed_columns(table, exported, columns, printed)
            self.schemas[name] = dictionary.schema_of(name, exported)  # refuses a column nothing describes
            save_table(exported, self.run, name)
            href = self.href(f"data/{self.run}/{name}.csv")
            self.written.append(("table", href))
        if not show:  # its caption and headers still travel with it: the kit sets it as the page would
            if name is not None:
                dictionary.entitle(self.schemas[name], "", caption, kit_headers)
            return
        if table.empty:
            self.say(f"*{caption.rstrip('.')}*: none with these parameters.")
            return
        if max_rows is None and len(table) > LONG_TABLE:
            max_rows = PREVIEW_ROWS
        self.shown_tables += 1
        uid = name or f"table-{self.shown_tables}"
        label = f"Table {self.chapter.number}.{self.shown_tables}"
        if name is not None:  # the caption and headers travel with the table (datapackage.json; the write-up kit)
            dictionary.entitle(self.schemas[name], label, caption, kit_headers)
        display(HTML(present.table_html(table, caption, f"{self.stem}-{uid}", columns=columns, formats=formats,
                                        max_rows=max_rows, csv_href=href, note=note, label=label, cards=cards,
                                        quoted=quoted)))

    def references(self, table: pd.DataFrame, name: str = "references") -> None:
        """A reference list: each write-up (``author``, ``year``, ``title``, ``published_in``, ``address``,
        ``note``, ``figures``) as a numbered entry with its link, and the same list as ``data/<run>/<name>.csv``."""
        self.schemas[name] = dictionary.schema_of(name, table)
        dictionary.entitle(self.schemas[name], "", "The write-ups behind this chapter's printed figures", None)
        save_table(table, self.run, name)
        href = self.href(f"data/{self.run}/{name}.csv")
        self.written.append(("table", href))
        items = []
        for row in table.itertuples(index=False):
            who = row.author if row.year.startswith("not") else f"{row.author} ({row.year})"
            link = (f' <a href="{html.escape(row.address)}">{html.escape(row.address)}</a>'
                    if row.address.startswith("http") else "")
            items.append(f'<li id="ref-{html.escape(row.key)}">{html.escape(who)}, “{html.escape(row.title)}”, '
                         f'{html.escape(row.published_in)}.{link}'
                         + (f" Read: {html.escape(row.note)}." if row.note else "")
                         + f" Figures checked here: {int(row.figures)}.</li>")
        display(HTML(f'<ol class="stb-references">{"".join(items)}</ol><p class="stb-note">The same list as a '
                     f'table: <a href="{href}">{name}.csv</a>.</p>'))

    def figure(self, fig, name: str, caption: str | Finding, alt: str | Finding) -> None:
        """Save ``fig`` (``figures/<run>/<name>.png/svg/pdf``), show it with its caption and alt text, close it. A
        caption or alt text that states a result is a :class:`Finding` (kept in the findings file)."""
        caption, alt = (self._keep(part, kind) for part, kind in ((caption, "caption"), (alt, "alt")))
        paths = save_figure(fig, self.run, name)
        files = {p.suffix[1:]: self.href(f"figures/{self.run}/{p.name}") for p in paths}
        self.written += [("figure", href) for href in files.values()]
        width = fig.get_size_inches()[0]
        svg = Path(paths[1]).read_bytes()
        plt.close(fig)
        self.shown_figures += 1
        label = f"Figure {self.chapter.number}.{self.shown_figures}"
        self.captions.append({"figure": label, "name": name, "files": [p.name for p in paths], "caption": caption,
                              "alt": alt, "width_inches": round(float(width), 2)})
        display(HTML(present.figure_html(svg, caption, alt, files, width, label)))

    def progress(self, message: str) -> None:
        """A progress line for a long computation. Under the build driver (``make report``, ``make notebook``:
        ``STB_PROGRESS_FILE`` set) it is printed by the driver as it comes and is not part of the page; in an
        interactive session (JupyterLab) it is one line under the running cell, updated in place, with the
        seconds since the cell's first progress line."""
        path = os.environ.get("STB_PROGRESS_FILE")
        if path:
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(message.strip() + "\n")
            return
        cell = _execution_count()
        if self._progress is None or self._progress[0] != cell:
            self._progress = (cell, time.monotonic(), display(HTML(""), display_id=True))
        _, started, handle = self._progress
        line = f"working ({time.monotonic() - started:.0f} s): {message.strip()}"
        if handle is not None:
            handle.update(HTML(f'<p class="stb-progress">{html.escape(line)}</p>'))

    def say(self, text: str) -> None:
        """Show a paragraph that states no result (a question, a method, a pointer to another section)."""
        display(HTML(present.prose_html(text)))

    def state(self, *findings: Finding | None) -> None:
        """Show findings (``finding``: highlighted and listed on the index; ``text``: a plain paragraph) and keep
        them for the run's findings file. ``None`` (a finding the parameters do not produce) shows nothing."""
        for finding in findings:
            if finding is None:
                continue
            self._keep(finding, finding.kind)
            shown = present.prose_html(finding.text, "finding" if finding.kind == "finding" else "text")
            if finding.kind == "finding":  # numbered as the opening box lists them (crossref.fold_findings)
                number = sum(f.kind == "finding" for f in self.findings)
                shown = shown.replace('<div class="stb-finding">',
                                      f'<div class="stb-finding" id="finding-{number}">', 1)
            display(HTML(shown))

    def _keep(self, part: str | Finding, kind: str) -> str:
        """The text of a caption, alt text or sentence; a :class:`Finding` is kept for the findings file."""
        if isinstance(part, str):
            return part
        if part.kind != kind:
            raise ValueError(f"finding {part.key!r} is a {part.kind}, shown as a {kind}")
        if any(f.key == part.key for f in self.findings):
            raise ValueError(f"finding {part.key!r} shown twice")
        self.findings.append(part)
        return part.text

    # -- the end of the page -------------------------------------------------------------------------------
    def finish(self, headline: dict) -> None:
        """Show the checks -- the sources' published figures and statements, then the page's own checks
        (simulations against exact values, invariants) -- write the run's record for the index
        (``data/<run>/checks.json``), and raise if the engine disagrees with a claim this notebook reproduces."""
        table = self.checks.table()
        kinds = pd.Series([r.kind for r in self.checks.results], dtype=object)
        sourced = kinds.isin(["figure", "statement"]).to_numpy()
        if sourced.any():
            caption = ("Every published figure and statement of the source, against what the engine computes now"
                       if self.chapter.source else
                       "Figures published by the sources that this page recomputes")
            self.table(table[sourced], caption, "checks", export=table, show=False)
            self.shown_tables += 1  # drawn as the index and the opening box draw claims: a card each on a phone
            label = f"Table {self.chapter.number}.{self.shown_tables}"
            dictionary.entitle(self.schemas["checks"], label, caption, {c: c for c in table.columns})
            rows = [{"claim": r.claim, "by": brief_reference(r.source), "published": r.published,
                     "computed": r.computed, "mark": r.mark, "verdict": r.verdict, "allowance": r.allowance}
                    for r, keep in zip(self.checks.results, sourced, strict=True) if keep]
            csv = self.href(f"data/{self.run}/checks.csv")
            display(HTML(present.claims_table(rows, caption, label, csv_href=csv,
                                              name_each=self.chapter.source is None)))
        if (~sourced).any():
            own = set(kinds[~sourced])
            what = " and ".join([w for k, w in (("simulation", "simulations against the exact values"),
                                                ("invariant", "invariants the numbers must satisfy")) if k in own])
            shown = table.assign(judged=[f"{r.mark} {r.verdict}" for r in self.checks.results])
            self.table(shown[~sourced], f"The page's own checks: {what}", None if sourced.any() else "checks",
                       max_rows=None, export=None if sourced.any() else table,
                       columns={"claim": "claim", "published": "exact value",
                                "computed now": "computed now (a simulation: with its 95% interval)",
                                "judged": "check"},
                       printed={"claim": "claim", "published": "exact value", "computed now": "computed now",
                                "check": "check", "verdict": "verdict"})
        written = {href.rsplit("/", 1)[-1].removesuffix(".csv") for kind, href in self.written if kind == "table"}
        unwritten = sorted({f"{fact.table}.csv" for finding in self.findings for fact in finding.facts
                            if fact.table and fact.table not in written})
        if unwritten:
            raise ValueError(f"{self.stem}: findings read tables this page did not export: {', '.join(unwritten)}")
        record = self.checks.record(self.run, self.chapter.title, headline,
                                    [f.text for f in self.findings if f.kind == "finding"])
        record["source"] = self.chapter.source
        record["stem"] = self.stem
        record["parameters"] = dict(self.values)
        write_record(self.run, record)
        write_text(data_dir(self.run) / "findings.json", findings_json(self.findings))
        cite = self.source.cite() if self.source else "Shut the Box, solved exactly"
        write_text(data_dir(self.run) / "datapackage.json",
                   dictionary.data_package(self.run, f"{self.chapter.number}. {self.chapter.title}", self.schemas,
                                           cite))
        if self.captions:
            write_text(figure_dir(self.run) / "captions.json",
                       json.dumps(self.captions, indent=1, ensure_ascii=False) + "\n")
        self.checks.raise_unexpected()

    def exports(self) -> None:
        """List every file this run wrote, with links."""
        tables = [h for kind, h in self.written if kind == "table"]
        figures = list(dict.fromkeys(h.rsplit(".", 1)[0] for kind, h in self.written if kind == "figure"))
        parts = []
        if tables:
            parts.append("**Tables** (CSV; load with `pandas.read_csv`): " + ", ".join(
                f"[{h.rsplit('/', 1)[-1]}]({h})" for h in tables) + ".")
        if figures:
            number = self.chapter.number
            parts.append("**Figures** (PNG at 200 dpi, SVG with text as text, PDF with TrueType fonts; 3.3 or 6.5 "
                         "inches wide): " + "; ".join(
                             f"Figure {number}.{i}, {f.rsplit('/', 1)[-1]} ([PNG]({f}.png), [SVG]({f}.svg), "
                             f"[PDF]({f}.pdf))" for i, f in enumerate(figures, 1)) + ".")
        display(HTML("".join(f"<p>{present.prose_inline(p)}</p>" for p in parts)))

    @property
    def source(self):
        """The source this page checks (None for pages beyond the sources)."""
        return sources()[self.chapter.source] if self.chapter.source else None
