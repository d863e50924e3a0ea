"""The encoder block of notebook 04 (post-, pre- and sandwich-norm), its weight copy from PyTorch,
and a GPT-style model for counting parameters."""

from __future__ import annotations

import torch
from torch import nn

from ._checks import fraction, heads_divide, non_negative_int, one_of, positive_int

NORMS = ("post", "pre", "sandwich")
ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU}


class Block(nn.Module):
    """Encoder block; ``norm`` places LayerNorm after the sum (post), before the sublayer (pre) or both
    around the sublayer (sandwich). Matches nn.TransformerEncoderLayer (batch_first) for post/pre."""

    def __init__(self, d_model: int = 512, n_heads: int = 8, d_ff: int = 2048, dropout: float = 0.1,
                 norm: str = "post", activation: str = "relu", bias: bool = True):
        super().__init__()
        heads_divide(d_model, n_heads)
        positive_int(d_ff, "d_ff")
        one_of(norm, "norm", NORMS)
        one_of(activation, "activation", tuple(ACTIVATIONS))
        fraction(dropout, "dropout")
        self.d_model, self.norm = d_model, norm
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, bias=bias, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff, bias=bias), ACTIVATIONS[activation](),
                                 nn.Dropout(dropout), nn.Linear(d_ff, d_model, bias=bias))
        self.ln1, self.ln2 = nn.LayerNorm(d_model, bias=bias), nn.LayerNorm(d_model, bias=bias)
        if norm == "sandwich":  # Gemma: also normalize what each sublayer writes, before the sum
            self.ln1_out, self.ln2_out = nn.LayerNorm(d_model, bias=bias), nn.LayerNorm(d_model, bias=bias)
        self.drop = nn.Dropout(dropout)

    def self_attention(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        return self.attn(x, x, x, attn_mask=mask, need_weights=False)[0]

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        if x.dim() != 3 or x.shape[-1] != self.d_model:
            raise ValueError(f"Block espera x de forma (batch, tokens, {self.d_model}); "
                             f"recibí {tuple(x.shape)}")
        if self.norm == "post":  # the 2017 paper: LN(x + Sublayer(x))
            x = self.ln1(x + self.drop(self.self_attention(x, mask)))
            return self.ln2(x + self.drop(self.ffn(x)))
        if self.norm == "pre":  # GPT-2 and later: x + Sublayer(LN(x))
            x = x + self.drop(self.self_attention(self.ln1(x), mask))
            return x + self.drop(self.ffn(self.ln2(x)))
        x = x + self.drop(self.ln1_out(self.self_attention(self.ln1(x), mask)))
        return x + self.drop(self.ln2_out(self.ffn(self.ln2(x))))


def causal_mask(n_tokens: int) -> torch.Tensor:
    """(T, T) bool mask, True above the diagonal: token i may not look at tokens j > i."""
    T = positive_int(n_tokens, "n_tokens")
    return torch.ones(T, T, dtype=torch.bool).triu(1)


# nn.TransformerEncoderLayer name -> our Block name
_NAMES = {
    "self_attn.in_proj_weight": "attn.in_proj_weight",
    "self_attn.in_proj_bias": "attn.in_proj_bias",
    "self_attn.out_proj.weight": "attn.out_proj.weight",
    "self_attn.out_proj.bias": "attn.out_proj.bias",
    "linear1.weight": "ffn.0.weight",
    "linear1.bias": "ffn.0.bias",
    "linear2.weight": "ffn.3.weight",
    "linear2.bias": "ffn.3.bias",
    "norm1.weight": "ln1.weight",
    "norm1.bias": "ln1.bias",
    "norm2.weight": "ln2.weight",
    "norm2.bias": "ln2.bias",
}


def copy_encoder_layer(ours: nn.Module, ref: nn.TransformerEncoderLayer) -> None:
    """Copy ``ref``'s weights into ``ours`` (a Block-like module), refusing what does not fit."""
    if not isinstance(ref, nn.TransformerEncoderLayer):
        raise TypeError(f"copy_encoder_layer copia desde un nn.TransformerEncoderLayer; "
                        f"recibí {type(ref).__name__}")
    if not ref.self_attn.batch_first:
        raise ValueError("el nn.TransformerEncoderLayer usa batch_first=False; nuestro bloque espera "
                         "(batch, tokens, d_model): crealo con batch_first=True")
    placement = getattr(ours, "norm", None)
    expected = "pre" if ref.norm_first else "post"
    if placement != expected:
        raise ValueError(f"norm_first={ref.norm_first} es {expected}-norm, pero nuestro bloque es "
                         f"norm={placement!r}; PyTorch solo tiene 'post' (False) y 'pre' (True)")
    src, dst = ref.state_dict(), ours.state_dict()
    for name, tensor in src.items():
        target = _NAMES.get(name)
        if target is None or target not in dst:
            raise ValueError(f"no sé dónde va {name!r} de PyTorch en nuestro bloque "
                             f"(¿construiste el bloque con bias={name.endswith('bias')}?)")
        if dst[target].shape != tensor.shape:
            raise ValueError(f"{name} de PyTorch tiene forma {tuple(tensor.shape)} y {target} del bloque "
                             f"{tuple(dst[target].shape)}: ¿mismos d_model, n_heads y d_ff?")
    missing = set(dst) - {_NAMES[n] for n in src}
    if missing:
        raise ValueError(f"al bloque le quedarían pesos sin copiar: {sorted(missing)}")
    with torch.no_grad():
        for name, tensor in src.items():
            dst[_NAMES[name]].copy_(tensor)


class GPT(nn.Module):
    """Decoder-only model of the parameter table: tied embeddings, ``ctx`` learned positions (0: none),
    pre-norm GELU blocks and a final LayerNorm. Build it under ``torch.device('meta')`` to count big ones."""

    def __init__(self, vocab: int, d_model: int, n_layers: int, ctx: int = 0, n_heads: int = 1,
                 d_ff: int | None = None, bias: bool = True):
        super().__init__()
        positive_int(vocab, "vocab")
        positive_int(n_layers, "n_layers")
        non_negative_int(ctx, "ctx")
        heads_divide(d_model, n_heads)
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(ctx, d_model) if ctx else None
        self.blocks = nn.ModuleList(
            Block(d_model, n_heads, d_ff or 4 * d_model, 0.0, "pre", "gelu", bias) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model, bias=bias)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.head.weight = self.tok.weight  # weight tying: the output compares with the input table

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        T = idx.shape[1]
        x = self.tok(idx) + (self.pos(torch.arange(T, device=idx.device)) if self.pos is not None else 0)
        mask = causal_mask(T).to(idx.device)
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))
