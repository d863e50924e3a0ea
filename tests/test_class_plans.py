"""docs/docente.md's two class plans, from one rule applied to the notebooks' words: each row's minutes are its
words at PACE words a minute, TU_TURNO_MIN per "Tu turno" done in class and RUN_MIN for running the notebook's cells
(the guide's compute table: every notebook runs in a minute or less). A row's parts are the sections it explains; a
section the plan cuts is run without explaining (its cells define what later cells use) and costs nothing here.
The test recomputes every row's start and end and finds them in the guide's tables, in order: when a notebook's
text grows, the plan's clock moves, this test says which plan, and `make medidas` (benchmarks/measurements.py, where
the plans and the rule live) writes the new clock into the guide's tables."""

from __future__ import annotations

import re
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
# The rule and the word counter are the guide's reading table's too (benchmarks/measurements.py makes that table)
from measurements import PACE, PLANS, RUN_MIN, TU_TURNO_MIN, WHOLE, core_stems, plan_ranges  # noqa: E402

GUIDE = ROOT / "docs" / "docente.md"


def guide_ranges(title: str) -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"**{title}**")
    table = re.search(r"\n(\|.*\|\n)+", text[start:])[0]
    return [row.split("|")[1].strip() for row in table.strip().splitlines()[2:]]


@pytest.mark.parametrize("title", PLANS)
def test_each_plan_row_takes_what_the_rule_gives(title):
    length, rows = PLANS[title]
    assert guide_ranges(title) == plan_ranges(length, rows), (
        f"{title}: the guide's times differ from the rule ({PACE} palabras por minuto, {TU_TURNO_MIN} min por "
        f"\"Tu turno\", {RUN_MIN} por notebook)")


def test_make_medidas_writes_the_clock_a_stale_table_lacks():
    from measurements import plan_tables

    text = GUIDE.read_text(encoding="utf-8")
    title = next(iter(PLANS))
    first = plan_ranges(*PLANS[title])[0]
    stale = text.replace(f"| {first} |", "| 9:99–9:99 |", 1)
    assert stale != text and plan_tables(stale) == plan_tables(text)
    assert f"| {first} |" in plan_tables(stale)


def test_the_rule_is_the_one_the_guide_states():
    text = GUIDE.read_text(encoding="utf-8")
    assert f"{PACE} palabras por minuto" in text and f"{TU_TURNO_MIN} minutos por cada \"Tu turno\"" in text
    assert f"{RUN_MIN} minuto por notebook" in text



def test_the_three_hour_plan_runs_the_whole_core_and_the_two_hour_one_names_its_homework():
    """Issue 51: the core fits one sitting, so the 3-hour class explains every core notebook whole; the 2-hour class
    cuts, and the guide names what it leaves as homework; the «Para ir más lejos» notebooks have their own list."""
    length, rows = PLANS["Clase de 3 horas"]
    whole = [stem for stem, what in rows if what == WHOLE]
    assert whole == core_stems(), f"the 3-hour plan explains whole {whole}, not the core {core_stems()}"
    text = GUIDE.read_text(encoding="utf-8")
    two = text[text.index("**Clase de 2 horas**"):text.index("**Clase de 3 horas**")]
    assert "tarea" in two, "the 2-hour plan names what it leaves as homework"
    deep = [p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]b_*.ipynb")]
    assert all(f"{stem}.ipynb" in text for stem in deep), f"the guide lists every deep dive: {deep}"
