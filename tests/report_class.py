"""A made-up class for the class report, without running a kernel: ``students`` rows, each with the notebooks it
handed in and, per exercise, right, one of the checker's named mistakes, another error or untouched (a fixed
seed). Used by the report's tests and by the browser test, which runs it with .venv's Python:

    python tests/report_class.py CARPETA [--n 40] [--nombres]   # writes CARPETA/notas.csv and CARPETA/informe.html
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from helpers import grading
from helpers.check.exercises import MODULES
from helpers.grading._class import Row, Submission
from helpers.grading._mistakes import NOTEBOOKS

FIRST = ["Ana", "Bruno", "Carla", "Dante", "Ema", "Fede", "Gael", "Iara", "Juan", "Lola", "Mateo", "Nora", "Olga",
         "Pablo", "Rocío", "Sofi", "Tomás", "Uma", "Vera", "Zoe"]
LAST = ["Pérez", "Díaz", "Gómez", "Ruiz", "Sosa", "Paz", "Luna", "Ríos"]


def made_up(students: int = 40, seed: int = 0) -> list[Row]:
    """The class's rows, as calificar builds them: every student hands in most notebooks."""
    rng, rows = random.Random(seed), []
    by_notebook: dict[str, list] = {}
    for m in MODULES:
        by_notebook.setdefault(NOTEBOOKS[m.ORDER[0]][0], []).append(m.checker)
    for i in range(students):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST) + i) % len(LAST)]}"
        row = Row(name, str(1000 + i))
        for stem, checkers in by_notebook.items():
            if rng.random() < 0.1:
                continue  # did not hand this notebook in
            path = Path(f"{name} {stem}.ipynb")
            res = grading.Result(path.name)
            for c in checkers:
                roll = rng.random()
                gallery = [m.key for m in c.mistakes]
                weights = [1 / (k + 1) for k in range(len(gallery))]  # a few mistakes most students make
                mistake = (None if roll < 0.5 else rng.choices(gallery, weights)[0] if roll < 0.82 else
                           rng.choice(["raised", "unknown", "missing", "timeout"]) if roll < 0.9 else "not_attempted")
                res.points[c.name], res.out_of[c.name] = (1 if mistake is None else 0), 1
                res.mistakes[c.name] = mistake
                res.messages[c.name] = "" if mistake is None else "mal"
            row.graded[stem] = (Submission(path, None, str(i), stem), res)
        rows.append(row)
    return rows


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("folder")
    p.add_argument("--n", type=int, default=40)
    p.add_argument("--nombres", action="store_true")
    args = p.parse_args()
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    rows = made_up(args.n)
    grading.write_csv(rows, {}, folder / "notas.csv")
    grading.report_from_csv(folder / "notas.csv", folder / "informe.html", names=args.nombres)


if __name__ == "__main__":
    sys.exit(main())
