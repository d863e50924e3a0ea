"""Notebook 04b's mask experiment: two identical GPTs (helpers.blocks.GPT, pre-norm) on the toy grammar,
one trained without the causal mask, both measured as a model is used (with the mask).

The two are trained side by side: every weight of both gets a leading run axis and one batched step trains both,
on the same batches, from the same initialization (one GPT built under ``torch.manual_seed(seed)``). Adam is
elementwise, so one torch.optim.Adam over the stacked weights is each run's own Adam. tests/test_mask_experiment.py
checks the batched forward against helpers.blocks.GPT.

    python -m helpers.mask_experiment      # the stored sweep, helpers/data/mask_sweep.json (`make sweep-mask`)
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path

import torch
import torch.nn.functional as F

from . import grammar
from ._validate import boolean, positive_int, rng_seed
from .blocks import GPT
from .progress import Progress

__all__ = ["Pair", "build_gpt", "eval_sequences", "loss_at_use", "next_word_probs", "recipe", "stored_runs",
           "train_pair"]

_D_MODEL, _N_LAYERS, _N_HEADS = 32, 2, 2
_OPTIMIZER, _BATCH, _LR, _N_SENTENCES = torch.optim.Adam, 32, 3e-3, 3   # 3 sentences: 16 words, 15 predicted
_EMBEDDING_STD = 0.02                           # for the token and the position embeddings here
_GPT2_EMBEDDING_STD = {"tokens": 0.02, "positions": 0.01}  # OpenAI's gpt-2 src/model.py: wte stddev 0.02, wpe 0.01
_STEPS, _EVAL_EVERY, _SEEDS = 4000, 50, (0, 1, 2)
_BATCH_SEED = 10_000                            # run `seed` draws its batches from a generator seeded 10_000 + seed
_EVAL_SEED, _EVAL_N = 999, 256                  # the sequences every curve is measured on (freshly drawn, not unseen)
_CTX = 5 * _N_SENTENCES                         # learned positions for the 15 inputs
_FILE = "data/mask_sweep.json"
_DATA = Path(__file__).parent / _FILE


def __dir__():
    return __all__


def build_gpt(seed: int = 0) -> GPT:
    """The experiment's GPT (embeddings drawn as GPT-2's), initialized under ``torch.manual_seed(seed)``; the
    caller's random state is kept."""
    seed = rng_seed(seed, "seed")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = GPT(len(grammar.WORDS), _D_MODEL, _N_LAYERS, ctx=_CTX, n_heads=_N_HEADS)
        with torch.no_grad():  # 0.02, GPT-2's for its tokens (0.01 for positions): nn.Embedding's 1 gives logits of ~d
            model.tok.weight.normal_(0, _EMBEDDING_STD)
            model.pos.weight.normal_(0, _EMBEDDING_STD)
        return model


def recipe() -> dict:
    """How train_pair trains and measures (optimizer, learning rate, batch, embedding std, sentences per sequence,
    evaluation), the stored sweep's steps and seeds, and GPT-2's embedding stds beside ours: what 04b prints."""
    return {"optimizer": _OPTIMIZER.__name__, "lr": _LR, "batch": _BATCH, "embedding_std": _EMBEDDING_STD,
            "gpt2_embedding_std": dict(_GPT2_EMBEDDING_STD),
            "n_sentences": _N_SENTENCES, "eval_every": _EVAL_EVERY, "eval_n": _EVAL_N, "eval_seed": _EVAL_SEED,
            "batch_seed": _BATCH_SEED, "steps": _STEPS, "seeds": list(_SEEDS)}


def eval_sequences() -> torch.Tensor:
    """The sequences every loss at use is measured on: freshly drawn, not held out (3 sentences of 8 make only
    8**3 = 512 sequences, and training draws thousands)."""
    return grammar.sample(_EVAL_N, _N_SENTENCES, torch.Generator().manual_seed(_EVAL_SEED))


@torch.no_grad()
def loss_at_use(model: GPT, seqs: torch.Tensor) -> float:
    """Mean cross-entropy (nats per word) of predicting each next word with the causal mask, as when writing."""
    logits = model(seqs[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), seqs[:, 1:].flatten()).item()


@torch.no_grad()
def next_word_probs(model: GPT, seqs: torch.Tensor, causal: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """Each place's probabilities for the next word, (N, T-1, V), and the word that does come next, (N, T-1); with
    the mask unless ``causal=False`` (the future in sight, as the unmasked GPT trains)."""
    return model(seqs[:, :-1], causal=causal).softmax(-1), seqs[:, 1:]


class Pair:
    """R copies of one GPT's weights on a leading run axis; run r attends with the mask iff ``causal[r]``."""

    def __init__(self, model: GPT, causal: tuple[bool, ...]):
        self.causal = torch.tensor([boolean(c, "causal") for c in causal])
        self.h, self.n_layers = model.blocks[0].attn.num_heads, len(model.blocks)
        state = dict(model.named_parameters())
        self.p = {n: w.detach()[None].repeat(len(causal), *[1] * w.dim()).requires_grad_(True)
                  for n, w in state.items()}

    def parameters(self) -> list[torch.Tensor]:
        return list(self.p.values())

    def model(self, r: int, seed: int = 0) -> GPT:
        """Run r's weights in a fresh helpers.blocks.GPT (eval mode), without the run axis."""
        model = build_gpt(seed)
        with torch.no_grad():
            for name, w in model.named_parameters():
                w.copy_(self.p[name][r])
        return model.eval()

    def _ln(self, x, name):  # LayerNorm with each run's gain and bias: x (R, N, d)
        return torch.addcmul(self.p[name + ".bias"][:, None], F.layer_norm(x, x.shape[-1:]),
                             self.p[name + ".weight"][:, None])

    def _lin(self, x, w, b):  # x (R, N, i) @ w (R, o, i).T + b (R, o)
        return torch.baddbmm(self.p[b][:, None], x, self.p[w].transpose(1, 2))

    def forward(self, idx: torch.Tensor, causal: bool | None = None) -> torch.Tensor:
        """idx (R, B, T) → logits (R, B, T, V); ``causal`` overrides every run's mask (True: as when writing)."""
        R, B, T = idx.shape
        emb = self.p["tok.weight"]                                              # (R, V, d)
        x = torch.gather(emb, 1, idx.reshape(R, B * T, 1).expand(-1, -1, emb.shape[-1]))
        x = (x.view(R, B, T, -1) + self.p["pos.weight"][:, None, :T]).view(R, B * T, -1)   # (R, B*T, d)
        cz = self.causal if causal is None else torch.full((R,), causal)
        allowed = ~torch.ones(T, T, dtype=torch.bool).triu(1) | ~cz[:, None, None]   # (R, T, T), True = may look
        allowed = allowed[:, None, None].expand(R, B, 1, T, T).reshape(R * B, 1, T, T)
        for i in range(self.n_layers):
            b = f"blocks.{i}."
            qkv = self._lin(self._ln(x, b + "ln1"), b + "attn.in_proj_weight", b + "attn.in_proj_bias")
            q, k, v = qkv.view(R * B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)  # each (R*B, H, T, dh)
            a = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
            x = x + self._lin(a.transpose(1, 2).reshape(R, B * T, -1), b + "attn.out_proj.weight",
                              b + "attn.out_proj.bias")
            f = F.gelu(self._lin(self._ln(x, b + "ln2"), b + "ffn.0.weight", b + "ffn.0.bias"))
            x = x + self._lin(f, b + "ffn.3.weight", b + "ffn.3.bias")
        return torch.bmm(self._ln(x, "ln_f"), emb.transpose(1, 2)).view(R, B, T, -1)   # tied output


def _loss(logits, seqs):  # (R, B, T, V), (R, B, T+1) → each run's mean loss, (R,)
    return F.cross_entropy(logits.flatten(0, 2), seqs[..., 1:].flatten(), reduction="none") \
        .view(logits.shape[0], -1).mean(1)


def train_pair(steps: int = _STEPS, seed: int = 0, eval_every: int = _EVAL_EVERY, show_progress: bool = False) -> dict:
    """Train the masked and the unmasked GPT side by side; their losses: in training (each as it trains, every
    step) and at use (with the mask, on eval_sequences(), every ``eval_every`` steps); and the two trained GPTs."""
    steps, seed = positive_int(steps, "steps"), rng_seed(seed, "seed")
    if _BATCH_SEED + seed >= 2**64:  # run `seed` draws its batches from a generator seeded _BATCH_SEED + seed
        raise ValueError(f"seed debe ser menor que 2**64 − {_BATCH_SEED}: los lotes de la corrida usan la semilla "
                         f"{_BATCH_SEED} + seed, y torch no acepta semillas desde 2**64; recibí {seed}")
    eval_every = positive_int(eval_every, "eval_every")
    pair = Pair(build_gpt(seed), (True, False))
    opt = _OPTIMIZER(pair.parameters(), lr=_LR)
    gen, ev = torch.Generator().manual_seed(_BATCH_SEED + seed), eval_sequences()
    out = {"seed": seed, "steps": [], "use": {"masked": [], "unmasked": []},
           "train": {"masked": [], "unmasked": []}}
    bar = Progress(steps, "entrenando") if show_progress else None
    for step in range(1, steps + 1):
        seqs = grammar.sample(_BATCH, _N_SENTENCES, gen).expand(2, -1, -1)      # the same batch for both
        losses = _loss(pair.forward(seqs[..., :-1]), seqs)
        opt.zero_grad()
        losses.sum().backward()                                                # each run gets its own gradient
        opt.step()
        for name, v in zip(("masked", "unmasked"), losses.tolist()):
            out["train"][name].append(v)
        if step % eval_every == 0 or step == steps:
            with torch.no_grad():
                use = _loss(pair.forward(ev[..., :-1].expand(2, -1, -1), causal=True), ev.expand(2, -1, -1))
            out["steps"].append(step)
            for name, v in zip(("masked", "unmasked"), use.tolist()):
                out["use"][name].append(v)
        if bar:
            bar.update(step)
    if bar:
        bar.close()
    out["models"] = {name: pair.model(r, seed) for r, name in enumerate(("masked", "unmasked"))}
    return out


def stored_runs(path: str | Path | None = None) -> dict:
    """The stored sweep: {'meta': ..., 'runs': [train_pair results, rounded]}."""
    source = resources.files("helpers").joinpath(_FILE) if path is None else Path(path)
    data = json.loads(source.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list) or not data["runs"]:
        raise ValueError(f"{source} está dañado: esperaba un objeto con 'meta' y 'runs'. Regeneralo con "
                         "`python -m helpers.mask_experiment`.")
    return data


def _rounded(run: dict, every: int = 10) -> dict:
    """What the file keeps of a run: losses at use, and the training loss averaged over blocks of ``every`` steps."""
    def mean_blocks(v):
        return [round(sum(v[i:i + every]) / len(v[i:i + every]), 4) for i in range(0, len(v), every)]
    return {"seed": run["seed"], "steps": run["steps"],
            "use": {k: [round(x, 4) for x in v] for k, v in run["use"].items()},
            "train_every": every, "train": {k: mean_blocks(v) for k, v in run["train"].items()}}


def _one(seed: int, steps: int) -> tuple[dict, float]:
    t = time.perf_counter()
    return _rounded(train_pair(steps, seed)), time.perf_counter() - t


def _write(out: Path, runs: list[dict], meta: dict) -> None:
    runs = sorted(runs, key=lambda r: r["seed"])
    meta = {**meta, "seeds": [r["seed"] for r in runs], "d_model": _D_MODEL, "n_layers": _N_LAYERS, "n_heads": _N_HEADS,
            **{k: v for k, v in recipe().items() if k not in ("steps", "seeds")},
            "entropy": grammar.entropy_per_word(), "torch": torch.__version__,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),  # its kernels: trained digits move with them
            "command": "python -m helpers.mask_experiment"}
    out.write_text(json.dumps({"meta": meta, "runs": runs}) + "\n", encoding="utf-8")
    print(f"escrito {out}")


def _cli(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=_STEPS)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(_SEEDS))
    ap.add_argument("--jobs", type=int, default=1, help="seeds trained at once, one process (and thread) each")
    ap.add_argument("--merge", type=Path, nargs="+", help="files written by --seeds runs: join them into --out")
    ap.add_argument("--out", type=Path, default=_DATA)
    args = ap.parse_args(argv)
    if args.merge:
        parts = [stored_runs(p) for p in args.merge]
        steps = {p["meta"]["steps"] for p in parts}
        if len(steps) != 1:
            raise SystemExit(f"los archivos tienen distintos pasos: {sorted(steps)}")
        _write(args.out, [r for p in parts for r in p["runs"]],
               {"steps": steps.pop(), "seconds": sum(p["meta"]["seconds"] for p in parts)})
        return
    t0 = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=torch.set_num_threads, initargs=(1,)) as pool:
            done = list(pool.map(_one, args.seeds, [args.steps] * len(args.seeds)))
    else:
        done = [_one(seed, args.steps) for seed in args.seeds]
    for run, seconds in done:
        run["seconds"] = round(seconds)
        print(f"semilla {run['seed']}: {args.steps} pasos en {seconds:.0f} s; a la hora de usar, con máscara "
              f"{run['use']['masked'][-1]:.3f}, sin máscara {run['use']['unmasked'][-1]:.3f}")
    _write(args.out, [r for r, _ in done], {"steps": args.steps, "seconds": round(time.perf_counter() - t0)})


if __name__ == "__main__":
    _cli()
