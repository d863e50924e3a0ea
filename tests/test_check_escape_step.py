"""helpers.check.escape_step (helpers/check/exercises/escape_step.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import numpy as np
import torch
from checking import (
    probes_of,
    table_tests,
)
from conftest import ROOT

from helpers import lesson

NAME = "escape_step"


def _escape_numpy(pasos, aciertos, umbral=0.6):
    arriba = np.flatnonzero(np.asarray(aciertos) >= umbral)
    return np.asarray(pasos)[arriba[0]] if len(arriba) else None


def _escape_torch(pasos, aciertos, umbral=0.6):
    arriba = (torch.tensor(aciertos) >= umbral).nonzero()
    return torch.tensor(pasos)[arriba[0, 0]] if len(arriba) else None


def _escape_next(pasos, aciertos, umbral=0.6):
    return next((p for p, a in zip(pasos, aciertos) if a >= umbral), None)


def _escape_next_step(pasos, aciertos, umbral=0.6):
    for i, a in enumerate(aciertos):
        if a >= umbral:
            return pasos[min(i + 1, len(pasos) - 1)]
    return None


def _escape_text(pasos, aciertos, umbral=0.6):
    return "175"


RIGHT = [
    _escape_numpy,
    _escape_torch,
    _escape_next,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_escape_next_step, "unknown", "esperaba"),
    (_escape_text, "type", "no un número"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4


def test_the_prompt_states_the_convention_the_check_expects():
    """An accuracy equal to the threshold counts as escaping (the probe «llega justo al umbral»; the gallery names >):
    the «Tu turno» prompt says ≥, not only hint(1) (issue 45)."""
    nb = lesson.read(ROOT / "notebooks" / "05_norm_placement.ipynb")
    prompt = next(lesson.source(nb["cells"][ex.prompt]) for ex in lesson.exercise_cells(nb) if ex.name == NAME)
    assert "≥" in prompt and "`>=`" in prompt, f"the prompt of {NAME} does not say ≥ (`>=`): {prompt[:200]}"
