"""Grading end to end (helpers.grading), on notebook 03's student copy: the reference answers get full marks, the
untouched copy zero, a known mistake per exercise (the checkers' own galleries) partial marks with its message, and
a submission with an endless cell, a syntax error and a deleted cell is stopped and still graded. Each submission
runs in its own kernel (about 10 to 25 s each); building otter's bundle is one more run of otter assign."""

from __future__ import annotations

import ast
import csv
import inspect
import json
import textwrap
import zipfile

import pytest
from conftest import ROOT, load

import helpers.check
from helpers import grading
from helpers.grading.__main__ import main

pytestmark = pytest.mark.grading
NB = ROOT / "notebooks" / "03_layernorm.ipynb"
LOOP_TIMEOUT_S = 30  # the endless cell is interrupted after this; 03's slowest cell takes a few seconds


def mistake_source(ex: grading.Exercise) -> tuple[str, object]:
    """The first known mistake of the exercise, as a learner would write it under the expected name."""
    mistake = getattr(helpers.check, ex.name).mistakes[0]
    node = ast.parse(textwrap.dedent(inspect.getsource(mistake.fn))).body[0]
    node.decorator_list = []
    return f"{ast.unparse(node)}\n\n\n{ex.variable} = {node.name}\n", mistake


def submission(student, folder, name, answers: dict[int, str], extra: dict[int, str] = (), drop=()):
    """Write a copy of the student notebook with stub cells replaced, code cells inserted before, cells removed."""
    nb = json.loads(json.dumps(student))
    for i, src in answers.items():
        nb["cells"][i]["source"] = src
    cells = []
    for i, cell in enumerate(nb["cells"]):
        if i in dict(extra):
            cells.append({"cell_type": "code", "id": f"extra-{i}", "metadata": {}, "source": dict(extra)[i],
                          "outputs": [], "execution_count": None})
        if i not in drop:
            cells.append(cell)
    nb["cells"] = cells
    path = folder / f"{name}.ipynb"
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("entregas")
    student = grading.student_copy(load(NB))
    first, second = grading.exercises(student)
    ref = {ex.stub: grading.reference_code(ex) for ex in (first, second)}
    (bad1, m1), (bad2, m2) = mistake_source(first), mistake_source(second)
    paths = {
        "referencia": submission(student, folder, "referencia", ref),
        "sin_tocar": submission(student, folder, "sin_tocar", {}),
        "error_1": submission(student, folder, "error_1", {**ref, first.stub: bad1}),
        "error_2": submission(student, folder, "error_2", {**ref, second.stub: bad2}),
        "rota": submission(student, folder, "rota", ref, extra={first.stub: "while True:\n    pass\n",
                                                                 second.check: "def roto(:\n"},
                           drop={second.stub}),
    }
    tasks = grading.exercises(student)
    results = {name: grading.grade(path, tasks, timeout=LOOP_TIMEOUT_S) for name, path in paths.items()}
    return results, (first, second), (m1, m2), folder


def test_the_reference_answers_get_full_marks(graded):
    results, exs, _, _ = graded
    r = results["referencia"]
    assert r.points == {ex.name: 1 for ex in exs} and r.total == 2, r
    assert r.problems == [], r.problems


def test_an_untouched_copy_gets_zero(graded):
    results, exs, _, _ = graded
    r = results["sin_tocar"]
    assert r.total == 0 and set(r.points) == {ex.name for ex in exs}
    assert all("Completá la celda de arriba" in m for m in r.messages.values()), r.messages


@pytest.mark.parametrize("k", [0, 1])
def test_a_known_mistake_costs_its_exercise_with_its_message(graded, k):
    results, exs, mistakes, _ = graded
    r = results[f"error_{k + 1}"]
    wrong, right = exs[k], exs[1 - k]
    assert r.points == {wrong.name: 0, right.name: 1}, r
    assert r.mistakes[wrong.name] == mistakes[k].key
    assert mistakes[k].message in r.messages[wrong.name]
    assert r.messages[right.name] == ""


def test_an_endless_cell_is_stopped_and_the_rest_still_graded(graded):
    results, exs, _, _ = graded
    r = results["rota"]
    first, second = exs
    assert r.points == {first.name: 1, second.name: 0}, r
    assert r.messages[second.name] == f"no encontré `{second.variable}`: ¿borraste o no corriste su celda?"
    problems = " ".join(r.problems)
    assert "KeyboardInterrupt" in problems or "CellTimeoutError" in problems, r.problems
    assert "SyntaxError" in problems, r.problems


def test_the_csv_has_a_row_per_submission_and_a_column_per_exercise(graded, tmp_path):
    results, exs, _, _ = graded
    out = tmp_path / "notas.csv"
    grading.write_csv(list(results.values()), out)
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert [row["entrega"] for row in rows] == [f"{n}.ipynb" for n in results]
    assert [row["total"] for row in rows] == ["2", "0", "1", "1", "1"]
    assert all(row["de"] == "2" and {ex.name, f"mensaje {ex.name}"} <= set(row) for row in rows for ex in exs)


def test_the_folder_command_writes_a_row_even_for_what_is_not_a_notebook(tmp_path, capsys):
    folder = tmp_path / "entregas"
    folder.mkdir()
    (folder / "roto.ipynb").write_text("esto no es un notebook", encoding="utf-8")
    assert main(["calificar", str(folder), "--csv", str(tmp_path / "n.csv"), "--tarea", str(NB)]) == 0
    assert "roto.ipynb: 0 de 2 puntos" in capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "n.csv").open(encoding="utf-8-sig")))
    assert len(rows) == 1 and rows[0]["total"] == "0" and "no pude leer la entrega" in rows[0]["problemas"]


def test_otter_assign_builds_the_bundle_from_the_same_checks(tmp_path):
    pytest.importorskip("otter", reason="otter-grader is the docente extra")
    made = grading.build(ROOT, tmp_path, [NB])
    assert made == [tmp_path / NB.stem / f"{NB.stem}.ipynb"]
    assert json.loads(made[0].read_text(encoding="utf-8")) == grading.student_copy(load(NB))
    with zipfile.ZipFile(tmp_path / NB.stem / "autograder.zip") as z:
        tests = {n: z.read(n).decode() for n in z.namelist() if n.startswith("tests/")}
        env = z.read("environment.yml").decode()
    assert set(tests) == {"tests/layer_norm.py", "tests/rms_norm.py"}
    assert "helpers.check.layer_norm(mi_layer_norm)" in tests["tests/layer_norm.py"]
    assert "'points': 1" in tests["tests/layer_norm.py"]
    assert "leccion06-helpers @ git+" in env and "otter-grader" in env
