"""One-off (issue 54): write each structural cell's role into its metadata (helpers.lesson's schema), derived from
what said it before: the «Tu turno» text, predictions.json's asked_in/answered_by, the tags claims and
exercise-answer (dropped: nothing outside the project reads them). Outputs and sources stay as they are.

    python .ci/migrate_roles.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from helpers import lesson  # noqa: E402

DATA = ROOT / "helpers" / "data" / "predictions.json"
OLD_TAGS = {"claims": "claims", "exercise-answer": "exercise_answer"}


def migrate(nb: dict, name: str, bets: dict) -> dict:
    cells = nb["cells"]
    for ex in lesson._by_text(cells):
        for part in lesson.PARTS:
            i = getattr(ex, part)
            assert i is not None and ex.name, (name, ex)
            lesson.mark(cells[i], exercise=(ex.name, part))
    ids = [c.get("id") for c in cells]
    for key, bet in bets.items():
        if bet["notebook"] != name:
            continue
        lesson.mark(cells[ids.index(bet["asked_in"])], bet=(key, "question"))
        for cell_id in bet["answered_by"]:
            lesson.mark(cells[ids.index(cell_id)], bet=(key, "answer"))
    for cell in cells:
        meta = cell.get("metadata", {})
        tags = meta.get("tags", [])
        for tag, flag in OLD_TAGS.items():
            if tag in tags:
                lesson.mark(cell, **{flag: True})
        if "tags" in meta:
            meta["tags"] = [t for t in tags if t not in OLD_TAGS]
            if not meta["tags"]:
                del meta["tags"]
    nb["metadata"][lesson.KEY] = {"kind": "core"}
    return nb


def main() -> None:
    bets = json.loads(DATA.read_text(encoding="utf-8"))
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = migrate(json.loads(path.read_text(encoding="utf-8")), path.name, bets)
        path.write_text(json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for bet in bets.values():
        bet.pop("asked_in"), bet.pop("answered_by")
    DATA.write_text(json.dumps(bets, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
