"""helpers.depth: the four stacks differ by one step, start from the same weights, and the stored runs are what the
module trains; notebook 02's visible 20-layer net (RedProfunda) is the residual stack."""

from __future__ import annotations

import torch
from torch import nn

from helpers import depth
from helpers.check.exercises import depth_step


def _sub(h):
    return torch.tanh(2 * h + 1)


def test_step_is_the_exercise_reference_for_every_combination():
    g = torch.Generator().manual_seed(0)
    h, ln = torch.randn(3, 5, generator=g), nn.LayerNorm(5)
    with torch.no_grad():
        ln.weight.uniform_(0.5, 1.5)
        ln.bias.uniform_(-1, 1)
    for residual, norm in depth.VARIANTS.values():
        assert torch.equal(depth.step(h, _sub, ln, residual, norm),
                           depth_step.paso_variante(h, _sub, ln, residual, norm))
    assert torch.equal(depth.step(h, _sub, ln, True, True), h + _sub(ln(h)))  # pre-norm
    assert torch.equal(depth.step(h, _sub, ln, False, False), _sub(h))


def test_the_four_variants_share_their_weights_and_leave_the_random_state_alone():
    state = torch.random.get_rng_state()
    stacks = [depth.Stack(v, 5, width=8, seed=3) for v in depth.VARIANTS]
    assert torch.equal(state, torch.random.get_rng_state())
    for s in stacks[1:]:
        for a, b in zip(stacks[0].state_dict().values(), s.state_dict().values()):
            assert torch.equal(a, b)
    he = depth.Stack("plain", 5, width=8, init="he", seed=3)
    assert not torch.equal(he.capas[0].weight, stacks[0].capas[0].weight)
    assert torch.count_nonzero(he.capas[0].bias) == 0
    assert torch.equal(he.entrada.weight, stacks[0].entrada.weight)  # He touches only the hidden layers


def test_residual_stack_is_notebook_02s_red_profunda():
    """The notebook's RedProfunda(residual=True) after torch.manual_seed(0): same weights, same output."""
    torch.manual_seed(0)
    entrada, capas = nn.Linear(2, 64), nn.ModuleList(nn.Linear(64, 64) for _ in range(20))
    salida = nn.Linear(64, 2)
    x = torch.randn(7, 2)
    h = entrada(x)
    for capa in capas:
        h = h + torch.relu(capa(h))
    stack = depth.Stack("residual", 20)
    assert torch.equal(stack.capas[19].weight, capas[19].weight)
    assert torch.allclose(stack(x), salida(h))


def test_measure_sees_the_failures_at_depth():
    x, y = depth._spirals()[2:]
    x, y = x[:64], y[:64]
    plain = depth.measure(depth.Stack("plain", 48), x, y)
    pre = depth.measure(depth.Stack("pre", 48), x, y)
    res = depth.measure(depth.Stack("residual", 48), x, y)
    assert len(plain["act"]) == 49
    assert plain["grad_first"] < 1e-12 < 1 < pre["grad_first"] < 1e3
    assert res["act"][-1] > 1e4 * res["act"][0]


def test_measure_gives_every_layers_gradient_and_the_first_is_grad_first():
    x, y = depth._spirals()[2:]
    stack = depth.Stack("norm", 12)
    out = depth.measure(stack, x[:64], y[:64])
    assert len(out["grads"]) == 12 and out["grads"][0] == out["grad_first"] > 0
    assert all(p.grad is None for p in stack.parameters())


def test_backward_factors_split_each_layer_into_its_layernorm_and_its_sublayer():
    """Notebook 02b's mechanism for the LayerNorm-only stack: going back, each LayerNorm multiplies the gradient by
    about 1/σ of what it read, the sublayer by less, and their product is each layer's factor; more than 1 with
    default and He weights alike (the LayerNorm undoes the weights' scale), so the first layer's gradient explodes."""
    x, y = depth._spirals()[2:]
    x, y = x[:128], y[:128]
    for init in depth.INITS:
        stack = depth.Stack("norm", 24, init=init)
        f = depth.backward_factors(stack, x, y)
        assert all(len(v) == 24 for v in f.values())
        median = {k: torch.tensor(v[1:], dtype=torch.float64).median().item() for k, v in f.items()}
        assert abs(median["norm"] * median["sigma"] - 1) < 0.05      # through the LayerNorm: × 1/σ
        assert median["sublayer"] < 1 < median["norm"]
        factors = torch.tensor(f["norm"], dtype=torch.float64) * torch.tensor(f["sublayer"], dtype=torch.float64)
        assert factors[1:].median() > 1.15 and median["rms"] > 1.15 * median["sigma"]  # the ReLU's mean
        # the chain: layers 2 to 24 multiply to about how much more layer 1's weight gets than layer 24's
        grads = depth.measure(stack, x, y)["grads"]
        assert grads[0] > 30 * grads[-1] and 1 / 3 < factors[1:].prod() / (grads[0] / grads[-1]) < 3
        assert all(p.grad is None for p in stack.parameters()) and not any(ln._forward_hooks for ln in stack.lns)


def test_backward_factors_refuse_a_stack_with_two_paths_or_without_layernorm():
    x, y = depth._spirals()[2:]
    for variant in ("plain", "residual", "pre"):
        try:
            depth.backward_factors(depth.Stack(variant, 3), x[:8], y[:8])
        except ValueError as e:
            assert "'norm'" in str(e) and repr(variant) in str(e)
        else:
            raise AssertionError(f"{variant} was accepted")

    def twice(h, capa, ln, residual, norm):
        return capa(ln(ln(h)))

    try:
        depth.backward_factors(depth.Stack("norm", 3, step=twice), x[:8], y[:8])
    except ValueError as e:
        assert "ln(h)" in str(e)
    else:
        raise AssertionError("a step that normalizes twice was accepted")


def test_the_residual_stacks_stream_is_measured_past_float32():
    """With He weights and 96 layers the residual stack's squares overflow float32 (from layer 80): measure reports a
    finite size, computed in float64."""
    x, y = depth._spirals()[2:]
    act = depth.measure(depth.Stack("residual", 96, init="he"), x[:64], y[:64])["act"]
    assert all(torch.isfinite(torch.tensor(act, dtype=torch.float64))) and act[-1] > 1e20


def test_one_adam_step_on_layer_1_upsets_only_the_layernorm_only_stack():
    """Notebook 02b's reason why a huge gradient hurts under Adam: one step of lr on layer 1 changes the LayerNorm-only
    stack's output by about its own size, pre-norm's by a few percent; the model is left as it was."""
    x, y = depth._spirals()[2:]
    x, y = x[:64], y[:64]
    norm, pre = depth.Stack("norm", 96), depth.Stack("pre", 96)
    state = {k: v.clone() for k, v in norm.state_dict().items()}
    big, small = depth.first_layer_step(norm, x, y), depth.first_layer_step(pre, x, y)
    assert big > 0.5 and small < 0.1
    assert all(torch.equal(state[k], v) for k, v in norm.state_dict().items())
    assert all(p.grad is None for p in norm.parameters())


def test_a_stack_runs_on_the_step_it_is_given():
    """Notebook 02b builds its stacks with the learner's paso_variante once it passes
    (helpers.check.depth_step.working): the exercise's reference gives the same stream as helpers.depth.step, and
    another step changes it."""
    x = depth._spirals()[2][:16]
    for variant in depth.VARIANTS:
        ours, reference = depth.Stack(variant, 6), depth.Stack(variant, 6, step=depth_step.paso_variante)
        assert torch.equal(ours(x), reference(x))
    def post(h, capa, ln, residual, norm):
        return ln(h + capa(h)) if residual and norm else depth.step(h, capa, ln, residual, norm)

    assert not torch.equal(depth.Stack("pre", 6)(x), depth.Stack("pre", 6, step=post)(x))
    assert torch.equal(depth.Stack("norm", 6)(x), depth.Stack("norm", 6, step=post)(x))


def test_bad_arguments_say_what_was_expected():
    for kwargs, word in [({"variant": "post"}, "variant"), ({"init": "xavier"}, "init"), ({"n_layers": 0}, "n_layers"),
                         ({"step": "pre"}, "step"), ({"step": nn.LayerNorm}, "step")]:
        args = {"variant": "pre", "n_layers": 2} | kwargs
        try:
            depth.Stack(**args)
        except (ValueError, TypeError) as e:
            assert word in str(e)
        else:
            raise AssertionError(f"{kwargs} was accepted")


def test_stored_runs_cover_the_grid_and_a_short_run_reproduces_their_start():
    data = depth.load_runs()
    runs = data["runs"]
    assert {(r["variant"], r["init"]) for r in runs} == {(v, i) for v in depth.VARIANTS for i in depth.INITS}
    assert all(r["n_layers"] == 96 and r["step"][-1] == data["meta"]["steps"] == depth.STEPS for r in runs)
    seed0 = next(r for r in runs if (r["variant"], r["init"], r["seed"]) == ("pre", "default", 0))
    hist = depth.train(depth.Stack("pre", 96), depth._spirals(), steps=1, every=1)
    assert abs(hist["loss"][0] - seed0["loss"][0]) < 1e-3  # the loss before training, rounded to 4 digits
    assert abs(hist["acc"][0] - seed0["acc"][0]) < 1e-3
