"""One reader of the lesson's structure (issue 54; STYLE.md, «The lesson's structure, on the cells»): what a cell is
lives in its metadata, and helpers/lesson.py is the one module that reads it, or parses the text a «Tu turno» shows.
Any other Python file in helpers/, tests/, .ci/ or benchmarks/ that parses that text (a string opening a stub or a
prompt, the folded solution's <summary>, a regex over a check cell's call, a check cell's text rebuilt to compare
with) or reads where a bet sat in predictions.json (answered_by, asked_in) or the old tags fails here, by file and
line. Docstrings and comments may name the conventions; code may not."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT

# tests/grading_fixtures.py writes the «Tu turno» text of its synthetic notebooks (with their roles) and reads none
ALLOWED = {"helpers/lesson.py", "tests/test_one_reader.py", "tests/grading_fixtures.py"}
FOLDERS = ("helpers", "tests", ".ci", "benchmarks")
OPENS = re.compile(r"(?<![«\w])#{1,3} ?Tu turno")  # a stub's or a prompt's first words («# Tu turno» is prose)
SUMMARY = "<summary>Ver la solución"  # the folded solution's opening
CHECK_REGEX = re.compile(r"helpers\\\.check\\\.(?:\(\\w\+\)|\\w\+)\\\(")  # r"helpers\.check\.(\w+)\(" and kin
CHECK_TEXT = re.compile(r"^\s*helpers\.check\.(?:\w+|\{\})\((?:\w+|\{\})\)\s*$")  # a check cell's whole text
OLD_NAMES = {"answered_by", "asked_in", "exercise-answer"}  # where a bet sat in predictions.json; the old tag


def _docstrings(tree) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _text(node) -> str | None:
    """A string constant's value, or an f-string's with {} for each placeholder."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _compared(tree) -> set[int]:
    """ids of the strings a cell's text is compared with: == and != operands, startswith's and match's arguments
    (building a check cell's text to run it is no parsing; comparing a cell with it is)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            out |= {id(n) for n in (node.left, *node.comparators)}
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "match", "fullmatch", "removeprefix")):
            out |= {id(n) for n in node.args}
    return out


def parsing(code: str) -> list[tuple[int, str]]:
    """(line, what) for each place the code parses the lesson's structure itself."""
    tree = ast.parse(code)
    skip, compared, found = _docstrings(tree), _compared(tree), []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip |= {id(v) for v in node.values}  # judged as a whole
        name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                else node.arg if isinstance(node, (ast.arg, ast.keyword)) else None)
        text = None if id(node) in skip else _text(node)
        what = ([name] if name in OLD_NAMES else []) + ([text] if text in OLD_NAMES else [])
        if text is not None:
            what += [text for pattern in (OPENS, CHECK_REGEX) if pattern.search(text)]
            what += [text] if SUMMARY in text or (id(node) in compared and CHECK_TEXT.match(text)) else []
        found += [(node.lineno, w) for w in what[:1]]
    return sorted(set(found))


def _files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel not in ALLOWED and "node_modules" not in rel:
                yield rel


@pytest.mark.parametrize("rel", list(_files()))
def test_only_helpers_lesson_reads_the_structure(rel):
    found = parsing((ROOT / rel).read_text(encoding="utf-8"))
    assert not found, (f"{rel} parses the lesson's structure itself, at (line, text) {found}: ask helpers.lesson "
                       "(exercise_cells, bet_cells, answering, claims_cells, exercise_answer_cells, check_call...)")


@pytest.mark.parametrize("code", [
    'if src.startswith("# Tu turno"):\n    pass',
    'PROMPT = "### Tu turno"',
    'ok = src.lstrip().startswith("#Tu turno")',
    'OPEN = "<details><summary>Ver la solución</summary>"',
    'CHECK = re.compile(r"^helpers\\.check\\.(\\w+)\\((\\w+)\\)$")',
    'm = re.match(r"helpers\\.check\\.\\w+\\(", s)',
    'at = next(i for i, t in enumerate(text) if t.strip() == "helpers.check.use_loss(perdida_en_uso)")',
    'same = src.strip() == f"helpers.check.{name}({variable})"',
    'ids = bet.answered_by',
    'q = data["asked_in"]',
    'tagged = "exercise-answer" in tags',
    'def f(asked_in):\n    return asked_in',
])
def test_a_parser_is_caught(code):
    assert parsing(code), code


@pytest.mark.parametrize("code", [
    '"""Docstrings name them: a stub starts ``# Tu turno``; answered_by is gone."""',
    'x = 1  # a comment: src.startswith("# Tu turno")',
    'msg = f"la celda {i} (el «Tu turno» de {name})"',
    'where = "está arriba, en «Ver la solución»"',
    'test = f"veredicto = helpers.check.{name}({variable})\\n"',
    'cell = nbformat.v4.new_code_cell("helpers.check.layer_norm(nunca)")',
    'assert "helpers.check.layer_norm(mi_layer_norm)" in tests["tests/layer_norm.py"]',
    'WORKING = re.compile(r"^helpers\\.check\\.(\\w+)\\.working$")',
    'ex = lesson.exercise_cells(nb)',
])
def test_what_is_no_parser_passes(code):
    assert not parsing(code), parsing(code)
