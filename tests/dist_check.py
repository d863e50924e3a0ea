"""What make dist built: the wheel carries helpers' modules, data (helpers/data/*.json) and the class report's
template (helpers/grading/templates/*.j2) and nothing a learner does not need; the sdist carries what builds that
wheel. Run by make dist:

    python tests/dist_check.py dist      # prints each artefact's size and contents, exits 1 on a problem
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / ".ci"))  # facts.py, the one reader of pyproject
import facts  # noqa: E402

ROOT = facts.ROOT


def expected() -> set[str]:
    """The files of helpers an install needs: every module, every data file, the class report's template."""
    helpers = ROOT / "helpers"
    files = [p for p in helpers.rglob("*.py") if "__pycache__" not in p.parts] + list((helpers / "data").glob("*.json"))
    files += (helpers / "grading" / "templates").glob("*.j2")
    return {p.relative_to(ROOT).as_posix() for p in files}


def wheel_problems(wheel: Path) -> list[str]:
    project = facts.pyproject()["project"]
    info = f"{project['name'].replace('-', '_')}-{project['version']}.dist-info/"
    names = [n for n in zipfile.ZipFile(wheel).namelist() if not n.endswith("/")]
    problems = [f"{wheel.name} carries {n}, which a learner does not need"
                for n in names if not n.startswith(info) and n not in expected()]
    problems += [f"{wheel.name} lacks {n}" for n in sorted(expected() - set(names))]
    if f"{info}METADATA" not in names:
        return problems + [f"{wheel.name} has no {info}METADATA"]
    meta = Parser().parsestr(zipfile.ZipFile(wheel).read(f"{info}METADATA").decode())
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    if urls.get("Repository", "").rstrip("/") != facts.repository():  # helpers.claims reads it from there
        problems.append(f"{wheel.name}: Project-URL Repository is {urls.get('Repository')!r}, not pyproject's")
    return problems


def sdist_problems(sdist: Path) -> list[str]:
    top = sdist.name.removesuffix(".tar.gz") + "/"
    names = {m.name.removeprefix(top) for m in tarfile.open(sdist).getmembers() if m.isfile()}
    return [f"{sdist.name} lacks {n}" for n in sorted(expected() | {"pyproject.toml", "README.md"}) if n not in names]


def main(folder: str) -> int:
    wheels, sdists = sorted(Path(folder).glob("*.whl")), sorted(Path(folder).glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        print(f"{folder}: expected one wheel and one sdist, found {[p.name for p in wheels + sdists]}")
        return 1
    problems = wheel_problems(wheels[0]) + sdist_problems(sdists[0])
    for path in wheels + sdists:
        names = (zipfile.ZipFile(path).namelist() if path.suffix == ".whl"
                 else [m.name for m in tarfile.open(path).getmembers() if m.isfile()])
        print(f"{path.name}: {path.stat().st_size / 1024:.0f} KiB, {len(names)} files")
    for p in problems:
        print("  problem:", p)
    if not problems:
        print(f"the wheel carries helpers' {len(expected())} files (its modules, helpers/data/*.json and "
              "helpers/grading/templates/*.j2) and its metadata, nothing else")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "dist"))
