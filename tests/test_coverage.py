"""Every rule option is declared once, and every function taking rules handles each kind of each option or refuses it.

* The declaration (:data:`stb_core.rules.RULE_OPTIONS`) makes ``Rules``' checks, the command line's flags, the
  notebooks' parameters and their ``parameters`` cells: each is compared with it here.
* A function declares what it does not handle (``@refuses``); a chapter covers what its functions cover
  (``@analysis_of``). Each declared refusal is an ``InputError`` naming the option, before any work; each chapter's
  pipeline runs on every kind of every option it covers (at a small size), so a chapter cannot accept what a
  function it calls refuses or crashes on; and a chapter's parameter domain refuses exactly what its functions do.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from dataclasses import replace

import pytest

import stb_core
from stb_core.report.catalogue import CHAPTERS
from stb_core.report.page import notebook_defaults
from stb_core.report.parameters import DOMAINS, ParameterError, chapter_coverage, parameters_cell, rules_value
from stb_core.rules import OPTIONS, RULE_OPTIONS, InputError, Rules

TINY = {"tiles": 3, "dice": 2, "sides": 3}  # a board every chapter solves in a moment


def declared_functions():
    """Every function of the package that declares a coverage, by its dotted name."""
    found = {}
    for info in pkgutil.walk_packages(stb_core.__path__, "stb_core."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if callable(value) and hasattr(value, "coverage") and getattr(value, "__module__", "") == info.name:
                found[f"{info.name}.{name}"] = value
    return found


DECLARED = declared_functions()


def test_rules_checks_each_option_by_its_declaration():
    for spec in RULE_OPTIONS:
        assert Rules().__getattribute__(spec.name) == spec.default
        for value in spec.values():
            Rules(**{spec.name: value, **({"layout": "row"} if spec.name == "tiles" else {})})
        bad = {int: 10**6, bool: "yes", str: "no such value"}[spec.kind]
        with pytest.raises(InputError, match=f"^{spec.name} must be"):
            Rules(**{spec.name: bad})


def test_the_command_line_has_one_flag_per_option_with_its_default_and_help():
    run = subprocess.run([sys.executable, "-m", "stb_core", "solve", "--help"], capture_output=True, text=True)
    text = " ".join(run.stdout.split())
    for spec in RULE_OPTIONS:
        flag = "--" + spec.name.replace("_", "-")
        assert flag in text
        assert " ".join(spec.help.split()) in text, spec.name


def test_every_notebook_parameters_cell_is_made_from_the_declaration():
    """The parameters cell of each notebook is exactly what its declaration makes (``make cells`` writes it)."""
    import json

    from stb_core.report.paths import NOTEBOOK_DIR

    for c in CHAPTERS:
        notebook = json.loads((NOTEBOOK_DIR / f"{c.stem}.ipynb").read_text(encoding="utf-8"))
        cell = next(x for x in notebook["cells"] if "parameters" in x.get("metadata", {}).get("tags", []))
        assert "".join(cell["source"]) == parameters_cell(c.stem), f"{c.stem}: run make cells"
        for spec in RULE_OPTIONS:
            parameter = next(p for p in DOMAINS[c.stem].parameters if p.name == spec.name)
            assert spec.help in parameter.help, (c.stem, spec.name)


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_a_declared_refusal_is_one_line_naming_the_option(name):
    """Each kind a function refuses raises InputError naming the option and what is allowed, before any work (the
    function is called with nothing else it needs)."""
    function = DECLARED[name]
    for option, kinds, why in function.coverage.refused:
        for kind in kinds:
            rules = replace(Rules(**TINY), **{option: OPTIONS[option].kind_examples[kind]})
            with pytest.raises(InputError) as raised:
                function(rules, *([None] * (len(inspect.signature(function).parameters) - 1)))
            message = str(raised.value)
            assert message.startswith(f"{option} = ") and why in message and "allowed: " in message, message


def kinds_covered(stem: str):
    coverage = chapter_coverage(stem)
    return [(spec.name, kind) for spec in RULE_OPTIONS for kind in spec.kind_examples
            if coverage.handles(spec.name, kind)]


@pytest.mark.parametrize("stem", [c.stem for c in CHAPTERS])
def test_a_chapter_domain_refuses_exactly_what_its_functions_refuse(stem):
    domain = DOMAINS[stem]
    base = {**notebook_defaults(stem), **domain.quick, **TINY}
    covered = set(kinds_covered(stem))
    for spec in RULE_OPTIONS:
        for kind, example in spec.kind_examples.items():
            values = {**base, spec.name: 0 if example is None else example}
            if (spec.name, kind) in covered:
                domain.check(values)
            else:
                with pytest.raises(ParameterError, match=f"^{spec.name} = .* is outside chapter"):
                    domain.check(values)


def chapter_runs():
    return [(c.stem, option, kind) for c in CHAPTERS for option, kind in kinds_covered(c.stem)]


@pytest.mark.parametrize(("stem", "option", "kind"), chapter_runs())
def test_a_chapter_runs_on_every_kind_of_every_option_it_covers(stem, option, kind):
    """The chapter's pipeline (every function the notebook calls) at a small size with the option of that kind:
    no function refuses it and none crashes."""
    module = importlib.import_module(f"stb_core.sources.{next(c.module for c in CHAPTERS if c.stem == stem)}")
    domain = DOMAINS[stem]
    values = {**notebook_defaults(stem), **domain.quick, **TINY}
    example = OPTIONS[option].kind_examples[kind]
    values[option] = 0 if example is None else example
    if option == "moves" and kind == "die-or-sum":
        values["dice"] = 2
    values = domain.check(values)
    rules = rules_value(values)
    others = {k: v for k, v in values.items() if k not in OPTIONS}
    for name, smallest in (("games", 1_000), ("rounds", 1_000), ("max_tiles", 4), ("compare_tiles", 4),
                           ("max_players", 2)):
        if name in others:
            others[name] = smallest if name not in ("games",) else max(smallest, int(domain.parameters[
                domain.names.index("games")].low))
    module.pipeline(rules, **others)


def test_a_board_size_parameter_is_refused_in_one_line_where_the_layout_cannot_take_it():
    """Chapter 6 with a Double Shutter and its default more-tiles range (16 front tiles) is refused before any kernel,
    naming max_tiles (issue 36: a traceback from the chapter's estimate); at 12 it runs."""
    domain = DOMAINS["06-whole-map"]
    values = {**notebook_defaults("06-whole-map"), "layout": "double-shutter"}
    with pytest.raises(ParameterError, match="^max_tiles = 16 is too many for these rules: tiles must be between 1 "
                                             "and 12"):
        domain.check(values)
    with pytest.raises(ParameterError, match="^compare_tiles = 13"):
        domain.check({**values, "max_tiles": 12, "compare_tiles": 13})
    domain.check({**values, "max_tiles": 12})


def test_every_notebook_cell_has_a_fixed_id():
    """Every cell of every notebook carries its own unique id: a cell without one gets a random id when it runs,
    and the page built from it then differs from build to build (the determinism test finds it, a quarter of an
    hour later)."""
    import json

    from stb_core.report.paths import NOTEBOOK_DIR

    for c in CHAPTERS:
        cells = json.loads((NOTEBOOK_DIR / f"{c.stem}.ipynb").read_text(encoding="utf-8"))["cells"]
        ids = [cell.get("id") for cell in cells]
        assert None not in ids and len(set(ids)) == len(ids), (c.stem, ids)
