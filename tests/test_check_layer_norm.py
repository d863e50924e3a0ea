"""helpers.check.layer_norm (helpers/check/exercises/layer_norm.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from checking import (
    table_tests,
    tensor_probe_shapes,
)
from torch import nn

from helpers import check

NAME = "layer_norm"


def _ln_functional(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)


def _ln_module_inside(x, gamma, beta, eps=1e-5):
    ln = nn.LayerNorm(x.shape[-1], eps=eps)
    with torch.no_grad():
        ln.weight.copy_(gamma)
        ln.bias.copy_(beta)
    return ln(x)


def _ln_float(x, gamma, beta, eps=1e-5):
    x = x.float()
    var, media = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
    return gamma.float() * (x - media) / (var + eps).sqrt() + beta.float()


def _ln_float64_inside(x, gamma, beta, eps=1e-5):
    h = x.double()
    h = (h - h.mean(-1, keepdim=True)) / torch.sqrt(h.var(-1, keepdim=True, unbiased=False) + eps)
    return (gamma * h + beta).float()


def _ln_no_sqrt(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    return gamma * (x - media) / (x.var(-1, keepdim=True, unbiased=False) + eps) + beta


def _ln_no_return(x, gamma, beta, eps=1e-5):
    gamma * (x - x.mean(-1, keepdim=True)) + beta


RIGHT = [
    _ln_functional,
    _ln_module_inside,
    _ln_float,
    _ln_float64_inside,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_ln_no_sqrt, "unknown", "esperaba"),
    (_ln_no_return, "no_return", "falta el `return`"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_a_dtype_clash_is_explained():
    def doble(x, gamma, beta, eps=1e-5):
        return gamma.double() @ torch.ones(gamma.shape[-1], x.shape[-1]) + beta + x

    verdict = check.layer_norm(doble)
    assert verdict.mistake == "raised" and "float32, como en el notebook" in verdict.message, verdict


def test_called_with_the_result_instead_of_the_function():
    verdict = check.layer_norm(check.layer_norm.reference(torch.randn(4), 1.0, 0.0))
    assert "sin llamarla" in verdict.message and "un tensor de forma (4,)" in verdict.message


def test_the_reference_agrees_with_torch():
    x, g, b = torch.randn(2, 3, 8), torch.rand(8) + 0.5, torch.randn(8)
    ln = nn.LayerNorm(8)
    with torch.no_grad():
        ln.weight.copy_(g)
        ln.bias.copy_(b)
        assert torch.allclose(check.layer_norm.reference(x, g, b), ln(x), atol=1e-6)


def test_the_probes_hold_several_shapes_and_widths_in_float32():
    tensor_probe_shapes(NAME)


def test_an_answer_in_float16_is_named_by_its_dtype():
    def en_float16(x, gamma, beta, eps=1e-5):
        return check.layer_norm.reference(x.half(), gamma.half(), beta.half(), eps)

    verdict = check.layer_norm(en_float16)
    assert verdict.mistake == "dtype" and "float16" in verdict.message and "float32" in verdict.message, verdict
    assert "No reconozco" not in verdict.message
