"""Sphinx extension for the lesson's site (make site loads it from build/site-src/, prepare.py copies it there).

- The theme's buttons in Spanish: sphinx-book-theme 1.3.0 builds them in Python with English text that its
  Spanish catalog lacks ("Launch interactive content", "Launch on Colab", the Colab logo's alt text, ".pdf").
- Math in a heading gets a text alternative: MathJax's output contributes nothing to a heading's accessible
  name in Chromium, so "¿Para qué está $\\varepsilon$?" was read "¿Para qué está ?". Simple TeX (Greek letters,
  hats, subscripts, a few operators) becomes Unicode text, in the page and in every table of contents;
  anything else keeps MathJax and gets its TeX as visually hidden text.
- MathJax only on pages with math, and after the build only the MathJax they load (its loader, five
  components, their fonts and the TeX extensions it may autoload) goes into _static/mathjax/. Jupyter Book 1.x
  adds a <script> for every .js under the book's _static/, so the whole distribution there had meant about 70
  scripts and 22 MB on every page.
- After the build: a few fixed strings of the theme's markup that no setting reaches (an English landmark,
  Font Awesome's 1.4 MB script), replaced; each replacement must match, so a theme update that moves them
  fails the build instead of going unnoticed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from docutils import nodes

# TeX -> Unicode for what headings use. Anything not covered here keeps MathJax (with hidden TeX text).
GREEK = {name: chr(cp) for name, cp in [
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3F5),
    ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7), ("theta", 0x3B8), ("iota", 0x3B9),
    ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE), ("pi", 0x3C0),
    ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4), ("phi", 0x3D5), ("varphi", 0x3C6), ("chi", 0x3C7),
    ("psi", 0x3C8), ("omega", 0x3C9), ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398),
    ("Lambda", 0x39B), ("Sigma", 0x3A3), ("Phi", 0x3A6), ("Psi", 0x3A8), ("Omega", 0x3A9)]}
SYMBOLS = {"cdot": "·", "times": "×", "odot": "⊙", "approx": "≈", "le": "≤", "leq": "≤",
           "ge": "≥", "geq": "≥", "infty": "∞", "to": "→", "rightarrow": "→", "pm": "±", "top": "ᵀ", **GREEK}
BINARY = {"cdot", "times", "odot", "approx", "le", "leq", "ge", "geq", "to", "rightarrow", "pm"}
SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
SUP = dict(zip("0123456789+-=()inT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ"))
TOKEN = re.compile(r"\\hat\{(\w)\}|\\hat\s*(\w)|\\([A-Za-z]+)\s*|([_^])\{([^{}]*)\}|([_^])(\w)|(\s+)|(.)")


def tex_to_text(tex: str) -> str | None:
    """Simple TeX as Unicode text ("\\gamma_0" -> "γ₀", "\\hat{x}" -> "x̂"); None when it is not simple."""
    out = []
    for m in TOKEN.finditer(tex.strip()):
        hat1, hat2, command, script, braced, script1, single, space, char = m.groups()
        if hat1 or hat2:
            out.append((hat1 or hat2) + "\u0302")
        elif command:
            if command in SYMBOLS:
                out.append(f" {SYMBOLS[command]} " if command in BINARY else SYMBOLS[command])
            elif command in ("mathrm", "text", "left", "right", "big", "Big", ","):
                continue
            else:
                return None
        elif script or script1:
            table = SUB if (script or script1) == "_" else SUP
            body = braced if script else single
            if not all(c in table for c in body):  # a command or a letter Unicode has no sub/superscript for
                return None
            out.append("".join(table[c] for c in body))
        elif space:
            out.append(" ")
        elif char in "{}":
            continue
        elif char.isalnum() or char in "+-=()[],.:;!?|/<>'":
            out.append(char)
        else:
            return None
    return " ".join("".join(out).split())


def math_in_titles(app, doctree) -> None:
    """Headings' math as text (before the tables of contents are collected from the titles)."""
    for title in doctree.findall(nodes.title):
        for math in list(title.findall(nodes.math)):
            text = tex_to_text(math.astext())
            if text is not None:
                math.replace_self(nodes.Text(text))
            else:  # keep MathJax, and give readers of the accessibility tree the TeX
                hidden = nodes.inline(text=f" {math.astext()} ", classes=["visually-hidden"])
                math.parent.insert(math.parent.index(math) + 1, hidden)


def spanish_buttons(app, pagename, templatename, context, doctree) -> None:
    """The header's buttons (built by sphinx-book-theme in Python, in English) in Spanish."""
    buttons = context.get("header_buttons")
    if not buttons:
        return
    version = app.config.html_context["leccion_version"]
    notebook = bool(context.get("page_source_suffix") == ".ipynb")
    keep = []
    for group in buttons:
        label = group.get("label")
        if label == "launch-buttons":
            group["tooltip"] = "Ejecutar este notebook"
            for b in group["buttons"]:
                if b.get("text") == "Colab":
                    # the learner's copy (.ci/facts.py's COPIES, .ci/learner_copies.py): no bet's answer shown
                    b["url"] = re.sub(r"/notebooks/(?=\d\d[a-z]?_)", "/notebooks/colab/", b["url"])
                    b.update(text="Abrir en Colab", icon=None,
                             tooltip=f"Abrir este notebook (versión {version}) en Google Colab para ejecutarlo")
        elif label == "download-buttons":
            if not notebook:
                continue  # the home page's Markdown source is of no use to a reader
            group["tooltip"] = "Descargá esta página"
            items = []
            for b in group["buttons"]:
                if b.get("label") == "download-source-button":
                    b.update(text="El notebook (.ipynb)",
                             tooltip="Descargá el notebook, con sus salidas (salvo las respuestas a las apuestas, "
                                     "que ves al correrlo), para abrirlo en Jupyter o Colab")
                elif b.get("label") == "download-pdf-button":
                    b.update(text="Imprimir o guardar como PDF", tooltip="Imprimir la página o guardarla como PDF",
                             icon="fas fa-print")
                elif b.get("label") == "download-notebook-button":
                    continue  # only for Markdown notebooks; ours are .ipynb, already the source
                items.append(b)
            group["buttons"] = items
        keep.append(group)
    context["header_buttons"] = keep


# What the pages load from npm's mathjax/es5 (the loader and the components _config.yml names, then the fonts
# CHTML asks for, and the TeX packages \require or autoload may fetch); make test-site fails on any 404.
MATHJAX_COMPONENTS = ["startup.js", "core.js", "input/tex.js", "output/chtml.js", "output/chtml/fonts/tex.js",
                      "a11y/assistive-mml.js"]
MATHJAX_FOLDERS = ["output/chtml/fonts/woff-v2", "input/tex/extensions"]

# (file glob, the theme's markup as a regular expression, replacement): what no configuration reaches
REPLACEMENTS = [
    # the print-only table of contents' landmark, named in English in sphinx-book-theme's layout.html
    ("**/*.html", re.escape('<nav aria-label="Page">'), '<nav aria-label="Contenido de la página">'),
    # Font Awesome's 1.4 MB script, "so that users can add custom icons" (pydata-sphinx-theme's
    # webpack-macros.html): the theme's CSS already has the icons it uses, as a web font
    ("**/*.html", r'\s*<script defer src="[./]*_static/scripts/fontawesome\.js\?digest=\w+"></script>', ""),
    # myst-nb's fold of a bet's answer (hide-output) names its summary in English, over its Spanish text
    ("notebooks/*.html", re.escape('<summary aria-label="Toggle hidden content">'), "<summary>"),
]


def no_math_no_mathjax(app, pagename, templatename, context, doctree) -> None:
    """MathJax only on pages with math. Sphinx also counts the pages a page's toctree includes, so the home
    page loaded 1.1 MB of MathJax to typeset nothing."""
    if doctree is not None and any(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
        return
    context["script_files"] = [js for js in context.get("script_files", [])
                               if "mathjax" not in (str(js) + str(getattr(js, "attributes", {}).get("body", "")))
                               .lower()]


def finish(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    src = Path(app.config.html_context["leccion_mathjax"])
    dst = out / "_static" / "mathjax"
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    for component in MATHJAX_COMPONENTS:
        (dst / component).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / component, dst / component)
    for sub in MATHJAX_FOLDERS:
        shutil.copytree(src / sub, dst / sub)
    for pattern, old, new in REPLACEMENTS:
        hits = 0
        for page in out.glob(pattern):
            text = page.read_text(encoding="utf-8")
            text, n = re.subn(old, new, text)
            if n:
                page.write_text(text, encoding="utf-8")
                hits += 1
        if not hits:
            raise RuntimeError(f"leccion_site: the theme's {old!r} is nowhere in {pattern}: update REPLACEMENTS")


def setup(app):
    app.connect("doctree-read", math_in_titles, priority=400)
    app.connect("html-page-context", spanish_buttons, priority=900)
    app.connect("html-page-context", no_math_no_mathjax, priority=900)
    app.connect("build-finished", finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
