"""Grading runs students' code: each submission's kernel starts under limits, where the OS allows them.

On Linux: memory (RLIMIT_AS), CPU seconds (RLIMIT_CPU), file size (RLIMIT_FSIZE); as root, the kernel runs as
``nobody`` in its own temporary folder; without network (``unshare --net``, or ``unshare -rn`` as another user;
the kernel then talks over Unix sockets). Elsewhere (macOS: RLIMIT_AS is not enforced, no network namespaces) what
is not available is skipped, and ``describe()`` says so in Spanish.

    python helpers/grading/_sandbox.py --mem-mb N --cpu-s N [--user UID:GID] -- KERNEL_COMMAND...  (by path: stdlib)
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

__all__ = ["CPU_S", "FILE_MB", "MEMORY_MB", "NOBODY", "Protections", "available", "describe", "wrap"]

MEMORY_MB = 4096  # address space per kernel: torch and the lesson's models fit in well under this
CPU_S = 1800  # CPU seconds per kernel: the slowest notebook needs about a minute
FILE_MB = 200
NOBODY = (65534, 65534)


@dataclass(frozen=True)
class Protections:
    """What this machine allows: limits, running as nobody, no network (and how)."""

    limits: bool
    user: tuple[int, int] | None
    no_network: list[str] | None
    memory_mb: int = MEMORY_MB


def _works(cmd: list[str], **kw) -> bool:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=60, **kw).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _as_nobody():
    os.setgroups([])
    os.setgid(NOBODY[1])
    os.setuid(NOBODY[0])


@functools.cache
def available() -> Protections:
    """Probe once what this machine allows (each probe runs a tiny process)."""
    linux = sys.platform.startswith("linux")
    limits = linux and hasattr(os, "setuid")
    user = None
    if linux and os.geteuid() == 0 and _works([sys.executable, "-c", "import helpers"], preexec_fn=_as_nobody,
                                             cwd="/"):
        user = NOBODY
    unshare = shutil.which("unshare")
    net = None
    if linux and unshare:
        for cmd in ([unshare, "--net"], [unshare, "-rn"]) if os.geteuid() == 0 else ([unshare, "-rn"],):
            if _works([*cmd, sys.executable, "-c", "pass"]):
                net = cmd
                break
    return Protections(limits, user, net)


def describe(p: Protections) -> str:
    """One Spanish line: which protections are on for the students' code."""
    on, off = [], []
    (on if p.limits else off).append(f"límite de memoria ({p.memory_mb} MB) y de CPU" if p.limits else
                                     "límites de memoria y CPU (este sistema no los aplica)")
    if os.geteuid() == 0 if hasattr(os, "geteuid") else False:
        (on if p.user else off).append("correr como el usuario nobody" if p.user else
                                       "correr como nobody (nobody no puede abrir este Python)")
    (on if p.no_network else off).append("sin red" if p.no_network else "sin red (no hay unshare que funcione)")
    line = "El código de las entregas corre con: " + (", ".join(on) or "ninguna protección")
    return line + (f". No disponible acá: {', '.join(off)}." if off else ".")


def wrap(cmd: list[str], p: Protections, cpu_s: int = CPU_S) -> list[str]:
    """The kernel command under the protections ``p``."""
    if not p.limits:
        return cmd
    jail = [sys.executable, os.path.abspath(__file__), "--mem-mb", str(p.memory_mb), "--cpu-s", str(cpu_s)]
    if p.user:
        jail += ["--user", f"{p.user[0]}:{p.user[1]}"]
    return [*(p.no_network or []), *jail, "--", *cmd]


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
    a.add_argument("--user")
    a.add_argument("cmd", nargs=argparse.REMAINDER)
    args = a.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if args.user:
        uid, gid = (int(x) for x in args.user.split(":"))
        connection = cmd[cmd.index("-f") + 1] if "-f" in cmd else None
        if connection:
            os.chown(connection, uid, gid)
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    _limit(resource.RLIMIT_AS, args.mem_mb * 2**20)
    _limit(resource.RLIMIT_CPU, args.cpu_s)
    _limit(resource.RLIMIT_FSIZE, FILE_MB * 2**20)
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    _main()
