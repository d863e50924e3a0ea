"""Notebook 04 · ``perdida_en_uso(modelo, frases)``: the mean loss, in nats per word, of predicting each next word
of ``frases`` with the causal mask, as a model is used when writing. Checked by
``helpers.check.use_loss(perdida_en_uso)``."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ... import grammar
from ...blocks import GPT
from .._core import Exercise, Gallery, Probe, number_difference

ORDER = (4, 3)  # notebook 04, its third exercise: the registry lists exercises in this order


# ---- the reference: solution() shows this source, and the checker compares against it
def perdida_en_uso(modelo, frases):
    logits = modelo(frases[:, :-1])  # con máscara: cada palabra ve solo las anteriores, como al escribir
    return F.cross_entropy(logits.flatten(0, 1), frases[:, 1:].flatten()).item()  # la siguiente de cada una


HINTS = (
    "Al escribir, el modelo lee las palabras 0 a T−2 y en cada lugar adivina la que sigue: las entradas son "
    "frases[:, :-1] y las respuestas, frases[:, 1:].",
    "Llamá al modelo como se lo usa: modelo(entradas), con su máscara (causal=True, lo que hace si no le decís "
    "nada). Da logits de forma (frases, palabras, 12).",
    "F.cross_entropy quiere logits de forma (N, 12) y respuestas (N,): aplaná con .flatten(0, 1) y .flatten(). "
    "Su promedio ya está en nats por palabra; devolvé un número con .item().",
)


# ---- the inputs: small GPTs at random, sequences of the grammar of different lengths
def _model(seed, d_model, n_layers, n_heads):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return GPT(len(grammar.WORDS), d_model, n_layers, ctx=20, n_heads=n_heads).eval()


def _frases(n, k, seed):
    return grammar.sample(n, k, torch.Generator().manual_seed(seed))


PROBES = [
    Probe("3 frases por secuencia", (_model(0, 16, 1, 2), _frases(4, 3, 0)),
           "un GPT al azar (d = 16, 1 bloque) y 4 secuencias de 16 palabras"),
    Probe("una frase por secuencia", (_model(1, 16, 1, 2), _frases(6, 1, 1)),
           "otro GPT al azar y 6 secuencias de 6 palabras"),
    Probe("dos bloques", (_model(2, 8, 2, 2), _frases(5, 2, 2)),
           "un GPT al azar de 2 bloques (d = 8) y 5 secuencias de 11 palabras"),
]


def _differ(expected, got):
    return number_difference(expected, got)


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("no_mask", "Lo evaluaste sin máscara (causal=False): cada lugar vio la palabra que tenía que adivinar. "
                         "Al escribir, esa palabra todavía no existe; medilo con la máscara.")
def _no_mask(modelo, frases):
    logits = modelo(frases[:, :-1], causal=False)
    return F.cross_entropy(logits.flatten(0, 1), frases[:, 1:].flatten()).item()


@mistakes.add("no_shift", "Comparaste cada lugar con su propia palabra, no con la siguiente: el modelo adivina la "
                          "palabra que viene. Entradas frases[:, :-1], respuestas frases[:, 1:].")
def _no_shift(modelo, frases):
    return F.cross_entropy(modelo(frases).flatten(0, 1), frases.flatten()).item()


@mistakes.add("backwards", "Corriste las frases para el otro lado: el modelo lee frases[:, :-1] y adivina "
                           "frases[:, 1:], no al revés.")
def _backwards(modelo, frases):
    return F.cross_entropy(modelo(frases[:, 1:]).flatten(0, 1), frases[:, :-1].flatten()).item()


@mistakes.add("bits", "Diste la pérdida en bits (dividiste por ln 2): la lección la mide en nats, con el logaritmo "
                      "natural, como F.cross_entropy.")
def _bits(modelo, frases):
    return perdida_en_uso(modelo, frases) / math.log(2)


@mistakes.add("sum", "Sumaste la pérdida de todas las palabras en vez de promediarla: se pide nats por palabra.")
def _sum(modelo, frases):
    logits = modelo(frases[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), frases[:, 1:].flatten(), reduction="sum").item()


@mistakes.add("per_sequence", "Promediaste por secuencia, no por palabra: sumaste las pérdidas de cada secuencia y "
                              "dividiste por cuántas secuencias hay.")
def _per_sequence(modelo, frases):
    logits = modelo(frases[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), frases[:, 1:].flatten(), reduction="sum").item() / len(frases)


@mistakes.add("last_only", "Mediste solo la última palabra de cada secuencia: al entrenar y al medir cuenta cada "
                           "lugar, cada uno adivinando la siguiente.")
def _last_only(modelo, frases):
    return F.cross_entropy(modelo(frases[:, :-1])[:, -1], frases[:, -1]).item()


@mistakes.add("softmax_twice", "Le pasaste probabilidades a F.cross_entropy: ella ya aplica softmax, así que quiere "
                               "los logits tal cual.")
def _softmax_twice(modelo, frases):
    probs = modelo(frases[:, :-1]).softmax(-1)
    return F.cross_entropy(probs.flatten(0, 1), frases[:, 1:].flatten()).item()


# ---- the check
def assess(ex: Exercise, answer):
    """perdida_en_uso(modelo, frases) -> mean nats per word, next word, with the causal mask."""
    return ex.judge_function(answer, PROBES, _differ,
                             "Da la pérdida de la referencia, con máscara y en nats por palabra, en las "
                             f"{len(PROBES)} entradas de prueba (" + ", ".join(f"«{p.name}»" for p in PROBES) + ").")


checker = Exercise("use_loss", reference=perdida_en_uso, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla")
