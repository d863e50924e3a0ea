"""helpers.check.depth_step (notebook 02b, section 1): one layer of the four stacks, paso_variante(h, subcapa, ln,
residual, norma). The gallery-wide rules (each mistake named, stubs, timeouts) run for it in tests/test_check.py."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from helpers import check
from helpers.check.exercises import depth_step


def _flags_as_numbers(h, subcapa, ln, residual, norma):
    entrada = ln(h) if norma else h
    return int(residual) * h + subcapa(entrada)


def _early_returns(h, subcapa, ln, residual, norma):
    if norma and residual:
        return h + subcapa(ln(h))
    if norma:
        return subcapa(ln(h))
    if residual:
        return h + subcapa(h)
    return subcapa(h)


def test_right_answers_in_other_words_are_correct():
    for answer in (depth_step.paso_variante, _flags_as_numbers, _early_returns):
        verdict = check.depth_step(answer)
        assert verdict.status == "correct", verdict


def test_probes_cover_the_four_variants_in_two_shapes():
    with torch.no_grad():
        probes = depth_step._probes()
    assert {(p.args[3], p.args[4]) for p in probes} == {(False, False), (True, False), (False, True), (True, True)}
    assert len({tuple(p.args[0].shape) for p in probes}) >= 2
    assert all(p.args[0].dtype == torch.float32 for p in probes)


def test_post_norm_is_called_post_norm():
    def post(h, subcapa, ln, residual, norma):
        salida = h + subcapa(h) if residual else subcapa(h)
        return ln(salida) if norma else salida

    def post_only_with_both(h, subcapa, ln, residual, norma):
        if residual and norma:
            return ln(h + subcapa(h))
        return depth_step.paso_variante(h, subcapa, ln, residual, norma)

    for answer, mistake in ((post, "norm_after"), (post_only_with_both, "post_norm_both")):
        verdict = check.depth_step(answer)
        assert verdict.status == "wrong" and verdict.mistake == mistake, verdict
        assert "Esa es post-norm" in verdict.message and "entrada de la subcapa" in verdict.message, verdict


def test_a_swap_of_the_two_flags_is_named():
    def swapped(h, subcapa, ln, residual, norma):
        return depth_step.paso_variante(h, subcapa, ln, norma, residual)

    verdict = check.depth_step(swapped)
    assert verdict.status == "wrong" and verdict.mistake == "swapped", verdict


# normalizing with a LayerNorm of one's own instead of the `ln` received, written the ways learners write it: the
# prompt says «Usá la `ln` que recibís», and the blind read's fresh LayerNorm got «No reconozco el error»
def _fresh_module(h, subcapa, ln, residual, norma):
    entrada = nn.LayerNorm(h.shape[-1])(h) if norma else h
    return h + subcapa(entrada) if residual else subcapa(entrada)


def _functional(h, subcapa, ln, residual, norma):
    if norma:
        entrada = F.layer_norm(h, (h.shape[-1],))
    else:
        entrada = h
    return h + subcapa(entrada) if residual else subcapa(entrada)


def _fresh_module_always(h, subcapa, ln, residual, norma):
    norm = nn.LayerNorm(h.shape[-1])
    entrada = norm(h) if norma else h
    salida = subcapa(entrada)
    return h + salida if residual else salida


# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_fresh_module, "new_layer_norm", "no con la `ln` que recibís"),
    (_functional, "new_layer_norm", "F.layer_norm sin pesos"),
    (_fresh_module_always, "new_layer_norm", "γ = 1 y β = 0"),
]


@pytest.mark.parametrize("answer, mistake, phrase", NAMED, ids=[a.__name__.strip("_") for a, _, _ in NAMED])
def test_a_layer_norm_of_ones_own_is_named(answer, mistake, phrase, no_device_seeding):
    verdict = check.depth_step(answer)
    assert verdict.status == "wrong" and verdict.mistake == mistake, verdict
    flat = " ".join(verdict.message.split())
    assert phrase in flat and "No reconozco" not in flat, verdict


def test_the_stub_is_not_attempted():
    def paso_variante(h, subcapa, ln, residual, norma):
        ...

    assert check.depth_step(paso_variante).status == "not_attempted"
