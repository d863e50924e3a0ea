"""The lesson's structure, read from its cells: each structural cell says what it is in ``metadata["leccion06"]``
(as nbgrader keeps ``metadata.nbgrader``), and this is the one module that reads it. Standard library only.

A cell's roles, any of them together::

    {"exercise": {"name": "layer_norm", "part": "stub"},  # a «Tu turno»: its prompt, stub, check or solution
     "bets": {"01-relu": "answer", "01-nunca": "answer"},  # predictions.json keys it asks ("question") or answers
                                                           # (its answer region: code and markdown, up to a heading)
                                                           # or, further down, tells again ("tells": a later
                                                           # section's figure, a summary)
     "claims": true,                                       # a claims cell: hidden helpers.claim calls
     "exercise_answer": true}                              # an «Ejercicios» answer: stored without its output

The notebook's own ``nb["metadata"]["leccion06"]["kind"]`` is "core" or "deep" (a «Para ir más lejos» notebook); a
student copy keeps the same key for its marker (helpers.grading). The text of a «Tu turno» (``### Tu turno``
prompt, ``# Tu turno`` stub, ``helpers.check.<name>(<variable>)`` check, «Ver la solución» fold) is the convention
the roles were written from: ``problems`` checks the two agree, and a notebook with no exercise role at all (a
submission saved by an editor that drops cell metadata) is read by that text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BET_PARTS", "KEY", "KINDS", "PARTS", "SOLUTION_OPEN", "BetCells", "ExerciseCells", "answering", "bet_cells",
           "check_call", "claims_cells", "exercise_answer_cells", "exercise_cells", "fold_code", "folded", "is_folded",
           "kind", "mark", "notebooks", "prefix", "problems", "read", "roles", "source", "stub_labelled",
           "ANSWER_TITLE", "WHAT_HAPPENED"]

KEY = "leccion06"
PARTS = ("prompt", "stub", "check", "solution")
BET_PARTS = ("question", "answer", "tells")
KINDS = ("core", "deep")
SOLUTION_OPEN = "<details><summary>Ver la solución</summary>"  # a label that says it opens (classic Notebook: no ▸)
WHAT_HAPPENED = "¿Qué pasó? Abrilo después de correr"  # the fold of a bet's interpreting text in a learner's copy
ANSWER_TITLE = "# @title Comprobación del ejercicio: la respuesta (abrila cuando lo hayas intentado)"
_PROMPT, _STUB = "### Tu turno", "# Tu turno"
_CHECK = re.compile(r"^helpers\.check\.(\w+)\((\w+)\)\s*$")
_ASK = "helpers.predictions.ask("
_ROLE_KEYS = {"exercise", "bets", "claims", "exercise_answer"}
_TYPE = {"prompt": "markdown", "stub": "code", "check": "code", "solution": "markdown"}


def __dir__():
    return __all__


@dataclass(frozen=True)
class ExerciseCells:
    """One «Tu turno»: its checker's name, the learner's variable, and the index of each part (None: missing)."""

    name: str
    variable: str | None
    prompt: int | None
    stub: int | None
    check: int | None
    solution: int | None


@dataclass(frozen=True)
class BetCells:
    """One bet of helpers/data/predictions.json: the index of the cell asking it, of those answering it (its
    answer region: the code cells from the first one whose output answers it, and the markdown that reads them), and
    of the cells further down that tell the answer again (a later section's output, a summary)."""

    key: str
    question: int | None
    answers: tuple[int, ...]
    tells: tuple[int, ...] = ()


def notebooks(folder) -> list[Path]:
    """The lesson's notebooks in ``folder``, in reading order: each core notebook and after it the «Para ir más
    lejos» ones that go deeper into it ("02_residual_stream.ipynb", "02b_96_capas.ipynb", "03_layernorm.ipynb")."""
    return sorted(Path(folder).glob("[0-9][0-9]*_*.ipynb"))


def prefix(path) -> str:
    """A notebook's place in the series, its file name before the first "_": "02", "02b" (an exercise's ORDER[0])."""
    return Path(path).name.split("_", 1)[0]


def folded(text: str, summary: str) -> str:
    """Markdown ``text`` inside a <details> that opens on a click, titled ``summary`` (text already folded stays)."""
    if is_folded(text):
        return text
    return f"<details><summary>{summary}</summary>\n\n{text.strip()}\n\n</details>"


def is_folded(text: str) -> bool:
    """Whether markdown ``text`` is all inside one <details> (what a reader sees before opening it: its summary)."""
    text = text.strip()
    return text.startswith("<details>") and text.endswith("</details>") and text.count("<details>") == 1


def fold_code(cell, title: str = ANSWER_TITLE) -> None:
    """Fold a code cell's source as the claims cells are: Colab's form view shows its ``# @title`` line, JupyterLab
    a collapsed input; the code runs the same. A first line that is a comment becomes the title."""
    meta = cell.setdefault("metadata", {})
    meta["cellView"], meta["jupyter"] = "form", {**meta.get("jupyter", {}), "source_hidden": True}
    lines = source(cell).split("\n")
    if not lines[0].startswith("# @title"):
        if lines[0].startswith("# "):
            lines[0] = f"# @title {lines[0][2:].rstrip('.: ')} (la respuesta: abrila cuando lo hayas intentado)"
        else:
            lines.insert(0, title)
    cell["source"] = "\n".join(lines)


def read(path) -> dict:
    """A notebook file as a dict."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def source(cell) -> str:
    """A cell's source as one string (nbformat stores a list of lines or a string)."""
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def roles(cell) -> dict:
    """What a cell is: its ``metadata["leccion06"]``, {} for a cell that is nothing in particular."""
    value = cell.get("metadata", {}).get(KEY) if isinstance(cell, dict) else None
    return value if isinstance(value, dict) else {}


def kind(nb) -> str | None:
    """"core" or "deep", as the notebook says; None where it says nothing."""
    value = nb.get("metadata", {}).get(KEY)
    return value.get("kind") if isinstance(value, dict) else None


def mark(cell, *, exercise: tuple[str, str] | None = None, bet: tuple[str, str] | None = None,
         claims: bool = False, exercise_answer: bool = False) -> None:
    """Add roles to a cell: ``exercise=(name, part)``, ``bet=(key, "question", "answer" or "tells")``, the flags."""
    meta = cell.setdefault("metadata", {}).setdefault(KEY, {})
    if exercise:
        meta["exercise"] = {"name": exercise[0], "part": exercise[1]}
    if bet:
        meta.setdefault("bets", {})[bet[0]] = bet[1]
    if claims:
        meta["claims"] = True
    if exercise_answer:
        meta["exercise_answer"] = True


def check_call(src: str) -> tuple[str, str] | None:
    """(checker, variable) of a check cell's ``helpers.check.<name>(<variable>)``, else None."""
    m = _CHECK.match(src.strip())
    return (m[1], m[2]) if m else None


def stub_labelled(src: str, label: str) -> str:
    """A stub with ``label`` on its first line: «# Tu turno (2 puntos): …»."""
    return src.replace(_STUB, f"{_STUB} ({label})", 1)


def _part(cell) -> tuple[str, str] | None:
    ex = roles(cell).get("exercise")
    return (ex.get("name"), ex.get("part")) if isinstance(ex, dict) else None


def _bets(cell) -> dict:
    bets = roles(cell).get("bets")
    return bets if isinstance(bets, dict) else {}


def _by_roles(cells) -> list[ExerciseCells]:
    found: dict[str, dict] = {}
    for i, cell in enumerate(cells):
        if (part := _part(cell)) and part[1] in PARTS and isinstance(part[0], str) and part[0]:
            found.setdefault(part[0], {}).setdefault(part[1], i)
    out = []
    for name, parts in found.items():
        call = check_call(source(cells[parts["check"]])) if "check" in parts else None
        out.append(ExerciseCells(name, call[1] if call and call[0] == name else None,
                                 *(parts.get(p) for p in PARTS)))
    return sorted(out, key=lambda ex: min(i for i in (ex.prompt, ex.stub, ex.check, ex.solution) if i is not None))


def _by_text(cells) -> list[ExerciseCells]:
    """The exercises the cells' text shows: each check cell, the stub (the code cell above it) and the cells around
    them; a stub whose next code cell is no check is an exercise without name or check."""
    code = [i for i, c in enumerate(cells) if c.get("cell_type") == "code"]
    out = []
    for k, i in enumerate(code):
        shows = source(cells[i]).startswith(_STUB)
        call = check_call(source(cells[i]))
        nxt = code[k + 1] if k + 1 < len(code) else None
        if shows and (nxt is None or check_call(source(cells[nxt])) is None):
            out.append(ExerciseCells("", None, _if(cells, i - 1, _PROMPT), i, None, None))
        if not call:
            continue
        stub = code[k - 1] if k and source(cells[code[k - 1]]).startswith(_STUB) else None
        out.append(ExerciseCells(call[0], call[1], _if(cells, stub - 1, _PROMPT) if stub is not None else None, stub,
                                 i, _if(cells, i + 1, SOLUTION_OPEN)))
    return out


def _if(cells, i: int, start: str) -> int | None:
    """``i`` if it is a markdown cell starting with ``start``, else None."""
    ok = 0 <= i < len(cells) and cells[i].get("cell_type") == "markdown" and source(cells[i]).startswith(start)
    return i if ok else None


def exercise_cells(nb) -> list[ExerciseCells]:
    """The notebook's «Tu turno» exercises in order, from the cells' roles (from their text where no cell has one)."""
    cells = nb["cells"]
    return _by_roles(cells) if any(_part(c) for c in cells) else _by_text(cells)


def bet_cells(nb) -> dict[str, BetCells]:
    """{key: BetCells} of the bets the notebook's cells ask or answer, in the order they first appear."""
    found: dict[str, dict[str, list]] = {}
    for i, cell in enumerate(nb["cells"]):
        for key, part in _bets(cell).items():
            found.setdefault(key, {}).setdefault(part, []).append(i)
    return {k: BetCells(k, p.get("question", [None])[0], tuple(p.get("answer", ())), tuple(p.get("tells", ())))
            for k, p in found.items()}


def answering(nb) -> dict[int, list[str]]:
    """{cell index: keys of the bets it answers}: a code cell by its output, a markdown one (the paragraph that reads
    that output) by its text; together, each bet's answer region and the cells that tell it again further down."""
    out: dict[int, list[str]] = {}
    for bet in bet_cells(nb).values():
        for i in (*bet.answers, *bet.tells):
            out.setdefault(i, []).append(bet.key)
    return dict(sorted(out.items()))


def claims_cells(nb) -> list[int]:
    """Indices of the claims cells."""
    return [i for i, c in enumerate(nb["cells"]) if roles(c).get("claims") is True]


def exercise_answer_cells(nb) -> list[int]:
    """Indices of the «Ejercicios» answers (and their claims cells): stored without output, left out of a copy."""
    return [i for i, c in enumerate(nb["cells"]) if roles(c).get("exercise_answer") is True]


def _exercise_problems(cells) -> list[str]:
    out = []
    seen = {}
    for i, cell in enumerate(cells):
        if (part := _part(cell)) is None:
            continue
        if part[1] not in PARTS or not isinstance(part[0], str) or not part[0]:
            out.append(f"cell {i}: exercise role {roles(cell)['exercise']} is not {{'name': ..., 'part': {PARTS}}}")
            continue
        if part in seen:
            out.append(f"cell {i}: a second {part[1]} of {part[0]} (the first is cell {seen[part]})")
        seen.setdefault(part, i)
    for ex in _by_roles(cells):
        at = [getattr(ex, p) for p in PARTS]
        out += [f"cell {i}: the {p} of {ex.name} is not a {_TYPE[p]} cell" for p, i in zip(PARTS, at)
                if i is not None and cells[i].get("cell_type") != _TYPE[p]]
        if None in at:
            out.append(f"{ex.name}: no {' nor '.join(p for p, i in zip(PARTS, at) if i is None)} cell")
            continue
        if at != list(range(at[0], at[0] + 4)):
            out.append(f"{ex.name}: prompt, stub, check and solution are not consecutive cells: {at}")
        shows = {"prompt": source(cells[ex.prompt]).startswith(_PROMPT),
                 "stub": source(cells[ex.stub]).startswith(_STUB),
                 "check": ex.variable is not None,
                 "solution": source(cells[ex.solution]).startswith(SOLUTION_OPEN)}
        says = {"prompt": repr(_PROMPT), "stub": repr(_STUB), "check": f"helpers.check.{ex.name}(<variable>)",
                "solution": repr(SOLUTION_OPEN)}
        out += [f"cell {getattr(ex, p)}: the {p} of {ex.name} does not start {says[p]}" for p in PARTS if not shows[p]]
    for ex in _by_text(cells):  # what looks like a «Tu turno» carries its roles
        for p in PARTS:
            i = getattr(ex, p)
            if i is not None and _part(cells[i]) != (ex.name, p):
                out.append(f"cell {i}: reads as the {p} of «Tu turno» {ex.name or '?'} but its role is "
                           f"{roles(cells[i]).get('exercise')}; give it metadata[{KEY!r}]['exercise'] = "
                           f"{{'name': {ex.name!r}, 'part': {p!r}}}")
    return out


def _bet_problems(nb, notebook: str | None) -> list[str]:
    from . import predictions

    cells, known, out = nb["cells"], {b.key: b for b in predictions.bets()}, []
    for i, cell in enumerate(cells):
        if not isinstance(roles(cell).get("bets", {}), dict):
            out.append(f"cell {i}: its bets role is not a {{key: one of {BET_PARTS}}} mapping")
        for key, part in _bets(cell).items():
            if part not in BET_PARTS:
                out.append(f"cell {i}: bet {key!r} part {part!r} is not one of {BET_PARTS}")
    found = bet_cells(nb)
    if notebook is not None:
        mine = [k for k, b in known.items() if b.notebook == notebook]
        out += [f"bet {k!r}: helpers/data/predictions.json puts it here, no cell asks it" for k in mine
                if k not in found]
    for key, bet in found.items():
        if key not in known:
            out.append(f"bet {key!r}: not in helpers/data/predictions.json")
            continue
        if notebook is not None and known[key].notebook != notebook:
            out.append(f"bet {key!r}: helpers/data/predictions.json puts it in {known[key].notebook}")
        asking = [i for i in range(len(cells)) if _bets(cells[i]).get(key) == "question"]
        if len(asking) != 1:
            out.append(f"bet {key!r}: asked by {len(asking)} cells, not one")
            continue
        at, q = bet.question, cells[bet.question]
        if source(q) != f'{_ASK}"{key}")':
            out.append(f"bet {key!r}: cell {at}, its question, is not its ask cell {_ASK}{key!r})")
        first = next((j for j in range(at + 1, len(cells)) if cells[j].get("cell_type") == "code"
                      and not source(cells[j]).startswith(_ASK)), None)
        if not bet.answers or bet.answers[0] != first:
            out.append(f"bet {key!r}: the first cell answering it is the code cell right after the question, {first}")
        out += [f"bet {key!r}: cell {i} answers it but is not below the question" for i in bet.answers if i <= at]
        gaps = [j for a, b in zip(bet.answers, bet.answers[1:]) for j in range(a + 1, b)
                if not roles(cells[j]).get("claims")]
        if gaps:
            out.append(f"bet {key!r}: its answer region skips cells {gaps} (a region is every cell from the first "
                       "answering one to its end)")
        out += [f"bet {key!r}: cell {i} answers it but holds a heading (a region ends before the next heading, and "
                "a heading is never folded)" for i in (*bet.answers, *bet.tells)
                if cells[i].get("cell_type") == "markdown" and re.search(r"^#{1,6} ", source(cells[i]), flags=re.M)]
        out += [f"bet {key!r}: cell {i} tells it again but is not below its answer region" for i in bet.tells
                if bet.answers and i <= bet.answers[-1]]
    return out


def problems(nb, notebook: str | None = None) -> list[str]:
    """What is wrong with the roles of a lesson notebook (``notebook``: its file name, for the bets' check): a part
    missing or out of place, text that disagrees with its role, a bet predictions.json lacks, an answer above its
    question, a role on the wrong kind of cell."""
    cells = nb["cells"]
    out = [] if kind(nb) in KINDS else [f"metadata[{KEY!r}]['kind'] is {kind(nb)!r}, not one of {KINDS}"]
    for i, cell in enumerate(cells):
        meta = cell.get("metadata", {}).get(KEY)
        if meta is None:
            continue
        if not isinstance(meta, dict) or set(meta) - _ROLE_KEYS:
            out.append(f"cell {i}: metadata[{KEY!r}] {meta!r} has keys other than {sorted(_ROLE_KEYS)}")
            continue
        for flag in ("claims", "exercise_answer"):
            if flag in meta and (meta[flag] is not True or cell.get("cell_type") != "code"):
                out.append(f"cell {i}: {flag!r} is true on code cells only, and nothing else")
    return out + _exercise_problems(cells) + _bet_problems(nb, notebook)
