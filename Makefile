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
BUILD_LOCK := requirements/build.txt
# The project itself, once its locked dependencies (and its locked build backend) are in.
INSTALL_PROJECT := $(PIP) install --no-deps --no-build-isolation -e .
COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --build-deps-for=editable --no-emit-find-links \
	--no-emit-index-url
LINT_DIRS := $(wildcard app tests bench)

.PHONY: run test lint compiled clean-compiled lock lock-upgrade clean

run: $(VENV)/.installed compiled
	$(BIN)/python -m app serve --host $(HOST) --port $(PORT)

# Most tests wait on real servers, databases and browsers: three workers keep both cores busy.
# Each worker takes whole files (their module fixtures stay shared); TEST_WORKERS=0 runs serially.
TEST_WORKERS ?= 3

test: lint compiled
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/mypy app

# The engine and the bots compiled with mypyc in place (app/compiled.py, docs/build.md), rebuilt
# whenever a source changed; where the venv has no mypy (a runtime-only install) or there is no
# C compiler, one line says so and everything runs as plain Python.
COMPILED_SOURCES := $(wildcard app/engine/*.py app/bots/*.py) app/refusals.py app/compiled.py \
	app/build.py
COMPILED_OUT = app/compiled.json $(wildcard app/*.so app/engine/*.so app/bots/*.so)

compiled: $(VENV)/.installed
	@if $(BIN)/python -c 'import mypyc' 2>/dev/null && command -v $${CC:-cc} >/dev/null; then \
		$(MAKE) --no-print-directory app/compiled.json; \
	else \
		rm -f $(COMPILED_OUT); \
		echo "note: the engine runs interpreted (no mypy in $(VENV) or no C compiler; docs/build.md)"; \
	fi

# The old modules go first: importing app refuses stale ones (app/compiled.py), the build too.
app/compiled.json: $(COMPILED_SOURCES)
	@echo "compiling the engine and the bots with mypyc (a few minutes; docs/build.md)"
	rm -f $(COMPILED_OUT)
	$(BIN)/python -m app.build

clean-compiled:
	rm -rf $(COMPILED_OUT) build/mypyc

# The dev lock is constrained by the runtime one, so both pin the same runtime versions; the
# build lock (the runtime and mypy, for the Docker image's compiled engine) by the dev one.
lock: $(VENV)/.installed-dev
	$(COMPILE) $(UPGRADE) -o $(LOCK) pyproject.toml
	$(COMPILE) $(UPGRADE) --extra dev -c $(LOCK) -o $(DEV_LOCK) pyproject.toml
	$(COMPILE) --extra compiled -c $(DEV_LOCK) -o $(BUILD_LOCK) pyproject.toml

lock-upgrade:
	$(MAKE) lock UPGRADE=--upgrade

clean: clean-compiled
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
