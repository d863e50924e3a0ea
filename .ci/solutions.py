"""The «Solución» cell under each "Tu turno": a collapsed <details> block (one click away, the same in JupyterLab,
the classic Notebook, Colab and the site) holding the exercise's reference, ``helpers.check.<name>.solution().code``.
helpers is its one source: this writes the code into the notebooks, and tests/test_tu_turno.py checks they agree.

    python .ci/solutions.py            # rewrite the code of every «Solución» cell (adds the missing ones)
    python .ci/solutions.py --check    # exit 1, naming the cells, if any is missing or out of date

Each cell may carry a paragraph before the code (the explanation); only the ```python block is rewritten.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPEN = "<details><summary>Ver la solución</summary>"  # a label that says it opens (classic Notebook draws no ▸)
CODE = re.compile(r"```python\n.*?```", re.S)


def source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def block(code: str, explanation: str = "") -> str:
    """The markdown of a «Solución» cell: explanation (optional), then the code, folded."""
    text = f"{explanation.strip()}\n\n" if explanation.strip() else ""
    return f"{OPEN}\n\n{text}```python\n{code.rstrip()}\n```\n\n</details>"


def is_solution(cell) -> bool:
    return cell["cell_type"] == "markdown" and source(cell).startswith(OPEN)


def expected(nb) -> list[tuple[int, str, str]]:
    """(check cell, exercise, reference code) for every "Tu turno" of a notebook."""
    from helpers import check, grading
    return [(ex.check, ex.name, getattr(check, ex.name).solution().code) for ex in grading.exercises(nb)]


def problems(nb) -> list[str]:
    """What is missing or out of date, one line per exercise."""
    out = []
    for i, name, code in expected(nb):
        after = nb["cells"][i + 1] if i + 1 < len(nb["cells"]) else None
        if after is None or not is_solution(after):
            out.append(f"cell {i + 1}: no «Solución» cell under helpers.check.{name}")
        elif CODE.findall(source(after)) != [f"```python\n{code.rstrip()}\n```"]:
            out.append(f"cell {i + 1}: its code is not helpers.check.{name}.solution().code")
    return out


def rewrite(nb) -> dict:
    """The notebook with every «Solución» cell present and its code the reference's (last exercise first, so the
    indices of the earlier ones hold)."""
    cells = nb["cells"]
    for i, name, code in reversed(expected(nb)):
        if i + 1 < len(cells) and is_solution(cells[i + 1]):
            old = source(cells[i + 1])
            explanation = old[len(OPEN):old.index("```python")] if "```python" in old else ""
            cells[i + 1]["source"] = block(code, explanation)
        else:
            cells.insert(i + 1, {"cell_type": "markdown", "metadata": {}, "source": block(code)})
        cells[i + 1].setdefault("id", f"solucion-{name.replace('_', '-')}")
    return nb


def main(argv: list[str]) -> int:
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    bad = []
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if "--check" in argv:
            bad += [f"{path.name}, {p}" for p in problems(nb)]
            continue
        import nbformat  # writes cell ids and the notebook's own formatting
        nbformat.write(nbformat.from_dict(rewrite(nb)), path)
    print("\n".join(bad) or "las celdas «Solución» están al día")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # as a script, helpers from the checkout; imported (the tests), sys.path untouched
    raise SystemExit(main(sys.argv[1:]))
