"""The site's sources without building (make test-site runs this with the rest): the Sphinx extension
(.ci/site/leccion_site.py) makes math in headings text a screen reader reads, in the page and in every table of
contents; prepare.py makes docs/docente.md's links work on the site."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from facts import repository, version

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / ".ci" / "site"))
prepare = importlib.import_module("prepare")
docutils_nodes = pytest.importorskip("docutils.nodes")
leccion_site = pytest.importorskip("leccion_site")


@pytest.mark.parametrize("tex, text", [
    (r"\varepsilon", "ε"), (r"\gamma", "γ"), (r"\beta", "β"), (r"\gamma_0", "γ₀"), (r"\sigma^2", "σ²"),
    (r"\hat{x}", "x̂"), (r"\gamma \odot \hat{x} + \beta", "γ ⊙ x̂ + β"), (r"d_{ff}", "d_ff"[:0] or None),
    (r"\mathrm{LN}(x)", "LN(x)"), (r"W_1", "W₁"), (r"x_{i}", "xᵢ"), (r"\frac{a}{b}", None), (r"\sqrt{d}", None),
])
def test_tex_to_text(tex, text):
    assert leccion_site.tex_to_text(tex) == text


def _title(*parts):
    title = docutils_nodes.title()
    for p in parts:
        title += docutils_nodes.math(text=p[1:-1]) if p.startswith("$") else docutils_nodes.Text(p)
    doc = docutils_nodes.document(None, None)
    doc += docutils_nodes.section("", title)
    return doc, title


def test_math_in_a_heading_becomes_text():
    doc, title = _title("3. ¿Para qué está ", r"$\varepsilon$", "?")
    leccion_site.math_in_titles(None, doc)
    assert title.astext() == "3. ¿Para qué está ε?"
    assert not list(title.findall(docutils_nodes.math))


def test_math_that_is_not_simple_keeps_mathjax_and_gets_its_tex_as_hidden_text():
    doc, title = _title("Escalar por ", r"$\frac{1}{\sqrt{d}}$")
    leccion_site.math_in_titles(None, doc)
    assert len(list(title.findall(docutils_nodes.math))) == 1
    hidden = [n for n in title.findall(docutils_nodes.inline) if "visually-hidden" in n["classes"]]
    assert [h.astext().strip() for h in hidden] == [r"\frac{1}{\sqrt{d}}"]


# ---------------------------------------------------------------------------------------------------------------
# docs/docente.md's links on the site (its page is docente.html, at the top; the source's are relative to docs/)


def tag(kind: str, path: str) -> str:
    return f"{repository()}/{kind}/v{version()}/{path}"


@pytest.mark.parametrize("source, site", [
    ("[la 03](../notebooks/03_layernorm.ipynb)", "[la 03](notebooks/03_layernorm.ipynb)"),
    ("[los hechos](../.ci/facts.py)", f"[los hechos]({tag('blob', '.ci/facts.py')})"),
    ('[x](../Makefile "make")', f'[x]({tag("blob", "Makefile")} "make")'),
    ("[`helpers/check/`](../helpers/check/)", f"[`helpers/check/`]({tag('tree', 'helpers/check')})"),
    ("[README](../README.md#si-algo-falla)", f"[README]({tag('blob', 'README.md')}#si-algo-falla)"),
    ("[la tarea](docente.md#la-tarea)", "[la tarea](#la-tarea)"),
    ("[ref]: ../pyproject.toml", f"[ref]: {tag('blob', 'pyproject.toml')}"),
    (f"[main]({repository()}/blob/main/README.md)", f"[main]({tag('blob', 'README.md')})"),
    ("en `helpers/check/exercises/`.", f"en [`helpers/check/exercises/`]({tag('tree', 'helpers/check/exercises')})."),
    ("`notebooks/01_ffn.ipynb`", "[`notebooks/01_ffn.ipynb`](notebooks/01_ffn.ipynb)"),
    # what stays as it is: addresses, code that is not a repository path, code blocks, links inside code
    ("[Colab](https://colab.research.google.com/)", "[Colab](https://colab.research.google.com/)"),
    ("`helpers.grading`, `build/grading/<notebook>/`, `.venv`, `benchmarks/bench_grading.py --n 10`",
     "`helpers.grading`, `build/grading/<notebook>/`, `.venv`, `benchmarks/bench_grading.py --n 10`"),
    ("`[a](../README.md)`", "`[a](../README.md)`"),
    ("```bash\nls helpers/check/ [a](../README.md)\n```\n", "```bash\nls helpers/check/ [a](../README.md)\n```\n"),
    # a Python block with IPython's lines, which Pygments' Python lexer fails on (--warningiserror)
    ("```python\n%pip install x\nimport x\n```", "```ipython3\n%pip install x\nimport x\n```"),
    ("```python\nimport x  # 100%\n```", "```python\nimport x  # 100%\n```"),
])
def test_teacher_links(source, site):
    assert prepare.teacher_page(source) == site


def test_a_teacher_picture_linked_to_itself_is_a_figure_as_the_notebooks(tmp_path, monkeypatch):
    """docs/docente.md's picture of the class report: shown at half its pixels, the same file one tap away."""
    monkeypatch.setattr(prepare, "OUT", tmp_path)
    alt = "El informe de una clase: arriba, los tres errores más comunes"
    png = (prepare.ROOT / "docs" / "informe.png").read_bytes()
    width, height = prepare.png_size(png)
    assert prepare.teacher_page(f"[![{alt}](informe.png)](informe.png)") == \
        prepare.figure_link("_static/figuras/informe.png", alt, width // 2, height // 2)
    assert (tmp_path / "_static" / "figuras" / "informe.png").read_bytes() == png
    with pytest.raises(SystemExit, match="not a PNG in the repository"):
        prepare.teacher_page("[![x](no_hay.png)](no_hay.png)")


@pytest.mark.parametrize("source", ["[x](../helpers/no_such_module.py)", "[x](../build/grading/)",
                                    "[x](../../elsewhere.md)"])
def test_teacher_link_to_what_the_repository_lacks_stops_the_build(source):
    with pytest.raises(SystemExit, match="not in the repository"):
        prepare.teacher_page(source)


def test_a_claims_cell_is_left_out_of_the_page_and_a_bets_answer_folded():
    claims = {"cell_type": "code", "id": "x", "outputs": [], "source": "helpers.claim(True, 'a')",
              "metadata": {"cellView": "form", "jupyter": {"source_hidden": True}, "leccion06": {"claims": True}}}
    prepare.hide_claims(claims)
    assert claims["metadata"]["tags"] == ["remove-cell"]
    plain = {"cell_type": "code", "id": "y", "outputs": [], "source": "x = 1", "metadata": {}}
    prepare.hide_claims(plain)
    assert plain["metadata"] == {}
    nb = prepare.lesson.read(Path(__file__).resolve().parents[2] / "notebooks" / "03_layernorm.ipynb")
    at = [c.get("id") for c in nb["cells"]].index("c25")
    bets = prepare.predictions_site.answering(nb)
    assert [b.key for b in bets[at]] == ["03-batch"]
    cell = {"cell_type": "code", "id": "c25", "outputs": [], "source": "", "metadata": {"tags": ["t"]}}
    prepare.predictions_site.fold(cell, bets[at])
    assert cell["metadata"]["tags"] == ["t", "hide-output", "apuesta-03-batch"]
    assert cell["metadata"]["mystnb"]["code_prompt_show"] == "Ver la respuesta sin apostar"
