"""A fresh teacher's term, as issue 52's trial had it: 21 submissions of 01 and 03 for 13 students, written with the
points each row should get BEFORE anything is graded, then compared with what calificar wrote.

    python benchmarks/term.py armar CARPETA      # CARPETA/build/grading, puntos.ini, entregas/, esperado.json
    .venv/bin/python -m helpers.grading calificar CARPETA/entregas --tarea CARPETA/build/grading \
        --csv CARPETA/notas.csv --zona America/Argentina/Buenos_Aires      # the guide's command
    python benchmarks/term.py comparar CARPETA   # each expected row against notas.csv; exit 1 on a difference

The folder is Classroom's download (each copy «Nombre - 03_layernorm.ipynb») with what a trial meets: ids with and
without dots, an empty id in one notebook, a resubmission whose older file is newer on disk, a copy saved outside
Colab (no Colab metadata, no time in it), the lesson notebook instead of the copy, a syntax error, a deleted cell, a
name that is a spreadsheet formula, a later copy with another student's name and id in it, and three untouched
copies without a name, each «Copia de 03_layernorm.ipynb» in its student's folder. The student copies are written
as ``armar`` writes them (without otter's bundle, which calificar does not read).
"""

from __future__ import annotations

import argparse
import ast
import csv
import datetime as dt
import inspect
import json
import os
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POINTS = {"01_ffn": {"ffn": 1, "ffn_count": 1}, "03_layernorm": {"layer_norm": 2, "rms_norm": 1.5}}
FORMULA = '=HYPERLINK("https://example.org/?"&D2,"Lautaro Paz")'
DAY = dt.datetime(2026, 3, 10, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=-3)))
LOOSE = "__suelta__"  # a submission that is its own row (no name cell): the key esperado.json gives it


def _copies() -> dict:
    from helpers import grading
    from helpers.grading._assign import assignment_name
    out = {}
    for stem, points in POINTS.items():
        nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
        copy = grading.student_copy(nb, stem, points, "term")
        copy["metadata"]["otter"] = {"assignment_name": assignment_name(stem)}
        out[stem] = copy
    return out


def _mistake(name: str, variable: str) -> str:
    """The checker's first named mistake written as a learner would, under the expected name."""
    import helpers.check
    fn = getattr(helpers.check, name).mistakes[0].fn
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    node.decorator_list = []
    return f"{ast.unparse(node)}\n\n\n{variable} = {node.name}\n"


def _answer(ex, how: str) -> str | None:
    from helpers import grading
    return {"ref": grading.reference_code(ex), "mal": _mistake(ex.name, ex.variable), "sintaxis": "def roto(:\n",
            "vacio": None, "borrada": None}[how]


def _hand_in(copies, stem: str, name: str | None, legajo: str, answers: dict, at: dt.datetime | None,
             colab: bool = True) -> dict:
    """A copy of ``stem`` signed ``name``/``legajo`` (None: the name cell untouched), its stubs per ``answers``
    (exercise -> ref, mal, sintaxis, vacio, borrada), run at ``at`` as Colab saves it (each code cell's time)."""
    from helpers import grading
    nb = json.loads(json.dumps(copies[stem]))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    if name is not None:
        cell["source"] = cell["source"].replace('NOMBRE = ""', f"NOMBRE = {name!r}").replace(
            'LEGAJO = ""', f"LEGAJO = {legajo!r}")
    drop = set()
    for ex in grading.exercises(nb):
        how = answers.get(ex.name, "vacio")
        code = _answer(ex, how)
        if code is not None:
            nb["cells"][ex.stub]["source"] = code
        if how == "borrada":
            drop.add(ex.stub)
    if at is not None and colab:
        nb["metadata"]["colab"] = {"provenance": []}
        for i, c in enumerate(nb["cells"]):
            if c["cell_type"] == "code":
                stamp = int((at + dt.timedelta(seconds=i)).timestamp() * 1000)
                c.setdefault("metadata", {})["executionInfo"] = {"status": "ok", "timestamp": stamp, "user_tz": 180}
    nb["cells"] = [c for i, c in enumerate(nb["cells"]) if i not in drop]
    return nb


def _term(copies) -> list[dict]:
    """Each submission: where it goes, what it is, and the row and points it should get."""
    h = dt.timedelta(hours=1)
    ref01, ref03 = {"ffn": "ref", "ffn_count": "ref"}, {"layer_norm": "ref", "rms_norm": "ref"}
    lesson = json.loads((ROOT / "notebooks" / "03_layernorm.ipynb").read_text(encoding="utf-8"))
    subs = [
        ("Ana Pérez - 01_ffn.ipynb", "01_ffn", "Ana Pérez", "30.123.456", ref01, DAY, "Ana Pérez"),
        ("Ana Pérez - 03_layernorm.ipynb", "03_layernorm", "Ana Pérez", "30123456", ref03, DAY, "Ana Pérez"),
        ("Federico López - 01_ffn.ipynb", "01_ffn", "Federico López", "31222333", ref01, DAY, "Federico López"),
        # a later copy, from Federico's file, with Ana's name and id in its name cell, nothing answered
        ("Federico López - Copia de 03_layernorm.ipynb", "03_layernorm", "Ana Pérez", "30123456", {}, DAY + 30 * h,
         "Ana Pérez (archivo de Federico López)"),
        ("Bruno Díaz - 01_ffn.ipynb", "01_ffn", "Bruno Díaz", "28.765.432", {"ffn": "ref", "ffn_count": "mal"}, DAY,
         "Bruno Díaz"),
        ("Bruno Díaz - 03_layernorm.ipynb", "03_layernorm", "Bruno Díaz", "28765432", ref03, DAY, "Bruno Díaz"),
        ("Carla Gómez - 01_ffn.ipynb", "01_ffn", "Carla Gómez", "", ref01, DAY, "Carla Gómez"),  # empty id
        ("Carla Gómez - 03_layernorm.ipynb", "03_layernorm", "Carla Gómez", "4521",
         {"layer_norm": "mal", "rms_norm": "ref"}, DAY, "Carla Gómez"),
        ("Dana Ruiz - 01_ffn.ipynb", "01_ffn", "Dana Ruiz", "40111222", ref01, DAY, "Dana Ruiz"),
        # the older hand-in (only layer_norm) is the newer file on disk; the later one (both) is graded
        ("Dana Ruiz - 03_layernorm.ipynb", "03_layernorm", "Dana Ruiz", "40111222", {"layer_norm": "ref"}, DAY,
         None),
        ("Dana Ruiz - 03_layernorm (1).ipynb", "03_layernorm", "Dana Ruiz", "40111222", ref03, DAY + h,
         "Dana Ruiz"),
        # saved outside Colab: no Colab metadata, no time of its own (the file's date is all there is)
        ("Eva Luna - 03_layernorm.ipynb", "03_layernorm", "Eva Luna", "L-77", ref03, None, "Eva Luna"),
        ("Gael Paz - 01_ffn.ipynb", "01_ffn", "Gael Paz", "55", ref01, DAY, "Gael Paz"),
        ("Gael Paz - 03_layernorm.ipynb", "03_layernorm", lesson, "", {}, None, LOOSE),  # the lesson notebook
        ("Hugo Sosa - 01_ffn.ipynb", "01_ffn", "Hugo Sosa", "61", {"ffn": "ref"}, DAY, "Hugo Sosa"),
        ("Hugo Sosa - 03_layernorm.ipynb", "03_layernorm", "Hugo Sosa", "61",
         {"layer_norm": "ref", "rms_norm": "sintaxis"}, DAY, "Hugo Sosa"),
        ("Inés Vera - 03_layernorm.ipynb", "03_layernorm", "Inés Vera", "62",
         {"layer_norm": "borrada", "rms_norm": "ref"}, DAY, "Inés Vera"),
        ("Lautaro Paz - 03_layernorm.ipynb", "03_layernorm", FORMULA, "63", ref03, DAY, FORMULA),
        *((f"{who}/Copia de 03_layernorm.ipynb", "03_layernorm", None, "", {}, None, LOOSE)
          for who in ("Julia Rey", "Kevin Toro", "Lucía Sanz")),
    ]
    out = []
    for rel, stem, name, legajo, answers, at, row in subs:
        if isinstance(name, dict):
            nb = name
        else:
            nb = _hand_in(copies, stem, name, legajo, answers, at, colab=at is not None)
        out.append({"rel": rel, "stem": stem, "nb": nb, "row": row, "answers": answers})
    return out


def _expected(term: list[dict]) -> dict:
    """Per row («estudiante» as the CSV should write it), its points per notebook and total, written before any
    grading: an exercise counts its points where its answer is the reference, 0 otherwise."""
    rows: dict[str, dict] = {}
    for s in term:
        if s["row"] is None:  # not graded: an older resubmission
            continue
        label = s["row"] if s["row"] != LOOSE else f"(sin nombre: {s['rel']})"
        worth = POINTS[s["stem"]]
        got = sum(p for n, p in worth.items() if s["answers"].get(n) == "ref")
        rows.setdefault(label, {})[s["stem"]] = got
    return {label: {**nbs, "total": sum(nbs.values())} for label, nbs in rows.items()}


def armar(folder: Path) -> None:
    copies = _copies()
    for stem, copy in copies.items():
        dest = folder / "build" / "grading" / stem / f"{stem}.ipynb"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps(copy, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (folder / "puntos.ini").write_text("".join(f"[{stem}]\n" + "".join(f"{n} = {p:g}\n" for n, p in pts.items())
                                               for stem, pts in POINTS.items()), encoding="utf-8")
    term = _term(copies)
    for s in term:
        path = folder / "entregas" / s["rel"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(s["nb"], ensure_ascii=False), encoding="utf-8")
    older, newer = folder / "entregas" / "Dana Ruiz - 03_layernorm.ipynb", DAY + dt.timedelta(days=3)
    os.utime(older, (newer.timestamp(), newer.timestamp()))  # the older hand-in, newer on disk
    expected = _expected(term)
    (folder / "esperado.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(term)} entregas de {len(expected)} filas en {folder / 'entregas'}; lo esperado, en esperado.json")


def _number(text: str) -> float | None:
    return float(text.replace(",", ".")) if text.strip() else None


def comparar(folder: Path) -> int:
    from helpers.grading._spreadsheet import restored
    expected = json.loads((folder / "esperado.json").read_text(encoding="utf-8"))
    rows = {restored(r["estudiante"]): r for r in csv.DictReader((folder / "notas.csv").open(encoding="utf-8-sig"))}
    bad = 0
    for label in sorted(set(expected) | set(rows)):
        want, got = expected.get(label), rows.get(label)
        if want is None or got is None:
            bad += 1
            print(f"DISTINTO {label}: {'no esperaba esta fila' if want is None else 'falta la fila'}")
            continue
        seen = {k: _number(got[k]) for k in [*POINTS, "total"]}
        wanted = {k: want.get(k) for k in [*POINTS, "total"]}
        same = all((seen[k] or 0) == (wanted[k] or 0) and (seen[k] is None) == (wanted[k] is None) for k in seen)
        bad += not same
        alerts = f"; alertas: {got['alertas'][:160]}" if got["alertas"] else ""
        print(f"{'igual' if same else 'DISTINTO'} {label}: esperado {wanted}, salió {seen}{alerts}")
    print(f"{len(expected)} filas esperadas, {len(rows)} en notas.csv, {bad} distintas")
    return 1 if bad else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("que", choices=("armar", "comparar"))
    p.add_argument("carpeta", type=Path)
    args = p.parse_args(argv)
    if args.que == "armar":
        armar(args.carpeta)
        return 0
    return comparar(args.carpeta)


if __name__ == "__main__":
    raise SystemExit(main())
