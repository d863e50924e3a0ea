"""How long grading a class takes: N varied submissions of each notebook's student copy (right, untouched, each
known mistake in turn, a syntax error, a deleted cell, and one endless cell), graded together as one folder, timed,
once per -j given (submissions at a time, each kernel with cores // j threads, as calificar does), and with
--todas also running every cell (as before grading ran only what the checks need); every run must give the same
points and messages. Issue 39's target: the five notebooks, 40 each, -j 2 on 2 cores, within 15 minutes. The run
goes to benchmarks/measurements.json (docs/docente.md's grading table is made from it: make medidas); --prueba marks
it as not for publication, --medidas PATH writes elsewhere.

    .venv/bin/python benchmarks/bench_grading.py [--n 40] [-j 2 1] [--todas] [--sandbox] [--sin-bucle] [--prueba]
        [--notebook notebooks/03_layernorm.ipynb ...]

Each run also times what the class report adds (issue 47: under 5 s for 200 submissions), written from the graded
rows and again from the CSV; --solo-informe times only that, on the results the submissions were built to get
(no kernel: seconds).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import platform
import resource
import tempfile
import textwrap
import time
from pathlib import Path

import measurements

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


def _as_built(paths: list[Path], per_path: dict) -> list:
    """What grading gives the submissions of ``submissions``, from how each was built, without running a kernel."""
    out = []
    for path in paths:
        i, tasks, r = int(path.stem.rsplit("_", 1)[1]), per_path[path][0], grading.Result(path.name)
        for j, ex in enumerate(tasks):
            kind, gallery = (i + j) % 4, getattr(helpers.check, ex.name).mistakes
            broken = (i % 10 == 3 and j == 0) or (i % 10 == 7 and j == len(tasks) - 1)
            r.mistakes[ex.name] = ("missing" if broken else None if kind < 2 else
                                   gallery[i % len(gallery)].key if kind == 2 else "not_attempted")
            r.points[ex.name], r.out_of[ex.name] = int(r.mistakes[ex.name] is None), 1
        out.append(r)
    return out


def _report_seconds(paths, results, folder: Path) -> tuple[str, dict]:
    """What the class report adds to grading: written from the rows (as calificar does), then from the CSV; the
    line to print and the figures to record."""
    chosen = grading.latest(grading.collect(paths, {}))
    by_path = dict(zip(paths, results, strict=True))
    rows = grading.student_rows(chosen, [by_path[s.path] for s in chosen])
    grading.write_csv(rows, {}, folder / "notas.csv")
    start, cpu = time.perf_counter(), time.process_time()
    grading.write_report(rows, folder / "informe.html", source="notas.csv")
    fresh, fresh_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    grading.report_from_csv(folder / "notas.csv", folder / "informe_csv.html")
    again = time.perf_counter() - start
    size = (folder / "informe.html").stat().st_size
    return (f"informe de la clase ({len(paths)} entregas, {len(rows)} estudiantes): {fresh:.1f} s desde la "
            f"calificación ({fresh_cpu:.1f} s de CPU), {again:.1f} s desde el CSV; {size / 1e6:.2f} MB",
            {"submissions": len(paths), "students": len(rows), "from_rows_s": round(fresh, 2),
             "from_rows_cpu_s": round(fresh_cpu, 2), "from_csv_s": round(again, 2), "bytes": size})


def _timed(paths, per_path, jobs: int, protect, everything: bool):
    start = time.perf_counter()
    results = grading.grade_all(paths, jobs=jobs, protect=protect, say=lambda line: None, per_path=per_path,
                                everything=everything)
    wall = time.perf_counter() - start
    line, report = _report_seconds(paths, results, paths[0].parent.parent)  # the report, after its grading
    print(line, flush=True)
    return results, wall, report


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=40, help="submissions per notebook")
    p.add_argument("-j", type=int, nargs="+", default=[2])
    p.add_argument("--todas", action="store_true", help="also grade running every cell (calificar --todas)")
    p.add_argument("--sin-bucle", action="store_true", help="without the endless cell")
    p.add_argument("--sandbox", action="store_true", help="grade under helpers.grading's protections, as calificar")
    p.add_argument("--solo-informe", action="store_true", help="only the class report, on the results the "
                                                                "submissions were built to get (no kernel)")
    p.add_argument("--notebook", nargs="+", default=sorted(str(n) for n in Path("notebooks").glob("0[1-5]_*.ipynb")))
    p.add_argument("--medidas", default=str(measurements.FILE), help="where the run is added ('': nowhere)")
    p.add_argument("--prueba", action="store_true", help="a trial run: recorded as not for publication")
    args = p.parse_args()
    protect = _sandbox.available() if args.sandbox else None
    if protect:
        print(_sandbox.describe(protect))
    print(f"{os.cpu_count()} núcleos, {platform.processor() or platform.machine()}, "
          f"{'AVX-512' if 'avx512f' in Path('/proc/cpuinfo').read_text() else 'sin AVX-512'}")
    runs, measured = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        paths, per_path = [], {}
        for name in args.notebook:
            notebook = Path(name)
            student = grading.student_copy(json.loads(notebook.read_text(encoding="utf-8")), notebook.stem)
            folder = Path(tmp) / notebook.stem
            folder.mkdir()
            made = submissions(student, args.n, folder, endless=not args.sin_bucle)
            paths += made
            per_path.update(dict.fromkeys(made, (grading.exercises(student), None)))
        if args.solo_informe:
            line, report = _report_seconds(paths, _as_built(paths, per_path), Path(tmp))
            print(line)
            if args.medidas:  # no grading run: the report's figures alone (no row of the grading table)
                settings = {"n": args.n, "notebooks": [Path(n).stem for n in args.notebook], "solo_informe": True}
                measurements.record(measurements.entry("grading", settings, {"modes": [], "report": report},
                                                       publish=not args.prueba), args.medidas)
            return
        modes = [(j, False) for j in args.j] + ([(min(args.j), True)] if args.todas else [])
        for jobs, everything in modes:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            results, wall, report = _timed(paths, per_path, jobs, protect, everything)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            runs[jobs, everything] = [(r.points, r.messages) for r in results]
            per_nb = {}
            for path, r in zip(paths, results):
                per_nb.setdefault(path.parent.name, []).append(r.seconds)
            print(f"-j {jobs}{' --todas' if everything else ''}: {len(paths)} entregas: {wall / 60:.1f} min de reloj "
                  f"({wall:.0f} s), {cpu:.0f} s de CPU de los procesos hijos; por entrega: "
                  + ", ".join(f"{nb[:2]} {sum(t) / len(t):.1f} s" for nb, t in per_nb.items()), flush=True)
            measured.append({"j": jobs, "todas": everything, "sandbox": bool(protect), "wall_s": round(wall, 1),
                             "cpu_s": round(cpu, 1), "report": report,
                             "per_notebook_s": {nb: round(sum(t) / len(t), 2) for nb, t in per_nb.items()}})
    first = next(iter(runs.values()))
    same = all(r == first for r in runs.values())
    print("mismos puntos y mensajes en todas las corridas" if same else "OJO: las corridas no dan lo mismo")
    if args.medidas:
        settings = {"n": args.n, "notebooks": [Path(n).stem for n in args.notebook], "endless": not args.sin_bucle}
        measurements.record(measurements.entry("grading", settings, {"modes": measured, "same_points": same},
                                               publish=not args.prueba), args.medidas)
    raise SystemExit(0 if same else 1)


if __name__ == "__main__":
    main()
