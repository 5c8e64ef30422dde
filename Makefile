# The two set-up commands of the README: `make up` starts Arena, `make test` runs the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: system-packages install up test test-pure lint messages

system-packages:
	scripts/system-packages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: system-packages $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,envs]'
	$(BIN)/arena engines build  # the compiled game engines (mypyc, arena/games/native.py); ARENA_PURE=1 skips them

# The checks that keep the house in order (CI runs them before the tests): ruff's rule set and mypy's, both in
# pyproject.toml; the import direction is a test (tests/test_import_direction.py).
lint: install
	$(BIN)/ruff check
	$(BIN)/mypy

# The translation catalogs (platform/README.md, "Translations"): add the newly marked strings to the pt-BR and
# zh-Hans catalogs, compile them, and list what is left to translate (the same list the suite's check fails on).
messages: install
	$(BIN)/python manage.py translations

test: install
	$(BIN)/arena runtimes install
	scripts/install-axe
	scripts/install-oidc-provider
	$(BIN)/pytest

# The engine suite again on the pure-Python engines (`make test` runs it on the compiled ones that make install
# builds): both must pass every rule and property test (arena/games/native.py), and the search bots' rollout
# policies (compiled with the engines) must play on both. About two minutes.
PURE_ENGINE_TESTS := tests/arena/thebes tests/arena/minos tests/arena/replay tests/arena/test_determinize.py \
	tests/arena/test_rng.py tests/arena/test_registry.py tests/arena/test_selfplay.py tests/arena/test_public_data.py \
	tests/bots/test_rollout.py
test-pure: install
	ARENA_PURE=1 $(BIN)/pytest -m "not slow" $(PURE_ENGINE_TESTS)

# Arena on embedded defaults (SQLite + embedded Redis under var/): installs, builds the bot runtimes, migrates,
# creates an admin, registers the built-in bots and serves http://localhost:8000 with a worker and a scheduler.
# Safe by default: 127.0.0.1 only (ARENA_BIND=0.0.0.0:8000 to open it), DEBUG off, a random secret key kept in
# var/secret-key; var/ is readable by its owner only.
up: install
	$(BIN)/arena runtimes install
	$(BIN)/python manage.py up
