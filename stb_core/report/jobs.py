"""The runs a build does: which chapter, with which parameters, under which name, and what each is expected to
take -- checked against the notebook's declared domain before any work (:func:`plan`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .catalogue import CHAPTERS, Chapter, chapter
from .parameters import ParameterError, domain
from .paths import report_dir
from .run_names import parse_value, run_name


class ReportError(Exception):
    """A problem with the request (unknown notebook or parameter, the default report asked as a rerun)."""

class NotebookFailed(Exception):
    """A notebook raised an error while running: reported with its message, status 1."""

@dataclass(frozen=True)
class Job:
    """One notebook run: which chapter, with which parameters, under which name (and what it is estimated to
    take, when known)."""

    chapter: Chapter
    parameters: dict
    run: str
    estimate: object = None

    @property
    def stem(self) -> str:
        return self.chapter.stem

    @property
    def default(self) -> bool:
        return self.run == self.stem

    @property
    def html_path(self) -> Path:
        return report_dir() / (f"{self.stem}.html" if self.default else f"runs/{self.run}.html")

    @property
    def notebook_path(self) -> Path:
        return report_dir() / (f"notebooks/{self.stem}.ipynb" if self.default else f"runs/{self.run}.ipynb")


def defaults_of(stem: str) -> dict:
    from .page import notebook_defaults

    return notebook_defaults(stem)

def plan(stem: str | None, pairs: list[tuple[str, str]]) -> list[Job]:
    """The runs to do; raises :class:`ReportError` for an unknown notebook, an unknown or out-of-domain
    parameter, a parameter given twice, or a rerun with the default parameters -- before any work."""
    if stem is None:
        if pairs:
            raise ReportError("parameters (-p) need one notebook: add --notebook STEM")
        return [Job(c, {}, c.stem) for c in CHAPTERS]
    stems = [c.stem for c in CHAPTERS]
    if stem not in stems:
        raise ReportError(f"notebook must be one of {', '.join(stems)}; got {stem!r}")
    defaults = defaults_of(stem)
    declared = {p.name: p for p in domain(stem).parameters}
    given = {}
    for name, text in pairs:
        if name in given:
            raise ReportError(f"parameter {name!r} is given twice")
        text_parameter = name in declared and declared[name].kind is str
        given[name] = text if text_parameter else parse_value(text)
    try:
        values = domain(stem).check({**defaults, **given})
    except ParameterError as error:
        raise ReportError(str(error)) from None
    run = run_name(stem, values, defaults)
    if run == stem:
        raise ReportError(f"these are the default parameters of {stem}: that is the default report -- "
                          f"run make report")
    cost = estimate_run(stem, values)
    if not cost.affordable:
        from ..cost import MEMORY_BUDGET, TIME_BUDGET

        raise ReportError(f"{stem} with these parameters is out of reach: it would take {cost.describe()} (the "
                          f"budget: {TIME_BUDGET / 60:.0f} minutes and {MEMORY_BUDGET / 2**30:.0f} GB); use fewer "
                          f"tiles, dice or sides")
    return [Job(chapter(stem), {k: v for k, v in values.items() if defaults.get(k) != v}, run, cost)]

def estimate_run(stem: str, values: dict):
    """What a run of ``stem`` with these (checked) parameters is expected to take, from its chapter module's
    ``estimate`` (built on :mod:`stb_core.cost`: counted from the rules, before any work)."""
    import importlib

    from ..cost import Estimate
    from .page import rules_of

    module = importlib.import_module(f"stb_core.sources.{chapter(stem).module}")
    rules = rules_of(values)
    work = module.estimate(rules, **{k: v for k, v in values.items() if k not in rules.__dataclass_fields__})
    return work + Estimate(10.0)  # a kernel started, the figures drawn, the page rendered


__all__ = ["Job", "NotebookFailed", "ReportError", "defaults_of", "estimate_run", "plan"]
