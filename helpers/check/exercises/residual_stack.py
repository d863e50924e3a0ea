"""Notebook 02 · ``apilar(x, subcapas)``: the residual stream through a list of sublayers. Each sublayer, in order,
reads the stream as it is and adds its contribution (x ← x + f(x)); the result is the final stream. Checked by
``helpers.check.residual_stack(apilar)``."""

from __future__ import annotations

import torch
from torch import nn

from .._core import Exercise, Gallery, Probe, seeded_generator, tensor_difference

ORDER = ("02", 1)  # notebook 02, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def apilar(x, subcapas):
    for subcapa in subcapas:
        x = x + subcapa(x)  # cada subcapa lee la corriente como está y le suma su aporte
    return x


HINTS = (
    "Recorré la lista con un for. Cada subcapa lee la corriente tal como quedó después de la anterior, no la x del "
    "principio.",
    "En cada vuelta, la corriente no se reemplaza: a lo que ya traía se le suma lo que aporta la subcapa al leerla. "
    "Cuando el for termina, lo que queda es la corriente final (con una lista vacía, x tal cual).",
)


# ---- the inputs: sublayers that do not commute (so order matters), several lengths and shapes
def _sublayers(d: int, n: int, g: torch.Generator) -> list[nn.Module]:
    """``n`` small, different nonlinear sublayers of width ``d`` (float32, like the notebook)."""
    capas = []
    for _ in range(n):
        capa = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))
        for p in capa.parameters():
            p.copy_(torch.randn(p.shape, generator=g) * 0.6)
        capas.append(capa)
    return capas


def _probes() -> list[Probe]:
    g = seeded_generator(2)
    return [
        Probe("3 subcapas, 2 frases × 4 tokens, d = 6", (torch.randn(2, 4, 6, generator=g), _sublayers(6, 3, g)),
               "x de forma (2, 4, 6)"),
        Probe("una sola subcapa", (torch.randn(1, 6, generator=g) * 2, _sublayers(6, 1, g)), "x de forma (1, 6)"),
        Probe("2 subcapas, d = 5", (torch.randn(3, 5, generator=g), _sublayers(5, 2, g)), "x de forma (3, 5)"),
        Probe("ninguna subcapa", (torch.randn(2, 5, generator=g), []), "subcapas = [], x de forma (2, 5)"),
        Probe("4 subcapas, d = 8", (torch.randn(2, 3, 8, generator=g) + 1, _sublayers(8, 4, g)),
               "x de forma (2, 3, 8)"),
    ]


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("replaces", "Reemplazaste en vez de sumar: x = subcapa(x) deja solo lo que dice la última subcapa "
                          "y la corriente pierde lo que traía. Eso es una red sin residual.",
              label="reemplaza en vez de sumar",
              question="Después de tres subcapas, ¿dónde quedó la x del principio si cada una reemplaza a la "
                       "corriente? ¿Y si suma?")
def _replaces(x, subcapas):
    for subcapa in subcapas:
        x = subcapa(x)
    return x


@mistakes.add("all_read_input", "Todas las subcapas leyeron la x del principio: sumaste x + f₁(x) + f₂(x) + …. En la "
                                "pila, cada subcapa lee la corriente como la dejó la anterior.",
              label="todas leen la x del principio", section="4. Sin nada en el medio, la salida es una suma",
              question="En x₃ = x₀ + F₁(x₀) + F₂(x₁) + F₃(x₂), ¿qué lee F₂? ¿Por qué no F₂(x₀)?")
def _all_read_input(x, subcapas):
    return x + sum(subcapa(x) for subcapa in subcapas)


@mistakes.add("adds_input_each_step", "En cada paso sumaste la x del principio, no la corriente: h = x + f(h). La "
                                      "corriente que sale de cada paso es la que entró más el aporte.",
              label="suma la x del principio en cada paso", section="4. Sin nada en el medio, la salida es una suma",
              question="Si cada paso hace h = x + f(h), ¿qué se pierde de lo que sumaron las subcapas de antes?")
def _adds_input_each_step(x, subcapas):
    h = x
    for subcapa in subcapas:
        h = x + subcapa(h)
    return h


@mistakes.add("reversed", "Aplicaste las subcapas al revés, de la última a la primera: el orden de la lista es el "
                          "orden de la pila.",
              label="subcapas al revés",
              question="¿En qué orden atraviesa la corriente la lista de subcapas? ¿Importa el orden, si cada una lee "
                       "lo que dejó la anterior?")
def _reversed(x, subcapas):
    for subcapa in reversed(subcapas):
        x = x + subcapa(x)
    return x


@mistakes.add("only_contributions", "Devolviste solo la suma de los aportes, sin la x del principio: la corriente es "
                                    "x más todo lo que le sumaron las subcapas.",
              label="solo los aportes, sin la x", section="4. Sin nada en el medio, la salida es una suma",
              question="Si todas las subcapas devolvieran 0, ¿qué tendría que salir de la pila?")
def _only_contributions(x, subcapas):
    aportes = 0
    for subcapa in subcapas:
        aporte = subcapa(x)
        aportes = aportes + aporte
        x = x + aporte
    return aportes


@mistakes.add("input_twice", "Sumaste la x del principio otra vez al final: la corriente ya la trae adentro, "
                             "contada una vez.",
              label="la x contada dos veces", section="4. Sin nada en el medio, la salida es una suma",
              question="¿Cuántas veces aparece x₀ en x₃? Contalo en la fórmula de la sección 4.")
def _input_twice(x, subcapas):
    h = x
    for subcapa in subcapas:
        h = h + subcapa(h)
    return x + h


@mistakes.add("return_in_loop", "Tu return está adentro del for: devolvés apenas termina la primera subcapa, y con la "
                                "lista vacía no devolvés nada. El return va después del for.",
              label="return adentro del for",
              question="¿Qué tiene que devolver la función con una lista vacía de subcapas? ¿Y con una sola?")
def _return_in_loop(x, subcapas):
    for subcapa in subcapas:
        x = x + subcapa(x)
        return x


@mistakes.add("only_first", "Usaste solo la primera subcapa (subcapas[0]): hay que pasar por todas, en orden.",
              label="solo la primera subcapa",
              question="¿Por cuántas subcapas pasa la corriente en una pila de tres? ¿Qué aporte suma cada una?")
def _only_first(x, subcapas):
    return x + subcapas[0](x)


@mistakes.add("only_last", "Usaste solo la última subcapa (subcapas[-1]): hay que pasar por todas, en orden.",
              label="solo la última subcapa",
              question="Con tres subcapas, ¿cuántos aportes tiene que juntar la corriente?")
def _only_last(x, subcapas):
    return x + subcapas[-1](x)


@mistakes.add("nothing_applied", "Devolviste x sin pasarla por ninguna subcapa.",
              label="no aplica ninguna subcapa",
              question="¿Qué le pasa a la corriente al cruzar una subcapa? Escribilo para una, después para dos.")
def _nothing_applied(x, subcapas):
    return x


@mistakes.add("multiplies", "Multiplicaste la corriente por el aporte: el residual es una suma, x + f(x).",
              label="multiplica en vez de sumar",
              question="¿Por qué x + F(x) y no x · F(x)? ¿Qué le pasa a x si F(x) da 0 en cada caso?")
def _multiplies(x, subcapas):
    for subcapa in subcapas:
        x = x * subcapa(x)
    return x


@mistakes.add("list_of_streams", "Devolviste la lista con la corriente después de cada subcapa; se pide solo la "
                                 "corriente final, un tensor.",
              label="devuelve una lista",
              question="¿Qué forma tiene lo que sale de una subcapa? ¿Y lo que sale de la pila entera?")
def _list_of_streams(x, subcapas):
    corrientes = []
    for subcapa in subcapas:
        x = x + subcapa(x)
        corrientes.append(x)
    return corrientes


# ---- the check
def assess(ex: Exercise, answer):
    """apilar(x, subcapas): each sublayer in order, each with its residual; the final stream."""
    probes = _probes()
    return ex.judge_function(answer, probes, tensor_difference,
                        "Cada subcapa, en orden, lee la corriente y le suma su aporte: da lo mismo que la referencia "
                        "con 0, 1, 2, 3 y 4 subcapas y con entradas de varias formas.")


checker = Exercise("residual_stack", reference=apilar, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="1. Sumar en vez de reemplazar")
