"""Train notebook 05's full sweep (seeds x placements x depths x warmups) with the engine and write it.

    python -m helpers.sweep_train                   # all slices into helpers/data/norm_sweep.json (make sweep)
    python -m helpers.sweep_train --only depth6     # one slice, printed, nothing written
    python -m helpers.sweep_train --add warmup24    # one slice, trained and merged into the file

The file's meta records how long each run took ("seconds", and "added" for a merged slice). What the
notebook reads from the file (load, explore, eval_set) is helpers.sweep.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from . import engine
from ._validate import positive_int
from .sweep import EVAL_EVERY, EVAL_N, EVAL_SEED, SEEDS, _run_problem, eval_set, load

__all__ = ["DATA", "SLICES", "cli", "run_slice", "to_json"]

DATA = Path(__file__).parent / "data" / "norm_sweep.json"

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
    # its layer, so every other slice starts with L identical layers); the explorer leaves it out
    "independent12": ([engine.Run(norm, 12, seed=s, independent_layers=True) for norm in ("post", "pre")
                       for s in SEEDS], 1500),
}


def __dir__():
    return __all__


def to_json(hist: engine.History) -> dict:
    """One run of the sweep as the file stores it."""
    r = hist.run
    out = {"norm": r.norm, "n_layers": r.n_layers, "seed": r.seed, "data_seed": r.data_seed,
           "warmup": r.warmup, "lr": r.lr, "steps": hist.steps, "acc": [round(a, 4) for a in hist.acc]}
    if r.independent_layers:  # written only when set: the runs with copied layers keep their old record
        out["independent_layers"] = True
    problem = _run_problem(out)  # the rule the file is read with: nothing is written that could not be read back
    if problem:
        raise ValueError(f"hist no se puede guardar en el barrido: la corrida {r.norm}-norm, {r.n_layers} capas, "
                         f"semilla {r.seed} {problem}")
    return out


def run_slice(name: str, steps: int | None = None, progress=print) -> list[dict]:
    """Train one slice with the engine; ``steps`` shortens it (for tests)."""
    if not isinstance(name, str) or name not in SLICES:
        raise ValueError(f"name debe ser una de las partes del barrido, {', '.join(sorted(SLICES))}; "
                         f"recibí {name!r}")
    runs, full = SLICES[name]
    steps = full if steps is None else positive_int(steps, "steps")
    hists = engine.train_many(runs, steps, eval_set(), eval_every=EVAL_EVERY, progress=progress)
    return [to_json(h) for h in hists]


def cli(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(SLICES), help="one slice, printed, nothing written")
    ap.add_argument("--add", choices=sorted(SLICES), help="one slice, trained and merged into --out")
    ap.add_argument("--out", type=Path, help=f"the file written (default {DATA.relative_to(DATA.parents[2])})")
    args = ap.parse_args(argv)
    if args.only and args.add:  # one would be dropped without a word
        ap.error(f"--only y --add no van juntos: --only entrena una parte y la imprime, --add la entrena y la agrega "
                 f"al archivo; recibí --only {args.only} --add {args.add}. Corré uno y después el otro.")
    if args.only and args.out:
        ap.error(f"--out no va con --only: --only imprime la parte y no escribe ningún archivo; recibí --only "
                 f"{args.only} --out {args.out}. Para agregarla a un archivo del barrido usá --add {args.only} "
                 f"--out {args.out}.")
    args.out = args.out or DATA
    t0 = time.perf_counter()
    if args.only:
        print(json.dumps(run_slice(args.only), indent=1))
        return
    if args.add:
        data = load(args.out)
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
    cli()
