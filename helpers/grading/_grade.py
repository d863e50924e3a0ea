"""Grading without Docker: run each submission in a fresh kernel (nbclient: a time limit per cell, errors allowed,
so one broken cell does not stop the rest), then run each exercise's otter test in that kernel; write a CSV."""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ._assign import POINTS, build, test_source
from ._notebook import Exercise, exercises

__all__ = ["CELL_TIMEOUT_S", "Result", "grade", "grade_all", "main", "write_csv"]

CELL_TIMEOUT_S = 120  # one cell of a submission longer than this is interrupted; the lesson's slowest takes ~60 s
_MARK = "@@leccion06-calificacion@@"
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
    points: dict[str, int] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    mistakes: dict[str, str | None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.points.values())


def _client(nb, timeout: float, cwd: str):
    from nbclient import NotebookClient  # only for grading: learners never need it
    return NotebookClient(nb, timeout=timeout, allow_errors=True, interrupt_on_timeout=True, kernel_name="python3",
                          resources={"metadata": {"path": cwd}}, record_timing=False)


def _problems(cells) -> list[str]:
    """One Spanish line per cell that raised or was interrupted."""
    lines = []
    for i, cell in enumerate(cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                lines.append(f"la celda {i + 1} falló: {out.get('ename')}: {str(out.get('evalue'))[:200]}")
    return lines


def grade(path: Path, tasks: list[Exercise] | None = None, timeout: float = CELL_TIMEOUT_S) -> Result:
    """Run one submitted notebook and grade its exercises (``tasks``: the assignment's, else the ones it shows)."""
    import nbformat
    path, start = Path(path), time.perf_counter()
    result = Result(path.name)
    try:
        nb = nbformat.read(path, as_version=4)
        tasks = tasks or _safe_exercises(nb)
    except Exception as e:  # not a notebook, or a broken "Tu turno"
        result.problems.append(f"no pude leer la entrega: {type(e).__name__}: {e}")
        nb, tasks = None, tasks or []
    if not tasks:
        result.problems.append("no encontré ningún ejercicio «Tu turno» para calificar")
    for ex in tasks:
        result.points[ex.name], result.mistakes[ex.name] = 0, "not_graded"
        result.messages[ex.name] = "no pude correr la entrega"
    if nb is None or not tasks:
        return result
    shown = _safe_exercises(nb)  # run up to the last check cell when every exercise is there; else everything
    last = max(ex.check for ex in shown) if {ex.name for ex in tasks} <= {ex.name for ex in shown} else None
    cells = [c for c in (nb.cells if last is None else nb.cells[:last + 1]) if c.cell_type == "code"]
    for c in cells:
        c.outputs, c.execution_count = [], None
    runner = nbformat.v4.new_code_cell(_RUNNER.format(tests=[(ex.name, test_source(ex)) for ex in tasks],
                                                      mark=_MARK))
    nb.cells = cells + [runner]
    with tempfile.TemporaryDirectory() as cwd:
        client = _client(nb, timeout, cwd)
        try:
            client.execute(stderr=subprocess.DEVNULL)  # the kernel's own warnings are not the submission's
        except Exception as e:  # the kernel died, or would not start
            result.problems.append(f"el kernel se detuvo: {type(e).__name__}: {str(e)[:200]}")
    result.problems += _problems(nb.cells[:-1])
    for line in "".join(o.get("text", "") for o in runner.outputs if o.get("name") == "stdout").splitlines():
        if line.startswith(_MARK):
            for name, (points, message, mistake) in json.loads(line[len(_MARK):]).items():
                result.points[name], result.messages[name], result.mistakes[name] = points * POINTS, message, mistake
    result.seconds = time.perf_counter() - start
    return result


def _safe_exercises(nb) -> list[Exercise]:
    try:
        return exercises(nb)
    except ValueError:
        return []


def grade_all(paths: list[Path], tasks: list[Exercise] | None = None, timeout: float = CELL_TIMEOUT_S,
              say=print) -> list[Result]:
    """Grade several submissions one after the other, saying how each went."""
    results = []
    for n, path in enumerate(paths, 1):
        r = grade(path, tasks, timeout)
        say(f"[{n}/{len(paths)}] {r.submission}: {r.total} de {len(r.points) * POINTS} puntos ({r.seconds:.0f} s)")
        results.append(r)
    return results


def write_csv(results: list[Result], path: Path, delimiter: str = ",") -> None:
    """One row per submission: points per exercise, total, then each failed check's message (UTF-8 with BOM)."""
    names = list(dict.fromkeys(n for r in results for n in r.points))
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        out = csv.writer(f, delimiter=delimiter)
        out.writerow(["entrega", *names, "total", "de", *(f"mensaje {n}" for n in names), "problemas"])
        for r in results:
            out.writerow([r.submission, *(r.points.get(n, 0) for n in names), r.total, len(names) * POINTS,
                          *(r.messages.get(n, "") for n in names), " | ".join(r.problems)])


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m helpers.grading", description="La lección como tarea: armarla y "
                                "calificarla.")
    sub = p.add_subparsers(dest="comando", required=True)
    a = sub.add_parser("armar", help="arma las copias para estudiantes y los paquetes de otter-grader")
    a.add_argument("--raiz", default=".", help="la carpeta del repositorio (por defecto, esta)")
    a.add_argument("--salida", default="build/grading", help="dónde escribirlos (por defecto, build/grading)")
    c = sub.add_parser("calificar", help="califica una entrega (.ipynb) o una carpeta de entregas")
    c.add_argument("entregas", help="un .ipynb o una carpeta con .ipynb")
    c.add_argument("--csv", default="notas.csv", help="la planilla que escribe (por defecto, notas.csv)")
    c.add_argument("--tarea", help="la copia que repartiste (el .ipynb): de ahí saco la lista de ejercicios, así "
                                   "noto también uno cuya celda de control se borró")
    c.add_argument("--tiempo", type=float, default=CELL_TIMEOUT_S,
                   help=f"segundos por celda antes de cortarla (por defecto, {CELL_TIMEOUT_S})")
    c.add_argument("--separador", default=",", help="separador del CSV (por defecto «,»; «;» para Excel en español)")
    return p


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.comando == "armar":
        made = build(Path(args.raiz), Path(args.salida))
        print(f"listo: {len(made)} copias para estudiantes, cada una con su autograder.zip, en {args.salida}/")
        return 0
    import nbformat
    where = Path(args.entregas)
    paths = sorted(where.glob("*.ipynb")) if where.is_dir() else [where]
    if not paths or not all(p.is_file() for p in paths):
        print(f"no encontré entregas (.ipynb) en {where}", file=sys.stderr)
        return 2
    tasks = exercises(nbformat.read(args.tarea, as_version=4)) if args.tarea else None
    if tasks is None:
        print("sin --tarea, saco los ejercicios de cada entrega: si alguien borró una celda de control, ese "
              "ejercicio no aparece en su fila")
    results = grade_all(paths, tasks, args.tiempo)
    write_csv(results, Path(args.csv), args.separador)
    print(f"escribí {args.csv}: {len(results)} entregas")
    return 0
