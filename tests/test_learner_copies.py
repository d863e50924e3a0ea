"""The learner's copies (notebooks/colab/, .ci/learner_copies.py): what a Colab badge opens holds no output of a
cell that answers a bet, and no claim in such a cell names the answer. Which cells answer which bet is said on the
cells (their roles, read by helpers.lesson, which also checks each bet's cells: tests/test_tu_turno.py); what a bet
says (its phrases that give it away) is helpers/data/predictions.json's; every bet a notebook asks carries a role."""

from __future__ import annotations

import ast
import importlib.util
import re

import facts
import pytest
from conftest import NOTEBOOKS, ROOT, load

from helpers import lesson, predictions
from helpers.lesson import source as text

spec = importlib.util.spec_from_file_location("learner_copies", ROOT / ".ci" / "learner_copies.py")
learner_copies = importlib.util.module_from_spec(spec)
spec.loader.exec_module(learner_copies)

COPIES = ROOT / facts.COPIES
BETS = predictions.bets()
# A markdown cell that asks for a bet; an exercise's («Contalo antes de correr la celda») has its answer folded and
# its check cell stored without output already (its role: exercise_answer), so it is not one.
ASKS = re.compile(r"antes de correr|apost[aá]|anot[aá] tu apuesta", re.I)


def copy_of(name: str) -> dict:
    path = COPIES / name
    assert path.exists(), f"{facts.COPIES}/{name} is missing: run `make copies`"
    return load(path)


def by_id(nb: dict) -> dict:
    return {c.get("id"): c for c in nb["cells"]}


def outputs_left(nb: dict, ids) -> list[str]:
    """The cells among ``ids`` that still show something: an output or an execution count."""
    cells = by_id(nb)
    return [i for i in ids if cells[i].get("outputs") or cells[i].get("execution_count") is not None]


def answering(nb: dict, key: str) -> list[str]:
    """The ids of the cells whose output answers bet ``key`` (their roles say so)."""
    bet = lesson.bet_cells(nb).get(key)
    return [nb["cells"][i].get("id") for i in bet.answers] if bet else []


def claim_texts(source: str) -> list[str]:
    """The text (second argument) of every helpers.claim(...) call; an f-string's literal parts."""
    out = []
    for node in ast.walk(ast.parse(re.sub(r"(?m)^\s*[%!].*$", "", source))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "claim"
                and len(node.args) >= 2):
            arg = node.args[1]
            parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
            out.append("".join(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)))
    return out


def claims_naming(nb: dict, ids, phrases) -> list[tuple[str, str, str]]:
    """(cell id, claim text, phrase) for each claim in the cells ``ids`` whose text holds one of ``phrases`` (a
    markdown cell of an answer region holds no claim)."""
    cells = by_id(nb)
    code = [i for i in ids if cells[i]["cell_type"] == "code"]  # the region's markdown reads the answer: no claims
    return [(i, t, p) for i in code for t in claim_texts(text(cells[i])) for p in phrases if p in t.lower()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_copy_is_what_the_script_writes_from_the_notebook_now(path):
    got = (COPIES / path.name).read_text(encoding="utf-8") if (COPIES / path.name).exists() else None
    assert got == learner_copies.learner_copy(path), f"{facts.COPIES}/{path.name} is stale: run `make copies`"


def test_no_copy_without_its_notebook():
    assert sorted(p.name for p in COPIES.glob("*.ipynb")) == [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("bet", BETS, ids=lambda b: b.key)
def test_a_copy_shows_no_answer_of_a_bet(bet):
    copy = copy_of(bet.notebook)
    answers = answering(copy, bet.key)
    assert answers, f"{facts.COPIES}/{bet.notebook}: no cell's role says it answers {bet.key}"
    left = outputs_left(copy, answers)
    assert not left, f"{facts.COPIES}/{bet.notebook}: cells {left} answer {bet.key} and still show their output"


@pytest.mark.parametrize("bet", BETS, ids=lambda b: b.key)
def test_no_claim_in_an_answering_cell_names_the_answer(bet):
    assert bet.gives_away, f"{bet.key}: predictions.json lists no phrase that would give it away"
    copy = copy_of(bet.notebook)
    named = claims_naming(copy, answering(copy, bet.key), bet.gives_away)
    assert not named, (f"{bet.notebook}: a claim in a cell that answers {bet.key} names its answer (move it to a "
                       f"hidden claims cell, or word it without the answer): {named}")


def test_the_bets_roles_are_checked():
    """helpers.lesson.problems finds an answer above its question, a bet predictions.json lacks, one left unasked."""
    nb = load(ROOT / "notebooks" / "03_layernorm.ipynb")
    assert lesson.problems(nb, "03_layernorm.ipynb") == []
    bet = lesson.bet_cells(nb)["03-batch"]
    lesson.mark(nb["cells"][bet.question - 2], bet=("03-batch", "answer"))
    lesson.mark(nb["cells"][bet.question - 1], bet=("03-nada", "question"))
    del nb["cells"][lesson.bet_cells(nb)["03-eps"].question]["metadata"][lesson.KEY]
    keepdim = lesson.bet_cells(nb)["03-keepdim"]
    for i in (keepdim.question, *keepdim.answers, *keepdim.tells):
        del nb["cells"][i]["metadata"][lesson.KEY]["bets"]
    said = lesson.problems(nb, "03_layernorm.ipynb")
    assert any("'03-batch'" in p and "right after the question" in p for p in said), said
    assert any("'03-batch': cell" in p and "not below the question" in p for p in said), said
    assert "bet '03-nada': not in helpers/data/predictions.json" in said
    assert "bet '03-eps': asked by 0 cells, not one" in said
    assert "bet '03-keepdim': helpers/data/predictions.json puts it here, no cell asks it" in said
    region = lesson.bet_cells(lesson.read(ROOT / "notebooks" / "03_layernorm.ipynb"))["03-batch"]
    nb = load(ROOT / "notebooks" / "03_layernorm.ipynb")
    last = region.answers[-1]
    lesson.mark(nb["cells"][last + 2], bet=("03-batch", "answer"))  # a gap in the region
    nb["cells"][last + 2]["cell_type"], nb["cells"][last + 2]["source"] = "markdown", "## Otra sección\n\ntexto"
    said = lesson.problems(nb, "03_layernorm.ipynb")
    assert any("'03-batch': its answer region skips cells" in p for p in said), said
    assert any("'03-batch': cell" in p and "holds a heading" in p for p in said), said
    nb = load(ROOT / "notebooks" / "03_layernorm.ipynb")
    lesson.mark(nb["cells"][region.answers[0]], bet=("03-batch", "tells"))  # «tells again» inside its own region
    nb["cells"][region.answers[0]]["metadata"][lesson.KEY]["bets"]["03-batch"] = "tells"
    lesson.mark(nb["cells"][last + 2], bet=("03-batch", "tells"))
    nb["cells"][last + 2]["cell_type"], nb["cells"][last + 2]["source"] = "markdown", "## Otra sección\n\ntexto"
    lesson.mark(nb["cells"][last + 3], bet=("03-batch", "dice"))
    said = lesson.problems(nb, "03_layernorm.ipynb")
    assert any("'03-batch': cell" in p and "tells it again but is not below its answer region" in p for p in said)
    assert any(f"'03-batch': cell {last + 2}" in p and "holds a heading" in p for p in said), said
    assert any("part 'dice' is not one of" in p for p in said), said


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_bet_a_notebook_asks_carries_its_role(path):
    """A cell that asks for a bet says so: its ask cell's role names the bet (which helpers.lesson.problems then finds
    in predictions.json with the cells that answer it), and a paragraph that asks for a bet is right above one."""
    nb = load(path)
    cells, answers = nb["cells"], set(lesson.exercise_answer_cells(nb))
    asking = {b.question for b in lesson.bet_cells(nb).values()}
    for i, cell in enumerate(cells):
        nxt = next((j for j in range(i + 1, len(cells)) if cells[j]["cell_type"] == "code"), None)
        if cell["cell_type"] == "code" and text(cell).startswith("helpers.predictions.ask("):
            assert i in asking, f"{path.name}: ask cell {cell.get('id')!r} is the question of no bet (its role)"
        elif cell["cell_type"] == "markdown" and ASKS.search(text(cell)) and nxt is not None and nxt not in answers:
            asked = text(cells[nxt]).startswith("helpers.predictions.ask(") and nxt == i + 1 and nxt in asking
            assert asked, (f"{path.name}: markdown cell {cell.get('id')!r} asks for a bet that no role names (add "
                           f"it to helpers/data/predictions.json, and its role to the cells that ask and answer it): "
                           f"{ASKS.search(text(cell)).group()!r}")


def test_badges_open_the_copies():
    assert facts.colab_url("01_ffn.ipynb").endswith(f"/blob/v{facts.version()}/{facts.COPIES}/01_ffn.ipynb")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for url in re.findall(r"https://colab\.research\.google\.com/github/[^)\s]+", readme):
        assert f"/{facts.COPIES}/" in url and (COPIES / url.rsplit("/", 1)[1]).exists(), url


def test_the_checks_can_fail():
    nb = {"cells": [{"cell_type": "code", "id": "a", "execution_count": 3, "outputs": [{"text": "50 %"}],
                     "source": ['helpers.claim(x > 0.4, f"la ReLU apaga la mitad: {x}")\n']},
                    {"cell_type": "code", "id": "b", "execution_count": None, "outputs": [], "source": ["1"]}]}
    assert outputs_left(nb, ["a", "b"]) == ["a"]
    assert claims_naming(nb, ["a"], ["mitad"]) == [("a", "la ReLU apaga la mitad: ", "mitad")]
    cleared = learner_copies.json.loads(learner_copies.dumps(nb))
    assert cleared == nb  # dumps keeps everything: learner_copy is what clears, only the answering cells
