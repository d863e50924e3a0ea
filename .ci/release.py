"""Cut a release: `make release VERSION=x.y.z` (this script does the work).

It refuses, and changes nothing, when the working tree has uncommitted changes, when VERSION is not a plain
x.y.z newer than pyproject's version, when the tag exists, when CHANGELOG.md has nothing under "Sin publicar",
or when `make test` fails. Then it writes VERSION into pyproject.toml (the one place it lives), points every
notebook's setup cell and Colab badge (and the README's badges) at that release's tag, dates the CHANGELOG entry,
re-executes and stores the notebooks (`make execute`), checks them (hygiene, prose numbers, versions, one source
per fact), commits, and tags `vVERSION`.
Pushing the tag (`git push origin main vVERSION`) starts .github/workflows/release.yml.

    python .ci/release.py 1.1.0 [--dry-run]
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import facts  # noqa: E402  (tests/facts.py: the one reader of pyproject.toml)

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


def set_version(version: str) -> None:
    path = ROOT / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(r'(?m)^version = "[^"]*"$', f'version = "{version}"', text, count=1)
    if n != 1:
        raise RuntimeError("pyproject.toml: no `version = \"...\"` line under [project]")
    path.write_text(new, encoding="utf-8")
    facts.pyproject.cache_clear()


def point_notebooks_and_readme_at(version: str) -> None:
    """Setup cells from tests/setup_cell.txt and every Colab badge at the release's tag."""
    import nbformat

    badge = re.compile(r"https://colab\.research\.google\.com/github/[^)\s\"]+/notebooks/(\d\d_[a-z0-9_]+\.ipynb)")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        code[0].source = facts.setup_cell()
        title = nb.cells[0]
        title.source = badge.sub(lambda m: facts.colab_url(m.group(1)), title.source)
        nbformat.write(nb, path)
    readme = ROOT / "README.md"
    readme.write_text(badge.sub(lambda m: facts.colab_url(m.group(1)), readme.read_text(encoding="utf-8")),
                      encoding="utf-8")


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


def release(version: str, dry_run: bool = False) -> None:
    check_can_release(version)
    if dry_run:
        print(f"release {version}: every check before `make test` passes (dry run: nothing changed)")
        return
    run("make", "test")
    try:
        set_version(version)
        point_notebooks_and_readme_at(version)
        date_changelog(version, datetime.date.today())  # before the checks, which read the dated changelog too
        run("make", "execute")
        run(".venv/bin/pytest", "-q", "-p", "no:cacheprovider", "tests/test_notebooks_hygiene.py",
            "tests/test_prose_numbers.py", "tests/test_release.py", "tests/test_one_source.py")
    except BaseException:  # put the tree back as it was: a half-made release must not be committed by hand
        git("checkout", "--", ".")
        raise
    git("add", "-A")
    git("commit", "-q", "-m", f"Release {version}")
    git("tag", "-a", f"v{version}", "-m", f"leccion06-helpers {version}")
    print(f"released {version}: commit and tag v{version} are local. Publish with: git push origin HEAD v{version}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cut a release of the lesson: version, notebooks, changelog, tag.")
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
