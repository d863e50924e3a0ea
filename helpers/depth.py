"""Notebook 02b's four stacks at any depth: plain, residual only, LayerNorm only, and both (pre-norm), each a
``step`` away from the others; measured at initialization and trained on the spirals.

    python -m helpers.depth        # the stored depth-96 runs, helpers/data/depth96.json: 8 runs, 33 min on a busy
                                   # 2-core machine (make depth); --seeds 0 1 2 adds seeds
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from ._validate import affordable, positive_int, rng_seed
from .toydata import spiral

__all__ = ["EVERY", "INITS", "LABELS", "RUNS_PATH", "RUN_SEEDS", "STEPS", "VARIANTS", "Stack", "backward_factors",
           "first_layer_step", "load_runs", "measure", "step", "train"]

RUNS_PATH = Path(__file__).parent / "data" / "depth96.json"
# variant -> (residual, norm): the two pieces, on or off
VARIANTS = {"plain": (False, False), "residual": (True, False), "norm": (False, True), "pre": (True, True)}
LABELS = {"plain": "sin piezas", "residual": "solo residual", "norm": "solo LayerNorm", "pre": "las dos (pre-norm)"}
INITS = ("default", "he")
RUN_SEEDS = (0,)        # the stored runs (more: --seeds 0 1 2); the four variants of a seed share weights
STEPS = 400        # as notebook 02's 20-layer runs: Adam, lr 1e-3, batch 128
EVERY = 50         # test accuracy of the stored runs every 50 steps


def __dir__():
    return __all__


def step(h, capa, ln, residual, norm):
    """One layer of any of the four stacks: the sublayer reads LN(h) or h; the result adds to h or replaces it."""
    return (h if residual else 0) + capa(ln(h) if norm else h)


class Stack(nn.Module):
    """2 → width → … → 2 on the spirals, ``n_layers`` sublayers relu(Linear) joined by ``step`` (or by the learner's
    own step, same arguments); weights depend on ``seed`` and ``init`` only, so the four variants of one seed start
    from the same weights."""

    def __init__(self, variant: str, n_layers: int, width: int = 64, init: str = "default", seed: int = 0,
                 step=step):
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant debe ser una de {', '.join(VARIANTS)}; recibí {variant!r}")
        if init not in INITS:
            raise ValueError(f"init debe ser 'default' (la de nn.Linear) o 'he'; recibí {init!r}")
        if not callable(step) or isinstance(step, type):
            raise TypeError("step debe ser una función de una capa, (h, subcapa, ln, residual, norma) → la corriente "
                            f"que sale, como helpers.depth.step; recibí {step!r}")
        n_layers, width = positive_int(n_layers, "n_layers"), positive_int(width, "width")
        seed = rng_seed(seed, "seed")
        affordable(4 * (n_layers * (width * width + 3 * width) + 5 * width),  # float32 weights, biases, γ and β
                   f"Stack(n_layers={n_layers}, width={width}) necesitaría para sus pesos")
        self.variant, self.residual, self.norm, self.step = variant, *VARIANTS[variant], step
        with torch.random.fork_rng(devices=[]):  # the caller's random state as it was
            torch.manual_seed(seed)
            self.entrada = nn.Linear(2, width)
            self.capas = nn.ModuleList(nn.Linear(width, width) for _ in range(n_layers))
            self.lns = nn.ModuleList(nn.LayerNorm(width) for _ in range(n_layers))
            self.salida = nn.Linear(width, 2)
            if init == "he":  # as notebook 02's red_he: He's variance for the hidden layers, zero biases
                for capa in self.capas:
                    nn.init.kaiming_normal_(capa.weight, nonlinearity="relu")
                    nn.init.zeros_(capa.bias)

    def streams(self, x):
        """The stream after the input layer and after each layer: a list of n_layers + 1 tensors (B, width)."""
        hs = [self.entrada(x)]
        for capa, ln in zip(self.capas, self.lns):
            hs.append(self.step(hs[-1], lambda v, capa=capa: torch.relu(capa(v)), ln, self.residual, self.norm))
        return hs

    def forward(self, x):
        return self.salida(self.streams(x)[-1])


def measure(model: Stack, x, y) -> dict:
    """At initialization: mean vector norm of the stream per layer (0 = input layer; in float64: the residual stack's
    squares pass float32's 3.4e38), the gradient norm of each layer's weight ("grads", layer 1 first; float64 too:
    entries can be ~1e-40) and of the first one's ("grad_first"), and how distinct the points stay at the top
    (spread around their mean / mean norm)."""
    model.zero_grad()
    hs = model.streams(x)
    F.cross_entropy(model.salida(hs[-1]), y).backward()
    top = hs[-1].detach()
    grads = [capa.weight.grad.double().norm().item() for capa in model.capas]  # float32 squares underflow
    out = {"act": [h.detach().double().norm(dim=1).mean().item() for h in hs], "grads": grads, "grad_first": grads[0],
           "distinct": ((top - top.mean(dim=0)).norm(dim=1).mean() / top.norm(dim=1).mean()).item()}
    model.zero_grad(set_to_none=True)
    return out


def backward_factors(model: Stack, x, y) -> dict:
    """At initialization, a LayerNorm-only stack layer by layer (layer 1 first): the σ and the root mean square of the
    stream each LayerNorm reads (per vector, averaged over the batch), and by how much the gradient's norm grows going
    back through that LayerNorm ("norm": ‖∂L/∂h‖ / ‖∂L/∂LN(h)‖) and through the sublayer after it ("sublayer":
    ‖∂L/∂LN(h)‖ / ‖∂L/∂h_next‖). Their product is the layer's factor on the stream's gradient."""
    if not isinstance(model, Stack) or model.variant != "norm":
        got = f"la pila {model.variant!r}" if isinstance(model, Stack) else type(model).__name__
        raise ValueError("model debe ser una pila de solo LayerNorm, helpers.depth.Stack('norm', …): sin residual "
                         f"el gradiente tiene un solo camino y se separa capa por capa; recibí {got}")
    normed = []

    def keep(module, args, out):  # what each LayerNorm hands its sublayer, kept with its gradient
        out.retain_grad()
        normed.append(out)

    hooks = [ln.register_forward_hook(keep) for ln in model.lns]
    try:
        model.zero_grad()
        hs = model.streams(x)
        for h in hs:
            h.retain_grad()
        F.cross_entropy(model.salida(hs[-1]), y).backward()
    finally:
        for hook in hooks:
            hook.remove()
    if len(normed) != len(model.lns):
        raise ValueError(f"la pila llamó a sus LayerNorm {len(normed)} veces en {len(model.lns)} capas: su step debe "
                         "normalizar con ln(h), una vez por capa, como helpers.depth.step")

    def size(t):
        return t.grad.double().norm().item()

    reads = [h.detach().double() for h in hs[:-1]]
    out = {"sigma": [h.std(dim=1, unbiased=False).mean().item() for h in reads],
           "rms": [h.pow(2).mean(dim=1).sqrt().mean().item() for h in reads],
           "norm": [size(h) / size(n) for h, n in zip(hs, normed)],
           "sublayer": [size(n) / size(h) for n, h in zip(normed, hs[1:])]}
    model.zero_grad(set_to_none=True)
    return out


def first_layer_step(model: Stack, x, y, lr: float = 1e-3) -> float:
    """How much one Adam step (``lr``) on the first layer's weight alone changes the output: ‖Δ logits‖ / ‖logits‖.
    The model is left as it was."""
    weight = model.capas[0].weight
    before = weight.detach().clone()
    with torch.no_grad():
        out0 = model(x).double()
    opt = torch.optim.Adam([weight], lr=lr)
    model.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
    with torch.no_grad():
        change = ((model(x).double() - out0).norm() / out0.norm()).item()
        weight.copy_(before)
    model.zero_grad(set_to_none=True)
    return change


def _accuracy(model, x, y) -> float:
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def train(model, data, steps: int = STEPS, lr: float = 1e-3, batch: int = 128, every: int = 20) -> dict:
    """Notebook 02's ``entrenar``: Adam on random batches (their order fixed by seed 0), test accuracy every
    ``every`` steps. ``data`` is (x_train, y_train, x_test, y_test); returns {"step", "loss", "acc"}."""
    x_train, y_train, x_test, y_test = data
    g = torch.Generator().manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    with torch.no_grad():
        hist = {"step": [0], "loss": [F.cross_entropy(model(x_train), y_train).item()],
                "acc": [_accuracy(model, x_test, y_test)]}
    for paso in range(1, steps + 1):
        i = torch.randint(0, len(x_train), (batch,), generator=g)
        loss = F.cross_entropy(model(x_train[i]), y_train[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if paso % every == 0 or paso == steps:
            hist["step"].append(paso)
            hist["loss"].append(loss.item())
            hist["acc"].append(_accuracy(model, x_test, y_test))
    return hist


def load_runs(path: Path = RUNS_PATH) -> dict:
    """The stored runs: {"meta": …, "runs": [{"variant", "init", "seed", "n_layers", "step", "loss", "acc"}, …]}."""
    return json.loads(Path(path).read_text())


def _spirals():
    x_train, y_train = spiral(2000, seed=1)
    x_test, y_test = spiral(2000, seed=2)
    return x_train, y_train, x_test, y_test


def _cli(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=96)
    ap.add_argument("--steps", type=int, default=STEPS)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(RUN_SEEDS))
    ap.add_argument("--out", type=Path, default=RUNS_PATH)
    args = ap.parse_args(argv)
    t0, data, runs = time.perf_counter(), _spirals(), []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for seed in args.seeds:  # seed by seed, the file rewritten after each run: an interrupted run keeps what it trained
        for init in INITS:
            for variant in VARIANTS:
                hist = train(Stack(variant, args.layers, init=init, seed=seed), data, steps=args.steps, every=EVERY)
                runs.append({"variant": variant, "init": init, "seed": seed, "n_layers": args.layers,
                             "step": hist["step"], "loss": [round(v, 4) for v in hist["loss"]],
                             "acc": [round(v, 4) for v in hist["acc"]]})
                meta = {"torch": torch.__version__, "threads": torch.get_num_threads(), "steps": args.steps,
                        "lr": 1e-3, "batch": 128, "every": EVERY, "seconds": round(time.perf_counter() - t0)}
                args.out.write_text(json.dumps({"meta": meta, "runs": runs}, separators=(",", ":")) + "\n")
                print(f"{init:>7} seed {seed} {variant:>8}: acierto {hist['acc'][-1]:.1%} ({meta['seconds']} s)",
                      flush=True)
    print(f"escribí {args.out} en {meta['seconds']} s")


if __name__ == "__main__":
    _cli()
