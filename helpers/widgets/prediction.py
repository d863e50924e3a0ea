"""A prediction question's answer buttons: a thin shell around helpers.predictions (first, after, bet), and ``ask``,
what a notebook calls (as helpers.predictions.ask, which names this one)."""

from __future__ import annotations

import html

import ipywidgets as W

from .. import predictions
from ..predictions import LETTERS, question
from ._saved import Saved

__all__ = ["Prediction", "ask"]


def __dir__():
    return __all__


class Prediction(Saved, W.VBox):
    """One button per option (a, b, c...). The first click is the bet: it stays, and is said back with the right
    option and why; a later click shows that option's sentence, labelled as after the bet. Asked with
    helpers.predictions.ask; the bet is kept for the session (helpers.predictions.bet), so re-running keeps it."""

    def __init__(self, key: str):
        self.key, self.question = key, question(key)
        self.buttons = [W.Button(description=f"{LETTERS[i]})", tooltip=o.text, layout=W.Layout(width="64px"))
                        for i, o in enumerate(self.question.options)]
        self.answer = W.HTML("<i>Elegí una opción: la primera que elijas es tu apuesta. Después corré la celda de "
                             "abajo.</i>")
        self.later = W.HTML()
        self.choice = self.looked = None
        for i, b in enumerate(self.buttons):
            b.on_click(lambda _, i=i: self.pick(i))
        super().__init__([W.HBox([W.Label("Tu apuesta:")] + self.buttons), self.answer, self.later])
        if predictions.bet(key) is not None:  # already bet in this session: the cell was re-run
            self.pick(predictions.bet(key))

    def pick(self, i: int) -> None:
        if self.choice is None:
            self.choice = predictions.bet(self.key, i)  # the session's first answer, if this is not it
            self.answer.value = (f"<div class='prediccion-respuesta'><b>Tu apuesta</b>: "
                                 f"{html.escape(predictions.first(self.key, self.choice))}</div>")
            for j, b in enumerate(self.buttons):
                b.button_style = "info" if j == self.choice else ""
            if i == self.choice:
                return
        self.looked = i
        self.later.value = f"<div class='prediccion-despues'>{html.escape(predictions.after(self.key, i))}</div>"

    def saved_text(self) -> str:
        return (f"Acá van los botones de tu apuesta ({', '.join(LETTERS[:len(self.buttons)])}): "
                "corré la celda para elegir.")


def ask(key: str) -> Prediction:
    """In a notebook: show the question (as HTML, readable unrun) and return its answer buttons."""
    from IPython.display import HTML, display

    widget = Prediction(key)
    display(HTML(question(key).html()))
    return widget
