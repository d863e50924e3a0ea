"""helpers.check.rms_norm (helpers/check/exercises/rms_norm.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import pytest
import torch
from checking import (
    table_tests,
    tensor_probe_shapes,
)
from torch import nn

from helpers import check

NAME = "rms_norm"


def _rms_rsqrt(x, gamma, eps=1e-5):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * gamma


def _rms_module_inside(x, gamma, eps=1e-5):
    if not hasattr(nn, "RMSNorm"):  # torch < 2.4
        return _rms_rsqrt(x, gamma, eps)
    rms = nn.RMSNorm(x.shape[-1], eps=eps)
    with torch.no_grad():
        rms.weight.copy_(gamma)
    return rms(x)


def _rms_plus_one(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) + 1


RIGHT = [
    _rms_rsqrt,
    _rms_module_inside,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_rms_plus_one, "unknown", "esperaba"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


@pytest.mark.skipif(not hasattr(nn, "RMSNorm"), reason="torch without nn.RMSNorm")
def test_the_reference_agrees_with_torch():
    x, g = torch.randn(2, 3, 8), torch.rand(8) + 0.5
    rms = nn.RMSNorm(8, eps=1e-5)
    with torch.no_grad():
        rms.weight.copy_(g)
        assert torch.allclose(check.rms_norm.reference(x, g), rms(x), atol=1e-6)


def test_the_probes_hold_several_shapes_and_widths_in_float32():
    tensor_probe_shapes(NAME)
