"""The site's copy of a notebook's prediction question (helpers.predictions.ask("KEY") in a cell): the question
and its options as the notebook shows them, answer buttons that .ci/site/static/prediccion.js makes live, and,
for a page whose scripts do not run, every option's sentence behind a <details>. Question, options and sentences
come from helpers.predictions (its data/predictions.json), the notebook's one source."""

from __future__ import annotations

import ast
import html
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from helpers import predictions  # noqa: E402  (pure: the standard library only, no torch)


def asked(source: str) -> str | None:
    """The key of the question a cell asks with helpers.predictions.ask("KEY"), or None."""
    for node in ast.walk(ast.parse(re.sub(r"(?m)^\s*[%!].*$", "", source))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "ask"
                and ast.unparse(node.func.value).endswith("predictions") and node.args
                and isinstance(node.args[0], ast.Constant)):
            return node.args[0].value
    return None


def output(nb_name: str, key: str) -> dict:
    q = predictions.question(key)
    if q.notebook != nb_name:
        sys.exit(f"{nb_name} asks {key!r}, which helpers/data/predictions.json puts in {q.notebook}")
    letters = predictions.LETTERS
    buttons = "".join(
        f'<button type="button" class="prediccion-opcion" aria-pressed="false" '
        f'data-veredicto="{html.escape(predictions.verdict(key, i), quote=True)}" '
        f'aria-label="{letters[i]}) {html.escape(o.text, quote=True)}">{letters[i]})</button>'
        for i, o in enumerate(q.options))
    fallback = "".join(f"<li>{html.escape(predictions.verdict(key, i))}</li>" for i in range(len(q.options)))
    page = (f'<div class="prediccion-viva" data-clave="{html.escape(key, quote=True)}">{q.html()}'
            f'<div class="prediccion-botones" role="group" aria-label="Tu apuesta" hidden>'
            f"<span aria-hidden=\"true\">Tu apuesta:</span> {buttons}</div>"
            '<p class="prediccion-respuesta" aria-live="polite"></p>'
            "<details class=\"prediccion-sin-js\"><summary>Qué dice cada opción (elegí antes de abrir)</summary>"
            f"<ul>{fallback}</ul></details></div>")
    text = q.text + " " + " ".join(f"{letters[i]}) {o.text}" for i, o in enumerate(q.options))
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": page, "text/plain": text}}
