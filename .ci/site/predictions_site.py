"""The site's copy of a notebook's prediction question (helpers.predictions.ask("KEY") in a cell): the question
and its options as the notebook shows them, answer buttons that .ci/site/static/prediccion.js makes live (the
first press is the bet, said back as helpers.predictions.first; a later one shows helpers.predictions.after), a
«ver sin apostar» button, and, for a page whose scripts do not run, every option's sentence behind a <details>.
The cells that answer a bet (their role says so, read by helpers.lesson) are folded by prepare.py (fold): their
output waits in a <details> until the reader bets (the script opens it) or opens it. What a bet says comes from
helpers.predictions, where it sits from helpers.lesson."""

from __future__ import annotations

import html
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from helpers import lesson, predictions  # noqa: E402  (pure: the standard library only, no torch)


def asked(nb: dict) -> dict[int, str]:
    """{cell index: key} of the cells that ask a question with buttons (helpers.predictions.ask("KEY"))."""
    keys = set(predictions.keys())
    return {b.question: k for k, b in lesson.bet_cells(nb).items() if k in keys and b.question is not None}


def output(nb_name: str, key: str) -> dict:
    q = predictions.question(key)
    if q.notebook != nb_name:
        sys.exit(f"{nb_name} asks {key!r}, which helpers/data/predictions.json puts in {q.notebook}")
    letters = predictions.LETTERS
    buttons = "".join(
        f'<button type="button" class="prediccion-opcion" aria-pressed="false" '
        f'data-apuesta="{html.escape(predictions.first(key, i), quote=True)}" '
        f'data-veredicto="{html.escape(predictions.after(key, i), quote=True)}" '
        f'aria-label="{letters[i]}) {html.escape(o.text, quote=True)}">{letters[i]})</button>'
        for i, o in enumerate(q.options))
    fallback = "".join(f"<li>{html.escape(predictions.verdict(key, i))}</li>" for i in range(len(q.options)))
    page = (f'<div class="prediccion-viva" data-clave="{html.escape(key, quote=True)}">{q.html()}'
            f'<div class="prediccion-botones" role="group" aria-label="Tu apuesta" hidden>'
            f"<span aria-hidden=\"true\">Tu apuesta:</span> {buttons}"
            '<button type="button" class="prediccion-ver">Ver la respuesta sin apostar</button></div>'
            '<div aria-live="polite"><p class="prediccion-respuesta"></p><p class="prediccion-despues"></p></div>'
            "<details class=\"prediccion-sin-js\"><summary>Qué dice cada opción (elegí antes de abrir)</summary>"
            f"<ul>{fallback}</ul></details></div>")
    text = q.text + " " + " ".join(f"{letters[i]}) {o.text}" for i, o in enumerate(q.options))
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": page, "text/plain": text}}


FOLD_TAG = "apuesta-"  # + the bet's key: myst-nb writes a cell's tags as classes (tag_apuesta-KEY)


def answering(nb: dict) -> dict:
    """{cell index: [the bets it answers, in predictions.json's order]} for a notebook's cells that answer a bet."""
    return {i: [b for b in predictions.bets() if b.key in keys] for i, keys in lesson.answering(nb).items()}


def fold(cell: dict, bets: list) -> None:
    """Fold a cell's output (myst-nb's hide-output, a <details>), or a markdown cell whole, until the reader answers
    one of ``bets``, or opens it; the fold carries each bet's tag (a class on the page) for prediccion.js to open it."""
    show = "Ver la respuesta sin apostar"  # every bet has buttons (helpers.predictions): this opens without one
    if cell["cell_type"] == "markdown":  # the text that reads the answer: in a <details> of its own, same classes
        classes = " ".join(f"tag_{FOLD_TAG}{b.key}" for b in bets)
        text = lesson.source(cell).strip()
        summary = f'<details class="respuesta-plegada {classes}"><summary>{show}</summary>'
        cell["source"] = f"{summary}\n\n{text}\n\n</details>"
        return
    meta = cell.setdefault("metadata", {})
    meta["tags"] = [*meta.get("tags", []), "hide-output", *(FOLD_TAG + b.key for b in bets)]
    meta["mystnb"] = {**meta.get("mystnb", {}), "code_prompt_show": show, "code_prompt_hide": "Ocultar la respuesta"}
