"""Progress on long cells: one line, redrawn in place, that leaves nothing in the stored notebook.

    for paso in helpers.progress.steps(400, "red sin residual"):
        ...
    print("listo")            # a long cell prints its result after the loop

The line is written to stdout as "\\r" + text, which Jupyter, JupyterLab and Colab draw in place ("paso 120
de 400 · faltan ~9 s"). When the loop ends the line is closed with a bare "\\r", so whatever the cell prints
next replaces it. nbval and nbclient merge a cell's stream output and drop everything before a carriage
return that more text follows, so what nbval compares and what ``make execute`` stores is exactly what the
cell printed after its loop; tests/test_notebooks_hygiene.py fails if a progress line is left in a stored
notebook (a cell that prints nothing after its loop would leave one).
"""

from __future__ import annotations

import numbers
import sys
import time
from collections.abc import Iterator

from ._validate import positive_int

__all__ = ["Progress", "steps"]


def __dir__():
    return __all__


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.0f} min"


class Progress:
    """A progress line for ``total`` units of work: ``update(done)``, then ``close()``."""

    def __init__(self, total: int, label: str = "", every: float = 0.5, stream=None, clock=time.monotonic):
        self.total = positive_int(total, "total")
        if not isinstance(label, str):
            raise TypeError(f"label debe ser un texto; recibí {label!r}")
        if isinstance(every, bool) or not isinstance(every, numbers.Real) or not every >= 0:
            raise ValueError(f"every debe ser los segundos entre dos redibujos, un número >= 0; recibí {every!r}")
        self.label, self.every, self.clock = label, float(every), clock
        if stream is not None and not all(callable(getattr(stream, m, None)) for m in ("write", "flush")):
            raise TypeError(f"stream debe ser dónde escribir la línea: un archivo abierto, como sys.stdout o "
                            f"sys.stderr (o None, la salida de la celda); recibí {stream!r:.60} "
                            f"({type(stream).__name__})")
        self.stream = stream if stream is not None else sys.stdout
        self.start = self.clock()
        self.last = None
        self.written = False

    def line(self, done: int) -> str:
        """'label: paso 120 de 400 · faltan ~9 s' (the time left from the pace so far)."""
        elapsed = self.clock() - self.start
        head = f"{self.label}: " if self.label else ""
        if done <= 0:
            return f"{head}paso 0 de {self.total}"
        left = elapsed / done * (self.total - done)
        tail = f" · faltan ~{_seconds(left)}" if done < self.total else f" · listo en {_seconds(elapsed)}"
        return f"{head}paso {done} de {self.total}{tail}"

    def update(self, done: int) -> None:
        """Redraw the line for ``done`` units finished, 0 <= done <= total."""
        if isinstance(done, bool) or not isinstance(done, numbers.Integral) or not 0 <= done <= self.total:
            raise ValueError(f"done debe ser un entero entre 0 y total={self.total} (los pasos hechos); "
                             f"recibí {done!r}")
        now = self.clock()
        if self.last is not None and now - self.last < self.every and done < self.total:
            return  # at most one redraw every `every` seconds
        self.last = now
        self.stream.write("\r" + self.line(done))
        self.stream.flush()
        self.written = True

    def close(self) -> None:
        """End the line with a bare carriage return: the cell's next print replaces it."""
        if self.written:
            self.stream.write("\r")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def steps(items, label: str = "", every: float = 0.5, stream=None) -> Iterator:
    """Iterate ``range(1, items + 1)`` for a number of steps, or the given list/range, drawing a progress line;
    closed at the end. The arguments are checked here, before the loop starts."""
    expected = "items debe ser una cantidad de pasos (un entero positivo) o una lista/range que recorrer"
    if isinstance(items, (bool, str, bytes)):
        hint = (f": si es una cantidad, escribila sin comillas ({items.strip()})"
                if isinstance(items, str) and items.strip().isdigit() else "")
        raise TypeError(f"{expected}; recibí {items!r} ({type(items).__name__}){hint}")
    if isinstance(items, numbers.Integral):
        total = positive_int(items, "items (la cantidad de pasos)")
        items = range(1, total + 1)
    else:
        try:
            total = len(items)
        except TypeError:
            raise TypeError(f"{expected}; recibí {type(items).__name__} (si es un generador, no dice su largo: "
                            f"pasá list(...))") from None
        if total == 0:
            raise ValueError(f"items está vacío ({items!r:.40}): no hay pasos que recorrer")
    return _drawn(items, Progress(total, label, every, stream))


def _drawn(items, bar: Progress) -> Iterator:
    try:
        for i, item in enumerate(items, start=1):
            yield item
            bar.update(i)
    finally:
        bar.close()
