"""helpers.check.mask (helpers/check/exercises/mask.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import torch
from checking import (
    probes_of,
    table_tests,
)

import helpers
from helpers import check

NAME = "mask"


def _mask_inf(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))


def _mask_full(T):
    return torch.full((T, T), float("-inf")).triu(1)


def _mask_not_tril(T):
    return ~torch.ones(T, T, dtype=torch.bool).tril()


def _mask_big_negative(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -1e9)


def mask_ints(T):
    return torch.triu(torch.ones(T, T, dtype=torch.long), 1)


def _mask_list(T):
    return [[j > i for j in range(T)] for i in range(T)]


def _mask_batched(T):
    return torch.triu(torch.ones(1, T, T, dtype=torch.bool), 1)


def _mask_fixed_size(T):
    return torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)


def _mask_two_off(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=2)


RIGHT = [
    _mask_inf,
    _mask_full,
    _mask_not_tril,
    _mask_big_negative,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (mask_ints, "int_mask", "máscara de enteros"),
    (_mask_list, "type", "no un tensor"),
    (_mask_batched, "shape", "tiene que ser (4, 4)"),
    (_mask_fixed_size, "shape", "para T = 1 tiene que ser (1, 1): ¿quedó un número fijo en vez de T?"),
    (_mask_two_off, "unknown", "esperaba"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_a_very_negative_mask_is_correct_with_a_note():
    verdict = check.mask(_mask_big_negative)
    assert verdict.status == "correct" and "número muy negativo" in verdict.message


def test_the_reference_is_helpers_causal_mask():
    for T in (1, 5):
        assert torch.equal(check.mask.reference(T), helpers.blocks.causal_mask(T))


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4


def test_a_mask_on_the_meta_device_is_named_not_a_checker_error():
    def en_meta(T):
        return torch.ones(T, T, dtype=torch.bool, device="meta").triu(1)

    en_meta(2)  # torch's first meta operation loads its meta kernels (seconds on a busy machine): not the answer's time
    verdict = check.mask(en_meta)
    assert verdict.mistake == "meta_tensor" and "dispositivo meta" in verdict.message, verdict
    assert "El checker no pudo" not in verdict.message


def test_in_graded_mode_no_hint_left_on_names_the_answers_function(monkeypatch):
    """torch.triu with diagonal=1 is the whole answer: the hint that names it is the last, which graded mode turns
    off; the ones left on say what the mask means, not how to build it."""
    monkeypatch.setenv(check._core.GRADED_ENV, "1")
    ex = getattr(check, NAME)
    shown = [str(ex.hint(n)) for n in range(1, len(ex.hints) + 1)]
    assert "triu" in ex.hints[-1] and "triu" not in shown[-1]
    assert not any("triu" in text for text in shown), shown
    monkeypatch.setenv(check._core.GRADED_ENV, "0")
    assert "triu" in str(ex.hint(len(ex.hints)))
