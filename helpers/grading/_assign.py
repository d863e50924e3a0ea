"""make grading: per lesson notebook, the student copy and an otter-grader autograder bundle, both generated from
the lesson notebook and helpers.check (the reference answer is ``solution().code``; otter's test calls the checker)."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import lesson
from ._notebook import Exercise, exercises, show_points, student_copy
from ._points import read_points

__all__ = ["POINTS", "TIME_LIMIT_PLUGIN", "assignment_name", "build", "master_notebook", "plan", "reference_code",
           "test_source", "time_limit"]

POINTS = 1  # a "Tu turno" without a points file: one check, all or nothing (the checker has no partial credit)
_OTTER_KEY = "otter"  # notebook metadata otter's runner reads: ``assignment_name`` must be the bundle's
TIME_LIMIT_PLUGIN = "helpers.grading.otter_plugin.TimeLimit"  # otter's runner imports it by this name


def time_limit(cell_s: float | None = None, kill_after_s: float | None = None) -> dict:
    """The bundle's time limit, as otter_config.json's ``plugins`` names it: calificar's, unless ``cell_s``."""
    from ._grade import CELL_TIMEOUT_S, KILL_AFTER_S  # written once there (_grade imports this module)
    return {TIME_LIMIT_PLUGIN: {"cell_s": cell_s or CELL_TIMEOUT_S, "kill_after_s": kill_after_s or KILL_AFTER_S}}


def assignment_name(stem: str) -> str:
    """The name otter's bundle for one notebook checks each submission against."""
    return f"leccion06-{stem}"


def reference_code(ex: Exercise) -> str:
    """The exercise's reference answer, from its checker's public ``solution()``."""
    return importlib.import_module("helpers.check").__dict__[ex.name].solution().code


def test_source(ex: Exercise) -> str:
    """otter's test of one exercise, run in the submission's namespace: the same checker the learner runs."""
    missing = f"no encontré `{ex.variable}`: ¿borraste o no corriste su celda?"
    return (f"import helpers\n"
            f"assert {ex.variable!r} in globals(), {missing!r}\n"
            f"veredicto = helpers.check.{ex.name}({ex.variable})\n"
            f"assert veredicto.status == 'correct', veredicto.message\n")


def _raw(text: str) -> dict:
    return {"cell_type": "raw", "metadata": {}, "source": text}


def _code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": text, "execution_count": None, "outputs": []}


def _solution_cell(ex: Exercise, stub: str) -> str:
    """One cell: the reference (dropped from otter's student version) and the stub as otter's prompt (kept)."""
    quote = "'''" if '"""' in stub else '"""'
    if quote in stub:
        raise ValueError(f"el stub de {ex.name} tiene comillas triples de los dos tipos: otter no sabría cortarlo")
    return (f"# BEGIN SOLUTION NO PROMPT\n{reference_code(ex).rstrip()}\n# END SOLUTION\n"
            f"{quote} # BEGIN PROMPT\n{stub.rstrip()}\n{quote} # END PROMPT\n")


def _config(name: str, cell_s: float | None = None) -> str:
    config = {"name": name, "init_cell": False, "check_all_cell": False, "export_cell": False, "run_tests": False,
              "requirements": "requirements.txt", "overwrite_requirements": False,
              "generate": {"pdf": False, "plugins": [time_limit(cell_s)]}, "tests": {"files": False, "ok_format": True}}
    return "# ASSIGNMENT CONFIG\n" + json.dumps(config, indent=1)  # JSON is YAML


def master_notebook(nb, name: str, student=None, cell_s: float | None = None):
    """otter assign's master notebook (format v1) from a lesson notebook: its student copy, with each graded
    "Tu turno" stub as the prompt, ``solution().code`` as the solution and the checker as the test, at its points;
    otter's runner cuts a cell as calificar does, at ``cell_s`` (calificar's default unless said)."""
    student = student or student_copy(nb)
    points = student["metadata"].get("leccion06", {}).get("puntos", {})
    by_stub = {ex.stub: ex for ex in exercises(student) if ex.name in points}
    cells = [_raw(_config(name, cell_s))]
    for i, cell in enumerate(student["cells"]):
        ex = by_stub.get(i)
        if ex is None:
            cells.append(cell)
            continue
        cells += [_raw(f"# BEGIN QUESTION\nname: {ex.name}\npoints: {points[ex.name]}\ncheck_cell: false"),
                  _raw("# BEGIN SOLUTION"), _code(_solution_cell(ex, cell["source"])), _raw("# END SOLUTION"),
                  _raw("# BEGIN TESTS"), _code(test_source(ex)), _raw("# END TESTS"),
                  _raw("# END QUESTION")]
    return {**student, "cells": cells}


_TORCH_CPU_INDEX = "--extra-index-url https://download.pytorch.org/whl/cpu"


def _requirements(root: Path) -> str:
    """What the autograder image installs: this release of helpers, from the repository's tag, with PyTorch's CPU
    index beside PyPI (otherwise pip takes PyPI's torch, which brings CUDA: several GB of nvidia-… packages that
    grading never uses; a +cpu build sorts above the same version without it)."""
    import importlib.util  # the checkout's .ci/facts.py, the one reader of pyproject.toml (not on any path)
    spec = importlib.util.spec_from_file_location("facts", root / ".ci" / "facts.py")
    facts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(facts)
    return f"{_TORCH_CPU_INDEX}\nleccion06-helpers @ git+{facts.repository()}@v{facts.version()}\n"


def _same_as_ours(theirs: Path, ours: Path) -> None:
    """otter's student version must be ours, cell by cell (the bundle grades what we hand out)."""
    def cells(p):
        return [(c["cell_type"], "".join(c["source"]).strip()) for c in json.loads(p.read_text("utf-8"))["cells"]]
    if cells(theirs) != cells(ours):
        diff = next(i for i, (a, b) in enumerate(zip(cells(theirs), cells(ours), strict=False)) if a != b)
        raise SystemExit(f"la versión de otter de {ours.name} difiere de la nuestra desde la celda {diff}")


def plan(notebooks: list[Path], points_file: Path | None) -> dict[Path, dict[str, float] | None]:
    """Which notebooks go into the assignment and each one's points (None: every exercise, 1 point)."""
    known = {p.stem: [ex.name for ex in exercises(json.loads(p.read_text(encoding="utf-8")))] for p in notebooks}
    if points_file is None:
        return {p: None for p in notebooks}
    chosen = read_points(points_file, known)
    return {p: chosen[p.stem] for p in notebooks if p.stem in chosen}


def _summary(student) -> str:
    points = student["metadata"]["leccion06"]["puntos"]
    return ", ".join(f"{n} {show_points(v)}" for n, v in points.items())


def build(root: Path, out: Path, notebooks: list[Path] | None = None, points_file: Path | None = None,
          say=print, cell_s: float | None = None) -> list[Path]:
    """Write ``out/<stem>/`` per notebook of the assignment: ``<stem>.ipynb`` (the student copy) and
    ``autograder.zip`` (otter assign's bundle, cutting a cell at ``cell_s`` as calificar does); return the student
    copies. Needs otter-grader (``docente``)."""
    import helpers
    root, out = Path(root), Path(out)
    chosen = plan(notebooks or lesson.notebooks(root / "notebooks"), points_file)
    otter = shutil.which("otter", path=str(Path(sys.executable).parent)) or shutil.which("otter")
    if otter is None:
        raise SystemExit("falta otter-grader: instalalo con pip install 'leccion06-helpers[docente]'")
    made = []
    for path, points in chosen.items():
        nb = json.loads(path.read_text(encoding="utf-8"))
        student = student_copy(nb, path.stem, points, helpers.__version__)
        # otter run (Gradescope's runner) refuses a notebook whose metadata does not name the bundle's assignment
        student["metadata"][_OTTER_KEY] = {"assignment_name": assignment_name(path.stem)}
        dest = out / path.stem
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        (dest / f"{path.stem}.ipynb").write_text(json.dumps(student, ensure_ascii=False, indent=1) + "\n",
                                                 encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            master = Path(tmp) / f"{path.stem}.ipynb"
            master.write_text(json.dumps(master_notebook(nb, assignment_name(path.stem), student, cell_s),
                                         ensure_ascii=False), encoding="utf-8")
            (Path(tmp) / "requirements.txt").write_text(_requirements(root), encoding="utf-8")
            command = [otter, "assign", "--no-run-tests", "--no-pdfs", str(master), str(Path(tmp) / "dist")]
            done = subprocess.run(command, capture_output=True, text=True, cwd=tmp)
            if done.returncode:
                raise SystemExit(f"otter assign falló con {path.name}:\n{done.stdout}\n{done.stderr}")
            zips = sorted((Path(tmp) / "dist" / "autograder").glob("*.zip"))
            shutil.copy(zips[-1], dest / "autograder.zip")
            _same_as_ours(Path(tmp) / "dist" / "student" / master.name, dest / f"{path.stem}.ipynb")
        made.append(dest / f"{path.stem}.ipynb")
        say(f"{path.stem}: {_summary(student)}")
    return made
