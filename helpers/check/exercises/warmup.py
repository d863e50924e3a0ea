"""Notebook 05b (05's deep dive) · ``lr_warmup(paso, warmup, lr)``: the learning rate of step ``paso`` (1 is the
first) with a linear warmup of ``warmup`` steps, then constant at ``lr``; ``warmup = 0`` means none. It is how
``helpers.engine`` counts. Checked by ``helpers.check.warmup(lr_warmup)``."""

from __future__ import annotations

from .._core import Exercise, Gallery, Probe, number_difference

ORDER = ("05b", 1)  # notebook 05b, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def lr_warmup(paso, warmup, lr):  # paso 1 es el primero, como cuenta el motor
    if warmup == 0:
        return lr                                  # sin warmup: constante desde el principio
    return lr * min(1.0, paso / warmup)            # sube en línea recta y se queda en lr


HINTS = (
    "Durante el warmup el learning rate sube en línea recta: en el paso 1 vale lr/warmup y en el paso warmup llega a "
    "lr. Después se queda en lr.",
    "Pensalo como una fracción de lr que crece con el paso y nunca pasa de 1 (min te sirve). Con warmup = 0 no hay "
    "nada que dividir: es lr desde el primer paso.",
)


# ---- the inputs: along the ramp, at its ends, after it, without it, and other numbers
PROBES = [
    Probe("el primer paso", (1, 100, 1e-3), "paso = 1, warmup = 100, lr = 0.001"),
    Probe("la mitad del warmup", (50, 100, 1e-3), "paso = 50, warmup = 100, lr = 0.001"),
    Probe("el último paso del warmup", (100, 100, 1e-3), "paso = 100, warmup = 100, lr = 0.001"),
    Probe("justo después", (101, 100, 1e-3), "paso = 101, warmup = 100, lr = 0.001"),
    Probe("mucho después", (1000, 100, 1e-3), "paso = 1000, warmup = 100, lr = 0.001"),
    Probe("sin warmup", (1, 0, 1e-3), "paso = 1, warmup = 0, lr = 0.001"),
    Probe("warmup de un paso", (1, 1, 0.5), "paso = 1, warmup = 1, lr = 0.5"),
    Probe("otros números", (3, 4, 2.0), "paso = 3, warmup = 4, lr = 2"),
    Probe("otro lr y otro warmup", (5, 10, 3e-4), "paso = 5, warmup = 10, lr = 0.0003"),
]


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("zero_based", "Contaste los pasos desde 0: en el paso 1 ya das 2/warmup del lr. Acá el paso 1 es el "
                            "primero y da lr/warmup (así cuenta el motor que entrenó el barrido).",
              label="pasos contados desde 0",
              question="Con warmup = 4 y lr = 0.001, ¿cuánto vale el learning rate en el paso 1? ¿Y en el paso 4?")
def _zero_based(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(1.0, (paso + 1) / warmup)


@mistakes.add("starts_at_zero", "Tu primer paso tiene learning rate 0: (paso − 1)/warmup. El paso 1 ya da lr/warmup y "
                                "el paso warmup llega a lr.",
              label="primer paso con lr 0",
              question="¿Puede el primer paso tener learning rate 0? ¿Qué aprendería el modelo en ese paso?")
def _starts_at_zero(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(1.0, (paso - 1) / warmup)


@mistakes.add("no_plateau", "No hay meseta: después del warmup el learning rate sigue subiendo. Desde el paso warmup "
                            "en adelante es lr: la fracción no pasa de 1.",
              label="no se queda en lr",
              question="¿Qué pasa con el learning rate después de warmup pasos, en este esquema?")
def _no_plateau(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * paso / warmup


@mistakes.add("noam_decay", "Después del warmup lo hacés bajar como 1/√paso: eso es el esquema del paper de 2017. "
                            "Acá se pedía dejarlo constante en lr.",
              label="baja como 1/√paso",
              question="¿En qué se diferencia este warmup del esquema del paper de 2017? ¿Qué pasa después del pico "
                       "en cada uno?")
def _noam_decay(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(paso / warmup, (warmup / paso) ** 0.5)


@mistakes.add("constant", "No hay warmup: devolvés lr desde el primer paso.",
              label="sin warmup",
              question="Con warmup = 100, ¿cuánto vale el learning rate en el paso 1?")
def _constant(paso, warmup, lr):
    return lr


@mistakes.add("fixed_lr", "Usaste un lr fijo (0.001) en vez del `lr` que recibe la función.",
              label="lr fijo",
              question="¿Para qué recibe lr la función? ¿Qué da con lr = 0.01?")
def _fixed_lr(paso, warmup, lr):
    if warmup == 0:
        return 1e-3
    return 1e-3 * min(1.0, paso / warmup)


@mistakes.add("fixed_warmup", "Usaste un warmup fijo de 100 pasos en vez del `warmup` que recibe la función.",
              label="warmup fijo",
              question="¿Qué da tu función con warmup = 0, sin warmup? ¿Y con warmup = 500?")
def _fixed_warmup(paso, warmup, lr):
    return lr * min(1.0, paso / 100)


# ---- the check
def assess(ex: Exercise, answer):
    """lr_warmup(paso, warmup, lr) -> learning rate of step ``paso`` (1-based): linear warmup, then constant."""
    return ex.judge_function(answer, PROBES, number_difference,
                        "Sube en línea recta hasta lr en el paso warmup y se queda ahí; sin warmup, lr desde el "
                        f"principio: da lo mismo que la referencia en los {len(PROBES)} casos de prueba.")


checker = Exercise("warmup", reference=lr_warmup, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="4. ¿Ayuda el warmup?")
