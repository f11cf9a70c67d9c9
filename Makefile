# `make demo` and `make test` work on a fresh machine with only Python 3.11 and git.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint playthroughs shipped-agent clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found; set PYTHON=python3"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[train,dev,openspiel,tianshou]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m tiny_york_env.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

lint: $(STAMP)
	$(BIN)/ruff check .

# make playthroughs GAME=construction_yard rewrites only that game's golden files.
playthroughs: $(STAMP)
	$(BIN)/python tests/playthroughs/regenerate.py $(if $(GAME),--game $(GAME))

# Retrain the shipped agent (agents/models/ppo.zip) from scratch: about 2 h 25 min on 2 cores.
shipped-agent: $(STAMP)
	PY=$(BIN)/python training/train_shipped_agent.sh runs/shipped

clean:
	rm -rf $(VENV) .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
