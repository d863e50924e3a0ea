"""The series' widgets in a real front end, driven by Playwright in Debian's Chromium: notebook 03's three
interactions, notebook 05's training progress line and bet, and the sweep explorer of its deep dive, 05b.

Two front ends, one test: `make test-browser` runs it in JupyterLab 4 with ipywidgets 8 (.venv), and
`make test-browser-classic` in Colab's environment (.venv-compat: its classic Notebook and ipywidgets 7, as
pyproject's [tool.leccion06.colab] has them). Each server runs on loopback over temporary copies of the
notebooks (the repository's files are never saved over) and is stopped at the end, also when the test fails.
Screenshots (at 2x, for HiDPI screens) go to artifacts/browser/<front end>/.

After "Run all", each widget is first checked and photographed as its cell creates it (no later cell touches a
widget: tests/test_notebooks_hygiene.py): artifacts/browser/<front end>/site/<name>.png, with <name>.json saying
which call made it and the text it shows. Those are the static site's pictures (`make site-pictures` copies
JupyterLab's into .ci/site/widgets/; `make site` refuses a picture whose call is not the one in the notebook).
The interactions come after, on their own screenshots.
"""

from __future__ import annotations

import ast
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from importlib.metadata import version
from importlib.util import find_spec
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# classic Notebook 6.x if this environment has it (make test-browser-classic), else JupyterLab
CLASSIC = find_spec("notebook") is not None and version("notebook").startswith("6.")
FRONT_END = "classic" if CLASSIC else "lab"
ARTIFACTS = ROOT / "artifacts" / "browser" / FRONT_END
SITE_PICTURES = ARTIFACTS / "site"
NOTEBOOKS = ("03_layernorm.ipynb", "05_norm_placement.ipynb", "05b_semillas_profundidad_warmup.ipynb")
CONSOLE: list[str] = []  # the page's console messages


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """A JupyterLab or classic Notebook server on 127.0.0.1 over copies of the notebooks; yields a function
    that gives a notebook's URL."""
    work = tmp_path / "notebooks"
    work.mkdir()
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, work)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "OMP_NUM_THREADS": "1"}
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "settings")
    if CLASSIC:
        cmd = [sys.executable, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--NotebookApp.token={token}", f"--NotebookApp.notebook_dir={work}", "--allow-root"]
        url = f"http://127.0.0.1:{port}/notebooks/{{name}}?token={token}"
    else:
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}", "--allow-root",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        url = f"http://127.0.0.1:{port}/lab/tree/{{name}}?token={token}"
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start:\n" + (tmp_path / "server.log").read_text()) from None
                time.sleep(0.5)
        yield lambda name: url.format(name=name)
    finally:
        _stop(proc)
        log.close()


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the server's whole process group (its kernels too), SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _last_output(notebook: str) -> str:
    """The last line the notebook prints, as stored (read from the file: the test follows the notebook)."""
    for cell in reversed(json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]):
        text = "".join("".join(o["text"]) for o in cell.get("outputs", [])
                       if o.get("output_type") == "stream" and o.get("name") == "stdout")
        if text.strip():
            return " ".join(text.strip().splitlines()[-1].split())
    raise AssertionError(f"{notebook} prints nothing")


def _run_all(page, url: str, last_output: str, timeout_s: int, during: str | None = None) -> None:
    """Open a notebook, run every cell, and wait for the text its last printing cell prints, in an output (and,
    on the way, for ``during``: a progress line, which is screenshot and must be gone once its cell is done)."""
    from playwright.sync_api import Error as PlaywrightError

    page.goto(url)
    if CLASSIC:
        page.wait_for_function("() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel"
                               " && Jupyter.notebook.kernel.is_connected()", timeout=60_000)
        # ipywidgets 7's manager first restores the kernel's widgets (over the "jupyter.widget.control" comm,
        # which Colab's ipywidgets 7 kernel side lacks: it says so and falls back). A widget displayed before
        # that ends stays hidden, so wait for it, as a learner who runs a cell a few seconds later does.
        deadline = time.monotonic() + 30
        while not any("jupyter.widget.control" in m for m in CONSOLE) and time.monotonic() < deadline:
            page.wait_for_timeout(250)
        page.wait_for_timeout(1000)
        page.evaluate("() => Jupyter.notebook.execute_all_cells()")
    else:
        page.locator(".jp-Notebook").first.wait_for()
        page.locator(".jp-StatusBar-Widget:visible", has_text="Idle").first.wait_for()  # kernel started
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    if during:
        page.get_by_text(during).first.wait_for(timeout=timeout_s * 1000)
        for _ in range(40):  # the line is redrawn (a new element) twice a second: retry until one holds still
            try:
                page.get_by_text(during).first.scroll_into_view_if_needed(timeout=1000)
                break
            except PlaywrightError:
                continue
        page.screenshot(path=str(ARTIFACTS / "0_progreso.png"))
    page.locator(".jp-OutputArea-output, .output_subarea").get_by_text(last_output).first.wait_for(
        timeout=timeout_s * 1000)
    if during:
        assert page.get_by_text(during).count() == 0, f"a progress line ({during!r}) is still on the page"


def _widget(page, inner: str):
    """The widget box (a VBox) that contains ``inner``."""
    return page.locator(".widget-vbox").filter(has=page.locator(inner)).last


def _assert_image_at_own_size(img) -> None:
    """Drawn at 2x and shown at half its pixels: never stretched (the old images were, 1.7x to 2.2x)."""
    natural, shown = img.evaluate("i => [i.naturalWidth, i.getBoundingClientRect().width]")
    assert abs(shown - natural / 2) <= 1, f"image {natural} px shown {shown} px wide: stretched"


def _widget_call(notebook: str, cls: str) -> ast.Call:
    """The call in the notebook that creates the widget: helpers.widgets.<cls>(...)."""
    cells = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code" and cls in "".join(c["source"])]
    calls = [node for source in sources for node in ast.walk(ast.parse(re.sub(r"(?m)^\s*[%!].*$", "", source)))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == cls]
    assert len(calls) == 1, f"{notebook}: {len(calls)} calls create a {cls}; the site expects one"
    return calls[0]


def _argument(call: ast.Call, name: str, position: int, default):
    """A literal argument of the call, by keyword or position, or the class's default."""
    for kw in call.keywords:
        if kw.arg == name:
            return ast.literal_eval(kw.value)
    return ast.literal_eval(call.args[position]) if len(call.args) > position else default


def _site_picture(box, name: str, notebook: str, call: ast.Call, shows) -> None:
    """Photograph a widget as its cell created it, for the site, with the call, the widget's title (its first
    bold words) and the text it shows: the site's alt text is made of these, no number typed by hand."""
    SITE_PICTURES.mkdir(parents=True, exist_ok=True)
    box.scroll_into_view_if_needed()  # JupyterLab skips rendering cells out of view: no innerText there
    box.screenshot(path=str(SITE_PICTURES / f"{name}.png"))
    title = " ".join(box.locator("b").first.inner_text().split())
    text = "; ".join(" ".join(line.split()) for s in shows for line in s.inner_text().splitlines() if line.strip())
    assert title and re.search(r"\d", text), f"{name}: no title ({title!r}) or no number ({text!r})"
    (SITE_PICTURES / f"{name}.json").write_text(json.dumps(
        {"notebook": notebook, "call": ast.unparse(call), "title": title, "text": text}, ensure_ascii=False,
        indent=1) + "\n", encoding="utf-8")


def _browser(p):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: `apt-get install -y chromium` (make test-browser does)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    # 2x pixels, so the site's pictures of the widgets stay sharp on HiDPI screens
    page = browser.new_page(viewport={"width": 1280, "height": 1600}, device_scale_factor=2)
    page.set_default_timeout(60_000)
    CONSOLE.clear()
    page.on("console", lambda message: CONSOLE.append(message.text))
    return browser, page


def _answer_prediction(page, key: str) -> None:
    """The notebook's prediction question: readable; the first press is the bet and is answered with the right
    option and why (helpers.predictions.first); a later press answers that option below, labelled as after the
    bet (predictions.after), and leaves the bet as it was. A wrong option first, then the right one."""
    from playwright.sync_api import expect

    from helpers import predictions

    q = predictions.question(key)
    expect(page.get_by_text(q.text).first).to_be_visible()
    # the ask cell of this bet (a notebook may ask several: 03 three, 05 two), in JupyterLab or the classic Notebook
    cell = page.locator(".jp-Cell, div.cell").filter(has_text=q.text).filter(has=page.locator(".widget-vbox")).last
    box = cell.locator(".widget-vbox").filter(has_text="Tu apuesta:").filter(
        has=page.get_by_role("button", name=f"{predictions.LETTERS[len(q.options) - 1]})", exact=True)).last
    box.scroll_into_view_if_needed()
    right = next(i for i, o in enumerate(q.options) if o.correct)
    wrong = 1 - min(right, 1)  # a, or b when a is right
    bet = f"Tu apuesta: {predictions.first(key, wrong)}"
    box.get_by_role("button", name=f"{predictions.LETTERS[wrong]})", exact=True).click()
    expect(box.locator(".prediccion-respuesta")).to_have_text(bet)
    box.get_by_role("button", name=f"{predictions.LETTERS[right]})", exact=True).click()
    expect(box.locator(".prediccion-despues")).to_have_text(predictions.after(key, right))
    expect(box.locator(".prediccion-respuesta")).to_have_text(bet)  # the bet stays the first answer
    box.screenshot(path=str(ARTIFACTS / f"7_apuesta_{key}.png"))


def test_layernorm_widgets(server):
    from playwright.sync_api import expect, sync_playwright

    nb = "03_layernorm.ipynb"
    with sync_playwright() as p:
        browser, page = _browser(p)
        try:
            # every cell has run; none touches a widget after showing it
            _run_all(page, server(nb), _last_output(nb), 300)
            _answer_prediction(page, "03-batch")
            fields = page.locator(".widget-text input")
            expect(fields).to_have_count(4)
            results = page.locator(".ln-result")
            expect(results.first).to_contain_text("media μ")  # the widget rendered
            four = page.locator(".widget-vbox").filter(has=page.locator(".widget-text")).filter(
                has=page.locator("img")).last  # the box with the four fields and the picture
            sliders = page.locator(".widget-vbox").filter(has=page.locator(".widget-hslider")).filter(
                has=page.locator("img")).last
            steps = _widget(page, ".ln-counter")

            # 0. As each cell creates them: the site's pictures
            call = _widget_call(nb, "FourNumbers")
            initial = [str(v) for v in _argument(call, "initial", 0, (2, 4, 6, 8))]
            assert [f.input_value() for f in fields.all()] == initial, "the four fields are not the cell's numbers"
            _site_picture(four, "cuatro_numeros", nb, call, [results.first])
            call = _widget_call(nb, "StepByStep")
            expect(page.locator(".ln-counter")).to_contain_text("paso 1 de 7")
            _site_picture(steps, "siguiente_paso", nb, call, [page.locator(".ln-counter"), page.locator(".ln-step")])
            call = _widget_call(nb, "GammaBeta")
            readouts = sliders.locator(".widget-readout")
            expect(readouts).to_have_count(8)
            assert [float(r.text_content()) for r in readouts.all()] == [1.0] * 4 + [0.0] * 4, \
                "the γ/β sliders do not start at γ = 1, β = 0"
            _site_picture(sliders, "gamma_beta", nb, call, [results.nth(1)])

            # 1. "Ingresá 4 números": type the residual sum, with a decimal comma.
            for field, value in zip(fields.all(), ["0,8", "0.95", "0.93", "1.33"]):
                field.fill(value)
                field.press("Enter")  # ipywidgets 7 sends a Text's value on Enter or blur, 8 on every key
            expect(results.first).to_contain_text("media μ = 1.0025 · varianza σ² = 0.0391 · desvío σ = 0.198")
            expect(results.first).to_contain_text("[-1.024, -0.266, -0.367, 1.657]")
            fields.nth(1).fill("hola")
            fields.nth(1).press("Enter")
            expect(page.locator(".ln-error")).to_contain_text("no es un número")
            fields.nth(1).fill("0.95")
            fields.nth(1).press("Enter")
            expect(page.locator(".ln-error")).to_have_count(0)
            expect(four).to_contain_text("Ingresá 4 números")
            _assert_image_at_own_size(four.locator("img").first)
            four.screenshot(path=str(ARTIFACTS / "1_cuatro_numeros.png"))

            # 2. γ₀ slider: from γ = 1, β = 0 (x̂ itself), ten steps right → 2.0.
            slider = page.locator(".widget-hslider").first
            track = slider.locator(".noUi-target, .ui-slider").first.bounding_box()["width"]
            assert track >= 250, f"γ slider track is {track:.0f} px for a range of 6: a small drag jumps too far"
            handle = slider.locator(".noUi-handle, .ui-slider-handle").first
            handle.focus()
            gamma_beta = results.nth(1)
            expect(gamma_beta).to_contain_text("[-1.024, -0.266, -0.367, 1.657]")  # γ = 1, β = 0: x̂ itself
            for _ in range(10):
                handle.press("ArrowRight")
            expect(gamma_beta).to_contain_text("[-2.049, -0.266, -0.367, 1.657]")  # 2.0 · -1.024
            _assert_image_at_own_size(sliders.locator("img").first)
            sliders.screenshot(path=str(ARTIFACTS / "2_gamma_beta.png"))

            # 3. "Siguiente paso": three clicks from step 1 → step 4, the mean.
            button = page.get_by_role("button", name="Siguiente paso")
            for _ in range(3):
                button.click()
            counter = page.locator(".ln-counter")
            expect(counter).to_contain_text("paso 4 de 7")
            expect(page.locator(".ln-step").nth(3)).to_contain_text("= 1.0025")
            steps.screenshot(path=str(ARTIFACTS / "3_siguiente_paso.png"))
        finally:
            page.screenshot(path=str(ARTIFACTS / "0_notebook_03.png"), full_page=False)
            browser.close()


def test_training_shows_its_progress_and_the_bet_answers(server):
    """05's section 3 trains two stacks: its progress line shows while a cell trains and is gone after; its bet
    (05-post200) answers as the others do."""
    from playwright.sync_api import sync_playwright

    nb = "05_norm_placement.ipynb"
    with sync_playwright() as p:
        browser, page = _browser(p)
        try:
            _run_all(page, server(nb), _last_output(nb), 600, during="faltan ~")
            _answer_prediction(page, "05-post200")
        finally:
            page.screenshot(path=str(ARTIFACTS / "0_notebook_05.png"), full_page=False)
            browser.close()


def test_sweep_explorer(server):
    from playwright.sync_api import expect, sync_playwright

    nb = "05b_semillas_profundidad_warmup.ipynb"  # issue 51: the explorer moved with «¿Ayuda el warmup?» to 05b
    with sync_playwright() as p:
        browser, page = _browser(p)
        try:
            _run_all(page, server(nb), _last_output(nb), 600)
            _answer_prediction(page, "05-depth")
            explorer = _widget(page, ".sweep-result, .sweep-missing")
            explorer.scroll_into_view_if_needed()
            # 0. As its cell creates it (the site's picture): its controls say the call's n_layers, placement, warmup
            call = _widget_call(nb, "SweepExplorer")
            n_layers, norm = _argument(call, "n_layers", 0, 12), _argument(call, "norm", 1, "ambas")
            warmup = _argument(call, "warmup", 2, 0)
            active = [" ".join(b.text_content().split()) for b in explorer.locator("button.mod-active").all()]
            assert str(n_layers) in active, f"the explorer shows {active}, not the cell's n_layers {n_layers}"
            assert {"post": "post-norm", "pre": "pre-norm", "ambas": "las dos"}[norm] in active, \
                f"the explorer shows {active}, not the cell's norm {norm!r}"
            chosen = " ".join(explorer.locator(".widget-dropdown select").first.evaluate(
                "s => s.options[s.selectedIndex].text").split())  # ipywidgets writes its spaces as &nbsp;
            assert chosen == ("sin warmup" if warmup == 0 else f"{warmup} pasos"), f"warmup shows {chosen!r}"
            shows = explorer.locator(".sweep-result, .sweep-missing")
            _site_picture(explorer, "explorador", nb, call, [shows.first])
            if (n_layers, norm, warmup) == (12, "post", 0):  # what the notebook's text says about it: section 1's
                expect(explorer).to_contain_text("post-norm, semilla 4: sale en el paso 250")  # runs, 05's
                expect(explorer).not_to_contain_text("no salió")

            # 1. "¿con 24 capas y warmup 200 sale de la meseta?": one choice in a menu
            explorer.get_by_role("button", name="24", exact=True).click()
            explorer.get_by_role("button", name="post-norm", exact=True).click()
            picture = explorer.locator("img").first
            before = picture.get_attribute("src")
            explorer.locator(".widget-dropdown select").first.select_option(label="200 pasos")
            expect(explorer.locator(".sweep-result")).to_contain_text("post-norm, semilla 0: sale en el paso")
            expect(picture).not_to_have_attribute("src", before)  # the picture changed with the words
            _assert_image_at_own_size(explorer.locator("img").first)
            explorer.screenshot(path=str(ARTIFACTS / "4_explorador_24_capas_warmup_200.png"))
            # pre-norm was never run with warmup: said in words, and no empty plot
            explorer.get_by_role("button", name="pre-norm", exact=True).click()
            expect(explorer.locator(".sweep-missing")).to_contain_text("El barrido no corrió pre-norm con 24 capas")
            expect(explorer.locator("img").first).to_be_hidden()
            explorer.screenshot(path=str(ARTIFACTS / "5_explorador_combinacion_que_falta.png"))
            # back to both placements, 12 layers, one seed
            explorer.get_by_role("button", name="las dos", exact=True).click()
            explorer.get_by_role("button", name="12", exact=True).click()
            explorer.locator(".widget-dropdown select").first.select_option(label="sin warmup")
            before = picture.get_attribute("src")
            explorer.locator(".widget-dropdown select").nth(1).select_option(label="3")
            expect(explorer.locator(".sweep-result")).to_contain_text("post-norm, semilla 3: sale en el paso 375")
            expect(picture).not_to_have_attribute("src", before)
            expect(explorer.locator(".sweep-result")).to_contain_text("pre-norm, semilla 3: sale en el paso 125")
            explorer.screenshot(path=str(ARTIFACTS / "6_explorador_12_capas_semilla_3.png"))
        finally:
            page.screenshot(path=str(ARTIFACTS / "0_notebook_05b.png"), full_page=False)
            browser.close()


def _solution_blocks(page):
    """The folded «Solución» blocks the page has rendered so far (JupyterLab renders cells as they come into view:
    scroll down until the one holding ``text`` is there)."""
    return page.locator(".jp-RenderedMarkdown details, .text_cell_render details").filter(
        has=page.locator("summary", has_text="Solución"))


def _scroll_to_solution(page, text: str):
    """The «Solución» block holding ``text``; in JupyterLab, walk down the cells (command mode, ArrowDown) until
    it is rendered."""
    if not CLASSIC:
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.keyboard.press("Escape")
    for _ in range(120):
        block = _solution_blocks(page).filter(has_text=text)
        if block.count():
            block.first.scroll_into_view_if_needed()
            return block.first
        page.keyboard.press("ArrowDown")
        page.wait_for_timeout(100)
    raise AssertionError(f"no «Solución» block holding {text!r} on the page")


def test_a_solution_is_folded_and_opens_with_one_click(server):
    """The answer to a "Tu turno" is one deliberate step away in this front end: its «Solución» (a <details> cell
    right under the check) shows only its title until clicked, then the reference code, highlighted as code."""
    from playwright.sync_api import expect, sync_playwright

    from helpers import check

    nb = "03_layernorm.ipynb"
    code = check.layer_norm.solution().code
    signature, body = code.splitlines()[0], code.splitlines()[2].split("#")[0].strip()
    with sync_playwright() as p:
        browser, page = _browser(p)
        try:
            page.goto(server(nb))
            page.locator(".jp-Notebook, #notebook-container").first.wait_for()
            block = _scroll_to_solution(page, signature.split("(")[0].removeprefix("def "))
            summary, shown = block.locator("summary"), block.locator("pre, code").filter(has_text=body)
            assert not block.evaluate("d => d.open"), "the «Solución» block is open before anyone clicks it"
            expect(shown.first).to_be_hidden()
            block.screenshot(path=str(ARTIFACTS / "4_solucion_plegada.png"))
            summary.click()
            assert block.evaluate("d => d.open")
            expect(shown.first).to_be_visible()
            expect(block).to_contain_text(signature)
            block.screenshot(path=str(ARTIFACTS / "5_solucion_abierta.png"))
        finally:
            browser.close()
