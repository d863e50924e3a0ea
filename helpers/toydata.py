"""Small synthetic data sets the notebooks train on (made here, nothing downloaded), and the count task's
two reference accuracies, which the engine, the sweep and the plots all read from here."""

from __future__ import annotations

import math

import torch

from ._validate import fraction, non_negative_int, positive_int

__all__ = ["COUNT_BASELINE", "ESCAPE_THRESHOLD", "count_labels", "count_task", "spiral"]

COUNT_BASELINE = 0.9 ** 9   # accuracy of always answering 0: the other 9 digits all differ from this one
ESCAPE_THRESHOLD = 0.6      # "salir de la meseta": the first evaluation with accuracy >= 60 %



def _first_escape(steps, acc, threshold: float = ESCAPE_THRESHOLD) -> int | None:
    """The first step whose accuracy is >= ``threshold`` (leaving the plateau); None if it never does."""
    if len(steps) != len(acc):
        raise ValueError(f"steps y acc van de a pares, un acierto por paso evaluado; steps tiene {len(steps)} y acc "
                         f"{len(acc)}")
    return next((s for s, a in zip(steps, acc) if a >= threshold), None)

def __dir__():
    return __all__


def spiral(n: int, seed: int = 0, noise: float = 0.03) -> tuple[torch.Tensor, torch.Tensor]:
    """Two interleaved spirals in 2D: ``x`` (n, 2) float, ``y`` (n,) labels 0/1. Deterministic per seed."""
    n = positive_int(n, "n")
    seed = non_negative_int(seed, "seed")
    noise = fraction(noise, "noise")
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    t = torch.rand(n, generator=g) * 3 * math.pi + 0.5  # angle along the arm
    r = 2 * t / (3 * math.pi)
    angle = t + y * math.pi  # the second arm is the first one rotated half a turn
    x = torch.stack([r * torch.cos(angle), r * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2, generator=g), y


def count_labels(x: torch.Tensor) -> torch.Tensor:
    """The count task's rule: each token's label is how many *other* tokens of its sequence share its digit."""
    return (x[..., :, None] == x[..., None, :]).sum(-1) - 1


def count_task(n: int, generator: torch.Generator | None = None, length: int = 10) -> tuple[torch.Tensor, torch.Tensor]:
    """Notebook 05's task: ``length`` random digits, labelled by ``count_labels``. ``x`` (n, length) ints in
    0..9, ``y`` the same shape in 0..length-1."""
    n = positive_int(n, "n")
    length = positive_int(length, "length")
    if generator is not None and not isinstance(generator, torch.Generator):
        raise TypeError(f"generator debe ser un torch.Generator o None; recibí {type(generator).__name__}")
    x = torch.randint(0, 10, (n, length), generator=generator)
    return x, count_labels(x)
