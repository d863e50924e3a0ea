"""Notebook 05's experiment engine: many independent training runs of the toy task at once.

Runs that share an architecture (placement, depth, sizes) are trained together as one batched model:
every weight gets a leading run axis, the attention and FFN become batched matmuls (bmm), and one Adam
step (torch.optim.Adam's formula, with a learning rate per run) updates them all. Each run keeps its own
initialization (the seed's nn.TransformerEncoder under ``torch.manual_seed(seed)``), its own data stream
and its own warmup, so its numbers match training it alone with the plain loop (``train_reference``) to
float tolerance; tests/test_engine.py checks that. The batched models train side by side, one core each (torch's
thread count says how many), so a run's numbers depend neither on the cores nor on the runs beside it.
"""

from __future__ import annotations

import math
import numbers
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from ._validate import (
    affordable,
    boolean,
    heads_divide,
    non_negative_int,
    one_of,
    positive_float,
    positive_int,
    rng_seed,
    tensor,
)
from .fmt import thousands
from .progress import Progress
from .toydata import ESCAPE_THRESHOLD, _first_escape, count_labels, count_task

__all__ = ["ADAM_EPS", "BATCH", "BETAS", "MAX_STEPS", "BatchedAdam", "BatchedStack", "History", "Run", "stack",
           "token_accuracy", "train_many", "train_reference"]

_RUN_NORMS = ("post", "pre")  # what nn.TransformerEncoderLayer offers (norm_first False / True)
BATCH = 64
MAX_STEPS = 100_000  # one train_many call: about a quarter hour for one 12-layer run on 2 cores
BETAS = (0.9, 0.98)
ADAM_EPS = 1e-8
_CHUNK = 16  # runs trained together in one batched model (measured sweet spot on 2 cores)
_EVAL_CHUNK = 100  # held-out sequences per forward pass when measuring accuracy


def __dir__():
    return __all__


@dataclass(frozen=True)
class Run:
    """One training run: architecture, initialization seed, data stream and learning-rate schedule."""

    norm: str = "post"
    n_layers: int = 12
    seed: int = 0          # initialization: torch.manual_seed(seed) before building the stack
    data_seed: int = 1     # the run's own stream of training batches
    warmup: int = 0        # linear warmup steps (0: constant learning rate)
    lr: float = 1e-3
    d_model: int = 32
    n_heads: int = 4
    d_ff: int = 128
    independent_layers: bool = False  # True: layers 2..L drawn afresh, not copies of layer 1 (see stack)

    def __post_init__(self):
        one_of(self.norm, "norm", _RUN_NORMS)
        positive_int(self.n_layers, "n_layers (la profundidad)")
        rng_seed(self.seed, "seed")
        rng_seed(self.data_seed, "data_seed")
        non_negative_int(self.warmup, "warmup")
        heads_divide(self.d_model, self.n_heads)
        positive_int(self.d_ff, "d_ff")
        object.__setattr__(self, "independent_layers", boolean(self.independent_layers, "independent_layers"))
        object.__setattr__(self, "lr", positive_float(self.lr, "lr"))  # 1 or np.float32(1e-3) mean a float
        affordable(self.training_bytes(), f"Run(n_layers={self.n_layers}, d_model={self.d_model}, d_ff={self.d_ff}) "
                                          "necesitaría para entrenar")

    def training_bytes(self) -> int:
        """About what one run takes to train: float32 weights, gradients and Adam's two moments, and a batch's
        activations (10 tokens) kept for the backward pass."""
        d, f, L = self.d_model, self.d_ff, self.n_layers
        weights = L * (4 * d * d + 2 * d * f + 9 * d + f)
        activations = BATCH * 10 * L * (12 * d + 3 * f)
        return 4 * (4 * weights + activations)

    @property
    def arch(self) -> tuple:
        return (self.norm, self.n_layers, self.d_model, self.n_heads, self.d_ff)

    def lr_at(self, step: int) -> float:
        """Learning rate of optimizer step ``step`` (1-based): linear warmup, then constant."""
        step = positive_int(step, "step (el primer paso es 1)")
        return self.lr * min(1.0, step / self.warmup) if self.warmup else self.lr


def _run(run, name: str = "run") -> Run:
    if not isinstance(run, Run):
        raise TypeError(f"{name} debe ser un Run (por ejemplo helpers.engine.Run('pre', 12, seed=0)); "
                        f"recibí {run!r:.80} ({type(run).__name__})")
    return run


def _runs(runs) -> list[Run]:
    if isinstance(runs, Run):
        raise TypeError("runs debe ser una lista de Run; recibí un solo Run: pasá [run]")
    if isinstance(runs, (str, bytes)) or not hasattr(runs, "__iter__"):
        raise TypeError(f"runs debe ser una lista de Run; recibí {runs!r:.80} ({type(runs).__name__})")
    runs = list(runs)
    if not runs:
        raise ValueError("runs está vacía: pasá al menos un Run, por ejemplo [helpers.engine.Run('pre', 12)]")
    return [_run(r, f"runs[{i}]") for i, r in enumerate(runs)]


def _steps(steps) -> int:
    """A step count that ends in a sitting: at most MAX_STEPS."""
    steps = positive_int(steps, "steps")
    if steps > MAX_STEPS:
        raise ValueError(f"steps={thousands(steps)} tardaría horas o días: se entrena hasta {thousands(MAX_STEPS)} "
                         "pasos por llamada (las corridas del notebook usan de 200 a 1 500).")
    return steps


def _eval_set(eval_set) -> tuple[torch.Tensor, torch.Tensor]:
    """(x, y) of the count task, as helpers.sweep.eval_set() makes it; what would measure nothing is refused."""
    like = "como el de helpers.sweep.eval_set()"
    if not (isinstance(eval_set, (tuple, list)) and len(eval_set) == 2
            and all(isinstance(t, torch.Tensor) for t in eval_set)):
        raise ValueError(f"eval_set debe ser un par (x, y) de tensores, {like}; recibí {type(eval_set).__name__}"
                         + (f" de largo {len(eval_set)}" if isinstance(eval_set, (tuple, list)) else ""))
    x, y = eval_set
    if x.dim() != 2 or x.shape != y.shape:
        raise ValueError(f"eval_set debe ser (x, y) con la misma forma (secuencias, tokens), {like}; recibí x de "
                         f"forma {tuple(x.shape)} e y de forma {tuple(y.shape)}")
    if x.numel() == 0:
        raise ValueError(f"eval_set está vacío (forma {tuple(x.shape)}): el acierto sobre 0 tokens no existe; "
                         f"usá al menos una secuencia, {like}")
    if any(t.is_floating_point() or t.is_complex() or t.dtype == torch.bool for t in (x, y)):
        raise TypeError(f"eval_set debe tener dígitos y etiquetas enteros; recibí x {x.dtype} e y {y.dtype}: "
                        "usá .long()")
    x, y = x.long(), y.long()
    if not torch.equal(count_labels(x), y):
        if torch.equal(count_labels(y), x):
            raise ValueError("eval_set está al revés: es (x, y), primero los dígitos y después las etiquetas; "
                             "recibí (y, x)")
        wrong = int((count_labels(x) != y).sum())
        raise ValueError(f"eval_set: y no son las etiquetas de x en la tarea de contar ({wrong} de {y.numel()} "
                         f"tokens difieren); usá helpers.sweep.eval_set() o helpers.toydata.count_task(n)")
    if int(x.min()) < 0 or int(x.max()) > 9:
        raise ValueError(f"eval_set: x debe tener dígitos de 0 a 9; tiene valores de {int(x.min())} a {int(x.max())}")
    return x, y


def _diverged(name: str, run: Run, step: int, loss: float) -> FloatingPointError:
    return FloatingPointError(f"{name} dio una pérdida de {loss} en el paso {step}: el entrenamiento divergió y sus "
                              f"números ya no significan nada. Probá un lr más chico (tiene lr={run.lr:g}) o un "
                              f"warmup. La corrida: {run}")


def stack(run: Run) -> nn.Sequential:
    """The seed's model: Embedding(10, d) → nn.TransformerEncoder (cloned layers, final LN for pre) → Linear,
    in float32, initialized under torch.manual_seed(run.seed); the caller's random state is left as it was.
    With ``run.independent_layers``, layers 2..L are built afresh (PyTorch's own init), each with its own draw."""
    _run(run)
    f32 = {"dtype": torch.float32}

    def layer():
        return nn.TransformerEncoderLayer(run.d_model, run.n_heads, run.d_ff, dropout=0.0, batch_first=True,
                                          norm_first=run.norm == "pre", **f32)

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(run.seed)
        enc = nn.TransformerEncoder(layer(), run.n_layers, enable_nested_tensor=False,
                                    norm=nn.LayerNorm(run.d_model, **f32) if run.norm == "pre" else None)
        model = nn.Sequential(nn.Embedding(10, run.d_model, **f32), enc, nn.Linear(run.d_model, 10, **f32))
        if run.independent_layers:  # after everything else, so layer 1, embedding and output stay the seed's
            for i in range(1, run.n_layers):
                enc.layers[i] = layer()
        return model


def token_accuracy(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Fraction of tokens whose argmax equals the label, over the (batch, tokens) axes: one value per run."""
    tensor(logits, "logits", "(..., batch, tokens, clases)")
    tensor(y, "y", "(..., batch, tokens)")
    if not logits.is_floating_point():
        raise TypeError(f"logits debe tener puntajes float, uno por clase; recibí {logits.dtype}")
    if y.is_floating_point() or y.is_complex() or y.dtype == torch.bool:
        raise TypeError(f"y debe tener etiquetas enteras (0, 1, ...); recibí {y.dtype}: usá y.long()")
    lead = tuple(logits.shape[:-1])
    if logits.dim() < 3 or y.dim() < 2 or y.dim() > len(lead) or lead[-y.dim():] != tuple(y.shape):
        raise ValueError(f"las formas de logits {tuple(logits.shape)} y de y {tuple(y.shape)} no encajan: y debe ser "
                         "(batch, tokens), con ejes de corridas adelante si hay, y logits la forma de y (con todos "
                         "sus ejes de corridas) más un último eje con un puntaje por clase")
    if y.numel() == 0:
        raise ValueError(f"y está vacío (forma {tuple(y.shape)}): el acierto sobre 0 tokens no existe")
    classes = logits.shape[-1]
    if int(y.min()) < 0 or int(y.max()) >= classes:
        raise ValueError(f"y tiene etiquetas entre {int(y.min())} y {int(y.max())}, y logits tiene {classes} clases: "
                         f"cada etiqueta debe ir de 0 a {classes - 1}")
    if not torch.isfinite(logits).all():
        raise ValueError("logits tiene nan o infinitos: un acierto con ellos no dice nada (el argmax de nan es "
                         "arbitrario); ¿divergió el entrenamiento?")
    return (logits.argmax(-1) == y).float().flatten(-2).mean(-1)


@dataclass
class History:
    """What one run measured: held-out accuracy at each evaluation step, training loss at each step."""

    run: Run
    steps: list[int] = field(default_factory=list)
    acc: list[float] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)

    def escape_step(self, threshold: float = ESCAPE_THRESHOLD) -> int | None:
        """First evaluation step with accuracy >= threshold (leaving the plateau), None if never."""
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 < threshold <= 1:
            raise ValueError(f"threshold debe ser un acierto entre 0 y 1 (0.6 es 60 %); recibí {threshold!r}")
        return _first_escape(self.steps, self.acc, threshold)


def train_reference(run: Run, steps: int, eval_set: tuple, eval_every: int = 25) -> History:
    """The plain loop, one model at a time: nn.TransformerEncoder + torch.optim.Adam (the yardstick)."""
    _run(run)
    steps, eval_every = _steps(steps), positive_int(eval_every, "eval_every")
    eval_set = _eval_set(eval_set)
    model = stack(run)
    opt = torch.optim.Adam(model.parameters(), lr=run.lr, betas=BETAS, eps=ADAM_EPS)
    gen = torch.Generator().manual_seed(run.data_seed)
    hist = History(run)
    ex, ey = eval_set
    for step in range(1, steps + 1):
        for group in opt.param_groups:
            group["lr"] = run.lr_at(step)
        x, y = count_task(BATCH, gen)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.loss.append(loss.item())
        if not math.isfinite(hist.loss[-1]):
            raise _diverged("run", run, step, hist.loss[-1])
        if step % eval_every == 0 or step == steps:
            with torch.no_grad():
                hist.steps.append(step)
                hist.acc.append(token_accuracy(model(ex), ey).item())
    return hist


class _ShortAttention(torch.autograd.Function):
    """softmax(q kᵀ · scale) v for many short sequences, q, k, v (N, T, d_h): the formula of
    F.scaled_dot_product_attention written with bmm, and its backward by hand. PyTorch's CPU kernels are made
    for long sequences: at T = 10 and d_h = 8 its flash kernel and a softmax over a last axis of 10 took 12.1 ms
    per layer forward and backward on 16 runs' 4 096 heads, this 5.6 ms (2 threads, AMD EPYC)."""

    @staticmethod
    def forward(ctx, q, k, v, scale):
        s = torch.bmm(q, k.transpose(1, 2)).mul_(scale)      # (N, T, T)
        s -= s.amax(-1, keepdim=True)
        p = s.exp_()
        p /= p.sum(-1, keepdim=True)
        ctx.save_for_backward(q, k, v, p)
        ctx.scale = scale
        return torch.bmm(p, v)

    @staticmethod
    def backward(ctx, g):
        q, k, v, p = ctx.saved_tensors
        dv = torch.bmm(p.transpose(1, 2), g)
        dp = torch.bmm(g, v.transpose(1, 2))
        ds = dp.sub_((dp * p).sum(-1, keepdim=True)).mul_(p).mul_(ctx.scale)  # softmax's backward, then the scale
        return torch.bmm(ds, k), torch.bmm(ds.transpose(1, 2), q), dv, None


class BatchedStack:
    """R runs of one architecture as stacked tensors; forward is batched over the run axis."""

    def __init__(self, runs: Sequence[Run]):
        self.runs = list(runs)
        archs = {r.arch for r in self.runs}
        if len(archs) != 1:
            raise ValueError(f"runs debe tener corridas de una sola arquitectura (norm, n_layers, d_model, n_heads, "
                             f"d_ff); recibí {sorted(archs)}")
        self.norm, self.n_layers, self.d, self.h, self.d_ff = archs.pop()
        models = [stack(r) for r in self.runs]

        def st(get):  # stack one tensor of every run along a new leading axis
            return torch.stack([get(m).detach() for m in models]).contiguous().requires_grad_(True)

        self.emb = st(lambda m: m[0].weight)                                      # (R, 10, d)
        self.layers = []
        for i in range(self.n_layers):
            def lay(m, i=i):
                return m[1].layers[i]
            self.layers.append({
                "w_qkv": st(lambda m: lay(m).self_attn.in_proj_weight.T),         # (R, d, 3d)
                "b_qkv": st(lambda m: lay(m).self_attn.in_proj_bias),             # (R, 3d)
                "w_o": st(lambda m: lay(m).self_attn.out_proj.weight.T),          # (R, d, d)
                "b_o": st(lambda m: lay(m).self_attn.out_proj.bias),
                "w_1": st(lambda m: lay(m).linear1.weight.T),                     # (R, d, d_ff)
                "b_1": st(lambda m: lay(m).linear1.bias),
                "w_2": st(lambda m: lay(m).linear2.weight.T),                     # (R, d_ff, d)
                "b_2": st(lambda m: lay(m).linear2.bias),
                "g_1": st(lambda m: lay(m).norm1.weight), "n_1": st(lambda m: lay(m).norm1.bias),
                "g_2": st(lambda m: lay(m).norm2.weight), "n_2": st(lambda m: lay(m).norm2.bias),
            })
        self.final = (st(lambda m: m[1].norm.weight), st(lambda m: m[1].norm.bias)) if self.norm == "pre" else ()
        self.w_out = st(lambda m: m[2].weight.T)                                  # (R, d, 10)
        self.b_out = st(lambda m: m[2].bias)

    def parameters(self) -> list[torch.Tensor]:
        ps = [self.emb] + [p for layer in self.layers for p in layer.values()]
        return ps + list(self.final) + [self.w_out, self.b_out]

    @staticmethod
    def _ln(x, g, b):  # LayerNorm over d with a weight and bias per run: x (R, N, d), g (R, d)
        return torch.addcmul(b[:, None], F.layer_norm(x, x.shape[-1:], eps=1e-5), g[:, None])

    def _attention(self, x, p, B, T):
        R, H, dh = x.shape[0], self.h, self.d // self.h
        qkv = torch.baddbmm(p["b_qkv"][:, None], x, p["w_qkv"])                 # (R, B*T, 3d)
        q, k, v = qkv.view(R * B, T, 3, H, dh).permute(2, 0, 3, 1, 4).reshape(3, R * B * H, T, dh)
        a = _ShortAttention.apply(q, k, v, dh**-0.5).view(R * B, H, T, dh)
        a = a.transpose(1, 2).reshape(R, B * T, self.d)
        return torch.baddbmm(p["b_o"][:, None], a, p["w_o"])

    def _ffn(self, x, p):
        hidden = torch.baddbmm(p["b_1"][:, None], x, p["w_1"]).relu_()  # in place: one (R, B*T, d_ff) less
        return torch.baddbmm(p["b_2"][:, None], hidden, p["w_2"])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: (R, B, T) digits → logits (R, B, T, 10)."""
        R, B, T = x.shape
        h = torch.gather(self.emb, 1, x.reshape(R, B * T, 1).expand(R, B * T, self.d))  # (R, B*T, d)
        for p in self.layers:
            if self.norm == "post":
                h = self._ln(h + self._attention(h, p, B, T), p["g_1"], p["n_1"])
                h = self._ln(h + self._ffn(h, p), p["g_2"], p["n_2"])
            else:
                h = h + self._attention(self._ln(h, p["g_1"], p["n_1"]), p, B, T)
                h = h + self._ffn(self._ln(h, p["g_2"], p["n_2"]), p)
        if self.final:
            h = self._ln(h, *self.final)
        return torch.baddbmm(self.b_out[:, None], h, self.w_out).view(R, B, T, 10)


def _step_sizes(lr, runs: int) -> torch.Tensor:
    """``lr`` as a float64 (runs,) tensor of finite learning rates >= 0, or a Spanish error saying which is off."""
    try:
        rates = torch.as_tensor(lr, dtype=torch.float64).detach().cpu()
    except (TypeError, ValueError, RuntimeError):
        raise TypeError(f"lr debe tener un learning rate (un número) por corrida; recibí {lr!r:.80}") from None
    if rates.shape != (runs,):
        raise ValueError(f"lr debe tener {runs} learning rates, uno por corrida; recibí forma {tuple(rates.shape)}")
    bad = ~torch.isfinite(rates) | (rates < 0)
    if bad.any():
        i = int(bad.nonzero()[0])
        raise ValueError(f"lr debe tener learning rates finitos y >= 0; el de la corrida {i} es {rates[i].item()!r}")
    return rates


def _run_params(params) -> list[torch.Tensor]:
    """A non-empty list of tensors that share the leading run axis."""
    if isinstance(params, (torch.Tensor, str, bytes)) or not hasattr(params, "__iter__"):
        hint = ": para uno solo, pasá [tensor]" if isinstance(params, torch.Tensor) else ""
        raise TypeError(f"params debe ser una lista de tensores con un eje de corridas adelante (como "
                        f"BatchedStack.parameters()); recibí {type(params).__name__}{hint}")
    params = list(params)
    if not params:
        raise ValueError("params está vacía: pasá los tensores que se entrenan, por ejemplo BatchedStack.parameters()")
    for i, p in enumerate(params):
        if not isinstance(p, torch.Tensor) or p.dim() == 0:
            raise TypeError(f"params[{i}] debe ser un tensor con un eje de corridas adelante; recibí "
                            f"{type(p).__name__}" + (" de forma ()" if isinstance(p, torch.Tensor) else ""))
        if p.shape[0] != params[0].shape[0]:
            raise ValueError(f"params[{i}] tiene {p.shape[0]} corridas (su primer eje) y params[0] tiene "
                             f"{params[0].shape[0]}: todos los tensores deben tener las mismas corridas")
    return params


class BatchedAdam:
    """torch.optim.Adam's CPU update with one learning rate per run (leading axis of every parameter).

    The same operations on the same values in the same order as torch's single-tensor Adam (its CPU
    default): the step size lr / (1 - beta1^t) is computed in float64 and rounded once to float32, as torch
    rounds its Python-float ``value``. Given the same gradients, the parameters are equal bit for bit
    (tests/test_engine.py); what differs from the plain loop is the batched forward/backward only.
    """

    def __init__(self, params: list[torch.Tensor]):
        self.params = _run_params(params)
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]
        self.t = 0

    @torch.no_grad()
    def step(self, lr: Sequence[float] | torch.Tensor) -> None:
        """lr: this step's learning rate of each run, (R,) Python floats or a tensor."""
        lr = _step_sizes(lr, self.params[0].shape[0])
        missing = next((i for i, p in enumerate(self.params) if p.grad is None), None)
        if missing is not None:
            raise ValueError(f"params[{missing}] no tiene gradiente (su .grad es None): corré loss.backward() antes de "
                             "cada step; si ese parámetro no entra en la pérdida, no lo pases al optimizador")
        self.t += 1
        b1, b2 = BETAS
        bc1, bc2 = 1 - b1**self.t, 1 - b2**self.t
        grads = [p.grad for p in self.params]
        torch._foreach_lerp_(self.m, grads, 1 - b1)
        torch._foreach_mul_(self.v, b2)
        torch._foreach_addcmul_(self.v, grads, grads, 1 - b2)
        denom = torch._foreach_sqrt(self.v)
        torch._foreach_div_(denom, bc2**0.5)
        torch._foreach_add_(denom, ADAM_EPS)
        neg_step = (-lr / bc1).to(self.params[0].dtype)  # (R,)
        for p, m, d in zip(self.params, self.m, denom):
            p.addcdiv_(m * neg_step.view(-1, *([1] * (p.dim() - 1))), d)
        for p in self.params:
            p.grad = None


def train_many(runs: Sequence[Run], steps: int, eval_set: tuple, eval_every: int = 25,
               progress: Callable[[str], None] | None = None, show_progress: bool = False) -> list[History]:
    """Train every run for ``steps`` steps; runs of one architecture share each batched step.
    Returns one History per run, in the order given. ``progress`` gets one line per group of runs;
    ``show_progress`` draws a helpers.progress line (step, total, time left) for a notebook cell."""
    runs = _runs(runs)
    steps, eval_every = _steps(steps), positive_int(eval_every, "eval_every")
    affordable(sum(r.training_bytes() for r in runs), f"entrenar juntas las {thousands(len(runs))} corridas")
    show_progress = boolean(show_progress, "show_progress")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress debe ser una función que reciba un texto (por ejemplo print) o None; recibí "
                        f"{progress!r:.80} ({type(progress).__name__}). Para la línea de avance usá show_progress=True")
    eval_set = _eval_set(eval_set)  # everything is checked before the first step: nothing trains and then fails
    hists = {i: History(r) for i, r in enumerate(runs)}
    threads = torch.get_num_threads()
    # built here, one after the other: each model is drawn from torch's global generator under its seed
    groups = [_Group(runs, idx, hists, g) for g, idx in enumerate(_groups(runs, threads))]
    bar = Progress(steps * len(groups), "entrenando") if show_progress else None
    events: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    torch.set_num_threads(1)  # one core per group, the groups side by side
    try:
        with ThreadPoolExecutor(threads) as pool:
            jobs = [pool.submit(g.train, steps, eval_every, eval_set, events, stop) for g in groups]
            try:
                _follow(groups, jobs, events, steps, bar, progress)
            except BaseException:  # a group failed, or Ctrl+C: the others stop at their next step
                stop.set()
                raise
    finally:
        torch.set_num_threads(threads)
    if bar:
        bar.close()
    return [hists[i] for i in range(len(runs))]


def _follow(groups: list[_Group], jobs: list, events: queue.SimpleQueue, steps: int, bar: Progress | None,
            progress: Callable[[str], None] | None) -> None:
    """In the caller's thread, while the groups train: the progress line, a line per group that ends, and the first
    group's error as soon as it fails."""
    done = finished = 0
    while finished < len(groups):
        try:
            kind, g = events.get(timeout=0.2)  # a timeout, so that Ctrl+C reaches this thread
        except queue.Empty:
            continue
        if kind == "failed":
            jobs[g].result()  # raises the group's error
        elif kind == "step":
            done += 1
            if bar:
                bar.update(done)
        else:
            finished += 1
            if progress:
                norm, n_layers = groups[g].model.norm, groups[g].model.n_layers
                progress(f"grupo {g + 1}/{len(groups)} ({norm}-norm, {n_layers} capas, {len(groups[g].idx)} corridas): "
                         f"{steps} pasos en {groups[g].seconds:.0f} s")


def _groups(runs: list[Run], workers: int) -> list[list[int]]:
    """Run indices per batched model: runs of one architecture together, in chunks of at most _CHUNK runs (past ~16
    the batched matmuls stop getting faster per run here); while there are fewer chunks than workers, the largest is
    halved, so that every core trains one (16 runs on 2 cores: two groups of 8)."""
    by_arch: dict[tuple, list[int]] = {}
    for i, r in enumerate(runs):
        by_arch.setdefault(r.arch, []).append(i)
    chunks = [idx[c:c + _CHUNK] for idx in by_arch.values() for c in range(0, len(idx), _CHUNK)]
    while len(chunks) < workers and max(map(len, chunks)) > 1:
        big = max(chunks, key=len)
        at = chunks.index(big)
        chunks[at:at + 1] = [big[:(len(big) + 1) // 2], big[(len(big) + 1) // 2:]]
    return chunks


@torch.no_grad()
def _held_out_accuracy(model: BatchedStack, ex: torch.Tensor, ey: torch.Tensor) -> list[float]:
    """Each run's token accuracy on the held-out set, its sequences _EVAL_CHUNK at a time: the same argmaxes as one
    forward pass over all of them, in half the time (500 sequences of 16 runs at once spent it on fresh memory)."""
    preds = [model.forward(x.expand(len(model.runs), *x.shape)).argmax(-1) for x in ex.split(_EVAL_CHUNK)]
    return (torch.cat(preds, 1) == ey).float().flatten(-2).mean(-1).tolist()


class _Group:
    """Runs ``idx`` of ``runs`` trained together, one batched step for all, appending to their histories."""

    def __init__(self, runs: list[Run], idx: list[int], hists: dict, number: int):
        self.idx, self.hists, self.number = idx, hists, number
        self.runs = [runs[i] for i in idx]
        self.model = BatchedStack(self.runs)
        self.opt = BatchedAdam(self.model.parameters())
        self.gens = [torch.Generator().manual_seed(r.data_seed) for r in self.runs]
        self.seconds = 0.0

    def train(self, steps: int, eval_every: int, eval_set: tuple, events: queue.SimpleQueue,
              stop: threading.Event) -> None:
        """All the steps, in a worker thread; ``events`` hears of each step and of the end, ``stop`` ends it early."""
        g = self.number
        try:
            t0 = time.perf_counter()
            for step in range(1, steps + 1):
                if stop.is_set():
                    return
                self.step(step, eval_every, steps, eval_set)
                events.put(("step", g))
            self.seconds = time.perf_counter() - t0
            events.put(("done", g))
        except BaseException:
            events.put(("failed", g))
            raise

    def step(self, step: int, eval_every: int, steps: int, eval_set: tuple) -> None:
        ex, ey = eval_set
        batches = [count_task(BATCH, gen) for gen in self.gens]
        x = torch.stack([b[0] for b in batches])
        y = torch.stack([b[1] for b in batches])
        logits = self.model.forward(x)
        # sum over runs of each run's mean loss: every run gets exactly its own gradient
        losses = F.cross_entropy(logits.flatten(0, 2), y.flatten(), reduction="none").view(len(self.runs), -1).mean(1)
        losses.sum().backward()
        self.opt.step([r.lr_at(step) for r in self.runs])
        for i, run, loss in zip(self.idx, self.runs, losses.tolist()):
            if not math.isfinite(loss):
                raise _diverged(f"runs[{i}]", run, step, loss)
            self.hists[i].loss.append(loss)
        if step % eval_every == 0 or step == steps:
            for i, a in zip(self.idx, _held_out_accuracy(self.model, ex, ey)):
                self.hists[i].steps.append(step)
                self.hists[i].acc.append(a)
