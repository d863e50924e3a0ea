"""The built site (make site) in Debian's Chromium: every page served from 127.0.0.1 and nothing else.

Run with `make test-site`. For each page: math is rendered (MathJax's output, no raw $$), every image has
alt text, no request leaves 127.0.0.1, notebook pages have the Colab button of their notebook's address
(from pyproject's [project.urls]) and a download of the .ipynb, and axe-core finds no serious or critical
violation. A screenshot of each page goes to artifacts/site/.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

import pytest
from facts import repository

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "site-src" / "_build" / "html"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts" / "site"
PAGES = ["index.html"] + [f"notebooks/{p.stem}.html" for p in sorted((ROOT / "notebooks").glob("*.ipynb"))]


@pytest.fixture(scope="module")
def base_url():
    assert (SITE / "index.html").exists(), f"{SITE} is missing: run `make site` first"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SITE))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: `apt-get install -y chromium`"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                    "--disable-background-networking", "--disable-component-update"])
        yield b
        b.close()


@pytest.mark.parametrize("page_path", PAGES)
def test_page(base_url, browser, page_path):
    from axe_playwright_python.sync_playwright import Axe

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside = []

    def route(r):
        if r.request.url.startswith(base_url) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    try:
        page.goto(base_url + page_path, wait_until="networkidle")
        assert page.locator("html").get_attribute("lang") == "es"
        if page_path != "index.html":
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("() => MathJax.startup.promise")
            assert page.locator("mjx-container").count() > 0, "no math rendered"
            text = page.locator("article").inner_text()
            assert "$$" not in text and "\\frac" not in text, "raw LaTeX on the page"
            name = Path(page_path).stem
            colab = f"https://colab.research.google.com/github/{repository().removeprefix('https://github.com/')}" \
                    f"/blob/main/notebooks/{name}.ipynb"
            launch = page.eval_on_selector_all(".dropdown-launch-buttons a", "els => els.map(e => e.href)")
            assert colab in launch, f"the page's launch button goes to {launch}, not {colab}"
            download = page.eval_on_selector_all(".dropdown-download-buttons a[href$='.ipynb']",
                                                  "els => els.map(e => e.href)")
            assert len(download) == 1, f"no .ipynb download button: {download}"
            got = page.request.get(download[0]).body()
            assert got == (ROOT / "notebooks" / f"{name}.ipynb").read_bytes(), "the download is not the notebook"
        # alt text that says something: not empty, not a file name (what Sphinx puts by default)
        # (figures and widget pictures in the lesson: a sentence; the theme's icons: at least their name)
        missing_alt = page.eval_on_selector_all(
            "img", "els => els.map(e => [(e.getAttribute('alt') || '').trim(), !!e.closest('article')])"
                   ".filter(([a, inArticle]) => !a || /\\.(png|jpe?g|svg|gif)$/i.test(a) || a.includes('_images/')"
                   " || (inArticle && a.length < 30)).map(([a]) => a)")
        results = Axe().run(page)
        serious = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
                   if v["impact"] in ("serious", "critical")]
        (ARTIFACTS / f"{Path(page_path).stem}.axe.json").write_text(
            json.dumps(results.response["violations"], indent=1, ensure_ascii=False), encoding="utf-8")
        stem = Path(page_path).stem
        page.screenshot(path=str(ARTIFACTS / f"{stem}.png"), full_page=False)
        for what, selector in (("figura", "article .cell_output img"), ("widget", "article figure.widget-picture")):
            if page.locator(selector).count():
                page.locator(selector).first.screenshot(path=str(ARTIFACTS / f"{stem}_{what}.png"))
        assert not outside, f"requests that left 127.0.0.1: {outside}"
        assert not missing_alt, f"images without alt text: {missing_alt}"
        assert not serious, f"axe: serious or critical violations: {serious}"
    finally:
        page.close()
