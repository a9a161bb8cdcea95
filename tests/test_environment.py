"""The project's set-up: one list of pins mirrored for conda, notebooks stored clean, CI calls make test."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins(lines):
    return sorted(line.strip().lower() for line in lines if re.match(r"^[A-Za-z0-9_.\-\[\]]+==", line.strip()))


def test_environment_yml_mirrors_requirements():
    requirements = pins((ROOT / "requirements.txt").read_text().splitlines())
    conda = pins(line.strip().removeprefix("- ") for line in (ROOT / "environment.yml").read_text().splitlines())
    assert requirements and requirements == conda
    assert "python=3.11" in (ROOT / "environment.yml").read_text()


def test_every_requirement_is_pinned():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        assert "==" in line, line
    names = {line.split("==")[0].lower() for line in (ROOT / "requirements.txt").read_text().splitlines()}
    for needed in ("jupyterlab", "pandas", "numpy", "matplotlib", "seaborn", "nbconvert", "papermill", "pytest"):
        assert needed in names


def test_notebooks_are_stored_clean_with_one_parameters_cell():
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in notebooks:
        nb = json.loads(path.read_text())
        assert nb["metadata"]["kernelspec"]["name"] == "python3", path.name
        tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
        assert len(tagged) == 1, f"{path.name}: needs exactly one cell tagged parameters"
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell.get("outputs") == [] and cell.get("execution_count") is None, path.name


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M)
    assert "make test" in (ROOT / "README.md").read_text()


def test_nothing_reads_the_shared_folder():
    for path in [*ROOT.glob("stb_core/**/*.py"), *ROOT.glob("notebooks/*.ipynb"), ROOT / "Makefile"]:
        assert "../shared" not in path.read_text() and "/shared/" not in path.read_text(), path
