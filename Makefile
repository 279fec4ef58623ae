# make demo — run a sample battle; make serve — the game master's table on http://$(HOST):$(PORT) (default
# 127.0.0.1:8000; make serve PORT=8080); make test — ruff, mypy, pytest. All set up .venv themselves (Python >= 3.11).
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo serve test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "d20combat needs Python >= 3.11: make ... PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The demo battle runs on the reference engine; the lab's compiled fast path (a few minutes to compile, once per
# machine) is compiled meanwhile in a detached process when numba's disk cache lacks it, so the demo never waits.
demo: $(STAMP)
	-@$(PY) -m d20combat.simulation.fast.warm --background
	$(VENV)/bin/d20combat run examples/goblin-ambush.yaml --seed 2

serve: $(STAMP)
	$(VENV)/bin/d20combat serve --host $(HOST) --port $(PORT)

test: lint typecheck unit

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -m d20combat.simulation.fast.warm
	$(PY) benchmarks/bench_engine.py
	$(PY) benchmarks/bench_simulation.py
	$(PY) benchmarks/bench_odds.py
	$(PY) benchmarks/bench_preview.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
