"""The «Solución» cell under each "Tu turno": a collapsed <details> block (one click away, the same in JupyterLab,
the classic Notebook, Colab and the site) holding the exercise's reference, ``helpers.check.<name>.solution().code``.
helpers is its one source: this writes the code into the notebooks, and tests/test_tu_turno.py checks they agree.

    python .ci/solutions.py            # rewrite the code of every «Solución» cell (adds the missing ones)
    python .ci/solutions.py --check    # exit 1, naming the cells, if any is missing or out of date

Each cell may carry a paragraph before the code (the explanation); only the ```python block is rewritten. Which
cell is which («Tu turno» parts, in each cell's metadata) is read by helpers.lesson; a new «Solución» cell gets its
role there.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"```python\n.*?```", re.S)


def _lesson():
    from helpers import lesson  # as a script, from the checkout (main puts it on sys.path); imported, as it is
    return lesson


def block(code: str, explanation: str = "") -> str:
    """The markdown of a «Solución» cell: explanation (optional), then the code, folded."""
    text = f"{explanation.strip()}\n\n" if explanation.strip() else ""
    return f"{_lesson().SOLUTION_OPEN}\n\n{text}```python\n{code.rstrip()}\n```\n\n</details>"


def expected(nb) -> list[tuple[object, str]]:
    """(the exercise's cells, reference code) for every "Tu turno" of a notebook."""
    from helpers import check
    return [(ex, getattr(check, ex.name).solution().code) for ex in _lesson().exercise_cells(nb)]


def problems(nb) -> list[str]:
    """What is missing or out of date, one line per exercise."""
    out = []
    for ex, code in expected(nb):
        if ex.check is None:
            out.append(f"{ex.name}: no check cell helpers.check.{ex.name}(<variable>)")
        elif ex.solution is None or ex.solution != ex.check + 1:
            out.append(f"cell {ex.check + 1}: no «Solución» cell under helpers.check.{ex.name}")
        elif CODE.findall(_lesson().source(nb["cells"][ex.solution])) != [f"```python\n{code.rstrip()}\n```"]:
            out.append(f"cell {ex.solution}: its code is not helpers.check.{ex.name}.solution().code")
    return out


def rewrite(nb) -> dict:
    """The notebook with every «Solución» cell present (its role in its metadata) and its code the reference's (last
    exercise first, so the indices of the earlier ones hold)."""
    lesson, cells = _lesson(), nb["cells"]
    for ex, code in reversed(expected(nb)):
        if ex.check is None:
            continue
        if ex.solution is not None:
            old = lesson.source(cells[ex.solution])
            start = len(lesson.SOLUTION_OPEN) if old.startswith(lesson.SOLUTION_OPEN) else 0
            explanation = old[start:old.index("```python")] if "```python" in old else ""
            cells[ex.solution]["source"] = block(code, explanation)
        else:
            cells.insert(ex.check + 1, {"cell_type": "markdown", "metadata": {}, "source": block(code)})
            lesson.mark(cells[ex.check + 1], exercise=(ex.name, "solution"))
            cells[ex.check + 1].setdefault("id", f"solucion-{ex.name.replace('_', '-')}")
    return nb


def main(argv: list[str]) -> int:
    paths = _lesson().notebooks(ROOT / "notebooks")
    bad, written = [], 0
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if "--check" in argv:
            bad += [f"{path.name}, {p}" for p in problems(nb)]
            continue
        import nbformat  # writes cell ids and the notebook's own formatting
        before = path.read_text(encoding="utf-8")
        nbformat.write(nbformat.from_dict(rewrite(nb)), path)
        written += path.read_text(encoding="utf-8") != before
    if "--check" in argv:
        print("\n".join(bad) or "las celdas «Solución» están al día")
    else:
        print(f"celdas «Solución» reescritas en {written} de {len(paths)} notebooks" if written
              else "las celdas «Solución» ya estaban al día")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # as a script, helpers from the checkout; imported (the tests), sys.path untouched
    raise SystemExit(main(sys.argv[1:]))
