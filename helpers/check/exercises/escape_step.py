"""Notebook 05 · ``paso_de_salida(pasos, aciertos, umbral=0.6)``: the first evaluated step whose accuracy reaches
the threshold (≥), or None if it never does. Checked by ``helpers.check.escape_step(paso_de_salida)``."""

from __future__ import annotations

from .._core import Difference, Exercise, Gallery, Probe, number_difference, render

ORDER = ("05", 1)  # notebook 05, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def paso_de_salida(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso                            # la primera evaluación que llega al umbral
    return None                                    # nunca salió


HINTS = (
    "Recorré las dos listas juntas, evaluación por evaluación (zip las empareja), y buscá la primera cuyo acierto "
    "llega al umbral: llegar incluye tocarlo justo.",
    "Apenas la encontrás, devolvé su paso: el número de paso, no su posición en la lista ni el acierto. Si el "
    "recorrido termina sin encontrarla, no salió: None.",
)


# ---- the inputs: curves that escape, that never do, that touch the threshold, that escape and fall back
_PASOS = list(range(25, 301, 25))
_CURVA = [0.38, 0.39, 0.39, 0.40, 0.45, 0.52, 0.65, 0.81, 0.9, 0.95, 0.97, 0.98]
PROBES = [
    Probe("sale en el paso 175", (_PASOS, _CURVA, 0.6), "la curva de 12 evaluaciones, cada 25 pasos, umbral = 0.6"),
    Probe("llega justo al umbral", ([25, 50, 75, 100], [0.4, 0.5, 0.6, 0.7], 0.6),
           "aciertos [0.4, 0.5, 0.6, 0.7] en los pasos [25, 50, 75, 100]"),
    Probe("nunca sale", ([25, 50, 75], [0.39, 0.41, 0.40], 0.6), "aciertos [0.39, 0.41, 0.4]"),
    Probe("sale, cae y vuelve a salir", ([100, 200, 300, 400], [0.3, 0.62, 0.5, 0.7], 0.6),
           "aciertos [0.3, 0.62, 0.5, 0.7] en los pasos [100, 200, 300, 400]"),
    Probe("umbral de 90 %", (_PASOS, _CURVA, 0.9), "la curva del primer caso, umbral = 0.9"),
    Probe("sale en la primera evaluación", ([10, 20], [0.7, 0.8], 0.6), "aciertos [0.7, 0.8] en los pasos [10, 20]"),
    Probe("pasos desparejos", ([10, 30, 70, 150], [0.2, 0.5, 0.65, 0.9], 0.6),
           "aciertos [0.2, 0.5, 0.65, 0.9] en los pasos [10, 30, 70, 150]"),
]


def _differ(expected, got):
    if expected is None:
        return None if got is None else Difference(f"dio {render(got)} y tenía que dar None: esa curva nunca sale",
                                                     "not_none")
    if got is None:
        return Difference("dio None, como si nunca hubiera salido")
    return number_difference(expected, got, integral=True)


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("strict", "Usaste > en vez de ≥: una evaluación con acierto justo igual al umbral ya cuenta como "
                        "salida.",
              label="> en vez de ≥",
              question="Si el acierto es justo 60 % y el umbral 0.6, ¿salió de la meseta?")
def _strict(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto > umbral:
            return paso
    return None


@mistakes.add("index", "Devolviste la posición en la lista, no el paso: el número de paso está en pasos.",
              label="la posición, no el paso",
              question="¿Qué hay en pasos y qué en aciertos? ¿Qué devolvés: una posición o un paso?")
def _index(pasos, aciertos, umbral=0.6):
    for i, acierto in enumerate(aciertos):
        if acierto >= umbral:
            return i
    return None


@mistakes.add("step_from_index", "Calculaste el paso a partir de la posición, como si las evaluaciones fueran cada "
                                 "25 pasos: (i + 1) · 25. Usá el paso que viene en la lista pasos.",
              label="paso calculado con la posición",
              question="¿Por qué no calcular el paso con la posición? ¿Qué pasa si las evaluaciones no están cada 25 "
                       "pasos?")
def _step_from_index(pasos, aciertos, umbral=0.6):
    for i, acierto in enumerate(aciertos):
        if acierto >= umbral:
            return (i + 1) * 25
    return None


@mistakes.add("accuracy", "Devolviste el acierto, no el paso en que se alcanzó.",
              label="devuelve el acierto",
              question="¿Qué pide la función: el acierto al salir, o el paso en que salió?")
def _accuracy(pasos, aciertos, umbral=0.6):
    for acierto in aciertos:
        if acierto >= umbral:
            return acierto
    return None


@mistakes.add("last", "Te quedaste con la última evaluación sobre el umbral, no con la primera: falta cortar el "
                      "recorrido apenas llega.",
              label="la última vez sobre el umbral",
              question="Si una corrida llega al 60 % en el paso 300, cae y vuelve en el 500, ¿en qué paso salió de la "
                       "meseta?")
def _last(pasos, aciertos, umbral=0.6):
    salida = None
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            salida = paso
    return salida


@mistakes.add("stays_above", "Buscaste desde cuándo se queda arriba del umbral hasta el final: se pide la primera "
                             "vez que llega, aunque después caiga.",
              label="desde cuándo se queda arriba",
              question="Si una corrida llega al 60 % en el paso 300, cae y vuelve en el 500, ¿en qué paso salió de la "
                       "meseta?")
def _stays_above(pasos, aciertos, umbral=0.6):
    salida = None
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            salida = paso if salida is None else salida
        else:
            salida = None
    return salida


@mistakes.add("last_when_never", "Cuando nunca llega al umbral devolvés el último paso, como si hubiera salido al "
                                 "final. Tiene que ser None: «no salió».",
              label="último paso si nunca sale",
              question="¿Qué tiene que devolver una corrida que nunca llega al umbral? ¿Por qué no su último paso?")
def _last_when_never(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso
    return pasos[-1]


@mistakes.add("minus_one", "Cuando nunca llega al umbral devolvés −1: usá None, que no se puede confundir con un paso.",
              label="−1 si nunca sale",
              question="¿Por qué None y no −1 para «no salió»? ¿Qué pasaría al sacar una mediana con −1?")
def _minus_one(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso
    return -1


@mistakes.add("fixed_threshold", "Usaste 0.6 fijo en vez del `umbral` que recibe la función.",
              label="umbral fijo",
              question="¿Para qué recibe umbral la función? ¿Qué cambia con un umbral de 90 %?")
def _fixed_threshold(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= 0.6:
            return paso
    return None


# ---- the check
def assess(ex: Exercise, answer):
    """paso_de_salida(pasos, aciertos, umbral=0.6) -> first step whose accuracy is >= umbral, or None."""
    return ex.judge_function(answer, PROBES, _differ,
                        "Da el primer paso que llega al umbral, o None si nunca llega, en las "
                        f"{len(PROBES)} curvas de prueba (" + ", ".join(f"«{p.name}»" for p in PROBES) + ").")


checker = Exercise("escape_step", reference=paso_de_salida, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="Salir de la meseta",
                   problems={"not_none": "da un paso donde va None"})
