"""Small synthetic data sets the notebooks train on (made here, nothing downloaded), and the count task's
two reference accuracies, which the engine, the sweep and the plots all read from here."""

from __future__ import annotations

import math

import torch

from ._validate import affordable, fraction, positive_int, rng_seed, tensor
from .fmt import thousands

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
    seed = rng_seed(seed, "seed")
    noise = fraction(noise, "noise")
    affordable(64 * n, f"spiral(n={n}) necesitaría para sus puntos")  # labels, angles, radii, x and its noise
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    t = torch.rand(n, generator=g) * 3 * math.pi + 0.5  # angle along the arm
    r = 2 * t / (3 * math.pi)
    angle = t + y * math.pi  # the second arm is the first one rotated half a turn
    x = torch.stack([r * torch.cos(angle), r * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2, generator=g), y


def _labels_bytes(numel: int, length: int) -> int:
    """What count_labels allocates: every token against the ``length`` of its sequence (bool), and two int64 counts."""
    return numel * (length + 16)


def count_labels(x: torch.Tensor) -> torch.Tensor:
    """The count task's rule: each token's label is how many *other* tokens of its sequence share its digit."""
    tensor(x, "x", "(secuencias, tokens)")
    expected = "x debe tener dígitos enteros de forma (secuencias, tokens), como el x de count_task"
    if x.is_floating_point() or x.is_complex() or x.dtype == torch.bool:  # NaN would get label -1
        raise TypeError(f"{expected}; recibí {x.dtype} de forma {tuple(x.shape)}: usá .long()")
    if x.dim() == 0:
        raise ValueError(f"{expected}; recibí un solo número, de forma (), sin eje de tokens")
    affordable(_labels_bytes(x.numel(), x.shape[-1]), f"count_labels: x de forma {tuple(x.shape)} compara cada token "
                                                      f"con los {thousands(x.shape[-1])} de su secuencia")
    return (x[..., :, None] == x[..., None, :]).sum(-1) - 1


def count_task(n: int, generator: torch.Generator | None = None, length: int = 10) -> tuple[torch.Tensor, torch.Tensor]:
    """Notebook 05's task: ``length`` random digits, labelled by ``count_labels``. ``x`` (n, length) ints in
    0..9, ``y`` the same shape in 0..length-1."""
    n = positive_int(n, "n")
    length = positive_int(length, "length")
    if generator is not None and not isinstance(generator, torch.Generator):
        raise TypeError(f"generator debe ser un torch.Generator o None; recibí {type(generator).__name__}")
    affordable(8 * n * length + _labels_bytes(n * length, length),
               f"count_task(n={n}, length={length}) necesitaría para los dígitos y sus etiquetas")
    x = torch.randint(0, 10, (n, length), generator=generator)
    return x, count_labels(x)
