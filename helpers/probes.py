"""Gradient probes: how big a push each layer would get."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import nn

__all__ = ["grad_norms"]


def __dir__():
    return __all__


def grad_norms(params: Iterable[torch.Tensor] | torch.Tensor) -> list[float]:
    """L2 norm of ``.grad`` of each tensor, in order (one tensor: a list of one); fails before backward."""
    if isinstance(params, torch.Tensor):  # one weight: its norm, not one per row
        params = [params]
    elif isinstance(params, nn.Module):
        raise TypeError("grad_norms espera tensores, no un nn.Module: pasá m.parameters() (una norma por "
                        "tensor) o [capa.weight for capa in capas] (una por capa)")
    try:
        params = list(params)
    except TypeError:
        raise TypeError(f"grad_norms espera una lista de tensores (por ejemplo [capa.weight for capa in capas]); "
                        f"recibí {type(params).__name__}") from None
    norms = []
    for i, p in enumerate(params):
        if not isinstance(p, torch.Tensor):
            raise TypeError(f"grad_norms espera tensores (parámetros); el elemento {i} es {type(p).__name__}")
        if p.grad is None:
            raise ValueError(f"grad_norms: el tensor {i} no tiene gradiente; ¿corriste loss.backward()?")
        norms.append(p.grad.norm().item())
    if not norms:
        raise ValueError("grad_norms: no recibí ningún parámetro")
    return norms
