"""helpers.check.block_count (helpers/check/exercises/block_count.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

from checking import (
    count_numpy,
    count_tensor,
    probes_of,
    table_tests,
)

import helpers
from helpers import check

NAME = "block_count"


def _block_count_three_ln(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model + 6 * d_model


RIGHT = [
    count_numpy(check.block_count.reference),
    count_tensor(check.block_count.reference),
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_block_count_three_ln, "explained", "te sobra una LayerNorm (2d)"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_reference_agrees_with_helpers():
    for d, f in ((512, 2048), (8, 24)):
        assert check.block_count.reference(d, f) == helpers.params.count_params(
            helpers.blocks.Block(d, 2, f, norm="pre"))


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4
