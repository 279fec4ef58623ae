# make demo — run a sample battle; make test — ruff, mypy, pytest. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/d20combat run examples/goblin-ambush.yaml --seed 2

test: lint typecheck unit

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) benchmarks/bench_engine.py
	$(PY) benchmarks/bench_simulation.py
	$(PY) benchmarks/bench_odds.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
