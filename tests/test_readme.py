"""The front door: every fenced example of README.md runs as shown, and `make lab` starts for a root user and a
normal one alike. A README edit that breaks an example fails here."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.S)


def shell_lines() -> list[str]:
    lines = []
    for language, body in BLOCKS:
        if language == "sh":
            lines += [line.split("  #")[0].strip() for line in body.splitlines() if line.strip()]
    return lines


COVERED_ELSEWHERE = {
    "make test": "this suite is what `make test` runs",
    "make report": "test_report builds the report with the command of the Makefile's report target (checked below)",
    "make export": "test_export makes the kit from the committed outputs with the module the target runs",
    "make pdf": "test_report typesets the report it built with the module the target runs (checked below)",
}


def test_readme_has_examples():
    assert [language for language, _ in BLOCKS].count("python") >= 1
    assert {"make report", "make test"} <= set(shell_lines())


@pytest.mark.parametrize("python", [body for language, body in BLOCKS if language == "python"])
def test_python_examples_print_what_the_readme_shows(python, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read the project's files as a reader at its top would
    parser = doctest.DocTestParser()
    test = parser.get_doctest(python, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


SLOW_LINES = ("make notebook", "--fair")  # a whole rerun; the fair bonus's search


@pytest.mark.parametrize("line", [pytest.param(line, marks=[pytest.mark.slow] * any(s in line for s in SLOW_LINES))
                                  for line in shell_lines() if line not in COVERED_ELSEWHERE])
def test_shell_examples_run(line, tmp_path):
    env = {**os.environ, "STB_REPORT_DIR": str(tmp_path / "report")}
    run = subprocess.run(shlex.split(line), cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Traceback" not in run.stderr


def test_the_covered_commands_are_what_the_makefile_runs():
    report = subprocess.run(["make", "-n", "report"], cwd=ROOT, capture_output=True, text=True)
    assert "-m stb_core.report" in report.stdout
    kit = subprocess.run(["make", "-n", "export"], cwd=ROOT, capture_output=True, text=True)
    assert "-m stb_core export" in kit.stdout
    book = subprocess.run(["make", "-n", "pdf"], cwd=ROOT, capture_output=True, text=True)
    assert "-m stb_core.report.pdf" in book.stdout
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_make_lab_starts_and_prints_the_address():
    """As whichever user runs the tests (root in containers and CI): JupyterLab starts and prints its address."""
    port = free_port()
    process = subprocess.Popen(["make", "lab", f"LAB_PORT={port}"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen = ""
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            line = process.stdout.readline()
            if not line and process.poll() is not None:
                break
            seen += line
            if re.search(rf"http://127\.0\.0\.1:{port}/lab/tree/notebooks\?token=\w+", seen):
                break
        assert re.search(rf"http://127\.0\.0\.1:{port}/lab/tree/notebooks\?token=\w+", seen), seen[-2000:]
        assert "Running as root is not recommended" not in seen
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_the_analysis_shown_is_what_analyse_prints():
    shown = next(body for language, body in BLOCKS if language == "text" and body.lstrip().startswith("turn"))
    run = subprocess.run([sys.executable, "-m", "stb_core", "analyse", "--game", "8:2+6 7:7 11:8+3 12:-"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0 and shown.strip() in run.stdout, run.stdout


def test_the_readme_lists_what_each_chapter_refuses():
    """The README's table of rule options each chapter leaves out is what the chapters' functions refuse (their
    declared coverage): every refused kind and no other (a chapter reopened to an option, or closed to one, fails
    here until the README says so)."""
    from stb_core.report.parameters import DOMAINS, chapter_coverage

    listed = {}
    for stem, refused in re.findall(r"^\| `(\d\d-[\w-]+)` \| ((?:`\w+ [\w-]+`(?:, )?)+) \|", README, re.M):
        listed[stem] = set(re.findall(r"`(\w+) ([\w-]+)`", refused))
    declared = {stem: {(name, str(kind)) for name, kinds, _ in chapter_coverage(stem).refused for kind in kinds}
                for stem in DOMAINS}
    assert listed == {stem: refused for stem, refused in declared.items() if refused}
