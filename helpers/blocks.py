"""The encoder block of notebook 04 (post-, pre- and sandwich-norm), its weight copy from PyTorch,
and a GPT-style model for counting parameters."""

from __future__ import annotations

import math

import torch
from torch import nn

from . import _validate
from ._validate import (
    affordable,
    boolean,
    float_input,
    fraction,
    heads_divide,
    non_negative_int,
    one_of,
    positive_int,
    tensor,
)
from .fmt import thousands
from .params import attention_params, ffn_params, gpt_params, layernorm_params

__all__ = ["Block", "GPT", "causal_mask", "copy_encoder_layer"]

_NORMS = ("post", "pre", "sandwich")
_ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU}


def __dir__():
    return __all__


class Block(nn.Module):
    """Encoder block; ``norm`` places LayerNorm after the sum (post), before the sublayer (pre) or both
    around the sublayer (sandwich); ``d_ff`` defaults to 4 * d_model. Matches nn.TransformerEncoderLayer
    (batch_first) for post/pre."""

    def __init__(self, d_model: int = 512, n_heads: int = 8, d_ff: int | None = None, dropout: float = 0.1,
                 norm: str = "post", activation: str = "relu", bias: bool = True):
        super().__init__()
        heads_divide(d_model, n_heads)
        d_model, n_heads = int(d_model), int(n_heads)
        d_ff = 4 * d_model if d_ff is None else positive_int(d_ff, "d_ff")  # the paper's 2048 = 4 x 512
        one_of(norm, "norm", _NORMS)
        one_of(activation, "activation", tuple(_ACTIVATIONS))
        dropout = fraction(dropout, "dropout")
        bias = boolean(bias, "bias")
        n = attention_params(d_model, bias) + ffn_params(d_model, d_ff, bias) + 2 * layernorm_params(d_model, bias)
        affordable(n * torch.empty(0).element_size(), f"Block(d_model={d_model}, d_ff={d_ff}) tendría "
                                                         f"{thousands(n)} parámetros")
        self.d_model, self.norm, self.activation = d_model, norm, activation
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, bias=bias, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff, bias=bias), _ACTIVATIONS[activation](),
                                 nn.Dropout(dropout), nn.Linear(d_ff, d_model, bias=bias))
        self.ln1, self.ln2 = nn.LayerNorm(d_model, bias=bias), nn.LayerNorm(d_model, bias=bias)
        if norm == "sandwich":  # Gemma: also normalize what each sublayer writes, before the sum
            self.ln1_out, self.ln2_out = nn.LayerNorm(d_model, bias=bias), nn.LayerNorm(d_model, bias=bias)
        self.drop = nn.Dropout(dropout)
        self.register_forward_pre_hook(_validate_call, with_kwargs=True)  # the inputs are checked beside, below

    def self_attention(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        return self.attn(x, x, x, attn_mask=mask, need_weights=False)[0]

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:  # (B, T, C)
        if self.norm == "post":  # the 2017 paper: LN(x + Sublayer(x))
            x = self.ln1(x + self.drop(self.self_attention(x, mask)))
            return self.ln2(x + self.drop(self.ffn(x)))
        if self.norm == "pre":  # GPT-2 and later: x + Sublayer(LN(x))
            x = x + self.drop(self.self_attention(self.ln1(x), mask))
            return x + self.drop(self.ffn(self.ln2(x)))
        x = x + self.drop(self.ln1_out(self.self_attention(self.ln1(x), mask)))
        return x + self.drop(self.ln2_out(self.ffn(self.ln2(x))))


def _validate_call(block: Block, args: tuple, kwargs: dict) -> None:
    """Before Block.forward: x is (batch, tokens, d_model) float of the weights' dtype, and mask one that does
    what it says (forward pre-hook, so the forward reads as the model)."""
    x = args[0] if args else kwargs.get("x")
    if x is None:
        return  # forward itself says the argument is missing
    shape = f"(batch, tokens, {block.d_model})"
    float_input(x, "x", block.ln1.weight.dtype, shape)
    if x.dim() != 3 or x.shape[-1] != block.d_model:
        hint = ": para una sola frase usá x[None]" if x.dim() == 2 and x.shape[-1] == block.d_model else ""
        raise ValueError(f"x debe tener forma {shape}; recibí {tuple(x.shape)}{hint}")
    _validate_mask(args[1] if len(args) > 1 else kwargs.get("mask"), x.shape[1])


def causal_mask(n_tokens: int) -> torch.Tensor:
    """(T, T) bool mask, True above the diagonal: token i may not look at tokens j > i."""
    T = positive_int(n_tokens, "n_tokens")
    affordable(T * T, f"causal_mask(n_tokens={T}) sería una matriz de {thousands(T)} × {thousands(T)}")
    return torch.ones(T, T, dtype=torch.bool).triu(1)


def _validate_mask(mask, T: int) -> None:
    """Refuse the masks that nn.MultiheadAttention takes but that silently do the wrong thing here."""
    if mask is None:
        return
    tensor(mask, "mask", f"({T}, {T})")
    if tuple(mask.shape) != (T, T):
        raise ValueError(f"mask debe tener forma ({T}, {T}), una fila y una columna por token; "
                         f"recibí {tuple(mask.shape)}")
    if mask.dtype == torch.bool:
        blocked = mask
    elif mask.is_floating_point():
        values = set(mask.unique().tolist())
        if 1.0 in values and values <= {0.0, 1.0}:  # all zeros is a float mask that blocks nothing: fine
            raise ValueError("mask es float con solo 0 y 1 (como torch.tril(torch.ones(T, T))): PyTorch SUMA una "
                             "máscara float a los puntajes, así que un 1 no bloquea nada y el futuro se filtra. "
                             "Usá una bool con True = bloqueado, helpers.blocks.causal_mask(T), o una float con 0 "
                             "donde se puede mirar y -inf donde no.")
        if any(math.isnan(v) or v > 0 for v in values):
            raise ValueError(f"mask float debe tener 0 (se puede mirar) y -inf (bloqueado); tiene {sorted(values)}. "
                             "Usá helpers.blocks.causal_mask(T).")
        blocked = mask == -math.inf
    else:
        raise TypeError(f"mask debe ser bool (True = bloqueado) o float (0 y -inf); recibí {mask.dtype}: "
                        "usá helpers.blocks.causal_mask(T)")
    causal = causal_mask(T).to(blocked.device)
    if T > 1 and torch.equal(blocked, causal.T):
        raise ValueError("mask está al revés: deja ver el futuro y tapa el pasado. En PyTorch True (o -inf) = "
                         "bloqueado, arriba de la diagonal: helpers.blocks.causal_mask(T).")
    full = blocked.all(-1)
    if full.any():
        i = int(full.nonzero()[0])
        raise ValueError(f"la fila {i} de mask bloquea todos los tokens: el token {i} no podría mirar a nadie y "
                         "saldría nan. ¿Está al revés? En PyTorch True (o -inf) = bloqueado; la causal es "
                         "helpers.blocks.causal_mask(T), con True arriba de la diagonal.")


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


def _activation_of(module: nn.Module) -> str | None:
    names = {"relu" if isinstance(m, nn.ReLU) else "gelu"
             for m in module.modules() if isinstance(m, (nn.ReLU, nn.GELU))}
    return names.pop() if len(names) == 1 else None


def copy_encoder_layer(ours: nn.Module, ref: nn.TransformerEncoderLayer) -> None:
    """Copy ``ref``'s weights into ``ours`` (a Block-like module), refusing what does not fit."""
    _refuse_other_layer(ours, ref)
    src, dst = ref.state_dict(), ours.state_dict()
    _refuse_other_weights(src, dst)
    with torch.no_grad():
        for name, weights in src.items():
            dst[_NAMES[name]].copy_(weights)


def _refuse_other_layer(ours, ref) -> None:
    """The two layers compute the same function once the weights are copied: types, layout, norm, activation, ε."""
    if isinstance(ours, nn.TransformerEncoderLayer) and not isinstance(ref, nn.TransformerEncoderLayer):
        raise TypeError("ours es un nn.TransformerEncoderLayer y ref no: ¿invertiste el orden? Es "
                        f"copy_encoder_layer(ours=nuestro_bloque, ref=capa_de_pytorch); recibí "
                        f"({type(ours).__name__}, {type(ref).__name__})")
    if not isinstance(ref, nn.TransformerEncoderLayer):
        raise TypeError(f"ref debe ser el nn.TransformerEncoderLayer de PyTorch del que se copian los pesos; "
                        f"recibí {type(ref).__name__}")
    if not isinstance(ours, nn.Module) or getattr(ours, "norm", None) not in _NORMS:
        raise TypeError(f"ours debe ser un Block de helpers.blocks (o el Bloque del notebook 04, con su atributo "
                        f"norm); recibí {type(ours).__name__}")
    if not ref.self_attn.batch_first:
        raise ValueError("ref usa batch_first=False (tokens, batch, d_model); nuestro bloque espera "
                         "(batch, tokens, d_model): creá ref con batch_first=True")
    expected = "pre" if ref.norm_first else "post"
    if ours.norm != expected:
        raise ValueError(f"ref tiene norm_first={ref.norm_first}, que es {expected}-norm, pero ours es "
                         f"norm={ours.norm!r}; PyTorch solo tiene 'post' (False) y 'pre' (True)")
    ours_heads = getattr(getattr(ours, "attn", None), "num_heads", None)
    if ours_heads is not None and ours_heads != ref.self_attn.num_heads:
        raise ValueError(f"ref tiene nhead={ref.self_attn.num_heads} cabezas y ours n_heads={ours_heads}: los pesos "
                         "tienen la misma forma, pero se reparten distinto entre las cabezas y las salidas difieren. "
                         f"Creá el bloque con n_heads={ref.self_attn.num_heads}")
    ref_act = {1: "relu", 2: "gelu"}.get(getattr(ref, "activation_relu_or_gelu", 0))
    our_act = _activation_of(ours)
    if ref_act and our_act and ref_act != our_act:
        raise ValueError(f"ref usa activation={ref_act!r} y ours {our_act!r}: creá el bloque con "
                         f"activation={ref_act!r} (si no, las salidas difieren)")
    our_ln = next((m for m in ours.modules() if isinstance(m, nn.LayerNorm)), None)
    if our_ln is not None and our_ln.eps != ref.norm1.eps:
        raise ValueError(f"ref usa layer_norm_eps={ref.norm1.eps:g} y las LayerNorm de ours eps={our_ln.eps:g}: "
                         "usá el mismo ε en los dos")


def _refuse_other_weights(src: dict, dst: dict) -> None:
    """Every weight of ``src`` has a place of the same shape in ``dst``, and no weight of ``dst`` is left out."""
    for name, weights in src.items():
        target = _NAMES.get(name)
        if target is None or target not in dst:
            raise ValueError(f"ref tiene {name!r} y ours no tiene dónde ponerlo "
                             f"(¿construiste el bloque con bias={name.endswith('bias')}?)")
        if dst[target].shape != weights.shape:
            raise ValueError(f"en el bloque de PyTorch (ref), {name} tiene forma {tuple(weights.shape)}; en el "
                             f"nuestro (ours), {target} tiene {tuple(dst[target].shape)}: ¿mismos d_model, n_heads y "
                             "d_ff?")
    missing = set(dst) - {_NAMES[n] for n in src}
    if missing:
        raise ValueError(f"a ours le quedarían pesos que ref no tiene: {sorted(missing)}")


def _refuse_too_big(vocab, d_model, n_layers, ctx, n_heads, d_ff, bias) -> None:
    """Before allocating: a model whose weights exceed _validate.MAX_BYTES is only built on the meta device."""
    probe = torch.empty(0)  # the current default device and dtype (torch.device("meta") as a context sets it)
    n = gpt_params(vocab, d_model, n_layers, ctx, n_heads, d_ff, bias)
    size = n * probe.element_size()
    if probe.device.type != "meta" and size > _validate.MAX_BYTES:
        count, gb = thousands(n), thousands(size / 1e9, 1)
        raise MemoryError(
            f"GPT(vocab={vocab}, d_model={d_model}, n_layers={n_layers}, ctx={ctx}) tendría {count} parámetros: "
            f"en {str(probe.dtype).removeprefix('torch.')} son {gb} GB, más que los "
            f"{_validate.MAX_BYTES // 2**30} GiB que helpers deja reservar. Para contarlos sin usar memoria, crealo "
            "en el dispositivo meta:\n"
            "    with torch.device(\"meta\"):\n        modelo = helpers.blocks.GPT(...)\n"
            "o usá helpers.params.gpt_params(...) con los mismos argumentos.")


def _too_long(T: int, ctx: int) -> str:
    """What to do with T ids for a GPT that reads ``ctx``: for ctx + 1 (a sequence whose last id is only predicted,
    as helpers.check.use_loss's mistake all_ids says) it is [:, :-1]. It names the argument, idx, but writes the advice
    with no variable: the caller's is not idx (notebook 04b's is ids, and the verdict beside this error says
    ids[:, :-1])."""
    said = f"idx trae {T} tokens por secuencia, pero el modelo lee a lo sumo ctx={ctx}, uno por posición aprendida"
    if T == ctx + 1:
        return f"{said}: si el último solo se adivina (no se lee), pasale todos menos el último, [:, :-1]"
    return f"{said}: pasale a lo sumo {ctx} ([:, :{ctx}]) o creá el GPT con un ctx más grande"


class GPT(nn.Module):
    """Decoder-only model of the parameter table: tied embeddings, ``ctx`` learned positions (0: none),
    pre-norm GELU blocks and a final LayerNorm. Build it under ``torch.device('meta')`` to count big ones."""

    def __init__(self, vocab: int, d_model: int, n_layers: int, ctx: int = 0, n_heads: int = 1,
                 d_ff: int | None = None, bias: bool = True):
        # the same positional order as helpers.params.gpt_params: (vocab, d_model, n_layers, ctx, n_heads, d_ff)
        super().__init__()
        vocab = positive_int(vocab, "vocab")
        n_layers = positive_int(n_layers, "n_layers")
        ctx = non_negative_int(ctx, "ctx")
        heads_divide(d_model, n_heads)
        d_ff = 4 * d_model if d_ff is None else positive_int(d_ff, "d_ff")
        bias = boolean(bias, "bias")
        _refuse_too_big(vocab, d_model, n_layers, ctx, n_heads, d_ff, bias)
        self.vocab, self.ctx = vocab, ctx
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(ctx, d_model) if ctx else None
        self.blocks = nn.ModuleList(
            Block(d_model, n_heads, d_ff, 0.0, "pre", "gelu", bias) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model, bias=bias)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.head.weight = self.tok.weight  # weight tying: the output compares with the input table

    def forward(self, idx: torch.Tensor, causal: bool = True) -> torch.Tensor:
        """idx: (batch, tokens) ids → logits (batch, tokens, vocab); ``causal=False`` drops the mask
        (notebook 04b's experiment: a model that sees the future)."""
        tensor(idx, "idx", "(batch, tokens)")
        if idx.is_floating_point() or idx.dtype == torch.bool:
            raise TypeError(f"idx debe tener ids de tokens enteros (torch.long); recibí {idx.dtype}: usá idx.long()")
        if idx.dim() != 2:
            hint = ": para una sola secuencia usá idx[None]" if idx.dim() == 1 else ""
            raise ValueError(f"idx debe tener forma (batch, tokens); recibí {tuple(idx.shape)}{hint}")
        if idx.numel() == 0:
            raise ValueError(f"idx está vacío, de forma {tuple(idx.shape)}: el modelo necesita al menos una secuencia "
                             "con al menos un token")
        T = idx.shape[1]
        if self.ctx and T > self.ctx:
            raise ValueError(_too_long(T, self.ctx))
        lo, hi = int(idx.min()), int(idx.max())
        if lo < 0 or hi >= self.vocab:
            raise ValueError(f"idx tiene ids entre {lo} y {hi}, pero el vocabulario tiene vocab={self.vocab} "
                             f"(ids de 0 a {self.vocab - 1})")
        x = self.tok(idx) + (self.pos(torch.arange(T, device=idx.device)) if self.pos is not None else 0)
        mask = causal_mask(T).to(idx.device) if boolean(causal, "causal") else None
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))
