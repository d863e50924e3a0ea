"""A prediction question's answer buttons: a thin shell around helpers.predictions.verdict."""

from __future__ import annotations

import html

import ipywidgets as W

from ..predictions import LETTERS, question, verdict

__all__ = ["Prediction"]


def __dir__():
    return __all__


class Prediction(W.VBox):
    """One button per option (a, b, c...); a click shows that option's sentence. Asked with helpers.predictions.ask."""

    def __init__(self, key: str):
        self.key, self.question = key, question(key)
        self.buttons = [W.Button(description=f"{LETTERS[i]})", tooltip=o.text, layout=W.Layout(width="64px"))
                        for i, o in enumerate(self.question.options)]
        self.answer = W.HTML("<i>Elegí una opción; después corré la celda de abajo.</i>")
        self.choice = None
        for i, b in enumerate(self.buttons):
            b.on_click(lambda _, i=i: self.pick(i))
        super().__init__([W.HBox([W.Label("Tu apuesta:")] + self.buttons), self.answer])

    def pick(self, i: int) -> None:
        self.choice = i
        for j, b in enumerate(self.buttons):
            b.button_style = "info" if j == i else ""
        self.answer.value = f"<div class='prediccion-respuesta'>{html.escape(verdict(self.key, i))}</div>"

    def __repr__(self) -> str:  # the text nbval compares: the same under ipywidgets 7 and 8
        return f"Prediction({self.key!r}): opciones {', '.join(LETTERS[:len(self.buttons)])}"
