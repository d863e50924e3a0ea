"""CI's own machinery: .ci/pipeline.py runs stages side by side within the cores, stops what depends on a failure,
prints a table and fails the run; the grid's kernels are strict however the grid is started."""

from __future__ import annotations

import importlib.util
import json
import sys
import time

import cpu_grid
import facts
from conftest import ROOT

spec = importlib.util.spec_from_file_location("pipeline", ROOT / ".ci" / "pipeline.py")
pipeline = sys.modules["pipeline"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pipeline)
Stage = pipeline.Stage


def sh(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_pipeline_runs_one_core_stages_side_by_side_and_two_core_stages_alone(tmp_path, capsys):
    sleep = sh("import time, sys; print('start', time.time()); time.sleep(0.6); print('end', time.time())")
    stages = [Stage("a", sleep), Stage("b", sleep), Stage("c", sleep, cores=2), Stage("d", sleep, cores=0)]
    t0 = time.monotonic()
    assert pipeline.run(stages, cores=2, logs=tmp_path) == 0
    spans = {}
    for s in stages:
        lines = dict(line.split() for line in (tmp_path / f"{s.name}.log").read_text().splitlines())
        spans[s.name] = (float(lines["start"]), float(lines["end"]))
    assert spans["a"][0] < spans["b"][1] and spans["b"][0] < spans["a"][1], "a and b should overlap"
    for other in "ab":
        assert spans["c"][0] >= spans[other][1] or spans["c"][1] <= spans[other][0], f"c overlapped {other}"
    assert time.monotonic() - t0 < 3 * 0.6 + 1.5
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == "stages: 4 passed, 0 failed"
    assert all(f"\n{name} " in out for name in "abcd"), "the table lists every stage"


def test_pipeline_skips_what_depends_on_a_failure_and_fails_the_run(tmp_path, capsys):
    stages = [Stage("broken", sh("raise SystemExit(3)")), Stage("after", sh("pass"), after=("broken",)),
              Stage("independent", sh("x = sum(range(3 * 10**6)); print('ran')")),
              Stage("covered", None, after=("independent",)), Stage("not-covered", None, after=("broken",))]
    assert pipeline.run(stages, cores=2, logs=tmp_path) == 1
    results = {s.name: s.result for s in stages}
    assert results == {"broken": "FAILED (exit 3)", "after": "skipped: broken did not pass", "independent": "passed",
                       "covered": "covered", "not-covered": "skipped: broken did not pass"}
    assert stages[2].cpu > 0.01, "the stage's CPU time is measured"
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == "stages: 2 passed, 3 failed"


def test_ci_stages_are_make_targets_that_exist():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stages = pipeline.stages()
    names = {s.name for s in stages}
    for s in stages:
        assert s.command[:2] == ["make", "--no-print-directory"], s
        assert f"\n{s.command[2]}:" in makefile, f"{s.name}: no make target {s.command[2]}"
        assert set(s.after) <= names, s
    configs = {s.name.removeprefix("grid ") for s in stages if s.name.startswith("grid ")}
    assert configs == {g[0] for g in cpu_grid.GRID}, "every grid configuration is a stage"


CLAIM_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
               "source": "import helpers\nhelpers.claim({holds}, 'la lección dice algo', 'esta corrida, otra')"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_a_failing_claim_fails_the_grid_even_when_started_outside_make(tmp_path, monkeypatch, capsys):
    """The grid's kernels get LECCION06_STRICT from the grid itself: a claim that does not hold is a failure
    (and one that holds is not)."""
    monkeypatch.delenv("LECCION06_STRICT", raising=False)
    for holds in (True, False):
        cells = json.loads(json.dumps(CLAIM_NOTEBOOK).replace("{holds}", str(holds)))
        (tmp_path / f"claim_{holds}.ipynb").write_text(json.dumps(cells), encoding="utf-8")
    rc = cpu_grid.nbval([str(tmp_path / "claim_True.ipynb"), str(tmp_path / "claim_False.ipynb")], ["native/1"])
    out = capsys.readouterr().out
    assert rc == 1 and "ClaimFailed" in out and "1 failed, 1 passed" in out, out


def test_nbval_flags_come_from_facts():
    assert cpu_grid.NBVAL is facts.NBVAL
    assert "--nbval" in facts.NBVAL and any(f.endswith(f"={facts.CELL_TIMEOUT}") for f in facts.NBVAL)
