"""helpers.layernorm (pure functions) and helpers.widgets (thin shells), without any front end."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import pytest  # noqa: E402
import torch  # noqa: E402

from helpers import layernorm as L  # noqa: E402
from helpers import widgets  # noqa: E402


def test_four_numbers_of_the_lesson():
    s = L.layer_norm_steps([2, 4, 6, 8])
    assert (s.mean, s.var) == (5.0, 5.0)
    assert [round(v, 2) for v in s.normalized] == [-1.34, -0.45, 0.45, 1.34]
    ref = torch.nn.LayerNorm(4)(torch.tensor([2.0, 4, 6, 8])).tolist()
    assert s.output == pytest.approx(ref, abs=1e-6)


def test_seed_001_steps():
    s = L.layer_norm_steps([0.80, 0.95, 0.93, 1.33], [1.2, 0.8, 1.0, 1.1], [0.1, 0.0, -0.2, 0.3])
    assert round(s.mean, 4) == 1.0025 and round(s.var, 4) == 0.0391 and round(s.std, 3) == 0.198
    assert [round(v, 4) for v in s.squared] == [0.0410, 0.0028, 0.0053, 0.1073]
    assert [round(v, 3) for v in s.normalized] == [-1.024, -0.266, -0.367, 1.657]
    assert [round(v, 3) for v in s.output] == [-1.129, -0.212, -0.567, 2.122]


@pytest.mark.parametrize("texts, words", [
    (["1", "2", "", "4"], "El número 3 está vacío"),
    (["1", "dos", "3", "4"], r"«dos» \(número 2\) no es un número"),
    (["1", "2", "3"], "Esperaba 4 números; recibí 3"),
    (["1", "2", "3", "1e300"], "El número 4 es demasiado grande"),
    (["nan", "2", "3", "4"], "El número 1 no es finito"),
    (["inf", "2", "3", "4"], "El número 1 no es finito"),
])
def test_parse_numbers_bad_input(texts, words):
    with pytest.raises(L.InvalidInput, match=words):
        L.parse_numbers(texts)


def test_parse_numbers_accepts_comma_decimals_and_spaces():
    assert L.parse_numbers([" 0,5", "1.5 ", "-2", "3e2"]) == [0.5, 1.5, -2.0, 300.0]


def test_equal_numbers_give_zeros_and_a_message():
    s = L.layer_norm_steps([7, 7, 7, 7])
    assert s.constant and s.normalized == [0.0] * 4 and "σ = 0" in s.message()
    assert L.layer_norm_steps([1, 2, 3, 4]).message() == ""


def test_huge_numbers_stay_finite():
    s = L.layer_norm_steps([1e14, -1e14, 3e14, 0])
    assert all(math.isfinite(v) for v in s.normalized)
    # scale-free once ε is negligible next to the variance (5e28 here)
    assert s.normalized == pytest.approx(L.layer_norm_steps([1, -1, 3, 0], eps=1e-15).normalized, abs=1e-9)


@pytest.mark.parametrize("kwargs, words", [
    ({"x": [1, 2], "gamma": [1, 2, 3]}, r"gamma \(γ\) debe tener 2 números"),
    ({"x": [1, 2], "beta": [1]}, r"beta \(β\) debe tener 2 números"),
    ({"x": [1, 2], "beta": [1, float("nan")]}, r"beta \(β\): el número 2 no es finito"),
    ({"x": []}, "x está vacío"),
    ({"x": "abc"}, "x debe ser una lista de números"),
    ({"x": [1, 2], "eps": 0}, r"eps \(ε\) debe ser un número positivo"),
])
def test_layer_norm_steps_bad_input(kwargs, words):
    with pytest.raises(L.InvalidInput, match=words):
        L.layer_norm_steps(**kwargs)


def test_walkthrough_of_seed_001():
    steps = L.residual_layernorm_walkthrough([0.50, 1.15, 0.78, 0.88], [0.30, -0.20, 0.15, 0.45],
                                             [1.2, 0.8, 1.0, 1.1], [0.1, 0.0, -0.2, 0.3])
    assert len(steps) == 7
    assert [round(v, 2) for v in steps[2].values] == [0.80, 0.95, 0.93, 1.33]
    assert round(steps[3].values[0], 4) == 1.0025
    assert [round(v, 3) for v in steps[-1].values] == [-1.129, -0.212, -0.567, 2.122]
    assert "1.15 − 0.20 = 0.95" in steps[2].text
    with pytest.raises(L.InvalidInput, match=r"sublayer \(F\(x\)\) debe tener 4 números"):
        L.residual_layernorm_walkthrough([1, 2, 3, 4], [1, 2], [1] * 4, [0] * 4)


def test_four_numbers_widget_updates_and_reports_errors():
    w = widgets.FourNumbers()
    assert "μ = 5.0000" in w.info.value and "σ² = 5.0000" in w.info.value
    assert "[-1.342, -0.447, 0.447, 1.342]" in w.info.value
    w.fields[2].value = ""
    assert w.steps is None and "El número 3 está vacío" in w.info.value and "ln-error" in w.info.value
    for f in w.fields:
        f.value = "3"
    assert w.steps.constant and "σ = 0" in w.info.value and "nan" not in w.info.value.lower()


def test_gamma_beta_widget():
    w = widgets.GammaBeta()
    w.gammas[0].value = 2.0
    w.betas[3].value = -1.0
    assert w.steps.output[0] == pytest.approx(2 * w.base.normalized[0])
    assert w.steps.output[3] == pytest.approx(w.base.normalized[3] - 1)


def test_step_by_step_widget():
    w = widgets.StepByStep()
    assert w.shown == 1 and "paso 1 de 7" in w.view.value
    for _ in range(10):
        w.next()
    assert w.shown == 7 and w.next_button.disabled and "[-1.129, -0.212, -0.567, 2.122]" in w.view.value
    w.reset()
    assert w.shown == 1 and not w.next_button.disabled


def test_the_course_page_rounds_sigma_before_dividing():
    """The course's interactive page (seed 001) shows x̂ = [-1.023, -0.265, -0.366, 1.654] and, with its γ and β,
    [-1.128, -0.212, -0.566, 2.119]: its σ, 0.19766, rounded to 0.198 before dividing. Unrounded, the digits are
    notebook 03's (section 2): the third decimal differs, and neither is wrong."""
    gamma, beta = [1.2, 0.8, 1.0, 1.1], [0.1, 0.0, -0.2, 0.3]
    s = L.layer_norm_steps([0.80, 0.95, 0.93, 1.33], gamma, beta)
    assert round(s.std, 5) == 0.19766 and round(s.std, 3) == 0.198
    page = [round(c / 0.198, 3) for c in s.centered]
    assert page == [-1.023, -0.265, -0.366, 1.654]
    assert [round(g * n + b, 3) for g, n, b in zip(gamma, page, beta)] == [-1.128, -0.212, -0.566, 2.119]
    assert [round(v, 3) for v in s.normalized] == [-1.024, -0.266, -0.367, 1.657] != page
