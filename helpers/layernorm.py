"""LayerNorm step by step as pure functions (float64): what notebook 03's widgets show and tests check."""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from dataclasses import dataclass

__all__ = ["InvalidInput", "LayerNormSteps", "Step", "layer_norm_steps", "parse_numbers",
           "residual_layernorm_walkthrough"]

_MAX_ABS = 1e15  # beyond this, squares of deviations lose every digit that matters
_MIN_ABS = 1e-15  # below this (but not 0), squares of deviations lose digits too, down to 0 (underflow)


def __dir__():
    return __all__


class InvalidInput(ValueError):
    """Input a learner typed that cannot be normalized; the message is Spanish, meant to be shown as is."""


def _split_numbers(text: str, n: int = 4) -> list[str]:
    """'1 2 3 4', '0,8; 0,95; 0,93; 1,33' or '1,2,3,4' (commas as separators only when there are n-1 of
    them and nothing else separates) → the pieces."""
    parts = [p for p in re.split(r"[;\s]+", text.strip()) if p]
    if len(parts) == 1 and parts[0].count(",") == n - 1 and n > 1:
        parts = parts[0].split(",")
    return parts


def parse_numbers(texts, n: int = 4) -> list[float]:
    """Read ``n`` numbers typed by a learner (comma or dot decimals); InvalidInput says what is wrong.
    ``texts``: one string per number, or one string with all of them."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise InvalidInput(f"n debe ser un entero positivo, cuántos números leer (4 en el widget); recibí {n!r} "
                           f"({type(n).__name__})")
    n = int(n)
    if isinstance(texts, str):
        texts = _split_numbers(texts, n)
    try:
        texts = list(texts)
    except TypeError:
        raise InvalidInput(f"Esperaba {n} números; recibí {texts!r}.") from None
    if len(texts) != n:
        shown = " (" + ", ".join(f"«{t}»" for t in texts) + ")" if 0 < len(texts) <= 8 else ""
        raise InvalidInput(f"Esperaba {n} números; recibí {len(texts)}{shown}.")
    values = []
    for i, text in enumerate(texts, start=1):
        s = str(text).strip()
        if not s:
            raise InvalidInput(f"El número {i} está vacío: escribí un número (por ejemplo 2 o 0,5).")
        if isinstance(text, str):  # a number given as a number is no question
            _refuse_thousands_mark(s, i)
        s = s.replace(",", ".")
        try:
            v = float(s)
        except ValueError:
            shown, hidden = _visible(str(text))
            why = (f"tiene {'un carácter invisible' if len(hidden) == 1 else 'caracteres invisibles'} "
                   f"({', '.join(hidden)}), quizás copiado de otra página: borrá el casillero y escribí el número "
                   "de nuevo." if hidden else "usá dígitos, con punto o coma para los decimales.")
            raise InvalidInput(f"«{shown}» (número {i}) no es un número: {why}") from None
        values.append(_check_value(v, i))
    return values


def _refuse_thousands_mark(s: str, i: int) -> None:
    """Ask, never guess: '1.000' or '1,000' is one thousand for a Spanish reader and one for a program."""
    if re.fullmatch(r"[+-]?[1-9]\d{0,2}([.,])\d{3}", s):
        whole, mark = s[:-4], s[-4]
        decimals = s[-3:].rstrip("0")
        plain = f"{whole}{mark}{decimals or '0'}" if decimals != s[-3:] else f"{s}0"  # the same value, unambiguous
        raise InvalidInput(f"«{s}» (número {i}) se puede leer de dos formas: {whole} con decimales o {whole}{s[-3:]} "
                           f"con «{mark}» separando los miles. Si es {whole}{s[-3:]}, escribilo sin separador; si "
                           f"tiene decimales, escribilo {plain}.")
    if re.fullmatch(r"[+-]?\d{1,3}([.,])\d{3}(\1\d{3})+([.,]\d+)?|[+-]?\d{1,3}([.,])\d{3}(?!\4)[.,]\d+", s):
        raise InvalidInput(f"«{s}» (número {i}) tiene separador de miles: escribilo sin él (por ejemplo 1000000 o "
                           "1000,5), con punto o coma solo para los decimales.")


def _visible(text: str) -> tuple[str, list[str]]:
    """``text`` with each invisible character written as ⟨U+XXXX⟩, and their names."""
    hidden, shown = [], []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn") or (ch.isspace() and ch != " "):
            code = f"U+{ord(ch):04X}"
            hidden.append(f"{code} {unicodedata.name(ch, '')}".strip())
            shown.append(f"⟨{code}⟩")
        else:
            shown.append(ch)
    return "".join(shown), list(dict.fromkeys(hidden))


def _check_value(v: float, i: int, name: str = "") -> float:
    """``v`` if it is a finite number of reasonable size, else InvalidInput naming ``name`` and position ``i``."""
    where = f"{name}: el número {i}" if name else f"El número {i}"
    if not math.isfinite(v):
        raise InvalidInput(f"{where} no es finito ({v}): usá un número común.")
    if abs(v) > _MAX_ABS:
        raise InvalidInput(f"{where} es demasiado grande ({v:.3g}): usá valores entre −1e15 y 1e15, "
                           "más allá sus cuadrados pierden precisión.")
    if v != 0 and abs(v) < _MIN_ABS:
        raise InvalidInput(f"{where} es demasiado chico ({v:.3g}): usá 0 o valores de al menos 1e-15 (en valor "
                           "absoluto); más chicos, sus cuadrados pierden precisión o dan 0.")
    return float(v)


@dataclass(frozen=True)
class LayerNormSteps:
    """Every intermediate of LayerNorm on one token."""

    x: list[float]
    mean: float
    centered: list[float]
    squared: list[float]
    var: float
    std: float            # sqrt(var), the number a learner computes by hand
    denom: float          # sqrt(var + eps), what LayerNorm divides by
    normalized: list[float]
    gamma: list[float]
    beta: list[float]
    output: list[float]
    eps: float

    @property
    def constant(self) -> bool:
        """All numbers equal: σ = 0, only ε keeps the division finite."""
        return len(set(self.x)) == 1

    def message(self) -> str:
        """A Spanish sentence for the unusual case, empty otherwise."""
        if self.constant:
            return (f"Los {len(self.x)} números son iguales: σ = 0. Sin ε dividiríamos 0 entre 0; con "
                    f"ε = {self.eps:g}, x̂ = 0 / √ε = 0 en todos.")
        return ""


def _vector(values, name: str, n: int | None = None) -> list[float]:
    try:
        if isinstance(values, (str, bytes)):  # "1234" would be read digit by digit
            raise TypeError
        out = [float(v) for v in values]
    except (TypeError, ValueError):
        raise InvalidInput(f"{name} debe ser una lista de números; recibí {values!r}") from None
    if not out:
        raise InvalidInput(f"{name} está vacío: necesito al menos un número.")
    if n is not None and len(out) != n:
        raise InvalidInput(f"{name} debe tener {n} números, uno por dimensión; tiene {len(out)}.")
    return [_check_value(v, i, name) for i, v in enumerate(out, start=1)]


def layer_norm_steps(x, gamma=None, beta=None, eps: float = 1e-5) -> LayerNormSteps:
    """LayerNorm of one token, keeping each step; biased variance (divide by n), like nn.LayerNorm."""
    x = _vector(x, "x")
    n = len(x)
    gamma = [1.0] * n if gamma is None else _vector(gamma, "gamma (γ)", n)
    beta = [0.0] * n if beta is None else _vector(beta, "beta (β)", n)
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not (math.isfinite(eps) and eps > 0):
        raise InvalidInput(f"eps (ε) debe ser un número positivo y finito, como 1e-5; recibí {eps!r}")
    eps = float(eps)
    mean = math.fsum(x) / n
    centered = [v - mean for v in x]
    squared = [c * c for c in centered]
    var = math.fsum(squared) / n
    denom = math.sqrt(var + eps)
    normalized = [c / denom for c in centered]
    output = [g * v + b for g, v, b in zip(gamma, normalized, beta)]
    return LayerNormSteps(x, mean, centered, squared, var, math.sqrt(var), denom, normalized,
                          gamma, beta, output, eps)


@dataclass(frozen=True)
class Step:
    """One screen of the 'Siguiente paso' walkthrough."""

    title: str
    values: list[float]
    text: str
    digits: int = 3


def residual_layernorm_walkthrough(x, sublayer, gamma, beta, eps: float = 1e-5) -> list[Step]:
    """Residual + LayerNorm on one token, one step at a time (post-norm: LN(x + F(x)))."""
    x = _vector(x, "x")
    f = _vector(sublayer, "sublayer (F(x))", len(x))
    total = [a + b for a, b in zip(x, f)]
    s = layer_norm_steps(total, gamma, beta, eps)
    fmt = ", ".join
    return [
        Step("1. Entrada x", x, "El vector del token que entra a la subcapa."),
        Step("2. Salida de la subcapa F(x)", f, "Lo que calculó la atención: una corrección, no un reemplazo."),
        Step("3. Suma residual x + F(x)", total, "Sumamos número a número: " + fmt(
            f"{a:.2f} {'+' if b >= 0 else '−'} {abs(b):.2f} = {a + b:.2f}" for a, b in zip(x, f)) + "."),
        Step("4. Media μ", [s.mean],
             f"μ = ({' + '.join(f'{v:.2f}' for v in total)}) / {len(x)} = {s.mean:.4f}.", digits=4),
        Step("5. Centrado x − μ", s.centered, "Restamos la media: ahora el vector tiene media 0."),
        Step("6. Dividido por σ", s.normalized,
             f"σ = √(varianza + ε) = √({s.var:.4f} + {eps:g}) = {s.denom:.4f}. " + (
                 "Los números eran todos iguales: el desvío queda en 0, no en 1, y x̂ = 0 en todos."
                 if s.constant else "Ahora el desvío es 1.")),
        Step("7. γ ⊙ x̂ + β", s.output, "Escalamos con γ = [" + fmt(f"{g:g}" for g in s.gamma)
             + "] y corremos con β = [" + fmt(f"{b:g}" for b in s.beta) + "]: la salida de LayerNorm."),
    ]
