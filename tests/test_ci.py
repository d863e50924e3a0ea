"""CI's own machinery: .ci/pipeline.py runs stages side by side within the cores, stops what depends on a failure,
prints a table and fails the run; the grid's kernels are strict however the grid is started."""

from __future__ import annotations

import importlib.util
import json
import sys
import time

import cpu_grid
import facts
import pytest
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
    assert pipeline.run(stages, cores=2, logs=tmp_path, meter=FakeMeter(idle=0.0)) == 0
    spans = {}
    for s in stages:
        lines = dict(line.split() for line in (tmp_path / f"{s.name}.log").read_text().splitlines())
        spans[s.name] = (float(lines["start"]), float(lines["end"]))
    assert spans["a"][0] < spans["b"][1] and spans["b"][0] < spans["a"][1], "a and b should overlap"
    for other in "ab":
        assert spans["c"][0] >= spans[other][1] or spans["c"][1] <= spans[other][0], f"c overlapped {other}"
    assert time.monotonic() - t0 < 60, "a ceiling against a hang: side by side is what the spans above show"
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == "stages: 4 passed, 0 failed"
    assert all(f"\n{name} " in out for name in "abcd"), "the table lists every stage"


class FakeMeter:
    """An IdleMeter that reads a fixed number of idle cores."""

    def __init__(self, idle: float):
        self.idle, self.restarts = idle, 0

    def idle_cores(self, now, cores):
        return self.idle

    def restart(self):
        self.restarts += 1


def spans_of(stages, logs):
    out = {}
    for s in stages:
        lines = dict(line.split() for line in (logs / f"{s.name}.log").read_text().splitlines())
        out[s.name] = (float(lines["start"]), float(lines["end"]))
    return out


@pytest.mark.parametrize("idle, overlaps", [(1.9, True), (0.5, False)])
def test_a_stage_starts_beside_the_others_only_on_cores_that_stood_idle(tmp_path, idle, overlaps):
    """Two one-core stages that wait (idle cores) let a third start beside them, within OVERCOMMIT; busy cores do
    not, and a multi-threaded stage neither starts on idle cores nor has anything started beside it."""
    sleep = sh("import time; print('start', time.time()); time.sleep(1.0); print('end', time.time())")
    stages = [Stage("a", sleep), Stage("b", sleep), Stage("third", sleep), Stage("big", sleep, cores=2),
              Stage("last", sleep)]
    meter = FakeMeter(idle)
    assert pipeline.run(stages, cores=2, logs=tmp_path, meter=meter) == 0
    spans = spans_of(stages, tmp_path)
    third_beside = spans["third"][0] < min(spans["a"][1], spans["b"][1])
    assert third_beside is overlaps, spans
    assert ("started on idle cores" in stages[2].note) is overlaps and (meter.restarts > 0) is overlaps
    assert "idle" not in stages[3].note, "a multi-threaded stage starts only on its own free cores"
    assert all(not (a < spans["big"][1] and spans["big"][0] < b) for n, (a, b) in spans.items() if n != "big"), \
        f"nothing runs beside a multi-threaded stage: {spans}"
    declared = {"a": 1, "b": 1, "third": 1, "big": 2, "last": 1}
    for t in [start for start, _ in spans.values()]:
        at_once = sum(declared[n] for n, (a, b) in spans.items() if a <= t < b)
        assert at_once <= 2 + pipeline.OVERCOMMIT, f"{at_once} cores declared at once: {spans}"


def test_the_idle_meter_reads_proc_stat_over_its_window(tmp_path):
    stat = tmp_path / "stat"
    meter = pipeline.IdleMeter(stat)
    # user nice system idle iowait irq softirq steal
    stat.write_text("cpu  100 0 100 700 100 0 0 0\ncpu0 1 2 3\n")
    assert meter.idle_cores(0.0, 2) == 0.0, "nothing to compare with yet"
    stat.write_text("cpu  200 0 150 850 100 0 0 0\n")
    assert meter.idle_cores(5.0, 2) == 0.0, "not a whole window yet"
    stat.write_text("cpu  250 0 200 1050 150 0 0 0\n")
    # since the first reading: idle + iowait 1200 - 800 = 400 of 1650 - 1000 = 650 jiffies, times 2 cores
    assert meter.idle_cores(pipeline.IDLE_WINDOW + 1, 2) == pytest.approx(2 * 400 / 650)
    meter.restart()
    assert meter.idle_cores(pipeline.IDLE_WINDOW + 2, 2) == 0.0
    assert pipeline.IdleMeter(tmp_path / "missing").idle_cores(100.0, 2) == 0.0


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


def test_a_stage_past_its_limit_is_stopped_and_fails_with_its_name_and_time(tmp_path, capsys):
    stages = [Stage("hangs", sh("import time; time.sleep(60)"), limit=1.0), Stage("fine", sh("pass")),
              Stage("after-hang", sh("pass"), after=("hangs",))]
    t0 = time.monotonic()
    assert pipeline.run(stages, cores=2, logs=tmp_path) == 1
    assert time.monotonic() - t0 < 45, "the hanging stage (60 s) was not stopped at its limit (1 s)"
    assert stages[0].result == "FAILED (over its limit: ran 0:01)", stages[0].result
    assert stages[1].result == "passed" and stages[2].result == "skipped: hangs did not pass"
    table = capsys.readouterr().out.split("\nstage ")[-1]
    assert "limit" in table.splitlines()[0], "the table shows each stage's limit beside its time"
    assert any(line.startswith("hangs") and " 0:01 " in line and "stopped at its limit" in line
               for line in table.splitlines()), table


def test_the_whole_run_stops_at_its_limit_and_still_prints_the_table(tmp_path, capsys):
    stages = [Stage("slow", sh("import time; time.sleep(60)"), limit=600), Stage("waits", sh("pass"), after=("slow",))]
    t0 = time.monotonic()
    assert pipeline.run(stages, cores=2, logs=tmp_path, limit=1.5) == 1
    assert time.monotonic() - t0 < 45, "the run did not stop at its limit (1.5 s) before the stage's 60 s"
    assert stages[0].result.startswith("FAILED (stopped when the run reached 0:01"), stages[0].result
    assert stages[1].result == "not run: the run reached its limit of 0:01"
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == "stages: 0 passed, 2 failed"


def test_every_ci_stage_has_a_finite_limit_within_cis_time():
    stages = pipeline.stages()
    # at most two fifths of the run's limit (32 of 80 min; `site` has 30 since it passed 20 beside the other
    # stages on a 2-core Zen 1): a stage that hangs still leaves the rest of the run time to finish
    assert all(0 < s.limit <= 0.4 * pipeline.RUN_LIMIT for s in stages), [(s.name, s.limit) for s in stages]
    assert pipeline.RUN_LIMIT < 90 * 60, "the run must stop (and print its table) before CI's 90 minutes"


def test_a_cpu_without_avx512_skips_those_configurations_and_says_why(monkeypatch, capsys, tmp_path):
    """The flag reader is the one source: a faked CPU with AVX2 only skips avx512/* without starting any kernel."""
    monkeypatch.setattr(cpu_grid, "cpu_flags", lambda: frozenset({"sse2", "avx", "avx2", "fma"}))
    monkeypatch.setattr(cpu_grid, "effective", lambda env: pytest.fail("torch's self-report was asked"))
    t0 = time.monotonic()
    assert cpu_grid.nbval([str(tmp_path / "never-run.ipynb")], ["avx512/1", "avx512/2"]) == 0
    out = capsys.readouterr().out
    assert "avx512/1: skipped, this CPU has no AVX-512" in out and "avx512/2: skipped" in out, out
    assert "started" not in out and "0 passed, 0 failed, 2 skipped" in out, out
    assert time.monotonic() - t0 < 5
    monkeypatch.setattr(cpu_grid, "cpu_flags", lambda: frozenset({"avx2"}))  # AVX2 without FMA: not torch's AVX2
    assert cpu_grid.cannot_run("avx2") == "this CPU has no AVX2"
    assert cpu_grid.cannot_run("default") is None and cpu_grid.cannot_run(None) is None


def test_where_flags_cannot_be_read_a_probe_decides(monkeypatch):
    monkeypatch.setattr(cpu_grid, "cpu_flags", lambda: None)
    monkeypatch.setattr(cpu_grid, "probe", lambda cap: cap == "avx2")
    assert cpu_grid.cannot_run("avx2") is None
    assert cpu_grid.cannot_run("avx512") == "forcing avx512 kills a test process on this CPU"


def test_the_flags_agree_with_a_real_run_on_this_cpu():
    """Each kernel set the flags say this CPU runs really runs here (a forced set it lacks would die: SIGILL)."""
    assert cpu_grid.probe("default")
    for capability in cpu_grid.NEEDS:
        if cpu_grid.cannot_run(capability) is None:
            assert cpu_grid.probe(capability), f"the flags say {capability}, but a forced run failed"


DYING_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "source": "print('antes')",
               "outputs": [{"output_type": "stream", "name": "stdout", "text": "antes\n"}]},
              {"cell_type": "code", "execution_count": 2, "id": "c2", "metadata": {}, "outputs": [],
               "source": "import os, signal\nos.kill(os.getpid(), signal.SIGILL)"},
              {"cell_type": "code", "execution_count": 3, "id": "c3", "metadata": {}, "outputs": [],
               "source": "import time\ntime.sleep(1)"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_a_kernel_that_dies_fails_its_notebook_fast_with_the_signals_name(tmp_path, capsys):
    """Under the project's own nbval settings (facts.NBVAL, with tests/nbval_guard.py), not after the cell timeout."""
    path = tmp_path / "dies.ipynb"
    path.write_text(json.dumps(DYING_NOTEBOOK), encoding="utf-8")
    t0 = time.monotonic()
    assert cpu_grid.nbval([str(path)], ["native/1"]) == 1
    took = time.monotonic() - t0
    out = capsys.readouterr().out
    assert "killed by SIGILL" in out and "Kernel dead" in out and "2 failed, 1 passed" in out, out
    assert took < 300, f"a dead kernel took {took:.0f} s to fail (the cell timeout is {facts.CELL_TIMEOUT} s)"


FAILING_TEST = '''
def test_fine():
    pass


def test_broken():
    total = 1 + 1
    assert total == 3, "la cuenta no da"
'''


def test_the_last_lines_name_each_failed_stage_its_failing_test_and_the_first_lines_of_its_error(tmp_path, capsys):
    """Whoever reads the end of a failed run learns which stage failed, which test, and why, without the log."""
    (tmp_path / "test_x.py").write_text(FAILING_TEST, encoding="utf-8")
    pytest_cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_x.py")]
    stages = [Stage("tests", pytest_cmd), Stage("ok", sh("pass")),
              Stage("exits", sh("print('no pasó'); raise SystemExit(4)"))]
    assert pipeline.run(stages, cores=2, logs=tmp_path) == 1
    out = capsys.readouterr().out.rstrip().splitlines()
    assert out[-1] == "stages: 1 passed, 2 failed"
    tail = "\n".join(out[next(i for i, line in enumerate(out) if line.startswith("wall ")) + 1:])
    assert "✗ tests: FAILED (exit 1)" in tail and "test_x.py::test_broken" in tail, tail
    assert "la cuenta no da" in tail, "the first line of the error is in the summary"
    assert "test_fine" not in tail, "only the failing tests are named"
    assert "✗ exits: FAILED (exit 4)" in tail and "| no pasó" in tail, "a stage without pytest shows its log's end"
    assert "✗ ok" not in tail
