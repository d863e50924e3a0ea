"""One palette and a few plotting conveniences for the whole series."""

from __future__ import annotations

import matplotlib as mpl

# Same thing, same colour, in every notebook.
COLORS = {
    "post-norm": "#d62728",   # red
    "pre-norm": "#1f77b4",    # blue
    "sandwich": "#9467bd",    # purple
    "baseline": "#7f7f7f",    # grey, drawn dashed
    "residual": "#2ca02c",    # green: with residual
    "plain": "#ff7f0e",       # orange: without residual
    "relu": "#1f77b4",
    "gelu": "#ff7f0e",
    "input": "#8c8c8c",
    "output": "#2ca02c",
    "class 0": "#17becf",     # the two classes of a toy data set
    "class 1": "#bcbd22",
}


def use_house_style() -> None:
    """Readable defaults for every figure of the series (size, grid, no top/right spines)."""
    mpl.rcParams.update({
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
    except KeyError:
        raise KeyError(f"color: no hay color para {name!r}; los nombres son {sorted(COLORS)}") from None


def label_bars(ax, bars, fmt: str = "{:.2f}") -> None:
    """Write each bar's value on top of it."""
    for bar in bars:
        h = bar.get_height()
        ax.annotate(fmt.format(h), (bar.get_x() + bar.get_width() / 2, h),
                    ha="center", va="bottom" if h >= 0 else "top", fontsize=9,
                    xytext=(0, 2 if h >= 0 else -2), textcoords="offset points")
