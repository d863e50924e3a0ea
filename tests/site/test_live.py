"""The widgets' live copies on the site (.ci/site/static/en_vivo.js, beside the pictures prepare.py puts in), in
Chromium, against Python: helpers/layernorm.py (loaded by path: it needs only the standard library) and
helpers.sweep.explore (run by the main environment, which has torch). Run by `make test-site`.

- every string the copies print equals Python's: the course's examples, the bad inputs of tests/test_layernorm.py
  and tests/test_bad_input.py, seeded random numbers and texts, and every point of the sweep explorer's grid;
- a reader's keyboard gets Python's text on screen, in a live region, with no console error;
- before the first touch the page transfers at most 100 kB more than without the script.

How fast each keystroke shows its result (100 ms with the CPU throttled 4x) is measured, not tested:
benchmarks/bench_site_live.py (make bench-site), since a verdict on speed would depend on how busy the machine is.

axe with the copies live, phone and desktop, light and dark, is test_site.py's test_page on 03 and 05b
(check_live_copies: each copy visible, a live region, within its box, a picture in artifacts/site/envivo_*.png).
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import struct
import subprocess
import sys

import pytest
from test_site import ARTIFACTS, ROOT, SITE, VIEWS, Visit, base_url, browser  # noqa: F401

pytestmark = pytest.mark.browser
NB03, NB05B = "notebooks/03_layernorm.html", "notebooks/05b_semillas_profundidad_warmup.html"  # 05b: explorer
_spec = importlib.util.spec_from_file_location("layernorm_for_live", ROOT / "helpers" / "layernorm.py")
L = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = L  # dataclasses look their module up
_spec.loader.exec_module(L)
WALK = dict(x=(0.5, 1.15, 0.78, 0.88), sublayer=(0.3, -0.2, 0.15, 0.45), gamma=(1.2, 0.8, 1.0, 1.1),
            beta=(0.1, 0.0, -0.2, 0.3))  # 03's cell
GB_X = (0.8, 0.95, 0.93, 1.33)
EXPLORER_START = (12, "post", 0, "todas")  # 05b's cell: SweepExplorer(n_layers=12, norm='post', warmup=0)
REPORT = {}


def fmt(values, digits: int = 3) -> str:  # helpers/widgets/_image.py's fmt (that module needs ipywidgets)
    return "[" + ", ".join(f"{v:.{digits}f}" for v in values) + "]"


def four_numbers(texts) -> list[str]:
    """What FourNumbers shows for four boxes (helpers/widgets/layernorm.py), line by line."""
    try:
        s = L.layer_norm_steps(L.parse_numbers(iter(texts)))
    except L.InvalidInput as e:
        return [f"⚠ {e}"]
    return ([f"media μ = {s.mean:.4f} · varianza σ² = {s.var:.4f} · desvío σ = {s.std:.3f}",
             f"normalizado x̂ = {fmt(s.normalized)}"] + ([s.message()] if s.message() else []))


def gamma_beta(gamma, beta) -> str:
    return f"γ ⊙ x̂ + β = {fmt(L.layer_norm_steps(GB_X, gamma, beta).output)}"


def walkthrough(**kw) -> list[list[str]]:
    return [[s.title, fmt(s.values, s.digits), s.text] for s in L.residual_layernorm_walkthrough(**kw)]


JS_FOUR = "cases => cases.map(t => { const r = enVivo.fourNumbersText(t); return r.error ? [r.error] : r.lines; })"
JS_WALK = ("cases => cases.map(a => enVivo.walkthrough(a.x, a.sublayer, a.gamma, a.beta)"
           ".map(s => [s.title, '[' + s.values.map(v => enVivo.f(v, s.digits)).join(', ') + ']', s.text]))")

BAD = [["1,000", "2", "3", "4"], ["1.000", "2", "3", "4"], ["abc", "2", "3", "4"], ["", "2", "3", "4"],
       ["1e400", "2", "3", "4"], ["nan", "2", "3", "4"], ["１２", "2", "3", "4"], ["1\u200b", "2", "3", "4"],
       ["1_000", "2", "3", "4"], ["1__0", "2", "3", "4"], ["_1", "2", "3", "4"], ["1", "2\u00a05", "3", "4"],
       ["2,125", "2", "3", "4"], ["2,1250", "2", "3", "4"], ["1.000.000", "2", "3", "4"], ["1e16", "1", "2", "3"],
       ["1e-200", "2e-200", "0", "0"], ["-inf", "Infinity", "INF", "x"], ["1", "2", "x", "4"],
       [" 0,5", "1.5 ", "-2", "3e2"], ["\ufeff1", "2", "3", "4"], ["\u20601", "2", "3", "4"], ["1\u2028", "2", "3", ""],
       ["٣", "۴", "५", "๖"], ["１,０００", "2", "3", "4"], ["1,000,5", "2", "3", "4"], ["+1.000", "2", "3", "4"],
       ["-0", "-0", "-0", "-0"], ["0", "0", "0", "0"], ["5", "5", "5", "5"], ["1e15", "-1e15", "0", "1"],
       ["1.5e-15", "0", "0", "0"], ["9.99e-16", "0", "0", "0"], ["1.", ".5", "5.e1", ".e1"],
       ["\x00", "\x7f", "\ue000", "\U000e0041"],
       ["1\u0378", "2\u200d3", "\u00ad", "\u2029"], ["1 000", "2", "3", "4"], ["0x10", "1e", "e1", "1e+"],
       ["infinity", "-nan", "+inf", "nAn"]]
COURSE = [["2", "4", "6", "8"], ["1.000", "1.001", "1.002", "1.003"], ["1", "1.001", "1.002", "1.003"],
          ["0,8", "0,95", "0,93", "1,33"], ["3", "3", "3", "3"], ["0.5", "0.5", "0.5", "0.5"]]


def random_texts(rng: random.Random) -> list[str]:
    alphabet = "0123456789.,_-+eE 1\u200b\u00a0١１\ufeffxa"
    out = []
    for _ in range(4):
        kind = rng.randrange(6)
        v = rng.uniform(-1, 1) * 10 ** rng.randint(-17, 17)
        out.append(repr(v) if kind == 0 else f"{v:.{rng.randint(0, 6)}f}".replace(".", ",") if kind == 1
                   else str(rng.randint(-2000, 2000)) if kind == 2 else f"{v:.3e}" if kind == 3
                   else "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) if kind == 4
                   else f"{rng.randint(0, 99)}{rng.choice('.,')}{rng.randint(0, 999):03d}")
    return out


def random_double(rng: random.Random) -> float:
    kind = rng.randrange(4)
    if kind == 0:  # ties in decimal: k / 2^j
        return rng.randint(-10 ** 6, 10 ** 6) / 2 ** rng.randint(0, 12)
    if kind == 1:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if kind == 2:
        return round(rng.uniform(-10, 10), rng.randint(0, 5))
    return rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20)


@pytest.fixture(scope="module")
def page03(browser, base_url):  # noqa: F811
    v = Visit(browser, base_url, NB03, "escritorio", "light")
    yield v
    v.close()


def test_numbers_print_as_python(page03):
    rng = random.Random(38)
    values = [random_double(rng) for _ in range(3000)] + [0.0, -0.0, 0.125, 0.375, 2.5, -2.5, 1e-5, 1e16, 1e-16,
                                                          0.5, 1.5, 0.0005, 0.00015, 9.9995, 999999.5, 1e300]
    values = [v for v in values if math.isfinite(v)]
    specs = [".4f", ".3f", ".2f", "g", ".3g", ".0%"]
    got = page03.page.evaluate("vs => vs.map(v => [enVivo.f(v, 4), enVivo.f(v, 3), enVivo.f(v, 2), enVivo.g(v), "
                               "enVivo.g(v, 3), enVivo.pct(v)])", values)
    bad = [(v, s, g, format(v, s)) for v, row in zip(values, got) for s, g in zip(specs, row) if g != format(v, s)]
    assert not bad, f"{len(bad)} differ, first: {bad[:5]}"
    lists = [[random_double(rng) for _ in range(rng.randint(1, 8))] for _ in range(1000)]
    lists += [[1e-16, 1, 1e16], [0.1] * 10, [-0.0], [1e15, 1, -1e15, 1e-15], [0.1, 0.2, 0.3, -0.6]]
    sums = page03.page.evaluate("ls => ls.map(l => enVivo.fsum(l))", lists)
    wrong = [(xs, s) for xs, s in zip(lists, sums) if struct.pack("<d", s) != struct.pack("<d", math.fsum(xs))]
    assert not wrong, f"fsum differs: {wrong[:3]}"
    REPORT["format values"] = len(values)
    REPORT["fsum lists"] = len(lists)


def test_four_numbers_as_python(page03):
    rng = random.Random(6)
    cases = COURSE + BAD + [random_texts(rng) for _ in range(600)]
    got = page03.page.evaluate(JS_FOUR, cases)
    bad = [(c, g, four_numbers(c)) for c, g in zip(cases, got) if g != four_numbers(c)]
    assert not bad, f"{len(bad)} of {len(cases)} differ, first: {bad[:3]}"
    errors = sum(1 for c in cases if four_numbers(c)[0].startswith("⚠"))
    assert errors > 100 and len(cases) - errors > 100, "the random cases miss one of the two paths"
    REPORT["FourNumbers cases"] = len(cases)


def test_walkthrough_and_gamma_beta_as_python(page03):
    rng = random.Random(3)
    cases = [WALK, dict(x=(1, 1, 1, 1), sublayer=(0, 0, 0, 0), gamma=(1, 1, 1, 1), beta=(0, 0, 0, 0))]
    cases += [{k: [round(rng.uniform(-3, 3), rng.randint(0, 4)) for _ in range(4)] for k in WALK} for _ in range(200)]
    got = page03.page.evaluate(JS_WALK, cases)
    bad = [(c, g) for c, g in zip(cases, got) if g != walkthrough(**c)]
    assert not bad, f"{len(bad)} walkthroughs differ, first: {bad[:1]}"
    pairs = [([round(rng.randint(-30, 30) / 10, 1) for _ in range(4)], [round(rng.randint(-20, 20) / 10, 1)
                                                                        for _ in range(4)]) for _ in range(300)]
    shown = page03.page.evaluate("([x, ps]) => ps.map(([g, b]) => 'γ ⊙ x̂ + β = [' + enVivo.layerNormSteps(x, g, b)"
                                 ".output.map(v => enVivo.f(v, 3)).join(', ') + ']')", [list(GB_X), pairs])
    assert shown == [gamma_beta(g, b) for g, b in pairs]
    REPORT["walkthrough cases"], REPORT["γ/β cases"] = len(cases), len(pairs)


def expected_explorer() -> dict:
    """helpers.sweep.explore(...).lines() at every point of the grid, from the main environment (it has torch)."""
    code = ("import json; from helpers import sweep as s; print(json.dumps({f'{n}|{m}|{w}|{d}': s.explore(n, m, w, d)"
            ".lines() for n in s.N_LAYERS for m in s.NORM_CHOICES for w in s.WARMUPS for d in ('todas', *s.SEEDS)}))")
    python = ROOT / ".venv" / "bin" / "python"
    assert python.exists(), f"{python} missing: run `make install`"
    return json.loads(subprocess.run([str(python), "-c", code], cwd=ROOT, check=True, capture_output=True,
                                     text=True).stdout)


@pytest.fixture(scope="module")
def explorer_lines() -> dict:
    return expected_explorer()


def test_explorer_as_python_at_every_point(page03, explorer_lines):
    got = page03.page.evaluate("""async keys => {
        const data = await (await fetch('../_static/norm_sweep.json')).json();
        return keys.map(k => { const [n, m, w, d] = k.split('|');
            return enVivo.explore(data, +n, m, +w, d === 'todas' ? d : +d).lines; }); }""", list(explorer_lines))
    bad = [(k, g, e) for (k, e), g in zip(explorer_lines.items(), got) if g != e]
    assert not bad, f"{len(bad)} of {len(got)} grid points differ, first: {bad[:2]}"
    assert len(got) == 3 * 3 * 5 * 6
    REPORT["explorer grid points"] = len(got)


def shown(box) -> list[str]:
    return [p for p in box.locator(".en-vivo-resultado").inner_text().split("\n") if p.strip()]


def test_a_reader_by_keyboard(browser, base_url, explorer_lines):  # noqa: F811
    v = Visit(browser, base_url, NB03, "telefono", "light")
    page = v.page
    try:
        box = page.locator("#en-vivo-cuatro_numeros")
        assert box.is_visible() and page.locator("figure.widget-picture").first.is_hidden()
        assert box.locator("[aria-live=polite]").count() == 1
        assert shown(box) == four_numbers(["2", "4", "6", "8"])
        for texts in (["1", "2,5", "-3", "10"], ["1,000", "2,5", "-3", "10"], ["abc", "2,5", "-3", "10"],
                      ["", "2,5", "-3", "10"], ["7", "7", "7", "7"]):
            for i, t in enumerate(texts):
                field = box.get_by_label(f"x{i}", exact=True)
                if field.input_value() != t:
                    field.focus()
                    page.keyboard.press("Control+A")
                    page.keyboard.press("Backspace") if not t else page.keyboard.type(t)
            assert shown(box) == four_numbers(texts), texts
        gb = page.locator("#en-vivo-gamma_beta")
        assert shown(gb) == [gamma_beta([1] * 4, [0] * 4)]
        gb.get_by_label("γ0").focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        g0 = float(gb.get_by_label("γ0").input_value())
        assert g0 == pytest.approx(1.3) and shown(gb) == [gamma_beta([g0, 1, 1, 1], [0] * 4)]
        gb.get_by_label("β3").focus()
        page.keyboard.press("ArrowLeft")
        assert shown(gb) == [gamma_beta([g0, 1, 1, 1], [0, 0, 0, float(gb.get_by_label("β3").input_value())])]
        sb = page.locator("#en-vivo-siguiente_paso")
        steps = walkthrough(**WALK)
        sb.get_by_role("button", name="Siguiente paso").focus()
        for k in range(2, 8):
            page.keyboard.press("Enter")
            lines = shown(sb)
            assert lines[0] == f"paso {k} de 7" + (" · listo" if k == 7 else "")
            assert lines[1:] == [t for s in steps[:k] for t in (f"{s[0]}: {s[1]}", s[2])]
        assert sb.get_by_role("button", name="Siguiente paso").is_disabled()
        page.keyboard.press("Enter")  # focus moved to «Empezar de nuevo»
        assert shown(sb)[0] == "paso 1 de 7"
        assert v.log == ([], [], []) and not v.errors, f"outside, failed, console errors: {v.log} {v.errors}"
    finally:
        v.close()
    v = Visit(browser, base_url, NB05B, "escritorio", "dark")
    page = v.page
    try:
        box = page.locator("#en-vivo-explorador")
        assert not any("norm_sweep" in r.url for r in v.finished), "the sweep was fetched before any touch"
        assert page.locator("figure.widget-picture").is_visible(), "before a touch the picture stands"
        box.get_by_label("24", exact=True).focus()  # the first touch: by keyboard
        page.wait_for_function("() => document.querySelector('#en-vivo-explorador').dataset.listo === '1'")
        assert page.locator("figure.widget-picture").is_hidden()
        assert shown(box) == explorer_lines["|".join(map(str, EXPLORER_START))]
        page.keyboard.press("Space")  # capas 24: the focused one, chosen by keyboard
        assert shown(box) == explorer_lines["24|post|0|todas"]
        page.keyboard.press("ArrowLeft")  # capas 12
        assert shown(box) == explorer_lines["12|post|0|todas"]
        box.get_by_label("las dos", exact=True).check()
        assert shown(box) == explorer_lines["12|ambas|0|todas"]
        box.get_by_label("warmup", exact=True).select_option(label="50 pasos")
        assert shown(box) == explorer_lines["12|ambas|50|todas"]
        box.get_by_label("semilla", exact=True).select_option(label="3")
        assert shown(box) == explorer_lines["12|ambas|50|3"]
        assert v.log == ([], [], []) and not v.errors, f"outside, failed, console errors: {v.log} {v.errors}"
    finally:
        v.close()


def transfer(browser, base_url, path: str, live: bool) -> int:  # noqa: F811
    context = browser.new_context(viewport=VIEWS["escritorio"])
    page = context.new_page()
    sizes = []
    if not live:
        page.route("**/en_vivo.js*", lambda r: r.fulfill(status=200, content_type="text/javascript", body=""))
    page.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"]))
    page.goto(base_url + path, wait_until="networkidle")
    page.evaluate("async () => { for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {"
                  " scrollTo(0, y); await new Promise(r => setTimeout(r, 20)); } }")
    page.wait_for_load_state("networkidle")
    context.close()
    return sum(sizes)


def test_transfer_before_a_touch(browser, base_url):  # noqa: F811
    growth = {p: transfer(browser, base_url, p, True) - transfer(browser, base_url, p, False) for p in (NB03, NB05B)}
    REPORT["transfer growth bytes"] = growth
    REPORT["en_vivo.js bytes (built, with its tables)"] = (SITE / "_static" / "en_vivo.js").stat().st_size
    REPORT["en_vivo.js bytes (source)"] = (ROOT / ".ci" / "site" / "static" / "en_vivo.js").stat().st_size
    assert max(growth.values()) <= 100_000, growth


def test_zz_report():
    (ARTIFACTS / "envivo_report.json").write_text(json.dumps(REPORT, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(REPORT, ensure_ascii=False))
