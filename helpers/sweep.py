"""Notebook 05's stored sweep: load it, ask it, and the held-out set every run was measured on.

The results ship inside the package (data/norm_sweep.json), so the notebook reads them on Colab too;
``python -m helpers.sweep_train`` (``make sweep``) trains the sweep again and writes that file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import torch

from ._validate import one_of
from .fmt import thousands
from .toydata import _first_escape, count_task

__all__ = ["EVAL_EVERY", "EVAL_N", "EVAL_SEED", "NORM_CHOICES", "N_LAYERS", "SEEDS", "WARMUPS", "Curve",
           "Exploration", "available", "eval_set", "explore", "load"]

EVAL_SEED, EVAL_N, EVAL_EVERY = 12345, 500, 25
SEEDS = (0, 1, 2, 3, 4)
N_LAYERS = (6, 12, 24)                 # the depths the sweep ran
WARMUPS = (0, 50, 100, 200, 400)
NORM_CHOICES = {"post": ("post",), "pre": ("pre",), "ambas": ("post", "pre")}  # the explorer's placements
_FILE = "data/norm_sweep.json"
_REGENERATE = "regeneralo con `make sweep` (o `python -m helpers.sweep_train`), o reinstalá helpers"
_RUN_KEYS = {"norm": str, "n_layers": int, "seed": int, "warmup": int, "steps": list, "acc": list}


def __dir__():
    return __all__


def eval_set() -> tuple[torch.Tensor, torch.Tensor]:
    """The held-out sequences every run of the sweep is measured on."""
    return count_task(EVAL_N, torch.Generator().manual_seed(EVAL_SEED))


def _broken(where, what: str) -> ValueError:
    return ValueError(f"{where} está dañado: {what}. Sin él el notebook 05 no tiene barrido: {_REGENERATE}.")


def _validated(data, where) -> dict:
    """``data`` if it has the sweep's shape: {'meta': {...}, 'slices': {name: [run dicts]}}; else say what is off."""
    if not isinstance(data, dict) or not isinstance(data.get("slices"), dict) or not isinstance(data.get("meta"),
                                                                                                dict):
        raise _broken(where, "esperaba un objeto con 'meta' y 'slices'")
    for name, runs in data["slices"].items():
        if not isinstance(runs, list):
            raise _broken(where, f"la parte {name!r} no es una lista de corridas")
        for i, run in enumerate(runs):
            problem = _run_problem(run)
            if problem:
                raise _broken(where, f"la corrida {i} de {name!r} {problem}")
    return data


def _run_problem(run) -> str | None:
    """What is wrong with one run's record (read from the file or about to be written to it), or None."""
    bad = [k for k, kind in _RUN_KEYS.items() if not isinstance(run, dict) or not isinstance(run.get(k), kind)]
    if bad:
        return f"no tiene {', '.join(bad)}"
    if len(run["steps"]) != len(run["acc"]) or not run["steps"]:
        return f"tiene {len(run['steps'])} pasos y {len(run['acc'])} aciertos"
    if not all(isinstance(a, (int, float)) and math.isfinite(a) and 0 <= a <= 1 for a in run["acc"]):
        return "tiene aciertos fuera de [0, 1] (o nan)"
    return None


def load(path: str | Path | None = None) -> dict:
    """The sweep results, checked: {'meta': ..., 'slices': {name: [run dicts]}}; ``path``: another file
    of the same format (default: the one inside the package)."""
    source = resources.files("helpers").joinpath(_FILE) if path is None else Path(path)
    where = f"El archivo del barrido {source}"
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"No encuentro el archivo del barrido {source}: {_REGENERATE}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise _broken(where, f"no es JSON válido ({e.msg}, línea {e.lineno}; ¿quedó cortado?)") from None
    return _validated(data, where)


@dataclass(frozen=True)
class Curve:
    """One run of the sweep as the explorer shows it."""

    norm: str
    n_layers: int
    warmup: int
    seed: int
    steps: tuple
    acc: tuple
    escape: int | None      # first step with acc >= ESCAPE_THRESHOLD; None: it never left the plateau

    def sentence(self) -> str:
        where = f"sale en el paso {self.escape}" if self.escape is not None else (
            f"no salió en {thousands(self.steps[-1])} pasos")
        return f"{self.norm}-norm, semilla {self.seed}: {where} (acierto final {self.acc[-1]:.0%})"


@dataclass(frozen=True)
class Exploration:
    """What the explorer shows for one choice of depth, placement, warmup and seed."""

    n_layers: int
    norm: str
    warmup: int
    seed: int | None
    curves: tuple
    missing: tuple      # one plain sentence per placement asked for that the sweep never ran

    def lines(self) -> list[str]:
        return [c.sentence() for c in self.curves] + list(self.missing)


def _shown_runs(data: dict):
    """Every run the explorer shows: those with PyTorch's copied layers (independent_layers is off)."""
    return (r for runs in data["slices"].values() for r in runs if not r.get("independent_layers"))


def _seeds_text(seeds) -> str:
    seeds = sorted(seeds)
    if len(seeds) > 2 and seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"semillas {seeds[0]} a {seeds[-1]}"
    return ("semilla " if len(seeds) == 1 else "semillas ") + ", ".join(map(str, seeds))


def _warmup_text(w: int) -> str:
    return "sin warmup" if w == 0 else f"warmup {w}"


def available(data: dict | None = None) -> dict:
    """{(n_layers, norm, warmup): sorted seeds} over every run of the sweep."""
    data = load() if data is None else _validated(data, "data")
    found: dict = {}
    for r in _shown_runs(data):
        found.setdefault((r["n_layers"], r["norm"], r["warmup"]), set()).add(r["seed"])
    return {k: sorted(v) for k, v in found.items()}


def explore(n_layers: int, norm: str = "ambas", warmup: int = 0, seed="todas", data: dict | None = None
            ) -> Exploration:
    """The sweep's runs for one depth (6, 12, 24), placement ('post', 'pre', 'ambas'), warmup and seed
    ('todas' or a number), each with its escape step; a plain sentence for what the sweep never ran."""
    for name, value in (("n_layers (capas)", n_layers), ("warmup", warmup), ("seed (semilla)", seed)):
        if isinstance(value, bool):
            raise TypeError(f"{name} debe ser un número; recibí {value!r}")
    n_layers = one_of(n_layers, "n_layers (capas)", N_LAYERS)
    norm = one_of(norm, "norm", tuple(NORM_CHOICES))
    warmup = one_of(warmup, "warmup", WARMUPS)
    seed = one_of(seed, "seed (semilla)", ("todas", *SEEDS))
    data = load() if data is None else _validated(data, "data")
    have = available(data)
    curves, missing = [], []
    for n in NORM_CHOICES[norm]:
        runs = [r for r in _shown_runs(data)
                if (r["n_layers"], r["norm"], r["warmup"]) == (n_layers, n, warmup) and seed in ("todas", r["seed"])]
        runs.sort(key=lambda r: r["seed"])
        for r in runs:
            curves.append(Curve(n, n_layers, warmup, r["seed"], tuple(r["steps"]), tuple(r["acc"]),
                                _first_escape(r["steps"], r["acc"])))
        if runs:
            continue
        asked = f"{n}-norm con {n_layers} capas y {_warmup_text(warmup)}"
        seeds = have.get((n_layers, n, warmup))
        if seeds:  # the combination exists, not this seed
            missing.append(f"El barrido no tiene la semilla {seed} de {asked}: hay {_seeds_text(seeds)}.")
            continue
        same = sorted((w, s) for (d, m, w), s in have.items() if d == n_layers and m == n)
        there = "; ".join(f"{_warmup_text(w)} ({_seeds_text(s)})" for w, s in same) or "nada"
        missing.append(f"El barrido no corrió {asked}. De {n}-norm con {n_layers} capas tiene: {there}.")
    return Exploration(n_layers, norm, warmup, None if seed == "todas" else seed, tuple(curves), tuple(missing))
