"""Facts written once, and the one place that reads them (the Makefile, the tests, CI and the site ask here).

- pyproject.toml: the repository's and the site's address ([project.urls]), Colab's Python and packages
  ([tool.leccion06.colab]) and the extras;
- constraints.txt: the torch pin of every environment but Colab's (the CPU build);
- this file: nbval's flags and the per-cell timeout of every notebook run.

Standard library only, so that any environment (.venv, Colab's, the site's) can read it. For the Makefile and CI:

    python .ci/facts.py colab-python | colab-packages | colab-browser | colab-summary | colab-excludes
    python .ci/facts.py extra NAME | torch-pin | repository | version | cell-timeout | nbval

It lives with the build (.ci/), not the tests: the Makefile, CI, .ci's scripts, the benchmarks, helpers.grading's
bundle and the tests (tests/conftest.py puts .ci/ on their path) all read it.
"""

from __future__ import annotations

import functools
import re
import shlex
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Seconds one cell may run, in nbval, make execute and the grid report (the slowest cell takes about a minute
# at one thread on an idle machine; a CI machine under load or 4 threads on 2 cores takes a few times that).
CELL_TIMEOUT = 600
# Strict nbval with the sanitize rules, for every run over the stored notebooks (make nbval, the grid, compat), and
# tests/nbval_guard.py, which fails a cell as soon as its kernel dies (the runner puts tests/ on pytest's path).
NBVAL = ["-p", "nbval_guard", "--nbval", "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"),
         f"--nbval-cell-timeout={CELL_TIMEOUT}"]


@functools.cache
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def repository() -> str:
    """The repository's address, without a trailing slash."""
    return pyproject()["project"]["urls"]["Repository"].rstrip("/")


def documentation() -> str:
    """The lesson's website."""
    return pyproject()["project"]["urls"]["Documentation"]


def version() -> str:
    """The release: pyproject's [project] version (make release writes it; helpers.__version__ reports it)."""
    return pyproject()["project"]["version"]


def version_at(root: Path) -> str:
    """The version in the pyproject.toml of the checkout at ``root`` (.ci/release.py decide --repo)."""
    return tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def colab_base() -> str:
    """Colab's address of this release's tree: the notebooks a learner opens match the helpers they install."""
    gh = repository().removeprefix("https://github.com/")
    return f"https://colab.research.google.com/github/{gh}/blob/v{version()}"


# Where the learner's copies live (.ci/learner_copies.py): what a Colab badge opens, without the bets' answers
COPIES = "notebooks/colab"


def colab_url(notebook: str) -> str:
    """'Open in Colab' address of a notebook of this release (its tag, v<version>), by file name: its learner's
    copy (notebooks/colab/), which holds no output that answers a bet."""
    return f"{colab_base()}/{COPIES}/{notebook}"


def setup_cell() -> str:
    """Every notebook's first code cell: tests/setup_cell.txt with this repository and release."""
    template = (ROOT / "tests" / "setup_cell.txt").read_text(encoding="utf-8")
    return template.format(repo_url=repository(), version=version()).strip()


def extra(name: str) -> list[str]:
    """An optional-dependencies list of pyproject (self-references like 'leccion06-helpers[test]' expanded)."""
    own = pyproject()["project"]["name"]
    out = []
    for req in pyproject()["project"]["optional-dependencies"][name]:
        m = re.fullmatch(rf"{re.escape(own)}\[(\w+)\]", req.strip())
        out.extend(extra(m.group(1)) if m else [req])
    return out


def _colab() -> dict:
    return pyproject()["tool"]["leccion06"]["colab"]


def colab_python() -> str:
    """Colab's Python, major.minor."""
    return _colab()["python"]


def colab_packages() -> list[str]:
    """Colab's runtime as pip requirements, name==version."""
    return list(_colab()["packages"])


def colab_browser() -> list[str]:
    """What the classic Notebook needs to draw Colab's ipywidgets in a browser (Colab draws them itself)."""
    return list(_colab()["browser"])


def colab_versions() -> dict[str, str]:
    """{name: version} of Colab's runtime, its Python included (key "python", major.minor)."""
    out = {"python": colab_python()}
    for req in colab_packages():
        name, _, version = req.partition("==")
        out[name.strip().lower()] = version.strip()
    return out


def colab_summary() -> str:
    """One line for people: 'Python X.Y, torch X.Y.Z, ...'."""
    return ", ".join(f"{'Python' if k == 'python' else k} {v}" for k, v in colab_versions().items())


def pins(path: str = "constraints.txt") -> dict[str, str]:
    """{normalized name: version} of a constraints file (every line name==version)."""
    out = {}
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            if not version:
                raise ValueError(f"{path}: {line!r} is not pinned with ==")
            out[normalize(name)] = version
    return out


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def torch_pin() -> str:
    """The torch of every environment but Colab's: the CPU build, from constraints.txt."""
    return pins()["torch"]


COMMANDS = {
    "colab-python": colab_python,
    "colab-packages": lambda: " ".join(map(shlex.quote, colab_packages())),
    "colab-browser": lambda: " ".join(map(shlex.quote, colab_browser())),
    "colab-summary": colab_summary,
    # pip freeze --exclude for each package Colab pins: the lock holds only what is resolved around them
    "colab-excludes": lambda: " ".join(f"--exclude {r.partition('==')[0]}" for r in colab_packages() + colab_browser()),
    "torch-pin": torch_pin,
    "repository": repository,
    "version": version,
    "cell-timeout": lambda: str(CELL_TIMEOUT),
    "nbval": lambda: " ".join(map(shlex.quote, NBVAL)),
}


def main(argv: list[str]) -> int:
    if argv[:1] == ["extra"] and len(argv) == 2:
        print(" ".join(map(shlex.quote, extra(argv[1]))))
        return 0
    if len(argv) != 1 or argv[0] not in COMMANDS:
        print(f"usage: python .ci/facts.py {{{'|'.join(COMMANDS)}}} | extra NAME", file=sys.stderr)
        return 2
    print(COMMANDS[argv[0]]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
