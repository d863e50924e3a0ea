"""pyproject, the constraints files and environment.yml agree; the ranges admit Colab's versions; the wheel
carries what a learner needs and nothing else; the tests of Colab's environment import the installed wheel."""

from __future__ import annotations

import json
import os
import re
import zipfile
from pathlib import Path

import dist_check
import facts
import pytest
import yaml
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

OWN = facts.pyproject()["project"]["name"]


def requirements(extra: str | None = None) -> list[Requirement]:
    deps = facts.extra(extra) if extra else facts.pyproject()["project"]["dependencies"]
    return [Requirement(d) for d in deps]


def colab_lock() -> dict[str, str]:
    """What make test-compat installs: Colab's own versions plus the lock resolved around them."""
    return {**facts.pins("constraints-colab.txt"),
            **{facts.normalize(Requirement(r).name): str(Requirement(r).specifier).removeprefix("==")
               for r in facts.colab_packages() + facts.colab_browser()}}


@pytest.mark.parametrize("lock, extras", [("constraints.txt", [None, "test", "dev"]),
                                          ("constraints-colab.txt", [None, "test"])])
def test_pins_satisfy_pyproject_ranges(lock, extras):
    p = facts.pins() if lock == "constraints.txt" else colab_lock()
    for extra in extras:
        for req in requirements(extra):
            name = facts.normalize(req.name)
            assert name in p, f"{name} ({extra or 'dependencies'}) is in pyproject but not pinned in {lock} (make lock)"
            assert req.specifier.contains(p[name], prereleases=True), f"{lock}: {name}=={p[name]} outside {req}"


def test_dev_extra_includes_the_test_extra():
    assert f"{OWN}[test]" in facts.pyproject()["project"]["optional-dependencies"]["dev"]
    assert set(facts.extra("test")) <= set(facts.extra("dev"))


def test_main_lock_is_the_cpu_build():
    """constraints.txt pins torch's CPU build: a lock taken from a CUDA torch would pin its CUDA libraries."""
    p = facts.pins()
    assert "torch" in p and "+" not in p["torch"], "constraints.txt pins torch without its local tag (make lock)"
    cuda = sorted(n for n in p if n.startswith(("nvidia-", "cuda-", "triton")))
    assert not cuda, f"constraints.txt pins CUDA packages {cuda}: re-lock from a CPU torch (make lock)"


def test_ranges_admit_colab():
    colab = facts.colab_versions()
    assert Version(colab["python"]) in SpecifierSet(facts.pyproject()["project"]["requires-python"])
    for req in requirements() + requirements("test"):
        version = colab.get(facts.normalize(req.name))
        if version:
            assert req.specifier.contains(version), f"{req} refuses Colab's {version}"


def test_colab_lock_leaves_colabs_versions_to_pyproject():
    """constraints-colab.txt is what resolves around Colab's versions; Colab's own are only in pyproject."""
    lock = facts.pins("constraints-colab.txt")
    own = [facts.normalize(Requirement(r).name) for r in facts.colab_packages() + facts.colab_browser()]
    assert not set(own) & set(lock), f"constraints-colab.txt pins Colab's own {sorted(set(own) & set(lock))}"
    assert {"torch", "ipywidgets", "ipython", "ipykernel", "matplotlib", "numpy"} <= set(own)
    assert all(re.fullmatch(r"[\w.-]+==[\w.+!-]+", r) for r in facts.colab_packages()), "Colab's versions are exact"


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


def test_readme_links_the_site_at_its_one_address():
    """The site's address is [project.urls] Documentation; the README says it once, beside the repository's."""
    site = facts.documentation()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(site) == 1, f"README must link the site once, as <{site}>"
    addresses = set(re.findall(r"https://[\w-]+\.github\.io/[^\s>)]*", readme))
    assert addresses == {site}, f"README names another site address: {addresses - {site}}"
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "make test-site" in pages and "branches: [main]" in pages


def test_helpers_under_test_is_the_installed_wheel_where_asked():
    """make compat-unit sets LECCION06_TEST_INSTALLED: there the tests must import the wheel, not the checkout."""
    if not os.environ.get("LECCION06_TEST_INSTALLED"):
        pytest.skip("only in Colab's environment (make test-compat), where helpers is installed from the wheel")
    from importlib.metadata import distribution

    import helpers
    where = Path(helpers.__file__).resolve()
    assert where.parent != ROOT / "helpers" and "site-packages" in where.parts, (
        f"helpers imported from the checkout ({where}), not the installed wheel")
    direct = json.loads(distribution(OWN).read_text("direct_url.json") or "{}")
    assert not direct.get("dir_info", {}).get("editable"), f"helpers is an editable install: {direct}"
    assert direct.get("url", "").endswith(".whl"), f"helpers was not installed from a wheel: {direct}"


def test_colabs_environment_has_colabs_versions():
    """make compat-unit: the environment under test is Colab's, as [tool.leccion06.colab] writes it."""
    if not os.environ.get("LECCION06_TEST_INSTALLED"):
        pytest.skip("only in Colab's environment (make test-compat)")
    import sys
    from importlib.metadata import version
    colab = facts.colab_versions()
    assert "{}.{}".format(*sys.version_info[:2]) == colab.pop("python")
    assert {name: version(name) for name in colab} == colab


# --- the wheel's contents (tests/dist_check.py, run by make dist) -------------------------------------------------

def fake_wheel(tmp_path: Path, extra: dict[str, str] | None = None, drop: str | None = None) -> Path:
    """A wheel like the real one, from this checkout's files, plus/minus what a test asks for."""
    version = facts.pyproject()["project"]["version"]
    info = f"{OWN.replace('-', '_')}-{version}.dist-info"
    path = tmp_path / f"{OWN.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name in dist_check.expected():
            if name != drop:
                z.writestr(name, (ROOT / name).read_bytes())
        z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.4\nName: {OWN}\nVersion: {version}\n"
                                       f"Project-URL: Repository, {facts.repository()}\n")
        z.writestr(f"{info}/RECORD", "")
        for name, text in (extra or {}).items():
            z.writestr(name, text)
    return path


def test_dist_check_passes_a_wheel_of_helpers_and_its_data(tmp_path):
    assert any(n.startswith("helpers/data/") and n.endswith(".json") for n in dist_check.expected())
    assert "helpers/grading/templates/informe.html.j2" in dist_check.expected()
    assert dist_check.wheel_problems(fake_wheel(tmp_path)) == []


@pytest.mark.parametrize("extra", ["tests/test_blocks.py", "notebooks/01_ffn.ipynb", "helpers/__pycache__/x.pyc",
                                   "helpers/data/notes.txt", "benchmarks/bench_engine.py"])
def test_dist_check_refuses_what_a_learner_does_not_need(tmp_path, extra):
    problems = dist_check.wheel_problems(fake_wheel(tmp_path, extra={extra: "x"}))
    assert any(extra in p for p in problems), problems


@pytest.mark.parametrize("folder", ["helpers/data/", "helpers/grading/templates/"])  # the sweep, the class report
def test_dist_check_refuses_a_wheel_without_its_data(tmp_path, folder):
    data = next(n for n in dist_check.expected() if n.startswith(folder))
    problems = dist_check.wheel_problems(fake_wheel(tmp_path, drop=data))
    assert any(data in p for p in problems), problems
