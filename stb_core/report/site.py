"""The pages the build writes itself (the index, the glossary, the runs, the explorer): their Jinja environment,
the report's frame around them, and the words they share (a count with its noun, a chapter's tally of verdicts).
Read by the build and by the explorer; it reads neither."""

from __future__ import annotations

import re

from . import crossref, shell
from .catalogue import CHAPTERS
from .paths import TEMPLATES, report_dir, write_text
from .present import claims_table, prose_inline


def many(count: int, noun: str, plural: str | None = None) -> str:
    """``1 claim``, ``4 claims``: a count with its noun."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


def tally(record: dict) -> str:
    """``12 claims: 9 reproduced or confirmed, 1 corrected by the source, 2 figures off, no statement
    contradicted``: a chapter's claims by verdict, from its record."""
    counts = record["counts"]
    parts = [f"{counts['reproduced']} reproduced or confirmed"]
    if counts.get("corrected"):
        parts.append(f"{counts['corrected']} corrected by the source")
    parts.append(f"{many(counts['off'], 'figure')} off")
    parts.append(f"{many(counts['contradicted'], 'statement')} contradicted")
    if counts.get("cannot_compare"):
        parts.append(f"{counts['cannot_compare']} that cannot be compared")
    return f"{many(len(record['claims']), 'claim')}: " + ", ".join(parts)


def slug(text: str) -> str:
    return re.sub(r"[^a-z]+", "-", text.lower()).strip("-")


def label(entry) -> str:
    return f"{entry.number}. {entry.title}" if entry.number else entry.title



def site_environment():
    """The Jinja environment of the pages the build writes itself (autoescaped: text from a file name or a
    parameter never becomes markup)."""
    from jinja2 import Environment, FileSystemLoader
    from markupsafe import Markup

    environment = Environment(loader=FileSystemLoader(TEMPLATES / "site"), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)
    environment.filters["prose"] = lambda text: Markup(prose_inline(text))
    environment.filters["many"] = many
    environment.filters["slug"] = slug
    environment.globals["claims_table"] = lambda claims, caption: Markup(claims_table(claims, caption))
    environment.globals["tally"] = tally
    return environment


def write_site_page(template: str, target: str, current: str, title: str, up: str = "", **values) -> None:
    """Render ``template`` inside the report's frame to ``report/<target>``."""
    order = shell.entries()
    position = next((i for i, e in enumerate(order) if e.page == current), None)
    pager = None
    if position is not None:
        previous = order[position - 1] if position > 0 else None
        following = order[position + 1] if position + 1 < len(order) else None
        pager = ((f"{up}{previous.page}", label(previous)) if previous else None,
                 (f"{up}{following.page}", label(following)) if following else None)
    page = site_environment().get_template(template).render(
        title=title, up=up, frame=shell.frame(current, up), pager=pager, math=values.pop("math", False), **values)
    page = crossref.link_references(page, 0, {c.number: c.page for c in CHAPTERS}, up)
    write_text(report_dir() / target, page)
