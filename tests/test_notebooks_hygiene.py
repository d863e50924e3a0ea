"""Reads every notebook's JSON: was it run top to bottom, cleanly, with the house setup cell?"""

from __future__ import annotations

import ast
import re

import facts
import pytest
from conftest import NOTEBOOKS, ROOT, colab_url, load

from helpers import lesson
from helpers.lesson import source

LOCAL_PATH = re.compile(r"(/tmp/(?!ipykernel)|/root/|/work/|/home/\w+/|site-packages/|[A-Z]:\\\\Users)")
NAME = re.compile(r"^\d\db?_[a-z0-9_]+\.ipynb$")  # "05b_…": a «Para ir más lejos» of 05

ids = [nb.name for nb in NOTEBOOKS]


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found under notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_name(path):
    assert NAME.match(path.name), f"{path.name}: notebooks are named NN_topic.ipynb (a deep dive, NNb_topic.ipynb)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_run_top_to_bottom_in_fresh_kernel(path):
    """Counts 1..N over the code cells; an «Ejercicios» answer ran in its place, and make execute now stores it as
    never run (no count), so its number may be missing (a notebook stored before that keeps it)."""
    nb = load(path)
    answers = set(lesson.exercise_answer_cells(nb))
    run = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and source(c).strip()]
    counts = [nb["cells"][i]["execution_count"] for i in run]
    expected = [None if i in answers and counts[k] is None else k + 1 for k, i in enumerate(run)]
    assert counts == expected, (
        f"{path.name}: execution counts {counts} are not 1..N (None for an exercise's answer); run "
        f"`make execute NB={path.relative_to(ROOT)}`"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_outputs_are_clean(path):
    for i, cell in enumerate(code_cells(load(path)), start=1):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{path.name}, code cell {i}: stores an error"
            assert out.get("name") != "stderr", (
                f"{path.name}, code cell {i}: writes to stderr: {source_text(out)[:120]!r}"
            )
            text = source_text(out)
            assert "\r" not in text, (
                f"{path.name}, code cell {i}: a progress line (helpers.progress) is left in the stored output: "
                f"print the cell's result after its loop, and store with `make execute` (it merges streams)")
            m = LOCAL_PATH.search(text)
            assert not m, f"{path.name}, code cell {i}: output shows a local path ({m and m.group(0)})"


def source_text(out: dict) -> str:
    text = "".join(out.get("text", ""))
    for key, value in out.get("data", {}).items():
        if key.startswith("text/"):
            text += "".join(value)
    return text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_setup_cell_is_the_template(path):
    cells = code_cells(load(path))
    assert cells, f"{path.name}: has no code cell"
    assert source(cells[0]).strip() == facts.setup_cell(), (
        f"{path.name}: the first code cell must be tests/setup_cell.txt with pyproject's URL and version "
        "(make release writes it)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_no_widget_state_stored(path):
    nb = load(path)
    assert "widgets" not in nb.get("metadata", {}), (
        f"{path.name}: widget state stored in metadata; execute with store_widget_state=False"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_title_cell_has_colab_badge(path):
    first = load(path)["cells"][0]
    assert first["cell_type"] == "markdown" and source(first).startswith("# "), (
        f"{path.name}: the first cell is the title (markdown, '# ...')"
    )
    assert colab_url(path) in source(first), f"{path.name}: title cell lacks its Colab badge"


def test_readme_badges_use_the_repository_url():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badges = re.findall(r"https://colab\.research\.google\.com/github/[^)\s]+", readme)
    assert badges, "README.md has no 'Open in Colab' badge"
    expected = {colab_url(nb) for nb in NOTEBOOKS}
    assert set(badges) == expected, f"README badges {sorted(set(badges))} != {sorted(expected)}"


def test_no_notebook_downloads_or_upgrades():
    bad = re.compile(r"(pip install[^\n]*(-U|--upgrade)|wget |curl |urlretrieve|hf_hub_download|torch\.hub)")
    for path in NOTEBOOKS:
        for cell in code_cells(load(path)):
            m = bad.search(source(cell))
            assert not m, f"{path.name}: a cell downloads or upgrades something ({m.group(0)!r})"


NBVAL_TAGS = {"nbval-ignore-output"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_nbval_markers_are_tags_not_comments(path):
    """What nbval needs lives in cell tags (metadata.tags), invisible to learners and to the site's readers; a
    '# NBVAL_...' comment would show on every page. Only ignoring an output is allowed, never skipping a cell."""
    for i, cell in enumerate(code_cells(load(path)), start=1):
        assert "NBVAL" not in source(cell), f"{path.name}, code cell {i}: an NBVAL comment; use the cell tag instead"
        tags = {t for t in cell.get("metadata", {}).get("tags", []) if t.startswith("nbval")}
        assert tags <= NBVAL_TAGS, f"{path.name}, code cell {i}: nbval tags {sorted(tags - NBVAL_TAGS)} not allowed"


IMG = re.compile(r'<img src="data:image/png;base64,[^"]+" alt="([^"]*)"')
NO_NUMBER = {("04_encoder_block.ipynb", "c03"): "three diagrams of where LayerNorm goes: nothing to count"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_every_figure_has_spanish_alt_text(path):
    """Figures are shown with helpers.plots.show(fig, alt): an <img> with alt text, never a bare PNG."""
    for i, cell in enumerate(code_cells(load(path)), start=1):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            assert "image/png" not in data, (
                f"{path.name}, code cell {i}: a figure without alt text; end the cell with "
                f"helpers.plots.show(fig, \"qué muestra y su número principal\") instead of plt.show()")
            for alt in IMG.findall("".join(data.get("text/html", ""))):
                number = re.search(r"\d", alt) or (path.name, cell.get("id")) in NO_NUMBER
                assert len(alt) >= 60 and number and not alt.lower().startswith("figura"), (
                    f"{path.name}, code cell {i}: alt text must say what the figure shows and its main number: "
                    f"{alt!r}")


def _names_in(code: str) -> set[str]:
    """Every variable name a cell's code mentions (IPython magics and shell lines left out)."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    return {node.id for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Name)}


WIDGET = re.compile(r"^(\w+)\s*=\s*helpers\.widgets\.\w+\(", re.M)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_no_cell_drives_a_widget_the_learner_sees(path):
    """A widget stays as its cell made it, the state the text describes, and keeps what the learner typed:
    no later cell touches it (driving a widget from code is what tests/ and the browser test do)."""
    cells = code_cells(load(path))
    for i, cell in enumerate(cells):
        for name in WIDGET.findall(source(cell)):
            for j, later in enumerate(cells[i + 1:], start=i + 2):
                assert name not in _names_in(source(later)), (
                    f"{path.name}, code cell {j}: uses the widget `{name}` shown in code cell {i + 1}; after "
                    f"'Ejecutar todas' the learner would see what this cell did to it")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_claims_use_helpers_claim_not_assert(path):
    """A learner who changes a number meets a Spanish note, not a bare AssertionError: a notebook checks what its
    text says with helpers.claim(...), never with assert."""
    for i, cell in enumerate(code_cells(load(path)), start=1):
        code = "\n".join(line for line in source(cell).splitlines() if not line.lstrip().startswith(("%", "!")))
        lines = [node.lineno for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Assert)]
        assert not lines, f"{path.name}, code cell {i}, line {lines[0]}: a bare assert; use helpers.claim(...)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_exercise_answers_are_not_stored(path):
    """An exercise's answer shows when the learner runs its cell, not under the question: a 'Comprobación' cell's
    role is exercise_answer (make execute clears its output; nbval runs it and ignores its output, by its tag),
    and no stored cell calls a checker's hint() or solution()."""
    nb = load(path)
    answers = set(lesson.exercise_answer_cells(nb))
    for i, cell in enumerate(nb["cells"]):
        text = source(cell)
        tags = cell.get("metadata", {}).get("tags", [])
        if text.lstrip().startswith("# Comprobación del ejercicio"):
            assert i in answers, f"{path.name}, cell {i}: an exercise's check whose role is not exercise_answer"
        if i in answers:
            assert not cell.get("outputs"), f"{path.name}, cell {i}: an exercise's answer stored with its output"
            assert "nbval-ignore-output" in tags, f"{path.name}, cell {i}: an exercise's answer, no nbval-ignore-output"
        assert cell["cell_type"] != "code" or not re.search(r"helpers\.check\.\w+\.(hint|solution)\(", text), (
            f"{path.name}, cell {i}: stores a checker's hint or solution; the learner asks for it")


HEADING = re.compile(r"^#{1,6}\s")


def headings_inside(text: str) -> list[str]:
    """The heading lines of a markdown cell that are not its first line (code fences and folded blocks skipped)."""
    text = re.sub(r"```.*?```|<details>.*?</details>", "", text, flags=re.S)
    lines = text.strip("\n").splitlines()
    return [line for line in lines[1:] if HEADING.match(line)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_each_heading_opens_its_own_markdown_cell(path):
    """A heading is the first line of its cell: a section starts where a cell starts, so a learner who re-runs
    or moves one section never drags the end of the one before."""
    inside = [(i, line) for i, c in enumerate(load(path)["cells"]) if c["cell_type"] == "markdown"
              for line in headings_inside(source(c))]
    assert not inside, f"{path.name}: headings in the middle of a cell (cell index, heading): {inside}"


def test_headings_inside_finds_what_it_should():
    assert headings_inside("texto\n\n## 7. Sección") == ["## 7. Sección"]
    assert headings_inside("## 6. Sección\n\ntexto\n\n### Subsección") == ["### Subsección"]
    assert headings_inside("## Sola\n\ntexto") == []
    assert headings_inside("```python\n# comentario\n```") == []
    assert headings_inside("texto con un # en el medio\n#sin espacio") == []
