"""A plain training loop for small classifiers, with a held-out accuracy curve."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import non_negative_int, positive_float, positive_int


def accuracy(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """Fraction of ``argmax(model(x), -1) == y``, without gradients."""
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def train_classifier(model: nn.Module, train: tuple, test: tuple, steps: int, lr: float = 1e-3,
                     batch: int = 128, eval_every: int = 20, seed: int = 0) -> dict:
    """Adam on cross-entropy; returns {'step', 'loss', 'acc'} lists, accuracy measured on ``test``."""
    if not isinstance(model, nn.Module):
        raise TypeError(f"train_classifier espera un nn.Module; recibí {type(model).__name__}")
    steps = positive_int(steps, "steps")
    batch = positive_int(batch, "batch")
    eval_every = positive_int(eval_every, "eval_every")
    seed = non_negative_int(seed, "seed")
    positive_float(lr, "lr")
    (xt, yt), (xs, ys) = train, test
    if len(xt) != len(yt) or len(xs) != len(ys):
        raise ValueError(
            f"x e y deben tener el mismo largo; recibí {len(xt)}/{len(yt)} y {len(xs)}/{len(ys)}")
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    hist = {"step": [0], "loss": [F.cross_entropy(model(xt), yt).item()], "acc": [accuracy(model, xs, ys)]}
    for step in range(1, steps + 1):
        i = torch.randint(0, len(xt), (batch,), generator=g)
        loss = F.cross_entropy(model(xt[i]), yt[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % eval_every == 0 or step == steps:
            hist["step"].append(step)
            hist["loss"].append(loss.item())
            hist["acc"].append(accuracy(model, xs, ys))
    return hist
