"""toydata.spiral, probes.grad_norms and training.train_classifier."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from helpers import probes, toydata, training


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
    with pytest.raises(TypeError, match="espera tensores"):
        probes.grad_norms([1.0])
    with pytest.raises(ValueError, match="ningún parámetro"):
        probes.grad_norms([])


def test_train_classifier_learns_a_linear_task_and_is_reproducible():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(400, 2, generator=g)
    y = (x[:, 0] > 0).long()

    def run():
        torch.manual_seed(0)
        return training.train_classifier(nn.Linear(2, 2), (x, y), (x, y), steps=200, lr=0.05, eval_every=50)

    h1, h2 = run(), run()
    assert h1 == h2
    assert h1["step"] == [0, 50, 100, 150, 200]
    assert h1["acc"][-1] > 0.95 and h1["acc"][-1] > h1["acc"][0]


@pytest.mark.parametrize("kwargs, words", [
    ({"steps": 0}, "steps debe ser un entero positivo"),
    ({"steps": 5, "lr": -1.0}, "lr debe ser un número positivo y finito"),
    ({"steps": 5, "batch": 0}, "batch debe ser un entero positivo"),
])
def test_train_classifier_bad_input(kwargs, words):
    x, y = torch.zeros(4, 2), torch.zeros(4, dtype=torch.long)
    with pytest.raises((ValueError, TypeError), match=words):
        training.train_classifier(nn.Linear(2, 2), (x, y), (x, y), **kwargs)


def test_train_classifier_refuses_mismatched_data():
    with pytest.raises(ValueError, match="mismo largo"):
        training.train_classifier(nn.Linear(2, 2), (torch.zeros(4, 2), torch.zeros(3, dtype=torch.long)),
                                  (torch.zeros(4, 2), torch.zeros(4, dtype=torch.long)), steps=1)
    with pytest.raises(TypeError, match="nn.Module"):
        training.train_classifier("red", (1, 1), (1, 1), steps=1)


def test_notebook_02_training_loop_is_the_helper():
    """Notebook 02 shows its training loop; it must be helpers.training.train_classifier, number for number."""
    import json

    from conftest import ROOT

    nb = json.loads((ROOT / "notebooks" / "02_residual_stream.ipynb").read_text(encoding="utf-8"))
    (src,) = ["".join(c["source"]) for c in nb["cells"]
              if c["cell_type"] == "code" and "".join(c["source"]).startswith("def acierto(")]
    (x_train, y_train), (x_test, y_test) = toydata.spiral(300, seed=1), toydata.spiral(200, seed=2)
    ns = {"torch": torch, "F": torch.nn.functional, "x_train": x_train, "y_train": y_train,
          "x_test": x_test, "y_test": y_test}
    exec(src, ns)

    def net():
        torch.manual_seed(0)
        return nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))

    visible = ns["entrenar"](net(), pasos=30, cada=10)
    helper = training.train_classifier(net(), (x_train, y_train), (x_test, y_test), steps=30, eval_every=10)
    assert visible == helper and visible["step"] == [0, 10, 20, 30]
