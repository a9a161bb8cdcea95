"""The sources' published figures and statements, with their citations (``data/published/``): read, resolved
(a claim repeated on another page takes its home row), and written as the report writes its kind of quantity.
Below the report: a chapter's part may cite a source without the page machinery."""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import pandas as pd

from .words import minus as _minus

PUBLISHED_DIR = Path(__file__).resolve().parents[2] / "data" / "published"
COLUMNS = ("key", "claim_id", "role", "kind", "claim", "published", "unit", "method", "games", "delta", "truncated",
           "corrected", "corrected_citation", "same_as", "expected", "source", "citation")
SHARED = ("published", "unit", "method", "games", "delta", "truncated", "corrected", "corrected_citation", "source",
          "citation")  # what a same_as row takes from its one home


def load_published(stem: str) -> pd.DataFrame:
    """The figures and statements a source published, with their citations: ``data/published/<stem>.csv``; a row
    that is the ``same_as`` another page's takes that row's figure, method and citation."""
    table = _read(stem)
    for i, row in table.iterrows():
        if row["same_as"]:
            other_stem, _, other_key = row["same_as"].partition(":")
            home = _read(other_stem).set_index("key").loc[other_key]
            for column in SHARED:
                table.at[i, column] = home[column]
    return table


def _read(stem: str) -> pd.DataFrame:
    table = pd.read_csv(PUBLISHED_DIR / f"{stem}.csv", dtype=str, keep_default_na=False)
    missing = set(COLUMNS) - set(table.columns)
    if missing:
        raise ValueError(f"data/published/{stem}.csv lacks the columns {sorted(missing)}")
    return table


def repeated_claims(stem: str) -> set[str]:
    """The claims of a chapter whose home is another page's (``same_as``): judged there, repeated here."""
    if not (PUBLISHED_DIR / f"{stem}.csv").exists():
        return set()
    table = _read(stem)
    return set(table.loc[table["same_as"] != "", "claim_id"])


@cache
def source_rows() -> tuple[dict, ...]:
    """The five sources as ``sources.csv`` lists them (key, title, author, date, address, rules, citation, bibkey):
    the one reader of that file."""
    with open(PUBLISHED_DIR / "sources.csv", encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle))


@cache
def references() -> dict[str, dict]:
    """Every write-up a figure may come from, by key: the five sources (``sources.csv``, their citation as the
    ``note``) and the further write-ups of chapter 8 (``references.csv``), each with its author, title, year,
    address, where it was published and a note."""
    out = {}
    for row in source_rows():
        if row["bibkey"]:
            out[row["bibkey"]] = {"key": row["bibkey"], "author": row["author"], "title": row["title"],
                                  "year": row["date"], "address": row["address"], "published_in": "",
                                  "note": row["citation"]}
    with open(PUBLISHED_DIR / "references.csv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            out[row["key"]] = dict(row)
    return out


def brief_reference(key: str) -> str:
    """``Andres Perez (2025)``; without an author, the title: who printed a figure, as a table cell names it (the
    reference list has the rest)."""
    ref = references().get(key)
    if ref is None:
        return ""
    year = ref["year"] if ref["year"][:1].isdigit() and len(ref["year"]) == 4 else ""
    if ref["author"].startswith(("not stated", "author not stated")):
        return f"“{ref['title']}”" + (f" ({year})" if year else "")
    return ref["author"] + (f" ({year})" if year else "")


def short_reference(key: str) -> str:
    """``Andres Perez (2025), “Shut The Box – Scala Simulation with Strategy”``: who printed a figure, briefly."""
    ref = references().get(key)
    if ref is None:
        return ""
    year = ref["year"] if ref["year"][:1].isdigit() and len(ref["year"]) == 4 else ""
    who = ref["author"] if not ref["author"].startswith(("not stated", "author not stated")) else "author not stated"
    return f"{who}{f' ({year})' if year else ''}, “{ref['title']}”"


def reference_parts(key: str) -> dict:
    """A write-up in full for a reference list, in parts: ``who`` (author (year), “title”, where), its
    ``address`` and ``note`` (what was read)."""
    ref = references()[key]
    where = f", {ref['published_in']}" if ref.get("published_in") else ""
    return {"key": key, "who": f"{short_reference(key)}{where}", "address": ref["address"],
            "note": ref.get("note") or ""}


def decimals(text: str) -> int | None:
    """Decimal places of a published number written as text (None if it is not a decimal number)."""
    match = re.fullmatch(r"-?\d+(?:\.(\d+))?", text.strip())
    return None if match is None else len(match.group(1) or "")


def as_read(text: str, unit: str) -> str:
    """A figure as the report writes its kind of quantity: a probability as a percentage at the printed precision
    (``0.0388`` -> ``3.88%``), a percentage with its sign, a large integer with thousands separators; else as it
    is."""
    text = text.strip()
    places = decimals(text.replace(",", ""))
    if unit == "probability" and places is not None:
        return _minus(f"{100 * float(text.replace(',', '')):,.{max(places - 2, 0)}f}%")
    if unit == "percent" and places is not None:
        return text + ("" if text.endswith("%") else "%")
    return _pretty(text)


def _pretty(published: str) -> str:
    text = published.strip()
    return f"{int(text):,}" if re.fullmatch(r"\d{4,}", text) else text
