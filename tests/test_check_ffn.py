"""helpers.check.ffn (helpers/check/exercises/ffn.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from checking import (
    table_tests,
)
from torch import nn

from helpers import check
from helpers.check.exercises import ffn as ffn_module

NAME = "ffn"


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


RIGHT = [
    _ffn_sequential(),
    _ffn_module_list(),
    _ffn_declared_backwards(),
    ffn_module.MiFFN(8, 40),
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_FFNFixedHidden, "hard_coded_size", "tu clase usa d_ff = 24 aunque se le pidió 40: ¿quedó un número fijo?"),
    (_FFNFixedModel, "hard_coded_size", "tu clase usa d_model = 512 aunque se le pidió 8"),
    (_FFNHiddenIsModel, "hidden_is_d_model", "¿pusiste d_model donde iba d_ff?"),
    (_FFNHidden4d, "hidden_is_4d", "4·d_model = 32"),
    (_FFNPlainList, "unregistered_layers", "guardaste las capas en una lista de Python"),
    (_FFNThreeLayers, "linear_count", "Encontré 3 capas nn.Linear"),
    (_FFNMixes, "mixes_tokens", "mezcla tokens"),
    (_FFNNoBias, "parameter_count", "te falta el sesgo de la primera capa (d_ff números)"),
    (_FFNWrongOrder, "raised", "self.b(F.relu(self.a(x)))"),
    (_FFNNoArguments, "raised", "¿Tu __init__ recibe d_model y d_ff?"),
    (nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 8)), "instance_not_class", "la clase"),
    (_FFNPlainClass, "not_a_module", "no hereda de nn.Module"),
    (_FFNFlat, "shape", "tiene que devolver la misma forma"),
    (_FFNTanh, "unknown", "usando tus mismos pesos"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_no_message_invites_a_hard_code():
    """The old 'se pedía d_ff = 24' told the learner which number to write; now the sizes vary and none is asked for."""
    verdict = check.ffn(_FFNHiddenIsModel)
    assert "se pedía" not in verdict.message and "se le pidió d_ff = 40" in verdict.message


def test_a_module_that_raises_is_reported_with_its_line():
    class Rota(ffn_module.MiFFN):
        def forward(self, x):
            return self.lineal2(x)  # wrong size: d_model into a d_ff layer

    verdict = check.ffn(Rota)
    assert verdict.mistake == "raised" and "RuntimeError" in verdict.message and "self.lineal2(x)" in verdict.message


def test_the_class_is_built_at_several_sizes():
    assert len(set(ffn_module.SIZES)) >= 3 and all(h != 4 * d for d, h in ffn_module.SIZES)
