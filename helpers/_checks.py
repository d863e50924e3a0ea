"""Input checks shared by the helpers: fail early with a message that says what was expected."""

from __future__ import annotations

import numbers


def positive_int(value, name: str) -> int:
    """Return ``value`` if it is a positive int (bools refused), else raise with a clear message."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} debe ser un entero positivo; recibí {value!r} ({type(value).__name__})")
    if value <= 0:
        raise ValueError(f"{name} debe ser un entero positivo; recibí {value}")
    return int(value)


def non_negative_int(value, name: str) -> int:
    """Return ``value`` if it is an int >= 0 (bools refused), else raise with a clear message."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} debe ser un entero >= 0; recibí {value!r} ({type(value).__name__})")
    if value < 0:
        raise ValueError(f"{name} debe ser un entero >= 0; recibí {value}")
    return int(value)


def one_of(value, name: str, allowed) -> object:
    """Return ``value`` if it is in ``allowed``, else raise listing the allowed values."""
    if value not in allowed:
        opciones = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} debe ser uno de {opciones}; recibí {value!r}")
    return value
