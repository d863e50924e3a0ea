"""The registry: one module per "Tu turno" exercise, found by listing this package, never registered by hand.

Each module is read top to bottom: ``ORDER`` (its notebook file's prefix, "03" or "02b", and its position there),
the reference solution (what ``solution()`` shows and the checker compares against), the hints, the probe inputs,
the known mistakes with their Spanish sentences and what a teacher reads of each, ``assess(ex, answer)``, and
``checker = Exercise("<module name>", ..., section=...)``."""

from __future__ import annotations

import importlib
import pkgutil


def discover() -> tuple:
    """Every exercise module in this package's folders (``__path__``), in the order of the notebooks."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        checker = getattr(module, "checker", None)
        if getattr(checker, "name", None) != info.name or not isinstance(getattr(module, "ORDER", None), tuple):
            raise ImportError(f"{module.__name__}: an exercise module defines ORDER = (notebook, position) and "
                              f"checker = Exercise({info.name!r}, ...)")
        found.append(module)
    return tuple(sorted(found, key=lambda m: m.ORDER))


MODULES = discover()  # in the order of the notebooks
