"""Helpers for lesson 6 (FFN, residual stream, LayerNorm): plumbing the notebooks import."""

from . import blocks, params, plots, probes, toydata, training

__all__ = ["blocks", "params", "plots", "probes", "toydata", "training"]
