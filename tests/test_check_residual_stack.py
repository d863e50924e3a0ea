"""helpers.check.residual_stack (helpers/check/exercises/residual_stack.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import functools

import torch
from checking import (
    probes_of,
    table_tests,
    tensor_probe_shapes,
)

NAME = "residual_stack"


def _stack_reduce(x, subcapas):
    return functools.reduce(lambda h, f: h + f(h), subcapas, x)


def _stack_index(x, subcapas):
    i = 0
    while i < len(subcapas):
        x = x + subcapas[i](x)
        i += 1
    return x


def _stack_on_a_copy(x, subcapas):
    h = x.clone()
    for f in subcapas:
        h += f(h)  # in place, but on its own copy: the caller's x is untouched
    return h


def _stack_in_place(x, subcapas):
    for f in subcapas:
        x += f(x)
    return x


def _stack_pops(x, subcapas):
    while subcapas:
        x = x + subcapas.pop(0)(x)
    return x


def _stack_half(x, subcapas):
    for f in subcapas:
        x = x + 0.5 * f(x)
    return x


def _stack_first_and_input(x, subcapas):
    return [x]


RIGHT = [
    _stack_reduce,
    _stack_index,
    _stack_on_a_copy,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_stack_in_place, "mutated_input", "in-place"),
    (_stack_pops, "mutated_input", "cambia lo que recibe"),
    (_stack_half, "unknown", "esperaba"),
    (_stack_first_and_input, "type", "no un tensor"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_the_probes_hold_several_lengths_including_none():
    with torch.no_grad():
        lengths = sorted(len(p.args[1]) for p in probes_of(NAME))
    assert lengths[0] == 0 and 1 in lengths and lengths[-1] >= 3


def test_the_probes_hold_several_shapes_and_widths_in_float32():
    tensor_probe_shapes(NAME)
