"""How the series prints numbers for Spanish readers: thousands grouped with spaces (2 099 712), never with
commas, which read as a decimal mark in Spanish (1,536 would be one and a half)."""

from __future__ import annotations

import numbers

__all__ = ["thousands"]


def __dir__():
    return __all__


def thousands(number, decimals: int = 0) -> str:
    """``2099712`` -> ``'2 099 712'`` (a whole number: int, numpy integer, or a 0-d integer tensor); with
    ``decimals`` > 0 any real number, rounded: ``thousands(1234.56, 1)`` -> ``'1 234.6'``."""
    if getattr(number, "shape", None) == () and hasattr(number, "item"):  # numpy scalar, 0-d tensor
        number = number.item()
    kind = numbers.Integral if decimals == 0 else numbers.Real
    if isinstance(number, bool) or not isinstance(number, kind):
        raise TypeError(f"thousands espera en number un número entero, por ejemplo 2099712; recibió "
                        f"{type(number).__name__}: {number!r:.40}")
    if decimals == 0:
        return f"{int(number):_}".replace("_", " ")
    return f"{float(number):_.{decimals}f}".replace("_", " ")
