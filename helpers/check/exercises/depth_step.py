"""Notebook 02b · ``paso_variante(h, subcapa, ln, residual, norma)``: one layer of any of the four stacks. The sublayer
reads LN(h) when ``norma``, else h; its output is added to h when ``residual``, else it replaces h. Checked by
``helpers.check.depth_step(paso_variante)``; helpers.depth.step is the same step (a test holds them equal).

The prompt asks for the LayerNorm at the sublayer's input (pre-norm with both pieces): the notebook's stacks are built
with the learner's step and labelled "las dos (pre-norm)". Post-norm is therefore wrong here, and its verdicts say
"Esa es post-norm" first."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # the name the notebooks use

from .._core import Exercise, Gallery, Probe, seeded_generator, tensor_difference
from .residual_pre import probe_layer_norm, probe_sublayer  # the same LayerNorm and sublayer

ORDER = ("02b", 1)  # notebook 02b (a «Para ir más lejos» of 02), its first exercise: the registry's order


# ---- the reference: solution() shows this source, and the checker compares against it
def paso_variante(h, subcapa, ln, residual, norma):
    entrada = ln(h) if norma else h      # la subcapa lee la corriente normalizada, o tal cual
    if residual:
        return h + subcapa(entrada)      # suma a la corriente como venía
    return subcapa(entrada)              # reemplaza la corriente


HINTS = (
    "Son dos preguntas independientes. ¿Qué lee la subcapa: la corriente tal cual o normalizada? ¿Qué pasa con lo "
    "que devuelve: se suma a la corriente o la reemplaza?",
    "Guardá en una variable lo que lee la subcapa: ln(h) o h, según norma. Con residual, lo que se suma es la h de "
    "antes de ln; sin residual no hay suma: el resultado es solo lo que devuelve la subcapa.",
)


# ---- the inputs: every combination of the two pieces; a LayerNorm with γ and β far from 1 and 0
_COMBOS = ((False, False, "ninguna pieza"), (True, False, "solo residual"), (False, True, "solo LayerNorm"),
           (True, True, "las dos"))


def _probes() -> list[Probe]:
    g = seeded_generator(30)
    probes = []
    for shape, scale, shift in (((3, 4, 6), 2.0, 1.0), ((2, 5), 3.0, -1.0)):
        d = shape[-1]
        for residual, norma, name in _COMBOS:
            x = torch.randn(shape, generator=g) * scale + shift
            probes.append(Probe(f"{name}, d = {d}", (x, probe_sublayer(d, g), probe_layer_norm(d, g), residual, norma),
                                 f"x de forma {tuple(shape)}, residual={residual}, norma={norma}"))
    return probes


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("swapped", "Cruzaste las dos piezas: residual decide si se suma, y norma si la subcapa lee la corriente "
                         "normalizada. Con tu código, «solo residual» normaliza y «solo LayerNorm» suma.",
              label="residual y norma cruzados",
              question="Con residual=True y norma=False, ¿qué tiene que salir? ¿Y al revés?")
def _swapped(h, subcapa, ln, residual, norma):
    entrada = ln(h) if residual else h
    return h + subcapa(entrada) if norma else subcapa(entrada)


@mistakes.add("norm_after", "Esa es post-norm, la línea del paper: normalizaste después, LN(h + F(h)) con las dos "
                            "piezas y LN(F(h)) solo con LayerNorm. La consigna pone LayerNorm a la entrada de la "
                            "subcapa, como tu paso_pre: con las dos piezas, pre-norm.",
              label="post-norm: LayerNorm después",
              question="¿Dónde va la LayerNorm en este ejercicio: a la entrada de la subcapa o después de la suma? "
                       "¿Cómo se llama cada una?")
def _norm_after(h, subcapa, ln, residual, norma):
    salida = h + subcapa(h) if residual else subcapa(h)
    return ln(salida) if norma else salida


@mistakes.add("post_norm_both", "Esa es post-norm, la línea del paper: con las dos piezas devolviste LN(h + F(h)). La "
                                "consigna pone LayerNorm a la entrada de la subcapa también ahí, como tu paso_pre: con "
                                "las dos piezas, pre-norm. Las otras tres variantes están bien.",
              label="post-norm con las dos piezas",
              question="Con las dos piezas, ¿qué escribiste en paso_pre? ¿Por qué la pila «las dos» es pre-norm?")
def _post_norm_both(h, subcapa, ln, residual, norma):
    if residual and norma:
        return ln(h + subcapa(h))
    return h + subcapa(h) if residual else subcapa(ln(h) if norma else h)


@mistakes.add("normalized_skip", "Con las dos piezas sumaste la corriente ya normalizada, LN(h) + F(LN(h)): el "
                                 "residual lleva la h de antes de LayerNorm, la corriente sin tocar.",
              label="suma la h normalizada",
              question="Con las dos piezas, ¿qué viaja por el residual: h o ln(h)?")
def _normalized_skip(h, subcapa, ln, residual, norma):
    if norma:
        h = ln(h)
    return h + subcapa(h) if residual else subcapa(h)


@mistakes.add("norm_ignored", "No usaste ln: con norma=True la subcapa tiene que leer ln(h).",
              label="no usa ln",
              question="Con norma=True, ¿qué lee la subcapa?")
def _norm_ignored(h, subcapa, ln, residual, norma):
    return h + subcapa(h) if residual else subcapa(h)


@mistakes.add("residual_ignored", "Nunca sumaste la corriente: con residual=True el resultado es h + lo que devuelve "
                                  "la subcapa.",
              label="nunca suma la corriente",
              question="Con residual=True, ¿qué se suma, y a qué?")
def _residual_ignored(h, subcapa, ln, residual, norma):
    return subcapa(ln(h) if norma else h)


@mistakes.add("always_residual", "Sumaste la corriente siempre, también con residual=False: sin residual, lo que "
                                 "devuelve la subcapa reemplaza a h.",
              label="suma siempre",
              question="Con residual=False, ¿qué queda de h después de la capa?")
def _always_residual(h, subcapa, ln, residual, norma):
    return h + subcapa(ln(h) if norma else h)


@mistakes.add("always_norm", "Normalizaste siempre, también con norma=False: sin LayerNorm, la subcapa lee h tal cual.",
              label="normaliza siempre",
              question="Con norma=False, ¿qué lee la subcapa?")
def _always_norm(h, subcapa, ln, residual, norma):
    return h + subcapa(ln(h)) if residual else subcapa(ln(h))


@mistakes.add("norm_replaces_residual", "Con las dos piezas devolviste solo una: la subcapa leyó ln(h), pero no "
                                        "sumaste h (o sumaste h sin normalizar la entrada). Con las dos, es "
                                        "h + F(LN(h)).",
              label="devuelve una sola pieza",
              question="Con las dos piezas, escribí la salida como fórmula: ¿dónde aparece h y dónde ln(h)?")
def _norm_replaces_residual(h, subcapa, ln, residual, norma):
    if norma:
        return subcapa(ln(h))
    return h + subcapa(h) if residual else subcapa(h)


@mistakes.add("new_layer_norm", "Normalizaste con una LayerNorm nueva (o F.layer_norm sin pesos), no con la `ln` que "
                                "recibís: la nueva tiene γ = 1 y β = 0, y la de la capa tiene los suyos. Usá ln(h).",
              label="una LayerNorm nueva en vez de ln",
              question="¿Qué pierde una LayerNorm creada adentro de la función? ¿Dónde quedan los γ y β que aprendió "
                       "la capa?")
def _new_layer_norm(h, subcapa, ln, residual, norma):
    entrada = F.layer_norm(h, h.shape[-1:]) if norma else h
    return h + subcapa(entrada) if residual else subcapa(entrada)


# ---- the check
def assess(ex: Exercise, answer):
    """paso_variante(h, subcapa, ln, residual, norma): the four stacks' layer, for every combination."""
    return ex.judge_function(answer, _probes(), tensor_difference,
                             "Da lo mismo que la referencia en las cuatro variantes (ninguna pieza, solo residual, "
                             "solo LayerNorm, las dos), con entradas de dos formas.")


checker = Exercise("depth_step", reference=paso_variante, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="1. Cuatro pilas")
