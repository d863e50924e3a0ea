"""Following an exercise as written keeps "Ejecutar todas" working.

Where an exercise's instruction is mechanical ("cambiá nn.ReLU() por nn.GELU() en la celda de la FFN"), this
applies it to a copy of the notebook and runs the copy top to bottom in a fresh kernel, as a learner's session
does: without LECCION06_STRICT, so a lesson claim the change makes false prints its note (that is what claims are
for) instead of failing. No cell may stop with an error: the learner would see it as the lesson breaking, not as
an answer. (The "Tu turno" exercises need no such run: tests/test_tu_turno.py shows no later cell depends on them.)
"""

from __future__ import annotations

import re

import nbclient
import nbformat
import pytest
from conftest import ROOT

from helpers.claims import STRICT_ENV

# (notebook, what the exercise says (in its markdown), the cell to change (a regex), the line's change)
EXERCISES = [
    ("01_ffn.ipynb", "Cambiá `nn.ReLU()` por `nn.GELU()` en la celda de la FFN", r"nn\.Sequential\(",
     (r"^(\s*)nn\.ReLU\(\),", r"\1nn.GELU(),")),
]


@pytest.mark.parametrize("name, what, cell, change", EXERCISES, ids=[e[1] for e in EXERCISES])
def test_exercise_as_written_keeps_the_notebook_running(name, what, cell, change, monkeypatch):
    notebook = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    assert any(what in c.source for c in notebook.cells if c.cell_type == "markdown"), (
        f"{name}: no exercise says {what!r} any more; update this table")
    cells = [c for c in notebook.cells if c.cell_type == "code" and re.search(cell, c.source)
             and re.search(change[0], c.source, re.M)]
    assert len(cells) == 1, f"{name}: the exercise's cell ({cell!r} with {change[0]!r}) is not exactly one cell"
    cells[0].source = re.sub(change[0], change[1], cells[0].source, count=1, flags=re.M)
    monkeypatch.delenv(STRICT_ENV, raising=False)  # the kernel starts with the learner's environment
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [(i, o["ename"], o["evalue"][:300]) for i, c in enumerate(notebook.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{name}, after '{what}': cells that stop with an error: {errors}"
