"""The student copies (helpers.grading): every lesson notebook gives one with no reference answer in its cells,
outputs or metadata, graded mode on, and each "Tu turno" found; otter's master notebook is built from the same.
The tests parametrized by ``copies`` and test_a_student_copy_has_no_colab_badge_to_the_lesson_notebook read every
real lesson notebook (its exercises read from it); the others use a synthetic lesson (tests/grading_fixtures.py)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import NOTEBOOKS, load
from grading_fixtures import STEM, lesson_notebook
from grading_fixtures import student as synthetic_copy

from helpers import grading, lesson


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
    return request.param.stem, nb, grading.student_copy(nb, request.param.stem, None, "9.9.9")


def test_each_tu_turno_becomes_an_exercise(copies):
    stem, nb, student = copies
    stubs = [ex.stub for ex in lesson.exercise_cells(nb)]
    found = grading.exercises(student)
    least = 1  # one at least: 05's core and each «Para ir más lejos» carry one (tests/test_tu_turno.py says why)
    assert len(found) == len(stubs) >= least, f"{stem}: {len(stubs)} stubs, {len(found)} exercises"
    assert [ex.name for ex in found] == [ex.name for ex in grading.exercises(nb)]


def _every_line(student) -> set[str]:
    """Each line of the copy, code comments cut: cell sources, any text in outputs, the metadata's strings."""
    texts = [json.dumps(student["metadata"], ensure_ascii=False, indent=0)]
    for cell in student["cells"]:
        texts.append(cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]))
        texts.append(json.dumps(cell["metadata"], ensure_ascii=False, indent=0))
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
    nb = lesson_notebook()
    student = grading.student_copy(nb)
    ex = grading.exercises(student)[0]
    line = sorted(answer_lines(nb, student)[ex.name])[0]
    student["cells"][-1]["source"] += f"\n    {line}  # copiada\n"
    assert line in _every_line(student)


def test_nothing_that_gives_the_answer_away(copies):
    stem, nb, student = copies
    assert set(student["metadata"]) <= {"kernelspec", "language_info", grading.MARKER_KEY}
    for cell in student["cells"]:
        src = cell["source"]
        # only what the cell is (grading reads the copy's exercises there), never a solution or an answer
        assert set(cell["metadata"]) <= {lesson.KEY}, cell["metadata"]
        role = lesson.roles(cell)
        assert role.get("exercise", {}).get("part") != "solution" and not role.get("exercise_answer"), role
        assert "<details" not in src and not re.search(r"^###\s+La nuestra", src, re.M)
        assert ".solution(" not in src, f"{stem}: a {cell['cell_type']} cell points at the solution: {src[-160:]}"
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            assert ".hint(" not in src, f"{stem}: {src[:80]}"


def test_the_copy_says_which_notebook_and_release_it_is(copies):
    stem, nb, student = copies
    names = [ex.name for ex in grading.exercises(nb)]
    assert student["metadata"][grading.MARKER_KEY] == {"notebook": stem, "version": "9.9.9", "copia": "estudiante",
                                                       "puntos": dict.fromkeys(names, 1)}


def test_the_first_code_cell_asks_who_hands_it_in(copies):
    stem, _, student = copies
    first = next(c for c in student["cells"] if c["cell_type"] == "code")
    assert 'NOMBRE = ""' in first["source"] and 'LEGAJO = ""' in first["source"]
    assert f"copia para entregar de {stem} (versión 9.9.9)" in first["source"]
    assert "import helpers" not in first["source"], "the name cell must run without helpers"


def test_the_pointer_at_the_solution_is_cut_from_the_sentence():
    for text, cut in [("¿Te trabaste? `helpers.check.mask.hint(1)`; la nuestra: `helpers.check.mask.solution()`.",
                       "¿Te trabaste? `helpers.check.mask.hint(1)`."),
                      ("(y `hint(2)` otra); `helpers.check.ffn.solution()` muestra la nuestra.", "(y `hint(2)` otra)."),
                      ("`hint(2)`, y `helpers.check.warmup.solution()` muestra la nuestra.", "`hint(2)`."),
                      ("más directa; `helpers.check.rms_norm.solution()` muestra una solución.", "más directa."),
                      ("Tres pistas: `hint(1)`, `hint(2)` y `hint(3)`. `helpers.check.ffn.solution()` muestra la "
                       "nuestra.", "Tres pistas: `hint(1)`, `hint(2)` y `hint(3)`."),
                      ("Cada pista nombra otra, más directa. La nuestra: `helpers.check.mask.solution()`.\n\nSigue.",
                       "Cada pista nombra otra, más directa.\n\nSigue."),
                      ("`helpers.check.mask.solution()` muestra la nuestra.", "")]:
        assert grading.unsolved(text) == cut


def test_no_sentence_of_a_student_copy_is_left_broken_by_the_cut(copies):
    """What the cut leaves reads as Spanish: no «..», no «La nuestra:.», no dangling «;» or «,» before a full stop."""
    stem, _, student = copies
    for cell in student["cells"]:
        if cell["cell_type"] == "markdown":
            prose = re.sub(r"`[^`]*`", "`x`", re.sub(r"```.*?```", "", cell["source"], flags=re.S))
            broken = re.findall(r".{0,40}(?:\.\.(?!\.)|[:;,]\s*\.).{0,10}", prose.replace("…", ""))
            assert not broken, f"student copy of {stem}: {broken}"


def test_graded_mode_is_on_before_helpers_is_imported(copies):
    _, _, student = copies
    setup = next(c["source"] for c in student["cells"] if c["cell_type"] == "code" and "import helpers" in c["source"])
    assert f'os.environ["{grading.GRADED_ENV}"] = "1"' in setup
    assert setup.index(grading.GRADED_ENV) < setup.index("import helpers")


def test_the_question_text_stays_when_its_details_go():
    nb = {"metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": "import helpers\n", "outputs": [], "execution_count": 1},
        {"cell_type": "markdown", "metadata": {}, "source": "**1.** ¿Cuánto?\n\n<details><summary>Solución</summary>"
                                                            "\n\n42\n</details>"}]}
    student = grading.student_copy(nb)
    assert student["cells"][2]["source"] == "**1.** ¿Cuánto?"


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


# ------------------------------------------------------------------ the points file, who handed in what, and when

KNOWN = {"03_layernorm": ["layer_norm", "rms_norm"], "04_encoder_block": ["block_pre", "mask"]}


def _points(tmp_path, text):
    path = tmp_path / "puntos.ini"
    path.write_text(text, encoding="utf-8")
    return grading.read_points(path, KNOWN)


def test_the_points_file_names_what_counts_and_its_worth(tmp_path):
    text = "# la tarea\n[03_layernorm]\nrms_norm = 2   # lo que no se hizo en clase\n[04_encoder_block]\nmask = 1,5\n"
    assert _points(tmp_path, text) == {"03_layernorm": {"rms_norm": 2.0}, "04_encoder_block": {"mask": 1.5}}


@pytest.mark.parametrize("text, said", [
    ("[03_layernorm]\nlayernorm = 1\n", "no hay un ejercicio «layernorm» en 03_layernorm. Los que hay: layer_norm, "
                                        "rms_norm"),
    ("[03_layer]\nrms_norm = 1\n", "no hay un notebook «03_layer». Los que hay: 03_layernorm, 04_encoder_block"),
    ("[03_layernorm]\nrms_norm = dos\n", "«dos» no es un puntaje"),
    ("[03_layernorm]\nrms_norm = -1\n", "«-1» no es un puntaje"),
    ("[03_layernorm]\nrms_norm = 0\n", "para que un ejercicio no entre en la nota, borrá su línea"),
    ("[03_layernorm]\n", "[03_layernorm]: no nombra ningún ejercicio. Los de 03_layernorm: layer_norm, rms_norm"),
    ("rms_norm = 1\n", "no se entiende"),
    ("", "no nombra ningún notebook"),
])
def test_a_wrong_points_file_says_what_and_what_is_valid(tmp_path, text, said):
    with pytest.raises(grading.PointsError, match=re.escape(said)):
        _points(tmp_path, text)


def test_an_exercise_left_out_stays_as_practice():
    nb = lesson_notebook()
    first, second = grading.exercises(nb)
    student = grading.student_copy(nb, STEM, {second.name: 2}, "9.9.9")
    first, second = grading.exercises(student)
    stubs = {ex.name: lesson.source(nb["cells"][ex.stub]) for ex in grading.exercises(nb)}
    assert student["cells"][first.stub]["source"] == lesson.stub_labelled(stubs[first.name],
                                                                          "práctica: no entra en la nota")
    assert student["cells"][second.stub]["source"] == lesson.stub_labelled(stubs[second.name], "2 puntos")
    assert "(2 puntos)" in student["cells"][second.stub]["source"].splitlines()[0]
    assert student["metadata"][grading.MARKER_KEY]["puntos"] == {second.name: 2}
    master = grading.master_notebook(nb, "x", student)
    questions = [c["source"] for c in master["cells"] if c["source"].startswith("# BEGIN QUESTION")]
    assert questions == [f"# BEGIN QUESTION\nname: {second.name}\npoints: 2\ncheck_cell: false"]


def _handed_in(tmp_path, name, legajo="", when=None, printed=None, file=f"Copia de {STEM}.ipynb"):
    student = synthetic_copy(version="9.9.9")
    cell = next(c for c in student["cells"] if c["cell_type"] == "code")
    cell["source"] = cell["source"].replace('NOMBRE = ""', f'NOMBRE = "{name}"').replace(
        'LEGAJO = ""', f'LEGAJO = "{legajo}"')
    if printed:
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"Entrega de x, corrida el {printed}\n"}]
    if when:
        cell["metadata"] = {"executionInfo": {"status": "ok", "timestamp": when, "elapsed": 10}}
    path = tmp_path / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(student, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_name_and_time_come_from_the_notebook_not_the_file(tmp_path):
    path = _handed_in(tmp_path, "  Ana   Pérez ", "L-12", when=1_767_000_000_000, printed="2025-01-01T10:00:00-03:00")
    who = grading.identify(json.loads(path.read_text(encoding="utf-8")), path)
    assert (who.name, who.student_id, who.notebook) == ("Ana Pérez", "L-12", STEM)
    assert who.time.timestamp() == 1_767_000_000 and who.time_source == "hora de la última celda corrida"
    path = _handed_in(tmp_path, "Ana", printed="2025-01-01T10:00:00-03:00")
    who = grading.identify(json.loads(path.read_text(encoding="utf-8")), path)
    assert who.time.isoformat() == "2025-01-01T10:00:00-03:00" and who.time_source.startswith("hora que imprimió")
    path = _handed_in(tmp_path, "")
    who = grading.identify(json.loads(path.read_text(encoding="utf-8")), path)
    assert who.name == "" and who.time_source == "fecha del archivo"


def test_a_resubmission_keeps_the_latest_and_says_so(tmp_path):
    old = _handed_in(tmp_path / "a", "Ana Pérez", "L-12", printed="2025-01-02T10:00:00+00:00")
    new = _handed_in(tmp_path / "b", "ana perez", "l 12", printed="2025-01-02T11:30:00+00:00", file="x (1).ipynb")
    other = _handed_in(tmp_path / "c", "Ana Pérez", "L-13", printed="2025-01-02T09:00:00+00:00")
    chosen = grading.latest(grading.collect([new, old, other], {}))
    assert sorted(s.path for s in chosen) == sorted([new, other])
    note = next(s.note for s in chosen if s.path == new)
    # each file by its path within the submissions' folder (here, their common parent)
    assert note.startswith(f"2 entregas de {STEM}: califiqué la última, b/x (1).ipynb"), note
    assert f"no califiqué a/{old.name}" in note, note


def test_the_teachers_copy_is_flagged_and_the_students_is_not():
    lesson = lesson_notebook()
    student = grading.student_copy(lesson, STEM, None, "9.9.9")
    assert grading.alerts(student) == []
    said = " ".join(grading.alerts(lesson))
    assert "copia del docente" in said and "marca de la copia para entregar" in said
    off = json.loads(json.dumps(student))
    setup = next(c for c in off["cells"] if "import helpers" in c["source"])
    setup["source"] = setup["source"].replace('= "1"', '= "0"')
    assert grading.alerts(off) == ["el modo calificado está apagado en su celda de preparación"]


def test_a_student_copy_has_no_colab_badge_to_the_lesson_notebook():
    """The title cell's «Abrir en Colab» opens the release's lesson notebook, folded solutions and all."""
    for path in NOTEBOOKS:
        nb = load(path)
        assert "colab-badge" in "".join(nb["cells"][0]["source"]), f"{path.name}: the lesson notebook has its badge"
        copy = grading.student_copy(nb, path.stem)
        text = "".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "markdown")
        assert "colab.research.google.com" not in text, f"{path.name}: the student copy links to the lesson notebook"
