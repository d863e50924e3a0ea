"""Releases, made by main alone: `make release VERSION=x.y.z` prepares one; merging it to main publishes it.

`make release VERSION=x.y.z` (this script, on a maintainer's machine) refuses, and changes nothing, when the working
tree has uncommitted changes, when VERSION is not a plain x.y.z newer than pyproject's version, when the tag exists,
or when CHANGELOG.md has nothing under "Sin publicar". Then it writes VERSION into pyproject.toml (the one place it
lives), points every notebook's setup cell and Colab badge (and the README's badges) at that release's tag, dates
the CHANGELOG entry, re-installs helpers at that version, runs what the version string changes (each notebook's
setup cell, in one fresh kernel: it has no output to store, so nothing else is re-executed) and the release's own
tests (tests/test_release.py, tests/test_learner_copies.py), and commits: a minute or two. The full suite is CI's,
on the release commit like on any other. If any step fails, the tree and the installed version are put back.

Every change to what a learner or teacher gets (RELEASED_PATHS: helpers/, notebooks/, which the grading bundle is
built from) is a release: tests/test_release.py fails when a commit after the one that set pyproject's version
changed them, and when CHANGELOG.md lists anything under "Sin publicar". It makes no tag: a tag made on a
maintainer's machine never reaches users.

On every push to main, .github/workflows/release.yml asks `decide`: pyproject's version has no tag yet, so create
`v<version>` on this commit (and build, test and publish it in the same run), or its tag exists (nothing to do), or
it is lower than the last tag (refused: the workflow fails).

    python .ci/release.py 1.1.0 [--dry-run]
    python .ci/release.py decide [--repo PATH]     # prints tag=v<version> (to create) or tag= (nothing to do)
    python .ci/release.py point                    # setup cells and Colab badges at this version (facts.colab_url),
                                                   # then the learner's copies again; no version change, no commit
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".ci"))  # also when loaded from its file, not run
import facts  # noqa: E402  (.ci/facts.py, beside this file: the one reader of pyproject.toml)

CHANGELOG = ROOT / "CHANGELOG.md"
UNRELEASED = "## [Sin publicar]"


class Refused(Exception):
    """A reason not to release; nothing was changed."""


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def parse(version: str):
    from packaging.version import InvalidVersion, Version

    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise Refused(f"VERSION must be x.y.z (three numbers), got {version!r}")
    try:
        return Version(version)
    except InvalidVersion as e:
        raise Refused(f"VERSION {version!r} is not a version: {e}") from e


def unreleased_notes(text: str) -> str:
    """What CHANGELOG.md lists under 'Sin publicar' (empty if nothing)."""
    if UNRELEASED not in text:
        raise Refused(f"CHANGELOG.md has no '{UNRELEASED}' section to release")
    after = text.split(UNRELEASED, 1)[1]
    body = re.split(r"^## \[", after, maxsplit=1, flags=re.M)[0]
    return "\n".join(line for line in body.splitlines() if line.strip() and not line.startswith("[")).strip()


def check_can_release(version: str) -> None:
    """Every refusal that needs no test run (the cheap ones, first)."""
    new, current = parse(version), parse(facts.version())
    dirty = git("status", "--porcelain").strip()
    if dirty:
        raise Refused(f"the working tree has uncommitted changes; commit or stash them first:\n{dirty}")
    if not new > current:
        raise Refused(f"VERSION {version} is not newer than pyproject's version {current}")
    if git("tag", "--list", f"v{version}").strip():
        raise Refused(f"the tag v{version} already exists")
    if not unreleased_notes(CHANGELOG.read_text(encoding="utf-8")):
        raise Refused(f"CHANGELOG.md has nothing under '{UNRELEASED}': say what this release changes first")


# What a learner or a teacher gets: every change here is a release (DEVELOPERS.md; the CHANGELOG's rule says which).
RELEASED_PATHS = ("helpers", "notebooks")


def release_commit(repo: Path = ROOT) -> str | None:
    """The commit that set pyproject's current version, or None while that version is not committed yet."""
    version = facts.version_at(repo)
    out = subprocess.run(["git", "log", "--format=%H", "-S", f'version = "{version}"', "--", "pyproject.toml"],
                         cwd=repo, check=True, capture_output=True, text=True).stdout.split()
    return out[0] if out else None


def unreleased_changes(repo: Path = ROOT) -> list[str]:
    """Files under RELEASED_PATHS that commits after the release commit changed: each needs a new version."""
    commit = release_commit(repo)
    if commit is None:  # the version is being prepared in the working tree (make release): it covers everything
        return []
    out = subprocess.run(["git", "diff", "--name-only", commit, "HEAD", "--", *RELEASED_PATHS], cwd=repo, check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def tags(repo: Path) -> list[str]:
    """The repository's release tags (v<x.y.z>)."""
    out = subprocess.run(["git", "tag", "--list", "v*"], cwd=repo, check=True, capture_output=True, text=True).stdout
    return [t for t in out.split() if re.fullmatch(r"v\d+\.\d+\.\d+", t)]


def numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split("."))


def decide(repo: Path = ROOT) -> str | None:
    """The tag main's release workflow must create on this commit ('v<version>'), or None when it exists already.

    Refused when pyproject's version is lower than the last tag (a version goes up, never back)."""
    version = facts.version_at(repo)
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise Refused(f"pyproject's version must be x.y.z (three numbers), got {version!r}")
    existing = tags(repo)
    if f"v{version}" in existing:
        return None
    last = max(existing, key=lambda t: numbers(t[1:]), default=None)
    if last and numbers(version) < numbers(last[1:]):
        raise Refused(f"pyproject's version {version} is lower than the last tag {last}: a version only goes up")
    return f"v{version}"


def set_version(version: str) -> None:
    path = ROOT / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(r'(?m)^version = "[^"]*"$', f'version = "{version}"', text, count=1)
    if n != 1:
        raise RuntimeError("pyproject.toml: no `version = \"...\"` line under [project]")
    path.write_text(new, encoding="utf-8")
    facts.pyproject.cache_clear()


BADGE = re.compile(r"https://colab\.research\.google\.com/github/[^)\s\"]+?/notebooks/(?:colab/)?(\d\d[a-z]?_[a-z0-9_]+\.ipynb)")


def pointed(text: str) -> str:
    """``text`` with every Colab link to a notebook (or its learner's copy) at facts.colab_url: this version's copy."""
    return BADGE.sub(lambda m: facts.colab_url(m.group(1)), text)


def point_notebooks_and_readme_at(version: str) -> None:
    """Setup cells from tests/setup_cell.txt and every Colab badge at the release's tag (facts.colab_url: the
    learner's copy), then the learner's copies again (.ci/learner_copies.py)."""
    import nbformat

    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        code[0].source = facts.setup_cell()
        title = nb.cells[0]
        title.source = pointed(title.source)
        nbformat.write(nb, path)
    readme = ROOT / "README.md"
    readme.write_text(pointed(readme.read_text(encoding="utf-8")), encoding="utf-8")
    sys.path.insert(0, str(ROOT / ".ci"))
    import learner_copies  # noqa: E402  (beside this file)

    learner_copies.write()


def date_changelog(version: str, today: datetime.date) -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    text = text.replace(UNRELEASED, f"{UNRELEASED}\n\n## [{version}] - {today.isoformat()}", 1)
    link = f"[{version}]: {facts.repository()}/releases/tag/v{version}"
    links_start = "\n\n" if not re.search(r"^\[\d+\.\d+\.\d+\]: ", text, flags=re.M) else "\n"
    text = text.rstrip("\n") + links_start + link + "\n"  # link definitions after a blank line, or they join the list
    CHANGELOG.write_text(text, encoding="utf-8")


def run(*cmd: str) -> None:
    print("+", " ".join(cmd), flush=True)
    if subprocess.run(cmd, cwd=ROOT).returncode != 0:
        raise Refused(f"`{' '.join(cmd)}` failed")


def reinstall() -> None:
    """helpers in this environment at pyproject's version (editable, no dependencies: seconds). A stale
    leccion06_helpers.egg-info in the checkout (make dist leaves one) would answer importlib.metadata with the old
    version from there: it goes first (a build artefact, ignored by git)."""
    import shutil

    for stale in ROOT.glob("*.egg-info"):
        shutil.rmtree(stale)
    run(sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", ".")


def setup_cells_run(version: str) -> None:
    """Each notebook's setup cell, as the release wrote it, in one fresh kernel: it must run and print nothing (its
    stored output is empty). This is all the version string changes in the notebooks; the rest is CI's."""
    import nbformat
    from nbclient import NotebookClient

    from helpers import lesson

    paths = lesson.notebooks(ROOT / "notebooks")
    cells = []
    for path in paths:
        code = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        cells.append(nbformat.v4.new_code_cell(code.source))
    nb = nbformat.v4.new_notebook(cells=cells)
    # in notebooks/, as Jupyter and nbval run them: from the checkout's root, a stale leccion06_helpers.egg-info
    # (make dist leaves one) would answer importlib.metadata with the old version
    NotebookClient(nb, kernel_name="python3", timeout=600,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    printed = [(path.name, c.outputs) for path, c in zip(paths, nb.cells) if c.outputs]
    if printed:
        raise Refused(f"a setup cell printed something at version {version}: {printed}")
    print(f"+ the {len(cells)} setup cells run at version {version}, printing nothing", flush=True)


def release(version: str, dry_run: bool = False) -> None:
    check_can_release(version)
    if dry_run:
        print(f"release {version}: every check before the release's own tests passes (dry run: nothing changed)")
        return
    try:  # the version first: the tests check that nothing under RELEASED_PATHS changed since the last release
        set_version(version)
        point_notebooks_and_readme_at(version)
        date_changelog(version, datetime.date.today())  # before the checks, which read the dated changelog too
        reinstall()
        setup_cells_run(version)
        run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_release.py",
            "tests/test_learner_copies.py")
    except BaseException:  # put the tree back as it was: a half-made release must not be committed by hand
        git("checkout", "--", ".")
        facts.pyproject.cache_clear()
        reinstall()  # and the environment at the version pyproject says again
        raise
    git("add", "-A")
    git("commit", "-q", "-m", f"Release {version}")
    print(f"release {version} committed (no tag). When this commit reaches main, the release workflow creates the "
          f"tag v{version} on it and publishes the release.")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["point"]:
        point_notebooks_and_readme_at(facts.version())
        print(f"setup cells and Colab badges at v{facts.version()} ({facts.COPIES}/), learner's copies written")
        return 0
    if argv[:1] == ["decide"]:
        parser = argparse.ArgumentParser(prog="release.py decide", description="Which tag main's workflow creates.")
        parser.add_argument("--repo", type=Path, default=ROOT, help="the repository (default: this one)")
        args = parser.parse_args(argv[1:])
        try:
            print(f"tag={decide(args.repo) or ''}")
        except Refused as e:
            print(f"release: refused: {e}", file=sys.stderr)
            return 1
        return 0
    parser = argparse.ArgumentParser(description="Prepare a release of the lesson: version, notebooks, changelog.")
    parser.add_argument("version", help="the new version, x.y.z, newer than pyproject's")
    parser.add_argument("--dry-run", action="store_true", help="only the checks that need no test run")
    args = parser.parse_args(argv)
    try:
        release(args.version, args.dry_run)
    except Refused as e:
        print(f"make release: refused: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
