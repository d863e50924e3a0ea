"""Argument validation shared by the helpers: fail early with a message that names the argument, what came in and
what was expected. Numbers accept what means a number (int, float, numpy scalars), never bools."""

from __future__ import annotations

import math
import numbers

__all__ = ["MAX_BYTES", "affordable", "boolean", "float_input", "fraction", "heads_divide", "non_negative_int",
           "one_of", "positive_float", "positive_int", "rng_seed", "tensor"]

_SEEDS_END = 2**64  # torch.manual_seed and Generator.manual_seed take 0 .. 2**64 - 1
MAX_BYTES = 4 * 2**30  # the most memory helpers builds may ask for, outside the meta device (GPT-2 large: 3.1 GB)


def affordable(n_bytes: int, what: str) -> None:
    """The one size rule: refuse, before allocating, what would ask for more than MAX_BYTES (meta device aside)."""
    import torch

    from .fmt import thousands

    if n_bytes > MAX_BYTES and torch.empty(0).device.type != "meta":
        raise MemoryError(f"{what}: {thousands(n_bytes / 1e9, 1)} GB, más que los {MAX_BYTES // 2**30} GiB que "
                          "helpers deja reservar. Usá un tamaño más chico.")


def _got(value) -> str:
    return f"{value!r} ({type(value).__name__})"


def _is_bool(value) -> bool:
    """True and False, Python's or NumPy's (np.bool_, whose type NumPy 2 names ``bool``)."""
    return isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"))


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not _is_bool(value)


def positive_int(value, name: str) -> int:
    """Return ``value`` as an int if it is a positive integer (numpy ints too, bools refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} debe ser un entero positivo; recibí {_got(value)}")
    if value <= 0:
        raise ValueError(f"{name} debe ser un entero positivo; recibí {value}")
    return int(value)


def non_negative_int(value, name: str) -> int:
    """Return ``value`` as an int if it is an integer >= 0 (numpy ints too, bools refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} debe ser un entero >= 0; recibí {_got(value)}")
    if value < 0:
        raise ValueError(f"{name} debe ser un entero >= 0; recibí {value}")
    return int(value)


def rng_seed(value, name: str) -> int:
    """Return ``value`` as an int if torch can seed with it: an integer 0 <= value < 2**64 (numpy ints too)."""
    value = non_negative_int(value, name)
    if value >= _SEEDS_END:
        raise ValueError(f"{name} debe ser un entero >= 0 y menor que 2**64 (torch no acepta semillas más grandes "
                         f"que {_SEEDS_END - 1}); recibí {value}")
    return value


def one_of(value, name: str, allowed) -> object:
    """Return ``value`` if it is in ``allowed``, else raise listing the allowed values."""
    try:
        ok = value in allowed
    except TypeError:  # unhashable, e.g. a list
        ok = False
    if not ok:
        opciones = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} debe ser uno de {opciones}; recibí {value!r}")
    return value


def positive_float(value, name: str) -> float:
    """Return ``value`` as a float if it is a finite number > 0 (ints and numpy scalars too)."""
    if not _real(value):
        raise TypeError(f"{name} debe ser un número positivo y finito (por ejemplo 1e-3); recibí {_got(value)}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} debe ser un número positivo y finito (por ejemplo 1e-3); recibí {v!r}")
    return v


def fraction(value, name: str) -> float:
    """Return ``value`` as a float if it is a number in [0, 1) (numpy scalars too, bools refused)."""
    if not _real(value) or not 0 <= float(value) < 1:
        raise ValueError(f"{name} debe ser un número en [0, 1); recibí {_got(value)}")
    return float(value)


def boolean(value, name: str) -> bool:
    """Return ``value`` if it is True or False; a string like 'no' is not silently true."""
    if not _is_bool(value):
        raise TypeError(f"{name} debe ser True o False; recibí {_got(value)}")
    return bool(value)


def heads_divide(d_model: int, n_heads: int) -> None:
    """Both positive ints and n_heads divides d_model (each head gets d_model / n_heads numbers)."""
    positive_int(d_model, "d_model")
    positive_int(n_heads, "n_heads")
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} no es divisible por n_heads={n_heads}: cada cabeza necesita "
                         f"d_model / n_heads números enteros (probá n_heads que divida a {d_model})")


def tensor(value, name: str, shape_hint: str):
    """Return ``value`` if it is a torch.Tensor; else say how to make one."""
    import torch

    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} debe ser un torch.Tensor de forma {shape_hint}; recibí {type(value).__name__}: "
                        f"convertilo con torch.as_tensor({name})")
    return value


def float_input(x, name: str, dtype, shape_hint: str):
    """A float tensor of the weights' dtype (the common slips: numpy, float64 from numpy, token ids)."""
    tensor(x, name, shape_hint)
    if not x.is_floating_point():
        raise TypeError(f"{name} debe tener números float (los vectores de entrada); recibí {x.dtype}: si son ids "
                        "de tokens, primero pasan por un nn.Embedding; si son números, usá .float()")
    if dtype is not None and x.dtype != dtype:
        raise TypeError(f"{name} es {x.dtype} y los pesos son {dtype}: convertí con {name}.float() "
                        "(torch.from_numpy da float64)")
    return x
