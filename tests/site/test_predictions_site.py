"""The prediction questions on the site (.ci/site/predictions_site.py, static/prediccion.js), in Chromium: every
notebook page asks its questions of helpers/data/predictions.json, live, by keyboard, each press answering with
helpers.predictions.verdict's sentence in a live region; with scripts off, the sentences wait behind a <details>.
Run by `make test-site` (test_site.py checks axe, focus rings, 390 px and dark mode on the same pages)."""

from __future__ import annotations

import sys

import pytest
from test_site import ARTIFACTS, ROOT, Visit, base_url, browser  # noqa: F401  (fixtures)

sys.path.insert(0, str(ROOT))
from helpers import predictions  # noqa: E402  (pure: no torch)

pytestmark = pytest.mark.browser
BY_NOTEBOOK = {}
for _key in predictions.keys():
    BY_NOTEBOOK.setdefault(predictions.question(_key).notebook.removesuffix(".ipynb"), []).append(_key)


@pytest.mark.parametrize("view", ["telefono", "escritorio"])
@pytest.mark.parametrize("notebook", sorted(BY_NOTEBOOK))
def test_each_question_answers_back_by_keyboard(base_url, browser, notebook, view):  # noqa: F811
    v = Visit(browser, base_url, f"notebooks/{notebook}.html", view, "dark" if view == "telefono" else "light")
    try:
        page = v.page
        for key in BY_NOTEBOOK[notebook]:
            q = predictions.question(key)
            box = page.locator(f'.prediccion-viva[data-clave="{key}"]')
            assert box.count() == 1, f"{notebook}: question {key} is not on the page once"
            assert " ".join(box.locator(".prediccion p").first.inner_text().split()) == f"Tu apuesta: {q.text}"
            assert box.locator(".prediccion-sin-js").is_hidden(), "with scripts on, the sentences are not shown first"
            buttons = box.get_by_role("button")
            assert buttons.count() == len(q.options)
            assert box.locator("[aria-live=polite]").count() == 1
            right = next(i for i, o in enumerate(q.options) if o.correct)
            for i in (1 - min(right, 1), right):  # a wrong option, then the right one, by Enter
                buttons.nth(i).focus()
                page.keyboard.press("Enter")
                assert box.locator(".prediccion-respuesta").inner_text() == predictions.verdict(key, i)
                pressed = [b.get_attribute("aria-pressed") for b in buttons.all()]
                assert pressed == ["true" if j == i else "false" for j in range(len(q.options))]
            box.scroll_into_view_if_needed()
            box.screenshot(path=str(ARTIFACTS / f"apuesta_{key}_{v.name}.png"))
        assert v.log == ([], [], []), f"requests outside, failed or console errors: {v.log}"
    finally:
        v.close()


def test_without_scripts_every_sentence_is_behind_a_details(base_url, browser):  # noqa: F811
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(base_url + "notebooks/05_norm_placement.html")
        box = page.locator('.prediccion-viva[data-clave="05-depth"]')
        assert box.locator(".prediccion-botones").is_hidden()
        box.locator("summary").click()
        shown = box.locator(".prediccion-sin-js li").all_inner_texts()
        options = range(len(predictions.question("05-depth").options))
        assert shown == [predictions.verdict("05-depth", i) for i in options]
    finally:
        context.close()
