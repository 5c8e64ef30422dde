# The two set-up commands of the README: `make up` starts Arena, `make test` runs the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: system-packages install up test

system-packages:
	scripts/system-packages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: system-packages $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'

test: install
	$(BIN)/arena runtimes install
	$(BIN)/pytest

# Arena on embedded defaults (SQLite + embedded Redis under var/): installs, builds the bot runtimes, migrates,
# creates an admin, registers the built-in bots and serves http://localhost:8000 with a worker and a scheduler.
up: install
	$(BIN)/arena runtimes install
	$(BIN)/python manage.py up
