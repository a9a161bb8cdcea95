"""The data dictionary: what every column of every exported table means, in which unit, and the Data Package that
documents a run's tables.

Each run writes ``data/<run>/datapackage.json`` (a Frictionless Data Package, version 1: one tabular resource per
CSV file, each field with its name, type, description and unit) beside its tables, and ``figures/<run>/
captions.json`` beside its figures. A column's meaning is looked up in :mod:`stb_core.report.meanings`: in
``COLUMNS`` (most names mean one thing everywhere), then in ``BY_TABLE`` (a name whose meaning depends on its
table), then in ``PATTERNS`` (the numbered columns of the game space); a table with a column none of them describes
is refused when the page finishes (:func:`schema_of`), so no table leaves undocumented.
"""

from __future__ import annotations

import json
import re

import pandas as pd

from .meanings import BOARD, BY_TABLE, COLUMNS, COUNT, FLAG, PATTERNS, RATIO, TEXT, TILES


def meaning(table: str, column: str) -> tuple[str, str]:
    """``(description, unit)`` of ``column`` in ``table``; :class:`KeyError` when nothing describes it."""
    if (table, column) in BY_TABLE:
        return BY_TABLE[table, column]
    if column in COLUMNS:
        return COLUMNS[column]
    for pattern, described in PATTERNS:
        if re.fullmatch(pattern, column):
            return described
    raise KeyError(f"table {table!r}: column {column!r} has no description in stb_core/report/meanings.py")


def field_type(series: pd.Series) -> str:
    """The Table Schema type of a column as written to CSV."""
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_integer_dtype(series):
        return "integer"
    if pd.api.types.is_float_dtype(series):
        return "number"
    values = [v for v in series if not (v is None or (isinstance(v, float) and pd.isna(v)))]
    if values and all(isinstance(v, bool) for v in values):
        return "boolean"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return "number"
    return "string"


def schema_of(table: str, frame: pd.DataFrame) -> dict:
    """The Table Schema of ``frame`` exported as ``<table>.csv``: every column with its type, description and unit."""
    fields = []
    for column in frame.columns:
        description, unit = meaning(table, str(column))
        field = {"name": str(column), "type": field_type(frame[column]), "description": description}
        if unit:
            field["unit"] = unit
        fields.append(field)
    return {"fields": fields}


def entitle(schema: dict, label: str, caption: str, headers: dict | None) -> None:
    """Give a described table the label and caption it is shown with on its page, and each field the header it is
    shown under (``headers``: column -> header, as ``page.table`` takes them)."""
    if label:
        schema["title"] = label
    schema["description"] = caption
    for field in schema["fields"]:
        if headers is None or field["name"] in headers:  # None: shown under its own name
            field["title"] = field["name"] if headers is None else headers[field["name"]]


def data_package(run: str, title: str, tables: dict[str, dict], citation: str) -> str:
    """``datapackage.json`` of a run: one tabular resource per CSV file, with its schema (``tables`` by name), and the
    label and caption the page shows it with."""
    package = {
        "profile": "tabular-data-package",
        "name": re.sub(r"[^a-z0-9._-]+", "-", run.lower()).strip("-"),
        "title": title,
        "description": "Tables of one chapter of 'Shut the Box, solved exactly', computed exactly from the rules.",
        "licenses": [{"name": "CC-BY-4.0", "title": "Creative Commons Attribution 4.0",
                      "path": "https://creativecommons.org/licenses/by/4.0/"}],
        "sources": [{"title": citation}],
        "resources": [{"name": re.sub(r"[^a-z0-9._-]+", "-", name.lower()), "path": f"{name}.csv",
                       **{key: schema[key] for key in ("title", "description") if key in schema},
                       "profile": "tabular-data-resource", "format": "csv", "mediatype": "text/csv",
                       "encoding": "utf-8", "schema": {"fields": schema["fields"]}}
                      for name, schema in tables.items()],
    }
    return json.dumps(package, indent=1, ensure_ascii=False) + "\n"


# -- the committed reference data: data/published (every printed figure) and data/bench (make bench) ---------------
REFERENCE: dict[str, dict[str, tuple[str, str]]] = {
    "published": {
        "key": ("the claim's key, read by the chapter that checks it (with the file's name: unique)", TEXT),
        "claim_id": ("the claim this figure belongs to: a figure printed several ways is one claim", TEXT),
        "role": ("what the figure is within its claim (empty: the claim itself)", TEXT),
        "kind": ("figure (a number, set or list the source printed) or statement (a sentence it asserts)", TEXT),
        "claim": ("the claim, in words", TEXT),
        "published": ("what the source printed, as printed (a statement: yes)", TEXT),
        "unit": ("how the printed number reads: percent, probability (a fraction of 1) or empty (as written)",
                 TEXT),
        "method": ("how the source obtained it: exact, approximate, simulated or test", TEXT),
        "games": ("how many games the source simulated (empty: not said, or not simulated)", COUNT),
        "delta": ("a unit test's own tolerance, in the figure's unit", TEXT),
        "truncated": ("True when the source cuts digits off rather than rounding", FLAG),
        "corrected": ("the figure the source printed later, where it corrected itself", TEXT),
        "corrected_citation": ("where the later figure is printed", TEXT),
        "same_as": ("the one home of a figure a second page also shows: <file>:<key>", TEXT),
        "expected": ("holds or fails: what this report finds, checked at every build", TEXT),
        "source": ("the write-up that printed it: a key of sources.csv or references.csv", TEXT),
        "citation": ("where in the source it is printed", TEXT),
        "tiles": ("the game the figure is about: tiles 1 to this number", TILES),
        "dice": ("the game the figure is about: dice rolled", "dice"),
        "sides": ("the game the figure is about: sides of each die", "sides"),
        "one_die": ("the game's one-die rule: never, high-shut or sum-le-6", TEXT),
        "one_die_forced": ("True when one die must be rolled once the rule allows it", FLAG),
        "max_per_move": ("the most tiles one roll may shut (empty: any number)", TILES),
        "moves": ("what a roll may shut: any-sum or die-or-sum (Thai style)", TEXT),
        "layout": ("row or double-shutter", TEXT),
        "objective": ("what the figure values: win, remaining-sum, digits or flipped-count", TEXT),
        "policy": ("how the figure's moves are chosen: optimal, or a named rule of thumb", TEXT),
        "tie_break": ("which of equally good moves that play chooses", TEXT),
        "measure": ("what the figure is: value, exact, p_win, sd, expected_rolls and the like", TEXT),
        "board": ("the open tiles the figure is about (empty: the full board)", BOARD),
        "author": ("who wrote it, as the write-up says (or 'not stated')", TEXT),
        "title": ("its title", TEXT), "year": ("when it was written, as far as it says", TEXT),
        "date": ("when it was written, as far as it says", TEXT),
        "published_in": ("where it appeared", TEXT), "address": ("its address (or 'not known')", TEXT),
        "note": ("what was read: files and commits", TEXT), "rules": ("the game it analyses, in words", TEXT),
        "bibkey": ("its key in the write-up kit's references.bib", TEXT),
    },
    "bench": {
        "tiles": ("tiles on the board", TILES), "sweep": ("which sweep: numpy, compiled or the plain loop", TEXT),
        "median_seconds": ("median seconds of the solve over the repeats, measured by make bench", "seconds"),
        "peak_memory_gb": ("peak memory of the whole process", "GB"),
        "processes": ("worker processes", COUNT), "objective": ("the objective solved", TEXT),
        "measured": ("the date of the measurement", TEXT), "machine": ("the machine it ran on", TEXT),
        "command": ("the stb command, as a user types it", TEXT),
        "estimated_seconds": ("what the command estimated before it started, plus the process's start-up",
                              "seconds"),
        "measured_seconds": ("what the whole command took, start-up and output included", "seconds"),
        "time_ratio": ("measured seconds over estimated seconds", RATIO),
        "estimated_gb": ("the peak memory the command estimated, plus the process's start-up", "GB"),
        "memory_ratio": ("peak memory over estimated memory", RATIO),
        "within": ("whether the estimate held: time within 2x either way, memory at most 1.5x", FLAG),
    },
}
REFERENCE_TITLES = {
    "published": ("Every figure and statement the sources printed, with its citation",
                  "Reference data of 'Shut the Box, solved exactly': what the five sources and the thirteen write-ups "
                  "of chapter 8 printed, how they obtained it, and where; each chapter judges these rows against the "
                  "exact values (the one standard: stb_core.sources.verdicts). Figures quoted for comparison."),
    "bench": ("Solve times of the engine and what its commands announce, measured by make bench",
              "Median seconds and peak memory of full-board solves (solve-times.csv), and each command's estimate "
              "against what it then took (estimates.csv), as measured on the machine named in each row."),
}


def reference_package(folder) -> str:
    """``datapackage.json`` of a committed reference folder (``data/published`` or ``data/bench``): every CSV in
    it, each column described from :data:`REFERENCE` (a column nothing describes raises :class:`KeyError`)."""
    from pathlib import Path

    folder = Path(folder)
    described = REFERENCE[folder.name]
    tables = {}
    for path in sorted(folder.glob("*.csv")):
        frame = pd.read_csv(path, keep_default_na=False, dtype=str)
        fields = []
        for column in frame.columns:
            if column not in described:
                raise KeyError(f"{path}: column {column!r} has no description in stb_core/report/dictionary.py")
            description, unit = described[column]
            fields.append({"name": column, "type": _text_type(frame[column]), "description": description,
                           **({"unit": unit} if unit else {})})
        tables[path.stem] = {"fields": fields}
    title, description = REFERENCE_TITLES[folder.name]
    package = json.loads(data_package(folder.name, title, tables, "Shut the Box, solved exactly"))
    package["description"] = description
    if folder.name == "published":  # quoted for comparison: not the report's to license (LICENSE-DATA.md)
        package["licenses"] = [{"name": "other-at", "title": "Figures quoted for comparison; they remain their "
                                                             "authors' (see LICENSE-DATA.md)"}]
        package["sources"] = [{"title": "the write-ups listed in sources.csv and references.csv"}]
    return json.dumps(package, indent=1, ensure_ascii=False) + "\n"


def _text_type(column: pd.Series) -> str:
    """The Table Schema type of a column read as text: integer, number or boolean when every non-empty value is one
    (an empty cell is missing), else string."""
    values = [v for v in column if v != ""]
    for kind, pattern in (("integer", r"-?\d+"), ("number", r"-?\d+(\.\d+)?([eE]-?\d+)?"), ("boolean", r"True|False")):
        if values and all(re.fullmatch(pattern, v) for v in values):
            return kind
    return "string"
