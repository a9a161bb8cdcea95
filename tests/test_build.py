"""Building runs, as a user starts them: requests refused before any work, a notebook rerun in one JupyterLab
kernel, builds killed or started side by side, crafted file names. These tests build their own small reruns in
scratch folders; the tests that read the whole built report are in ``test_report.py``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stb_core.report.catalogue import CHAPTERS
from stb_core.report.page import notebook_defaults
from stb_core.report.parameters import DOMAINS
from stb_core.report.publish import MARKER
from stb_core.report.run_names import run_name

ROOT = Path(__file__).resolve().parents[1]
STEMS = [c.stem for c in CHAPTERS]
pytestmark = pytest.mark.report


def report_command(*args, report_dir: Path):
    env = {**os.environ, "STB_REPORT_DIR": str(report_dir)}
    return subprocess.run([sys.executable, "-m", "stb_core.report", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


@pytest.mark.parametrize(("args", "message"), [
    (["--notebook", "01-sequence-counts", "-p", "tilez", "10"], "unknown parameter 'tilez'"),
    (["--notebook", "06-whole-map", "-p", "compare_tiles", "0"], "compare_tiles must be an integer between 1 and 16"),
    (["--notebook", "06-whole-map", "-p", "margin_percent", "-1"], "margin_percent must be a number between 0 and 100"),
    (["--notebook", "02-riddler-one-die", "-p", "one_die", "sometimes"],
     "one_die must be never, high-shut or sum-le-K"),
    (["--notebook", "01-sequence-counts", "-p", "board", "1,12"], "board tiles must be between 1 and 10, got 12"),
    (["--notebook", "01-sequence-counts", "-p", "board", "0,3"], "board tiles must be between 1 and 10, got 0"),
    (["--notebook", "01-sequence-counts", "-p", "board", "1,01"], "board lists a tile twice"),
    (["--notebook", "01-sequence-counts", "-p", "board", "1,a"], "board must be text like 1,3,4,6,7"),
    (["--notebook", "07-pub-game", "-p", "seed", "4294967296"], "seed must be an integer between 0 and 4294967295"),
    (["--notebook", "07-pub-game", "-p", "players", "7"], "players must be an integer between 2 and 6"),
    (["--notebook", "07-pub-game", "-p", "layout", "double-shutter", "-p", "scoring", "digits"],
     "scoring 'digits' reads a row of up to 12 tiles as a number"),
    (["--notebook", "03-open-and-shut", "-p", "layout", "double-shutter"],
     "layout = double-shutter is outside chapter 3's analysis"),
    (["--notebook", "99-nothing"], "notebook must be one of"),
    (["--notebook", "06-whole-map", "-p", "max_tiles", "24", "-p", "dice", "4", "-p", "sides", "20"],
     "06-whole-map with these parameters is out of reach: it would take about"),
])
def test_bad_requests_are_refused_before_any_work(tmp_path, args, message):
    run = report_command(*args, report_dir=tmp_path)
    assert run.returncode == 2 and message in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert not (tmp_path / "runs").exists() and not list(tmp_path.glob("figures/*"))


def test_run_names_keep_signs_and_decimals():
    defaults = notebook_defaults("06-whole-map")
    names = {run_name("06-whole-map", {**defaults, "margin_percent": v}, defaults) for v in (-1.0, 1.0, 1.5)}
    assert len(names) == 3 and "06-whole-map--margin_percent=-1.0" in names


def test_a_run_with_every_parameter_changed_has_a_name_every_file_system_takes():
    """Every parameter of chapter 6 away from its default: the name, with the publish journal's prefix and suffix,
    fits a file name of 255 bytes; runs that differ in their last parameter only keep distinct names."""
    from stb_core.report.run_names import RUN_NAME_MAX

    defaults = notebook_defaults("06-whole-map")
    changed = {"tiles": 1, "dice": 1, "sides": 2, "one_die": "high-shut", "one_die_forced": True, "max_per_move": 2,
               "win_at_most": 3, "moves": "die-or-sum", "layout": "double-shutter", "compare_tiles": 1,
               "max_tiles": 1, "margin_percent": 0.0, "card_lines": 2}
    names = {run_name("06-whole-map", {**defaults, **changed, "card_objective": o}, defaults)
             for o in ("remaining-sum", "digits")}
    assert len(names) == 2
    for name in names:
        assert name.startswith("06-whole-map--tiles=1--") and len(name) <= RUN_NAME_MAX
        assert len(f".publish-{name}.json.tmp".encode()) <= 255


def test_one_value_written_several_ways_makes_one_run():
    """``-p tolerance -0.0``, ``0``, ``0.0`` and ``1e-400`` are one value: one run name, one page."""
    from stb_core.report.parameters import domain
    from stb_core.report.run_names import parse_value

    defaults = notebook_defaults("03-open-and-shut")
    names = {run_name("03-open-and-shut", domain("03-open-and-shut").check({**defaults, "tolerance": parse_value(t)}),
                      defaults) for t in ("-0.0", "0", "0.0", "1e-400", "-1e-400")}
    assert names == {"03-open-and-shut--tolerance=0.0"}, names


def test_a_switch_written_in_lower_case_is_the_same_run():
    """``-p one_die_forced true`` (as a shell user writes it) is ``True``: one value, one run name."""
    from stb_core.report.parameters import domain
    from stb_core.report.run_names import parse_value

    defaults = notebook_defaults("04-game-space")
    names = {run_name("04-game-space", domain("04-game-space").check({**defaults, "one_die_forced": parse_value(t)}),
                      defaults) for t in ("true", "True")}
    assert names == {"04-game-space--one_die_forced=True"}, names
    assert parse_value("false") is False


def test_papermill_direct_injection_of_an_unknown_name_fails_in_the_notebook(tmp_path):
    stem = STEMS[0]
    out = tmp_path / "out.ipynb"
    run = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "notebooks" / f"{stem}.ipynb"), str(out),
                          "-p", "tilez", "10", "-k", "python3", "--cwd", str(ROOT / "notebooks")],
                         capture_output=True, text=True, env={**os.environ, "STB_OUTPUT_ROOT": str(tmp_path)})
    assert run.returncode != 0 and "unknown parameter 'tilez'" in run.stderr + run.stdout


def test_every_notebook_declares_exactly_its_parameters():
    for stem in STEMS:
        defaults = notebook_defaults(stem)
        assert set(defaults) == set(DOMAINS[stem].names), stem
        DOMAINS[stem].check(defaults)
        DOMAINS[stem].check({**defaults, **DOMAINS[stem].quick})


# -- the JupyterLab path ------------------------------------------------------------------------------------
def run_all(client, notebook) -> list[str]:
    """Run every cell in the client's kernel, as Run All does; the progress lines shown under the cells."""
    lines = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            client.execute_cell(cell, index)
            lines += [o.get("data", {}).get("text/html", "") for o in cell.outputs
                      if "stb-progress" in o.get("data", {}).get("text/html", "")]
    return lines


def test_a_notebook_reruns_in_one_kernel_after_a_parameter_is_edited(tmp_path, monkeypatch):
    """JupyterLab: Run All, edit a parameter, Run All again -- no restart, no 'unknown parameter'; a long
    computation shows one progress line under its cell, updated in place."""
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("STB_OUTPUT_ROOT", str(tmp_path))
    monkeypatch.delenv("STB_PROGRESS_FILE", raising=False)
    stem = "06-whole-map"
    notebook = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    parameters = next(c for c in notebook.cells if "parameters" in c.metadata.get("tags", []))

    def set_parameters(values: dict) -> None:
        lines = parameters.source.splitlines()
        for name, value in values.items():
            lines = [f"{name} = {value!r}" if re.match(rf"{name}\s*=", line) else line for line in lines]
        parameters.source = "\n".join(lines)

    quick = DOMAINS[stem].quick
    set_parameters(quick)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "notebooks")}})
    with client.setup_kernel():
        progress = run_all(client, notebook)
        assert progress and all("working (" in line for line in progress)
        set_parameters({"tiles": quick["tiles"] - 1})
        run_all(client, notebook)
    run = run_name(stem, {**notebook_defaults(stem), **quick, "tiles": quick["tiles"] - 1}, notebook_defaults(stem))
    assert (tmp_path / "data" / run / "findings.json").exists()


# -- kills, interrupts and builds side by side ----------------------------------------------------------------
def tree(*roots: Path) -> dict[str, bytes]:
    """Every file under ``roots`` with its bytes (relative paths, the root's name first)."""
    return {f"{root.name}/{p.relative_to(root)}": p.read_bytes() for root in roots for p in sorted(root.rglob("*"))
            if p.is_file()}


def interruptible() -> None:
    """Ctrl-C as at a terminal: a run started from a background job (``make test &``, a CI runner) inherits SIGINT
    ignored, and a build respects that -- the tests that send SIGINT start their runs with it restored."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def rerun(folder: Path, tiles: int) -> subprocess.Popen:
    env = {**os.environ, "STB_REPORT_DIR": str(folder / "report"), "STB_OUTPUT_ROOT": str(folder / "out"),
           "TMPDIR": str(folder / "tmp")}
    return subprocess.Popen([sys.executable, "-m", "stb_core.report", "--notebook", "02-riddler-one-die", "-p", "tiles",
                             str(tiles)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, preexec_fn=interruptible)


def settled(folder: Path, timeout: float = 60.0) -> None:
    """Wait until no build of ``folder`` is left: no staging folder, nothing set aside, no kernel of it running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in (folder / "report").glob(".*") if p.name not in (".lock", MARKER)]
        left += [p for p in (folder / "out").rglob(".*.old")]
        if not left and not subprocess.run(["pgrep", "-f", str(folder / "report")], capture_output=True).stdout:
            return
        time.sleep(0.5)
    raise AssertionError(f"a killed build left {left}")


def test_kills_and_builds_side_by_side_never_lose_a_published_file(tmp_path):
    """Two reruns started at once (the later waits for the earlier, both finish); then reruns stopped by SIGINT,
    SIGTERM or SIGKILL at random moments -- the published tree is byte for byte what it was (a complete new build
    gives the same bytes), with nothing left in the tree or the temporary folder."""
    import random
    import signal

    (tmp_path / "tmp").mkdir()
    started = time.monotonic()
    both = [rerun(tmp_path, 5), rerun(tmp_path, 6)]
    logs = [p.communicate(timeout=300)[0] for p in both]
    seconds = (time.monotonic() - started) / 2  # about one build: the kills below land inside one
    assert [p.returncode for p in both] == [0, 0], logs
    assert any("waiting for it to finish" in log for log in logs), logs
    settled(tmp_path)
    published = tree(tmp_path / "report", tmp_path / "out")
    assert any("tiles=5" in name for name in published) and any("tiles=6" in name for name in published)

    generator = random.Random(2026)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        build = rerun(tmp_path, generator.choice((5, 6)))
        time.sleep(generator.uniform(0.8, max(0.8, seconds)))
        build.send_signal(sig)
        out = build.communicate(timeout=120)[0]
        assert "Traceback" not in out, out
        settled(tmp_path)
        assert tree(tmp_path / "report", tmp_path / "out") == published, f"after {sig.name}"
        assert not list((tmp_path / "tmp").iterdir()), f"{sig.name} left {list((tmp_path / 'tmp').iterdir())}"


def test_file_names_never_become_markup(tmp_path, monkeypatch):
    """A crafted page name in report/runs/ is listed as text, and its link is a relative path, not a script."""
    from stb_core.report.pages import write_runs_index

    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ('<img src=x onerror=alert(1)>.html', 'javascript:alert(1).html', 'a"b.html'):
        (runs / name).write_text("x")
    monkeypatch.setenv("STB_REPORT_DIR", str(tmp_path))
    monkeypatch.setenv("STB_OUTPUT_ROOT", str(tmp_path / "out"))
    write_runs_index()
    page = (runs / "index.html").read_text()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert 'href="javascript' not in page and 'href="./javascript%3Aalert%281%29.html"' in page
    assert 'a"b' not in page.split("<main", 1)[1]


@pytest.mark.parametrize("delay", [0.8, 1.2, 1.6])  # after Python has loaded the engine package
def test_ctrl_c_while_a_build_is_starting_says_one_line(tmp_path, delay):
    """Ctrl-C before any notebook has started (Python still loading, the run being planned): one line, status 130
    (or the shell's own end when Python had not yet started), no traceback, nothing written."""
    import signal

    (tmp_path / "tmp").mkdir()
    build = rerun(tmp_path, 5)
    time.sleep(delay)
    build.send_signal(signal.SIGINT)
    out = build.communicate(timeout=120)[0]
    assert "Traceback" not in out, out
    assert build.returncode in (130, -signal.SIGINT) or "stopped" in out, (build.returncode, out)


PUBLISH_INTERRUPTED = """
import os, signal, sys
from stb_core.report import build, publish
real = publish.Move.move_in
calls = []
def forward(self, countdown=None):
    real(self, countdown)
    calls.append(self.target)
    if len(calls) == 1:  # a signal between the first and the second of a run's moves (make forwards a second)
        os.kill(os.getpid(), signal.{sig})
        os.kill(os.getpid(), signal.{sig})
publish.Move.move_in = forward
sys.exit(build.main(["--notebook", "02-riddler-one-die", "-p", "tiles", "5"]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_while_a_run_is_published_waits_until_it_is_whole(tmp_path, sig):
    """Ctrl-C or SIGTERM (twice: make forwards its own) while a run's folders, notebook and page are being swapped:
    the run is published whole -- its page, tables and figures all new, nothing set aside left behind -- and the
    last line names it as published."""
    env = {**os.environ, "STB_REPORT_DIR": str(tmp_path / "report"), "STB_OUTPUT_ROOT": str(tmp_path / "out")}
    done = subprocess.run([sys.executable, "-c", PUBLISH_INTERRUPTED.format(sig=sig)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    run = "02-riddler-one-die--tiles=5"
    assert done.returncode == 130, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert f"1 of 1 runs published before it ({run})" in last, last
    assert "Traceback" not in done.stderr
    for path in (tmp_path / "out" / "data" / run / "checks.json", tmp_path / "out" / "figures" / run,
                 tmp_path / "report" / "data" / run, tmp_path / "report" / "figures" / run,
                 tmp_path / "report" / "runs" / f"{run}.html"):
        assert path.exists(), path
    from urllib.parse import quote

    assert quote(f"{run}.html") in (tmp_path / "report" / "runs" / "index.html").read_text()  # listed
    left = [p for p in (tmp_path / "report").rglob(".*") if p.name not in (".lock", MARKER)]
    left += list((tmp_path / "out").rglob(".*"))
    assert not left, left


def test_a_report_folder_on_another_filesystem_publishes(tmp_path):
    """report/ on another filesystem than data/ and figures/ (a mounted web folder): a rename cannot cross it, so
    the run is copied beside each target first -- published whole, no traceback, nothing left behind."""
    from stb_core.report import publish

    other = Path("/dev/shm")
    if not other.is_dir() or os.stat(other).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second filesystem to publish across")
    staged = other / f"stb-test-{os.getpid()}"
    try:
        (staged / "new").mkdir(parents=True)
        (staged / "new" / "table.csv").write_text("a\n1\n")
        (tmp_path / "data" / "run").mkdir(parents=True)
        (tmp_path / "data" / "run" / "old.csv").write_text("old\n")
        publish.publish(tmp_path, "run", [(staged / "new", tmp_path / "data" / "run")])
        assert sorted(p.name for p in (tmp_path / "data" / "run").iterdir()) == ["table.csv"]
        assert not list((tmp_path / "data").glob(".*")) and not list(tmp_path.glob(".publish-*"))
    finally:
        import shutil

        shutil.rmtree(staged, ignore_errors=True)


class _KernelThatLosesThePortRace:
    """papermill.execute_notebook as it fails when another process takes a port the kernel was given: the kernel
    writes ipykernel's ZMQError to its log and dies before any cell (nbclient raises a RuntimeError)."""

    def __init__(self, losses: int):
        self.losses, self.calls = losses, 0

    def __call__(self, source, target, *, kernel_manager_class, **_):
        self.calls += 1
        if self.calls <= self.losses:
            with open(Path(target).parent / "kernel.log", "a") as handle:
                handle.write("zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:43863')\n")
            raise RuntimeError("Kernel died before replying to kernel_info")
        Path(target).write_text("{}")


@pytest.mark.parametrize(("losses", "code"), [(1, 0), (2, 0), (3, 1)])
def test_a_kernel_that_loses_the_port_race_is_started_again(tmp_path, monkeypatch, losses, code):
    import papermill

    from stb_core.report import run

    fake = _KernelThatLosesThePortRace(losses)
    monkeypatch.setattr(papermill, "execute_notebook", fake)
    job = {"folder": str(tmp_path), "stem": "01-classic-game", "parameters": {}, "run": "01-classic-game"}
    assert run.execute(job) == code
    assert fake.calls == min(losses + 1, run.KERNEL_STARTS)
    assert (tmp_path / "error.txt").exists() == (code == 1)
    if code:
        assert "Address already in use" in (tmp_path / "error.txt").read_text()


def test_a_kernel_that_dies_otherwise_is_not_started_again(tmp_path, monkeypatch):
    import papermill

    from stb_core.report import run

    calls = []

    def dies(*_, **__):
        calls.append(1)
        raise RuntimeError("Kernel died")

    monkeypatch.setattr(papermill, "execute_notebook", dies)
    job = {"folder": str(tmp_path), "stem": "01-classic-game", "parameters": {}, "run": "01-classic-game"}
    assert run.execute(job) == 1 and len(calls) == 1


def test_the_kernels_own_messaging_errors_do_not_reach_a_page(capsys):
    """Under heavy load a build's page carried twelve stderr blocks 'ERROR:tornado.general:Uncaught exception in
    ZMQStream callback … DELIM not in msg_list' (the kernel's messaging, not the notebook). They are dropped, and
    said so; a warning the notebook printed stays, for the page linter."""
    import nbformat

    from stb_core.report.render import drop_kernel_noise

    noise = "ERROR:tornado.general:Uncaught exception in ZMQStream callback\nTraceback ...\nValueError: DELIM\n"
    warning = "RuntimeWarning: divide by zero encountered\n"
    cell = nbformat.v4.new_code_cell("x = 1", outputs=[
        nbformat.v4.new_output("stream", name="stderr", text=noise),
        nbformat.v4.new_output("stream", name="stdout", text="ERROR:tornado.general: said by the notebook\n"),
        nbformat.v4.new_output("stream", name="stderr", text=warning)])
    notebook = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_markdown_cell("text")])
    assert drop_kernel_noise(notebook) == 1
    assert [o["text"] for o in notebook.cells[0].outputs] == ["ERROR:tornado.general: said by the notebook\n", warning]
    assert "dropped 1 stderr block of the kernel's own messaging" in capsys.readouterr().err
