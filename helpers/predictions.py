"""The notebooks' bets, written once (data/predictions.json): multiple-choice questions, asked by
helpers.widgets.Prediction in a notebook and by the site's live copy. What a bet says lives here; where it sits, on
the cells (helpers.lesson: the cell that asks it and those whose output answers it carry its key). Pure functions, no
front end: ``ask``, the notebooks' call, is helpers.widgets.prediction's, named here for them and imported only when
used.

data/predictions.json maps a key ("NN-name") to one bet:

- ``notebook``: the notebook's file name;
- ``gives_away``: phrases (lower case) that no ``helpers.claim`` text in its answering cells may hold: they name the
  answer;
- ``question`` and ``options`` (``text``, ``correct``, ``why``: one sentence, why it is right, or which intuition led
  there and why it fails). Every bet has buttons: a bet in words only left the learner no way to commit, and the file
  refuses one.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

# ask comes from __getattr__ below (the widget's, imported when a notebook calls it)
__all__ = ["LETTERS", "Bet", "Option", "Question", "after", "ask", "bet", "bets", "first", "keys",  # noqa: F822
           "question", "verdict"]

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


@dataclass(frozen=True)
class Bet:
    key: str
    notebook: str
    gives_away: tuple      # phrases no claim text in those cells may hold
    question: Question


@cache
def _bets() -> dict:
    return _parse_bets(json.loads(resources.files("helpers").joinpath(_FILE).read_text(encoding="utf-8")))


def _all() -> dict:
    return {k: b.question for k, b in _bets().items()}


def _parse(data: dict) -> dict:
    """{key: Question}."""
    return {k: b.question for k, b in _parse_bets(data).items()}


def _parse_bets(data: dict) -> dict:
    """{key: Bet}, refusing a bet without options or whose question has not exactly one right option."""
    out = {}
    for key, q in data.items():
        if "options" not in q or "question" not in q:
            raise ValueError(f"{_FILE}: la apuesta {key!r} no tiene pregunta con opciones (question, options): "
                             "sin botones, quien aprende no tiene cómo apostar")
        options = tuple(Option(o["text"], o["correct"], o["why"]) for o in q["options"])
        if sum(o.correct for o in options) != 1 or not 2 <= len(options) <= len(LETTERS):
            right = sum(o.correct for o in options)
            raise ValueError(f"{_FILE}: la pregunta {key!r} debe tener de 2 a {len(LETTERS)} opciones y una "
                             f"sola correcta; tiene {len(options)} opciones y {right} correctas")
        question = Question(key, q["notebook"], q["question"], options)
        out[key] = Bet(key, q["notebook"], tuple(p.lower() for p in q.get("gives_away", ())), question)
    return out


def keys() -> list[str]:
    """The multiple-choice questions' keys."""
    return list(_all())


def bets() -> list[Bet]:
    """Every bet, in the file's order."""
    return list(_bets().values())


def question(key: str) -> Question:
    """The question ``key`` ('05-depth', ...); a Spanish error lists the ones there are."""
    if not isinstance(key, str) or key not in _all():
        raise KeyError(f"no hay una pregunta {key!r}; las que hay: {', '.join(_all())}")
    return _all()[key]


def _index(q: Question, choice) -> int:
    letters = LETTERS[:len(q.options)]
    if isinstance(choice, str) and len(choice) == 1 and choice.lower() in letters:
        choice = letters.index(choice.lower())
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(q.options):
        raise ValueError(f"elegí una opción de {', '.join(letters)} (o su número, de 0 a {len(q.options) - 1}); "
                         f"recibí {choice!r}")
    return choice


def verdict(key: str, choice) -> str:
    """The sentence the learner gets for option ``choice`` (its letter 'a', 'b', ... or its index 0, 1, ...)."""
    q = question(key)
    choice = _index(q, choice)
    o = q.options[choice]
    return f"{'Sí' if o.correct else 'No'}, {LETTERS[choice]}) {'es' if o.correct else 'no es'} la respuesta: {o.why}"


def first(key: str, choice) -> str:
    """What the learner's first answer (the bet, which counts) gets back: the bet, the right option and why."""
    q = question(key)
    i = _index(q, choice)
    right = next(j for j, o in enumerate(q.options) if o.correct)
    if i == right:
        return f"Apostaste {LETTERS[i]}) y acertaste: {q.options[i].why}"
    return (f"Apostaste {LETTERS[i]}); era {LETTERS[right]}), porque {q.options[right].why} "
            f"Lo de {LETTERS[i]}): {q.options[i].why}")


def after(key: str, choice) -> str:
    """The sentence of an option tried after the bet, labelled as such: it no longer changes the bet."""
    return f"Después de apostar (no cambia tu apuesta): {verdict(key, choice)}"


_kept: dict = {}  # key -> the first option chosen in this kernel: re-running the cell does not reopen the bet


def bet(key: str, choice=None):
    """The bet kept for ``key`` in this session (an index), recording ``choice`` if there is none yet; None if none."""
    q = question(key)
    if choice is not None and key not in _kept:
        _kept[key] = _index(q, choice)
    return _kept.get(key)


def __getattr__(name: str):
    # ask, the notebooks' helpers.predictions.ask("KEY"), is the widget's (helpers.widgets.prediction): the widget
    # depends on this pure module, and this one names it only when a notebook asks, never on import
    if name == "ask":
        from .widgets.prediction import ask
        return ask
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
