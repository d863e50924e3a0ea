"""helpers.check.block_pre (helpers/check/exercises/block_pre.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from checking import (
    as_answer,
    table_tests,
)
from torch import nn

import helpers
from helpers import check
from helpers.check.exercises import block_pre as block_pre_module

NAME = "block_pre"


def _block_attn_direct(self, x):
    h = self.ln1(x)
    x = x + self.drop(self.attn(h, h, h)[0])
    return x + self.drop(self.ffn(self.ln2(x)))


def _block_functional_dropout(self, x):
    x = x + F.dropout(self.atencion(self.ln1(x)), self.drop.p, self.training)
    return x + F.dropout(self.ffn(self.ln2(x)), p=self.drop.p, training=self.training)


def _block_post_no_second_residual(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln2(self.drop(self.ffn(x)))


def block_dropout_always_on(self, x):
    x = x + F.dropout(self.atencion(self.ln1(x)), 0.1)
    return x + F.dropout(self.ffn(self.ln2(x)), 0.1)


def _block_dropout_in_ffn(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    h = self.drop(self.ffn[1](self.ffn[0](self.ln2(x))))
    return x + self.ffn[2](h)


def _block_fixed_size(self, x):
    x = x + self.drop(self.atencion(F.layer_norm(x, (32,), self.ln1.weight, self.ln1.bias)))
    return x + self.drop(self.ffn(self.ln2(x)))


def _block_in_place(self, x):
    x += self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln2(x)))


class _BlockRenamed(nn.Module):
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)

    def forward(self, x):
        return x


class _BlockOwnInit(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x


class _PlainClass:  # forgot nn.Module
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        self.d_model = d_model

    def forward(self, x):
        return x


RIGHT = [
    as_answer("block_pre", _block_attn_direct),
    as_answer("block_pre", _block_functional_dropout),
    block_pre_module.BloquePre(),
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_PlainClass, "not_a_module", "no hereda de nn.Module"),
    (as_answer("block_pre", _block_post_no_second_residual), "unknown", "esperaba"),
    (as_answer("block_pre", block_dropout_always_on), "dropout_always_on", "no se apaga"),
    (as_answer("block_pre", _block_dropout_in_ffn), "dropout_placement", "mismas tiradas al azar"),
    (as_answer("block_pre", _block_fixed_size), "raised", "RuntimeError"),
    (as_answer("block_pre", _block_in_place), "mutated_input", "in-place"),
    (_BlockRenamed, "missing_parts", "no les cambies los nombres"),
    (_BlockOwnInit, "raised", "El __init__ es el del enunciado"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_a_module_that_raises_is_reported_with_its_line():
    class BloqueRoto(block_pre_module.BloquePre):
        def forward(self, x):
            return self.atencion(x, x)

    verdict = check.block_pre(BloqueRoto)
    assert verdict.mistake == "raised" and "TypeError" in verdict.message and "self.atencion(x, x)" in verdict.message


def test_the_class_is_built_at_several_sizes():
    assert len(block_pre_module.SIZES) >= 2 and block_pre_module.SIZES[0] == {}  # the notebook's defaults first
    assert len({s.get("dropout", 0.1) for s in block_pre_module.SIZES}) == 2  # a fixed p shows


def test_reference_block_matches_helpers_block():
    torch.manual_seed(0)
    ours = block_pre_module.BloquePre(32, 4, 64, dropout=0.0).eval()
    lib = helpers.blocks.Block(32, 4, 64, dropout=0.0, norm="pre").eval()
    pairs = list(zip(ours.parameters(), lib.parameters(), strict=True))  # same modules, same order
    with torch.no_grad():
        for a, b in pairs:
            b.copy_(a)
        x = torch.randn(2, 5, 32)
        assert torch.allclose(ours(x), lib(x), atol=1e-6)



class _BatchSecond(block_pre_module.BloquePre):
    """The learner's own __init__: attention with batch_first=False, and a forward that never transposes."""

    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__(d_model, n_heads, d_ff, dropout)
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=False)

    def forward(self, x):
        x = x + self.drop(self.atencion(self.ln1(x)))
        return x + self.drop(self.ffn(self.ln2(x)))


class _BatchSecondTransposed(_BatchSecond):
    def atencion(self, x):
        x = x.transpose(0, 1)
        return self.attn(x, x, x, need_weights=False)[0].transpose(0, 1)


class _DropoutInFFN(block_pre_module.BloquePre):
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__(d_model, n_heads, d_ff, dropout)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))

    def forward(self, x):
        x = x + self.drop(self.atencion(self.ln1(x)))
        return x + self.drop(self.ffn(self.ln2(x)))


def test_the_reference_is_built_by_the_checker_not_from_the_learners_modules(no_device_seeding):
    """Issue 32: with the reference bound to the learner's block, these two passed; the statement's BloquePre,
    carrying the learner's weights, tells them apart."""
    verdict = check.block_pre(_BatchSecond)
    assert verdict.mistake == "attention_not_batch_first" and "batch_first=False" in verdict.message, verdict
    verdict = check.block_pre(_DropoutInFFN)
    assert verdict.mistake == "dropout_in_ffn" and "nn.Dropout adentro" in verdict.message, verdict
    assert check.block_pre(_BatchSecondTransposed).status == "correct"  # transposing is right, whatever the layout
