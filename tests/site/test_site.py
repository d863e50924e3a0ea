"""The built site (make site) in Debian's Chromium, as its readers meet it: served from 127.0.0.1 and nothing else.

Run with `make test-site`. Every page (home, the five notebooks, the teacher's guide, search) is opened four
ways, desktop (1280 px) and phone (390 px), light and dark, and checked for what issue 23 found broken:

- weight and requests within BUDGET, read to the end (lazy figures included); no console error, no failed
  request, nothing outside 127.0.0.1;
- axe-core with every rule, no violation of any impact, with the theme's «Volver arriba» showing (on the phone,
  the only width where the theme has it, on every page long enough for it) and, on 03 and 05b, the widgets' live
  copies working;
- math rendered (no raw TeX), equations not tab stops, no MathJax menu (English only); headings and contents
  links whose accessible name keeps their symbols;
- the interface in Spanish (INTERFACE_ENGLISH finds the theme's English), no test marker (NBVAL) in a page;
- figures at 2x their shown size, each linked to itself at full size; widget pictures as their cell creates them;
- the Colab button and every Colab link at this version's tag (blob/v<version>/), on the learner's copy
  (notebooks/colab/), which is also the download;
  a footer with the version, the repository and where to report a problem;
- on the phone: no page-wide horizontal scroll, nothing cut off outside a box that scrolls (which is a keyboard
  stop, has a name, and shows a shade where there is more), and ☰ and ☷ open their dialogs (on a wide screen
  ☰ hides and shows the navigation);
- keyboard focus: every kind of tab stop looks different focused (its pixels compared), light and dark, desktop
  and phone; printing wraps code lines;
- a home page that says what this is, what to know first, where to start, and how reading here and running in
  Colab fit together, and links to the teacher's guide;
- the teacher's guide (docs/docente.md): its title, every table and code block of its source rendered as one,
  every link within the site reaching a page and a place that exist, and every link to the repository at this
  version's tag, naming a file or folder the repository has.

Screenshots go to artifacts/site/ (<page>_<width>_<scheme>.png, the dialogs, each live copy as envivo_<name>_*.png,
and focus_<page>_*.png).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import struct
import threading
import zlib
from pathlib import Path

import pytest
from facts import COPIES, colab_url, repository, version

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "site-src" / "_build" / "html"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts" / "site"
NOTEBOOKS = [p.stem for p in sorted((ROOT / "notebooks").glob("*.ipynb"))]
# the search page with a query: its results and messages are interface too
SEARCH = "search.html?q=LayerNorm"
# the teacher's guide: docs/docente.md, made a page by prepare.py
TEACHER = "docente.html"
TEACHER_SOURCE = ROOT / "docs" / "docente.md"
PAGES = ["index.html"] + [f"notebooks/{n}.html" for n in NOTEBOOKS] + [TEACHER, SEARCH]
# the pages with the widgets' live copies (.ci/site/static/en_vivo.js): their boxes' names (#en-vivo-<name>)
LIVE = {"notebooks/03_layernorm.html": ("cuatro_numeros", "gamma_beta", "siguiente_paso"),
        "notebooks/05b_semillas_profundidad_warmup.html": ("explorador",)}
assert set(LIVE) <= set(PAGES), f"a page with live copies is not among the pages tested: {set(LIVE) - set(PAGES)}"
VIEWS = {"escritorio": {"width": 1280, "height": 900}, "telefono": {"width": 390, "height": 844}}
SCHEMES = ("light", "dark")
# What a reader downloads for one page, read to the end with an empty cache: (bytes, requests). Set on this
# build (see the report in issue 23's note) with some room, not more: home 0.86 MB in 24 requests; the heaviest
# notebook page (05, six figures at 2x) 2.7 MB in 39, of which MathJax 0.75 MB; a search with results 1.6 MB,
# because Sphinx fetches each result's page for its excerpt. Before issue 23: 21.5 MB in 98 (home) and
# 22.2 MB in 103 (05), on every page.
# A search lists titles without Sphinx's excerpts since issue 37's round (each excerpt fetched its whole page: 2.09 MB
# for «LayerNorm» once 02 and 04 grew); measured then: 0.89 MB in 24 requests.
BUDGET = {"home": (1_000_000, 30), "notebook": (3_000_000, 45), "guide": (2_000_000, 40), "search": (1_000_000, 30)}
# The theme's English, as it reached readers before (buttons, tooltips, landmarks, placeholders, alt texts)
INTERFACE_ENGLISH = re.compile(
    r"\b(Toggle|Launch|Search|Link to|logo|Main|Page|Download|Contents|Copy|Copied|Print|Skip|Back to top|"
    r"navigation|Navigation|Color mode|Light|Dark|System|Previous|Next|previous|next|Fullscreen|Source|"
    r"Table of contents|On this page|Breadcrumb|Home|Version|Announcement|Close|Open|Menu)\b")


REPOSITORY = repository()
VERSION = version()


def kind(page_path: str) -> str:
    if page_path == TEACHER:
        return "guide"
    return "home" if page_path == "index.html" else "search" if page_path.startswith("search") else "notebook"


def teacher_source() -> tuple[str, list[str]]:
    """docs/docente.md's prose (code spans blanked) and its fenced code blocks' contents."""
    text = TEACHER_SOURCE.read_text(encoding="utf-8")
    fences = re.findall(r"(?ms)^ {0,3}(`{3,}|~{3,})[^\n]*\n(.*?)^ {0,3}\1[`~]*[ \t]*$", text)
    prose = re.sub(r"(?ms)^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*[ \t]*$", "", text)
    return re.sub(r"(`+)[\s\S]+?\1", "``", prose), [body for _, body in fences]


def has_math(page_path: str) -> bool:
    """The notebooks have formulas; the teacher's guide where its source has $...$ outside code."""
    return kind(page_path) == "notebook" or (kind(page_path) == "guide" and
                                             bool(re.search(r"\$[^$\n]+\$", teacher_source()[0])))


@pytest.fixture(scope="module")
def base_url():
    assert (SITE / "index.html").exists(), f"{SITE} is missing: run `make site` first"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SITE))
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


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


class Visit:
    """One page in a fresh context (empty cache), with what it requested and logged, read to the end."""

    def __init__(self, browser, base_url: str, page_path: str, view: str, scheme: str):
        self.context = browser.new_context(viewport=VIEWS[view], color_scheme=scheme, locale="es-AR")
        self.page = page = self.context.new_page()
        self.base, self.path, self.view, self.scheme = base_url, page_path, view, scheme
        self.outside, self.failed, self.errors, self.finished = [], [], [], []

        def route(r):
            if r.request.url.startswith(base_url) or r.request.url.startswith("data:"):
                r.continue_()
            else:
                self.outside.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.on("requestfinished", lambda r: self.finished.append(r))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(base_url + page_path, wait_until="networkidle")
        page.wait_for_function("() => document.documentElement.dataset.leccionListo === '1'")
        if kind(page_path) == "search":  # Sphinx's search fills the page after loading its index
            page.locator("#search-results .search-summary").wait_for()
        # read to the end: lazy figures load, as for a reader who scrolls
        page.evaluate("async () => { for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {"
                      " scrollTo(0, y); await new Promise(r => setTimeout(r, 20)); } scrollTo(0, 0); }")
        page.wait_for_load_state("networkidle")
        self.weight = sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"] for r in self.finished)
        self.requests = len(self.finished)
        self.log = (list(self.outside), list(self.failed), list(self.errors))  # before axe fetches anything

    @property
    def name(self) -> str:
        return f"{Path(self.path.split('?')[0]).stem}_{VIEWS[self.view]['width']}_{self.scheme}"

    def close(self):
        self.context.close()


def axe_violations(page) -> list:
    from axe_playwright_python.sync_playwright import Axe
    return Axe().run(page).response["violations"]


# ---------------------------------------------------------------------------------------------------------------
# Every page, four ways


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("page_path", PAGES)
def test_page(base_url, browser, page_path, scheme, view):
    v = Visit(browser, base_url, page_path, view, scheme)
    page = v.page
    try:
        outside, failed, errors = v.log
        assert not outside, f"requests that left 127.0.0.1: {outside}"
        assert not failed, f"failed requests: {failed}"
        assert not errors, f"console errors: {errors}"
        budget_bytes, budget_requests = BUDGET[kind(page_path)]
        assert v.weight <= budget_bytes and v.requests <= budget_requests, \
            f"{page_path}: {v.weight / 1e6:.2f} MB in {v.requests} requests; budget {budget_bytes / 1e6:.1f} MB " \
            f"in {budget_requests}"
        (ARTIFACTS / f"{v.name}.weight.json").write_text(json.dumps({"bytes": v.weight, "requests": v.requests}))
        assert page.locator("html").get_attribute("lang") == "es"
        assert page.locator("html").get_attribute("data-theme") == scheme, "the theme did not follow the system"
        check_interface_spanish(page)
        check_math(page, page_path)
        check_names_keep_symbols(page)
        check_footer(page)
        text = page.locator("body").inner_text()
        assert "NBVAL" not in text, "a test marker reaches the readers"
        if view == "telefono":
            check_phone(v)
        else:
            check_figures(page)
            check_links(page, page_path)
            if kind(page_path) in ("home", "guide"):
                check_links_within(page, base_url)
            if kind(page_path) == "home":
                check_home(page)
            if kind(page_path) == "guide":
                check_teacher(page)
        page.screenshot(path=str(ARTIFACTS / f"{v.name}.png"))
        if page_path in LIVE:
            check_live_copies(v, LIVE[page_path])
        shown = show_back_to_top(page)
        assert shown or view == "escritorio" or kind(page_path) in ("home", "search"), \
            f"«Volver arriba» never showed on {page_path} at {view}: axe did not meet it"
        violations = axe_violations(page)
        (ARTIFACTS / f"{v.name}.axe.json").write_text(json.dumps(violations, indent=1, ensure_ascii=False),
                                                      encoding="utf-8")
        found = [(x["id"], x["impact"], len(x["nodes"]), x["nodes"][0]["target"]) for x in violations]
        assert not found, f"axe ({view}, {scheme}): {found}"
        if view == "telefono":
            check_phone_dialogs(v)
        elif scheme == "light" and kind(page_path) in ("notebook", "guide"):
            check_sidebar_collapses(page)
            check_print(v)
    finally:
        v.close()


def check_live_copies(v: Visit, names: tuple[str, ...]) -> None:
    """The widgets' live copies on 03 and 05b (test_live.py compares what they print with Python), working before
    axe runs: each visible, with one live region, no wider than its box (a picture of each to
    artifacts/site/envivo_*.png), 05b's explorer with its table loaded, and no console error since."""
    page = v.page
    if "explorador" in names:  # the explorer loads its table when a reader first reaches it
        page.locator("#en-vivo-explorador").get_by_label("24", exact=True).focus()
        page.wait_for_function("() => document.querySelector('#en-vivo-explorador').dataset.listo === '1'")
    for name in names:
        box = page.locator(f"#en-vivo-{name}")
        assert box.is_visible() and box.locator("[aria-live=polite]").count() == 1, f"{name}: no live copy"
        box.scroll_into_view_if_needed()
        box.screenshot(path=str(ARTIFACTS / f"envivo_{name}_{VIEWS[v.view]['width']}_{v.scheme}.png"))
        overflow = box.evaluate("b => b.scrollWidth - b.clientWidth")
        assert overflow <= 1, f"{name} is {overflow} px wider than its box at {v.view}"
    assert not v.errors, f"console errors with the copies live: {v.errors}"


def show_back_to_top(page) -> bool:
    """Scrolled down and then a little up, the theme shows «Volver arriba» below 1200 px: axe must meet it too
    (white on the theme's orange was 2.45:1 on every long page until leccion.css gave it the page's colours).
    Whether it showed: test_page requires it on the phone for every notebook and the guide."""
    shown = page.evaluate("""async () => {
        const most = document.scrollingElement.scrollHeight - innerHeight;
        // sphinx-book-theme hides it from 1200 px up; a page too short has no header to scroll past and back
        if (innerWidth >= 1200 || most < 400) return false;
        scrollTo(0, Math.min(2 * innerHeight, most));
        await new Promise(r => setTimeout(r, 100));
        scrollBy(0, -200);
        return true;
    }""")
    if shown:
        page.locator("#pst-back-to-top").wait_for(state="visible", timeout=3000)
    return shown


def check_interface_spanish(page) -> None:
    """No English of the theme's: in attributes readers meet (names, tooltips, placeholders, alt) and in the
    text outside the lesson's own article (buttons, menus, landmarks, sidebars, footer)."""
    found = page.evaluate("""() => {
        const out = [];
        const code = el => el.closest('.cell_input, .cell_output, pre, code, mjx-container, script, style');
        for (const el of document.querySelectorAll('*')) {
            if (code(el)) continue;
            for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'data-bs-title', 'aria-description'])
                if (el.getAttribute(a)) out.push(a + ': ' + el.getAttribute(a));
        }
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) {
            const p = walk.currentNode.parentElement;
            if (p && !p.closest('article, script, style, noscript') && walk.currentNode.textContent.trim())
                out.push('text: ' + walk.currentNode.textContent.trim());
        }
        return out;
    }""")
    english = sorted({s for s in found if INTERFACE_ENGLISH.search(s.split(": ", 1)[1])})
    assert not english, f"English in the interface: {english}"


def check_math(page, page_path: str) -> None:
    """Math typeset (no raw TeX), no formula in the tab order unless it must scroll, no MathJax menu."""
    text = page.locator("main").inner_text()
    assert "$$" not in text and "\\frac" not in text and "\\(" not in text, "raw TeX on the page"
    if not has_math(page_path):
        assert page.locator("script[src*='mathjax']").count() == 0, "MathJax loaded on a page without math"
        return
    assert page.locator("article mjx-container").count() > 0, "no math rendered"
    assert page.locator("article mjx-assistive-mml").count() > 0, "no MathML for screen readers"
    stops = page.locator("mjx-container[tabindex]:not(.desplaza)")
    assert stops.count() == 0, f"{stops.count()} formulas are tab stops without having to scroll"
    page.locator("article mjx-container").first.dispatch_event("contextmenu")
    page.wait_for_timeout(100)
    assert page.locator(".CtxtMenu_Menu").count() == 0, "MathJax's menu (English only) opened"


def check_names_keep_symbols(page) -> None:
    """Headings and the contents' links: the accessible name is the text a reader sees, symbols included; a
    formula left to MathJax must be in the name as its MathML or its TeX (03's "¿Para qué está ε?" was read
    "¿Para qué está ?")."""
    for container, role, selector in (("article", "heading", ":is(h1, h2, h3, h4, h5, h6)"),
                                      ("#pst-page-toc-nav", "link", "a"), ("nav.bd-docs-nav", "link", "a")):
        if page.locator(container).count() == 0 or not page.locator(container).first.is_visible():
            continue
        snapshot = page.locator(container).first.aria_snapshot()
        names = [" ".join(m.replace('\\"', '"').split())
                 for m in re.findall("- '?" + role + r' "((?:[^"\\]|\\.)*)"', snapshot)]
        shown = page.locator(container).first.evaluate("""(c, selector) => [...c.querySelectorAll(selector)]
            .filter(e => e.getClientRects().length && getComputedStyle(e).visibility === 'visible').map(e => {
                const copy = e.cloneNode(true);
                copy.querySelectorAll('.headerlink').forEach(x => x.remove());
                const maths = [...e.querySelectorAll('mjx-container')].map(m =>
                    [(m.querySelector('mjx-assistive-mml') || {}).textContent || '',
                     (m.parentElement.nextElementSibling || {}).textContent || '']);
                copy.querySelectorAll('mjx-container').forEach(x => x.remove());
                return [copy.textContent.split(/\\s+/).join(' ').trim(), maths];
            })""", selector)
        assert len(names) == len(shown), f"{container}: {len(names)} names for {len(shown)} {role}s"
        for name, (seen, maths) in zip(names, shown):
            if maths:
                for mml, tex in maths:
                    assert (mml.strip() and mml.strip() in name) or (tex.strip() and tex.strip() in name), \
                        f"{name!r}: a formula is missing from its accessible name"
            else:
                assert name == seen, f"accessible name {name!r}, but it shows {seen!r}"


def check_footer(page) -> None:
    footer = page.locator("footer.bd-footer-content")
    links = footer.locator("a").evaluate_all("els => els.map(e => e.href)")
    assert REPOSITORY in [h.rstrip("/") for h in links], f"no link to the repository in the footer: {links}"
    assert f"{REPOSITORY}/issues" in links, f"no link to report a problem in the footer: {links}"
    assert f"versión {VERSION}" in footer.inner_text(), "the footer does not say which version this is"


def check_figures(page) -> None:
    """Every picture in the lesson: 2x its shown width (sharp on HiDPI), its alt text a sentence, and a link to
    itself at full size."""
    images = page.locator("article img:visible")  # a widget's picture hides behind its live copy (test_live.py)
    for i in range(images.count()):
        img = images.nth(i)
        img.scroll_into_view_if_needed()
        img.evaluate("i => i.complete || new Promise(r => i.onload = r)")
        natural, shown, alt, src, href = img.evaluate(
            "i => [i.naturalWidth, i.getBoundingClientRect().width, i.alt, i.src, (i.closest('a') || {}).href]")
        assert len(alt.strip()) >= 30 and not re.search(r"\.(png|jpe?g|svg)$", alt), f"{src}: alt {alt!r}"
        assert natural >= 2 * shown - 2, f"{src}: {natural} px shown {shown:.0f} px wide: blurry on HiDPI"
        assert href == src, f"{src}: not linked to itself at full size ({href})"


def check_links(page, page_path: str) -> None:
    """Colab: the button and every link at this version's tag, for this page's notebook; the download is the
    notebook as stored."""
    colab = page.eval_on_selector_all("a[href*='colab.research.google.com']", "els => els.map(e => e.href)")
    if kind(page_path) == "home":
        assert sorted(colab) == sorted(colab_url(f"{n}.ipynb") for n in NOTEBOOKS), colab
        start = page.get_by_role("link", name="Parte 1", exact=True)
        assert start.get_attribute("href") == "notebooks/01_ffn.html", "«empezá por la Parte 1» links elsewhere"
        return
    if kind(page_path) != "notebook":
        return
    name = Path(page_path).stem
    assert colab and set(colab) == {colab_url(f"{name}.ipynb")}, f"Colab links: {colab}"
    launch = page.eval_on_selector_all(".dropdown-launch-buttons a", "els => els.map(e => e.href)")
    assert launch == [colab_url(f"{name}.ipynb")], f"the launch button goes to {launch}"
    download = page.eval_on_selector_all(".dropdown-download-buttons a", "els => els.map(e => e.href)")
    assert len(download) == 1 and download[0].endswith(f"{name}.ipynb"), f"downloads: {download}"
    got = page.request.get(download[0]).body()
    assert got == (ROOT / COPIES / f"{name}.ipynb").read_bytes(), "the download is not the learner's copy"


def check_home(page) -> None:
    """What a newcomer needs: what this is, what to know first, where to start, reading here and running in
    Colab, the course, the repository and where to report a problem; no link to the site itself."""
    text = " ".join(page.locator("article").inner_text().split())
    for needed in ("Empezá por la Parte 1", "lecciones 1 a 5", "Leer acá, ejecutar en Colab", f"versión {VERSION}",
                   "todavía no tienen una dirección pública"):
        assert needed in text, f"the home page does not say {needed!r}"
    hrefs = page.locator("article a").evaluate_all("els => els.map(e => e.href)")
    assert f"{REPOSITORY}/issues" in hrefs and REPOSITORY in hrefs, hrefs
    assert not [h for h in hrefs if "github.io" in h], "the home page links to the site itself"
    guide = page.get_by_role("link", name="guía para docentes", exact=True)
    assert guide.count() == 1 and guide.get_attribute("href") == TEACHER, \
        "the home page does not link to the teacher's guide"


def check_links_within(page, base_url: str) -> None:
    """Every link of the article that stays on the site reaches a page, and the place it names on it."""
    hrefs = page.locator("article a[href]").evaluate_all("els => els.map(e => e.href)")
    pages = {}
    for href in sorted({h for h in hrefs if h.startswith(base_url)}):
        address, _, place = href.partition("#")
        if address not in pages:
            response = page.request.get(address)
            assert response.ok, f"{href}: {response.status}"
            pages[address] = response.text()
        if place:
            assert re.search(rf'\bid="{re.escape(place)}"', pages[address]), f"{href}: no such place on that page"


def check_teacher(page) -> None:
    """docs/docente.md as a page: its title, each table and code block of the source rendered as one, and every
    link to the repository at this version's tag, naming a file or folder the repository has."""
    prose, blocks = teacher_source()
    title = re.search(r"(?m)^# (.+)$", prose).group(1).strip()
    assert page.locator("article h1").inner_text().strip() == title
    assert page.title().startswith(title), f"the page's title is {page.title()!r}"
    tables = [t for t in re.split(r"\n\s*\n", prose) if re.match(r"\|.*\|\n\|[-:| ]+\|", t.strip())]
    shown = page.locator("article table").evaluate_all(
        "ts => ts.map(t => [t.querySelectorAll('thead th').length, t.querySelectorAll('tbody tr').length])")
    wanted = [[t.strip().splitlines()[0].strip("|").count("|") + 1, len(t.strip().splitlines()) - 2]
              for t in tables]
    assert shown == wanted, f"tables (columns, rows): the page has {shown}, docs/docente.md {wanted}"
    text = page.locator("article").inner_text()
    assert not re.search(r"\|\s*-{3,}", text), "a table's Markdown reached the page as text"
    code = page.locator("article div.highlight pre").evaluate_all("ps => ps.map(p => p.textContent)")
    assert [c.strip() for c in code] == [b.strip() for b in blocks], "the code blocks are not the source's"
    hrefs = page.locator("article a[href]").evaluate_all("els => els.map(e => e.href)")
    for href in hrefs:
        m = re.match(rf"{re.escape(REPOSITORY)}/(blob|tree)/([^/]+)/([^#?]+)", href)
        if not m:
            continue
        assert m.group(2) == f"v{VERSION}", f"{href}: a repository link not at this version's tag (v{VERSION})"
        path = ROOT / m.group(3)
        assert path.is_dir() if m.group(1) == "tree" else path.is_file(), f"{href}: no such {m.group(1)} here"


def check_sidebar_collapses(page) -> None:
    """On a wide screen ☰ hides and shows the navigation (it did nothing either: the same theme bug)."""
    button, sidebar = page.locator(".primary-toggle:visible"), page.locator("#pst-primary-sidebar")
    assert button.count() == 1, f"{button.count()} visible ☰ buttons"
    button.click()
    assert "pst-sidebar-hidden" in sidebar.get_attribute("class"), "☰ did not hide the navigation"
    button.click()
    assert "pst-sidebar-hidden" not in sidebar.get_attribute("class"), "☰ did not bring the navigation back"


def check_print(v: Visit) -> None:
    """Printed (A4 width), code lines wrap instead of being cut at the margin."""
    v.page.set_viewport_size({"width": 794, "height": 1123})
    v.page.emulate_media(media="print")
    cut = v.page.evaluate("""() => [...document.querySelectorAll('article pre')]
        .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.slice(0, 60))""")
    assert not cut, f"printed code lines cut at the margin: {cut[:3]}"
    if v.path.endswith("03_layernorm.html"):
        v.page.pdf(path=str(ARTIFACTS / "03_layernorm_impreso.pdf"))


def check_phone(v: Visit) -> None:
    page = v.page
    wide = page.evaluate("() => document.scrollingElement.scrollWidth - innerWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px"
    cut = page.evaluate("""() => {
        const art = document.querySelector('article') || document.querySelector('main');
        const box = art.getBoundingClientRect(), bad = [];
        for (const el of art.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (!r.width || getComputedStyle(el).visibility !== 'visible') continue;
            if (r.right <= box.right + 1 && r.left >= box.left - 1) continue;
            let p = el.parentElement, scrolls = false;
            for (; p && p !== art; p = p.parentElement) {
                const cs = getComputedStyle(p);
                if (/auto|scroll/.test(cs.overflowX) && p.scrollWidth > p.clientWidth) { scrolls = true; break; }
            }
            if (!scrolls) bad.push(el.tagName.toLowerCase() + '.' + el.className + ': ' +
                                   (el.textContent || '').trim().slice(0, 40));
        }
        return bad;
    }""")
    assert not cut, f"cut off at 390 px, with nothing to scroll: {cut[:8]}"
    boxes = page.evaluate("""() => [...document.querySelectorAll('main *')].filter(el => {
            const cs = getComputedStyle(el);
            return /auto|scroll/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0;
        }).map(el => { return [el.tagName.toLowerCase() + '.' + el.className, el.tabIndex,
                      el.getAttribute('aria-label') || '', el.classList.contains('desplaza'),
                      el.parentElement.classList.contains('leccion-marco') ?
                      getComputedStyle(el.parentElement, '::after').opacity : 'no frame'] })""")
    for what, tab, label, marked, shade in boxes:
        assert tab == 0 and label and marked and shade == "1", \
            f"{what} scrolls sideways without a tab stop, a name or a shade where there is more: {tab}, " \
            f"{label!r}, {marked}, {shade}"
def check_phone_dialogs(v: Visit) -> None:
    """☰ and ☷, the buttons readers see, open their dialogs (pydata-sphinx-theme#2451: they did nothing)."""
    page = v.page
    for toggle, dialog, links in ((".primary-toggle", "#pst-primary-sidebar-modal", 6),
                                  (".secondary-toggle", "#pst-secondary-sidebar-modal", 3)):
        if kind(v.path) not in ("notebook", "guide") and toggle == ".secondary-toggle":
            continue
        button = page.locator(f"{toggle}:visible")
        assert button.count() == 1, f"{toggle}: {button.count()} visible buttons"
        button.click()
        page.locator(f"{dialog}[open]").wait_for(timeout=3000)
        shown = page.locator(f"{dialog} a:visible").count()
        assert shown >= links, f"{dialog} opened with {shown} links"
        page.screenshot(path=str(ARTIFACTS / f"{v.name}_{dialog[5:]}.png"))
        page.keyboard.press("Escape")
        page.locator(f"{dialog}[open]").wait_for(state="detached", timeout=3000)


# ---------------------------------------------------------------------------------------------------------------
# Keyboard focus: every kind of tab stop, its pixels focused and not


def _pixels(png: bytes) -> tuple[int, int, int, bytes]:
    """Decode an 8-bit RGB/RGBA PNG (what Chromium's screenshots are): width, height, bytes per pixel, pixels."""
    pos, idat = 8, b""
    while pos < len(png):
        length, chunk = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if chunk == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", data)
        elif chunk == b"IDAT":
            idat += data
    assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
    bpp, raw = (3 if ctype == 2 else 4), zlib.decompress(idat)
    stride, out, prev, i = w * (3 if ctype == 2 else 4), bytearray(), bytearray(w * (3 if ctype == 2 else 4)), 0
    for _ in range(h):
        f, line, i = raw[i], bytearray(raw[i + 1:i + 1 + stride]), i + 1 + stride
        for x in range(stride):
            a, b, c = (line[x - bpp] if x >= bpp else 0), prev[x], (prev[x - bpp] if x >= bpp else 0)
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return w, h, bpp, bytes(out)


def changed_pixels(one: bytes, two: bytes) -> int:
    w, h, bpp, a = _pixels(one)
    w2, h2, bpp2, b = _pixels(two)
    assert (w, h) == (w2, h2)
    return sum(1 for i in range(0, len(a), bpp)
               if max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2])) > 40)


SIGNATURE = """e => {
    const region = e.closest('dialog, header, nav, .bd-sidebar-primary, .bd-sidebar-secondary, footer, article, main');
    const cls = [...e.classList].filter(c => !/^(active|current|hay-mas|show|focus|mod-)/.test(c)).sort().join('.');
    return [e.tagName.toLowerCase(), cls, e.getAttribute('role') || '', region ? region.tagName + '.' +
            (region.id || region.className.split(' ')[0]) : '', e.closest('.cell_output') ? 'output' : ''].join('|');
}"""


def check_focus_ring(page, el, v: Visit, signature: str, n: int, report: list, still: str | None = None) -> None:
    """The element's pixels (and 7 px around them) focused and not: at least its perimeter must change
    (``still``: what must still be on screen unfocused, so that the change is the ring and nothing else)."""
    box = el.evaluate("e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height] }")
    width, height = VIEWS[v.view]["width"], VIEWS[v.view]["height"]
    x, y = max(0, box[0] - 7), max(0, box[1] - 7)
    clip = {"x": x, "y": y, "width": min(box[0] + box[2] + 7, width) - x,
            "height": min(box[1] + box[3] + 7, height) - y}
    if clip["width"] <= 0 or clip["height"] <= 0:
        return
    focused = page.screenshot(clip=clip)
    el.evaluate("e => e.blur()")
    plain = page.screenshot(clip=clip)
    if still:
        assert page.locator(still).is_visible(), f"{still} went away when the focus left"
    el.evaluate("e => e.focus()")
    changed, perimeter = changed_pixels(focused, plain), 2 * (box[2] + box[3])
    report.append((signature, changed, round(perimeter)))
    if changed < perimeter or n in (1, 3, 8, 12) or signature.startswith("."):
        (ARTIFACTS / f"focus_{v.name}_{n}_enfocado.png").write_bytes(focused)
        (ARTIFACTS / f"focus_{v.name}_{n}_sin_foco.png").write_bytes(plain)
    assert changed >= perimeter, f"{signature}: focus changes {changed} pixels, less than its perimeter " \
                                 f"{perimeter:.0f} (artifacts/site/focus_{v.name}_{n}_*.png)"


@pytest.mark.parametrize("page_path, view, scheme", [
    ("index.html", "escritorio", "light"), ("notebooks/03_layernorm.html", "escritorio", "light"),
    ("notebooks/03_layernorm.html", "escritorio", "dark"), ("notebooks/03_layernorm.html", "telefono", "light"),
    ("notebooks/05_norm_placement.html", "telefono", "dark"), (SEARCH, "escritorio", "dark")])
def test_focus_visible(base_url, browser, page_path, view, scheme):
    """Tab through the page; the first stop of each kind (tag, classes, role, region) must look different
    focused: at least its perimeter in pixels changes (a 1 px ring all around; ours is 3 px)."""
    v = Visit(browser, base_url, page_path, view, scheme)
    page = v.page
    # the focus ring, not the tooltips; and the end states, not a fade half way (the copy button fades in)
    page.add_style_tag(content=".tooltip { display: none !important; } * { transition: none !important; }")
    done, stops, report = set(), 0, []
    try:
        page.keyboard.press("Tab")
        page.evaluate("() => document.activeElement.setAttribute('data-primera-parada', '')")
        for _ in range(400):
            el = page.evaluate_handle("() => document.activeElement")
            tag = el.evaluate("e => e.tagName")
            if tag == "BODY":
                break
            stops += 1
            assert tag != "MJX-CONTAINER" or el.evaluate("e => e.classList.contains('desplaza')"), \
                "a formula that does not scroll is a tab stop"
            signature = el.evaluate(SIGNATURE)
            if signature not in done and el.evaluate("e => !!e.getClientRects().length"):
                done.add(signature)
                check_focus_ring(page, el, v, signature, len(done), report)
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.hasAttribute('data-primera-parada')"):
                break  # round the page once
        # the launch and download menus' items (tab stops only once their menu is open): open it from the
        # keyboard, go down to the first item
        for group in (".dropdown-launch-buttons", ".dropdown-download-buttons"):
            toggle = page.locator(f"{group} > button.dropdown-toggle")
            if toggle.count() == 0 or not toggle.is_visible():
                continue
            toggle.focus()
            page.keyboard.press("Enter")
            page.keyboard.press("ArrowDown")
            item = page.evaluate_handle("() => document.activeElement")
            assert item.evaluate(f"e => e.matches('{group} .dropdown-item')"), f"{group}: no item took the focus"
            done.add(group)
            check_focus_ring(page, item, v, f"{group} .dropdown-item", len(done), report,
                             still=f"{group} .dropdown-menu.show")
            page.keyboard.press("Escape")
        (ARTIFACTS / f"focus_{v.name}.json").write_text(json.dumps({"tab_stops": stops, "kinds": report},
                                                                   indent=1, ensure_ascii=False))
        assert len(done) >= 5, f"only {len(done)} kinds of tab stops: {done}"
    finally:
        v.close()


# ---------------------------------------------------------------------------------------------------------------
# The build itself (no browser)


def test_build_copies_only_what_pages_use():
    mathjax = SITE / "_static" / "mathjax"
    scripts = sorted(p.relative_to(mathjax).as_posix() for p in mathjax.rglob("*.js"))
    components = ["a11y/assistive-mml.js", "core.js", "input/tex.js", "output/chtml.js", "output/chtml/fonts/tex.js",
                  "startup.js"]
    assert [s for s in scripts if not s.startswith("input/tex/extensions/")] == components, scripts
    assert not (mathjax / "sre").exists() and not (mathjax / "ui").exists()
    for page in SITE.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert html.count("<script") < 30, f"{page.name}: {html.count('<script')} scripts"
        assert "data:image/png" not in html, f"{page.name}: a figure inlined instead of a file"
        assert "NBVAL" not in html, f"{page.name}: a test marker"
