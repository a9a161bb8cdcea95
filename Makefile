# Shut the Box research report. `make` lists the targets; `make report` and `make test` do all the set-up.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
NB     ?=
PARAMS ?=
BENCH_FLAGS ?=
LAB_PORT ?= 8888
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.DEFAULT_GOAL := help
.PHONY: help setup test report notebook bench lab lint clean browser

help: ## list the targets
	@echo "Shut the Box research report — targets:"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z]+):.*## (.*)/  make \1\t\2/' | expand -t 20

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

setup: $(STAMP) ## create .venv from the pinned requirements.txt and install stb_core (editable)

browser: ## install Debian's chromium + chromedriver when missing (for the browser test)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  echo "installing chromium and chromium-driver (apt-get)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }

lint: $(STAMP) ## ruff on the package, the tests and the notebooks
	$(VENV)/bin/ruff check stb_core tests benchmarks notebooks

test: $(STAMP) browser lint ## lint, then every test (engine, CLI, notebooks under papermill, report in Chromium)
	$(PY) -m pytest -q

report: $(STAMP) ## run every notebook (default parameters) and render report/index.html (works offline)
	$(PY) -m stb_core.report

notebook: $(STAMP) ## rerun one notebook: make notebook NB=01-sequence-counts PARAMS="-p tiles 8"
	@test -n "$(NB)" || { echo "NB is required, e.g. make notebook NB=01-sequence-counts PARAMS=\"-p tiles 8\""; exit 2; }
	$(PY) -m stb_core.report --notebook $(NB) $(PARAMS)

bench: $(STAMP) ## the speed benchmark: medians, and ratios against baselines timed in the same run
	$(PY) benchmarks/bench.py $(BENCH_FLAGS)

lab: $(STAMP) ## JupyterLab on the project, the notebooks folder first (prints the address; --allow-root only as root)
	@echo "JupyterLab on the project (notebooks/ first; data/, figures/ and report/ one level up):"
	@echo "open the http://127.0.0.1:$(LAB_PORT)/lab/tree/notebooks?token=... address printed below"
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks --no-browser \
		--ip=127.0.0.1 --port=$(LAB_PORT) $(ROOT_FLAG)

clean: ## remove build outputs (report/, caches); keeps .venv
	rm -rf report build .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
