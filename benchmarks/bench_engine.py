"""The seed-style loop against helpers.engine on the same work, under each kernel path this CPU runs.

    make bench        (or: .venv/bin/python benchmarks/bench_engine.py [--runs 16] [--steps 40] [--rounds 3])

For each path (AVX2: ATen's avx2 kernels with MKL and oneDNN on AVX2, as on an AMD or an AVX2-only CPU; AVX-512:
ATen's avx512 kernels, where the CPU has them), a fresh process times the two loops alternately, --rounds times, so
that both meet the same load; it prints each round, the median rates and the median of the rounds' ratios, the FLOPs
of one model-step (counted by torch.utils.flop_counter on the real model), and the engine's GFLOP/s against a matmul
peak measured there. Goals from issue 39: ratio >= 2.5 on an AVX2 and an AVX-512 CPU, >= 25 % of the peak.
Exits 1 if a path falls short of 2.5x.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from cpu_grid import AMD, NEEDS, cpu_flags  # noqa: E402

from helpers import engine  # noqa: E402
from helpers.toydata import count_task  # noqa: E402

GOAL = 2.5
# kernel path: (what ATen is forced to, the rest of the environment)
PATHS = {"AVX2": ("avx2", AMD), "AVX-512": ("avx512", {})}


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


def cpu_name() -> str:
    info = Path("/proc/cpuinfo")
    for line in info.read_text().splitlines() if info.exists() else ():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def one_path(args) -> float:
    """Both loops in this process, alternately; prints the rounds and returns the median ratio."""
    runs = [engine.Run("post", 12, seed=s) for s in range(args.runs)]
    ev = count_task(500, torch.Generator().manual_seed(0))
    flops, peak = flops_per_step(runs[0]), matmul_peak()
    seed_rates, engine_rates = [], []
    for r in range(1, args.rounds + 1):
        t = time.perf_counter()
        for run in runs[:4]:  # the seed's loop, one model at a time (4 runs are enough for its rate)
            engine.train_reference(run, args.steps, ev, eval_every=10**9)
        seed_rates.append(4 * args.steps / (time.perf_counter() - t))
        t = time.perf_counter()
        engine.train_many(runs, args.steps, ev, eval_every=10**9)
        engine_rates.append(len(runs) * args.steps / (time.perf_counter() - t))
        print(f"  round {r}: seed-style loop {seed_rates[-1]:.1f} model-steps/s, engine {engine_rates[-1]:.1f} "
              f"({engine_rates[-1] / seed_rates[-1]:.2f}x)", flush=True)
    ratio = statistics.median(e / s for e, s in zip(engine_rates, seed_rates))
    seed_rate, engine_rate = statistics.median(seed_rates), statistics.median(engine_rates)
    gflops = engine_rate * flops / 1e9
    print(f"  torch {torch.__version__}, kernels {torch.backends.cpu.get_cpu_capability()}, "
          f"{torch.get_num_threads()} threads; one model-step (12 layers, d=32, batch {engine.BATCH}): "
          f"{flops / 1e9:.3f} GFLOP; matmul peak now {peak:.0f} GFLOP/s")
    print(f"  median: seed-style loop {seed_rate:.1f} model-steps/s ({seed_rate * flops / 1e9:.1f} GFLOP/s), engine "
          f"with {len(runs)} runs {engine_rate:.1f} ({gflops:.1f} GFLOP/s, {gflops / peak:.0%} of peak)")
    print(f"  speed-up: {ratio:.2f}x, the median of {args.rounds} rounds (goal {GOAL}x)", flush=True)
    return ratio


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=16, help="independent runs (seeds) of the 12-layer post-norm stack")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3, help="alternate the two loops this many times")
    ap.add_argument("--here", action="store_true", help="this process's kernels only (what each path runs)")
    args = ap.parse_args()
    if args.here:
        raise SystemExit(0 if one_path(args) >= GOAL else 1)
    flags = cpu_flags() or frozenset()
    print(f"{cpu_name()} · {os.cpu_count()} cores · OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}")
    short = []
    for name, (aten, extra) in PATHS.items():
        if not NEEDS[aten] <= flags:
            print(f"{name}: skipped, this CPU lacks {', '.join(sorted(NEEDS[aten] - flags))}")
            continue
        print(f"{name} (ATEN_CPU_CAPABILITY={aten}{''.join(f' {k}={v}' for k, v in extra.items())}):", flush=True)
        env = {**os.environ, "ATEN_CPU_CAPABILITY": aten, **extra}
        cmd = [sys.executable, __file__, "--here", "--runs", str(args.runs), "--steps", str(args.steps),
               "--rounds", str(args.rounds)]
        if subprocess.run(cmd, env=env).returncode:
            short.append(name)
    if short:
        raise SystemExit(f"below {GOAL}x on: {', '.join(short)}")


if __name__ == "__main__":
    main()
