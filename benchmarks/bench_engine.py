"""The seed-style loop against helpers.engine on the same work, under each kernel path this CPU runs.

    make bench        (or: .venv/bin/python benchmarks/bench_engine.py [--runs 16] [--steps 40] [--rounds 3])

For each path (AVX2: ATen's avx2 kernels with MKL and oneDNN on AVX2, as on an AMD or an AVX2-only CPU; AVX-512:
ATen's avx512 kernels, where the CPU has them), a fresh process times the two loops alternately, --rounds times, so
that both meet the same load; it prints each round, the median rates and the median of the rounds' ratios, the FLOPs
of one model-step (counted by torch.utils.flop_counter on the real model), and the engine's GFLOP/s against a matmul
peak measured there. Goals from issue 39: ratio >= 2.5 on an AVX2 and an AVX-512 CPU, >= 25 % of the peak.
Exits 1 if a path falls short of 2.5x. The run goes to benchmarks/measurements.json (docs/mantenimiento.md's engine
table is made from it: make medidas); --prueba marks it as not for publication, --medidas PATH writes elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from cpu_grid import AMD, NEEDS, cpu_flags  # noqa: E402
from measurements import FILE, cpu_name, entry, record  # noqa: E402

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


def spread(values: list[float], digits: int = 2) -> dict:
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits)}


def one_path(args) -> dict:
    """Both loops in this process, alternately; prints the rounds and returns what it measured."""
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
    ratios = [e / s for e, s in zip(engine_rates, seed_rates)]
    return {"seed": spread(seed_rates, 1), "engine": spread(engine_rates, 1), "ratio": spread(ratios),
            "peak_gflops": {"median": round(peak)}, "share_of_peak": {"median": round(gflops / peak, 3)},
            "gflop_per_step": round(flops / 1e9, 3), "kernels": torch.backends.cpu.get_cpu_capability(),
            "threads": torch.get_num_threads()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=16, help="independent runs (seeds) of the 12-layer post-norm stack")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3, help="alternate the two loops this many times")
    ap.add_argument("--here", action="store_true", help="this process's kernels only (what each path runs)")
    ap.add_argument("--figures", help=argparse.SUPPRESS)  # --here writes what it measured there, as JSON
    ap.add_argument("--medidas", default=str(FILE), help="where the run is added ('': nowhere)")
    ap.add_argument("--prueba", action="store_true", help="a trial run: recorded as not for publication")
    args = ap.parse_args()
    if args.here:
        figures = one_path(args)
        if args.figures:
            Path(args.figures).write_text(json.dumps(figures), encoding="utf-8")
        raise SystemExit(0 if figures["ratio"]["median"] >= GOAL else 1)
    flags = cpu_flags() or frozenset()
    print(f"{cpu_name()} · {os.cpu_count()} cores · OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}")
    short, paths = [], {}
    for name, (aten, extra) in PATHS.items():
        if not NEEDS[aten] <= flags:
            print(f"{name}: skipped, this CPU lacks {', '.join(sorted(NEEDS[aten] - flags))}")
            continue
        print(f"{name} (ATEN_CPU_CAPABILITY={aten}{''.join(f' {k}={v}' for k, v in extra.items())}):", flush=True)
        env = {**os.environ, "ATEN_CPU_CAPABILITY": aten, **extra}
        out = Path(tempfile.mkstemp(suffix=".json")[1])
        cmd = [sys.executable, __file__, "--here", "--runs", str(args.runs), "--steps", str(args.steps),
               "--rounds", str(args.rounds), "--figures", str(out)]
        if subprocess.run(cmd, env=env).returncode:
            short.append(name)
        if out.stat().st_size:
            paths[name] = json.loads(out.read_text(encoding="utf-8"))
        out.unlink()
    if args.medidas and paths:
        settings = {"runs": args.runs, "steps": args.steps, "rounds": args.rounds, "goal": GOAL,
                    "threads": next(iter(paths.values()))["threads"]}
        record(entry("engine", settings, {"paths": paths}, publish=not args.prueba), args.medidas)
    if short:
        raise SystemExit(f"below {GOAL}x on: {', '.join(short)}")


if __name__ == "__main__":
    main()
