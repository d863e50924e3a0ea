# Two commands for everyone: `make lab` and `make test`. Both build .venv from nothing.
# Facts (Colab's versions, the torch pin, nbval's flags, the repository) are written once; .ci/facts.py reads
# them for this file, the tests and CI.
PYTHON ?= python3
FACTS  := $(PYTHON) .ci/facts.py
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Colab's environment for make test-compat and make test-browser-classic: Colab's Python and packages
# ([tool.leccion06.colab] in pyproject.toml), the test tools, and helpers from the wheel (make dist).
CVENV  := .venv-compat
CBIN   := $(CVENV)/bin
CSTAMP := $(CVENV)/.installed
CHELPERS := $(CVENV)/.helpers
COLAB_PYTHON = $(shell $(FACTS) colab-python)
# Colab's Python: python3.X on PATH (GitHub: setup-python), else pyenv's; or say COLAB_PY=/path/to/python3.X
COLAB_PY ?= $(shell for p in python$(COLAB_PYTHON) $$HOME/.pyenv/versions/$(COLAB_PYTHON)*/bin/python$(COLAB_PYTHON); do \
              "$$p" -c 'import sys; assert "%d.%d" % sys.version_info[:2] == "$(COLAB_PYTHON)"' 2>/dev/null \
              && { echo "$$p"; break; }; done)
# The static site (make site, make test-site): Jupyter Book 1.x (Sphinx builds offline; 2.x fetches its theme at
# build time), axe-core for Playwright, in their own environment, pinned by constraints-site.txt (make lock-site).
SVENV  := .venv-site
SBIN   := $(SVENV)/bin
SSTAMP := $(SVENV)/.installed
SITE_PINS := "jupyter-book<2" axe-playwright-python playwright pytest
SITE_JS := .ci/site/node_modules/mathjax/es5/tex-chtml.js
# The release artefacts (make dist): sdist and wheel, built, checked, and the wheel's contents checked
DIST_STAMP := dist/.checked
CHROMIUM := /usr/bin/chromium
NEEDS_CHROMIUM = @test -x $(CHROMIUM) || { echo "$(CHROMIUM) is missing: run \`make ci-deps\` (apt-get install \
                 chromium) once, then this again"; exit 1; }
# Every claim a notebook checks (helpers.claim) fails hard under make; a learner's own session gets a note.
# make lab unsets it: JupyterLab is a learner's session. The grid and Colab's kernels inherit it.
export LECCION06_STRICT = 1
# Stored outputs are written with one thread; nbval checks them under other counts too (make test-matrix).
THREADS ?= 1
NB ?= $(wildcard notebooks/*.ipynb)

.PHONY: help install lab test lint unit nbval grading test-grading test-matrix grid-report ci-deps test-browser test-browser-classic \
        compat-env compat-helpers test-compat compat-unit compat-nbval dist bench bench-site sweep sweep-mask depth execute lock \
        lock-compat copies site-env site medidas \
        site-pictures test-site lock-site release clean

help:
	@echo "make lab      crea .venv, instala y abre JupyterLab en notebooks/ (Ctrl+C para cerrar)"
	@echo "make test     crea .venv, instala y corre ruff, los tests y nbval sobre cada notebook (de a dos a la vez)"
	@echo "make nbval NB=notebooks/05_norm_placement.ipynb   nbval estricto sobre un notebook"
	@echo "make ci-deps  instala Chromium, bubblewrap (y nodejs/npm si faltan) con apt-get: tests de navegador y de calificar"
	@echo "make test-browser  prueba los widgets (notebooks 03 y 05) en JupyterLab 4 + Chromium"
	@echo "make test-browser-classic  lo mismo en el Notebook clásico del entorno de Colab"
	@echo "make test-compat   los tests y nbval en el entorno de Colab: $(shell $(FACTS) colab-summary)"
	@echo "make grading  arma la tarea para docentes en build/grading/: copias sin respuestas y paquetes de otter-grader"
	@echo "make test-grading  corre esos paquetes con otter run (el de Gradescope) y los compara con calificar"
	@echo "make dist     arma el sdist y el wheel, los revisa (twine check) y revisa qué lleva el wheel"
	@echo "make test-matrix   nbval bajo cada CPU: kernels default/avx2/avx512 x 1, 2 y 4 hilos, y el camino de AMD"
	@echo "make grid-report   ejecuta los notebooks en cada configuración y lista las líneas impresas que cambian"
	@echo "make execute  re-ejecuta los notebooks en un kernel nuevo y guarda sus salidas (y rehace las copias)"
	@echo "make copies   rehace notebooks/colab/: las copias que abre Colab, sin las salidas que responden una apuesta"
	@echo "make site     arma la lección como sitio web estático en build/site-src/_build/html (sin ejecutar nada)"
	@echo "make test-site     prueba ese sitio en Chromium: matemática, alt text, nada fuera de 127.0.0.1, axe-core"
	@echo "make medidas  rehace las tablas medidas de docs/mantenimiento.md y docs/docente.md desde benchmarks/measurements.json"
	@echo "make release VERSION=1.1.0   prepara una versión (.ci/release.py): número, notebooks, CHANGELOG y commit; el tag lo crea main"
	@echo "bash .ci/run  todo lo anterior, como CI: dos trabajos a la vez y una tabla con el tiempo de cada etapa"

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
	$(BIN)/ruff check helpers tests notebooks benchmarks .ci

# Lint, then the unit tests and strict nbval side by side: two processes, one core each.
test: lint
	@$(MAKE) --no-print-directory -j2 -O unit nbval

# The unit tests (the notebook hygiene, prose-number and exercise tests among them), one thread. PART=grading:
# only helpers.grading's (tests/test_grading*.py: kernels, sandboxes and timeouts, about half the time);
# PART=rest: all the others. CI runs the two parts as two stages, so neither waits for the other.
UNIT_TESTS = $(if $(filter grading,$(PART)),tests/test_grading*.py,tests --ignore=tests/browser --ignore=tests/site \
  $(if $(filter rest,$(PART)),--ignore-glob='tests/test_grading*'))

unit: install
	OMP_NUM_THREADS=1 $(BIN)/pytest $(UNIT_TESTS) -p no:cacheprovider --durations=10

# Strict nbval over the stored notebooks, THREADS threads (1), the CPU's own kernels: the grid's runner, with
# its environment (tests/cpu_grid.py). One notebook: make nbval NB=notebooks/05_norm_placement.ipynb
nbval: install
	$(BIN)/python tests/cpu_grid.py nbval --configs native/$(THREADS) $(NB)

# The notebooks under every CPU configuration a learner may have (tests/cpu_grid.py says which):
# kernels default/avx2/avx512 x 1 and 2 threads, 4 threads once, and AMD's MKL/oneDNN path. One-thread
# configurations run two at a time. Some of them: make test-matrix CONFIGS=default/1,avx2/2
test-matrix: install
	$(BIN)/python tests/cpu_grid.py nbval $(if $(CONFIGS),--configs $(CONFIGS))

# What moves between those configurations: every printed line that differs (ignored cells too).
# make grid-report NB=notebooks/05_norm_placement.ipynb
grid-report: install
	$(BIN)/python tests/cpu_grid.py report $(NB)

# What the browser and site tests need from Debian, installed with apt-get: Chromium, and nodejs/npm where
# missing; and bubblewrap (bwrap), the sandbox each graded submission runs in (tests/test_grading_sandbox.py).
# Its own target, called by .ci/run: no test target installs anything system-wide.
CI_APT = $(if $(wildcard $(CHROMIUM)),,chromium) $(if $(shell command -v npm),,nodejs npm) \
         $(if $(shell command -v bwrap),,bubblewrap)
ci-deps:
	@if [ -n "$(strip $(CI_APT))" ]; then echo "apt-get install $(strip $(CI_APT))"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(CI_APT) >/dev/null; fi
	@$(CHROMIUM) --version 2>/dev/null && echo "node $$(node --version), npm $$(npm --version), $$(bwrap --version)"

# The widgets in JupyterLab 4 / ipywidgets 8, driven in Debian's Chromium; screenshots in artifacts/browser/lab/
test-browser: install
	$(NEEDS_CHROMIUM)
	$(BIN)/pytest tests/browser -v -p no:cacheprovider

# For teachers (docs/docente.md): per notebook, build/grading/<notebook>/ holds the student copy (no reference answer,
# graded mode on) and otter-grader's autograder.zip, both generated from the notebook and helpers.check.
# PUNTOS=file.ini: which exercises count and their points (docs/docente.md); default puntos.ini if present, else all.
PUNTOS ?= $(wildcard puntos.ini)
grading: install
	rm -rf build/grading
	OMP_NUM_THREADS=1 $(BIN)/python -m helpers.grading armar --salida build/grading $(if $(PUNTOS),--puntos $(PUNTOS))

# otter's own runner (otter run, what Gradescope's image runs) on the bundles armar builds, against calificar:
# 20 submissions, minutes (tests/test_grading_otter.py skips itself in make unit; neither CI nor make release runs it).
test-grading: install
	LECCION06_TEST_OTTER=1 OMP_NUM_THREADS=1 $(BIN)/pytest tests/test_grading_otter.py -p no:cacheprovider -s

# sdist and wheel (python -m build), twine check, and what the wheel carries: helpers with its data, nothing else.
$(DIST_STAMP): $(STAMP) pyproject.toml README.md $(shell find helpers -name '*.py' -o -name '*.json')
	rm -rf dist
	$(BIN)/python -m build -q --outdir dist .
	$(BIN)/twine check --strict dist/*
	$(BIN)/python tests/dist_check.py dist
	touch $@

dist: $(DIST_STAMP)

# Colab's environment, as Colab has it: its Python and packages, plus the test tools around them
# (constraints-colab.txt, make lock-compat), with no helpers yet. Its torch is PyPI's, as Colab's is (a CPU
# index in PIP_EXTRA_INDEX_URL, for .venv's torch, would give it a CPU build instead).
$(CSTAMP): pyproject.toml constraints-colab.txt
	@test -n "$(COLAB_PY)" || { echo "make test-compat needs Python $(COLAB_PYTHON), Colab's: pyenv install \
	  $(COLAB_PYTHON), or COLAB_PY=/path/to/python$(COLAB_PYTHON)"; exit 1; }
	rm -rf $(CVENV)
	$(COLAB_PY) -m venv $(CVENV)
	env -u PIP_EXTRA_INDEX_URL $(CBIN)/python -m pip install -q -c constraints-colab.txt \
	  $(shell $(FACTS) colab-packages) $(shell $(FACTS) colab-browser) $(shell $(FACTS) extra test)
	$(CBIN)/python -m pip freeze > $(CVENV)/before.txt
	$(CBIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

compat-env: $(CSTAMP)

# Then helpers from the wheel, the way a notebook's setup cell installs it (not editable, no -U, no
# constraints), which must change none of what was there; the tests then import that installed copy.
$(CHELPERS): $(CSTAMP) $(DIST_STAMP)
	$(CBIN)/python -m pip uninstall -q -y leccion06-helpers 2>/dev/null || true
	$(CBIN)/python -m pip install -q dist/*.whl
	$(CBIN)/python -m pip freeze --exclude leccion06-helpers > $(CVENV)/after.txt
	@diff $(CVENV)/before.txt $(CVENV)/after.txt || { echo "installing helpers changed Colab's packages (diff above)"; exit 1; }
	@echo "installing helpers changed none of the $$(wc -l < $(CVENV)/before.txt) packages already there"
	cd /tmp && $(CURDIR)/$(CBIN)/python -c "import sys, helpers; from importlib import metadata as m; \
	  print('compat: Python', sys.version.split()[0], *(f'{n} {m.version(n)}' for n in \
	  ('torch', 'ipywidgets', 'ipython', 'ipykernel', 'matplotlib', 'numpy', 'notebook')), '| helpers from', helpers.__path__[0]); \
	  assert 'site-packages' in helpers.__path__[0], 'helpers must be the installed wheel, not the checkout'"
	touch $@

compat-helpers: $(CHELPERS)

# Every unit test and strict nbval over every notebook in Colab's environment, side by side.
test-compat: $(CHELPERS)
	@$(MAKE) --no-print-directory -j2 -O compat-unit compat-nbval

# Tests marked one_env check what only .venv runs (pyproject's markers say which): here they would only repeat.
# PART=grading or PART=rest, as for make unit.
compat-unit: $(CHELPERS)
	OMP_NUM_THREADS=1 LECCION06_TEST_INSTALLED=1 $(CBIN)/pytest $(UNIT_TESTS) -m "not one_env" -p no:cacheprovider --durations=10

compat-nbval: $(CHELPERS)
	$(CBIN)/python tests/cpu_grid.py nbval --configs native/$(THREADS) $(NB)

# The browser test in Colab's environment: classic Notebook with Colab's ipywidgets; artifacts/browser/classic/
test-browser-classic: $(CHELPERS)
	$(NEEDS_CHROMIUM)
	$(CBIN)/pytest tests/browser -v -p no:cacheprovider

# Re-resolve constraints-colab.txt around Colab's versions, with Colab's Python. The lock leaves Colab's own
# packages out: pyproject's [tool.leccion06.colab] is where they are written.
lock-compat:
	@test -n "$(COLAB_PY)" || { echo "make lock-compat needs Python $(COLAB_PYTHON): pyenv install $(COLAB_PYTHON), or COLAB_PY=..."; exit 1; }
	rm -rf $(CVENV) && $(COLAB_PY) -m venv $(CVENV)
	env -u PIP_EXTRA_INDEX_URL $(CBIN)/python -m pip install -q $(shell $(FACTS) colab-packages) \
	  $(shell $(FACTS) colab-browser) '.[test]'
	{ echo "# What Colab's environment (make test-compat) resolves around Colab's own versions, which are not here:"; \
	  echo "# they are [tool.leccion06.colab] in pyproject.toml. Regenerate: make lock-compat."; \
	  $(CBIN)/python -m pip freeze --exclude leccion06-helpers $(shell $(FACTS) colab-excludes); } > constraints-colab.txt
	rm -rf $(CVENV)

# The lesson as a static website, from the stored outputs (nothing runs): build/site-src/_build/html.
# MathJax comes from npm (.ci/site/package-lock.json) and is served from the site itself.
$(SSTAMP): constraints-site.txt
	rm -rf $(SVENV)
	$(PYTHON) -m venv $(SVENV)
	$(SBIN)/python -m pip install -q -c constraints-site.txt $(SITE_PINS)
	touch $@

$(SITE_JS): .ci/site/package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: run \`make ci-deps\` (apt-get install nodejs npm)"; exit 1; }
	cd .ci/site && npm ci --no-audit --no-fund --ignore-scripts
	touch $@

site-env: $(SSTAMP) $(SITE_JS)

site: site-env
	$(SBIN)/python .ci/site/prepare.py
	cd build/site-src && ../../$(SBIN)/jupyter-book build --warningiserror --keep-going . >/dev/null
	cp notebooks/colab/*.ipynb build/site-src/_build/html/_sources/notebooks/  # the download: the learner's copy
	@echo "el sitio está en build/site-src/_build/html (index.html)"

# After `make test-browser`: its pictures of each widget as its cell creates it, and the call and text beside
# each, become the site's (commit them; make site refuses a picture whose call the notebook no longer makes).
site-pictures:
	cp artifacts/browser/lab/site/*.png artifacts/browser/lab/site/*.json .ci/site/widgets/

# Every page in Debian's Chromium: math rendered, alt text, no request off 127.0.0.1, Colab button, axe-core; the
# live widgets against helpers (.venv's Python gives the explorer's expected answers: hence install).
test-site: site install
	$(NEEDS_CHROMIUM)
	$(SBIN)/pytest tests/site -v -p no:cacheprovider --durations=10

lock-site:
	rm -rf $(SVENV) && $(PYTHON) -m venv $(SVENV)
	$(SBIN)/python -m pip install -q $(SITE_PINS)
	{ echo "# Jupyter Book 1.x, axe-playwright-python and Playwright for make site / make test-site. Regenerate: make lock-site."; \
	  $(SBIN)/python -m pip freeze; } > constraints-site.txt
	rm -rf $(SVENV)

# The experiment engine against the seed-style loop (notebook 05), on this machine, now; the run goes to
# benchmarks/measurements.json (make medidas puts it in docs/mantenimiento.md).
bench: install
	$(BIN)/python benchmarks/bench_engine.py

# How fast the site's live copies answer (Chromium, CPU throttled 4x): a measurement, so not in make test-site
bench-site: site install
	$(NEEDS_CHROMIUM)
	$(SBIN)/pytest benchmarks/bench_site_live.py -v -s -p no:cacheprovider

# The docs' measured tables from benchmarks/measurements.json, and the guide's reading table from the notebooks'
# words (benchmarks/measurements.py, standard library only; tests/test_measurements.py fails on a stale table).
medidas:
	$(PYTHON) benchmarks/measurements.py

# Regenerate notebook 05's full sweep (helpers/data/norm_sweep.json): about 1 860 s (31 min) on 2 idle cores
# (the first four slices 1 187 s, warmup24 669 s). One slice into the file: python -m helpers.sweep_train --add NAME
sweep: install
	OMP_NUM_THREADS=2 $(BIN)/python -m helpers.sweep_train

# Regenerate notebook 04's mask experiment (helpers/data/mask_sweep.json): 3 seeds x 4 000 steps, both models side by
# side; the file's meta says how long it took.
sweep-mask: install
	OMP_NUM_THREADS=1 $(BIN)/python -m helpers.mask_experiment --jobs 2

# Regenerate notebook 02's 96-layer runs (helpers/data/depth96.json): 8 runs, 33 min on a busy 2-core machine
depth: install
	OMP_NUM_THREADS=1 $(BIN)/python -m helpers.depth

# Re-run notebooks top to bottom in a fresh kernel and store their outputs; an exercise's answer (a cell whose
# role, read by helpers.lesson, is exercise_answer) is stored without its output: the learner sees it when they run it.
# make execute NB=notebooks/01_ffn.ipynb   (default: all of them)
execute: install
	OMP_NUM_THREADS=$(THREADS) $(BIN)/python .ci/execute.py $(NB)

# The learner's copies, notebooks/colab/ (what Colab badges open): each notebook stored unrun from its first bet on,
# and the text that reads each answer folded (roles: helpers.lesson). Committed; tests/test_learner_copies.py fails a stale one.
copies:
	$(PYTHON) .ci/learner_copies.py

# Refresh constraints.txt from the current .venv (after changing pyproject.toml ranges).
lock: install
	{ echo "# Pinned versions for CI and make (pip -c). Regenerate: make lock. torch is the CPU build."; \
	  $(BIN)/python -m pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/'; } > constraints.txt

# Prepare a release: refuses a dirty tree, an old version, an existing tag or an empty "Sin publicar" in
# CHANGELOG.md; then writes the version, points setup cells, badges and copies at it, dates the changelog, reinstalls
# helpers, runs the setup cells (all the version changes in a notebook) and the release's tests, and commits: a minute
# or two (a failure puts the tree and the installed version back). CI runs everything else on that commit. No tag:
# once the commit is on main, .github/workflows/release.yml creates v<version> and publishes the release.
# make test fails while helpers/ or notebooks/ changed after the last release.
release: install
	@test -n "$(VERSION)" || { echo "make release VERSION=x.y.z (the new version)"; exit 1; }
	$(BIN)/python .ci/release.py $(VERSION)

clean:
	rm -rf $(VENV) $(CVENV) $(SVENV) build dist .pytest_cache .ruff_cache artifacts
