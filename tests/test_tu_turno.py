""""Tu turno" in the notebooks: every notebook has two to four, each a stub cell and a check cell under it; the
stored notebook keeps the stubs (its check cells say "sin intentar"), and the notebook with every stub replaced
by the checker's own solution() says "correct" at every check and still runs top to bottom."""

from __future__ import annotations

import re

import nbclient
import nbformat
import pytest
from conftest import NOTEBOOKS, ROOT

from helpers import check

CHECK = re.compile(r'^helpers\.check\.(\w+)\((\w+)(?:, "(\w+)")?\)$')
ids = [nb.name for nb in NOTEBOOKS]


def exercises(notebook) -> list[tuple[int, str, str, str | None]]:
    """(index of the check cell, checker, learner's name, form) for each check cell."""
    found = []
    for i, cell in enumerate(notebook.cells):
        m = CHECK.match(cell.source.strip()) if cell.cell_type == "code" else None
        if m:
            found.append((i, m.group(1), m.group(2), m.group(3)))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_stored_notebook_has_two_to_four_stubs_not_attempted(path):
    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    assert 2 <= len(found) <= 4, f"{path.name}: {len(found)} 'Tu turno' exercises; the series asks for 2 to 4"
    for i, name, learner, _ in found:
        assert name in check.EXERCISES, f"{path.name}: helpers.check.{name} does not exist"
        stub, intro = nb.cells[i - 1], nb.cells[i - 2]
        assert stub.cell_type == "code" and stub.source.startswith("# Tu turno"), (
            f"{path.name}, cell {i - 1}: the cell above a check is the learner's stub, starting '# Tu turno'")
        assert re.search(rf"^(def|class) {learner}\b", stub.source, re.M), f"{path.name}: stub defines no {learner}"
        assert intro.cell_type == "markdown" and intro.source.startswith("### Tu turno"), (
            f"{path.name}, cell {i - 2}: a '### Tu turno' paragraph introduces each exercise")
        assert f"helpers.check.{name}.hint(1)" in intro.source and f"helpers.check.{name}.solution()" in intro.source
        text = "".join(o.get("data", {}).get("text/plain", "") for o in nb.cells[i].get("outputs", []))
        assert "sin intentar todavía" in text, f"{path.name}, cell {i}: stored verdict is not 'not attempted': {text!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_notebook_with_the_solutions_pasted_is_correct_and_runs(path):
    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    for i, name, learner, form in found:
        code = check.EXERCISES[name].solution(form).code
        assert re.search(rf"^(def|class) {learner}\b", code, re.M), f"solution() of {name} defines no {learner}"
        nb.cells[i - 1].source = code
        call = nb.cells[i].source.strip()
        nb.cells[i].source = f'_v = {call}\nassert _v.status == "correct", _v\n_v'
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [(i, o["ename"], o["evalue"][:300]) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name} with the solutions pasted: cells that stop with an error: {errors}"
    for i, name, _, _ in found:
        text = "".join(o.get("data", {}).get("text/plain", "") for o in nb.cells[i].get("outputs", []))
        assert "¡correcto!" in text, f"{path.name}, cell {i} (helpers.check.{name}): {text!r}"
