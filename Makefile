# One entry point for running and checking Rummy Hall. Needs only Python >= 3.11 and make.
# Dependencies install from the locks in requirements/ (exact versions with hashes);
# `make lock` refreshes them after pyproject.toml changes, `make lock-upgrade` moves every pin on.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
LOCK := requirements/runtime.txt
DEV_LOCK := requirements/dev.txt
# The project itself, once its locked dependencies (and its locked build backend) are in.
INSTALL_PROJECT := $(PIP) install --no-deps --no-build-isolation -e .
COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --build-deps-for=editable --no-emit-find-links \
	--no-emit-index-url
LINT_DIRS := $(wildcard app tests bench)

.PHONY: run test lint lock lock-upgrade clean

run: $(VENV)/.installed
	$(BIN)/python -m app serve --host $(HOST) --port $(PORT)

# Most tests wait on real servers, databases and browsers: four workers keep both cores busy.
# Each worker takes whole files (their module fixtures stay shared); TEST_WORKERS=0 runs serially.
TEST_WORKERS ?= 4

test: lint
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/mypy app

# The dev lock is constrained by the runtime one, so both pin the same runtime versions.
lock: $(VENV)/.installed-dev
	$(COMPILE) $(UPGRADE) -o $(LOCK) pyproject.toml
	$(COMPILE) $(UPGRADE) --extra dev -c $(LOCK) -o $(DEV_LOCK) pyproject.toml

lock-upgrade:
	$(MAKE) lock UPGRADE=--upgrade

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "error: python3.11 or python3 not found" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "error: $(PYTHON) is older than Python 3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV) \
		|| { rm -rf $(VENV); echo "error: venv failed (on Debian: apt install python3-venv)" >&2; exit 1; }

$(VENV)/.installed: $(LOCK) pyproject.toml | $(BIN)/python
	$(PIP) install --require-hashes -r $(LOCK)
	$(INSTALL_PROJECT)
	touch $@

# The dev lock includes the runtime one, so it refreshes both stamps.
$(VENV)/.installed-dev: $(DEV_LOCK) pyproject.toml | $(BIN)/python
	$(PIP) install --require-hashes -r $(DEV_LOCK)
	$(INSTALL_PROJECT)
	touch $(VENV)/.installed $@
