"""Which cells a graded run executes (helpers.grading._needed): what the checks need, transitively, and nothing that
only trains or draws for the lesson. Pure Python on cell sources: no kernel runs here."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

from helpers import grading
from helpers.grading._needed import needed


def cells(*sources):
    return [{"cell_type": "code", "source": s} for s in sources]


def test_a_cell_nobody_reads_is_not_run():
    nb = cells("import helpers", "perdida = entrenar_mucho()", "def f(x):\n    return x", "helpers.check.c(f)")
    assert needed(nb, {0, 2, 3}, {"helpers", "f"}) == [0, 2, 3]


def test_what_a_function_reads_is_run_and_so_is_what_that_reads():
    nb = cells("import torch", "escala = torch.ones(1)", "grande = entrenar()", "def f(x):\n    return x * escala",
               "helpers.check.c(f)")
    assert needed(nb, {3, 4}, {"f"}) == [0, 1, 3, 4]


def test_a_global_a_function_reads_resolves_to_its_last_binding_too():
    # the otter tests call f after every cell ran: the cell that rebinds escala after f must run as well
    nb = cells("escala = 1", "def f(x):\n    return x * escala", "escala = 2", "figura = dibujar(escala)")
    assert needed(nb, {1}, {"f"}) == [0, 1, 2]


def test_names_local_to_a_function_or_comprehension_are_not_globals():
    nb = cells("x = 3", "def entrenar():\n    x = 0\n    return [y for y in range(x)]", "def f():\n    return x")
    assert needed(nb, {2}, {"f"}) == [0, 2]


def test_changing_an_object_runs_the_cell_that_made_it_and_the_one_that_changed_it():
    nb = cells("m = Modelo()", "m.capas[0] = otra()", "m.peso += 1", "dibujar(m)", "def f():\n    return m(1)")
    assert needed(nb, {4}, {"f"}) == [0, 1, 2, 4]


def test_a_cell_python_cannot_parse_is_run():
    nb = cells("import helpers", "def roto(:", "lento = 1", "helpers.check.c(roto)")
    assert needed(nb, {3}, {"helpers"}) == [0, 1, 3]


def test_magics_do_not_stop_the_reading():
    # a magic inside an indented block is read as `pass` at its indentation: the cell is understood, so what it
    # reads (datos) runs before it, and a magic cell nobody needs does not run
    nb = cells("datos = 1", "if True:\n    %time x = 2\ny = datos", "%matplotlib inline\ngrande = entrenar()",
               "def f():\n    return y")
    assert needed(nb, {3}, {"f"}) == [0, 1, 3]


def test_markdown_cells_are_never_run():
    nb = [{"cell_type": "markdown", "source": "x = 1"}, *cells("def f():\n    return x")]
    assert needed(nb, {0, 1}, {"f"}) == [1]


@pytest.mark.parametrize("stem, skipped, kept", [
    ("05_norm_placement", "def entrenar(", None),         # section 3 trains two 12-layer stacks for its picture
    ("02b_96_capas", "helpers.depth.Stack(", None),  # its 96-layer stacks (section 6 of 02 until 02b took them)
    # BloquePre subclasses nn.Module, not BloquePaper; BloquePaper's cell runs because both classes assign
    # `self.x = ...`, which the reader takes for a shared global `self` (one cell too many, no training)
    ("04_encoder_block", "train_pair(", "class BloquePaper("),
])
def test_the_lessons_graded_runs_skip_their_training(stem, skipped, kept):
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    student = grading.student_copy(nb, stem)
    tasks = grading.exercises(student)
    src = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in student["cells"]]
    setup = next(i for i, s in enumerate(src) if "import helpers" in s)
    keep = needed(student["cells"], {setup} | {t.stub for t in tasks} | {t.check for t in tasks},
                  {"helpers"} | {t.variable for t in tasks})
    assert any(skipped in s for s in src) and not any(skipped in src[i] for i in keep)
    assert kept is None or any(kept in src[i] for i in keep)
    assert {t.stub for t in tasks} | {t.check for t in tasks} <= set(keep)
