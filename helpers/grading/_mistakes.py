"""What a class report says about a checker's key, for a teacher. A named mistake's short name, section and class
question are its checker's (``label``, ``section``, ``question`` of its gallery ``Mistake``, written beside it in
``helpers/check/exercises/<name>.py``), and so is what each key its checker alone gives means (``problems``); this
module keeps only what is no exercise's own: what the keys any checker or the grader can give mean (``OTHER``),
and each notebook's file and title. Such keys are «otro error» in a report."""

from __future__ import annotations

__all__ = ["NOTEBOOKS", "OTHER", "entry", "other_label", "problems"]

# an exercise module's ORDER[0] (its notebook file's prefix: "02", "02b") -> (the file's stem, its title as its first
# cell gives it)
NOTEBOOKS = {
    "01": ("01_ffn", "La feed-forward network"),
    "02": ("02_residual_stream", "El residual stream"),
    "02b": ("02b_96_capas", "96 capas, pieza por pieza"),
    "03": ("03_layernorm", "LayerNorm a mano"),
    "04": ("04_encoder_block", "El bloque encoder, contra PyTorch"),
    "04b": ("04b_gpt_con_mascara", "Un GPT con máscara y otro sin ella, y la letra chica del bloque"),
    "05": ("05_norm_placement", "Post-norm contra pre-norm"),
    "05b": ("05b_semillas_profundidad_warmup", "Semillas, profundidad y warmup"),
}

# Keys any checker can give beyond its gallery (helpers/check/_core.py's), and the grader's: "missing", "error" and
# "not_graded" (helpers.grading._grade).
OTHER = {
    "raised": "su código falla al correr",
    "timeout": "no terminó a tiempo",
    "unknown": "un error que el control no reconoce",
    "explained": "falta o sobra un término que no es de los típicos",
    "no_return": "no devuelve nada",
    "wrong_input": "le pasó al control otra cosa que la pedida",
    "bad_call": "llamó al control sin su respuesta",
    "checker_error": "el control no pudo evaluarla",
    "mutated_input": "cambia lo que recibe (una operación in-place)",
    "hard_coded": "da un número fijo para todos los tamaños",
    "not_a_module": "su clase no hereda de nn.Module",
    "type": "devuelve otro tipo de cosa",
    "shape": "devuelve otra forma",
    "dtype": "devuelve otro tipo de número",
    "meta_tensor": "devuelve un tensor sin números (meta)",
    "non_integral": "da una cantidad con decimales",
    "missing": "faltaba o falló la celda de su respuesta",
    "error": "la prueba misma falló",
    "not_graded": "no se calificó: el kernel se cortó antes",
}


def _checkers() -> dict:
    from ..check.exercises import MODULES
    return {m.checker.name: m.checker for m in MODULES}


def entry(exercise: str, key: str):
    """The checker's gallery ``Mistake`` ``key`` of ``exercise`` (its ``label``, ``section``, ``question``); None for
    any other key (then «otro error»)."""
    checker = _checkers().get(exercise)
    return next((m for m in checker.mistakes if m.key == key), None) if checker else None


def problems(exercise: str) -> dict[str, str]:
    """What each key ``exercise``'s checker can give beyond its gallery means: its own problems, then OTHER."""
    checker = _checkers().get(exercise)
    return {**OTHER, **(checker.problems if checker else {})}


def other_label(key: str) -> str:
    """What a key beyond the galleries means, in Spanish (a key means one thing in every checker: the tests say
    so); a key nobody wrote down is shown as it is."""
    every = {k: v for checker in _checkers().values() for k, v in checker.problems.items()}
    return {**every, **OTHER}.get(key, f"«{key}»")
