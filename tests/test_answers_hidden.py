"""No answer on screen before the learner bets or tries (issue 51), read from every learner copy, what a badge opens
(notebooks/colab/, written by .ci/learner_copies.py), with each cell's role read by helpers.lesson:

- every bet has an answer region, and in it, and in the cells that tell its answer again further down, no stored
  output and no text that is not folded («¿Qué pasó?»);
- from the first bet on, no code cell but a bet's question stores an output (any figure below may be an answer);
- no solution in plain view: each «Tu turno» solution inside its fold, each «Ejercicios» answer's code folded;
- on a core notebook, at most one claims cell per ``##`` section (Colab shows each one's title).
"""

from __future__ import annotations

import re

import pytest
from conftest import NOTEBOOKS, ROOT

from helpers import lesson

COPIES = ROOT / "notebooks" / "colab"
ids = [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_each_bets_answer_region_is_cleared_and_folded_in_the_copy(path):
    nb = lesson.read(COPIES / path.name)
    for key, bet in lesson.bet_cells(nb).items():
        assert bet.answers, f"{path.name}: the bet {key} has no answer region (cells with bets {{{key!r}: 'answer'}})"
        for i in (*bet.answers, *bet.tells):
            cell = nb["cells"][i]
            if cell["cell_type"] == "code":
                assert not cell.get("outputs"), f"copy of {path.name}, cell {i}: bet {key}'s answer is on screen"
            else:
                assert lesson.is_folded(lesson.source(cell)), (
                    f"copy of {path.name}, cell {i}: text that reads bet {key}'s answer is not folded")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_nothing_below_the_first_bet_is_stored_run_in_the_copy(path):
    nb = lesson.read(COPIES / path.name)
    assert stored_below_first_bet(nb) == [], f"copy of {path.name}: cells below the first bet keep their outputs"


def stored_below_first_bet(nb) -> list[int]:
    """Code cells below a notebook's first bet question, other than questions, that store an output."""
    asking = {b.question for b in lesson.bet_cells(nb).values() if b.question is not None}
    return [i for i, c in enumerate(nb["cells"]) if asking and i > min(asking) and i not in asking
            and c["cell_type"] == "code" and c.get("outputs")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_no_solution_in_plain_view(path):
    nb = lesson.read(COPIES / path.name)
    for ex in lesson.exercise_cells(nb):
        if ex.solution is not None:
            text = lesson.source(nb["cells"][ex.solution])
            assert lesson.is_folded(text), f"copy of {path.name}: {ex.name}'s solution is not folded"
    for i in lesson.exercise_answer_cells(nb):
        cell = nb["cells"][i]
        if cell["cell_type"] == "code":
            meta = cell.get("metadata", {})
            assert meta.get("jupyter", {}).get("source_hidden") and meta.get("cellView") == "form", (
                f"copy of {path.name}, cell {i}: an exercise's answer in plain code")


def sections_claims(nb) -> dict[str, int]:
    """{## section title: claims cells in it}."""
    claims, counts, section = set(lesson.claims_cells(nb)), {}, "(title)"
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            for line in lesson.source(cell).splitlines():
                if re.match(r"^## ", line):
                    section = line[3:].strip()
        if i in claims:
            counts[section] = counts.get(section, 0) + 1
    return counts


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_at_most_one_claims_cell_per_section_on_the_core_path(path):
    nb = lesson.read(COPIES / path.name)
    if lesson.kind(nb) == "deep":
        pytest.skip("a «Para ir más lejos» notebook")
    many = {s: n for s, n in sections_claims(nb).items() if n > 1}
    assert not many, f"copy of {path.name}: sections with more than one claims cell: {many}"


def test_the_checks_see_what_they_look_for():
    """A guard for the tests: an unfolded interpretation, a stored answer and two claims cells in one section fail."""
    bet = {"bets": {"k": "answer"}}
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "## 1. Uno"},
        {"cell_type": "code", "metadata": {"leccion06": {"claims": True}}, "source": "x", "outputs": []},
        {"cell_type": "code", "metadata": {"leccion06": {"claims": True}}, "source": "y", "outputs": []},
        {"cell_type": "markdown", "metadata": {"leccion06": bet}, "source": "Pasó esto."},
    ]}
    assert sections_claims(nb) == {"1. Uno": 2}
    out = [{"output_type": "stream", "name": "stdout", "text": "42"}]
    ran = {"cells": [
        {"cell_type": "code", "metadata": {}, "source": "a", "outputs": out},
        {"cell_type": "code", "metadata": {"leccion06": {"bets": {"k": "question"}}}, "source": "q", "outputs": out},
        {"cell_type": "code", "metadata": {}, "source": "b", "outputs": out},
    ]}
    assert stored_below_first_bet(ran) == [2]
    assert not lesson.is_folded("Pasó esto.") and lesson.is_folded(lesson.folded("Pasó esto.", lesson.WHAT_HAPPENED))
    assert not lesson.is_folded("<details><summary>a</summary>\n\nx\n\n</details>\n\nY también esto.")
