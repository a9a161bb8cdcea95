"""The write-up kit: every table's LaTeX well formed (balanced braces, one tabular, as many columns as its CSV), every
key a caption cites present in the BibTeX file, every figure and table listed with its caption, and the zip holding
the same files. Made from the committed default outputs, into a scratch folder."""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from stb_core.report.export import ExportError, bib_entries, export, latex

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The kit of the committed default outputs (read from the project; written only into a scratch folder)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STB_OUTPUT_ROOT", str(ROOT))
        return export(None, tmp_path_factory.mktemp("kit"))


def braces_balance(text: str) -> bool:
    depth = 0
    for token in re.findall(r"\\[{}]|[{}]", text):
        if token in ("\\{", "\\}"):
            continue
        depth += 1 if token == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def test_every_table_is_well_formed_latex(kit):
    tables = sorted((kit / "tables").rglob("*.tex"))
    assert len(tables) >= 60
    for tex in tables:
        text = tex.read_text(encoding="utf-8")
        frame = pd.read_csv(tex.with_suffix(".csv"), keep_default_na=False)
        assert braces_balance(text), tex
        assert text.count("\\begin{tabular}") == 1 and text.count("\\end{tabular}") == 1, tex
        assert "\\toprule" in text and "\\midrule" in text and "\\bottomrule" in text, tex
        spec = re.search(r"\\begin\{tabular\}\{([lr]*)\}", text)[1]
        assert len(spec) == len(frame.columns), tex
        body = text.split("\\midrule")[1].split("\\bottomrule")[0].strip().splitlines()
        assert len(body) == len(frame), tex
        assert all(len(re.findall(r"(?<!\\)&", row)) == len(frame.columns) - 1 for row in body), tex
        assert re.search(r"\\label\{tab:[^}]+\}", text) and "\\caption{" in text


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
    assert "**Table 8.6**" in captions and "**Figure 2.1**" in captions
    with zipfile.ZipFile(kit.with_suffix(".zip")) as zipped:
        names = set(zipped.namelist())
    files = {str(p.relative_to(kit.parent)) for p in kit.rglob("*") if p.is_file()}
    assert names == files


def test_latex_escapes_the_report_s_text():
    assert latex("50% of {1, 2} & 3_4 – “x”") == r"50\% of \{1, 2\} \& 3\_4 -- ``x''"
    assert "Perez" in bib_entries()["perez"] and "\\url{https://github.com/andy327/shut-the-box}" in \
        bib_entries()["perez"]


def test_a_bad_run_is_refused_in_one_line(tmp_path):
    with pytest.raises(ExportError, match="run must be a built rerun"):
        export("02-riddler-one-die--tiles=99", tmp_path)
    done = subprocess.run([sys.executable, "-m", "stb_core", "export", "--run", "../x"], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "run must be a built rerun" in done.stderr
