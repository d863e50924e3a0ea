"""Who handed in what, and when: the student copy's name cell and marker, read back from a submission.

The name and id come from the name cell's source (string literals, read with ast: nothing is run). The time is the
latest of the cells' execution times that Colab (``executionInfo.timestamp``) or JupyterLab (``execution``) store,
and the time the name cell printed when last run; the file's mtime only when the notebook has none.
"""

from __future__ import annotations

import ast
import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MARKER_KEY", "Identity", "identify", "name_cell", "student_key"]

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


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


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


def student_key(who: Identity, path: Path) -> str:
    """Who a row is for: the id if given, else the name, accents and case folded; else the file itself."""
    text = who.student_id or who.name
    if not text:
        return f"archivo:{Path(path).name}"
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return ("legajo:" if who.student_id else "nombre:") + " ".join(re.sub(r"[^\w@.]+", " ", plain).split())
