"""Notebook 01 · ``params_ffn(d_model, d_ff)``: how many numbers the paper's FFN has, for any d_ff (not only 4·d).
Checked by ``helpers.check.ffn_count(params_ffn)``."""

from __future__ import annotations

from .._core import Exercise, Gallery, Probe, judge_count

ORDER = ("01", 2)  # notebook 01, its second exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def params_ffn(d_model, d_ff):
    return d_model * d_ff + d_ff + d_ff * d_model + d_model  # W1 y b1, W2 y b2


HINTS = (
    "Contá capa por capa. Una nn.Linear(a, b) guarda una matriz de a × b pesos y un sesgo con un número por cada "
    "salida.",
    "La FFN son dos lineales: d_model → d_ff y d_ff → d_model. Sumá lo de cada una; fijate bien cuántas salidas "
    "tiene cada capa, que es el tamaño de su sesgo.",
)


# ---- the inputs: the paper's sizes and others, d_ff never tied to d_model
PROBES = [
    Probe("el paper", (512, 2048), "d_model = 512, d_ff = 2048"),
    Probe("d_ff que no es 4·d_model", (8, 24), "d_model = 8, d_ff = 24"),
    Probe("chiquita", (3, 7), "d_model = 3, d_ff = 7"),
    Probe("d_ff menor que d_model", (100, 30), "d_model = 100, d_ff = 30"),
]


def _terms(args) -> dict:
    d, h = args
    return {"el sesgo de la primera capa (d_ff números)": h, "el sesgo de la segunda (d_model números)": d,
            "una matriz d_model × d_ff": d * h}


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("no_biases", "Te faltan los dos sesgos: b1 (d_ff números) y b2 (d_model).",
              label="sin sesgos",
              question="¿Cuántos números tiene b₁ y cuántos b₂? ¿Por qué no son del mismo tamaño?")
def _no_biases(d_model, d_ff):
    return 2 * d_model * d_ff


@mistakes.add("no_b2", "Te falta el sesgo de la segunda capa, b2: d_model números.",
              label="falta b₂",
              question="La segunda lineal devuelve d_model números: ¿cuántos sesgos le suma?")
def _no_b2(d_model, d_ff):
    return 2 * d_model * d_ff + d_ff


@mistakes.add("no_b1", "Te falta el sesgo de la primera capa, b1: d_ff números.",
              label="falta b₁",
              question="La primera lineal tiene d_ff neuronas: ¿cuántos sesgos lleva?")
def _no_b1(d_model, d_ff):
    return 2 * d_model * d_ff + d_model


@mistakes.add("biases_both_d_model", "Contaste los dos sesgos con d_model números: b1 es el de la primera capa, que "
                                     "sale con d_ff números.",
              label="los dos sesgos de d_model",
              question="¿Cuántos números devuelve cada lineal? ¿Por qué eso decide el tamaño de su sesgo?")
def _biases_both_d_model(d_model, d_ff):
    return 2 * d_model * d_ff + 2 * d_model


@mistakes.add("biases_both_d_ff", "Contaste los dos sesgos con d_ff números: b2 es el de la segunda capa, que sale "
                                  "con d_model números.",
              label="los dos sesgos de d_ff",
              question="b₂ se suma a lo que devuelve la segunda lineal: ¿cuántos números son?")
def _biases_both_d_ff(d_model, d_ff):
    return 2 * d_model * d_ff + 2 * d_ff


@mistakes.add("one_matrix", "Contaste una sola matriz: son dos, d_model × d_ff a la ida y d_ff × d_model a la "
                            "vuelta.",
              label="una sola matriz",
              question="¿Cuántas matrices de pesos tiene la FFN, y de qué forma es cada una?")
def _one_matrix(d_model, d_ff):
    return d_model * d_ff + d_ff + d_model


@mistakes.add("four_d", "Usaste d_ff = 4·d_model, como el paper; la función recibe d_ff: usá ese.",
              label="d_ff = 4·d_model fijo",
              question="El paper usa d_ff = 4·d_model: ¿qué da tu función para un modelo con d_ff = 3·d_model?")
def _four_d(d_model, d_ff):
    return 8 * d_model**2 + 5 * d_model


# ---- the check
def assess(ex: Exercise, answer):
    """params_ffn(d_model, d_ff) -> the FFN's number of parameters, with biases."""
    return judge_count(ex, answer, PROBES, _terms,
                        "La cuenta exacta, con las dos matrices y los dos sesgos, para los tamaños del paper y para "
                        "otros donde d_ff no es 4·d_model.")


checker = Exercise("ffn_count", reference=params_ffn, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="3. ¿Dónde están los pesos? Contemos parámetros")
