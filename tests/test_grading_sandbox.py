"""Grading that no submission can touch (helpers.grading._sandbox, _grade): a submission that leaves processes
behind to reach the next one's kernel, read the teacher's files and environment and write into the repository
gets nothing, and the next one keeps its points; a cell that swallows the interrupt is cut, and the exercise
before it keeps its point; where nothing isolates, calificar stops and says what is missing, unless told
--sin-aislar. On a synthetic lesson's student copy (tests/grading_fixtures.py), each submission in its own kernel
(a few seconds each)."""

from __future__ import annotations

import csv
import dataclasses
import os
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import ROOT
from grading_fixtures import EXERCISES, reference, student, submission, write_lesson

from helpers import grading
from helpers.grading import _sandbox
from helpers.grading.__main__ import main

pytestmark = pytest.mark.grading
# --tiempo of these runs: the slowest needed cell, the series' setup cell, takes 0.8 s on a 2-core Zen 1 EPYC, a few
# s when loaded (torch is loaded before the first cell, when the kernel starts: helpers.grading._grade._LAUNCHER)
TIEMPO_S = 10
# a ceiling against a hang, not a speed test (the cut's own time is asserted from what the grader says): ten times
# what one grading of the cut cell takes here, about 30 s on two busy cores (its kernel start, the cut at
# TIEMPO_S + KILL_AFTER_S); it was TIEMPO_S + KILL_AFTER_S + 45 s, about twice that
HANG_S = 300

SPY = r"""
import glob, os, sys, time
marca, informe, entregas = sys.argv[1], sys.argv[2], sys.argv[3]
propio = os.path.realpath(os.environ["HOME"])
hechos, hechos_en = [], set()
fin = time.time() + 60
while time.time() < fin:
    for conexion in glob.glob("/tmp/calificar-*/**/kernel.json", recursive=True):
        if os.path.realpath(conexion).startswith(propio) or conexion in hechos_en:
            continue
        hechos_en.add(conexion)
        try:
            from jupyter_client import BlockingKernelClient
            kc = BlockingKernelClient()
            kc.load_connection_file(conexion)
            kc.start_channels()
            kc.execute("import helpers.check as _c\ndef _roto(*a, **k):\n    raise AssertionError('inyectado por "
                       "otra entrega')\nfor _n in NOMBRES:\n    setattr(_c, _n, _roto)\n")
            time.sleep(1)
            kc.stop_channels()
            hechos.append(f"inyecté en {conexion}")
        except Exception as e:
            hechos.append(f"no pude inyectar en {conexion}: {e}")
    for environ in glob.glob("/proc/[0-9]*/environ"):
        try:
            if b"TEACHER_TOKEN" in open(environ, "rb").read():
                hechos.append(f"vi el token en {environ}")
        except OSError:
            pass
    try:
        hechos += [f"vi la entrega {n}" for n in os.listdir(entregas)]
    except OSError:
        pass
    try:
        with open(informe, "a") as f:
            f.write("\n".join(hechos) + "\n")
    except OSError:
        pass
    hechos = []
    time.sleep(0.3)
"""

PROBE = """
import os, subprocess, sys
_espia = os.path.join(os.environ["HOME"], "espia.py")
with open(_espia, "w") as _f:
    _f.write({spy!r})
_args = [{marca!r}, {informe!r}, {entregas!r}]
subprocess.Popen([sys.executable, _espia, *_args], start_new_session=True, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
if os.fork() == 0:  # and a double fork, in a session of its own
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, _espia, *_args])
    os._exit(0)
_vi = ["el token en mi entorno"] if os.environ.get("TEACHER_TOKEN") else []
for _f in {reads!r}:
    try:
        _vi.append(f"leí {{_f}}: {{open(_f).read(20)!r}}")
    except OSError:
        pass
for _f in {writes!r}:
    try:
        open(_f, "w").write("entrega")
        _vi.append(f"escribí {{_f}}")
    except OSError:
        pass
raise RuntimeError("espía: " + ("; ".join(_vi) or "nada"))
"""


def isolation() -> _sandbox.Protections:
    """This machine's sandbox; skip where bubblewrap is not installed, fail where it is and does not work."""
    protect = _sandbox.available()
    if not protect.isolation:
        if shutil.which("bwrap") and sys.platform.startswith("linux"):
            pytest.fail(f"bwrap is installed but does not isolate: {protect.missing}")
        pytest.skip(f"no sandbox here: {protect.missing}")
    return protect


def write(nb, folder: Path, name: str, answers: dict[int, str]) -> Path:
    return submission(nb, folder, name, answers)


def processes_with(text: str) -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(cmdline.parent.name)
        except OSError:
            pass
    return found


def spy_and_victim(tmp_path: Path, monkeypatch, options: list[str]) -> dict:
    """Grade a spy (its first answer right, then a probe that leaves two processes behind) and, after it, a
    reference submission; what each got, what the spy saw, what it left."""
    nb = student()
    first, second = grading.exercises(nb)
    ref = {ex.stub: reference(ex) for ex in (first, second)}
    marca = uuid.uuid4().hex
    home = tmp_path / "casa"
    home.mkdir()
    (home / "secreto.txt").write_text("TOKEN-DEL-DOCENTE", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TEACHER_TOKEN", "TOKEN-DEL-DOCENTE")
    folder, report = tmp_path / "entregas", tmp_path / "informe.txt"
    writes = [str(ROOT / f"entrega-{marca}.txt"), str(ROOT / "helpers" / f"entrega-{marca}.txt"),
              os.path.join(sys.prefix, f"entrega-{marca}.txt"), str(home / f"entrega-{marca}.txt")]
    probe = PROBE.format(spy=SPY.replace("NOMBRES", repr(EXERCISES)), marca=marca, informe=str(report),
                         entregas=str(folder), reads=[str(home / "secreto.txt"), str(ROOT / "pyproject.toml")],
                         writes=writes)
    write(nb, folder, "a_espia", {first.stub: ref[first.stub] + probe})
    write(nb, folder, "b_victima", ref)
    out = tmp_path / "notas.csv"
    try:
        assert main(["calificar", str(folder), "--tarea", str(write_lesson(tmp_path / "raiz")), "--csv", str(out),
                     "-j", "1", "--tiempo", str(TIEMPO_S), *options]) == 0
        left = processes_with(marca)
        written = [w for w in writes if os.path.exists(w)]
    finally:
        for w in writes:
            Path(w).unlink(missing_ok=True)
        for pid in processes_with(marca):  # only where the test failed: the spy's own processes, by id
            os.kill(int(pid), 9)
    rows = {r["estudiante"]: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    told = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "devoluciones").iterdir())
    return {"spy": rows["a_espia"], "victim": rows["b_victima"], "left": left, "written": written,
            "report": report.read_text(encoding="utf-8").split() if report.exists() else [],
            "outputs": out.read_text(encoding="utf-8-sig") + told}


def spy_did_nothing_outside_its_box(problems: str) -> bool:
    """The spy's own report: «nada» (it read and wrote nothing). One exception, where the repository or the Python
    lives under /tmp (`git clone . /tmp/fresh`): the box has a /tmp of its own, an empty tmpfs in which bwrap makes
    the folders it binds Python's parts into, so the spy can write /tmp/fresh/x there; that file is the box's, gone
    with it, and `written` (the host's view) must still be empty."""
    said = problems.split("RuntimeError: espía: ", 1)[-1].strip() if "RuntimeError: espía: " in problems else None
    if said is None:
        return False
    if said == "nada":
        return True
    under_tmp = any(str(p) == "/tmp" or str(p).startswith("/tmp/") for p in (ROOT, Path(sys.prefix).resolve()))
    return under_tmp and all(d.startswith("escribí /tmp/") for d in said.split("; "))


def test_a_submission_cannot_reach_the_next_one_nor_the_teacher(tmp_path, monkeypatch, capsys):
    isolation()
    seen = spy_and_victim(tmp_path, monkeypatch, [])
    said = capsys.readouterr().out
    assert "Cada entrega corre aislada con bubblewrap" in said, said
    assert seen["victim"]["total"] == "2", seen["victim"]
    assert seen["victim"]["problemas"] == "" and "inyectado" not in seen["outputs"]
    assert spy_did_nothing_outside_its_box(seen["spy"]["problemas"]), seen["spy"]["problemas"]
    assert seen["spy"][EXERCISES[0]] == "1", seen["spy"]  # its own answer, in the same cell, still counts
    assert seen["left"] == [] and seen["written"] == [] and seen["report"] == [], seen
    assert "TOKEN-DEL-DOCENTE" not in seen["outputs"]


def test_a_cell_that_swallows_the_interrupt_is_cut_and_the_exercise_before_keeps_its_point(tmp_path):
    """The loop of the issue: `while True: try: time.sleep(0.5) except BaseException: pass`, in the second
    exercise's cell; sleeping uses no CPU, so only the deadline after the interrupt stops it."""
    nb = student()
    first, second = grading.exercises(nb)
    loop = "import time\nwhile True:\n    try:\n        time.sleep(0.5)\n    except BaseException:\n        pass\n"
    path = write(nb, tmp_path, "bucle", {first.stub: reference(first), second.stub: reference(second) + loop})
    for protect in (None, isolation()):
        start = time.perf_counter()
        r = grading.grade(path, [first, second], timeout=TIEMPO_S, protect=protect)
        took = time.perf_counter() - start
        assert took < HANG_S, (protect, took)
        assert r.points == {first.name: 1, second.name: 0}, (protect, r)
        cut = [p for p in r.problems if "se cortó a los" in p]
        assert len(cut) == 1 and f"la celda {second.stub + 1} se cortó a los" in cut[0], (protect, r.problems)
        seconds = float(cut[0].split("se cortó a los ")[1].split(" s")[0])
        # not before its deadline (the interrupt at TIEMPO_S, the kill KILL_AFTER_S later); how late after it depends
        # on how busy the machine is, so no upper bound here but the ceiling against a hang above
        assert seconds >= TIEMPO_S + grading._grade.KILL_AFTER_S - 1, (protect, seconds)
        assert r.messages[second.name].startswith("no se calificó: la celda"), r.messages


def test_side_by_side_sandboxes_give_what_one_kernel_at_a_time_gives(tmp_path):
    """-j 2 under bubblewrap: a reference, a wrong answer and an endless loop (interrupted by a control message,
    since bwrap passes no signals on) grade as they do alone, without a sandbox."""
    protect = isolation()
    nb = student()
    first, second = grading.exercises(nb)
    ref = {ex.stub: reference(ex) for ex in (first, second)}
    paths = [write(nb, tmp_path, "ref", ref), write(nb, tmp_path, "mal", {first.stub: ref[first.stub]}),
             write(nb, tmp_path, "rota", {**ref, second.stub: ref[second.stub] + "\nwhile True:\n    pass\n"})]
    plain = grading.grade_all(paths, [first, second], TIEMPO_S, say=lambda line: None, jobs=1)
    boxed = grading.grade_all(paths, [first, second], TIEMPO_S, say=lambda line: None, jobs=2, protect=protect)
    assert [(r.points, r.messages, r.problems) for r in boxed] == [(r.points, r.messages, r.problems) for r in plain]
    assert [r.total for r in boxed] == [2, 1, 2] and "KeyboardInterrupt" in " ".join(boxed[2].problems)


def test_without_isolation_calificar_stops_and_says_what_is_missing(tmp_path, monkeypatch, capsys):
    missing = "no está bubblewrap (el programa bwrap): instalalo con `sudo apt-get install bubblewrap`"
    monkeypatch.setattr(_sandbox, "available", lambda: _sandbox.Protections(True, None, missing))
    folder = tmp_path / "entregas"
    folder.mkdir()
    (folder / "roto.ipynb").write_text("esto no es un notebook", encoding="utf-8")
    args = ["calificar", str(folder), "--csv", str(tmp_path / "n.csv"), "--tarea", str(write_lesson(tmp_path / "raiz"))]
    assert main(args) == 2
    said = capsys.readouterr()
    assert missing in said.err and "--sin-aislar" in said.err and not (tmp_path / "n.csv").exists(), said
    assert main([*args, "--sin-aislar"]) == 0
    said = capsys.readouterr().out
    assert "SIN AISLAR (--sin-aislar): el código de las entregas corre como" in said, said
    assert (tmp_path / "n.csv").exists()


def test_the_kernel_sees_only_what_it_needs(monkeypatch, tmp_path):
    """Its environment: none of the teacher's variables but the thread counts; its read-only folders: the Python
    and helpers, never the repository around an editable install."""
    monkeypatch.setenv("TEACHER_TOKEN", "x")
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    env = _sandbox.kernel_env(str(tmp_path))
    assert "TEACHER_TOKEN" not in env and env["OMP_NUM_THREADS"] == "3" and env["HOME"] == str(tmp_path)
    dirs = [Path(d) for d in _sandbox._python_dirs()]
    assert Path(grading.__file__).parents[1] in dirs or any(Path(grading.__file__).is_relative_to(d) for d in dirs)
    assert not any((d / "pyproject.toml").exists() or (d / ".git").exists() for d in dirs), dirs
    protect = dataclasses.replace(_sandbox.Protections(True, "/usr/bin/bwrap"), memory_mb=512)
    cmd = _sandbox.wrap(["python", "-m", "ipykernel_launcher"], protect, str(tmp_path / "home"), env)
    assert "--clearenv" in cmd and "--die-with-parent" in cmd and "--unshare-all" in cmd
    assert cmd[-3:] == ["python", "-m", "ipykernel_launcher"] and "512" in cmd
