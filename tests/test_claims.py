"""helpers.claim: a note that lets a learner's notebook go on, a hard failure under the test suite."""

from __future__ import annotations

import nbformat
import numpy as np
import pytest
import torch
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from helpers.claims import STRICT_ENV, ClaimFailed, claim


def test_the_suite_runs_strict():
    """conftest.py sets the variable, so every notebook kernel nbval starts inherits it."""
    import os

    assert os.environ.get(STRICT_ENV) == "1"


def test_a_claim_that_holds_says_nothing(capsys):
    claim(True, "post-norm queda en la referencia", "38.6 %")
    claim(np.bool_(True), "con numpy")
    claim(torch.tensor(True), "con un tensor de un elemento")
    assert capsys.readouterr().out == ""


def test_learner_session_gets_a_note_and_goes_on(monkeypatch, capsys):
    monkeypatch.delenv(STRICT_ENV, raising=False)
    claim(False, "pre-norm pasa el 80 % de acierto", "pre-norm dio 75.0 %")
    out = capsys.readouterr().out
    assert "La lección dice: pre-norm pasa el 80 % de acierto." in out
    assert "En esta corrida: pre-norm dio 75.0 %." in out
    assert "Si cambiaste algo más arriba" in out and "el notebook sigue" in out


def test_strict_run_fails_hard(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(ClaimFailed, match="La lección dice: pre-norm pasa el 80 %. En esta corrida: 75 %."):
        claim(False, "pre-norm pasa el 80 %", "75 %")
    assert issubclass(ClaimFailed, AssertionError)


@pytest.mark.parametrize("holds", [torch.tensor([True, False]), 0.5, "sí", None])
def test_the_condition_must_be_a_truth_value(holds):
    with pytest.raises(TypeError, match="verdadera o falsa"):
        claim(holds, "algo")


def test_the_statement_is_required():
    with pytest.raises(TypeError, match="frase de la lección"):
        claim(True, "")
    with pytest.raises(TypeError, match="un texto"):
        claim(True, "algo", got=0.75)


def _run(strict: bool, monkeypatch) -> nbformat.NotebookNode:
    if strict:
        monkeypatch.setenv(STRICT_ENV, "1")
    else:
        monkeypatch.delenv(STRICT_ENV, raising=False)
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('import helpers\nhelpers.claim(1 > 2, "uno es mayor que dos", "1 y 2")'),
        nbformat.v4.new_code_cell('print("la celda siguiente corrió")'),
    ])
    NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    return nb


def test_in_a_learner_kernel_the_notebook_goes_on(monkeypatch):
    nb = _run(False, monkeypatch)
    first = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert "La lección dice: uno es mayor que dos." in first and "En esta corrida: 1 y 2." in first
    assert "".join(o.get("text", "") for o in nb.cells[1].outputs) == "la celda siguiente corrió\n"


def test_in_a_test_kernel_the_notebook_stops(monkeypatch):
    with pytest.raises(CellExecutionError, match="ClaimFailed"):
        _run(True, monkeypatch)


@pytest.mark.parametrize("value", ["false", "no", "off", "FALSE", " Off ", "0", ""])
def test_strict_off_words_mean_off(monkeypatch, capsys, value):
    """Issue 32: LECCION06_STRICT=false (or no, off) was read as strict."""
    monkeypatch.setenv(STRICT_ENV, value)
    claim(False, "algo", "otra cosa")
    assert "La lección dice: algo." in capsys.readouterr().out


@pytest.mark.parametrize("value", ["1", "true", "yes", "on"])
def test_strict_on_words_mean_on(monkeypatch, value):
    monkeypatch.setenv(STRICT_ENV, value)
    with pytest.raises(ClaimFailed):
        claim(False, "algo")


@pytest.mark.parametrize("holds", [torch.tensor(3), torch.tensor([1]), torch.tensor(0.0), 3])
def test_only_booleans_are_truth_values(holds):
    """Issue 32: an integer tensor was taken as a truth value while the integer 3 was refused."""
    with pytest.raises(TypeError, match="claim espera una condición verdadera o falsa"):
        claim(holds, "algo")
