"""How the series prints numbers for Spanish readers: thousands grouped with spaces (2 099 712), never with
commas, which read as a decimal mark in Spanish (1,536 would be one and a half)."""

from __future__ import annotations

import numbers

__all__ = ["thousands"]


def __dir__():
    return __all__


def thousands(number) -> str:
    """``2099712`` -> ``'2 099 712'`` (a whole number: int, numpy integer, or a 0-d integer tensor)."""
    if getattr(number, "shape", None) == () and hasattr(number, "item"):  # numpy scalar, 0-d tensor
        number = number.item()
    if isinstance(number, bool) or not isinstance(number, numbers.Integral):
        raise TypeError(f"thousands espera en number un número entero, por ejemplo 2099712; recibió "
                        f"{type(number).__name__}: {number!r:.40}")
    return f"{int(number):_}".replace("_", " ")
