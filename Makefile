# The two commands a fresh machine needs: `make run` and `make test`.
# Both create .venv and install the project into it on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck docs pytest bench clean frontend chromium

# The installed metadata carries the version, which lives in src/hordes/_version.py.
$(STAMP): pyproject.toml src/hordes/_version.py
	@# Debian packages some tests need; installed as root when absent (CI and fresh machines).
	@# Debian puts the engine in /usr/games, which root's PATH does not list: look there too.
	@command -v fairy-stockfish >/dev/null || test -x /usr/games/fairy-stockfish || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq fairy-stockfish) >/dev/null 2>&1; } || echo "warning: could not install fairy-stockfish"
	@# A throwaway PostgreSQL cluster for the multi-process tests (tests/pg_cluster.py); the package's
	@# own cluster on 5432 is never used.
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null 2>&1; } || echo "warning: could not install postgresql (its tests skip, or fail under CI=true)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The web app's front-end packages (chessgroundx), served as they are: no bundler, no build step.
FRONTEND := src/hordes/web/frontend
NODE_MODULES := $(FRONTEND)/node_modules/.package-lock.json

$(NODE_MODULES): $(FRONTEND)/package.json $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_MODULES)

frontend: $(NODE_MODULES)

# Debian's Chromium for the browser tests (Playwright drives it; no browser is ever downloaded).
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1; } || echo "warning: could not install chromium (the browser tests will be skipped)"

# `make run` starts the web app on http://127.0.0.1:8000; `make run ARGS="perft orda 4"` runs another command.
run: $(STAMP) $(NODE_MODULES)
	$(BIN)/hordes $(if $(ARGS),$(ARGS),serve)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/hordes

# The API reference, generated from the docstrings by pdoc, in build/api/ (not committed; open
# build/api/index.html). Any warning from pdoc fails it, so `make test` catches a broken docstring.
docs: $(STAMP)
	$(BIN)/python tools/api_docs.py --out build/api

pytest: $(STAMP) $(NODE_MODULES) chromium
	$(BIN)/pytest -q -n 2 --dist worksteal --durations=15 $(PYTEST_ARGS)

test: lint typecheck docs pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build/api
