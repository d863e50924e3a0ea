"""Every public helper against plausible wrong input, as a learner would type it.

Each row says what must happen: ``Refuses(arg, *words)`` (an exception whose message names the argument
``arg`` and contains every word, matched as a word: what came in and what was expected) or
``Accepts(check)`` (the input is legitimate, or common and unambiguous, and ``check`` says the result has
its obvious meaning). Run as a script to count the four outcomes over the table: clear message, unhelpful
error, silent wrong result, accepted.

    python tests/test_bad_input.py
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
import pytest
import torch
from torch import nn

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from helpers import (  # noqa: E402
    _validate,  # noqa: E402
    blocks,
    check_env,
    depth,
    engine,
    grammar,
    layernorm,
    mask_experiment,
    params,
    plots,
    probes,
    progress,
    sweep,
    sweep_train,
    toydata,
)
from helpers import widgets as wdg  # noqa: E402

REFUSALS = (TypeError, ValueError, KeyError, IndexError)


@dataclass
class Refuses:
    arg: str       # the argument, by name (a phrase such as "x debe" where the name is one letter)
    words: tuple   # what came in and what was expected

    def __init__(self, arg, *words, exc=REFUSALS):
        self.arg, self.words, self.exc = arg, words, exc


@dataclass
class Accepts:
    check: Callable  # what came back has the obvious meaning: a check that passes on anything is a defect


def has_word(text: str, word: str) -> bool:
    """``word`` in ``text`` as a word: not inside a longer word, nor the start of a longer number (0 in 0.5)."""
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w|\.\d)", text, re.IGNORECASE) is not None


def outcome(fn, expect) -> tuple[str, str]:
    """('clear' | 'unhelpful' | 'silent' | 'accepted', detail)."""
    try:
        result = fn()
    except Exception as e:  # classifying every failure is the point
        text = f"{type(e).__name__}: {e}"
        if isinstance(expect, Refuses) and isinstance(e, expect.exc) and all(
                has_word(str(e), w) for w in (expect.arg, *expect.words)):
            return "clear", text
        return "unhelpful", text
    if isinstance(expect, Refuses):
        return "silent", f"no error; returned {result!r:.200}"
    try:
        ok = expect.check(result)
    except Exception as e:
        ok, result = False, e
    return ("accepted", "") if ok is True else ("silent", f"accepted with a wrong result: {result!r:.200}")


# ---- small fixtures, built fresh for each call ---------------------------------------------------

def blk(**kw):
    torch.manual_seed(0)
    kw = {"d_model": 8, "n_heads": 2, "d_ff": 16, "dropout": 0.0, **kw}
    return blocks.Block(**kw).eval()


def x4(dtype=torch.float32):
    return torch.randn(2, 4, 8, generator=torch.Generator().manual_seed(1)).to(dtype)


def ref_layer(**kw):
    kw = {"d_model": 8, "nhead": 2, "dim_feedforward": 16, "dropout": 0.0, "batch_first": True, **kw}
    return nn.TransformerEncoderLayer(**kw)


def gpt(**kw):
    torch.manual_seed(0)
    kw = {"ctx": 8, "n_heads": 2, **kw}
    return blocks.GPT(100, 8, 1, **kw).eval()


def linear_after_backward():
    layer = nn.Linear(3, 2)
    layer(torch.ones(1, 3)).sum().backward()
    return layer


def frozen_after_backward():
    """A two-layer net whose first weight is frozen; backward has run."""
    net = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2))
    net[0].weight.requires_grad_(False)
    net(torch.ones(1, 3)).sum().backward()
    return net


def unused_after_backward():
    """Two linears, only the second in the loss; backward has run."""
    used, unused = nn.Linear(3, 2), nn.Linear(3, 2)
    used(torch.ones(1, 3)).sum().backward()
    return [used.weight, unused.weight]


def bars():
    fig, ax = plt.subplots()
    return ax, ax.bar([0, 1], [0.5, 0.25])


def bar_texts(ax_and_bars, fmt):
    ax, b = ax_and_bars
    plots.label_bars(ax, b, fmt)
    return [t.get_text() for t in ax.texts]


EV = toydata.count_task(20, torch.Generator().manual_seed(0))
RUN1 = engine.Run(n_layers=1)
NAN, INF = float("nan"), float("inf")
ALT = "Barras de dos valores: 0.5 y 0.25, la primera el doble de alta que la segunda."
TMP = Path(tempfile.mkdtemp(prefix="bad_input_"))
SWEEP_TEXT = (Path(sweep.__file__).parent / "data" / "norm_sweep.json").read_text(encoding="utf-8")


def sweep_file(name: str, text: str) -> Path:
    (TMP / name).write_text(text, encoding="utf-8")
    return TMP / name


def gpt3_without_meta():
    """GPT-3 for real, only once the size check is seen refusing a tiny model past a tiny limit: without the
    check, building GPT-3 would allocate 700 GB and take the test run down instead of failing this row."""
    limit, _validate.MAX_BYTES = _validate.MAX_BYTES, 1000  # the one size rule's limit
    try:
        blocks.GPT(100, 8, 1)
    except MemoryError:
        pass
    else:
        return "GPT(100, 8, 1) was built past a 1000-byte limit: the size check is gone (GPT-3 not tried)"
    finally:
        _validate.MAX_BYTES = limit
    return blocks.GPT(50_257, 12_288, 96, 2048, n_heads=96)


def gpt3_on_meta():
    with torch.device("meta"):
        return params.count_params(blocks.GPT(50_257, 12_288, 96, 2048, n_heads=96))


def same_as_bool_mask(out):
    return torch.allclose(out, blk()(x4(), blocks.causal_mask(4)), atol=1e-6)


def masked(out):
    """Attention with the causal mask: not what the block gives without one."""
    return same_as_bool_mask(out) and not torch.allclose(out, blk()(x4()), atol=1e-4)


def draws_after(fn) -> list[torch.Tensor]:
    """What torch.rand(3) gives after fn(), from manual_seed(1) and from manual_seed(999)."""
    out = []
    for seed in (1, 999):
        torch.manual_seed(seed)
        fn()
        out.append(torch.rand(3))
    return out


def untouched(draws) -> bool:
    """The caller's generator as it was: the same draws as without the call, different for the two seeds."""
    return all(torch.equal(d, torch.manual_seed(s) and torch.rand(3)) for d, s in zip(draws, (1, 999)))


def with_default_dtype(dtype, fn):
    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        return fn()
    finally:
        torch.set_default_dtype(old)


LOSSES_F32 = engine.train_many([RUN1], 3, EV)[0].loss
TOP_SEED = 2**64 - 1  # the largest seed torch.manual_seed takes


class CliExit(Exception):
    """A command line stopped by argparse (exit 2); the message is what it printed on stderr."""


def cli_stops(argv: list[str]) -> str:
    """``sweep_train.cli(argv)`` with the training stubbed out (a row seen failing must not train for minutes):
    argparse's exit as CliExit with its stderr, or which slices it would have trained."""
    trained = []
    real, sweep_train.run_slice = sweep_train.run_slice, lambda name, **kw: trained.append(name) or []
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            sweep_train.cli(argv)
    except SystemExit as e:
        raise CliExit(f"exit {e.code}: {err.getvalue()}") from None
    finally:
        sweep_train.run_slice = real
    return f"trained {trained}, nothing said"


def refused_count_task(g: torch.Generator) -> torch.Generator:
    """``g`` after count_task refused 10¹² sequences drawn from it."""
    with contextlib.suppress(MemoryError):
        toydata.count_task(10**12, g)
    return g


def adam_after_a_refused_step():
    """(optimizer, weight) after a step refused for want of a backward."""
    w = torch.ones(2, 3, requires_grad=True)
    opt = engine.BatchedAdam([w])
    with contextlib.suppress(ValueError):
        opt.step([1e-3, 1e-3])
    return opt, w


def stepped_after_backward():
    """A BatchedAdam step on a (2, 3) weight whose backward has run: (weight before, weight after, grad after)."""
    w = torch.ones(2, 3, requires_grad=True)
    (w * torch.arange(6.0).view(2, 3)).sum().backward()
    before = w.detach().clone()
    engine.BatchedAdam([w]).step([1e-3, 1e-3])
    return before, w.detach(), w.grad


# ---- the table --------------------------------------------------------------------------------------

CASES = {
    # blocks.Block(...)
    "Block: heads do not divide d_model": (lambda: blocks.Block(8, 3), Refuses("d_model=8", "n_heads=3")),
    "Block: norm 'Pre' (capital)": (lambda: blk(norm="Pre"), Refuses("norm", "'pre'", "'Pre'")),
    "Block: dropout 1.5": (lambda: blk(dropout=1.5), Refuses("dropout", "[0, 1)", "1.5")),
    "Block: bias np.True_ (NumPy 2 names its type bool)": (lambda: blk(bias=np.True_),
                                                           Accepts(lambda b: b.attn.in_proj_bias is not None)),
    "Block: bias np.False_": (lambda: blk(bias=np.False_), Accepts(lambda b: b.attn.in_proj_bias is None)),
    "Block: dropout np.True_ is no number": (lambda: blk(dropout=np.True_), Refuses("dropout", "[0, 1)", "np.True_")),
    "Block: bias='no'": (lambda: blk(bias="no"), Refuses("bias", "True o False", "'no'")),
    "Block: activation 'silu'": (lambda: blk(activation="silu"), Refuses("activation", "'relu'", "'silu'")),
    "Block: d_ff=0": (lambda: blk(d_ff=0), Refuses("d_ff", "entero positivo", "recibí 0")),
    "Block: d_model 8.0": (lambda: blocks.Block(8.0, 2), Refuses("d_model", "entero positivo", "8.0")),
    "Block: dropout as numpy float": (lambda: blk(dropout=np.float32(0.25)),
                                      Accepts(lambda b: abs(b.drop.p - 0.25) < 1e-9)),
    "Block: dropout NaN": (lambda: blk(dropout=NAN), Refuses("dropout", "[0, 1)", "nan")),
    "Block: default d_ff is 4 * d_model": (lambda: blocks.Block(16, 2), Accepts(lambda b: b.ffn[0].out_features == 64)),
    # Block.forward(x, mask)
    "Block.forward: float tril(ones) mask": (lambda: blk()(x4(), torch.tril(torch.ones(4, 4))),
                                             Refuses("mask", "0 y 1", "causal_mask")),
    "Block.forward: ~causal_mask (reversed)": (lambda: blk()(x4(), ~blocks.causal_mask(4)),
                                               Refuses("mask", "al revés", "causal_mask")),
    "Block.forward: mask for another length": (lambda: blk()(x4(), blocks.causal_mask(3)),
                                               Refuses("mask", "(4, 4)", "(3, 3)")),
    "Block.forward: int mask": (lambda: blk()(x4(), torch.ones(4, 4, dtype=torch.long).triu(1)),
                                Refuses("mask", "bool", "torch.int64")),
    "Block.forward: mask as a list": (lambda: blk()(x4(), [[0, 1], [0, 0]]),
                                      Refuses("mask", "torch.Tensor", "list")),
    "Block.forward: float mask with +inf": (lambda: blk()(x4(), torch.full((4, 4), INF).triu(1)),
                                            Refuses("mask", "-inf", "inf]")),
    "Block.forward: float64 x (torch.from_numpy)": (lambda: blk()(x4(torch.float64)),
                                                    Refuses("x es", "torch.float64", "x.float()")),
    "Block.forward: int64 x (token ids)": (lambda: blk()(torch.randint(0, 9, (2, 4, 8))),
                                           Refuses("x debe", "torch.int64", "nn.Embedding")),
    "Block.forward: numpy x": (lambda: blk()(x4().numpy()), Refuses("x debe", "torch.Tensor", "ndarray")),
    "Block.forward: last axis 6, not 8": (lambda: blk()(torch.randn(2, 4, 6)),
                                          Refuses("x debe", "(batch, tokens, 8)", "(2, 4, 6)")),
    "Block.forward: one sentence without batch axis": (lambda: blk()(torch.randn(4, 8)),
                                                       Refuses("x debe", "(batch, tokens, 8)", "x[None]")),
    "Block.forward: float causal mask of 0 and -inf": (
        lambda: blk()(x4(), torch.zeros(4, 4).masked_fill(blocks.causal_mask(4), -INF)), Accepts(masked)),
    "Block.forward: bool causal mask": (lambda: blk()(x4(), blocks.causal_mask(4)), Accepts(masked)),
    "Block.forward: all-zero float mask (nothing blocked)": (
        lambda: blk()(x4(), torch.zeros(4, 4)), Accepts(lambda out: torch.allclose(out, blk()(x4()), atol=1e-6))),
    # blocks.causal_mask
    "causal_mask(0)": (lambda: blocks.causal_mask(0), Refuses("n_tokens", "entero positivo", "recibí 0")),
    "causal_mask(3.0)": (lambda: blocks.causal_mask(3.0), Refuses("n_tokens", "entero positivo", "3.0")),
    "causal_mask('4')": (lambda: blocks.causal_mask("4"), Refuses("n_tokens", "entero positivo", "'4'")),
    "causal_mask(-1)": (lambda: blocks.causal_mask(-1), Refuses("n_tokens", "entero positivo", "-1")),
    "causal_mask(True)": (lambda: blocks.causal_mask(True), Refuses("n_tokens", "entero positivo", "True")),
    "causal_mask(numpy int)": (lambda: blocks.causal_mask(np.int64(4)),
                               Accepts(lambda m: torch.equal(m, blocks.causal_mask(4)))),
    "Block: d_model 100 000 asks for terabytes": (lambda: blocks.Block(100_000, 8),
                                                  Refuses("Block(d_model=100000", "GiB", "más chico", exc=MemoryError)),
    "causal_mask: 10⁶ tokens ask for a terabyte": (lambda: blocks.causal_mask(10**6),
                                                   Refuses("n_tokens=1000000", "GiB", "más chico", exc=MemoryError)),
    # blocks.copy_encoder_layer
    "copy: an 8-head layer into a 4-head block": (
        lambda: blocks.copy_encoder_layer(blk(n_heads=4), ref_layer(nhead=8)),
        Refuses("n_heads=4", "nhead=8", "cabezas")),
    "copy: batch_first=False": (lambda: blocks.copy_encoder_layer(blk(), ref_layer(batch_first=False)),
                                Refuses("ref", "batch_first=False", "batch_first=True")),
    "copy: GELU reference into a ReLU block": (
        lambda: blocks.copy_encoder_layer(blk(), ref_layer(activation="gelu")),
        Refuses("ref", "activation='gelu'", "'relu'")),
    "copy: from an nn.Linear": (lambda: blocks.copy_encoder_layer(blk(), nn.Linear(8, 8)),
                                Refuses("ref", "nn.TransformerEncoderLayer", "Linear")),
    "copy: into an nn.Linear": (lambda: blocks.copy_encoder_layer(nn.Linear(8, 8), ref_layer()),
                                Refuses("ours", "Block", "Linear")),
    "copy: arguments swapped": (lambda: blocks.copy_encoder_layer(ref_layer(), blk()),
                                Refuses("ours", "nn.TransformerEncoderLayer", "orden")),
    "copy: other d_ff": (lambda: blocks.copy_encoder_layer(blk(d_ff=32), ref_layer()),
                         Refuses("PyTorch (ref), linear1.weight", "(16, 8)", "(32, 8)", "d_ff")),
    "copy: pre-norm reference into a post-norm block": (
        lambda: blocks.copy_encoder_layer(blk(), ref_layer(norm_first=True)),
        Refuses("ref", "norm_first=True", "norm='post'")),
    "copy: other LayerNorm eps": (lambda: blocks.copy_encoder_layer(blk(), ref_layer(layer_norm_eps=1e-3)),
                                  Refuses("ref", "layer_norm_eps=0.001", "eps=1e-05")),
    "copy: copies every weight": (
        lambda: (lambda ours, ref: (blocks.copy_encoder_layer(ours, ref), ours, ref))(blk(), ref_layer()),
        Accepts(lambda r: torch.allclose(r[1](x4()), r[2].eval()(x4()), atol=1e-6))),
    # blocks.GPT
    "GPT: more tokens than ctx": (lambda: gpt()(torch.zeros(1, 12, dtype=torch.long)),
                                  Refuses("idx", "12 tokens", "ctx=8")),
    "GPT: ids beyond the vocabulary": (lambda: gpt()(torch.tensor([[1, 2, 150]])),
                                       Refuses("idx", "150", "vocab=100", "99")),
    "GPT: negative ids": (lambda: gpt()(torch.tensor([[1, -2, 3]])), Refuses("idx", "-2", "vocab=100")),
    "GPT: float ids": (lambda: gpt()(torch.tensor([[1.0, 2.0]])), Refuses("idx", "enteros", "torch.float32")),
    "GPT: one sequence without batch axis": (lambda: gpt()(torch.tensor([1, 2, 3])),
                                             Refuses("idx", "(batch, tokens)", "idx[None]")),
    "GPT: 0 tokens": (lambda: gpt()(torch.zeros(1, 0, dtype=torch.long)), Refuses("idx", "vacío", "(1, 0)")),
    "GPT: 0 sequences": (lambda: gpt()(torch.zeros(0, 3, dtype=torch.long)), Refuses("idx", "vacío", "(0, 3)")),
    "GPT: d_ff=0": (lambda: gpt(d_ff=0), Refuses("d_ff", "entero positivo", "recibí 0")),
    "GPT: bias='no'": (lambda: gpt(bias="no"), Refuses("bias", "True o False", "'no'")),
    "GPT: vocab 0": (lambda: blocks.GPT(0, 8, 1), Refuses("vocab", "entero positivo", "recibí 0")),
    "GPT: GPT-3 without the meta device, refused before allocating": (
        lambda: gpt3_without_meta(),
        Refuses("n_layers=96", "174 604 259 328", "4 GiB", "torch.device(\"meta\")", "gpt_params",
                exc=(MemoryError,))),
    "GPT: GPT-3 on the meta device": (
        lambda: gpt3_on_meta(),
        Accepts(lambda n: n == params.gpt_params(50_257, 12_288, 96, 2048))),
    "GPT: positional n_heads, like gpt_params": (
        lambda: params.count_params(blocks.GPT(50, 8, 2, 16, 2)),
        Accepts(lambda n: n == params.gpt_params(50, 8, 2, 16, 2))),
    # params
    "gpt_params: GPT's positional order (n_heads 5th)": (lambda: params.gpt_params(50257, 768, 12, 1024, 12),
                                                        Accepts(lambda n: n == 124_439_808)),
    "gpt_params: vocab 0": (lambda: params.gpt_params(0, 8, 1), Refuses("vocab", "entero positivo", "recibí 0")),
    "gpt_params: ctx -1": (lambda: params.gpt_params(100, 8, 2, -1), Refuses("ctx", "entero >= 0", "-1")),
    "gpt_params: heads do not divide": (lambda: params.gpt_params(100, 8, 2, 0, 3),
                                        Refuses("d_model=8", "n_heads=3")),
    "gpt_params: d_ff=0": (lambda: params.gpt_params(100, 8, 2, d_ff=0),
                           Refuses("d_ff", "entero positivo", "recibí 0")),
    "attention_params(768.0)": (lambda: params.attention_params(768.0), Refuses("d_model", "entero", "768.0")),
    "attention_params(numpy int)": (lambda: params.attention_params(np.int64(8)), Accepts(lambda n: n == 288)),
    "attention_params: bias='no'": (lambda: params.attention_params(8, bias="no"),
                                    Refuses("bias", "True o False", "'no'")),
    "ffn_params: d_ff=0": (lambda: params.ffn_params(8, d_ff=0), Refuses("d_ff", "entero positivo", "recibí 0")),
    "ffn_params(0)": (lambda: params.ffn_params(0), Refuses("d_model", "entero positivo", "recibí 0")),
    "ffn_params: d_ff 16.5": (lambda: params.ffn_params(8, d_ff=16.5), Refuses("d_ff", "entero", "16.5")),
    "ffn_params: bias='no'": (lambda: params.ffn_params(8, bias="no"), Refuses("bias", "True o False", "'no'")),
    "ffn_params('8')": (lambda: params.ffn_params("8"), Refuses("d_model", "entero", "'8'")),
    "attention_params(0)": (lambda: params.attention_params(0), Refuses("d_model", "entero", "recibí 0")),
    "attention_params(None)": (lambda: params.attention_params(None), Refuses("d_model", "entero", "None")),
    "layernorm_params(0)": (lambda: params.layernorm_params(0), Refuses("d_model", "entero", "recibí 0")),
    "layernorm_params(8.5)": (lambda: params.layernorm_params(8.5), Refuses("d_model", "entero", "8.5")),
    "layernorm_params: bias None": (lambda: params.layernorm_params(8, bias=None),
                                    Refuses("bias", "True o False", "None")),
    "layernorm_params: bias='no'": (lambda: params.layernorm_params(8, bias="no"),
                                    Refuses("bias", "True o False", "'no'")),
    "layernorm_params(-8)": (lambda: params.layernorm_params(-8), Refuses("d_model", "entero", "-8")),
    "count_params(a tensor)": (lambda: params.count_params(torch.zeros(3)),
                               Refuses("module", "nn.Module", "Tensor")),
    "count_params(m.parameters())": (lambda: params.count_params(nn.Linear(2, 2).parameters()),
                                     Refuses("module", "nn.Module", "generator")),
    "count_params(None)": (lambda: params.count_params(None), Refuses("module", "nn.Module", "NoneType")),
    "count_params(the class, not an instance)": (lambda: params.count_params(nn.Linear),
                                                 Refuses("module", "clase", "Linear")),
    "count_params: shared weights counted once": (
        lambda: params.count_params(blocks.GPT(50, 8, 1)),
        Accepts(lambda n: n == params.gpt_params(50, 8, 1))),
    # probes.grad_norms
    "grad_norms(one weight)": (lambda: probes.grad_norms(linear_after_backward().weight),
                               Accepts(lambda g: g == pytest.approx([6 ** 0.5]))),
    "grad_norms(a module)": (lambda: probes.grad_norms(linear_after_backward()),
                             Refuses("params", "nn.Module", "m.parameters()")),
    "grad_norms before backward": (lambda: probes.grad_norms([nn.Linear(2, 2).weight]),
                                   Refuses("params[0]", "loss.backward()")),
    "grad_norms: a frozen weight after backward": (
        lambda: probes.grad_norms([frozen_after_backward()[0].weight]),
        Refuses("params[0]", "requires_grad=False", "congelado")),
    "grad_norms: a detached weight after backward": (
        lambda: probes.grad_norms([linear_after_backward().weight.detach()]),
        Refuses("params[0]", "requires_grad=False", ".detach()")),
    "grad_norms: a computed tensor, not a parameter": (
        lambda: probes.grad_norms([linear_after_backward().weight * 1]),
        Refuses("params[0]", "resultado de una cuenta", "capa.weight")),
    "grad_norms: a weight the loss did not use": (lambda: probes.grad_norms(unused_after_backward()),
                                                 Refuses("params[1]", "no participó")),
    "grad_norms([])": (lambda: probes.grad_norms([]), Refuses("params", "vacío")),
    "grad_norms([1.0])": (lambda: probes.grad_norms([1.0]), Refuses("params[0]", "tensores", "float")),
    "grad_norms(5)": (lambda: probes.grad_norms(5), Refuses("params", "lista de tensores", "int")),
    # toydata
    "spiral(0)": (lambda: toydata.spiral(0), Refuses("n debe", "entero positivo", "recibí 0")),
    "spiral(10.0)": (lambda: toydata.spiral(10.0), Refuses("n debe", "entero positivo", "10.0")),
    "spiral: noise -0.1": (lambda: toydata.spiral(10, noise=-0.1), Refuses("noise", "[0, 1)", "-0.1")),
    "spiral: noise NaN": (lambda: toydata.spiral(10, noise=NAN), Refuses("noise", "[0, 1)", "nan")),
    "spiral: seed -1": (lambda: toydata.spiral(10, seed=-1), Refuses("seed", "entero >= 0", "-1")),
    "spiral: numpy noise": (lambda: toydata.spiral(10, noise=np.float64(0.05)),
                            Accepts(lambda d: torch.equal(d[0], toydata.spiral(10, noise=0.05)[0]))),
    "count_task(0)": (lambda: toydata.count_task(0), Refuses("n debe", "entero positivo", "recibí 0")),
    "count_task: generator 4": (lambda: toydata.count_task(5, generator=4),
                                Refuses("generator", "torch.Generator", "recibí int")),
    "count_task: length 0": (lambda: toydata.count_task(5, length=0), Refuses("length", "entero", "recibí 0")),
    "count_task('5')": (lambda: toydata.count_task("5"), Refuses("n debe", "entero positivo", "'5'")),
    "count_task: length 1": (lambda: toydata.count_task(3, length=1), Accepts(lambda d: d[1].eq(0).all().item())),
    "spiral: 10¹² points ask for terabytes": (lambda: toydata.spiral(10**12),
                                              Refuses("spiral(n=1000000000000)", "GiB", "más chico", exc=MemoryError)),
    "spiral: seed 2**64, past torch's seeds": (lambda: toydata.spiral(10, seed=2**64),
                                               Refuses("seed", "2**64", "18446744073709551616")),
    "spiral: seed True": (lambda: toydata.spiral(10, seed=True), Refuses("seed", "entero >= 0", "True")),
    "spiral: the largest seed torch takes": (
        lambda: toydata.spiral(10, seed=TOP_SEED),
        Accepts(lambda d: torch.equal(d[0], toydata.spiral(10, seed=TOP_SEED)[0])
                and not torch.equal(d[0], toydata.spiral(10)[0]))),
    "count_task: 10¹² sequences ask for terabytes": (
        lambda: toydata.count_task(10**12), Refuses("count_task(n=1000000000000", "GiB", "más chico", exc=MemoryError)),
    "count_task: length 10⁶ asks for terabytes": (
        lambda: toydata.count_task(10, length=10**6), Refuses("length=1000000", "GiB", "más chico", exc=MemoryError)),
    "count_task: a refused call leaves the generator as it was": (
        lambda: refused_count_task(torch.Generator().manual_seed(5)),
        Accepts(lambda g: torch.equal(torch.rand(3, generator=g),
                                      torch.rand(3, generator=torch.Generator().manual_seed(5))))),
    # toydata.count_labels
    "count_labels: NaN tokens": (lambda: toydata.count_labels(torch.tensor([[1.0, NAN, 1.0]])),
                                 Refuses("x debe", "enteros", "torch.float32", ".long()")),
    "count_labels: float digits": (lambda: toydata.count_labels(torch.tensor([[3.0, 1.0, 3.0]])),
                                   Refuses("x debe", "enteros", "torch.float32")),
    "count_labels: a list": (lambda: toydata.count_labels([[3, 1, 3]]), Refuses("x debe", "torch.Tensor", "list")),
    "count_labels: one digit, no token axis": (lambda: toydata.count_labels(torch.tensor(3)),
                                               Refuses("x debe", "(secuencias, tokens)", "()")),
    "count_labels: 10⁵ tokens in a sequence ask for 10 GB": (
        lambda: toydata.count_labels(torch.zeros(1, 10**5, dtype=torch.long)),
        Refuses("x de forma (1, 100000)", "GiB", "más chico", exc=MemoryError)),
    "count_labels: int32 digits": (lambda: toydata.count_labels(torch.tensor([[3, 1, 3]], dtype=torch.int32)),
                                   Accepts(lambda y: y.tolist() == [[1, 0, 1]])),
    # grammar.sample
    "sample: 10¹² sequences ask for terabytes": (
        lambda: grammar.sample(10**12), Refuses("sample(n=1000000000000", "GiB", "más chico", exc=MemoryError)),
    "sample: 10¹¹ sentences each": (lambda: grammar.sample(10, 10**11),
                                    Refuses("n_sentences=100000000000", "GiB", "más chico", exc=MemoryError)),
    "sample: generator 4": (lambda: grammar.sample(5, generator=4),
                            Refuses("generator", "torch.Generator", "recibí int")),
    "sample: n 0": (lambda: grammar.sample(0), Refuses("n debe", "entero positivo", "recibí 0")),
    "sample: two sentences": (lambda: grammar.sample(3, 2, torch.Generator().manual_seed(0)),
                              Accepts(lambda s: s.shape == (3, 11) and grammar.decode(s[0]).count(".") == 3)),
    # engine.Run
    "Run: norm 'sandwich'": (lambda: engine.Run("sandwich"), Refuses("norm", "'post', 'pre'", "'sandwich'")),
    "Run: lr=1 (an int)": (lambda: engine.Run(lr=1), Accepts(lambda r: r.lr_at(1) == 1.0)),
    "Run: lr=inf": (lambda: engine.Run(lr=INF), Refuses("lr", "positivo y finito", "inf")),
    "Run: lr numpy float": (lambda: engine.Run(lr=np.float64(1e-3)), Accepts(lambda r: r.lr_at(1) == 1e-3)),
    "Run: warmup 10.5": (lambda: engine.Run(warmup=10.5), Refuses("warmup", "entero >= 0", "10.5")),
    "Run: 0 layers": (lambda: engine.Run(n_layers=0), Refuses("n_layers", "entero positivo", "recibí 0")),
    "Run: heads do not divide": (lambda: engine.Run(d_model=30, n_heads=4), Refuses("d_model=30", "n_heads=4")),
    "Run: seed 2**64, past torch's seeds": (lambda: engine.Run(n_layers=1, seed=2**64),
                                            Refuses("seed", "2**64", "18446744073709551616")),
    "Run: data_seed 2**64": (lambda: engine.Run(n_layers=1, data_seed=2**64),
                             Refuses("data_seed", "2**64", "18446744073709551616")),
    "Run: data_seed -1": (lambda: engine.Run(n_layers=1, data_seed=-1), Refuses("data_seed", "entero >= 0", "-1")),
    "Run: the largest seed torch takes": (
        lambda: engine.stack(engine.Run(n_layers=1, seed=TOP_SEED)),
        Accepts(lambda m: torch.equal(m[0].weight, engine.stack(engine.Run(n_layers=1, seed=TOP_SEED))[0].weight)
                and not torch.equal(m[0].weight, engine.stack(RUN1)[0].weight))),
    "lr_at: step -5": (lambda: engine.Run(warmup=10).lr_at(-5), Refuses("step", "entero positivo", "-5")),
    "lr_at: step 0 (the first step is 1)": (lambda: engine.Run(warmup=10).lr_at(0),
                                            Refuses("step", "el primer paso es 1", "recibí 0")),
    "lr_at: step 2.5": (lambda: engine.Run(warmup=10).lr_at(2.5), Refuses("step", "entero positivo", "2.5")),
    "lr_at: halfway through the warmup": (lambda: engine.Run(warmup=10, lr=1e-3).lr_at(5),
                                          Accepts(lambda lr: lr == pytest.approx(5e-4))),
    "lr_at: numpy step": (lambda: engine.Run(warmup=10, lr=1e-3).lr_at(np.int64(10)),
                          Accepts(lambda lr: lr == pytest.approx(1e-3))),
    # engine.train_many
    "train_many: one Run, not a list": (lambda: engine.train_many(RUN1, 2, EV), Refuses("runs", "lista", "[run]")),
    "train_many: no runs": (lambda: engine.train_many([], 2, EV), Refuses("runs", "vacía")),
    "train_many: 0 steps": (lambda: engine.train_many([RUN1], 0, EV), Refuses("steps", "entero", "recibí 0")),
    "train_many: 10⁹ steps would run for days": (lambda: engine.train_many([RUN1], 10**9, EV),
                                                 Refuses("steps=1 000 000 000", "100 000 pasos")),
    "train_reference: 10⁹ steps too": (lambda: engine.train_reference(RUN1, 10**9, EV),
                                       Refuses("steps=1 000 000 000", "100 000 pasos")),
    "train_many: 30 runs of 48 wide layers ask for 118 GB": (
        lambda: engine.train_many([engine.Run("pre", 48, d_model=512, n_heads=8, d_ff=2048)] * 30, 2, EV),
        Refuses("30 corridas", "GiB", "más chico", exc=MemoryError)),
    "Run: 10⁶ layers ask for terabytes": (lambda: engine.Run("pre", 10**6),
                                          Refuses("n_layers=1000000", "GiB", "más chico", exc=MemoryError)),
    "train_many: eval_set without y": (lambda: engine.train_many([RUN1], 2, EV[0]),
                                       Refuses("eval_set", "(x, y)", "Tensor")),
    "train_many: eval_every 0": (lambda: engine.train_many([RUN1], 2, EV, eval_every=0),
                                 Refuses("eval_every", "entero positivo", "recibí 0")),
    "train_many: a string run": (lambda: engine.train_many(["post"], 2, EV), Refuses("runs[0]", "Run", "'post'")),
    "train_many: runs 'post'": (lambda: engine.train_many("post", 2, EV), Refuses("runs", "lista", "'post'")),
    "train_many: eval set swapped, (y, x)": (lambda: engine.train_many([RUN1], 2, EV[::-1]),
                                             Refuses("eval_set", "al revés", "(y, x)")),
    "train_many: eval set of another task": (lambda: engine.train_many([RUN1], 2, (EV[0], EV[0])),
                                             Refuses("eval_set", "etiquetas", "helpers.sweep.eval_set()")),
    "train_many: empty eval set": (lambda: engine.train_many([RUN1], 2, (EV[0][:0], EV[1][:0])),
                                   Refuses("eval_set", "vacío", "(0, 10)")),
    "train_many: float eval set": (lambda: engine.train_many([RUN1], 2, (EV[0].float(), EV[1].float())),
                                   Refuses("eval_set", "enteros", "torch.float32", ".long()")),
    "train_many: progress=True, refused before training 1 500 steps": (
        lambda: engine.train_many([RUN1], 1500, EV, progress=True),
        Refuses("progress", "True", "show_progress=True")),
    "train_many: a run that diverges": (lambda: engine.train_many([RUN1, engine.Run(n_layers=1, lr=1e6)], 5, EV),
                                        Refuses("runs[1]", "nan", "lr=1e+06", exc=(FloatingPointError,))),
    "train_many: float16 as torch's default dtype": (
        lambda: with_default_dtype(torch.float16, lambda: engine.train_many([RUN1], 3, EV)),
        Accepts(lambda h: h[0].loss == LOSSES_F32)),
    "train_many: int32 eval set": (lambda: engine.train_many([RUN1], 3, (EV[0].int(), EV[1].int())),
                                   Accepts(lambda h: h[0].loss == LOSSES_F32 and len(h[0].acc) == 1)),
    "train_many: leaves torch's generator as it was": (
        lambda: draws_after(lambda: engine.train_many([RUN1], 1, EV)), Accepts(untouched)),
    # engine.train_reference, engine.stack
    "train_reference: a string run": (lambda: engine.train_reference("post", 2, EV), Refuses("run", "Run", "'post'")),
    "train_reference: eval_set of one tensor": (lambda: engine.train_reference(RUN1, 2, EV[1]),
                                                Refuses("eval_set", "(x, y)", "Tensor")),
    "train_reference: steps 0": (lambda: engine.train_reference(RUN1, 0, EV), Refuses("steps", "entero", "recibí 0")),
    "train_reference: eval_every 0": (lambda: engine.train_reference(RUN1, 2, EV, eval_every=0),
                                      Refuses("eval_every", "entero", "recibí 0")),
    "train_reference: a list of runs": (lambda: engine.train_reference([RUN1], 2, EV), Refuses("run", "Run", "list")),
    "train_reference: eval set swapped, (y, x)": (lambda: engine.train_reference(RUN1, 2, EV[::-1]),
                                                  Refuses("eval_set", "al revés")),
    "stack('pre')": (lambda: engine.stack("pre"), Refuses("run", "Run", "'pre'")),
    "stack(None)": (lambda: engine.stack(None), Refuses("run", "Run", "None")),
    "stack(the Run class)": (lambda: engine.stack(engine.Run), Refuses("run", "Run", "type")),
    "stack(a dict)": (lambda: engine.stack({"norm": "pre"}), Refuses("run", "Run", "dict")),
    "stack(12)": (lambda: engine.stack(12), Refuses("run", "Run", "12")),
    "stack: leaves torch's generator as it was": (
        lambda: draws_after(lambda: engine.stack(engine.Run(n_layers=1))), Accepts(untouched)),
    "stack: float32 whatever torch's default dtype": (
        lambda: with_default_dtype(torch.float64, lambda: engine.stack(RUN1)),
        Accepts(lambda m: all(p.dtype == torch.float32 for p in m.parameters()))),
    # engine.token_accuracy
    "token_accuracy: numpy logits": (lambda: engine.token_accuracy(np.zeros((1, 4, 10, 10)), torch.zeros(1, 4, 10)),
                                     Refuses("logits", "torch.Tensor", "ndarray")),
    "token_accuracy: y as a list": (lambda: engine.token_accuracy(torch.zeros(4, 10, 10), [[0] * 10] * 4),
                                    Refuses("y debe", "torch.Tensor", "list")),
    "token_accuracy: nan logits": (lambda: engine.token_accuracy(torch.full((4, 10, 10), NAN),
                                                                 torch.zeros(4, 10, dtype=torch.long)),
                                   Refuses("logits", "nan", "divergió")),
    "token_accuracy: a label outside the classes": (
        lambda: engine.token_accuracy(torch.zeros(4, 10, 10), torch.full((4, 10), 10, dtype=torch.long)),
        Refuses("y tiene", "10 clases", "de 0 a 9")),
    "BatchedAdam.step: a nan learning rate": (lambda: engine.BatchedAdam([torch.zeros(2, 3)]).step([1e-3, NAN]),
                                              Refuses("lr", "finitos", "corrida 1", "nan")),
    "BatchedAdam.step: a negative learning rate": (lambda: engine.BatchedAdam([torch.zeros(2, 3)]).step([-1e-3, 1e-3]),
                                                   Refuses("lr", ">= 0", "corrida 0", "-0.001")),
    "BatchedAdam.step: one rate for two runs": (lambda: engine.BatchedAdam([torch.zeros(2, 3)]).step([1e-3]),
                                                Refuses("lr", "2 learning rates", "(1,)")),
    "BatchedAdam.step before any backward": (
        lambda: engine.BatchedAdam([torch.zeros(2, 3, requires_grad=True)]).step([1e-3, 1e-3]),
        Refuses("params[0]", "gradiente", "loss.backward()")),
    "BatchedAdam.step refused: the optimizer and the weights as they were": (
        lambda: adam_after_a_refused_step(),
        Accepts(lambda r: r[0].t == 0 and not r[0].m[0].any() and torch.equal(r[1], torch.ones(2, 3)))),
    "BatchedAdam: no parameters": (lambda: engine.BatchedAdam([]), Refuses("params", "vacía")),
    "BatchedAdam: parameters of different run counts": (
        lambda: engine.BatchedAdam([torch.zeros(2, 3), torch.zeros(3, 3)]),
        Refuses("params[1]", "3 corridas", "params[0] tiene 2")),
    "BatchedAdam.step after backward": (lambda: stepped_after_backward(),
                                        Accepts(lambda r: r[2] is None and (r[1] < r[0]).sum().item() == 5
                                                and torch.equal(r[1][0, 0], r[0][0, 0]))),
    "token_accuracy: logits without the class axis": (
        lambda: engine.token_accuracy(torch.zeros(4, 10), torch.zeros(4, 10, dtype=torch.long)),
        Refuses("logits", "(4, 10)", "(batch, tokens)")),
    "token_accuracy: y with a run axis too many": (
        lambda: engine.token_accuracy(torch.zeros(4, 10, 10), torch.zeros(1, 4, 10, dtype=torch.long)),
        Refuses("logits", "(4, 10, 10)", "(1, 4, 10)")),
    "token_accuracy: shapes differ": (
        lambda: engine.token_accuracy(torch.zeros(1, 5, 10, 10), torch.zeros(1, 4, 10, dtype=torch.long)),
        Refuses("logits", "(1, 5, 10, 10)", "(1, 4, 10)")),
    "token_accuracy: labels of one sequence for a batch (would broadcast)": (
        lambda: engine.token_accuracy(torch.zeros(1, 4, 10, 10), torch.zeros(10, dtype=torch.long)),
        Refuses("y debe", "(10,)", "(batch, tokens)")),
    "token_accuracy: float labels": (lambda: engine.token_accuracy(torch.zeros(4, 10, 10), torch.zeros(4, 10)),
                                     Refuses("y debe", "enteras", "torch.float32")),
    "token_accuracy: no tokens": (
        lambda: engine.token_accuracy(torch.zeros(0, 10, 10), torch.zeros(0, 10, dtype=torch.long)),
        Refuses("y está", "vacío", "(0, 10)")),
    "token_accuracy: one label set for every run": (
        lambda: engine.token_accuracy(torch.eye(10).expand(2, 1, 10, 10) * torch.tensor([1.0, -1.0])[:, None, None,
                                                                                                       None],
                                      torch.arange(10)[None]),
        Accepts(lambda a: a.tolist() == [1.0, 0.0])),
    # engine.History.escape_step
    "escape_step: threshold 0": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(0),
                                 Refuses("threshold", "0 y 1", "recibí 0")),
    "escape_step: threshold -0.5": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(-0.5),
                                    Refuses("threshold", "0 y 1", "-0.5")),
    "escape_step: threshold None": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(None),
                                    Refuses("threshold", "0 y 1", "None")),
    "escape_step: threshold 1 (an int)": (lambda: engine.History(engine.Run(), [25], [1.0]).escape_step(1),
                                          Accepts(lambda s: s == 25)),
    "escape_step: threshold 60 (percent)": (
        lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(60), Refuses("threshold", "0 y 1", "60")),
    "escape_step: threshold '0.6'": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step("0.6"),
                                     Refuses("threshold", "0 y 1", "'0.6'")),
    # sweep_train.to_json, History
    "to_json: a nan accuracy is never written": (
        lambda: sweep_train.to_json(engine.History(RUN1, steps=[25, 50], acc=[0.5, NAN])),
        Refuses("hist", "no se puede guardar", "nan")),
    "to_json: steps and accuracies of unequal lengths": (
        lambda: sweep_train.to_json(engine.History(RUN1, steps=[25, 50], acc=[0.5])),
        Refuses("hist", "2 pasos y 1 aciertos")),
    "History.escape_step: steps and acc of unequal lengths": (
        lambda: engine.History(RUN1, steps=[25, 50, 75], acc=[0.1, 0.7]).escape_step(),
        Refuses("steps y acc", "a pares", "tiene 3")),
    # sweep_train.run_slice
    "run_slice: unknown slice": (lambda: sweep_train.run_slice("depth7"), Refuses("name", "depth6", "'depth7'")),
    "run_slice: steps 0": (lambda: sweep_train.run_slice("depth6", steps=0), Refuses("steps", "entero", "recibí 0")),
    "run_slice: steps -5": (lambda: sweep_train.run_slice("depth6", steps=-5), Refuses("steps", "entero", "-5")),
    "run_slice: steps 2.5": (lambda: sweep_train.run_slice("depth6", steps=2.5), Refuses("steps", "entero", "2.5")),
    "run_slice(6)": (lambda: sweep_train.run_slice(6), Refuses("name", "depth6", "recibí 6")),
    "depth.Stack: seed 2**64, past torch's seeds": (lambda: depth.Stack("plain", 2, seed=2**64),
                                                    Refuses("seed", "2**64", "18446744073709551616")),
    "depth.Stack: seed 1.5": (lambda: depth.Stack("plain", 2, seed=1.5), Refuses("seed", "entero >= 0", "1.5")),
    "depth.Stack: width 10**6 asks for terabytes": (lambda: depth.Stack("plain", 2, width=10**6),
                                                    Refuses("width=1000000", "GiB", "más chico", exc=MemoryError)),
    "depth.Stack: the largest seed torch takes": (
        lambda: depth.Stack("plain", 1, width=4, seed=TOP_SEED),
        Accepts(lambda m: torch.equal(m.capas[0].weight,
                                      depth.Stack("plain", 1, width=4, seed=TOP_SEED).capas[0].weight))),
    "mask_experiment.build_gpt: seed 2**64": (lambda: mask_experiment.build_gpt(2**64),
                                              Refuses("seed", "2**64", "18446744073709551616")),
    "mask_experiment.train_pair: seed 2**64": (lambda: mask_experiment.train_pair(1, seed=2**64),
                                               Refuses("seed", "2**64", "18446744073709551616")),
    "mask_experiment.train_pair: a seed whose batches' seed passes 2**64": (
        lambda: mask_experiment.train_pair(1, seed=TOP_SEED), Refuses("seed", "lotes", str(TOP_SEED))),
    # sweep_train's command line
    "sweep_train: --only and --add together": (lambda: cli_stops(["--only", "depth6", "--add", "warmup24"]),
                                               Refuses("--add", "--only", "juntos", exc=(CliExit,))),
    "sweep_train: --out with --only": (lambda: cli_stops(["--only", "depth6", "--out", str(TMP / "x.json")]),
                                       Refuses("--out", "--only", "no escribe", exc=(CliExit,))),
    # sweep.load and sweep.explore
    "load: a missing file": (lambda: sweep.load(TMP / "no_existe.json"),
                             Refuses("no_existe.json", "make sweep", "python -m helpers.sweep_train",
                                     exc=(FileNotFoundError,))),
    "load: a truncated file": (lambda: sweep.load(sweep_file("cortado.json", SWEEP_TEXT[:5000])),
                               Refuses("cortado.json", "JSON", "cortado", "make sweep")),
    "load: a run without its accuracies": (
        lambda: sweep.load(sweep_file("sin_acc.json", SWEEP_TEXT.replace('"acc":', '"ac":', 1))),
        Refuses("sin_acc.json", "acc", "make sweep")),
    "load: a list instead of the sweep": (lambda: sweep.load(sweep_file("lista.json", "[1, 2]")),
                                          Refuses("lista.json", "'slices'", "make sweep")),
    "load: the committed file": (lambda: sweep.load(), Accepts(lambda d: {k: len(v) for k, v in d["slices"].items()}
                                                               == {k: len(runs) for k, (runs, _) in
                                                                   sweep_train.SLICES.items()})),
    "explore: seed 'all'": (lambda: sweep.explore(12, seed="all"), Refuses("seed", "'todas'", "'all'")),
    "explore: 8 layers": (lambda: sweep.explore(8), Refuses("n_layers", "6, 12, 24", "recibí 8")),
    "explore: norm 'prenorm'": (lambda: sweep.explore(12, "prenorm"), Refuses("norm", "'ambas'", "'prenorm'")),
    "explore: warmup True": (lambda: sweep.explore(12, "pre", True), Refuses("warmup", "número", "True")),
    "explore: data of another shape": (lambda: sweep.explore(12, data={"slices": []}),
                                       Refuses("data", "'slices'", "make sweep")),
    "explore: numpy seed": (lambda: sweep.explore(12, "pre", 0, np.int64(3)),
                            Accepts(lambda e: [c.seed for c in e.curves] == [3])),
    # layernorm
    "parse_numbers('1234')": (lambda: layernorm.parse_numbers("1234"), Refuses("4 números", "recibí 1")),
    "parse_numbers('1,2,3,4')": (lambda: layernorm.parse_numbers("1,2,3,4"), Accepts(lambda v: v == [1, 2, 3, 4])),
    "parse_numbers('1 2 3 4')": (lambda: layernorm.parse_numbers("1 2 3 4"), Accepts(lambda v: v == [1, 2, 3, 4])),
    "parse_numbers('0,8; 0,95; 0,93; 1,33')": (lambda: layernorm.parse_numbers("0,8; 0,95; 0,93; 1,33"),
                                              Accepts(lambda v: v == [0.8, 0.95, 0.93, 1.33])),
    "parse_numbers: a word": (lambda: layernorm.parse_numbers(["1", "2", "x", "4"]), Refuses("número 3", "«x»")),
    "parse_numbers: three numbers": (lambda: layernorm.parse_numbers(["1", "2", "3"]),
                                     Refuses("4 números", "recibí 3")),
    "parse_numbers: NaN": (lambda: layernorm.parse_numbers([1, 2, 3, NAN]), Refuses("número 4", "finito", "nan")),
    "parse_numbers(None)": (lambda: layernorm.parse_numbers(None), Refuses("4 números", "None")),
    "parse_numbers: 1e16": (lambda: layernorm.parse_numbers(["1e16", "1", "2", "3"]),
                            Refuses("número 1", "demasiado grande", "1e+16")),
    "parse_numbers: an invisible character pasted in": (
        lambda: layernorm.parse_numbers(["1\u200b", "2", "3", "4"]),
        Refuses("número 1", "«1⟨U+200B⟩»", "ZERO WIDTH SPACE")),
    "parse_numbers: a no-break space inside": (lambda: layernorm.parse_numbers(["1", "2\u00a05", "3", "4"]),
                                               Refuses("número 2", "«2⟨U+00A0⟩5»", "NO-BREAK SPACE")),
    "parse_numbers: '1.000' is one or a thousand": (lambda: layernorm.parse_numbers(["1.000", "2", "3", "4"]),
                                                     Refuses("número 1", "dos formas", "1000", "escribilo 1.0")),
    "parse_numbers: '1,000' is one or a thousand": (lambda: layernorm.parse_numbers("1,000 2 3 4"),
                                                     Refuses("número 1", "dos formas", "1000", "escribilo 1,0")),
    "parse_numbers: '2,125' asks too": (lambda: layernorm.parse_numbers(["2,125", "2", "3", "4"]),
                                        Refuses("número 1", "dos formas", "2125", "escribilo 2,1250")),
    "parse_numbers: '2,1250' is a decimal": (lambda: layernorm.parse_numbers(["2,1250", "2", "3", "4"]),
                                             Accepts(lambda v: v == [2.125, 2, 3, 4])),
    "parse_numbers: '1.000.000'": (lambda: layernorm.parse_numbers(["1.000.000", "2", "3", "4"]),
                                   Refuses("número 1", "separador de miles", "1000000")),
    "parse_numbers: n=0": (lambda: layernorm.parse_numbers([], n=0), Refuses("n debe", "entero positivo", "recibí 0")),
    "parse_numbers: n=True": (lambda: layernorm.parse_numbers(["1"], n=True),
                              Refuses("n debe", "entero positivo", "True")),
    "parse_numbers: n='4'": (lambda: layernorm.parse_numbers("1 2 3 4", n="4"),
                             Refuses("n debe", "entero positivo", "'4'")),
    "parse_numbers: n=2.0": (lambda: layernorm.parse_numbers("1 2", n=2.0),
                             Refuses("n debe", "entero positivo", "2.0")),
    "parse_numbers: numpy n": (lambda: layernorm.parse_numbers("1,2", n=np.int64(2)), Accepts(lambda v: v == [1, 2])),
    "parse_numbers: 1.125 as a number": (lambda: layernorm.parse_numbers([1.125, 2, 3, 4]),
                                         Accepts(lambda v: v == [1.125, 2, 3, 4])),
    "parse_numbers: 1e-200 (its square underflows)": (lambda: layernorm.parse_numbers(["1e-200", "2e-200", "0", "0"]),
                                                       Refuses("número 1", "demasiado chico", "1e-200", "1e-15")),
    "layer_norm_steps: tiny numbers are not 'iguales'": (lambda: layernorm.layer_norm_steps([1e-200, 2e-200, 3e-200]),
                                                          Refuses("x: el número 1", "demasiado chico")),
    "layer_norm_steps([])": (lambda: layernorm.layer_norm_steps([]), Refuses("x está", "vacío")),
    "layer_norm_steps: γ too short": (lambda: layernorm.layer_norm_steps([1, 2, 3], gamma=[1, 1]),
                                      Refuses("gamma", "3 números", "tiene 2")),
    "layer_norm_steps: NaN in γ": (lambda: layernorm.layer_norm_steps([1, 2, 3], gamma=[1, NAN, 1]),
                                   Refuses("gamma", "número 2", "finito", "nan")),
    "layer_norm_steps: inf in β": (lambda: layernorm.layer_norm_steps([1, 2, 3], beta=[0, 0, INF]),
                                   Refuses("beta", "número 3", "finito", "inf")),
    "layer_norm_steps: eps 0": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=0), Refuses("eps", "recibí 0")),
    "layer_norm_steps: eps inf": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=INF), Refuses("eps", "inf")),
    "layer_norm_steps: eps True": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=True), Refuses("eps", "True")),
    "layer_norm_steps('1,2,3')": (lambda: layernorm.layer_norm_steps("1,2,3"),
                                  Refuses("x debe", "lista de números", "'1,2,3'")),
    "layer_norm_steps('123') (digits of a string)": (lambda: layernorm.layer_norm_steps("123"),
                                                     Refuses("x debe", "lista de números", "'123'")),
    "layer_norm_steps: numpy eps": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=np.float32(1e-5)),
                                    Accepts(lambda s: abs(s.eps - 1e-5) < 1e-9)),
    "walkthrough: constant token says σ = 0": (
        lambda: layernorm.residual_layernorm_walkthrough([1, 1, 1, 1], [0, 0, 0, 0], None, None),
        Accepts(lambda steps: "desvío es 1" not in steps[5].text and "desvío queda en 0" in steps[5].text)),
    "walkthrough: F(x) of 2 numbers": (
        lambda: layernorm.residual_layernorm_walkthrough([1, 2, 3, 4], [1, 2], None, None),
        Refuses("sublayer", "4 números", "tiene 2")),
    "walkthrough: NaN in F(x)": (
        lambda: layernorm.residual_layernorm_walkthrough([1, 2, 3, 4], [0, NAN, 0, 0], None, None),
        Refuses("sublayer", "número 2", "finito")),
    "walkthrough: empty x": (lambda: layernorm.residual_layernorm_walkthrough([], [], None, None),
                             Refuses("x está", "vacío")),
    "walkthrough: eps -1": (lambda: layernorm.residual_layernorm_walkthrough([1, 2], [0, 0], None, None, eps=-1),
                            Refuses("eps", "-1")),
    "walkthrough: x None": (lambda: layernorm.residual_layernorm_walkthrough(None, [0], None, None),
                            Refuses("x debe", "None")),
    # widgets
    "FourNumbers: three initial values": (lambda: wdg.FourNumbers(initial=(1, 2, 3)),
                                          Refuses("initial", "4 números", "3 valores")),
    "FourNumbers: initial '1234'": (lambda: wdg.FourNumbers(initial="1234"), Refuses("initial", "4 números", "'1234'")),
    "FourNumbers: five initial values": (lambda: wdg.FourNumbers(initial=(1, 2, 3, 4, 5)),
                                         Refuses("initial", "4 números", "5 valores")),
    "FourNumbers: initial None": (lambda: wdg.FourNumbers(initial=None), Refuses("initial", "4 números", "None")),
    "FourNumbers: a word among the initial values": (lambda: wdg.FourNumbers(initial=(1, 2, "x", 4)),
                                                     Refuses("initial", "«x»", "número 3")),
    "FourNumbers: decimal commas": (lambda: wdg.FourNumbers(initial=("0,8", "0,95", "0,93", "1,33")),
                                    Accepts(lambda w: w.error == "" and w.steps.x == [0.8, 0.95, 0.93, 1.33])),
    "FourNumbers: an invisible character typed in a box": (
        lambda: (lambda w: (setattr(w.fields[1], "value", "2\u200b"), w)[1])(wdg.FourNumbers()),
        Accepts(lambda w: w.steps is None and "⟨U+200B⟩" in w.info.value)),
    "GammaBeta: empty x": (lambda: wdg.GammaBeta(x=[]), Refuses("x está", "vacío")),
    "GammaBeta: x 'abc'": (lambda: wdg.GammaBeta(x="abc"), Refuses("x debe", "lista de números", "'abc'")),
    "GammaBeta: NaN in x": (lambda: wdg.GammaBeta(x=(1, NAN, 2, 3)), Refuses("x:", "número 2", "finito")),
    "GammaBeta: x None": (lambda: wdg.GammaBeta(x=None), Refuses("x debe", "None")),
    "GammaBeta: constant x": (lambda: wdg.GammaBeta(x=(1, 1, 1, 1)),
                              Accepts(lambda w: w.steps.constant and w.steps.normalized == [0.0] * 4)),
    "StepByStep: F(x) of 2 numbers": (lambda: wdg.StepByStep(sublayer=(1, 2)),
                                      Refuses("sublayer", "4 números", "tiene 2")),
    "StepByStep: x None": (lambda: wdg.StepByStep(x=None), Refuses("x debe", "None")),
    "StepByStep: γ of 3": (lambda: wdg.StepByStep(gamma=(1, 1, 1)), Refuses("gamma", "4 números", "tiene 3")),
    "StepByStep: β 'abc'": (lambda: wdg.StepByStep(beta="abc"), Refuses("beta", "lista de números", "'abc'")),
    "StepByStep: inf in x": (lambda: wdg.StepByStep(x=(1, INF, 2, 3)), Refuses("x:", "número 2", "finito")),
    "StepByStep: NaN in γ": (lambda: wdg.StepByStep(gamma=(1, NAN, 1, 1)), Refuses("gamma", "número 2", "finito")),
    "SweepExplorer: 7 layers": (lambda: wdg.SweepExplorer(7), Refuses("n_layers", "6, 12, 24", "recibí 7")),
    "SweepExplorer: seed 'all'": (lambda: wdg.SweepExplorer(12, seed="all"), Refuses("seed", "'todas'", "'all'")),
    "SweepExplorer: norm 'Pre'": (lambda: wdg.SweepExplorer(12, "Pre"), Refuses("norm", "'pre'", "'Pre'")),
    "SweepExplorer: numpy seed": (lambda: wdg.SweepExplorer(12, "pre", 0, np.int64(2)),
                                  Accepts(lambda w: [c.seed for c in w.exploration.curves] == [2])),
    "SweepExplorer: warmup '0'": (lambda: wdg.SweepExplorer(12, "pre", "0"), Refuses("warmup", "0, 50", "'0'")),
    # plots
    "color('Post-norm')": (lambda: plots.color("Post-norm"), Refuses("name", "post-norm", "'Post-norm'",
                                                                     exc=(KeyError,))),
    "color(None)": (lambda: plots.color(None), Refuses("name", "post-norm", "None", exc=(KeyError,))),
    "color(1)": (lambda: plots.color(1), Refuses("name", "post-norm", "recibí 1", exc=(KeyError,))),
    "color('')": (lambda: plots.color(""), Refuses("name", "post-norm", "''", exc=(KeyError,))),
    "color(['pre-norm'])": (lambda: plots.color(["pre-norm"]), Refuses("name", "['pre-norm']", exc=(KeyError,))),
    "label_bars: bad format": (lambda: plots.label_bars(*bars(), "{:.0f%}"), Refuses("fmt", "'{:.2f}'", "{:.0f%}")),
    "label_bars: fmt 3": (lambda: plots.label_bars(*bars(), 3), Refuses("fmt", "'{:.2f}'", "recibí 3")),
    "label_bars: fmt with two slots": (lambda: plots.label_bars(*bars(), "{} de {}"),
                                       Refuses("fmt", "un lugar", "'{} de {}'")),
    "label_bars: fmt without a slot": (lambda: plots.label_bars(*bars(), "valor"), Refuses("fmt", "un lugar",
                                                                                         "'valor'")),
    "label_bars: printf-style '%.2f', as ax.bar_label takes": (lambda: bar_texts(bars(), "%.2f"),
                                                               Accepts(lambda t: t == ["0.50", "0.25"])),
    "label_bars: '{:.0%}'": (lambda: bar_texts(bars(), "{:.0%}"), Accepts(lambda t: t == ["50%", "25%"])),
    "label_bars: numbers instead of bars": (lambda: plots.label_bars(bars()[0], [1, 2]), Refuses("bars", "ax.bar")),
    "label_bars: ax 'ax'": (lambda: plots.label_bars("ax", bars()[1]), Refuses("ax", "eje", "str")),
    "label_bars: plt instead of ax": (lambda: plots.label_bars(plt, bars()[1]), Refuses("ax", "module", "pyplot")),
    "show: no alt": (lambda: plots.show(bars()[0].figure, ""), Refuses("alt", "describir", "''")),
    "show: alt 'figura 1'": (lambda: plots.show(bars()[0].figure, "figura 1"), Refuses("alt", "'figura 1'")),
    "show: alt None": (lambda: plots.show(bars()[0].figure, None), Refuses("alt", "None")),
    "show: the axes instead of the figure": (lambda: plots.show(bars()[0], ALT), Refuses("fig", "Axes", "ax.figure")),
    "show: a list": (lambda: plots.show([1, 2], ALT), Refuses("fig", "figura", "list")),
    "show: plt instead of the figure": (lambda: plots.show(plt, ALT), Refuses("fig", "module", "pyplot")),
    "block_diagram: 'Pre'": (lambda: plots.block_diagram(bars()[0], "Pre"), Refuses("norm", "'pre'", "'Pre'")),
    "block_diagram: ax 'ax'": (lambda: plots.block_diagram("ax", "pre"), Refuses("ax", "eje", "str")),
    "block_diagram: norm None": (lambda: plots.block_diagram(bars()[0], None), Refuses("norm", "'pre'", "None")),
    "block_diagram: norm 1": (lambda: plots.block_diagram(bars()[0], 1), Refuses("norm", "'pre'", "recibí 1")),
    "block_diagram: ax from plt.subplots(1, 2)": (lambda: plots.block_diagram(plt.subplots(1, 2)[1], "pre"),
                                                  Refuses("ax", "ndarray", "ax[0]")),
    "block_diagram: plt instead of ax": (lambda: plots.block_diagram(plt, "pre"),
                                         Refuses("ax", "module", "plt.subplots()")),
    "draw_exploration: a list": (lambda: plots.draw_exploration(bars()[0], [1, 2]),
                                 Refuses("exploration", "helpers.sweep.explore", "list")),
    # progress
    "steps('200')": (lambda: progress.steps("200"), Refuses("items", "'200'", "sin comillas")),
    "steps(0)": (lambda: progress.steps(0), Refuses("items", "entero positivo", "recibí 0")),
    "steps(True)": (lambda: progress.steps(True), Refuses("items", "cantidad de pasos", "True")),
    "steps(a generator)": (lambda: progress.steps(x for x in range(3)), Refuses("items", "generator", "list(...)")),
    "steps([])": (lambda: progress.steps([]), Refuses("items", "vacío")),
    "steps: label 5": (lambda: progress.steps(3, 5), Refuses("label", "texto", "recibí 5")),
    "steps(numpy int)": (lambda: list(progress.steps(np.int64(3), stream=sys.stderr)),
                         Accepts(lambda s: s == [1, 2, 3])),
    "Progress(5).update(10)": (lambda: progress.Progress(5, stream=sys.stderr).update(10),
                               Refuses("done", "total=5", "recibí 10")),
    "Progress.update(-1)": (lambda: progress.Progress(5, stream=sys.stderr).update(-1),
                            Refuses("done", "total=5", "-1")),
    "Progress.update(2.5)": (lambda: progress.Progress(5, stream=sys.stderr).update(2.5),
                             Refuses("done", "entero", "2.5")),
    "Progress(0)": (lambda: progress.Progress(0), Refuses("total", "entero positivo", "recibí 0")),
    "steps: stream 'out'": (lambda: list(progress.steps(3, stream="out")),
                            Refuses("stream", "sys.stdout", "'out'")),
    "Progress: stream print": (lambda: progress.Progress(3, stream=print), Refuses("stream", "sys.stdout", "print")),
    "steps: stream a StringIO": (
        lambda: (lambda out: (list(progress.steps(2, every=0.0, stream=out)), out))(io.StringIO()),
        Accepts(lambda r: r[0] == [1, 2] and "paso 2 de 2" in r[1].getvalue() and r[1].getvalue().endswith("\r"))),
    # check_env
    "check_env.main() in a terminal": (lambda: check_env.main(), Accepts(lambda rc: rc == 0)),
    "VersionMismatch(None, None)": (lambda: check_env.VersionMismatch(None, None),
                                    Refuses("wanted", "texto", "\"1.0.0\"", "None")),
    "VersionMismatch: wanted ''": (lambda: check_env.VersionMismatch("", None), Refuses("wanted", "texto", "''")),
    "VersionMismatch: installed 1.0 (a number)": (lambda: check_env.VersionMismatch("1.0.0", 1.0),
                                                  Refuses("installed", "texto", "None", "1.0")),
    "VersionMismatch: nothing installed": (lambda: check_env.VersionMismatch("1.0.0", None),
                                           Accepts(lambda e: "helpers 1.0.0," in str(e) and "no encuentro" in str(e))),
}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input(name):
    fn, expect = CASES[name]
    kind, detail = outcome(fn, expect)
    wanted = "clear" if isinstance(expect, Refuses) else "accepted"
    assert kind == wanted, f"{name}: {kind}: {detail}" + (
        f" (argument {expect.arg!r}, words {expect.words})" if wanted == "clear" else "")


def test_the_table_expects_words_not_letters():
    """A one-letter expectation ("x", "n", "y") is in every Spanish sentence: it proves nothing."""
    short = {name: w for name, (_, expect) in CASES.items() if isinstance(expect, Refuses)
             for w in (expect.arg, *expect.words) if len(w.strip()) < 2}
    assert not short, short


def test_words_match_as_words():
    assert has_word("norm debe ser uno de 'post', 'pre'", "'pre'")
    assert not has_word("norm debe ser 'prenorm'", "pre")
    assert not has_word("recibí 0.5", "recibí 0") and has_word("recibí 0.", "recibí 0")
    assert has_word("x debe tener forma (batch, tokens, 8); recibí (2, 4, 6)", "(2, 4, 6)")
    assert not has_word("dropout", "drop") and has_word("Eps (ε) debe", "eps")


def test_every_acceptance_checks_what_came_back():
    """A check that passes whatever came back would accept a helper that ignored its argument."""
    lazy = [name for name, (_, expect) in CASES.items() if isinstance(expect, Accepts)
            and outcome(lambda: object(), expect)[0] == "accepted"]
    assert not lazy, lazy


def test_the_table_covers_every_public_function():
    """Every public function or class a notebook or the README uses has rows, a learner's usual ones at least five."""
    per = Counter(re.split(r"[:(]", name)[0].strip() for name in CASES)
    families = {"Block", "Block.forward", "causal_mask", "copy", "GPT", "gpt_params", "attention_params",
                "ffn_params", "layernorm_params", "count_params", "grad_norms", "spiral", "count_task", "Run",
                "lr_at", "train_many", "train_reference", "stack", "token_accuracy", "escape_step", "run_slice",
                "load", "explore", "parse_numbers", "layer_norm_steps", "walkthrough", "FourNumbers", "GammaBeta",
                "StepByStep", "SweepExplorer", "color", "label_bars", "show", "block_diagram", "draw_exploration",
                "steps", "Progress", "Progress.update", "check_env.main"}
    assert families <= set(per), families - set(per)
    usual = families - {"check_env.main", "draw_exploration", "Progress", "Progress.update", "lr_at", "load"}
    few = {f: per[f] for f in usual if per[f] < 5}
    assert not few, f"fewer than five rows: {few}"


if __name__ == "__main__":
    counts, lines = Counter(), []
    for name, (fn, expect) in CASES.items():
        kind, detail = outcome(fn, expect)
        counts[kind] += 1
        wanted = "clear" if isinstance(expect, Refuses) else "accepted"
        if kind != wanted:
            lines.append(f"  {kind:<9} {name}: {detail[:160]}")
        plt.close("all")
    print("\n".join(lines))
    total = sum(counts.values())
    print(f"{total} calls: " + ", ".join(f"{k} {counts[k]}" for k in ("clear", "unhelpful", "silent", "accepted")))
    sys.exit(0)
