"""The learner's copies: notebooks/colab/NN_name.ipynb, what the Colab badges, the README and the site's Colab
button and download open. Each is its notebook in notebooks/ byte for byte, except that from the first bet on
every code cell but a bet's question is stored as never run (no outputs, no execution count), and the text that
reads a bet's answer (its role says so: ``metadata["leccion06"]["bets"]``, read through helpers.lesson) is folded.
So a learner who opens the lesson sees each question before any answer; the repository's notebooks keep every
output, for nbval and the site (which folds the answers instead).

    python .ci/learner_copies.py           # write the copies (make copies; make execute and make release run it)
    python .ci/learner_copies.py --check   # exit 1, naming them, if a copy is not what the notebooks give now

Standard library only (helpers.lesson is pure): any environment can run it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
COPIES = NOTEBOOKS / "colab"
# helpers.lesson is pure (no torch). A Python without helpers takes the checkout's; where helpers is installed
# (the tests in Colab's environment) sys.path stays as it was, or later imports and metadata would read the checkout.
try:
    from helpers import lesson
except ModuleNotFoundError:
    sys.path.insert(0, str(ROOT))
    from helpers import lesson


def dumps(nb: dict) -> str:
    """A notebook as nbformat writes it (sorted keys, one-space indent, UTF-8 as is, a final newline)."""
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def learner_copy(path: Path) -> str:
    """The text of ``path``'s learner copy; refuses a notebook whose roles are wrong (helpers.lesson.problems)."""
    nb = lesson.read(path)
    wrong = lesson.problems(nb, path.name)
    if wrong:
        sys.exit(f"notebooks/{path.name}: {'; '.join(wrong)}")
    for i in unrun(nb):
        nb["cells"][i]["outputs"], nb["cells"][i]["execution_count"] = [], None
    for i in lesson.answering(nb):  # a bet's answer region, and what tells it again: its text folded
        cell = nb["cells"][i]
        if cell["cell_type"] == "markdown":
            cell["source"] = lesson.folded(lesson.source(cell), lesson.WHAT_HAPPENED)
    return dumps(nb)


def unrun(nb: dict) -> list[int]:
    """The code cells a copy stores as never run: from the first bet's question on, every one but the questions
    (whose saved text says to run them for the buttons). Any output below a bet may be its answer (a later section's
    figure, a number printed again); the learner sees each one when running its cell."""
    bets = lesson.bet_cells(nb).values()
    asking = {b.question for b in bets if b.question is not None}
    first = min(asking, default=len(nb["cells"]))
    return [i for i, c in enumerate(nb["cells"]) if i > first and c["cell_type"] == "code" and i not in asking]


def sources() -> list[Path]:
    return lesson.notebooks(NOTEBOOKS)


def stale() -> list[str]:
    """The copies that are missing, differ from what the notebooks give now, or have no notebook."""
    out = [f"colab/{p.name}" for p in sources()
           if not (COPIES / p.name).exists() or (COPIES / p.name).read_text(encoding="utf-8") != learner_copy(p)]
    names = {p.name for p in sources()}
    return out + [f"colab/{p.name} (no notebook)" for p in sorted(COPIES.glob("*.ipynb")) if p.name not in names]


def write() -> None:
    COPIES.mkdir(exist_ok=True)
    for p in sources():
        (COPIES / p.name).write_text(learner_copy(p), encoding="utf-8")
    for p in COPIES.glob("*.ipynb"):
        if not (NOTEBOOKS / p.name).exists():
            p.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the learner's copies of the notebooks (notebooks/colab/).")
    parser.add_argument("--check", action="store_true", help="only check that they are up to date")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        if bad:
            print(f"notebooks/colab/ is stale: {', '.join(bad)}. Run: make copies", file=sys.stderr)
            return 1
        return 0
    write()
    print(f"notebooks/colab/: {len(sources())} learner copies: nothing below the first bet stored run, "
          "the text that reads each answer folded")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
