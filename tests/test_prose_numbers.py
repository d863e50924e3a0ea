"""Every number a notebook's prose quotes is printed by that notebook or written in its code.

A learner who finds one sentence that the cell below contradicts stops trusting the rest. This reads the
markdown of each notebook, takes every number in it (thousands written with spaces, LaTeX thin spaces or
commas; decimals with a point) and looks for it among the notebook's printed outputs and code. What is
not a measurement (a year, a section of the paper, a notebook number) is skipped by the word before it
or listed in EXEMPT with its reason. "Resumiendo" is held to more: its numbers must be printed.
"""

from __future__ import annotations

import re

import pytest
from conftest import NOTEBOOKS, load

# integer part (thousands grouped by spaces, LaTeX \, or commas), decimals, exponent
NUMBER = re.compile(r"(?<![\w.\\])(\d{1,3}(?:(?:\\,| |\u2009|\u202f|\u00a0|,)\d{3})+|\d+)"
                    r"(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?![\w])")
# a number right after one of these words is a reference, not a measurement
REFERENCE = re.compile(r"(sección|secciones|notebook|notebooks|episodio|ep\.|torch|Python|Parte|ecuación|"
                       r"DL a secas, ep\.|Alineación, ep\.|capítulo)\s*(?:\d+\s*(?:,|y|a|o)\s*)*$", re.IGNORECASE)

# notebook -> {number as normalized here: reason it is quoted without being computed}
EXEMPT = {
    "01_ffn.ipynb": {
        "2016": "year of the GELU paper (Hendrycks and Gimpel)",
        "2017": "year of the paper (Papers list)",
        "2019": "year of the GPT-2 paper (Papers list)",
        "2020": "year of Shazeer's GLU variants paper (Papers list)",
        "2023": "year of the LLaMA paper (Papers list)",
        "2024": "year of the Gemma paper (Papers list)",
    },
    "02_residual_stream.ipynb": {
        "2017": "year of the paper",
        "2014": "year of the Adam paper (Papers list)",
        "2015": "year of He et al.'s initialisation paper",
        "2016": "year of the ResNet paper (He et al.) and of LayerNorm (Ba et al.)",
        "2020": "year of Xiong et al. (Papers list)",
        "96": "GPT-3's depth, the stacks of the deep dive 02b that section 5 points to",
    },
    "02b_96_capas.ipynb": {
        "2014": "year of the Adam paper (Papers list)",
        "2015": "year of He et al.'s initialisation paper (Papers list)",
        "2016": "year of the ResNet paper (He et al.) and of LayerNorm (Ba et al.)",
        "2020": "year of GPT-3 (Brown et al.) and of Xiong et al. (Papers list)",
    },
    "03_layernorm.ipynb": {
        "2015": "year of the BatchNorm paper (Ioffe and Szegedy)",
        "2016": "year of the LayerNorm paper (Ba, Kiros and Hinton)",
        "2017": "year of the paper, in the Papers list",
        "2019": "year of the RMSNorm paper (Zhang and Sennrich)",
        "2023": "year of the LLaMA paper (Touvron et al.)",
    },
    "04_encoder_block.ipynb": {
        "2017": "year of the paper",
    },
    "04b_gpt_con_mascara.ipynb": {
        "175": "GPT-3's name for its size (175 billion), contrasted with our count",
        "2020": "year of Kaplan et al., whose 12·L·d² section 6 measures",
    },
    "05_norm_placement.ipynb": {
        "2020": "year of Xiong et al.",
        "2017": "year of the paper",
        "128": "d_ff = 4 · d_model, written 4 * d in pila's code",
        "2016": "year of Ba, Kiros and Hinton's LayerNorm paper (Papers)",
    },
    "05b_semillas_profundidad_warmup.ipynb": {
        "2020": "year of Xiong et al. and of Liu et al. (Papers)",
        "2019": "year of GPT-2 (Radford et al.) and of Wang et al., who used pre-norm before Xiong et al.",
        "2017": "year of the paper",
        "4000": "the paper's warmup (4 000 steps), quoted to say it is not what we measure",
    },
}


def normalize(integer: str, decimals: str | None) -> str:
    digits = re.sub(r"\\,|[ \u2009\u202f\u00a0,]", "", integer)
    return digits + ("." + decimals if decimals else "")


def prose_numbers(text: str) -> list[str]:
    """Numbers in markdown, without link targets, headings' section numbers and references."""
    text = re.sub(r"\]\([^)]*\)", "]", text)              # link addresses
    text = re.sub(r"^#+\s*\d+\.", "", text, flags=re.M)    # "## 3. ..." section numbers
    text = re.sub(r"\*\*\d+\.\*\*", "", text)              # "**2.**" exercise numbers
    out = []
    for m in NUMBER.finditer(text):
        before = text[max(0, m.start() - 40):m.start()]
        if REFERENCE.search(before) or re.search(r"[A-Za-z]-$", before):  # "notebook 04", "AVX-512", "GPT-2"
            continue
        out.append(normalize(m.group(1), m.group(2)))
    return out


def found_numbers(nb: dict, outputs_only: bool = False) -> set[str]:
    """Every number printed by the notebook's cells (and, unless outputs_only, written in its code)."""
    chunks = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        if not outputs_only:  # code, without its comments: 2_099_712 counts, "# about 15 minutes" does not
            code = re.sub(r"#.*", "", "".join(cell["source"]))
            chunks.append(code.replace("_", ""))
        for out in cell.get("outputs", []):
            chunks.append("".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", "")))
    text = "\n".join(chunks)
    found = set()
    for m in NUMBER.finditer(text):
        n = normalize(m.group(1), m.group(2))
        found.add(n)
        if "." in n:  # 0.50 printed is 0.5 quoted, and the other way round
            found.add(n.rstrip("0").rstrip("."))
        else:
            found.add(str(int(n)))
        if m.group(3):  # 4e-09 printed is 10^{-9} quoted
            found.add(str(abs(int(m.group(3)))))
    return found


def quoted(nb: dict, only_summary: bool = False):
    summary = False  # inside «Resumiendo»: from its heading to the next one (its bullets may be cells of their own)
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        if only_summary:
            if "## Resumiendo" in text:
                summary, text = True, text[text.index("## Resumiendo"):]
            elif re.search(r"^#{1,6} ", text, flags=re.M):
                summary = False
            if not summary:
                continue
            text = text.split("## Ejercicios")[0]
        for n in prose_numbers(text):
            yield i, n


def missing(nb: dict, name: str, only_summary: bool = False) -> list[tuple[int, str]]:
    have = found_numbers(nb, outputs_only=only_summary)
    exempt = EXEMPT.get(name, {})
    return [(i, n) for i, n in quoted(nb, only_summary)
            if n not in have and n.rstrip("0").rstrip(".") not in have and n not in exempt]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_quoted_number_is_computed(path):
    gone = missing(load(path), path.name)
    assert not gone, f"{path.name}: numbers in the prose that no cell prints or computes (cell, number): {gone}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_number_in_the_summary_is_printed(path):
    nb = load(path)
    assert any(n for _, n in quoted(nb, only_summary=True)), f"{path.name}: no 'Resumiendo' with numbers"
    gone = missing(nb, path.name, only_summary=True)
    assert not gone, f"{path.name}: 'Resumiendo' quotes numbers no cell printed (cell, number): {gone}"


def test_exemptions_are_used():
    """An exemption for a number the prose no longer quotes is stale: remove it."""
    for path in NOTEBOOKS:
        quoted_here = {n for _, n in quoted(load(path))}
        stale = set(EXEMPT.get(path.name, {})) - quoted_here
        assert not stale, f"{path.name}: EXEMPT lists {stale}, which the prose no longer quotes"


def test_the_check_finds_what_it_should():
    """The extraction itself: thousands with spaces, LaTeX and commas; decimals; references skipped."""
    text = r"La FFN tiene 2 099 712 parámetros, $96\,000$ secuencias, `2,099,712`, 0.96, la sección 3.3, " \
           "los notebooks 03 a 05, AVX-512, 9.6e-06 y 38.7 %."
    assert prose_numbers(text) == ["2099712", "96000", "2099712", "0.96", "9.6", "38.7"]
    nb = {"cells": [{"cell_type": "code", "source": ["n = 2_099_712\n"], "outputs": [{"text": "acierto 0.50\n"}]},
                    {"cell_type": "markdown", "source": ["Son 2 099 712, con 0.5 de acierto y 0.51 de más.\n"]}]}
    assert missing(nb, "x.ipynb") == [(1, "0.51")]
