"""The notebooks under the CPU grid learners have (kernels x threads x BLAS path).

    python tests/cpu_grid.py nbval [--configs A,B] [NB ...]   # strict nbval per configuration (make test-matrix)
    python tests/cpu_grid.py report [NB ...]                  # execute per configuration, print every output line
                                                              # that differs between them (make grid-report)
    python tests/cpu_grid.py native-equivalent                # the grid configuration that make nbval already is

PyTorch picks its CPU kernels at start-up; ATEN_CPU_CAPABILITY forces a set (default, avx2, avx512) and
OMP_NUM_THREADS the thread count. AMD CPUs run MKL and oneDNN on their AVX2 path, which
MKL_ENABLE_INSTRUCTIONS / ONEDNN_MAX_CPU_ISA reproduce on any x86 CPU. Which kernel sets this CPU can run is
decided from its own flags (/proc/cpuinfo, macOS's sysctl; elsewhere a probe in a subprocess that forces the set
and checks its exit status), never from torch's self-report: forced to avx512 on a CPU without AVX-512, torch
still answers "AVX512" and its first kernel dies with SIGILL. A configuration the CPU cannot run is skipped with
one line that says why, never run with other kernels. "native/N" is the CPU's own kernels with N threads: make
nbval (native/1) and make test-compat run it.

PyTorch caps OMP_NUM_THREADS at the number of cores, so on a 2-core machine "4 threads" would quietly
run 2. A configuration with more threads than cores gets a sitecustomize that calls
torch.set_num_threads(n) in every Python process it starts (kernels included), and each configuration
prints the thread count torch really used.

Configurations run side by side while their threads fit in the cores (two one-thread configurations on two
cores); each one's pytest output is printed when it ends. Every kernel runs with LECCION06_STRICT=1, so a
claim that fails in a notebook fails its configuration, however the grid was started.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".ci"))  # facts.py, the one reader of pyproject and nbval's flags
from facts import CELL_TIMEOUT, NBVAL  # noqa: E402

AMD = {"MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"}

# (name, ATEN_CPU_CAPABILITY or None for the CPU's best, threads, extra environment)
GRID = [
    ("default/1", "default", 1, {}),
    ("default/2", "default", 2, {}),
    ("avx2/1", "avx2", 1, {}),
    ("avx2/2", "avx2", 2, {}),
    ("avx512/1", "avx512", 1, {}),
    ("avx512/2", "avx512", 2, {}),
    ("best/4", None, 4, {}),
    ("amd-avx2/2", "avx2", 2, AMD),
]


# pytest with tests/ on its path (for nbval_guard), not the kernels' (-P: nor the checkout's helpers)
RUN_PYTEST = (f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import pytest; "
              f"raise SystemExit(pytest.main(sys.argv[1:]))")

FORCE_THREADS = """import os
if os.environ.get("CPU_GRID_THREADS"):
    import torch
    torch.set_num_threads(int(os.environ["CPU_GRID_THREADS"]))
"""


def config(name: str) -> tuple[str, str | None, int, dict]:
    """A grid configuration by name, or native/N: the CPU's own kernels with N threads."""
    for row in GRID:
        if row[0] == name:
            return row
    kind, _, threads = name.partition("/")
    if kind == "native" and threads.isdigit() and int(threads) > 0:
        return name, None, int(threads), {}
    raise SystemExit(f"unknown configuration {name!r}: use native/N or one of {', '.join(g[0] for g in GRID)}")


@functools.cache
def _force_threads_dir() -> str:
    """One temporary folder with the sitecustomize, shared by every configuration that needs it."""
    site = Path(tempfile.mkdtemp(prefix="cpu-grid-site-"))
    (site / "sitecustomize.py").write_text(FORCE_THREADS, encoding="utf-8")
    return str(site)


def env_for(capability: str | None, threads: int, extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "ONEDNN_MAX_CPU_ISA", "CPU_GRID_THREADS")}
    env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads), PYTHONHASHSEED="0",
               LECCION06_STRICT="1", **extra)
    if capability:
        env["ATEN_CPU_CAPABILITY"] = capability
    if threads > (os.cpu_count() or 1):  # torch would cap it at the core count: force it
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_force_threads_dir(), env.get("PYTHONPATH")]))
        env["CPU_GRID_THREADS"] = str(threads)
    return env


def effective(env: dict) -> tuple[str, int]:
    """The kernels and thread count torch really runs under ``env`` (it falls back silently)."""
    code = "import torch; print(torch.backends.cpu.get_cpu_capability(), torch.get_num_threads())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    cap, threads = out.stdout.split()
    return cap.lower(), int(threads)


# The CPU flags each forced kernel set executes (PyTorch's own test for the set: cpuinfo's avx2 + fma3, and
# avx512 f/bw/dq/vl), in /proc/cpuinfo's spelling; macOS's sysctl says FMA for fma and AVX2.0 for avx2.
NEEDS = {"avx2": {"avx2", "fma"}, "avx512": {"avx512f", "avx512bw", "avx512dq", "avx512vl"}}
LACKS = {"avx2": "this CPU has no AVX2", "avx512": "this CPU has no AVX-512"}
PROBE = "import torch; x = torch.randn(64, 64); torch.softmax(x @ x, -1).sum().item()"


def cpu_flags() -> frozenset[str] | None:
    """The CPU's feature flags, lowercase (Linux: /proc/cpuinfo; macOS: sysctl), or None where they cannot be read."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"^flags\s*:(.*)$", cpuinfo.read_text(encoding="utf-8", errors="replace"), flags=re.M)
        return frozenset(found.group(1).split()) if found else frozenset()
    if platform.system() == "Darwin":
        out = subprocess.run(["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"],
                             capture_output=True, text=True)
        if out.returncode == 0:
            words = out.stdout.lower().replace("avx2.0", "avx2").split()
            return frozenset(words)
    return None


def probe(capability: str) -> bool:
    """Whether a subprocess with the kernel set forced runs a matmul and a softmax and exits cleanly."""
    env = {**os.environ, "ATEN_CPU_CAPABILITY": capability}
    try:
        out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return False
    return out.returncode == 0


def cannot_run(capability: str | None) -> str | None:
    """Why this CPU cannot run the forced kernel set ``capability`` (None: it can, or nothing is forced)."""
    if capability in (None, "default"):
        return None
    flags = cpu_flags()
    if flags is None:
        return None if probe(capability) else f"forcing {capability} kills a test process on this CPU"
    return None if NEEDS[capability] <= flags else LACKS[capability]


def runnable(capability: str | None, cap_used: str) -> bool:
    """torch really runs the set asked for (it falls back to its default set where it has no such kernels)."""
    return capability in (None, "default") or cap_used == capability


def native_equivalent() -> str | None:
    """The grid configuration that native/1 (make nbval) is on this CPU: its own kernels, one thread, no AMD path."""
    cap, _ = effective(env_for(None, 1, {}))
    return next((name for name, c, threads, extra in GRID if c == cap and threads == 1 and not extra), None)


def nbval(notebooks: list[str], names: list[str] | None = None, cores: int | None = None) -> int:
    """Strict nbval over ``notebooks`` under each configuration, as many side by side as the cores hold."""
    cores = cores or os.cpu_count() or 1
    todo, rows, failed = [], {}, []
    for name, cap, threads, extra in (config(n) for n in names) if names else GRID:
        env = env_for(cap, threads, extra)
        why = cannot_run(cap)
        cap_used, threads_used = effective(env) if why is None else (None, None)
        if why is None and not runnable(cap, cap_used):
            why = f"torch runs {cap_used} kernels when asked for {cap}"
        if why:
            print(f"{name}: skipped, {why}", flush=True)
            rows[name] = (f"skipped, {why}", 0.0)
            continue
        assert threads_used == threads, f"{name}: torch ran {threads_used} threads, not {threads}"
        todo.append((name, env, min(threads, cores), f"kernels {cap_used}, {threads_used} thread(s) {extra or ''}"))
    todo.sort(key=lambda t: t[2])  # one-thread configurations first, two at a time
    running: list[tuple] = []
    while todo or running:
        while todo and todo[0][2] <= cores - sum(r[2] for r in running):
            name, env, need, what = todo.pop(0)
            log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
            cmd = [sys.executable, "-P", "-c", RUN_PYTEST, "-q", "-p", "no:cacheprovider", *notebooks, *NBVAL]
            proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
            running.append((name, proc, need, what, log, time.perf_counter()))
            print(f"=== {name}: {what}: started", flush=True)
        time.sleep(0.2)
        for item in [r for r in running if r[1].poll() is not None]:
            running.remove(item)
            name, proc, _, what, log, t0 = item
            log.seek(0)
            print(f"\n=== {name}: {what}\n{log.read().rstrip()}", flush=True)
            log.close()
            rows[name] = ("passed" if proc.returncode == 0 else f"FAILED (pytest exit {proc.returncode})",
                          time.perf_counter() - t0)
            if proc.returncode:
                failed.append(name)
    label = "grid" if len(rows) > 1 else "nbval"
    print(f"\n{'CPU grid' if len(rows) > 1 else 'nbval'}, strict nbval over", " ".join(Path(n).name for n in notebooks))
    for name, (verdict, secs) in rows.items():
        print(f"  {name:<12} {verdict:<45} {secs:6.0f} s")
    passed = sum(v == "passed" for v, _ in rows.values())
    skipped = sum(v.startswith("skipped") for v, _ in rows.values())
    print(f"{label}: {passed} passed, {len(failed)} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


def output_lines(path: Path) -> dict[tuple[int, int], str]:
    """{(code cell number, line number in that cell): line} for every text line the cells printed."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    lines, n = {}, 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        n += 1
        k = 0
        for out in cell.get("outputs", []):
            text = "".join(out.get("text", "")) or "".join(out.get("data", {}).get("text/plain", ""))
            if out.get("output_type") == "error":
                text = f"ERROR {out['ename']}: {out['evalue']}"
            if "image/png" in out.get("data", {}):
                continue
            for line in text.splitlines():
                if line.strip():
                    k += 1
                    lines[n, k] = line
    return lines


def report(notebooks: list[str]) -> int:
    """Execute each notebook under each configuration (errors allowed) and print what moves."""
    out = Path(tempfile.mkdtemp(prefix="cpu-grid-"))
    results: dict[str, dict[str, dict]] = {}
    for name, cap, threads, extra in GRID:
        env = env_for(cap, threads, extra)
        why = cannot_run(cap) or (None if runnable(cap, effective(env)[0]) else "torch falls back to other kernels")
        if why:
            print(f"{name}: skipped, {why}")
            continue
        for nb in notebooks:
            dest = out / name.replace("/", "-") / Path(nb).name
            dest.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                            "--allow-errors", f"--ExecutePreprocessor.timeout={CELL_TIMEOUT}", "--output", str(dest),
                            str(ROOT / nb)], env=env, check=True, capture_output=True)
            print(f"{name}: {Path(nb).name} in {time.perf_counter() - t0:.0f} s", flush=True)
            results.setdefault(nb, {})[name] = output_lines(dest)
    for nb, by_config in results.items():
        stored = output_lines(ROOT / nb)
        print(f"\n### {Path(nb).name}: printed lines that differ between configurations (or from the stored ones)")
        keys = sorted(set(stored).union(*by_config.values()))
        for key in keys:
            texts = {c: lines.get(key, "<missing>") for c, lines in by_config.items()}
            if len(set(texts.values())) > 1 or stored.get(key, "<missing>") not in texts.values():
                print(f"  code cell {key[0]}, line {key[1]}: stored: {stored.get(key, '<missing>')}")
                for c, text in texts.items():
                    print(f"      {c:<12} {text}")
    print(f"\nexecuted notebooks under {out}")
    return 0


def main(argv: list[str]) -> int:
    mode, args = (argv[0] if argv else "nbval"), argv[1:]
    names = None
    if args[:1] == ["--configs"]:
        names, args = [n for n in args[1].split(",") if n], args[2:]
    notebooks = args or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("*.ipynb"))
    if mode == "nbval":
        return nbval(notebooks, names)
    if mode == "report":
        return report(notebooks)
    if mode == "native-equivalent":
        print(native_equivalent() or "")
        return 0
    raise SystemExit(f"unknown mode {mode!r}: use nbval, report or native-equivalent")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
