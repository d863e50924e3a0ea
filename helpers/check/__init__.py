""""Tu turno": checkers for the exercises the learner writes. Each says which mistake was made, by name.

    helpers.check.layer_norm(mi_layer_norm)        # -> Verdict: not_attempted / correct / wrong, in Spanish
    helpers.check.layer_norm.hint(1)               # gentlest hint; hint(2), hint(3) say more
    helpers.check.layer_norm.solution()            # the reference code; .code is what to paste

Checkers: layer_norm, rms_norm, ffn, residual, block_forward, causal_mask, param_count, warmup,
escape_step. How they diagnose: ``_core.diagnose``; the known mistakes: ``gallery.py``.
"""

from ._core import Verdict
from .exercises import (
                        EXERCISES,
                        block_forward,
                        causal_mask,
                        escape_step,
                        ffn,
                        layer_norm,
                        param_count,
                        residual,
                        rms_norm,
                        warmup,
)

__all__ = ["EXERCISES", "Verdict", "block_forward", "causal_mask", "escape_step", "ffn", "layer_norm",
           "param_count", "residual", "rms_norm", "warmup"]
