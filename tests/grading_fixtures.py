"""Synthetic lesson notebooks for the grading tests (issue 54): a title, a setup cell, a lesson cell that trains
nothing, then per exercise a «Tu turno» (prompt, stub, check, solution, each with its role: helpers.lesson.mark) and
a claims cell. The checkers are real (helpers.check); the default two, escape_step and warmup, are pure Python, so a
graded kernel runs the series' setup cell and four small cells. A change to a lesson notebook changes none of this.

    nb = lesson_notebook()                        # escape_step, warmup; or lesson_notebook(("layer_norm", "ffn"))
    path = write_lesson(tmp)                      # tmp/notebooks/91_sintetico.ipynb, a root armar --raiz reads
    copy = student()                              # its student copy (helpers.grading.student_copy)
    first, second = grading.exercises(copy)
    submission(copy, folder, "ana", {first.stub: reference(first), second.stub: mistake_source(second)[0]})

Answers for a stub: ``reference`` (complete), ``mistake_source`` (a named mistake of the checker's gallery),
``renamed`` (the reference under another name), ``uses_torch`` (right, if torch is imported); no answer leaves the
stub as handed out (empty). ``signed`` and ``submission`` fill in the name cell (name, id, the time it printed).
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import textwrap
from pathlib import Path

import nbformat
from conftest import ROOT, facts

import helpers.check
from helpers import grading, lesson

STEM = "91_sintetico"
EXERCISES = ("escape_step", "warmup")  # pure-Python checkers: no torch in their kernels' cells but the setup's
# the series' setup cell (tests/setup_cell.txt at pyproject's version): it imports helpers (graded mode goes on
# before), torch, nn and F (the checkers' references use them), and names the release a copy installs
SETUP = facts.setup_cell() + "\n"


def _reference(name: str) -> tuple[str, ast.stmt]:
    code = getattr(helpers.check, name).solution().code
    return code, ast.parse(code).body[0]


def variable(name: str) -> str:
    """The learner's variable of checker ``name``: what its reference defines."""
    return _reference(name)[1].name


def _stub(name: str) -> str:
    node = _reference(name)[1]
    node.body, node.decorator_list = [ast.Expr(ast.Constant(...))], []
    return f"# Tu turno: completá donde dice `...` y corré la celda de abajo.\n{ast.unparse(node)}"


def _cell(kind: str, src: str, **roles):
    cell = nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src)
    if roles:
        lesson.mark(cell, **roles)
    return cell


def lesson_notebook(names=EXERCISES, title: str = "Un notebook sintético") -> dict:
    """A lesson notebook with a «Tu turno» per checker in ``names``, as helpers.lesson reads one (no problems)."""
    cells = [_cell("markdown", f"# Lección 6 · {title}\n\nLo arman los tests de calificación."),
             _cell("code", SETUP),
             _cell("markdown", "## Una sección\n\nUna celda de la lección, que no entrena nada:"),
             _cell("code", "tabla = {paso: paso * paso for paso in range(4)}\ntabla")]
    for name in names:
        code, var = getattr(helpers.check, name).solution().code, variable(name)
        cells += [
            _cell("markdown", f"### Tu turno: {name}\n\nEscribí `{var}`. Si te trabás: `helpers.check.{name}.hint(1)`"
                              f", y `helpers.check.{name}.solution()` muestra la nuestra.", exercise=(name, "prompt")),
            _cell("code", _stub(name), exercise=(name, "stub")),
            _cell("code", f"helpers.check.{name}({var})", exercise=(name, "check")),
            _cell("markdown", f"{lesson.SOLUTION_OPEN}\n\n```python\n{code.rstrip()}\n```\n\n</details>",
                  exercise=(name, "solution")),
            _cell("code", "# @title Comprobación automática\nhelpers.claim(len(tabla) == 4, 'la tabla tiene 4 "
                          "pasos', f'tiene {len(tabla)}')", claims=True)]
    nb = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}, lesson.KEY: {"kind": "core"}})
    nb = json.loads(nbformat.writes(nb))
    assert lesson.problems(nb) == [], lesson.problems(nb)
    return nb


def write_lesson(root: Path, stem: str = STEM, names=EXERCISES) -> Path:
    """``root/notebooks/<stem>.ipynb``, and ``root/.ci`` (the facts armar's bundle reads): a root for armar --raiz."""
    path = Path(root) / "notebooks" / f"{stem}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(lesson_notebook(names), ensure_ascii=False, indent=1), encoding="utf-8")
    if not (Path(root) / ".ci").exists():
        os.symlink(ROOT / ".ci", Path(root) / ".ci")
    return path


def student(names=EXERCISES, stem: str = STEM, points=None, version: str = "") -> dict:
    """The student copy of ``lesson_notebook(names)``, as armar hands it out."""
    return grading.student_copy(lesson_notebook(names), stem, points, version)


# ------------------------------------------------------------------------------------- answers for a stub cell

def reference(ex) -> str:
    """The exercise's reference answer (full marks)."""
    return grading.reference_code(ex)


def mistake_source(ex, key: str | None = None) -> tuple[str, object]:
    """A known mistake of the exercise's checker (its first, or ``key``), as a learner writes it under the expected
    name; and the mistake (its key and message)."""
    gallery = getattr(helpers.check, ex.name).mistakes
    mistake = next(m for m in gallery if key in (None, m.key))
    node = ast.parse(textwrap.dedent(inspect.getsource(mistake.fn))).body[0]
    node.decorator_list = []
    return f"{ast.unparse(node)}\n\n\n{ex.variable} = {node.name}\n", mistake


def renamed(ex, to: str = "mi_respuesta") -> str:
    """The reference answer, under another name than the check reads."""
    return reference(ex).replace(f"def {ex.variable}(", f"def {to}(").replace(f"class {ex.variable}(", f"class {to}(")


def uses_torch(ex) -> str:
    """A right answer that calls torch: it works only where the notebook imported torch."""
    return (f"{reference(ex)}\n_{ex.variable} = {ex.variable}\n\n\ndef {ex.variable}(*args, **kwargs):\n"
            f"    torch.zeros(1)\n    return _{ex.variable}(*args, **kwargs)\n")


# ------------------------------------------------------------------------------------------------- submissions

def signed(nb, name: str, legajo: str = "", printed: str = ""):
    """The notebook with its name cell filled in, and the time it printed when run (if any)."""
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["source"] = cell["source"].replace('NOMBRE = ""', f"NOMBRE = {name!r}").replace(
        'LEGAJO = ""', f"LEGAJO = {legajo!r}")
    if printed:
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"Entrega, corrida el {printed}\n"}]
    return nb


def submission(copy, folder, name, answers: dict[int, str] = (), extra: dict[int, str] = (), drop=(), file=None,
               printed="", setup=None, legajo=None):
    """Write a copy of the student notebook signed by ``name`` (id ``legajo``, default «L-<name>»), with stub cells
    replaced (``answers``: cell -> source), code cells inserted before cells (``extra``), cells removed (``drop``);
    ``setup``: what to do to the setup cell's source. Returns its path, ``folder/<file or name.ipynb>``."""
    nb = signed(json.loads(json.dumps(copy)), name, f"L-{name}" if legajo is None else legajo, printed)
    if setup:
        cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "import torch\n" in c["source"])
        cell["source"] = setup(cell["source"])
        assert "import torch\n" not in cell["source"], cell["source"]
    for i, src in dict(answers).items():
        nb["cells"][i]["source"] = src
    cells = []
    for i, cell in enumerate(nb["cells"]):
        if i in dict(extra):
            cells.append({"cell_type": "code", "id": f"extra-{i}", "metadata": {}, "source": dict(extra)[i],
                          "outputs": [], "execution_count": None})
        if i not in drop:
            cells.append(cell)
    nb["cells"] = cells
    path = Path(folder) / (file or f"{name}.ipynb")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return path
