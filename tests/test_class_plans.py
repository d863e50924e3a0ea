"""docs/docente.md's two class plans, from one rule applied to the notebooks' words: each row's minutes are its
words at PACE words a minute, TU_TURNO_MIN per "Tu turno" done in class and RUN_MIN for running the notebook's cells
(the guide's compute table: every notebook runs in a minute or less). A row's parts are the sections it explains; a
section the plan cuts is run without explaining (its cells define what later cells use) and costs nothing here.
The test recomputes every row's start and end and finds them in the guide's tables, in order: when a notebook's
text grows, the plan's clock moves and this test says which row."""

from __future__ import annotations

import re
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
# The rule and the word counter are the guide's reading table's too (benchmarks/measurements.py makes that table)
from measurements import PACE, RUN_MIN, TU_TURNO_MIN, minutes, parts  # noqa: E402

GUIDE = ROOT / "docs" / "docente.md"

# Part: "3" is section 3 whole; ("6", None) its text before the first subsection; ("4", "title") one subsection.
PLANS = {
    "Clase de 2 horas": (120, [
        ("01_ffn", ["título", "1", "2", "3", "Resumiendo"]),
        ("03_layernorm", ["título", "1", "3", "4", "6", "Resumiendo"]),
        ("04_encoder_block", ["título", "1", "2", "3", "5", ("6", None), "Resumiendo"]),
        ("05_norm_placement", ["título", "1", "2", "3", ("4", None), ("4", "¿Y la profundidad?"), "Resumiendo"]),
    ]),
    "Clase de 3 horas": (180, [
        ("01_ffn", ["título", "1", "2", "3", "4", "5", "Resumiendo"]),
        ("02_residual_stream", ["título", "1", "2", "3", "4", "Resumiendo"]),
        ("pausa", 10),
        ("03_layernorm", ["título", "1", "2", "3", "4", "5", "6", "7", "Resumiendo"]),
        ("04_encoder_block", ["título", "1", "2", "3", "4", "5", ("6", None), "Resumiendo"]),
        ("05_norm_placement", ["título", "1", "2", "3", ("4", None), ("4", "¿Y la profundidad?"), "Resumiendo"]),
    ]),
}


def row_minutes(stem: str, chosen: list) -> int:
    words, tasks = parts(stem)

    def taken(key):
        return any(key[0] == p if isinstance(p, str) else key == p for p in chosen)
    assert all(any(taken(k) for k in words) for k in [(p, None) if isinstance(p, str) else p for p in chosen]), (
        f"{stem}: a part of the plan is not in the notebook: {chosen}")
    return sum(minutes(sum(n for k, n in words.items() if taken(k)), sum(n for k, n in tasks.items() if taken(k))))


def clock(m: int) -> str:
    return f"{m // 60}:{m % 60:02d}"


def expected_ranges(length: int, rows: list) -> list[str]:
    out, now = [], 0
    for stem, what in rows:
        took = what if stem == "pausa" else row_minutes(stem, what)
        out.append(f"{clock(now)}–{clock(now + took)}")
        now += took
    assert now <= length, f"the plan takes {now} min of its {length}"
    if now < length:
        out.append(f"{clock(now)}–{clock(length)}")  # the last row: questions and slack
    return out


def guide_ranges(title: str) -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"**{title}**")
    table = re.search(r"\n(\|.*\|\n)+", text[start:])[0]
    return [row.split("|")[1].strip() for row in table.strip().splitlines()[2:]]


@pytest.mark.parametrize("title", PLANS)
def test_each_plan_row_takes_what_the_rule_gives(title):
    length, rows = PLANS[title]
    assert guide_ranges(title) == expected_ranges(length, rows), (
        f"{title}: the guide's times differ from the rule ({PACE} palabras por minuto, {TU_TURNO_MIN} min por "
        f"\"Tu turno\", {RUN_MIN} por notebook)")


def test_the_rule_is_the_one_the_guide_states():
    text = GUIDE.read_text(encoding="utf-8")
    assert f"{PACE} palabras por minuto" in text and f"{TU_TURNO_MIN} minutos por cada \"Tu turno\"" in text
    assert f"{RUN_MIN} minuto por notebook" in text

