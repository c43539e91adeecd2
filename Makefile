# Two commands do all set-up on a fresh machine:  make demo   and   make test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: help setup chromium demo test test-fast bench web clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

setup: $(STAMP)  ## create .venv and install the package with its test extras

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

chromium:  ## install Chromium from the OS packages when missing (the report's browser tests)
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

demo: setup  ## run scenarios/quickstart.yaml and print where the report is
	$(BIN)/sim run scenarios/quickstart.yaml

test: setup chromium  ## run the whole test suite (statistical and browser tests included), two pytest workers (pytest-xdist, a test file per worker at a time)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test-fast: setup  ## the tests without those marked slow
	$(BIN)/python -m pytest -q -m "not slow"

bench: setup  ## speed: raw dice, duels/s, ratio to plain Python, start-up times
	$(BIN)/sim bench

web:  ## rebuild sim serve's bundled front end (needs node and npm; users never do)
	cd web && npm ci --no-audit --no-fund && node build.mjs

clean:  ## remove the virtual environment and caches (results/ is kept)
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
