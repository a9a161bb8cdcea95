"""Write each notebook's ``parameters`` cell from its declared parameters (``make cells``).

The cell is made, not typed: a rule option declared in :mod:`stb_core.rules` or a chapter's parameter declared
in :mod:`stb_core.report.parameters` reaches every notebook's cell by running this, and a test fails while a cell
differs from its declaration. Only that cell is rewritten; the notebook is written in the layout it is stored in.
"""

from __future__ import annotations

import json
import sys

from .clean_notebook import clean_text
from .parameters import DOMAINS, parameters_cell
from .paths import NOTEBOOK_DIR


def with_cell(text: str, stem: str) -> str:
    """The stored notebook ``text`` with its parameters cell made from the declaration."""
    notebook = json.loads(text)
    cells = [c for c in notebook["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise SystemExit(f"{stem} needs exactly one cell tagged 'parameters'")
    lines = parameters_cell(stem).splitlines(keepends=True)
    cells[0]["source"] = [*lines[:-1], lines[-1]] if lines else []
    return clean_text(json.dumps(notebook))


def main() -> int:
    changed = []
    for stem in DOMAINS:
        path = NOTEBOOK_DIR / f"{stem}.ipynb"
        text = path.read_text(encoding="utf-8")
        new = with_cell(text, stem)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(stem)
    print(f"parameters cells rewritten: {', '.join(changed) or 'none (all match their declarations)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
