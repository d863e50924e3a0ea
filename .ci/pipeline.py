"""CI: every stage of .ci/run as a make target, as many side by side as the cores hold, and a table of times.

    python3 .ci/pipeline.py            # what `bash .ci/run` does
    python3 .ci/pipeline.py --list     # the stages, in order, with their cores and what each waits for

A stage starts when the stages it waits for have passed and its threads fit in the free cores (installs, which
mostly wait on the network, take none). Stages start in the order listed; a stage that is ready but does not
fit holds the ones after it, so two-core stages are not starved. Each stage's output goes to
artifacts/ci/<stage>.log and is printed when the stage ends. A stage whose prerequisite failed is not run.
At the end: the table (start, time, result of each stage) and one closing line; exit 1 if any stage did not pass.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "artifacts" / "ci"
OK = ("passed", "covered")
STAGE_TIMEOUT = 40 * 60  # a stage that hangs is stopped (and the table still printed); CI stops at 90 minutes


@dataclass
class Stage:
    name: str
    command: list[str] | None  # None: passes when what it waits for passes (a grid configuration nbval ran)
    cores: int = 1  # 0: mostly waits on the network or the disk
    after: tuple[str, ...] = ()
    note: str = ""
    # filled in while running
    result: str = "not run"
    start: float | None = None
    seconds: float = 0.0
    cpu: float = 0.0  # user + system seconds of the stage and the processes it waited for
    proc: subprocess.Popen | None = field(default=None, repr=False)


def make(*args: str) -> list[str]:
    return ["make", "--no-print-directory", *args]


def grid_stages(installed: tuple[str, ...]) -> list[Stage]:
    """One stage per CPU configuration of the grid (tests/cpu_grid.py), one or two cores each."""
    sys.path.insert(0, str(ROOT / "tests"))
    from cpu_grid import GRID
    return [Stage(f"grid {name}", make("test-matrix", f"CONFIGS={name}"), cores=min(threads, 2), after=installed)
            for name, _, threads, _ in GRID]


def stages() -> list[Stage]:
    """CI's stages, in the order they start when they can."""
    out = [
        Stage("ci-deps", make("ci-deps"), cores=0, note="apt-get: chromium (nodejs, npm if missing)"),
        Stage("install", make("install"), cores=0, note=".venv from nothing"),
        Stage("compat-env", make("compat-env"), cores=0, note="Colab's Python and packages"),
        Stage("site-env", make("site-env"), cores=0, note=".venv-site and MathJax (npm ci)"),
        Stage("nbval", make("nbval"), after=("install",), note="strict nbval, native kernels, 1 thread"),
        Stage("unit", make("unit"), after=("install",), note="unit, hygiene, prose, exercise tests"),
        Stage("lint", make("lint"), after=("install",)),
        Stage("dist", make("dist"), after=("install",), note="build, twine check, wheel contents"),
        Stage("compat-helpers", make("compat-helpers"), after=("compat-env", "dist"), note="the wheel into Colab's"),
    ]
    grid = grid_stages(("install",))
    out += [g for g in grid if g.cores == 1]
    out += [
        Stage("browser-lab", make("test-browser"), after=("install", "ci-deps"), note="JupyterLab 4, ipywidgets 8"),
        Stage("browser-classic", make("test-browser-classic"), after=("compat-helpers", "ci-deps"),
              note="Colab's classic Notebook, ipywidgets 7"),
        Stage("compat-unit", make("compat-unit"), after=("compat-helpers",), note="unit tests, Colab's environment"),
        Stage("compat-nbval", make("compat-nbval"), after=("compat-helpers",), note="nbval, Colab's environment"),
        Stage("site", make("test-site"), after=("site-env", "ci-deps"), note="build the site, test it in Chromium"),
    ]
    out += [g for g in grid if g.cores > 1]
    return out


def covered_by_nbval(all_stages: list[Stage]) -> None:
    """The grid configuration that make nbval already ran (same kernels, one thread) is not run twice."""
    python = ROOT / ".venv" / "bin" / "python"
    out = subprocess.run([str(python), "tests/cpu_grid.py", "native-equivalent"], cwd=ROOT, capture_output=True,
                         text=True)
    name = out.stdout.strip()
    for s in all_stages:
        if s.name == f"grid {name}" and s.result == "not run":
            s.command, s.after = None, ("nbval",)
            s.note = f"the same configuration as the nbval stage on this CPU ({name}): not run twice"


def reap(s: Stage, block: bool = False) -> int | None:
    """The stage's exit code once it has ended (None before), with the CPU time it used (os.wait4)."""
    pid, status, usage = os.wait4(s.proc.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    s.cpu = usage.ru_utime + usage.ru_stime
    s.proc.returncode = os.waitstatus_to_exitcode(status)
    return s.proc.returncode


def fmt(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def run(all_stages: list[Stage], cores: int, logs: Path = LOGS, on_install=None) -> int:
    logs.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    by_name = {s.name: s for s in all_stages}
    pending = [s for s in all_stages if s.result == "not run"]
    running: list[Stage] = []
    print(f"ci: {len(all_stages)} stages on {cores} cores; load average at start {load()}", flush=True)

    def finish(s: Stage, result: str) -> None:
        s.seconds = time.monotonic() - t0 - s.start
        s.result = result
        text = (logs / f"{safe(s.name)}.log").read_text(encoding="utf-8", errors="replace").rstrip()
        print(f"\n──── {s.name}: {result} in {fmt(s.seconds)}, CPU {fmt(s.cpu)}, load {load()} "
              f"({' '.join(s.command)})\n{text}", flush=True)

    try:
        while pending or running:
            for s in list(pending):
                bad = [a for a in s.after if by_name[a].result not in OK + ("not run", "running")]
                if bad:  # a prerequisite failed: this stage cannot run
                    pending.remove(s)
                    s.result = f"skipped: {', '.join(bad)} did not pass"
                elif s.command is None and all(by_name[a].result in OK for a in s.after):
                    pending.remove(s)
                    s.result = "covered"
            for s in list(pending):
                if s.command is None or any(by_name[a].result not in OK for a in s.after):
                    continue  # waiting for its prerequisites
                if s.cores > cores - sum(r.cores for r in running):
                    break  # ready but too big for the free cores: hold the rest so it is not starved
                pending.remove(s)
                s.start, s.result = time.monotonic() - t0, "running"
                log = open(logs / f"{safe(s.name)}.log", "w", encoding="utf-8")
                s.proc = subprocess.Popen(s.command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
                log.close()
                running.append(s)
                print(f"[{fmt(s.start)}] {s.name}: started ({' '.join(s.command)})", flush=True)
            time.sleep(0.2)
            for s in list(running):
                rc = reap(s)
                if rc is None and time.monotonic() - t0 - s.start > STAGE_TIMEOUT:
                    os.killpg(s.proc.pid, signal.SIGKILL)
                    rc = reap(s, block=True)
                    s.note = f"stopped after {STAGE_TIMEOUT // 60} minutes"
                if rc is not None:
                    running.remove(s)
                    finish(s, "passed" if rc == 0 else f"FAILED (exit {rc})")
                    if s.name == "install" and rc == 0 and on_install:
                        on_install(all_stages)
    except KeyboardInterrupt:
        for s in running:
            os.killpg(s.proc.pid, signal.SIGTERM)
        raise
    total = time.monotonic() - t0
    print(f"\n{'stage':<20} {'cores':>5} {'start':>6} {'time':>6} {'cpu':>6}  result")
    for s in all_stages:
        ran = s.start is not None
        start, time_, cpu = (fmt(s.start), fmt(s.seconds), fmt(s.cpu)) if ran else ("", "", "")
        note = f"  ({s.note})" if s.note else ""
        print(f"{s.name:<20} {s.cores or 'io':>5} {start:>6} {time_:>6} {cpu:>6}  {s.result}{note}")
    ran = [s for s in all_stages if s.start is not None]
    print(f"wall {fmt(total)}; stage times added up {fmt(sum(s.seconds for s in ran))}, CPU time (user + system) "
          f"{fmt(sum(s.cpu for s in ran))}; load average at the end {load()}")
    passed = sum(s.result in OK for s in all_stages)
    failed = len(all_stages) - passed
    print(f"stages: {passed} passed, {failed} failed")
    return 1 if failed else 0


def safe(name: str) -> str:
    return name.replace("/", "-").replace(" ", "-")


def main(argv: list[str]) -> int:
    all_stages = stages()
    if argv[:1] == ["--list"]:
        for s in all_stages:
            after = ", ".join(s.after) or "-"
            print(f"{s.name:<20} {s.cores or 'io':>3}  after {after:<28} {' '.join(s.command or [])}")
        return 0
    return run(all_stages, cores=os.cpu_count() or 1, on_install=covered_by_nbval)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
