"""One palette and a few plotting conveniences for the whole series."""

from __future__ import annotations

import base64
import html
import io
import string
import types

import matplotlib
import matplotlib.axes
import matplotlib.figure
import matplotlib.ticker

from .fmt import thousands
from .toydata import COUNT_BASELINE, ESCAPE_THRESHOLD

__all__ = ["COLORS", "LINESTYLES", "MARKERS", "block_diagram", "color", "draw_exploration", "label_bars", "show",
           "use_house_style"]


def __dir__():
    return __all__

# Same thing, same colour, in every notebook. Okabe & Ito's colour-blind-safe palette: every pair that shares a
# figure stays apart under deuteranopia, protanopia and tritanopia (tests/test_palette.py measures it), and where
# colour carries the meaning a line style or marker carries it too (LINESTYLES, MARKERS below).
COLORS = {
    "post-norm": "#D55E00",   # vermillion
    "pre-norm": "#0072B2",    # blue
    "sandwich": "#CC79A7",    # reddish purple
    "baseline": "#555555",    # dark grey, drawn dashed
    "residual": "#009E73",    # bluish green: with residual
    "plain": "#E69F00",       # orange: without residual
    "layernorm only": "#56B4E9",  # sky blue: LayerNorm without residual (notebook 02, 96 layers)
    "residual only": "#000000",   # black: residual without LayerNorm (same figure; green is too close to pre-norm)
    "relu": "#0072B2",
    "gelu": "#E69F00",
    "input": "#BBBBBB",       # light grey: what goes in
    "output": "#009E73",
    "class 0": "#0072B2",     # the two classes of a toy data set
    "class 1": "#E69F00",
    "layernorm": "#F0E442",   # yellow: a LayerNorm box in a diagram, wherever it sits
    "masked": "#0072B2",      # notebook 04b's experiment: trained with the causal mask (blue, solid)
    "unmasked": "#D55E00",    # and without it (vermillion, dashed)
    # the class report of helpers.grading: how a class did in one exercise (each bar also labelled, some hatched)
    "correct": "#009E73",         # bluish green
    "known mistake": "#D55E00",   # vermillion: one of the checker's named mistakes
    "other mistake": "#555555",   # dark grey, cross-hatched
    "not attempted": "#BBBBBB",   # light grey, striped
}


def use_house_style() -> None:
    """Readable defaults for every figure of the series (size, grid, no top/right spines)."""
    matplotlib.rcParams.update({
        "figure.figsize": (7.0, 4.0),
        "figure.dpi": 90,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.titlesize": 12,
        "axes.labelsize": 11,
        "legend.frameon": False,
    })


def color(name: str) -> str:
    """Colour of a named thing of the series; raises with the known names if it is not one."""
    try:
        return COLORS[name]
    except (KeyError, TypeError):
        raise KeyError(f"name debe ser un nombre de la paleta, {', '.join(sorted(COLORS))}; "
                       f"recibí {name!r}") from None


def _axes(ax, who: str):
    """A single matplotlib Axes, or a message that says how to get one."""
    if not isinstance(ax, matplotlib.axes.Axes):
        hint = (": pediste varios ejes; elegí uno, por ejemplo ax[0]" if type(ax).__name__ == "ndarray" else
                ": pasaste el módulo pyplot (plt); creá los ejes con fig, ax = plt.subplots() y pasá ax"
                if isinstance(ax, types.ModuleType) else
                ": esa es la figura; sus ejes son fig.axes[0]" if isinstance(ax, matplotlib.figure.Figure) else "")
        raise TypeError(f"{who}: ax debe ser un eje de matplotlib (el ax de fig, ax = plt.subplots()); "
                        f"recibí {type(ax).__name__}{hint}")
    return ax


def _formatter(template):
    """label_bars' fmt as a function of one number: '{:.2f}' (str.format) or '%.2f' (printf, as ax.bar_label takes)."""
    expected = "fmt debe ser un formato con un lugar para el número, como '{:.2f}', '{:.0%}' o '%.2f'"
    if not isinstance(template, str):
        raise TypeError(f"label_bars: {expected}; recibí {template!r}")
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError:
        fields = None
    try:
        if fields is not None and len(fields) == 1 and fields[0] in ("", "0"):
            template.format(0.5)
            return template.format
        if not fields and "%" in template:
            _ = template % 0.5  # does it take one number?
            return lambda v: template % v
    except (ValueError, TypeError, IndexError, KeyError):
        pass
    raise ValueError(f"label_bars: {expected}; recibí {template!r}")


def label_bars(ax, bars, fmt: str = "{:.2f}") -> None:
    """Write each bar's value at its end (on top; beside for ax.barh); ``fmt`` like '{:.2f}' or, as in
    ax.bar_label, '%.2f'."""
    _axes(ax, "label_bars")
    write = _formatter(fmt)
    horizontal = getattr(bars, "orientation", "vertical") == "horizontal"  # ax.barh: the value is the width
    bars = list(bars)
    if not all(hasattr(b, "get_height") for b in bars):
        raise TypeError(f"label_bars: bars debe ser lo que devuelve ax.bar(...) o ax.barh(...); recibí {bars!r:.80}")
    for bar in bars:
        if horizontal:
            w = bar.get_width()
            ax.annotate(write(w), (w, bar.get_y() + bar.get_height() / 2), ha="left" if w >= 0 else "right",
                        va="center", fontsize=9, xytext=(2 if w >= 0 else -2, 0), textcoords="offset points")
            continue
        h = bar.get_height()
        ax.annotate(write(h), (bar.get_x() + bar.get_width() / 2, h),
                    ha="center", va="bottom" if h >= 0 else "top", fontsize=9,
                    xytext=(0, 2 if h >= 0 else -2), textcoords="offset points")


_STAGES = {
    "post": ["x", "Subcapa", "+", "LayerNorm", "x'"],
    "pre": ["x", "LayerNorm", "Subcapa", "+", "x'"],
    "sandwich": ["x", "LayerNorm", "Subcapa", "LayerNorm", "+", "x'"],
}
_TITLES = {"post": "post-norm (paper, 2017): x' = LN(x + Subcapa(x))",
           "pre": "pre-norm (GPT-2 y después): x' = x + Subcapa(LN(x))",
           "sandwich": "sándwich (Gemma 2 y 3): x' = x + LN(Subcapa(LN(x)))"}


def block_diagram(ax, norm: str) -> None:
    """Draw one sublayer wrapped with residual + LayerNorm in placement ``norm`` on ``ax``."""
    if not isinstance(norm, str) or norm not in _STAGES:
        raise ValueError(f"block_diagram: norm debe ser uno de {list(_STAGES)}; recibí {norm!r}")
    _axes(ax, "block_diagram")
    stages = _STAGES[norm]
    xs = [i * 1.6 for i in range(len(stages))]
    fill = {"LayerNorm": color("layernorm"), "Subcapa": "#dddddd", "+": "white"}
    for x, s in zip(xs, stages):
        if s in ("x", "x'"):
            ax.text(x, 0, s, ha="center", va="center", fontsize=12, fontweight="bold")
            continue
        box = {"boxstyle": "circle" if s == "+" else "round,pad=0.4", "fc": fill[s], "ec": "black", "alpha": 0.9}
        ax.text(x, 0, s, ha="center", va="center", fontsize=10, bbox=box)
    for a, b in zip(xs, xs[1:]):
        ax.annotate("", (b - 0.55, 0), (a + 0.55, 0), arrowprops={"arrowstyle": "->"})
    plus = xs[stages.index("+")]
    green = color("residual")
    ax.plot([xs[0], xs[0], plus], [0.2, 0.65, 0.65], color=green, lw=1.5)
    ax.annotate("", (plus, 0.2), (plus, 0.66), arrowprops={"arrowstyle": "->", "color": green, "lw": 1.5})
    ax.text((xs[0] + plus) / 2, 0.72, "camino residual: x se suma tal cual", ha="center", color=green,
            fontsize=9)
    ax.set_xlim(-0.6, xs[-1] + 0.6)
    ax.set_ylim(-0.6, 1.1)
    ax.set_title(_TITLES[norm], fontsize=11, loc="left")
    ax.axis("off")


# post-norm solid with filled circles, pre-norm dashed with squares: colour is never the only cue
LINESTYLES = {"post": "-", "pre": "--"}
MARKERS = {"post": "o", "pre": "s"}


def draw_exploration(ax, exploration) -> None:
    """Learning curves of a helpers.sweep.explore() result: the 60 % threshold, the 'always 0' baseline,
    each run's escape step (a marker) or, for a run that never left, an open marker at its last step."""
    _axes(ax, "draw_exploration")
    if not hasattr(exploration, "curves"):
        raise TypeError(f"draw_exploration: exploration debe ser lo que devuelve helpers.sweep.explore(...); recibí "
                        f"{type(exploration).__name__}")
    labelled = set()
    for c in exploration.curves:
        col = color(f"{c.norm}-norm")
        label = f"{c.norm}-norm" if c.norm not in labelled else None
        labelled.add(c.norm)
        ax.plot(c.steps, c.acc, LINESTYLES[c.norm], color=col, lw=1.6, alpha=0.85, label=label)
        if c.escape is not None:
            ax.plot([c.escape], [c.acc[c.steps.index(c.escape)]], MARKERS[c.norm], color=col, ms=7, zorder=3)
        else:
            ax.plot([c.steps[-1]], [c.acc[-1]], MARKERS[c.norm], mfc="white", mec=col, mew=1.5, ms=8, zorder=3)
    ax.axhline(ESCAPE_THRESHOLD, ls=":", color="black", lw=1, label=f"umbral: {ESCAPE_THRESHOLD * 100:.0f} %")
    ax.axhline(COUNT_BASELINE, ls="--", color=color("baseline"), lw=1,
               label=f"siempre «0»: {COUNT_BASELINE * 100:.1f} %")
    ax.plot([], [], "o", color="dimgray", label="sale de la meseta")
    if any(c.escape is None for c in exploration.curves):
        last = max(c.steps[-1] for c in exploration.curves)
        ax.plot([], [], "o", mfc="white", mec="dimgray", mew=1.5, label=f"no salió en {thousands(last)} pasos")
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("paso de entrenamiento")
    ax.set_ylabel("acierto en 500 secuencias nuevas")
    seeds = "todas las semillas" if exploration.seed is None else f"semilla {exploration.seed}"
    warm = "sin warmup" if exploration.warmup == 0 else f"warmup {exploration.warmup}"
    ax.set_title(f"{exploration.n_layers} capas, {warm}, {seeds}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9)  # outside: no curve under it


def _in_ipython() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


def show(fig, alt: str) -> None:
    """Show ``fig`` with Spanish alt text, the house's last line of a figure cell (instead of plt.show()).

    The figure goes out as an <img> with that alt text (JupyterLab, Colab and the site all read it) and the
    alt text as the plain-text version; the figure is then closed so it is not shown twice.
    """
    if not isinstance(alt, str) or len(alt.strip()) < 30:
        raise ValueError(f"show: alt debe describir la figura en una o dos oraciones (qué muestra y su número "
                         f"principal), no {alt!r}")
    if not isinstance(fig, matplotlib.figure.Figure):
        hint = (": pasaste el módulo pyplot (plt); pasá la figura, fig" if isinstance(fig, types.ModuleType) else
                ": esos son los ejes; su figura es ax.figure" if isinstance(fig, matplotlib.axes.Axes) else "")
        raise TypeError(f"show: fig debe ser la figura (el fig de fig, ax = plt.subplots()); recibí "
                        f"{type(fig).__name__}{hint}")
    import matplotlib.pyplot as plt  # pyplot only where figures are shown
    if not _in_ipython():  # a plain script: nobody takes the HTML, so the alt text and, where it can, a window
        print(f"Figura: {alt.strip()}")
        if "agg" not in matplotlib.get_backend().lower():
            plt.show()
        plt.close(fig)
        return
    from IPython.display import display
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight", dpi=2 * fig.dpi)  # 2x pixels: sharp on HiDPI screens
    width = int.from_bytes(buf.getvalue()[16:20], "big") // 2  # shown at half its pixels, never stretched
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    img = (f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt.strip())}" '
           f'style="max-width: 100%; width: {width}px">')
    display({"text/html": img, "text/plain": alt.strip()}, raw=True)
    plt.close(fig)
