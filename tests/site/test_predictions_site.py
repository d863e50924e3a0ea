"""The bets on the site (.ci/site/predictions_site.py, static/prediccion.js), in Chromium: every notebook page asks
its questions of helpers/data/predictions.json, live, by keyboard; the first press is the bet, said back with
helpers.predictions.first, and a later press is labelled as after it (helpers.predictions.after). The output of
each cell that answers a bet (its role, read by helpers.lesson as the learner's copies read it) stays
folded in a <details> until the reader bets, or opens it («ver sin apostar»); with scripts off, the folds and the
sentences wait behind <details>. Run by `make test-site` (test_site.py checks axe, focus rings, 390 px and dark
mode on the same pages)."""

from __future__ import annotations

import sys

import pytest
from test_site import ARTIFACTS, ROOT, Visit, base_url, browser  # noqa: F401  (fixtures)

sys.path.insert(0, str(ROOT))
from helpers import lesson, predictions  # noqa: E402  (pure: no torch)

pytestmark = pytest.mark.browser
BY_NOTEBOOK = {}
for _key in predictions.keys():
    BY_NOTEBOOK.setdefault(predictions.question(_key).notebook.removesuffix(".ipynb"), []).append(_key)
BETS = {b.key: b for b in predictions.bets()}


def answering(bet) -> tuple[int, ...]:
    """The indices of the cells whose output answers ``bet`` in its notebook, or tells it again further down (their
    roles say so: each one is folded with the bet's tag)."""
    cells = lesson.bet_cells(lesson.read(ROOT / "notebooks" / bet.notebook))[bet.key]
    return (*cells.answers, *cells.tells)


def folds_with_output(bet) -> int:
    """How many of the bet's answering cells have an output in the notebook (each is one fold on its page)."""
    cells = lesson.read(ROOT / "notebooks" / bet.notebook)["cells"]
    return sum(1 for i in answering(bet) if cells[i].get("outputs"))


def folds(page, key):
    return page.locator(f".tag_apuesta-{key} details")


def all_closed(page, key) -> bool:
    f = folds(page, key)
    return all(not f.nth(i).evaluate("d => d.open") and f.nth(i).locator(".cell_output").is_hidden()
               for i in range(f.count()))


def all_open(page, key, settled=()) -> bool:
    """Every fold of ``key`` is open, but one that also answers a bet not yet ``settled``, which stays closed."""
    f = folds(page, key)
    for i in range(f.count()):
        others = f.nth(i).evaluate("d => Array.from(d.closest('[class*=\"tag_apuesta-\"]').classList)"
                                   ".filter(c => c.startsWith('tag_apuesta-')).map(c => c.slice(12))")
        waiting = set(others) - {key, *settled}
        if f.nth(i).evaluate("d => d.open") == bool(waiting):
            return False
    return True


@pytest.mark.parametrize("view", ["telefono", "escritorio"])
@pytest.mark.parametrize("notebook", sorted(BY_NOTEBOOK))
def test_the_first_press_is_the_bet_and_opens_its_answer(base_url, browser, notebook, view):  # noqa: F811
    v = Visit(browser, base_url, f"notebooks/{notebook}.html", view, "dark" if view == "telefono" else "light")
    try:
        page = v.page
        settled = []  # a fold shared by two bets (05's section 4) opens when both are settled
        for key in BY_NOTEBOOK[notebook]:
            q = predictions.question(key)
            box = page.locator(f'.prediccion-viva[data-clave="{key}"]')
            assert box.count() == 1, f"{notebook}: question {key} is not on the page once"
            assert " ".join(box.locator(".prediccion p").first.inner_text().split()) == f"Tu apuesta: {q.text}"
            assert box.locator(".prediccion-sin-js").is_hidden(), "with scripts on, the sentences are not shown first"
            assert folds(page, key).count() == folds_with_output(BETS[key]) > 0, f"{key}: not every answer folded"
            assert all_closed(page, key), f"{key}: an answer is open before the bet (another bet opened it?)"
            buttons = box.locator(".prediccion-opcion")
            assert buttons.count() == len(q.options)
            assert box.locator("[aria-live=polite]").count() == 1
            see = box.get_by_role("button", name="Ver la respuesta sin apostar")
            assert see.is_visible()
            box.scroll_into_view_if_needed()
            box.screenshot(path=str(ARTIFACTS / f"apuesta_{key}_{v.name}_antes.png"))
            right = next(i for i, o in enumerate(q.options) if o.correct)
            wrong = 1 - min(right, 1)
            buttons.nth(wrong).focus()  # the bet, by Enter: a wrong option
            page.keyboard.press("Enter")
            assert box.locator(".prediccion-respuesta").inner_text() == predictions.first(key, wrong)
            assert all_open(page, key, settled), f"{key}: the bet did not open its answer, or opened another's"
            settled.append(key)
            assert see.is_hidden(), "after the bet there is nothing to see without betting"
            buttons.nth(right).focus()  # then the right one: the bet stays, this one is after it
            page.keyboard.press("Enter")
            assert box.locator(".prediccion-respuesta").inner_text() == predictions.first(key, wrong)
            assert box.locator(".prediccion-despues").inner_text() == predictions.after(key, right)
            pressed = [b.get_attribute("aria-pressed") for b in buttons.all()]
            assert pressed == ["true" if j == wrong else "false" for j in range(len(q.options))]
            box.scroll_into_view_if_needed()
            box.screenshot(path=str(ARTIFACTS / f"apuesta_{key}_{v.name}.png"))
        assert v.log == ([], [], []), f"requests outside, failed or console errors: {v.log}"
    finally:
        v.close()


def test_see_without_betting_opens_the_answer_and_bets_nothing(base_url, browser):  # noqa: F811
    v = Visit(browser, base_url, "notebooks/03_layernorm.html", "telefono", "light")
    try:
        box = v.page.locator('.prediccion-viva[data-clave="03-batch"]')
        assert all_closed(v.page, "03-batch")
        box.get_by_role("button", name="Ver la respuesta sin apostar").click()
        assert all_open(v.page, "03-batch") and box.locator(".prediccion-respuesta").inner_text() == ""
        assert all_closed(v.page, "03-eps"), "another bet's answer opened too"
    finally:
        v.close()


def test_without_scripts_the_answers_and_sentences_are_behind_details(base_url, browser):  # noqa: F811
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(base_url + "notebooks/05b_semillas_profundidad_warmup.html")
        box = page.locator('.prediccion-viva[data-clave="05-depth"]')
        assert box.locator(".prediccion-botones").is_hidden()
        assert folds(page, "05-depth").count() == folds_with_output(BETS["05-depth"]) and all_closed(page, "05-depth")
        box.locator(".prediccion-sin-js summary").click()
        shown = box.locator(".prediccion-sin-js li").all_inner_texts()
        options = range(len(predictions.question("05-depth").options))
        assert shown == [predictions.verdict("05-depth", i) for i in options]
        fold = folds(page, "05-depth").first
        fold.locator("summary").click()
        assert fold.locator(".cell_output").is_visible()
        page.screenshot(path=str(ARTIFACTS / "apuesta_sin_js_390.png"))
    finally:
        context.close()
