"""The docs' measured figures come from one file: every table between ``<!-- medidas:NAME -->`` markers in
docs/mantenimiento.md and docs/docente.md is what benchmarks/measurements.py makes from benchmarks/measurements.json
(and, for the reading table, from the notebooks' words); the file's runs say where and when they were measured; a
benchmark's run is appended with its machine, and a trial run reaches no table. Offline and fast: nothing is
measured here."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import measurements as M  # noqa: E402

HEX = re.compile(r"[0-9a-f]{40}(\+dirty)?")


@pytest.fixture(scope="module")
def runs() -> list[dict]:
    return M.load()


def test_every_table_is_the_files(runs):
    stale = M.stale(runs)
    assert not stale, ("these tables differ from benchmarks/measurements.json or the notebooks' words: "
                       f"{', '.join(stale)}. Run `make medidas` and commit what it rewrites.")


def test_each_table_is_in_the_docs_once():
    found = [name for doc in M.DOCS for name in re.findall(r"<!-- medidas:([a-z]+) -->",
                                                           (ROOT / doc).read_text(encoding="utf-8"))]
    assert sorted(found) == sorted(M.RENDER), f"marked tables {sorted(found)}, renderers {sorted(M.RENDER)}"
    for doc in M.DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        opened, closed = (len(re.findall(rf"<!-- {mark}[a-z]+ -->", text)) for mark in ("medidas:", "/medidas:"))
        assert opened == closed == len(M.regions(text)), (
            f"{doc}: a marker without its pair (or a name no renderer has)")


@pytest.mark.parametrize("doc, name, old, new", [
    ("docs/docente.md", "computo", "| 05 | 17 a 20 s |", "| 05 | 17 a 21 s |"),
    ("docs/docente.md", "lectura", "| 02 | ", "| 02 | 1"),
    ("docs/mantenimiento.md", "ci", "**45 min 38 s**", "**45 min 37 s**"),
    ("docs/mantenimiento.md", "motor", "2.37×", "2.38×"),
])
def test_a_changed_figure_is_caught(runs, doc, name, old, new):
    text = M.rewrite((ROOT / doc).read_text(encoding="utf-8"), runs)
    region = M.regions(text)[name]
    assert old in region, f"the example figure {old!r} is no longer in {name}: pick another"
    changed = text.replace(region, region.replace(old, new, 1))
    assert M.differing(changed, runs) == [name]
    assert M.differing(text, runs) == []


def test_the_runs_say_where_when_and_from_what(runs):
    ids = [r["id"] for r in runs]
    assert len(ids) == len(set(ids)), "two runs with one id"
    for r in runs:
        assert r["benchmark"] in M.BENCHMARKS and isinstance(r["publish"], bool), r["id"]
        assert {"cpu", "flags", "cores"} <= set(r["machine"]), r["id"]
        assert r["machine"]["flags"] is None or set(r["machine"]["flags"]) <= set(M.FLAGS), r["id"]
        assert isinstance(r["figures"], dict) and isinstance(r["settings"], dict), r["id"]
        if r["source"] == "run":
            assert HEX.fullmatch(r["commit"] or "") and re.match(r"\d{4}-\d\d-\d\dT", r["date"]), r["id"]
        else:  # typed into the docs before the file existed: from which doc, read at which commit, typed in which
            assert set(r["source"]) == {"transcribed_from", "at_commit", "typed_in"}, r["id"]
            assert HEX.fullmatch(r["source"]["at_commit"]) and r["commit"] is None, r["id"]
            assert r.get("date_source") and (r["date"] is None or re.fullmatch(r"\d{4}-\d\d-\d\d", r["date"])), r["id"]


def test_a_benchmark_appends_its_run_with_the_machine(tmp_path):
    path = tmp_path / "m.json"
    first = M.record(M.entry("grading", {"n": 1}, {"modes": []}), path)
    second = M.record(M.entry("grading", {"n": 1}, {"modes": []}, publish=False), path)
    saved = M.load(path)
    assert [r["id"] for r in saved] == [first, second] and first != second
    run = saved[0]
    assert run["publish"] and not saved[1]["publish"] and run["source"] == "run"
    assert run["machine"]["cpu"] and run["machine"]["cores"] >= 1 and HEX.fullmatch(run["commit"])
    assert run["machine"]["flags"] is None or set(run["machine"]["flags"]) <= set(M.FLAGS)


def test_a_trial_run_reaches_no_table(runs):
    trial = []
    for r in runs:  # the newest run of each kind again, as a trial with other figures
        t = copy.deepcopy(r)
        t.update(id=r["id"] + "-prueba", publish=False, date="2099-01-01")
        trial.append(json.loads(json.dumps(t).replace("22", "99")))
    for name, render in M.RENDER.items():
        assert render(runs + trial) == render(runs), name


def test_every_notebook_runs_within_the_minute_the_class_plans_allow(runs):
    """The plans give each notebook RUN_MIN minute to run its cells: every column of the compute table agrees."""
    ref, others = M.columns(runs)
    for r in [ref, *others]:
        for stem, f in r["figures"]["notebooks"].items():
            worst = max(v for k, v in f["wall_s"].items() if k in ("median", "max"))
            assert worst <= 60 * M.RUN_MIN, f"{stem} took {worst} s on {M.label(r['machine'])} ({r['id']})"


def test_ci_records_its_own_table(tmp_path):
    spec = importlib.util.spec_from_file_location("pipeline_for_measurements", ROOT / ".ci" / "pipeline.py")
    pipeline = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclass looks itself up there
    spec.loader.exec_module(pipeline)
    stages = [pipeline.Stage("install", ["true"], cores=0), pipeline.Stage("unit", ["true"], after=("install",)),
              pipeline.Stage("grid avx512/1", None, after=("install",))]
    for s, start, seconds in zip(stages[:2], (0, 61), (61, 95)):
        s.result, s.start, s.seconds, s.cpu = "passed", start, seconds, seconds / 2
    stages[2].result = "covered"
    path = tmp_path / "m.json"
    pipeline.measured(stages, 156.4, path)
    (run,) = M.load(path)
    assert run["publish"] and run["figures"]["passed"] == 3 and run["figures"]["wall_s"] == 156
    table = M.render_ci([run])
    assert "| install | 0:00 | 1:01 | 15:00 | | unit | 1:01 | 1:35 | 15:00 |" in table
    assert "the stages' times adding up to 2 min 36 s" in table and "`grid avx512/1` was covered" in table
    stages[1].result = "failed"
    pipeline.measured(stages, 156.4, path)
    assert not M.load(path)[1]["publish"], "a run with a failed stage is not for publication"


def test_the_reading_table_and_the_class_plans_count_alike():
    """One counter and one rule: the plans live in benchmarks/measurements.py beside the reading table's counter,
    and the plans' test reads them from there."""
    import test_class_plans
    assert test_class_plans.PLANS is M.PLANS and test_class_plans.plan_ranges is M.plan_ranges
    assert M.row_minutes.__globals__["parts"] is M.parts and M.row_minutes.__globals__["minutes"] is M.minutes
    assert (test_class_plans.PACE, test_class_plans.TU_TURNO_MIN, test_class_plans.RUN_MIN) == (
        M.PACE, M.TU_TURNO_MIN, M.RUN_MIN)


def test_the_compute_table_names_each_section_as_the_run_recorded_it(runs):
    """A run keeps the section titles of its day; sections move (04's section 6 went to 04b, and 04's section 6 is
    now another one), so the guide's table names each section by the number and title the run recorded, and says
    the runs are older than the release after them."""
    region = M.regions((ROOT / M.GUIDE).read_text(encoding="utf-8"))["computo"]
    ref, others = M.columns(runs)
    recorded = {(stem, *n.split(". ", 1)) for stem, f in ref["figures"]["notebooks"].items()
                for n in [f["slowest"]["section"], *f["sections_s"]] if re.match(r"\d+\. ", n)}
    named = re.findall(r"la sección (\d+) \(«([^»]+)»\)", region)
    assert named and all(any((n, t) == (r[1], r[2]) for r in recorded) for n, t in named), named
    if all(M.before_release(r) for r in [ref, *others]):
        assert f"de antes de la versión {M.before_release(ref)}" in region
