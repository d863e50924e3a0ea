"""Parameter counts: formulas against real modules, and clear errors for bad input."""

from __future__ import annotations

import pytest
from torch import nn

from helpers import params


@pytest.mark.parametrize("d", [8, 64, 512])
def test_formulas_match_real_modules(d):
    ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
    assert params.ffn_params(d) == params.count_params(ffn) == 8 * d * d + 5 * d
    assert params.attention_params(d) == params.count_params(nn.MultiheadAttention(d, 2))
    assert params.layernorm_params(d) == params.count_params(nn.LayerNorm(d))
    assert params.layernorm_params(d, bias=False) == params.count_params(nn.LayerNorm(d, bias=False))


def test_bias_free_counts():
    assert params.attention_params(8, bias=False) == 4 * 64
    assert params.ffn_params(8, 32, bias=False) == 2 * 8 * 32


def test_lesson_table():
    assert params.gpt_params(12, 8, 2) == 1_856
    assert params.gpt_params(50_257, 768, 12, ctx=1024) == 124_439_808
    assert params.gpt_params(50_257, 768, 12, ctx=2048) == 125_226_240
    assert params.gpt_params(50_257, 12_288, 96, ctx=2048) == 174_604_259_328


def test_count_params_on_meta_device():
    big = nn.Linear(12_288, 4 * 12_288, device="meta")
    assert params.count_params(big) == 12_288 * 4 * 12_288 + 4 * 12_288


@pytest.mark.parametrize("bad, exc, words", [
    (0, ValueError, "entero positivo"),
    (-3, ValueError, "entero positivo"),
    (2.5, TypeError, "entero positivo"),
    ("512", TypeError, "entero positivo"),
    (True, TypeError, "entero positivo"),
])
def test_bad_d_model(bad, exc, words):
    with pytest.raises(exc, match=words):
        params.ffn_params(bad)
    with pytest.raises(exc, match="d_model"):
        params.attention_params(bad)


def test_bad_ctx_and_module():
    with pytest.raises(ValueError, match="ctx debe ser un entero >= 0"):
        params.gpt_params(12, 8, 2, ctx=-1)
    with pytest.raises(TypeError, match="module debe ser un nn.Module"):
        params.count_params([1, 2, 3])
