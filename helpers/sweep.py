"""Notebook 05's full sweep (seeds x placements x depths x warmups), run with the engine.

    python -m helpers.sweep            # regenerates helpers/data/norm_sweep.json (about 20 min on 2 idle cores)
    python -m helpers.sweep --only depth6   # one slice, printed, nothing written
    python -m helpers.sweep --add warmup24  # one slice, trained and merged into the file (its time in meta)

The results ship inside the package, so the notebook loads them on Colab too.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import torch

from . import engine
from ._checks import one_of, positive_int
from .toydata import count_task

DATA = Path(__file__).parent / "data" / "norm_sweep.json"
EVAL_SEED, EVAL_N, EVAL_EVERY = 12345, 500, 25
SEEDS = (0, 1, 2, 3, 4)

# name -> (runs, steps)
SLICES = {
    "curves12": ([engine.Run(norm, 12, seed=s) for norm in ("post", "pre") for s in SEEDS], 1500),
    "depth6": ([engine.Run(norm, 6, seed=s) for norm in ("post", "pre") for s in SEEDS[:3]], 1500),
    "depth24": ([engine.Run(norm, 24, seed=s) for norm in ("post", "pre") for s in SEEDS[:3]], 1500),
    "warmup12": ([engine.Run("post", 12, seed=s, warmup=w) for w in (50, 100, 200, 400) for s in SEEDS[:3]],
                 1500),
    # added later (--add): does warmup rescue post-norm at 24 layers, where it never leaves the plateau?
    "warmup24": ([engine.Run("post", 24, seed=s, warmup=w) for w in (50, 100, 200, 400) for s in SEEDS[:3]],
                 1500),
    # added later (--add): curves12 again with independently initialised layers (nn.TransformerEncoder copies
    # its layer, so every other slice starts with L identical layers); not shown by the explorer
    "independent12": ([engine.Run(norm, 12, seed=s, independent_layers=True) for norm in ("post", "pre")
                       for s in SEEDS], 1500),
}



def eval_set() -> tuple[torch.Tensor, torch.Tensor]:
    """The held-out sequences every run of the sweep is measured on."""
    return count_task(EVAL_N, torch.Generator().manual_seed(EVAL_SEED))


def to_json(hist: engine.History) -> dict:
    r = hist.run
    out = {"norm": r.norm, "n_layers": r.n_layers, "seed": r.seed, "data_seed": r.data_seed,
           "warmup": r.warmup, "lr": r.lr, "steps": hist.steps, "acc": [round(a, 4) for a in hist.acc]}
    if r.independent_layers:  # written only when set: the runs with copied layers keep their old record
        out["independent_layers"] = True
    return out


def run_slice(name: str, steps: int | None = None, progress=print) -> list[dict]:
    """Train one slice with the engine; ``steps`` shortens it (for tests)."""
    if not isinstance(name, str) or name not in SLICES:
        raise ValueError(f"slice desconocida {name!r}; las hay: {sorted(SLICES)}")
    runs, full = SLICES[name]
    steps = full if steps is None else positive_int(steps, "steps")
    hists = engine.train_many(runs, steps, eval_set(), eval_every=EVAL_EVERY, progress=progress)
    return [to_json(h) for h in hists]


def load() -> dict:
    """The committed sweep results: {'meta': ..., 'slices': {name: [run dicts]}}."""
    text = resources.files("helpers").joinpath("data/norm_sweep.json").read_text(encoding="utf-8")
    return json.loads(text)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(SLICES), help="one slice, printed, nothing written")
    ap.add_argument("--add", choices=sorted(SLICES), help="one slice, trained and merged into --out")
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.only:
        print(json.dumps(run_slice(args.only), indent=1))
        return
    if args.add:
        data = json.loads(args.out.read_text(encoding="utf-8"))
        data["slices"][args.add] = run_slice(args.add, progress=print)
        data["meta"].setdefault("added", {})[args.add] = {
            "torch": torch.__version__, "threads": torch.get_num_threads(), "seconds": round(time.perf_counter() - t0)}
        args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"agregué {args.add} a {args.out} en {data['meta']['added'][args.add]['seconds']} s")
        return
    slices = {name: run_slice(name) for name in SLICES}
    meta = {"torch": torch.__version__, "threads": torch.get_num_threads(), "eval_n": EVAL_N,
            "eval_seed": EVAL_SEED, "eval_every": EVAL_EVERY, "batch": engine.BATCH,
            "seconds": round(time.perf_counter() - t0)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "slices": slices}, separators=(",", ":")) + "\n")
    print(f"escribí {args.out} en {meta['seconds']} s")


if __name__ == "__main__":
    main()


# ------------------------------------------------------------------------------------ the explorer
DEPTHS = (6, 12, 24)
WARMUPS = (0, 50, 100, 200, 400)
PLACEMENTS = {"post": ("post",), "pre": ("pre",), "ambas": ("post", "pre")}
THRESHOLD = 0.6        # "salir de la meseta": the first evaluation with accuracy >= 60 %
BASELINE = 0.9 ** 9    # accuracy of always answering "0" on the count task


@dataclass(frozen=True)
class Curve:
    """One run of the sweep as the explorer shows it."""

    norm: str
    n_layers: int
    warmup: int
    seed: int
    steps: tuple
    acc: tuple
    escape: int | None      # first step with acc >= THRESHOLD; None: it never left the plateau

    def sentence(self) -> str:
        where = f"sale en el paso {self.escape}" if self.escape is not None else (
            f"no salió en {self.steps[-1]:,} pasos".replace(",", " "))
        return f"{self.norm}-norm, semilla {self.seed}: {where} (acierto final {self.acc[-1]:.0%})"


@dataclass(frozen=True)
class Exploration:
    """What the explorer shows for one choice of depth, placement, warmup and seed."""

    depth: int
    norm: str
    warmup: int
    seed: int | None
    curves: tuple
    missing: tuple      # one plain sentence per placement asked for that the sweep never ran

    def lines(self) -> list[str]:
        return [c.sentence() for c in self.curves] + list(self.missing)


def _escape(steps, acc, threshold=THRESHOLD):
    return next((s for s, a in zip(steps, acc) if a >= threshold), None)


def _seeds_text(seeds) -> str:
    seeds = sorted(seeds)
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"semillas {seeds[0]} a {seeds[-1]}"
    return ("semilla " if len(seeds) == 1 else "semillas ") + ", ".join(map(str, seeds))


def _warmup_text(w: int) -> str:
    return "sin warmup" if w == 0 else f"warmup {w}"


def available(data: dict | None = None) -> dict:
    """{(depth, norm, warmup): sorted seeds} over every run of the sweep."""
    data = load() if data is None else data
    found: dict = {}
    for runs in data["slices"].values():
        for r in runs:
            if r.get("independent_layers"):  # the explorer shows the runs with PyTorch's copied layers
                continue
            found.setdefault((r["n_layers"], r["norm"], r["warmup"]), set()).add(r["seed"])
    return {k: sorted(v) for k, v in found.items()}


def explore(depth: int, norm: str = "ambas", warmup: int = 0, seed="todas", data: dict | None = None
            ) -> Exploration:
    """The sweep's runs for one depth (6, 12, 24), placement ('post', 'pre', 'ambas'), warmup and seed
    ('todas' or a number), each with its escape step; a plain sentence for what the sweep never ran."""
    for name, value in (("depth (capas)", depth), ("warmup", warmup), ("seed (semilla)", seed)):
        if isinstance(value, bool):
            raise TypeError(f"{name} debe ser un número; recibí {value!r}")
    depth = one_of(depth, "depth (capas)", DEPTHS)
    norm = one_of(norm, "norm", tuple(PLACEMENTS))
    warmup = one_of(warmup, "warmup", WARMUPS)
    if seed != "todas":
        seed = one_of(seed, "seed (semilla)", SEEDS)
    data = load() if data is None else data
    have = available(data)
    curves, missing = [], []
    for n in PLACEMENTS[norm]:
        runs = [r for part in data["slices"].values() for r in part if not r.get("independent_layers")
                and (r["n_layers"], r["norm"], r["warmup"]) == (depth, n, warmup) and seed in ("todas", r["seed"])]
        runs.sort(key=lambda r: r["seed"])
        for r in runs:
            curves.append(Curve(n, depth, warmup, r["seed"], tuple(r["steps"]), tuple(r["acc"]),
                                _escape(r["steps"], r["acc"])))
        if runs:
            continue
        asked = f"{n}-norm con {depth} capas y {_warmup_text(warmup)}"
        seeds = have.get((depth, n, warmup))
        if seeds:  # the combination exists, not this seed
            missing.append(f"El barrido no tiene la semilla {seed} de {asked}: hay {_seeds_text(seeds)}.")
            continue
        same = sorted((w, s) for (d, m, w), s in have.items() if d == depth and m == n)
        there = "; ".join(f"{_warmup_text(w)} ({_seeds_text(s)})" for w, s in same) or "nada"
        missing.append(f"El barrido no corrió {asked}. De {n}-norm con {depth} capas tiene: {there}.")
    return Exploration(depth, norm, warmup, None if seed == "todas" else seed, tuple(curves), tuple(missing))
