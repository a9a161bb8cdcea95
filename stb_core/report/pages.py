"""The report's own pages, made from the catalogue and the chapters' records (nothing written by hand): the index with
its verdicts and abstract, the glossary, the reproducibility appendix and the page of reruns."""

from __future__ import annotations

import subprocess
import sys
import urllib.parse

from ..sources.words import NUMBER_WORDS
from .book_record import current as pdf_current
from .catalogue import CHAPTERS, EXPLORER, sources
from .checks import read_record, repeated_claims, tally_claims
from .jobs import defaults_of
from .paths import report_dir
from .site import many, write_site_page


def identity() -> dict:
    """Who made the report, which version of it this is and how to cite it: the package's version, the commit
    the pages were built from and that commit's date (not the clock: the same commit gives the same bytes)."""
    from importlib.metadata import PackageNotFoundError, version

    from .paths import PROJECT_ROOT

    try:
        release = version("stb-core")
    except PackageNotFoundError:
        release = "unreleased"
    commit = date = ""
    if (PROJECT_ROOT / ".git").exists():
        def git(*args):
            done = subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True)
            return done.stdout.strip() if done.returncode == 0 else ""
        commit, date = git("rev-parse", "--short=12", "HEAD"), git("log", "-1", "--format=%cs")
    built = f"commit {commit}, {date}" if commit else "not built from a git checkout"
    author = "the Shut the Box report contributors"
    return {"version": release, "commit": commit, "date": date, "author": author,
            "line": f"Version {release} ({built}) · by {author} · code under the MIT licence, text, tables and "
                    f"figures under CC BY 4.0.",
            "cite": f"The Shut the Box report contributors, “Shut the Box, solved exactly”, version {release}"
                    + (f", {date[:4]}" if date else "") + (f" (commit {commit})" if commit else "")
                    + ". See CITATION.cff in the project for the citation in machine-readable form."}

def write_index() -> None:
    """``report/index.html`` from the catalogue and the chapters' records (nothing written by hand)."""
    from ..sources.words import listing
    from .checks import STANDARD, load_published, reference_parts, references
    from .paths import PUBLISHED_DIR

    records = {c.stem: _current(read_record(c.stem)) for c in CHAPTERS}
    written = references()  # every write-up cited, in the chapters' order
    listed = {s.bibkey for s in sources().values()}  # the first list; the second, every other write-up cited
    citing = {c.number: [key for key in load_published(c.stem)["source"] if key in written and key not in listed]
              for c in CHAPTERS if (PUBLISHED_DIR / f"{c.stem}.csv").exists()}
    cited = dict.fromkeys(key for keys in citing.values() for key in keys)
    numbers = [str(n) for n, keys in citing.items() if keys]
    write_site_page("index.html.j2", "index.html", "index.html", "Verdicts and abstract", math=True,
                    chapters=CHAPTERS, records=records, sources=sources(), explorer=EXPLORER,
                    abstract=abstract(records), identity=identity(), standard=STANDARD,
                    references=[reference_parts(key) for key in cited], pdf=pdf_current(),
                    citing_chapters=f"chapter{'s' if len(numbers) > 1 else ''} {listing(numbers, most=len(numbers))}")

def write_appendices() -> None:
    """The glossary and the reproducibility appendix (with the speed measurements of ``make bench``)."""
    from importlib.metadata import PackageNotFoundError, version

    from .catalogue import GLOSSARY
    from .paths import SOLVE_TIMES

    write_site_page("glossary.html.j2", "glossary.html", "glossary.html", "Glossary", terms=GLOSSARY)
    versions = []
    for name in ("stb-core", "numpy", "pandas", "numba", "matplotlib", "nbconvert", "papermill"):
        try:
            versions.append((name, version(name)))
        except PackageNotFoundError:
            pass
    versions.append(("Python", sys.version.split()[0]))
    times = None
    if SOLVE_TIMES.exists():
        import pandas as pd

        from ..sources.whole_map import solve_times
        from .present import integer, number, table_html

        measured = pd.read_csv(SOLVE_TIMES)
        table = solve_times(measured)
        caption = (f"Seconds to solve every board for the least expected sum left, two dice: median of "
                   f"{int(measured['processes'].max())} fresh processes, measured by make bench on "
                   f"{measured['measured'].iloc[0]} ({measured['machine'].iloc[0]}), and the peak memory of the whole "
                   f"process. The plain loop is the plainest compiled loop over the same equation, the yardstick the "
                   f"engine's loop is held to")
        formats = {c: number(2) for c in table.columns if c.endswith(("seconds", "GB"))} | {"boards": integer}
        times = {"caption": "Timings vary from machine to machine and run to run; these are the last measurement.",
                 "table": table_html(table, caption, "solve-times", formats=formats, max_rows=None,
                                     label="Table B.1")}
    write_site_page("reproducibility.html.j2", "reproducibility.html", "reproducibility.html", "Reproducibility",
                    identity=identity(), versions=versions, times=times)

def write_runs_index() -> None:
    """``report/runs/index.html``: every rerun page, the one shared file a rerun writes beside its own (the
    reproducibility appendix links to it)."""
    write_site_page("runs.html.j2", "runs/index.html", "runs/index.html", "Runs with other parameters", up="../",
                    runs=_runs())

def _runs() -> list[tuple[str, str]]:
    """Every rerun page in ``report/runs/``, with a label from its record (its file name is only ever text)."""
    folder = report_dir() / "runs"
    if not folder.exists():
        return []
    found = []
    for page in sorted(folder.glob("*.html")):
        if page.name == "index.html":
            continue
        record = read_record(page.stem)
        found.append(("./" + urllib.parse.quote(page.name), page.stem if record is None else
                      f"{record['title']}: " + ", ".join(f"{k} = {v}" for k, v in _changed(page.stem, record).items())))
    return found

def _changed(run: str, record: dict) -> dict:
    """The parameters a run's record gives that differ from its notebook's defaults, in the declared order."""
    defaults = defaults_of(record.get("stem", run.split("--")[0]))
    return {k: v for k, v in record.get("parameters", {}).items() if defaults.get(k) != v}

def _current(record: dict | None) -> dict | None:
    """A record in this version's shape (one from an older build is treated as missing)."""
    return record if record and "claims" in record else None

def abstract(records: dict) -> list[str]:
    """Four sentences with the key numbers, from the chapters' headline values and their distinct claims."""
    def value(stem, key):
        record = records.get(stem) or {}
        return record.get("headline", {}).get(key, "…")

    counts = {"reproduced": 0, "corrected": 0, "off": 0, "contradicted": 0}
    claims, refuted, checked = 0, 0, 0
    analyses = {s.bibkey for s in sources().values() if not s.author.startswith("several")}  # one analysis each
    printed = 0  # figures printed by other write-ups (chapter 8's many, chapter 9's)
    for c in CHAPTERS:
        record = records.get(c.stem)
        if record and (c.source or record["claims"]):
            checked += 1
            repeated = repeated_claims(c.stem)  # read once per chapter, not once per claim
            distinct = [k for k in record["claims"] if k["claim_id"] not in repeated]
            claims += len(distinct)
            printed += sum(k["source"] not in analyses for k in distinct)
            tally = tally_claims(distinct)
            for k in counts:
                counts[k] += tally[k]
            refuted += record["counts"]["contradicted"] > 0
    more = f", and {printed} further figures printed by other write-ups," if printed else ""
    margin = (records.get("06-whole-map") or {}).get("parameters", {}).get("margin_percent")  # the card's margin
    margin = "…" if margin is None else f"{margin:g}"
    return [
        "This report solves the dice game Shut the Box exactly, by dynamic programming over every set of open "
        f"tiles, and checks {NUMBER_WORDS.get(len(analyses), str(len(analyses)))} published analyses of the "
        f"game{more} against one engine.",
        f"On the classic board (tiles 1–9, two dice) perfect play shuts the box in "
        f"{value('06-whole-map', 'optimal win, 9 tiles')} of games, "
        f"{value('02-riddler-one-die', 'P(win), perfect play')} when one die may be rolled once 7, 8 and 9 are "
        f"shut, and leaves {value('05-expected-cost-mdp', 'expected sum left')} open on average when playing "
        f"for the lowest sum.",
        f"Of the {claims} distinct published claims the report judges, {counts['reproduced']} are reproduced or "
        "confirmed, "
        + (f"{many(counts['corrected'], 'figure')} corrected by the source itself, " if counts['corrected'] else "")
        + f"{many(counts['off'], 'printed figure')} {'is' if counts['off'] == 1 else 'are'} off and "
        f"{many(counts['contradicted'], 'statement')} {'is' if counts['contradicted'] == 1 else 'are'} "
        f"contradicted: in {refuted} of the {checked} chapters that judge published claims, a statement is refuted "
        "by the "
        f"exact solution.",
        f"The rule of thumb the report recommends for two dice, the simplest strategy card within {margin}% of the "
        f"optimum, “{value('06-whole-map', 'strategy card')}”, gives up {value('06-whole-map', 'card loss')} of the "
        f"optimal chance of winning.",
    ]


__all__ = ["abstract", "identity", "write_appendices", "write_index", "write_runs_index"]
