"""Grading without Docker: run each submission in a fresh kernel (nbclient: a time limit per cell, errors allowed,
so one broken cell does not stop the rest), then run each exercise's otter test in that kernel."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import _sandbox
from ._assign import POINTS, test_source
from ._needed import needed
from ._notebook import CELL_PLACE, GRADED_ENV, Exercise, exercises, label_cells

__all__ = ["CELL_TIMEOUT_S", "KILL_AFTER_S", "STARTUP_TIMEOUT_S", "Result", "grade"]

CELL_TIMEOUT_S = 120  # one cell of a submission longer than this is interrupted; the lesson's slowest takes ~60 s
KILL_AFTER_S = 10  # a cell still running this long after its interrupt (it caught it) is cut: the kernel is killed
STARTUP_TIMEOUT_S = 120  # a kernel that has not answered this long after it started (torch loaded) did not start
_MARK = "@@leccion06-calificacion@@"
# The kernel's launcher (what `python -m ipykernel_launcher` does) with torch loaded first: the setup cell's
# `import torch` (4 s of CPU on a slow core, over 20 s with four kernels on two cores) then takes no time, so a
# cell's time limit measures the submission's own code. Nothing of this reaches the student's namespace.
_LAUNCHER = """\
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
try:
    __import__("torch")
except Exception:
    pass
from ipykernel import kernelapp
kernelapp.launch_new_instance()
"""
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
        _visto = globals().get("veredicto")
        _calificacion[_nombre] = [0, str(_e), "missing" if _visto is None else "not_attempted"
                                  if getattr(_visto, "status", None) == "not_attempted" else
                                  getattr(_visto, "mistake", None)]
    except BaseException as _e:
        _calificacion[_nombre] = [0, f"la prueba falló: {{type(_e).__name__}}: {{_e}}", "error"]
    print({mark!r} + _json.dumps({{_nombre: _calificacion[_nombre]}}), flush=True)
"""


@dataclass
class Result:
    """One submission's grade: points, message and mistake id per exercise, and what went wrong running it.

    ``mistakes``: None where right; else the checker's key (``Verdict.mistake``), or ``not_attempted`` (the stub as
    handed out), ``missing`` (no answer to check), ``error`` (the test itself failed), ``not_graded`` (not run)."""

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


class _Stopped(Exception):
    """The kernel was killed (a cell went on after its interrupt) or died, at cell ``at``, after ``seconds``."""

    def __init__(self, at: int, seconds: float, cut: bool):
        super().__init__(at, seconds, cut)
        self.at, self.seconds, self.cut = at, seconds, cut


def _client(nb, timeout: float, home: str, protect: _sandbox.Protections | None, env: dict[str, str]):
    from jupyter_client import AsyncKernelManager  # only for grading: learners never need it
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError
    from nbclient.util import ensure_async

    ipc = bool(protect and protect.no_network)  # a kernel without network talks over Unix sockets
    isolated = bool(protect and protect.isolation)

    class _Guarded(AsyncKernelManager):  # nbclient makes it, so nbclient also shuts its kernel down
        def __init__(self, **kw):
            super().__init__(transport="ipc" if ipc else "tcp", connection_file=os.path.join(home, "kernel.json"),
                             **kw)
            if isolated:  # bwrap does not pass signals on: the kernel interrupts itself on a control message
                self.kernel_spec.interrupt_mode = "message"

        def format_kernel_cmd(self, extra_arguments=None):
            # this Python (the one with helpers, the one the sandbox shows), whatever kernelspec python3 names
            cmd = [sys.executable, "-Xfrozen_modules=off", "-c", _LAUNCHER, "-f", self.connection_file]
            return _sandbox.wrap(cmd, protect, home, env) if protect else cmd

    class _Deadlined(NotebookClient):
        """nbclient interrupts a cell at ``timeout`` and then waits again, forever if the cell swallows the
        interrupt: here the kernel is killed KILL_AFTER_S later."""

        async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
            start = time.monotonic()
            task = asyncio.ensure_future(super().async_execute_cell(cell, cell_index, execution_count, store_history))
            try:
                done, _ = await asyncio.wait({task}, timeout=timeout + KILL_AFTER_S)
                if task in done:
                    return task.result()
            except DeadKernelError:
                raise _Stopped(cell_index, time.monotonic() - start, cut=False) from None
            await ensure_async(self.km.shutdown_kernel(now=True))  # the sandbox, and all it started, with it
            task.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
            raise _Stopped(cell_index, time.monotonic() - start, cut=True)

    return _Deadlined(nb, kernel_manager_class=_Guarded, kernel_name="python3", timeout=timeout, allow_errors=True,
                      startup_timeout=STARTUP_TIMEOUT_S, interrupt_on_timeout=True,
                      resources={"metadata": {"path": home}}, record_timing=False)


# IPython's own name for a cell's code: «(3567838270.py, line 1)» in a SyntaxError, «<ipython-input-4-…>» before 8.x
_CELL_FILE = re.compile(r"\((?:[^()]*?/)?(?:\d+\.py|<ipython-input-[^>]*>), line (\d+)\)")
_CELL_NAME = re.compile(r"(?:/tmp/ipykernel_\d+/)?\b\d{6,}\.py\b|<ipython-input-[^>]*>")


def _said_of(cell_number: str, message: str) -> str:
    """An error's message with IPython's internal name of the cell replaced by the notebook's own cell number."""
    message = _CELL_FILE.sub(lambda m: f"(línea {m[1]} de la celda {cell_number})", message)
    return _CELL_NAME.sub(f"la celda {cell_number}", message)


def _problems(cells) -> list[str]:
    """One Spanish line per cell that raised or was interrupted."""
    lines = []
    for i, cell in enumerate(cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                where = cell.get("metadata", {}).get(CELL_PLACE, f"la celda {i + 1}")
                number = re.match(r"la celda (\d+)", where)[1]
                lines.append(f"{where} falló: {out.get('ename')}: {_said_of(number, str(out.get('evalue')))[:200]}")
    return lines


def _safe_exercises(nb) -> list[Exercise]:
    try:
        return exercises(nb)
    except ValueError:
        return []


def _to_run(nb, tasks: list[Exercise], everything: bool = False) -> tuple[list[int], list]:
    """The code cells a grade needs (helpers.grading._needed: the setup cell, the stubs and check cells it shows,
    the cells binding the tasks' variables, and what they read, in order), or every code cell with ``everything``;
    their indices in the notebook and the cells, outputs cleared."""
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
    return keep, cells


def _runner(tasks: list[Exercise]):
    """One cell that runs each exercise's test and prints its grade as soon as it has it."""
    import nbformat
    return nbformat.v4.new_code_cell(_RUNNER.format(tests=[(ex.name, test_source(ex)) for ex in tasks], mark=_MARK))


@contextlib.contextmanager
def _environ(values: dict[str, str]):
    """os.environ with ``values`` set while the block runs, then as it was (the thread counts of -j N)."""
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


def _run(nb, result: Result, timeout: float, protect) -> _Stopped | None:
    """Run ``nb``'s cells in a fresh kernel, in its own scratch folder (HOME, connection file, sockets); how it
    stopped, if it was killed or died at a cell."""
    with tempfile.TemporaryDirectory(prefix="calificar-", ignore_cleanup_errors=True) as tmp:
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        env = {**_sandbox.kernel_env(home), GRADED_ENV: "1"}
        try:
            quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}  # the kernel's own lines
            _client(nb, timeout, home, protect, env).execute(env=env, **quiet)
        except _Stopped as stopped:
            return stopped
        except Exception as e:  # the kernel would not start
            result.problems.append(f"el kernel se detuvo: {type(e).__name__}: {str(e)[:200]}")
    return None


def _graded(runner, result: Result, worth: dict[str, float]) -> None:
    for line in "".join(o.get("text", "") for o in runner.outputs if o.get("name") == "stdout").splitlines():
        if line.startswith(_MARK):
            for name, (got, message, mistake) in json.loads(line[len(_MARK):]).items():
                result.points[name], result.messages[name], result.mistakes[name] = got * worth[name], message, mistake


def _what(stopped: _Stopped, keep: list[int], running: Exercise | None) -> str:
    """Spanish: where the kernel stopped (the notebook's own cell number, or the test that was running) and why."""
    where = (f"la celda {keep[stopped.at] + 1}" if stopped.at < len(keep) else
             f"la prueba de {running.name}" if running else "las pruebas")
    if stopped.cut:
        return (f"{where} se cortó a los {stopped.seconds:.0f} s: no terminó ni {KILL_AFTER_S} s después de "
                "interrumpirla, y corté el kernel")
    return f"el kernel se detuvo en {where}"


def _after_a_stop(stopped: _Stopped, keep, cells, nb, tasks, result, worth, timeout, protect) -> None:
    """The kernel was killed or died at a cell: say so, and grade again, in a fresh kernel, the exercises whose
    cells (all that their grade reads, helpers.grading._needed) came before it: the cells before it, then their
    tests. The others score 0 and say why."""
    graded = {name for name, m in result.mistakes.items() if m != "not_graded"}
    running = next((ex for ex in tasks if ex.name not in graded), None)  # if it stopped in the tests
    if stopped.at < len(keep):
        shown = {ex.name: {ex.stub, ex.check} for ex in _safe_exercises(nb)}
        again = [ex for ex in tasks if ex.name not in graded  # all the cells its grade reads came before
                 and max(needed(nb.cells, shown.get(ex.name, set()), {ex.variable}), default=-1) < keep[stopped.at]]
        prefix = cells[:stopped.at]
    else:
        again = [ex for ex in tasks if ex.name not in graded and ex is not running]
        prefix = cells
    what = _what(stopped, keep, running)
    result.problems.append(what)
    for ex in tasks:
        if ex.name not in graded:
            result.messages[ex.name] = f"no se calificó: {what}"
    if not again:
        return
    rerun = [copy.deepcopy(c) for c in prefix]
    for c in rerun:
        c.outputs, c.execution_count = [], None
    import nbformat
    runner = _runner(again)
    second = nbformat.v4.new_notebook(cells=[*rerun, runner], metadata=nb.metadata)
    again_stopped = _run(second, result, timeout, protect)
    _graded(runner, result, worth)  # what it printed before stopping again still counts
    if again_stopped:
        still = next((ex for ex in again if result.mistakes[ex.name] == "not_graded"), None)
        said = _what(again_stopped, keep[:len(prefix)], still)
        result.problems.append(f"al correr de nuevo las celdas de antes: {said}")


def grade(path: Path, tasks: list[Exercise] | None = None, timeout: float = CELL_TIMEOUT_S,
          points: dict[str, float] | None = None, protect: _sandbox.Protections | None = None,
          everything: bool = False) -> Result:
    """Run one submitted notebook and grade its exercises (``tasks``: the assignment's, else the ones it shows;
    ``points``: each exercise's worth, 1 by default); ``protect``: the sandbox for the kernel, none by default.
    The kernel runs the cells the checks need (helpers.grading._needed); ``everything``: every code cell. A cell
    still running ``KILL_AFTER_S`` after its interrupt is cut: the exercises whose cells came before it keep
    their grade."""
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
    keep, cells = _to_run(nb, tasks, everything)
    runner = _runner(tasks)
    original = nb.cells
    nb.cells = [*cells, runner]
    stopped = _run(nb, result, timeout, protect)
    result.problems += _problems(cells)
    _graded(runner, result, worth)
    if stopped:
        nb.cells = original
        _after_a_stop(stopped, keep, cells, nb, tasks, result, worth, timeout, protect)
    result.seconds = time.perf_counter() - start
    return result
