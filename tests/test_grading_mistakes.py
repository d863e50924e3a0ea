"""The class report's catalogue of mistakes (helpers.grading._mistakes) against the checkers and the notebooks: one
entry for every gallery key of every checker and nothing else, each section a real heading of the exercise's
notebook, each notebook's number, file and title as the notebooks have them, and every other key a checker can give
(read from helpers/check's source) explained in OTHER, so that no key reaches a report unexplained."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import NOTEBOOKS, ROOT, load

from helpers.check.exercises import MODULES
from helpers.grading import _mistakes

CHECKERS = {m.checker.name: m for m in MODULES}
GALLERY = {(name, g.key) for name, m in CHECKERS.items() for g in m.checker.mistakes}


def headings(notebook: Path) -> list[str]:
    """The markdown headings of a notebook, without their #."""
    found = []
    for cell in load(notebook)["cells"]:
        if cell["cell_type"] == "markdown":
            found += re.findall(r"(?m)^#{1,6}\s+(.+?)\s*$", "".join(cell["source"]))
    return found


def test_every_gallery_mistake_has_an_entry_and_no_entry_is_extra():
    assert set(_mistakes.CATALOGUE) == GALLERY, (
        f"missing: {sorted(GALLERY - set(_mistakes.CATALOGUE))}; extra: {sorted(set(_mistakes.CATALOGUE) - GALLERY)}")
    assert set(_mistakes.SECTIONS) == set(CHECKERS)


def test_the_notebooks_are_the_repositorys():
    stems = {p.stem: p for p in NOTEBOOKS}
    assert {stem for stem, _ in _mistakes.NOTEBOOKS.values()} == set(stems)
    for number, (stem, title) in _mistakes.NOTEBOOKS.items():
        assert stem.startswith(f"{number:02d}_")
        first = "".join(load(stems[stem])["cells"][0]["source"]).splitlines()[0]
        assert first.endswith(f"Parte {number} — {title}"), first
    assert {m.ORDER[0] for m in MODULES} <= set(_mistakes.NOTEBOOKS)


@pytest.mark.parametrize("name", sorted(CHECKERS))
def test_each_section_is_a_heading_of_the_exercises_notebook(name):
    stem = _mistakes.NOTEBOOKS[CHECKERS[name].ORDER[0]][0]
    there = headings(ROOT / "notebooks" / f"{stem}.ipynb")
    sections = {_mistakes.entry(name, g.key).section for g in CHECKERS[name].checker.mistakes}
    renamed = {gone: [h for h in there if h.split(" ", 1)[0] == gone.split(" ", 1)[0] and h[0].isdigit()]
               for gone in sections - set(there)}
    assert not renamed, f"{stem} has no heading (now, with the same number: helpers/grading/_mistakes.py): {renamed}"


@pytest.mark.parametrize("name", sorted(CHECKERS))
def test_each_entry_is_short_distinct_and_asks(name):
    labels = [_mistakes.entry(name, g.key).label for g in CHECKERS[name].checker.mistakes]
    assert len(set(labels)) == len(labels), f"{name}: two mistakes share a name: {labels}"
    for g in CHECKERS[name].checker.mistakes:
        e = _mistakes.entry(name, g.key)
        assert 3 <= len(e.label) <= 40 and e.label == e.label.strip(), e.label
        assert e.question.endswith("?") or e.question.endswith("."), e.question
        assert "¿" in e.question, f"{name}.{g.key}: not a question: {e.question}"


def test_a_key_of_no_gallery_has_no_entry():
    assert _mistakes.entry("layer_norm", "raised") is None
    assert _mistakes.entry("layer_norm", "post_norm") is None  # block_pre's, not layer_norm's
    assert _mistakes.other_label("raised") == "su código falla al correr"
    assert _mistakes.other_label("no_such_key") == "«no_such_key»"


def _keys_in_source() -> dict[str, str]:
    """Every literal mistake key helpers/check can give: the second argument of ``wrong(...)``, the fourth of
    ``Verdict(...)``, the second of ``Difference(...)``, and a (sentence, key) pair a helper returns for ``wrong``."""
    found = {}
    for path in sorted((ROOT / "helpers" / "check").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values = []
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                at = {"wrong": 1, "Verdict": 3, "Difference": 1}.get(called)
                if at is not None and len(node.args) > at:
                    values.append(node.args[at])
                values += [k.value for k in node.keywords if k.arg in ("mistake", "kind")]
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.JoinedStr):
                values.append(node.elts[1])
            for v in values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str) and re.fullmatch(r"[a-z_]+", v.value):
                    found.setdefault(v.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_other_key_a_checker_gives_is_explained():
    gallery_keys = {key for _, key in GALLERY}
    found = _keys_in_source()
    assert {"raised", "timeout", "unknown", "hard_coded_size", "not_none"} <= set(found), "the scan misses keys"
    unexplained = {k: where for k, where in found.items()
                   if k not in gallery_keys and k not in _mistakes.OTHER and k != "value"}
    assert not unexplained, f"keys a checker gives that OTHER does not explain: {unexplained}"
