"""Helpers for lesson 6 (FFN, residual stream, LayerNorm): plumbing the notebooks import.

Submodules load on first use (``helpers.plots`` imports matplotlib only then), so that
``python -m helpers.check_env`` can still speak when torch, matplotlib or ipywidgets is broken.
"""

from __future__ import annotations

import importlib
from importlib import metadata

try:  # the release this is (pyproject's version); the setup cell compares it with the notebook's own
    __version__ = metadata.version("leccion06-helpers")
except metadata.PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+desconocida"

__all__ = ["blocks", "check", "check_env", "claim", "claims", "depth", "engine", "fmt", "grading", "grammar",
           "layernorm", "lesson", "mask_experiment", "params", "plots", "predictions", "probes", "progress", "sweep",
           "sweep_train", "toydata", "widgets"]


def __getattr__(name: str):
    if name == "claim":  # the one function at the top: notebooks write helpers.claim(...)
        from .claims import claim
        globals()[name] = claim
        return claim
    if name not in __all__:
        raise AttributeError(f"module 'helpers' has no attribute {name!r}")
    try:
        module = importlib.import_module(f".{name}", __name__)
    except ImportError as e:
        raise ImportError(f"helpers.{name} no se pudo cargar porque falta o está roto "
                          f"{e.name or 'un paquete'} ({e}). Corré `python -m helpers.check_env` "
                          f"(o `helpers.check_env.main()` en una celda): te dice qué instalar.") from e
    globals()[name] = module
    return module


def __dir__():
    return sorted(__all__)
