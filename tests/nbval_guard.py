"""A pytest plugin for nbval (loaded by facts.NBVAL's ``-p nbval_guard``): a kernel that dies fails its cell at once.

nbval waits for a cell's reply for the whole cell timeout, even when the kernel is already dead (a forced kernel set
the CPU lacks dies with SIGILL; the OOM killer sends SIGKILL): ten minutes per notebook of nothing. Here the wait is
cut into one-second slices, and between slices the kernel's process is looked at; once it has died, the cell fails
with the signal's name (or the exit code), and nbval fails the notebook's remaining cells at once ("Kernel dead").
"""

from __future__ import annotations

import signal
import time
from queue import Empty

from nbval.kernel import RunningKernel

POLL = 1.0  # seconds between looks at the kernel while a cell runs

_await_reply = RunningKernel.await_reply


class KernelDied(RuntimeError):
    """The notebook's kernel process ended while a cell was running."""


def how_it_ended(kernel: RunningKernel) -> str:
    """'killed by SIGILL (signal 4)', 'exited with code 3', or 'ended' when the process cannot be read."""
    process = getattr(getattr(getattr(kernel, "km", None), "provisioner", None), "process", None)
    code = process.poll() if process is not None else None
    if code is None:
        return "ended"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name} (signal {-code})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def await_reply(self: RunningKernel, msg_id, timeout=None):
    """nbval's await_reply, in slices: Empty when ``timeout`` passes, KernelDied as soon as the kernel is gone."""
    deadline = None if timeout is None else time.monotonic() + float(timeout)
    while True:
        left = POLL if deadline is None else min(POLL, deadline - time.monotonic())
        try:
            return _await_reply(self, msg_id, timeout=max(left, 0.0))
        except Empty:
            if not self.is_alive():
                raise KernelDied(f"the notebook's kernel died while this cell ran: {how_it_ended(self)}") from None
            if deadline is not None and time.monotonic() >= deadline:
                raise


RunningKernel.await_reply = await_reply
