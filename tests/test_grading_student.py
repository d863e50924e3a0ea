"""The student copies (helpers.grading): every lesson notebook gives one with no reference answer in its cells,
outputs or metadata, graded mode on, and each "Tu turno" found; otter's master notebook is built from the same."""

from __future__ import annotations

import json
import re

import pytest
from conftest import NOTEBOOKS, load

from helpers import grading


def _code(line: str) -> str:
    return line.split("#")[0].strip()


def answer_lines(nb, student) -> dict[str, set[str]]:
    """Per exercise, the code lines of its solution().code that its stub does not already show."""
    out = {}
    for ex in grading.exercises(student):
        stub = {_code(line) for line in student["cells"][ex.stub]["source"].splitlines()}
        out[ex.name] = {_code(line) for line in grading.reference_code(ex).splitlines()} - stub - {""}
    return out


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=lambda p: p.stem)
def copies(request):
    nb = load(request.param)
    return request.param.stem, nb, grading.student_copy(nb)


def test_each_tu_turno_becomes_an_exercise(copies):
    stem, nb, student = copies
    stubs = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).startswith("# Tu turno")]
    found = grading.exercises(student)
    assert len(found) == len(stubs) >= 2, f"{stem}: {len(stubs)} stubs, {len(found)} exercises"
    assert [ex.name for ex in found] == [ex.name for ex in grading.exercises(nb)]


def _every_line(student) -> set[str]:
    """Each line of the copy, code comments cut: cell sources, any text in outputs, the metadata's strings."""
    texts = [json.dumps(student["metadata"], ensure_ascii=False, indent=0)]
    for cell in student["cells"]:
        texts.append(cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]))
        texts += [json.dumps(o, ensure_ascii=False, indent=0) for o in cell.get("outputs", [])]
    return {_code(line) for text in texts for line in text.splitlines()}


def test_no_reference_line_anywhere_in_the_student_copy(copies):
    """Line by line (a whole line of the answer, comments cut), so `return paso_de_salida_ok(...)` is not taken
    for the answer's `return paso`."""
    stem, nb, student = copies
    shown = _every_line(student)
    for name, lines in answer_lines(nb, student).items():
        assert lines, f"{stem}/{name}: no answer line to look for"
        leaked = sorted(lines & shown)
        assert not leaked, f"{stem}: the student copy shows {name}'s answer: {leaked}"


def test_the_leak_test_sees_an_answer_line_kept_in_a_cell():
    nb = load(NOTEBOOKS[2])
    student = grading.student_copy(nb)
    ex = grading.exercises(student)[0]
    line = sorted(answer_lines(nb, student)[ex.name])[0]
    student["cells"][-1]["source"] += f"\n    {line}  # copiada\n"
    assert line in _every_line(student)


def test_nothing_that_gives_the_answer_away(copies):
    stem, nb, student = copies
    assert set(student["metadata"]) <= {"kernelspec", "language_info"}
    for cell in student["cells"]:
        src = cell["source"]
        assert cell["metadata"] == {}
        assert "<details" not in src and not re.search(r"^###\s+La nuestra", src, re.M)
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            assert ".solution(" not in src and ".hint(" not in src, f"{stem}: {src[:80]}"


def test_graded_mode_is_on_before_helpers_is_imported(copies):
    _, _, student = copies
    setup = next(c["source"] for c in student["cells"] if c["cell_type"] == "code")
    assert f'os.environ["{grading.GRADED_ENV}"] = "1"' in setup
    assert setup.index(grading.GRADED_ENV) < setup.index("import helpers")


def test_the_question_text_stays_when_its_details_go():
    nb = {"metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": "import helpers\n", "outputs": [], "execution_count": 1},
        {"cell_type": "markdown", "metadata": {}, "source": "**1.** ¿Cuánto?\n\n<details><summary>Solución</summary>"
                                                            "\n\n42\n</details>"}]}
    student = grading.student_copy(nb)
    assert student["cells"][1]["source"] == "**1.** ¿Cuánto?"


def test_a_name_only_a_dropped_cell_defines_is_reported():
    def cell(kind, src, tags=()):
        return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": src, "outputs": [],
                "execution_count": None}
    nb = {"metadata": {}, "cells": [cell("code", "import helpers\n"), cell("markdown", "### La nuestra"),
                                    cell("code", "def norma(x):\n    return x\n"), cell("markdown", "## Después"),
                                    cell("code", "y = norma(3)\n")]}
    assert grading.missing_after_drop(nb, {1, 2}) == {"norma": (2, 4)}
    with pytest.raises(ValueError, match="norma"):
        grading.student_copy(nb)


def test_the_master_notebook_asks_otter_for_one_question_per_tu_turno(copies):
    stem, nb, student = copies
    master = grading.master_notebook(nb, stem)
    raw = ["".join(c["source"]) for c in master["cells"] if c["cell_type"] == "raw"]
    assert raw[0].startswith("# ASSIGNMENT CONFIG")
    names = [re.search(r"name: (\w+)", r)[1] for r in raw if r.startswith("# BEGIN QUESTION")]
    assert names == [ex.name for ex in grading.exercises(student)]
    tests = [c["source"] for c in master["cells"] if "veredicto = helpers.check." in c["source"]]
    assert len(tests) == len(names) and all("assert veredicto.status == 'correct'" in t for t in tests)
