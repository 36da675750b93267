# The two commands of the README's Quick start, and the pieces of `make test`.
# Each target creates .venv and installs the project (with its dev tools) first
# if that has not been done, so a fresh clone needs nothing else.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The shared contract's own examples, where the checkout has them beside it.
EXAMPLES := $(wildcard ../shared/conformance/examples)

.PHONY: play test lint typecheck unit conformance bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/oriflamme play

test: lint typecheck unit conformance

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict

unit: $(STAMP)
	$(BIN)/pytest

conformance: $(STAMP)
	$(BIN)/oriflamme conformance --quiet tests/conformance $(EXAMPLES)

bench: $(STAMP)
	$(BIN)/python benchmarks/benchmark.py

clean:
	rm -rf $(VENV) dist build .mypy_cache .ruff_cache .pytest_cache
