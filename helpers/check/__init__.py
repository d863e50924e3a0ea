""""Tu turno": one checker per exercise. Each says which mistake was made, by name.

    helpers.check.layer_norm(mi_layer_norm)        # -> Verdict: not_attempted / correct / wrong, in Spanish
    helpers.check.layer_norm.hint(1)               # gentlest hint; hint(2), hint(3) say more
    helpers.check.layer_norm.solution()            # the reference code; .code is what to paste

A checker never raises because of the learner's code, stops code that does not return after a few seconds, and
leaves the learner's objects and every random generator as it found them.

Adding an exercise is one new module, ``exercises/<name>.py``, and nothing else in helpers: it sets ``ORDER = ("03",
position)`` (its notebook file's prefix: "03", or "02b" for a «Para ir más lejos» one), writes the reference,
``HINTS``, the known mistakes (``mistakes = Gallery()``, ``@mistakes.add(key, sentence, label="…",
question="¿…?")``: what the learner reads, then the short name and the question a teacher's class report shows, with
``section="…"`` where a heading other than the exercise's teaches it), ``assess(ex, answer) -> Verdict``, and
``checker = Exercise("<name>", reference=..., hints=HINTS, assess=assess, mistakes=mistakes, expects="...",
section="<the notebook heading of its «Tu turno»>")`` (and ``problems={key: "…"}``, what a key its ``assess`` gives
beyond the gallery means). The registry (``exercises.MODULES``) finds it; the alias ``helpers.check.<name>``,
``__all__``, the tests' list and helpers.grading's report come from there. It imports only the public toolkit of
``_core`` (its ``__all__``, documented in its docstring); the shared machinery is there. Outside helpers: its tests,
``tests/test_check_<name>.py``, and its cells in the notebook. (Put before another exercise of its notebook, it also
moves that one's ``ORDER``: the installed package has no notebook to read it from.)"""

from ._core import Verdict
from .exercises import MODULES as _MODULES

globals().update({_module.checker.name: _module.checker for _module in _MODULES})

__all__ = ["Verdict", *sorted(_module.checker.name for _module in _MODULES)]
