"""How long grading a class takes: N varied submissions of one notebook's student copy (right, untouched, each
known mistake in turn, a syntax error, a deleted cell, and one endless cell), graded as a folder, timed, once per
-j given (submissions at a time); the runs must give the same points and messages.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_grading.py [--n 40] [-j 1 2] [--sandbox]
        [--sin-bucle] [--notebook notebooks/03_layernorm.ipynb]
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import resource
import tempfile
import textwrap
import time
from pathlib import Path

import helpers.check
from helpers import grading
from helpers.grading import _sandbox


def _mistake(ex, k):
    gallery = getattr(helpers.check, ex.name).mistakes
    node = ast.parse(textwrap.dedent(inspect.getsource(gallery[k % len(gallery)].fn))).body[0]
    node.decorator_list = []
    return f"{ast.unparse(node)}\n\n\n{ex.variable} = {node.name}\n"


def submissions(student, n: int, folder: Path, endless: bool = True) -> list[Path]:
    """n varied submissions: mostly right or with one known mistake, a few broken in the ways a class breaks them."""
    tasks, paths = grading.exercises(student), []
    for i in range(n):
        nb = json.loads(json.dumps(student))
        for j, ex in enumerate(tasks):
            kind = (i + j) % 4
            nb["cells"][ex.stub]["source"] = (grading.reference_code(ex) if kind < 2 else _mistake(ex, i) if kind == 2
                                              else nb["cells"][ex.stub]["source"])
        if i % 10 == 3:
            nb["cells"][tasks[0].stub]["source"] += "\ndef roto(:\n"
        if i % 10 == 7:
            del nb["cells"][tasks[-1].stub]
        if endless and i == n // 2:
            nb["cells"].insert(tasks[0].stub, {"cell_type": "code", "id": "sin-fin", "metadata": {},
                                               "source": "while True:\n    pass\n", "outputs": [],
                                               "execution_count": None})
        path = folder / f"entrega_{i:02d}.ipynb"
        path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def _timed(paths, tasks, jobs: int, protect):
    start = time.perf_counter()
    results = grading.grade_all(paths, tasks, jobs=jobs, protect=protect, say=lambda line: None)
    return results, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=40)
    p.add_argument("-j", type=int, nargs="+", default=[1])
    p.add_argument("--sin-bucle", action="store_true", help="without the endless cell (its 120 s hide -j's gain)")
    p.add_argument("--sandbox", action="store_true", help="grade under helpers.grading's protections, as calificar")
    p.add_argument("--notebook", default="notebooks/03_layernorm.ipynb")
    args = p.parse_args()
    notebook = Path(args.notebook)
    student = grading.student_copy(json.loads(notebook.read_text(encoding="utf-8")), notebook.stem)
    protect = _sandbox.available() if args.sandbox else None
    if protect:
        print(_sandbox.describe(protect))
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = submissions(student, args.n, Path(tmp), endless=not args.sin_bucle)
        for jobs in args.j:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            results, wall = _timed(paths, grading.exercises(student), jobs, protect)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            runs[jobs] = [(r.points, r.messages) for r in results]
            print(f"-j {jobs}: {args.n} entregas de {Path(args.notebook).name}: {wall:.0f} s de reloj "
                  f"({wall / args.n:.1f} s cada una), {cpu:.0f} s de CPU de los procesos hijos; "
                  f"totales {sorted(r.total for r in results)}")
    first = next(iter(runs.values()))
    print("mismos puntos y mensajes en todas las corridas" if all(r == first for r in runs.values()) else
          "OJO: las corridas no dan lo mismo")


if __name__ == "__main__":
    main()
