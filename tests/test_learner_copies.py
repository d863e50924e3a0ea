"""The learner's copies (notebooks/colab/, .ci/learner_copies.py): what a Colab badge opens holds no output of a
cell that answers a bet, and no claim in such a cell names the answer. Which cells answer which bet is read from
one source, helpers/data/predictions.json (helpers.predictions.bets()); every bet a notebook asks is listed there."""

from __future__ import annotations

import ast
import importlib.util
import re

import facts
import pytest
from conftest import NOTEBOOKS, ROOT, load

from helpers import predictions

spec = importlib.util.spec_from_file_location("learner_copies", ROOT / ".ci" / "learner_copies.py")
learner_copies = importlib.util.module_from_spec(spec)
spec.loader.exec_module(learner_copies)

COPIES = ROOT / facts.COPIES
BETS = predictions.bets()
# A markdown cell that asks for a bet; an exercise's («Contalo antes de correr la celda») has its answer folded and
# its check cell stored without output already (tagged exercise-answer), so it is not one.
ASKS = re.compile(r"antes de correr|apost[aá]|anot[aá] tu apuesta", re.I)


def text(cell: dict) -> str:
    return "".join(cell["source"])


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
    """(cell id, claim text, phrase) for each claim in the cells ``ids`` whose text holds one of ``phrases``."""
    cells = by_id(nb)
    return [(i, t, p) for i in ids for t in claim_texts(text(cells[i])) for p in phrases if p in t.lower()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_copy_is_what_the_script_writes_from_the_notebook_now(path):
    got = (COPIES / path.name).read_text(encoding="utf-8") if (COPIES / path.name).exists() else None
    assert got == learner_copies.learner_copy(path), f"{facts.COPIES}/{path.name} is stale: run `make copies`"


def test_no_copy_without_its_notebook():
    assert sorted(p.name for p in COPIES.glob("*.ipynb")) == [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("bet", BETS, ids=lambda b: b.key)
def test_a_copy_shows_no_answer_of_a_bet(bet):
    left = outputs_left(copy_of(bet.notebook), bet.answered_by)
    assert not left, f"{facts.COPIES}/{bet.notebook}: cells {left} answer {bet.key} and still show their output"


@pytest.mark.parametrize("bet", BETS, ids=lambda b: b.key)
def test_no_claim_in_an_answering_cell_names_the_answer(bet):
    assert bet.gives_away, f"{bet.key}: predictions.json lists no phrase that would give it away"
    named = claims_naming(copy_of(bet.notebook), bet.answered_by, bet.gives_away)
    assert not named, (f"{bet.notebook}: a claim in a cell that answers {bet.key} names its answer (move it to a "
                       f"hidden claims cell, or word it without the answer): {named}")


@pytest.mark.parametrize("bet", BETS, ids=lambda b: b.key)
def test_each_bet_points_at_its_cells(bet):
    cells = load(ROOT / "notebooks" / bet.notebook)["cells"]
    ids = [c.get("id") for c in cells]
    assert bet.asked_in in ids, f"{bet.key}: {bet.notebook} has no cell {bet.asked_in!r} (asked_in)"
    at = ids.index(bet.asked_in)
    if bet.question:
        assert text(cells[at]) == f'helpers.predictions.ask("{bet.key}")', f"{bet.key}: asked_in is not its ask cell"
    else:
        assert cells[at]["cell_type"] == "markdown" and ASKS.search(text(cells[at])), \
            f"{bet.key}: asked_in {bet.asked_in!r} is not a markdown cell that asks for a bet"
    first = next(c.get("id") for c in cells[at + 1:]  # the code cell after the question (and after its ask cell)
                 if c["cell_type"] == "code" and not text(c).startswith("helpers.predictions.ask("))
    assert bet.answered_by and bet.answered_by[0] == first, \
        f"{bet.key}: the first cell that answers it is the code cell right after the question, {first!r}"
    for i in bet.answered_by:
        assert i in ids and ids.index(i) > at and cells[ids.index(i)]["cell_type"] == "code", \
            f"{bet.key}: answered_by {i!r} is not a code cell below the question"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_bet_a_notebook_asks_is_in_predictions_json(path):
    cells = load(path)["cells"]
    listed = {b.asked_in for b in BETS if b.notebook == path.name}
    for i, cell in enumerate(cells):
        nxt = next((c for c in cells[i + 1:] if c["cell_type"] == "code"), None)
        if cell["cell_type"] == "code" and text(cell).startswith("helpers.predictions.ask("):
            assert cell.get("id") in listed, f"{path.name}: ask cell {cell.get('id')!r} is not in predictions.json"
        elif cell["cell_type"] == "markdown" and ASKS.search(text(cell)) and nxt is not None \
                and "exercise-answer" not in nxt.get("metadata", {}).get("tags", []):
            asked = cell.get("id") in listed or (text(nxt).startswith("helpers.predictions.ask(")
                                                  and nxt is cells[i + 1] and nxt.get("id") in listed)
            assert asked, (f"{path.name}: markdown cell {cell.get('id')!r} asks for a bet that "
                           f"helpers/data/predictions.json does not list (add it, with the cells that answer it): "
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
