"""Notebook 03's three interactions: thin shells around helpers.layernorm's pure functions."""

from __future__ import annotations

import html

import ipywidgets as W
from matplotlib.figure import Figure

from ..layernorm import InvalidInput, layer_norm_steps, parse_numbers, residual_layernorm_walkthrough
from ..plots import color
from ._image import draw_into, error_html, fmt, image
from ._saved import Saved

__all__ = ["FourNumbers", "GammaBeta", "StepByStep"]


def __dir__():
    return __all__


class FourNumbers(Saved, W.VBox):
    """'Ingresá 4 números': mean, variance, std and the normalized vector update as you type."""

    def __init__(self, initial=(2, 4, 6, 8)):
        if isinstance(initial, str) or not hasattr(initial, "__len__") or len(initial) != 4:
            n = f" ({len(initial)} valores)" if hasattr(initial, "__len__") and not isinstance(initial, str) else ""
            raise ValueError(f"initial debe tener 4 números, uno por casillero; recibí {initial!r}{n}")
        try:
            parse_numbers(list(initial))
        except InvalidInput as e:
            raise ValueError(f"initial: {e}") from None
        self.fields = [W.Text(value=str(v), description=f"x{i}", layout=W.Layout(width="150px"))
                       for i, v in enumerate(initial)]
        self.info, self.plot = W.HTML(), image()
        self.steps, self.error = None, ""
        super().__init__([W.HTML("<b>Ingresá 4 números</b> (punto o coma para decimales)"),
                          W.HBox(self.fields), self.info, self.plot])
        for field in self.fields:
            field.observe(self.update, names="value")
        self.update()

    def saved_text(self) -> str:
        return "Acá va el control «Ingresá 4 números»: corré la celda para usarlo."

    def update(self, change=None) -> None:
        try:
            self.steps, self.error = layer_norm_steps(parse_numbers(f.value for f in self.fields)), ""
        except InvalidInput as e:
            self.steps, self.error = None, str(e)
            self.info.value = error_html(self.error)
            self.plot.layout.display = "none"  # no plot rather than a plot of NaN
            return
        s = self.steps
        note = f"<div class='ln-note'>{html.escape(s.message())}</div>" if s.message() else ""
        fig = Figure(figsize=(8, 2.8))
        a1, a2 = fig.subplots(1, 2)
        a1.bar(range(4), s.x, color=color("input"))
        a1.set_title("antes: x")
        a2.bar(range(4), s.normalized, color=color("output"))
        a2.set_ylim(-2, 2)  # |x̂| <= sqrt(3) for 4 numbers: fixed axes, the bars move
        a2.set_title("después: x̂ (media 0, desvío 1)")
        for a in (a1, a2):
            a.set_xticks(range(4), [f"x{i}" for i in range(4)])
            a.axhline(0, color="black", lw=0.8)
        a1.set_ylabel("valor")
        fig.tight_layout()
        draw_into(self.plot, fig)  # the picture first, then the words (see SweepExplorer.update)
        self.plot.layout.display = None
        self.info.value = (
            f"<div class='ln-result'>media μ = {s.mean:.4f} · varianza σ² = {s.var:.4f} · "
            f"desvío σ = {s.std:.3f}<br>normalizado x̂ = {fmt(s.normalized)}</div>{note}")


class GammaBeta(Saved, W.VBox):
    """γ and β sliders on a normalized token, plotted on fixed axes so every move is visible."""

    def __init__(self, x=(0.80, 0.95, 0.93, 1.33)):
        self.base = layer_norm_steps(x)
        n = len(self.base.x)
        # 440 px per slider: a track of about 310 px, one 0.1 step every 5 px (124 px made a drag jump by 3)
        long = {"layout": W.Layout(width="440px"), "style": {"description_width": "28px"}}
        self.gammas = [W.FloatSlider(value=1.0, min=-3.0, max=3.0, step=0.1, description=f"γ{i}", **long)
                       for i in range(n)]
        self.betas = [W.FloatSlider(value=0.0, min=-2.0, max=2.0, step=0.1, description=f"β{i}", **long)
                      for i in range(n)]
        self.info, self.plot = W.HTML(), image()
        self.steps = None
        super().__init__([W.HTML("<b>Mové γ y β</b>: γ escala cada número, β lo corre"),
                          W.HBox([W.VBox(self.gammas), W.VBox(self.betas)]), self.info, self.plot])
        for s in self.gammas + self.betas:
            s.observe(self.update, names="value")
        self.update()

    def saved_text(self) -> str:
        return "Acá van los sliders de γ y β: corré la celda para usarlos."

    def update(self, change=None) -> None:
        self.steps = s = layer_norm_steps(self.base.x, [g.value for g in self.gammas],
                                          [b.value for b in self.betas])
        fig = Figure(figsize=(6, 3))
        ax = fig.subplots()
        pos = range(len(s.x))
        ax.bar([p - 0.2 for p in pos], s.normalized, 0.4, color=color("input"), label="x̂ (normalizado)")
        ax.bar([p + 0.2 for p in pos], s.output, 0.4, color=color("output"), label="γ ⊙ x̂ + β")
        ax.set_ylim(-7, 7)  # fixed: |γ| <= 3, |x̂| <= 1.74, |β| <= 2
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(list(pos), [f"dim {i}" for i in pos])
        ax.set_ylabel("valor")
        ax.set_title("La salida de LayerNorm con tus γ y β")
        ax.legend(loc="upper left")
        fig.tight_layout()
        draw_into(self.plot, fig)  # the picture first, then the words (see SweepExplorer.update)
        self.info.value = f"<div class='ln-result'>γ ⊙ x̂ + β = {fmt(s.output)}</div>"


class StepByStep(Saved, W.VBox):
    """'Siguiente paso': one token through residual + LayerNorm, one step per click."""

    def __init__(self, x=(0.50, 1.15, 0.78, 0.88), sublayer=(0.30, -0.20, 0.15, 0.45),
                 gamma=(1.2, 0.8, 1.0, 1.1), beta=(0.1, 0.0, -0.2, 0.3)):
        self.steps = residual_layernorm_walkthrough(x, sublayer, gamma, beta)
        self.shown = 1
        self.next_button = W.Button(description="Siguiente paso", button_style="primary")
        self.reset_button = W.Button(description="Empezar de nuevo")
        self.view = W.HTML()
        super().__init__([W.HTML("<b>Residual + LayerNorm, paso a paso</b> (el vector de «perro» después "
                                 "de la atención)"), W.HBox([self.next_button, self.reset_button]), self.view])
        self.next_button.on_click(lambda _: self.next())
        self.reset_button.on_click(lambda _: self.reset())
        self.render()

    def saved_text(self) -> str:
        return "Acá va el control «Siguiente paso» (residual + LayerNorm): corré la celda para usarlo."

    def next(self) -> None:
        self.shown = min(self.shown + 1, len(self.steps))
        self.render()

    def reset(self) -> None:
        self.shown = 1
        self.render()

    @property
    def current(self):
        return self.steps[self.shown - 1]

    def render(self) -> None:
        rows = "".join(
            f"<div class='ln-step'><b>{html.escape(s.title)}</b>: <code>{fmt(s.values, s.digits)}</code>"
            f"<br><small>{html.escape(s.text)}</small></div>" for s in self.steps[:self.shown])
        done = " · listo" if self.shown == len(self.steps) else ""
        self.next_button.disabled = self.shown == len(self.steps)
        self.view.value = f"<div class='ln-counter'>paso {self.shown} de {len(self.steps)}{done}</div>{rows}"
