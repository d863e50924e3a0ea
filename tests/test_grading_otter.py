"""The Gradescope path, through otter's own runner: ``armar`` builds every notebook's student copy and bundle (with
weighted points), and ``otter run -a autograder.zip`` (what Gradescope's image runs, here without Docker) grades a
complete, an empty, a wrong (a named mistake of the checker's gallery) and a Colab-renamed submission of each; it
must give, question by question, the points ``calificar`` gives the same files. A cell that never ends is cut on
this path too (the bundle's time limit, helpers.grading.otter_plugin). otter runs every cell (the trainings too),
one submission at a time: minutes, so it runs in ``make test-grading`` (docs/mantenimiento.md), not in ``make unit``."""

from __future__ import annotations

import ast
import csv
import inspect
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import zipfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT

import helpers.check
from helpers import grading, lesson
from helpers.grading.__main__ import main

RUN_ENV = "LECCION06_TEST_OTTER"  # make test-grading sets it
pytestmark = [pytest.mark.grading,
              pytest.mark.skipif(not os.environ.get(RUN_ENV), reason=f"otter run takes minutes: make test-grading "
                                                                      f"({RUN_ENV}=1)")]
KINDS = ("completa", "vacia", "con_error", "colab")
OTTER_TIMEOUT_S = 900  # one submission; 05, the slowest notebook, takes under a minute on an idle core


def otter() -> str:
    found = shutil.which("otter", path=str(Path(sys.executable).parent)) or shutil.which("otter")
    if found is None:
        pytest.skip("otter-grader is the docente extra")
    return found


def points_file(folder: Path) -> Path:
    """Every exercise of every notebook, the first of each worth 2 and 05's warmup 1.5: the weights must travel."""
    lines = []
    for nb in lesson.notebooks(ROOT / "notebooks"):
        names = [ex.name for ex in grading.exercises(json.loads(nb.read_text(encoding="utf-8")))]
        worth = {n: (2 if i == 0 else 1.5 if n == "warmup" else 1) for i, n in enumerate(names)}
        lines += [f"[{nb.stem}]", *(f"{n} = {v}" for n, v in worth.items()), ""]
    path = folder / "puntos.ini"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def learner_mistake(ex: grading.Exercise) -> tuple[str, object] | None:
    """The exercise's first known mistake, written as a learner would under the expected name; None where the
    gallery holds only methods (04's block_pre: a ``forward`` without its class)."""
    for mistake in getattr(helpers.check, ex.name).mistakes:
        node = ast.parse(textwrap.dedent(inspect.getsource(mistake.fn))).body[0]
        if isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "self":
            return None
        node.decorator_list = []
        return f"{ast.unparse(node)}\n\n\n{ex.variable} = {node.name}\n", mistake
    return None


def as_colab(nb: dict) -> dict:
    """The notebook as Colab saves it (nbformat 4.0, its own metadata first, cell ids in the cells' metadata, each
    run cell's executionInfo), its own keys rewritten and the others kept, ``otter`` among them: what the guide says
    Colab does (not checked against Colab itself here; calificar does not depend on it, it reads the name cell)."""
    out = {"nbformat": 4, "nbformat_minor": 0,
           "metadata": {"colab": {"provenance": []}, "kernelspec": {"name": "python3", "display_name": "Python 3"},
                        "language_info": {"name": "python"},
                        **{k: v for k, v in nb["metadata"].items() if k not in ("kernelspec", "language_info")}},
           "cells": []}
    for i, cell in enumerate(nb["cells"]):
        cell = {k: v for k, v in cell.items() if k != "id"}
        meta = {**cell.get("metadata", {}), "id": f"colab{i:04d}"}
        if cell["cell_type"] == "code":
            meta["executionInfo"] = {"status": "ok", "timestamp": 1773151200000 + 1000 * i, "user_tz": 180}
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        out["cells"].append({**cell, "metadata": meta, "source": src.splitlines(keepends=True)})
    return out


def submission(student: dict, who: str, answers: dict[int, str]) -> dict:
    nb = json.loads(json.dumps(student))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    # a student id of digits, one per submission: rows compare ids by their digits alone (12.345.678 is 12345678),
    # so "01_ffn-completa" and "01_ffn-vacia" would be one student, 01, with three older resubmissions
    student_id = str(zlib.crc32(who.encode()))
    cell["source"] = cell["source"].replace('NOMBRE = ""', f"NOMBRE = {who!r}").replace(
        'LEGAJO = ""', f"LEGAJO = {student_id!r}")
    for i, src in answers.items():
        nb["cells"][i]["source"] = src
    return nb


def otter_run(bundle: Path, nb_path: Path, out: Path) -> dict:
    """otter run on one submission: {question: score}, or the runner's error."""
    out.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "LECCION06_STRICT"}  # a learner's environment, as Gradescope
    done = subprocess.run([otter(), "run", "-a", str(bundle), "-o", str(out), str(nb_path)], capture_output=True,
                          text=True, env={**env, "OMP_NUM_THREADS": "1"}, timeout=OTTER_TIMEOUT_S)
    results = out / "results.json"
    if not results.exists():
        return {"error": (done.stdout + done.stderr)[-2000:]}
    return {t["name"]: t["score"] for t in json.loads(results.read_text(encoding="utf-8"))["tests"] if "score" in t}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("otter")
    build = tmp / "build"
    start = time.perf_counter()
    assert main(["armar", "--raiz", str(ROOT), "--salida", str(build), "--puntos", str(points_file(tmp))]) == 0
    built = time.perf_counter() - start
    cases, otter_jobs = {}, []
    for copy in sorted(build.glob("*/*.ipynb")):
        stem, student = copy.stem, json.loads(copy.read_text(encoding="utf-8"))
        tasks = grading.exercises(student)
        ref = {ex.stub: grading.reference_code(ex) for ex in tasks}
        wrong_ex, (wrong, mistake) = next((ex, m) for ex in tasks if (m := learner_mistake(ex)))
        last = tasks[-1]
        made = {"completa": (submission(student, f"{stem} completa", ref), f"{stem}.ipynb"),
                "vacia": (submission(student, f"{stem} vacia", {}), f"{stem}.ipynb"),
                "con_error": (submission(student, f"{stem} con_error", {**ref, wrong_ex.stub: wrong}),
                              f"{stem}.ipynb"),
                # renamed and re-saved by Colab, its last "Tu turno" left undone
                "colab": (as_colab(submission(student, f"{stem} colab", {**ref, last.stub: student["cells"][
                    last.stub]["source"]})), f"Copia de {stem}.ipynb")}
        for kind, (nb, name) in made.items():
            path = tmp / "entregas" / f"{stem}_{kind}" / name
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
            cases[stem, kind] = {"path": path, "wrong": (wrong_ex.name, mistake), "last": last.name,
                                 "worth": student["metadata"]["leccion06"]["puntos"]}
            otter_jobs.append((stem, kind, build / stem / "autograder.zip", path, tmp / "otter" / f"{stem}_{kind}"))
    start = time.perf_counter()
    assert main(["calificar", str(tmp / "entregas"), "--tarea", str(build), "--csv", str(tmp / "notas.csv"),
                 "-j", "2"]) == 0
    calificar_s = time.perf_counter() - start
    rows = {r["estudiante"]: r for r in csv.DictReader((tmp / "notas.csv").open(encoding="utf-8-sig"))}
    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(lambda job: otter_run(*job[2:]), otter_jobs))
    otter_s = time.perf_counter() - start
    for (stem, kind, *_), got in zip(otter_jobs, scores, strict=True):
        cases[stem, kind].update(otter=got, row=rows[f"{stem} {kind}"])
    print(f"\narmar: {built:.0f} s; calificar, {len(cases)} entregas con -j 2: {calificar_s:.0f} s; otter run, "
          f"de a 2: {otter_s:.0f} s")
    return cases


def _number(text: str) -> float:
    return float(text.replace(",", "."))


CASES = [(path.stem, kind) for path in lesson.notebooks(ROOT / "notebooks") for kind in KINDS]


@pytest.mark.parametrize("stem, kind", CASES, ids=[f"{s}-{k}" for s, k in CASES])
def test_otter_run_gives_calificars_points(graded, stem, kind):
    case = graded[stem, kind]
    assert "error" not in case["otter"], f"otter run refused {case['path'].name}:\n{case['otter']['error']}"
    worth, row, theirs = case["worth"], case["row"], case["otter"]
    ours = {name: _number(row[name]) for name in worth}
    assert set(theirs) == set(worth), f"otter graded {sorted(theirs)}, the assignment has {sorted(worth)}"
    assert {n: float(v) for n, v in theirs.items()} == ours, f"{stem} {kind}: otter {theirs}, calificar {ours}"
    wrong, mistake = case["wrong"]
    expected = {"completa": dict(worth), "vacia": dict.fromkeys(worth, 0),
                "con_error": {**worth, wrong: 0}, "colab": {**worth, case["last"]: 0}}[kind]
    assert ours == {n: float(v) for n, v in expected.items()}, f"{stem} {kind}: calificar gave {ours}"
    if kind == "con_error":
        said = row[f"mensaje {wrong}"]
        assert mistake.message.split(":")[0] in said, f"{stem}: the mistake {mistake.key} not named: {said[:300]}"


def test_otter_refuses_a_copy_without_the_assignment_name(graded, tmp_path):
    """What the copies' ``otter`` metadata is for: without it otter run stops before grading (the bug it fixed)."""
    case = graded["03_layernorm", "completa"]
    nb = json.loads(case["path"].read_text(encoding="utf-8"))
    assert nb["metadata"]["otter"] == {"assignment_name": "leccion06-03_layernorm"}
    del nb["metadata"]["otter"]
    path = tmp_path / "03_layernorm.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    bundle = case["path"].parents[2] / "build" / "03_layernorm" / "autograder.zip"
    got = otter_run(bundle, path, tmp_path / "out")
    assert "Received submission for assignment 'None'" in got.get("error", ""), got


def test_otter_refuses_another_notebooks_copy_naming_both(graded, tmp_path):
    """What the guide says of a notebook uploaded to another notebook's assignment."""
    other = graded["04_encoder_block", "completa"]["path"]
    bundle = other.parents[2] / "build" / "03_layernorm" / "autograder.zip"
    got = otter_run(bundle, other, tmp_path / "out")
    assert ("Received submission for assignment 'leccion06-04_encoder_block' (this is assignment "
            "'leccion06-03_layernorm')") in got.get("error", ""), got


# ------------------------------------------------------------------------ a cell that never ends, on otter's path

LIMIT_S = 10  # the bundle's limit per cell here (armar --tiempo): 03's slowest cell takes a few seconds
SWALLOWS = "import time\nwhile True:\n    try:\n        time.sleep(0.5)\n    except BaseException:\n        pass\n"
ENDLESS = "n = 0\nwhile True:\n    n += 1\n"
HANG_S = 600  # a ceiling against a hang only: each run below takes about a minute on a busy 2-core machine


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    """03's bundle, its exercises worth 2 and 1, otter's runner cutting a cell at LIMIT_S (armar --tiempo)."""
    tmp = tmp_path_factory.mktemp("limite")
    points = tmp / "puntos.ini"
    points.write_text("[03_layernorm]\nlayer_norm = 2\nrms_norm = 1\n", encoding="utf-8")
    assert main(["armar", "--raiz", str(ROOT), "--salida", str(tmp / "build"), "--puntos", str(points),
                 "--tiempo", str(LIMIT_S)]) == 0
    return tmp / "build" / "03_layernorm"


def between_the_answers(bundle: Path, folder: Path, loop: str) -> tuple[Path, str]:
    """03's student copy with both answers right and ``loop`` in a cell of its own between them; where that cell is,
    as the guard says it."""
    student = json.loads((bundle / "03_layernorm.ipynb").read_text(encoding="utf-8"))
    first, second = grading.exercises(student)
    nb = submission(student, "Bucle Paz", {first.stub: grading.reference_code(first),
                                           second.stub: grading.reference_code(second)})
    at = first.check + 1
    nb["cells"].insert(at, {"cell_type": "code", "id": "bucle", "metadata": {}, "source": loop, "outputs": [],
                            "execution_count": None})
    path = folder / "03_layernorm.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return path, grading._notebook.cell_place(nb, at)


def timed_otter_run(bundle: Path, nb_path: Path, out: Path) -> tuple[subprocess.CompletedProcess, float]:
    out.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "LECCION06_STRICT"}
    start = time.perf_counter()
    done = subprocess.run([otter(), "run", "-a", str(bundle / "autograder.zip"), "-o", str(out), str(nb_path)],
                          capture_output=True, text=True, env={**env, "OMP_NUM_THREADS": "1"}, timeout=HANG_S)
    return done, time.perf_counter() - start


def as_gradescope(bundle: Path, nb_path: Path, root: Path) -> dict:
    """What Gradescope runs (the bundle's run_otter.py: otter's run_autograder on /autograder's layout), here on
    ``root``: the results.json Gradescope would show."""
    for sub in ("source", "submission", "results"):
        (root / sub).mkdir(parents=True)
    with zipfile.ZipFile(bundle / "autograder.zip") as z:
        z.extractall(root / "source")
    shutil.copy(nb_path, root / "submission")
    (root / "submission_metadata.json").write_text("{}", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "LECCION06_STRICT"}
    subprocess.run([sys.executable, "-c", f"from otter.run.run_autograder import main; main({str(root)!r})"],
                   capture_output=True, text=True, env={**env, "OMP_NUM_THREADS": "1"}, timeout=HANG_S, cwd=root)
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def scores(results: dict) -> dict:
    return {t["name"]: t["score"] for t in results["tests"] if "score" in t}


def test_a_cell_that_swallows_the_interrupt_ends_otters_run_and_keeps_the_earlier_points(limited, tmp_path):
    """The teacher's trial: otter run on this loop was still running at 420 s. Now it ends, as calificar does, a
    limit and 10 s after the cell started, saying which cell it cut; on Gradescope's layout results.json keeps the
    exercise whose cells came before the loop and gives 0 to the one after, with the same sentence on top: the
    points calificar --todas gives the same file."""
    path, where = between_the_answers(limited, tmp_path / "entrega", SWALLOWS)
    done, took = timed_otter_run(limited, path, tmp_path / "otter")
    said = done.stdout + done.stderr
    print(f"\notter run, una celda que se traga la interrupción: {took:.0f} s (límite {LIMIT_S} s + 10 s)")
    assert done.returncode != 0 and f"{where} se cortó a los" in said, said[-3000:]
    results = as_gradescope(limited, path, tmp_path / "autograder")
    assert scores(results) == {"layer_norm": 2, "rms_norm": 0}, results
    assert results["output"].startswith(f"{where} se cortó a los"), results["output"]
    assert "Los ejercicios cuyas celdas venían antes conservan su nota" in results["output"]
    # calificar --todas runs every cell, as otter does (without it, calificar never runs a cell no check needs,
    # as this loop, and both exercises get their points)
    assert main(["calificar", str(path), "--tarea", str(limited), "--csv", str(tmp_path / "notas.csv"),
                 "--tiempo", str(LIMIT_S), "--todas"]) == 0
    [row] = list(csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")))
    assert (row["layer_norm"], row["rms_norm"]) == ("2", "0"), row


def test_an_endless_cell_is_interrupted_and_otter_grades_the_rest_as_calificar_does(limited, tmp_path):
    """A loop that stops when interrupted: otter's runner interrupts it at the limit and goes on, so both exercises
    get their points, as calificar --todas gives them, and results.json says which cell it interrupted."""
    path, where = between_the_answers(limited, tmp_path / "entrega", ENDLESS)
    done, took = timed_otter_run(limited, path, tmp_path / "otter")
    print(f"\notter run, una celda sin fin que se deja interrumpir: {took:.0f} s (límite {LIMIT_S} s)")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    results = json.loads((tmp_path / "otter" / "results.json").read_text(encoding="utf-8"))
    assert scores(results) == {"layer_norm": 2, "rms_norm": 1}, results
    assert results["output"] == f"{where} se interrumpió a los {LIMIT_S} s: no terminaba", results["output"]
    assert main(["calificar", str(path), "--tarea", str(limited), "--csv", str(tmp_path / "notas.csv"),
                 "--tiempo", str(LIMIT_S), "--todas"]) == 0
    [row] = list(csv.DictReader((tmp_path / "notas.csv").open(encoding="utf-8-sig")))
    assert (row["layer_norm"], row["rms_norm"]) == ("2", "1"), row
