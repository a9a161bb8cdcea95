# Shut the Box research report. `make` lists the targets; `make report` and `make test` do all the set-up.
# Python 3.11 (requirements.txt is locked for it): python3.11 when it is on the PATH, else python3.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NB     ?=
PARAMS ?=
BENCH_FLAGS ?=
LAB_PORT ?= 8888
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.DEFAULT_GOAL := help
.PHONY: help setup check test report notebook export pdf bench lab lint clean browser tex cells

help: ## list the targets
	@echo "Shut the Box research report — targets:"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z]+):.*## (.*)/  make \1\t\2/' | expand -t 20

IS_311 := -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) $(IS_311) 2>/dev/null || { echo "make: this project needs Python 3.11 (requirements.txt is locked for it);" \
	  "'$(PYTHON)' is $$($(PYTHON) -V 2>/dev/null || echo missing). Install python3.11, or run: make PYTHON=/path/to/python3.11"; exit 1; }
	@test ! -x $(PY) || $(PY) $(IS_311) 2>/dev/null || { echo "removing .venv: it was made with another Python"; rm -rf $(VENV); }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "make: could not create .venv"; exit 1; }
	@echo "installing the pinned packages into .venv (about a minute on a fresh machine)"
	@$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt \
	  && $(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e . \
	  || { rm -rf $(VENV); echo "make: the install failed (see above); .venv was removed, so the next make starts afresh"; exit 1; }
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
	  && git config filter.notebook-outputs.clean "python3 stb_core/report/clean_notebook.py" || true
	@$(PY) -m stb_core.precompile
	@touch $(STAMP)

setup: $(STAMP) ## create .venv (Python 3.11, the pins of requirements.txt, stb_core editable), compile the kernels; store notebooks clean

browser: ## install Debian's chromium + chromedriver when missing (for the browser test)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  echo "installing chromium and chromium-driver (apt-get)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }

TEX_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
  texlive-science lmodern poppler-utils
TEX_FILES := siunitx.sty xltabular.sty lmodern.sty pdflscape.sty framed.sty
tex: ## install a minimal TeX (Debian's packages, about 2 minutes) when missing: for make pdf and the kit's main.pdf
	@command -v pdflatex >/dev/null && command -v bibtex >/dev/null && command -v pdftotext >/dev/null \
	  && kpsewhich $(TEX_FILES) >/dev/null || { \
	  echo "installing TeX: $(TEX_PACKAGES) (apt-get, about 2 minutes)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    --no-install-recommends $(TEX_PACKAGES) >/dev/null; }

lint: $(STAMP) ## ruff on the package, the tests and the notebooks
	$(VENV)/bin/ruff check stb_core tests benchmarks notebooks

check: $(STAMP) lint ## the quick loop while working (about 2 minutes): lint, engine, CLI, properties, findings audit
	STB_QUICK=1 $(PY) -m pytest -n auto -q -m "not report and not slow"

test: $(STAMP) browser tex lint ## every test, as CI runs it: check's, then the report built once, its reruns, Chromium, TeX
	$(PY) -m pytest -n auto --dist loadfile -q

report: $(STAMP) ## run every notebook (default parameters) and render report/index.html (works offline)
	$(PY) -m stb_core.report

notebook: $(STAMP) ## rerun one notebook: make notebook NB=01-sequence-counts PARAMS="-p tiles 8"
	@test -n "$(NB)" || { echo "NB is required, e.g. make notebook NB=01-sequence-counts PARAMS=\"-p tiles 8\""; exit 2; }
	$(PY) -m stb_core.report --notebook $(NB) $(PARAMS)

RUN ?=
export: $(STAMP) ## the write-up kit: every figure and table (CSV + LaTeX), captions, BibTeX, in export/ and a zip (RUN=<rerun> for one rerun)
	$(PY) -m stb_core export $(if $(RUN),--run $(RUN),)

pdf: $(STAMP) tex ## the whole report as one typeset PDF, report/report.pdf (RUN=<rerun>: report/runs/<rerun>.pdf)
	$(PY) -m stb_core.report.pdf $(if $(RUN),--run $(RUN),)

cells: $(STAMP) ## write each notebook's parameters cell from the declarations (after changing a rule option)
	$(PY) -m stb_core.report.cells

bench: $(STAMP) ## the speed benchmark: medians, and ratios against baselines timed in the same run
	$(PY) benchmarks/bench.py $(BENCH_FLAGS)

lab: $(STAMP) ## JupyterLab on the project, the notebooks folder first (prints the address; --allow-root only as root)
	@echo "JupyterLab on the project (notebooks/ first; data/, figures/ and report/ one level up):"
	@echo "open the http://127.0.0.1:$(LAB_PORT)/lab/tree/notebooks?token=... address printed below"
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks --no-browser \
		--ip=127.0.0.1 --port=$(LAB_PORT) $(ROOT_FLAG)

clean: ## remove build outputs (report/, the kits, caches) the project wrote; keeps .venv and anything else
	@if [ -x $(PY) ]; then $(PY) -m stb_core.report.clean; fi
	rm -rf build .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
