"""The seed-style loop against helpers.engine on the same work, in one process.

    make bench        (or: .venv/bin/python benchmarks/bench_engine.py [--runs 16] [--steps 40])

Prints model-steps per second for each, their ratio, the FLOPs of one model-step (counted by
torch.utils.flop_counter on the real model), and the engine's GFLOP/s against a matmul peak measured
here, now. Goals from issue 6: ratio >= 2.5 and >= 25 % of the peak.
"""

from __future__ import annotations

import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

from helpers import engine
from helpers.toydata import count_task


def matmul_peak(n: int = 2048, reps: int = 10) -> float:
    """GFLOP/s of a large fp32 matmul on this machine, with the current thread count."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    t = time.perf_counter()
    for _ in range(reps):
        a @ b
    return 2 * n**3 * reps / (time.perf_counter() - t) / 1e9


def flops_per_step(run: engine.Run) -> float:
    model = engine.stack(run)
    x, y = count_task(engine.BATCH)
    with FlopCounterMode(display=False) as fc:
        F.cross_entropy(model(x).flatten(0, 1), y.flatten()).backward()
    return fc.get_total_flops()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=16, help="independent runs (seeds) of the 12-layer post-norm stack")
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    runs = [engine.Run("post", 12, seed=s) for s in range(args.runs)]
    ev = count_task(500, torch.Generator().manual_seed(0))
    flops = flops_per_step(runs[0])
    peak = matmul_peak()

    t = time.perf_counter()
    for r in runs[:4]:  # the seed's loop, one model at a time (4 runs are enough for its rate)
        engine.train_reference(r, args.steps, ev, eval_every=10**9)
    seed_rate = 4 * args.steps / (time.perf_counter() - t)

    t = time.perf_counter()
    engine.train_many(runs, args.steps, ev, eval_every=10**9)
    engine_rate = len(runs) * args.steps / (time.perf_counter() - t)

    gflops = engine_rate * flops / 1e9
    print(f"threads {torch.get_num_threads()} · torch {torch.__version__}")
    print(f"one model-step (12 layers, d=32, batch {engine.BATCH}): {flops / 1e9:.3f} GFLOP")
    print(f"matmul peak measured now: {peak:.0f} GFLOP/s")
    print(f"seed-style loop: {seed_rate:.1f} model-steps/s ({seed_rate * flops / 1e9:.1f} GFLOP/s)")
    print(f"engine, {len(runs)} runs: {engine_rate:.1f} model-steps/s ({gflops:.1f} GFLOP/s, "
          f"{gflops / peak:.0%} of peak)")
    print(f"speed-up: {engine_rate / seed_rate:.2f}x (goal 2.5x) · peak fraction {gflops / peak:.0%} (goal 25%)")


if __name__ == "__main__":
    main()
