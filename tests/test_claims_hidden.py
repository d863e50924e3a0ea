"""The claims out of the reading path: every helpers.claim(...) lives in a claims cell, which a learner does not read
by default (Colab shows a form cell's title only; JupyterLab collapses a source_hidden cell; the site hides its
source). A claims cell: metadata {"cellView": "form", "jupyter": {"source_hidden": true}, "leccion06": {"claims":
true, ...}} (its role, read by helpers.lesson) and first line TITLE; it holds claims, prints and shows nothing (a
claim that holds prints nothing; under make one that fails stops the run), so no lesson output hides in it.
Run: python tests/test_claims_hidden.py (the counts)."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import NOTEBOOKS, load

from helpers import lesson
from helpers.lesson import source

TITLE = "# @title Comprobación automática: el texto de arriba, contra tus números"
SHOWS = re.compile(r"\b(print|display|plt\.show|helpers\.plots\.show|show)\(")


def claims_role(cell: dict) -> bool:
    return lesson.roles(cell).get("claims") is True


def is_claims_cell(cell: dict) -> bool:
    meta = cell.get("metadata", {})
    return (cell["cell_type"] == "code" and meta.get("cellView") == "form"
            and meta.get("jupyter", {}).get("source_hidden") is True and claims_role(cell)
            and source(cell).split("\n", 1)[0].strip() == TITLE)


def claim_lines(code: str) -> tuple[int, int]:
    """(calls, lines) of helpers.claim(...) in a cell's code: the lines each call spans."""
    tree = ast.parse(re.sub(r"(?m)^(\s*)[%!].*$", r"\1pass", code))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "claim" and ast.unparse(n.func.value).endswith("helpers")]
    lines = set()
    for c in calls:
        lines.update(range(c.lineno, c.end_lineno + 1))
    return len(calls), len(lines)


def visible_claims(nb: dict) -> tuple[int, int]:
    """(calls, lines) of claims a learner reads: those outside claims cells."""
    counts = [claim_lines(source(c)) for c in nb["cells"] if c["cell_type"] == "code" and not is_claims_cell(c)]
    return sum(c for c, _ in counts), sum(n for _, n in counts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_claim_in_the_reading_path(path):
    nb = load(path)
    where = [c.get("id") for c in nb["cells"] if c["cell_type"] == "code" and not is_claims_cell(c)
             and claim_lines(source(c))[0]]
    calls, lines = visible_claims(nb)
    assert not where, (f"{path.name}: {calls} helpers.claim calls ({lines} lines) in cells a learner reads: {where}; "
                       f"move them to a claims cell (metadata cellView form, jupyter.source_hidden, role "
                       f"{{{lesson.KEY!r}: {{'claims': True}}}}; first line {TITLE!r})")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_claims_cell_only_claims(path):
    for cell in load(path)["cells"]:
        meta = cell.get("metadata", {})
        if not claims_role(cell) and not source(cell).startswith(TITLE.split(":")[0]):
            continue
        assert is_claims_cell(cell), f"{path.name}, cell {cell.get('id')}: half a claims cell (metadata {meta})"
        assert claim_lines(source(cell))[0], f"{path.name}, cell {cell.get('id')}: a claims cell with no claim"
        assert not SHOWS.search(source(cell)), f"{path.name}, cell {cell.get('id')}: a claims cell that shows something"
        assert not cell.get("outputs"), f"{path.name}, cell {cell.get('id')}: a claims cell with an output stored"


def test_the_checks_can_fail():
    seen = {"cell_type": "code", "metadata": {}, "outputs": [],
            "source": ['x = 1\n', 'helpers.claim(x == 1,\n', '              "uno")\n']}
    hidden = {**seen, "source": [TITLE + "\n", *seen["source"]],
              "metadata": {"cellView": "form", "jupyter": {"source_hidden": True}, lesson.KEY: {"claims": True}}}
    assert visible_claims({"cells": [seen]}) == (1, 2) and visible_claims({"cells": [hidden]}) == (0, 0)
    assert not is_claims_cell({**hidden, "source": seen["source"]}), "the title is part of the convention"
    assert not is_claims_cell({**hidden, "metadata": {**hidden["metadata"], lesson.KEY: {}}}), "and the role"
    assert SHOWS.search("print(x)") and not SHOWS.search("helpers.claim(x, 'y')")


if __name__ == "__main__":
    for p in NOTEBOOKS:
        calls, lines = visible_claims(load(p))
        print(f"{p.name}: visible claims: {calls} calls, {lines} lines")
