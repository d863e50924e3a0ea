"""The series' palette stays readable for the three common colour-vision deficiencies.

Every pair of palette colours that appears in one figure is simulated (colorspacious, severity 100) under
deuteranopia, protanopia and tritanopia and must stay at least MIN_DISTANCE apart in CAM02-UCS (ΔE′). Which
colours share a figure is read from the notebooks' figure cells (the names they pass to helpers.plots.color)
plus the helpers that draw their own figures.

Why 12: ΔE′ ≈ 1 is a just-noticeable difference between two large patches; lines 1.5 px wide and markers of a
few pixels need an order of magnitude more to be told apart at a glance. Measured: the old tab10-based palette
had residual/plain at 1.6 under protanopia (the same colour); Okabe and Ito's palette, the one now in
helpers.plots, keeps every pair at 14.0 or more (pre-norm/sandwich under protanopia is the closest).
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE
from conftest import NOTEBOOKS, load

from helpers.plots import COLORS

MIN_DISTANCE = 12.0
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
# figures drawn by helpers themselves: the colours each one puts together
HELPER_FIGURES = {
    "widgets.FourNumbers / GammaBeta": {"input", "output"},
    "plots.draw_exploration": {"post-norm", "pre-norm", "baseline"},
    "plots.block_diagram": {"layernorm", "residual"},
    "grading report (helpers.grading._report)": {"correct", "known mistake", "other mistake", "not attempted"},
}


def _rgb(hex_color: str) -> np.ndarray:
    h = hex_color.lstrip("#")
    return np.array([int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)])


def _seen(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    cvd = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    return np.clip(cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


def distance(a: str, b: str, deficiency: str) -> float:
    return float(deltaE(_seen(_rgb(COLORS[a]), deficiency), _seen(_rgb(COLORS[b]), deficiency),
                        input_space="sRGB1"))


def palette_names(src: str) -> set[str]:
    """The palette names a cell writes as strings, but for subscript keys: in 02's `t96[init, "residual"]`,
    "residual" names a stack, not a colour (a list literal such as `["post-norm", "pre-norm"]` still counts)."""
    without_keys = re.sub(r"(?<=[\w)\]])\[[^\[\]]*\]", "[]", src)
    return {n for n in COLORS if f'"{n}"' in without_keys}


def figure_groups() -> dict[str, set[str]]:
    """{where: palette names used together} for every notebook cell that shows a figure, and the helpers'."""
    groups = dict(HELPER_FIGURES)
    for path in NOTEBOOKS:
        for cell in load(path)["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or "plots.show(" not in src:
                continue
            names = palette_names(src)
            if re.search(r'f"\{\w+\}-norm"', src):
                names |= {"post-norm", "pre-norm"} | ({"sandwich"} if '"sandwich"' in src else set())
            if 'f"class {k}"' in src:
                names |= {"class 0", "class 1"}
            if len(names) > 1:
                groups[f"{path.name}, cell {cell.get('id')}"] = names
    return groups


def test_a_subscript_key_is_not_a_colour_but_a_list_of_names_is():
    src = 'for n in ["post-norm", "pre-norm"]:\n    ax.annotate(f"{t96[init, \'residual\']}")\nt96[i, "residual"]'
    assert palette_names(src) == {"post-norm", "pre-norm"}
    assert palette_names('color=helpers.plots.color("residual")') == {"residual"}


def test_every_figure_is_found():
    groups = figure_groups()
    assert sum(k.endswith(tuple("0123456789")) or "cell" in k for k in groups) >= 10, sorted(groups)


@pytest.mark.parametrize("where, names", sorted(figure_groups().items()), ids=sorted(figure_groups()))
def test_colours_that_share_a_figure_stay_apart(where, names):
    close = [(a, b, d, round(distance(a, b, d), 1)) for a, b in itertools.combinations(sorted(names), 2)
             for d in DEFICIENCIES if COLORS[a] != COLORS[b] and distance(a, b, d) < MIN_DISTANCE]
    assert not close, f"{where}: colours too close for a colour-blind reader (ΔE′ < {MIN_DISTANCE}): {close}"


def test_the_test_can_fail():
    """The old palette (matplotlib's tab10) put 'residual' and 'plain' at ΔE′ 1.6 under protanopia."""
    old = {"residual": "#2ca02c", "plain": "#ff7f0e"}
    seen = [_seen(_rgb(c), "protanomaly") for c in old.values()]
    assert float(deltaE(*seen, input_space="sRGB1")) < MIN_DISTANCE
