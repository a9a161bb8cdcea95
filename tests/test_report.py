"""The report as a user builds it: every notebook under papermill (defaults and one changed parameter),
bad parameters refused before any work, and the rendered HTML opened in headless Chromium, offline.

The whole report is built once per test session into a scratch folder (``STB_REPORT_DIR``), with outputs
under ``STB_OUTPUT_ROOT`` (see conftest), by the same command ``make report`` runs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))

# One changed parameter per notebook, chosen to run fast; the report must still build and say which
# published figures do not apply.
CHANGED = {
    "01-sequence-counts": ["-p", "tiles", "8"],
    "02-riddler-one-die": ["-p", "tiles", "8"],
    "03-open-and-shut": ["-p", "tiles", "7"],
    "04-game-space": ["-p", "win_at_most", "2"],
    "05-expected-cost-mdp": ["-p", "tiles", "8"],
    "06-whole-map": ["-p", "max_tiles", "10"],
    "07-two-players": ["-p", "tiles", "8"],
}


def report_command(*args, report_dir: Path):
    env = {**os.environ, "STB_REPORT_DIR": str(report_dir)}
    return subprocess.run([sys.executable, "-m", "stb_core.report", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


@pytest.fixture(scope="session")
def report_dir(tmp_path_factory) -> Path:
    """The whole report, built once with default parameters."""
    folder = tmp_path_factory.mktemp("report")
    built = report_command(report_dir=folder)
    assert built.returncode == 0, built.stdout + built.stderr
    assert re.search(r"report built in [\d.]+ s", built.stdout)
    return folder


def test_every_notebook_is_registered_with_a_changed_parameter():
    assert set(NOTEBOOKS) <= set(CHANGED), "add a fast changed parameter for each new notebook"


def test_report_lists_every_notebook_with_progress(report_dir):
    index = (report_dir / "index.html").read_text()
    for stem in NOTEBOOKS:
        assert f'href="{stem}.html"' in index
        assert (report_dir / f"{stem}.html").exists() and (report_dir / "notebooks" / f"{stem}.ipynb").exists()


@pytest.mark.parametrize("stem", NOTEBOOKS)
def test_executed_notebook_has_no_errors_and_all_checks_pass(report_dir, stem):
    executed = json.loads((report_dir / "notebooks" / f"{stem}.ipynb").read_text())
    for cell in executed["cells"]:
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", f"{stem}: {output.get('evalue')}"
            assert output.get("name") != "stderr", f"{stem} wrote to stderr: {''.join(output['text'])[:300]}"
    checks = json.loads((Path(os.environ["STB_OUTPUT_ROOT"]) / "data" / stem / "checks.json").read_text())
    assert checks["failed"] == 0 and checks["not_applicable"] == 0, checks


@pytest.mark.parametrize("stem", NOTEBOOKS)
def test_notebook_runs_with_a_changed_parameter(report_dir, stem):
    run = report_command("--notebook", stem, *CHANGED[stem], report_dir=report_dir)
    assert run.returncode == 0, run.stdout + run.stderr
    name = f"{stem}--{CHANGED[stem][1].replace('_', '-')}-{CHANGED[stem][2]}"
    assert (report_dir / "runs" / f"{name}.html").exists()
    checks = json.loads((Path(os.environ["STB_OUTPUT_ROOT"]) / "data" / name / "checks.json").read_text())
    assert checks["failed"] == 0
    assert (report_dir / f"{stem}.html").exists()  # the default report is still there


@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")
def test_misspelled_or_mistyped_parameter_is_an_error_before_any_work(tmp_path):
    stem = NOTEBOOKS[0]
    run = report_command("--notebook", stem, "-p", "tilez", "10", report_dir=tmp_path)
    assert run.returncode == 2 and "unknown parameter 'tilez'" in run.stderr and "its parameters are:" in run.stderr
    assert not (tmp_path / "runs").exists()
    run = report_command("--notebook", "99-nothing", report_dir=tmp_path)
    assert run.returncode == 2 and "notebook must be one of" in run.stderr


@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")
def test_papermill_direct_injection_of_an_unknown_name_fails_in_the_notebook(tmp_path):
    """Run papermill itself (which only warns) with ``-p tilez 10``: the notebook's own check stops it."""
    stem = NOTEBOOKS[0]
    out = tmp_path / "out.ipynb"
    run = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "notebooks" / f"{stem}.ipynb"), str(out),
                          "-p", "tilez", "10", "-k", "python3", "--cwd", str(ROOT / "notebooks")],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "unknown parameter 'tilez'" in run.stderr + run.stdout


# -- the browser -------------------------------------------------------------------------------------------
def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,1600",
                 "--host-resolver-rules=MAP * ~NOTFOUND"):  # the network is off: no host resolves
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
RESOURCES = "return performance.getEntriesByType('resource').map(e => e.name)"
BROKEN_IMAGES = ("return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0))"
                 ".map(i => i.src.slice(0, 80))")
MATH_DONE = ("return !!(window.MathJax && MathJax.Hub && MathJax.Hub.queue && MathJax.Hub.queue.pending === 0 "
             "&& MathJax.Hub.queue.running === 0)")


def wait_for(driver, script, seconds=30):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds).until(lambda d: d.execute_script(script))


def test_index_in_the_browser(report_dir, browser):
    browser.get((report_dir / "index.html").as_uri())
    wait_for(browser, LOADED)
    hrefs = browser.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    for href in hrefs:
        assert not href.startswith("http"), href
        assert (report_dir / href).exists(), f"broken link {href}"
    badges = browser.execute_script(
        "return [...document.querySelectorAll('td span')].map(s => [s.className, s.textContent])")
    assert badges and all(kind == "ok" for kind, _ in badges), badges
    assert all(name.startswith("file:") for name in browser.execute_script(RESOURCES))


@pytest.mark.parametrize("stem", NOTEBOOKS)
def test_notebook_page_in_the_browser(report_dir, browser, stem, tmp_path_factory):
    browser.get((report_dir / f"{stem}.html").as_uri())
    wait_for(browser, LOADED)
    wait_for(browser, MATH_DONE)
    assert browser.execute_script(BROKEN_IMAGES) == []
    assert browser.execute_script("return document.images.length") > 0
    text = browser.execute_script("return document.body.innerText")
    assert not re.search(r"\$[^$\s][^$\n]*\$", text), "raw $...$ left: MathJax did not typeset"
    assert "Traceback" not in text
    assert "✗" not in text
    fetched = browser.execute_script(RESOURCES)
    assert all(name.startswith("file:") or name.startswith("data:") for name in fetched), fetched
    # code is hidden for the reader, and one click shows it
    code = ("return [...document.querySelectorAll('.jp-CodeCell .jp-Cell-inputWrapper')]"
            ".filter(e => e.offsetParent).length")
    assert browser.execute_script(code) == 0
    browser.find_element("id", "stb-toggle-code").click()
    assert browser.execute_script(code) > 0
    shots = tmp_path_factory.getbasetemp() / "screenshots"
    shots.mkdir(exist_ok=True)
    browser.save_screenshot(str(shots / f"{stem}.png"))


@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")
def test_a_failing_notebook_stops_with_its_message_and_writes_nothing(report_dir):
    stem = NOTEBOOKS[-1]
    before = (report_dir / f"{stem}.html").read_bytes()
    run = report_command("--notebook", stem, "-p", "tiles", "0", report_dir=report_dir)
    assert run.returncode == 1 and "tiles must be between 1 and 24, got 0" in run.stderr
    assert not list((report_dir / "runs").glob(f"{stem}--tiles-0*"))
    assert (report_dir / f"{stem}.html").read_bytes() == before
