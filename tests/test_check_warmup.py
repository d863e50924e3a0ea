"""helpers.check.warmup (helpers/check/exercises/warmup.py): the right answers a learner
writes are accepted, and the problems outside its gallery of known mistakes are named."""

from __future__ import annotations

import re

import numpy as np
import torch
from checking import (
    probes_of,
    table_tests,
)

import helpers
from helpers import check

NAME = "warmup"


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


def _warmup_squared(paso, warmup, lr):
    return lr * min(1.0, paso / warmup) ** 2 if warmup else lr


def _warmup_nearly(paso, warmup, lr):
    return (lr * min(1.0, paso / warmup) if warmup else lr) * 1.0002


def _warmup_list(paso, warmup, lr):
    return [lr]


RIGHT = [
    _warmup_float32,
    _warmup_numpy,
    _warmup_branches,
]

# (answer, the mistake it must name, a phrase the message must hold)
NAMED = [
    (_warmup_squared, "unknown", "esperaba"),
    (_warmup_nearly, "unknown", "esperaba"),
    (_warmup_list, "type", "no un número"),
]

test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named = table_tests(NAME, RIGHT, NAMED)


def test_numbers_differ_visibly_where_they_differ():
    verdict = check.warmup(_warmup_nearly)
    found = re.search(r"esperaba (\S+) y tu código dio (\S+):", verdict.message)
    assert found and found.group(1) != found.group(2), verdict


def test_the_reference_is_the_engine_schedule():
    for w in (0, 1, 100):
        run = helpers.engine.Run("post", 2, warmup=w)
        assert all(check.warmup.reference(s, w, run.lr) == run.lr_at(s) for s in (1, 2, 50, 100, 101, 500))


def test_the_probes_hold_several_inputs():
    key = (lambda p: (tuple(p.args[0]), p.args[2])) if NAME == "escape_step" else (lambda p: p.args[:2])
    assert len({key(p) for p in probes_of(NAME)}) >= 4
