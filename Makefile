# `make demo` and `make test` work on a fresh machine with only Python 3.11 and git.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

BROWSER := $(VENV)/.browser
BROWSER_NOTE := $(VENV)/.browser-unavailable
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver

.PHONY: demo test docs results bench bench-results lint playthroughs shipped-agent clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "$(PYTHON) not found; set PYTHON=python3"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[train,dev,docs,openspiel,tianshou,torchrl,web,ray]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m tiny_york_env.demo

# The browser board's test needs Debian's Chromium and chromedriver (never a browser download):
# installed with apt-get (as root, or through passwordless sudo); where that cannot be done, the
# reason goes to $(BROWSER_NOTE) and tests/web/test_browser.py skips, saying why.
$(BROWSER): $(BIN)/python
	@rm -f $(BROWSER_NOTE)
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "apt-get is not available on this machine" > $(BROWSER_NOTE); \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "installing chromium and chromium-driver with apt-get (browser tests)"; \
	  { apt-get update -qq && $(APT_INSTALL) >/dev/null; } || \
	    echo "apt-get install chromium chromium-driver failed" > $(BROWSER_NOTE); \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  { sudo apt-get update -qq && sudo $(APT_INSTALL) >/dev/null; } || \
	    echo "sudo apt-get install chromium chromium-driver failed" > $(BROWSER_NOTE); \
	else echo "apt-get needs root and sudo is not available without a password" > $(BROWSER_NOTE); fi
	@if [ -f $(BROWSER_NOTE) ]; then echo "WARNING: no browser for the browser tests: $$(cat $(BROWSER_NOTE))"; fi
	@touch $(BROWSER)

test: $(STAMP) $(BROWSER)
	$(BIN)/python -m pytest -q

# The documentation site: docs/_build/html/index.html; a warning (a broken link or reference) fails it.
docs: $(STAMP)
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

# Rewrite the tables of README.md and docs/*.md, and redraw the plots, from the result files.
results: $(STAMP)
	$(BIN)/python scripts/render_results.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

# Measure the published benchmarks again (an idle machine, about 10 min) and rewrite their tables.
bench-results: $(STAMP)
	PY=$(BIN)/python benchmarks/publish.sh

lint: $(STAMP)
	$(BIN)/ruff check .

# make playthroughs GAME=construction_yard rewrites only that game's golden files.
playthroughs: $(STAMP)
	$(BIN)/python tests/playthroughs/regenerate.py $(if $(GAME),--game $(GAME))

# Retrain the shipped agent (agents/models/ppo.zip) from scratch: about 2 h 25 min on 2 cores.
shipped-agent: $(STAMP)
	PY=$(BIN)/python training/recipes/train_shipped_agent.sh runs/shipped

clean:
	rm -rf $(VENV) .pytest_cache docs/_build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
