"""Releases (issue 22): one version everywhere, a mismatch that explains itself, and a release script that refuses.

- The version lives once, in pyproject.toml; helpers.__version__, every notebook's setup cell (install from the tag
  and helpers.check_env.require), every Colab badge and link (blob/v<version>), the README and the site's sources
  name that version and no other.
- A notebook run against another installed version stops at its setup cell with the Spanish note and the one
  command that fixes it, not a traceback (a real kernel, the notebook's own setup cell).
- .ci/release.py refuses a dirty tree, a version that is not newer, an existing tag and an empty changelog, in a
  throwaway clone, before it runs anything expensive.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys

import nbformat
import pytest
from conftest import NOTEBOOKS, ROOT
from facts import colab_url, repository, setup_cell, version

import helpers

# Anything that names a release of this repository: a tag in a URL or a pip line, or the setup cell's check.
NAMED = re.compile(r"@v(\d+\.\d+\.\d+)|/blob/v(\d+\.\d+\.\d+)/|require\(\"(\d+\.\d+\.\d+)\"\)|/tag/v(\d+\.\d+\.\d+)")


def named_versions(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in NAMED.finditer(text)}


def test_the_installed_helpers_is_pyprojects_version():
    assert helpers.__version__ == version(), (
        f"helpers.__version__ is {helpers.__version__}, pyproject says {version()}: reinstall (make install)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_notebook_names_this_release_only(path):
    nb = nbformat.read(path, as_version=4)
    setup = next(c for c in nb.cells if c.cell_type == "code").source
    assert setup.strip() == setup_cell(), f"{path.name}: the setup cell is not tests/setup_cell.txt at {version()}"
    assert f"@v{version()}\"" in setup and f'require("{version()}")' in setup
    assert colab_url(path.name) in nb.cells[0].source, f"{path.name}: the Colab badge is not at v{version()}"
    text = "\n".join(c.source for c in nb.cells)
    assert named_versions(text) == {version()}, f"{path.name} names releases {named_versions(text)}"


def test_readme_and_site_sources_name_this_release_only():
    texts = {p: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / ".ci" / "site").glob("*"))]
             if p.is_file()}
    for path, text in texts.items():
        assert named_versions(text) <= {version()}, f"{path.name} names releases {named_versions(text)}"
    assert named_versions(texts[ROOT / "README.md"]) == {version()}, "the README's badges name no release"


def test_changelog_links_only_released_versions():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Sin publicar]" in text, "CHANGELOG.md needs a '## [Sin publicar]' section (Keep a Changelog)"
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d\d-\d\d$", text, flags=re.M)
    for v in released:
        assert f"[{v}]: {repository()}/releases/tag/v{v}" in text, f"CHANGELOG.md: {v} has no link to its release"
    lines = text.splitlines()
    first_link = next((i for i, line in enumerate(lines) if re.match(r"\[\d+\.\d+\.\d+\]: ", line)), None)
    if first_link is not None:  # a link definition right under a list item joins its text
        assert not lines[first_link - 1].strip(), "CHANGELOG.md: a blank line must come before the release links"
    if released:
        assert released[0] == version(), f"the newest CHANGELOG entry is {released[0]}, pyproject says {version()}"


def test_a_notebook_against_another_installed_version_says_what_to_run():
    """The setup cell of a notebook written for another release, in a real kernel with this helpers installed."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    other = "0.0.1" if version() != "0.0.1" else "0.0.2"
    cell = setup_cell().replace(version(), other)
    cells = [nbformat.v4.new_code_cell(cell), nbformat.v4.new_code_cell("print('después')")]
    nb = nbformat.v4.new_notebook(cells=cells)
    client = NotebookClient(nb, timeout=120, kernel_name="python3")
    with pytest.raises(CellExecutionError):
        client.execute()
    (error,) = [o for o in nb.cells[0].outputs if o.output_type == "error"]
    shown = "\n".join(error.traceback)
    assert error.ename == "VersionMismatch"
    assert f"Este notebook se escribió con helpers {other}, pero tenés instalada la {version()}" in shown
    assert f'%pip install -q --force-reinstall --no-deps "leccion06-helpers @ git+{repository()}@v{other}"' in shown
    assert "Reiniciar sesión" in shown
    assert "Traceback" not in shown and "File " not in shown, f"the learner sees a traceback:\n{shown}"
    assert not nb.cells[1].outputs, "the cell after the setup cell ran: 'Run all' must stop at the mismatch"


@pytest.fixture
def clone(tmp_path):
    """A throwaway clone of this commit with its working tree as it is now (committed there), for release.py."""
    dest = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(dest)], check=True)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.splitlines()
    for name in files:  # the tree as it is now, uncommitted edits and new files included
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "add", "-A"], cwd=dest, check=True)
    subprocess.run([*git, "commit", "-qm", "tree under test", "--allow-empty"], cwd=dest, check=True)
    return dest, git


def release(dest, *args):
    r = subprocess.run([sys.executable, ".ci/release.py", *args, "--dry-run"], cwd=dest, capture_output=True,
                       text=True)
    return r.returncode, r.stdout + r.stderr


def set_unreleased(dest, git, lines: str) -> None:
    """CHANGELOG.md of the clone with ``lines`` (maybe none) under 'Sin publicar', committed."""
    log = (dest / "CHANGELOG.md").read_text(encoding="utf-8")
    head, rest = log.split("## [Sin publicar]", 1)
    after = re.split(r"^(?=## \[)", rest, maxsplit=1, flags=re.M)
    released = after[1] if len(after) > 1 else ""
    (dest / "CHANGELOG.md").write_text(f"{head}## [Sin publicar]\n\n{lines}\n{released}", encoding="utf-8")
    subprocess.run([*git, "commit", "-qam", "changelog", "--allow-empty"], cwd=dest, check=True)


def test_release_refuses_and_changes_nothing(clone):
    dest, git = clone
    set_unreleased(dest, git, "### Cambiado\n\n- Algo nuevo.\n")
    tags = subprocess.run(["git", "tag", "--list"], cwd=dest, capture_output=True, text=True).stdout.split()
    major = int(version().split(".")[0]) + 1
    while f"v{major}.0.0" in tags:  # a version newer than pyproject's that no tag has taken
        major += 1
    newer = f"{major}.0.0"
    code, out = release(dest, newer)
    assert code == 0 and "dry run" in out, out

    code, out = release(dest, version())
    assert code == 1 and "is not newer" in out, out
    code, out = release(dest, "1.0")
    assert code == 1 and "x.y.z" in out, out

    subprocess.run([*git, "tag", f"v{newer}"], cwd=dest, check=True)
    code, out = release(dest, newer)
    assert code == 1 and "already exists" in out, out
    subprocess.run(["git", "tag", "-d", f"v{newer}"], cwd=dest, check=True, capture_output=True)

    (dest / "README.md").write_text("cambio sin commit\n", encoding="utf-8")
    code, out = release(dest, newer)
    assert code == 1 and "uncommitted changes" in out, out
    subprocess.run(["git", "checkout", "--", "README.md"], cwd=dest, check=True)

    set_unreleased(dest, git, "")
    code, out = release(dest, newer)
    assert code == 1 and "nothing under" in out, out
    assert not subprocess.run(["git", "status", "--porcelain"], cwd=dest, capture_output=True, text=True).stdout


def test_the_release_workflow_runs_make_targets_that_exist():
    """Every step of .github/workflows/release.yml that builds or checks is a make target a maintainer can run."""
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    used = set(re.findall(r"run: make ([a-z-]+)", workflow))
    assert {"dist", "test-compat", "test-site"} <= used, f"the release workflow runs {sorted(used)}"
    for target in used:
        assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), f"release.yml: no make target {target}"
    assert "pypa/gh-action-pypi-publish" in workflow and "id-token: write" in workflow, "PyPI by trusted publishing"


spec = importlib.util.spec_from_file_location("release_script", ROOT / ".ci" / "release.py")
release_script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(release_script)


@pytest.fixture
def repo(tmp_path):
    """A throwaway git repository with a pyproject.toml; commit(version) writes the version and commits."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)

    def commit(version: str, tag: str | None = None) -> None:
        (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\nversion = "{version}"\n', encoding="utf-8")
        subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
        subprocess.run([*git, "commit", "-qm", version, "--allow-empty"], cwd=tmp_path, check=True)
        if tag:
            subprocess.run([*git, "tag", tag], cwd=tmp_path, check=True)

    return tmp_path, commit


def test_mains_workflow_tags_a_version_without_a_tag_and_nothing_else(repo):
    path, commit = repo
    commit("1.0.0")
    assert release_script.decide(path) == "v1.0.0", "a version no tag has: create its tag on this commit"
    commit("1.0.0", tag="v1.0.0")
    assert release_script.decide(path) is None, "the tag exists: nothing to do"
    commit("1.0.1")
    assert release_script.decide(path) == "v1.0.1"
    commit("1.2.0", tag="v1.2.0")
    commit("1.10.0")
    assert release_script.decide(path) == "v1.10.0", "versions compare as numbers, not as text"
    subprocess.run(["git", "tag", "v1.10.0"], cwd=path, check=True)
    commit("1.9.0")
    with pytest.raises(release_script.Refused, match="1.9.0 is lower than the last tag v1.10.0"):
        release_script.decide(path)
    commit("2.0")
    with pytest.raises(release_script.Refused, match="x.y.z"):
        release_script.decide(path)


def test_decide_prints_what_the_workflow_reads(repo):
    path, commit = repo
    commit("3.1.4")
    run = [sys.executable, str(ROOT / ".ci" / "release.py"), "decide", "--repo", str(path)]
    out = subprocess.run(run, capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (0, "tag=v3.1.4\n"), out
    subprocess.run(["git", "tag", "v3.1.4"], cwd=path, check=True)
    out = subprocess.run(run, capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (0, "tag=\n"), out
    subprocess.run(["git", "tag", "v4.0.0"], cwd=path, check=True)
    commit("3.2.0")
    out = subprocess.run(run, capture_output=True, text=True)
    assert out.returncode == 1 and "refused" in out.stderr and not out.stdout, out


def test_the_release_the_notebooks_name_exists_or_this_commit_creates_it():
    """Setup cells and Colab links name v<version>: a tag that exists, or the one main's workflow makes here."""
    tag = f"v{version()}"
    if tag in release_script.tags(ROOT):
        return
    assert release_script.decide(ROOT) == tag, f"{tag} does not exist, and main's release workflow would not create it"


def test_the_release_workflow_runs_on_main_and_tags_after_its_checks():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    on = workflow[True]  # YAML reads the key `on` as True
    assert on["push"] == {"branches": ["main"]}, "releases come from pushes to main, never from a pushed tag"
    jobs = workflow["jobs"]
    steps = lambda job: " ".join(str(s.get("run", "")) for s in jobs[job]["steps"])  # noqa: E731
    assert "python3 .ci/release.py decide" in steps("decide")
    assert jobs["build"]["if"] == "needs.decide.outputs.tag != ''"
    assert set(jobs["tag"]["needs"]) == {"decide", "build"}, "the tag comes after the build and its tests"
    assert 'git tag "$TAG" "$GITHUB_SHA"' in steps("tag") and 'git push origin "refs/tags/$TAG"' in steps("tag")
    assert jobs["tag"]["permissions"] == {"contents": "write"}
    assert "tag" in str(jobs["pypi"]["needs"]) and "tag" in str(jobs["github-release"]["needs"])


def test_make_release_commits_and_makes_no_tag(clone):
    """The whole of release() but what it runs (the reinstall, the setup cells' kernel, its tests), in a throwaway
    clone."""
    dest, git = clone
    set_unreleased(dest, git, "### Cambiado\n\n- Algo nuevo.\n")
    major = int(version().split(".")[0]) + 1
    code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('r', '.ci/release.py'); "
            "r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r); "
            "r.run = lambda *cmd: print('(not run)', *cmd); r.setup_cells_run = lambda v: print('(not run)', v); "
            "raise SystemExit(r.main([sys.argv[1]]))")
    env = {**__import__("os").environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    out = subprocess.run([sys.executable, "-c", code, f"{major}.0.0"], cwd=dest, capture_output=True, text=True,
                         env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no tag" in out.stdout and "release workflow creates the tag" in out.stdout, out.stdout
    head = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=dest, capture_output=True, text=True).stdout
    assert head.strip() == f"Release {major}.0.0"
    assert f"v{major}.0.0" not in release_script.tags(dest), "make release made a tag"
    assert release_script.decide(dest) == f"v{major}.0.0", "main's workflow would tag the release commit"
    assert f'version = "{major}.0.0"' in (dest / "pyproject.toml").read_text(encoding="utf-8")
    assert f"## [{major}.0.0] - " in (dest / "CHANGELOG.md").read_text(encoding="utf-8")


def test_nothing_waits_under_sin_publicar():
    """Every landing that changes what a learner or teacher gets is a release: its entries are dated, none wait."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    waiting = release_script.unreleased_notes(text)
    assert not waiting, (
        f"CHANGELOG.md lists changes under «[Sin publicar]»: release them (make release VERSION=x.y.z, by the "
        f"CHANGELOG's rule) in the same landing:\n{waiting[:600]}")


@pytest.mark.one_env
def test_what_learners_get_has_not_changed_since_its_release():
    """helpers/ and notebooks/ are as the commit that set pyproject's version left them (or that commit is coming)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no history to compare with")
    changed = release_script.unreleased_changes(ROOT)
    assert not changed, (
        f"{len(changed)} files under {'/, '.join(release_script.RELEASED_PATHS)}/ changed after the commit that set "
        f"version {version()} ({release_script.release_commit(ROOT)[:10]}): a learner's badge and setup cell would "
        f"install {version()} without them. Release them: make release VERSION=x.y.z. Changed: {changed[:8]}")


def test_the_release_guard_sees_a_change_after_the_release_and_not_before(repo):
    path, commit = repo
    commit("1.0.0")
    assert release_script.unreleased_changes(path) == []
    (path / "helpers").mkdir()
    (path / "helpers" / "m.py").write_text("x = 1\n", encoding="utf-8")
    (path / "README.md").write_text("docs\n", encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-qm", "change"], cwd=path, check=True)
    assert release_script.unreleased_changes(path) == ["helpers/m.py"], "a change to helpers/ after 1.0.0"
    (path / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.1.0"\n', encoding="utf-8")
    assert release_script.release_commit(path) is None, "a version being prepared, not committed yet"
    assert release_script.unreleased_changes(path) == []
    commit("1.1.0")
    assert release_script.unreleased_changes(path) == [], "released with 1.1.0"
    (path / "README.md").write_text("more docs\n", encoding="utf-8")
    subprocess.run([*git, "commit", "-qam", "docs only"], cwd=path, check=True)
    assert release_script.unreleased_changes(path) == [], "README alone is not what learners install"


def test_point_sends_every_colab_link_to_this_versions_learner_copy():
    """release.py point (and make release): a badge at the notebook, at its copy, or at another version, becomes
    facts.colab_url, the learner's copy of this version; other links stay."""
    gh = repository().removeprefix("https://github.com/")
    old = f"https://colab.research.google.com/github/{gh}/blob/v0.9.0/notebooks/03_layernorm.ipynb"
    copy = f"https://colab.research.google.com/github/{gh}/blob/v0.9.0/notebooks/colab/03_layernorm.ipynb"
    other = "[Colab](https://colab.research.google.com/)"
    text = f"[![Abrir en Colab](x.svg)]({old}) y ({copy}) {other}"
    assert release_script.pointed(text) == (f"[![Abrir en Colab](x.svg)]({colab_url('03_layernorm.ipynb')}) y "
                                            f"({colab_url('03_layernorm.ipynb')}) {other}")
    assert "/notebooks/colab/03_layernorm.ipynb" in colab_url("03_layernorm.ipynb")
