"""What a saved notebook shows for a widget nobody runs (helpers/widgets/_saved.py): its text/plain, which both
ipywidgets 7 (Colab's: _ipython_display_) and 8 (_repr_mimebundle_) take from repr(widget), cut at 110 characters.
It must be a Spanish sentence saying what the control is and to run the cell, never the Python repr."""

from __future__ import annotations

import re
from unittest import mock

import ipywidgets
import pytest

from helpers import widgets
from helpers.widgets._saved import LIMIT

MADE = {
    "FourNumbers": lambda: widgets.FourNumbers(),
    "StepByStep": lambda: widgets.StepByStep(),
    "GammaBeta": lambda: widgets.GammaBeta(),
    "SweepExplorer": lambda: widgets.SweepExplorer(n_layers=12, norm="post", warmup=0),
    "Prediction": lambda: widgets.Prediction("02-depth96"),
}


def stored_text(w) -> str:
    """The text/plain a notebook stores for ``w``, from whichever path this ipywidgets uses."""
    if hasattr(w, "_repr_mimebundle_"):  # ipywidgets 8
        return w._repr_mimebundle_()["text/plain"]
    shown = []
    with mock.patch("ipywidgets.widgets.widget.display", lambda data, raw: shown.append(data)):
        w._ipython_display_()  # ipywidgets 7
    return shown[0]["text/plain"]


def test_every_widget_class_is_listed():
    assert set(MADE) == set(widgets.__all__)


@pytest.mark.parametrize("name", MADE)
def test_a_stored_widget_reads_as_a_spanish_sentence(name):
    text = stored_text(MADE[name]())
    assert len(text) <= LIMIT and "…" not in text, f"{name}: cut by ipywidgets ({len(text)} > {LIMIT}): {text!r}"
    assert "corré la celda" in text and text.endswith("."), text
    assert not re.search(r"\w+\(|children=|value=|'", text), f"{name}: Python repr, not a sentence: {text!r}"


def test_the_prediction_names_its_options():
    assert "(a, b, c, d)" in stored_text(widgets.Prediction("05-depth"))
    assert "(a, b, c)" in stored_text(widgets.Prediction("04-mask"))


def test_ipywidgets_version_is_one_of_those_checked():
    assert ipywidgets.__version__.split(".")[0] in ("7", "8")
