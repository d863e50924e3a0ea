"""The lesson's claims, checked where the notebook makes them.

``claim(holds, statement, got)``: in a learner's session a claim that no longer holds (they changed a seed, a
depth, a step count) prints a Spanish note and the notebook goes on; under the test suite (``LECCION06_STRICT``
set, as ``tests/conftest.py`` and ``make execute`` do) it raises ``ClaimFailed``, so CI fails hard.
"""

from __future__ import annotations

import os

__all__ = ["STRICT_ENV", "ClaimFailed", "claim"]

STRICT_ENV = "LECCION06_STRICT"
_NOT_STRICT = ("", "0", "false", "no", "off")  # what the variable means as off; anything else is on


class ClaimFailed(AssertionError):
    """A claim of the lesson did not hold in a strict (test) run."""


def _strict() -> bool:
    return os.environ.get(STRICT_ENV, "").strip().lower() not in _NOT_STRICT


def _issues_url() -> str:
    """Where to report a problem: the repository's issues (its address from the installed package)."""
    from .check_env import repository_url

    repo = repository_url()
    return f"{repo}/issues" if repo else "el repositorio del curso"


def _truth(holds) -> bool:
    """bool(holds) for Python, numpy and one-element torch booleans; anything else is an authoring error."""
    if isinstance(holds, bool):
        return holds
    kind = type(holds).__module__.split(".")[0]
    if kind == "numpy" and getattr(holds, "shape", None) == () and holds.dtype.kind == "b":
        return bool(holds)
    if kind == "torch" and getattr(holds, "numel", lambda: 0)() == 1 and holds.dtype == _torch_bool():
        return bool(holds)
    raise TypeError(f"claim espera una condición verdadera o falsa (True/False) como primer argumento; "
                    f"recibió {type(holds).__name__}: {holds!r:.80}")


def _torch_bool():
    import torch  # only when a tensor came: claims stays importable without torch

    return torch.bool


def claim(holds, statement: str, got: str | None = None) -> None:
    """Check one sentence of the lesson: silent when it holds; otherwise a note (learner) or ClaimFailed (tests)."""
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError("claim espera, como segundo argumento, la frase de la lección que se comprueba (un texto).")
    if got is not None and not isinstance(got, str):
        raise TypeError(f"claim espera en got un texto con lo que dio la corrida; recibió {type(got).__name__}.")
    if _truth(holds):
        return
    said = f"La lección dice: {statement.strip().rstrip('.')}."
    ran = f"En esta corrida: {got.strip().rstrip('.')}." if got else "En esta corrida, no se cumple."
    if _strict():
        raise ClaimFailed(f"{said} {ran}")
    print(f"⚠️  {said}\n    {ran}\n"
          f"    Si cambiaste algo más arriba (una semilla, una cantidad de capas o de pasos), es esperable: el "
          f"notebook sigue.\n    Si no cambiaste nada, avisanos en {_issues_url()}: puede ser un error nuestro.")
