"""What every checker shares: the Verdict a learner reads; running learner code safely (nothing it raises escapes,
a time limit, the random generators and the caller's objects untouched); comparing results and naming the first
difference; and ``Exercise``, the object behind each ``helpers.check.<name>``, which carries all of its exercise, the
teacher's text included (helpers.grading's class report reads it there). The exercises themselves are one module
each in ``exercises/``; no code here or there branches on the wording of a message.

The toolkit an exercise module uses is ``__all__`` below, and nothing else (``_``-names are this module's own):

- the exercise: ``Exercise`` (its ``correct``, ``wrong``, ``wrong_input``, ``judge``, ``judge_function`` build the
  Verdict; ``section=`` is the notebook heading of its «Tu turno», ``problems=`` says what each key its ``assess``
  gives beyond the gallery means), ``Gallery`` of known ``Mistake``s (``@mistakes.add(key, message, label=…,
  question=…)``: what the learner reads, then what the class report shows a teacher, with ``section=…`` where another
  heading teaches the point), ``Probe`` (one input), ``NotAttempted`` (raise it for a stub);
- learner code: ``run_learner`` (a value or a ``Raised``), ``build_fresh`` (a seeded instance), ``class_answer``
  (the opening of a class exercise), ``is_stub``, ``is_function``, ``unregistered``, ``seed_cpu``,
  ``seeded_generator``;
- comparing: ``diagnose`` (learner, reference and gallery on every probe, giving a ``Finding``),
  ``tensor_difference``, ``tensor_problem``, ``number_difference``, ``Difference``, ``same_result``, ``judge_count``,
  ``explain_count``;
- wording: ``show_evidence``, ``kind_of``, ``render``, ``show_number``.
"""

from __future__ import annotations

import ast
import copy
import ctypes
import html
import inspect
import itertools
import math
import os
import random
import re
import signal
import sys
import textwrap
import threading
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import torch
from torch import nn

from ..fmt import thousands

__all__ = ["HEADLINES", "STATUSES", "TIME_LIMIT_S", "Difference", "Exercise", "Finding", "Gallery", "Mistake",
           "NoCopy", "NotAttempted", "Probe", "Raised", "TooSlow", "Verdict", "as_number", "build_fresh",
           "class_answer", "tensor_problem", "diagnose", "explain_count", "is_function", "is_stub", "judge_count",
           "kind_of", "render", "render_pair", "run_learner", "run_plain", "same_result", "seed_cpu",
           "seeded_generator", "show_evidence", "show_number", "tensor_difference", "number_difference", "unregistered",
           "GRADED_ENV", "graded"]

STATUSES = ("not_attempted", "correct", "wrong")
HEADLINES = {"not_attempted": "✏️  {name}: sin intentar todavía.",
         "correct": "✅ {name}: ¡correcto!",
         "wrong": "❌ {name}: todavía no."}
_COLOR = {"not_attempted": "#9a6700", "correct": "#1a7f37", "wrong": "#cf222e"}
_WIDTH = 100
TIME_LIMIT_S = 5.0  # one call of learner code longer than this is stopped (where the platform allows: _time_limit)
_HELPERS = str(Path(__file__).resolve().parent.parent)
_LIBRARY = tuple({str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})


# ------------------------------------------------------------------------------------------------ the verdict

@dataclass(frozen=True)
class Verdict:
    """What a checker says: a status and a Spanish message; its repr is the block a learner reads.

    ``mistake`` names what was found as an identifier (a gallery key such as ``"unbiased_variance"``, or a
    problem such as ``"hard_coded_size"``, ``"timeout"``, ``"unknown"``): tests and tools read it, never the text.
    """

    exercise: str
    status: str
    message: str
    mistake: str | None = None

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status debe ser uno de {STATUSES}; recibí {self.status!r}")

    def __repr__(self) -> str:
        head = HEADLINES[self.status].format(name=self.exercise)
        return head + "\n" + "\n".join(_wrap(p) for p in self.message.strip().split("\n"))

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """The same verdict as a framed block (Jupyter, Colab); deterministic, so nbval can compare it."""
        head = html.escape(HEADLINES[self.status].format(name=self.exercise))
        body, code = [], []
        for line in self.message.strip().split("\n") + [""]:
            if line.startswith("    "):
                code.append(html.escape(line[4:]))
                continue
            if code:
                body.append('<pre style="margin:0.3em 0 0.3em 1em">' + "\n".join(code) + "</pre>")
                code = []
            if line:
                body.append("<div>" + re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(line)) + "</div>")
        return (f'<div style="border-left:4px solid {_COLOR[self.status]};padding:0.2em 0.8em;margin:0.2em 0">'
                f'<div style="font-weight:bold">{head}</div>{"".join(body)}</div>')


class _Text(str):
    """A hint or a solution: shown as plain text (no quotes) when it is the last value of a cell."""

    def __repr__(self) -> str:
        return str(self)


class _Solution(_Text):
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
    return textwrap.fill(paragraph, _WIDTH, subsequent_indent="  " if paragraph.startswith("- ") else "",
                         break_on_hyphens=False)


# ------------------------------------------------------------------------------------------------ learner code

class NotAttempted(Exception):
    """The learner's code is still the stub."""


class TooSlow(Exception):
    """Learner code ran past the time limit; ``where`` is the input it was running on."""

    def __init__(self, seconds: float, where: str = ""):
        super().__init__(seconds)
        self.seconds, self.where = seconds, where


class _Alarm(BaseException):
    """Raised inside learner code when its time is up: a BaseException, so its own `except Exception` can't eat it."""


@dataclass
class Raised:
    """An exception from learner code, with where in their cell it happened."""

    error: BaseException
    where: str = ""

    def describe(self) -> str:
        kind = type(self.error).__name__
        text = str(self.error).strip().split("\n")[0]
        text = text if len(text) <= 200 else text[:200] + "…"
        return f"{kind}: {text}" + (f" ({self.where})" if self.where else "")

    def dtype_mixup(self) -> bool:
        """True when torch refused to mix two dtypes (the probes are float32, like the notebooks)."""
        text = str(self.error)
        return isinstance(self.error, RuntimeError) and bool(re.search(r"dtype|scalar type", text, re.I)
                                                             and re.search(r"float|double|half", text, re.I))


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


@contextmanager
def _time_limit(seconds: float):
    """Raise _Alarm in the running code after ``seconds``. In the main thread with no timer of anyone else's set
    (Jupyter and Colab run cells there), SIGALRM, which also cuts a sleep short; elsewhere (another thread, a
    signal.alarm already set, Windows) a watchdog thread raises it in this one, leaving the other timer alone."""
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    if not usable:
        with _watchdog(seconds):
            yield
        return

    def ring(signum, frame):
        raise _Alarm()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def _watchdog(seconds: float):
    """Raise _Alarm in this thread after ``seconds`` from a timer thread (at the next Python line it runs)."""
    target, lock, state = ctypes.c_ulong(threading.get_ident()), threading.Lock(), {"done": False, "fired": False}

    def ring():
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(_Alarm))

    timer = threading.Timer(seconds, ring)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
        if state["fired"]:  # not raised yet (the code ended first): it must not go off later, elsewhere
            ctypes.pythonapi.PyThreadState_SetAsyncExc(target, None)


def run_learner(fn, *args, **kwargs):
    """Run learner code: its value, or a Raised. NotImplementedError means a stub; too slow raises TooSlow."""
    try:
        with warnings.catch_warnings(), _time_limit(TIME_LIMIT_S):
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs)
    except _Alarm:
        raise TooSlow(TIME_LIMIT_S) from None
    except NotImplementedError as e:
        raise NotAttempted() from e
    except Exception as e:  # anything the learner's code raises is reported, never propagated
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


def is_function(answer) -> bool:
    return callable(answer) and not isinstance(answer, (type, nn.Module))


def class_answer(ex: Exercise, answer):
    """The opening of a class exercise: ``(cls, instance)`` (instance None when given the class), or the Verdict
    for an answer that is not an nn.Module class; raises NotAttempted while the class's forward is the stub."""
    if isinstance(answer, type) and issubclass(answer, nn.Module):
        cls, instance = answer, None
    elif isinstance(answer, type):
        return ex.wrong(f"Tu clase {answer.__name__} no hereda de nn.Module: empezala con class {answer.__name__}"
                        "(nn.Module): y llamá a super().__init__() en su __init__.", "not_a_module")
    elif isinstance(answer, nn.Module):
        cls, instance = type(answer), answer
    else:
        return ex.wrong_input(answer)
    if is_stub(cls.forward):
        raise NotAttempted()
    return cls, instance


# ------------------------------------------------------------------------------------------ the random state

@contextmanager
def _globals_untouched():
    """Every global state a check or an answer may touch is as it was on exit: torch's generators (CPU; CUDA once
    initialised; MPS where present), NumPy's and Python's global generators, and the warnings filters.

    Inside, the checker seeds only the CPU generator (``seed_cpu``), never ``torch.manual_seed``, which also
    reseeds CUDA and MPS."""
    cpu = torch.get_rng_state()
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() and torch.cuda.is_initialized() else None
    mps = None
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        mps = torch.mps.get_rng_state()
    numpy = sys.modules.get("numpy")  # imported by torch where installed; never imported here for its own sake
    numpy_state = numpy.random.get_state() if numpy is not None else None
    python_state = random.getstate()
    try:
        with warnings.catch_warnings():  # puts back the filters list, whatever adds to it
            yield
    finally:
        torch.set_rng_state(cpu)
        if cuda is not None:
            torch.cuda.set_rng_state_all(cuda)
        if mps is not None:
            torch.mps.set_rng_state(mps)
        if numpy_state is not None:
            numpy.random.set_state(numpy_state)
        random.setstate(python_state)


def seed_cpu(seed: int) -> None:
    """Seed the CPU generator only (module initialisation and dropout on CPU draw from it)."""
    torch.default_generator.manual_seed(seed)


def seeded_generator(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def build_fresh(cls, *args, **kwargs):
    """A fresh instance of the learner's class, with its initial weights drawn from a fixed seed (or a Raised)."""
    seed_cpu(0)
    return run_learner(cls, *args, **kwargs)


def unregistered(module: nn.Module) -> list[str]:
    """Names of attributes (of the module or its submodules) that keep nn.Modules in a plain list, tuple or dict."""
    found = []
    for prefix, sub in module.named_modules():
        for attr, value in vars(sub).items():
            items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
            if not attr.startswith("_") and any(isinstance(v, nn.Module) for v in items):
                found.append(f"self.{prefix + '.' if prefix else ''}{attr}")
    return found


# ------------------------------------------------------------------------------------------------- rendering

def kind_of(value) -> str:
    """What a value is, in Spanish, for 'devolvió …' sentences."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"un booleano ({value})"
    if isinstance(value, torch.Tensor):
        return f"un tensor de forma {tuple(value.shape)}"
    if isinstance(value, list):
        return f"una lista de {len(value)} elementos"
    if isinstance(value, tuple):
        return f"una tupla de {len(value)} elementos"
    if isinstance(value, str):
        return "un texto (str)"
    if isinstance(value, dict):
        return "un diccionario"
    if isinstance(value, type):
        return f"una clase ({value.__name__})"
    if isinstance(value, nn.Module):
        return f"un módulo ya construido ({type(value).__name__})"
    if callable(value):
        return "una función"
    return type(value).__name__


def show_number(x, digits: int = 4) -> str:
    if isinstance(x, int) and not isinstance(x, bool):
        return thousands(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
        return f"{x:.{digits - 1}e}"
    text = f"{x:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def render(value, digits: int = 4, limit: int = 8) -> str:
    """A short, rounded rendering of a tensor, number or list, for messages (at most ``limit`` items a row)."""
    if isinstance(value, Raised):
        return f"un error ({value.describe()})"
    if value is None:
        return "None"
    if isinstance(value, torch.Tensor):
        v = value.detach()
        if v.dtype == torch.bool:
            return _render_list(v.int().tolist(), limit, str) + " (bool)"
        if v.is_complex():
            return f"un tensor complejo de forma {tuple(v.shape)}"
        if not v.is_floating_point():
            return _render_list(v.tolist(), limit, str)
        return _render_list(v.double().tolist(), limit, lambda x: show_number(x, digits))
    number = as_number(value)
    if number is not None:
        return show_number(number, digits)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, tuple)):
        return _render_list(list(value), limit, lambda x: render(x, digits, limit))
    return kind_of(value)


def _render_list(items, limit, show) -> str:
    if not isinstance(items, list):
        return show(items)
    if items and isinstance(items[0], list):
        rows = [_render_list(r, limit, show) for r in items[:4]]
        return "[" + ", ".join(rows) + (", …" if len(items) > 4 else "") + "]"
    shown = ", ".join(show(x) for x in items[:limit])
    return "[" + shown + (", …" if len(items) > limit else "") + "]"


def render_pair(expected, got) -> tuple[str, str]:
    """Both rendered with the fewest digits (4 to 9) that make them differ visibly."""
    for digits in range(4, 10):
        e, g = render(expected, digits), render(got, digits)
        if e != g:
            return e, g
    return e, g


# ------------------------------------------------------------------------------------------------- comparing

@dataclass(frozen=True)
class Difference:
    """Why a result is not the expected one. ``named`` differences (a wrong type, shape, kind of mask) explain
    themselves; the others ("value") need the expected and the obtained value side by side."""

    text: str
    kind: str = "value"

    @property
    def named(self) -> bool:
        return self.kind != "value"


def tensor_problem(got) -> Difference | None:
    """Why ``got`` is no tensor to compare: not a tensor, or one with no numbers in it (``meta`` device); else None."""
    if not isinstance(got, torch.Tensor):
        return Difference(f"devolvió {kind_of(got)}, no un tensor", "type")
    if got.is_meta:
        return Difference("devolvió un tensor en el dispositivo meta: tiene forma pero no tiene números. Crealo en la "
                          "CPU (sin device='meta' y fuera de un with torch.device('meta'))", "meta_tensor")
    return None


def as_number(x):
    """``x`` as a Python int or float when it is a real number (Python, numpy, a 0-d tensor or array); else None.
    Booleans and complex numbers are not."""
    if isinstance(x, torch.Tensor):
        if x.dim() != 0 or x.dtype == torch.bool or x.is_complex() or x.is_meta:
            return None
        return x.item()
    if type(x).__module__ == "numpy" and getattr(x, "shape", None) == ():
        if x.dtype.kind not in "iuf":
            return None
        return x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float)) and not _is_real(x):
        return None
    return x if isinstance(x, (int, float)) else float(x)


def _is_real(x) -> bool:
    import numbers
    return isinstance(x, numbers.Real)


def tensor_difference(expected: torch.Tensor, got, rtol: float = 1e-4, atol: float = 1e-5) -> Difference | None:
    """None when ``got`` equals ``expected`` (same shape, close values, nan where nan); else what differs."""
    if isinstance(got, (list, tuple)) and got and all(isinstance(g, torch.Tensor) for g in got):
        return Difference(f"devolvió {kind_of(got)} (tensores), no un tensor", "type")
    problem = tensor_problem(got)
    if problem:
        return problem
    got = got.cpu()  # a GPU result is compared where the reference is
    if tuple(got.shape) != tuple(expected.shape):
        return Difference(f"da una salida de forma {tuple(got.shape)} y tenía que ser {tuple(expected.shape)}",
                           "shape")
    if not (got.is_floating_point() or got.dtype == torch.bool) or got.is_complex():
        return Difference(f"da una salida de tipo {got.dtype}; tenía que ser float, como la entrada", "dtype")
    e, g = expected.detach().double(), got.detach().double()
    if torch.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
        return None
    nan_e, nan_g = torch.isnan(e), torch.isnan(g)
    if (nan_g & ~nan_e).any():
        return Difference("tu salida tiene nan donde no tendría que haber")
    if (nan_e & ~nan_g).any():
        return Difference("la salida correcta tiene nan ahí y la tuya no")
    diff = (g - e).abs().nan_to_num(0.0)
    largest = f"la mayor diferencia es {show_number(diff.max().item(), 2)}"
    if got.is_floating_point() and expected.is_floating_point() and got.dtype != expected.dtype:
        return Difference(f"da una salida en {str(got.dtype).removeprefix('torch.')} y la referencia en "
                          f"{str(expected.dtype).removeprefix('torch.')}: con menos bits se pierden decimales "
                          f"({largest}). Dejá las cuentas en el tipo de la entrada", "dtype")
    return Difference(largest)


def number_difference(expected, got, rel: float = 1e-5, integral: bool = False) -> Difference | None:
    """None when ``got`` is the number ``expected`` (any real: Python, numpy, 0-d tensor) within ``rel``, a
    tolerance float32 arithmetic meets; ``integral``: a count, which must be a whole number and exact."""
    number = as_number(got)
    if number is None:
        if isinstance(got, torch.Tensor) and got.numel() == 1 and got.dtype != torch.bool:
            return Difference(f"devolvió {kind_of(got)}, no un número: sacale el número con .item()", "type")
        return Difference(f"devolvió {kind_of(got)}, no un número", "type")
    if expected is None:
        return Difference(f"dio {show_number(number)} y tenía que dar None", "type")
    if isinstance(number, float) and math.isnan(number):
        return Difference("dio nan")
    if integral:
        if isinstance(number, float) and not number.is_integer():
            return Difference(f"dio {show_number(number, 6)}, que no es un número entero: una cantidad de "
                              "parámetros lo es", "non_integral")
        if int(number) == expected:
            return None
        return Difference(f"la diferencia es {show_number(int(number) - expected)}")
    if math.isclose(number, expected, rel_tol=rel, abs_tol=1e-12):
        return None
    return Difference(f"la diferencia es {show_number(number - expected, 3)}")


def _family(t: torch.Tensor) -> str:
    return ("bool" if t.dtype == torch.bool else "complex" if t.is_complex() else "float" if t.is_floating_point()
            else "integer")


def same_result(a, b, rtol: float = 1e-4, atol: float = 1e-5) -> bool:
    """Two candidates' results on one input are the same: equal values, or both raised the same kind of error."""
    if isinstance(a, Raised) or isinstance(b, Raised):
        return isinstance(a, Raised) and isinstance(b, Raised) and type(a.error) is type(b.error)
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        na, nb = as_number(a), as_number(b)
        if na is not None and nb is not None:
            return math.isclose(na, nb, rel_tol=1e-6, abs_tol=1e-12)
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape:
            return False
        if a.is_meta or b.is_meta:
            return a.is_meta and b.is_meta and a.dtype == b.dtype
        a, b = a.cpu(), b.cpu()
        if _family(a) != _family(b):
            return False
        if _family(a) != "float":
            return torch.equal(a, b)
        return torch.allclose(a.detach().double(), b.detach().double(), rtol=rtol, atol=atol, equal_nan=True)
    na, nb = as_number(a), as_number(b)
    if na is not None and nb is not None:
        return na == nb or math.isclose(na, nb, rel_tol=1e-6, abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_result(x, y, rtol, atol) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except Exception:  # a probe that fails is no answer
        return False


# ------------------------------------------------------------------------------------------------ probing

@dataclass
class Probe:
    """One input the learner's code, the reference and every known mistake are run on."""

    name: str           # «un token constante»
    args: tuple
    shown: str = ""     # how to show the input in a message
    extra: dict = field(default_factory=dict)  # anything the exercise's runner needs (a module, a mode)

    def fresh_args(self) -> tuple:
        """A deep copy of the arguments: a candidate that changes its inputs changes nothing for the next one."""
        return copy.deepcopy(self.args)

    def describe(self) -> str:
        return f"«{self.name}»" + (f" ({self.shown})" if self.shown else "")


def _changed(original, passed) -> bool:
    """True when learner code changed an argument it was given (tensors in place, lists, modules' weights)."""
    if isinstance(original, torch.Tensor):
        return not (isinstance(passed, torch.Tensor) and original.shape == passed.shape
                    and torch.equal(original.nan_to_num(), passed.nan_to_num()))
    if isinstance(original, nn.Module):
        mine, theirs = original.state_dict(), passed.state_dict()
        return mine.keys() != theirs.keys() or any(_changed(mine[k], theirs[k]) for k in mine)
    if isinstance(original, (list, tuple)):
        return len(original) != len(passed) or any(_changed(a, b) for a, b in zip(original, passed))
    return False


def run_plain(fn, probe: Probe):
    return run_learner(fn, *probe.fresh_args())


@dataclass(frozen=True)
class Mistake:
    """A known wrong version: the code a learner writes, the sentence that names the mistake to them, and what a
    teacher's class report says of it: a short ``label``, the ``question`` to ask in class, and the notebook
    ``section`` that teaches the point ("" until ``Exercise`` gives it its own)."""

    key: str
    fn: object
    message: str
    label: str = ""
    question: str = ""
    section: str = ""

    def __post_init__(self):
        missing = [what for what, given in (('label="…" (a short name for it, at most 40 characters)', self.label),
                                            ('question="¿…?" (what to ask the class about it)', self.question))
                   if not (isinstance(given, str) and given.strip())]
        if missing:
            raise TypeError(f"mistake {self.key!r} lacks what the teacher's class report says of it: add "
                            f"{' and '.join(missing)} to @mistakes.add(\"{self.key}\", …), and section=\"…\" where a "
                            "heading other than the exercise's own teaches the point")


class Gallery(list):
    """The known mistakes of one exercise, in the order they are tried."""

    def add(self, key: str, message: str, *, label: str = "", question: str = "", section: str = ""):
        """Register the decorated function (or class) as the known mistake ``key``: ``message`` is what the learner
        reads; ``label``, ``question`` and ``section`` (default: the exercise's) what the teacher reads."""
        if any(m.key == key for m in self):
            raise ValueError(f"mistake {key!r} registered twice")

        def register(fn):
            self.append(Mistake(key, fn, message, label, question, section))
            return fn
        return register


@dataclass
class Finding:
    """What running a candidate on the probes found. ``kind``: correct, no_return, mutated, mistake (a gallery entry
    matched), raised, named (a self-explaining difference: type, shape…), unknown (a difference nobody named)."""

    kind: str
    evidence: str = ""
    mistake: Mistake | None = None
    key: str | None = None       # for kind "named": the difference's kind
    got: list = field(default_factory=list)
    expected: list = field(default_factory=list)
    raised: Raised | None = None


def show_evidence(probe: Probe, expected, got, difference: Difference) -> str:
    """'Con la entrada «…» esperaba … y tu código dio …: …', showing the row with the largest difference."""
    if difference.named:  # its text is what "tu código …" did
        return f"Con la entrada {probe.describe()}, tu código {difference.text}."
    where = ""
    if (isinstance(expected, torch.Tensor) and isinstance(got, torch.Tensor) and expected.shape == got.shape
            and expected.dim() >= 2 and expected.numel() > 8 and expected.is_floating_point()
            and got.is_floating_point()):
        diff = (got.detach().double() - expected.detach().double()).abs().nan_to_num(float("inf"))
        row = tuple(int(i) for i in torch.unravel_index(diff.argmax(), diff.shape))[:-1]
        expected, got = expected[row], got[row]
        where = f", en la fila {row if len(row) > 1 else row[0]},"
    e, g = render_pair(expected, got)
    return f"Con la entrada {probe.describe()}{where} esperaba {e} y tu código dio {g}: {difference.text}."


def diagnose(learner, reference, gallery, probes: list[Probe], differ, runner=run_plain, same=same_result) -> Finding:
    """Run the learner's code, the reference and each known mistake on every probe; say what matches.

    ``differ(expected, got)`` gives None when equal, else a Difference; ``runner(fn, probe)`` calls a candidate."""
    got = []
    for p in probes:
        try:
            got.append(runner(learner, p))
        except TooSlow as e:
            e.where = e.where or p.describe()
            raise
    if all(g is None for g in got):
        if is_stub(learner):
            raise NotAttempted()
        return Finding("no_return", got=got)
    expected = [runner(reference, p) for p in probes]
    raised = next(((p, g) for p, g in zip(probes, got) if isinstance(g, Raised)), None)
    if raised:
        evidence = f"Con la entrada {raised[0].describe()} tu código falla: {raised[1].describe()}."
        first = None
    else:
        diffs = [differ(e, g) for e, g in zip(expected, got)]
        if all(d is None for d in diffs):
            for p in probes:  # right results: did it change what it was given?
                args = p.fresh_args()
                runner(learner, NoCopy(p.name, args, p.shown, p.extra))
                if any(_changed(a, b) for a, b in zip(p.args, args)):
                    return Finding("mutated", evidence=p.describe(), got=got, expected=expected)
            return Finding("correct", got=got, expected=expected)
        i = next(i for i, d in enumerate(diffs) if d is not None)
        first = diffs[i]
        evidence = show_evidence(probes[i], expected[i], got[i], first)
    for mistake in gallery:
        try:
            outs = [runner(mistake.fn, p) for p in probes]
        except NotAttempted:
            continue
        if all(same(o, g) for o, g in zip(outs, got)):
            return Finding("mistake", evidence, mistake, got=got, expected=expected)
    if raised:
        return Finding("raised", evidence, got=got, expected=expected, raised=raised[1])
    if first.named:
        return Finding("named", evidence, key=first.kind, got=got, expected=expected)
    return Finding("unknown", evidence, got=got, expected=expected)


@dataclass
class NoCopy(Probe):
    """A probe whose arguments are handed over as they are (to see afterwards whether the candidate changed them)."""

    def fresh_args(self) -> tuple:
        return self.args


# ------------------------------------------------------------------------------------------------ counting

def explain_count(diffs: list[int], terms: list[dict]) -> str | None:
    """Which terms (each at most once, in excess or missing) make up the difference on every probe, or None.

    ``diffs[i]`` is the learner's count minus the right one on probe i; ``terms[i]`` names each term's size there."""
    names = list(terms[0])
    for size in (1, 2, 3):
        for combo in itertools.combinations(names, size):
            for signs in itertools.product((1, -1), repeat=size):
                if all(sum(s * t[k] for s, k in zip(signs, combo)) == diff for diff, t in zip(diffs, terms)):
                    return " y ".join(("te sobra " if s > 0 else "te falta ") + k for s, k in zip(signs, combo))
    return None


def judge_count(ex: Exercise, answer, probes: list[Probe], terms, correct: str) -> Verdict:
    """A function that returns a count of parameters: exact, integral, for every size; ``terms(args)`` names the
    pieces a count is made of, to explain a difference no known mistake accounts for."""
    if not is_function(answer):
        return ex.wrong_input(answer)
    got = []
    for p in probes:
        try:
            got.append(run_learner(answer, *p.args))
        except TooSlow as e:
            e.where = p.describe()
            raise
    numbers = [as_number(g) for g in got]
    expected = [ex.reference(*p.args) for p in probes]
    if None not in numbers and len(set(numbers)) == 1 and len(set(expected)) > 1:
        shown = "; ".join(p.shown for p in probes)
        return ex.wrong(f"Tu función da {show_number(numbers[0])} para todos los tamaños que probé ({shown}): "
                        "¿quedó un número fijo? Tiene que hacer la cuenta con los argumentos que recibe.", "hard_coded")
    finding = diagnose(answer, ex.reference, ex.mistakes, probes,
                        lambda e, g: number_difference(e, g, integral=True))
    whole = [as_number(g) for g in finding.got]
    if finding.kind == "unknown" and all(w is not None and float(w).is_integer() for w in whole):
        why = explain_count([int(w) - e for w, e in zip(whole, expected)],
                             [terms(p.args) for p in probes])
        if why:
            return ex.wrong(f"No es uno de los errores típicos, pero la diferencia se explica igual en todas las "
                             f"entradas: {why}.\n{finding.evidence}", "explained")
    return ex.judge(finding, correct)


# ------------------------------------------------------------------------------------------------ the checker

class Exercise:
    """``helpers.check.<name>(answer)`` gives a Verdict; ``.hint(n)`` and ``.solution()`` help.

    ``assess(ex, answer)`` is the exercise's own logic (in its module); it runs with every random generator
    restored afterwards, without gradients, and with whatever it raises turned into a Verdict. ``section`` is the
    heading of its notebook where the «Tu turno» is (each mistake's, unless it names another); ``problems`` says,
    for a teacher, what each key ``assess`` gives beyond the gallery means (keys every checker can give are
    helpers.grading's)."""

    def __init__(self, name: str, *, reference, hints: tuple[str, ...], assess, expects: str, section: str = "",
                 mistakes=(), problems: dict[str, str] | None = None):
        if not (isinstance(section, str) and section.strip()):
            raise TypeError(f"Exercise(\"{name}\", …) lacks section=\"…\": the heading of its notebook, without the #, "
                            "where its «Tu turno» is (the teacher's class report sends them there)")
        self.name, self.reference, self.hints, self._assess = name, reference, hints, assess
        self.expects, self.section, self.problems = expects, section, dict(problems or {})
        self.mistakes = Gallery(m if m.section else replace(m, section=section) for m in mistakes)
        self.__doc__ = f"helpers.check.{name}: {inspect.getdoc(assess) or ''}"

    def __repr__(self) -> str:
        helps = ".hint(1) ayuda" if graded() else ".hint(1) y .solution() ayudan"  # graded copy: no solution()
        return f"<helpers.check.{self.name}: llamalo con tu respuesta; {helps}>"

    @property
    def _example(self) -> str:
        return f"helpers.check.{self.name}({self.reference.__name__})"

    def __call__(self, *args, **kwargs) -> Verdict:
        if not args:
            return Verdict(self.name, "wrong", f"helpers.check.{self.name} espera {self.expects}, así: "
                                               f"{self._example}.", "bad_call")
        answer, extra = args[0], [_short(a) for a in args[1:]] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
        try:
            with _globals_untouched(), torch.no_grad():
                verdict = self._assess(self, answer)
        except NotAttempted:
            verdict = self._not_attempted()
        except TooSlow as e:
            where = f" con la entrada {e.where}" if e.where else ""
            verdict = Verdict(self.name, "wrong", f"Tu código no terminó en {show_number(float(e.seconds))} segundos"
                                                  f"{where} y lo corté. ¿Hay un bucle que no termina (un while cuya "
                                                  f"condición nunca cambia)?\n{self._hint_line}", "timeout")
        except Exception as e:  # a checker's own failure must not look like the learner's
            verdict = Verdict(self.name, "wrong", f"El checker no pudo evaluar tu respuesta ({type(e).__name__}: "
                                                  f"{e}). Revisá que sea lo que pide el enunciado; si lo es, avisanos.",
                              "checker_error")
        if extra:
            note = (f"Ojo: helpers.check.{self.name} recibe un solo argumento ({self._example}); no usé "
                    f"{', '.join(extra)}.")
            verdict = Verdict(verdict.exercise, verdict.status, f"{verdict.message}\n{note}", verdict.mistake)
        return verdict

    # --- what an exercise's assess() builds its Verdict with (public: the toolkit)
    @property
    def _hint_line(self) -> str:
        return f"¿Una pista? helpers.check.{self.name}.hint(1)"

    def _not_attempted(self) -> Verdict:
        return Verdict(self.name, "not_attempted", "Completá la celda de arriba (donde dice `...`) y volvé a correr "
                                                   f"esta. Si te trabás: helpers.check.{self.name}.hint(1).")

    def correct(self, message: str) -> Verdict:
        return Verdict(self.name, "correct", message)

    def wrong(self, message: str, mistake: str, hint: bool = True) -> Verdict:
        return Verdict(self.name, "wrong", message + (f"\n{self._hint_line}" if hint else ""), mistake)

    def wrong_input(self, got) -> Verdict:
        """Called with the wrong kind of thing: say what it wants."""
        return Verdict(self.name, "wrong", f"helpers.check.{self.name} espera {self.expects}, así: {self._example}; "
                                           f"recibió {kind_of(got)}.", "wrong_input")

    def judge(self, finding: Finding, correct: str | None = None) -> Verdict:
        """The Verdict for a finding of ``diagnose``."""
        if finding.kind == "correct":
            return self.correct(correct or "Da lo mismo que la referencia en todas las entradas de prueba.")
        if finding.kind == "no_return":
            return self.wrong("Tu código no devuelve nada (da None): ¿te falta el `return`?", "no_return")
        if finding.kind == "mutated":
            return self.wrong("Da el resultado correcto, pero cambia lo que recibe: con la entrada "
                               f"{finding.evidence}, después de llamarla, el tensor (o la lista) que le pasé ya no es "
                               "el mismo. Una operación in-place (x += …, x -= …, x[...] = …, .append) cambia el "
                               "objeto de quien llama. Escribí x = x + … y dejá sus entradas como estaban.",
                               "mutated_input")
        if finding.kind == "mistake":
            return self.wrong(f"{finding.mistake.message}\n{finding.evidence}", finding.mistake.key)
        if finding.kind == "raised":
            dtype = ("\nLas entradas de prueba son float32, como en el notebook: ¿tu código crea algo en otro tipo "
                     "(float64 con .double() o dtype=torch.float64)?") if finding.raised.dtype_mixup() else ""
            return self.wrong(finding.evidence + dtype, "raised")
        if finding.kind == "named":
            return self.wrong(finding.evidence, finding.key)
        return self.wrong("No reconozco el error como uno de los típicos, pero acá está la primera diferencia. "
                           + finding.evidence, "unknown")

    def judge_function(self, answer, probes, differ, correct: str, runner=run_plain, same=same_result) -> Verdict:
        """The whole check of a function exercise: wrong input, stub, then ``diagnose`` against the gallery."""
        if not is_function(answer):
            return self.wrong_input(answer)
        return self.judge(diagnose(answer, self.reference, self.mistakes, probes, differ, runner, same), correct)

    # --- help
    def hint(self, n: int = 1, *extra, **kwargs) -> _Text:
        """Hint number ``n`` (1 is the gentlest), naming the next, more direct one, as the notebooks' prompts do
        («hint(1) da una pista (y hint(2) otra, más directa)»); in graded mode the last, the most direct, is off."""
        total = len(self.hints)
        if extra or kwargs or isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= total:
            return _Text(f"helpers.check.{self.name} tiene {total} pistas: helpers.check.{self.name}.hint(1) a "
                         f"helpers.check.{self.name}.hint({total}).")
        if graded() and n == total > 1:
            return _Text(_turned_off(f"la pista {n}, la que más se acerca a la respuesta", self.name, total - 1))
        last = total - 1 if graded() and total > 1 else total  # the last one this session gives
        if n < last:
            head, more = f"Pista {n}", f" ¿Todavía no? helpers.check.{self.name}.hint({n + 1}) da otra, más directa."
        elif graded():
            head, more = f"Pista {n}, la última de esta copia para entregar", ""
        else:
            head, more = f"Pista {n}, la última", f" Si te rendiste: helpers.check.{self.name}.solution()"
        return _Text(textwrap.fill(f"{head}: {self.hints[n - 1]}{more}", _WIDTH, break_on_hyphens=False))

    def solution(self, *extra, **kwargs) -> _Solution | _Text:
        """The reference code, the same object the checker compares against (off in graded mode)."""
        if graded():
            return _Text(_turned_off("la solución", self.name, len(self.hints) - 1))
        return _Solution(self.name, inspect.getsource(self.reference).rstrip() + "\n")

    def working(self, answer=None):
        """What the cells after the exercise use: the learner's answer if it passes this check, else the
        reference (its code is not shown); prints one line saying which. Bind it to a new name, never the
        learner's own (a graded copy would otherwise grade the reference)."""
        mine = f"{'clase' if isinstance(self.reference, type) else 'función'} {self.reference.__name__}"
        status = self(answer).status if answer is not None else "not_attempted"
        if status == "correct":
            print(f"Seguimos con tu {mine}: pasó el control.")
            return answer
        where = "en esta copia para entregar no se muestra" if graded() else "está arriba, en «Ver la solución»"
        why = "todavía está sin escribir" if status == "not_attempted" else "todavía no pasa el control"
        print(f"Tu {mine} {why}: seguimos con la solución de referencia ({where}). Cuando pase el control, volvé "
              "a correr esta celda y las que siguen para usar tu versión.")
        return self.reference


GRADED_ENV = "LECCION06_CALIFICADO"  # set by a student copy's setup cell (helpers.grading): solutions off


def graded() -> bool:
    """Whether this session is a student copy handed out for grading (GRADED_ENV is 1)."""
    return os.environ.get(GRADED_ENV, "").strip() == "1"


def _turned_off(what: str, name: str, hints_left: int) -> str:
    pistas = (f" Las pistas helpers.check.{name}.hint(1) a hint({hints_left}) siguen a mano." if hints_left > 1 else
              f" La pista helpers.check.{name}.hint(1) sigue a mano." if hints_left == 1 else "")
    return textwrap.fill(f"Esta es una copia para entregar y calificar: tu docente desactivó {what}. El control "
                         f"sigue diciéndote qué está mal cada vez que lo corrés.{pistas}", _WIDTH,
                         break_on_hyphens=False)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
