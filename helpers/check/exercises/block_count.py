"""Notebook 04 · ``params_bloque(d_model, d_ff)``: the parameters of one encoder block (multi-head attention, FFN,
two LayerNorms, every bias), for any d_ff. Checked by ``helpers.check.block_count(params_bloque)``."""

from __future__ import annotations

from .._core import Exercise, Gallery, Probe, judge_count

ORDER = ("04", 3)  # notebook 04, its third exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def params_bloque(d_model, d_ff):
    atencion = 4 * d_model * d_model + 4 * d_model     # W_Q, W_K, W_V, W_O y sus sesgos
    ffn = 2 * d_model * d_ff + d_ff + d_model          # dos matrices y dos sesgos
    layernorms = 2 * (2 * d_model)                     # dos LayerNorm, γ y β cada una
    return atencion + ffn + layernorms


HINTS = (
    "Tres partes: la atención, la FFN y las LayerNorm. Contá cada una por separado y después sumá.",
    "La atención tiene cuatro proyecciones de d_model a d_model (Q, K, V y la de salida), cada una con su sesgo; el "
    "número de cabezas no cambia la cuenta. Hay una LayerNorm por subcapa, y cada una guarda γ y β. La FFN es la del "
    "notebook 01.",
)


# ---- the inputs: the paper's sizes and others, d_ff never tied to d_model
PROBES = [
    Probe("el paper", (512, 2048), "d_model = 512, d_ff = 2048"),
    Probe("d_ff que no es 4·d", (8, 24), "d_model = 8, d_ff = 24"),
    Probe("chiquito", (3, 7), "d_model = 3, d_ff = 7"),
    Probe("d_ff menor que d_model", (100, 30), "d_model = 100, d_ff = 30"),
]


def _terms(args) -> dict:
    d, h = args
    return {"un sesgo de d_ff": h, "un sesgo de d_model": d, "una matriz d_model × d_ff": d * h,
            "una matriz d × d": d * d, "una LayerNorm (2d)": 2 * d}


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("missing_4d", "Te faltan 4d: o los sesgos de la atención (4d, uno de d por cada W_Q, W_K, W_V, W_O) o "
                            "las dos LayerNorm (2d cada una, γ y β). Con solo el total no puedo saber cuál.",
              label="le faltan 4d",
              question="¿Qué piezas de un bloque miden d cada una? Contalas: sesgos de la atención, γ y β de cada "
                       "LayerNorm.")
def _missing_4d(d_model, d_ff):
    return 4 * d_model**2 + 2 * d_model * d_ff + d_ff + d_model + 4 * d_model


@mistakes.add("no_w_o", "Contaste la atención con tres matrices: falta W_O, la proyección de salida (d² + d).",
              label="falta W_O",
              question="¿Cuántas proyecciones tiene la atención? ¿Para qué está la cuarta?")
def _no_w_o(d_model, d_ff):
    return 3 * d_model**2 + 3 * d_model + 2 * d_model * d_ff + d_ff + d_model + 4 * d_model


@mistakes.add("layer_norms_2d", "Tus LayerNorm suman 2d y son 4d: hay dos por bloque, una por subcapa, y cada una "
                                "tiene γ y β (2d). ¿Contaste una sola, o cada una con d?",
              label="LayerNorm: 2d en vez de 4d",
              question="¿Cuántas LayerNorm tiene un bloque y cuántos números aprende cada una?")
def _layer_norms_2d(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model + 2 * d_model


@mistakes.add("ffn_no_biases", "Te faltan los sesgos de la FFN: d_ff + d_model.",
              label="sin los sesgos de la FFN",
              question="¿Cuántos sesgos tiene la FFN y de qué tamaño es cada uno?")
def _ffn_no_biases(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + 4 * d_model


@mistakes.add("no_biases", "Te faltan todos los sesgos (4d de la atención, d_ff + d de la FFN).",
              label="sin sesgos",
              question="¿Qué piezas del bloque llevan sesgo? ¿Cuántos números suma cada una?")
def _no_biases(d_model, d_ff):
    return 4 * d_model**2 + 2 * d_model * d_ff + 4 * d_model


@mistakes.add("four_d", "Usaste d_ff = 4·d_model, como el paper; la función recibe d_ff: usá ese.",
              label="d_ff = 4·d_model fijo",
              question="¿Para qué recibe d_ff la función, si el paper usa 4·d_model?")
def _four_d(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 8 * d_model**2 + 5 * d_model + 4 * d_model


@mistakes.add("per_head", "Multiplicaste la atención por el número de cabezas (8 en el paper): las h cabezas se "
                          "reparten d_model, así que W_Q, W_K y W_V siguen siendo de d × d en total.",
              label="atención multiplicada por las cabezas",
              question="Con 8 cabezas de d/8, ¿cuántos números tiene W_Q en total?")
def _per_head(d_model, d_ff):
    return 8 * (4 * d_model**2 + 4 * d_model) + 2 * d_model * d_ff + d_ff + d_model + 4 * d_model


# ---- the check
def assess(ex: Exercise, answer):
    """params_bloque(d_model, d_ff) -> an encoder block's number of parameters, with biases."""
    return judge_count(ex, answer, PROBES, _terms,
                        "La cuenta exacta del bloque (atención, FFN y dos LayerNorm, con todos los sesgos), para los "
                        "tamaños del paper y para otros donde d_ff no es 4·d_model.")


checker = Exercise("block_count", reference=params_bloque, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="6. Contar los parámetros de un bloque")
