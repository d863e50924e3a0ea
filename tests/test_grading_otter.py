"""The Gradescope path, through otter's own runner: ``armar`` builds every notebook's student copy and bundle (with
weighted points), and ``otter run -a autograder.zip`` (what Gradescope's image runs, here without Docker) grades a
complete, an empty, a wrong (a named mistake of the checker's gallery) and a Colab-renamed submission of each; it
must give, question by question, the points ``calificar`` gives the same files. otter runs every cell (the
trainings too), one submission at a time: minutes, so it runs in ``make test-grading`` (README), not in ``make
unit``."""

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


CASES = [(stem, kind) for stem in ("01_ffn", "02_residual_stream", "03_layernorm", "04_encoder_block",
                                   "05_norm_placement", "05b_semillas_profundidad_warmup") for kind in KINDS]


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
