# One entry point for a fresh machine: `make run` plays, `make test` tests.
# Everything is installed by these targets: a virtual environment with the
# pinned PyPI packages of requirements.txt, and the pinned npm package of
# package-lock.json (the MicroPython VM the tests run the engine on).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
export PYTHONPATH := $(CURDIR)

.PHONY: install run test bench clean

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: install
	$(PY) tools/terminal_match.py $(ARGS)

test: install
	$(PY) -m pytest -q tests

bench: install
	$(PY) tools/bench_engine.py $(ARGS)

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
