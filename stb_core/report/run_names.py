"""A run's name from its parameters (the folder its tables, figures and page are written under), and a ``-p``
value as the command line gives it."""

from __future__ import annotations

import hashlib
import re

from .parameters import DOMAINS


def parse_value(text: str):
    """A ``-p`` value as papermill reads it from the command line: ``True``/``False``/``None`` (``true`` and
    ``false`` too, as a shell user writes them), an int, a float, else the text itself."""
    words = {"True": True, "False": False, "None": None, "true": True, "false": False}
    if text in words:
        return words[text]
    if re.fullmatch(r"[+-]?[0-9]+", text):  # ASCII digits only: "1_0" and other scripts' digits stay text
        return int(text)
    if re.fullmatch(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?", text):
        return float(text)
    return text


def run_name(stem: str, values: dict, defaults: dict) -> str:
    """``stem`` for the default parameters, else ``stem--name=value--...`` for each changed one, in the
    declared order: signs and decimals kept (``margin_percent=-1`` and ``=1`` differ), text made file-safe.

    >>> run_name("06-whole-map", {"tiles": 8, "margin_percent": 2.5}, {"tiles": 9, "margin_percent": 2.5})
    '06-whole-map--tiles=8'
    """
    order = DOMAINS[stem].names if stem in DOMAINS else tuple(values)  # the declared order: one name per run
    changed = [f"{name}={_file_safe(values[name])}" for name in sorted(values, key=lambda n: (
        order.index(n) if n in order else len(order))) if defaults.get(name) != values[name]]
    return _short_enough("--".join([stem, *changed]))


RUN_NAME_MAX = 150
"""The longest run name kept whole: a run's files and their journals add up to 30 characters, and a file system
allows 255 per name."""


def _short_enough(name: str) -> str:
    """``name`` itself up to :data:`RUN_NAME_MAX` characters; a longer one keeps its first parameters whole and
    ends in ``--h`` and ten hex digits of the SHA-256 of the whole name (distinct runs keep distinct names)."""
    if len(name) <= RUN_NAME_MAX:
        return name
    tag = "--h" + hashlib.sha256(name.encode()).hexdigest()[:10]
    kept = name[:RUN_NAME_MAX - len(tag)]
    return kept[:kept.rfind("--")] + tag


def _file_safe(value) -> str:
    if isinstance(value, float):
        return repr(value)
    return re.sub(r"[^A-Za-z0-9.,_+-]", "_", str(value)) or "empty"
