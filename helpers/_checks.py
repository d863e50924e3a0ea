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


def positive_float(value, name: str) -> float:
    """Return ``value`` if it is a positive float, else raise with a clear message."""
    if not (isinstance(value, float) and value > 0):
        raise ValueError(f"{name} debe ser un float positivo; recibí {value!r}")
    return value


def fraction(value, name: str) -> float:
    """Return ``value`` if it is a number in [0, 1) (bools refused), else raise with a clear message."""
    if isinstance(value, bool) or not (isinstance(value, (int, float)) and 0 <= value < 1):
        raise ValueError(f"{name} debe ser un número en [0, 1); recibí {value!r}")
    return float(value)


def heads_divide(d_model: int, n_heads: int) -> None:
    """Both positive ints and n_heads divides d_model (each head gets d_model / n_heads numbers)."""
    positive_int(d_model, "d_model")
    positive_int(n_heads, "n_heads")
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} no es divisible por n_heads={n_heads}: cada cabeza necesita "
                         f"d_model / n_heads números enteros (probá n_heads que divida a {d_model})")
