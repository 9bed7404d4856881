# The two commands a fresh machine needs: `make run` and `make test`.
# Both create .venv and install the project into it on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck docs pytest bench clean frontend chromium nginx

# The installed metadata carries the version, which lives in src/hordes/_version.py. The install
# compiles the modules listed in src/hordes/buildinfo.py with mypyc (setup.py), so the stamp depends on
# their sources too: a change to one rebuilds before anything is run or tested.
COMPILED_SOURCES := $(shell $(PYTHON) -c "import pathlib, runpy; i = runpy.run_path('src/hordes/buildinfo.py'); print(*(i['source_path'](m, pathlib.Path('src/hordes')) for m in i['COMPILED_MODULES']))")
$(STAMP): pyproject.toml setup.py src/hordes/_version.py src/hordes/buildinfo.py $(COMPILED_SOURCES)
	@# Debian packages some tests need; installed as root when absent (CI and fresh machines).
	@# Debian puts the engine in /usr/games, which root's PATH does not list: look there too.
	@command -v fairy-stockfish >/dev/null || test -x /usr/games/fairy-stockfish || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq fairy-stockfish) >/dev/null 2>&1; } || echo "warning: could not install fairy-stockfish"
	@# A throwaway PostgreSQL cluster for the multi-process tests (tests/pg_cluster.py); the package's
	@# own cluster on 5432 is never used.
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null 2>&1; } || echo "warning: could not install postgresql (its tests skip, or fail under CI=true)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(BIN)/python -c 'import hordes; print("hordes build:", hordes.build_kind())'
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

# Debian's nginx for tests/web/test_nginx.py (docs/deploy.md's proxy config in front of two servers).
# The package starts a system nginx on port 80 where it can (systemd); the tests run their own on a
# free port, so that one is stopped and disabled at once: no daemon outlives the install.
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq nginx) >/dev/null 2>&1 && { systemctl disable --now nginx >/dev/null 2>&1 || service nginx stop >/dev/null 2>&1 || true; }; } || echo "warning: could not install nginx (its test skips, or fails under CI=true)"

# `make run` starts the web app on http://127.0.0.1:8000; `make run ARGS="perft orda 4"` runs another command.
run: $(STAMP) $(NODE_MODULES)
	$(BIN)/hordes $(if $(ARGS),$(ARGS),serve)

lint: $(STAMP)
	$(BIN)/ruff check setup.py src tests benchmarks tools
	$(BIN)/ruff format --check setup.py src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/hordes

# The API reference, generated from the docstrings by pdoc, in build/api/ (not committed; open
# build/api/index.html). Any warning from pdoc fails it, so `make test` catches a broken docstring.
docs: $(STAMP)
	$(BIN)/python tools/api_docs.py --out build/api

# The whole suite runs on the compiled build (tests/test_build.py fails if another is loaded: set
# EXPECT_BUILD=pure on a machine without a C compiler). Then the rules core, notation and engine suites
# run on the pure-Python source (HORDES_PURE=1), shaped to fit the time budget: their quick tests, and
# the differential suites (Fairy-Stockfish, the Hordes of Change reference) with PURE_GAMES random
# games per variant instead of their CI amounts (100 Fairy-Stockfish, 200 reference games). The deep sweeps marked slow run once, compiled;
# so does tests/notation/test_san_fsf.py: pyffish's calls are most of its time, and it checks SAN
# code that is not compiled (docs/benchmarks.md, "Compiled build", has the figures). Last, the web
# suite runs again on PostgreSQL (a throwaway cluster per worker, tests/pg_cluster.py; a fresh database
# per test), without the browser tests, whose pages are the same on either database.
EXPECT_BUILD ?= compiled
PURE_GAMES ?= 5
PURE_SUITES := tests/test_build.py tests/test_perft.py tests/test_movegen_fast.py tests/test_words.py tests/test_words_tested.py \
	tests/test_board.py tests/test_betza.py tests/test_properties.py tests/test_hordes_of_change.py tests/reference \
	tests/notation tests/engine
PURE_DIFFERENTIAL := tests/test_fsf_differential.py::test_random_games_agree_with_fairy_stockfish \
	tests/test_hordes_of_change.py::test_random_games_agree_with_the_reference
pytest: $(STAMP) $(NODE_MODULES) chromium nginx
	HORDES_EXPECT_BUILD=$(EXPECT_BUILD) $(BIN)/pytest -q -n 2 --dist worksteal --durations=15 $(PYTEST_ARGS)
	HORDES_PURE=1 HORDES_EXPECT_BUILD=pure $(BIN)/pytest -q -n 2 --dist worksteal --durations=5 \
		-m "not slow" --ignore tests/notation/test_san_fsf.py $(PURE_SUITES)
	HORDES_PURE=1 HORDES_EXPECT_BUILD=pure $(BIN)/pytest -q -n 2 --dist worksteal --durations=5 \
		--games $(PURE_GAMES) $(PURE_DIFFERENTIAL)
	HORDES_TEST_DATABASE=postgresql HORDES_EXPECT_BUILD=$(EXPECT_BUILD) $(BIN)/pytest -q -n 2 \
		--dist worksteal --durations=5 --ignore-glob='tests/web/test_browser*' tests/web

test: lint typecheck docs pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/perft.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build/api
	rm -f src/*__mypyc.*.so src/hordes/*/*.so src/hordes/_compiled.json
