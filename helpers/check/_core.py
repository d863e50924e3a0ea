"""The machinery every checker shares: the Verdict, calling learner code safely, spotting a stub,
comparing results, and naming the first difference. The exercises themselves live in ``exercises.py``."""

from __future__ import annotations

import ast
import inspect
import math
import re
import sys
import textwrap
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import torch

STATUSES = ("not_attempted", "correct", "wrong")
_HEAD = {"not_attempted": "✏️  {name}: sin intentar todavía.",
         "correct": "✅ {name}: ¡correcto!",
         "wrong": "❌ {name}: todavía no."}
_WIDTH = 100
_HELPERS = str(Path(__file__).resolve().parent.parent)
_LIBRARY = tuple({str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})


@dataclass(frozen=True)
class Verdict:
    """What a checker says: a status and a Spanish message; its repr is the block a learner reads."""

    exercise: str
    status: str
    message: str

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status debe ser uno de {STATUSES}; recibí {self.status!r}")

    def __repr__(self) -> str:
        head = _HEAD[self.status].format(name=self.exercise)
        return head + "\n" + "\n".join(_wrap(p) for p in self.message.strip().split("\n"))

    __str__ = __repr__


class Text(str):
    """A hint or a solution: shown as plain text (no quotes) when it is the last value of a cell."""

    def __repr__(self) -> str:
        return str(self)


class Solution(Text):
    """The reference code of an exercise; ``.code`` is exactly what to paste in the stub cell."""

    code: str

    def __new__(cls, name: str, code: str):
        self = super().__new__(cls, f"Solución de {name} (la que usa el checker para comparar):\n\n{code}")
        self.code = code
        return self


def _wrap(paragraph: str) -> str:
    paragraph = re.sub(r"(\d) (?=\d{3}\b)", "\\1\u00a0", paragraph)  # 124 439 808 never breaks across lines
    if paragraph.startswith("    ") or len(paragraph) <= _WIDTH:  # code and short lines as they are
        return paragraph
    return textwrap.fill(paragraph, _WIDTH, subsequent_indent="  " if paragraph.startswith("- ") else "")


# ---------------------------------------------------------------------------------------------- learner code

class NotAttempted(Exception):
    """The learner's code is still the stub."""


@dataclass
class Raised:
    """An exception from learner code, with where in their cell it happened."""

    error: BaseException
    where: str = ""

    def describe(self) -> str:
        kind = type(self.error).__name__
        text = str(self.error).strip().split("\n")[0][:300]
        return f"{kind}: {text}" + (f" ({self.where})" if self.where else "")


def _learner_frame(tb) -> str:
    """'en la línea N de tu celda: `code`' for the last frame outside helpers, torch and the standard library."""
    frames = [f for f in traceback.extract_tb(tb)
              if not str(Path(f.filename).resolve()).startswith(_HELPERS)
              and not str(Path(f.filename).resolve()).startswith(_LIBRARY)]
    if not frames:
        return ""
    f = frames[-1]
    line = (f.line or "").strip()
    return f"en la línea {f.lineno} de tu celda" + (f": `{line}`" if line else "")


def call(fn, *args):
    """Run learner code: its value, or a Raised. NotImplementedError means a stub. Warnings are silenced."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args)
    except NotImplementedError as e:
        raise NotAttempted() from e
    except Exception as e:  # noqa: BLE001 - anything the learner's code raises is reported, never propagated
        return Raised(e, _learner_frame(e.__traceback__))


def is_stub(fn) -> bool:
    """True when ``fn``'s body is only a docstring, ``...``, ``pass``, ``return``/``return None`` or
    ``raise NotImplementedError``: what the notebook's stub cell holds."""
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    node = tree.body[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for stmt in node.body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and (
                stmt.value.value is Ellipsis or isinstance(stmt.value.value, str)):
            continue
        if isinstance(stmt, ast.Return) and (stmt.value is None or (
                isinstance(stmt.value, ast.Constant) and stmt.value.value is None)):
            continue
        if isinstance(stmt, ast.Raise) and "NotImplementedError" in ast.unparse(stmt):
            continue
        return False
    return True


# ------------------------------------------------------------------------------------------------- showing

def show(value, limit: int = 8) -> str:
    """A short, rounded rendering of a tensor, number or list, for messages."""
    if isinstance(value, Raised):
        return f"un error ({value.describe()})"
    if value is None:
        return "None"
    if isinstance(value, torch.Tensor):
        v = value.detach()
        if v.dtype == torch.bool:
            return _show_list(v.int().tolist(), limit, lambda b: str(b)) + " (bool)"
        if not v.is_floating_point():
            return _show_list(v.tolist(), limit, str)
        return _show_list(v.double().tolist(), limit, _num)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return _num(value)
    if isinstance(value, (list, tuple)):
        return _show_list(list(value), limit, lambda x: show(x, limit))
    return f"{type(value).__name__}"


def _num(x) -> str:
    if isinstance(x, int) and not isinstance(x, bool):
        return f"{x:,}".replace(",", " ")
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
        return f"{x:.3e}"
    return f"{x:.4f}".rstrip("0").rstrip(".") if "." in f"{x:.4f}" else f"{x}"


def _show_list(items, limit, fmt) -> str:
    if items and isinstance(items[0], list):
        rows = [_show_list(r, limit, fmt) for r in items[:limit]]
        more = ", …" if len(items) > limit else ""
        return "[" + ", ".join(rows) + more + "]"
    shown = ", ".join(fmt(x) for x in items[:limit])
    return "[" + shown + (", …" if len(items) > limit else "") + "]"


# ----------------------------------------------------------------------------------------------- comparing

def tensor_difference(expected: torch.Tensor, got, rtol: float = 1e-4, atol: float = 1e-5) -> str | None:
    """None when ``got`` equals ``expected`` (same shape, close values, nan where nan); else what differs."""
    if not isinstance(got, torch.Tensor):
        return f"devolvió {type(got).__name__}, no un tensor"
    if tuple(got.shape) != tuple(expected.shape):
        return f"la salida tiene forma {tuple(got.shape)} y tenía que tener {tuple(expected.shape)}"
    e, g = expected.detach().double(), got.detach().double()
    if torch.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
        return None
    nan_e, nan_g = torch.isnan(e), torch.isnan(g)
    if (nan_g & ~nan_e).any():
        return "tu salida tiene nan donde no tendría que haber"
    if (nan_e & ~nan_g).any():
        return "la salida correcta tiene nan ahí y la tuya no"
    diff = (g - e).abs().nan_to_num(0.0)
    where = tuple(int(i) for i in torch.unravel_index(diff.argmax(), diff.shape)) if diff.dim() else ()
    at = (f", en la posición {where[0]}" if len(where) == 1 else f", en la posición {where}" if where else "")
    return f"la mayor diferencia es {_num(diff.max().item())}{at}"


def number_difference(expected, got, rel: float = 1e-9) -> str | None:
    """None when ``got`` is the number ``expected`` (a 0-d tensor counts); else what differs."""
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        got = got.item()
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return f"devolvió {type(got).__name__}, no un número"
    if expected is None:
        return "tenía que dar None"
    if math.isclose(got, expected, rel_tol=rel, abs_tol=1e-12):
        return None
    return f"la diferencia es {_num(got - expected)}"


@dataclass
class Probe:
    """One input the learner's code, the reference and every gallery entry are run on."""

    name: str           # «token constante»
    args: tuple
    shown: str = ""     # how to show the input in a message; built from args when empty
    kwargs: dict = field(default_factory=dict)

    def fresh_args(self) -> tuple:
        return tuple(a.clone() if isinstance(a, torch.Tensor) else list(a) if isinstance(a, list) else a
                     for a in self.args)

    def describe(self) -> str:
        return f"«{self.name}»" + (f" ({self.shown})" if self.shown else "")


@dataclass
class Entry:
    """A known wrong version: the code a learner writes, and the sentence that names the mistake."""

    fn: object
    message: str


def first_difference(probe: Probe, expected, got, difference: str) -> str:
    """'Con la entrada «…» esperaba … y tu código dio …: …', showing one row when the tensors are big."""
    where = ""
    if (isinstance(expected, torch.Tensor) and isinstance(got, torch.Tensor) and expected.shape == got.shape
            and expected.dim() >= 2 and expected.numel() > 8 and expected.is_floating_point()):
        diff = (got.detach().double() - expected.detach().double()).abs().nan_to_num(float("inf"))
        row = tuple(int(i) for i in torch.unravel_index(diff.argmax(), diff.shape))[:-1]
        expected, got = expected[row], got[row]
        where = f", en la fila {row if len(row) > 1 else row[0]},"
    return (f"Con la entrada {probe.describe()}{where} esperaba {show(expected)} y tu código dio {show(got)}: "
            f"{difference}.")


def diagnose(name: str, learner, reference, gallery: list[Entry], probes: list[Probe], differ,
             hint_line: str, runner=None) -> Verdict:
    """Run the learner's code, the reference and each gallery entry on every probe; name what matches.

    ``differ(expected, got)`` gives None when equal, else a sentence. ``runner(fn, probe)`` calls a
    candidate on a probe (default: ``fn(*probe.fresh_args())``)."""
    runner = runner or (lambda fn, p: call(fn, *p.fresh_args()))
    try:
        got = [runner(learner, p) for p in probes]
    except NotAttempted:
        return not_attempted(name)
    if all(g is None for g in got):
        if is_stub(learner):
            return not_attempted(name)
        return Verdict(name, "wrong", "Tu función no devuelve nada (da None): ¿te falta el `return`?\n"
                                      + hint_line)
    expected = [runner(reference, p) for p in probes]

    def same(a, b) -> bool:  # two candidates' results on one probe: equal, or both raised the same error
        if isinstance(a, Raised) or isinstance(b, Raised):
            return isinstance(a, Raised) and isinstance(b, Raised) and type(a.error) is type(b.error)
        return differ(a, b) is None

    raised = next(((p, g) for p, g in zip(probes, got) if isinstance(g, Raised)), None)
    if raised:
        evidence = f"Con la entrada {raised[0].describe()} tu código falla: {raised[1].describe()}."
    else:
        diffs = [differ(e, g) for e, g in zip(expected, got)]
        if all(d is None for d in diffs):
            return Verdict(name, "correct", "Da lo mismo que la referencia en todas las entradas de prueba, "
                                            "incluidas las incómodas (" + ", ".join(p.name for p in probes) + ").")
        i = next(i for i, d in enumerate(diffs) if d is not None)
        evidence = first_difference(probes[i], expected[i], got[i], diffs[i])
    for entry in gallery:
        try:
            outs = [runner(entry.fn, p) for p in probes]
        except NotAttempted:
            continue
        if all(same(o, g) for o, g in zip(outs, got)):
            return Verdict(name, "wrong", f"{entry.message}\n{evidence}\n{hint_line}")
    if raised:
        return Verdict(name, "wrong", f"{evidence}\n{hint_line}")
    return Verdict(name, "wrong", f"No reconozco el error como uno de los típicos, pero acá está la primera "
                                  f"diferencia. {evidence}\n{hint_line}")


def not_attempted(name: str) -> Verdict:
    base = name.split(" ")[0]
    return Verdict(name, "not_attempted", f"Completá la celda de arriba (donde dice `...`) y volvé a correr esta. "
                                          f"Si te trabás: helpers.check.{base}.hint(1).")


def wrong_input(name: str, expected: str, got) -> Verdict:
    """A checker called with the wrong kind of thing: say what it wants."""
    kind = "None" if got is None else f"{type(got).__name__}"
    return Verdict(name, "wrong", f"helpers.check.{name} espera {expected}; recibió {kind}.")
