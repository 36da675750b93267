# The two commands of the README's Quick start, and the pieces of `make test`.
#
# `make play` is for players: it installs into .venv-play what a game in the terminal
# needs and nothing more (the three runtime packages), in the compiled form users get
# from `pip install .`; the build is redone only when a source file changes. Options go
# in ARGS: make play ARGS="--bots ismcts --families 5".
#
# The other targets create .venv and install the project with every extra and the dev
# tools first if that has not been done, so a fresh clone needs nothing else. That
# install is editable, hence pure Python (edits take effect at once). `make compiled`
# builds the wheel users get, its hot modules compiled with mypyc (see setup.py),
# installs it into a venv of its own and runs every test on it: CI tests both forms.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COMPILED := .venv-compiled
PLAY := .venv-play
# What the compiled form is built from: a change to any of them builds it again. The
# package carries the conformance suite too (src/oriflamme/installed.py, SUITE).
SOURCES := $(shell find src tests/conformance tests/perft tests/engines docs -type f \
	-not -path '*/__pycache__/*' -not -path '*.egg-info/*')
ARGS ?=
# The shared contract's own examples, where the checkout has them beside it.
EXAMPLES := $(wildcard ../shared/conformance/examples)

# Tests run on every core (pytest-xdist), but for those marked `serial`: they compare
# timings, which other tests running beside them would skew, and run alone after.
PARALLEL := -n auto --dist worksteal -m "not serial"
SERIAL := -m serial
# The compiled run repeats the tests of what it compiles (the engine, the card sets and
# the bots, through every door into them: the API, the CLI, scenarios, perft, plugins
# installed beside it). The web server, studies, the RL wrappers, the docs and the
# release files are not compiled and drive the same engine: they run once, in the pure
# run, as does the one timing test (marked serial, in the web tests).
ONCE := -p no:cacheprovider --ignore-glob='tests/test_web_*.py' \
	--ignore-glob='tests/test_study*.py' --ignore-glob='tests/test_rl_*.py' \
	--ignore=tests/test_sdist.py --ignore=tests/test_docs.py \
	--ignore=tests/test_plugin_docs.py --ignore=tests/test_plots.py

.PHONY: play test quick lint typecheck unit conformance compiled bench fuzz perft clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,web,plot,rl,study,postgres]'
	touch $(STAMP)

$(PLAY)/.installed: pyproject.toml setup.py $(SOURCES)
	@echo "make play: [1/2] a virtual environment in $(PLAY)"
	rm -rf $(PLAY)
	$(PYTHON) -m venv $(PLAY)
	@echo "make play: [2/2] building the compiled engine and installing it (about 30 s, once)"
	$(PLAY)/bin/python -m pip install --disable-pip-version-check --progress-bar on .
	@$(PLAY)/bin/oriflamme --version
	touch $@

play: $(PLAY)/.installed
	@echo "make play: ready. Later: $(PLAY)/bin/oriflamme play (or --help), without make."
	$(PLAY)/bin/oriflamme play $(ARGS)

test: lint typecheck unit conformance compiled

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# The border of core (pyproject.toml's [tool.importlinter] contracts).
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy --strict

unit: $(STAMP)
	$(BIN)/pytest $(PARALLEL)
	$(BIN)/pytest $(SERIAL)

# The checks a developer runs while working: lint, types and the tests not marked slow,
# on every core (`make test` runs everything).
quick: lint typecheck $(STAMP)
	$(BIN)/pytest -n auto --dist worksteal -m "not slow and not serial"

# With no PATH the command runs the suite the install carries (here the checkout's).
conformance: $(STAMP)
	$(BIN)/oriflamme conformance --quiet
	$(if $(EXAMPLES),$(BIN)/oriflamme conformance --quiet $(EXAMPLES))

compiled: $(STAMP)
	rm -rf build dist $(COMPILED)
	$(BIN)/python -m pip wheel . --no-deps --quiet --disable-pip-version-check --wheel-dir dist
	$(PYTHON) -m venv $(COMPILED)
	$(COMPILED)/bin/python -m pip install --quiet --disable-pip-version-check \
		"$$(echo dist/oriflamme-*.whl)[web,plot,rl,postgres]" pytest pytest-xdist \
		'hypothesis>=6.100' 'setuptools>=77'
	ORIFLAMME_EXPECT_COMPILED=1 $(COMPILED)/bin/python -m pytest $(ONCE) $(PARALLEL)
	cd / && $(abspath $(COMPILED))/bin/oriflamme conformance --quiet  # the wheel's own copy
	$(if $(EXAMPLES),$(COMPILED)/bin/oriflamme conformance --quiet $(EXAMPLES))

# The fuzz tests of `make unit`, with many more damaged inputs each (bounded there).
fuzz: $(STAMP)
	ORIFLAMME_FUZZ_EXAMPLES=$${ORIFLAMME_FUZZ_EXAMPLES:-3000} $(BIN)/pytest -m fuzz

# Every count of the random perft set (tests/perft/random.yaml), on one core: about two
# minutes in pure Python (`make unit` checks a sample of it).
perft: $(STAMP)
	ORIFLAMME_PERFT_ALL=1 $(BIN)/pytest tests/test_perft_random.py

bench: $(STAMP)
	$(BIN)/python benchmarks/benchmark.py

clean:
	rm -rf $(VENV) $(COMPILED) $(PLAY) dist build .mypy_cache .ruff_cache .pytest_cache
