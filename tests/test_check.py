"""helpers.check: a table per checker. Each checker passes its reference and the right answers a learner writes
(numpy numbers, float32, 0-d tensors, a LayerNorm built inside…), names every mistake of its gallery and the
problems it promises (hard-coded sizes, unregistered layers, dropout placement…), says "not attempted" to a stub,
reports what learner code raises, stops code that never returns, answers wrong input and wrong calls by name,
probes several sizes, and leaves the learner's objects and every random generator as it found them."""

from __future__ import annotations

import functools
import inspect
import re
import threading
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import helpers
from helpers import check
from helpers.check import _core
from helpers.check.exercises import MODULES
from helpers.check.exercises import block_pre as block_pre_module
from helpers.check.exercises import ffn as ffn_module

NAMES = [m.checker.name for m in MODULES]
CHECKERS = {m.checker.name: m.checker for m in MODULES}
CLASS_EXERCISES = {"ffn", "block_pre"}
FUNCTION_EXERCISES = [n for n in NAMES if n not in CLASS_EXERCISES]


def as_answer(name, fn):
    """A known mistake in the form a learner hands it in (block_pre takes a class: the mistake is its forward)."""
    if name == "block_pre":
        return type("BloquePre", (block_pre_module.BloquePre,), {"forward": fn})
    return fn


_SEEDERS = ((torch, "manual_seed"), (torch, "seed"), (torch.random, "manual_seed"), (torch.random, "seed"),
            (torch.random, "fork_rng"), (torch.cuda, "manual_seed"), (torch.cuda, "manual_seed_all"),
            (torch.cuda, "seed"), (torch.cuda, "seed_all"), (torch.mps, "manual_seed"), (torch.mps, "seed"))


@pytest.fixture
def no_device_seeding(monkeypatch):
    """torch.manual_seed also reseeds CUDA and MPS (and fork_rng forks only the CPU): while a test runs checkers,
    every such function raises, so a checker that called one would give a wrong verdict and fail the test."""
    def forbidden(*args, **kwargs):
        raise AssertionError("a checker seeded a global generator")

    for owner, attr in _SEEDERS:
        monkeypatch.setattr(owner, attr, forbidden)


# ------------------------------------------------------------------------------------------------ the API
def test_public_names_are_the_twelve_checkers():
    assert NAMES == ["ffn", "ffn_count", "residual_stack", "residual_pre", "depth_step", "layer_norm", "rms_norm",
                     "block_pre", "mask", "block_count", "gpt_count", "escape_step", "warmup"]
    assert sorted(check.__all__) == sorted(["Verdict", *NAMES])
    for name in NAMES:
        assert getattr(check, name) is CHECKERS[name] and getattr(check, name).name == name
    public = {n for n in dir(check) if not n.startswith("_")} - {"exercises"}  # the package of exercise modules
    assert public == set(check.__all__), public - set(check.__all__)
    for old in ("param_count", "residual", "block_forward", "causal_mask", "EXERCISES", "gallery", "solutions"):
        assert not hasattr(check, old), old
    assert not hasattr(_core, "show")  # one `show` in the package is plots.show


def test_no_code_reads_a_message_to_decide():
    """Control flow uses Verdict.mistake and _Finding.kind, never the wording of a Spanish message."""
    root = Path(check.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        decides = re.search(r"\.message(\.strip\(\))?\.(startswith|endswith|find|index|partition|count)\(|"
                            r"\.message(\.strip\(\))?\.split\((?!\"\\n\"\))|"
                            r"\b(if|while|and|or) [^\n]*in \w+\.message", text)
        assert not decides, (path, decides)


# ----------------------------------------------------------------------------------- reference and gallery
@pytest.mark.parametrize("name", NAMES)
def test_reference_is_correct(name, no_device_seeding):
    verdict = CHECKERS[name](CHECKERS[name].reference)
    assert verdict.status == "correct" and verdict.mistake is None, verdict


@pytest.mark.parametrize("name", NAMES)
def test_each_mistake_of_the_gallery_is_named(name, no_device_seeding):
    checker = CHECKERS[name]
    assert len(checker.mistakes) >= 5, f"{name}: a gallery of known mistakes needs a few entries"
    assert len({m.key for m in checker.mistakes}) == len(checker.mistakes)
    for mistake in checker.mistakes:
        verdict = checker(as_answer(name, mistake.fn))
        assert verdict.status == "wrong" and verdict.mistake == mistake.key, (mistake.key, verdict)
        assert mistake.message in verdict.message and "No reconozco" not in verdict.message
        assert "Con la entrada «" in verdict.message, verdict  # the evidence: on which input


# -------------------------------------------------------------------------------- right answers accepted
def _ffn_sequential():
    class MiFFN(nn.Module):
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.red = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))

        def forward(self, x):
            return self.red(x)
    return MiFFN


def _ffn_module_list():
    class MiFFN(nn.Module):
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.capas = nn.ModuleList([nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)])

        def forward(self, x):
            return self.capas[1](torch.relu(self.capas[0](x)))
    return MiFFN


def _ffn_declared_backwards():
    class MiFFN(nn.Module):  # the second layer declared first: registration order is not application order
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.baja = nn.Linear(d_ff, d_model)
            self.sube = nn.Linear(d_model, d_ff)

        def forward(self, x):
            return self.baja(nn.functional.relu(self.sube(x)))
    return MiFFN


def _ln_functional(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)


def _ln_module_inside(x, gamma, beta, eps=1e-5):
    ln = nn.LayerNorm(x.shape[-1], eps=eps)
    with torch.no_grad():
        ln.weight.copy_(gamma)
        ln.bias.copy_(beta)
    return ln(x)


def _ln_float(x, gamma, beta, eps=1e-5):
    x = x.float()
    var, media = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
    return gamma.float() * (x - media) / (var + eps).sqrt() + beta.float()


def _ln_float64_inside(x, gamma, beta, eps=1e-5):
    h = x.double()
    h = (h - h.mean(-1, keepdim=True)) / torch.sqrt(h.var(-1, keepdim=True, unbiased=False) + eps)
    return (gamma * h + beta).float()


def _rms_rsqrt(x, gamma, eps=1e-5):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * gamma


def _rms_module_inside(x, gamma, eps=1e-5):
    if not hasattr(nn, "RMSNorm"):  # torch < 2.4
        return _rms_rsqrt(x, gamma, eps)
    rms = nn.RMSNorm(x.shape[-1], eps=eps)
    with torch.no_grad():
        rms.weight.copy_(gamma)
    return rms(x)


def _stack_reduce(x, subcapas):
    return functools.reduce(lambda h, f: h + f(h), subcapas, x)


def _stack_index(x, subcapas):
    i = 0
    while i < len(subcapas):
        x = x + subcapas[i](x)
        i += 1
    return x


def _stack_on_a_copy(x, subcapas):
    h = x.clone()
    for f in subcapas:
        h += f(h)  # in place, but on its own copy: the caller's x is untouched
    return h


def _pre_two_lines(x, subcapa, ln):
    normalizado = ln(x)
    return torch.add(x, subcapa(normalizado))


def _block_attn_direct(self, x):
    h = self.ln1(x)
    x = x + self.drop(self.attn(h, h, h)[0])
    return x + self.drop(self.ffn(self.ln2(x)))


def _block_functional_dropout(self, x):
    x = x + F.dropout(self.atencion(self.ln1(x)), self.drop.p, self.training)
    return x + F.dropout(self.ffn(self.ln2(x)), p=self.drop.p, training=self.training)


def _mask_inf(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))


def _mask_full(T):
    return torch.full((T, T), float("-inf")).triu(1)


def _mask_not_tril(T):
    return ~torch.ones(T, T, dtype=torch.bool).tril()


def _mask_big_negative(T):
    return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -1e9)


def _count_numpy(reference):
    def count(*args):
        return np.int64(reference(*args))
    return count


def _count_tensor(reference):
    def count(*args):
        return torch.tensor(reference(*args))
    return count


def _count_float(reference):
    def count(*args):
        return float(reference(*args))
    return count


def _ffn_count_np_prod(d_model, d_ff):
    return np.prod([d_model, d_ff]) * 2 + d_ff + d_model


def _gpt_numpy(vocab, d_model, n_layers, ctx):
    d = np.int64(d_model)
    return vocab * d + ctx * d + n_layers * (12 * d * d + 13 * d) + 2 * d


def _escape_numpy(pasos, aciertos, umbral=0.6):
    arriba = np.flatnonzero(np.asarray(aciertos) >= umbral)
    return np.asarray(pasos)[arriba[0]] if len(arriba) else None


def _escape_torch(pasos, aciertos, umbral=0.6):
    arriba = (torch.tensor(aciertos) >= umbral).nonzero()
    return torch.tensor(pasos)[arriba[0, 0]] if len(arriba) else None


def _escape_next(pasos, aciertos, umbral=0.6):
    return next((p for p, a in zip(pasos, aciertos) if a >= umbral), None)


def _warmup_float32(paso, warmup, lr):
    if warmup == 0:
        return torch.tensor(lr, dtype=torch.float32)
    return torch.tensor(lr, dtype=torch.float32) * torch.clamp(torch.tensor(paso / warmup), max=1.0)


def _warmup_numpy(paso, warmup, lr):
    return np.float32(lr) * np.float32(min(1.0, paso / warmup)) if warmup else np.float32(lr)


def _warmup_branches(paso, warmup, lr):
    if warmup > 0 and paso < warmup:
        return lr * paso / warmup
    return lr


def _depth_step_branches(h, subcapa, ln, residual, norma):
    salida = subcapa(ln(h)) if norma else subcapa(h)
    return salida + h if residual else salida


RIGHT = [
    ("ffn", _ffn_sequential()), ("ffn", _ffn_module_list()), ("ffn", _ffn_declared_backwards()),
    ("ffn", ffn_module.MiFFN(8, 40)),  # an instance of a right class: its class is built fresh
    ("ffn_count", _count_numpy(check.ffn_count.reference)), ("ffn_count", _count_tensor(check.ffn_count.reference)),
    ("ffn_count", _count_float(check.ffn_count.reference)), ("ffn_count", _ffn_count_np_prod),
    ("residual_stack", _stack_reduce), ("residual_stack", _stack_index), ("residual_stack", _stack_on_a_copy),
    ("residual_pre", _pre_two_lines),
    ("depth_step", _depth_step_branches),  # its other right answers: tests/test_check_depth_step.py
    ("layer_norm", _ln_functional), ("layer_norm", _ln_module_inside), ("layer_norm", _ln_float),
    ("layer_norm", _ln_float64_inside),
    ("rms_norm", _rms_rsqrt), ("rms_norm", _rms_module_inside),
    ("block_pre", as_answer("block_pre", _block_attn_direct)),
    ("block_pre", as_answer("block_pre", _block_functional_dropout)),
    ("block_pre", block_pre_module.BloquePre()),  # an instance: a deep copy is checked
    ("mask", _mask_inf), ("mask", _mask_full), ("mask", _mask_not_tril), ("mask", _mask_big_negative),
    ("block_count", _count_numpy(check.block_count.reference)),
    ("block_count", _count_tensor(check.block_count.reference)),
    ("gpt_count", _gpt_numpy), ("gpt_count", _count_tensor(check.gpt_count.reference)),
    ("gpt_count", _count_float(check.gpt_count.reference)),
    ("escape_step", _escape_numpy), ("escape_step", _escape_torch), ("escape_step", _escape_next),
    ("warmup", _warmup_float32), ("warmup", _warmup_numpy), ("warmup", _warmup_branches),
]


@pytest.mark.parametrize("name, answer", RIGHT, ids=[f"{n}-{i}" for i, (n, _) in enumerate(RIGHT)])
def test_right_answers_are_accepted(name, answer, no_device_seeding):
    verdict = CHECKERS[name](answer)
    assert verdict.status == "correct", verdict


def test_a_very_negative_mask_is_correct_with_a_note():
    verdict = check.mask(_mask_big_negative)
    assert verdict.status == "correct" and "número muy negativo" in verdict.message


def test_every_checker_has_right_answers_here():
    assert {n for n, _ in RIGHT} == set(NAMES)


# ------------------------------------------------------------------------- problems named outside the gallery
class _FFNFixedHidden(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_model, 24), nn.Linear(24, d_model)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNFixedModel(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(512, d_ff), nn.Linear(d_ff, 512)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNHiddenIsModel(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNHidden4d(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_model, 4 * d_model), nn.Linear(4 * d_model, d_model)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNPlainList(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.capas = [nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)]

    def forward(self, x):
        return self.capas[1](F.relu(self.capas[0](x)))


class _FFNThreeLayers(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b, self.c = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.c(F.relu(self.b(F.relu(self.a(x)))))


class _FFNMixes(ffn_module.MiFFN):
    def forward(self, x):
        return self.lineal2(F.relu(self.lineal1(x))) + x.mean(dim=1, keepdim=True)


class _FFNNoBias(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_model, d_ff, bias=False), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNWrongOrder(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_ff, d_model), nn.Linear(d_model, d_ff)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))  # the d_ff → d_model layer first


class _FFNNoArguments(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 40), nn.Linear(40, 8)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNPlainClass:  # forgot nn.Module
    def __init__(self, d_model, d_ff):
        self.a, self.b = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class _FFNFlat(ffn_module.MiFFN):
    def forward(self, x):
        return self.lineal2(F.relu(self.lineal1(x))).flatten(1)


class _FFNTanh(ffn_module.MiFFN):
    def forward(self, x):
        return self.lineal2(torch.tanh(self.lineal1(x)))


def _stack_in_place(x, subcapas):
    for f in subcapas:
        x += f(x)
    return x


def _stack_pops(x, subcapas):
    while subcapas:
        x = x + subcapas.pop(0)(x)
    return x


def _stack_half(x, subcapas):
    for f in subcapas:
        x = x + 0.5 * f(x)
    return x


def _stack_first_and_input(x, subcapas):
    return [x]


def _pre_double_skip(x, subcapa, ln):
    return 2 * x + subcapa(ln(x))


def _ln_no_sqrt(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    return gamma * (x - media) / (x.var(-1, keepdim=True, unbiased=False) + eps) + beta


def _ln_no_return(x, gamma, beta, eps=1e-5):
    gamma * (x - x.mean(-1, keepdim=True)) + beta


def _rms_plus_one(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) + 1


def _block_post_no_second_residual(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln2(self.drop(self.ffn(x)))


def _block_dropout_always_on(self, x):
    x = x + F.dropout(self.atencion(self.ln1(x)), 0.1)
    return x + F.dropout(self.ffn(self.ln2(x)), 0.1)


def _block_dropout_in_ffn(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    h = self.drop(self.ffn[1](self.ffn[0](self.ln2(x))))
    return x + self.ffn[2](h)


def _block_fixed_size(self, x):
    x = x + self.drop(self.atencion(F.layer_norm(x, (32,), self.ln1.weight, self.ln1.bias)))
    return x + self.drop(self.ffn(self.ln2(x)))


def _block_in_place(self, x):
    x += self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln2(x)))


class _BlockRenamed(nn.Module):
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)

    def forward(self, x):
        return x


class _BlockOwnInit(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x


def _mask_ints(T):
    return torch.triu(torch.ones(T, T, dtype=torch.long), 1)


def _mask_list(T):
    return [[j > i for j in range(T)] for i in range(T)]


def _mask_batched(T):
    return torch.triu(torch.ones(1, T, T, dtype=torch.bool), 1)


def _mask_fixed_size(T):
    return torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)


def _mask_two_off(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=2)


def _ffn_count_constant(d_model, d_ff):
    return 2_099_712


def _ffn_count_half(d_model, d_ff):
    return (2 * d_model * d_ff + d_ff + d_model) + 0.5


def _ffn_count_1d(d_model, d_ff):
    return torch.tensor([2 * d_model * d_ff + d_ff + d_model])


def _ffn_count_squared(d_model, d_ff):
    return d_model**2 + d_ff**2


def _block_count_three_ln(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model + 6 * d_model


def _gpt_no_pos_no_final(vocab, d_model, n_layers, ctx):
    d = d_model
    return vocab * d + n_layers * (12 * d * d + 13 * d)


def _gpt_plus_seven(vocab, d_model, n_layers, ctx):
    return check.gpt_count.reference(vocab, d_model, n_layers, ctx) + 7


def _escape_next_step(pasos, aciertos, umbral=0.6):
    for i, a in enumerate(aciertos):
        if a >= umbral:
            return pasos[min(i + 1, len(pasos) - 1)]
    return None


def _escape_text(pasos, aciertos, umbral=0.6):
    return "175"


def _warmup_squared(paso, warmup, lr):
    return lr * min(1.0, paso / warmup) ** 2 if warmup else lr


def _warmup_nearly(paso, warmup, lr):
    return (lr * min(1.0, paso / warmup) if warmup else lr) * 1.0002


def _warmup_list(paso, warmup, lr):
    return [lr]


# (checker, answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    ("ffn", _FFNFixedHidden, "hard_coded_size", "tu clase usa d_ff = 24 aunque se le pidió 40: ¿quedó un número fijo?"),
    ("ffn", _FFNFixedModel, "hard_coded_size", "tu clase usa d_model = 512 aunque se le pidió 8"),
    ("ffn", _FFNHiddenIsModel, "hidden_is_d_model", "¿pusiste d_model donde iba d_ff?"),
    ("ffn", _FFNHidden4d, "hidden_is_4d", "4·d_model = 32"),
    ("ffn", _FFNPlainList, "unregistered_layers", "guardaste las capas en una lista de Python"),
    ("ffn", _FFNThreeLayers, "linear_count", "Encontré 3 capas nn.Linear"),
    ("ffn", _FFNMixes, "mixes_tokens", "mezcla tokens"),
    ("ffn", _FFNNoBias, "parameter_count", "te falta el sesgo de la primera capa (d_ff números)"),
    ("ffn", _FFNWrongOrder, "raised", "self.b(F.relu(self.a(x)))"),
    ("ffn", _FFNNoArguments, "raised", "¿Tu __init__ recibe d_model y d_ff?"),
    ("ffn", nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 8)), "instance_not_class", "la clase"),
    ("ffn", _FFNPlainClass, "not_a_module", "no hereda de nn.Module"),
    ("block_pre", _FFNPlainClass, "not_a_module", "no hereda de nn.Module"),
    ("ffn", _FFNFlat, "shape", "tiene que devolver la misma forma"),
    ("ffn", _FFNTanh, "unknown", "usando tus mismos pesos"),
    ("ffn_count", _ffn_count_constant, "hard_coded", "2 099 712 para todos los tamaños que probé"),
    ("ffn_count", _ffn_count_half, "non_integral", "no es un número entero"),
    ("ffn_count", _ffn_count_1d, "type", ".item()"),
    ("ffn_count", _ffn_count_squared, "unknown", "esperaba"),
    ("residual_stack", _stack_in_place, "mutated_input", "in-place"),
    ("residual_stack", _stack_pops, "mutated_input", "cambia lo que recibe"),
    ("residual_stack", _stack_half, "unknown", "esperaba"),
    ("residual_stack", _stack_first_and_input, "type", "no un tensor"),
    ("residual_pre", _pre_double_skip, "unknown", "esperaba"),
    ("layer_norm", _ln_no_sqrt, "unknown", "esperaba"),
    ("layer_norm", _ln_no_return, "no_return", "falta el `return`"),
    ("rms_norm", _rms_plus_one, "unknown", "esperaba"),
    ("block_pre", as_answer("block_pre", _block_post_no_second_residual), "unknown", "esperaba"),
    ("block_pre", as_answer("block_pre", _block_dropout_always_on), "dropout_always_on", "no se apaga"),
    ("block_pre", as_answer("block_pre", _block_dropout_in_ffn), "dropout_placement", "mismas tiradas al azar"),
    ("block_pre", as_answer("block_pre", _block_fixed_size), "raised", "RuntimeError"),
    ("block_pre", as_answer("block_pre", _block_in_place), "mutated_input", "in-place"),
    ("block_pre", _BlockRenamed, "missing_parts", "no les cambies los nombres"),
    ("block_pre", _BlockOwnInit, "raised", "El __init__ es el del enunciado"),
    ("mask", _mask_ints, "int_mask", "máscara de enteros"),
    ("mask", _mask_list, "type", "no un tensor"),
    ("mask", _mask_batched, "shape", "tiene que ser (4, 4)"),
    ("mask", _mask_fixed_size, "shape", "para T = 1 tiene que ser (1, 1): ¿quedó un número fijo en vez de T?"),
    ("mask", _mask_two_off, "unknown", "esperaba"),
    ("block_count", _block_count_three_ln, "explained", "te sobra una LayerNorm (2d)"),
    ("gpt_count", _gpt_no_pos_no_final, "explained",
     "te falta ctx × d (las posiciones) y te falta una LayerNorm (2d)"),
    ("gpt_count", _gpt_plus_seven, "unknown", "la diferencia es 7"),
    ("escape_step", _escape_next_step, "unknown", "esperaba"),
    ("escape_step", _escape_text, "type", "no un número"),
    ("warmup", _warmup_squared, "unknown", "esperaba"),
    ("warmup", _warmup_nearly, "unknown", "esperaba"),
    ("warmup", _warmup_list, "type", "no un número"),
]


@pytest.mark.parametrize("name, answer, mistake, phrase", NAMED, ids=[f"{n}-{m}-{i}" for i, (n, _, m, _) in
                                                                      enumerate(NAMED)])
def test_problems_outside_the_gallery_are_named(name, answer, mistake, phrase, no_device_seeding):
    verdict = CHECKERS[name](answer)
    assert verdict.status == "wrong" and verdict.mistake == mistake, verdict
    assert phrase.lower() in " ".join(verdict.message.split()).lower(), verdict
    if mistake != "unknown":  # a problem with a name needs no "I don't recognise it" preamble
        assert "No reconozco" not in verdict.message, verdict
    for known in CHECKERS[name].mistakes:
        assert known.message not in verdict.message, f"taken for {known.key}"


def test_no_message_invites_a_hard_code():
    """The old 'se pedía d_ff = 24' told the learner which number to write; now the sizes vary and none is asked for."""
    verdict = check.ffn(_FFNHiddenIsModel)
    assert "se pedía" not in verdict.message and "se le pidió d_ff = 40" in verdict.message


def test_numbers_differ_visibly_where_they_differ():
    verdict = check.warmup(_warmup_nearly)
    found = re.search(r"esperaba (\S+) y tu código dio (\S+):", verdict.message)
    assert found and found.group(1) != found.group(2), verdict


def test_big_tensors_are_not_dumped():
    def enorme(x, subcapas):
        return torch.zeros(200, 300)

    verdict = check.residual_stack(enorme)
    assert verdict.mistake == "shape" and len(verdict.message) < 600, verdict
    verdict = check.layer_norm(lambda x, g, b, eps=1e-5: x * 1000 + torch.arange(x.numel()).reshape(x.shape))
    assert len(verdict.message) < 900 and "…" not in verdict.message.split("esperaba")[0], verdict


# --------------------------------------------------------------------------------------- sizes probed
def _tensor_shapes(probes):
    return {tuple(a.shape) for p in probes for a in p.args[:1] if isinstance(a, torch.Tensor)}


@pytest.mark.parametrize("name", ["residual_stack", "residual_pre", "layer_norm", "rms_norm"])
def test_tensor_exercises_probe_several_shapes_and_widths_in_float32(name):
    module = next(m for m in MODULES if m.checker.name == name)
    with torch.no_grad():
        probes = module._probes()
    shapes = _tensor_shapes(probes)
    assert len(shapes) >= 3 and len({s[-1] for s in shapes}) >= 2 and len({len(s) for s in shapes}) >= 2, shapes
    for p in probes:
        for a in p.args:
            if isinstance(a, torch.Tensor):
                assert a.dtype == torch.float32, (name, p.name)
            if isinstance(a, nn.Module):
                assert all(t.dtype == torch.float32 for t in a.parameters()), (name, p.name)


def test_stack_probes_several_lengths_including_none():
    with torch.no_grad():
        lengths = sorted(len(p.args[1]) for p in MODULES[2]._probes())
    assert lengths[0] == 0 and 1 in lengths and lengths[-1] >= 3


@pytest.mark.parametrize("name", ["ffn_count", "block_count", "gpt_count", "mask", "escape_step", "warmup"])
def test_function_exercises_probe_several_inputs(name):
    probes = next(m for m in MODULES if m.checker.name == name).PROBES
    assert len({p.args[:2] if name != "escape_step" else (tuple(p.args[0]), p.args[2]) for p in probes}) >= 4


def test_class_exercises_are_built_at_several_sizes():
    assert len(set(ffn_module.SIZES)) >= 3 and all(h != 4 * d for d, h in ffn_module.SIZES)
    assert len(block_pre_module.SIZES) >= 2 and block_pre_module.SIZES[0] == {}  # the notebook's defaults first
    assert len({s.get("dropout", 0.1) for s in block_pre_module.SIZES}) == 2  # a fixed p shows


# --------------------------------------------------------------------------- stubs, errors, wrong input
def _stub_ellipsis(*args):
    ...


def _stub_raise(*args):
    raise NotImplementedError


def _stub_pass(*args):
    """Docstring only, then pass."""
    pass


class _StubFFN(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        ...

    def forward(self, x):
        ...


class _StubBlock(block_pre_module.BloquePre):
    def forward(self, x):
        ...


class _StubBlockRaise(block_pre_module.BloquePre):
    def forward(self, x):
        raise NotImplementedError


STUBS = [(n, s) for n in FUNCTION_EXERCISES for s in (_stub_ellipsis, _stub_raise, _stub_pass)] + [
    ("ffn", _StubFFN), ("block_pre", _StubBlock), ("block_pre", _StubBlockRaise)]


@pytest.mark.parametrize("name, stub", STUBS, ids=[f"{n}-{s.__name__}" for n, s in STUBS])
def test_a_stub_is_not_attempted(name, stub):
    verdict = CHECKERS[name](stub)
    assert verdict.status == "not_attempted" and verdict.mistake is None, verdict
    assert verdict.message == ("Completá la celda de arriba (donde dice `...`) y volvé a correr esta. Si te trabás: "
                               f"helpers.check.{name}.hint(1).")


def _boom(*args):
    total = 0
    return total / 0  # the learner's line


@pytest.mark.parametrize("name", FUNCTION_EXERCISES)
def test_code_that_raises_is_reported_with_its_line(name):
    verdict = CHECKERS[name](_boom)
    assert verdict.status == "wrong" and verdict.mistake == "raised", verdict
    assert "ZeroDivisionError" in verdict.message and "return total / 0" in verdict.message, verdict
    assert "la entrada «" in verdict.message and "No reconozco" not in verdict.message


def test_a_module_that_raises_is_reported_with_its_line():
    class Rota(ffn_module.MiFFN):
        def forward(self, x):
            return self.lineal2(x)  # wrong size: d_model into a d_ff layer

    verdict = check.ffn(Rota)
    assert verdict.mistake == "raised" and "RuntimeError" in verdict.message and "self.lineal2(x)" in verdict.message

    class BloqueRoto(block_pre_module.BloquePre):
        def forward(self, x):
            return self.atencion(x, x)

    verdict = check.block_pre(BloqueRoto)
    assert verdict.mistake == "raised" and "TypeError" in verdict.message and "self.atencion(x, x)" in verdict.message


def test_a_dtype_clash_is_explained():
    def doble(x, gamma, beta, eps=1e-5):
        return gamma.double() @ torch.ones(gamma.shape[-1], x.shape[-1]) + beta + x

    verdict = check.layer_norm(doble)
    assert verdict.mistake == "raised" and "float32, como en el notebook" in verdict.message, verdict


WRONG_INPUT = [None, 3, "mi_funcion", torch.ones(3), nn.Linear]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", WRONG_INPUT, ids=["None", "int", "str", "tensor", "class"])
def test_wrong_kind_of_answer_gets_a_clear_message(name, bad):
    if name in CLASS_EXERCISES and bad is nn.Linear:
        bad = check.layer_norm.reference  # a function where a class is expected
    verdict = CHECKERS[name](bad)
    assert verdict.status == "wrong" and verdict.mistake == "wrong_input", verdict
    assert f"helpers.check.{name} espera" in verdict.message and "recibió" in verdict.message


def test_called_with_the_result_instead_of_the_function():
    verdict = check.layer_norm(check.layer_norm.reference(torch.randn(4), 1.0, 0.0))
    assert "sin llamarla" in verdict.message and "un tensor de forma (4,)" in verdict.message


# ------------------------------------------------------------------------------------------ how it is called
def test_extra_arguments_never_raise_and_say_how_to_call():
    verdict = check.block_pre(block_pre_module.BloquePre, norm="pre")
    assert verdict.status == "correct" and "no usé norm='pre'" in verdict.message
    assert "helpers.check.block_pre(BloquePre)" in verdict.message
    verdict = check.gpt_count(check.gpt_count.reference, model="gpt")
    assert verdict.status == "correct" and "no usé model='gpt'" in verdict.message
    verdict = check.ffn_count(check.ffn_count.reference, "ffn")
    assert verdict.status == "correct" and "no usé 'ffn'" in verdict.message
    verdict = check.layer_norm(_stub_ellipsis, None, 1)
    assert verdict.status == "not_attempted" and "no usé None, 1" in verdict.message


def test_called_with_nothing():
    verdict = check.mask()
    assert verdict.mistake == "bad_call" and "helpers.check.mask(mascara_causal)" in verdict.message


def test_hint_and_solution_take_no_form_and_say_so():
    assert "tiene 3 pistas" in check.gpt_count.hint(1, "gpt")
    assert "tiene 2 pistas" in check.ffn_count.hint(model="ffn")
    assert check.mask.solution("bool").code == check.mask.solution().code


# ------------------------------------------------------------------------------------------- time limit
@pytest.fixture
def short_limit(monkeypatch):
    monkeypatch.setattr(_core, "_TIME_LIMIT_S", 0.3)


def _forever(*args):
    while True:
        pass


def _forever_swallowing(*args):
    while True:
        try:
            sum(range(1000))
        except Exception:  # the learner's except cannot eat the alarm
            continue


class _ForeverFFN(ffn_module.MiFFN):
    def forward(self, x):
        while True:
            pass


class _ForeverBlock(block_pre_module.BloquePre):
    def forward(self, x):
        while True:
            pass


@pytest.mark.parametrize("name, answer", [("layer_norm", _forever), ("warmup", _forever_swallowing),
                                          ("gpt_count", _forever), ("ffn", _ForeverFFN),
                                          ("block_pre", _ForeverBlock)])
def test_code_that_never_returns_is_stopped(short_limit, name, answer):
    verdict = CHECKERS[name](answer)
    assert verdict.status == "wrong" and verdict.mistake == "timeout", verdict
    assert "no terminó en 0.3 segundos" in verdict.message and "lo corté" in verdict.message


def test_the_alarm_is_put_back_as_it_was(short_limit):
    import signal
    before = signal.getsignal(signal.SIGALRM)
    check.layer_norm(_forever)
    check.layer_norm(check.layer_norm.reference)
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_outside_the_main_thread_there_is_no_limit_and_no_error():
    verdicts = []
    thread = threading.Thread(target=lambda: verdicts.append(check.layer_norm(check.layer_norm.reference)))
    thread.start()
    thread.join(60)
    assert verdicts and verdicts[0].status == "correct", verdicts


# --------------------------------------------------------------------------- nothing of the learner's moves
def test_checking_leaves_the_cpu_generator_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    for name in NAMES:
        CHECKERS[name](CHECKERS[name].reference)
        CHECKERS[name](as_answer(name, CHECKERS[name].mistakes[0].fn))
    CHECKERS["block_pre"](as_answer("block_pre", _block_dropout_always_on))
    assert torch.equal(torch.rand(3), expected)


def test_no_checker_seeds_a_device(no_device_seeding):
    """The tables above run every checker on references, right answers and mistakes with the seeding functions
    forbidden (the fixture); here, that the fixture does forbid them, so those tests cannot pass vacuously."""
    for owner, attr in _SEEDERS:
        with pytest.raises(AssertionError, match="seeded"):
            getattr(owner, attr)(0)
    verdict = check.layer_norm(lambda x, gamma, beta, eps=1e-5: torch.manual_seed(0) and x)
    assert verdict.mistake == "raised" and "seeded" in verdict.message


def test_device_generators_are_saved_and_restored(monkeypatch):
    """Where CUDA is initialised or MPS present, their states are read before and written back after."""
    calls = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_rng_state_all", lambda: calls.append("cuda get") or ["cuda state"])
    monkeypatch.setattr(torch.cuda, "set_rng_state_all", lambda s: calls.append(("cuda set", s)))
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.setattr(torch.mps, "get_rng_state", lambda: calls.append("mps get") or "mps state")
    monkeypatch.setattr(torch.mps, "set_rng_state", lambda s: calls.append(("mps set", s)))
    assert check.block_pre(block_pre_module.BloquePre).status == "correct"
    assert calls == ["cuda get", "mps get", ("cuda set", ["cuda state"]), ("mps set", "mps state")]


def test_an_instance_passed_is_left_as_it_was():
    torch.manual_seed(1)
    block = block_pre_module.BloquePre().train()
    ffn = ffn_module.MiFFN(8, 40).train()
    before = {k: v.clone() for k, v in block.state_dict().items()}, {k: v.clone() for k, v in ffn.state_dict().items()}
    assert check.block_pre(block).status == "correct" and check.ffn(ffn).status == "correct"
    assert block.training and all(m.training for m in block.modules()) and ffn.training
    assert block.attn.dropout == 0.1 and block.drop.p == 0.1
    for saved, module in zip(before, (block, ffn)):
        assert all(torch.equal(saved[k], v) for k, v in module.state_dict().items())
    assert torch.equal(block.ln1.weight, torch.ones(32)) and torch.equal(block.ln1.bias, torch.zeros(32))


def test_the_learner_gets_gradients_back_on():
    check.layer_norm(check.layer_norm.reference)
    assert torch.is_grad_enabled()


# ------------------------------------------------------------------------------------ hints and solutions
@pytest.mark.parametrize("name", NAMES)
def test_hints_lead_without_being_the_answer(name):
    checker = CHECKERS[name]
    assert 2 <= len(checker.hints) <= 3
    code = [line.split("#")[0].strip() for line in checker.solution().code.splitlines()]
    code = [line for line in code if len(line) > 12 and not line.startswith(("def ", "class ", "super()"))]
    for n in range(1, len(checker.hints) + 1):
        text = checker.hint(n)
        flat = " ".join(str(text).split())
        assert flat.startswith(f"Pista {n} de {len(checker.hints)}: ") and checker.hints[n - 1] in flat
        assert repr(text) == str(text)  # shown as text, not as a quoted string
        for line in code:
            assert line not in flat, f"{name}.hint({n}) gives the solution's line {line!r}"
    assert "tiene" in checker.hint(len(checker.hints) + 1) and "pistas" in checker.hint(0)
    assert f"helpers.check.{name}.solution()" in checker.hint(len(checker.hints))


@pytest.mark.parametrize("name", NAMES)
def test_solution_is_what_the_checker_compares_against_and_passes(name):
    solution = CHECKERS[name].solution()
    namespace = {"torch": torch, "nn": nn, "F": F}
    exec(solution.code, namespace)  # the code the notebook test pastes, run as the learner would
    learner = namespace[CHECKERS[name].reference.__name__]
    assert CHECKERS[name](learner).status == "correct"
    assert solution.code == inspect.getsource(CHECKERS[name].reference).rstrip() + "\n"


# ------------------------------------------------------------------------------------------ how it reads
def test_verdict_text_is_the_stable_block():
    assert repr(check.layer_norm(_stub_ellipsis)) == (
        "✏️  layer_norm: sin intentar todavía.\nCompletá la celda de arriba (donde dice `...`) y volvé a correr esta. "
        "Si te trabás:\nhelpers.check.layer_norm.hint(1).")
    assert repr(check.warmup(check.warmup.reference)).startswith("✅ warmup: ¡correcto!\n")
    verdict = check.warmup(check.warmup.mistakes[0].fn)
    assert repr(verdict).startswith("❌ warmup: todavía no.\n")
    assert all(len(line) <= 100 for line in repr(verdict).split("\n"))
    assert str(verdict) == repr(verdict)
    with pytest.raises(ValueError, match="status"):
        check.Verdict("x", "maybe", "")


def test_verdict_html_is_a_clear_deterministic_block():
    for answer in (_stub_ellipsis, check.layer_norm.reference, check.layer_norm.mistakes[0].fn):
        first, again = check.layer_norm(answer), check.layer_norm(answer)
        html = first._repr_html_()
        assert html == again._repr_html_() and "0x" not in html
        assert html.startswith('<div style="border-left:4px solid') and _core._HEAD[first.status].format(
            name="layer_norm") in html
    html = check.mask(_mask_ints)._repr_html_()
    assert "❌ mask: todavía no." in html and "&lt;" not in html and "<code>" not in html
    html = check.Verdict("x", "wrong", "a <b> & `c`\n    code <here>\nend")._repr_html_()
    assert "a &lt;b&gt; &amp; <code>c</code>" in html and "<pre" in html and "code &lt;here&gt;" in html


# ------------------------------------------------------------- the references agree with the library
def test_references_agree_with_torch_and_helpers():
    x, g, b = torch.randn(2, 3, 8), torch.rand(8) + 0.5, torch.randn(8)
    ln = nn.LayerNorm(8)
    with torch.no_grad():
        ln.weight.copy_(g)
        ln.bias.copy_(b)
        assert torch.allclose(check.layer_norm.reference(x, g, b), ln(x), atol=1e-6)
        if hasattr(nn, "RMSNorm"):
            rms = nn.RMSNorm(8, eps=1e-5)
            rms.weight.copy_(g)
            assert torch.allclose(check.rms_norm.reference(x, g), rms(x), atol=1e-6)
    for T in (1, 5):
        assert torch.equal(check.mask.reference(T), helpers.blocks.causal_mask(T))
    for d, f in ((512, 2048), (8, 24)):
        assert check.ffn_count.reference(d, f) == helpers.params.ffn_params(d, f)
        assert check.block_count.reference(d, f) == helpers.params.count_params(
            helpers.blocks.Block(d, 2, f, norm="pre"))
    for V, d, L, ctx in ((50257, 768, 12, 1024), (12, 8, 2, 0)):
        assert check.gpt_count.reference(V, d, L, ctx) == helpers.params.gpt_params(V, d, L, ctx)
    assert check.ffn_count.reference(512, 2048) == helpers.params.count_params(ffn_module.MiFFN(512, 2048))
    for w in (0, 1, 100):
        run = helpers.engine.Run("post", 2, warmup=w)
        assert all(check.warmup.reference(s, w, run.lr) == run.lr_at(s) for s in (1, 2, 50, 100, 101, 500))


def test_reference_block_matches_helpers_block():
    torch.manual_seed(0)
    ours = block_pre_module.BloquePre(32, 4, 64, dropout=0.0).eval()
    lib = helpers.blocks.Block(32, 4, 64, dropout=0.0, norm="pre").eval()
    pairs = list(zip(ours.parameters(), lib.parameters(), strict=True))  # same modules, same order
    with torch.no_grad():
        for a, b in pairs:
            b.copy_(a)
        x = torch.randn(2, 5, 32)
        assert torch.allclose(ours(x), lib(x), atol=1e-6)
