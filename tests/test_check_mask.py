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


def _mask_minus_1e4(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -1e4)


def test_a_very_negative_mask_is_correct_with_a_note():
    verdict = check.mask(_mask_big_negative)
    assert verdict.status == "correct" and "número muy negativo" in verdict.message


def test_the_note_on_a_very_negative_mask_says_what_float32_does():
    """Notebook 04's exercise 2 shows e^(−1e4) is exactly 0 in float32: the note must not say the blocked weight is
    only small. It says it is exactly 0, and why −∞ is still the convention (any score; PyTorch's own for a bool)."""
    for answer in (_mask_minus_1e4, _mask_big_negative):
        message = " ".join(check.mask(answer).message.split())
        assert "0 exacto" in message and "no es 0 exacto" not in message and "apenas chico" not in message, message
        assert "−∞" in message and "convención" in message and "bool" in message, message


def test_what_the_note_says_holds():
    """The note's facts: e^x is exactly 0 in float32 below x = −104 (not at −103); a −1e4 mask gives the future
    weight 0 exactly through nn.MultiheadAttention, as −∞ does; a fixed number fails when a blocked score beats
    the allowed ones by nearly that number, −∞ never; and a bool mask weighs exactly as 0 and −∞ do."""
    assert torch.exp(torch.tensor(-104.0)).item() == 0.0 < torch.exp(torch.tensor(-103.0)).item()
    torch.manual_seed(0)
    attn = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    x = torch.randn(3, 6, 8)
    for answer in (_mask_minus_1e4, _mask_inf, helpers.blocks.causal_mask):
        _, w = attn(x, x, x, attn_mask=answer(6), average_attn_weights=False)
        assert w.triu(1).abs().sum().item() == 0.0, answer.__name__
    scores = torch.tensor([0.0, 2e4])  # the blocked one (second) beats the allowed one by 2e4
    assert torch.softmax(scores + _mask_minus_1e4(2)[0], -1)[1].item() == 1.0
    assert torch.softmax(scores + _mask_inf(2)[0], -1)[1].item() == 0.0
    weights = [attn(x, x, x, attn_mask=m, average_attn_weights=False)[1] for m in (helpers.blocks.causal_mask(6),
                                                                                    _mask_inf(6))]
    assert torch.equal(*weights)  # a bool mask is 0 and −∞ to PyTorch


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
