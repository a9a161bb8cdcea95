"""The report as a reader meets it: the whole report built once by the build driver (as ``make report`` does), a
rerun matrix over every notebook's declared parameters, determinism, and every page opened in
headless Chromium with the network off -- reading checks (captions, headers, navigation, phone width, typeset
math), the index's verdicts against the notebooks' checks, and the position explorer against the CLI.

Everything is built into scratch folders (``STB_REPORT_DIR``, ``STB_OUTPUT_ROOT``): the committed outputs and the
default ``report/`` are never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from test_build import report_command

from stb_core.report.build import build
from stb_core.report.catalogue import CHAPTERS, EXPLORER, chapter, sources
from stb_core.report.checks import references
from stb_core.report.jobs import Job, estimate_run
from stb_core.report.lint import lint_report
from stb_core.report.page import notebook_defaults, rules_of
from stb_core.report.parameters import DOMAINS, ParameterError
from stb_core.report.run_names import run_name
from stb_core.sources.words import digits

ROOT = Path(__file__).resolve().parents[1]
STEMS = [c.stem for c in CHAPTERS]
pytestmark = pytest.mark.report


@pytest.fixture(scope="session")
def report_dir(tmp_path_factory) -> Path:
    """The whole report, built once with the default parameters, by the command ``make report`` runs."""
    folder = tmp_path_factory.mktemp("report")
    built = report_command(report_dir=folder)
    assert built.returncode == 0, built.stdout + built.stderr
    assert re.search(r"report built in [\d.]+ s", built.stdout)
    assert "Traceback" not in built.stdout + built.stderr
    assert "TCP without encryption" not in built.stdout + built.stderr, "kernel chatter in the build log"
    assert "KeyboardInterrupt" not in built.stdout + built.stderr
    return folder


def records(folder: Path) -> dict:
    out = Path(os.environ["STB_OUTPUT_ROOT"]) / "data"
    return {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/checks.json")}


# -- the rerun matrix ----------------------------------------------------------------------------------------
MATRIX_SECONDS = 120  # a run of packed corners is estimated to take at most this (else the corner waits for another)


def matrix() -> list[tuple[str, dict]]:
    """For each notebook: its quick base, then every corner of every parameter of its domain (each choice; the
    smallest and the quick largest value), packed into as few runs as the domain accepts -- each run takes the next
    uncovered corner of every parameter that still fits, and keeps the run's estimate within ``MATRIX_SECONDS``
    (a Double Shutter of 8 with three 12-sided dice for stakes is 49 minutes: that corner gets a run of its own).
    (The findings audit checks the same sentences in-process on many more combinations, the cases the reruns
    issue found among them.)"""
    runs = []
    for stem in STEMS:
        domain, defaults = DOMAINS[stem], notebook_defaults(stem)
        base = {**defaults, **domain.quick}
        runs.append((stem, base))
        pending = {p.name: [v for v in p.corners() if v != base[p.name] and covered(domain, p.name, v, base)]
                   for p in domain.parameters}
        while any(pending.values()):
            values = dict(base)
            for name, corners in pending.items():
                for value in corners:
                    if accepted(domain, {**values, name: value}) and quick(stem, {**values, name: value}):
                        values[name] = value
                        corners.remove(value)
                        break
            if values == base:  # no corner left fits beside the base within the time: the next one alone
                name = next(n for n, corners in pending.items() if corners)
                values[name] = pending[name].pop(0)
                if not accepted(domain, values):
                    raise AssertionError(f"{stem}: corners {pending} are refused by the domain")
            runs.append((stem, values))
    unique = {}
    for stem, values in runs:
        unique[run_name(stem, values, notebook_defaults(stem))] = (stem, values)
    return list(unique.values())


def covered(domain, name: str, value, base: dict) -> bool:
    """Whether the chapter's analysis covers ``name = value``; a corner it does not cover is refused on the base in
    one line naming the parameter and why (asserted here), and is not run."""
    try:
        domain.check({**base, name: value})
    except ParameterError as error:
        assert f"{name} = {value} is outside chapter" in str(error), error
        return False
    return True


def quick(stem: str, values: dict) -> bool:
    """Whether a run is estimated to take at most ``MATRIX_SECONDS``."""
    return estimate_run(stem, values).seconds <= MATRIX_SECONDS


def accepted(domain, values: dict) -> bool:
    try:
        domain.check(values)
    except ParameterError:
        return False
    return True


MATRIX = matrix()


def job(stem: str, values: dict) -> Job:
    defaults = notebook_defaults(stem)
    return Job(chapter(stem), {k: v for k, v in values.items() if defaults.get(k) != v},
               run_name(stem, values, defaults))


@pytest.fixture(scope="session")
def reruns(report_dir) -> list[Job]:
    """Every run of the matrix, built by the build driver into the report's runs/ (two notebooks at a time)."""
    jobs = [job(stem, values) for stem, values in MATRIX]
    os.environ["STB_REPORT_DIR"] = str(report_dir)
    try:
        build(jobs, workers=2, log=lambda *a, **k: None)
    finally:
        del os.environ["STB_REPORT_DIR"]
    return jobs


def test_the_matrix_covers_every_parameter_of_every_notebook():
    """Every corner of every parameter is run, or refused in one line as outside the chapter's analysis."""
    for stem in STEMS:
        base = {**notebook_defaults(stem), **DOMAINS[stem].quick}
        run = {(name, value) for s, values in MATRIX if s == stem for name, value in values.items()}
        for parameter in DOMAINS[stem].parameters:
            for corner in parameter.corners():
                assert (parameter.name, corner) in run or not covered(DOMAINS[stem], parameter.name, corner, base), \
                    (stem, parameter.name, corner)


def executed_outputs(path: Path):
    notebook = json.loads(path.read_text())
    for cell in notebook["cells"]:
        yield from cell.get("outputs", [])


@pytest.mark.parametrize(("stem", "values"), MATRIX, ids=[run_name(s, v, notebook_defaults(s)) for s, v in MATRIX])
def test_every_rerun_runs_cleanly(reruns, report_dir, stem, values):
    run = job(stem, values)
    page = report_dir / "runs" / f"{run.run}.html"
    assert page.exists()
    for output in executed_outputs(report_dir / "runs" / f"{run.run}.ipynb"):
        assert output["output_type"] != "error", output.get("evalue")
        assert output.get("name") != "stderr", "".join(output.get("text", ""))[:300]
        assert output.get("name") != "stdout", f"a print line: {''.join(output.get('text', ''))[:200]}"
    html = page.read_text()
    assert not re.search(r"<tbody>\s*</tbody>", html), "an empty table"
    record = records(report_dir)[run.run]
    if record["source"] and record["parameters"] != notebook_defaults(stem):
        # off the source's game no published figure is claimed as reproduced
        assert all(c["mark"] in ("–", "⚠") or c["kind"] not in ("figure", "statement") or
                   not _off_source(stem, values) for c in record["checks"])


def _off_source(stem: str, values: dict) -> bool:
    source_game = {"01-sequence-counts": {"tiles": 10}, "02-riddler-one-die": {"tiles": 9, "dice": 2, "sides": 6,
                   "one_die": "high-shut"}, "03-open-and-shut": {"tiles": 9, "dice": 2, "sides": 6},
                   "04-game-space": {"tiles": 9, "win_at_most": 3, "dice": 2, "sides": 6},
                   "05-expected-cost-mdp": {"tiles": 9}}.get(stem, {})
    return any(values.get(k) != v for k, v in source_game.items())


# -- every sentence a rerun printed is the pipeline's, and true for its own exported tables --------------------
def table(report_dir: Path, run: str, name: str) -> pd.DataFrame:
    return pd.read_csv(report_dir / "data" / run / f"{name}.csv", keep_default_na=False)


def check_run_findings(report_dir: Path, run: Job, against_pipeline: bool = True) -> None:
    """Each fact of the findings a notebook run wrote (``findings.json``) re-derives from the CSV files the run
    exported, and reads right; with ``against_pipeline``, the findings are also exactly those the chapter's pipeline
    makes in-process for the same parameters (the notebook adds and drops nothing)."""
    from test_findings_audit import check_wording, pipeline, rederive, same, shown_matches

    values = {**notebook_defaults(run.stem), **run.parameters}
    written = json.loads((report_dir / "data" / run.run / "findings.json").read_text())
    if against_pipeline:
        _, whole = pipeline(run.stem, values)
        expected = {f.key: f.record() for f in whole.findings.values()}
        assert sorted(f["key"] for f in written) == sorted(expected), run.run
        for finding in written:
            assert finding["text"] == expected[finding["key"]]["text"], (run.run, finding["key"])
    rules = rules_of(values)
    tables = {}
    for finding in written:
        facts = {f["name"]: f for f in finding["facts"]}
        for name in {f["table"] for f in finding["facts"] if "table" in f} - set(tables):
            tables[name] = pd.read_csv(report_dir / "data" / run.run / f"{name}.csv")
        for fact in finding["facts"]:
            assert same(rederive(fact, facts, tables, values, rules), fact["value"]), (run.run, fact)
            assert not fact["shown"] or (fact["shown"] in finding["text"] and shown_matches(fact)), (run.run, fact)
        check_wording(finding["text"], rules)


def test_every_rerun_states_only_what_its_tables_hold(reruns, report_dir):
    """Every rerun's facts from its own CSV files; and each notebook, on its quick base and its run of low corners,
    holds to its pipeline (its run of high corners is the slow one: its pipeline is audited in-process)."""
    seen = {}
    for run in reruns:
        seen[run.stem] = seen.get(run.stem, 0) + 1
        check_run_findings(report_dir, run, against_pipeline=seen[run.stem] <= 2)


def test_the_default_pages_state_only_what_their_tables_hold(report_dir):
    """The default pages' facts, from their own CSV files (their pipelines are audited in-process by
    ``test_findings_audit.test_the_defaults_pass_the_audit``; the reruns hold the notebooks to their pipelines)."""
    for stem in STEMS:
        check_run_findings(report_dir, job(stem, notebook_defaults(stem)), against_pipeline=False)


def test_every_page_passes_the_linter(reruns, report_dir):
    """The default pages, the appendices and every rerun of the matrix, read as a careful reader reads them: no
    negative zero, no comparison of figures equal as printed, counts and nouns that agree, no file named that the
    run did not write, captions that count their tables' rows, no repeated row, no float for an exact value
    (:mod:`stb_core.report.lint`)."""
    problems = lint_report(report_dir)
    assert not problems, "\n".join(map(str, problems))


# -- determinism and refused requests ----------------------------------------------------------------------
SEEDED = ("01-sequence-counts", "05-expected-cost-mdp", "07-pub-game")  # the notebooks that simulate games


def test_two_builds_give_identical_pages(reruns, report_dir, tmp_path):
    """The quick base run of each notebook that simulates games, built again elsewhere: the same bytes (every
    other table is computed exactly, and the default report is rebuilt byte for byte by every ``make report``)."""
    bases = [job(stem, values) for stem, values in MATRIX
             if stem in SEEDED and values == {**notebook_defaults(stem), **DOMAINS[stem].quick}]
    os.environ["STB_REPORT_DIR"] = str(tmp_path)
    try:
        build(bases, workers=2, log=lambda *a, **k: None)
    finally:
        del os.environ["STB_REPORT_DIR"]
    for run in bases:
        first = (report_dir / "runs" / f"{run.run}.html").read_bytes()
        assert (tmp_path / "runs" / f"{run.run}.html").read_bytes() == first, run.run
        notebook = (report_dir / "runs" / f"{run.run}.ipynb").read_bytes()
        assert (tmp_path / "runs" / f"{run.run}.ipynb").read_bytes() == notebook, run.run
        for csv in (report_dir / "data" / run.run).glob("*.csv"):
            assert (tmp_path / "data" / run.run / csv.name).read_bytes() == csv.read_bytes(), csv


def test_default_values_are_refused_and_the_default_report_stays(report_dir):
    before = (report_dir / "02-riddler-one-die.html").read_bytes()
    run = report_command("--notebook", "02-riddler-one-die", "-p", "tiles", "9", report_dir=report_dir)
    assert run.returncode == 2 and "that is the default report" in run.stderr
    assert (report_dir / "02-riddler-one-die.html").read_bytes() == before


def test_a_failing_notebook_writes_nothing(report_dir, tmp_path, monkeypatch):
    """A notebook that fails (here: an impossible output folder) leaves the built report as it was."""
    before = {p: p.read_bytes() for p in report_dir.glob("*.html")}
    monkeypatch.setenv("STB_REPORT_DIR", str(report_dir))
    from stb_core.report.jobs import NotebookFailed

    bad = Job(chapter("05-expected-cost-mdp"), {"tiles": 0}, "05-expected-cost-mdp--tiles=0")
    with pytest.raises(NotebookFailed, match="tiles must be an integer between 1 and 12"):
        build([bad], workers=1, log=lambda *a, **k: None)
    assert {p: p.read_bytes() for p in report_dir.glob("*.html")} == before
    assert not (report_dir / "runs" / "05-expected-cost-mdp--tiles=0.html").exists()
    assert not list(report_dir.glob(".build*"))


def test_a_rerun_has_its_own_write_up_kit(report_dir, tmp_path):
    """``make export RUN=<run>``: a rerun's figures and tables (LaTeX beside each CSV), captions and references."""
    from stb_core.report.export import export

    out = Path(os.environ["STB_OUTPUT_ROOT"])
    reruns = sorted(p.parent.name for p in (out / "data").glob("*--*/datapackage.json"))
    assert reruns, "the rerun matrix built no rerun"
    kit = export(reruns[0], tmp_path)
    csvs, texs = sorted((kit / "tables").rglob("*.csv")), sorted((kit / "tables").rglob("*.tex"))
    assert csvs and [p.with_suffix(".tex") for p in csvs] == texs
    assert {p.parent.name for p in csvs} == {reruns[0]}
    assert (kit / "references.bib").exists() and kit.with_suffix(".zip").exists()


# -- the report as one typeset book (make pdf) -----------------------------------------------------------------
def pdf_command(*args, report_dir: Path):
    import subprocess
    import sys

    env = {**os.environ, "STB_REPORT_DIR": str(report_dir)}
    return subprocess.run([sys.executable, "-m", "stb_core.report.pdf", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=900)


def pdf_words(path: Path) -> str:
    import subprocess

    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def page_numbers(page: Path) -> tuple[list[str], int]:
    """The numbered tables and figures a page shows (``Table 3.2``), and how many display equations it has."""
    text = re.sub(r"<script\b.*?</script>", "", page.read_text(encoding="utf-8"), flags=re.S)  # MathJax's "$$"
    numbered = re.findall(r"<strong>(?:<a [^>]*>)?((?:Table|Figure) \d+\.\d+)", text)
    return list(dict.fromkeys(numbered)), len(re.findall(r"\$\$.+?\$\$", text, re.S))


def test_the_report_typesets_as_one_book(report_dir):
    """make pdf: every chapter with its numbered tables, figures and equations as the pages number them, no link
    left unresolved, no problem in the log, the glossary and the bibliography; the index links the book."""
    done = pdf_command(report_dir=report_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "typesetting:" not in done.stdout, done.stdout  # a problem in pdflatex's log is said on such a line
    words = pdf_words(report_dir / "report.pdf")
    assert "??" not in words  # an unresolved reference
    captions = re.findall(r"Table (\d+\.\d+): (?!\(continued\))", words)  # a long table's later pages say so
    assert len(captions) == len(set(captions)), "two tables share a number"
    for c in CHAPTERS:
        assert c.title.split(":")[0] in words
        numbered, equations = page_numbers(report_dir / c.page)
        missing = [n for n in numbered if f"{n}:" not in words]
        assert not missing, (c.stem, missing)
        assert all(f"({c.number}.{k})" in words for k in range(1, equations + 1)), c.stem
    assert "Glossary" in words and "Bibliography" in words and "Shut the Box with Dynamic Programming" in words
    assert 'href="report.pdf"' in (report_dir / "index.html").read_text(encoding="utf-8")


def test_a_rerun_typesets_as_its_own_book(reruns, report_dir):
    rerun = next(r for r in reruns if (report_dir / "runs" / f"{r.run}.html").exists())
    done = pdf_command("--run", rerun.run, report_dir=report_dir)
    assert done.returncode == 0 and "typesetting:" not in done.stdout, done.stdout + done.stderr
    words = pdf_words(report_dir / "runs" / f"{rerun.run}.pdf")
    numbered, _ = page_numbers(report_dir / "runs" / f"{rerun.run}.html")
    assert numbered and all(f"{n}:" in words for n in numbered)


def test_a_book_of_a_run_never_built_is_refused_in_one_line(report_dir):
    done = pdf_command("--run", "02-riddler-one-die--tiles=99", report_dir=report_dir)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "has not been built" in done.stderr


# -- data that documents itself -----------------------------------------------------------------------------
def test_every_table_is_described_by_its_data_package(report_dir):
    """Each run's ``datapackage.json`` lists every CSV beside it, with the CSV's own columns in order, each with a
    meaning and a type its values obey; each figure folder's ``captions.json`` lists every figure drawn."""
    out = Path(os.environ["STB_OUTPUT_ROOT"])
    runs = sorted(p.parent.name for p in (out / "data").glob("*/checks.json"))
    assert set(STEMS) <= set(runs)
    for run in runs:
        folder = out / "data" / run
        package = json.loads((folder / "datapackage.json").read_text(encoding="utf-8"))
        assert package["profile"] == "tabular-data-package" and package["licenses"][0]["name"] == "CC-BY-4.0"
        assert re.fullmatch(r"[a-z0-9._-]+", package["name"])
        resources = {r["path"]: r for r in package["resources"]}
        assert set(resources) == {p.name for p in folder.glob("*.csv")}, run
        for path, resource in resources.items():
            assert re.fullmatch(r"[a-z0-9._-]+", resource["name"]) and resource["format"] == "csv"
            frame = pd.read_csv(folder / path, dtype=str, keep_default_na=False)
            fields = resource["schema"]["fields"]
            assert [f["name"] for f in fields] == list(frame.columns), (run, path)
            for field in fields:
                assert field["description"].strip() and field["type"] in ("integer", "number", "string", "boolean")
                values = [v for v in frame[field["name"]] if v != ""]
                if field["type"] == "integer":
                    assert all(re.fullmatch(r"-?\d+", v) for v in values), (run, path, field["name"])
                elif field["type"] == "number":
                    for v in values:
                        float(v)
        figures = out / "figures" / run
        if figures.exists():
            captions = json.loads((figures / "captions.json").read_text(encoding="utf-8"))
            listed = {name for item in captions for name in item["files"]}
            assert listed == {p.name for p in figures.iterdir() if p.suffix in (".png", ".svg", ".pdf")}, run
            for item in captions:
                assert re.fullmatch(r"Figure \d+\.\d+", item["figure"]) and item["caption"] and len(item["alt"]) > 20


# -- the pages in the browser ----------------------------------------------------------------------------------
def chromium(width: int = 1280):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={width},1600", "--host-resolver-rules=MAP * ~NOTFOUND"):
        options.add_argument(flag)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


@pytest.fixture(scope="session")
def browser():
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.fail("chromium and chromedriver are needed: run `make browser` (make test does it)")
    driver = chromium()
    yield driver
    driver.quit()


LOADED = "return document.readyState === 'complete'"
MATH_DONE = ("return !window.MathJax || !MathJax.startup || !MathJax.startup.promise ? true : "
             "(window.__mj = window.__mj || MathJax.startup.promise.then(() => (window.__mjdone = true)), "
             "!!window.__mjdone)")
RESOURCES = "return performance.getEntriesByType('resource').map(e => e.name)"
PAGES = [*(f"{s}.html" for s in STEMS), "index.html", EXPLORER[0]]


def open_page(driver, path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(path.as_uri())
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(LOADED))
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(MATH_DONE))


@pytest.mark.parametrize("page", PAGES)
def test_page_reads_well(report_dir, browser, page):
    browser.set_window_size(1280, 1600)
    open_page(browser, report_dir / page)
    text = browser.execute_script("return document.body.innerText")
    for broken in ("Math Processing Error", "<matplotlib", "object at 0x", "Traceback", "NaN", "<NA>"):
        assert broken not in text, broken
    assert not re.search(r"\$[^$\s][^$\n]*\$", text), "raw $...$ left: MathJax did not typeset"
    assert browser.execute_script("return document.querySelectorAll('mjx-merror, [data-mjx-error]').length") == 0
    title = browser.execute_script("return document.title")
    assert title and not title.endswith(".html") and "Shut the Box" in title
    assert browser.execute_script("return !!document.querySelector('meta[name=viewport]')")
    ids = browser.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})  # every anchor leads one place
    for label in re.findall(r"^Table (\d+)\.(\d+)\.", text, re.M):  # every numbered table has its anchor
        assert f"table-{label[0]}-{label[1]}" in ids, label
    hrefs = set(browser.execute_script(
        "return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"))
    for other in PAGES:
        if other != page:
            assert any(h.split("#")[0].endswith(other) for h in hrefs), f"{page} does not link {other}"
    for href in hrefs:
        assert not href.startswith("http") or href in {s.address for s in sources().values()} | {
            r["address"] for r in references().values()}, href
        target = href.split("#")[0]
        if target and not href.startswith("http"):
            assert (report_dir / target).exists(), f"broken link {href}"
    fetched = browser.execute_script(RESOURCES)
    assert all(name.startswith(("file:", "data:")) for name in fetched), fetched
    # every figure: a <figure> with a caption and real alt text
    figures = browser.execute_script(
        "return [...document.querySelectorAll('main img')].map(i => [!!i.closest('figure'), "
        "!!(i.closest('figure') && i.closest('figure').querySelector('figcaption')), i.alt])")
    for in_figure, captioned, alt in figures:
        assert in_figure and captioned and len(alt) > 20 and not alt.startswith("No description")
    # every data table: a caption, no index column, no snake_case header, nothing cut short
    tables = browser.execute_script("""return [...document.querySelectorAll('main table')].map(t => ({
        caption: t.caption ? t.caption.textContent.trim() : '',
        index: t.querySelectorAll('th.row_heading, th.blank, th.index_name').length,
        headers: [...t.querySelectorAll('th')].map(h => h.textContent.trim()),
        cells: [...t.querySelectorAll('td')].map(c => c.textContent.trim())}))""")
    for table_ in tables:
        assert table_["caption"], table_["headers"]
        assert table_["index"] == 0
        assert not [h for h in table_["headers"] if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", h)], table_["headers"]
        assert not [c for c in table_["cells"] if c.endswith(("…", "..."))]
    # a chapter page: heading anchors, contents, previous / next
    if page.startswith("0"):
        assert browser.execute_script("return document.querySelectorAll('#stb-contents li').length") > 2
        assert browser.execute_script("return document.querySelectorAll('main h2 a.anchor-link').length") > 2
        assert browser.execute_script("return document.querySelectorAll('a[rel=next]').length") == 1
    # at 390 px nothing scrolls sideways but a wide table inside its own box
    browser.set_window_size(390, 1200)
    browser.refresh()
    open_page(browser, report_dir / page)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), page


@pytest.mark.parametrize("stem", [c.stem for c in CHAPTERS if c.source])
def test_source_page_opens_with_its_verdict(report_dir, browser, stem):
    """The first thing on a source's page: the source, its verdict, and each wrong claim with the figure computed
    now -- at 390 px too, the computed value and the verdict inside the screen (no sideways scrolling)."""
    record = records(report_dir)[stem]
    for width in (1280, 390):
        browser.set_window_size(width, 1600)
        open_page(browser, report_dir / f"{stem}.html")
        box = browser.execute_script("return document.querySelector('main .stb-opening').innerText")
        assert sources()[chapter(stem).source].title in box
        assert record["verdict"].capitalize() in box
        for claim in record["claims"]:
            if claim["mark"] == "✗":
                assert claim["claim"] in box and digits(claim["computed"]) in box  # long numbers grouped
        cells = browser.execute_script(
            "return [...document.querySelectorAll('main .stb-opening table.stb-claims td')].filter(c => "
            "c.offsetParent).map(c => [c.getAttribute('data-label'), c.getBoundingClientRect().right])")
        inner = browser.execute_script("return window.innerWidth")
        assert all(right <= inner + 1 for label, right in cells if label in ("computed now", "verdict")), cells


@pytest.mark.parametrize("stem", [c.stem for c in CHAPTERS])
def test_a_chapter_s_first_phone_screen_carries_its_verdict_and_first_finding(report_dir, browser, stem):
    """On a phone (390 x 844) every chapter's first screen shows its verdict, where it judges published claims, and
    the whole of its first finding; the introduction follows them."""
    browser.set_window_size(390, 844)
    open_page(browser, report_dir / f"{stem}.html")
    screen = browser.execute_script("return window.innerHeight")
    where = ("var e = document.querySelector(arguments[0]); if (!e) return null; var r = e.getBoundingClientRect();"
             "return [r.top + window.scrollY, r.bottom + window.scrollY]")
    finding = browser.execute_script(where, "main .stb-opening #result-1")
    assert finding is not None and finding[1] <= screen, (stem, finding, screen)
    if records(report_dir)[stem]["claims"]:
        verdict = browser.execute_script(where, "main .stb-opening .stb-verdict-line")
        assert verdict is not None and verdict[0] < finding[0], (stem, verdict)
    introduction = browser.execute_script(
        "var p = [...document.querySelectorAll('main p')].find(p => !p.closest('.stb-opening, header, nav, "
        ".stb-page-bar')); return p ? p.getBoundingClientRect().top + window.scrollY : null")
    assert introduction is not None and introduction >= finding[1], (stem, introduction)


def claim_rows(browser, scope: str) -> list[tuple[str, ...]]:
    return [tuple(row) for row in browser.execute_script(
        f"return [...document.querySelectorAll('{scope} table.stb-claims tbody tr')].map(r => "
        "[...r.cells].map(c => c.textContent.trim()))")]


def test_the_index_is_the_verdict_sheet_of_the_chapters(report_dir, browser):
    """One row per distinct claim on the index, the same rows (claim, published, computed, verdict) as the
    chapter's own opening box, no claim twice, and the counts and abstract numbers the chapters' own."""
    browser.set_window_size(1280, 1600)
    everything = records(report_dir)
    index_rows, totals = {}, {"claims": 0, "reproduced": 0}
    open_page(browser, report_dir / "index.html")
    text = browser.execute_script("return document.body.innerText")
    for c in CHAPTERS:
        if not (c.source or everything[c.stem]["claims"]):
            continue
        section = f"section:has(#source-{c.source})" if c.source else f"section:has(#claims-{c.number})"
        index_rows[c.stem] = claim_rows(browser, section)
        counts = everything[c.stem]["counts"]
        line = browser.execute_script(f"return document.querySelector('{section} .stb-counts').innerText")
        assert line.startswith(f"{len(index_rows[c.stem])} claim"), line
        assert f"{counts['reproduced']} reproduced or confirmed" in line
        published = ROOT / "data" / "published" / f"{c.stem}.csv"  # a claim judged on two pages counts once
        repeats = set(pd.read_csv(published, dtype=str, keep_default_na=False).query("same_as != ''")["claim_id"]) \
            if published.exists() else set()
        distinct = [k for k in everything[c.stem]["claims"] if k["claim_id"] not in repeats]
        totals["claims"] += len(distinct)
        totals["reproduced"] += sum(k["mark"] == "✓" and not k["verdict"].startswith("corrected") for k in distinct)
        marks = [row[-1][0] for row in index_rows[c.stem]]
        assert marks.count("✓") == counts["reproduced"] + counts.get("corrected", 0)
        assert marks.count("✗") == counts["off"] + counts["contradicted"]
    assert browser.execute_script("return document.querySelectorAll('.stb-badge').length") == \
        len(index_rows), "a badge for each chapter that judges published claims, and only those"
    assert any(not c.source for c in CHAPTERS if c.stem in index_rows), "chapter 9's judged claim is on the sheet"
    for stem, rows in index_rows.items():
        open_page(browser, report_dir / f"{stem}.html")
        assert sorted(claim_rows(browser, "main .stb-opening")) == sorted(rows), stem
        claims = [row[0] for row in rows]
        assert len(set(claims)) == len(claims), f"a claim of {stem} appears twice"
    abstract = " ".join(text.split("Abstract", 1)[1].split())
    assert f"Of the {totals['claims']} distinct published claims the report judges, {totals['reproduced']} are" \
        in abstract
    headline = {stem: record.get("headline", {}) for stem, record in everything.items()}
    for stem, key in (("06-whole-map", "optimal win, 9 tiles"), ("02-riddler-one-die", "P(win), perfect play"),
                      ("05-expected-cost-mdp", "expected sum left"), ("06-whole-map", "card loss")):
        assert headline[stem][key] in abstract, (stem, key)


SITE_PAGES = [*PAGES, "glossary.html", "reproducibility.html"]


@pytest.mark.parametrize("page", SITE_PAGES)
def test_every_page_is_a_page_of_the_book(report_dir, browser, page):
    """The sidebar lists every chapter with its number (shown beside the page at 1280 px, behind the drawer
    button at 390 px); numbers are never doubled; every reference in the prose is a link that resolves."""
    browser.set_window_size(1280, 1600)
    open_page(browser, report_dir / page)
    entries = browser.execute_script(
        "return [...document.querySelectorAll('#stb-sidebar .stb-pages a')].map(a => a.innerText.trim())")
    for c in CHAPTERS:
        assert any(re.fullmatch(rf"{c.number}\s+{re.escape(c.title)}", e) for e in entries), (c.title, entries)
    assert not [e for e in entries if re.match(r"\d+\s*\.?\s*\d+\.", e)], entries
    assert browser.execute_script("return document.getElementById('stb-sidebar').getBoundingClientRect().width") > 150
    assert browser.execute_script("return getComputedStyle(document.getElementById('stb-sidebar')).visibility") \
        == "visible"
    if page.startswith("0"):
        number = int(page[:2])
        h1 = browser.execute_script("return document.querySelector('main h1').innerText").strip()
        assert h1.startswith(f"{number} ") and not re.match(r"\d+\s+\d+\.", h1), h1
        sections = browser.execute_script("return [...document.querySelectorAll('main h2 .stb-chapter-number')]"
                                          ".map(s => s.innerText)")
        assert sections == [f"{number}.{k}" for k in range(1, len(sections) + 1)]
    prose = browser.execute_script("""
        const quiet = 'a, code, pre, h1, h2, h3, h4, summary, mjx-container, .jp-InputArea, .stb-how, caption, '
            + 'figcaption';
        const out = [];
        const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) {
            const node = walk.currentNode;
            const shown = node.parentElement.offsetParent !== null;
            if (!node.parentElement.closest(quiet) && shown) out.push(node.textContent);
        }
        return out;""")
    ours = "|".join(str(c.number) for c in CHAPTERS)  # "chapter 179" of a source's book is not ours
    unlinked = [t for t in prose if re.search(rf"\b(Table|Figure) \d+\.\d+\b|\b[Cc]hapter ({ours})\b", t)]
    assert not unlinked, unlinked
    links = browser.execute_script(
        "return [...document.querySelectorAll('main a')].filter(a => /^(Table|Figure) \\d+\\.\\d+$|^[Cc]hapter \\d+$/"
        ".test(a.textContent.trim())).map(a => [a.textContent.trim(), a.getAttribute('href')])")
    for text, href in links:
        target, _, anchor = href.partition("#")
        path = (report_dir / page).parent / target if target else report_dir / page
        assert path.exists(), (text, href)
        if anchor:
            assert f'id="{anchor}"' in path.read_text(encoding="utf-8"), (text, href)
    code_talk = [t for t in prose if re.search(r"\b[a-z]+_[a-z_]+\(|`", t)]
    assert not code_talk, code_talk
    browser.set_window_size(390, 1200)
    open_page(browser, report_dir / page)
    sidebar_left = "return document.getElementById('stb-sidebar').getBoundingClientRect().right"
    assert browser.execute_script(sidebar_left) <= 1, "at 390 px the sidebar waits behind its button"
    browser.find_element("id", "stb-drawer-button").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 5).until(lambda d: d.execute_script(sidebar_left) > 200)
    height = browser.execute_script("return document.querySelector('#stb-sidebar .stb-pages a')"
                                    ".getBoundingClientRect().height")
    assert height >= 44, "a tap target under 44 px"


def test_search_finds_a_word_of_every_page(report_dir, browser):
    """The offline search: a word that appears on one page only (taken from the page itself) finds that page."""
    browser.set_window_size(1280, 1600)
    texts = {}
    for page in SITE_PAGES:
        open_page(browser, report_dir / page)
        texts[page] = browser.execute_script("return document.querySelector('main').innerText")
    words = {page: set(re.findall(r"[a-z]{5,}", text.lower()))  # words the page shows, not ones its scripts write
             & set(re.findall(r"[a-z]{5,}", (report_dir / page).read_text(encoding="utf-8").lower()))
             for page, text in texts.items()}
    open_page(browser, report_dir / "index.html")
    for page, own in words.items():
        pages_with = {w: sum(w in other for other in words.values()) for w in own}
        for word in sorted(own, key=lambda w: (pages_with[w], w))[:3]:  # the page's rarest words
            found = browser.execute_script("return stbSearch(arguments[0])", word)
            assert any(href.split("#")[0].endswith(page) for href in found), (page, word, found)
    assert browser.execute_script("return stbSearch('zzzqqq')") == []


# -- the position explorer ------------------------------------------------------------------------------------
def advise(rules_args, open_tiles, roll, goals=("win", "remaining-sum", "digits")):
    """The CLI's answer for the objectives: {move: [value for each]} (tiles by name)."""
    import contextlib
    import io

    from stb_core.cli import main

    out = {}
    for goal in goals:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(["advise", "--json", "--objective", goal, "--roll",
                         ",".join(map(str, roll)) if isinstance(roll, list) else str(roll), "--open",
                         ",".join(map(str, open_tiles)) if open_tiles else "none", *rules_args]) == 0
        for row in json.loads(buffer.getvalue()):
            out.setdefault(tuple(row["move"]), []).append(row["value"])
    return out


def cli_flags(rules: dict) -> list[str]:
    return ["--tiles", str(rules["tiles"]), "--one-die", rules.get("one_die", "never"), "--moves",
            rules.get("moves", "sum"), "--layout", rules.get("layout", "row")]


def page_rules(rules, goal: str) -> dict:
    """A rules value as the page's script takes it."""
    return {"layout": rules.layout, "tiles": rules.tiles, "one_die": rules.one_die, "moves": rules.moves,
            "objective": goal}


def random_open(generator, rules) -> list:
    """A board that can arise, tiles by name, drawn uniformly among them: each tile open or shut, and on a two-row
    board each front tile with the tile behind it both open, the front one shut, or both shut."""
    from stb_core.boards import layout_of

    layout = layout_of(rules)
    while True:
        board = generator.getrandbits(len(layout.values))
        if board and not layout.shut_too_soon(board):
            return layout.names(board)


def explorer_positions():
    """Positions of every rules choice the page offers (a random board, a roll the rules allow, each goal the
    layout has), and the published ones."""
    import random

    from stb_core.report.explorer import goals, rules_choices

    generator = random.Random(2026)
    classic = {"one_die": "never", "moves": "sum", "objective": "win"}
    double = {"layout": "double-shutter", "tiles": 9, "one_die": "sum-le-6", "moves": "sum"}
    cases = [({"tiles": 10, **classic}, [1, 3, 4, 6, 7], 7), ({"tiles": 9, **classic}, [1, 4, 5, 8], 9),
             ({"tiles": 9, **classic, "objective": "remaining-sum"}, [1, 2, 3, 4, 5], 8),
             ({"tiles": 9, **classic, "one_die": "high-shut"}, [1, 2], 3),
             ({"tiles": 9, **classic, "moves": "die-or-sum"}, [1, 3, 4, 8], [3, 5]),
             ({"tiles": 9, **classic, "moves": "die-or-sum", "one_die": "sum-le-5"}, [1, 4], 4),
             ({**double, "objective": "win"}, [*range(1, 10), *(f"b{k}" for k in range(9, 0, -1))], 10),
             ({**double, "objective": "remaining-sum"}, [3, 4, "b9", "b8", "b7", "b6"], 9),
             ({**double, "objective": "win"}, ["b9", "b8", 5, "b5"], 10)]  # {5, b5}: a back tile with its front
    for rules in rules_choices().values():
        for goal in goals(rules):
            roll = sorted(generator.choices(range(1, 7), k=2)) if rules.moves == "die-or-sum" \
                else generator.randint(2, 12)
            cases.append((page_rules(rules, goal), random_open(generator, rules), roll))
    return cases


def load_values(browser, rules: dict) -> None:
    browser.set_script_timeout(30)
    assert browser.execute_async_script("const done = arguments[arguments.length - 1];"
                                        "stbLoad(arguments[0]).then(() => done('ok'), e => done(String(e)))",
                                        rules) == "ok"


def test_explorer_agrees_with_the_command_line(report_dir, browser):
    """Every rules choice and goal the page offers: the same legal moves as ``advise``, the same values after each
    (the chance of winning, the expected score, the expected digit score where the layout has it), best first for
    the goal."""
    from stb_core import Rules
    from stb_core.objectives import get_objective
    from stb_core.report.explorer import goals as goals_of

    browser.set_window_size(1280, 1600)
    open_page(browser, report_dir / EXPLORER[0])
    for rules, open_tiles, roll in explorer_positions():
        load_values(browser, rules)
        page = browser.execute_script("return stbAdvise(arguments[0], arguments[1], arguments[2])", rules, open_tiles,
                                      roll)
        goals = goals_of(Rules(**{k: v for k, v in rules.items() if k != "objective"}))
        cli = advise(cli_flags(rules), open_tiles, roll, goals)
        assert [tuple(r["move"]) for r in page] != [] or cli == {}, (rules, open_tiles, roll)
        assert {tuple(r["move"]) for r in page} == set(cli), (rules, open_tiles, roll)
        for row in page:
            assert set(row) == {"move", *goals}, row
            expected = cli[tuple(row["move"])]
            for name, value in zip(goals, expected, strict=True):
                assert abs(row[name] - value) <= 1e-9 * max(1.0, abs(value)), (rules, open_tiles, roll, name)
        ranked = [r[rules["objective"]] for r in page]
        assert ranked == sorted(ranked, reverse=get_objective(rules["objective"]).sense > 0), (rules, open_tiles, roll)
    assert browser.execute_script("return stbAdvise({tiles: 9, one_die: 'never'}, [1, 2], 12)") == []
    refused = browser.execute_script("try { stbAdvise({layout: 'double-shutter', tiles: 9}, [1, 2, 3], 5); "
                                     "return ''; } catch (e) { return e.message; }")
    assert "cannot arise" in refused, refused


def test_explorer_dice_advice_is_the_engine_s(report_dir, browser):
    """Where one die may be rolled: the value of rolling one die and of rolling two, for each goal, as the engine's
    ``Solution.dice_values``."""
    from stb_core import Rules, parse_tiles, solve
    from stb_core.report.explorer import goals

    open_page(browser, report_dir / EXPLORER[0])
    cases = [({"tiles": 9, "one_die": "sum-le-5", "moves": "sum"}, [1, 4]),
             ({"tiles": 10, "one_die": "high-shut", "moves": "sum"}, [2, 3, 6]),
             ({"tiles": 12, "one_die": "sum-le-6", "moves": "die-or-sum"}, [1, 2, 3]),
             ({"tiles": 9, "one_die": "sum-le-5", "moves": "die-or-sum"}, [5]),
             # b9 and b7 wait for the open 1 and 3: only 1 and 3 can be shut now, 4 in all (one die at 6 or less)
             ({"layout": "double-shutter", "tiles": 9, "one_die": "sum-le-6", "moves": "sum"}, [1, 3, "b9", "b7"]),
             ({"layout": "double-shutter", "tiles": 9, "one_die": "high-shut", "moves": "die-or-sum"}, ["b6", "b2"])]
    for rules, open_tiles in cases:
        load_values(browser, rules)
        page = browser.execute_script("return stbDiceValues(arguments[0], arguments[1])", rules, open_tiles)
        game = Rules(tiles=rules["tiles"], one_die=rules["one_die"], moves=rules["moves"],
                     layout=rules.get("layout", "row"))
        assert page is not None, (rules, open_tiles)
        for goal in goals(game):
            engine = solve(game, goal).dice_values(parse_tiles(open_tiles, game))
            assert set(engine) == {1, 2}, (rules, open_tiles)
            for dice in (1, 2):
                assert abs(page[str(dice)][goal] - float(engine[dice])) <= 1e-9 * max(1.0, float(engine[dice])), \
                    (rules, open_tiles, goal, dice)
    assert browser.execute_script("return stbDiceValues({tiles: 9, one_die: 'sum-le-5'}, [1, 5])") is None
    # b8's front tile 2 is down, so 1 + 3 + 8 = 12 can be shut: too much for one die
    assert browser.execute_script("return stbDiceValues({layout: 'double-shutter', tiles: 9, one_die: 'sum-le-6'}, "
                                  "[1, 3, 'b9', 'b8', 'b7'])") is None


def test_explorer_clicks_update_the_table(report_dir, browser):
    browser.set_window_size(390, 1200)
    open_page(browser, report_dir / EXPLORER[0])
    load_values(browser, {"tiles": 9})
    for tile in (2, 3, 6, 7, 9):  # shut them: {1, 4, 5, 8} stays open
        browser.find_element("css selector", f".stb-tile[data-tile='{tile}']").click()
    browser.find_element("css selector", ".stb-roll[data-roll='9']").click()
    rows = browser.execute_script("return [...document.querySelectorAll('#stb-moves-table tr')].slice(1)"
                                  ".map(r => r.cells[0].textContent)")
    assert rows == ["{1, 8}", "{4, 5}"]
    assert "disagree" in browser.find_element("id", "stb-disagree").text
    browser.find_element("css selector", ".stb-play[data-move='1,8']").click()
    assert browser.execute_script("return document.querySelectorAll('.stb-tile[aria-pressed=true]').length") == 2
    browser.find_element("id", "stb-undo").click()
    assert browser.execute_script("return document.querySelectorAll('.stb-tile[aria-pressed=true]').length") == 4


def test_explorer_plays_the_thai_style_for_the_digit_score(report_dir, browser):
    """Picking the rules and the goal: the rolls become the two dice, and the moves are ranked for the digit score."""
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(390, 1200)
    open_page(browser, report_dir / EXPLORER[0])
    Select(browser.find_element("id", "stb-moves-rule")).select_by_value("die-or-sum")
    Select(browser.find_element("id", "stb-goal")).select_by_value("digits")
    load_values(browser, {"tiles": 9, "moves": "die-or-sum"})
    time.sleep(0.2)
    browser.find_element("css selector", ".stb-roll[data-roll='3,5']").click()
    rows = browser.execute_script("return [...document.querySelectorAll('#stb-moves-table tr')].slice(1)"
                                  ".map(r => r.cells[0].textContent)")
    page = browser.execute_script("return stbAdvise({tiles: 9, moves: 'die-or-sum', objective: 'digits'}, "
                                  "[1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 5])")
    assert rows == ["{" + str(r["move"][0]) + "}" for r in page] and sorted(rows) == ["{3}", "{5}", "{8}"]
    caption = browser.find_element("css selector", "#stb-moves-table caption").text
    assert "roll of 3 and 5" in caption and "the lowest digit score" in caption


def test_explorer_plays_double_shutter_on_two_rows(report_dir, browser):
    """Double Shutter at 390 px: each back tile above the tile it waits for, tapping keeps the board one that can
    arise, the digit score (one row only) is not offered, and the moves are the command line's."""
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(390, 1200)
    open_page(browser, report_dir / EXPLORER[0])
    Select(browser.find_element("id", "stb-tiles")).select_by_value("12")
    Select(browser.find_element("id", "stb-layout")).select_by_value("double-shutter")
    rules = {"layout": "double-shutter", "tiles": 9}
    load_values(browser, rules)
    time.sleep(0.2)
    assert browser.find_element("id", "stb-tiles").get_attribute("value") == "9"
    assert not browser.find_element("css selector", "#stb-goal option[value=digits]").is_enabled()
    tile = "return document.querySelector(`.stb-tile[data-tile='${arguments[0]}']`).getBoundingClientRect()"
    for front, back in ((1, "b9"), (5, "b5"), (9, "b1")):
        below, above = browser.execute_script(tile, str(front)), browser.execute_script(tile, back)
        assert abs(below["x"] - above["x"]) < 1 and above["bottom"] <= below["top"], (front, back)
    click = lambda t: browser.find_element("css selector", f".stb-tile[data-tile='{t}']").click()  # noqa: E731
    shown = ("return [...document.querySelectorAll('.stb-tile[aria-pressed=true]')]"
             ".map(b => b.getAttribute('data-tile'))")
    click("b9")  # a back tile goes down only with the tile in front of it
    assert "1" not in browser.execute_script(shown) and "b9" not in browser.execute_script(shown)
    click("1")  # and the front tile comes back up with the tile behind it
    assert {"1", "b9"} <= set(browser.execute_script(shown))
    for t in ("2", "3", "b8"):
        click(t)
    browser.find_element("css selector", ".stb-roll[data-roll='10']").click()
    rows = browser.execute_script("return [...document.querySelectorAll('#stb-moves-table tr')].slice(1)"
                                  ".map(r => r.cells[0].textContent)")
    open_tiles = browser.execute_script(shown)
    cli = advise(cli_flags({**rules, "one_die": "never", "moves": "sum"}), open_tiles, 10, ("win",))
    assert rows[0] == "{" + ", ".join(map(str, max(cli, key=lambda m: cli[m][0]))) + "}"
    assert sorted(rows) == sorted("{" + ", ".join(map(str, m)) + "}" for m in cli) and "{1, b9}" in rows
    caption = browser.find_element("css selector", "#stb-moves-table caption").text
    assert "(win, score)" in caption, caption


def test_explorer_trainer_plays_a_whole_game_by_keyboard_alone(report_dir, browser):
    """At 390 px, Tab and Enter or Space only: start a seeded game, pick each move's tiles (the best move for the
    win, from stbAdvise), shut them, until the game ends. Every element Tab reaches is visible (the closed drawer's
    links are out of the tab order), and after Space on a tile the keyboard is still on that tile."""
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(390, 1400)
    open_page(browser, report_dir / EXPLORER[0])
    rules = {"tiles": 9}
    load_values(browser, rules)
    active = ("var a = document.activeElement; return [a.id, a.getAttribute('data-tile'), "
              "a.getClientRects().length > 0 && getComputedStyle(a).visibility !== 'hidden', a.outerHTML.slice(0, 80)]")

    def tab_to(element_id: str | None = None, tile: str | None = None) -> None:
        """Press Tab until the element with that id, or that tile, has the keyboard."""
        for _ in range(200):
            now = browser.execute_script(active)
            assert now[2], f"Tab reached an element no one can see: {now[3]}"
            if (now[1] == tile) if tile is not None else (now[0] == element_id):
                return
            browser.switch_to.active_element.send_keys(Keys.TAB)
        raise AssertionError(f"Tab never reached {element_id or tile}")

    browser.execute_script("document.getElementById('stb-train-seed').value = '3'")
    tab_to("stb-train-start")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    for _turn in range(20):
        if browser.execute_script("return !!document.getElementById('stb-train-table')"):
            break
        status = browser.find_element("id", "stb-train-status").text
        faces = re.match(r"Roll \d+: (\d+) and (\d+)", status)
        assert faces, status
        open_tiles = browser.execute_script("return [...document.querySelectorAll('#stb-train-board "
                                            "[aria-pressed=true]')].map(b => Number(b.dataset.tile))")
        best = browser.execute_script("return stbAdvise(arguments[0], arguments[1], arguments[2])", rules,
                                      open_tiles, int(faces[1]) + int(faces[2]))[0]["move"]
        for tile in best:
            tab_to(tile=str(tile))
            browser.switch_to.active_element.send_keys(Keys.SPACE)
            assert browser.execute_script(active)[1] == str(tile), "the keyboard left the tile just picked"
        tab_to("stb-train-play")
        browser.switch_to.active_element.send_keys(Keys.ENTER)
    rows = browser.execute_script("return document.querySelectorAll('#stb-train-table tr').length - 1")
    record = re.search(r'--game "([^"]+)"', browser.find_element("id", "stb-train-command").text)[1]
    assert rows == len(record.split()) and "do not meet" not in browser.find_element("id", "stb-train-identity").text
    assert all(t["grade"] == "best" for t in cli_analysis(rules, game=record)["turns"])  # the best move each turn


def test_the_keyboard_goes_where_play_goes_on(report_dir, browser):
    """Enter on a control that a redraw removes leaves the keyboard where play goes on, never on the page's body:
    a move played from the explorer's table goes on to the rolls; dice thrown in the trainer, to its tiles."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(390, 1400)
    open_page(browser, report_dir / EXPLORER[0])
    focus = "var a = document.activeElement; return [a.tagName, a.className, a.parentElement.id]"
    browser.execute_script("document.querySelector('#stb-rolls [data-roll]').focus()")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    browser.execute_script("document.querySelector('#stb-moves [data-move]').focus()")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert browser.execute_script(focus)[2] == "stb-rolls", browser.execute_script(focus)
    rules = {"tiles": 9, "one_die": "high-shut"}
    Select(browser.find_element("id", "stb-one-die")).select_by_value("high-shut")
    load_values(browser, rules)
    dice = []
    for seed in range(1, 30):  # a game that comes to a choice of dice (7, 8 and 9 shut): Enter on "roll one die"
        browser.execute_script(f"document.getElementById('stb-train-seed').value = '{seed}'")
        browser.find_element("id", "stb-train-start").send_keys(Keys.ENTER)
        for _turn in range(9):
            dice = browser.find_elements("css selector", "#stb-train-dice button[data-dice='1']")
            faces = re.match(r"Roll \d+: (\d+) and (\d+)", browser.find_element("id", "stb-train-status").text)
            if dice or not faces:
                break
            open_tiles = browser.execute_script("return [...document.querySelectorAll('#stb-train-board "
                                                "[aria-pressed=true]')].map(b => Number(b.dataset.tile))")
            best = browser.execute_script("return stbAdvise(arguments[0], arguments[1], arguments[2])", rules,
                                          open_tiles, int(faces[1]) + int(faces[2]))
            if not best:
                break
            for tile in best[0]["move"]:
                browser.find_element("css selector", f"#stb-train-board [data-tile='{tile}']").send_keys(Keys.SPACE)
            browser.find_element("id", "stb-train-play").send_keys(Keys.ENTER)
        if dice:
            break
    assert dice, "no seed gave a choice of dice"
    dice[0].send_keys(Keys.ENTER)
    assert browser.execute_script(focus)[2] == "stb-train-board", browser.execute_script(focus)


def test_explorer_trainer_says_why_a_back_tile_waits(report_dir, browser):
    """Double Shutter in the trainer at 390 px: each back tile stands above its front tile; a back tile picked while
    its front tile stands open leaves "shut them" off and the page says which tile it waits for."""
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(390, 1400)
    open_page(browser, report_dir / EXPLORER[0])
    Select(browser.find_element("id", "stb-layout")).select_by_value("double-shutter")
    load_values(browser, {"layout": "double-shutter", "tiles": 9})
    time.sleep(0.2)
    browser.find_element("id", "stb-train-start").click()
    dice = browser.find_elements("css selector", "#stb-train-dice button[data-dice='2']")
    if dice:
        dice[0].click()
    tile = "return document.querySelector(`#stb-train-board [data-tile='${arguments[0]}']`).getBoundingClientRect()"
    for front, back in ((1, "b9"), (5, "b5"), (9, "b1")):
        below, above = browser.execute_script(tile, str(front)), browser.execute_script(tile, back)
        assert abs(below["x"] - above["x"]) < 1 and above["bottom"] <= below["top"], (front, back)
    browser.find_element("css selector", "#stb-train-board [data-tile='b9']").click()
    assert not browser.find_element("id", "stb-train-play").is_enabled()
    why = browser.find_element("id", "stb-train-why").text
    assert "b9" in why and "behind 1" in why, why


def test_explorer_script_holds_no_rule_of_the_game():
    """``explorer.js`` looks the game up: outside its comments and messages no rule option's value is compared or
    spelt (one-die rules, move rules, layouts) and no number of the game appears (tiles, faces, totals, the high
    tile); the numbers left are 0 to 4 (indices, sizes of typed arrays), per cent, and the seeded generator's own."""
    from stb_core.rules import OPTIONS

    script = (ROOT / "stb_core" / "report" / "templates" / "assets" / "explorer.js").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", script)
    generator = re.search(r"function seeded\(seed\) \{.*?\n  \}", code, re.S)
    code = code.replace(generator[0], "") if generator else code
    strings = re.findall(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', code)
    values = {str(v) for name in ("one_die", "moves", "layout") for v in OPTIONS[name].choices or ()} | {
        "sum-le", "high-shut"}
    spelt = [s for s in strings if any(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", s) for v in values
                                       if v not in ("sum",))]
    assert not spelt, spelt
    compared = re.findall(r"\.(?:one_die|moves|layout|tiles|sides|dice)\s*[!=]==", code)
    assert not compared, compared
    bare = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|/(?:[^/\\\n]|\\.)+/[gimsuy]*(?=[.;,)\s])', '""', code)
    numbers = set(re.findall(r"(?<![\w.$])\d+(?:\.\d+)?(?![\w.])", bare))
    assert numbers <= {"0", "1", "2", "3", "4", "100", "0.01", "4294967295"}, numbers


# -- the explorer's inputs, attacked ----------------------------------------------------------------------------
BAD_CALLS = [  # (call, a word the one-line refusal must name)
    ("stbAdvise(null, [1], 1)", "rules"),
    ("stbAdvise({tiles: 99}, [1], 1)", "tiles must be one of"),
    ("stbAdvise({tiles: '9'}, [1], 1)", "tiles must be one of"),
    ("stbAdvise({tiles: 9, one_die: 'sometimes'}, [1], 1)", "one_die must be one of"),
    ("stbAdvise({tiles: 9, moves: 'product'}, [1], 1)", "moves must be one of"),
    ("stbAdvise({tiles: 9, layout: 'circle'}, [1], 1)", "layout must be one of"),
    ("stbAdvise({tiles: 9, objective: 'sum'}, [1], 1)", "objective must be one of"),
    ("stbAdvise({tiles: 9, layout: 'double-shutter', objective: 'digits'}, [1], 1)", "objective must be one of"),
    ("stbAdvise({tiles: 9, sides: 8}, [1], 1)", "sides must be one of"),
    ("stbAdvise({tiles: 9, goal: 'remaining-sum'}, [1], 1)", "unknown rule option \"goal\""),
    ("stbAdvise({tiles: 9, oneDie: 'never'}, [1], 1)", "unknown rule option \"oneDie\""),
    ("stbAdvise({tiles: 9}, [0], 1)", "open"),
    ("stbAdvise({tiles: 9}, [1, 1], 1)", "open"),
    ("stbAdvise({tiles: 9}, [10], 1)", "open"),
    ("stbAdvise({tiles: 9}, 'all', 1)", "open"),
    ("stbAdvise({tiles: 9}, [1e308], 1)", "open"),
    ("stbAdvise({tiles: 9}, [1], 1.5)", "roll"),
    ("stbAdvise({tiles: 9}, [1], '7')", "roll"),
    ("stbAdvise({tiles: 9}, [1], 99999999999)", "roll"),
    ("stbAdvise({tiles: 9, moves: 'die-or-sum'}, [1], [7, 7])", "roll"),
    ("stbAdvise({tiles: 9, moves: 'die-or-sum'}, [1], [1])", "roll"),
    ("stbDiceValues({tiles: 9, one_die: 'high-shut'}, [1, 1])", "open"),
    ("stbDiceValues({tiles: -1}, [1])", "tiles must be one of"),
]


def test_explorer_refuses_bad_calls_in_one_line(report_dir, browser):
    """Every bad call of the explorer's script API is refused with an Error naming what is wrong (never a TypeError,
    a blank answer or a hang)."""
    open_page(browser, report_dir / EXPLORER[0])
    load_values(browser, {"tiles": 9})
    load_values(browser, {"tiles": 9, "one_die": "high-shut"})
    load_values(browser, {"tiles": 9, "moves": "die-or-sum"})
    for call, word in BAD_CALLS:
        outcome = browser.execute_script(
            f"try {{ var r = {call}; return ['returned', JSON.stringify(r)]; }}"
            f" catch (e) {{ return [e.constructor.name, e.message]; }}")
        assert outcome[0] == "Error" and word in outcome[1] and "\n" not in outcome[1], (call, outcome)


def test_explorer_form_fuzz_shows_a_message(report_dir, browser):
    """A rules form given values it does not offer (as a reader's edited page or a script could) shows a message on
    the page or puts the control back on a value it offers, keeps the board it had, and raises no error in the
    console."""
    browser.set_window_size(390, 1200)
    open_page(browser, report_dir / EXPLORER[0])
    load_values(browser, {"tiles": 9})
    browser.execute_script("window.__errors = []; window.addEventListener('error', e => window.__errors.push("
                           "e.message)); window.addEventListener('unhandledrejection', e => window.__errors.push("
                           "String(e.reason)));")
    before = browser.execute_script("return document.querySelectorAll('.stb-tile').length")
    for select, value in (("stb-tiles", "99"), ("stb-tiles", "-3"), ("stb-one-die", "sum-le-999"),
                          ("stb-moves-rule", "<b>x</b>"), ("stb-layout", "circle"), ("stb-goal", "")):
        shown, kept = browser.execute_script(
            "var s = document.getElementById(arguments[0]), o = document.createElement('option');"
            "o.value = arguments[1]; o.textContent = arguments[1]; s.appendChild(o); s.value = arguments[1];"
            "s.dispatchEvent(new Event('change'));"
            "return [document.getElementById('stb-board-value').textContent, s.value];", select, value)
        assert "must be" in shown or kept != value, (select, value, shown, kept)
        browser.execute_script("var s = document.getElementById(arguments[0]); s.removeChild(s.lastChild);"
                               "s.selectedIndex = 0;", select)
    assert browser.execute_script("return window.__errors") == []
    assert browser.execute_script("return document.querySelectorAll('.stb-tile').length") == before


def cli_analysis(rules: dict, *, game: str | None = None, seed: int | None = None, policy: str = "random") -> dict:
    """``stb analyse --json`` for page rules, of a record or of a seeded game of ``policy``."""
    import contextlib
    import io

    from stb_core.cli import main

    which = ["--game", game] if game is not None else ["--seed", str(seed), "--policy", policy]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["analyse", "--json", "--objective", rules.get("objective", "win"),
                     *cli_flags(rules), *which]) == 0
    return json.loads(buffer.getvalue())


ANALYSED = [  # page rules: every layout, one-die rule, move rule and goal the trainer plays
    {"tiles": 9, "one_die": "never", "moves": "sum", "objective": "win"},
    {"tiles": 9, "one_die": "high-shut", "moves": "sum", "objective": "win"},
    {"tiles": 10, "one_die": "sum-le-6", "moves": "sum", "objective": "remaining-sum"},
    {"tiles": 12, "one_die": "sum-le-5", "moves": "sum", "objective": "digits"},
    {"tiles": 9, "one_die": "never", "moves": "die-or-sum", "objective": "digits"},
    {"tiles": 9, "one_die": "sum-le-5", "moves": "die-or-sum", "objective": "win"},
    {"layout": "double-shutter", "tiles": 9, "one_die": "sum-le-6", "moves": "sum", "objective": "remaining-sum"},
    {"layout": "double-shutter", "tiles": 9, "one_die": "never", "moves": "die-or-sum", "objective": "win"},
]


def assert_same_analysis(page: dict, cli: dict, context) -> None:
    """Every field of ``stb analyse --json`` equal, numbers to 1e-9."""
    def close(a, b):
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    assert set(page) == set(cli), (context, set(page) ^ set(cli))
    for key in ("game", "identity", "holds", "grades", "rules", "objective"):
        assert page[key] == cli[key], (context, key, page[key], cli[key])
    for key in ("start", "outcome", "luck", "loss"):
        assert close(page[key], cli[key]), (context, key, page[key], cli[key])
    assert len(page["turns"]) == len(cli["turns"]), context
    for n, (p, c) in enumerate(zip(page["turns"], cli["turns"], strict=True), 1):
        assert set(p) == set(c), (context, n, set(p) ^ set(c))
        for key in ("open", "dice", "roll", "played", "best", "grade"):
            assert p[key] == c[key], (context, n, key, p[key], c[key])
        for key in ("luck", "dice_loss", "move_loss", "loss", "value_after"):
            assert close(p[key], c[key]), (context, n, key, p[key], c[key])


def test_explorer_analyses_a_game_as_the_command_line(report_dir, browser):
    """``stbAnalyse(rules, record)`` returns the object ``stb analyse --json`` prints, numbers to 1e-9: seeded games
    of random play (every grade) and of optimal play, under every layout, one-die rule, move rule and goal."""
    open_page(browser, report_dir / EXPLORER[0])
    for rules in ANALYSED:
        load_values(browser, rules)
        for seed, policy in ((1, "random"), (2, "random"), (3, "optimal")):
            cli = cli_analysis(rules, seed=seed, policy=policy)
            page = browser.execute_script("return stbAnalyse(arguments[0], arguments[1])", rules, cli["game"])
            assert_same_analysis(page, cli, (rules, seed, policy))
    grades = {t["grade"] for rules in ANALYSED[:3] for seed in (1, 2)
              for t in cli_analysis(rules, seed=seed)["turns"]}
    assert {"best", "blunder"} <= grades, grades


@pytest.mark.parametrize(("record", "rules"), [
    ("", {"tiles": 9}), ("8:2+6 7:7 11:9+2 5:-", {"tiles": 9}), ("8:2+6 7:7", {"tiles": 9}),
    ("13:4+9", {"tiles": 9}), ("8:3+4", {"tiles": 9}), ("8:-", {"tiles": 9}), ("8-8", {"tiles": 9}),
    ("8:8+8", {"tiles": 9}), ("12:3+9 12:4+8 12:5+7 12:- 5:5", {"tiles": 9}),
    ("19:7", {"tiles": 9, "moves": "die-or-sum"}), ("3,4:5", {"tiles": 9, "moves": "die-or-sum"}),
    ("8:8 7:7 9:9 6:6 5:5 4:4 3:3", {"tiles": 9, "one_die": "sum-le-6"}),
    ("3d8:8", {"tiles": 9, "one_die": "high-shut"}), ("8:-", {"tiles": 9, "objective": "remaining-sum"}),
    ("4,4:-", {"tiles": 9, "moves": "die-or-sum", "objective": "digits"}),
])
def test_explorer_refuses_a_bad_record_as_the_command_line(report_dir, browser, record, rules):
    """A record that does not fit the rules: the page's Error carries the command line's message, naming the turn."""
    import contextlib
    import io

    from stb_core.cli import main

    open_page(browser, report_dir / EXPLORER[0])
    load_values(browser, rules)
    page = browser.execute_script("try { stbAnalyse(arguments[0], arguments[1]); return ''; }"
                                  " catch (e) { return e.message; }", rules, record)
    errors = io.StringIO()
    full = {"one_die": "never", "moves": "sum", **rules}
    with contextlib.redirect_stderr(errors):
        assert main(["analyse", "--game", record, "--objective", full.get("objective", "win"), *cli_flags(full)]) == 2
    cli = errors.getvalue().strip().split("error: ", 1)[1]
    shared = cli.split(" (like")[0].split(" joined by")[0].split("tiles must be")[0]
    assert page and page.startswith(shared), (record, page, cli)


def test_explorer_trainer_plays_a_seeded_game_on_a_phone(report_dir, browser):
    """At 390 px: a seeded game played by tapping tiles (the first legal move found by trying one tile, then two,
    and so on: often not the best), two dice chosen where the rules give a choice; at its end the table shows every
    turn, the identity holds, and the analysis is stbAnalyse's of the record the page gives for the command line.
    The same seed and choices deal the same game again; the page loads nothing from the network."""
    browser.set_window_size(390, 1400)
    open_page(browser, report_dir / EXPLORER[0])
    browser.execute_script("window.__errors = []; window.addEventListener('error', e => window.__errors.push("
                           "e.message));")
    for form in ({"stb-one-die": "high-shut", "stb-goal": "win"},
                 {"stb-moves-rule": "die-or-sum", "stb-goal": "remaining-sum"}):
        for select, value in form.items():
            browser.execute_script("var s = document.getElementById(arguments[0]); s.value = arguments[1];"
                                   "s.dispatchEvent(new Event('change'));", select, value)
        rules = {"tiles": 9, "one_die": form.get("stb-one-die", "never"), "moves": form.get("stb-moves-rule", "sum"),
                 "objective": form["stb-goal"]}
        load_values(browser, rules)
        records = []
        for _ in range(2):
            browser.execute_script("document.getElementById('stb-train-seed').value = '7';"
                                   "document.getElementById('stb-train-start').click();")
            for _turn in range(20):
                state = browser.execute_script(
                    "var dice = document.querySelector('#stb-train-dice button[data-dice=\"2\"]');"
                    "if (dice) { dice.click(); return 'dice'; }"
                    "if (document.getElementById('stb-train-table')) return 'over';"
                    "return 'move';")
                if state == "over":
                    break
                if state == "dice":
                    continue
                browser.execute_script(
                    "var open = [...document.querySelectorAll('#stb-train-board button:not([disabled])')]"
                    ".map(b => b.dataset.tile), n = open.length,"
                    " play = () => document.getElementById('stb-train-play'),"
                    " tap = t => document.querySelector('#stb-train-board [data-tile=\"' + t + '\"]').click();"
                    "var masks = [...Array(1 << n).keys()].slice(1).sort((a, b) =>"
                    " a.toString(2).split('1').length - b.toString(2).split('1').length || a - b);"
                    "for (const m of masks) { const picked = open.filter((t, i) => m >> i & 1);"
                    " picked.forEach(tap); if (!play().disabled) { play().click(); return; }"
                    " picked.forEach(tap); }"
                    "throw new Error('no legal move found among the open tiles');")
            rows = browser.execute_script("return document.querySelectorAll('#stb-train-table tr').length - 1")
            command = browser.find_element("id", "stb-train-command").text
            record = re.search(r'--game "([^"]+)"', command)[1]
            records.append(record)
            page = browser.execute_script("return stbAnalyse(arguments[0], arguments[1])", rules, record)
            assert rows == len(page["turns"]) == len(record.split()) and page["holds"], (rules, record)
            assert_same_analysis(page, cli_analysis(rules, game=record), (rules, record))
            identity = browser.find_element("id", "stb-train-identity").text
            assert identity.startswith("Start ") and "outcome" in identity and "do not meet" not in identity
            width = browser.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, width
        assert records[0] == records[1], records
    assert browser.execute_script("return window.__errors") == []
    loaded = browser.execute_script(RESOURCES)
    assert all(name.startswith("file:") for name in loaded), loaded
