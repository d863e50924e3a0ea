"""Parameter counts: by formula (the lesson's table) and by counting a real module."""

from __future__ import annotations

from torch import nn

from ._validate import boolean, heads_divide, non_negative_int, positive_int

__all__ = ["attention_params", "count_params", "ffn_params", "gpt_params", "layernorm_params"]


def __dir__():
    return __all__


def count_params(module: nn.Module) -> int:
    """Number of scalars in ``module``'s parameters, shared ones once (works on the meta device too)."""
    if isinstance(module, type) and issubclass(module, nn.Module):
        raise TypeError(f"module debe ser un nn.Module ya construido; recibí la clase {module.__name__}: "
                        f"creala primero, por ejemplo {module.__name__}(...)")
    if not isinstance(module, nn.Module):
        hint = " (si tenés m.parameters(), pasá m)" if type(module).__name__ == "generator" else ""
        raise TypeError(f"module debe ser un nn.Module (una capa o un modelo); recibí {type(module).__name__}{hint}")
    return sum(p.numel() for p in module.parameters())


def attention_params(d_model: int, bias: bool = True) -> int:
    """W^Q, W^K, W^V, W^O (d x d each) plus their biases: 4d^2 + 4d."""
    d = positive_int(d_model, "d_model")
    return 4 * d * d + (4 * d if boolean(bias, "bias") else 0)


def ffn_params(d_model: int, d_ff: int | None = None, bias: bool = True) -> int:
    """Linear d->d_ff and d_ff->d with biases: 2*d*d_ff + d_ff + d (8d^2 + 5d when d_ff = 4d)."""
    d = positive_int(d_model, "d_model")
    f = 4 * d if d_ff is None else positive_int(d_ff, "d_ff")
    return 2 * d * f + ((f + d) if boolean(bias, "bias") else 0)


def layernorm_params(d_model: int, bias: bool = True) -> int:
    """gamma (and beta when bias=True): d numbers each."""
    d = positive_int(d_model, "d_model")
    return 2 * d if boolean(bias, "bias") else d


def gpt_params(vocab: int, d_model: int, n_layers: int, ctx: int = 0, n_heads: int = 1,
               d_ff: int | None = None, bias: bool = True) -> int:
    """The lesson's whole-model table: Vd + ctx*d + L(4d^2+4d) + L(2d*d_ff+d_ff+d) + (4L+2)d.

    Tied input/output embeddings; ``ctx`` learned positions (0 for sinusoidal ones). The arguments are
    helpers.blocks.GPT's, in GPT's order; ``n_heads`` changes no count but must divide ``d_model``.
    """
    V = positive_int(vocab, "vocab")
    d = positive_int(d_model, "d_model")
    n_layers = positive_int(n_layers, "n_layers")
    c = non_negative_int(ctx, "ctx")
    heads_divide(d, n_heads)
    per_block = attention_params(d, bias) + ffn_params(d, d_ff, bias) + 2 * layernorm_params(d, bias)
    return V * d + c * d + n_layers * per_block + layernorm_params(d, bias)
