# The two set-up commands of the README: `make up` starts Arena, `make test` runs the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: system-packages install up test lint

system-packages:
	scripts/system-packages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: system-packages $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,envs]'

# The checks that keep the house in order (CI runs them before the tests): ruff's rule set and mypy's, both in
# pyproject.toml; the import direction is a test (tests/test_import_direction.py).
lint: install
	$(BIN)/ruff check
	$(BIN)/mypy

test: install
	$(BIN)/arena runtimes install
	scripts/install-axe
	scripts/install-oidc-provider
	$(BIN)/pytest

# Arena on embedded defaults (SQLite + embedded Redis under var/): installs, builds the bot runtimes, migrates,
# creates an admin, registers the built-in bots and serves http://localhost:8000 with a worker and a scheduler.
# Safe by default: 127.0.0.1 only (ARENA_BIND=0.0.0.0:8000 to open it), DEBUG off, a random secret key kept in
# var/secret-key; var/ is readable by its owner only.
up: install
	$(BIN)/arena runtimes install
	$(BIN)/python manage.py up
