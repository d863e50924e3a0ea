"""Gradient probes: how big a push each layer would get."""

from __future__ import annotations

from collections.abc import Iterable

import torch


def grad_norms(params: Iterable[torch.Tensor]) -> list[float]:
    """L2 norm of ``.grad`` of each tensor, in order; fails if a tensor has no gradient yet."""
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
