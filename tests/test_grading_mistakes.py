"""What the class report says of each key a checker gives, against the checkers and the notebooks: every named
mistake carries its teacher's label and question, beside it in its exercise module; each section an exercise names
is a heading of its notebook; a new exercise module that leaves the teacher's text out is refused, saying what to
add; the notebooks table (helpers/grading/_mistakes.py) is the repository's; and every other key a checker can
give (read from helpers/check's source) is explained, by its checker's ``problems`` or, for a key any checker or
the grader gives, by ``OTHER``."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from conftest import NOTEBOOKS, ROOT, load

from helpers.check import exercises
from helpers.check.exercises import MODULES
from helpers.grading import _mistakes

CHECKERS = {m.checker.name: m.checker for m in MODULES}
ORDER = {m.checker.name: m.ORDER for m in MODULES}
GRADER_KEYS = {"missing", "error", "not_graded"}  # helpers.grading._grade's own


def headings(notebook: Path) -> list[str]:
    """The markdown headings of a notebook, without their #."""
    found = []
    for cell in load(notebook)["cells"]:
        if cell["cell_type"] == "markdown":
            found += re.findall(r"(?m)^#{1,6}\s+(.+?)\s*$", "".join(cell["source"]))
    return found


@pytest.mark.parametrize("name", sorted(CHECKERS))
def test_each_named_mistake_says_what_a_teacher_reads(name):
    mistakes = CHECKERS[name].mistakes
    labels = [m.label for m in mistakes]
    assert len(set(labels)) == len(labels), f"{name}: two mistakes share a label: {labels}"
    for m in mistakes:
        where = f'helpers/check/exercises/{name}.py, @mistakes.add("{m.key}", …)'
        assert 3 <= len(m.label) <= 40 and m.label == m.label.strip(), f"{where}: label= is 3 to 40 characters"
        assert "¿" in m.question and m.question.endswith(("?", ".")), f"{where}: question= asks (¿…?): {m.question}"
        assert m.section, f"{where}: no section (the exercise's own is Exercise(..., section=…))"


def test_the_notebooks_are_the_repositorys():
    stems = {p.stem: p for p in NOTEBOOKS}
    assert {stem for stem, _ in _mistakes.NOTEBOOKS.values()} == set(stems)
    for prefix, (stem, title) in _mistakes.NOTEBOOKS.items():
        assert stem.startswith(f"{prefix}_")
        first = "".join(load(stems[stem])["cells"][0]["source"]).splitlines()[0]
        part = f"Parte {int(prefix)}" if prefix.isdigit() else "Para ir más lejos"  # "02b": a deep dive of 02
        assert first.endswith(f"{part} — {title}"), first
    assert {order[0] for order in ORDER.values()} <= set(_mistakes.NOTEBOOKS)


@pytest.mark.parametrize("name", sorted(CHECKERS))
def test_each_section_is_a_heading_of_the_exercises_notebook(name):
    stem = _mistakes.NOTEBOOKS[ORDER[name][0]][0]
    there = headings(ROOT / "notebooks" / f"{stem}.ipynb")
    sections = {CHECKERS[name].section} | {m.section for m in CHECKERS[name].mistakes}
    gone = {s: [h for h in there if h[0].isdigit() and h.split(" ", 1)[0] == s.split(" ", 1)[0]]
            for s in sections - set(there)}
    assert not gone, (f"{stem} has no such heading (with the same number it has, now): {gone}; fix section= in "
                      f"helpers/check/exercises/{name}.py")


MODULE = '''
from helpers.check._core import Exercise, Gallery, Probe, number_difference

ORDER = ("99", 1)
mistakes = Gallery()


@mistakes.add("triple", "Multiplicaste por 3."{teacher})
def _triple(x):
    return 3 * x


def assess(ex, answer):
    return ex.judge_function(answer, [Probe("un 3", (3,))], number_difference, "Bien.")


checker = Exercise("{name}", reference=lambda x: 2 * x, hints=("Por dos.",), assess=assess, mistakes=mistakes,
                   expects="tu función"{section})
'''
LABEL, QUESTION, SECTION = ', label="por 3"', ', question="¿Por cuánto multiplica?"', ', section="1. El doble"'
ADD_LABEL = 'label="…" (a short name for it, at most 40 characters)'
ADD_QUESTION = 'question="¿…?" (what to ask the class about it)'


@pytest.mark.parametrize("teacher, section, says", [
    ("", SECTION, f'add {ADD_LABEL} and {ADD_QUESTION} to @mistakes.add("triple", …)'),
    (LABEL, SECTION, f'add {ADD_QUESTION} to @mistakes.add("triple", …)'),
    (QUESTION, SECTION, f'add {ADD_LABEL} to @mistakes.add("triple", …)'),
    (LABEL + QUESTION, "", 'Exercise("stray_teacher", …) lacks section="…": the heading of its notebook'),
    (LABEL + QUESTION, SECTION, None),  # all of it: found, its mistake's section is the exercise's
], ids=["neither", "no_question", "no_label", "no_section", "complete"])
def test_an_exercise_module_without_its_teachers_text_says_what_to_add(tmp_path, monkeypatch, teacher, section,
                                                                        says):
    """The registry imports a new module as it finds it: a mistake or an exercise short of what a teacher reads
    stops it there, and the error names the argument to add and where."""
    (tmp_path / "stray_teacher.py").write_text(MODULE.format(teacher=teacher, section=section, name="stray_teacher"),
                                               encoding="utf-8")
    monkeypatch.setattr(exercises, "__path__", [*exercises.__path__, str(tmp_path)])
    try:
        if says is None:
            found = {m.checker.name: m.checker for m in exercises.discover()}["stray_teacher"]
            assert [(m.label, m.section) for m in found.mistakes] == [("por 3", "1. El doble")]
            return
        with pytest.raises(TypeError) as refused:
            exercises.discover()
        assert says in str(refused.value), str(refused.value)
    finally:
        sys.modules.pop(f"{exercises.__name__}.stray_teacher", None)


def test_a_key_of_no_gallery_has_no_entry():
    assert _mistakes.entry("layer_norm", "raised") is None
    assert _mistakes.entry("layer_norm", "post_norm") is None  # block_pre's, not layer_norm's
    assert _mistakes.entry("no_such_exercise", "post_norm") is None
    assert _mistakes.entry("layer_norm", "batch_axis").section == "4. ¿Cada token por su cuenta, o todo el batch?"
    assert _mistakes.entry("layer_norm", "fixed_eps").section == CHECKERS["layer_norm"].section  # the exercise's
    assert _mistakes.other_label("raised") == "su código falla al correr"
    assert _mistakes.other_label("int_mask") == "una máscara de enteros"  # mask's own
    assert _mistakes.other_label("no_such_key") == "«no_such_key»"
    assert "int_mask" in _mistakes.problems("mask") and "int_mask" not in _mistakes.problems("ffn")
    assert "raised" in _mistakes.problems("ffn")


def _keys_in_source() -> dict[str, dict[str, str]]:
    """Every literal key each file of helpers/check can give, with where: the second argument of ``wrong(...)``,
    the fourth of ``Verdict(...)``, the second of ``Difference(...)``, and a (sentence, key) pair a helper returns
    for ``wrong``."""
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
                if isinstance(v, ast.Constant) and isinstance(v.value, str) and re.fullmatch(r"[a-z_][a-z0-9_]*",
                                                                                             v.value):
                    found.setdefault(path.stem, {}).setdefault(v.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_other_key_a_checker_gives_is_explained():
    found = _keys_in_source()
    assert {"raised", "timeout", "unknown"} <= set(found["_core"]), "the scan misses keys"
    assert {"hard_coded_size", "hidden_is_4d"} <= set(found["ffn"]), "the scan misses keys"
    unexplained = {k: where for file, keys in found.items() for k, where in keys.items()
                   if k != "value" and (file not in CHECKERS and k not in _mistakes.OTHER or file in CHECKERS and k
                                        not in {m.key for m in CHECKERS[file].mistakes} | set(
                                            _mistakes.problems(file)))}
    assert not unexplained, ("keys a checker gives that nothing explains: say what each means, for a teacher, in "
                             "problems={…} of its module's Exercise(...) (or in OTHER, "
                             f"helpers/grading/_mistakes.py, when any checker can give it): {unexplained}")


def test_each_key_beyond_the_galleries_is_written_once_and_means_one_thing():
    found = _keys_in_source()
    shared = set(found["_core"]) | GRADER_KEYS
    assert set(_mistakes.OTHER) <= shared, ("OTHER is for keys any checker or the grader gives; one exercise's "
                                            f"go in its problems: {set(_mistakes.OTHER) - shared}")
    meaning: dict[str, str] = {}
    for name, checker in CHECKERS.items():
        gallery = {m.key for m in checker.mistakes}
        for key, label in checker.problems.items():
            assert key in found.get(name, {}), f"{name}: problems names {key!r}, which its module never gives"
            assert key not in gallery and key not in _mistakes.OTHER, f"{name}: {key!r} is explained twice"
            assert meaning.setdefault(key, label) == label, f"{key!r} means two things: {meaning[key]!r}, {label!r}"
            assert 3 <= len(label) <= 60, f"{name}: {key!r}: {label!r}"
