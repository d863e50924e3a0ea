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


# ---- TEMPORARY (issue 20 rewrites helpers.check): the per-exercise names the notebooks now use, mapped onto the
# old multi-form checkers so the notebooks run meanwhile. residual_stack has no checker yet: stubs only.
class _Alias:
    def __init__(self, name, exercise, form=None):
        self.name, self._ex, self._form = name, exercise, form

    def __call__(self, answer=None, *args, **kwargs):
        if self._ex is None:
            from ._core import is_stub, not_attempted
            if callable(answer) and is_stub(answer):
                return not_attempted(self.name)
            return Verdict(self.name, "wrong", "Este control todavía no está implementado.")
        return self._ex(answer, self._form)

    def hint(self, n=1):
        return self._ex.hint(n, self._form)

    def solution(self):
        return self._ex.solution(self._form)


ffn_count = _Alias("ffn_count", param_count, "ffn")
block_count = _Alias("block_count", param_count, "block")
gpt_count = _Alias("gpt_count", param_count, "gpt")
residual_pre = _Alias("residual_pre", residual, "pre")
residual_stack = _Alias("residual_stack", None)
block_pre = _Alias("block_pre", block_forward, "pre")
mask = _Alias("mask", causal_mask)
