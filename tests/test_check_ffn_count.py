"""helpers.check.ffn_count (helpers/check/exercises/ffn_count.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import numpy as np
import torch
from checking import (
    count_float,
    count_numpy,
    count_tensor,
    probes_of,
    table_tests,
)

import helpers
from helpers import check
from helpers.check.exercises import ffn as ffn_module

NAME = "ffn_count"


def _ffn_count_np_prod(d_model, d_ff):
    return np.prod([d_model, d_ff]) * 2 + d_ff + d_model


def _ffn_count_constant(d_model, d_ff):
    return 2_099_712


def _ffn_count_half(d_model, d_ff):
    return (2 * d_model * d_ff + d_ff + d_model) + 0.5


def _ffn_count_1d(d_model, d_ff):
    return torch.tensor([2 * d_model * d_ff + d_ff + d_model])


def _ffn_count_squared(d_model, d_ff):
    return d_model**2 + d_ff**2


RIGHT = [
    count_numpy(check.ffn_count.reference),
    count_tensor(check.ffn_count.reference),
    count_float(check.ffn_count.reference),
    _ffn_count_np_prod,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_ffn_count_constant, "hard_coded", "2 099 712 para todos los tamaños que probé"),
    (_ffn_count_half, "non_integral", "no es un número entero"),
    (_ffn_count_1d, "type", ".item()"),
    (_ffn_count_squared, "unknown", "esperaba"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_reference_agrees_with_helpers():
    for d, f in ((512, 2048), (8, 24)):
        assert check.ffn_count.reference(d, f) == helpers.params.ffn_params(d, f)
    assert check.ffn_count.reference(512, 2048) == helpers.params.count_params(ffn_module.MiFFN(512, 2048))


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4
