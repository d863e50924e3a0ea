"""helpers.check.gpt_count (helpers/check/exercises/gpt_count.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import numpy as np
from checking import (
    count_float,
    count_tensor,
    probes_of,
    table_tests,
)

import helpers
from helpers import check

NAME = "gpt_count"


def _gpt_numpy(vocab, d_model, n_layers, ctx):
    d = np.int64(d_model)
    return vocab * d + ctx * d + n_layers * (12 * d * d + 13 * d) + 2 * d


def _gpt_no_pos_no_final(vocab, d_model, n_layers, ctx):
    d = d_model
    return vocab * d + n_layers * (12 * d * d + 13 * d)


def _gpt_output_bias(vocab, d_model, n_layers, ctx):
    d = d_model
    salida = vocab  # la matriz atada no se cuenta otra vez, pero le sumé su sesgo
    return vocab * d + ctx * d + n_layers * (12 * d * d + 13 * d) + 2 * d + salida


def _gpt_plus_seven(vocab, d_model, n_layers, ctx):
    return check.gpt_count.reference(vocab, d_model, n_layers, ctx) + 7


RIGHT = [
    _gpt_numpy,
    count_tensor(check.gpt_count.reference),
    count_float(check.gpt_count.reference),
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_gpt_no_pos_no_final, "explained",
     "te falta ctx × d (las posiciones) y te falta una LayerNorm (2d)"),
    (_gpt_plus_seven, "unknown", "la diferencia es 7"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_reference_agrees_with_helpers():
    for V, d, L, ctx in ((50257, 768, 12, 1024), (12, 8, 2, 0)):
        assert check.gpt_count.reference(V, d, L, ctx) == helpers.params.gpt_params(V, d, L, ctx)


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4


def test_an_output_bias_is_named():
    """A learner who ties the output but gives it a bias (+V) reads that mistake's name, not «No reconozco»."""
    verdict = check.gpt_count(_gpt_output_bias)
    assert verdict.status == "wrong" and verdict.mistake == "output_bias", verdict
    assert "No reconozco" not in verdict.message and "sin sesgo" in verdict.message, verdict.message
