"""The write-up kit: every table's LaTeX well formed (one tabular, booktabs rules, as many cells in each row as columns,
the rows of its CSV or a printable summary that says where they are, the report's number kept and not repeated in the
caption, ASCII only), every key a caption cites present in the BibTeX file, every figure and table listed with its
caption, the zip holding the same files; and, where TeX is installed (make test installs it), the kit's main.tex, a
rerun's kit and the log reader itself checked by pdflatex. Made from the committed default outputs, into a scratch
folder."""

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from stb_core.report import latex, pdflatex, publish
from stb_core.report.export import ExportError, bib_entries, export
from stb_core.report.page import printed_columns

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The kit of the committed default outputs (read from the project; written only into a scratch folder), without
    its main.pdf (the typesetting tests make their own)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STB_OUTPUT_ROOT", str(ROOT))
        return export(None, tmp_path_factory.mktemp("kit"), typeset=False)


def braces_balance(text: str) -> bool:
    depth = 0
    for token in re.findall(r"\\[{}]|[{}]", text):
        if token in ("\\{", "\\}"):
            continue
        depth += 1 if token == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def spec_columns(spec: str) -> int:
    """How many columns a tabular's specification declares (S[...], X with its >{...}, l, r, p{...})."""
    spec = re.sub(r">\{(?:[^{}]|\{[^{}]*\})*\}", "", spec)
    spec = re.sub(r"\[[^\]]*\]|\{[^{}]*\}", "", spec)
    return len(re.findall(r"[SXlrcp]", spec))


def body_rows(text: str) -> list[str]:
    """The data rows of a kit table: after the head (a longtable's last foot, or the midrule), to the bottom rule."""
    body = text.split("\\endlastfoot")[1] if "\\endlastfoot" in text else text.split("\\midrule", 1)[1]
    body = body.split("\\bottomrule")[0] if "\\bottomrule" in body else body.split("\\end{")[0]
    return [row for row in body.strip().splitlines() if row.strip()]


def test_every_table_is_well_formed_latex(kit):
    tables = sorted((kit / "tables").rglob("*.tex"))
    assert len(tables) >= 60
    kinds = set()
    for tex in tables:
        text = tex.read_text(encoding="utf-8").replace("\\allowbreak{}", "")  # a long path's break points
        frame = pd.read_csv(tex.with_suffix(".csv"), keep_default_na=False)
        resource = next(r for r in json.loads((ROOT / "data" / tex.parent.name / "datapackage.json").read_text())[
            "resources"] if r["path"] == tex.with_suffix(".csv").name)
        assert text.isascii() and braces_balance(text), tex
        environments = re.findall(r"^\\begin\{(tabular|tabularx|longtable|xltabular)\}(?:\{\\linewidth\})?\{(.*)\}$",
                                  text, re.M)  # a header's lines are a tabular inside a cell, not at a line's start
        assert len(environments) == 1 and len(re.findall(rf"^\\end{{{environments[0][0]}}}", text, re.M)) == 1, tex
        kinds.add(environments[0][0])
        assert "\\toprule" in text and "\\midrule" in text and "\\bottomrule" in text, tex
        columns = spec_columns(environments[0][1])
        assert 1 <= columns <= len(frame.columns), tex
        rows = body_rows(text)
        summary = re.search(r"The first (\d+) of ([\d,]+) rows; every row is in (\S+)\.", text)
        assert len(rows) == (int(summary[1]) if summary else len(frame)), tex
        if summary:
            assert int(summary[2].replace(",", "")) == len(frame) and summary[3].endswith(tex.with_suffix(".csv").name)
        assert all(len(re.findall(r"(?<!\\)&", row)) == columns - 1 and row.endswith("\\\\") for row in rows), tex
        caption = re.search(r"\\caption\{(.*)\}", text)[1]
        assert not re.match(r"Table S?\d", caption), tex  # the number is LaTeX's, not the caption's
        number = re.search(r"\\stbnumber\{table\}\{([^}]+)\}", text)[1]
        assert resource.get("title", f"Table {number}") == f"Table {number}", tex
        assert re.search(r"\\label\{tab:[^}]+\}", text), tex
    assert {"tabular", "longtable"} <= kinds  # both short and long tables exist in the report


def test_every_kit_table_prints_its_values(kit):
    """The review of the kit found tables printed without their values: a table the page shows in another shape
    (pivoted) kept only the label columns the page names. Every table whose CSV holds a number prints a number
    column (an siunitx S column, or the column that writes the number out as the page does)."""
    valueless = []
    for tex in sorted((kit / "tables").rglob("*.tex")):
        frame = pd.read_csv(tex.with_suffix(".csv"), keep_default_na=False, na_values=[""])
        numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and frame[c].notna().any()]
        spec = re.search(r"^\\begin\{(?:tabularx|xltabular)\}\{\\linewidth\}\{(.*)\}$|"
                         r"^\\begin\{(?:tabular|longtable)\}\{(.*)\}$", tex.read_text(encoding="utf-8"), re.M)
        resource = next(r for r in json.loads((ROOT / "data" / tex.parent.name / "datapackage.json").read_text())[
            "resources"] if r["path"] == tex.with_suffix(".csv").name)
        as_text = [f["name"] for f in resource["schema"]["fields"]  # a number the page writes out ("7.1432%")
                   if "title" in f and f["name"].removesuffix("_shown") in numeric and f["name"].endswith("_shown")]
        if numeric and "S" not in (spec[1] or spec[2]) and not as_text:
            valueless.append((str(tex.relative_to(kit)), numeric))
    assert not valueless


def test_a_table_shown_in_another_shape_is_printed_whole():
    """The page shows the variants pivoted (a column per objective) and saves them long: the kit prints every column
    of the CSV under its own name; a table shown as saved keeps the page's columns."""
    long = pd.DataFrame({"variant": ["a", "a"], "objective": ["win", "sum"], "value": [0.1, 7.0]})
    wide = long.pivot(index="variant", columns="objective", values="value").reset_index()
    assert printed_columns(wide, long, {"variant": "rule variant"}) is None  # every column, as named
    assert printed_columns(long, long, {"variant": "rule variant"}) == {"variant": "rule variant"}
    assert printed_columns(long, long, None) is None
    assert printed_columns(wide, long, None, {"value": "v"}) == {"value": "v"}


def test_every_cited_key_is_in_the_bibtex_file(kit):
    bib = (kit / "references.bib").read_text(encoding="utf-8")
    keys = set(re.findall(r"@misc\{([^,]+),", bib))
    judged = set()  # every write-up whose figures the report judges, from the reference data's own rows
    for table in (ROOT / "data" / "published").glob("*.csv"):
        frame = pd.read_csv(table)
        if "source" in frame and "claim" in frame:
            judged |= set(frame["source"].dropna())
    assert keys == judged
    cited = set()
    for tex in (kit / "tables").rglob("*.tex"):
        for group in re.findall(r"\\cite\{([^}]+)\}", tex.read_text(encoding="utf-8")):
            cited.update(group.split(","))
    assert cited and cited <= keys, cited - keys
    assert braces_balance(bib)
    assert {"source000", "source004", "perez", "hopfer", "yale-cs201"} <= cited


def test_captions_list_every_figure_and_shown_table_and_the_zip_holds_the_kit(kit):
    captions = (kit / "captions.md").read_text(encoding="utf-8")
    figures = sorted((kit / "figures").rglob("*.pdf"))
    assert len(figures) >= 20
    for pdf in figures:
        assert f"figures/{pdf.parent.name}/{pdf.name}" in captions
        assert pdf.with_suffix(".svg").exists() and pdf.with_suffix(".png").exists()
    for tex in (kit / "tables").rglob("*.tex"):  # every table, shown on its page or only saved
        assert f"tables/{tex.parent.name}/{tex.name}" in captions and f"{tex.parent.name}/{tex.stem}.csv" in captions
    assert "**Table 8.6**" in captions and "**Figure 2.1**" in captions
    with zipfile.ZipFile(kit.with_suffix(".zip")) as zipped:
        names = set(zipped.namelist())
    files = {str(p.relative_to(kit.parent)) for p in kit.rglob("*") if p.is_file()}
    assert names == files


# -- typeset by pdflatex (make test installs TeX) ----------------------------------------------------------------------
def typeset(folder: Path, tmp_path: Path) -> tuple[list[str], str]:
    """A copy of a kit's main.tex typeset: the problems its log shows, and the PDF's text."""
    assert pdflatex.available(), "TeX is not installed: make test installs it (apt-get)"
    copy = tmp_path / "typeset"
    shutil.copytree(folder, copy)
    found = pdflatex.problems(pdflatex.compile_document(copy / "main.tex"))
    words = subprocess.run(["pdftotext", "-layout", str(copy / "main.pdf"), "-"], capture_output=True, text=True)
    return found, words.stdout


@pytest.mark.report
def test_the_kit_s_main_tex_sets_every_table_and_figure_with_no_problem(kit, tmp_path):
    """The review's B-1: a document inputting every table stopped pdflatex. Now main.tex typesets with no error, no
    undefined reference or citation, no box overfull by more than 10 pt, every table and figure with its number."""
    found, words = typeset(kit, tmp_path)
    assert found == []
    numbers = re.findall(r"^- \*\*((?:Table|Figure) S?\d+\.\d+)", (kit / "captions.md").read_text(), re.M)
    assert len(numbers) >= 90
    missing = [n for n in numbers if not re.search(rf"{re.escape(n)}:", words)]
    assert not missing
    assert "References" in words and "Shut the Box with Dynamic Programming" in words


@pytest.mark.report
def test_a_rerun_s_kit_comes_with_its_main_pdf(built_rerun, tmp_path):
    root, run = built_rerun
    done = stb_export(root, run, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "main.pdf: typeset cleanly" in done.stdout and (tmp_path / run / "main.pdf").stat().st_size > 10_000
    assert not [p.name for p in (tmp_path / run).glob("main.*") if p.suffix not in (".tex", ".pdf")]
    found, words = typeset(tmp_path / run, tmp_path)
    assert found == [] and "Table 2.2:" in words
    bib = (tmp_path / run / "references.bib").read_text(encoding="utf-8")
    assert re.findall(r"@misc\{([^,]+),", bib) == ["source001"]  # the rerun's chapter cites its source alone
    again = tmp_path / "again"
    assert stb_export(root, run, again).returncode == 0  # the same kit, byte for byte: its main.pdf included
    assert (again / f"{run}.zip").read_bytes() == (tmp_path / f"{run}.zip").read_bytes()


@pytest.mark.report
def test_the_log_reader_sees_what_a_reader_would(tmp_path):
    """pdflatex.problems, on a document with one of each fault: nothing is missed, and a clean one shows none."""
    faults = {"overfull": r"\noindent\rule{500pt}{1pt}", "reference": r"see \ref{nowhere}",
              "citation": r"\cite{nobody}", "float": r"\begin{table}[htbp]\rule{1pt}{900pt}\end{table}",
              "clean": r"Hello \rule{100pt}{1pt}"}
    for fault, body in faults.items():
        (tmp_path / f"{fault}.tex").write_text(f"\\documentclass{{article}}\n{pdflatex.PREAMBLE}\\begin{{document}}\n"
                                               f"{body}\n\\end{{document}}\n")
        found = pdflatex.problems(pdflatex.compile_document(tmp_path / f"{fault}.tex"))
        assert (found == []) == (fault == "clean"), (fault, found)
    with pytest.raises(RuntimeError, match="Undefined control sequence"):
        (tmp_path / "broken.tex").write_text("\\documentclass{article}\\begin{document}\\nosuchthing\\end{document}")
        pdflatex.compile_document(tmp_path / "broken.tex")


def test_latex_writes_the_report_s_text_as_pdflatex_sets_it():
    assert latex.text("50% of {1, 2} & 3_4 – “x” ≠ 2⁹ é") == \
        r"50\% of \{1, 2\} \& 3\_4 -- ``x'' $\neq$ 2\textsuperscript{9} \'{e}"
    with pytest.raises(latex.UnsetCharacter, match="U\\+1F3B2"):
        latex.text("🎲")
    assert "Perez" in bib_entries()["perez"] and "\\url{https://github.com/andy327/shut-the-box}" in \
        bib_entries()["perez"]


def test_every_character_the_report_shows_has_latex():
    """Every character of the built pages' text (their main part: not the menu's icons), the tables' cells and the
    figures' captions (what the kit and the PDF set) is one pdflatex can set as :func:`latex.text` writes it."""
    import bs4

    seen = set()
    for page in (ROOT / "report").glob("*.html"):
        seen |= set(bs4.BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("main").get_text())
    for table in (ROOT / "data").glob("0*/*.csv"):
        seen |= set(table.read_text(encoding="utf-8"))
    for captions in (ROOT / "figures").glob("0*/captions.json"):
        seen |= set(captions.read_text(encoding="utf-8"))
    unset = []
    for char in sorted(c for c in seen if not c.isascii()):
        try:
            latex.character(char)
        except latex.UnsetCharacter as error:
            unset.append(str(error))
    assert not unset, unset


def test_every_author_less_write_up_has_a_key_to_sort_by():
    for key, entry in bib_entries().items():
        assert re.search(r"^  (author|key) = ", entry, re.M), key


def test_a_bad_run_is_refused_in_one_line(tmp_path):
    with pytest.raises(ExportError, match="run must be a built rerun"):
        export("02-riddler-one-die--tiles=99", tmp_path)
    done = subprocess.run([sys.executable, "-m", "stb_core", "export", "--run", "../x"], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "run must be a built rerun" in done.stderr


# -- never deleting what the project did not write; all or nothing ---------------------------------------------------
@pytest.fixture(scope="module")
def built_rerun(tmp_path_factory):
    """A small rerun, built into a scratch output root: what the kit's safety tests export."""
    root = tmp_path_factory.mktemp("built")
    env = {**__import__("os").environ, "STB_REPORT_DIR": str(root / "report"), "STB_OUTPUT_ROOT": str(root)}
    done = subprocess.run([sys.executable, "-m", "stb_core.report", "--notebook", "02-riddler-one-die", "-p", "tiles",
                           "3"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return root, "02-riddler-one-die--tiles=3"


def stb_export(root: Path, run: str, out: Path, **env):
    import os

    environ = {**os.environ, "STB_OUTPUT_ROOT": str(root), **env}
    return subprocess.run([sys.executable, "-m", "stb_core", "export", "--run", run, "--out", str(out)], cwd=ROOT,
                          env=environ, capture_output=True, text=True, timeout=600)


def test_a_folder_the_project_did_not_write_is_refused_and_kept(built_rerun, tmp_path):
    """The review's F3: --out over a folder holding someone's thesis deleted it. Now: one line, nothing touched."""
    root, run = built_rerun
    (tmp_path / run).mkdir()
    (tmp_path / run / "thesis.tex").write_text("my thesis\n")
    done = stb_export(root, run, tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "is not a kit this project wrote" in done.stderr
    assert (tmp_path / run / "thesis.tex").read_text() == "my thesis\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [run]


def test_the_built_report_is_never_taken_for_a_kit(tmp_path):
    """``stb export --out .`` in the project deleted the built report: a report folder is not a kit, even with the
    marker every build leaves in it (the project wrote it, as the HTML report)."""
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "index.html").write_text("<html></html>\n")
    publish.mark(tmp_path / "report", "the HTML report")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STB_OUTPUT_ROOT", str(ROOT))
        with pytest.raises(ExportError, match="is not a kit this project wrote .it holds the HTML report"):
            export(None, tmp_path)
    assert (tmp_path / "report" / "index.html").exists()


@pytest.mark.parametrize("out", ["/proc/x", "a-file"])
def test_an_out_folder_that_cannot_be_one_is_refused_in_one_line(built_rerun, tmp_path, out):
    root, run = built_rerun
    if out == "a-file":
        (tmp_path / out).write_text("a file\n")
        out = str(tmp_path / out)
    done = stb_export(root, run, Path(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and out in done.stderr, done.stderr


KIT_STEPS = 1 + 2 * 2 + 2  # the journal, the folder and the zip each set aside and moved in, each old one removed


@pytest.mark.slow
@pytest.mark.parametrize("kill_after", range(1, KIT_STEPS + 1))
def test_an_export_killed_after_any_step_leaves_a_whole_kit(built_rerun, tmp_path, kill_after):
    """The review's F2: a SIGKILL between two steps removed the published kit. Now the next export finishes what the
    killed one began, first saying so, and the folder and the zip are one kit, nothing else left."""
    import os
    import signal

    root, run = built_rerun
    assert stb_export(root, run, tmp_path).returncode == 0
    (tmp_path / run / "OLD").write_text("old\n")  # the old kit, marked
    killed = stb_export(root, run, tmp_path, STB_PUBLISH_KILL_AFTER=str(kill_after))
    assert killed.returncode == -signal.SIGKILL
    following = stb_export(root, run, tmp_path)
    assert following.returncode == 0, following.stderr
    assert "repaired: the export of" in following.stdout.splitlines()[0] or kill_after == KIT_STEPS
    assert not (tmp_path / run / "OLD").exists()
    with zipfile.ZipFile(tmp_path / f"{run}.zip") as zipped:
        assert set(zipped.namelist()) == {str(p.relative_to(tmp_path)) for p in (tmp_path / run).rglob("*")
                                          if p.is_file()}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([run, f"{run}.zip"]), os.listdir(tmp_path)


@pytest.mark.slow
def test_two_exports_into_one_folder_take_turns(built_rerun, tmp_path):
    """The review's X3: two exports 3 s apart, one died on the other's staging folder. Now the second waits."""
    import os

    root, run = built_rerun
    environ = {**os.environ, "STB_OUTPUT_ROOT": str(root)}
    command = [sys.executable, "-m", "stb_core", "export", "--run", run, "--out", str(tmp_path)]
    first = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    outputs = [p.communicate(timeout=600) for p in (first, second)]
    assert first.returncode == 0 and second.returncode == 0, outputs
    assert "Traceback" not in "".join(o[1] for o in outputs)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([run, f"{run}.zip"])
