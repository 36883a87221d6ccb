# Quick start: `make run` (the bot; console mode when no token is configured) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint typecheck bench i18n docker-smoke clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Four processes on two cores: the tests that run the bot as child processes spend much
# of their time waiting, and the default-lease faults hold one process for about two
# minutes, mostly waiting, so the fourth keeps both cores busy meanwhile. The type checker
# is one of the tests (tests/test_types.py). Then, alone, the tests that time worker
# processes against a lease (marked exclusive, all in one module: tests/conftest.py
# refuses one elsewhere, and test_architecture.py checks that this names it). Python
# caches the project's bytecode (where PYTHONDONTWRITEBYTECODE is set, every bot process
# a test starts would compile it again).
test: $(STAMP) lint
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 4 --maxschedchunk 1 -m "not exclusive"
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -m exclusive tests/bot/test_stalled_workers.py

# The quick loop for a change to a rule or a handler: ruff, the engine's tests and the
# handler tier (handlers on a real ledger, no delivery around them), exploring less, on
# SQLite only: a handler or a rule changes no SQL, and `make test` (CI) plays the handler
# tier's PostgreSQL variants with the storage tests on PostgreSQL. Python caches the
# project's bytecode and pytest its rewritten test modules (where PYTHONDONTWRITEBYTECODE
# is set, each of the three processes would compile them again: about 5 s of CPU a run).
test-fast: $(STAMP) lint
	PYTHONDONTWRITEBYTECODE= TALLY_TEST_FAST=1 TALLY_TEST_POSTGRES_URL= $(BIN)/python -m pytest \
		-q -n 2 tests/engine tests/handlers

bench: $(STAMP)
	$(BIN)/python -m bench

i18n: $(STAMP)
	$(BIN)/python -m bot.text.i18n_extract

# Builds the image and drives it against the fake Bot API over HTTP (needs a Docker daemon).
docker-smoke: $(STAMP)
	$(BIN)/python -m tests.docker_smoke

clean:
	rm -rf $(VENV)
