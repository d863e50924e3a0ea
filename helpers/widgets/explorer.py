"""Notebook 05's sweep explorer: a thin shell around helpers.sweep.explore and helpers.plots.draw_exploration."""

from __future__ import annotations

import html

import ipywidgets as W
from matplotlib.figure import Figure

from ..plots import draw_exploration
from ..sweep import N_LAYERS, NORM_CHOICES, SEEDS, WARMUPS, explore, load
from ._image import draw_into, image
from ._saved import Saved

__all__ = ["SweepExplorer"]


def __dir__():
    return __all__


class SweepExplorer(Saved, W.VBox):
    """Notebook 05's stored sweep: choose depth, placement, warmup and seed; see the curves and escape steps."""

    def __init__(self, n_layers: int = 12, norm: str = "ambas", warmup: int = 0, seed="todas"):
        self._data = load()
        explore(n_layers, norm, warmup, seed, self._data)  # a bad starting value fails here, by name
        buttons = {"style": {"button_width": "90px"}}
        self.n_layers = W.ToggleButtons(options=[(str(n), n) for n in N_LAYERS], value=n_layers,
                                        description="capas", **buttons)
        names = {"post": "post-norm", "pre": "pre-norm", "ambas": "las dos"}
        self.norm = W.ToggleButtons(options=[(names[n], n) for n in NORM_CHOICES], value=norm, description="norma",
                                    **buttons)
        self.warmup = W.Dropdown(options=[("sin warmup", 0)] + [(f"{w} pasos", w) for w in WARMUPS[1:]],
                                 value=warmup, description="warmup", layout=W.Layout(width="220px"))
        self.seed = W.Dropdown(options=[("todas", "todas")] + [(str(s), s) for s in SEEDS], value=seed,
                               description="semilla", layout=W.Layout(width="220px"))
        self.info, self.plot = W.HTML(), image()
        self.exploration = None
        super().__init__([W.HTML("<b>Explorá el barrido</b>: elegí y mirá cuándo sale cada corrida de la meseta"),
                          self.n_layers, self.norm, W.HBox([self.warmup, self.seed]), self.info, self.plot])
        for control in (self.n_layers, self.norm, self.warmup, self.seed):
            control.observe(self.update, names="value")
        self.update()

    def saved_text(self) -> str:
        return "Acá va el explorador del barrido (capas, norma, warmup, semilla): corré la celda para usarlo."

    def update(self, change=None) -> None:
        e = self.exploration = explore(self.n_layers.value, self.norm.value, self.warmup.value, self.seed.value,
                                       self._data)
        rows = "".join(f"<li>{html.escape(c.sentence())}</li>" for c in e.curves)
        missing = "".join(f"<div class='sweep-missing'>{html.escape(m)}</div>" for m in e.missing)
        if e.curves:  # the picture first, then the words: a page that shows the new words shows its picture
            fig = Figure(figsize=(8.8, 3.6))
            draw_exploration(fig.subplots(), e)
            fig.tight_layout()
            draw_into(self.plot, fig)
            self.plot.layout.display = None
        else:  # nothing to draw: say so, no empty axes
            self.plot.layout.display = "none"
        self.info.value = (f"<ul class='sweep-result'>{rows}</ul>" if rows else "") + missing
