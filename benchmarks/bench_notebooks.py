"""How long "Ejecutar todas" takes, per notebook: a fresh kernel runs every cell, as a learner's "Run all" does;
wall time from the first cell's start to the last cell's end, the kernel's CPU time, and the sections that take
the most (docs/docente.md quotes these numbers).

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/bench_notebooks.py [notebooks/01_ffn.ipynb ...]
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parent.parent


def _seconds(cell) -> float:
    t = cell.metadata.get("execution", {})
    start, end = t.get("iopub.execute_input"), t.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    return (dt.datetime.fromisoformat(end.replace("Z", "+00:00"))
            - dt.datetime.fromisoformat(start.replace("Z", "+00:00"))).total_seconds()


def run(path: Path) -> tuple[float, float, dict[str, float]]:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                                     resources={"metadata": {"path": str(path.parent)}})
    cpu = "import resource as _r; _u = _r.getrusage(_r.RUSAGE_SELF); print(_u.ru_utime + _u.ru_stime)"
    nb.cells.append(nbformat.v4.new_code_cell(cpu))
    start = time.perf_counter()
    client.execute()
    total = time.perf_counter() - start
    kernel_cpu = float(nb.cells[-1].outputs[0]["text"])
    sections, current = {}, "preparación"
    for cell in nb.cells[:-1]:
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            if line.startswith("## "):  # a section can start in the middle of a markdown cell
                current = line[3:].strip()
        sections[current] = sections.get(current, 0.0) + _seconds(cell)
    return total, kernel_cpu, sections


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(sin fijar)')}, load {os.getloadavg()[0]:.2f}")
    for path in paths:
        total, cpu, sections = run(path)
        top = sorted(sections.items(), key=lambda kv: -kv[1])[:3]
        print(f"{path.name}: {total:.1f} s de reloj (con el arranque del kernel), {cpu:.1f} s de CPU del kernel; "
              + "; ".join(f"{name[:40]} {s:.1f} s" for name, s in top))


if __name__ == "__main__":
    main(sys.argv[1:])
