"""Following an exercise as written keeps "Ejecutar todas" working.

Where an exercise's instruction is mechanical ("cambiá nn.ReLU() por nn.GELU() en la celda de la FFN"),
this applies it to a copy of the notebook and runs the copy top to bottom in a fresh kernel: no cell may
stop with an error, since the learner would see it as the lesson breaking, not as an answer.
"""

from __future__ import annotations

import nbclient
import nbformat
import pytest
from conftest import ROOT

# (notebook, what the exercise says, text in the cell to change, replacement)
EXERCISES = [
    ("01_ffn.ipynb", "ejercicio 3: nn.GELU() en vez de nn.ReLU() en la FFN de la sección 2",
     "    nn.ReLU(),                 # max(0, ·)", "    nn.GELU(),"),
]


@pytest.mark.parametrize("name, what, old, new", EXERCISES, ids=[e[1] for e in EXERCISES])
def test_exercise_as_written_keeps_the_notebook_running(name, what, old, new):
    notebook = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    cells = [c for c in notebook.cells if c.cell_type == "code" and old in c.source]
    assert len(cells) == 1, f"{name}: the exercise's cell ({old!r}) is not exactly one cell any more"
    cells[0].source = cells[0].source.replace(old, new)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [(i, o["ename"], o["evalue"]) for i, c in enumerate(notebook.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{name}, after '{what}': cells that stop with an error: {errors}"
