# Spellpress: `make build` sets up and builds everything; `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup build test lint system-deps-test bench serve clean

setup: $(STAMP)

# What pip cannot install: scripts/system-deps installs it as root on Debian or Ubuntu, and
# otherwise says how and stops. The build needs only a Python that makes virtual environments.
$(STAMP): pyproject.toml
	sh scripts/system-deps $(PYTHON)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# 'compat': a plain path in a .pth file, not an import hook that every command pays for at start
	$(BIN)/pip install --quiet -e '.[test]' --config-settings editable_mode=compat
	touch $(STAMP)

# Every output of every game into build/ (incremental: unchanged files are left alone), in this
# process: make leaves no resident builder running (docs/printing.md: The resident builder).
build: setup
	$(BIN)/spellpress build --here
	$(BIN)/spellpress list --json > build/catalog.json.tmp && mv build/catalog.json.tmp build/catalog.json

# The browser tests need Chromium: checked first, so a missing one stops make before any set-up.
test: system-deps-test setup
	$(BIN)/pytest

system-deps-test:
	sh scripts/system-deps $(PYTHON) test

# ruff on the whole repo; mypy over every package (strict on spellpress.core, companion, the lab and
# the preview; mypy's defaults on the press and the benchmarks): both configured in pyproject.toml.
MYPY_PATHS := spellpress/core companion spellpress/lab spellpress/preview spellpress/cli.py spellpress/newgame.py \
              spellpress/targets.py benchmarks spellpress/press
lint: setup
	$(BIN)/ruff check --no-cache .  # its cache keeps an import's section when the module it names moves
	$(BIN)/mypy $(MYPY_PATHS)

bench: setup
	$(BIN)/python -m benchmarks

# The table companion for the phones on this network (docs/companion.md).
serve: setup
	$(BIN)/spellpress serve

clean:
	rm -rf build $(VENV) *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
