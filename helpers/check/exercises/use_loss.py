"""Notebook 04b · ``perdida_en_uso(modelo, ids)``: the mean loss, in nats per word (a number), of predicting each next
word of ``ids`` with the causal mask, as a model is used when writing. Checked by
``helpers.check.use_loss(perdida_en_uso)``."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ... import grammar
from ...blocks import GPT
from .._core import Exercise, Gallery, Probe, number_difference

ORDER = ("04b", 1)  # notebook 04b (a deep dive of 04), its first exercise: the registry lists exercises in this order


# ---- the reference: solution() shows this source, and the checker compares against it
def perdida_en_uso(modelo, ids):
    logits = modelo(ids[:, :-1])  # con máscara: cada palabra ve solo las anteriores, como al escribir
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).item()  # la siguiente de cada una


HINTS = (
    "Al escribir, el modelo lee las palabras 0 a T−2 y en cada lugar adivina la que sigue: las entradas son "
    "ids[:, :-1] y las respuestas, ids[:, 1:].",
    "Llamá al modelo como se lo usa: modelo(entradas), con su máscara (causal=True, lo que hace si no le decís "
    "nada). Da logits de forma (secuencias, palabras, 12).",
    "F.cross_entropy quiere logits de forma (N, 12) y respuestas (N,): aplaná con .flatten(0, 1) y .flatten(). "
    "Su promedio ya está en nats por palabra; devolvé un número con .item().",
)


# ---- the inputs: small GPTs at random, sequences of the grammar of different lengths; two of the GPTs have as
# many positions as words they read (T - 1, like the notebook's: 15 for 16 ids), so all T ids do not fit
def _model(seed, d_model, n_layers, n_heads, ctx):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return GPT(len(grammar.WORDS), d_model, n_layers, ctx=ctx, n_heads=n_heads).eval()


def _frases(n, k, seed):
    return grammar.sample(n, k, torch.Generator().manual_seed(seed))


PROBES = [
    Probe("3 frases por secuencia", (_model(0, 16, 1, 2, 15), _frases(4, 3, 0)),
           "un GPT al azar (d = 16, 1 bloque, ctx = 15) y 4 secuencias de 16 palabras"),
    Probe("una frase por secuencia", (_model(1, 16, 1, 2, 5), _frases(6, 1, 1)),
           "otro GPT al azar (ctx = 5) y 6 secuencias de 6 palabras"),
    Probe("dos bloques", (_model(2, 8, 2, 2, 20), _frases(5, 2, 2)),
           "un GPT al azar de 2 bloques (d = 8, ctx = 20) y 5 secuencias de 11 palabras"),
]


def _differ(expected, got):
    return number_difference(expected, got)


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("no_mask", "Lo evaluaste sin máscara (causal=False): cada lugar vio la palabra que tenía que adivinar. "
                         "Al escribir, esa palabra todavía no existe; medilo con la máscara.",
              label="sin máscara",
              question="Al escribir, ¿puede el modelo ver la palabra que tiene que adivinar? ¿Qué pérdida da el que "
                       "aprendió a copiar cuando no puede?")
def _no_mask(modelo, ids):
    logits = modelo(ids[:, :-1], causal=False)
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).item()


@mistakes.add("no_shift", "Comparaste cada lugar con su propia palabra, no con la siguiente: el modelo adivina la "
                          "palabra que viene. Entradas ids[:, :-1], respuestas ids[:, 1:].",
              label="sin correr las respuestas",
              question="¿Qué tiene que adivinar el lugar i: la palabra i o la i + 1? ¿Qué parte de ids son las "
                       "entradas y qué parte las respuestas?")
def _no_shift(modelo, ids):
    return F.cross_entropy(modelo(ids).flatten(0, 1), ids.flatten()).item()


@mistakes.add("own_word", "Comparaste cada palabra consigo misma: el lugar i tiene que adivinar la palabra i + 1, la "
                          "que todavía no vio. Las entradas son ids[:, :-1] y las respuestas son ids[:, 1:].",
              label="cada palabra contra sí misma",
              question="Con las entradas ids[:, :-1], ¿qué palabra tiene que adivinar el lugar i? ¿Ya la vio, "
                       "o todavía no?")
def _own_word(modelo, ids):
    logits = modelo(ids[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), ids[:, :-1].flatten()).item()


@mistakes.add("own_word_late", "Comparaste cada palabra consigo misma: el lugar i tiene que adivinar la palabra "
                               "i + 1, la que todavía no vio. Las entradas son ids[:, :-1] y las respuestas son "
                               "ids[:, 1:].",
              label="contra sí misma, desde la segunda",
              question="Con las entradas ids[:, 1:], ¿qué palabra adivina el lugar i, y cuál le das como respuesta? "
                       "¿Qué parte de ids son las entradas?")
def _own_word_late(modelo, ids):
    logits = modelo(ids[:, 1:])
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).item()


@mistakes.add("all_ids", "Le pasaste al modelo las T palabras y después cortaste los logits: con máscara daría lo "
                         "mismo, pero el modelo tiene ctx posiciones, una por palabra que lee, y lee a lo sumo T − 1 "
                         "(en el notebook, 15 de 16): la última no la lee nunca, solo se adivina. Pasale ids[:, :-1].",
              label="le pasa las 16 palabras",
              question="¿Cuántas posiciones tiene el modelo (modelo.ctx) y cuántas palabras cada secuencia? ¿Cuál no "
                       "necesita leer nunca?")
def _all_ids(modelo, ids):
    logits = modelo(ids)[:, :-1]
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten()).item()


@mistakes.add("backwards", "Corriste las secuencias para el otro lado: el modelo lee ids[:, :-1] y adivina "
                           "ids[:, 1:], no al revés.",
              label="al revés",
              question="¿Hacia dónde lee un GPT? ¿Qué serían entradas y respuestas si leyera al revés?")
def _backwards(modelo, ids):
    return F.cross_entropy(modelo(ids[:, 1:]).flatten(0, 1), ids[:, :-1].flatten()).item()


@mistakes.add("bits", "Diste la pérdida en bits (dividiste por ln 2): la lección la mide en nats, con el logaritmo "
                      "natural, como F.cross_entropy.",
              label="en bits, no en nats",
              question="¿En qué unidad mide la lección la pérdida? ¿Cuánto es ln 12 en nats, y en bits?")
def _bits(modelo, ids):
    return perdida_en_uso(modelo, ids) / math.log(2)


@mistakes.add("sum", "Sumaste la pérdida de todas las palabras en vez de promediarla: se pide nats por palabra.",
              label="suma en vez de promedio",
              question="¿Por qué se promedia la pérdida por palabra? ¿Qué le pasaría a una suma con el doble de "
                       "secuencias?")
def _sum(modelo, ids):
    logits = modelo(ids[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten(), reduction="sum").item()


@mistakes.add("per_sequence", "Promediaste por secuencia, no por palabra: sumaste las pérdidas de cada secuencia y "
                              "dividiste por cuántas secuencias hay.",
              label="promedio por secuencia",
              question="¿Es lo mismo promediar por secuencia que por palabra? ¿Cuántas palabras adivina cada "
                       "secuencia?")
def _per_sequence(modelo, ids):
    logits = modelo(ids[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten(), reduction="sum").item() / len(ids)


@mistakes.add("last_only", "Mediste solo la última palabra de cada secuencia: al entrenar y al medir cuenta cada "
                           "lugar, cada uno adivinando la siguiente.",
              label="solo la última palabra",
              question="¿Cuántas predicciones hace el modelo en una secuencia de 16 palabras? ¿Cuáles cuentan en la "
                       "pérdida?")
def _last_only(modelo, ids):
    return F.cross_entropy(modelo(ids[:, :-1])[:, -1], ids[:, -1]).item()


@mistakes.add("softmax_twice", "Le pasaste probabilidades a F.cross_entropy: ella ya aplica softmax, así que quiere "
                               "los logits tal cual.",
              label="softmax antes de cross_entropy",
              question="¿Qué espera F.cross_entropy: logits o probabilidades? ¿Qué hace ella por dentro?")
def _softmax_twice(modelo, ids):
    probs = modelo(ids[:, :-1]).softmax(-1)
    return F.cross_entropy(probs.flatten(0, 1), ids[:, 1:].flatten()).item()


# ---- the check
def assess(ex: Exercise, answer):
    """perdida_en_uso(modelo, ids) -> mean nats per word, next word, with the causal mask."""
    return ex.judge_function(answer, PROBES, _differ,
                             "Da la pérdida de la referencia, con máscara y en nats por palabra, en las "
                             f"{len(PROBES)} entradas de prueba (" + ", ".join(f"«{p.name}»" for p in PROBES) + ").")


checker = Exercise("use_loss", reference=perdida_en_uso, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="1. Un GPT con máscara y otro sin ella")
