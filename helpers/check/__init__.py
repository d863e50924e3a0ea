""""Tu turno": one checker per exercise. Each says which mistake was made, by name.

    helpers.check.layer_norm(mi_layer_norm)        # -> Verdict: not_attempted / correct / wrong, in Spanish
    helpers.check.layer_norm.hint(1)               # gentlest hint; hint(2), hint(3) say more
    helpers.check.layer_norm.solution()            # the reference code; .code is what to paste

A checker never raises because of the learner's code, stops code that does not return after a few seconds,
and leaves the learner's objects and every random generator as it found them. Each exercise is one module in
``exercises/`` (reference, hints, probes, known mistakes, check); the shared machinery is ``_core``.
"""

from . import exercises as _exercises
from ._core import Verdict

# notebook 01
ffn = _exercises.ffn.checker                        # class MiFFN(nn.Module), __init__(self, d_model, d_ff)
ffn_count = _exercises.ffn_count.checker            # params_ffn(d_model, d_ff) -> int
# notebook 02
residual_stack = _exercises.residual_stack.checker  # apilar(x, subcapas) -> the final stream
residual_pre = _exercises.residual_pre.checker      # paso_pre(x, subcapa, ln) -> one pre-norm residual step
depth_step = _exercises.depth_step.checker          # paso_variante(h, subcapa, ln, residual, norma) -> one layer
# notebook 03
layer_norm = _exercises.layer_norm.checker          # mi_layer_norm(x, gamma, beta, eps=1e-5)
rms_norm = _exercises.rms_norm.checker              # mi_rms_norm(x, gamma, eps=1e-5)
# notebook 04
block_pre = _exercises.block_pre.checker            # class BloquePre(nn.Module): the pre-norm forward
mask = _exercises.mask.checker                      # mascara_causal(T) -> (T, T) bool or float mask
block_count = _exercises.block_count.checker        # params_bloque(d_model, d_ff) -> int
gpt_count = _exercises.gpt_count.checker            # params_gpt(vocab, d_model, n_layers, ctx) -> int
# notebook 05
escape_step = _exercises.escape_step.checker        # paso_de_salida(pasos, aciertos, umbral=0.6) -> step or None
warmup = _exercises.warmup.checker                  # lr_warmup(paso, warmup, lr) -> learning rate

__all__ = ["Verdict", "block_count", "block_pre", "depth_step", "escape_step", "ffn", "ffn_count", "gpt_count",
           "layer_norm", "mask", "residual_pre", "residual_stack", "rms_norm", "warmup"]
