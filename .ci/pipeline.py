"""CI: every stage of .ci/run as a make target, as many side by side as the cores hold, and a table of times.

    python3 .ci/pipeline.py            # what `bash .ci/run` does
    python3 .ci/pipeline.py --list     # the stages, in order, with their cores, limits and what each waits for
    python3 .ci/pipeline.py --medidas [PATH]  # also add the run to benchmarks/measurements.json (or PATH)

A stage starts when the stages it waits for have passed and its threads fit in the free cores (installs, which
mostly wait on the network, take none). Stages start in the order listed; a stage that is ready but does not
fit holds the ones after it, so two-core stages are not starved. Each stage's output goes to
artifacts/ci/<stage>.log and is printed when the stage ends. A stage whose prerequisite failed is not run. Each
stage has a time limit, and the run one in all (RUN_LIMIT): what passes it is stopped and fails, saying how long it
ran, so the run ends with its table rather than hanging. At the end: the table (start, time beside its limit, CPU,
result of each stage) and one closing line; exit 1 if any stage did not pass. Only with --medidas does the run write
into the repository: the run goes to the measurements file, from which `make medidas` makes the CI table of
docs/mantenimiento.md.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "artifacts" / "ci"
OK = ("passed", "covered")
MIN = 60
# Each stage has a limit, generous but finite (Stage.limit, about 2 to 3x its time on the 2-core CI machine with
# empty caches); a stage past it is stopped and fails with its name and how long it ran. The whole run stops at
# RUN_LIMIT, before CI's own 90 minutes, so the table is always printed.
STAGE_LIMIT = 15 * MIN
RUN_LIMIT = 80 * MIN


@dataclass
class Stage:
    name: str
    command: list[str] | None  # None: passes when what it waits for passes (a grid configuration nbval ran)
    cores: int = 1  # 0: mostly waits on the network or the disk
    after: tuple[str, ...] = ()
    note: str = ""
    limit: float = STAGE_LIMIT  # seconds
    # filled in while running
    result: str = "not run"
    start: float | None = None
    seconds: float = 0.0
    cpu: float = 0.0  # user + system seconds of the stage and the processes it waited for
    proc: subprocess.Popen | None = field(default=None, repr=False)


def make(*args: str) -> list[str]:
    return ["make", "--no-print-directory", *args]


def grid_stages(installed: tuple[str, ...]) -> list[Stage]:
    """One stage per CPU configuration of the grid (tests/cpu_grid.py), one or two cores each. The limit is a ceiling
    against a hang: a two-thread configuration takes about 3 min alone on 2 cores, and ran past 10 min in a fresh
    clone's run beside a site test, a make test and two readers (2026-12-06, load 4 to 8): hence 20."""
    sys.path.insert(0, str(ROOT / "tests"))
    from cpu_grid import GRID
    return [Stage(f"grid {name}", make("test-matrix", f"CONFIGS={name}"), cores=min(threads, 2), after=installed,
                  limit=20 * MIN)
            for name, _, threads, _ in GRID]


def stages() -> list[Stage]:
    """CI's stages, in the order they start when they can; each with its limit in minutes."""
    def st(name, target, limit, cores=1, after=("install",), note="", args=()):
        return Stage(name, make(target, *args), cores=cores, after=after, note=note, limit=limit * MIN)

    grid = grid_stages(("install",))
    return [
        st("ci-deps", "ci-deps", 15, cores=0, after=(), note="apt-get: chromium, bubblewrap (nodejs, npm if missing)"),
        st("install", "install", 15, cores=0, after=(), note=".venv from nothing"),
        st("compat-env", "compat-env", 20, cores=0, after=(), note="Colab's Python and packages"),
        st("site-env", "site-env", 10, cores=0, after=(), note=".venv-site and MathJax (npm ci)"),
        # the longest one-core stage first: started last (as it was), it ran alone on a 2-core Zen 1 EPYC for 16 of
        # its 18 min while the two-core grid stages waited for it (60:33 in all; this order, 53 min in a replay).
        # Chromium keeps more than one core busy (27 s of CPU in a 22 s page test): beside the other stages on that
        # machine it passed its old 20-minute limit (2026-12-05), hence 30
        st("site", "test-site", 30, after=("site-env", "ci-deps", "install"),
           note="build the site, test it in Chromium"),
        st("nbval", "nbval", 10, note="strict nbval, native kernels, 1 thread"),
        # the unit tests in two parts: on a 2-core AMD EPYC with AVX2 only (Zen 1) the whole took 15 min beside
        # the other stages, three times the Zen 5's; each part is about half of it
        st("unit", "unit", 15, after=("install", "ci-deps"), args=("PART=rest",),
           note="unit, hygiene, prose, exercise tests"),
        st("unit-grading", "unit", 15, after=("install", "ci-deps"), args=("PART=grading",),
           note="helpers.grading's tests: kernels, sandboxes, timeouts"),
        st("lint", "lint", 5),
        st("dist", "dist", 5, note="build, twine check, wheel contents"),
        st("compat-helpers", "compat-helpers", 5, after=("compat-env", "dist"), note="the wheel into Colab's"),
        *[g for g in grid if g.cores == 1],
        st("browser-lab", "test-browser", 10, after=("install", "ci-deps"), note="JupyterLab 4, ipywidgets 8"),
        st("browser-classic", "test-browser-classic", 10, after=("compat-helpers", "ci-deps"),
           note="Colab's classic Notebook, ipywidgets 7"),
        st("compat-unit", "compat-unit", 15, after=("compat-helpers", "ci-deps"), args=("PART=rest",),
           note="unit tests, Colab's environment"),
        st("compat-unit-grading", "compat-unit", 15, after=("compat-helpers", "ci-deps"), args=("PART=grading",),
           note="helpers.grading's tests, Colab's environment"),
        st("compat-nbval", "compat-nbval", 10, after=("compat-helpers",), note="nbval, Colab's environment"),
        *[g for g in grid if g.cores > 1],
    ]


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


# A stage's `cores` is what it may use at its busiest; many use far less (the grading tests wait on kernels and time
# limits: 2:01 of CPU in 6:55 on a 2-core EPYC). When the cores have stood idle for a while, the next one-core stage
# in line may start beside the others, OVERCOMMIT cores past the declared ones at most, and never beside a
# multi-threaded stage. Only the run's length depends on it:
# no test's verdict depends on how busy the machine is (a time limit is a ceiling against a hang), and beside a
# load that keeps every core busy (stress-ng --cpu 2) nothing starts early.
OVERCOMMIT = 1
IDLE_WINDOW = 20.0  # seconds over which the idle share of the cores is read (/proc/stat)
IDLE_SHARE = 0.8  # of the stage's cores that must have stood idle


class IdleMeter:
    """How many cores stood idle (idle or waiting on the disk) over the last IDLE_WINDOW seconds, from /proc/stat;
    0 until it has read that long, and where /proc/stat cannot be read."""

    def __init__(self, stat: Path = Path("/proc/stat")):
        self.stat, self.samples = stat, []

    def read(self) -> tuple[float, float] | None:
        try:
            fields = [float(v) for v in self.stat.read_text().splitlines()[0].split()[1:9]]
        except (OSError, ValueError, IndexError):
            return None
        return fields[3] + fields[4], sum(fields)  # idle + iowait, all

    def idle_cores(self, now: float, cores: int) -> float:
        here = self.read()
        if here is None:
            return 0.0
        self.samples.append((now, *here))
        while len(self.samples) > 2 and now - self.samples[1][0] >= IDLE_WINDOW:
            self.samples.pop(0)
        then, idle0, total0 = self.samples[0]
        if now - then < IDLE_WINDOW or here[1] <= total0:
            return 0.0
        return cores * (here[0] - idle0) / (here[1] - total0)

    def restart(self) -> None:
        """Forget what was read: a stage just started, and the next reading must include it."""
        self.samples = []


class Pipeline:
    """The stages of one CI run: which can start, which have ended, which ran past their limit."""

    def __init__(self, all_stages: list[Stage], cores: int, logs: Path, on_install=None, limit: float = RUN_LIMIT,
                 meter: IdleMeter | None = None):
        self.stages, self.cores, self.logs, self.on_install, self.limit = all_stages, cores, logs, on_install, limit
        self.by_name = {s.name: s for s in all_stages}
        self.pending = [s for s in all_stages if s.result == "not run"]
        self.running: list[Stage] = []
        self.t0 = time.monotonic()
        self.meter = meter or IdleMeter()

    def now(self) -> float:
        return time.monotonic() - self.t0

    def settle(self) -> None:
        """Stages that can no longer run (a prerequisite failed) and those nbval already covered."""
        for s in list(self.pending):
            bad = [a for a in s.after if self.by_name[a].result not in OK + ("not run", "running")]
            if bad:
                self.pending.remove(s)
                s.result = f"skipped: {', '.join(bad)} did not pass"
            elif s.command is None and all(self.by_name[a].result in OK for a in s.after):
                self.pending.remove(s)
                s.result = "covered"

    def fits(self, s: Stage) -> bool:
        """Its cores are free, or (OVERCOMMIT) the cores the running stages were given have stood idle."""
        busy = sum(r.cores for r in self.running)
        if s.cores <= self.cores - busy:
            return True
        if s.cores != 1 or any(r.cores > 1 for r in self.running) or busy + s.cores > self.cores + OVERCOMMIT:
            return False  # threads of one process that wait for each other spin: a 2-thread grid run used 4:06 of
            # CPU in 7:35 beside other work, against about 1:20 alone
        if self.meter.idle_cores(self.now(), self.cores) < IDLE_SHARE * s.cores:
            return False
        s.note = (s.note + "; " if s.note else "") + "started on idle cores"
        self.meter.restart()
        return True

    def start_ready(self) -> None:
        """Start, in order, each stage whose prerequisites passed while its cores fit; a big one holds the rest."""
        for s in list(self.pending):
            if s.command is None or any(self.by_name[a].result not in OK for a in s.after):
                continue
            if not self.fits(s):
                break
            self.pending.remove(s)
            s.start, s.result = self.now(), "running"
            with open(self.logs / f"{safe(s.name)}.log", "w", encoding="utf-8") as log:
                s.proc = subprocess.Popen(s.command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
            self.running.append(s)
            print(f"[{fmt(s.start)}] {s.name}: started ({' '.join(s.command)}; limit {fmt(s.limit)})", flush=True)

    def stop(self, s: Stage, why: str) -> int:
        """Kill a stage's whole process group; its result says why and after how long."""
        os.killpg(s.proc.pid, signal.SIGKILL)
        reap(s, block=True)
        s.note = why
        return -signal.SIGKILL

    def reap_ended(self) -> None:
        for s in list(self.running):
            rc = reap(s)
            over = self.now() - s.start > s.limit
            if rc is None and over:
                rc = self.stop(s, f"stopped at its limit of {fmt(s.limit)}")
            if rc is None:
                continue
            self.running.remove(s)
            self.finish(s, "passed" if rc == 0 else
                        f"FAILED (over its limit: ran {fmt(self.now() - s.start)})" if over else f"FAILED (exit {rc})")
            if s.name == "install" and rc == 0 and self.on_install:
                self.on_install(self.stages)

    def finish(self, s: Stage, result: str) -> None:
        s.seconds, s.result = self.now() - s.start, result
        text = (self.logs / f"{safe(s.name)}.log").read_text(encoding="utf-8", errors="replace").rstrip()
        skipped = re.findall(r"^\S+: skipped, (.+)$", text, flags=re.M)
        if result == "passed" and skipped:
            s.note = "skipped: " + "; ".join(dict.fromkeys(skipped))
        print(f"\n──── {s.name}: {result} in {fmt(s.seconds)}, CPU {fmt(s.cpu)}, load {load()} "
              f"({' '.join(s.command)})\n{text}", flush=True)

    def out_of_time(self) -> None:
        """The whole run passed its limit: stop what runs, mark what waits; the table is still printed."""
        for s in list(self.running):
            self.running.remove(s)
            self.stop(s, f"CI's limit of {fmt(self.limit)} reached")
            self.finish(s, f"FAILED (stopped when the run reached {fmt(self.limit)}; ran {fmt(self.now() - s.start)})")
        for s in self.pending:
            s.result = f"not run: the run reached its limit of {fmt(self.limit)}"
        self.pending = []

    def loop(self) -> None:
        while self.pending or self.running:
            self.settle()
            self.start_ready()
            time.sleep(0.2)
            self.reap_ended()
            if self.now() > self.limit:
                self.out_of_time()


def table(all_stages: list[Stage], total: float, logs: Path = LOGS) -> int:
    """The table of stages (start, time beside its limit, CPU, result) and the closing lines; 1 if any failed."""
    print(f"\n{'stage':<20} {'cores':>5} {'start':>6} {'time':>6} {'limit':>6} {'cpu':>6}  result")
    for s in all_stages:
        ran = s.start is not None
        start, time_, cpu = (fmt(s.start), fmt(s.seconds), fmt(s.cpu)) if ran else ("", "", "")
        limit = fmt(s.limit) if s.command else ""
        note = f"  ({s.note})" if s.note else ""
        print(f"{s.name:<20} {s.cores or 'io':>5} {start:>6} {time_:>6} {limit:>6} {cpu:>6}  {s.result}{note}")
    ran = [s for s in all_stages if s.start is not None]
    print(f"wall {fmt(total)}; stage times added up {fmt(sum(s.seconds for s in ran))}, CPU time (user + system) "
          f"{fmt(sum(s.cpu for s in ran))}; load average at the end {load()}")
    passed = sum(s.result in OK for s in all_stages)
    failed = len(all_stages) - passed
    for s in all_stages:
        if s.result.startswith("FAILED"):
            print(why_failed(s, logs))
    print(f"stages: {passed} passed, {failed} failed")
    return 1 if failed else 0


# pytest's short summary ("FAILED tests/x.py::test - AssertionError: ..."), nbval's ("FAILED notebooks/a.ipynb::Cell 3")
_FAILED_TEST = re.compile(r"^(?:FAILED|ERROR) (\S+)(?: - (.*))?$", flags=re.M)
_FIRST_ERROR = re.compile(r"^E +(.+)$", flags=re.M)
_SECTION = re.compile(r"^_{3,} .+ _{3,}$\n((?:.*\n){1,40})", flags=re.M)  # the first failure's own lines
SUMMARY_LINES = 6  # of the error, for each failed stage, in the closing summary


def why_failed(s: Stage, logs: Path | None = None) -> str:
    """A failed stage in a few lines for the end of the run: its name and result, the tests that failed, and the
    first lines of the first error (pytest's `E` lines), or else the last lines of its log."""
    path = (logs or LOGS) / f"{safe(s.name)}.log"
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    failed = list(dict.fromkeys(m.group(1) for m in _FAILED_TEST.finditer(text)))
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    lines = [f"✗ {s.name}: {s.result}" + (f" ({s.note})" if s.note else "") + f"; log: {shown}"]
    if failed:
        more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
        lines.append(f"    failed: {', '.join(failed[:5])}{more}")
    error = [m.group(1) for m in _FIRST_ERROR.finditer(text)][:SUMMARY_LINES]
    section = _SECTION.search(text)
    if not error and section:
        error = [line for line in section.group(1).splitlines() if line.strip()][:SUMMARY_LINES]
    if not error:
        tail = [line for line in text.rstrip().splitlines() if line.strip()]
        error = tail[-SUMMARY_LINES:]
    lines += [f"    | {line[:200]}" for line in error]
    return "\n".join(lines)


def run(all_stages: list[Stage], cores: int, logs: Path = LOGS, on_install=None, limit: float = RUN_LIMIT,
        medidas: Path | None = None, meter: IdleMeter | None = None) -> int:
    """Run the stages within the cores and their limits, print the table; 0 if every stage passed (or was covered).
    With ``medidas``, the run is added to that measurements file."""
    logs.mkdir(parents=True, exist_ok=True)
    print(f"ci: {len(all_stages)} stages on {cores} cores, at most {fmt(limit)} in all; load average at start "
          f"{load()}", flush=True)
    pipe = Pipeline(all_stages, cores, logs, on_install, limit, meter)
    try:
        pipe.loop()
    except KeyboardInterrupt:
        for s in pipe.running:
            os.killpg(s.proc.pid, signal.SIGTERM)
        raise
    total = pipe.now()
    code = table(all_stages, total, logs)
    if medidas:
        measured(all_stages, total, medidas)
    return code


def measured(all_stages: list[Stage], total: float, path: Path) -> str:
    """Add the run to a measurements file (benchmarks/measurements.py); a run with a failed stage is recorded as
    not for publication. Returns the run's id."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import measurements
    stages = []
    for s in all_stages:
        times = {"start": round(s.start), "time": round(s.seconds), "cpu": round(s.cpu)} if s.start is not None else {}
        stages.append({"stage": s.name, "limit": round(s.limit), "result": s.result, **times})
    passed = sum(s.result in OK for s in all_stages)
    figures = {"wall_s": round(total), "cpu_s": round(sum(s.cpu for s in all_stages if s.start is not None)),
               "passed": passed, "failed": len(all_stages) - passed, "stages": stages}
    run = measurements.entry("ci", {"cores": os.cpu_count()}, figures, publish=passed == len(all_stages))
    return measurements.record(run, path)


def safe(name: str) -> str:
    return name.replace("/", "-").replace(" ", "-")


def main(argv: list[str]) -> int:
    all_stages = stages()
    if argv[:1] == ["--list"]:
        for s in all_stages:
            after = ", ".join(s.after) or "-"
            print(f"{s.name:<20} {s.cores or 'io':>3} {fmt(s.limit):>6}  after {after:<28} {' '.join(s.command or [])}")
        return 0
    medidas = None
    if argv[:1] == ["--medidas"] and len(argv) <= 2:
        medidas = Path(argv[1]) if len(argv) > 1 else ROOT / "benchmarks" / "measurements.json"
    elif argv:  # anything else (--help, a typo) says how to call it, rather than starting a whole run
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        print(f"\nunknown arguments: {' '.join(argv)}", file=sys.stderr)
        return 2
    return run(all_stages, cores=os.cpu_count() or 1, on_install=covered_by_nbval, medidas=medidas)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
