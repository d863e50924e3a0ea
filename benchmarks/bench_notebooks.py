"""How long "Ejecutar todas" takes, per notebook: a fresh kernel runs every cell, as a learner's "Run all" does;
wall time with the kernel's start, the kernel's CPU time, the slowest cell (what a learner waits for when re-running
one) and the sections that take the most; the median of --runs runs (3). Issue 39's targets: each notebook within
30 s and no cell over 10 s, at 2 threads. The run goes to benchmarks/measurements.json (docs/docente.md's compute
table is made from it: make medidas); --prueba marks it as not for publication, --medidas PATH writes elsewhere.

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/bench_notebooks.py [--runs 3] [--prueba] [notebooks/01_ffn.ipynb ...]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

import measurements
import nbclient
import nbformat

from helpers import lesson

ROOT = Path(__file__).resolve().parent.parent


def _seconds(cell) -> float:
    t = cell.metadata.get("execution", {})
    start, end = t.get("iopub.execute_input"), t.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    return (dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
            - dt.datetime.fromisoformat(start.replace("Z", "+00:00"))).total_seconds()


def run(path: Path) -> tuple[float, float, dict[str, float], tuple[float, int, str]]:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                                     resources={"metadata": {"path": str(path.parent)}})
    cpu = "import resource as _r; _u = _r.getrusage(_r.RUSAGE_SELF); print(_u.ru_utime + _u.ru_stime)"
    nb.cells.append(nbformat.v4.new_code_cell(cpu))
    start = time.perf_counter()
    client.execute()
    total = time.perf_counter() - start
    kernel_cpu = float(nb.cells[-1].outputs[0]["text"])
    sections, current, slowest = {}, "preparación", (0.0, 0, "")
    for i, cell in enumerate(nb.cells[:-1]):
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            if line.startswith("## "):  # a section can start in the middle of a markdown cell
                current = line[3:].strip()
        sections[current] = sections.get(current, 0.0) + _seconds(cell)
        if cell.cell_type == "code":
            slowest = max(slowest, (_seconds(cell), i, current))
    return total, kernel_cpu, sections, slowest


def figures(done: list) -> dict:
    """One notebook's runs as benchmarks/measurements.json keeps them (the median run's sections)."""
    walls = [r[0] for r in done]
    cell_s, cell, section = max(r[3] for r in done)
    return {"wall_s": {"median": round(statistics.median(walls), 2), "min": round(min(walls), 2),
                       "max": round(max(walls), 2)},
            "kernel_cpu_s": {"median": round(done[len(done) // 2][1], 2)},
            "slowest": {"s": round(cell_s, 2), "cell": cell, "section": section},
            "sections_s": {name: round(s, 2) for name, s in done[len(done) // 2][2].items()}}


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--medidas", default=str(measurements.FILE), help="where the run is added ('': nowhere)")
    ap.add_argument("--prueba", action="store_true", help="a trial run: recorded as not for publication")
    ap.add_argument("notebooks", nargs="*")
    args = ap.parse_args(argv)
    runs = args.runs
    paths = [Path(a) for a in args.notebooks] or lesson.notebooks(ROOT / "notebooks")
    cpu_flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    load_at_start = os.getloadavg()[0]
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(sin fijar)')}, {os.cpu_count()} núcleos, "
          f"{'AVX-512' if 'avx512f' in cpu_flags else 'AVX2' if 'avx2' in cpu_flags else 'sin AVX2'}, "
          f"load {load_at_start:.2f}, mediana de {runs}")
    measured = {}
    for path in paths:
        done = sorted((run(path) for _ in range(runs)), key=lambda r: r[0])
        total, cpu, sections, _ = done[len(done) // 2]
        cell_s, cell, _ = max(r[3] for r in done)
        top = sorted(sections.items(), key=lambda kv: -kv[1])[:3]
        print(f"{path.name}: {total:.1f} s de reloj (con el arranque del kernel; de {done[0][0]:.1f} a "
              f"{done[-1][0]:.1f}), {cpu:.1f} s de CPU del kernel; la celda más lenta, la {cell}: {cell_s:.1f} s; "
              + "; ".join(f"{name[:40]} {s:.1f} s" for name, s in top), flush=True)
        measured[path.stem] = figures(done)
    if args.medidas:
        threads = os.environ.get("OMP_NUM_THREADS")
        settings = {"threads": int(threads) if threads and threads.isdigit() else None, "runs": runs,
                    "load_at_start": round(load_at_start, 2)}
        measurements.record(measurements.entry("notebooks", settings, {"notebooks": measured},
                                               publish=not args.prueba), args.medidas)


if __name__ == "__main__":
    main(sys.argv[1:])
