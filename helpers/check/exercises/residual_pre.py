"""Notebook 02 · ``paso_pre(x, subcapa, ln)``: one pre-norm residual step. The sublayer reads the normalised stream
and its output is added to the stream as it was. Checked by ``helpers.check.residual_pre(paso_pre)``."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # the name the notebooks use
from torch import nn

from .._core import Exercise, Gallery, Probe, seeded_generator, tensor_difference

ORDER = ("02", 2)  # notebook 02, its second exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def paso_pre(x, subcapa, ln):
    return x + subcapa(ln(x))  # normalizás la entrada de la subcapa, no la corriente


HINTS = (
    "Pre-norm normaliza lo que entra a la subcapa, no la corriente: la corriente sigue de largo sin tocar.",
    "Hay tres piezas: ln, subcapa y una suma. La subcapa lee la x normalizada; la suma lleva la x tal como entró, "
    "no ln(x).",
)


# ---- the inputs: a LayerNorm with γ and β far from 1 and 0 (so using ln, or not, shows), several shapes
def probe_layer_norm(d: int, g: torch.Generator) -> nn.LayerNorm:  # depth_step's probes use it too
    ln = nn.LayerNorm(d)
    ln.weight.copy_(torch.rand(d, generator=g) + 0.5)
    ln.bias.copy_(torch.randn(d, generator=g))
    return ln


def probe_sublayer(d: int, g: torch.Generator) -> nn.Module:
    capa = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))
    for p in capa.parameters():
        p.copy_(torch.randn(p.shape, generator=g) * 0.6)
    return capa


def _probes() -> list[Probe]:
    g = seeded_generator(5)
    return [
        Probe("3 frases × 4 tokens, d = 6", (torch.randn(3, 4, 6, generator=g) * 2 + 1, probe_sublayer(6, g),
                                              probe_layer_norm(6, g)), "x de forma (3, 4, 6)"),
        Probe("un solo token", (torch.randn(1, 6, generator=g) * 3, probe_sublayer(6, g), probe_layer_norm(6, g)),
               "x de forma (1, 6)"),
        Probe("d = 5", (torch.randn(2, 5, generator=g) - 1, probe_sublayer(5, g), probe_layer_norm(5, g)),
              "x de forma (2, 5)"),
    ]


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("post_norm", "Escribiste post-norm, la línea del paper: LayerNorm después de la suma. Pre-norm "
                           "normaliza la entrada de la subcapa y deja la suma limpia.",
              label="post-norm en vez de pre-norm",
              question="En post-norm, ¿sigue siendo la salida x₀ más los aportes? ¿Y en pre-norm?")
def _post_norm(x, subcapa, ln):
    return ln(x + subcapa(x))


@mistakes.add("normalized_skip", "Sumaste la entrada ya normalizada, LN(x) + F(LN(x)): el residual tiene que llevar "
                                 "la x de antes de LayerNorm, la corriente sin tocar.",
              label="suma la x normalizada",
              question="En pre-norm, ¿qué viaja por el camino residual: x o LN(x)? ¿Qué cambiaría si fuera LN(x)?")
def _normalized_skip(x, subcapa, ln):
    h = ln(x)
    return h + subcapa(h)


@mistakes.add("norm_on_output", "Normalizaste la salida de la subcapa, x + LN(F(x)): pre-norm normaliza su entrada.",
              label="normaliza la salida de la subcapa",
              question="¿Pre-norm normaliza lo que entra a la subcapa o lo que sale? ¿Dónde lo dice su nombre?")
def _norm_on_output(x, subcapa, ln):
    return x + ln(subcapa(x))


@mistakes.add("sandwich", "Pusiste una LayerNorm de más: normalizaste la entrada de la subcapa y también su "
                          "salida, x + LN(F(LN(x))). Eso es la variante sándwich; pre-norm normaliza solo la entrada.",
              label="sándwich",
              question="¿Cuántas LayerNorm lleva un paso pre-norm? ¿Y uno sándwich?")
def _sandwich(x, subcapa, ln):
    return x + ln(subcapa(ln(x)))


@mistakes.add("pre_and_post", "Pusiste una LayerNorm de más: normalizaste la entrada de la subcapa y además la suma, "
                              "LN(x + F(LN(x))). Pre-norm deja la suma sin normalizar.",
              label="normaliza también la suma",
              question="Si normalizás la suma, ¿sigue siendo la salida x más el aporte de la subcapa?")
def _pre_and_post(x, subcapa, ln):
    return ln(x + subcapa(ln(x)))


@mistakes.add("norm_twice", "Aplicaste ln dos veces seguidas a la entrada, ln(ln(x)): con γ y β distintos de 1 y 0 "
                            "no da lo mismo que una. Va una sola.",
              label="ln dos veces",
              question="¿Da lo mismo aplicar una LayerNorm dos veces seguidas que una sola? ¿Y si su γ vale 2?")
def _norm_twice(x, subcapa, ln):
    return x + subcapa(ln(ln(x)))


@mistakes.add("no_residual", "Falta el residual: devolviste F(LN(x)) sin sumarle x.",
              label="sin residual",
              question="¿Dónde está la x en F(LN(x))? ¿Qué le pasa a la corriente si la subcapa aprende a devolver 0?")
def _no_residual(x, subcapa, ln):
    return subcapa(ln(x))


@mistakes.add("post_no_residual", "Falta el residual, y la LayerNorm quedó a la salida: LN(F(x)). Pre-norm suma x a "
                                  "lo que sale de la subcapa, y la subcapa lee la x normalizada.",
              label="sin residual, LN a la salida",
              question="Escribí en el pizarrón post-norm, pre-norm y LN(F(x)): ¿cuál no tiene residual?")
def _post_no_residual(x, subcapa, ln):
    return ln(subcapa(x))


@mistakes.add("no_norm", "No usaste ln: x + F(x) es el residual solo. En pre-norm la subcapa lee la x normalizada.",
              label="sin LayerNorm",
              question="En pre-norm, ¿qué lee la subcapa: la corriente tal cual o normalizada?")
def _no_norm(x, subcapa, ln):
    return x + subcapa(x)


@mistakes.add("new_layer_norm", "Normalizaste con una LayerNorm nueva (o F.layer_norm sin pesos), no con la `ln` que "
                                "recibís: la nueva tiene γ = 1 y β = 0, y la de la capa tiene los suyos. Usá ln(x).",
              label="una LayerNorm nueva en vez de ln",
              question="¿Qué pierde una LayerNorm creada adentro de la función? ¿Dónde quedan los γ y β que aprendió "
                       "la capa?")
def _new_layer_norm(x, subcapa, ln):
    return x + subcapa(F.layer_norm(x, x.shape[-1:]))


# ---- the check
def assess(ex: Exercise, answer):
    """paso_pre(x, subcapa, ln): x + subcapa(ln(x)), one pre-norm residual step."""
    probes = _probes()
    return ex.judge_function(answer, probes, tensor_difference,
                        "La subcapa lee la x normalizada y la suma lleva la x sin tocar: da lo mismo que la referencia "
                        f"en las {len(probes)} entradas de prueba, con una LayerNorm de γ y β distintos de 1 y 0.")


checker = Exercise("residual_pre", reference=paso_pre, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="4. Sin nada en el medio, la salida es una suma")
