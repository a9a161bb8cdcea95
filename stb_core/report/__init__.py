"""The report machinery, beside the engine: the chapters and sources (``catalogue``), each notebook's declared
parameters (``parameters``), the page a notebook builds (``page``: tables, figures, findings, checks, through
``present``, ``style`` and ``exports``), the published claims and their verdicts (``checks``), the build driver
(``build``, ``python -m stb_core.report``), the position explorer (``explorer``) and the templates and assets.
"""
