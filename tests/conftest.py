"""Shared fixtures: the repository root, its notebooks and the URL written once in pyproject (.ci/facts.py, put on
the tests' path here)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / ".ci"))  # facts.py, the one reader of pyproject
import facts  # noqa: E402

# Every claim a notebook makes fails hard under the suite (nbval's kernels inherit this); a learner's
# session, without it, gets a Spanish note instead (helpers/claims.py).
os.environ["LECCION06_STRICT"] = "1"

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


repo_url = facts.repository  # the repository URL, from pyproject's [project.urls] (the one place it is written)


def colab_url(notebook: Path) -> str:
    """'Open in Colab' address of a notebook of this repository (main branch)."""
    return facts.colab_url(notebook.name)


def load(notebook: Path) -> dict:
    return json.loads(notebook.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


def seeders() -> tuple:
    """(owner, name) of every torch function that seeds a global generator (torch imported only when asked)."""
    import torch

    return ((torch, "manual_seed"), (torch, "seed"), (torch.random, "manual_seed"), (torch.random, "seed"),
            (torch.random, "fork_rng"), (torch.cuda, "manual_seed"), (torch.cuda, "manual_seed_all"),
            (torch.cuda, "seed"), (torch.cuda, "seed_all"), (torch.mps, "manual_seed"), (torch.mps, "seed"))


@pytest.fixture
def no_device_seeding(monkeypatch):
    """torch.manual_seed also reseeds CUDA and MPS (and fork_rng forks only the CPU): while a test runs checkers,
    every such function raises, so a checker that called one would give a wrong verdict and fail the test."""
    def forbidden(*args, **kwargs):
        raise AssertionError("a checker seeded a global generator")

    for owner, attr in seeders():
        monkeypatch.setattr(owner, attr, forbidden)
