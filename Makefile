# Two commands for everyone: `make lab` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Colab's versions (constraints-colab.txt) in a second environment, for make test-compat
CVENV  := .venv-compat
CBIN   := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600
# Stored outputs are written with one thread; nbval checks them under other counts too.
THREADS ?= 1

.PHONY: help install lab test lint test-threads test-browser test-compat bench sweep execute lock lock-compat clean

help:
	@echo "make lab      crea .venv, instala y abre JupyterLab en notebooks/ (Ctrl+C para cerrar)"
	@echo "make test     crea .venv, instala y corre ruff, los tests y nbval sobre cada notebook"
	@echo "make test-browser  prueba los widgets del notebook 03 en JupyterLab + Chromium"
	@echo "make test-compat   todo de nuevo con las versiones de Colab (ipywidgets 7.7.1, IPython 7.34...)"
	@echo "make test-threads  nbval con OMP_NUM_THREADS=1, 2 y 4"
	@echo "make execute  re-ejecuta los notebooks en un kernel nuevo y guarda sus salidas"

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

install: $(STAMP)

lab: install
	$(BIN)/jupyter lab --notebook-dir=notebooks $$([ "$$(id -u)" = 0 ] && echo --allow-root)

lint: install
	$(BIN)/ruff check helpers tests notebooks benchmarks

# One pytest run: unit tests, the notebook hygiene test and strict nbval over every notebook.
test: lint
	OMP_NUM_THREADS=$(THREADS) $(BIN)/pytest tests notebooks --ignore=tests/browser $(NBVAL)

# The notebooks alone, under several thread counts (stored outputs must not change).
test-threads: install
	for n in 1 2 4; do OMP_NUM_THREADS=$$n $(BIN)/pytest -q notebooks $(NBVAL) || exit 1; done

# Every test and notebook again, under Colab's ipywidgets/IPython/ipykernel/matplotlib/numpy.
$(CSTAMP): pyproject.toml constraints-colab.txt
	$(PYTHON) -m venv $(CVENV)
	$(CBIN)/python -m pip install -q --upgrade pip
	$(CBIN)/python -m pip install -q -c constraints-colab.txt -e '.[dev]'
	$(CBIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

test-compat: $(CSTAMP)
	$(CBIN)/python -c "import ipywidgets, IPython, ipykernel, matplotlib, numpy, torch; \
	  print('compat:', 'ipywidgets', ipywidgets.__version__, 'IPython', IPython.__version__, 'ipykernel', \
	  ipykernel.__version__, 'matplotlib', matplotlib.__version__, 'numpy', numpy.__version__, 'torch', torch.__version__)"
	OMP_NUM_THREADS=$(THREADS) $(CBIN)/pytest tests notebooks --ignore=tests/browser -p no:cacheprovider $(NBVAL)

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

# Re-resolve constraints-colab.txt around Colab's pins (edit COLAB_PINS when Colab moves).
COLAB_PINS := torch==2.13.0 ipywidgets==7.7.1 ipykernel==6.17.1 ipython==7.34.0 matplotlib==3.10.0 numpy==2.1.0
lock-compat:
	rm -rf $(CVENV) && $(PYTHON) -m venv $(CVENV)
	printf '%s\n' $(COLAB_PINS) > $(CVENV)/pins.txt
	$(CBIN)/python -m pip install -q -c $(CVENV)/pins.txt -e '.[dev]'
	{ echo "# Colab's versions (Aug 2026) of ipywidgets, ipykernel, IPython, matplotlib and numpy, with CI's torch;"; \
	  echo "# everything else pinned as resolved around them. Used by make test-compat. Regenerate: make lock-compat."; \
	  $(CBIN)/python -m pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > constraints-colab.txt
	rm -rf $(CVENV)

clean:
	rm -rf $(VENV) $(CVENV) .pytest_cache .ruff_cache artifacts
