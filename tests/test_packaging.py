"""pyproject, constraints.txt and environment.yml agree, and the ranges admit Colab's versions."""

from __future__ import annotations

import re
import tomllib

import pytest
import yaml
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.version import Version

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# Colab's free CPU runtime as of August 2026 (see README); update when Colab moves.
COLAB = {"python": "3.13", "torch": "2.11.0", "numpy": "2.1.3", "matplotlib": "3.10.0",
         "ipywidgets": "7.7.1", "ipython": "7.34.0", "ipykernel": "6.17.1"}


def pins(path: str = "constraints.txt") -> dict[str, Version]:
    out = {}
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            out[name.lower().replace("_", "-")] = Version(version)
    return out


def requirements(extra: str | None = None) -> list[Requirement]:
    deps = PYPROJECT["project"]["dependencies"]
    if extra:
        deps = PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(d) for d in deps]


def test_torch_pin_is_the_cpu_build_on_disk():
    assert pins()["torch"] == Version("2.13.0")


@pytest.mark.parametrize("path", ["constraints.txt", "constraints-colab.txt"])
@pytest.mark.parametrize("extra", [None, "dev"])
def test_pins_satisfy_pyproject_ranges(extra, path):
    p = pins(path)
    for req in requirements(extra):
        name = req.name.lower()
        assert name in p, f"{name} is in pyproject but not pinned in constraints.txt (make lock)"
        assert req.specifier.contains(p[name], prereleases=True), f"pin {name}=={p[name]} outside {req}"


def test_ranges_admit_colab():
    assert PYPROJECT["project"]["requires-python"]
    from packaging.specifiers import SpecifierSet
    assert Version(COLAB["python"]) in SpecifierSet(PYPROJECT["project"]["requires-python"])
    for req in requirements() + requirements("dev"):
        colab = COLAB.get(req.name.lower())
        if colab:
            assert req.specifier.contains(colab), f"{req} refuses Colab's {colab}"


def test_environment_yml_installs_the_project_with_dev_extras():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert "-e .[dev]" in pip and "-c constraints.txt" in pip, (
        "environment.yml must install the project with dev extras under constraints.txt, "
        "so that its package list is pyproject's"
    )
    # No package may be listed there by name: the list lives in pyproject only.
    conda_names = {str(d).split("=")[0] for d in env["dependencies"] if isinstance(d, str)}
    assert conda_names <= {"python", "pip"}, f"environment.yml lists packages twice: {conda_names}"


def test_compat_environment_pins_colabs_versions():
    """make test-compat must test exactly what Colab has: its torch, its packages, and its Python."""
    p = pins("constraints-colab.txt")
    for name, version in COLAB.items():
        if name != "python":
            assert p[name] == Version(version), f"constraints-colab.txt pins {name}=={p[name]}, Colab has {version}"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    colab_pins = next(line for line in makefile.splitlines() if line.startswith("COLAB_PINS"))
    for name, version in COLAB.items():
        if name != "python":
            assert f"{name}=={version}" in colab_pins, f"Makefile's COLAB_PINS lacks {name}=={version}"
    assert f"sys.version_info[:2] == ({COLAB['python'].replace('.', ', ')})" in makefile


def test_readme_links_the_site_at_its_one_address():
    """The site's address is [project.urls] Documentation; the README says it once, beside the repository's."""
    site = PYPROJECT["project"]["urls"]["Documentation"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(site) == 1, f"README must link the site once, as <{site}>"
    addresses = set(re.findall(r"https://[\w-]+\.github\.io/[^\s>)]*", readme))
    assert addresses == {site}, f"README names another site address: {addresses - {site}}"
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "make test-site" in pages and "branches: [main]" in pages
