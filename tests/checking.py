"""What the checker tests share: the registry's exercises (the test list, derived from helpers.check.exercises),
the answer form of a known mistake, and the assertions every exercise's table runs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from helpers.check.exercises import MODULES

NAMES = [m.checker.name for m in MODULES]  # the registry's order: the order of the notebooks
CHECKERS = {m.checker.name: m.checker for m in MODULES}
CLASS_EXERCISES = {"ffn", "block_pre"}
FUNCTION_EXERCISES = [n for n in NAMES if n not in CLASS_EXERCISES]


def module_of(name: str):
    return next(m for m in MODULES if m.checker.name == name)


def as_answer(name, fn):
    """A known mistake in the form a learner hands it in (block_pre takes a class: the mistake is its forward)."""
    if name == "block_pre":
        return type("BloquePre", (module_of("block_pre").BloquePre,), {"forward": fn})
    return fn


def assert_right(name: str, answer) -> None:
    verdict = CHECKERS[name](answer)
    assert verdict.status == "correct", verdict


def assert_named(name: str, answer, mistake: str, phrase: str) -> None:
    """The verdict names ``mistake``, its message holds ``phrase``, and no gallery entry is blamed instead."""
    verdict = CHECKERS[name](answer)
    assert verdict.status == "wrong" and verdict.mistake == mistake, verdict
    assert phrase.lower() in " ".join(verdict.message.split()).lower(), verdict
    if mistake != "unknown":  # a problem with a name needs no "I don't recognise it" preamble
        assert "No reconozco" not in verdict.message, verdict
    for known in CHECKERS[name].mistakes:
        assert known.message not in verdict.message, f"taken for {known.key}"


def table_tests(name: str, right: list, named: list) -> tuple:
    """The two tests of an exercise's tables: each right answer is accepted, each named problem named."""
    @pytest.mark.parametrize("answer", right)
    def test_right_answers_are_accepted(answer, no_device_seeding):
        assert_right(name, answer)

    @pytest.mark.parametrize("answer, mistake, phrase", named)
    def test_problems_outside_the_gallery_are_named(answer, mistake, phrase, no_device_seeding):
        assert_named(name, answer, mistake, phrase)

    return test_right_answers_are_accepted, test_problems_outside_the_gallery_are_named


def probes_of(name: str) -> list:
    """The probe inputs of a function exercise (``PROBES``, or built by its ``_probes()``)."""
    module = module_of(name)
    if hasattr(module, "PROBES"):
        return module.PROBES
    with torch.no_grad():
        return module._probes()


def tensor_probe_shapes(name: str) -> None:
    """A tensor exercise probes several shapes, several widths and ranks, all in float32."""
    probes = probes_of(name)
    shapes = {tuple(a.shape) for p in probes for a in p.args[:1] if isinstance(a, torch.Tensor)}
    assert len(shapes) >= 3 and len({s[-1] for s in shapes}) >= 2 and len({len(s) for s in shapes}) >= 2, shapes
    for p in probes:
        for a in p.args:
            if isinstance(a, torch.Tensor):
                assert a.dtype == torch.float32, (name, p.name)
            if isinstance(a, nn.Module):
                assert all(t.dtype == torch.float32 for t in a.parameters()), (name, p.name)


def count_numpy(reference):
    def count(*args):
        return np.int64(reference(*args))
    return count


def count_tensor(reference):
    def count(*args):
        return torch.tensor(reference(*args))
    return count


def count_float(reference):
    def count(*args):
        return float(reference(*args))
    return count
