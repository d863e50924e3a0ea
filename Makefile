# Two commands for everyone: `make lab` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600
# Stored outputs are written with one thread; nbval checks them under other counts too.
THREADS ?= 1

.PHONY: help install lab test lint test-threads test-browser bench sweep execute lock clean

help:
	@echo "make lab      crea .venv, instala y abre JupyterLab en notebooks/ (Ctrl+C para cerrar)"
	@echo "make test     crea .venv, instala y corre ruff, los tests y nbval sobre cada notebook"
	@echo "make test-browser  prueba los widgets del notebook 03 en JupyterLab + Chromium"
	@echo "make execute  re-ejecuta los notebooks en un kernel nuevo y guarda sus salidas"

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

install: $(STAMP)

lab: install
	$(BIN)/jupyter lab --notebook-dir=notebooks

lint: install
	$(BIN)/ruff check helpers tests notebooks benchmarks

# One pytest run: unit tests, the notebook hygiene test and strict nbval over every notebook.
test: lint
	OMP_NUM_THREADS=$(THREADS) $(BIN)/pytest tests notebooks --ignore=tests/browser $(NBVAL)

# The notebooks alone, under several thread counts (stored outputs must not change).
test-threads: install
	for n in 1 2 4; do OMP_NUM_THREADS=$$n $(BIN)/pytest -q notebooks $(NBVAL) || exit 1; done

# Notebook 03's widgets in a real JupyterLab + Debian's Chromium (installed with apt-get if missing).
test-browser: install
	@test -x /usr/bin/chromium || { echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,browser]'
	$(BIN)/pytest tests/browser -v

# The experiment engine against the seed-style loop (notebook 05), on this machine, now.
bench: install
	$(BIN)/python benchmarks/bench_engine.py

# Regenerate notebook 05's full sweep (helpers/data/norm_sweep.json), about 15 minutes on 2 cores.
sweep: install
	OMP_NUM_THREADS=2 $(BIN)/python -m helpers.sweep

# Re-run notebooks top to bottom in a fresh kernel and store their outputs.
# make execute NB=notebooks/01_ffn.ipynb   (default: all of them)
NB ?= $(wildcard notebooks/*.ipynb)
execute: install
	for nb in $(NB); do \
	  OMP_NUM_THREADS=$(THREADS) $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.timeout=900 --ExecutePreprocessor.store_widget_state=False \
	    --ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	done

# Refresh constraints.txt from the current .venv (after changing pyproject.toml ranges).
lock: install
	{ echo "# Pinned versions for CI and make (pip -c). Regenerate: make lock. torch==2.13.0 is the CPU build."; \
	  $(BIN)/python -m pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > constraints.txt

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
