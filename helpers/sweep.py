"""Notebook 05's full sweep (seeds x placements x depths x warmups), run with the engine.

    python -m helpers.sweep            # regenerates helpers/data/norm_sweep.json (about 20 min on 2 idle cores)
    python -m helpers.sweep --only depth6   # one slice, printed, nothing written

The results ship inside the package, so the notebook loads them on Colab too.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from pathlib import Path

import torch

from . import engine
from ._checks import positive_int
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
}


def eval_set() -> tuple[torch.Tensor, torch.Tensor]:
    """The held-out sequences every run of the sweep is measured on."""
    return count_task(EVAL_N, torch.Generator().manual_seed(EVAL_SEED))


def to_json(hist: engine.History) -> dict:
    r = hist.run
    return {"norm": r.norm, "n_layers": r.n_layers, "seed": r.seed, "data_seed": r.data_seed,
            "warmup": r.warmup, "lr": r.lr, "steps": hist.steps, "acc": [round(a, 4) for a in hist.acc]}


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
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.only:
        print(json.dumps(run_slice(args.only), indent=1))
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
