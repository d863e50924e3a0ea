"""Prepare the lesson's static site source in build/site-src/ (then `jupyter-book build` builds it).

- _config.yml from .ci/site/, with the repository address and the version read from pyproject.toml; _toc.yml made
  from the notebooks (toc: the lesson, «Para ir más lejos», the teacher's guide)
  and the path of npm's MathJax (leccion_site.py copies what the pages use after the build);
- leccion_site.py (a Sphinx extension), templates/ (theme overrides), static/ (leccion.css, leccion.js) and
  locales/ (Spanish for what Sphinx's catalog lacks) beside it;
- index.md, the home page: inicio.md with the README's title, first paragraph and table of notebooks (the README
  stays the one source of those);
- docente.md, the teacher's guide: docs/docente.md (its one source) with its links made to work on the site: a
  notebook's becomes that notebook's page; any other repository file or folder, and a code span that names one
  (`helpers/check/exercises/`), links to the repository at this version's tag (blob/ or tree/v<version>/); a
  picture is copied beside the page, and a PNG linked to itself (`[![alt](x.png)](x.png)`) becomes a figure as
  the notebooks' are (in _static/figuras/, shown at half its width, linked to itself); the build stops on a link
  to a path the repository does not have; a Python block with IPython's %magic or !shell lines is highlighted as
  IPython;
- the notebooks, as stored (nothing is executed), with what a page nobody can run needs:
  - Colab badges become text links (the badge image is on Google's server: no request may leave the site),
    and every Colab link opens the learner's copy (notebooks/colab/) of the version this site shows
    (`blob/v<version>/`);
  - every figure (an <img> with a data: URI, from helpers.plots.show) becomes a file of its own, shown at its
    CSS width and linked to itself at full size;
  - a claims cell (its role says so, helpers.lesson; hidden in Colab and JupyterLab) is left out of the page;
  - the output of each cell that answers a bet (its role says which, helpers.lesson) is folded in a <details> until
    the reader bets (predictions_site.fold);
  - every widget output becomes the browser test's picture of that widget in the state its cell creates
    (.ci/site/widgets/<name>.png and .json, made by `make test-browser` + `make site-pictures`), with alt text
    built from the widget's own text; the build stops if the cell now creates something else.
"""

from __future__ import annotations

import ast
import base64
import fnmatch
import functools
import html
import json
import re
import shutil
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = ROOT / "build" / "site-src"
MATHJAX = HERE / "node_modules" / "mathjax" / "es5"
BADGE = re.compile(r"\[!\[Abrir en Colab\]\(https://colab\.research\.google\.com/assets/colab-badge\.svg\)\]\(([^)]+)\)")
COLAB = re.compile(r"(https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/)[^/\s)\"']+/notebooks/(?:colab/)?")
FIGURE = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=\s]+)" alt="([^"]*)"[^>]*?width: (\d+)px[^>]*>')
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
# The teacher's guide: its source, and its page in the site (the same name, at the top, beside index.md)
TEACHER = ROOT / "docs" / "docente.md"
FENCE = re.compile(r"(?ms)^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*[ \t]*$")
# a Markdown link or picture (its text may hold code spans), or a code span: matched left to right, so a code
# span inside a link's text stays plain and a link inside a code span is no link
# a picture linked to itself, [![alt](x.png)](x.png), then a link or a picture, then a code span
LINK_OR_CODE = re.compile(r"\[!\[(?P<alt>[^\[\]]*)\]\((?P<picture>[^()\s]+)\)\]\((?P=picture)\)"
                          r"|(?P<image>!?)\[(?P<text>(?:[^\[\]`]|`[^`]*`)*)\]"
                          r'\((?P<target>[^()\s]+)(?P<title>\s+"[^"]*")?\)'
                          r"|(?P<ticks>`+)(?P<code>[\s\S]+?)(?P=ticks)")
REFERENCE = re.compile(r"(?m)^(?P<label> {0,3}\[[^\]]+\]:[ \t]*)(?P<target>\S+)")
PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*/?")

# The widget classes the notebooks show, and the name of each one's picture. Its alt text comes from the widget
# itself (its title and what it shows, which the browser test saves beside its picture) and from the call.
WIDGETS = {"FourNumbers": "cuatro_numeros", "StepByStep": "siguiente_paso", "GammaBeta": "gamma_beta",
           "SweepExplorer": "explorador"}


sys.path.insert(0, str(ROOT / ".ci"))
import predictions_site  # noqa: E402  (beside this file; it puts the checkout on sys.path)
from facts import COPIES, repository, version  # noqa: E402  (the one reader of pyproject.toml)

from helpers import lesson  # noqa: E402  (pure: the standard library only)


def colab_at_version(text: str) -> str:
    """Badges as text links, and every Colab link at this version's tag and the learner's copy (facts.COPIES)."""
    text = BADGE.sub(r"[Abrir en Colab](\1)", text)
    return COLAB.sub(rf"\g<1>v{version()}/{COPIES}/", text)


def toc() -> str:
    """The site's table of contents: the lesson (the core notebooks), «Para ir más lejos» (the deep dives, each after
    the core notebook it goes deeper into, by file name), and the teacher's guide; each notebook's kind is its own
    metadata (helpers.lesson)."""
    parts = {"core": [], "deep": []}
    for path in lesson.notebooks(ROOT / "notebooks"):
        parts[lesson.kind(lesson.read(path)) or "core"].append(f"notebooks/{path.stem}")
    lines = ["format: jb-book", "root: index", "parts:"]
    for caption, files in (("La lección", parts["core"]), ("Para ir más lejos", parts["deep"]),
                           ("Para docentes", ["docente"])):
        if files:
            lines += [f"  - caption: {caption}", "    chapters:", *(f"      - file: {f}" for f in files)]
    return "\n".join(lines) + "\n"


def index_page() -> str:
    """inicio.md with the README's title, first paragraph and table of notebooks, and its «Para ir más lejos» one."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme.split("\n## ", 1)[0]
    blocks = [b.strip() for b in head.split("\n\n") if b.strip()]
    title = next(b for b in blocks if b.startswith("# "))
    intro = blocks[blocks.index(title) + 1]
    table = next(b for b in blocks if b.startswith("|"))
    deep = readme.split("\n## Para ir más lejos\n", 1)
    if len(deep) == 2:  # the optional notebooks' table, after the lesson's: the home page lists every notebook
        later = [b.strip() for b in deep[1].split("\n## ", 1)[0].split("\n\n") if b.strip()]
        table += ("\n\n**Para ir más lejos.** " + next(b for b in later if not b.startswith("|")) + "\n\n"
                  + next(b for b in later if b.startswith("|")))
    text = (HERE / "inicio.md").read_text(encoding="utf-8")
    for key, value in {"title": title, "intro": intro, "table": colab_at_version(table), "version": version(),
                       "repository": repository()}.items():
        text = text.replace("{" + key + "}", value)
    if re.search(r"\{[a-z]+\}", text):
        sys.exit(f"inicio.md: a placeholder was not filled: {re.search(r'{[a-z]+}', text).group()}")
    return text


@functools.cache
def ignored_patterns() -> tuple[str, ...]:
    return tuple(line.strip().rstrip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#"))


def in_repository(path: Path) -> str | None:
    """The path relative to the repository's root ("folder/" for a folder), or None where the repository does not
    have it: outside it, missing, or under what .gitignore names (build/, .venv-site/...)."""
    path = path.resolve()
    if not path.is_relative_to(ROOT) or not path.exists():
        return None
    rel = path.relative_to(ROOT)
    if any(fnmatch.fnmatch(part, p) for part in rel.parts for p in ignored_patterns()):
        return None
    return rel.as_posix() + ("/" if path.is_dir() else "")


def site_address(rel: str, anchor: str = "") -> str:
    """Where the teacher's page (docente.html, at the top) links for a repository path: a notebook's own page
    (MyST turns notebooks/x.ipynb into notebooks/x.html), the page itself, or the repository at this version's
    tag."""
    if rel.startswith("notebooks/") and rel.endswith(".ipynb"):
        return rel + anchor
    if ROOT / rel == TEACHER:
        return anchor or "#"
    kind = "tree" if rel.endswith("/") else "blob"
    return f"{repository()}/{kind}/v{version()}/{rel.rstrip('/')}{anchor}"


def teacher_target(target: str, image: bool = False) -> str:
    """Where a link of docs/docente.md (relative to docs/) goes on the site; a picture is copied beside the page."""
    if re.match(r"[a-z][a-z0-9+.-]*:|#", target):  # an address (https:, mailto:) or a place in the page itself
        return re.sub(rf"^{re.escape(repository())}/(blob|tree)/[^/#]+/", rf"{repository()}/\1/v{version()}/",
                      target)
    path, _, anchor = target.partition("#")
    rel = in_repository(TEACHER.parent / path)
    if rel is None:
        sys.exit(f"docs/docente.md links to {target}, which is not in the repository")
    if image:
        (OUT / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, OUT / rel)
        return rel
    return site_address(rel, f"#{anchor}" if anchor else "")


def teacher_figure(target: str, alt: str) -> str:
    """A PNG of docs/docente.md linked to itself: copied to _static/figuras/, shown at half its pixels."""
    rel = in_repository(TEACHER.parent / target)
    if rel is None or not rel.endswith(".png"):
        sys.exit(f"docs/docente.md shows {target}, which is not a PNG in the repository")
    png = (ROOT / rel).read_bytes()
    figures = OUT / "_static" / "figuras"
    figures.mkdir(parents=True, exist_ok=True)
    (figures / Path(rel).name).write_bytes(png)
    width, height = png_size(png)
    return figure_link(f"_static/figuras/{Path(rel).name}", alt, width // 2, height // 2)


def teacher_prose(text: str) -> str:
    """The links of a stretch of docente.md outside its code blocks; a code span that names a repository path
    with a folder in it (`helpers/check/exercises/`) becomes a link to it."""
    def one(m: re.Match) -> str:
        if m.group("picture"):  # as the notebooks' figures: shown at half its width, the file one tap away
            return teacher_figure(m.group("picture"), m.group("alt"))
        if m.group("ticks"):
            code = m.group("code").strip()
            rel = in_repository(ROOT / code) if "/" in code and PATH.fullmatch(code) else None
            return f"[{m.group(0)}]({site_address(rel)})" if rel else m.group(0)
        target = teacher_target(m.group("target"), image=bool(m.group("image")))
        return f"{m.group('image')}[{m.group('text')}]({target}{m.group('title') or ''})"

    text = LINK_OR_CODE.sub(one, text)
    return REFERENCE.sub(lambda m: m.group("label") + teacher_target(m.group("target")), text)


def teacher_page(text: str) -> str:
    """docs/docente.md's text with its links made to work on the site (its code blocks as they are)."""
    out, end = [], 0
    for fence in FENCE.finditer(text):
        block = fence.group(0)
        if re.match(r"\s*[`~]+python[ \t]*\n", block) and re.search(r"(?m)^[%!]", block):
            block = block.replace("python", "ipython3", 1)  # %pip, !shell: Pygments' Python lexer fails on them
        out += [teacher_prose(text[end:fence.start()]), block]
        end = fence.end()
    out.append(teacher_prose(text[end:]))
    return colab_at_version("".join(out))


def widget_call(source: str) -> ast.Call | None:
    """The call that creates a widget in a cell: helpers.widgets.X(...)."""
    for node in ast.walk(ast.parse(re.sub(r"(?m)^\s*[%!].*$", "", source))):  # IPython's %magic and !shell
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WIDGETS:
            return node
    return None


def widget_output(nb_name: str, cell: dict) -> dict:
    call = widget_call("".join(cell["source"]))
    if call is None:
        sys.exit(f"{nb_name}, cell {cell.get('id')}: a widget output, but no helpers.widgets.X(...) call "
                 f"of those prepare.WIDGETS knows ({', '.join(WIDGETS)})")
    name = WIDGETS[call.func.attr]
    record_path = HERE / "widgets" / f"{name}.json"
    if not record_path.exists():
        sys.exit(f"{record_path} missing: run `make test-browser` and `make site-pictures`")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    if record["call"] != ast.unparse(call) or record["notebook"] != nb_name:
        sys.exit(f"{nb_name}, cell {cell.get('id')}: the cell creates {ast.unparse(call)}, but the site's picture "
                 f"{name}.png shows {record['call']} ({record['notebook']}): run `make test-browser` and "
                 f"`make site-pictures`, and commit .ci/site/widgets/")
    alt = (f"El control «{record['title']}» como lo crea su celda, "
           f"{record['call'].removeprefix('helpers.widgets.')}. Muestra: {record['text']}")
    width, height = png_size((HERE / "widgets" / f"{name}.png").read_bytes())
    src = f"../_static/widgets/{name}.png"
    page = (f'<figure class="widget-picture">{figure_link(src, alt, width // 2, height // 2)}'
            "<figcaption>Así se ve este control en JupyterLab cuando corrés la celda. En esta página no se mueve: "
            "abrí el notebook en Colab (el botón del cohete, arriba) o en tu JupyterLab para usarlo."
            "</figcaption></figure>")
    args = html.escape(json.dumps(widget_args(call), ensure_ascii=False), quote=True)
    data = ' data-datos="../_static/norm_sweep.json"' if call.func.attr == "SweepExplorer" else ""
    page += (f'<div class="en-vivo" id="en-vivo-{name}" data-widget="{call.func.attr}" data-args="{args}"{data} '
             f'role="group" aria-label="{html.escape(record["title"], quote=True)}" hidden></div>')
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": page, "text/plain": alt}}


@functools.cache
def widget_defaults() -> dict:
    """{class name: {parameter: default}} of helpers/widgets/*.py, read with ast (the site's venv has no torch)."""
    found = {}
    for path in sorted((ROOT / "helpers" / "widgets").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in WIDGETS:
                init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
                names = [a.arg for a in init.args.args[1:]]
                defaults = [ast.literal_eval(d) for d in init.args.defaults]
                found[node.name] = dict(zip(names[len(names) - len(defaults):], defaults))
    return found


def widget_args(call: ast.Call) -> dict:
    """The arguments the cell's call gives its widget, over the class's defaults: what the live copy starts at."""
    args = dict(widget_defaults()[call.func.attr])
    names = list(args)
    for i, a in enumerate(call.args):
        args[names[i]] = ast.literal_eval(a)
    for k in call.keywords:
        if k.arg not in args:
            sys.exit(f"{ast.unparse(call)}: {k.arg} is no parameter of {call.func.attr}")
        args[k.arg] = ast.literal_eval(k.value)
    return args


def unicode_tables() -> str:
    """What en_vivo.js needs of this Python's Unicode to read a number as float() and name an invisible character
    as helpers.layernorm._visible does: str.isspace, the decimal digits' zeros, and the characters _visible hides
    (categories Cc, Cf, Co, Cn and whitespace other than the space) with their unicodedata names."""
    import unicodedata

    def ranges(test) -> list[int]:
        out: list[int] = []
        for c in range(0x110000):
            if test(chr(c)):
                if out and out[-1] == c - 1:
                    out[-1] = c
                else:
                    out += [c, c]
        return out

    hidden = ranges(lambda ch: unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn") or (ch.isspace() and ch != " "))
    names = {c: unicodedata.name(chr(c), "") for a, b in zip(hidden[::2], hidden[1::2]) for c in range(a, b + 1)
             if unicodedata.name(chr(c), "")}
    zeros = [c for c in range(0x110000) if unicodedata.decimal(chr(c), -1) == 0]
    return json.dumps({"spaces": ranges(str.isspace), "zeros": zeros, "hidden": hidden, "names": names},
                      separators=(",", ":"))


def png_size(png: bytes) -> tuple[int, int]:
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def figure_link(src: str, alt: str, width: int, height: int) -> str:
    """The picture at its CSS size, and the file itself at full size one tap away."""
    return (f'<a class="leccion-figura" href="{src}"><img src="{src}" alt="{html.escape(alt, quote=True)}" '
            f'width="{width}" height="{height}" loading="lazy">'
            '<span class="leccion-ampliar">Ver la imagen en tamaño completo</span></a>')


def figures_as_files(nb_stem: str, cell: dict, figures: Path) -> int:
    count = 0
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        page = data.get("text/html")
        if not page:
            continue
        page = "".join(page) if isinstance(page, list) else page

        def as_file(m: re.Match) -> str:
            nonlocal count
            count += 1
            png = base64.b64decode(m.group(1))
            name = f"{nb_stem}-{cell.get('id')}-{count}.png"
            (figures / name).write_bytes(png)
            width, height = png_size(png)
            css_width = int(m.group(3))
            return figure_link(f"../_static/figuras/{name}", html.unescape(m.group(2)), css_width,
                               round(height * css_width / width))

        data["text/html"] = FIGURE.sub(as_file, page)
        if "data:image" in data["text/html"]:
            sys.exit(f"{nb_stem}, cell {cell.get('id')}: a figure prepare.FIGURE does not recognise")
        output["data"] = {k: v for k, v in data.items() if k in ("text/html", "text/plain")}
    return count


def hide_claims(cell: dict) -> None:
    """A claims cell (tests/test_claims_hidden.py: its role says so, hidden in Colab and JupyterLab) is no part of
    the page: removed when it stored no output (a claim that holds prints nothing), its source folded otherwise."""
    if cell["cell_type"] == "code" and lesson.roles(cell).get("claims"):
        meta = cell["metadata"]
        meta["tags"] = [*meta.get("tags", []), "hide-input" if cell.get("outputs") else "remove-cell"]


def prepare_notebook(src: Path, dst: Path, figures: Path) -> tuple[int, int]:
    nb = lesson.read(src)
    wrong = lesson.problems(nb, src.name)
    if wrong:
        sys.exit(f"{src.name}: {'; '.join(wrong)}")
    widgets = pictures = 0
    folds, asks = predictions_site.answering(nb), predictions_site.asked(nb)
    for i, cell in enumerate(nb["cells"]):
        if i in folds:  # answers a bet: folded until the reader bets (predictions_site.fold)
            predictions_site.fold(cell, folds[i])
        hide_claims(cell)
        if cell["cell_type"] == "markdown":
            cell["source"] = colab_at_version("".join(cell["source"]))
            continue
        key = asks.get(i)
        if key:  # a prediction question: its live copy, from helpers.predictions
            cell["outputs"] = [predictions_site.output(src.name, key)]
            continue
        if any(WIDGET_MIME in o.get("data", {}) for o in cell.get("outputs", [])):
            cell["outputs"] = [widget_output(src.name, cell)]
            widgets += 1
            continue
        pictures += figures_as_files(src.stem, cell, figures)
    nb.get("metadata", {}).pop("widgets", None)
    dst.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
    return widgets, pictures


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "notebooks").mkdir(parents=True)
    if not (MATHJAX / "tex-chtml.js").exists():
        sys.exit(f"{MATHJAX} missing: run `npm ci` in .ci/site/ (make site does)")
    config = (HERE / "_config.yml").read_text(encoding="utf-8")
    for key, value in {"repository": repository(), "version": version(), "mathjax": str(MATHJAX)}.items():
        config = config.replace("{" + key + "}", value)
    (OUT / "_config.yml").write_text(config, encoding="utf-8")
    (OUT / "_toc.yml").write_text(toc(), encoding="utf-8")
    shutil.copy(HERE / "leccion_site.py", OUT / "leccion_site.py")
    shutil.copytree(HERE / "templates", OUT / "_templates")
    shutil.copytree(HERE / "locales", OUT / "locales")
    static = OUT / "_static"
    shutil.copytree(HERE / "static", static)
    shutil.copytree(HERE / "widgets", static / "widgets", ignore=shutil.ignore_patterns("*.json"))
    live = static / "en_vivo.js"
    live.write_text(live.read_text(encoding="utf-8").replace("/*TABLAS*/null", unicode_tables(), 1), encoding="utf-8")
    shutil.copy(ROOT / "helpers" / "data" / "norm_sweep.json", static / "norm_sweep.json")  # the explorer's data
    figures = static / "figuras"
    figures.mkdir()
    (OUT / "index.md").write_text(index_page(), encoding="utf-8")
    (OUT / "docente.md").write_text(teacher_page(TEACHER.read_text(encoding="utf-8")), encoding="utf-8")
    widgets = pictures = 0
    for nb in lesson.notebooks(ROOT / "notebooks"):
        w, p = prepare_notebook(nb, OUT / "notebooks" / nb.name, figures)
        widgets, pictures = widgets + w, pictures + p
    print(f"prepared {OUT}: version {version()}, home page, teacher's guide, "
          f"{len(lesson.notebooks(ROOT / 'notebooks'))} notebooks, {pictures} figures, "
          f"{widgets} widget pictures")


if __name__ == "__main__":
    main()
