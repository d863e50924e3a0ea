"""The lesson a learner finishes in one sitting (issue 51): the five core notebooks, by the teacher's guide's own rule
(benchmarks/measurements.py: words at 100 a minute, a minute to run the cells, 8 minutes per «Tu turno»; the
reading table and the class plans count the same way), take at most 180 minutes and hold at most 10 000 words.
What goes deeper is a «Para ir más lejos» notebook, outside this count."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import measurements  # noqa: E402

CORE_MINUTES = 180
CORE_WORDS = 10_000


def test_the_core_notebooks_fit_one_sitting():
    core = measurements.core_stems()
    assert len(core) == 5, f"the lesson has five core notebooks: {core}"
    rows = {stem: measurements.reading(stem) for stem in core}
    words = sum(r[0] for r in rows.values())
    total = sum(r[2] + r[3] for r in rows.values())
    table = "; ".join(f"{s}: {r[0]} words, {r[2] + r[3]} min" for s, r in rows.items())
    assert total <= CORE_MINUTES, f"the core takes {total} min by the guide's rule, over {CORE_MINUTES}: {table}"
    assert words <= CORE_WORDS, f"the core has {words} words, over {CORE_WORDS}: {table}"


def test_the_rule_counts_what_a_learner_reads(tmp_path, monkeypatch):
    """A guard for the count itself: text under «Para ir más lejos» and inside a fold is not read on the path; a
    «Tu turno» is 8 minutes."""
    import json

    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# T\n\n" + "palabra " * 250},
             {"cell_type": "markdown", "metadata": {}, "source": "<details><summary>x</summary>\n\n" + "no " * 500
              + "\n\n</details>"},
             {"cell_type": "markdown", "metadata": {}, "source": "## Para ir más lejos\n\n" + "extra " * 900}]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "09_prueba.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                                         "nbformat_minor": 5}), encoding="utf-8")
    monkeypatch.setattr(measurements, "ROOT", tmp_path)
    words, count, read, turns = measurements.reading("09_prueba")
    assert (words, count, read, turns) == (252, 0, 4, 0), (words, count, read, turns)
