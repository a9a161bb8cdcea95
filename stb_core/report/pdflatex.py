"""The documents' LaTeX and the compiler run, shared by the write-up kit (``main.tex``) and the report's PDF.

* :data:`PREAMBLE` -- the packages and settings both documents share (:data:`TABLE_PACKAGES`: what an ``\\input``
  table of the kit needs);
* :func:`compile_document` and :func:`problems` -- pdflatex and BibTeX run to a fixed point, and what the log says
  a reader would see wrong (errors, undefined references and citations, boxes overfull by more than
  :data:`OVERFULL_PT`, floats too large).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

# what an \input table of the kit needs
TABLE_PACKAGES = ("booktabs", "siunitx", "longtable", "tabularx", "xltabular", "array", "amssymb", "pdflscape")
PREAMBLE = r"""\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[a4paper,margin=2.5cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{booktabs,longtable,tabularx,xltabular,array,pdflscape}
\usepackage{siunitx}
\usepackage{graphicx}
\usepackage[section]{placeins}
\usepackage{xcolor}
\usepackage{framed}
\usepackage[font=small,labelfont=bf]{caption}
\usepackage{microtype}
\usepackage[hidelinks]{hyperref}
\emergencystretch=2em
\tracinglostchars=2
\setcounter{totalnumber}{6}
\renewcommand{\topfraction}{0.9}
\renewcommand{\textfraction}{0.07}
\renewcommand{\floatpagefraction}{0.8}
% \stbnumber{table}{3.15}: the float it stands in takes the report's number
\newcommand{\stbnumber}[2]{\expandafter\def\csname the#1\endcsname{#2}}
"""
INSTALL = ("TeX is not installed: make pdf installs it (Debian's texlive-latex-base, texlive-latex-recommended, "
           "texlive-latex-extra, texlive-fonts-recommended, texlive-science and lmodern, about two minutes), or "
           "install those packages yourself")


def bibliography(cited: bool) -> str:
    """The bibliography of every entry of the document's ``references.bib`` (none where nothing is cited: BibTeX's
    empty list stops LaTeX)."""
    return "\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{references}\n" if cited else ""


def available() -> bool:
    """Whether pdflatex and BibTeX are on the PATH."""
    return bool(shutil.which("pdflatex") and shutil.which("bibtex"))


FIXED_DATE = "1767225600"  # 2026-01-01: the PDF's dates and its ID, so that a document gives one PDF


def compile_document(tex: Path, passes: int = 4) -> str:
    """Typeset ``tex`` in its folder: pdflatex, BibTeX when it cites, pdflatex again until its cross-references
    settle (at most ``passes`` runs); return the last run's log with BibTeX's. Raises ``RuntimeError`` with the first
    error when pdflatex stops. The same document gives the same PDF, byte for byte (:data:`FIXED_DATE`)."""
    folder, stem = tex.parent, tex.stem
    command = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", tex.name]
    env = {**os.environ, "SOURCE_DATE_EPOCH": FIXED_DATE, "FORCE_SOURCE_DATE": "1"}
    bib = ""
    for n in range(passes):
        run = subprocess.run(command, cwd=folder, capture_output=True, text=True, errors="replace", env=env)
        log = (folder / f"{stem}.log").read_text(encoding="utf-8", errors="replace")
        if run.returncode != 0:
            raise RuntimeError(f"pdflatex stopped on {tex.name}: {first_error(log)}")
        if n == 0 and r"\bibdata" in (folder / f"{stem}.aux").read_text(encoding="utf-8", errors="replace"):
            subprocess.run(["bibtex", stem], cwd=folder, capture_output=True, text=True, errors="replace")
            bib = (folder / f"{stem}.blg").read_text(encoding="utf-8", errors="replace")
            continue
        if n > 0 and not re.search(r"Rerun to get|may have changed|Rerun LaTeX", log):
            break
    return log + "\n" + bib


def first_error(log: str) -> str:
    """The first error of a pdflatex log, with the line it names."""
    match = re.search(r"^(?:\S+:\d+: |! )(.*?)$", log, re.M)
    return match.group(0).strip() if match else "no error line in the log"


OVERFULL_PT = 10.0


def problems(log: str) -> list[str]:
    """What a reader would see wrong, from a log of :func:`compile_document`: errors, undefined references and
    citations, a box overfull by more than :data:`OVERFULL_PT`, a float too large for its page, a character the
    font lacks, and BibTeX's warnings."""
    found = [(m.start(), m.group(0).strip()) for m in re.finditer(
        r"^(?:\S+:\d+: .*|! .*|LaTeX Warning: (?:Reference|Citation|Float too large).*|.*undefined references.*"
        r"|Missing character: .*|Warning--.*)$", log, re.M)]
    for match in re.finditer(r"^Overfull \\[hv]box \((\d+(?:\.\d+)?)pt too (?:wide|high)\).*$", log, re.M):
        if float(match.group(1)) > OVERFULL_PT:
            found.append((match.start(), match.group(0)))
    return [f"{_input_at(log, at)}{what}" for at, what in sorted(found)]


def _input_at(log: str, at: int) -> str:
    """The file pdflatex was reading at a point of its log (the last one opened before it), as ``file: ``."""
    opened = list(re.finditer(r"\(\./([^\s()]+\.tex)", log[:at]))
    return f"{opened[-1].group(1)}: " if opened else ""
