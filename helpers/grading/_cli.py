"""python -m helpers.grading: the teacher's command line (``armar``, ``calificar``, ``informe``)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

from . import _sandbox
from ._assign import build
from ._class import (
    Assignment,
    _assignment,
    assignments,
    collect,
    grade_all,
    latest,
    stem_in_name,
    student_rows,
    write_csv,
    write_feedback,
)
from ._grade import CELL_TIMEOUT_S
from ._identity import course_zone
from ._notebook import how_many
from ._points import PointsError
from ._report import REPORT_NAME, ReportError, report_from_csv, write_report

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m helpers.grading", description="La lección como tarea: armarla y "
                                "calificarla.")
    sub = p.add_subparsers(dest="comando", required=True)
    a = sub.add_parser("armar", help="arma las copias para estudiantes y los paquetes de otter-grader")
    a.add_argument("--raiz", default=".", help="la carpeta del repositorio (por defecto, esta)")
    a.add_argument("--salida", default="build/grading", help="dónde escribirlos (por defecto, build/grading)")
    a.add_argument("--puntos", help="el archivo con los ejercicios que entran en la nota y sus puntos (por "
                                    "defecto: todos, 1 punto cada uno); docs/docente.md tiene ejemplos")
    a.add_argument("--tiempo", type=float, default=CELL_TIMEOUT_S,
                   help=f"segundos por celda antes de cortarla, en Gradescope (por defecto, {CELL_TIMEOUT_S}, como "
                        "calificar)")
    c = sub.add_parser("calificar", help="califica una entrega (.ipynb) o una carpeta de entregas")
    c.add_argument("entregas", help="un .ipynb o una carpeta con .ipynb (también en subcarpetas)")
    c.add_argument("--csv", default="notas.csv", help="la planilla que escribe (por defecto, notas.csv)")
    c.add_argument("--tarea", help="lo que repartiste: la carpeta build/grading o la copia (.ipynb) de un "
                                   "notebook; de ahí saco ejercicios y puntos (sin esto, de cada entrega)")
    c.add_argument("--devoluciones", help="carpeta donde escribe un .txt por estudiante (por defecto, "
                                          "devoluciones/ al lado del CSV)")
    c.add_argument("--tiempo", type=float, default=CELL_TIMEOUT_S,
                   help=f"segundos por celda antes de cortarla (por defecto, {CELL_TIMEOUT_S})")
    c.add_argument("--memoria", type=int, default=_sandbox.MEMORY_MB,
                   help=f"MB de memoria por entrega (por defecto, {_sandbox.MEMORY_MB})")
    c.add_argument("-j", "--procesos", type=int, default=os.cpu_count() or 1,
                   help="cuántas entregas a la vez (por defecto, una por núcleo)")
    c.add_argument("--todas", action="store_true",
                   help="corre todas las celdas de cada entrega, no solo las que necesitan los controles (más lento: "
                        "02, 04 y 05 entrenan redes para sus figuras)")
    c.add_argument("--sin-aislar", action="store_true",
                   help="califica sin aislar cada entrega (donde no hay bubblewrap: macOS, Colab...): su código corre "
                        "como vos y puede leer y escribir tus archivos y las otras entregas")
    c.add_argument("--separador", default=",", help="separador del CSV (por defecto «,»; «;» para Excel en español)")
    c.add_argument("--zona", help="la zona horaria de tu curso, para las horas de entrega (por ejemplo "
                                  "America/Argentina/Buenos_Aires; por defecto, la de esta máquina, y lo dice)")
    c.add_argument("--informe", help=f"dónde escribe el informe de la clase (por defecto, {REPORT_NAME} al lado del "
                                     "CSV)")
    c.add_argument("--vale", action="append", default=[], metavar="ARCHIVO",
                   help="la entrega que vale para quien dice su celda del nombre, aunque su archivo o su carpeta "
                        "sean de otra persona (su ruta dentro de la carpeta de entregas, como la escribe «alertas»); "
                        "se puede repetir")
    _names_option(c)
    i = sub.add_parser("informe", help="arma de nuevo el informe de la clase desde el CSV que escribió calificar, sin "
                                       "calificar otra vez")
    i.add_argument("csv", help="el CSV que escribió calificar (por ejemplo notas.csv)")
    i.add_argument("--salida", help=f"dónde escribirlo (por defecto, {REPORT_NAME} al lado del CSV)")
    _names_option(i)
    return p


def _names_option(parser) -> None:
    parser.add_argument("--con-nombres", action="store_true",
                        help="el informe dice quién cometió cada error (para vos: sin esto, cuenta y no nombra a "
                             "nadie, y se puede mostrar en clase)")


def _writable_dir(folder: Path) -> bool:
    """A folder that exists and takes new files, or one that can be made under such a folder."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def _file_problem(option: str, path: Path, example: str) -> str:
    """Why ``path`` cannot be written as a file, in Spanish; "" if it can."""
    if path.is_dir():
        return f"{option}: «{path}» es una carpeta; poné el nombre del archivo, por ejemplo {path / example}"
    if not path.parent.is_dir():
        return f"{option}: no existe la carpeta «{path.parent}», donde iría {path.name}: creala o poné otra ruta"
    if not os.access(path.parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"{option}: no puedo escribir «{path}»: elegí una carpeta tuya"
    return ""


def _outputs_problem(csv_path: Path, feedback: Path, report: Path | None = None) -> str:
    """Why the CSV, the feedback folder or the report cannot be written, in Spanish; "" if all can. Checked before
    grading."""
    problem = _file_problem("--csv", csv_path, "notas.csv")
    if problem:
        return problem
    if feedback.exists() and not feedback.is_dir():
        return f"--devoluciones: «{feedback}» es un archivo; poné una carpeta (la creo si no existe)"
    if not _writable_dir(feedback):
        return f"--devoluciones: no puedo crear ni escribir la carpeta «{feedback}»: elegí una carpeta tuya"
    return _file_problem("--informe", report, REPORT_NAME) if report else ""


def _paths(where: Path) -> list[Path]:
    if where.is_file():
        return [where]
    return sorted(p for p in where.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _chosen(names: list[str], paths: list[Path], root: Path) -> tuple[list[Path], str]:
    """The submissions --vale names (by their path within the submissions' folder, or a file name only one has),
    and what is wrong if one names none."""
    found = []
    for name in names:
        match = [p for p in paths if p.resolve() in {(root / name).resolve(), Path(name).resolve()}]
        match = match or [p for p in paths if p.name == Path(name).name]
        if len(match) != 1:
            what = "no hay ninguna entrega con esa ruta" if not match else "hay varias con ese nombre: poné su ruta"
            return [], f"--vale «{name}»: {what} dentro de {root}"
        found += match
    return found, ""


def _identity_said(subs) -> str:
    """The first thing calificar says when a copy's file or folder names someone else than its name cell."""
    odd = [s for s in subs if s.contradicts or "|" in s.key]
    if not odd:
        return ""
    return (f"ojo, quién es quién: en {how_many(len(odd), 'entrega')}, la persona de su archivo o su carpeta no es "
            "la de su celda del nombre, o su nombre o su legajo son los de la entrega de otra persona. Ninguna "
            "reemplaza la nota de otra persona: van en filas aparte, y «alertas» dice cuál es cuál (abajo, cada "
            "una). Si una vale para quien dice su celda del nombre, calificá de nuevo con --vale ARCHIVO.")


def _from_submissions(subs) -> dict[str, Assignment]:
    """Without --tarea: each notebook's exercises and points from its first readable submission."""
    known = {}
    for s in subs:
        s.stem = s.stem or (s.path.stem if s.who else "")  # a notebook without the marker: its file's name
        if s.stem and s.stem not in known:
            try:
                known[s.stem] = _assignment(json.loads(s.path.read_text(encoding="utf-8")), s.stem)
            except (ValueError, KeyError, TypeError):
                continue
    return known


def _armar(args) -> int:
    try:
        if args.tiempo <= 0:
            raise PointsError("--tiempo tiene que ser mayor que 0 (segundos por celda)")
        made = build(Path(args.raiz), Path(args.salida), points_file=Path(args.puntos) if args.puntos else None,
                     cell_s=args.tiempo)
    except PointsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"listo: {len(made)} copias para estudiantes, cada una con su autograder.zip, en {args.salida}/")
    return 0


def _calificar(args) -> int:
    feedback = Path(args.devoluciones) if args.devoluciones else Path(args.csv).parent / "devoluciones"
    report = Path(args.informe) if args.informe else Path(args.csv).with_name(REPORT_NAME)
    try:
        zone = course_zone(args.zona)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    problem = _outputs_problem(Path(args.csv), feedback, report)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    paths = _paths(Path(args.entregas))
    if not paths:
        print(f"no encontré entregas (.ipynb) en {args.entregas}", file=sys.stderr)
        return 2
    root = Path(args.entregas) if Path(args.entregas).is_dir() else Path(args.entregas).parent
    chosen_paths, problem = _chosen(args.vale, paths, root)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    protect = dataclasses.replace(_sandbox.available(), memory_mb=args.memoria)
    if args.sin_aislar:
        protect = dataclasses.replace(protect, isolation=None)
    elif not protect.isolation:
        print(f"error: no puedo aislar las entregas entre sí y de tus archivos: {protect.missing}. Si aceptás que "
              "su código corra como vos, con tus archivos (una máquina descartable, entregas en las que confiás), "
              "agregá --sin-aislar", file=sys.stderr)
        return 2
    known = assignments(Path(args.tarea)) if args.tarea else {}
    subs = collect(paths, known, root, chosen_paths)
    said = _identity_said(subs)
    if said:
        print(said)
    if not args.tarea:
        print("sin --tarea, saco ejercicios y puntos de las entregas: si alguien borró una celda de control, ese "
              "ejercicio no aparece en su fila")
    known = known or _from_submissions(subs)
    for s in subs:
        s.stem = s.stem if s.stem in known or len(known) != 1 else next(iter(known))
        s.stem = s.stem or (stem_in_name(s.path, known) if s.who is None else "")
    for s in [s for s in subs if s.stem not in known]:
        if s.who is None:  # no notebook any more (a download cut short, a file saved over): said, not dropped
            print(f"no califico {s.shown}: no se puede leer como notebook (¿se cortó la descarga, o se guardó encima "
                  "otro archivo?), y su nombre no dice de qué notebook de la tarea es "
                  f"({', '.join(known)}): pedile a quien lo entregó que lo suba de nuevo")
        else:
            print(f"no califico {s.shown}: no es de ningún notebook de la tarea ({', '.join(known)})")
        subs.remove(s)
    mine = " (la de esta máquina; la de tu curso: --zona, por ejemplo --zona America/Argentina/Buenos_Aires)"
    print(f"horas de entrega en la zona {zone.name}" + (mine if zone.machine else ""))
    chosen = latest(subs, zone)
    for s in chosen:
        for line in ([s.note] if s.note else []) + [f"ojo, {s.shown}: {a}" for a in s.alerts]:
            print(line)
    print(_sandbox.describe(protect))
    per_path = {s.path: (list(known[s.stem].graded), known[s.stem].points) for s in chosen}
    results = grade_all([s.path for s in chosen], timeout=args.tiempo, jobs=args.procesos, protect=protect,
                        per_path=per_path, everything=args.todas, shown={s.path: s.shown for s in chosen})
    rows = student_rows(chosen, results)
    write_csv(rows, known, Path(args.csv), args.separador, zone)
    made = write_feedback(rows, feedback, known)
    old = how_many(len(subs) - len(chosen), "reentrega vieja sin calificar", "reentregas viejas sin calificar")
    print(f"escribí {args.csv}: {how_many(len(rows), 'estudiante')}, {how_many(len(paths), 'archivo')} ({old}); "
          f"{how_many(len(made), 'devolución', 'devoluciones')} en {feedback}/")
    try:
        _said(write_report(rows, report, args.con_nombres, Path(args.csv).name), report, args.con_nombres)
    except ReportError as e:
        print(f"no escribí el informe de la clase: {e}")
    return 0


def _said(made, path: Path, names: bool) -> None:
    """What calificar and informe print about the report they wrote."""
    for note in made.notes:
        print(f"ojo, informe: {note}")
    who = ("con nombres: es para vos, no lo muestres en clase" if names else
           "sin nombres: lo podés mostrar en clase; --con-nombres agrega quién cometió cada error")
    print(f"escribí el informe de la clase en {path} ({who})")


def _informe(args) -> int:
    out = Path(args.salida) if args.salida else Path(args.csv).with_name(REPORT_NAME)
    problem = _file_problem("--salida", out, REPORT_NAME)
    try:
        if problem:
            raise ReportError(problem)
        made, out = report_from_csv(Path(args.csv), out, args.con_nombres)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    _said(made, out, args.con_nombres)
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.comando == "armar":
        return _armar(args)
    if args.comando == "informe":
        return _informe(args)
    if args.procesos < 1 or args.tiempo <= 0 or args.memoria < 256:
        print("error: -j tiene que ser al menos 1, --tiempo mayor que 0 y --memoria al menos 256 (MB)",
              file=sys.stderr)
        return 2
    return _calificar(args)
