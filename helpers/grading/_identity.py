"""Who handed in what, and when: the student copy's name cell and marker, read back from a submission.

The name and id come from the name cell's source (string literals, read with ast: nothing is run). The time is the
latest of the cells' execution times that Colab (``executionInfo.timestamp``) or JupyterLab (``execution``) store,
and the time the name cell printed when last run; the file's mtime only when the notebook has none. Submissions are
one student when their ids agree digit by digit, or when one has no id and its name is that of exactly one id.
Where a copy came from, its file name or folder, is ``_origin``'s.
"""

from __future__ import annotations

import ast
import datetime as dt
import os
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path

from ..lesson import source as _source

__all__ = ["MARKER_KEY", "Clashes", "Identity", "Zone", "course_zone", "id_key", "identify", "name_cell", "name_key",
           "student_key", "students"]

MARKER_KEY = "leccion06"  # notebook metadata of a student copy: notebook, version, "copia": "estudiante", puntos
_TAG = "# leccion06: copia para entregar de "
_STAMP = "corrida el "
_ISO = re.compile(r"corrida el (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[+-]\d\d:?\d\d|Z)?)")

_NAME_CELL = '''\
{tag}{stem} (versión {version}).
# Escribí tu nombre y tu legajo (o DNI, o email) entre las comillas y corré esta celda. Así tu docente sabe de
# quién es la entrega: el archivo que descargás se llama igual para todos, y sin tu nombre no puede saberlo.
# Entregá esta copia, con las celdas de control como están.
NOMBRE = ""
LEGAJO = ""

import datetime as _dt

if not NOMBRE.strip() or not LEGAJO.strip():
    print("⚠️ Falta tu nombre o tu legajo: completalos arriba, entre las comillas, y corré esta celda de nuevo.")
print(f"Entrega de {{NOMBRE.strip() or '(sin nombre)'}} ({{LEGAJO.strip() or 'sin legajo'}}), "
      f"corrida el {{_dt.datetime.now().astimezone().isoformat(timespec='seconds')}}")
'''


def name_cell(stem: str, version: str) -> dict:
    """The student copy's first code cell: NOMBRE and LEGAJO to fill in; prints them and the time when run."""
    return {"cell_type": "code", "id": "leccion06-nombre", "metadata": {}, "execution_count": None, "outputs": [],
            "source": _NAME_CELL.format(tag=_TAG, stem=stem or "la lección", version=version or "?")}


@dataclass(frozen=True)
class Identity:
    """A submission's student (name, id), notebook, marker, time and where that time came from."""

    name: str
    student_id: str
    notebook: str
    marker: dict
    time: dt.datetime | None
    time_source: str


def _literals(src: str) -> dict[str, str]:
    """``NAME = "text"`` assignments of a cell, read without running it."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return {}
    found = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            found[node.targets[0].id] = " ".join(node.value.value.split())
    return found


def _name_cell_of(nb) -> dict | None:
    return next((c for c in nb.get("cells", []) if c.get("cell_type") == "code" and _TAG in _source(c)), None)


def _aware(t: dt.datetime) -> dt.datetime:
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


def _cell_times(nb) -> list[dt.datetime]:
    """Execution times the front end stored: Colab's executionInfo.timestamp (ms), JupyterLab's execution."""
    times = []
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {})
        info = meta.get("executionInfo") if isinstance(meta.get("executionInfo"), dict) else {}
        stamp = info.get("timestamp")
        if isinstance(stamp, (int, float)) and stamp > 0:
            times.append(dt.datetime.fromtimestamp(stamp / 1000, dt.UTC))
        execution = meta.get("execution") if isinstance(meta.get("execution"), dict) else {}
        for value in execution.values():
            try:
                times.append(_aware(dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))))
            except ValueError:
                pass
    return times


def _printed_time(cell) -> list[dt.datetime]:
    text = "".join("".join(o.get("text", "")) for o in (cell or {}).get("outputs", []))
    out = []
    for stamp in _ISO.findall(text):
        try:
            out.append(_aware(dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))))
        except ValueError:
            pass
    return out


def identify(nb, path: Path) -> Identity:
    """Who, which notebook and when, from a submission read as JSON (no code run)."""
    meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
    marker = meta.get(MARKER_KEY) if isinstance(meta.get(MARKER_KEY), dict) else {}
    cell = _name_cell_of(nb)
    fields = _literals(_source(cell)) if cell else {}
    tagged = re.search(re.escape(_TAG) + r"(\S+)", _source(cell)) if cell else None
    notebook = str(marker.get("notebook") or (tagged[1] if tagged else ""))
    stored, printed = _cell_times(nb), _printed_time(cell)
    if stored or printed:
        source = "hora de la última celda corrida" if stored else "hora que imprimió la celda del nombre"
        time = max(stored + printed)
    else:
        time, source = dt.datetime.fromtimestamp(Path(path).stat().st_mtime, dt.UTC), "fecha del archivo"
    return Identity(fields.get("NOMBRE", ""), fields.get("LEGAJO", ""), notebook, marker, time, source)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def name_key(name: str) -> str:
    """A name as rows compare it: accents, case, punctuation and spacing folded ("Ana  Pérez" is "ana perez")."""
    return " ".join(re.sub(r"[^\w@.]+", " ", _fold(name)).split())


def id_key(student_id: str) -> str:
    """An id as rows compare it: its digits ("12.345.678" is "12345678", "L-12" is "12"); an email, or an id
    without digits, by its letters, accents and case folded."""
    text = _fold(student_id)
    digits = re.sub(r"\D", "", text)
    return digits if digits and "@" not in text else re.sub(r"[^\w@.]+", "", text)


def student_key(who: Identity, path: Path) -> str:
    """Who a row is for, on its own: the id if given (by its digits), else the name, folded; else the file, by its
    path relative to the submissions' folder (three «Copia de …» in three folders are three students)."""
    if who.student_id and id_key(who.student_id):
        return f"legajo:{id_key(who.student_id)}"
    return f"nombre:{name_key(who.name)}" if name_key(who.name) else f"archivo:{Path(path).as_posix()}"


@dataclass
class Clashes:
    """What ``students`` could not settle: per submission, a line for the teacher and one for the student."""

    teacher: dict[int, list[str]] = field(default_factory=dict)
    student: dict[int, list[str]] = field(default_factory=dict)

    def add(self, i: int, teacher: str, student: str = "") -> None:
        self.teacher.setdefault(i, []).append(teacher)
        if student:
            self.student.setdefault(i, []).append(student)


def students(people: list[tuple[Identity | None, Path]]) -> tuple[list[str], Clashes]:
    """Each submission's student key, across all of them (``people``: identity, path relative to the submissions'
    folder): a submission without id joins the one id its name has; a name under two ids, or an id under two names,
    is a clash, said, never settled by guessing."""
    keys = [student_key(who, path) if who else f"archivo:{Path(path).as_posix()}" for who, path in people]
    names = [name_key(who.name) if who else "" for who, _ in people]
    ids_of: dict[str, dict[str, int]] = {}  # name -> {id key: first submission with it}
    names_of: dict[str, dict[str, int]] = {}  # id key -> {name: first submission with it}
    for i, (key, name) in enumerate(zip(keys, names, strict=True)):
        if key.startswith("legajo:"):
            if name:
                ids_of.setdefault(name, {}).setdefault(key, i)
            names_of.setdefault(key, {}).setdefault(name, i)
    clashes = Clashes()
    for i, (key, name) in enumerate(zip(keys, names, strict=True)):
        who, path = people[i]
        if key.startswith("nombre:") and len(ids_of.get(name, {})) == 1:
            keys[i] = next(iter(ids_of[name]))
        elif key.startswith("nombre:") and name in ids_of:
            written = " y ".join(people[j][0].student_id for j in ids_of[name].values())
            clashes.add(i, f"no tiene legajo, y «{who.name}» aparece con legajos distintos ({written}): no sé de "
                           "quién es, va en una fila aparte",
                        "tu entrega no tiene legajo y hay más de un legajo con tu nombre: avisale a tu docente "
                        "cuál es el tuyo.")
        elif key.startswith("legajo:") and len(ids_of.get(name, {})) > 1:
            others = [f"{people[j][0].student_id} en {Path(people[j][1]).as_posix()}"
                      for k, j in ids_of[name].items() if k != key]
            clashes.add(i, f"«{who.name}» aparece también con otro legajo ({', '.join(others)}): van en filas "
                           "separadas; si es la misma persona, corregí el legajo en una de sus entregas y calificá "
                           "de nuevo",
                        "hay otra entrega con tu nombre y otro legajo: si también es tuya, avisale a tu docente cuál "
                        "es tu legajo (por ahora se califican aparte).")
        if key.startswith("legajo:") and len([n for n in names_of[key] if n]) > 1:
            others = [f"«{people[j][0].name}» en {Path(people[j][1]).as_posix()}" for n, j in names_of[key].items()
                      if n and n != name]
            clashes.add(i, f"el legajo {who.student_id} aparece también con otro nombre ({', '.join(others)}): "
                           "se califican como una sola persona")
    return keys, clashes


def _utc_offset(local: dt.datetime) -> str:
    """'UTC-03:00', 'UTC+05:30', 'UTC'."""
    off = local.strftime("%z")
    return "UTC" + ("" if off in ("", "+0000") else f"{off[:3]}:{off[3:]}")


@dataclass(frozen=True)
class Zone:
    """The zone hand-in times are shown in, its name, and whether it is this machine's (no ``--zona`` given)."""

    tz: dt.tzinfo
    name: str
    machine: bool

    def clock(self, t: dt.datetime) -> str:
        """'2026-03-10 22:00 UTC-03:00': the time in this zone, with its offset."""
        local = _aware(t).astimezone(self.tz)
        return f"{local:%Y-%m-%d %H:%M} {_utc_offset(local)}"


def _machine_zone_name() -> str:
    """This machine's zone as an IANA name (TZ, /etc/timezone, /etc/localtime's link), or "" if none says."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with_file = Path("/etc/timezone")
    if with_file.is_file():
        candidates.append(with_file.read_text(encoding="utf-8", errors="replace").strip())
    link = Path("/etc/localtime")
    if link.is_symlink():
        candidates.append(str(link.resolve()).partition("zoneinfo/")[2])
    for name in candidates:
        try:
            if name:
                zoneinfo.ZoneInfo(name)
                return name
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            continue
    return ""


def course_zone(name: str | None = None) -> Zone:
    """``name`` (an IANA zone, "America/Argentina/Buenos_Aires"), else this machine's; Spanish ValueError if
    ``name`` is not one."""
    if name is None:
        found = _machine_zone_name()
        if found:
            return Zone(zoneinfo.ZoneInfo(found), found, True)
        now = dt.datetime.now().astimezone()
        return Zone(dt.timezone(now.utcoffset() or dt.timedelta(0)), _utc_offset(now), True)
    try:
        return Zone(zoneinfo.ZoneInfo(name.strip()), name.strip(), False)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        if not zoneinfo.available_timezones():
            raise ValueError("--zona: esta máquina no tiene la base de zonas horarias; instalala con "
                             "`pip install tzdata` y probá de nuevo") from None
        raise ValueError(f"--zona: «{name}» no es una zona horaria que conozca; escribila como en la base de zonas "
                         "(IANA), por ejemplo America/Argentina/Buenos_Aires, America/Mexico_City o Europe/Madrid") \
            from None
