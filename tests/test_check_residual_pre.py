"""helpers.check.residual_pre (helpers/check/exercises/residual_pre.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import torch
from checking import (
    table_tests,
    tensor_probe_shapes,
)

NAME = "residual_pre"


def _pre_two_lines(x, subcapa, ln):
    normalizado = ln(x)
    return torch.add(x, subcapa(normalizado))


def _pre_double_skip(x, subcapa, ln):
    return 2 * x + subcapa(ln(x))


RIGHT = [
    _pre_two_lines,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_pre_double_skip, "unknown", "esperaba"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_probes_hold_several_shapes_and_widths_in_float32():
    tensor_probe_shapes(NAME)
