"""A plain training loop for small classifiers, with a held-out accuracy curve."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ._checks import float_input, non_negative_int, positive_float, positive_int, tensor


def _model(model, who: str) -> nn.Module:
    if not isinstance(model, nn.Module):
        raise TypeError(f"{who} espera un nn.Module como modelo; recibí {type(model).__name__}")
    return model


def _xy(x, y, model: nn.Module, where: str = "") -> tuple[torch.Tensor, torch.Tensor]:
    """x: float (N, ...) of the model's dtype; y: integer labels (N,). ``where``: ' (de train)' etc."""
    dtype = next((p.dtype for p in model.parameters()), None)
    float_input(x, "x", dtype, f"(N, entradas){where}")
    tensor(y, "y", f"(N,){where}")
    if y.is_floating_point() or y.dtype == torch.bool:
        raise TypeError(f"y{where} debe tener etiquetas enteras (0, 1, ...); recibí {y.dtype}: usá y.long()")
    if y.dim() != 1:
        hint = ": usá y.squeeze(1)" if y.dim() == 2 and y.shape[1] == 1 else ""
        raise ValueError(f"y{where} debe tener forma (N,), una etiqueta por fila de x; recibí {tuple(y.shape)}{hint}")
    if len(x) != len(y):
        raise ValueError(f"x e y{where} deben tener el mismo largo; recibí {len(x)} y {len(y)}")
    return x, y


def accuracy(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """Fraction of ``argmax(model(x), -1) == y``, without gradients."""
    x, y = _xy(x, y, _model(model, "accuracy"))
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def _pair(data, name: str) -> tuple:
    if not (isinstance(data, (tuple, list)) and len(data) == 2):
        raise TypeError(f"{name} debe ser un par (x, y); recibí {type(data).__name__}"
                        + (f" de largo {len(data)}" if isinstance(data, (tuple, list)) else ""))
    return tuple(data)


def train_classifier(model: nn.Module, train: tuple, test: tuple, steps: int, lr: float = 1e-3,
                     batch: int = 128, eval_every: int = 20, seed: int = 0) -> dict:
    """Adam on cross-entropy; returns {'step', 'loss', 'acc'} lists, accuracy measured on ``test``."""
    _model(model, "train_classifier")
    steps = positive_int(steps, "steps")
    batch = positive_int(batch, "batch")
    eval_every = positive_int(eval_every, "eval_every")
    seed = non_negative_int(seed, "seed")
    lr = positive_float(lr, "lr")
    xt, yt = _xy(*_pair(train, "train"), model, " (de train)")
    xs, ys = _xy(*_pair(test, "test"), model, " (de test)")
    with torch.no_grad():
        n_out = model(xt[:1]).shape[-1]
    for name, labels in (("train", yt), ("test", ys)):
        lo, hi = int(labels.min()), int(labels.max())
        if lo < 0 or hi >= n_out:
            raise ValueError(f"las etiquetas de {name} van de {lo} a {hi}, pero el modelo tiene {n_out} salidas: "
                             f"tienen que ir de 0 a {n_out - 1}")
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
