"""Every figure the docs quote from a measurement, in one place: benchmarks/measurements.json, one entry per run
(the machine, its CPU flags, cores, date, commit, torch and the figures), and the tables of docs/mantenimiento.md
(the maintainers' guide) and docs/docente.md (the teachers') made from it, with the teachers' guide's word counts
and its class plans' clock made from the notebooks.

    python benchmarks/measurements.py           # make medidas: rewrite every marked table from the file
    python benchmarks/measurements.py --check   # exit 1 naming each table that differs (tests/test_measurements.py)

A table lives between ``<!-- medidas:NAME -->`` and ``<!-- /medidas:NAME -->``; RENDER says what makes each. The
benchmarks (bench_engine.py, bench_notebooks.py, bench_grading.py, and .ci/pipeline.py with --medidas) append
their runs with ``record``; ``--prueba`` marks a run as not for publication, and no table shows it. Stdlib only:
.ci/pipeline.py runs on the system's Python.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:  # helpers.lesson (standard library only) reads which cell is a «Tu turno»; the checkout's where not installed
    from helpers import lesson
except ModuleNotFoundError:
    sys.path.insert(0, str(ROOT))
    from helpers import lesson

FILE = ROOT / "benchmarks" / "measurements.json"
DOCS = ("docs/mantenimiento.md", "docs/docente.md")  # the maintainers' guide, the teachers'
GUIDE = "docs/docente.md"  # the one with the class plans
BENCHMARKS = ("notebooks", "engine", "grading", "ci")
FLAGS = ("avx2", "avx512f")  # the CPU flags that pick PyTorch's kernels here (tests/cpu_grid.py)

# The class plans' rule (docs/docente.md; tests/test_class_plans.py checks each plan's rows against it)
PACE = 100          # words a minute, read alone or explained in class: the same pace in both plans
TU_TURNO_MIN = 8    # one "Tu turno" and its check
RUN_MIN = 1         # running a notebook's cells (a minute or less each: the compute table, tested)
NOT_READ = "Para ir más lejos"  # the one section the reading table leaves out


# ---- the notebooks' words (the reading table and the class plans count them the same way)

def parts(stem: str) -> tuple[dict, dict]:
    """Words of the notebook's text per (section, subsection), folded solutions left out, and its "Tu turno"
    stubs per part (helpers.lesson). Sections are the ``##`` titles (numbered ones by their number), subsections
    the ``###``."""
    nb = lesson.read(ROOT / "notebooks" / f"{stem}.ipynb")
    stubs = {ex.stub for ex in lesson.exercise_cells(nb)}
    key, words, tasks = ("título", None), {}, {}
    for i, cell in enumerate(nb["cells"]):
        src = lesson.source(cell)
        if cell["cell_type"] == "markdown":
            for line in src.splitlines():
                if m := re.match(r"^## (.*)", line):
                    number = re.match(r"(\d+)\.", m[1])
                    key = (number[1] if number else m[1].strip(), None)
                elif m := re.match(r"^### (.*)", line):
                    key = (key[0], m[1].strip())
            text = re.sub(r"<details>.*?</details>", "", src, flags=re.S)
            words[key] = words.get(key, 0) + len(text.split())
        elif i in stubs:
            tasks[key] = tasks.get(key, 0) + 1
    return words, tasks


def reading(stem: str) -> tuple[int, int, int, int]:
    """(words, "Tu turno" count, reading and running minutes, "Tu turno" minutes) of a notebook, by the plans' rule:
    its text but "Para ir más lejos" and folded solutions."""
    words, tasks = parts(stem)
    n, count = sum(v for k, v in words.items() if k[0] != NOT_READ), sum(tasks.values())
    return (n, count, *minutes(n, count))


def core_stems() -> list[str]:
    """The core notebooks (their metadata says so, helpers.lesson), not the «Para ir más lejos» ones."""
    return [s for s in stems() if lesson.kind(lesson.read(ROOT / "notebooks" / f"{s}.ipynb")) != "deep"]


def minutes(words: int, tasks: int) -> tuple[int, int]:
    """(reading and running, "Tu turno") minutes of a stretch of text, by the class plans' rule."""
    return math.ceil(words / PACE) + RUN_MIN, TU_TURNO_MIN * tasks


# ---- the class plans (docs/docente.md): each row's minutes from the rule above, applied to the sections it explains

# Part: "3" is section 3 whole; ("6", None) its text before the first subsection; ("4", "title") one subsection.
WHOLE = "todo"  # a plan row that explains its notebook whole (every part but «Para ir más lejos»)
PLANS = {
    "Clase de 2 horas": (120, [
        ("01_ffn", ["título", "1", "2", "3", "Resumiendo"]),
        ("03_layernorm", ["título", "1", "3", "4", "6", "Resumiendo"]),
        ("04_encoder_block", ["título", "1", "2", "3", "5", "Resumiendo"]),
        ("05_norm_placement", ["título", "1", "2", "3", "Resumiendo"]),
    ]),
    "Clase de 3 horas": (180, [(stem, WHOLE) for stem in ("01_ffn", "02_residual_stream", "03_layernorm",
                                                            "04_encoder_block", "05_norm_placement")]),
}


def row_minutes(stem: str, chosen: list | str) -> int:
    words, tasks = parts(stem)
    if chosen == WHOLE:
        return sum(reading(stem)[2:])

    def taken(key):
        return any(key[0] == p if isinstance(p, str) else key == p for p in chosen)
    assert all(any(taken(k) for k in words) for k in [(p, None) if isinstance(p, str) else p for p in chosen]), (
        f"{stem}: a part of the plan is not in the notebook: {chosen}")
    return sum(minutes(sum(n for k, n in words.items() if taken(k)), sum(n for k, n in tasks.items() if taken(k))))


def plan_ranges(length: int, rows: list) -> list[str]:
    out, now = [], 0
    for stem, what in rows:
        took = what if stem == "pausa" else row_minutes(stem, what)
        out.append(f"{plan_clock(now)}–{plan_clock(now + took)}")
        now += took
    assert now <= length, f"the plan takes {now} min of its {length}"
    if now < length:
        out.append(f"{plan_clock(now)}–{plan_clock(length)}")  # the last row: questions and slack
    return out


def plan_clock(m: int) -> str:
    return f"{m // 60}:{m % 60:02d}"


def plan_tables(text: str) -> str:
    """The guide with the time column of each plan's table made again from the rule (the other columns as they are)."""
    for title, (length, rows) in PLANS.items():
        start = text.index(f"**{title}**")
        table = re.search(r"\n(\|.*\|\n)+", text[start:])
        lines = table[0].strip("\n").split("\n")
        times = plan_ranges(length, rows)
        if len(lines) - 2 == len(times) + 1 == len(rows) + 1:
            raise ValueError(f"docs/docente.md, {title}: its parts fill all of its {length} minutes, and its table's "
                             "last row (questions, the break, slack) has no time left: shorten what the plan runs, "
                             "or move a part to the homework (PLANS in benchmarks/measurements.py)")
        if len(lines) - 2 != len(times):
            raise ValueError(f"docs/docente.md, {title}: {len(lines) - 2} rows in the table, {len(times)} in the plan")
        new = lines[:2] + [re.sub(r"^\| [^|]* \|", f"| {t} |", line, count=1) for line, t in zip(lines[2:], times)]
        a, b = start + table.start(), start + table.end()
        text = text[:a] + "\n" + "\n".join(new) + "\n" + text[b:]
    return text


def stems() -> list[str]:
    return [p.stem for p in lesson.notebooks(ROOT / "notebooks")]


# ---- recording a run

def cpu_name() -> str:
    info = Path("/proc/cpuinfo")
    for line in info.read_text(errors="replace").splitlines() if info.exists() else ():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine() -> dict:
    """This machine: CPU model, the flags that matter here, cores (tests/cpu_grid.py reads the flags)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from cpu_grid import cpu_flags
    flags = cpu_flags()
    return {"cpu": cpu_name(), "flags": None if flags is None else [f for f in FLAGS if f in flags],
            "cores": os.cpu_count()}


def commit() -> str | None:
    """HEAD, with '+dirty' when the work tree has changes (what was measured is then not exactly HEAD)."""
    def git(*args):
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return out.stdout.strip() if out.returncode == 0 else None
    head = git("rev-parse", "HEAD")
    return head and head + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def torch_version() -> str | None:
    """The torch this checkout's .venv runs (without importing it), else the running Python's."""
    found = sorted((ROOT / ".venv").glob("lib/python*/site-packages/torch-*.dist-info"))
    if found:
        return found[-1].name.removesuffix(".dist-info").split("-", 1)[1]
    try:
        from importlib.metadata import version
        return version("torch")
    except Exception:  # noqa: BLE001 - no torch where this runs
        return None


def entry(benchmark: str, settings: dict, figures: dict, publish: bool = True, note: str = "") -> dict:
    """One run, as the file keeps it."""
    assert benchmark in BENCHMARKS, benchmark
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    run = {"id": "", "benchmark": benchmark, "date": now.isoformat(), "machine": machine(), "commit": commit(),
           "torch": torch_version(), "load": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
           "publish": publish, "source": "run", "settings": settings, "figures": figures}
    if note:
        run["note"] = note
    return run


def record(run: dict, path: Path | str = FILE) -> str:
    """Append a run to the file (made if missing); its id is returned and printed."""
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"about": ABOUT, "runs": []}
    ids = {r["id"] for r in data["runs"]}
    base = f"{run['date'][:10]}-{run['benchmark']}-{slug(label(run['machine']))}"
    run["id"] = next(f"{base}-{n}" if n else base for n in range(len(ids) + 1) if (f"{base}-{n}" if n else base)
                     not in ids)
    data["runs"].append(run)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{'(prueba, no se publica) ' if not run['publish'] else ''}medidas: {run['id']} en {path}")
    return run["id"]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


ABOUT = ("One entry per benchmark run: what it measured and where. Written by benchmarks/bench_*.py and "
         "`.ci/pipeline.py --medidas`; read by benchmarks/measurements.py, which makes the docs' tables "
         "(make medidas). publish: false marks a trial run no table shows. source: 'run', or a transcription "
         "from the docs (transcribed_from, at_commit, typed_in).")


def load(path: Path | str = FILE) -> list[dict]:
    return json.loads(Path(path).read_text(encoding="utf-8"))["runs"]


def published(runs: list[dict], benchmark: str) -> list[dict]:
    return [r for r in runs if r["benchmark"] == benchmark and r["publish"]]


# ---- how figures are written

MONTHS = ("enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre").split()


def fecha(run: dict, long: bool = False) -> str:
    if not run.get("date"):
        return "sin fecha"
    d = dt.date.fromisoformat(run["date"][:10])
    return f"{d.day} de {MONTHS[d.month - 1]} de {d.year}" if long else f"{d.day}/{d.month}/{d.year}"


def isa(m: dict, es: bool = True) -> str:
    flags = m.get("flags")
    if flags is None:
        return ""
    return "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else ("sin AVX2" if es else "no AVX2")


def label(m: dict) -> str:
    """A machine as a column names it: 'Xeon AVX-512', 'EPYC AVX2'."""
    words = re.sub(r"\((R|TM)\)|CPU|@.*|Processor|\(.*?\)", " ", m["cpu"]).split()
    family = next((w for w in words if w in ("Xeon", "EPYC", "Core", "Ryzen")), " ".join(words[:2]))
    return f"{family} {isa(m)}".strip()


def maquina(m: dict, article: bool = True) -> str:
    """A machine in the guide's words: 'un Intel Xeon con AVX-512, de 2 núcleos'."""
    flags = {"AVX2": "AVX2 (sin AVX-512)"}.get(isa(m), isa(m))
    text = f"{m['cpu']}{' con ' + flags if flags else ''}" + (f", de {m['cores']} núcleos" if m.get("cores") else "")
    return f"un {text}" if article else text


def segundos(s: float) -> str:
    """Seconds in the guide: '94 s', '7 min 28 s' (from two minutes on)."""
    s = round(s)
    return f"{s} s" if s < 120 else f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"


def spread_s(sp: dict | float) -> str:
    """A time in the guide: one figure, or '8 a 10 s' where the runs' fastest and slowest round apart."""
    if not isinstance(sp, dict):
        return segundos(sp)
    lo, hi = sp.get("min"), sp.get("max")
    if lo is not None and hi is not None and round(lo) != round(hi):
        return f"{round(lo)} a {segundos(hi)}" if hi < 120 else f"{segundos(lo)} a {segundos(hi)}"
    return segundos(sp.get("median", lo))


def clock(s: float) -> str:
    s = round(s)
    return f"{s // 60}:{s % 60:02d}"


def spread(sp: dict | None, digits: int, unit: str = "") -> str:
    """A figure in the docs: '37.8 (36.0–46.6)', '28.6–35.5' or '1.51', with its unit."""
    if not sp:
        return ""
    def f(v):
        return f"{v:.{digits}f}"
    lo, mid, hi = sp.get("min"), sp.get("median"), sp.get("max")
    if mid is not None and lo is not None and f(lo) != f(hi):
        return f"{f(mid)}{unit} ({f(lo)}–{f(hi)}{unit})"
    return f"{f(mid)}{unit}" if mid is not None else f"{f(lo)}–{f(hi)}{unit}"


# ---- the tables

def render_lectura(runs: list[dict]) -> str:
    rows = ["| notebook | palabras | lectura y celdas | \"Tu turno\" | total |", "|---|---|---|---|---|"]
    for stem in stems():
        n, count, read, turns = reading(stem)
        rows.append(f"| {lesson.prefix(stem)} | {n:,} | {read} min | {turns} min ({count}) | {read + turns} min |"
                    .replace(",", " "))
    rule = (f"Las palabras cuentan todo el texto de cada notebook (los \"Ejercicios\" y los \"Papers\" del final "
            f"también) salvo \"{NOT_READ}\" y las soluciones plegadas. Los minutos salen de la misma regla que los "
            f"dos planes de clase (abajo): las palabras a {PACE} por minuto, redondeado hacia arriba, más "
            f"{RUN_MIN} minuto para correr las celdas; {TU_TURNO_MIN} minutos por cada \"Tu turno\".")
    return "\n".join(rows) + "\n\n" + rule


def columns(runs: list[dict]) -> tuple[dict, list[dict]]:
    """The compute table's runs: of the published runs of every notebook on a machine without other load, the newest
    per machine label; the reference (the columns with the slowest cell and the sections) is the newest that has
    them."""
    quiet = [r for r in published(runs, "notebooks")
             if not r.get("loaded") and set(core_stems()) <= set(r["figures"]["notebooks"])]
    newest = {}
    for r in quiet:  # in the file's order: later runs replace earlier ones
        newest[label(r["machine"])] = r

    def age(r):
        return r["date"] or "", quiet.index(r)
    ref = max((r for r in newest.values() if all("slowest" in f for f in r["figures"]["notebooks"].values())),
              key=age)
    return ref, sorted((r for r in newest.values() if r is not ref), key=age, reverse=True)


def headings(stem: str) -> dict[str, str]:
    """A notebook's numbered sections as it titles them now: {"6": "Un GPT con máscara y otro sin ella"}."""
    path = ROOT / "notebooks" / f"{stem}.ipynb"
    if not path.exists():
        return {}
    text = "\n".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                     if c["cell_type"] == "markdown")
    return dict(re.findall(r"^## (\d+)\.\s*(.*)$", text, flags=re.M))


def where(section: str, titles: bool = False, stem: str = "") -> str:
    """A section as a run recorded it ("6. Sin máscara, …"), named by its number and, with ``titles``, by the title
    the run recorded: sections move between notebooks (04's section 6 went to 04b), so today's title under the same
    number can name another section."""
    m = re.match(r"(\d+)\.\s*(.*)", section)
    if m:
        return f"la sección {m[1]}" + (f" («{m[2]}»)" if titles else "")
    return "la preparación" if section == "preparación" else f"«{section}»"


def releases() -> list[tuple[str, str]]:
    """(version, date) of each release CHANGELOG.md dates, oldest first."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return sorted(((d, v) for v, d in re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d\d-\d\d)", text, re.M)))


def before_release(run: dict) -> str:
    """The first release dated after the run's day (its notebooks are older than that release's), or ""."""
    day = (run.get("date") or "")[:10]
    return next((v for d, v in releases() if day and d > day), "")


def render_computo(runs: list[dict]) -> str:
    ref, others = columns(runs)
    name = label(ref["machine"])
    head = [f"reloj ({name})", f"la celda más lenta ({name})", *(f"reloj ({label(r['machine'])})" for r in others),
            f"dónde se va el tiempo ({name})"]
    rows = ["| notebook | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    for stem in stems():
        if stem not in ref["figures"]["notebooks"]:  # a notebook newer than the run: no figure until one measures it
            rows.append(f"| {lesson.prefix(stem)} | sin medir todavía |" + " |" * (len(head) - 1))
            continue
        f = ref["figures"]["notebooks"][stem]
        slow = f"{segundos(f['slowest']['s'])}, en {where(f['slowest']['section'])}"
        other = [spread_s(r["figures"]["notebooks"][stem]["wall_s"]) if stem in r["figures"]["notebooks"] else "—"
                 for r in others]
        top = sorted(((s, n) for n, s in f["sections_s"].items() if round(s) >= 1), reverse=True)[:3]
        spent = "; ".join(f"{where(n, titles=True, stem=stem)}, {segundos(s)}" for s, n in top)
        between = " | ".join(other) + (" | " if other else "")
        rows.append(f"| {lesson.prefix(stem)} | {spread_s(f['wall_s'])} | {slow} | {between}{spent} |")

    legend = ("Cada columna es la corrida más nueva de esa máquina en "
              "[benchmarks/measurements.json](../benchmarks/measurements.json): "
              + "; ".join(column(r) for r in [ref, *others])
              + ". Una cifra sola es la mediana de las corridas; «8 a 10 s», de la más rápida a la más lenta."
              + older([ref, *others]))
    return "\n".join(rows) + "\n\n" + legend


NUMBERS = {2: "dos", 3: "tres", 4: "cuatro", 5: "cinco"}


def older(runs: list[dict]) -> str:
    """What the legend says of runs measured before a release: their notebooks are that release's elders."""
    before = {before_release(r) for r in runs}
    if len(before) == 1 and "" not in before:
        n = len(runs)
        every = "La corrida es" if n == 1 else f"Las {NUMBERS.get(n, n)} corridas son"
        return (f" {every} de antes de la versión {before.pop()}, con los notebooks de entonces: las secciones, con "
                "sus números y sus títulos de entonces.")
    return "".join(f" La de {label(r['machine'])} es de antes de la versión {before_release(r)}."
                   for r in runs if before_release(r))


def column(r: dict) -> str:
    """What a column of the compute table measured: the machine, the day, threads and runs, and any note."""
    threads, n = r["settings"].get("threads"), r["settings"].get("runs")
    return (f"**{label(r['machine'])}**, {maquina(r['machine'])}, el {fecha(r, long=True)}"
            + (f", {threads} hilos" if threads else "") + (f", {n} {'corrida' if n == 1 else 'corridas'}" if n else "")
            + (f" ({r['nota']})" if r.get("nota") else ""))


def render_carga(runs: list[dict]) -> str:
    loaded = [r for r in published(runs, "notebooks") if r.get("loaded")]
    by_stem = {}
    for r in loaded:
        for stem, f in r["figures"]["notebooks"].items():
            t = r["settings"]["threads"]
            by_stem.setdefault(stem, []).append(f"{spread_s(f['wall_s'])} con {'uno' if t == 1 else f'{t} hilos'}")
    said = "; ".join(f"{stem[:2]} tardó {' y '.join(times)}" for stem, times in by_stem.items())
    where_ = "; ".join(sorted({f"{maquina(r['machine'])}, el {fecha(r, long=True)}" for r in loaded}))
    return (f"En una máquina ocupada con otros procesos, 2 hilos pueden ser mucho más lentos que uno: con la carga en "
            f"{loaded[0]['loaded']}, {said} ({where_}). Si te pasa, en la primera celda `torch.set_num_threads(1)` "
            "lo pide.")


def como(mode: dict) -> str:
    text = " ".join(([f"`-j {mode['j']}`"] if mode.get("j") else []) + (["`--todas`"] if mode.get("todas") else []))
    if mode.get("sandbox") is not None:
        text += ", aisladas" if mode["sandbox"] else ", sin aislar"
    if mode.get("threads_each"):
        text += ", un hilo cada kernel" if mode["threads_each"] == 1 else f", {mode['threads_each']} hilos cada kernel"
    return text.lstrip(", ")


def y(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" y {items[-1]}"


def entregas(s: dict) -> str:
    nbs, n = [nb[:2] for nb in s["notebooks"]], s["n"]
    which = (f"{n} de cada uno de los {len(nbs)}" if len(nbs) > 3 else f"una de {y(nbs)}" if n == 1 else
             y([f"{n} de {nb}" for nb in nbs]))
    return f"{n * len(nbs)}: {which}" + (f", {s['what']}" if s.get("what") else "")


def cada(mode: dict) -> str:
    """Seconds a submission took: '2 a 3 s' (over the notebooks), or each notebook's where there are few."""
    per = mode.get("per_notebook_s", {})
    if len(per) <= 3 and "per_submission_s" not in mode:
        return "; ".join(f"{n[:2]}: {segundos(s)}" for n, s in per.items())
    sp = mode.get("per_submission_s") or {"min": min(per.values()), "max": max(per.values())}
    lo, hi = sp["min"], sp["max"]
    digits = 0 if hi >= 10 or float(lo).is_integer() and float(hi).is_integer() else 1
    return f"{lo:.{digits}f} a {hi:.{digits}f} s" if f"{lo:.{digits}f}" != f"{hi:.{digits}f}" else f"{lo:.{digits}f} s"


def render_calificar(runs: list[dict]) -> str:
    """One row per machine, submissions and way of grading: its newest run (quiet machines first, newest first)."""
    grading = published(runs, "grading")
    newest = {}
    for r in grading:  # in the file's order: a later run of the same kind replaces an earlier one
        where_ = maquina(r["machine"], article=False) + (f", con otra carga ({r['loaded']})" if r.get("loaded") else "")
        for mode in r["figures"]["modes"]:
            newest[where_, entregas(r["settings"]), como(mode)] = (r, mode)
    rows = ["| máquina | fecha | entregas | cómo | reloj | cada entrega, en promedio |", "|---|---|---|---|---|---|"]
    order = sorted(newest.items(), key=lambda kv: (not kv[1][0].get("loaded"), kv[1][0]["date"],
                                                   grading.index(kv[1][0])), reverse=True)
    notes = {}
    for (where_, subs, how), (r, mode) in order:
        wall = segundos(mode["wall_s"]) if mode.get("wall_s") is not None else "—"
        rows.append(f"| {where_} | {fecha(r)} | {subs} | {how} | {wall} | {cada(mode)} |")
        if r.get("nota"):
            notes[r["id"]] = f"{fecha(r)}, {where_}: {r['nota']}"
    return "\n".join(rows) + ("\n\n" + " ".join(n[0].upper() + n[1:] + "." for n in notes.values()) if notes else "")


def path_row(r: dict, path: str, f: dict) -> str:
    m = r["machine"]
    cpu = m["cpu"] + (f", {isa(m, es=False)}" if isa(m) else "")
    rounds = r["settings"].get("rounds")
    how = [r["note"]] if r.get("note") else []
    how += [f"median of {rounds} rounds"] if rounds and rounds > 1 else []
    cpu += f" ({'; '.join(how)})" if how else ""
    share = f.get("share_of_peak")
    peak = spread(f.get("peak_gflops"), 0)
    share = f"{spread({k: 100 * v for k, v in share.items()}, 0)} % (of {peak} GFLOP/s)" if share else ""
    return (f"| {cpu} | {r['date'][:10] if r.get('date') else 'not recorded'} | {path} | "
            f"{spread(f.get('seed'), 1)} | {spread(f.get('engine'), 1)} | {spread(f.get('ratio'), 2, '×')} | {share} |")


def render_motor(runs: list[dict]) -> str:
    rows = ["| CPU | date | path | seed-style loop (model-steps/s) | engine, 16 runs | speed-up | share of a 2048² "
            "fp32 matmul peak |", "|---|---|---|---|---|---|---|"]
    engine = published(runs, "engine")
    for r in engine:
        rows += [path_row(r, path, f) for path, f in r["figures"]["paths"].items()]
    last = engine[-1]
    goal, paths = last["settings"]["goal"], last["figures"]["paths"]
    on = [p for p, f in paths.items() if f["ratio"]["median"] >= goal]
    off = [p for p in paths if p not in on]
    close = [p for p, f in paths.items() if f["ratio"].get("min", goal) < goal < f["ratio"].get("max", goal)]
    said = (f"on {and_(on)}" if on else "on no path") + (f" and not on {and_(off)}" if on and off else "")
    return ("\n".join(rows) + "\n\n" + f"Issue 39's goal is {goal}×. In the newest run ({last['date'][:10]}, "
            f"{last['machine']['cpu']}), the median speed-up reaches it {said}"
            + (f"; the goal lies within the rounds' spread on {and_(close)}" if close else "") + ".")


def and_(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def ran(stages: list[dict]) -> list[dict]:
    """The stages that ran (not those nbval covered or a failure skipped)."""
    return [s for s in stages if "time" in s]


def seconds_of(s: dict) -> float:
    return sum(s["time"]) if isinstance(s["time"], list) else s["time"]


def stage_table(stages: list[dict]) -> list[str]:
    """The stages in two halves side by side, as the docs have always shown them."""
    def one(s):
        times = s["time"] if isinstance(s["time"], list) else [s["time"]]
        return f"{s['stage']} | {clock(s['start'])} | {', '.join(clock(t) for t in times)} | {clock(s['limit'])}"
    cells = [one(s) for s in ran(stages)]
    half = (len(cells) + 1) // 2
    right = cells[half:] + [" | | | "] * (2 * half - len(cells))
    return (["| stage | start | time | limit | | stage | start | time | limit |", "|---" * 9 + "|"]
            + [f"| {a} | | {b} |" for a, b in zip(cells[:half], right)])


def render_ci(runs: list[dict]) -> str:
    ci = published(runs, "ci")
    last = next(r for r in reversed(ci) if r["figures"].get("stages") and not r.get("experiment"))
    f, m = last["figures"], last["machine"]
    # a row that holds several stages with one time cannot be added up
    summable = all(not isinstance(s["time"], int | float) or s.get("count", 1) == 1 for s in ran(f["stages"]))
    added = sum(seconds_of(s) for s in ran(f["stages"]))
    head = (f"The newest recorded run: {last['date'][:10]}, {m['cpu']} with {isa(m, es=False)}, {m['cores']} cores"
            + (f" ({last['note']})" if last.get("note") else "") + f": **{words_clock(f['wall_s'])}** wall, "
            f"{f['passed']} stages passed, {f['failed']} failed, CPU {words_clock(f['cpu_s'])}"
            + (f", the stages' times adding up to {words_clock(added)}" if summable else "")
            + (f"; unit {f['unit']}" if f.get("unit") else "") + ".")
    foot = [f"(`{s['stage']}` was covered by the `nbval` stage on that CPU: the same kernels, one thread.)"
            for s in f["stages"] if s.get("result") == "covered"]
    if not summable:
        foot.append("(One row holds several stages whose times were not recorded apart, so the table's times are "
                    "not added up.)")
    others = [r for r in reversed(ci) if r is not last]
    if others:
        foot.append("Other runs: " + "; ".join(other_run(r) for r in others) + ".")
    return head + "\n\n" + "\n".join(stage_table(f["stages"])) + "\n\n" + "\n".join(foot)


def other_run(r: dict) -> str:
    f, m = r["figures"], r["machine"]
    parts_ = [f"{words_clock(f['wall_s'])} wall"] + ([f"CPU {clock(f['cpu_s'])}"] if f.get("cpu_s") else [])
    stages = f.get("stages") or []
    if 0 < len(stages) <= 3:
        parts_ += [f"`{s['stage']}` {clock(s['time'])}" for s in stages]
    return (f"{r['date'][:10]}, {m['cpu']} with {isa(m, es=False)}" + (f" ({r['note']})" if r.get("note") else "")
            + ": " + ", ".join(parts_))


def words_clock(s: float) -> str:
    s = round(s)
    return f"{s // 60} min {s % 60:02d} s"


RENDER = {"lectura": render_lectura, "computo": render_computo, "carga": render_carga,
          "calificar": render_calificar, "motor": render_motor, "ci": render_ci}
REGION = re.compile(r"(?s)(<!-- medidas:(?P<name>[a-z]+) -->)(?P<body>.*?)(<!-- /medidas:(?P=name) -->)")


def regions(text: str) -> dict[str, str]:
    return {m["name"]: m["body"] for m in REGION.finditer(text)}


def rewrite(text: str, runs: list[dict]) -> str:
    """The text with every marked region made again from the runs (and the notebooks)."""
    return REGION.sub(lambda m: f"{m[1]}\n\n{RENDER[m['name']](runs)}\n\n{m[4]}", text)


def differing(text: str, runs: list[dict]) -> list[str]:
    """The regions of a text that are not what the runs (and the notebooks) make."""
    want = regions(rewrite(text, runs))
    return [name for name, body in regions(text).items() if body != want[name]]


def stale(runs: list[dict] | None = None) -> list[str]:
    """'file: region' for each region of the docs that is not what the file makes (and the guide's plan clocks)."""
    runs = load() if runs is None else runs
    out = [f"{doc}: {name}" for doc in DOCS for name in differing((ROOT / doc).read_text(encoding="utf-8"), runs)]
    guide = (ROOT / GUIDE).read_text(encoding="utf-8")
    return out + ([f"{GUIDE}: the class plans' clock"] if plan_tables(guide) != guide else [])


def main(argv: list[str]) -> int:
    if argv and argv[0] != "--check":  # --help (or a typo): how to call it, not a rewrite of the docs
        asked = argv[0] in ("-h", "--help")
        print(__doc__.split("\n\n")[1].rstrip(), file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    runs = load()
    if argv[:1] == ["--check"]:
        bad = stale(runs)
        for b in bad:
            print(f"{b}: differs from benchmarks/measurements.json (make medidas rewrites it)")
        return 1 if bad else 0
    for doc in DOCS:
        path = ROOT / doc
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, runs)
        said = [n for n, b in regions(new).items() if regions(text).get(n) != b]
        if doc == GUIDE and plan_tables(new) != new:
            new, said = plan_tables(new), [*said, "the class plans' clock"]
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"{doc}: {', '.join(said)} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
