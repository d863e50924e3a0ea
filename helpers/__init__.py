"""Helpers for lesson 6 (FFN, residual stream, LayerNorm): plumbing the notebooks import."""

from . import blocks, layernorm, params, plots, probes, toydata, training, widgets

__all__ = ["blocks", "layernorm", "params", "plots", "probes", "toydata", "training", "widgets"]
