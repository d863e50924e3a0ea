"""Notebook 04 · ``mascara_causal(T)``: a T × T causal mask ``nn.MultiheadAttention`` accepts as it is: bool with
True = blocked, or float with 0 (allowed) and −∞ (blocked). Checked by ``helpers.check.mask(mascara_causal)``."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .._core import Difference, Exercise, Gallery, Probe, diagnose, is_function, same_result, tensor_problem

ORDER = ("04", 2)  # notebook 04, its second exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def mascara_causal(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # True = prohibido: el futuro


HINTS = (  # the last one names the function: graded mode turns it off (helpers.check, Exercise.hint)
    "Una matriz T × T: la fila i es el token que mira y la columna j, el token mirado. Lo prohibido es el futuro: "
    "las columnas j mayores que i.",
    "En una máscara bool, True quiere decir prohibido. Si la preferís float: 0 donde se puede mirar y −∞ "
    "(float('-inf')) donde no.",
    "Lo prohibido es lo que queda estrictamente arriba de la diagonal; torch.triu, con su argumento diagonal, se "
    "queda con esa parte de una matriz.",
)

PROBES = [Probe(f"T = {T}", (T,)) for T in (4, 1, 2, 7, 5)]


# ---- what a mask means to nn.MultiheadAttention
@dataclass(frozen=True)
class _Reading:
    family: str            # "bool" or "float"
    kind: str              # bool; inf (0 and −∞); neg (0 and a very negative number); 01; other
    blocked: torch.Tensor  # where the mask blocks (for 01 and other: where it is not 0)


def _read(mask, T: int) -> _Reading | Difference:
    problem = tensor_problem(mask)
    if problem:
        return problem
    mask = mask.cpu()
    if tuple(mask.shape) != (T, T):
        fixed = (": ¿quedó un número fijo en vez de T?" if mask.dim() == 2 and mask.shape[0] == mask.shape[1]
                 else "")
        return Difference(f"da una máscara de forma {tuple(mask.shape)}, y para T = {T} tiene que ser "
                           f"({T}, {T}){fixed}", "shape")
    if mask.dtype == torch.bool:
        return _Reading("bool", "bool", mask)
    if not mask.is_floating_point():
        return Difference(f"devolvió una máscara de enteros ({mask.dtype}): nn.MultiheadAttention acepta bool "
                           "(True = prohibido) o float (0 y −∞)", "int_mask")
    values = set(mask.unique().tolist())
    if values <= {0.0, float("-inf")}:
        return _Reading("float", "inf", mask < 0)
    if values <= {0.0, 1.0}:
        return _Reading("float", "01", mask == 1)
    if all(v == 0 or v <= -1e4 for v in values):
        return _Reading("float", "neg", mask < 0)
    return _Reading("float", "other", mask != 0)


def _differ(expected, got):
    have = _read(got, expected.shape[0])
    if isinstance(have, Difference):
        return have
    if have.kind in ("bool", "inf", "neg"):
        return None if torch.equal(mascara_causal(expected.shape[0]), have.blocked) else Difference(
            "prohíbe otras posiciones")
    return Difference("no prohíbe nada: nn.MultiheadAttention suma una máscara float a los puntajes")


def _same_mask(a, b) -> bool:
    """Two masks are the same mistake when they are of the same kind and block the same places."""
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dim() == 2 and a.shape == b.shape:
        ra, rb = _read(a, a.shape[0]), _read(b, b.shape[0])
        if isinstance(ra, _Reading) and isinstance(rb, _Reading):
            return (ra.family, ra.kind) == (rb.family, rb.kind) and torch.equal(ra.blocked, rb.blocked)
    return same_result(a, b)


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("flipped", "Está dada vuelta: tapaste el pasado y dejaste ver el futuro. Lo prohibido está arriba de "
                         "la diagonal.",
              label="dada vuelta",
              question="En la fila i, la del token que mira, ¿qué columnas tiene prohibidas? Dibujá la máscara de T = "
                       "4.")
def _flipped(T):
    return torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=-1)


@mistakes.add("hides_diagonal", "Tapaste también la diagonal: cada token tiene que poder mirarse a sí mismo (el token "
                                "0 queda sin nada que mirar y su atención da nan). Empezá un lugar más arriba.",
              label="tapa la diagonal",
              question="¿Puede un token mirarse a sí mismo? ¿Qué le pasa al token 0 si no?")
def _hides_diagonal(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool))


@mistakes.add("true_allowed", "El booleano está invertido: marcaste con True lo permitido. En nn.MultiheadAttention, "
                              "True significa prohibido.",
              label="True en lo permitido",
              question="En nn.MultiheadAttention, ¿True quiere decir permitido o prohibido?")
def _true_allowed(T):
    return torch.tril(torch.ones(T, T)).bool()


@mistakes.add("nothing_blocked", "Tu máscara no prohíbe nada: es toda False. Lo prohibido, con True, es el futuro.",
              label="no prohíbe nada",
              question="¿Qué ve el token 2 con una máscara toda False?")
def _nothing_blocked(T):
    return torch.zeros(T, T, dtype=torch.bool)


@mistakes.add("float_ones_above", "Es una máscara de 0 y 1 en float: PyTorch suma una máscara float a los puntajes, "
                                  "así que un 1 no prohíbe nada. Usá bool (True = prohibido) o 0 y −∞.",
              label="0 y 1 en float, 1 arriba",
              question="¿Qué hace PyTorch con una máscara float: la suma a los puntajes o la usa para tapar? ¿Qué "
                       "hace entonces un 1?")
def _float_ones_above(T):
    return torch.triu(torch.ones(T, T), diagonal=1)


@mistakes.add("float_ones_below", "Es una máscara de 0 y 1 en float, con 1 en lo permitido: PyTorch la suma a los "
                                  "puntajes y no prohíbe nada. Usá bool (True = prohibido) o 0 y −∞.",
              label="0 y 1 en float, 1 abajo",
              question="¿Qué hace PyTorch con una máscara float: la suma a los puntajes o la usa para tapar? ¿Qué "
                       "hace entonces un 1?")
def _float_ones_below(T):
    return torch.tril(torch.ones(T, T))


@mistakes.add("float_swapped", "Cambiaste los valores de lugar: pusiste −∞ en lo permitido (el pasado y la diagonal) "
                               "y 0 en el futuro. En una máscara float, 0 deja mirar y −∞ prohíbe.",
              label="−∞ en lo permitido",
              question="En una máscara float, ¿qué valor deja mirar y cuál prohíbe? ¿Por qué −∞?")
def _float_swapped(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))


@mistakes.add("float_flipped", "Está dada vuelta: pusiste −∞ debajo de la diagonal, en el pasado, y dejaste ver el "
                               "futuro. El −∞ va arriba de la diagonal.",
              label="float, dada vuelta",
              question="En la fila i, la del token que mira, ¿qué columnas llevan −∞? Dibujá la máscara de T = 4.")
def _float_flipped(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).tril(-1), float("-inf"))


@mistakes.add("float_hides_diagonal", "Pusiste −∞ también en la diagonal: cada token tiene que poder mirarse a sí "
                                      "mismo (el token 0 queda sin nada que mirar y su atención da nan).",
              label="float, −∞ en la diagonal",
              question="¿Puede un token mirarse a sí mismo? ¿Qué le pasa al token 0 si no?")
def _float_hides_diagonal(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(), float("-inf"))


@mistakes.add("float_minus_one", "Pusiste −1 donde va −∞: PyTorch suma la máscara a los puntajes, y restarle 1 a un "
                                 "puntaje no lo prohíbe, apenas lo baja. Usá float('-inf').",
              label="−1 en vez de −∞",
              question="Después del softmax, ¿qué peso le queda a un puntaje al que le restaste 1? ¿Y al que le "
                       "sumaste −∞?")
def _float_minus_one(T):
    return -torch.triu(torch.ones(T, T), diagonal=1)


# ---- the check
def assess(ex: Exercise, answer):
    """mascara_causal(T) -> a (T, T) mask: bool with True = blocked, or float 0 / −∞."""
    if not is_function(answer):
        return ex.wrong_input(answer)
    finding = diagnose(answer, mascara_causal, ex.mistakes, PROBES, _differ, same=_same_mask)
    if finding.kind == "correct" and any(_read(g, g.shape[0]).kind == "neg" for g in finding.got):
        return ex.correct("Prohíbe justo el futuro. Usás un número muy negativo en vez de −∞, y en float32 "
                          "el peso prohibido también da 0 exacto: e^x ya es 0 desde x = −104 (el ejercicio 1 "
                          "del final lo prueba con −10⁴). −∞ sigue siendo la convención: da 0 con cualquier "
                          "puntaje (un número fijo deja pasar peso si un puntaje prohibido supera a los "
                          "permitidos en casi ese número), es la del paper y es lo que PyTorch pone por vos "
                          "cuando le pasás una máscara bool.")
    return ex.judge(finding, "Prohíbe justo el futuro (arriba de la diagonal) para T = 4, 1, 2, 7 y 5, y "
                             "nn.MultiheadAttention la acepta tal cual.")


checker = Exercise("mask", reference=mascara_causal, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="5. La máscara causal: de este bloque a GPT",
                   problems={"int_mask": "una máscara de enteros"})
