"""helpers.check.depth_step (notebook 02b, section 1): one layer of the four stacks, paso_variante(h, subcapa, ln,
residual, norma). The gallery-wide rules (each mistake named, stubs, timeouts) run for it in tests/test_check.py."""

from __future__ import annotations

import torch

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


def test_the_stub_is_not_attempted():
    def paso_variante(h, subcapa, ln, residual, norma):
        ...

    assert check.depth_step(paso_variante).status == "not_attempted"
