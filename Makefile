# The two commands a fresh machine needs: `make run` and `make test`.
# Both create .venv and install the project into it on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	@# Debian packages some tests need; installed as root when absent (CI and fresh machines)
	@command -v fairy-stockfish >/dev/null || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq fairy-stockfish) >/dev/null 2>&1; } || echo "warning: could not install fairy-stockfish"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hordes $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/hordes

pytest: $(STAMP)
	$(BIN)/pytest -q -n 2 $(PYTEST_ARGS)

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
