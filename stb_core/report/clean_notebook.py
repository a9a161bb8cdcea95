"""Store a notebook clean: no outputs, no execution counts, no run metadata (the git filter of the notebooks).

``make setup`` registers this file as the ``notebook-outputs`` clean filter of the repository and
``.gitattributes`` applies it to ``notebooks/*.ipynb``, so a notebook saved in JupyterLab with its outputs is
committed without them (the working copy keeps them). It reads a notebook on standard input and writes the clean
notebook on standard output, in nbformat's own layout; it needs only the standard library, so git can run it
with any ``python3``::

    python3 stb_core/report/clean_notebook.py < notebooks/01-sequence-counts.ipynb
"""

from __future__ import annotations

import json
import sys

KEPT_CELL_METADATA = ("tags",)  # the ``parameters`` tag papermill needs


def clean(notebook: dict) -> dict:
    """``notebook`` with every code cell's outputs and execution count cleared, each cell's metadata reduced to
    its tags and the notebook's metadata to the kernel it runs on."""
    for cell in notebook.get("cells", []):
        cell["metadata"] = {key: cell["metadata"][key] for key in KEPT_CELL_METADATA if key in cell.get("metadata", {})}
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    metadata = notebook.get("metadata", {})
    notebook["metadata"] = {"kernelspec": metadata.get("kernelspec", {}),
                            "language_info": {"name": metadata.get("language_info", {}).get("name", "python")}}
    return notebook


def clean_text(text: str) -> str:
    """The clean notebook as nbformat writes it (keys sorted, one-space indent, a final newline)."""
    return json.dumps(clean(json.loads(text)), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.buffer.write(clean_text(sys.stdin.buffer.read().decode("utf-8")).encode("utf-8"))
