"""toydata.spiral and probes.grad_norms."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from helpers import probes, toydata


def test_spiral_is_deterministic_and_balanced():
    x1, y1 = toydata.spiral(1000, seed=3)
    x2, y2 = toydata.spiral(1000, seed=3)
    assert torch.equal(x1, x2) and torch.equal(y1, y2)
    assert x1.shape == (1000, 2) and set(y1.tolist()) == {0, 1}
    assert 0.4 < y1.float().mean().item() < 0.6
    assert not torch.equal(toydata.spiral(1000, seed=4)[0], x1)


@pytest.mark.parametrize("kwargs, words", [
    ({"n": 0}, "n debe ser un entero positivo"),
    ({"n": 10, "seed": -1}, "seed debe ser un entero >= 0"),
    ({"n": 10, "noise": 2.0}, "noise debe ser un número en"),
])
def test_spiral_bad_input(kwargs, words):
    with pytest.raises((ValueError, TypeError), match=words):
        toydata.spiral(**kwargs)


def test_grad_norms():
    lin = nn.Linear(3, 2)
    lin(torch.ones(1, 3)).sum().backward()
    norms = probes.grad_norms([lin.weight, lin.bias])
    assert norms == pytest.approx([6**0.5, 2**0.5])


def test_grad_norms_bad_input():
    with pytest.raises(ValueError, match="loss.backward"):
        probes.grad_norms([nn.Linear(2, 2).weight])
    with pytest.raises(TypeError, match="params debe ser tensores"):
        probes.grad_norms([1.0])
    with pytest.raises(ValueError, match="params está vacío"):
        probes.grad_norms([])
