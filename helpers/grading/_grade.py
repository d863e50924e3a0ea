"""Grading without Docker: run each submission in a fresh kernel (nbclient: a time limit per cell, errors allowed,
so one broken cell does not stop the rest), then run each exercise's otter test in that kernel."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import _sandbox
from ._assign import POINTS, test_source
from ._needed import needed
from ._notebook import CELL_PLACE, GRADED_ENV, Exercise, exercises, label_cells

__all__ = ["CELL_TIMEOUT_S", "Result", "grade"]

CELL_TIMEOUT_S = 120  # one cell of a submission longer than this is interrupted; the lesson's slowest takes ~60 s
_MARK = "@@leccion06-calificacion@@"
_IMPORTS_HELPERS = re.compile(r"^\s*(?:import|from)\s+helpers\b", re.M)
_RUNNER = """\
import json as _json
_calificacion = {{}}
for _nombre, _prueba in {tests!r}:
    globals().pop("veredicto", None)
    try:
        exec(_prueba, globals())
        _calificacion[_nombre] = [1, "", None]
    except AssertionError as _e:
        _calificacion[_nombre] = [0, str(_e), getattr(globals().get("veredicto"), "mistake", None)]
    except BaseException as _e:
        _calificacion[_nombre] = [0, f"la prueba falló: {{type(_e).__name__}}: {{_e}}", "error"]
print({mark!r} + _json.dumps(_calificacion))
"""


@dataclass
class Result:
    """One submission's grade: points, message and mistake id per exercise, and what went wrong running it."""

    submission: str
    points: dict[str, float] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    mistakes: dict[str, str | None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    out_of: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.points.values())

    @property
    def maximum(self) -> float:
        return sum(self.out_of.values())


def _client(nb, timeout: float, cwd: str, protect: _sandbox.Protections | None):
    from jupyter_client import AsyncKernelManager  # only for grading: learners never need it
    from nbclient import NotebookClient

    ipc = bool(protect and protect.no_network)  # a kernel without network talks over Unix sockets

    class _Guarded(AsyncKernelManager):  # nbclient makes it, so nbclient also shuts its kernel down
        def __init__(self, **kw):
            super().__init__(transport="ipc" if ipc else "tcp", connection_file=os.path.join(cwd, "kernel.json"),
                             **kw)

        def format_kernel_cmd(self, extra_arguments=None):
            cmd = super().format_kernel_cmd(extra_arguments)
            return _sandbox.wrap(cmd, protect) if protect else cmd

    return NotebookClient(nb, kernel_manager_class=_Guarded, kernel_name="python3", timeout=timeout,
                          allow_errors=True, interrupt_on_timeout=True, resources={"metadata": {"path": cwd}},
                          record_timing=False)


def _problems(cells) -> list[str]:
    """One Spanish line per cell that raised or was interrupted."""
    lines = []
    for i, cell in enumerate(cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                where = cell.get("metadata", {}).get(CELL_PLACE, f"la celda {i + 1}")
                lines.append(f"{where} falló: {out.get('ename')}: {str(out.get('evalue'))[:200]}")
    return lines


def _safe_exercises(nb) -> list[Exercise]:
    try:
        return exercises(nb)
    except ValueError:
        return []


def _to_run(nb, tasks: list[Exercise], everything: bool = False):
    """The code cells a grade needs (helpers.grading._needed: the setup cell, the stubs and check cells it shows,
    the cells binding the tasks' variables, and what they read, in order), or every code cell with ``everything``;
    outputs cleared."""
    if everything:
        keep = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    else:
        shown = _safe_exercises(nb)
        setup = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and _IMPORTS_HELPERS.search(c.source)]
        roots = set(setup[:1]) | {ex.stub for ex in shown} | {ex.check for ex in shown}
        keep = needed(nb.cells, roots, {"helpers"} | {ex.variable for ex in tasks})
    cells = [nb.cells[i] for i in keep]
    for c in cells:
        c.outputs, c.execution_count = [], None
    return cells


def _scratch(protect: _sandbox.Protections | None) -> tempfile.TemporaryDirectory:
    """The kernel's working folder; the kernel's own when it runs as another user."""
    tmp = tempfile.TemporaryDirectory(prefix="calificar-")
    if protect and protect.user:
        os.chown(tmp.name, *protect.user)
    return tmp


@contextlib.contextmanager
def _environ(values: dict[str, str]):
    """os.environ with ``values`` set while the block runs (what kernels started in it inherit), then as it was."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _environment(cwd: str, protect) -> dict[str, str]:
    """What the kernel inherits: graded mode on; as another user, HOME and the caches in its scratch folder."""
    mine = {GRADED_ENV: "1"}
    if protect and protect.user:
        mine.update(HOME=cwd, IPYTHONDIR=os.path.join(cwd, ".ipython"), MPLCONFIGDIR=os.path.join(cwd, ".mpl"))
    return mine


def _run(nb, result: Result, timeout: float, protect) -> None:
    with _scratch(protect) as cwd, _environ(_environment(cwd, protect)):
        try:
            _client(nb, timeout, cwd, protect).execute(stderr=subprocess.DEVNULL)  # the kernel's own warnings
        except Exception as e:  # the kernel died, or would not start
            result.problems.append(f"el kernel se detuvo: {type(e).__name__}: {str(e)[:200]}")


def grade(path: Path, tasks: list[Exercise] | None = None, timeout: float = CELL_TIMEOUT_S,
          points: dict[str, float] | None = None, protect: _sandbox.Protections | None = None,
          everything: bool = False) -> Result:
    """Run one submitted notebook and grade its exercises (``tasks``: the assignment's, else the ones it shows;
    ``points``: each exercise's worth, 1 by default); ``protect``: the sandbox for the kernel, none by default.
    The kernel runs the cells the checks need (helpers.grading._needed); ``everything``: every code cell."""
    import nbformat
    path, start = Path(path), time.perf_counter()
    result = Result(path.name)
    try:
        nb = nbformat.read(path, as_version=4)
        label_cells(nb)  # problems name the notebook's own cells, not the i-th of those run
        tasks = tasks or _safe_exercises(nb)
    except Exception as e:  # not a notebook, or a broken "Tu turno"
        result.problems.append(f"no pude leer la entrega: {type(e).__name__}: {e}")
        nb, tasks = None, tasks or []
    if not tasks:
        result.problems.append("no encontré ningún ejercicio «Tu turno» para calificar")
    worth = {ex.name: (points or {}).get(ex.name, POINTS) for ex in tasks}
    for ex in tasks:
        result.points[ex.name], result.mistakes[ex.name] = 0, "not_graded"
        result.messages[ex.name], result.out_of[ex.name] = "no pude correr la entrega", worth[ex.name]
    if nb is None or not tasks:
        return result
    runner = nbformat.v4.new_code_cell(_RUNNER.format(tests=[(ex.name, test_source(ex)) for ex in tasks],
                                                      mark=_MARK))
    nb.cells = [*_to_run(nb, tasks, everything), runner]
    _run(nb, result, timeout, protect)
    result.problems += _problems(nb.cells[:-1])
    for line in "".join(o.get("text", "") for o in runner.outputs if o.get("name") == "stdout").splitlines():
        if line.startswith(_MARK):
            for name, (got, message, mistake) in json.loads(line[len(_MARK):]).items():
                result.points[name], result.messages[name], result.mistakes[name] = got * worth[name], message, mistake
    result.seconds = time.perf_counter() - start
    return result
