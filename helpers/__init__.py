"""Helpers for lesson 6 (FFN, residual stream, LayerNorm): plumbing the notebooks import."""

from . import blocks, check_env, engine, layernorm, params, plots, probes, sweep, toydata, training, widgets

__all__ = ["blocks", "check_env", "engine", "layernorm", "params", "plots", "probes", "sweep", "toydata",
           "training", "widgets"]
