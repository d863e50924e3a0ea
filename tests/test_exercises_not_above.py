"""The answer to a "Tu turno" exercise is never on the page above it (issue 20, item 1), nor below it outside its
folded «Solución» (issue 31: the answer one deliberate step away).

For each exercise, every function and class that the notebook's code cells define (all but the exercise's own
stub) is handed to the exercise's checker: none may be called correct (a learner could copy it). A name bound to
``helpers.check.<name>.working(...)`` is the learner's answer or a reference whose code the page does not show: it is
defined (as the reference) but not a candidate. The definitions are made without running the
notebook: in a fresh namespace with what the setup cell imports (torch, nn, F, helpers), the cells' own imports,
their top-level constants (literals only) and their `def`/`class` statements and lambdas, each on its own.

That is enough because a checker calls a candidate only with its own probe inputs: what a candidate returns depends
on its code, the modules it imports and the module-level constants it reads. A function that needs a value the
notebook computes at run time (a trained model, a dataset, a random matrix) fails here with a NameError; it also
could not be a general answer to the exercise, which must work on the checker's inputs alone. A definition that
cannot even be made this way (a default argument or a decorator computed at run time) fails this test by name, so
nothing goes unchecked silently. Cost: no kernel; each call is stopped after 1 s (the notebook's training
functions, handed probe inputs, would train for a while), so a notebook costs a few seconds at most.
"""

from __future__ import annotations

import ast
import re
import types

import nbformat
import pytest
import torch
import torch._dynamo  # noqa: F401  (loaded now: a 1 s cut must never land inside its import, which left it half-loaded)
import torch.nn.functional as F
from conftest import NOTEBOOKS
from torch import nn

import helpers
from helpers import check, lesson
from helpers.check import _core


def _cases():
    for path in NOTEBOOKS:
        for ex in lesson.exercise_cells(lesson.read(path)):
            yield pytest.param(path, ex.stub, ex.name, id=f"{path.stem}-{ex.name}")


WORKING = re.compile(r"^helpers\.check\.(\w+)\.working$")


def _working(node) -> str | None:
    """The exercise of ``name = helpers.check.<exercise>.working(...)``, else None."""
    call = node.value if isinstance(node, ast.Assign) else None
    m = WORKING.match(ast.unparse(call.func)) if isinstance(call, ast.Call) else None
    return m[1] if m else None


def _statements(code: str):
    """The top-level statements worth defining: imports, def/class, name = lambda, NAME = literal, and
    name = helpers.check.<exercise>.working(...) (as the exercise's reference, what a stub gets)."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    for node in ast.parse(code).body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            yield node
        elif isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            if _working(node):
                node.value = ast.parse(f"helpers.check.{_working(node)}.reference", mode="eval").body
                node.working = True
                yield node
            elif isinstance(node.value, ast.Lambda):
                yield node
            else:
                try:
                    ast.literal_eval(node.value)
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    continue
                yield node


def defined_above(cells) -> tuple[dict, list[str]]:
    """{name: function or class} defined by ``cells``' code, and the definitions that could not be made."""
    namespace = {"torch": torch, "nn": nn, "F": F, "helpers": helpers, "__name__": "notebook"}
    candidates, failed = {}, []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for node in _statements(cell.source):
            module = ast.Module(body=[node], type_ignores=[])
            try:
                exec(compile(module, "<notebook cell>", "exec"), namespace)  # the notebook's own code
            except Exception as e:  # a definition that cannot run here is no answer
                failed.append(f"{ast.unparse(node).splitlines()[0]} ({type(e).__name__}: {e})")
                continue
            if getattr(node, "working", False):
                continue  # defined for the cells that use it, but its code is not on the page
            names = ([node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef))
                     else [t.id for t in getattr(node, "targets", [])])
            for name in names:
                value = namespace[name]
                if isinstance(value, (types.FunctionType, type)):
                    candidates[name] = value
    return candidates, failed


@pytest.mark.parametrize("path, stub, name", list(_cases()))
def test_nothing_on_the_page_passes_an_exercises_checker(path, stub, name, monkeypatch):
    monkeypatch.setattr(_core, "TIME_LIMIT_S", 1.0)  # a notebook function that trains for a while is no answer
    cells = [c for k, c in enumerate(nbformat.read(path, as_version=4).cells) if k != stub]
    candidates, failed = defined_above(cells)
    assert not failed, (f"{path.name}: could not define, without running the notebook, {failed}; "
                        "tests/test_exercises_not_above.py must learn to define it")
    checker = getattr(check, name)
    passing = [n for n, candidate in candidates.items() if checker(candidate).status == "correct"]
    assert not passing, (f"{path.name}: outside the stub of the exercise checked by helpers.check.{name}, {passing} "
                         "pass(es) it: a learner can copy the answer. Put the reference in its folded «Solución», "
                         "hand later cells helpers.check.<name>.working(...), or ask for what the page does not "
                         "show.")


def test_the_test_sees_a_copyable_answer():
    """A guard for the test itself: a reference solution placed above an exercise is caught."""
    cell = nbformat.v4.new_code_cell("import math\nEPS = 1e-5\n\n\ndef a_mano(x, gamma, beta, eps=EPS):\n"
                                     "    media = x.mean(-1, keepdim=True)\n"
                                     "    var = ((x - media) ** 2).mean(-1, keepdim=True)\n"
                                     "    return gamma * (x - media) / torch.sqrt(var + eps) + beta\n\n\n"
                                     "doble = lambda x: 2 * x\nW = torch.randn(3)\n")
    candidates, failed = defined_above([cell])
    assert not failed and set(candidates) == {"a_mano", "doble"}
    assert check.layer_norm(candidates["a_mano"]).status == "correct"


def test_a_working_version_is_defined_for_later_cells_but_is_no_candidate():
    cell = nbformat.v4.new_code_cell("ln = helpers.check.layer_norm.working(mi_layer_norm)\n\n\n"
                                     "def envuelta(x, gamma, beta, eps=1e-5):\n    return ln(x, gamma, beta, eps)\n")
    candidates, failed = defined_above([cell])
    assert not failed and set(candidates) == {"envuelta"}
    assert check.layer_norm(candidates["envuelta"]).status == "correct"  # a wrapper of it would be caught
