# One entry point for running and checking Rummy Hall. Needs only Python >= 3.11 and make.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
LINT_DIRS := $(wildcard app tests bench)

.PHONY: run test lint clean

run: $(VENV)/.installed
	$(BIN)/python -m app serve

test: lint
	$(BIN)/pytest -q

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/mypy app

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "error: python3.11 or python3 not found" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "error: $(PYTHON) is older than Python 3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV) \
		|| { rm -rf $(VENV); echo "error: venv failed (on Debian: apt install python3-venv)" >&2; exit 1; }
	$(PIP) install --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	touch $@

# The dev install includes the runtime one, so it refreshes both stamps.
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[dev]'
	touch $(VENV)/.installed $@
