"""The class report: which of the checkers' named mistakes a class made, how many made each, where the notebook
teaches the point and what to ask in class; one self-contained HTML file (figures inside, nothing fetched, prints),
written by ``calificar`` beside its CSV or rebuilt from that CSV. It counts students; names only on request."""

from __future__ import annotations

import base64
import csv
import io
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ._class import (
    _ERROR,
    _FORMAT,
    _FORMAT_COLUMN,
    _NOT_ATTEMPTED,
    _RIGHT,
    Row,
    _label,
    _outcome,
    _plain,
)
from ._mistakes import NOTEBOOKS, entry, other_label, problems
from ._notebook import how_many
from ._spreadsheet import restored

__all__ = ["REPORT_NAME", "ExerciseReport", "Part", "Report", "ReportError", "read_grades", "report_from_csv", "tally",
           "write_report"]

REPORT_NAME = "informe.html"  # beside the CSV unless told otherwise
_KEY = re.compile(r"^[a-z_][a-z0-9_]*$")
_WIDTH_IN, _DPI = 4.8, 100  # a figure's width in inches, and its CSS pixels per inch on the page


class ReportError(ValueError):
    """Why a report cannot be made, in Spanish: a CSV of another tool or version, an empty class."""


@dataclass(frozen=True)
class _Record:
    """One student's outcome in one exercise: _RIGHT, _NOT_ATTEMPTED or the checker's key."""

    student: str
    exercise: str
    outcome: str


@dataclass(frozen=True)
class Part:
    """One slice of an exercise's class: right, a named mistake, «otro error» or «sin intentar»; how many, who,
    and for «otro error» which keys are behind it."""

    key: str  # "right", a gallery key, "other", "not_attempted"
    label: str
    count: int
    share: float  # of those who handed the exercise in
    who: tuple[str, ...] = ()
    kinds: tuple[tuple[str, int], ...] = ()

    @property
    def named(self) -> bool:
        return self.key not in ("right", "other", "not_attempted")


@dataclass(frozen=True)
class ExerciseReport:
    """One graded exercise across the class: its notebook, how many handed it in, and the parts they split into
    (right, each named mistake from most to least made, «otro error», «sin intentar»)."""

    name: str
    notebook: str
    handed: int
    parts: tuple[Part, ...]
    order: tuple[str, int]  # the exercise's place in the series (its module's ORDER)

    @property
    def right(self) -> Part:
        return self.parts[0]

    @property
    def missed(self) -> int:
        return self.handed - self.right.count


@dataclass(frozen=True)
class Report:
    """A class's report: students, exercises from most to least missed, the three mistakes most made, and what
    the data held that this version does not know."""

    students: int
    exercises: tuple[ExerciseReport, ...]
    notes: tuple[str, ...] = ()
    source: str = ""
    handed_per_notebook: dict[str, int] = field(default_factory=dict)

    @property
    def top(self) -> list[tuple[ExerciseReport, Part]]:
        """The three named mistakes most students made (ties: the larger share, then the report's order)."""
        named = [(ex, p) for ex in self.exercises for p in ex.parts if p.named]
        return sorted(named, key=lambda ep: (-ep[1].count, -ep[1].share))[:3]

    def counts(self) -> list[tuple[str, str, int]]:
        """(exercise, part, students) in the report's order: what a test compares."""
        return [(ex.name, p.key, p.count) for ex in self.exercises for p in ex.parts]


def _registry() -> dict:
    from ..check.exercises import MODULES
    return {m.checker.name: m for m in MODULES}


def _notebook_of(name: str, registry: dict) -> str:
    module = registry.get(name)
    return NOTEBOOKS[module.ORDER[0]][0] if module and module.ORDER[0] in NOTEBOOKS else ""


# ----------------------------------------------------------------------------------------- from rows, from a CSV

def _records(rows: list[Row]) -> list[_Record]:
    """What calificar graded, as the CSV's «error <ejercicio>» columns record it."""
    out = []
    for row in rows:
        for _, res in row.graded.values():
            out += [_Record(_label(row), name, _outcome(res, name)) for name in res.points]
    return out


def _dialect(first_line: str) -> str:
    return max((";", ",", "\t"), key=first_line.count)


def read_grades(path: Path) -> tuple[list[_Record], int]:
    """The records of a CSV that ``calificar`` wrote, and how many students it has; a ReportError, in Spanish,
    for anything else."""
    path = Path(path)
    if not path.is_file():
        raise ReportError(f"no encontré el CSV «{path}»" + (": es una carpeta" if path.is_dir() else ""))
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ReportError(f"«{path.name}» no es un CSV en UTF-8, como el que escribe calificar: ¿lo guardó otra "
                          "planilla con otra codificación? Usá el que escribió calificar") from None
    rows = csv.reader(io.StringIO(text), delimiter=_dialect(text.split("\n", 1)[0]))
    table = [[restored(c) for c in r] for r in rows]  # the text calificar wrote, before it made it inert
    header = [h.strip() for h in table[0]] if table else []
    ours = {"estudiante", "legajo", "total", "de"}
    if not ours <= set(header):
        raise ReportError(f"«{path.name}» no es una planilla de calificar: le faltan las columnas "
                          f"{', '.join(sorted(ours - set(header)))} (¿es de otra herramienta?). El informe sale del "
                          "CSV que escribe python -m helpers.grading calificar")
    if _FORMAT_COLUMN not in header:
        raise ReportError(f"«{path.name}» es de una versión anterior de calificar: no tiene las columnas «error "
                          "<ejercicio>», con el error de cada estudiante, y sin ellas no puedo contar los errores. "
                          "Calificá de nuevo con esta versión: el informe sale solo")
    rows = [dict(zip(header, r)) for r in table[1:] if any(c.strip() for c in r)]
    if not rows:
        raise ReportError(f"«{path.name}» no tiene ningún estudiante: solo los títulos de las columnas")
    formats = {r.get(_FORMAT_COLUMN, "").strip() for r in rows}
    if formats != {_FORMAT}:
        raise ReportError(f"«{path.name}» dice ser del formato {', '.join(sorted(formats)) or '(vacío)'} de "
                          f"calificar y esta versión lee el {_FORMAT}: armá el informe con la versión de helpers que "
                          "lo calificó, o calificá de nuevo con esta")
    names = [h[len(_ERROR):] for h in header if h.startswith(_ERROR)]
    records = [_Record(r["estudiante"], n, (r.get(_ERROR + n) or "").strip()) for r in rows for n in names]
    return [r for r in records if r.outcome], len(rows)


# ------------------------------------------------------------------------------------------------- counting

def _part(key: str, label: str, who: list[str], handed: int, kinds=()) -> Part:
    return Part(key, label, len(who), len(who) / handed if handed else 0.0,
                tuple(sorted(who, key=_plain)), tuple(kinds))


def _exercise(name: str, records: list[_Record], registry: dict, unknown: dict) -> ExerciseReport:
    module = registry.get(name)
    gallery = [m.key for m in module.checker.mistakes] if module else []
    by = {}
    for r in records:
        by.setdefault(r.outcome, []).append(r.student)
    handed = len(records)
    named = sorted((k for k in gallery if k in by), key=lambda k: (-len(by[k]), gallery.index(k)))
    rest = [k for k in by if k not in gallery and k not in (_RIGHT, _NOT_ATTEMPTED)]
    for k in rest:
        if not _KEY.match(k) or (module is not None and k not in problems(name)):
            unknown.setdefault(name, []).append((k, len(by[k])))
    kinds = sorted(((k, len(by[k])) for k in rest), key=lambda kn: (-kn[1], kn[0]))
    parts = [_part("right", "bien", by.get(_RIGHT, []), handed)]
    parts += [_part(k, entry(name, k).label, by[k], handed) for k in named]
    parts += [_part("other", "otro error", [s for k in rest for s in by[k]], handed, kinds),
              _part("not_attempted", "sin intentar", by.get(_NOT_ATTEMPTED, []), handed)]
    return ExerciseReport(name, _notebook_of(name, registry), handed, tuple(parts),
                          module.ORDER if module else ("99", 99))


def tally(records: list[_Record], students: int | None = None, source: str = "") -> Report:
    """Count the records: each exercise's parts, exercises from most to least missed (by share of those who handed
    it in, then by count, then in the series' order)."""
    if not records:
        who = "su único estudiante no tiene" if students == 1 else f"ninguno de sus {students or 0} estudiantes tiene"
        raise ReportError(f"{source or 'la clase'}: {who} un ejercicio calificado: no hay nada que contar")
    registry, unknown, per = _registry(), {}, {}
    for r in records:
        per.setdefault(r.exercise, []).append(r)
    exercises = [_exercise(name, rs, registry, unknown) for name, rs in per.items()]
    exercises.sort(key=lambda ex: (-ex.missed / ex.handed, -ex.missed, ex.order, ex.name))
    notes = [f"{name}: el CSV trae errores que los controles de esta versión no conocen, "
             f"{', '.join(f'«{k}» ({n})' for k, n in keys)}: los cuento como «otro error»"
             for name, keys in unknown.items()]
    notes += [f"{ex.name}: esta versión no conoce ese ejercicio; lo cuento sin sección ni errores típicos"
              for ex in exercises if ex.name not in registry]
    handed = {}
    for ex in exercises:
        handed[ex.notebook] = max(handed.get(ex.notebook, 0), ex.handed)
    everyone = students if students is not None else len({r.student for r in records})
    return Report(everyone, tuple(exercises), tuple(notes), source, handed)


def write_report(rows: list[Row], path: Path, names: bool = False, source: str = "") -> Report:
    """The report of a class just graded (``calificar``'s rows), written to ``path``; ``names``: who made each
    mistake, for the teacher's eyes only."""
    report = tally(_records(rows), len(rows), source)
    Path(path).write_text(_render(report, names), encoding="utf-8")
    return report


def report_from_csv(csv_path: Path, path: Path | None = None, names: bool = False) -> tuple[Report, Path]:
    """The same report from a CSV ``calificar`` wrote, without grading again; beside it unless ``path``."""
    csv_path = Path(csv_path)
    records, students = read_grades(csv_path)
    report = tally(records, students, csv_path.name)
    out = Path(path) if path else csv_path.with_name(REPORT_NAME)
    out.write_text(_render(report, names), encoding="utf-8")
    return report, out


# ------------------------------------------------------------------------------------------------- the figure

_STYLE = {  # part -> (palette name, hatch): colour is never the only cue (the label beside each bar is another)
    "right": ("correct", ""), "named": ("known mistake", ""), "other": ("other mistake", "xx"),
    "not_attempted": ("not attempted", "//"),
}


def _pct(share: float) -> str:
    return f"{round(100 * share)}\u00a0%"


_ROW_IN, _GAP_ROWS, _WRAP = 0.27, 1.1, 22  # a bar's row (inches), the space between two exercises (rows), a label's
# characters per line (each line more takes half a row more)
_LEFT_IN, _TOP_IN, _BOTTOM_IN = 1.9, 0.45, 0.62  # room for the bars' labels, the title, the x axis


def _figure(report: Report, notebook: str) -> tuple[bytes, str, tuple[int, int]]:
    """One notebook's exercises (in the report's order), each split into right / each named mistake / other / not
    attempted, as shares of who handed it in: an SVG, its Spanish alt text, its size on the page. Vector, with its
    text as text: sharp on any screen and on paper, and cheaper (a class of 40, its five figures: 0.16 MB and 1.4 s
    of CPU, against 0.31 MB and 3.7 s as 32-colour PNGs at 2x, which spent it rasterising glyphs; a layout engine
    took most of the rest, hence one axes placed by hand)."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter
    from matplotlib.transforms import blended_transform_factory

    from .. import plots
    exs = [ex for ex in report.exercises if ex.notebook == notebook]
    labels = {id(p): textwrap.fill(p.label, _WRAP, break_on_hyphens=False) for ex in exs for p in ex.parts}
    steps = {k: 1 + 0.5 * v.count("\n") for k, v in labels.items()}
    rows = sum(1 + sum(steps[id(p)] for p in ex.parts) for ex in exs) + _GAP_ROWS * (len(exs) - 1)
    height = _TOP_IN + _BOTTOM_IN + _ROW_IN * rows
    with matplotlib.rc_context():
        plots.use_house_style()
        matplotlib.rcParams.update({"font.size": 10, "hatch.linewidth": 0.8, "svg.fonttype": "none",
                                    "svg.hashsalt": notebook})  # the same report, byte for byte, every time
        fig = Figure(figsize=(_WIDTH_IN, height))
        FigureCanvasSVG(fig)
        ax = fig.add_axes((_LEFT_IN / _WIDTH_IN, _BOTTOM_IN / height, 1 - (_LEFT_IN + 0.1) / _WIDTH_IN,
                           _ROW_IN * rows / height))
        heading = blended_transform_factory(fig.transFigure, ax.transData)
        ticks, names, y = [], [], 0.0  # y: where the next row starts, from the top
        for ex in exs:
            ax.text(0.02, y + 0.5, f"{ex.name}: {ex.right.count} de {ex.handed} bien ({_pct(ex.right.share)})",
                    transform=heading, va="center", fontsize=11, fontweight="bold")
            y += 1
            for p in ex.parts:
                ticks.append(y + steps[id(p)] / 2)
                names.append(labels[id(p)])
                _bar(ax, ticks[-1], p, plots)
                y += steps[id(p)]
            y += _GAP_ROWS
        ax.set_ylim(y - _GAP_ROWS, 0)
        ax.set_yticks(ticks, names)
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        ax.set_xlim(0, 1.32)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0, symbol="\u00a0%"))
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("parte de los que lo entregaron")
        fig.suptitle(f"{notebook}, ejercicio por ejercicio", fontsize=12, x=0.02, ha="left",
                     y=1 - 0.12 / height, va="top")
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata=dict.fromkeys(("Creator", "Date", "Format", "Type")))
    return buf.getvalue(), _alt(notebook, exs), (round(_WIDTH_IN * _DPI), round(height * _DPI))


def _bar(ax, y: float, p: Part, plots) -> None:
    name, hatch = _STYLE["named" if p.named else p.key]
    ax.barh(y, p.share, height=0.72, color=plots.color(name), hatch=hatch, linewidth=0.6,
            edgecolor="white" if p.key == "other" else plots.color("other mistake"))
    ax.annotate(f"{p.count} ({_pct(p.share)})", (p.share, y), xytext=(3, 0), textcoords="offset points",
                va="center")


def _alt(notebook: str, exs: list[ExerciseReport]) -> str:
    said = []
    for ex in exs:
        first = next((p for p in ex.parts if p.named), None)
        line = f"{ex.name}, {ex.right.count} de {ex.handed} bien"
        line += f"; el error típico más común, {first.label}, {first.count}" if first else "; ningún error típico"
        other, blank = ex.parts[-2], ex.parts[-1]
        line += f"; otro error, {other.count}; sin intentar, {blank.count}"
        said.append(line)
    return (f"Barras horizontales de {notebook}, una por resultado de cada ejercicio, como parte de los que lo "
            f"entregaron: " + ". ".join(said) + ".")


# -------------------------------------------------------------------------------------------------- the page

def _title(stem: str) -> str:
    return next((title for s, title in NOTEBOOKS.values() if s == stem), "un notebook que esta versión no conoce")


def _messages(name: str) -> dict[str, str]:
    module = _registry().get(name)
    return {m.key: m.message for m in module.checker.mistakes} if module else {}


def _figures(report: Report) -> list[dict]:
    """Each notebook the class handed in, in the series' order: its figure, as the page shows it."""
    out = []
    for stem, title in sorted(NOTEBOOKS.values()):
        if any(ex.notebook == stem for ex in report.exercises):
            svg, alt, (width, height) = _figure(report, stem)
            out.append(dict(stem=stem, title=title, data=base64.b64encode(svg).decode("ascii"), alt=alt, width=width,
                            height=height, handed=report.handed_per_notebook.get(stem, 0)))
    return out


def _render(report: Report, names: bool = False) -> str:
    """The report as one HTML page in Spanish (templates/informe.html.j2, which escapes what it is given): no
    request to anything, figures inside, prints on paper."""
    import jinja2

    from .. import __version__, plots
    env = jinja2.Environment(loader=jinja2.PackageLoader(__package__), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters.update(pct=_pct, code_split=lambda text: re.split(r"`([^`]+)`", text))  # `code`: odd parts
    env.globals.update(color=plots.color, entry=entry, how_many=how_many, messages=_messages,
                       other_label=other_label, title=_title)
    return env.get_template("informe.html.j2").render(
        report=report, names=names, version=__version__, figures=_figures(report),
        notebooks=len({ex.notebook for ex in report.exercises}))
