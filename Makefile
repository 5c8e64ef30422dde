# The two set-up commands of the README: `make up` starts Arena, `make test` runs the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install up test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'

test: install
	$(BIN)/pytest
