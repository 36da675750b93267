# The two commands of the README's Quick start, and the pieces of `make test`.
# Each target creates .venv and installs the project (with its dev tools) first if
# that has not been done, so a fresh clone needs nothing else.
#
# The development install is editable, hence pure Python (edits take effect at once).
# `make compiled` builds the wheel users get, its hot modules compiled with mypyc (see
# setup.py), installs it into a venv of its own and runs every test on it: CI tests
# both forms.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COMPILED := .venv-compiled
# The shared contract's own examples, where the checkout has them beside it.
EXAMPLES := $(wildcard ../shared/conformance/examples)

.PHONY: play test lint typecheck unit conformance compiled bench fuzz clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,web,plot,rl,study]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/oriflamme play

test: lint typecheck unit conformance compiled

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict

unit: $(STAMP)
	$(BIN)/pytest

conformance: $(STAMP)
	$(BIN)/oriflamme conformance --quiet tests/conformance $(EXAMPLES)

compiled: $(STAMP)
	rm -rf build dist $(COMPILED)
	$(BIN)/python -m pip wheel . --no-deps --quiet --disable-pip-version-check --wheel-dir dist
	$(PYTHON) -m venv $(COMPILED)
	$(COMPILED)/bin/python -m pip install --quiet --disable-pip-version-check \
		"$$(echo dist/oriflamme-*.whl)[web,plot,rl]" pytest 'hypothesis>=6.100' 'setuptools>=77'
	# The pages were tested in Chromium above, and the study on a Ray cluster (Ray is
	# heavy to install twice); the server, its API and the rest of study run again here.
	ORIFLAMME_EXPECT_COMPILED=1 $(COMPILED)/bin/python -m pytest -p no:cacheprovider \
		--ignore=tests/test_web_browser.py --ignore=tests/test_study_ray.py
	$(COMPILED)/bin/oriflamme conformance --quiet tests/conformance $(EXAMPLES)

# The fuzz tests of `make unit`, with many more damaged inputs each (bounded there).
fuzz: $(STAMP)
	ORIFLAMME_FUZZ_EXAMPLES=$${ORIFLAMME_FUZZ_EXAMPLES:-3000} $(BIN)/pytest -m fuzz

bench: $(STAMP)
	$(BIN)/python benchmarks/benchmark.py

clean:
	rm -rf $(VENV) $(COMPILED) dist build .mypy_cache .ruff_cache .pytest_cache
