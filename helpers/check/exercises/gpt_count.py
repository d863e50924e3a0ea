"""Notebook 04b · ``params_gpt(vocab, d_model, n_layers, ctx)``: a GPT-2-style model's parameters: token and
learned position embeddings, n_layers pre-norm blocks with d_ff = 4·d_model and biases, a final LayerNorm, the
output matrix tied to the token embedding. Checked by ``helpers.check.gpt_count(params_gpt)``."""

from __future__ import annotations

from .._core import Exercise, Gallery, Probe, judge_count

ORDER = ("04b", 2)  # notebook 04b (a deep dive of 04), its second exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def params_gpt(vocab, d_model, n_layers, ctx):
    d, d_ff = d_model, 4 * d_model
    embeddings = vocab * d + ctx * d                   # tokens y posiciones; la salida reusa la de tokens
    bloque = (4 * d * d + 4 * d) + (2 * d * d_ff + d_ff + d) + 2 * (2 * d)
    return embeddings + n_layers * bloque + 2 * d      # y la LayerNorm final


HINTS = (
    "Tres partes: los embeddings (de tokens y de posiciones), n_layers bloques iguales y una LayerNorm final. La "
    "salida reusa la matriz de los embeddings de tokens: no la cuentes dos veces.",
    "Un bloque de GPT-2 es el de params_bloque con d_ff = 4·d_model. Las posiciones aprendidas son una fila de "
    "d_model números por cada una de las ctx posiciones.",
    "La LayerNorm final va una sola vez, después del último bloque, y tiene γ y β.",
)


# ---- the inputs: GPT-2 small and small models
PROBES = [
    Probe("GPT-2 small", (50257, 768, 12, 1024), "vocab = 50 257, d_model = 768, 12 capas, ctx = 1 024"),
    Probe("el de juguete", (12, 8, 2, 0), "vocab = 12, d_model = 8, 2 capas, ctx = 0"),
    Probe("otro chico", (100, 16, 3, 10), "vocab = 100, d_model = 16, 3 capas, ctx = 10"),
    Probe("una capa", (7, 4, 1, 5), "vocab = 7, d_model = 4, 1 capa, ctx = 5"),
]


def _terms(args) -> dict:
    V, d, L, ctx = args
    return {"una matriz de vocab × d": V * d, "ctx × d (las posiciones)": ctx * d,
            "una LayerNorm (2d)": 2 * d, "una LayerNorm por bloque (L·2d)": 2 * L * d,
            "un sesgo de d por bloque (L·d)": L * d, "un sesgo de 4d por bloque (L·4d)": 4 * L * d,
            "una matriz d × d por bloque (L·d²)": L * d * d}


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("no_final_layer_norm", "Te falta la LayerNorm final, la que va después del último bloque: 2d.",
              label="sin la LayerNorm final",
              question="¿Dónde está la LayerNorm final de GPT-2, y por qué la necesita un modelo pre-norm?")
def _no_final_layer_norm(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 2 * d * 4 * d + 4 * d + d + 4 * d
    return vocab * d + ctx * d + n_layers * bloque


@mistakes.add("no_positions", "Te faltan los embeddings de posición: ctx × d (una fila aprendida por posición).",
              label="sin embeddings de posición",
              question="¿Cómo sabe GPT-2 en qué posición está cada token? ¿Cuántos números aprende para eso?")
def _no_positions(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return vocab * d + n_layers * bloque + 2 * d


@mistakes.add("untied_output", "Contaste la matriz de salida aparte: GPT-2 la comparte con el embedding de tokens "
                               "(«tied»), así que V × d va una sola vez.",
              label="salida sin atar",
              question="¿Qué quiere decir que la salida está atada al embedding? ¿Cuántos parámetros ahorra en GPT-2 "
                       "small?")
def _untied_output(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return 2 * vocab * d + ctx * d + n_layers * bloque + 2 * d


@mistakes.add("output_bias", "Le sumaste un sesgo a la salida: V números de más. En GPT-2 la salida es la matriz "
                             "de los embeddings de tokens, atada y sin sesgo.",
              label="sesgo en la salida",
              question="¿Qué tiene la capa de salida de GPT-2 además de la matriz atada? ¿Cuántos parámetros "
                       "agregaría un sesgo?")
def _output_bias(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return vocab * d + ctx * d + n_layers * bloque + 2 * d + vocab


@mistakes.add("layer_norm_d", "Contaste cada LayerNorm con d: son 2d (γ y β), en los bloques y en la final.",
              label="LayerNorm con d",
              question="¿Cuántos números aprende una LayerNorm de d dimensiones?")
def _layer_norm_d(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 2 * d
    return vocab * d + ctx * d + n_layers * bloque + d


@mistakes.add("missing_4d_per_block", "Te faltan 4d por bloque: o las dos LayerNorm de cada bloque (2d cada una) o "
                                      "los sesgos de la atención (4d). Con solo el total no puedo saber cuál.",
              label="le faltan 4d por bloque",
              question="Contá, por bloque, lo que mide d: sesgos de la atención y γ y β de cada LayerNorm. ¿Cuánto "
                       "suman?")
def _missing_4d_per_block(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d
    return vocab * d + ctx * d + n_layers * bloque + 2 * d


@mistakes.add("no_biases", "Te faltan los sesgos de los bloques: 4d en la atención y 4d + d en la FFN.",
              label="sin sesgos",
              question="¿Qué sesgos tiene un bloque de GPT-2 y cuántos números suman?")
def _no_biases(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 8 * d * d + 4 * d
    return vocab * d + ctx * d + n_layers * bloque + 2 * d


@mistakes.add("one_block", "Contaste un solo bloque: son n_layers bloques iguales, cada uno con sus propios pesos.",
              label="un solo bloque",
              question="¿Los n_layers bloques comparten pesos? ¿Cuántos parámetros aporta cada uno?")
def _one_block(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return vocab * d + ctx * d + bloque + 2 * d


# ---- the check
def assess(ex: Exercise, answer):
    """params_gpt(vocab, d_model, n_layers, ctx) -> a GPT-2-style model's parameters (tied output, final LN)."""
    return judge_count(ex, answer, PROBES, _terms,
                        "La cuenta exacta para GPT-2 small (124 439 808) y para los modelos chicos que probé, con las "
                        "posiciones, la LayerNorm final y la salida atada a los embeddings.")


checker = Exercise("gpt_count", reference=params_gpt, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="5. Un GPT entero, hasta GPT-3")
