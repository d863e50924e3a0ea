"""Helpers for lesson 6 (FFN, residual stream, LayerNorm): plumbing the notebooks import."""

from . import params, plots, probes, toydata, training

__all__ = ["params", "plots", "probes", "toydata", "training"]
