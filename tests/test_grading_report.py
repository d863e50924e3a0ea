"""The class report (helpers.grading._report): a class built from the checkers' own mistake catalogue, graded for
real by ``calificar`` (three notebooks, an untouched copy, the teacher's copy), gives exactly the counts it was
built with, in the same order, from the fresh run and from its CSV, and -j 1 the same as -j 2; names only on
request; one file that asks nothing of the network; and a Spanish error naming what is wrong with a CSV of another
tool or version, an empty class, or a mistake this version does not know (counted as «otro error», never dropped).
The class hands in copies of synthetic lessons (tests/grading_fixtures.py) under three of the series' stems, with the
exercises named in SERIES: no change to a lesson notebook changes it. The other tests use a made-up class
(tests/report_class.py) and no kernel."""

from __future__ import annotations

import ast
import csv
import inspect
import json
import re
import shutil
import textwrap
import time

import pytest
from conftest import ROOT
from grading_fixtures import lesson_notebook
from markupsafe import escape
from report_class import made_up

import helpers.check
from helpers import grading, lesson
from helpers.grading import _cli, _report
from helpers.grading.__main__ import main

NAMES = ("Ana Pérez", "Bruno Díaz", "Carla Gómez", "Dana Ruiz", "Eva Luna", "Fede Paz")
TIMEOUT_S = 30


def counts_in(page: str) -> list[tuple[str, str, int]]:
    """(exercise, part, students) as the HTML's table rows say them, in the page's order."""
    out, exercise = [], None
    for m in re.finditer(r'data-ejercicio="([^"]+)" data-entregaron|<tr data-clave="([^"]+)" data-n="(\d+)"', page):
        exercise = m[1] or exercise
        if m[2]:
            out.append((exercise, m[2], int(m[3])))
    return out


def top_in(page: str) -> list[tuple[str, str, int]]:
    return [(e, k, int(n)) for e, k, n in re.findall(r'<li data-ejercicio="([^"]+)" data-clave="([^"]+)" '
                                                     r'data-n="(\d+)"', page)]


# ------------------------------------------------------------------------------------- a class, graded for real

def as_learner(name: str, key: str) -> str:
    """The gallery's mistake ``key`` of exercise ``name``, as a learner writes it under the expected variable."""
    fn = next(m.fn for m in getattr(helpers.check, name).mistakes if m.key == key)
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    node.decorator_list = []
    return ast.unparse(node)


def hand_in(folder, stem: str, who: str, answers: dict[str, str]) -> None:
    """A student copy of ``stem`` signed by ``who``; ``answers``: exercise -> "ref", a gallery key, or code."""
    student = grading.student_copy(lesson_notebook(SERIES[stem]), stem)
    cell = next(c for c in student["cells"] if c["cell_type"] == "code")
    cell["source"] = cell["source"].replace('NOMBRE = ""', f"NOMBRE = {who!r}").replace(
        'LEGAJO = ""', f"LEGAJO = {str(NAMES.index(who) + 1)!r}")
    for ex in grading.exercises(student):
        said, cell = answers.get(ex.name), student["cells"][ex.stub]
        first = cell["source"].splitlines()[0] + "\n"  # «# Tu turno (1 punto)…»: a learner writes below it
        if said == "ref":
            cell["source"] = first + grading.reference_code(ex)
        elif said and said.isidentifier():
            code = as_learner(ex.name, said)
            cell["source"] = f"{first}{code}\n\n\n{ex.variable} = {ast.parse(code).body[0].name}\n"
        elif said:
            cell["source"] = first + said
    path = folder / f"{who} {stem}.ipynb"
    path.write_text(json.dumps(student, ensure_ascii=False), encoding="utf-8")


# the synthetic lessons: stem -> its exercises (helpers.check's checkers, cheap: no training)
SERIES = {"01_ffn": ("ffn", "ffn_count"), "03_layernorm": ("layer_norm", "rms_norm"),
          "05_norm_placement": ("escape_step",), "05b_semillas_profundidad_warmup": ("warmup",)}
RAISES = "def params_ffn(d_model, d_ff):\n    raise ValueError('todavía no')\n"
CLASS = {  # who -> notebook -> exercise -> answer
    "Ana Pérez": {"03_layernorm": {"layer_norm": "unbiased_variance", "rms_norm": "ref"},
                  "01_ffn": {"ffn": "ref", "ffn_count": "no_biases"},
                  "05_norm_placement": {"escape_step": "strict"},
                  "05b_semillas_profundidad_warmup": {"warmup": "zero_based"}},
    "Bruno Díaz": {"03_layernorm": {"layer_norm": "unbiased_variance", "rms_norm": "centered"},
                   "01_ffn": {"ffn": "no_activation", "ffn_count": "no_biases"}},
    "Carla Gómez": {"03_layernorm": {"layer_norm": "eps_outside", "rms_norm": "centered"},
                    "05_norm_placement": {"escape_step": "strict"},
                    "05b_semillas_profundidad_warmup": {"warmup": "ref"}},
    "Dana Ruiz": {"03_layernorm": {"layer_norm": "ref", "rms_norm": "ref"},
                  "05_norm_placement": {"escape_step": "ref"}, "05b_semillas_profundidad_warmup": {"warmup": "ref"}},
    "Eva Luna": {"01_ffn": {"ffn": "ref", "ffn_count": RAISES}},
    "Fede Paz": {"03_layernorm": {}},  # the copy as handed out, untouched
}
# ...and the (synthetic) lesson notebook 03 itself, handed in by someone: graded, untouched, with its alert
EXPECTED = [  # ordered by share missed (then count, then the series' order); parts: right, named by count, rest
    ("ffn_count", "right", 0), ("ffn_count", "no_biases", 2), ("ffn_count", "other", 1),
    ("ffn_count", "not_attempted", 0),
    ("layer_norm", "right", 1), ("layer_norm", "unbiased_variance", 2), ("layer_norm", "eps_outside", 1),
    ("layer_norm", "other", 0), ("layer_norm", "not_attempted", 2),
    ("rms_norm", "right", 2), ("rms_norm", "centered", 2), ("rms_norm", "other", 0), ("rms_norm", "not_attempted", 2),
    ("escape_step", "right", 1), ("escape_step", "strict", 2), ("escape_step", "other", 0),
    ("escape_step", "not_attempted", 0),
    ("ffn", "right", 2), ("ffn", "no_activation", 1), ("ffn", "other", 0), ("ffn", "not_attempted", 0),
    ("warmup", "right", 2), ("warmup", "zero_based", 1), ("warmup", "other", 0), ("warmup", "not_attempted", 0),
]
TOP = [("ffn_count", "no_biases", 2), ("escape_step", "strict", 2), ("layer_norm", "unbiased_variance", 2)]


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class above, graded once with -j 2 (a minute on two busy cores); its folder, CSV and report."""
    tmp = tmp_path_factory.mktemp("clase")
    folder = tmp / "entregas"
    folder.mkdir()
    for who, notebooks in CLASS.items():
        for stem, answers in notebooks.items():
            hand_in(folder, stem, who, answers)
    (folder / "03_layernorm.ipynb").write_text(json.dumps(lesson_notebook(SERIES["03_layernorm"])), encoding="utf-8")
    start = time.perf_counter()
    assert main(["calificar", str(folder), "--csv", str(tmp / "notas.csv"), "-j", "2", "--tiempo",
                 str(TIMEOUT_S)]) == 0
    return tmp, time.perf_counter() - start


@pytest.mark.grading
def test_a_class_graded_for_real_gives_the_counts_it_was_built_with(graded_class):
    tmp, _ = graded_class
    fresh = (tmp / "informe.html").read_text(encoding="utf-8")
    assert counts_in(fresh) == EXPECTED
    assert top_in(fresh) == TOP
    report, out = grading.report_from_csv(tmp / "notas.csv", tmp / "desde_csv.html")
    assert report.counts() == EXPECTED and report.students == 7, report.students
    again = out.read_text(encoding="utf-8")
    assert counts_in(again) == EXPECTED and top_in(again) == TOP
    assert again == fresh, "the report from the CSV is not the one calificar wrote"


@pytest.mark.grading
def test_the_teacher_copy_and_the_untouched_one_count_as_not_attempted(graded_class):
    tmp, _ = graded_class
    table = {r["estudiante"]: r for r in csv.DictReader((tmp / "notas.csv").open(encoding="utf-8-sig"))}
    teacher = table["(sin nombre: 03_layernorm.ipynb)"]
    assert teacher["error layer_norm"] == teacher["error rms_norm"] == "sin_intentar"
    assert "copia del docente" in teacher["alertas"]
    assert table["Fede Paz"]["error layer_norm"] == "sin_intentar" and table["Eva Luna"]["error ffn_count"] == "raised"
    assert table["Ana Pérez"]["error ffn_count"] == "no_biases" and table["Dana Ruiz"]["error layer_norm"] == "ninguno"
    assert table["Eva Luna"]["error layer_norm"] == ""  # she did not hand 03 in


@pytest.mark.grading
def test_one_at_a_time_gives_what_two_at_a_time_gave(graded_class, tmp_path):
    """-j 1 on three of the files (one per notebook) against the -j 2 run's rows of those students."""
    tmp, _ = graded_class
    some = tmp_path / "entregas"
    some.mkdir()
    for name in ("Bruno Díaz 01_ffn", "Carla Gómez 03_layernorm", "Carla Gómez 05_norm_placement"):
        shutil.copy(tmp / "entregas" / f"{name}.ipynb", some)
    assert main(["calificar", str(some), "--csv", str(tmp_path / "notas.csv"), "-j", "1", "--tiempo",
                 str(TIMEOUT_S)]) == 0
    both = {r["estudiante"]: r for r in csv.DictReader((tmp / "notas.csv").open(encoding="utf-8-sig"))}
    for row in csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")):
        errors = {k: v for k, v in row.items() if k.startswith("error ") and v}
        assert errors and errors == {k: both[row["estudiante"]][k] for k in errors}, (row["estudiante"], errors)


@pytest.mark.grading
def test_names_stay_out_unless_asked(graded_class, tmp_path, capsys):
    tmp, _ = graded_class
    fresh = re.sub(r"data:image/svg\+xml;base64,[^\"]+", "", (tmp / "informe.html").read_text(encoding="utf-8"))
    assert not [n for n in NAMES if n in fresh or n.split()[0] in fresh], "the report names a student"
    assert main(["informe", str(tmp / "notas.csv"), "--salida", str(tmp_path / "con.html"), "--con-nombres"]) == 0
    assert "con nombres: es para vos" in capsys.readouterr().out
    named = (tmp_path / "con.html").read_text(encoding="utf-8")
    assert counts_in(named) == EXPECTED
    row = re.search(r'<tr data-clave="unbiased_variance".*?</tr>', named)[0]
    assert "Ana Pérez, Bruno Díaz" in row, row


# ---------------------------------------------------------------------------------- a made-up class, no kernel

@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A made-up class of 40: its rows, its CSV (twice: «,» and Excel's «;»), its report and page."""
    tmp = tmp_path_factory.mktemp("inventada")
    rows = made_up(40)
    grading.write_csv(rows, {}, tmp / "notas.csv")
    grading.write_csv(rows, {}, tmp / "excel.csv", delimiter=";")
    report = grading.write_report(rows, tmp / "informe.html", source="notas.csv")
    return rows, tmp, report, (tmp / "informe.html").read_text(encoding="utf-8")


def test_from_rows_and_from_the_csv_the_same_report(made):
    rows, tmp, fresh, page = made
    assert _report.tally(*_report.read_grades(tmp / "notas.csv")).counts() == fresh.counts()
    again, out = grading.report_from_csv(tmp / "excel.csv", tmp / "excel.html")
    assert again.counts() == fresh.counts() and again.students == fresh.students == 40
    assert counts_in(page) == fresh.counts() == counts_in(out.read_text(encoding="utf-8"))


def test_exercises_go_from_most_to_least_missed_and_parts_add_up(made):
    _, _, report, _ = made
    shares = [ex.missed / ex.handed for ex in report.exercises]
    assert shares == sorted(shares, reverse=True)
    for ex in report.exercises:
        assert sum(p.count for p in ex.parts) == ex.handed
        assert [p.key for p in ex.parts][0] == "right" and [p.key for p in ex.parts][-2:] == ["other", "not_attempted"]
        named = [p.count for p in ex.parts if p.named]
        assert named == sorted(named, reverse=True) and all(named)
    top = report.top
    assert len(top) == 3 and [p.count for _, p in top] == sorted((p.count for ex in report.exercises
                                                                 for p in ex.parts if p.named), reverse=True)[:3]


def test_the_page_asks_nothing_of_the_network_and_says_what_a_teacher_needs(made):
    rows, _, report, page = made
    assert not re.search(r"(?:src|href)=\"(?!data:|#)", page), "a resource outside the page"
    assert "<script" not in page and "<link" not in page and "url(" not in page and "@import" not in page
    figures = len(lesson.notebooks(ROOT / "notebooks"))  # one per notebook of the series
    assert page.count('<img src="data:image/svg+xml;base64,') == figures and '<html lang="es">' in page
    assert all(len(a) > 80 for a in re.findall(r'alt="([^"]*)"', page))
    ex, p = report.top[0]
    entry = grading._mistakes.entry(ex.name, p.key)
    first = page.split('id="figuras"')[0]  # the top three, with where to look and what to ask
    assert escape(entry.question) in first and escape(entry.section) in first  # as the template escapes them
    assert "Para preguntar en clase" in first and "Dónde se enseña" in first
    text = re.sub(r"data:image/svg\+xml;base64,[^\"]+", "", page)
    assert not [r.name for r in rows if r.name in text or r.name.split()[0] in text], "the report names a student"


def _rewrite(path, change):
    rows = list(csv.reader(path.open(encoding="utf-8-sig")))
    rows = change(rows)
    with path.open("w", newline="", encoding="utf-8-sig") as f:
        csv.writer(f).writerows(rows)


def test_a_mistake_this_version_does_not_know_is_other_and_said(made, tmp_path, capsys):
    _, tmp, _, _ = made
    path = tmp_path / "notas.csv"
    shutil.copy(tmp / "notas.csv", path)

    def plant(table):
        at = table[0].index("error layer_norm")
        next(r for r in table[1:] if r[at])[at] = "signo_cambiado"
        return table
    _rewrite(path, plant)
    report = _report.tally(*_report.read_grades(path))
    ex = next(e for e in report.exercises if e.name == "layer_norm")
    other = next(p for p in ex.parts if p.key == "other")
    assert ("signo_cambiado", 1) in other.kinds
    assert any("«signo_cambiado» (1)" in n and "otro error" in n for n in report.notes), report.notes
    assert main(["informe", str(path)]) == 0
    assert "ojo, informe: layer_norm: el CSV trae errores que los controles de esta versión no conocen" in \
        capsys.readouterr().out
    assert "«signo_cambiado»" in (tmp_path / "informe.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("change, said", [
    (lambda t: [[c for c, h in zip(r, t[0]) if not (h.startswith("error ") or h == "formato de calificar")]
                for r in t], "es de una versión anterior de calificar"),
    (lambda t: [["nombre", "nota"], ["Ana", "7"]], "no es una planilla de calificar: le faltan las columnas de, "
                                                   "estudiante, legajo, total"),
    (lambda t: [t[0]] + [r[:-1] + ["3"] for r in t[1:]], "dice ser del formato 3 de calificar y esta versión lee el 2"),
    (lambda t: [t[0]], "no tiene ningún estudiante"),
    (lambda t: [t[0]] + [[c if not h.startswith("error ") else "" for c, h in zip(r, t[0])] for r in t[1:]],
     "ninguno de sus 40 estudiantes tiene un ejercicio calificado"),
])
def test_a_csv_it_cannot_read_is_said_in_spanish(made, tmp_path, capsys, change, said):
    _, tmp, _, _ = made
    path = tmp_path / "notas.csv"
    shutil.copy(tmp / "notas.csv", path)
    _rewrite(path, change)
    with pytest.raises(grading.ReportError, match=re.escape(said)):
        grading.report_from_csv(path)
    assert main(["informe", str(path)]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "informe.html").exists()


def test_a_file_that_is_not_utf8_or_not_there(tmp_path, capsys):
    path = tmp_path / "notas.csv"
    path.write_bytes("estudiante;legajo;total;de\nMaría;1;2;3\n".encode("latin-1"))
    with pytest.raises(grading.ReportError, match="no es un CSV en UTF-8"):
        grading.report_from_csv(path)
    assert main(["informe", str(tmp_path / "no.csv")]) == 2
    assert "no encontré el CSV" in capsys.readouterr().err
    assert main(["informe", str(path), "--salida", str(tmp_path / "falta" / "i.html")]) == 2
    assert "--salida: no existe la carpeta" in capsys.readouterr().err


def test_what_the_csv_records_per_exercise():
    res = grading.Result("a.ipynb", {"a": 1, "b": 0, "c": 0, "d": 0}, {}, {"a": None, "b": "not_attempted",
                                                                           "c": "eps_outside", "d": "missing"})
    assert [_report._outcome(res, n) for n in "abcde"] == ["ninguno", "sin_intentar", "eps_outside", "missing", ""]


def test_calificar_writes_the_report_beside_the_csv(tmp_path, capsys, monkeypatch):
    """With a stand-in for the kernels: the report lands beside the CSV unless --informe says where, and a folder
    that does not exist stops it before grading."""
    from test_grading_rows import handed_in, result
    calls = []

    def graded_as(paths, per_path=None, **_):
        calls.append(paths)
        return [result(p, dict(per_path[p][1])) for p in paths]
    monkeypatch.setattr(_cli, "grade_all", graded_as)
    handed_in(tmp_path / "entregas", "03_layernorm", "Fede", "7")
    out = tmp_path / "notas.csv"
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(out), "--sin-aislar"]) == 0
    said = capsys.readouterr().out
    assert f"escribí el informe de la clase en {tmp_path / 'informe.html'} (sin nombres" in said, said
    assert (tmp_path / "informe.html").exists()
    assert main(["calificar", str(tmp_path / "entregas"), "--csv", str(out), "--sin-aislar",
                 "--informe", str(tmp_path / "falta" / "informe.html")]) == 2
    assert "--informe: no existe la carpeta" in capsys.readouterr().err and len(calls) == 1
