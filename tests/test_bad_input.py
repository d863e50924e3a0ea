"""Every public helper against plausible wrong input, as a learner would type it.

Each row says what must happen: ``Refuses(words)`` (an exception whose message contains every word, so
it names the argument, what came in and what was expected) or ``Accepts(check)`` (the input is
legitimate, or common and unambiguous, and the result has its obvious meaning). Run as a script to
count the four outcomes over the table: clear message, unhelpful error, silent wrong result, accepted.

    python tests/test_bad_input.py
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

import matplotlib
import numpy as np
import pytest
import torch
from torch import nn

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from helpers import blocks, check_env, engine, layernorm, params, plots, probes, sweep_train, toydata  # noqa: E402
from helpers import widgets as wdg  # noqa: E402


@dataclass
class Refuses:
    words: tuple
    exc: tuple = (TypeError, ValueError, KeyError, IndexError)

    def __init__(self, *words, exc=(TypeError, ValueError, KeyError, IndexError)):
        self.words, self.exc = words, exc


@dataclass
class Accepts:
    check: object = field(default=lambda result: True)


def outcome(fn, expect) -> tuple[str, str]:
    """('clear' | 'unhelpful' | 'silent' | 'accepted', detail)."""
    try:
        result = fn()
    except Exception as e:  # classifying every failure is the point
        text = f"{type(e).__name__}: {e}"
        if isinstance(expect, Refuses) and isinstance(e, expect.exc) and all(
                w.lower() in str(e).lower() for w in expect.words):
            return "clear", text
        return "unhelpful", text
    if isinstance(expect, Refuses):
        return "silent", f"no error; returned {result!r:.200}"
    try:
        ok = expect.check(result)
    except Exception as e:
        ok, result = False, e
    return ("accepted", "") if ok else ("silent", f"accepted with a wrong result: {result!r:.200}")


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


def bars():
    fig, ax = plt.subplots()
    return ax, ax.bar([0, 1], [0.5, 0.25])


EV = toydata.count_task(20, torch.Generator().manual_seed(0))
NAN, INF = float("nan"), float("inf")


def same_as_bool_mask(out):
    return torch.allclose(out, blk()(x4(), blocks.causal_mask(4)), atol=1e-6)


# ---- the table --------------------------------------------------------------------------------------

CASES = {
    # blocks.Block(...)
    "Block: heads do not divide d_model": (lambda: blocks.Block(8, 3), Refuses("d_model=8", "n_heads=3")),
    "Block: norm 'Pre' (capital)": (lambda: blk(norm="Pre"), Refuses("norm", "'pre'", "'Pre'")),
    "Block: dropout 1.5": (lambda: blk(dropout=1.5), Refuses("dropout", "1.5")),
    "Block: bias='no'": (lambda: blk(bias="no"), Refuses("bias", "True o False", "'no'")),
    "Block: activation 'silu'": (lambda: blk(activation="silu"), Refuses("activation", "'silu'")),
    "Block: d_ff=0": (lambda: blk(d_ff=0), Refuses("d_ff", "entero positivo", "0")),
    "Block: d_model 8.0": (lambda: blocks.Block(8.0, 2), Refuses("d_model", "entero", "8.0")),
    "Block: dropout as numpy float": (lambda: blk(dropout=np.float32(0.25)),
                                      Accepts(lambda b: abs(b.drop.p - 0.25) < 1e-9)),
    "Block: dropout NaN": (lambda: blk(dropout=NAN), Refuses("dropout", "nan")),
    # Block.forward(x, mask)
    "Block.forward: float tril(ones) mask": (lambda: blk()(x4(), torch.tril(torch.ones(4, 4))),
                                             Refuses("mask", "0 y 1", "causal_mask")),
    "Block.forward: ~causal_mask (reversed)": (lambda: blk()(x4(), ~blocks.causal_mask(4)),
                                               Refuses("mask", "al revés", "causal_mask")),
    "Block.forward: mask for another length": (lambda: blk()(x4(), blocks.causal_mask(3)),
                                               Refuses("mask", "(4, 4)", "(3, 3)")),
    "Block.forward: int mask": (lambda: blk()(x4(), torch.ones(4, 4, dtype=torch.long).triu(1)),
                                Refuses("mask", "bool", "int64")),
    "Block.forward: mask as a list": (lambda: blk()(x4(), [[0, 1], [0, 0]]), Refuses("mask", "tensor", "list")),
    "Block.forward: float mask with +inf": (lambda: blk()(x4(), torch.full((4, 4), INF).triu(1)),
                                            Refuses("mask", "-inf")),
    "Block.forward: float64 x (torch.from_numpy)": (lambda: blk()(x4(torch.float64)),
                                                    Refuses("x", "float64", ".float()")),
    "Block.forward: int64 x (token ids)": (lambda: blk()(torch.randint(0, 9, (2, 4, 8))),
                                           Refuses("x", "int64", "Embedding")),
    "Block.forward: numpy x": (lambda: blk()(x4().numpy()), Refuses("x", "torch.Tensor", "ndarray")),
    "Block.forward: last axis 6, not 8": (lambda: blk()(torch.randn(2, 4, 6)),
                                          Refuses("(batch, tokens, 8)", "(2, 4, 6)")),
    "Block.forward: one sentence without batch axis": (lambda: blk()(torch.randn(4, 8)),
                                                       Refuses("(batch, tokens, 8)", "x[None]")),
    "Block.forward: float causal mask of 0 and -inf": (
        lambda: blk()(x4(), torch.zeros(4, 4).masked_fill(blocks.causal_mask(4), -INF)),
        Accepts(same_as_bool_mask)),
    "Block.forward: bool causal mask": (lambda: blk()(x4(), blocks.causal_mask(4)), Accepts()),
    # blocks.causal_mask
    "causal_mask(0)": (lambda: blocks.causal_mask(0), Refuses("n_tokens", "entero positivo", "0")),
    "causal_mask(3.0)": (lambda: blocks.causal_mask(3.0), Refuses("n_tokens", "3.0")),
    "causal_mask('4')": (lambda: blocks.causal_mask("4"), Refuses("n_tokens", "'4'")),
    "causal_mask(-1)": (lambda: blocks.causal_mask(-1), Refuses("n_tokens", "-1")),
    "causal_mask(True)": (lambda: blocks.causal_mask(True), Refuses("n_tokens", "True")),
    "causal_mask(numpy int)": (lambda: blocks.causal_mask(np.int64(4)), Accepts(lambda m: m.shape == (4, 4))),
    # blocks.copy_encoder_layer
    "copy: batch_first=False": (lambda: blocks.copy_encoder_layer(blk(), ref_layer(batch_first=False)),
                                Refuses("batch_first=True")),
    "copy: GELU reference into a ReLU block": (
        lambda: blocks.copy_encoder_layer(blk(), ref_layer(activation="gelu")),
        Refuses("activation", "'gelu'", "'relu'")),
    "copy: from an nn.Linear": (lambda: blocks.copy_encoder_layer(blk(), nn.Linear(8, 8)),
                                Refuses("nn.TransformerEncoderLayer", "Linear")),
    "copy: into an nn.Linear": (lambda: blocks.copy_encoder_layer(nn.Linear(8, 8), ref_layer()),
                                Refuses("ours", "Block", "Linear")),
    "copy: arguments swapped": (lambda: blocks.copy_encoder_layer(ref_layer(), blk()),
                                Refuses("nn.TransformerEncoderLayer", "orden")),
    "copy: other d_ff": (lambda: blocks.copy_encoder_layer(blk(d_ff=32), ref_layer()), Refuses("forma", "d_ff")),
    "copy: pre-norm reference into a post-norm block": (
        lambda: blocks.copy_encoder_layer(blk(), ref_layer(norm_first=True)), Refuses("norm_first=True", "'post'")),
    "copy: other LayerNorm eps": (lambda: blocks.copy_encoder_layer(blk(), ref_layer(layer_norm_eps=1e-3)),
                                  Refuses("eps", "0.001", "1e-05")),
    # blocks.GPT
    "GPT: more tokens than ctx": (lambda: gpt()(torch.zeros(1, 12, dtype=torch.long)),
                                  Refuses("idx", "12 tokens", "ctx=8")),
    "GPT: ids beyond the vocabulary": (lambda: gpt()(torch.tensor([[1, 2, 150]])),
                                       Refuses("idx", "150", "vocab", "99")),
    "GPT: negative ids": (lambda: gpt()(torch.tensor([[1, -2, 3]])), Refuses("idx", "-2")),
    "GPT: float ids": (lambda: gpt()(torch.tensor([[1.0, 2.0]])), Refuses("idx", "enteros", "float32")),
    "GPT: one sequence without batch axis": (lambda: gpt()(torch.tensor([1, 2, 3])),
                                             Refuses("idx", "(batch, tokens)", "idx[None]")),
    "GPT: d_ff=0": (lambda: gpt(d_ff=0), Refuses("d_ff", "0")),
    "GPT: bias='no'": (lambda: gpt(bias="no"), Refuses("bias", "'no'")),
    "GPT: vocab 0": (lambda: blocks.GPT(0, 8, 1), Refuses("vocab", "0")),
    "GPT: positional n_heads, like gpt_params": (
        lambda: params.count_params(blocks.GPT(50, 8, 2, 16, 2)),
        Accepts(lambda n: n == params.gpt_params(50, 8, 2, 16, 2))),
    # params
    "gpt_params: GPT's positional order (n_heads 5th)": (lambda: params.gpt_params(50257, 768, 12, 1024, 12),
                                                        Accepts(lambda n: n == 124_439_808)),
    "gpt_params: vocab 0": (lambda: params.gpt_params(0, 8, 1), Refuses("vocab", "0")),
    "gpt_params: ctx -1": (lambda: params.gpt_params(100, 8, 2, -1), Refuses("ctx", "-1")),
    "gpt_params: heads do not divide": (lambda: params.gpt_params(100, 8, 2, 0, 3), Refuses("d_model=8", "n_heads=3")),
    "gpt_params: d_ff=0": (lambda: params.gpt_params(100, 8, 2, d_ff=0), Refuses("d_ff", "0")),
    "attention_params(768.0)": (lambda: params.attention_params(768.0), Refuses("d_model", "768.0")),
    "attention_params(numpy int)": (lambda: params.attention_params(np.int64(8)), Accepts(lambda n: n == 288)),
    "attention_params: bias='no'": (lambda: params.attention_params(8, bias="no"), Refuses("bias", "'no'")),
    "ffn_params: d_ff=0": (lambda: params.ffn_params(8, d_ff=0), Refuses("d_ff", "0")),
    "ffn_params(0)": (lambda: params.ffn_params(0), Refuses("d_model", "0")),
    "ffn_params: d_ff 16.5": (lambda: params.ffn_params(8, d_ff=16.5), Refuses("d_ff", "16.5")),
    "ffn_params: bias='no'": (lambda: params.ffn_params(8, bias="no"), Refuses("bias", "'no'")),
    "ffn_params('8')": (lambda: params.ffn_params("8"), Refuses("d_model", "'8'")),
    "attention_params(0)": (lambda: params.attention_params(0), Refuses("d_model", "0")),
    "attention_params(None)": (lambda: params.attention_params(None), Refuses("d_model", "None")),
    "layernorm_params(0)": (lambda: params.layernorm_params(0), Refuses("d_model", "0")),
    "layernorm_params(8.5)": (lambda: params.layernorm_params(8.5), Refuses("d_model", "8.5")),
    "layernorm_params: bias None": (lambda: params.layernorm_params(8, bias=None), Refuses("bias", "None")),
    "layernorm_params: bias='no'": (lambda: params.layernorm_params(8, bias="no"), Refuses("bias", "'no'")),
    "layernorm_params(-8)": (lambda: params.layernorm_params(-8), Refuses("d_model", "-8")),
    "count_params(a tensor)": (lambda: params.count_params(torch.zeros(3)), Refuses("nn.Module", "Tensor")),
    "count_params(m.parameters())": (lambda: params.count_params(nn.Linear(2, 2).parameters()),
                                     Refuses("nn.Module", "generator")),
    "count_params(None)": (lambda: params.count_params(None), Refuses("nn.Module", "NoneType")),
    "count_params(the class, not an instance)": (lambda: params.count_params(nn.Linear),
                                                 Refuses("nn.Module", "clase", "Linear")),
    "count_params: shared weights counted once": (
        lambda: params.count_params(blocks.GPT(50, 8, 1)),
        Accepts(lambda n: n == params.gpt_params(50, 8, 1))),
    # probes.grad_norms
    "grad_norms(one weight)": (lambda: probes.grad_norms(linear_after_backward().weight),
                               Accepts(lambda g: len(g) == 1 and g[0] > 0)),
    "grad_norms(a module)": (lambda: probes.grad_norms(linear_after_backward()),
                             Refuses("nn.Module", ".parameters()")),
    "grad_norms before backward": (lambda: probes.grad_norms([nn.Linear(2, 2).weight]), Refuses("backward")),
    "grad_norms([])": (lambda: probes.grad_norms([]), Refuses("ningún")),
    "grad_norms([1.0])": (lambda: probes.grad_norms([1.0]), Refuses("tensores", "float")),
    "grad_norms(5)": (lambda: probes.grad_norms(5), Refuses("grad_norms", "tensores", "int")),
    # toydata
    "spiral(0)": (lambda: toydata.spiral(0), Refuses("n", "entero positivo", "0")),
    "spiral(10.0)": (lambda: toydata.spiral(10.0), Refuses("n", "10.0")),
    "spiral: noise -0.1": (lambda: toydata.spiral(10, noise=-0.1), Refuses("noise", "-0.1")),
    "spiral: noise NaN": (lambda: toydata.spiral(10, noise=NAN), Refuses("noise", "nan")),
    "spiral: seed -1": (lambda: toydata.spiral(10, seed=-1), Refuses("seed", "-1")),
    "spiral: numpy noise": (lambda: toydata.spiral(10, noise=np.float64(0.05)),
                            Accepts(lambda d: d[0].shape == (10, 2))),
    "count_task(0)": (lambda: toydata.count_task(0), Refuses("n", "0")),
    "count_task: generator 4": (lambda: toydata.count_task(5, generator=4), Refuses("torch.Generator", "int")),
    "count_task: length 0": (lambda: toydata.count_task(5, length=0), Refuses("length", "0")),
    "count_task('5')": (lambda: toydata.count_task("5"), Refuses("n", "'5'")),
    "count_task: length 1": (lambda: toydata.count_task(3, length=1), Accepts(lambda d: d[1].eq(0).all().item())),
    # engine
    "Run: norm 'sandwich'": (lambda: engine.Run("sandwich"), Refuses("norm", "'post', 'pre'")),
    "Run: lr=1 (an int)": (lambda: engine.Run(lr=1), Accepts(lambda r: r.lr_at(1) == 1.0)),
    "Run: lr=inf": (lambda: engine.Run(lr=INF), Refuses("lr", "inf")),
    "Run: lr numpy float": (lambda: engine.Run(lr=np.float64(1e-3)), Accepts(lambda r: r.lr_at(1) == 1e-3)),
    "Run: warmup 10.5": (lambda: engine.Run(warmup=10.5), Refuses("warmup", "10.5")),
    "Run: 0 layers": (lambda: engine.Run(n_layers=0), Refuses("n_layers", "0")),
    "Run: heads do not divide": (lambda: engine.Run(d_model=30, n_heads=4), Refuses("d_model=30", "n_heads=4")),
    "train_many: one Run, not a list": (lambda: engine.train_many(engine.Run(n_layers=1), 2, EV),
                                        Refuses("lista", "Run", "[")),
    "train_many: no runs": (lambda: engine.train_many([], 2, EV), Refuses("ninguna corrida")),
    "train_many: 0 steps": (lambda: engine.train_many([engine.Run(n_layers=1)], 0, EV), Refuses("steps", "0")),
    "train_many: eval_set without y": (lambda: engine.train_many([engine.Run(n_layers=1)], 2, EV[0]),
                                       Refuses("eval_set", "(x, y)")),
    "train_many: eval_every 0": (lambda: engine.train_many([engine.Run(n_layers=1)], 2, EV, eval_every=0),
                                 Refuses("eval_every", "0")),
    "train_many: a string run": (lambda: engine.train_many(["post"], 2, EV), Refuses("Run", "str")),
    "train_reference: a string run": (lambda: engine.train_reference("post", 2, EV), Refuses("Run", "str")),
    "train_reference: eval_set of one tensor": (lambda: engine.train_reference(engine.Run(n_layers=1), 2, EV[1]),
                                                Refuses("eval_set", "(x, y)")),
    "stack('pre')": (lambda: engine.stack("pre"), Refuses("Run", "'pre'")),
    "stack(None)": (lambda: engine.stack(None), Refuses("Run", "None")),
    "stack(the Run class)": (lambda: engine.stack(engine.Run), Refuses("Run", "type")),
    "stack(a dict)": (lambda: engine.stack({"norm": "pre"}), Refuses("Run", "dict")),
    "stack(12)": (lambda: engine.stack(12), Refuses("Run", "12")),
    "token_accuracy: numpy logits": (lambda: engine.token_accuracy(np.zeros((1, 4, 10, 10)), torch.zeros(1, 4, 10)),
                                      Refuses("logits", "torch.Tensor", "ndarray")),
    "token_accuracy: y as a list": (lambda: engine.token_accuracy(torch.zeros(4, 10, 10), [[0] * 10] * 4),
                                     Refuses("y", "torch.Tensor", "list")),
    "token_accuracy: logits without the class axis": (
        lambda: engine.token_accuracy(torch.zeros(4, 10), torch.zeros(4, 10, dtype=torch.long)),
        Refuses("logits", "(4, 10)")),
    "token_accuracy: y with a run axis too many": (
        lambda: engine.token_accuracy(torch.zeros(4, 10, 10), torch.zeros(1, 4, 10, dtype=torch.long)),
        Refuses("logits", "(1, 4, 10)")),
    "escape_step: threshold 0": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(0),
                                 Refuses("threshold", "0")),
    "escape_step: threshold -0.5": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(-0.5),
                                    Refuses("threshold", "-0.5")),
    "escape_step: threshold None": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(None),
                                    Refuses("threshold", "None")),
    "escape_step: threshold 1 (an int)": (lambda: engine.History(engine.Run(), [25], [1.0]).escape_step(1),
                                          Accepts(lambda s: s == 25)),
    "train_reference: steps 0": (lambda: engine.train_reference(engine.Run(n_layers=1), 0, EV), Refuses("steps", "0")),
    "train_reference: eval_every 0": (lambda: engine.train_reference(engine.Run(n_layers=1), 2, EV, eval_every=0),
                                      Refuses("eval_every", "0")),
    "train_reference: a list of runs": (lambda: engine.train_reference([engine.Run(n_layers=1)], 2, EV),
                                        Refuses("Run", "list")),
    "token_accuracy: shapes differ": (lambda: engine.token_accuracy(torch.zeros(1, 5, 10, 10), torch.zeros(1, 4, 10)),
                                       Refuses("logits", "y", "(1, 4, 10)")),
    "escape_step: threshold 60 (percent)": (
        lambda: engine.History(engine.Run(), [25], [0.7]).escape_step(60), Refuses("threshold", "0 y 1", "60")),
    "escape_step: threshold '0.6'": (lambda: engine.History(engine.Run(), [25], [0.7]).escape_step("0.6"),
                                     Refuses("threshold", "'0.6'")),
    # sweep
    "run_slice: unknown slice": (lambda: sweep_train.run_slice("depth7"), Refuses("name", "'depth7'", "depth6")),
    "run_slice: steps 0": (lambda: sweep_train.run_slice("depth6", steps=0), Refuses("steps", "0")),
    "run_slice: steps -5": (lambda: sweep_train.run_slice("depth6", steps=-5), Refuses("steps", "-5")),
    "run_slice: steps 2.5": (lambda: sweep_train.run_slice("depth6", steps=2.5), Refuses("steps", "2.5")),
    "run_slice(6)": (lambda: sweep_train.run_slice(6), Refuses("name", "6")),
    # layernorm
    "parse_numbers('1234')": (lambda: layernorm.parse_numbers("1234"), Refuses("4 números", "1")),
    "parse_numbers('1,2,3,4')": (lambda: layernorm.parse_numbers("1,2,3,4"), Accepts(lambda v: v == [1, 2, 3, 4])),
    "parse_numbers('1 2 3 4')": (lambda: layernorm.parse_numbers("1 2 3 4"), Accepts(lambda v: v == [1, 2, 3, 4])),
    "parse_numbers('0,8; 0,95; 0,93; 1,33')": (lambda: layernorm.parse_numbers("0,8; 0,95; 0,93; 1,33"),
                                              Accepts(lambda v: v == [0.8, 0.95, 0.93, 1.33])),
    "parse_numbers: a word": (lambda: layernorm.parse_numbers(["1", "2", "x", "4"]), Refuses("«x»", "número 3")),
    "parse_numbers: three numbers": (lambda: layernorm.parse_numbers(["1", "2", "3"]), Refuses("4 números", "3")),
    "parse_numbers: NaN": (lambda: layernorm.parse_numbers([1, 2, 3, NAN]), Refuses("número 4", "finito")),
    "parse_numbers(None)": (lambda: layernorm.parse_numbers(None), Refuses("números", "None")),
    "parse_numbers: 1e16": (lambda: layernorm.parse_numbers(["1e16", "1", "2", "3"]), Refuses("demasiado grande")),
    "layer_norm_steps([])": (lambda: layernorm.layer_norm_steps([]), Refuses("vacío")),
    "layer_norm_steps: γ too short": (lambda: layernorm.layer_norm_steps([1, 2, 3], gamma=[1, 1]), Refuses("γ", "3")),
    "layer_norm_steps: eps 0": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=0), Refuses("ε", "0")),
    "layer_norm_steps: eps inf": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=INF), Refuses("ε", "inf")),
    "layer_norm_steps: eps True": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=True), Refuses("ε", "True")),
    "layer_norm_steps('1,2,3')": (lambda: layernorm.layer_norm_steps("1,2,3"), Refuses("x", "lista de números")),
    "layer_norm_steps: numpy eps": (lambda: layernorm.layer_norm_steps([1, 2, 3], eps=np.float32(1e-5)),
                                    Accepts(lambda s: abs(s.eps - 1e-5) < 1e-9)),
    "walkthrough: constant token says σ = 0": (
        lambda: layernorm.residual_layernorm_walkthrough([1, 1, 1, 1], [0, 0, 0, 0], None, None),
        Accepts(lambda steps: "desvío es 1" not in steps[5].text and "0" in steps[5].text)),
    "walkthrough: F(x) of 2 numbers": (
        lambda: layernorm.residual_layernorm_walkthrough([1, 2, 3, 4], [1, 2], None, None), Refuses("F(x)", "4")),
    "walkthrough: empty x": (lambda: layernorm.residual_layernorm_walkthrough([], [], None, None), Refuses("vacío")),
    "walkthrough: eps -1": (lambda: layernorm.residual_layernorm_walkthrough([1, 2], [0, 0], None, None, eps=-1),
                            Refuses("ε", "-1")),
    "walkthrough: x None": (lambda: layernorm.residual_layernorm_walkthrough(None, [0], None, None),
                            Refuses("x", "None")),
    # widgets
    "FourNumbers: three initial values": (lambda: wdg.FourNumbers(initial=(1, 2, 3)), Refuses("initial", "4", "3")),
    "FourNumbers: initial '1234'": (lambda: wdg.FourNumbers(initial="1234"), Refuses("initial", "4 números")),
    "FourNumbers: five initial values": (lambda: wdg.FourNumbers(initial=(1, 2, 3, 4, 5)), Refuses("initial", "5")),
    "FourNumbers: initial None": (lambda: wdg.FourNumbers(initial=None), Refuses("initial", "None")),
    "FourNumbers: a word among the initial values": (lambda: wdg.FourNumbers(initial=(1, 2, "x", 4)),
                                                     Refuses("initial", "«x»")),
    "FourNumbers: decimal commas": (lambda: wdg.FourNumbers(initial=("0,8", "0,95", "0,93", "1,33")),
                                    Accepts(lambda w: w.steps is not None and w.error == "")),
    "GammaBeta: empty x": (lambda: wdg.GammaBeta(x=[]), Refuses("vacío")),
    "GammaBeta: x 'abc'": (lambda: wdg.GammaBeta(x="abc"), Refuses("x", "lista de números")),
    "GammaBeta: NaN in x": (lambda: wdg.GammaBeta(x=(1, NAN, 2, 3)), Refuses("finito")),
    "GammaBeta: x None": (lambda: wdg.GammaBeta(x=None), Refuses("x", "None")),
    "GammaBeta: constant x": (lambda: wdg.GammaBeta(x=(1, 1, 1, 1)), Accepts(lambda w: w.steps.constant)),
    "StepByStep: F(x) of 2 numbers": (lambda: wdg.StepByStep(sublayer=(1, 2)), Refuses("F(x)", "4")),
    "StepByStep: x None": (lambda: wdg.StepByStep(x=None), Refuses("x", "None")),
    "StepByStep: γ of 3": (lambda: wdg.StepByStep(gamma=(1, 1, 1)), Refuses("γ", "4")),
    "StepByStep: β 'abc'": (lambda: wdg.StepByStep(beta="abc"), Refuses("β", "lista de números")),
    "StepByStep: inf in x": (lambda: wdg.StepByStep(x=(1, INF, 2, 3)), Refuses("finito")),
    # plots
    "color('Post-norm')": (lambda: plots.color("Post-norm"), Refuses("color", "'Post-norm'", "post-norm")),
    "color(None)": (lambda: plots.color(None), Refuses("color", "None")),
    "color(1)": (lambda: plots.color(1), Refuses("color", "1")),
    "color('')": (lambda: plots.color(""), Refuses("color", "''")),
    "color(['pre-norm'])": (lambda: plots.color(["pre-norm"]), Refuses("color", "['pre-norm']")),
    "label_bars: bad format": (lambda: plots.label_bars(*bars(), "{:.0f%}"), Refuses("fmt", "{:.0f%}")),
    "label_bars: fmt 3": (lambda: plots.label_bars(*bars(), 3), Refuses("fmt", "3")),
    "label_bars: fmt with two slots": (lambda: plots.label_bars(*bars(), "{} de {}"), Refuses("fmt", "{} de {}")),
    "label_bars: numbers instead of bars": (lambda: plots.label_bars(bars()[0], [1, 2]), Refuses("bars", "ax.bar")),
    "label_bars: ax 'ax'": (lambda: plots.label_bars("ax", bars()[1]), Refuses("ax", "str")),
    "show: no alt": (lambda: plots.show(bars()[0].figure, ""), Refuses("alt", "describir")),
    "show: alt 'figura 1'": (lambda: plots.show(bars()[0].figure, "figura 1"), Refuses("alt", "figura 1")),
    "show: alt None": (lambda: plots.show(bars()[0].figure, None), Refuses("alt", "None")),
    "show: the axes instead of the figure": (lambda: plots.show(bars()[0], "Barras de tres valores: 1, 2 y 3, en "
                                                                "orden creciente."), Refuses("figura", "Axes")),
    "show: a list": (lambda: plots.show([1, 2], "Barras de tres valores: 1, 2 y 3, en orden creciente."),
                     Refuses("figura", "list")),
    "block_diagram: 'Pre'": (lambda: plots.block_diagram(bars()[0], "Pre"), Refuses("norm", "'Pre'")),
    "block_diagram: ax 'ax'": (lambda: plots.block_diagram("ax", "pre"), Refuses("ax", "str")),
    "block_diagram: norm None": (lambda: plots.block_diagram(bars()[0], None), Refuses("norm", "None")),
    "block_diagram: norm 1": (lambda: plots.block_diagram(bars()[0], 1), Refuses("norm", "1")),
    "block_diagram: ax from plt.subplots(1, 2)": (lambda: plots.block_diagram(plt.subplots(1, 2)[1], "pre"),
                                                  Refuses("ax", "ndarray", "ax[0]")),
    # check_env
    "check_env.main() in a terminal": (lambda: check_env.main(), Accepts(lambda rc: rc == 0)),
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
    assert kind == wanted, f"{name}: {kind}: {detail}" + (f" (words: {expect.words})" if wanted == "clear" else "")


def test_the_table_covers_every_public_function():
    """At least five rows per public function or class a notebook or the README uses."""
    per = Counter(name.split(":")[0].split("(")[0].strip() for name in CASES)
    families = {"Block", "Block.forward", "causal_mask", "copy", "GPT", "gpt_params", "attention_params",
                "ffn_params", "layernorm_params", "count_params", "grad_norms", "spiral", "count_task", "Run",
                "train_many", "train_reference", "stack", "token_accuracy", "escape_step",
                "run_slice", "parse_numbers", "layer_norm_steps", "walkthrough", "FourNumbers", "GammaBeta",
                "StepByStep", "color", "label_bars", "block_diagram", "show", "check_env.main"}
    assert families <= set(per), families - set(per)
    few = {f: per[f] for f in families - {"check_env.main"} if per[f] < 5}  # main() takes no arguments
    assert not few, f"fewer than five rows: {few}"
    assert len(CASES) >= 150, len(CASES)


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
