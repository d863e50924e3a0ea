# Two commands for everyone: `make lab` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Colab's Python and versions (constraints-colab.txt) in a second environment, for make test-compat
CVENV  := .venv-compat
CBIN   := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
# Colab's Python: python3.13 on PATH (GitHub: setup-python), else pyenv's; or say PY313=/path/to/python3.13
PY313  ?= $(shell for p in python3.13 $$HOME/.pyenv/versions/3.13*/bin/python3.13; do \
            "$$p" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null && { echo "$$p"; break; }; done)
# What Colab's free CPU runtime has (Aug 2026), before the setup cell installs helpers. When Colab moves,
# edit this line, run `make lock-compat`, then `make test-compat`.
COLAB_PINS := torch==2.11.0 ipywidgets==7.7.1 ipykernel==6.17.1 ipython==7.34.0 matplotlib==3.10.0 numpy==2.1.3
# Classic Notebook 6.5.7 with ipywidgets 7.7.1, ipykernel 6.17.1 and IPython 7.34 (Colab's widget and kernel side), for
# make test-browser-classic. Pinned by constraints-classic.txt (make lock-classic).
KVENV  := .venv-classic
KBIN   := $(KVENV)/bin
KSTAMP := $(KVENV)/.installed
# The static site (make site, make test-site): Jupyter Book 1.x (Sphinx builds offline; 2.x fetches its theme at
# build time), axe-core for Playwright, in their own environment, pinned by constraints-site.txt (make lock-site).
SVENV  := .venv-site
SBIN   := $(SVENV)/bin
SSTAMP := $(SVENV)/.installed
SITE_PINS := "jupyter-book<2" axe-playwright-python playwright pytest
CLASSIC_PINS := notebook==6.5.7 ipywidgets==7.7.1 widgetsnbextension==3.6.1 ipykernel==6.17.1 ipython==7.34.0 torch==2.13.0 pytest playwright
# The test tools (pyproject's dev extra, read from there so the list is written once)
DEV_TOOLS   = $(shell $(PYTHON) -c "import shlex, tomllib; \
                print(' '.join(map(shlex.quote, tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dev'])))")
NBVAL  := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600
# Every claim a notebook checks (helpers.claim) fails hard under make; a learner's own session gets a note.
# make lab unsets it: JupyterLab is a learner's session.
export LECCION06_STRICT = 1
# Stored outputs are written with one thread; nbval checks them under other counts too.
THREADS ?= 1

.PHONY: help install lab test lint test-matrix grid-report test-browser test-browser-classic chromium test-compat bench \
        sweep execute lock lock-compat lock-classic site site-pictures test-site lock-site clean

help:
	@echo "make lab      crea .venv, instala y abre JupyterLab en notebooks/ (Ctrl+C para cerrar)"
	@echo "make test     crea .venv, instala y corre ruff, los tests y nbval sobre cada notebook"
	@echo "make test-browser  prueba los widgets (notebooks 03 y 05) en JupyterLab 4 + Chromium"
	@echo "make test-browser-classic  lo mismo en Notebook 6.5.7 con ipywidgets 7.7.1, los widgets de Colab"
	@echo "make test-compat   todo de nuevo con el Python 3.13 y las versiones de Colab (torch 2.11, ipywidgets 7.7.1...)"
	@echo "make test-matrix   nbval bajo cada CPU: kernels default/avx2/avx512 x 1, 2 y 4 hilos, y el camino de AMD"
	@echo "make grid-report   ejecuta los notebooks en cada configuración y lista las líneas impresas que cambian"
	@echo "make execute  re-ejecuta los notebooks en un kernel nuevo y guarda sus salidas"
	@echo "make site     arma la lección como sitio web estático en build/site-src/_build/html (sin ejecutar nada)"
	@echo "make test-site     prueba ese sitio en Chromium: matemática, alt text, nada fuera de 127.0.0.1, axe-core"

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

install: $(STAMP)

lab: install
	env -u LECCION06_STRICT $(BIN)/jupyter lab --notebook-dir=notebooks $$([ "$$(id -u)" = 0 ] && echo --allow-root)

lint: install
	$(BIN)/ruff check helpers tests notebooks benchmarks

# One pytest run: unit tests, the notebook hygiene test and strict nbval over every notebook.
test: lint
	OMP_NUM_THREADS=$(THREADS) $(BIN)/pytest tests notebooks --ignore=tests/browser --ignore=tests/site $(NBVAL)

# The notebooks under every CPU configuration a learner may have (tests/cpu_grid.py says which):
# kernels default/avx2/avx512 x 1 and 2 threads, 4 threads once, and AMD's MKL/oneDNN path.
test-matrix: install
	$(BIN)/python tests/cpu_grid.py nbval

# What moves between those configurations: every printed line that differs (ignored cells too).
# make grid-report NB=notebooks/05_norm_placement.ipynb
grid-report: install
	$(BIN)/python tests/cpu_grid.py report $(NB)

# Colab's environment, rebuilt as Colab has it: Python 3.13 with Colab's packages (and the test tools),
# then helpers installed the way the setup cell does (not editable, no -U, no constraints), which must
# change none of what was there; then every unit test and notebook against the same stored outputs.
$(CSTAMP): pyproject.toml constraints-colab.txt
	@test -n "$(PY313)" || { echo "make test-compat needs Python 3.13, Colab's: pyenv install 3.13, or PY313=/path/to/python3.13"; exit 1; }
	rm -rf $(CVENV)
	$(PY313) -m venv $(CVENV)
	$(CBIN)/python -m pip install -q -c constraints-colab.txt $(COLAB_PINS) $(DEV_TOOLS)
	$(CBIN)/python -m pip freeze > $(CVENV)/before.txt
	$(CBIN)/python -m pip install -q .
	$(CBIN)/python -m pip freeze --exclude leccion06-helpers > $(CVENV)/after.txt
	@diff $(CVENV)/before.txt $(CVENV)/after.txt || { echo "installing helpers changed Colab's packages (diff above)"; exit 1; }
	@echo "installing helpers changed none of the $$(wc -l < $(CVENV)/before.txt) packages already there"
	$(CBIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

test-compat: $(CSTAMP)
	$(CBIN)/python -m pip install -q --no-deps --force-reinstall .   # this checkout's helpers, not a stale copy
	cd /tmp && $(CURDIR)/$(CBIN)/python -c "import sys, ipywidgets, IPython, ipykernel, matplotlib, numpy, torch, helpers; \
	  print('compat: Python', sys.version.split()[0], 'torch', torch.__version__, 'ipywidgets', ipywidgets.__version__, \
	  'IPython', IPython.__version__, 'ipykernel', ipykernel.__version__, 'matplotlib', matplotlib.__version__, \
	  'numpy', numpy.__version__, '| helpers from', helpers.__path__[0]); \
	  assert 'site-packages' in helpers.__path__[0], 'helpers must be the installed copy, not the checkout'"
	OMP_NUM_THREADS=$(THREADS) $(CBIN)/pytest tests notebooks --ignore=tests/browser --ignore=tests/site -p no:cacheprovider $(NBVAL)

# Notebook 03's widgets in a real JupyterLab + Debian's Chromium (installed with apt-get if missing).
chromium:
	@test -x /usr/bin/chromium || { echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The widgets in JupyterLab 4 / ipywidgets 8, driven in Debian's Chromium; screenshots in artifacts/browser/lab/
test-browser: install chromium
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,browser]'
	$(BIN)/pytest tests/browser -v

# The same test in classic Notebook 6.5.7 / ipywidgets 7.7.1 (Colab's widgets); artifacts/browser/classic/
$(KSTAMP): pyproject.toml constraints-classic.txt
	rm -rf $(KVENV)
	$(PYTHON) -m venv $(KVENV)
	$(KBIN)/python -m pip install -q -c constraints-classic.txt $(CLASSIC_PINS) -e .
	$(KBIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

test-browser-classic: $(KSTAMP) chromium
	$(KBIN)/pytest tests/browser -v -p no:cacheprovider

lock-classic:
	rm -rf $(KVENV) && $(PYTHON) -m venv $(KVENV)
	$(KBIN)/python -m pip install -q $(CLASSIC_PINS) -e .
	{ echo "# Classic Notebook 6.5.7 + ipywidgets 7.7.1 (Colab's widget front end) with torch 2.13.0 CPU, for"; \
	  echo "# make test-browser-classic. Regenerate: make lock-classic."; \
	  $(KBIN)/python -m pip freeze --exclude leccion06-helpers | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > constraints-classic.txt
	rm -rf $(KVENV)

# The lesson as a static website, from the stored outputs (nothing runs): build/site-src/_build/html.
# MathJax comes from npm (.ci/site/package-lock.json) and is served from the site itself.
$(SSTAMP): constraints-site.txt
	rm -rf $(SVENV)
	$(PYTHON) -m venv $(SVENV)
	$(SBIN)/python -m pip install -q -c constraints-site.txt $(SITE_PINS)
	touch $@

.ci/site/node_modules/mathjax/es5/tex-chtml.js: .ci/site/package-lock.json
	@command -v npm >/dev/null || { echo "installing Debian's nodejs and npm"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	cd .ci/site && npm ci --no-audit --no-fund --ignore-scripts
	touch $@

site: $(SSTAMP) .ci/site/node_modules/mathjax/es5/tex-chtml.js
	$(SBIN)/python .ci/site/prepare.py
	cd build/site-src && ../../$(SBIN)/jupyter-book build --warningiserror --keep-going . >/dev/null
	cp notebooks/*.ipynb build/site-src/_build/html/_sources/notebooks/  # the download is the notebook as stored
	@echo "el sitio está en build/site-src/_build/html (index.html)"

# After `make test-browser`: its pictures of each widget as its cell creates it, and the call and text beside
# each, become the site's (commit them; make site refuses a picture whose call the notebook no longer makes).
site-pictures:
	cp artifacts/browser/lab/site/*.png artifacts/browser/lab/site/*.json .ci/site/widgets/

# Every page in Debian's Chromium: math rendered, alt text, no request off 127.0.0.1, Colab button, axe-core.
test-site: site chromium
	$(SBIN)/pytest tests/site -v -p no:cacheprovider

lock-site:
	rm -rf $(SVENV) && $(PYTHON) -m venv $(SVENV)
	$(SBIN)/python -m pip install -q $(SITE_PINS)
	{ echo "# Jupyter Book 1.x, axe-playwright-python and Playwright for make site / make test-site. Regenerate: make lock-site."; \
	  $(SBIN)/python -m pip freeze; } > constraints-site.txt
	rm -rf $(SVENV)

# The experiment engine against the seed-style loop (notebook 05), on this machine, now.
bench: install
	$(BIN)/python benchmarks/bench_engine.py

# Regenerate notebook 05's full sweep (helpers/data/norm_sweep.json): about 1 860 s (31 min) on 2 idle cores
# (the first four slices 1 187 s, warmup24 669 s). One slice into the file: python -m helpers.sweep --add NAME
sweep: install
	OMP_NUM_THREADS=2 $(BIN)/python -m helpers.sweep

# Re-run notebooks top to bottom in a fresh kernel and store their outputs; an exercise's answer (cells tagged
# exercise-answer) is stored without its output, so the learner sees it only when they run it.
# make execute NB=notebooks/01_ffn.ipynb   (default: all of them)
NB ?= $(wildcard notebooks/*.ipynb)
execute: install
	for nb in $(NB); do \
	  OMP_NUM_THREADS=$(THREADS) $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.timeout=900 --ExecutePreprocessor.store_widget_state=False \
	    --ExecutePreprocessor.record_timing=False \
	    --NotebookExporter.preprocessors=nbconvert.preprocessors.CoalesceStreamsPreprocessor "$$nb" || exit 1; \
	  $(BIN)/python -c "import nbformat, sys; nb = nbformat.read(sys.argv[1], 4); \
	    [c.update(outputs=[]) for c in nb.cells if 'exercise-answer' in c.get('metadata', {}).get('tags', [])]; \
	    nbformat.write(nb, sys.argv[1])" "$$nb" || exit 1; \
	done

# Refresh constraints.txt from the current .venv (after changing pyproject.toml ranges).
lock: install
	{ echo "# Pinned versions for CI and make (pip -c). Regenerate: make lock. torch==2.13.0 is the CPU build."; \
	  $(BIN)/python -m pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > constraints.txt

# Re-resolve constraints-colab.txt around COLAB_PINS (at the top), with Colab's Python.
lock-compat:
	@test -n "$(PY313)" || { echo "make lock-compat needs Python 3.13: pyenv install 3.13, or PY313=..."; exit 1; }
	rm -rf $(CVENV) && $(PY313) -m venv $(CVENV)
	printf '%s\n' $(COLAB_PINS) > $(CVENV)/pins.txt
	$(CBIN)/python -m pip install -q -c $(CVENV)/pins.txt '.[dev]'
	{ echo "# Colab's Python 3.13 and its torch, ipywidgets, ipykernel, IPython, matplotlib and numpy (Aug 2026),"; \
	  echo "# everything else pinned as resolved around them. Used by make test-compat. Regenerate: make lock-compat."; \
	  $(CBIN)/python -m pip freeze --exclude leccion06-helpers; } > constraints-colab.txt
	rm -rf $(CVENV)

clean:
	rm -rf $(VENV) $(CVENV) $(KVENV) $(SVENV) build .pytest_cache .ruff_cache artifacts
