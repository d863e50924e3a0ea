"""A folder of submissions graded as a class: who handed in which notebook (the name cell, checked against where
each copy came from: ``_origin``), the latest of each student's resubmissions, the teacher's own copy flagged,
every submission graded in parallel, one CSV row per student (ids compared by their digits, a submission without id
joined to its name's; text a spreadsheet would run, inert), and one feedback file per student."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import time
import unicodedata
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from . import _sandbox
from ._grade import CELL_TIMEOUT_S, Result, _environ, grade
from ._identity import MARKER_KEY, Identity, Zone, course_zone, identify, students
from ._notebook import GRADED_ENV, Exercise, exercises, how_many, show_points
from ._origin import Origin, origin, settle
from ._spreadsheet import inert

__all__ = ["Assignment", "Row", "Submission", "alerts", "assignments", "collect", "grade_all", "latest", "stem_in_name",
           "student_rows", "write_csv", "write_feedback"]


@dataclass(frozen=True)
class Assignment:
    """One notebook of the assignment: its exercises and what each is worth (0: practice, not graded)."""

    stem: str
    tasks: tuple[Exercise, ...]
    points: dict[str, float]

    @property
    def graded(self) -> list[Exercise]:
        return [ex for ex in self.tasks if self.points.get(ex.name)]


def _assignment(nb, stem: str) -> Assignment:
    marker = nb.get("metadata", {}).get(MARKER_KEY, {})
    tasks = tuple(exercises(nb))
    points = marker.get("puntos") if isinstance(marker.get("puntos"), dict) else {ex.name: 1 for ex in tasks}
    return Assignment(marker.get("notebook") or stem, tasks, points)


def assignments(where: Path) -> dict[str, Assignment]:
    """The copies you handed out: one .ipynb, or a folder (``build/grading``) with ``<notebook>/<notebook>.ipynb``."""
    where = Path(where)
    paths = [where] if where.is_file() else sorted(where.glob("*/*.ipynb")) or sorted(where.glob("*.ipynb"))
    if not paths:
        raise SystemExit(f"no encontré copias para estudiantes (.ipynb) en {where}")
    out = {}
    for p in paths:
        a = _assignment(json.loads(p.read_text(encoding="utf-8")), p.stem)
        out[a.stem] = a
    return out


def alerts(nb) -> list[str]:
    """Why a submission does not look like the student copy: the teacher's answers, graded mode off, no marker."""
    found, cells = [], nb.get("cells", [])
    text = ["".join(c.get("source", "")) for c in cells]
    if nb.get("metadata", {}).get(MARKER_KEY, {}).get("copia") != "estudiante":
        found.append("no tiene la marca de la copia para entregar (¿es el notebook de la lección?)")
    if any(c.get("cell_type") == "markdown" and ("<details" in t or re.search(r"^###\s+La nuestra", t, re.M))
           for c, t in zip(cells, text)):
        found.append("tiene las soluciones de la lección: es la copia del docente, no la que repartiste")
    setup = next((t for c, t in zip(cells, text) if c.get("cell_type") == "code" and "import helpers" in t), "")
    if f'os.environ["{GRADED_ENV}"] = "1"' not in setup:
        found.append("el modo calificado está apagado en su celda de preparación")
    return found


@dataclass
class Submission:
    """One file: who and which notebook (None where it is not a notebook), alerts, what it is graded against;
    ``rel``, its path as the teacher reads it (relative to the submissions' folder), and who that path names."""

    path: Path
    who: Identity | None
    key: str
    stem: str
    alerts: list[str] = field(default_factory=list)
    note: str = ""
    tell: list[str] = field(default_factory=list)  # what its student's feedback says about who they are
    rel: Path | None = None
    origin: Origin | None = None
    contradicts: Origin | None = None  # its origin, where that names another person than its name cell
    outvoted_by: Submission | None = None  # the copy the teacher chose with --vale instead of this one
    picked: bool = False  # named with --vale: it counts for whom its name cell says

    def __post_init__(self):
        self.rel = Path(self.rel or self.path.name)
        self.origin = self.origin or origin(self.rel)

    @property
    def shown(self) -> str:
        return self.rel.as_posix()


def _stem_of(nb, who: Identity, known: dict[str, Assignment]) -> str:
    if who.notebook in known or not known:
        return who.notebook
    names = {ex.name for ex in _exercises_or_none(nb)}
    return next((a.stem for a in known.values() if names and names <= {ex.name for ex in a.tasks}), who.notebook)


def stem_in_name(path: Path, known: dict[str, Assignment]) -> str:
    """The one notebook of the assignment whose name the file's name holds («Ana - 04b_gpt_con_mascara (1).ipynb»),
    else "" (none, or more than one)."""
    named = [stem for stem in known if stem in Path(path).name]
    return named[0] if len(named) == 1 else ""


def _exercises_or_none(nb) -> list[Exercise]:
    try:
        return exercises(nb)
    except (ValueError, KeyError, TypeError):
        return []


def _relative(path: Path, root: Path | None) -> Path:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()) if root else Path(Path(path).name)
    except ValueError:
        return Path(Path(path).name)


def collect(paths: list[Path], known: dict[str, Assignment], root: Path | None = None,
            chosen: list[Path] = ()) -> list[Submission]:
    """Read each file as JSON (nothing runs): its student (across all files: ``_identity.students``, each path
    relative to ``root``, by default the folder holding them all), notebook and alerts; who it says it is checked
    against where it came from (``_origin.settle``); ``chosen``: the paths the teacher named with --vale."""
    paths = [Path(p) for p in paths]
    if root is None and paths:
        root = Path(os.path.commonpath([p.resolve().parent for p in paths]))
    subs = []
    for path in paths:
        rel = _relative(path, root)
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
            who = identify(nb, path)
        except (ValueError, UnicodeDecodeError, AttributeError):  # unreadable: its notebook, if its file name says it
            subs.append(Submission(path, None, "", stem_in_name(path, known), rel=rel))
            continue
        subs.append(Submission(path, who, "", _stem_of(nb, who, known), alerts(nb), rel=rel))
    keys, clashes = students([(s.who, s.rel) for s in subs])
    for i, (s, key) in enumerate(zip(subs, keys, strict=True)):
        s.key = key
        s.alerts += clashes.teacher.get(i, [])
        s.tell += clashes.student.get(i, [])
    chosen = {Path(p).resolve() for p in chosen}
    for s in subs:
        s.picked = s.path.resolve() in chosen
        if s.picked:
            s.alerts.append("la elegiste con --vale: cuenta para quien dice su celda del nombre")
    settle(subs, [s for s in subs if s.picked])
    return subs


def _stamp(s: Submission) -> float:
    return s.who.time.timestamp() if s.who and s.who.time else 0


def _when(s: Submission, zone: Zone | None = None) -> str:
    return (zone or course_zone()).clock(s.who.time) if s.who and s.who.time else "?"


def latest(subs: list[Submission], zone: Zone | None = None) -> list[Submission]:
    """Per student and notebook, the latest submission by time, or the one the teacher chose (--vale); its
    ``note`` says which others it replaced (times in ``zone``, this machine's by default). A copy from no named
    person that replaces one from a named person says so in its alerts."""
    groups: dict[tuple[str, str], list[Submission]] = {}
    for s in subs:
        if s.outvoted_by is None:
            groups.setdefault((s.key, s.stem), []).append(s)
    chosen = []
    for group in groups.values():
        group.sort(key=lambda s: (_stamp(s), s.shown))
        last = next((s for s in group if s.picked), group[-1])
        picked = [s for s in subs if s.outvoted_by is last]
        older = [s for s in group if s is not last] + picked
        if older:
            said = ", ".join(f"{s.shown} ({_when(s, zone)})" for s in older)
            how = f"la que elegiste con --vale, {last.shown}" if last.picked else f"la última, {last.shown}"
            last.note = (f"{how_many(len(older) + 1, 'entrega')} de {last.stem}: califiqué {how} "
                         f"({_when(last, zone)}, {last.who.time_source}); no califiqué {said}")
        named = [s for s in older if s.origin and s not in picked]
        if named and last.origin is None and not last.picked:
            last.alerts.append(f"reemplaza a {', '.join(s.shown for s in named)}, de «{named[0].origin.name}», y su "
                               "archivo no dice de quién es: si no es de esa persona, calificá de nuevo con --vale "
                               f"\"{named[-1].shown}\"")
        chosen.append(last)
    return chosen


def _eta(done: int, total: int, start: float) -> str:
    left = (time.perf_counter() - start) / done * (total - done)
    return "listo" if done == total else f"faltan ~{left / 60:.0f} min" if left >= 90 else f"faltan ~{left:.0f} s"


def _one(job):
    path, tasks, timeout, points, protect, everything = job
    return grade(path, tasks, timeout, points, protect, everything)


def grade_all(paths: list[Path], tasks: list[Exercise] | None = None, timeout: float = CELL_TIMEOUT_S,
              say=print, jobs: int = 1, points=None, protect: _sandbox.Protections | None = None,
              per_path: dict | None = None, everything: bool = False, shown: dict | None = None) -> list[Result]:
    """Grade submissions, ``jobs`` at a time (each its own kernel), saying how each went and the time left;
    results in the order of ``paths``. ``per_path``: path -> (tasks, points), overriding ``tasks``/``points``;
    ``everything``: run every code cell, not only what the checks need; ``shown``: path -> how to name it."""
    work = [(p, *(per_path or {}).get(p, (tasks, points))) for p in paths]
    work = [(p, t, timeout, w, protect, everything) for p, t, w in work]
    results: dict[int, Result] = {}
    start = time.perf_counter()

    def report(i: int, r: Result) -> None:
        results[i] = r
        name = (shown or {}).get(work[i][0], r.submission)
        say(f"[{len(results)}/{len(work)}] {name}: {show_points(r.total)} de {show_points(r.maximum)} "
            f"puntos ({r.seconds:.0f} s); {_eta(len(results), len(work), start)}")

    if jobs <= 1 or len(work) <= 1:
        for i, job in enumerate(work):
            report(i, _one(job))
    else:
        with _threads_per_kernel(min(jobs, len(work))), \
                ProcessPoolExecutor(min(jobs, len(work)), mp_context=get_context("spawn")) as pool:
            futures = {pool.submit(_one, job): i for i, job in enumerate(work)}
            for future in as_completed(futures):
                report(futures[future], future.result())
    return [results[i] for i in range(len(work))]


def _threads_per_kernel(jobs: int):
    """Kernels side by side share the cores: each gets cores // jobs threads (at least 1), unless the teacher set
    OMP_NUM_THREADS. Measured, 2 cores, -j 2, reference answers of 02, 04 and 05: 179 s with 2 threads per kernel
    (02 alone 144 s), 60 s with 1; one at a time (-j 1), 73 s."""
    if os.environ.get("OMP_NUM_THREADS"):
        return contextlib.nullcontext()
    return _environ(dict.fromkeys(("OMP_NUM_THREADS", "MKL_NUM_THREADS"), str(max(1, (os.cpu_count() or 1) // jobs))))


@dataclass
class Row:
    """One student: name, id, each notebook's result and the submission it came from."""

    name: str
    student_id: str
    graded: dict[str, tuple[Submission, Result]] = field(default_factory=dict)
    claim: str = ""  # the person its copies' origin names, where that is not the name they write


def student_rows(chosen: list[Submission], results: list[Result]) -> list[Row]:
    """One row per student (``Submission.key``), in the order of their names; name and id as the latest
    submission that has them wrote them."""
    rows: dict[str, Row] = {}
    for s, r in sorted(zip(chosen, results, strict=True), key=lambda sr: (_stamp(sr[0]), sr[0].shown)):
        row = rows.setdefault(s.key, Row("", ""))
        row.name = (s.who.name if s.who else "") or row.name
        row.student_id = (s.who.student_id if s.who else "") or row.student_id
        row.claim = s.contradicts.name if s.contradicts and not s.picked else row.claim
        row.graded[s.stem] = (s, r)
    return sorted(rows.values(), key=lambda r: (_plain(r.name) or "~", r.student_id, _files(r)))


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def _files(row: Row) -> str:
    return ", ".join(s.shown for s, _ in row.graded.values())


def _label(row: Row) -> str:
    """The row's «estudiante»: the name its student wrote, and whose file it is where that names someone else."""
    label = row.name or f"(sin nombre: {_files(row)})"
    return f"{label} (archivo de {row.claim})" if row.claim else label


def _columns(known: dict[str, Assignment], rows: list[Row]) -> tuple[list[str], list[str]]:
    """(notebooks, exercises) of the CSV: the assignment's, else those the submissions show."""
    stems = list(known) or list(dict.fromkeys(st for r in rows for st in r.graded))
    names = [ex.name for st in stems if st in known for ex in known[st].graded]
    names += [n for r in rows for _, res in r.graded.values() for n in res.points if n not in names]
    return stems, list(dict.fromkeys(names))


def _worth(stem: str, known: dict[str, Assignment], results: dict[str, Result]) -> float:
    """What a notebook of the assignment is worth: its points, else what its submission was graded out of."""
    if stem in known:
        return sum(known[stem].points.get(ex.name, 0) for ex in known[stem].tasks)
    return results[stem].maximum if stem in results else 0


def _cells(row: Row, stems: list[str], names: list[str], known: dict[str, Assignment], zone: Zone | None) -> list:
    results = {st: res for st, (_, res) in row.graded.items()}
    points = {n: res.points[n] for res in results.values() for n in res.points}
    messages = {n: res.messages[n] for res in results.values() for n in res.messages}
    out_of = sum(_worth(st, known, results) for st in stems)
    subs = [s for s, _ in row.graded.values()]
    missing = [st for st in stems if st not in results]
    problems = [f"{st}: {p}" for st, res in results.items() for p in res.problems]
    problems += [f"no entregó {st}" for st in missing]
    return [_label(row), row.student_id,
            *(show_points(results[st].total) if st in results else "" for st in stems),
            show_points(sum(res.total for res in results.values())), show_points(out_of),
            *(show_points(points[n]) if n in points else "" for n in names),
            " | ".join(s.shown for s in subs),
            " | ".join(f"{_when(s, zone)} ({s.who.time_source})" if s.who else "?" for s in subs),
            " | ".join(s.note for s in subs if s.note),
            " | ".join(f"{s.shown}: {a}" for s in subs for a in s.alerts),
            *(messages.get(n, "") for n in names), " | ".join(problems)]


# The CSV says which of its layouts it is: 2 added each exercise's «error <ejercicio>» (the class report reads them)
_FORMAT_COLUMN, _FORMAT = "formato de calificar", "2"
_ERROR = "error "  # «error <ejercicio>»: _RIGHT, _NOT_ATTEMPTED or the checker's key; empty where not handed in
_RIGHT, _NOT_ATTEMPTED = "ninguno", "sin_intentar"


def _outcome(result: Result, name: str) -> str:
    """What «error <ejercicio>» records for one exercise of one submission ("" where it was not graded there)."""
    if name not in result.points:
        return ""
    mistake = result.mistakes.get(name)
    if mistake == "not_attempted":
        return _NOT_ATTEMPTED
    return mistake or (_RIGHT if result.points[name] > 0 else "unknown")


def write_csv(rows: list[Row], known: dict[str, Assignment], path: Path, delimiter: str = ",",
              zone: Zone | None = None) -> None:
    """One row per student: notebooks' points, total, each exercise's points, files, time (in ``zone``, this
    machine's by default), resubmissions, alerts, each failed check's message, the problems running it, each
    exercise's mistake (its checker's key) and the layout's number (UTF-8 with BOM, for spreadsheets). Points are
    numbers; every other cell is text, and one a spreadsheet would run as a formula is made inert
    (``_spreadsheet``)."""
    stems, names = _columns(known, rows)
    numbers = set(range(2, 2 + len(stems) + 2 + len(names)))  # notebooks, total, de, exercises
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        out = csv.writer(f, delimiter=delimiter)
        out.writerow([inert(h) for h in ["estudiante", "legajo", *stems, "total", "de", *names, "archivos",
                                         "hora de entrega", "reentregas", "alertas", *(f"mensaje {n}" for n in names),
                                         "problemas", *(_ERROR + n for n in names), _FORMAT_COLUMN]])
        for row in rows:
            results = [res for _, res in row.graded.values()]
            errors = [next((o for o in (_outcome(res, n) for res in results) if o), "") for n in names]
            cells = [*_cells(row, stems, names, known, zone), *errors, _FORMAT]
            out.writerow([c if i in numbers else inert(c) for i, c in enumerate(cells)])


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9@.-]+", "_", _plain(text)).strip("_")[:60] or "sin_nombre"


_CUT = "se cortó a los"  # how _grade says it cut a cell for time (and killed its kernel)
_SHOWN_PROBLEMS = 5  # problems per notebook in a feedback file (the CSV has them all), cuts always shown


def _shown(problems: list[str]) -> list[str]:
    """What a feedback file lists of a notebook's problems: every cut for time, then the first others."""
    cuts = [p for p in problems if _CUT in p]
    return cuts + [p for p in problems if p not in cuts][:max(0, _SHOWN_PROBLEMS - len(cuts))]


def _feedback(row: Row, known: dict[str, Assignment]) -> str:
    lines = [f"Hola{' ' + row.name if row.name else ''}: esta es la devolución de tu tarea.", ""]
    results = {st: res for st, (_, res) in row.graded.items()}
    stems = [st for st in known if st in results] + sorted(st for st in results if st not in known)
    for stem in stems:
        res = results[stem]
        lines.append(f"{stem}: {show_points(res.total)} de {show_points(res.maximum)} puntos.")
        for name in res.points:
            ok = res.points[name] == res.out_of.get(name) and not res.messages.get(name)
            lines.append(f"  - {name}: {'bien' if ok else 'todavía no'}"
                         + ("" if ok else f". {res.messages.get(name, '').strip()}"))
        lines += [f"  ({p})" for p in _shown(res.problems)] + [""]
    missing = [st for st in known if st not in results]
    lines += [f"No entregaste {st}: cuenta 0 de {show_points(_worth(st, known, results))} puntos." for st in missing]
    total = sum(res.total for res in results.values())
    out_of = sum(_worth(st, known, results) for st in (list(known) or stems))
    lines += [f"Total: {show_points(total)} de {show_points(out_of)} puntos.", ""]
    lines += [f"Ojo: {t}" for t in dict.fromkeys(t for s, _ in row.graded.values() for t in s.tell)]
    return "\n".join(lines).rstrip() + "\n"


def write_feedback(rows: list[Row], folder: Path, known: dict[str, Assignment] | None = None) -> list[Path]:
    """``folder/<estudiante>.txt`` per student, to send back: points and each check's message per notebook, the
    notebooks of ``known`` not handed in, the total, and what could not be settled about who they are."""
    folder.mkdir(parents=True, exist_ok=True)
    made, used = [], set()
    for row in rows:
        base = _slug(" ".join(x for x in (row.name, row.student_id) if x) or _files(row))
        name, n = base, 2
        while name in used:
            name, n = f"{base}_{n}", n + 1
        used.add(name)
        (folder / f"{name}.txt").write_text(_feedback(row, known or {}), encoding="utf-8")
        made.append(folder / f"{name}.txt")
    return made
