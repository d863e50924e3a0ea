"""Figures inside widgets: drawn at twice the pixels they are shown with, and shown at their own width
(never stretched to the output area), so their text is sharp on every screen."""

from __future__ import annotations

import html
import io

import ipywidgets as W
from matplotlib.figure import Figure

__all__ = ["CSS_DPI", "PIXEL_RATIO", "draw_into", "error_html", "fmt", "image", "png"]

CSS_DPI = 90     # figure inches -> CSS pixels on the page (the house style's figure.dpi)
PIXEL_RATIO = 2  # drawn at twice that: sharp on high-density screens, and never blurred by stretching


def png(fig: Figure) -> bytes:
    """PNG bytes of an off-screen figure, drawn at PIXEL_RATIO x CSS_DPI."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=CSS_DPI * PIXEL_RATIO)
    return buf.getvalue()


def image() -> W.Image:
    """An Image widget that keeps the picture's own size (flex boxes would stretch it to the full width)."""
    return W.Image(format="png", layout=W.Layout(max_width="100%", height="auto", align_self="flex-start"))


def draw_into(widget: W.Image, fig: Figure) -> None:
    """Draw ``fig`` into the Image ``widget`` at its own CSS width."""
    widget.value = png(fig)
    widget.width = str(round(fig.get_figwidth() * CSS_DPI))


def fmt(values, digits: int = 3) -> str:
    """'[-1.342, -0.447, ...]' with a fixed number of decimals."""
    return "[" + ", ".join(f"{v:.{digits}f}" for v in values) + "]"


def error_html(message: str) -> str:
    return f"<div class='ln-error' style='color:#b00020'>⚠ {html.escape(message)}</div>"
