"""helpers.check.rms_norm (helpers/check/exercises/rms_norm.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
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


# dividing by the L2 norm ‖x‖ instead of the RMS ‖x‖ / √d, written the ways learners write it: the «Tu turno»
# prompt of notebook 03 promises the check recognizes it (issue: «dividir por la norma» got «No reconozco el error»)
def _norm_eps_outside(x, gamma, eps=1e-5):  # the blind read's answer, verbatim
    return x / (x.norm(dim=-1, keepdim=True) + eps) * gamma


def _linalg_norm_eps_outside(x, gamma, eps=1e-5):
    return gamma * x / (torch.linalg.vector_norm(x, dim=-1, keepdim=True) + eps)


def _norm_no_eps(x, gamma, eps=1e-5):
    return gamma * x / torch.linalg.norm(x, dim=-1, keepdim=True)


def _norm_eps_inside(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.norm(dim=-1, keepdim=True) ** 2 + eps)


def _normalize(x, gamma, eps=1e-5):
    return gamma * F.normalize(x, dim=-1)


def _normalize_eps(x, gamma, eps=1e-5):
    return F.normalize(x, p=2, dim=-1, eps=eps) * gamma


def _norm_clamped(x, gamma, eps=1e-5):
    return gamma * x / x.norm(dim=-1, keepdim=True).clamp(min=eps)


BY_THE_NORM = [
    (_norm_eps_outside, "norm_eps_outside"),
    (_linalg_norm_eps_outside, "norm_eps_outside"),
    (_norm_no_eps, "divided_by_norm"),
    (_norm_eps_inside, "sum_not_mean"),
    (_normalize, "normalize"),
    (_normalize_eps, "normalize_eps"),
    (_norm_clamped, "normalize_eps"),
]


@pytest.mark.parametrize("answer, mistake", BY_THE_NORM, ids=[a.__name__.strip("_") for a, _ in BY_THE_NORM])
def test_dividing_by_the_norm_is_named_whatever_its_eps(answer, mistake, no_device_seeding):
    verdict = check.rms_norm(answer)
    assert verdict.status == "wrong" and verdict.mistake == mistake, verdict
    flat = " ".join(verdict.message.split())
    assert "norma ‖x‖" in flat and "√d" in flat and "No reconozco" not in flat, verdict


def test_the_probes_hold_several_shapes_and_widths_in_float32():
    tensor_probe_shapes(NAME)
