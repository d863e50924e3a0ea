"""The notebooks' "predict before you run" questions: written once (data/predictions.json), asked by
helpers.widgets.Prediction in a notebook and by the site's live copy; pure functions, no front end."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["LETTERS", "Option", "Question", "ask", "keys", "question", "verdict"]

LETTERS = "abcdefgh"
_FILE = "data/predictions.json"


def __dir__():
    return __all__


@dataclass(frozen=True)
class Option:
    text: str
    correct: bool
    why: str          # one sentence: why it is right, or which intuition led there and why it fails


@dataclass(frozen=True)
class Question:
    key: str
    notebook: str
    text: str
    options: tuple

    def html(self) -> str:
        """The question and its lettered options, readable in a stored notebook nobody has run."""
        items = "".join(f"<li><b>{LETTERS[i]})</b> {html.escape(o.text)}</li>" for i, o in enumerate(self.options))
        return (f"<div class='prediccion'><p><b>Tu apuesta</b>: {html.escape(self.text)}</p>"
                f"<ul style='list-style:none;padding-left:0.5em'>{items}</ul></div>")


@cache
def _all() -> dict:
    return _parse(json.loads(resources.files("helpers").joinpath(_FILE).read_text(encoding="utf-8")))


def _parse(data: dict) -> dict:
    """{key: Question}, refusing a question that has not exactly one right option."""
    out = {}
    for key, q in data.items():
        options = tuple(Option(o["text"], o["correct"], o["why"]) for o in q["options"])
        if sum(o.correct for o in options) != 1 or not 2 <= len(options) <= len(LETTERS):
            raise ValueError(f"{_FILE}: la pregunta {key!r} debe tener de 2 a {len(LETTERS)} opciones y una sola "
                             f"correcta; tiene {len(options)} opciones y {sum(o.correct for o in options)} correctas")
        out[key] = Question(key, q["notebook"], q["question"], options)
    return out


def keys() -> list[str]:
    return list(_all())


def question(key: str) -> Question:
    """The question ``key`` ('05-depth', ...); a Spanish error lists the ones there are."""
    if not isinstance(key, str) or key not in _all():
        raise KeyError(f"no hay una pregunta {key!r}; las que hay: {', '.join(_all())}")
    return _all()[key]


def verdict(key: str, choice) -> str:
    """The sentence the learner gets for option ``choice`` (its letter 'a', 'b', ... or its index 0, 1, ...)."""
    q = question(key)
    letters = LETTERS[:len(q.options)]
    if isinstance(choice, str) and len(choice) == 1 and choice.lower() in letters:
        choice = letters.index(choice.lower())
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(q.options):
        raise ValueError(f"elegí una opción de {', '.join(letters)} (o su número, de 0 a {len(q.options) - 1}); "
                         f"recibí {choice!r}")
    o = q.options[choice]
    return f"{'Sí' if o.correct else 'No'}, {LETTERS[choice]}) {'es' if o.correct else 'no es'} la respuesta: {o.why}"


def ask(key: str):
    """In a notebook: show the question (as HTML, readable unrun) and return its answer buttons."""
    from IPython.display import HTML, display

    from .widgets.prediction import Prediction

    widget = Prediction(key)
    display(HTML(question(key).html()))
    return widget
