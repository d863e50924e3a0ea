"""Grading runs students' code: each submission's kernel in its own sandbox, under limits.

Isolated (Linux with bubblewrap, ``apt-get install bubblewrap``): the kernel gets its own user, PID, network, IPC
and UTS namespaces (``bwrap``); its root holds only the system's /usr, this Python and ``helpers`` (read-only) and
its own scratch folder (HOME, connection file, Unix sockets); its /tmp is its own; its environment is cleared to
what a kernel needs; when the kernel ends, or the grader kills it, every process it started dies with it (PID
namespace, ``--die-with-parent``). Limits everywhere they exist: memory (RLIMIT_AS), CPU seconds, file size.

Where bubblewrap is missing or cannot run (macOS, a Linux that forbids user namespaces, perhaps Colab),
``available()`` says why in Spanish; the CLI then stops unless the teacher asks for ``--sin-aislar``: limits where
the OS has them, no network where ``unshare`` works, the same cleared environment, and the kernel as the teacher.

    python helpers/grading/_sandbox.py --mem-mb N --cpu-s N -- COMMAND...  (the limits; by path: stdlib only)
"""

from __future__ import annotations

import argparse
import functools
import getpass
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CPU_S", "FILE_MB", "MEMORY_MB", "Protections", "available", "describe", "kernel_env", "wrap"]

MEMORY_MB = 4096  # address space per kernel: torch and the lesson's models fit in well under this
CPU_S = 1800  # CPU seconds per kernel: the slowest notebook needs about a minute
FILE_MB = 200
_INSIDE_ID = 65534  # the kernel's uid and gid inside its user namespace (nobody's number, mapped to the grader)
_KEPT = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "TZ")  # the only variables of the teacher's a kernel gets
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # symlinks into /usr on merged-usr systems
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone")  # what the loader and the clock read
_INSTALL = "sudo apt-get install bubblewrap"


@dataclass(frozen=True)
class Protections:
    """What this machine allows: limits; bubblewrap's path when it isolates here (else why not, in Spanish);
    unshare's command for a kernel without network when not isolated."""

    limits: bool
    isolation: str | None = None
    missing: str = ""
    unshare_net: list[str] | None = None
    memory_mb: int = MEMORY_MB

    @property
    def no_network(self) -> bool:
        return bool(self.isolation or self.unshare_net)


def _works(cmd: list[str], **kw) -> tuple[bool, str]:
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=60, text=True, **kw)
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)
    return done.returncode == 0, (done.stderr.strip().splitlines() or [""])[-1]


def _python_dirs() -> list[str]:
    """What the kernel's Python needs to see, read-only: its prefixes' bin and lib, its site folders, and the
    helpers package (alone: an editable install must not show the rest of the repository)."""
    import helpers
    wanted = [os.path.join(prefix, sub) for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                                       sys.base_exec_prefix)
              for sub in ("bin", "lib", "lib64", "pyvenv.cfg")]
    wanted += [p for p in sys.path if os.path.basename(p) in ("site-packages", "dist-packages")]
    wanted.append(os.path.dirname(os.path.abspath(helpers.__file__)))
    dirs: list[str] = []
    for path in wanted:
        if not os.path.exists(path) or path.startswith("/usr/"):
            continue
        path = os.path.abspath(path)
        if not any(path == d or path.startswith(d + os.sep) for d in dirs):
            dirs = [d for d in dirs if not d.startswith(path + os.sep)] + [path]
    return dirs


def kernel_env(home: str) -> dict[str, str]:
    """The kernel's whole environment: its scratch folder as HOME and caches, this Python first on PATH, helpers
    importable, and of the teacher's variables only the thread counts and the time zone."""
    import helpers
    env = {"HOME": home, "USER": "estudiante", "LOGNAME": "estudiante", "LANG": "C.UTF-8", "TMPDIR": home,
           "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]),
           "IPYTHONDIR": os.path.join(home, ".ipython"), "MPLCONFIGDIR": os.path.join(home, ".matplotlib"),
           "XDG_CACHE_HOME": os.path.join(home, ".cache"),
           "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(helpers.__file__)))}
    env.update({k: os.environ[k] for k in _KEPT if k in os.environ})
    return env


def _etc(private: str) -> list[str]:
    """bwrap arguments for /etc: the loader's and the clock's files, and a passwd, group and hosts of our own."""
    own = {"passwd": f"estudiante:x:{_INSIDE_ID}:{_INSIDE_ID}:estudiante:/tmp:/bin/sh\n",
           "group": f"estudiante:x:{_INSIDE_ID}:\n", "hosts": "127.0.0.1 localhost\n::1 localhost\n"}
    os.makedirs(private, exist_ok=True)
    args = []
    for name in _ETC:
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    for name, text in own.items():
        Path(private, name).write_text(text, encoding="utf-8")
        args += ["--ro-bind", os.path.join(private, name), f"/etc/{name}"]
    return args


def _bwrap(bwrap: str, home: str, env: dict[str, str]) -> list[str]:
    """bubblewrap's command line for a kernel whose scratch folder is ``home`` (bound at the same path: the
    connection file names its sockets there) and whose whole environment is ``env``."""
    args = [bwrap, "--unshare-all", "--unshare-user", "--uid", str(_INSIDE_ID), "--gid", str(_INSIDE_ID),
            "--hostname", "calificar", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for path in _SYSTEM_LINKS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += _etc(os.path.join(os.path.dirname(home), "etc"))
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in _python_dirs():
        args += ["--ro-bind", path, path]
    args += ["--bind", home, home, "--remount-ro", "/", "--chdir", home, "--clearenv"]  # writable: home, /tmp
    for k, v in env.items():
        args += ["--setenv", k, v]
    return [*args, "--"]


def _limits(p: Protections, cpu_s: int) -> list[str]:
    return [sys.executable, os.path.abspath(__file__), "--mem-mb", str(p.memory_mb), "--cpu-s", str(cpu_s), "--"]


def wrap(cmd: list[str], p: Protections, home: str, env: dict[str, str], cpu_s: int = CPU_S) -> list[str]:
    """The kernel command under the protections ``p``: limits, then the sandbox (or, not isolated, unshare)."""
    limits = _limits(p, cpu_s) if p.limits else []
    if p.isolation:
        return [*limits, *_bwrap(p.isolation, home, env), *cmd]
    return [*(p.unshare_net or []), *limits, *cmd]


def _not_linux() -> str:
    where = "macOS" if sys.platform == "darwin" else sys.platform
    return (f"en {where} no hay con qué aislar cada entrega (el aislamiento usa bubblewrap, que es de Linux): "
            "calificá en Linux con bubblewrap o en Colab")


def _probe_isolation(bwrap: str) -> str:
    """Empty when a sandbox like a kernel's starts here and imports helpers and ipykernel; else why not."""
    with tempfile.TemporaryDirectory(prefix="calificar-prueba-") as tmp:
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        cmd = _bwrap(bwrap, home, kernel_env(home)) + [sys.executable, "-c", "import helpers, ipykernel"]
        ok, said = _works(cmd)
    if ok:
        return ""
    return (f"bubblewrap está pero no pudo armar el aislamiento («{said}»); lo usual es que este sistema no deje "
            "crear espacios de nombres de usuario sin ser root (Ubuntu 24.04, algunos contenedores): corré el "
            "comando con sudo, o habilitalos (sysctl kernel.unprivileged_userns_clone=1; en Ubuntu, "
            "kernel.apparmor_restrict_unprivileged_userns=0)")


@functools.cache
def available() -> Protections:
    """Probe once what this machine allows (each probe runs a tiny process)."""
    linux = sys.platform.startswith("linux")
    limits = linux and hasattr(os, "setuid")
    bwrap = shutil.which("bwrap") if linux else None
    missing = "" if bwrap else _not_linux() if not linux else (
        f"no está bubblewrap (el programa bwrap): instalalo con `{_INSTALL}` (en Colab, `!apt-get install -y "
        "bubblewrap`; en otras distribuciones, su paquete bubblewrap)")
    missing = missing or _probe_isolation(bwrap)
    net = None
    unshare = shutil.which("unshare")
    if linux and unshare:
        for cmd in ([unshare, "--net"], [unshare, "-rn"]) if os.geteuid() == 0 else ([unshare, "-rn"],):
            if _works([*cmd, sys.executable, "-c", "pass"])[0]:
                net = cmd
                break
    return Protections(limits, None if missing else bwrap, missing, net)


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "tu usuario"


def describe(p: Protections) -> str:
    """Spanish: what holds for the students' code under ``p`` (isolated, or run as the teacher)."""
    limits = (f"límites de memoria ({p.memory_mb} MB), de CPU ({CPU_S // 60} min) y de archivos ({FILE_MB} MB)"
              if p.limits else "sin límites de memoria ni de CPU (este sistema no los aplica)")
    if p.isolation:
        return ("Cada entrega corre aislada con bubblewrap, en una caja con sus propios procesos y su propio usuario "
                f"adentro (visto desde esta máquina, sus procesos corren con tu usuario, {_who()}), sin red, sin ver "
                "tus archivos, el repositorio ni las otras entregas, sin tus variables de entorno; al terminar se "
                f"cortan todos los procesos que dejó. Con {limits}.")
    net = "sin red (unshare)" if p.unshare_net else "con red (no hay unshare que funcione)"
    return (f"SIN AISLAR (--sin-aislar): el código de las entregas corre como {_who()}: puede leer y escribir tus "
            "archivos, el repositorio y las otras entregas (también sus archivos de conexión), y dejar procesos "
            f"que siguen después de su nota. Lo que sí queda: {limits}, {net}, y sin tus variables de entorno.")


def _limit(kind: int, value: int) -> None:
    """Set a hard limit; one the OS refuses (macOS: RLIMIT_AS) is skipped, and describe() already said so."""
    import resource
    _, hard = resource.getrlimit(kind)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    try:
        resource.setrlimit(kind, (value, value))
    except (OSError, ValueError):
        pass


def _main(argv: list[str] | None = None) -> None:
    import resource
    a = argparse.ArgumentParser()
    a.add_argument("--mem-mb", type=int, required=True)
    a.add_argument("--cpu-s", type=int, required=True)
    a.add_argument("cmd", nargs=argparse.REMAINDER)
    args = a.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    _limit(resource.RLIMIT_AS, args.mem_mb * 2**20)
    _limit(resource.RLIMIT_CPU, args.cpu_s)
    _limit(resource.RLIMIT_FSIZE, FILE_MB * 2**20)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    _main()
