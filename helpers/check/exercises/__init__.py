"""One module per "Tu turno" exercise, each read top to bottom: the reference solution (what ``solution()``
shows and the checker compares against), the hints, the probe inputs, the known mistakes with their Spanish
sentences, and the check. Adding an exercise is adding a module here and its name in ``helpers/check/__init__.py``."""

from . import (
    block_count,
    block_pre,
    depth_step,
    escape_step,
    ffn,
    ffn_count,
    gpt_count,
    layer_norm,
    mask,
    residual_pre,
    residual_stack,
    rms_norm,
    warmup,
)

MODULES = (ffn, ffn_count, residual_stack, residual_pre, depth_step, layer_norm, rms_norm, block_pre, mask,
           block_count, gpt_count, escape_step, warmup)  # in the order of the notebooks
