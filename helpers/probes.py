"""Gradient probes: how big a push each layer would get."""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch import nn

__all__ = ["grad_norms"]


def __dir__():
    return __all__


def grad_norms(params: Iterable[torch.Tensor] | torch.Tensor) -> list[float]:
    """L2 norm of ``.grad`` of each tensor, in order (one tensor: a list of one); says why a gradient is missing."""
    if isinstance(params, torch.Tensor):  # one weight: its norm, not one per row
        params = [params]
    elif isinstance(params, nn.Module):
        raise TypeError("params debe ser tensores, no un nn.Module: pasá m.parameters() (una norma por tensor) o "
                        "[capa.weight for capa in capas] (una por capa)")
    try:
        params = list(params)
    except TypeError:
        raise TypeError(f"params debe ser una lista de tensores (por ejemplo [capa.weight for capa in capas]); "
                        f"recibí {type(params).__name__}") from None
    if not params:
        raise ValueError("params está vacío: pasá al menos un tensor, por ejemplo [capa.weight for capa in capas]")
    for i, p in enumerate(params):
        if not isinstance(p, torch.Tensor):
            raise TypeError(f"params debe ser tensores (parámetros); params[{i}] es {type(p).__name__}")
    grads = [p.grad if p.is_leaf or p.retains_grad else None for p in params]  # a non-leaf has no .grad to read
    some = any(g is not None for g in grads)  # then backward ran: a missing gradient has another cause
    for i, (p, g) in enumerate(zip(params, grads)):
        if g is not None:
            continue
        if not p.requires_grad:
            why = ("tiene requires_grad=False: está congelado o salió de .detach(), así que backward no le calcula "
                   "gradiente; pasá el parámetro mismo (capa.weight), con requires_grad=True")
        elif not p.is_leaf:
            why = ("no es un parámetro sino el resultado de una cuenta (por ejemplo capa.weight * 1 o .clone()): "
                   "PyTorch guarda .grad solo en los parámetros; pasá capa.weight")
        elif some:
            why = "no participó en la pérdida de este backward (los otros tensores sí tienen gradiente)"
        else:
            why = "no tiene gradiente todavía: ¿corriste loss.backward()?"
        raise ValueError(f"params[{i}] {why}")
    return [g.norm().item() for g in grads]
