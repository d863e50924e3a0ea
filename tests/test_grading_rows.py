"""A class's rows and feedback (helpers.grading._class, _identity, _cli) without running a kernel: one row per
student (a submission without id joins its name's, ids compared by their digits, two ids under one name said),
feedback with the total and the missing notebooks, times in a named zone, output paths checked before grading,
problems named by the notebook's own cell. Grades come from a stand-in for the kernels (``graded_as``); the copies
are of synthetic lessons (tests/grading_fixtures.py) under three of the series' stems, with the exercises named in
SERIES, so no change to a lesson notebook changes them. test_the_guides_cell_numbers_are_those_of_03s_student_copy
reads the real notebook 03 (the guide quotes its cells), and the guide's puntos.ini examples are read against the
real notebooks' exercises."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import shutil

import pytest
from conftest import ROOT, load
from grading_fixtures import lesson_notebook
from markupsafe import escape

from helpers import grading, lesson
from helpers.grading import _cli
from helpers.grading.__main__ import main

# the synthetic lessons' stems and exercises (no kernel runs them here: any checker will do)
SERIES = {"01_ffn": ("ffn", "ffn_count"), "02_residual_stream": ("depth_step", "residual_pre"),
          "03_layernorm": ("layer_norm", "rms_norm")}


def copy_of(stem: str, version: str = ""):
    """The student copy of the synthetic lesson ``stem``."""
    return grading.student_copy(lesson_notebook(SERIES[stem]), stem, None, version)


def handed_in(folder, stem: str, name: str, legajo: str = "", printed: str = "2026-03-10T10:00:00-03:00",
              file: str | None = None):
    """A student copy of ``stem`` with its name cell filled in and the time it printed when run."""
    student = copy_of(stem, "9.9.9")
    cell = next(c for c in student["cells"] if c["cell_type"] == "code")
    cell["source"] = cell["source"].replace('NOMBRE = ""', f"NOMBRE = {name!r}").replace(
        'LEGAJO = ""', f"LEGAJO = {legajo!r}")
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"Entrega, corrida el {printed}\n"}]
    path = folder / (file or f"{name or 'anon'} {legajo} {stem}.ipynb")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(student, ensure_ascii=False), encoding="utf-8")
    return path


def result(path, points: dict[str, float], out_of: dict[str, float] | None = None, problems=()):
    out_of = out_of or dict.fromkeys(points, 1)
    return grading.Result(path.name, dict(points), {n: "" if points[n] == out_of[n] else "mal" for n in points},
                          {}, list(problems), 1.0, out_of)


def rows_of(paths, grades: dict[str, dict[str, float]]):
    """collect, latest, student_rows as calificar runs them; ``grades``: file name -> points it gets."""
    chosen = grading.latest(grading.collect(paths, {}))
    return chosen, grading.student_rows(chosen, [result(s.path, grades[s.path.name]) for s in chosen])


def table(rows, tmp_path, known=None):
    grading.write_csv(rows, known or {}, tmp_path / "notas.csv")
    return list(csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")))


def test_a_student_who_left_the_id_empty_once_is_one_row(tmp_path):
    """Carla left LEGAJO empty in 01 and filled it in 03: one row, 1 + 1.5 = 2.5 points, one feedback file."""
    a = handed_in(tmp_path, "01_ffn", "Carla Gómez")
    b = handed_in(tmp_path, "03_layernorm", "carla gomez", "4521", "2026-03-12T10:00:00-03:00")
    _, rows = rows_of([a, b], {a.name: {"ffn": 1}, b.name: {"layer_norm": 1, "rms_norm": 0.5}})
    got = [(r["estudiante"], r["legajo"], r["01_ffn"], r["03_layernorm"], r["total"]) for r in table(rows, tmp_path)]
    assert got == [("carla gomez", "4521", "1", "1,5", "2,5")], got
    made = grading.write_feedback(rows, tmp_path / "devoluciones")
    assert len(made) == 1 and "Total: 2,5 de 3 puntos." in made[0].read_text(encoding="utf-8")


def test_a_dni_with_and_without_dots_is_one_student(tmp_path):
    """«12.345.678» and «12345678»: one student, so the later 03 replaces the earlier and 01 joins the row."""
    old = handed_in(tmp_path, "03_layernorm", "Dana Ruiz", "12.345.678", "2026-03-10T10:00:00-03:00", "a.ipynb")
    new = handed_in(tmp_path, "03_layernorm", "Dana Ruiz", "12345678", "2026-03-10T11:00:00-03:00", "b.ipynb")
    ffn = handed_in(tmp_path, "01_ffn", "Dana", "12 345 678", file="c.ipynb")
    chosen, rows = rows_of([old, new, ffn], {"b.ipynb": {"layer_norm": 1, "rms_norm": 1}, "c.ipynb": {"ffn": 1}})
    assert sorted(s.path.name for s in chosen) == ["b.ipynb", "c.ipynb"]
    assert next(s.note for s in chosen if s.path == new).startswith("2 entregas de 03_layernorm: califiqué la última")
    [row] = table(rows, tmp_path)
    assert row["total"] == "3" and "otro nombre" in row["alertas"], row


@pytest.mark.parametrize("a, b, same", [("12.345.678", "12345678", True), ("L-12", "l 12", True),
                                        ("Ana@Uni.edu", "ana@uni.edu", True), ("12.345.678", "12.345.679", False),
                                        ("ana@uni.edu", "ana2@uni.edu", False)])
def test_ids_compare_by_their_digits(a, b, same):
    from helpers.grading._identity import id_key
    assert (id_key(a) == id_key(b)) is same


def test_two_ids_under_one_name_are_two_rows_and_said(tmp_path):
    """Two María Sosa with different ids may be two people: not merged, not silent; the one without id, which
    cannot be told apart, is a row of its own, said too. What each student reads names no other's id."""
    one = handed_in(tmp_path, "01_ffn", "María Sosa", "111")
    two = handed_in(tmp_path, "03_layernorm", "Maria Sosa", "222")
    none = handed_in(tmp_path, "02_residual_stream", "María Sosa")
    _, rows = rows_of([one, two, none], {one.name: {"ffn": 1}, two.name: {"layer_norm": 1},
                                         none.name: {"depth_step": 1}})
    got = table(rows, tmp_path)
    assert sorted(r["legajo"] for r in got) == ["", "111", "222"], got
    by_id = {r["legajo"]: r["alertas"] for r in got}
    assert "otro legajo (222 en" in by_id["111"] and "otro legajo (111 en" in by_id["222"], by_id
    assert "no tiene legajo" in by_id[""] and "111 y 222" in by_id[""], by_id
    feedback = [p.read_text(encoding="utf-8") for p in grading.write_feedback(rows, tmp_path / "dev")]
    assert all("Ojo: " in text for text in feedback), feedback
    assert not any("111" in text or "222" in text for text in feedback), feedback


def test_the_feedback_says_the_total_and_what_was_not_handed_in(tmp_path):
    a = handed_in(tmp_path, "03_layernorm", "Ema", "9")
    known = {st: grading._class._assignment(copy_of(st), st)
             for st in ("01_ffn", "03_layernorm")}
    chosen = grading.latest(grading.collect([a], known))
    rows = grading.student_rows(chosen, [result(a, {"layer_norm": 1, "rms_norm": 0})])
    [made] = grading.write_feedback(rows, tmp_path / "dev", known)
    text = made.read_text(encoding="utf-8")
    worth_01 = sum(known["01_ffn"].points.values())
    assert f"No entregaste 01_ffn: cuenta 0 de {worth_01:g} puntos." in text, text
    assert f"Total: 1 de {worth_01 + 2:g} puntos." in text, text


def test_the_feedback_says_a_cut_for_time_however_many_problems_came_first(tmp_path):
    """A feedback file lists a few problems per notebook; the line saying the grader cut a cell is never left out
    (its wording is _grade's: «se cortó a los N s»)."""
    a = handed_in(tmp_path, "03_layernorm", "Ema", "9")
    errors = [f"la celda {n} (antes del «Tu turno» de layer_norm) falló: NameError: x" for n in range(10, 17)]
    cut = "la celda 37 (el «Tu turno» de layer_norm) se cortó a los 130 s: no terminó ni 10 s después"
    rows = grading.student_rows(grading.latest(grading.collect([a], {})),
                                [result(a, {"layer_norm": 0, "rms_norm": 1}, problems=[*errors, cut])])
    [made] = grading.write_feedback(rows, tmp_path / "dev")
    text = made.read_text(encoding="utf-8")
    assert f"({cut})" in text and f"({errors[0]})" in text and errors[-1] not in text, text
    assert grading._class._CUT in cut


def test_problems_name_the_notebooks_own_cell_and_exercise():
    student = copy_of("03_layernorm")
    first, second = grading.exercises(student)
    place = grading._notebook.cell_place
    assert place(student, first.stub) == f"la celda {first.stub + 1} (el «Tu turno» de {first.name})"
    assert place(student, second.check) == f"la celda {second.check + 1} (el control de {second.name})"
    assert place(student, first.check + 1) == f"la celda {first.check + 2} (antes del «Tu turno» de {second.name})"


# ----------------------------------------------------------------- the command: zone, output paths, what it prints

@pytest.fixture
def no_kernels(monkeypatch):
    """calificar with a stand-in for the kernels: every exercise gets its points; ``calls`` counts the gradings."""
    calls = []

    def graded_as(paths, timeout=None, jobs=1, protect=None, per_path=None, everything=False, **_):
        calls.append(paths)
        return [result(p, dict(per_path[p][1])) for p in paths]

    monkeypatch.setattr(_cli, "grade_all", graded_as)
    return calls


def test_times_are_said_in_the_courses_zone(tmp_path, capsys, no_kernels):
    """A hand-in at 22:00 in Buenos Aires is 01:00 the next day in Colab's UTC: --zona gives the course's clock."""
    handed_in(tmp_path / "entregas", "03_layernorm", "Fede", "7", printed="2026-03-11T01:00:00+00:00")
    out = tmp_path / "notas.csv"
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(out),
                 "--zona", "America/Argentina/Buenos_Aires"]) == 0
    assert "horas de entrega en la zona America/Argentina/Buenos_Aires\n" in capsys.readouterr().out
    [row] = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert row["hora de entrega"].startswith("2026-03-10 22:00 UTC-03:00 ("), row["hora de entrega"]
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(out)]) == 0
    said = capsys.readouterr().out
    zone = grading._identity.course_zone()
    assert f"horas de entrega en la zona {zone.name} (la de esta máquina; la de tu curso: --zona" in said, said
    [row] = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    stamp = dt.datetime(2026, 3, 11, 1, tzinfo=dt.UTC).astimezone(zone.tz)
    assert row["hora de entrega"].startswith(f"{stamp:%Y-%m-%d %H:%M} UTC"), row["hora de entrega"]


def test_a_zone_that_does_not_exist_is_refused_before_grading(tmp_path, capsys, no_kernels):
    handed_in(tmp_path / "entregas", "03_layernorm", "Fede", "7")
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(tmp_path / "n.csv"),
                 "--zona", "America/Buenos_Aries"]) == 2
    assert "--zona: «America/Buenos_Aries» no es una zona horaria" in capsys.readouterr().err
    assert no_kernels == []


@pytest.mark.parametrize("where, said", [
    (lambda t: ["--csv", str(t / "no_existe" / "notas.csv")], "--csv: no existe la carpeta «{t}/no_existe»"),
    (lambda t: ["--csv", str(t)], "--csv: «{t}» es una carpeta"),
    (lambda t: ["--csv", str(t / "n.csv"), "--devoluciones", str(t / "n.csv")], "--devoluciones: «{t}/n.csv» es un"),
])
def test_a_wrong_output_path_is_said_before_grading(tmp_path, capsys, no_kernels, where, said):
    handed_in(tmp_path / "entregas", "03_layernorm", "Fede", "7")
    (tmp_path / "n.csv").write_text("", encoding="utf-8")
    assert main(["calificar", str(tmp_path / "entregas"), *where(tmp_path)]) == 2
    assert said.format(t=tmp_path) in capsys.readouterr().err
    assert no_kernels == [], "it graded before finding out it could not write"


def test_the_command_prints_a_name_under_two_ids(tmp_path, capsys, no_kernels):
    handed_in(tmp_path / "entregas", "01_ffn", "Gael Paz", "31")
    handed_in(tmp_path / "entregas", "03_layernorm", "Gael Paz", "13")
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(tmp_path / "n.csv")]) == 0
    said = capsys.readouterr().out
    assert said.count("aparece también con otro legajo") == 2, said


def test_an_unreadable_file_is_graded_by_its_name_or_said(tmp_path, capsys, no_kernels):
    """A file cut short is not a notebook any more: with several notebooks in the assignment, its name says which one
    (a row with the problem), or calificar says it cannot read it and what to do (the blind teacher read: it was
    dropped with «no es de ningún notebook de la tarea»)."""
    handed_in(tmp_path / "entregas", "01_ffn", "Gael Paz", "31")
    handed_in(tmp_path / "entregas", "03_layernorm", "Gael Paz", "31")
    (tmp_path / "entregas" / "Ana Pérez - 03_layernorm.ipynb").write_text('{"cells": [{"cell_', encoding="utf-8")
    (tmp_path / "entregas" / "descarga.ipynb").write_text('{"cells": [', encoding="utf-8")
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(tmp_path / "n.csv")]) == 0
    said = capsys.readouterr().out
    assert "no califico descarga.ipynb: no se puede leer como notebook" in said, said
    assert "Ana Pérez - 03_layernorm.ipynb" not in said.split("no califico")[-1].split("\n")[0], said
    assert any("Ana Pérez - 03_layernorm.ipynb" in str(p) for p in no_kernels[-1]), no_kernels


# ------------------------------------------------------------------------------ what the guide makes stays private

def test_the_student_data_the_guide_creates_is_ignored_by_git():
    """The paths docs/docente.md tells a teacher to make in the repository (calificar's folder and --csv, the
    feedback folder beside it, the points file, Colab's zips, the class report) hold names and ids: git must ignore
    them."""
    import re
    import subprocess
    guide = (ROOT / "docs" / "docente.md").read_text(encoding="utf-8")
    made = set()
    for folder, csv_file in re.findall(r"helpers\.grading calificar (\S+?)/? .*?--csv ([\w./-]+\.csv)", guide):
        made |= {f"{folder}/Ana/Copia de 03_layernorm.ipynb", csv_file}
    made |= {f"{folder}/ana.txt" for folder in re.findall(r"`(\w+)/<estudiante>\.txt`", guide)}
    made |= set(re.findall(r"Guardalo como `([\w.]+)` en la carpeta del repositorio", guide))
    made |= set(re.findall(r"\b([\w]+\.zip)\b", guide)) - {"autograder.zip"}
    made |= set(re.findall(r"\b(informe[\w.-]*\.html)\b", guide))  # the class report, with names if asked
    assert {"entregas/Ana/Copia de 03_layernorm.ipynb", "notas.csv", "devoluciones/ana.txt", "puntos.ini",
            "informe.html", "informe-con-nombres.html"} <= made, made
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    shown = subprocess.run(["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *sorted(made)],
                           cwd=ROOT, capture_output=True, text=True).stdout.splitlines()
    kept = [line.split("\t")[-1] for line in shown if line.startswith("::")]
    assert not kept, f"git would add the students' data: {kept} (add them to .gitignore)"


# ------------------------------------------------------- whose grade it is: the copy's origin, paths, the CSV

@pytest.fixture
def graded_by_file(monkeypatch):
    """calificar with a stand-in for the kernels: ``points[file name]`` -> each exercise's points (else all 0)."""
    points = {}

    def graded_as(paths, timeout=None, jobs=1, protect=None, per_path=None, everything=False, **_):
        return [result(p, {n: points.get(p.name, {}).get(n, 0) for n in per_path[p][1]}, dict(per_path[p][1]))
                for p in paths]

    monkeypatch.setattr(_cli, "grade_all", graded_as)
    return points


def test_a_later_copy_claiming_another_student_from_another_origin_changes_nothing(tmp_path, capsys,
                                                                                    graded_by_file):
    """Classroom names each copy after its student. Federico's later copy with Ana's name and id in its name cell
    does not replace Ana's grade: it is graded in a row of its own, both rows and the run say so, and --vale is how
    the teacher says that it counts for Ana after all."""
    folder = tmp_path / "entregas"
    ana = handed_in(folder, "03_layernorm", "Ana Pérez", "12.345", "2026-03-10T10:00:00-03:00",
                    "Ana Pérez - 03_layernorm.ipynb")
    fede = handed_in(folder, "03_layernorm", "Ana Perez", "12345", "2026-03-11T10:00:00-03:00",
                     "Federico López - Copia de 03_layernorm.ipynb")
    graded_by_file.update({ana.name: {"layer_norm": 1, "rms_norm": 1}})
    out = tmp_path / "notas.csv"
    assert main(["calificar", str(folder), "--csv", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("ojo, quién es quién: en 1 entrega, la persona de su archivo o su carpeta no es"), said
    assert f"ojo, {fede.name}: la celda del nombre dice «Ana Perez», pero su archivo es de «Federico López»" in said
    rows = {r["estudiante"]: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    assert sorted(rows) == ["Ana Perez (archivo de Federico López)", "Ana Pérez"], rows
    mine, theirs = rows["Ana Pérez"], rows["Ana Perez (archivo de Federico López)"]
    assert (mine["total"], mine["archivos"], mine["reentregas"]) == ("2", ana.name, ""), mine
    assert f"otra entrega con su nombre o su legajo, {fede.name}, viene de «Federico López»" in mine["alertas"]
    assert (theirs["total"], theirs["archivos"]) == ("0", fede.name), theirs
    assert "no reemplaza esa nota, va en una fila aparte" in theirs["alertas"]
    assert f'--vale "{fede.name}"' in theirs["alertas"]
    # the teacher decides: the copy counts for whom its name cell says, and the other person's is not graded
    assert main(["calificar", str(folder), "--csv", str(out), "--vale", fede.name]) == 0
    [row] = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert (row["estudiante"], row["total"], row["archivos"]) == ("Ana Perez", "0", fede.name), row
    assert f"califiqué la que elegiste con --vale, {fede.name}" in row["reentregas"] and ana.name in row["reentregas"]
    assert main(["calificar", str(folder), "--csv", str(out), "--vale", "no-existe.ipynb"]) == 2
    assert "--vale «no-existe.ipynb»: no hay ninguna entrega con esa ruta" in capsys.readouterr().err


def test_a_resubmission_from_the_same_origin_still_replaces_the_older(tmp_path):
    """Ana's folder and her Classroom file name are one person: her later copy is graded, as before."""
    old = handed_in(tmp_path, "03_layernorm", "Ana Pérez", "7", "2026-03-10T10:00:00-03:00",
                    "Ana Pérez - 03_layernorm.ipynb")
    new = handed_in(tmp_path, "03_layernorm", "ana perez", "7", "2026-03-10T11:00:00-03:00",
                    "Ana/Copia de 03_layernorm (1).ipynb")
    chosen, rows = rows_of([old, new], {new.name: {"layer_norm": 1, "rms_norm": 1}})
    assert [s.path for s in chosen] == [new] and len(rows) == 1
    assert chosen[0].note.startswith("2 entregas de 03_layernorm: califiqué la última, Ana/Copia de 03_layernorm (1)")
    assert chosen[0].alerts == [] and "|" not in chosen[0].key


@pytest.mark.parametrize("rel, who", [("Ana Pérez - 03_layernorm.ipynb", "Ana Pérez"),
                                      ("Federico López - Copia de 03_layernorm (1).ipynb", "Federico López"),
                                      ("Ana Pérez/Copia de 03_layernorm.ipynb", "Ana Pérez"),
                                      ("Tarea 3/Ana de la Fuente/x.ipynb", "Ana de la Fuente"),
                                      ("Lautaro Paz.ipynb", "Lautaro Paz"),
                                      ("Copia de 03_layernorm.ipynb", None), ("03_layernorm (1).ipynb", None),
                                      ("entregas/otro/03_layernorm.ipynb", None), ("a/x (1).ipynb", None),
                                      ("Carla Gómez 4521 01_ffn.ipynb", None), ("referencia.ipynb", None)])
def test_the_origin_is_a_persons_name_in_the_file_or_its_folder(rel, who):
    from pathlib import Path

    from helpers.grading._origin import origin
    found = origin(Path(rel))
    assert (found.name if found else None) == who, found


@pytest.mark.parametrize("a, b, same", [("Ana", "Ana Pérez", True), ("ana perez", "Ana María PÉREZ", True),
                                        ("Ana de la Fuente", "Ana Fuente", True), ("Ana Pérez", "Ana Gómez", False),
                                        ("Federico López", "Ana Pérez", False), ("", "Ana", False)])
def test_names_compare_folded_word_by_word(a, b, same):
    from helpers.grading._origin import same_person
    assert same_person(a, b) is same


def test_three_unnamed_copies_in_three_folders_are_three_rows(tmp_path, capsys, no_kernels):
    """Untouched copies, all «Copia de 03_layernorm.ipynb», one per folder: three students, each row with its
    path; the summary agrees in number."""
    folder = tmp_path / "entregas"
    for who in ("Ana", "Bruno", "Carla"):
        handed_in(folder / who, "03_layernorm", "", file="Copia de 03_layernorm.ipynb")
    assert main(["calificar", str(folder), "--csv", str(tmp_path / "notas.csv")]) == 0
    said = capsys.readouterr().out
    assert "3 estudiantes, 3 archivos (0 reentregas viejas sin calificar); 3 devoluciones" in said, said
    rows = list(csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")))
    assert [(r["estudiante"], r["archivos"]) for r in rows] == [
        (f"(sin nombre: {who}/Copia de 03_layernorm.ipynb)", f"{who}/Copia de 03_layernorm.ipynb")
        for who in ("Ana", "Bruno", "Carla")], rows
    assert all(r["alertas"] == "" for r in rows), rows
    shutil.rmtree(folder / "Bruno")
    shutil.rmtree(folder / "Carla")
    assert main(["calificar", str(folder), "--csv", str(tmp_path / "notas.csv")]) == 0
    assert "1 estudiante, 1 archivo (0 reentregas viejas sin calificar); 1 devolución en" in capsys.readouterr().out


def test_a_formula_in_a_name_is_inert_in_the_csv_and_text_in_the_report(tmp_path):
    """A name cell a spreadsheet would run (CSV injection, OWASP): quoted in notas.csv, so a spreadsheet shows it;
    points stay numbers, a negative one too; the class report, rebuilt from that CSV, shows the name as written,
    escaped as HTML."""
    formula = '=HYPERLINK("https://example.org/?"&D2,"Lautaro Paz")'
    a = handed_in(tmp_path, "03_layernorm", formula, "-12", file="a.ipynb")
    b = handed_in(tmp_path, "01_ffn", "<b>Ema</b>", "@3", file="b.ipynb")
    chosen = grading.latest(grading.collect([a, b], {}))
    by = {s.path: s for s in chosen}
    rows = grading.student_rows([by[a], by[b]], [result(a, {"layer_norm": 1, "rms_norm": -0.5},
                                                        {"layer_norm": 1, "rms_norm": 1}), result(b, {"ffn": 0})])
    out = tmp_path / "notas.csv"
    grading.write_csv(rows, {}, out)
    raw = list(csv.reader(out.open(encoding="utf-8-sig")))
    header, lines = raw[0], {r[0]: dict(zip(raw[0], r)) for r in raw[1:]}
    assert set(lines) == {"'" + formula, "<b>Ema</b>"}, lines
    mine = lines["'" + formula]
    assert (mine["legajo"], mine["rms_norm"], mine["03_layernorm"], mine["total"]) == ("'-12", "-0,5", "0,5", "0,5")
    assert lines["<b>Ema</b>"]["legajo"] == "'@3"
    text_cells = [c for r in raw for i, c in enumerate(r) if header[i] not in ("01_ffn", "03_layernorm", "total",
                                                                               "de", "ffn", "layer_norm", "rms_norm")]
    assert not [c for c in text_cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], text_cells
    from helpers.grading import _report
    page = (_report.report_from_csv(out, tmp_path / "informe.html", names=True)[1]).read_text(encoding="utf-8")
    assert escape(formula) in page and "&lt;b&gt;Ema&lt;/b&gt;" in page  # as the report's template escapes it
    assert "'=HYPERLINK" not in page and "<b>Ema</b>" not in page


def test_the_guides_cell_numbers_are_those_of_03s_student_copy():
    """docs/docente.md quotes two problems as calificar writes them for 03: the numbers are those of the copy a
    student hands in (armar's, with the name cell), the «Tu turno» of layer_norm and a cell put before rms_norm's
    check."""
    import re
    guide = " ".join((ROOT / "docs" / "docente.md").read_text(encoding="utf-8").split())
    real = ROOT / "notebooks" / "03_layernorm.ipynb"
    student = grading.student_copy(load(real), real.stem)
    first, second = grading.exercises(student)
    place = grading._notebook.cell_place
    said = re.findall(rf"«(la celda \d+ \([^»]*» de {first.name}\)) falló", guide)
    assert said == [place(student, first.stub)], said
    cells = list(student["cells"])
    cells.insert(second.check, {"cell_type": "code", "metadata": {}, "source": "def roto(:\n", "outputs": []})
    before = place({**student, "cells": cells}, second.check)
    assert f"«{before} falló: SyntaxError: invalid syntax (línea 1 de la celda {second.check + 1})»" in guide, before


def test_every_puntos_ini_the_guide_shows_builds_against_the_lesson(tmp_path):
    """A teacher copies the guide's examples as they stand (the blind read: both named exercises in the wrong
    notebook, and armar stopped): each one is read by armar's own reader against the real notebooks' exercises."""
    from helpers.grading._assign import plan

    guide = (ROOT / "docs" / "docente.md").read_text(encoding="utf-8")
    examples = re.findall(r"```ini\n(.*?)```", guide, flags=re.S)
    assert len(examples) >= 2, "the guide's puntos.ini examples are gone"
    notebooks = lesson.notebooks(ROOT / "notebooks")
    for k, text in enumerate(examples):
        path = tmp_path / f"puntos{k}.ini"
        path.write_text(text, encoding="utf-8")
        chosen = plan(notebooks, path)  # raises PointsError, in Spanish, on a notebook or exercise that is not there
        assert chosen and all(chosen.values()), text

