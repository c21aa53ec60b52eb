# One entry point for a fresh machine: `make run` plays, `make test` tests.
# Everything is installed by these targets, each what it needs: a virtual
# environment with the pinned PyPI packages of requirements.txt (make run,
# make test), only those of requirements-flash.txt (make flash, make bundle:
# Python only), and for the tests the pinned npm packages of
# package-lock.json (the MicroPython VM, the RP2040 emulator).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: help install run linked linked-a linked-b watch test lint format soak bench flash bundle screenshots sprites wiring clean

# Plain `make` installs nothing: it says what the targets are.
help:
	@echo "make run        the desktop simulator: the game in a window (Python 3.11+)"
	@echo "make linked     two windows for linked play (RADIO=1: two Cardputers by radio)"
	@echo "make flash CIRCUITPY=/path/to/CIRCUITPY [PROFILE=name] [LINK=1|espnow|0] [ARGS=--force]"
	@echo "                put the game on a board (Python only)"
	@echo "make bundle     the project bundles for every board, into dist/ (Python only)"
	@echo "make test       install everything pinned (Python and Node.js), lint, run the tests"
	@echo "make soak       many more games and matches than make test (minutes)"
	@echo "make bench      the speed and memory figures"
	@echo "make watch      two random players in the terminal"
	@echo "make format     apply the house style (ruff)"
	@echo "make clean      remove what the targets installed and built"

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt requirements-flash.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(VENV)/.flash $@

# What make flash and make bundle need, and nothing more (no Node.js).
$(VENV)/.flash: requirements-flash.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-flash.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The desktop simulator: the board's code.py in a window (SPIT_PROFILE picks the board).
run: $(VENV)/.installed
	$(PY) code.py

# Linked play on one desktop: two windows in two processes, each a handheld
# of its own, joined by a loopback socket for a cable (docs/linked.md).
# Each window has its own saves (the radio's windows others again); PORT picks the socket's port. One window
# alone (to restart it, as a player rejoins): make linked-a, make linked-b,
# or make linked WINDOW=b. RADIO=1: two Cardputers linked by radio (ESP-NOW
# over loopback datagrams, a packet a frame: desktop/socket_radio.py).
PORT ?= 7700
LINK_TO = $(if $(RADIO),SPIT_LINK=espnow SPIT_PROFILE=cardputer,SPIT_LINK=$(PORT))
LINKED_SAVE = $(HOME)/.spit/linked-$(if $(RADIO),radio-)
LINKED_a = $(LINK_TO) SPIT_SAVE=$(LINKED_SAVE)a.bin SDL_VIDEO_WINDOW_POS=40,40 $(PY) code.py
LINKED_b = $(LINK_TO) SPIT_SAVE=$(LINKED_SAVE)b.bin SDL_VIDEO_WINDOW_POS=800,40 $(PY) code.py
linked: $(VENV)/.installed
	$(if $(WINDOW),$(if $(LINKED_$(WINDOW)),$(LINKED_$(WINDOW)),$(error WINDOW is a or b, not $(WINDOW))),$(LINKED_a) & $(LINKED_b); wait)

linked-a linked-b: $(VENV)/.installed
	$(LINKED_$(subst linked-,,$@))

# Two random players in the terminal.
watch: $(VENV)/.installed
	$(PY) tools/terminal_match.py $(ARGS)

test: install lint
	$(VENV)/bin/pytest -q -n auto --dist worksteal tests

# The code as ruff formats it, and none of the lint rules pyproject.toml keeps broken.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff format --check --quiet .
	$(VENV)/bin/ruff check --quiet .

# Apply the formatter and the linter's safe fixes.
format: $(VENV)/.installed
	$(VENV)/bin/ruff format --quiet .
	$(VENV)/bin/ruff check --quiet --fix .

# Many more games, matches and random presses than make test (tests/soak/; about 12 minutes on 2 cores with the
# emulated firmware present, most of it the firmware's runs). Nothing runs it automatically.
soak: install
	SPIT_SOAK=1 $(VENV)/bin/pytest -q -n auto --dist worksteal tests/soak

bench: install
	$(PY) tools/bench_engine.py
	$(PY) tools/bench_screen.py
	$(PY) tools/bench_board.py
	$(PY) tools/bench_replay.py
	$(PY) tools/bench_pico.py
	$(PY) tools/bench_compose.py
	$(PY) tools/bench_saves.py
	$(PY) tools/bench_link.py
	$(PY) tools/bench_linked.py

# The README's pictures, each profile mid-game from a replay (tools/screenshots/).
screenshots: $(VENV)/.installed
	$(PY) tools/screenshots.py

# The wiring pictures of docs/build.md, drawn from hardware/profiles.py.
wiring: $(VENV)/.installed
	$(PY) tools/wiring.py

# Draw the card sprite sheets again (hardware/sprites-*.bmp) after changing the art.
sprites: $(VENV)/.installed
	$(PY) tools/make_sprites.py

# Put the game on a board: make flash CIRCUITPY=/media/you/CIRCUITPY [PROFILE=pybadge] [LINK=1 | LINK=espnow | LINK=0]
flash: $(VENV)/.flash
	@test -n "$(CIRCUITPY)" || { echo "usage: make flash CIRCUITPY=/path/to/CIRCUITPY [PROFILE=name] [LINK=1|espnow|0] [ARGS=--force]"; exit 2; }
	$(PY) tools/flash.py "$(CIRCUITPY)" $(if $(PROFILE),--profile $(PROFILE)) $(if $(LINK),--link $(LINK)) $(ARGS)

# The project bundles a maker unzips onto CIRCUITPY: dist/spit-<profile>.zip, one a profile.
bundle: $(VENV)/.flash
	$(PY) tools/bundle.py $(ARGS)

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis dist
