"""A lesson notebook read as an assignment: its "Tu turno" exercises, and the student copy without any answer.

Which cell is which comes from helpers.lesson (each cell's role, ``metadata["leccion06"]``; docs/docente.md lists
the conventions for authors): a «Tu turno»'s stub and its check cell ``helpers.check.<name>(<variable>)``, its
folded «Solución», the «Ejercicios» answers. Answers also live in ``<details>`` blocks of markdown cells, under a
markdown heading ``### La nuestra`` (up to the next heading), or in cells calling ``.solution()`` / ``.hint(``;
later cells get a working version from ``helpers.check.<name>.working(<variable>)`` under another name; the setup
cell is the first code cell that imports helpers.

A student copy starts with a name cell (``NOMBRE``, ``LEGAJO``: grading reads them from its source), keeps each
kept cell's role, and carries ``metadata["leccion06"]``: which notebook, which release, that it is a student copy,
and the exercises it grades.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass

from .. import lesson
from ..check._core import GRADED_ENV  # set to "1" by a student copy's setup cell: helpers.check turns answers off
from ..lesson import source as _source
from ._identity import MARKER_KEY, name_cell

__all__ = ["CELL_PLACE", "GRADED_ENV", "Exercise", "cell_place", "exercises", "how_many", "label_cells",
           "missing_after_drop", "show_points", "student_copy", "unsolved"]

_DETAILS = re.compile(r"\n*<details>.*?</details>\n*", re.S)
_GIVES_ANSWER = re.compile(r"\.solution\(|\.hint\(")
_KEEP_METADATA = ("kernelspec", "language_info")
# A markdown pointer at the reference ("; la nuestra: `helpers.check.x.solution()`"), cut from a graded copy
_POINTS_AT_SOLUTION = re.compile(r"\s*[;,]?\s*(?:y\s+)?(?:la nuestra:\s*)?`helpers\.check\.\w+\.solution\(\)`"
                                 r"(?:\s+muestra\s+(?:la nuestra|una solución))?")
# a sentence of its own that points at the solution («La nuestra: `…solution()`.»): cut whole, with its full stop
_SENTENCE = r"(?:`[^`\n]*`|[^.?!`\n])*"  # what a sentence holds up to its full stop (code spans may hold dots)
_SENTENCE_AT_SOLUTION = re.compile(r"(?:(?<=[.?!])|^)[ \t]*(?:[Ll]a nuestra:\s*)?`helpers\.check\.\w+\.solution\(\)`"
                                   + _SENTENCE + r"[.?!]", flags=re.M)
CELL_PLACE = "leccion06-celda"  # a graded cell's metadata: where it sits in the submission, said for people
_GRADED_LINES = (f'import os\n\nos.environ["{GRADED_ENV}"] = "1"  # copia para entregar: helpers.check no muestra '
                 "soluciones\n")


@dataclass(frozen=True)
class Exercise:
    """One "Tu turno": the checker's name, the learner's variable, and the cell indices of stub and check."""

    name: str
    variable: str
    stub: int
    check: int


def exercises(nb) -> list[Exercise]:
    """The notebook's "Tu turno" exercises, in order (helpers.lesson reads them); a stub without its check cell is an
    error."""
    found = []
    for ex in lesson.exercise_cells(nb):
        if ex.stub is None:
            continue
        if ex.check is None or ex.variable is None:
            raise ValueError(f"la celda {ex.stub} es un «Tu turno» pero no tiene su celda de control "
                             "helpers.check.<nombre>(<variable>)")
        found.append(Exercise(ex.name, ex.variable, ex.stub, ex.check))
    return found


def _roles(cells) -> dict[int, str]:
    """Cell index -> what it is for a student: «Tu turno» and control cells by exercise, the name and setup cells;
    read leniently (a submission may have lost cells)."""
    roles, setup = {}, False
    code = [i for i, c in enumerate(cells) if c.get("cell_type") == "code"]
    for ex in lesson.exercise_cells({"cells": cells}):
        stub = ex.stub
        if ex.check is not None:
            roles[ex.check] = f"el control de {ex.name}"
            # without its stub, the code cell before the check is its «Tu turno» if it defines the answer
            before = max((j for j in code if j < ex.check), default=None)
            if stub is None and before is not None and ex.variable in _names(_source(cells[before]))[0]:
                stub = before
        if stub is not None:
            roles[stub] = f"el «Tu turno» de {ex.name}" if ex.name else "un «Tu turno»"
    for i in code:
        src = _source(cells[i])
        if i in roles:
            continue
        if "copia para entregar de " in src and "NOMBRE" in src:
            roles[i] = "la del nombre"
        elif not setup and re.search(r"^\s*(?:import|from)\s+helpers\b", src, re.M):
            roles[i], setup = "la de preparación", True
    return roles


def _de(role: str) -> str:
    """'de' before a role: «del control de mask», «de un «Tu turno»»."""
    return f"del {role[3:]}" if role.startswith("el ") else f"de {role}"


def cell_place(nb, i: int, roles: dict[int, str] | None = None) -> str:
    """Where cell ``i`` (from 0) is, as its student finds it: 'la celda 43 (el «Tu turno» de ffn_count)'; cells
    counted from 1, text cells included."""
    roles = _roles(nb["cells"]) if roles is None else roles
    if i in roles:
        return f"la celda {i + 1} ({roles[i]})"
    after = next((j for j in sorted(roles) if j > i and not roles[j].startswith("la ")), None)
    before = max((j for j in roles if j < i and not roles[j].startswith("la ")), default=None)
    near = (f"antes {_de(roles[after])}" if after is not None else f"después {_de(roles[before])}"
            if before is not None else "")
    return f"la celda {i + 1}" + (f" ({near})" if near else "")


def label_cells(nb) -> None:
    """Write each code cell's ``cell_place`` in its metadata (``CELL_PLACE``), for what is said about it later."""
    roles = _roles(nb.get("cells", []))
    for i, cell in enumerate(nb.get("cells", [])):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            cell.setdefault("metadata", {})[CELL_PLACE] = cell_place(nb, i, roles)


def _dropped(nb) -> set[int]:
    """Indices of the cells that hold or reveal a reference answer: a «Tu turno»'s solution and the «Ejercicios»
    answers (helpers.lesson), what is under «### La nuestra», code asking for a solution or a hint."""
    cells, under_ours = nb["cells"], False
    drop = {ex.solution for ex in lesson.exercise_cells(nb) if ex.solution is not None}
    drop |= set(lesson.exercise_answer_cells(nb))
    for i, cell in enumerate(cells):
        src = _source(cell)
        if cell["cell_type"] == "markdown" and src.lstrip().startswith("#"):
            under_ours = bool(re.match(r"\s*###\s+La nuestra\b", src))
        if under_ours or (cell["cell_type"] == "code" and _GIVES_ANSWER.search(src)):
            drop.add(i)
    return drop


def _names(src: str) -> tuple[set[str], set[str]]:
    """(names a cell binds, names it reads before or without binding them); magics are ignored."""
    try:
        tree = ast.parse(re.sub(r"^\s*[%!].*$", "", src, flags=re.M))
    except SyntaxError:
        return set(), set()
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return bound, read - bound


def missing_after_drop(nb, drop: set[int]) -> dict[str, tuple[int, int]]:
    """Names a dropped cell defined that a kept later cell reads: name -> (dropped cell, reading cell)."""
    cells, defined_by, known, needs = nb["cells"], {}, set(), {}
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        bound, read = _names(_source(cell))
        if i in drop:
            defined_by.update({n: i for n in bound if n not in known})
            continue
        for n in sorted(read & set(defined_by) - known):
            needs.setdefault(n, (defined_by[n], i))
        known |= bound
    return needs


def _graded_setup(src: str) -> str:
    """The setup cell with graded mode switched on before helpers is imported."""
    if GRADED_ENV in src:
        return src
    at = src.find("try:\n    import helpers")
    at = at if at >= 0 else src.find("import helpers")
    if at < 0:
        raise ValueError("la celda de preparación no importa helpers: no sé dónde prender el modo calificado")
    return src[:at] + _GRADED_LINES + src[at:]


def unsolved(text: str) -> str:
    """Markdown without its pointers at ``helpers.check.<x>.solution()`` (off in a graded copy): a sentence that
    starts with one goes whole, with its full stop; one inside a sentence goes with its joining words."""
    return _POINTS_AT_SOLUTION.sub("", _SENTENCE_AT_SOLUTION.sub("", text))


def _stub_label(src: str, points: float | None) -> str:
    """The stub's first line says what it is worth: ``# Tu turno (2 puntos)`` or ``(práctica: no entra en la nota)``."""
    label = "práctica: no entra en la nota" if not points else f"{show_points(points)} punto{'s' * (points != 1)}"
    return lesson.stub_labelled(src, label)


def show_points(points: float) -> str:
    """2 -> '2', 1.5 -> '1,5' (Spanish decimal comma)."""
    return f"{points:g}".replace(".", ",")


def how_many(n: int, singular: str, plural: str = "") -> str:
    """A count that agrees in number: '1 estudiante', '3 estudiantes', '0 entregas'; ``plural`` where adding an
    «s» is not it ('1 reentrega vieja', '2 reentregas viejas')."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


# the title cell's «Abrir en Colab» opens the lesson notebook of the release, folded solutions included: not in a copy
_COLAB_BADGE = re.compile(r"\[!\[[^\]]*\]\([^)]*colab-badge[^)]*\)\]\([^)]*\)")


def student_copy(nb, stem: str = "", points: dict[str, float] | None = None, version: str = ""):
    """A copy to hand out: no reference answer in cells, outputs or metadata; graded mode on in the setup cell;
    the name cell first; ``points`` (exercise -> points, default 1 each) marked on each stub and in the metadata."""
    every = {ex.name: 1 for ex in exercises(nb)}
    points = every if points is None else {name: points.get(name, 0) for name in every}
    drop = _dropped(nb)
    needs = missing_after_drop(nb, drop)
    if needs:
        where = "; ".join(f"`{n}` (definida en la celda {d}, usada en la {u})" for n, (d, u) in needs.items())
        raise ValueError(f"sin las celdas de la solución, otras celdas se quedan sin nombres que usan: {where}. "
                         "Mové esas definiciones fuera de la solución (docs/docente.md, «Para autores»).")
    out = copy.deepcopy(nb)
    out["metadata"] = {k: v for k, v in nb.get("metadata", {}).items() if k in _KEEP_METADATA}
    out["metadata"][MARKER_KEY] = {"notebook": stem, "version": version, "copia": "estudiante",
                                   "puntos": {n: p for n, p in points.items() if p}}
    stubs = {ex.stub: points[ex.name] for ex in exercises(nb)}
    cells, setup_done = [], False
    for i, cell in enumerate(out["cells"]):
        if i in drop:
            continue
        src = _source(cell)
        if cell["cell_type"] == "markdown" and "<details" in src:
            src = _DETAILS.sub("\n\n", src).strip()
            if not src:
                continue
        if cell["cell_type"] == "markdown":
            src = _COLAB_BADGE.sub("", unsolved(src)).strip()
        if cell["cell_type"] == "code" and not setup_done:
            src, setup_done = _graded_setup(src), True
        if i in stubs:
            src = _stub_label(src, stubs[i])
        role = lesson.roles(cell)  # what the cell is (no answer in it): grading reads the copy's exercises there
        clean = {"cell_type": cell["cell_type"], "metadata": {lesson.KEY: copy.deepcopy(role)} if role else {},
                 "source": src}
        clean.update({k: cell[k] for k in ("id", "attachments") if k in cell})
        if cell["cell_type"] == "code":
            clean.update(execution_count=None, outputs=[])
        cells.append(clean)
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), len(cells))
    out["cells"] = [*cells[:first_code], name_cell(stem, version), *cells[first_code:]]
    return out
