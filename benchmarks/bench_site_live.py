"""How fast the site's live copies answer a reader (make bench-site): with Chromium's CPU throttled 4x, the slowest
update after a keystroke or a slider move, on 03's copies and 05b's explorer. A measurement, not a test: it depends on
how busy the machine is, so it lives here, not in tests/site. It fails (exit 1) above 100 ms, the goal, and writes its
figures to artifacts/site/envivo_speed.json.

    make bench-site        # builds the site first; the site's environment runs it with pytest
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "site"))
sys.path.insert(0, str(ROOT / ".ci"))
from test_live import NB03, NB05B  # noqa: E402  (05b: the explorer)
from test_site import ARTIFACTS, Visit, base_url, browser  # noqa: E402, F401

GOAL_MS = 100


TIMER = """() => { window.__worst = 0; window.__n = 0; let t0 = null;
    document.addEventListener('input', e => { t0 = e.timeStamp; }, true);
    document.addEventListener('change', e => { t0 = e.timeStamp; }, true);
    new MutationObserver(() => { if (t0 !== null) { __worst = Math.max(__worst, performance.now() - t0); __n++;
        t0 = null; } }).observe(document.querySelector('article'), {subtree: true, childList: true,
        characterData: true}); }"""


def test_updates_within_100_ms_at_4x_slower_cpu(browser, base_url):  # noqa: F811
    """The slowest update, 4x slower CPU: within GOAL_MS."""
    worst = {}
    for path in (NB03, NB05B):
        v = Visit(browser, base_url, path, "telefono", "light")
        page = v.page
        try:
            if path == NB05B:
                page.locator("#en-vivo-explorador").get_by_label("24", exact=True).focus()
                page.wait_for_function("() => document.querySelector('#en-vivo-explorador').dataset.listo === '1'")
            cdp = v.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            page.evaluate(TIMER)
            if path == NB03:
                field = page.locator("#en-vivo-cuatro_numeros").get_by_label("x2", exact=True)
                field.focus()
                page.keyboard.press("Control+A")
                page.keyboard.type("-12,75e0", delay=30)
                page.locator("#en-vivo-gamma_beta").get_by_label("γ1").focus()
                for key in ["ArrowRight"] * 8 + ["ArrowLeft"] * 4:
                    page.keyboard.press(key, delay=30)
            else:
                page.locator("#en-vivo-explorador").get_by_label("las dos", exact=True).focus()
                for key in ["ArrowLeft", "ArrowLeft", "ArrowRight"]:
                    page.keyboard.press(key, delay=30)
                page.locator("#en-vivo-explorador").get_by_label("24", exact=True).focus()
                for key in ["ArrowLeft", "ArrowLeft", "ArrowRight"]:
                    page.keyboard.press(key, delay=30)
            page.wait_for_timeout(200)
            worst[path], n = page.evaluate("() => [__worst, __n]")
            assert n >= (20 if path == NB03 else 6), f"{path}: only {n} updates measured"
        finally:
            v.close()
    figures = {k: round(t, 1) for k, t in worst.items()}
    (ARTIFACTS / "envivo_speed.json").write_text(json.dumps({"worst update ms (4x CPU)": figures}, indent=1),
                                                 encoding="utf-8")
    print(f"slowest update with the CPU throttled 4x: {figures}")
    assert max(worst.values()) <= GOAL_MS, f"slowest update: {worst}"
