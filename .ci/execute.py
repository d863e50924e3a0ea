"""make execute: re-run notebooks top to bottom in a fresh kernel and store their outputs, then the learner's copies.

    python .ci/execute.py notebooks/01_ffn.ipynb [...]   # what `make execute NB=...` runs, with its Python

Each notebook runs with OMP_NUM_THREADS from the environment (make passes THREADS, 1), nbconvert's executor with the
cell timeout of .ci/facts.py, no widget state and no timing stored, streams coalesced. An «Ejercicios» answer cell
(its role: helpers.lesson) is stored without its output and with its code folded, so the learner sees the answer only
when they open or run it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".ci"))
import facts  # noqa: E402  (beside this file)


def execute(path: Path) -> None:
    import nbformat

    from helpers import lesson

    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    f"--ExecutePreprocessor.timeout={facts.CELL_TIMEOUT}",
                    "--ExecutePreprocessor.store_widget_state=False", "--ExecutePreprocessor.record_timing=False",
                    "--NotebookExporter.preprocessors=nbconvert.preprocessors.CoalesceStreamsPreprocessor",
                    str(path)], check=True)
    nb = nbformat.read(path, as_version=4)
    for i in lesson.exercise_answer_cells(nb):
        nb.cells[i].update(outputs=[], execution_count=None)
        if nb.cells[i].cell_type == "code":
            lesson.fold_code(nb.cells[i])
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    for name in argv:
        execute(Path(name))
    return subprocess.run([sys.executable, str(ROOT / ".ci" / "learner_copies.py")]).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
