"""Each fact is written in one file and read from there (.ci/facts.py is the reader): a copy anywhere else in
the repository fails here, with the file, the line and where the fact lives.

- Colab's versions (Python and packages): pyproject.toml's [tool.leccion06.colab];
- the torch pin of every environment but Colab's: constraints.txt;
- nbval's flags and the per-cell timeout: .ci/facts.py;
- pyproject.toml itself is read (tomllib) only by .ci/facts.py;
- the repository's and the site's address: pyproject.toml's [project.urls]. A notebook cannot read a file (its
  setup cell and Colab badge carry the address, and tests/test_notebooks_hygiene.py checks them against
  pyproject), nor can the README's badges: those two are the only other places allowed.
"""

from __future__ import annotations

import re
import subprocess

import facts
import pytest
from conftest import ROOT

COLAB_TABLE = "[tool.leccion06.colab]"
# Text that names a version it was measured with, not a pin: (file, text on the line, why).
RECORDS = [
    ("helpers/data/norm_sweep.json", '"torch":', "the sweep's metadata: the torch it ran on"),
    ("helpers/data/depth96.json", '"torch":', "notebook 02's 96-layer runs: the torch they ran on"),
    ("helpers/data/mask_sweep.json", '"torch":', "notebook 04's mask experiment: the torch it ran on"),
    ("README.md", "machine (torch", "the engine benchmark: the torch it was measured with"),
    ("benchmarks/measurements.json", '"torch":', "each benchmark run: the torch it was measured with"),
]
# Arbitrary versions fed to a pure function, not statements about Colab: (file, why)
NOT_COLAB = {"tests/test_check_env.py": "in-range versions fed to check_env.compare_versions, a pure function"}


def version_pattern(name: str, version: str) -> str:
    """A name followed by its version: 'torch==X.Y.Z', 'torch X.Y', '"torch": "X.Y.Z"', 'pythonX.Y'.
    Ranges ('torch>=2.4') are another fact and do not match."""
    major, minor = version.split(".")[:2]
    names = r"python[\w-]*|py" if name == "python" else re.escape(name)
    return rf"(?i)\b(?:{names})(?:==|[\s\"':,=]){{0,4}}{major}\.{minor}(?:\.\d+)*(?![\w.]*\d)"


def colab_table_removed(text: str) -> str:
    """pyproject.toml without the [tool.leccion06.colab] table (the one place Colab's versions live)."""
    return re.sub(rf"(?ms)^{re.escape(COLAB_TABLE)}\n.*?(?=^\[|\Z)", "", text)


def facts_and_homes() -> list[tuple[str, str, set[str]]]:
    """(what, regex, files allowed to hold it)."""
    rows = [(f"Colab's {name} {version}", version_pattern(name, version), {"pyproject.toml"})
            for name, version in facts.colab_versions().items()]
    rows += [(f"Colab's {r}", version_pattern(*r.split("==")), {"pyproject.toml"}) for r in facts.colab_browser()]
    pin = facts.torch_pin()
    rows.append((f"the torch pin {pin}", version_pattern("torch", pin), {"constraints.txt"}))
    rows += [("nbval's flags", r"--nbval-(?:sanitize-with|cell-timeout)", {".ci/facts.py"}),
             ("the cell timeout", r"CELL_TIMEOUT = \d|ExecutePreprocessor\.timeout=\d|nbval-cell-timeout=\d",
              {".ci/facts.py"}),
             ("a reader of pyproject.toml", r"tomllib\.loads?\(", {".ci/facts.py"}),
             ("the repository's address", re.escape(facts.repository()),
              {"pyproject.toml", "README.md", "CHANGELOG.md",  # the changelog's release links, written by make release
               *(f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")),
               *(f"{facts.COPIES}/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb"))}),  # generated from them
             ("the site's address", re.escape(facts.documentation().rstrip("/")), {"pyproject.toml", "README.md"})]
    return rows


def tracked_files() -> list[str]:
    """The repository's files: tracked, plus new ones git does not ignore."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, f"git ls-files failed: {out.stderr}"
    return sorted(set(out.stdout.split()))


def copies(path: str, text: str, what: str, pattern: str) -> list[str]:
    if path == "pyproject.toml":
        text = colab_table_removed(text)
    found = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not re.search(pattern, line):
            continue
        if any(path == f and mark in line for f, mark, _ in RECORDS):
            continue
        if what.startswith("Colab's") and path in NOT_COLAB:
            continue
        found.append(f"{path}:{n}: {line.strip()[:120]}")
    return found


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    out = {}
    for path in tracked_files():
        try:
            out[path] = (ROOT / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # pictures; a file deleted in the work tree
    return out


@pytest.mark.parametrize("what, pattern, homes", facts_and_homes(), ids=[r[0] for r in facts_and_homes()])
def test_each_fact_lives_in_one_place(texts, what, pattern, homes):
    found = [c for path, text in texts.items() if path not in homes for c in copies(path, text, what, pattern)]
    assert not found, (f"{what} is written outside {', '.join(sorted(homes))}: read it from there "
                       f"(.ci/facts.py) instead:\n" + "\n".join(found))
    home = "pyproject.toml" if "pyproject.toml" in homes else next(iter(sorted(homes)))  # where it is written
    assert re.search(pattern, (ROOT / home).read_text(encoding="utf-8")), f"{what} is no longer in {home}"


def test_the_scan_sees_a_copy():
    """The check can fail: each kind of copy is caught, and a range or another version is not taken for one."""
    colab_torch = version_pattern("torch", facts.colab_versions()["torch"])
    v = facts.colab_versions()["torch"]
    for line in [f"torch=={v}", f"con torch {v} de Colab", f'{{"torch": "{v}"}}', f"TORCH {v[:-2]}"]:
        assert copies("x.md", line, "Colab's torch", colab_torch), line
    major, minor = v.split(".")[:2]
    for line in ["torch>=2.4,<3", f"torch {major}.{minor}0", "torchvision==0.21.0", f"torch {major}.{int(minor) + 1}"]:
        assert not copies("x.md", line, "Colab's torch", colab_torch), line
    py = facts.colab_python()
    for line in [f"python{py} -m venv", f"Python {py}.0", f'python-version: "{py}"']:
        assert copies("x.yml", line, "Colab's python", version_pattern("python", py)), line
    table = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert COLAB_TABLE in table and not copies("pyproject.toml", table, "Colab's torch", colab_torch)
    assert copies("pyproject.toml", table + f"\n# torch {v}\n", "Colab's torch", colab_torch)


def test_records_and_exemptions_name_files_that_exist():
    for path, _, why in RECORDS:
        assert why and (ROOT / path).exists(), path
    for path, why in NOT_COLAB.items():
        assert why and (ROOT / path).exists(), path
