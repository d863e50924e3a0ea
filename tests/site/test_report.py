"""The class report that ``calificar`` writes (helpers.grading._report), in Debian's Chromium, as a teacher opens it:
from the disk, offline. Run with `make test-site` (its environment has Playwright and axe-core; the report is made
with .venv's Python, from the made-up class of tests/report_class.py, with and without names).

- nothing requested but the file itself (its figures are inside it), no console error;
- axe-core, no violation of any impact, on the phone (390 px) and the desktop (1280 px);
- nothing scrolls sideways and nothing is cut off; each figure a vector (SVG: sharp on any screen and on paper)
  that loads, with its alt text;
- printed on A4, no figure, table row or exercise split across pages, and the page count stays a handout's.

Screenshots go to artifacts/site/informe_<width>[_nombres].png, informe_impreso.pdf and .png, and
informe_docente.png: docs/informe.png, the guide's picture of the report, is that one reduced to 32 colours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # helpers.lesson, the one list of the lesson's notebooks (standard library only)
from helpers import lesson  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts" / "site"
VIEWS = {"telefono": {"width": 390, "height": 844}, "escritorio": {"width": 1280, "height": 900}}
MAX_PRINTED_PAGES = 34  # the made-up class, 40 students, 80 different mistakes in 14 exercises: 27 A4 pages in 5
# notebooks, 31 since they sit in 8 (the three «Para ir más lejos» add a heading and a figure each)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The report of a made-up class of 40, without and with names, made by .venv's Python (which has helpers)."""
    folder = tmp_path_factory.mktemp("informe")
    python = ROOT / ".venv" / "bin" / "python"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    made = {}
    for names in (False, True):
        out = folder / ("nombres" if names else "sin")
        subprocess.run([str(python), str(ROOT / "tests" / "report_class.py"), str(out), "--n", "40",
                        *(["--nombres"] if names else [])], cwd=ROOT, env=env, check=True, timeout=600)
        made[names] = out / "informe.html"
    return made


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: `apt-get install -y chromium`"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                    "--disable-background-networking", "--disable-component-update"])
        yield b
        b.close()


def opened(browser, path: Path, view: str):
    """The report in a fresh context; what else it asked for and what the console said."""
    context = browser.new_context(viewport=VIEWS[view], locale="es-AR", device_scale_factor=1)
    page = context.new_page()
    asked, errors = [], []

    def route(r):
        if r.request.url == path.as_uri() or r.request.url.startswith("data:"):
            r.continue_()
        else:
            asked.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri(), wait_until="load")
    return context, page, asked, errors


@pytest.mark.parametrize("names", [False, True], ids=["sin_nombres", "con_nombres"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_the_report_offline_accessible_and_readable(reports, browser, view, names):
    from axe_playwright_python.sync_playwright import Axe
    context, page, asked, errors = opened(browser, reports[names], view)
    try:
        assert not asked, f"the report asked for {asked}"
        assert not errors, f"console errors: {errors}"
        assert page.locator("html").get_attribute("lang") == "es"
        width = VIEWS[view]["width"]
        page.screenshot(path=str(ARTIFACTS / f"informe_{width}{'_nombres' if names else ''}.png"), full_page=True)
        violations = Axe().run(page).response["violations"]
        (ARTIFACTS / f"informe_{width}{'_nombres' if names else ''}.axe.json").write_text(
            json.dumps(violations, indent=1, ensure_ascii=False), encoding="utf-8")
        found = [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"]) for v in violations]
        assert not found, f"axe ({view}): {found}"
        wide = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
        assert wide <= 0, f"the page scrolls sideways by {wide} px"
        cut = page.evaluate("""() => {
            const box = document.querySelector('main').getBoundingClientRect(), bad = [];
            for (const el of document.querySelectorAll('main *')) {
                const r = el.getBoundingClientRect();
                if (r.width && (r.right > box.right + 1 || r.left < box.left - 1))
                    bad.push(el.tagName.toLowerCase() + ': ' + (el.textContent || '').trim().slice(0, 40));
            }
            return bad;
        }""")
        assert not cut, f"cut off at {width} px: {cut[:8]}"
        images = page.locator("figure img")
        assert images.count() == len(lesson.notebooks(ROOT / "notebooks")), "one figure per notebook"
        for i in range(images.count()):
            src, complete, alt = images.nth(i).evaluate(
                "i => [i.src.slice(0, 30), i.complete && i.naturalWidth, i.alt]")
            assert src.startswith("data:image/svg+xml"), f"figure {i} is no vector ({src}): blurry on HiDPI or paper"
            assert complete and len(alt) > 80, (i, complete, alt)
    finally:
        context.close()


def test_the_report_prints_on_a4(reports, browser):
    context, page, _, _ = opened(browser, reports[False], "escritorio")
    try:
        page.emulate_media(media="print")
        split = page.evaluate("""() => [...document.querySelectorAll('figure, tr, ol.top > li')]
            .filter(el => getComputedStyle(el).breakInside !== 'avoid').length""")
        assert split == 0, f"{split} figures, rows or items may split across pages"
        pdf = page.pdf(format="A4", print_background=False)
        (ARTIFACTS / "informe_impreso.pdf").write_bytes(pdf)
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        assert 1 < pages <= MAX_PRINTED_PAGES, f"{pages} A4 pages"
        page.set_viewport_size({"width": 794, "height": 1123})
        page.screenshot(path=str(ARTIFACTS / "informe_impreso.png"), full_page=True)
    finally:
        context.close()


def test_the_guides_picture(reports, browser):
    """The top of the report, down to its three most common mistakes, as docs/docente.md shows it: 820 px wide at
    1.5x (the site shows a picture at half its pixels: 615 px, sharp on HiDPI; 2x would put the guide's page over
    its weight budget)."""
    context = browser.new_context(viewport={"width": 820, "height": 900}, locale="es-AR", device_scale_factor=1.5)
    try:
        page = context.new_page()
        page.goto(reports[False].as_uri(), wait_until="load")
        bottom = page.evaluate("() => document.querySelector('ol.top').getBoundingClientRect().bottom")
        page.screenshot(path=str(ARTIFACTS / "informe_docente.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": 820, "height": bottom + 16})
    finally:
        context.close()
