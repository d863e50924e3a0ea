"""Prepare the lesson's static site source in build/site-src/ (then `jupyter-book build` builds it).

- _config.yml and _toc.yml from .ci/site/, with the repository address from pyproject's [project.urls];
- index.md: the README's title, first paragraph and table of notebooks (the README stays the one source);
- the notebooks, as stored (nothing is executed), with two changes for a page nobody can run:
  Colab badges become text links (the badge image is on colab.research.google.com: no request may leave the
  site), and every widget output becomes a real picture of that widget (.ci/site/widgets/, screenshots of the
  browser test) and a sentence saying to open the notebook in Colab to move it;
- MathJax from npm (node_modules/mathjax, `npm ci` in .ci/site/) into _static/, so math renders offline.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "build" / "site-src"
BADGE = re.compile(r"\[!\[Abrir en Colab\]\(https://colab\.research\.google\.com/assets/colab-badge\.svg\)\]\(([^)]+)\)")

# widget cell id -> (picture, alt text, what it does)
WIDGETS = {
    ("03_layernorm.ipynb", "c09"): ("cuatro_numeros.png",
                                    "El widget «Ingresá 4 números» con 0.8, 0.95, 0.93 y 1.33: media 1.0025, varianza "
                                    "0.0391, desvío 0.198, y dos gráficos de barras, antes y después de normalizar."),
    ("03_layernorm.ipynb", "c18"): ("siguiente_paso.png",
                                    "El widget «Residual + LayerNorm, paso a paso» en el paso 4 de 7: la suma "
                                    "residual y su media, 1.0025."),
    ("03_layernorm.ipynb", "c30"): ("gamma_beta.png",
                                    "Los ocho sliders de γ y β, con γ0 en 2.0, y el gráfico de barras del token "
                                    "normalizado junto a γ ⊙ x̂ + β = [-2.049, -0.266, -0.367, 1.657]."),
    ("05_norm_placement.ipynb", "explorador"): ("explorador.png",
                                                "El explorador del barrido con 24 capas, post-norm y warmup de 200 "
                                                "pasos: dos de las tres semillas salen de la meseta (pasos 225 y 625) "
                                                "y una no sale en 1 500 pasos."),
}


sys.path.insert(0, str(ROOT / "tests"))
from facts import repository  # noqa: E402  (the one reader of pyproject.toml)


def index_from_readme() -> str:
    """The README up to its first '## ' section: title, what the lesson is, the table of notebooks."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme.split("\n## ", 1)[0]
    return BADGE.sub(r"[Abrir en Colab](\1)", head).rstrip() + "\n"


def widget_output(name: str, picture: str, alt: str) -> dict:
    html = (f'<figure class="widget-picture"><img src="../_static/widgets/{picture}" alt="{alt}">'
            "<figcaption>Así se ve este control en JupyterLab. En esta página no se mueve: abrí el notebook en "
            "Colab (el cohete de arriba, «Colab») o en tu JupyterLab y corré sus celdas para usarlo."
            "</figcaption></figure>")
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": html, "text/plain": alt}}


def prepare_notebook(src: Path, dst: Path) -> int:
    nb = json.loads(src.read_text(encoding="utf-8"))
    replaced = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = BADGE.sub(r"[Abrir en Colab](\1)", "".join(cell["source"]))
            continue
        key = (src.name, cell.get("id"))
        has_widget = any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                         for o in cell.get("outputs", []))
        if has_widget:
            if key not in WIDGETS:
                sys.exit(f"{src.name}, cell {cell.get('id')}: a widget output with no picture in prepare.WIDGETS")
            cell["outputs"] = [widget_output(src.name, *WIDGETS[key])]
            replaced += 1
    nb.get("metadata", {}).pop("widgets", None)
    dst.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
    return replaced


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "notebooks").mkdir(parents=True)
    config = (HERE / "_config.yml").read_text(encoding="utf-8").replace("{repository}", repository())
    (OUT / "_config.yml").write_text(config, encoding="utf-8")
    shutil.copy(HERE / "_toc.yml", OUT / "_toc.yml")
    (OUT / "index.md").write_text(index_from_readme(), encoding="utf-8")
    replaced = sum(prepare_notebook(nb, OUT / "notebooks" / nb.name) for nb in sorted((ROOT / "notebooks").glob("*.ipynb")))
    if replaced != len(WIDGETS):
        sys.exit(f"replaced {replaced} widget outputs; prepare.WIDGETS lists {len(WIDGETS)}")
    static = OUT / "_static"
    shutil.copytree(HERE / "widgets", static / "widgets")
    mathjax = HERE / "node_modules" / "mathjax" / "es5"
    if not (mathjax / "tex-chtml.js").exists():
        sys.exit(f"{mathjax} missing: run `npm ci` in .ci/site/ (make site does)")
    shutil.copytree(mathjax, static / "mathjax")
    print(f"prepared {OUT}: index from README, 5 notebooks, {replaced} widget pictures, MathJax")


if __name__ == "__main__":
    main()
