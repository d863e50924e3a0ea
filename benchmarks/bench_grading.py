"""How long grading a class takes: N varied submissions of one notebook's student copy (right, untouched, each
known mistake in turn, a syntax error, a deleted cell, and one endless cell), graded as a folder, timed.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_grading.py [--n 40] [--notebook notebooks/03_layernorm.ipynb]
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


def _mistake(ex, k):
    gallery = getattr(helpers.check, ex.name).mistakes
    node = ast.parse(textwrap.dedent(inspect.getsource(gallery[k % len(gallery)].fn))).body[0]
    node.decorator_list = []
    return f"{ast.unparse(node)}\n\n\n{ex.variable} = {node.name}\n"


def submissions(student, n: int, folder: Path) -> list[Path]:
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
        if i == n // 2:
            nb["cells"].insert(tasks[0].stub, {"cell_type": "code", "id": "sin-fin", "metadata": {},
                                               "source": "while True:\n    pass\n", "outputs": [],
                                               "execution_count": None})
        path = folder / f"entrega_{i:02d}.ipynb"
        path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=40)
    p.add_argument("--notebook", default="notebooks/03_layernorm.ipynb")
    args = p.parse_args()
    student = grading.student_copy(json.loads(Path(args.notebook).read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory() as tmp:
        paths = submissions(student, args.n, Path(tmp))
        start = time.perf_counter()
        results = grading.grade_all(paths, grading.exercises(student))
        wall = time.perf_counter() - start
        grading.write_csv(results, Path(tmp) / "notas.csv")
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = cpu.ru_utime + cpu.ru_stime + own.ru_utime + own.ru_stime
    print(f"{args.n} entregas de {Path(args.notebook).name}: {wall:.0f} s de reloj ({wall / args.n:.1f} s cada una), "
          f"{total:.0f} s de CPU; totales {sorted(r.total for r in results)}")


if __name__ == "__main__":
    main()
