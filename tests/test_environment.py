"""The project's set-up: one list of pins mirrored for conda, notebooks stored clean, CI calls make test."""

import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==(\S+)\s*(?:#\s*(.*))?$")
SHARED_PART = "# -- what the packages above need"


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_parts() -> tuple[dict, dict]:
    """requirements.txt as (the packages the project uses, what they need): name -> (version, comment)."""
    text = (ROOT / "requirements.txt").read_text()
    own, shared = text.split(SHARED_PART)
    parts = []
    for part in (own, shared):
        pins = {}
        for line in part.splitlines():
            if line.strip() and not line.startswith("#"):
                match = PIN.match(line)
                assert match, f"not an exact pin with its reason: {line!r}"
                assert match[3], f"{match[1]} says nothing about why it is pinned"
                pins[normal(match[1])] = (match[2], match[3])
        parts.append(pins)
    return parts[0], parts[1]


def imported_names() -> set[str]:
    """Every top-level module the project's code, tests, benchmarks and notebooks import."""
    names = set()
    files = [*ROOT.glob("stb_core/**/*.py"), *ROOT.glob("tests/*.py"), *ROOT.glob("benchmarks/*.py")]
    texts = [p.read_text() for p in files]
    texts += ["".join(c["source"]) for p in ROOT.glob("notebooks/*.ipynb") for c in json.loads(p.read_text())["cells"]]
    for text in texts:
        names |= set(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", text, re.M))
    return names


# What uses a pinned package that is not imported: the file and the text there that needs it.
USED_BY_A_COMMAND = {
    "jupyterlab": ("Makefile", "jupyter lab"), "ruff": ("Makefile", "ruff check"),
    "pytest-xdist": ("Makefile", "pytest -n"), "setuptools": ("Makefile", "--no-build-isolation"),
    "ipykernel": ("notebooks/01-sequence-counts.ipynb", "\"name\": \"python3\""),  # the kernel
    "django-static-mathjax": ("stb_core/report/render.py", '"django-static-mathjax"'),
}
IMPORT_NAMES = {"jinja2": "jinja2", "markupsafe": "markupsafe"}


def test_every_pin_the_project_names_is_used_and_says_why():
    own, _ = requirement_parts()
    imported = {name.lower() for name in imported_names()}
    for name in own:
        if name in USED_BY_A_COMMAND:
            path, needs = USED_BY_A_COMMAND[name]
            assert needs in (ROOT / path).read_text(), f"{name}: {path} no longer has {needs!r}"
        else:
            assert IMPORT_NAMES.get(name, name.replace("-", "_")) in imported, f"{name} is pinned but never imported"
    for needed in ("jupyterlab", "pandas", "numpy", "matplotlib", "seaborn", "nbconvert", "papermill", "pytest"):
        assert needed in own


def requires(distribution, extras=frozenset()) -> set[str]:
    from packaging.requirements import Requirement

    names = set()
    for line in distribution.requires or []:
        requirement = Requirement(line)
        if requirement.marker is None or any(requirement.marker.evaluate({"extra": e}) for e in {"", *extras}):
            names.add((normal(requirement.name), frozenset(requirement.extras)))
    return names


def test_every_other_pin_is_needed_by_a_pinned_package_and_nothing_else_is_pinned():
    """The second part of requirements.txt is exactly what the first part needs (with the extras it asks for), as
    the installed packages' own metadata says, and each pin's "via" names packages that really need it."""
    from importlib.metadata import distribution

    own, shared = requirement_parts()
    needed_by, closure, todo = {}, set(), [(name, frozenset()) for name in own]
    seen = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        closure.add(name)
        for child, child_extras in requires(distribution(name), extras):
            needed_by.setdefault(child, set()).add(name)
            todo.append((child, child_extras))
    assert set(shared) == closure - set(own), "requirements.txt is not the closure of its first part"
    for name, (version, _) in {**own, **shared}.items():
        installed = distribution(name).version
        assert installed == version, f"{name}: installed {installed}, pinned {version}"
    for name, (_, comment) in shared.items():
        via = {normal(v) for v in comment.removeprefix("via ").split(", ")}
        assert via and via <= needed_by[name], f"{name}: {comment!r}, but it is needed by {sorted(needed_by[name])}"


CONDA_NAMES = {"matplotlib": "matplotlib-base"}  # conda-forge's matplotlib without a GUI toolkit


def test_environment_yml_installs_the_same_versions_from_conda_forge():
    own, _ = requirement_parts()
    text = (ROOT / "environment.yml").read_text()
    conda = dict(re.findall(r"^  - ([a-z0-9\-]+)=([^=\s]+)$", text, re.M))
    pip = {normal(n): v for n, v in re.findall(r"^      - ([A-Za-z0-9_.\-]+)==(\S+)", text, re.M)}
    assert conda.pop("python") == "3.11"
    expected = {CONDA_NAMES.get(name, name): version for name, (version, _) in own.items() if name not in pip}
    assert conda == expected
    assert {name: own[name][0] for name in pip} == pip
    assert "conda-forge" in text and "- -e ." in text


def test_the_package_metadata_agrees_with_the_pins_and_the_citation():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    own, _ = requirement_parts()
    declared = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    names = {normal(re.split(r"[<>=!~\[; ]", r)[0]) for r in declared}
    assert names == set(own) - {"setuptools"}
    assert project["requires-python"] == ">=3.11" and project["readme"] == "README.md"
    assert project["license"] and project["authors"] and project["scripts"]["stb"] == "stb_core.cli:main"
    citation = (ROOT / "CITATION.cff").read_text()
    assert f'version: "{project["version"]}"' in citation


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


def test_a_notebook_saved_with_its_outputs_is_committed_clean(tmp_path):
    """The git filter ``make setup`` registers, on a notebook saved as JupyterLab saves it after Run All: the
    commit holds the notebook exactly as stored here, the working copy keeps its outputs."""
    import shutil
    import subprocess

    command = re.search(r'git config filter\.notebook-outputs\.clean "([^"]+)"', (ROOT / "Makefile").read_text())[1]
    repo = tmp_path / "repo"
    for name in (".gitattributes", "stb_core/report/clean_notebook.py"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, repo / name)
    clean = (ROOT / "notebooks" / "01-sequence-counts.ipynb").read_text(encoding="utf-8")
    notebook = json.loads(clean)
    for count, cell in enumerate(c for c in notebook["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = count + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["ran\n"]}]
        cell["metadata"]["execution"] = {"iopub.status.busy": "2026-11-23T10:00:00Z"}
    notebook["metadata"]["language_info"]["version"] = "3.11.7"
    notebook["metadata"]["widgets"] = {}
    saved = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
    (repo / "notebooks").mkdir()
    (repo / "notebooks" / "chapter.ipynb").write_text(saved, encoding="utf-8")

    def git(*args):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                              capture_output=True, text=True).stdout

    git("init", "-q")
    git("config", "filter.notebook-outputs.clean", command)
    git("add", ".")
    git("commit", "-q", "-m", "a notebook with outputs")
    assert git("show", "HEAD:notebooks/chapter.ipynb") == clean
    assert (repo / "notebooks" / "chapter.ipynb").read_text(encoding="utf-8") == saved
    assert git("status", "--porcelain") == ""


def test_the_installed_package_has_its_templates_and_says_what_the_report_needs(tmp_path):
    """``pip install .`` as a wheel: the report's templates and assets are package data, ``stb --version`` names
    the version, and building the report outside a clone says it needs the repository (no traceback)."""
    import subprocess
    import sys
    import tomllib
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("*.whl"))
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    templates = ROOT / "stb_core" / "report" / "templates"
    shipped = {p.relative_to(installed / "stb_core" / "report" / "templates") for p in
               (installed / "stb_core" / "report" / "templates").rglob("*") if p.is_file()}
    assert shipped == {p.relative_to(templates) for p in templates.rglob("*") if p.is_file()}
    env = {**os.environ, "PYTHONPATH": str(installed)}
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    shown = subprocess.run([sys.executable, "-m", "stb_core", "--version"], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
    assert shown.stdout.strip() == f"python -m stb_core {version}"
    built = subprocess.run([sys.executable, "-m", "stb_core.report"], cwd=tmp_path, env=env, capture_output=True,
                           text=True)
    assert built.returncode == 2 and "Traceback" not in built.stderr, built.stderr
    assert "clone of the project's repository" in built.stderr and built.stderr.count("\n") == 1
