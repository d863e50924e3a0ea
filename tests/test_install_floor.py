"""make install works on the lowest Python the project promises: pyproject's requires-python (README.md and
docs/docente.md promise the same), against the Requires-Python of every pin of constraints.txt, read offline from
the metadata of the packages installed in .venv (make install installs exactly those pins). soupsieve 3.0.2 and later
require 3.11.5 (Python's re before it breaks their possessive quantifiers): on Debian 12's 3.11.2 make install
failed after five minutes of backtracking, so the lock keeps soupsieve 2.x. constraints-site.txt is checked where
.venv has the same release of a package. And the guide's install never downloads CUDA's torch."""

from __future__ import annotations

import importlib.metadata as md
import re

import facts
import pytest
from conftest import ROOT
from packaging.specifiers import SpecifierSet
from packaging.version import Version

pytestmark = pytest.mark.one_env  # another environment (Colab's) has other releases installed


def lowest_python() -> Version:
    """The lowest Python pyproject's requires-python admits, as major.minor.micro ('>=3.11' is 3.11.0)."""
    spec = facts.pyproject()["project"]["requires-python"]
    m = re.fullmatch(r"\s*>=\s*(\d+)\.(\d+)(?:\.(\d+))?\s*", spec)
    assert m, f"requires-python {spec!r}: expected '>=X.Y' (the README and the guide promise 'Python ≥ X.Y')"
    return Version(f"{m[1]}.{m[2]}.{m[3] or 0}")


def too_new(pins: dict[str, str], requires_python, floor: Version) -> list[str]:
    """Pins whose release needs a Python newer than ``floor``; ``requires_python(name, version)``: its
    Requires-Python ("" if it says none), or None where it cannot be read."""
    found = []
    for name, version in pins.items():
        spec = requires_python(name, version)
        if spec and not SpecifierSet(spec).contains(floor, prereleases=True):
            found.append(f"{name}=={version} requires Python {spec}")
    return found


def installed(name: str, version: str) -> str | None:
    """The installed release's Requires-Python, if the installed release is ``version`` (torch's +cpu aside)."""
    try:
        dist = md.distribution(name)
    except md.PackageNotFoundError:
        return None
    if Version(dist.version).public != Version(version).public:
        return None
    return dist.metadata.get("Requires-Python") or ""


def test_every_pin_installs_on_the_lowest_promised_python():
    pins, floor = facts.pins("constraints.txt"), lowest_python()
    missing = [f"{n}=={v}" for n, v in pins.items() if installed(n, v) is None]
    assert not missing, f".venv is not constraints.txt's ({missing[:5]}): run make install, then this again"
    bad = too_new(pins, installed, floor)
    assert not bad, (f"pyproject promises Python {floor}, but constraints.txt pins releases that refuse it: {bad}. "
                     "Pin the newest release whose Requires-Python admits it (pip index versions NAME; "
                     "pip download NAME==X --no-deps shows the metadata), or raise requires-python and the promises")


def test_the_site_pins_install_on_it_too():
    pins = facts.pins("constraints-site.txt")
    seen = {n: v for n, v in pins.items() if installed(n, v) is not None}
    assert "soupsieve" in seen, "the check reads no metadata for the site's soupsieve: pin it as .venv's"
    bad = too_new(seen, installed, lowest_python())
    assert not bad, f"constraints-site.txt (make site, with the same Python) pins releases that refuse it: {bad}"


def test_the_check_sees_a_pin_that_needs_a_newer_python():
    """soupsieve 4.1.3's own Requires-Python, the pin that broke 3.11.2; a range that admits the floor passes."""
    metadata = {("soupsieve", "4.1.3"): ">=3.11.5", ("tornado", "6.6.1"): ">= 3.11", ("six", "1.17.0"): ""}
    pins = {name: version for name, version in metadata}
    bad = too_new(pins, lambda n, v: metadata[(n, v)], Version("3.11.0"))
    assert bad == ["soupsieve==4.1.3 requires Python >=3.11.5"]
    assert too_new(pins, lambda n, v: metadata[(n, v)], Version("3.11.5")) == []


@pytest.mark.parametrize("doc", ["README.md", "docs/docente.md"])
def test_the_docs_promise_what_pyproject_says(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    promised = re.findall(r"Python ≥ (\d+\.\d+(?:\.\d+)?)", text)
    floor = lowest_python()
    assert promised, f"{doc} does not say which Python it needs"
    assert {Version(p) for p in promised} == {Version(f"{floor.major}.{floor.minor}")} or \
        {Version(p) for p in promised} == {floor}, f"{doc} promises Python ≥ {promised}; pyproject: {floor}"


def test_the_guides_install_takes_the_cpu_torch():
    """PyPI's Linux torch brings CUDA (GB of nvidia-… packages): every make in the guide that builds .venv carries
    the CPU index CI uses (.github/workflows/ci.yml)."""
    index = re.search(r"PIP_EXTRA_INDEX_URL:\s*(\S+)", (ROOT / ".github/workflows/ci.yml").read_text("utf-8"))[1]
    guide = (ROOT / "docs" / "docente.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", guide, re.S)
    makes = [line for b in blocks for line in b.splitlines() if re.search(r"\bmake (grading|install|lab|test)\b", line)]
    assert makes, "the guide's install has no make line in a bash block"
    bare = [line for line in makes if f"PIP_EXTRA_INDEX_URL={index}" not in line]
    assert not bare, f"these would download CUDA's torch on Linux: {bare}"
