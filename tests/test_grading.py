"""Grading end to end (helpers.grading), on a synthetic lesson's student copy (tests/grading_fixtures.py: two pure-
Python «Tu turno», escape_step and warmup): the reference answers get full marks, the untouched copy zero, a known
mistake per exercise (the checkers' own galleries) partial marks with its message, and a submission with an endless
cell, a syntax error and a deleted cell is stopped and still graded; a cell no check needs is not run, and running
every cell gives the same grades. Each submission runs in its own kernel (a few seconds each: only the cells the
checks need); building otter's bundle is one more run of otter assign.

On a real lesson notebook, end to end, reading its exercises from it (no exercise name or cell number written here):
test_a_class_graded_end_to_end (armar over the repository and calificar on notebook 03's copies). Every real
notebook's student copy and otter master notebook are checked in tests/test_grading_student.py."""

from __future__ import annotations

import csv
import json
import os
import re
import zipfile

import pytest
from conftest import ROOT, load
from grading_fixtures import (
    EXERCISES,
    STEM,
    mistake_source,
    reference,
    renamed,
    student,
    submission,
    uses_torch,
    write_lesson,
)

import helpers
from helpers import grading
from helpers.grading.__main__ import main

pytestmark = pytest.mark.grading
# the endless cell is interrupted after this; the slowest needed cell, the series' setup cell, takes 0.8 s on a
# 2-core Zen 1 EPYC, a few s when loaded (torch is loaded before the first cell: helpers.grading._grade._LAUNCHER)
LOOP_TIMEOUT_S = 10
REAL_03 = ROOT / "notebooks" / "03_layernorm.ipynb"  # test_a_class_graded_end_to_end's lesson


@pytest.fixture(scope="module")
def lesson_path(tmp_path_factory):
    """The synthetic lesson notebook, written where armar (--raiz) and calificar (--tarea) read one."""
    return write_lesson(tmp_path_factory.mktemp("raiz"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("entregas")
    copy = student()
    first, second = grading.exercises(copy)
    ref = {ex.stub: reference(ex) for ex in (first, second)}
    (bad1, m1), (bad2, m2) = mistake_source(first), mistake_source(second)
    paths = {
        "referencia": submission(copy, folder, "referencia", ref),
        "sin_tocar": submission(copy, folder, "sin_tocar", {}),
        "error_1": submission(copy, folder, "error_1", {**ref, first.stub: bad1}),
        "error_2": submission(copy, folder, "error_2", {**ref, second.stub: bad2}),
        # the second answer under another name than its check reads
        "renombrada": submission(copy, folder, "renombrada", {**ref, second.stub: renamed(second)}),
        # the first answer is followed by a loop that never ends (trying it out); the second stub is deleted
        "rota": submission(copy, folder, "rota", {first.stub: ref[first.stub] + "\nwhile True:\n    pass\n"},
                           extra={second.check: "def roto(:\n"}, drop={second.stub}),
        # a cell no check needs, that never ends: a graded run does not run it (had it run, it left a file)
        "sin_uso": submission(copy, folder, "sin_uso", ref, extra={
            first.stub: f"open({str(folder / 'sin_uso-corrio')!r}, 'w').close()\nlento = 0\nwhile True:\n"
                        "    lento += 1\n"}),
        # `import torch` deleted from the setup cell, answers that call torch: the torch the grader's kernel loads
        # before the first cell (helpers.grading._grade._LAUNCHER) must not stand in for it
        "sin_import": submission(copy, folder, "sin_import", {ex.stub: uses_torch(ex) for ex in (first, second)},
                                 setup=lambda src: src.replace("\nimport torch\n", "\n")),
    }
    tasks = grading.exercises(copy)
    results = {name: grading.grade(path, tasks, timeout=LOOP_TIMEOUT_S) for name, path in paths.items()}
    return results, (first, second), (m1, m2), paths


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


def test_an_answer_under_another_name_is_not_found(graded):
    results, (first, second), _, _ = graded
    r = results["renombrada"]
    assert r.points == {first.name: 1, second.name: 0}, r
    assert r.messages[second.name] == f"no encontré `{second.variable}`: ¿borraste o no corriste su celda?"
    assert r.problems == [f"la celda {second.check + 1} (el control de {second.name}) falló: NameError: name "
                          f"'{second.variable}' is not defined"], r.problems


def test_an_endless_cell_is_stopped_and_the_rest_still_graded(graded):
    results, exs, _, _ = graded
    r = results["rota"]
    first, second = exs
    assert r.points == {first.name: 1, second.name: 0}, r
    assert r.messages[second.name] == f"no encontré `{second.variable}`: ¿borraste o no corriste su celda?"
    problems = " ".join(r.problems)
    assert "KeyboardInterrupt" in problems or "CellTimeoutError" in problems, r.problems
    assert "SyntaxError" in problems, r.problems


def test_a_problem_names_the_notebooks_own_cell_and_its_exercise(graded):
    """Not the i-th of the cells the grader ran: «rota» runs six of its 17 cells."""
    results, (first, second), _, _ = graded
    problems = results["rota"].problems
    assert any(p.startswith(f"la celda {first.stub + 1} (el «Tu turno» de {first.name}) falló: ") for p in problems)
    # its second stub deleted and a broken cell put in its place, right before the second check
    assert any(p.startswith(f"la celda {second.check} (antes del control de {second.name}) falló: SyntaxError")
               and p.endswith(f"(línea 1 de la celda {second.check})") for p in problems), problems
    # IPython's own name for the cell («/tmp/ipykernel_…/….py», «<ipython-input-…>») says nothing to a teacher
    assert not any(re.search(r"ipykernel|ipython-input|\.py\b", p) for p in problems), problems


def test_a_cell_no_check_needs_is_not_run(graded):
    results, exs, _, paths = graded
    r = results["sin_uso"]
    assert r.points == {ex.name: 1 for ex in exs} and r.problems == [], r
    assert not (paths["sin_uso"].parent / "sin_uso-corrio").exists()


def test_the_kernels_own_torch_does_not_reach_the_students_namespace(graded):
    results, exs, _, _ = graded
    r = results["sin_import"]
    assert r.total == 0 and all("name 'torch' is not defined" in m for m in r.messages.values()), r


def test_running_every_cell_gives_the_same_points_and_messages(graded):
    results, exs, _, paths = graded
    for name in ("referencia", "error_1"):
        full = grading.grade(paths[name], list(exs), timeout=LOOP_TIMEOUT_S, everything=True)
        alone = results[name]
        assert (full.points, full.messages, full.mistakes) == (alone.points, alone.messages, alone.mistakes)
        assert full.problems == alone.problems == []


def test_the_csv_has_a_row_per_student_and_a_column_per_exercise(graded, tmp_path):
    results, exs, _, paths = graded
    paths = {k: v for k, v in paths.items() if k not in ("sin_uso", "sin_import", "renombrada")}
    chosen = grading.latest(grading.collect(list(paths.values()), {}))
    out = tmp_path / "notas.csv"
    rows = grading.student_rows(chosen, [results[s.path.stem] for s in chosen])
    grading.write_csv(rows, {}, out)
    table = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert [(row["estudiante"], row["legajo"], row["total"]) for row in table] == [
        ("error_1", "L-error_1", "1"), ("error_2", "L-error_2", "1"), ("referencia", "L-referencia", "2"),
        ("rota", "L-rota", "1"), ("sin_tocar", "L-sin_tocar", "0")]
    assert all(row["de"] == "2" and row[STEM] == row["total"] for row in table)
    assert all({ex.name, f"mensaje {ex.name}"} <= set(row) for row in table for ex in exs)
    assert "SyntaxError" in table[3]["problemas"] and table[0]["alertas"] == ""


def test_grading_in_parallel_gives_the_same_points_and_messages(graded):
    results, exs, _, paths = graded
    some = [paths[n] for n in ("sin_tocar", "error_1", "error_2")]
    said = []
    parallel = grading.grade_all(some, list(exs), LOOP_TIMEOUT_S, say=said.append, jobs=2)
    for path, r in zip(some, parallel, strict=True):
        alone = results[path.stem]
        assert (r.submission, r.points, r.messages, r.mistakes, r.problems) == (
            alone.submission, alone.points, alone.messages, alone.mistakes, alone.problems)
    assert len(said) == 3 and said[-1].startswith("[3/3] ") and said[-1].endswith("listo"), said
    assert all(re.search(r"; (faltan ~\d+ (s|min)|listo)$", line) for line in said), said


def test_the_folder_command_writes_a_row_even_for_what_is_not_a_notebook(tmp_path, capsys, lesson_path):
    folder = tmp_path / "entregas"
    folder.mkdir()
    (folder / "roto.ipynb").write_text("esto no es un notebook", encoding="utf-8")
    assert main(["calificar", str(folder), "--csv", str(tmp_path / "n.csv"), "--tarea", str(lesson_path)]) == 0
    assert "roto.ipynb: 0 de 2 puntos" in capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "n.csv").open(encoding="utf-8-sig")))
    assert len(rows) == 1 and rows[0]["total"] == "0" and "no pude leer la entrega" in rows[0]["problemas"]
    assert rows[0]["estudiante"] == "(sin nombre: roto.ipynb)"


def test_otter_assign_builds_the_bundle_from_the_same_checks(tmp_path, lesson_path):
    pytest.importorskip("otter", reason="otter-grader is the docente extra")
    stem = lesson_path.stem
    made = grading.build(lesson_path.parents[1], tmp_path, [lesson_path])
    assert made == [tmp_path / stem / f"{stem}.ipynb"]
    copy = grading.student_copy(load(lesson_path), stem, None, helpers.__version__)
    copy["metadata"]["otter"] = {"assignment_name": f"leccion06-{stem}"}  # what otter run checks
    assert json.loads(made[0].read_text(encoding="utf-8")) == copy
    with zipfile.ZipFile(tmp_path / stem / "autograder.zip") as z:
        tests = {n: z.read(n).decode() for n in z.namelist() if n.startswith("tests/")}
        env = z.read("environment.yml").decode()
        otter_config = json.loads(z.read("otter_config.json"))
    # otter's runner cuts a cell as calificar does, with calificar's numbers (otter 7 has no limit of its own)
    from helpers.grading._grade import CELL_TIMEOUT_S, KILL_AFTER_S
    assert otter_config["plugins"] == [{"helpers.grading.otter_plugin.TimeLimit": {
        "cell_s": CELL_TIMEOUT_S, "kill_after_s": KILL_AFTER_S}}], otter_config
    first = grading.exercises(copy)[0]
    assert set(tests) == {f"tests/{name}.py" for name in EXERCISES}
    assert f"helpers.check.{first.name}({first.variable})" in tests[f"tests/{first.name}.py"]
    assert "'points': 1" in tests[f"tests/{first.name}.py"]
    assert "leccion06-helpers @ git+" in env and "otter-grader" in env
    # torch from PyTorch's CPU index: from PyPI alone, the image would pull CUDA's several GB (the blind teacher read)
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in env, env
    # what a student copy and the bundle install is pyproject's version, the release main's workflow tags
    import facts
    assert set(re.findall(r"@v(\d+\.\d+\.\d+)", env)) == {facts.version()}, env
    copy = "\n".join("".join(c["source"]) for c in json.loads(made[0].read_text(encoding="utf-8"))["cells"])
    named = {a or b for a, b in re.findall(r'@v(\d+\.\d+\.\d+)|require\("(\d+\.\d+\.\d+)"\)', copy)}
    assert named == {facts.version()}, f"the student copy names releases {named}"


# ------------------------------------------------------------------------- a term: names, points, resubmissions

def test_a_class_graded_end_to_end(tmp_path, capsys):
    """End to end on the real notebook 03 (its exercises read from it: the first worth 1 point, the last 2, any
    other left as practice): armar with a points file (what `make grading PUNTOS=...` runs), then a folder like
    Classroom's download: Ana handed in twice (the later is graded), Bruno once, and someone handed in the lesson
    notebook itself."""
    pytest.importorskip("otter", reason="otter-grader is the docente extra")
    stem = REAL_03.stem
    first, *_, second = grading.exercises(load(REAL_03))
    points = tmp_path / "puntos.ini"
    points.write_text(f"[{stem}]\n{first.name} = 1\n{second.name} = 2\n", encoding="utf-8")
    build = tmp_path / "build"
    assert main(["armar", "--raiz", str(ROOT), "--salida", str(build), "--puntos", str(points)]) == 0
    assert sorted(p.name for p in build.iterdir()) == [stem]
    student = json.loads((build / stem / f"{stem}.ipynb").read_text(encoding="utf-8"))
    by_name = {ex.name: ex for ex in grading.exercises(student)}
    first, second = by_name[first.name], by_name[second.name]
    ref = {ex.stub: reference(ex) for ex in (first, second)}
    wrong, _ = mistake_source(second)
    folder = tmp_path / "entregas"
    submission(student, folder / "Ana", "Ana Pérez", {**ref, second.stub: wrong}, file=f"Copia de {stem}.ipynb",
               printed="2026-03-10T10:00:00-03:00")
    submission(student, folder / "Ana", "Ana Pérez", ref, file=f"Copia de {stem} (1).ipynb",
               printed="2026-03-10T11:00:00-03:00")
    submission(student, folder / "Bruno", "Bruno Díaz", {first.stub: ref[first.stub]},
               file=f"Copia de {stem}.ipynb", printed="2026-03-09T18:00:00-03:00")
    (folder / "otro").mkdir()
    (folder / "otro" / f"{stem}.ipynb").write_text(REAL_03.read_text(encoding="utf-8"), encoding="utf-8")
    capsys.readouterr()
    assert main(["calificar", str(folder), "--tarea", str(build), "--csv", str(tmp_path / "notas.csv"),
                 "-j", "2", "--tiempo", str(LOOP_TIMEOUT_S)]) == 0
    said = capsys.readouterr().out
    assert f"2 entregas de {stem}: califiqué la última, Ana/Copia de {stem} (1).ipynb" in said, said
    assert f"ojo, otro/{stem}.ipynb: tiene las soluciones de la lección" in said, said
    assert "quién es quién" not in said, said  # each copy's folder names the person its name cell does
    table = list(csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")))
    got = [(r["estudiante"], r[first.name], r[second.name], r["total"], r["de"]) for r in table]
    assert got == [("Ana Pérez", "1", "2", "3", "3"), ("Bruno Díaz", "1", "0", "1", "3"),
                   (f"(sin nombre: otro/{stem}.ipynb)", "0", "0", "0", "3")], got
    ana, bruno, teacher = table
    assert f"no califiqué Ana/Copia de {stem}.ipynb" in ana["reentregas"] and bruno["reentregas"] == ""
    assert ana["hora de entrega"].endswith("(hora que imprimió la celda del nombre)"), ana["hora de entrega"]
    assert ana["hora de entrega"].startswith("2026-03-10") and ana["alertas"] == bruno["alertas"] == ""
    assert "copia del docente" in teacher["alertas"]
    assert "Completá la celda de arriba" in bruno[f"mensaje {second.name}"]
    feedback = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "devoluciones").iterdir()}
    assert sorted(feedback) == ["ana_perez_l-ana_perez.txt", "bruno_diaz_l-bruno_diaz.txt",
                                f"otro_{stem}.ipynb.txt"]
    assert f"{stem}: 1 de 3 puntos." in feedback["bruno_diaz_l-bruno_diaz.txt"]
    assert f"{second.name}: todavía no. Completá la celda de arriba" in feedback["bruno_diaz_l-bruno_diaz.txt"]


def _local_server():
    """An HTTP server on this machine's loopback, answering 200: reachable unless the kernel has no network."""
    import http.server
    import threading
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_submission_cannot_reach_the_network_nor_take_the_memory(tmp_path):
    from helpers.grading import _sandbox
    protect = _sandbox.available()
    if not (protect.limits and protect.no_network):
        pytest.skip(f"this machine has no sandbox: {_sandbox.describe(protect)}")
    server = _local_server()
    probe = (f"import urllib.request\ntry:\n    urllib.request.urlopen('http://127.0.0.1:{server.server_port}/', "
             "timeout=5)\n    red = 'conecté'\nexcept OSError as e:\n    red = f'sin red ({type(e).__name__})'\n"
             "try:\n    lleno = bytearray(10 * 2**30)\n    memoria = 'reservé 10 GB'\nexcept MemoryError:\n"
             "    memoria = 'sin memoria'\nraise RuntimeError(f'{red}; {memoria}')\n")
    copy = student()
    first = grading.exercises(copy)[0]
    # in the cell that defines the answer: a graded run always runs it
    path = submission(copy, tmp_path, "sandbox", {first.stub: f"{reference(first)}\n{probe}"})
    try:
        r = grading.grade(path, grading.exercises(copy), LOOP_TIMEOUT_S, protect=protect)
    finally:
        server.shutdown()
    said = " ".join(r.problems)
    assert "RuntimeError: sin red (URLError); sin memoria" in said, r.problems


def test_kernels_side_by_side_share_the_cores_unless_the_teacher_set_threads(monkeypatch):
    """-j N: each kernel gets cores // N threads (oversubscribed, 2 kernels of 2 threads on 2 cores took 144 s on
    02 instead of 20 s); a teacher's own OMP_NUM_THREADS is kept; the environment is restored after."""
    from helpers.grading._class import _threads_per_kernel
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    with _threads_per_kernel(2):
        assert os.environ["OMP_NUM_THREADS"] == os.environ["MKL_NUM_THREADS"] == "2"
    with _threads_per_kernel(8):
        assert os.environ["OMP_NUM_THREADS"] == "1"
    assert "OMP_NUM_THREADS" not in os.environ and "MKL_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with _threads_per_kernel(2):
        assert os.environ["OMP_NUM_THREADS"] == "3" and "MKL_NUM_THREADS" not in os.environ


def test_the_gradescope_guard_interrupts_an_endless_cell_and_the_notebook_goes_on():
    """otter_plugin's guard, the cell otter's runner executes first, in a kernel of its own (nbclient, no otter run):
    a cell still running at its limit is interrupted, says so in its output, and the next cell runs. The cut of a
    cell that swallows the interrupt, and otter run itself, are in tests/test_grading_otter.py (make test-grading)."""
    pytest.importorskip("otter", reason="otter-grader is the docente extra")
    import nbformat
    from nbclient import NotebookClient

    from helpers.grading import otter_plugin
    call = "_leccion06_limite(2.0, 600.0, ['la celda 7', 'la celda 8'], {}, 'sin-uso.json', {}, 'X: ')"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"{otter_plugin._GUARD}\n\n{call}\n"),
                                         nbformat.v4.new_code_cell("n = 0\nwhile True:\n    n += 1\n"),
                                         nbformat.v4.new_code_cell("print('después')")])
    # nbclient's own limit is only a ceiling against a hang, far above the guard's 2 s
    NotebookClient(nb, timeout=LOOP_TIMEOUT_S * 12, allow_errors=True, kernel_name="python3").execute()
    loop, after = nb.cells[1].outputs, nb.cells[2].outputs
    assert [o.get("ename") for o in loop if o["output_type"] == "error"] == ["KeyboardInterrupt"], loop
    assert "X: la celda 7 se interrumpió a los 2 s: no terminaba" in "".join(o.get("text", "") for o in loop)
    assert [o.get("text") for o in after] == ["después\n"], after
