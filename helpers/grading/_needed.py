"""Which cells a graded run executes: the ones a check needs, not every training cell.

A submission's grade is what its checks say (the stub cells, their check cells, and the otter tests run at the
end), so a graded kernel runs those cells and, transitively, the cells that bind the names they read; a cell that
only trains a network for a picture, draws a figure or checks a sentence of the text is not run. Names are read
with Python's own scoping (``symtable``): a cell's top-level reads resolve to the latest cell before it that binds
the name; the globals a function reads resolve, in addition, to the latest binding in the whole notebook (the
otter tests call the learner's function after every cell has run). Assigning to ``x[...]`` or ``x.attr`` counts as
binding and reading ``x``, so the cell that made ``x`` runs too. A cell Python cannot parse always runs (it binds
nothing, and its error is reported as before).
"""

from __future__ import annotations

import ast
import re
import symtable

from ..lesson import source as _source

__all__ = ["needed"]

_MAGIC = re.compile(r"^(\s*)[%!].*$", re.M)  # a magic line becomes `pass`, indented as it was


def _names(src: str) -> tuple[set[str], set[str], set[str]] | None:
    """(names bound at top level, names read at top level, globals read inside functions); None if unparsable."""
    code = _MAGIC.sub(r"\1pass", src)
    try:
        table = symtable.symtable(code, "<celda>", "exec")
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    bound = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    read = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    later: set[str] = set()

    def visit(t: symtable.SymbolTable) -> None:
        for child in t.get_children():
            for s in child.get_symbols():
                if s.is_global() and s.is_referenced():
                    later.add(s.get_name())
                if s.is_declared_global() and s.is_assigned():
                    bound.add(s.get_name())
            visit(child)

    visit(table)
    for node in ast.walk(tree):  # x[...] = / x.a = / x[...] += : x is changed, so its maker runs too
        targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                   if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) else [])
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, (ast.Subscript, ast.Attribute)):
                    base = sub.value
                    while isinstance(base, (ast.Subscript, ast.Attribute)):
                        base = base.value
                    if isinstance(base, ast.Name):
                        bound.add(base.id)
                        read.add(base.id)
    return bound, read, later


def needed(cells, roots: set[int], names_read_at_end: set[str] = frozenset()) -> list[int]:
    """Indices (into ``cells``) of the code cells to run, in order: ``roots``, the cells binding what the code run
    at the end reads (``names_read_at_end``), and everything they need in turn."""
    code = [i for i, c in enumerate(cells) if c["cell_type"] == "code"]
    info = {i: _names(_source(cells[i])) for i in code}
    binders: dict[str, list[int]] = {}
    for i in code:
        for name in (info[i] or ((), (), ()))[0]:
            binders.setdefault(name, []).append(i)

    def before(name: str, i: int) -> int | None:
        found = [j for j in binders.get(name, ()) if j < i]
        return found[-1] if found else None

    def last(name: str) -> int | None:
        return binders[name][-1] if name in binders else None

    keep = {i for i in code if info[i] is None} | (set(roots) & set(code))
    keep |= {j for j in map(last, names_read_at_end) if j is not None}
    todo = sorted(keep)
    while todo:
        i = todo.pop()
        if info[i] is None:
            continue
        _, read, later = info[i]
        wanted = {before(n, i) for n in read | later} | {last(n) for n in later}
        for j in wanted - {None} - keep:
            keep.add(j)
            todo.append(j)
    return sorted(keep)
