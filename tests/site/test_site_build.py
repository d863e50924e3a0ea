"""The site's Sphinx extension (.ci/site/leccion_site.py) without building: math in headings becomes text a
screen reader reads, in the page and in every table of contents (make test-site runs this with the rest)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / ".ci" / "site"))
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
