""""Tu turno" in the notebooks: one to four per core notebook, one or two per «Para ir más lejos» one, each a
prompt paragraph, a stub cell, a check cell `helpers.check.<checker>(<learner's name>)` and its folded solution,
each cell's role on it (helpers.lesson reads them and checks they agree with the text). The stored notebook keeps
the stubs and their exact "sin intentar todavía" verdict; with every stub replaced by the checker's solution() each
check says "¡correcto!".

The solved run is cheap: one kernel runs the notebooks' setup cell (the same template in all five, a hygiene test
makes sure) and then, for each exercise, only its stub, its check, the solution and its check again. That is enough
because no cell after an exercise mentions the learner's names (a static test below): nothing later in a notebook
depends on what the learner wrote, so the rest of the notebook runs the same with or without the exercise solved,
and nbval already runs it. The same kernel shows that a learner function that never returns is stopped there."""

from __future__ import annotations

import ast
import importlib.util
import linecache
import re

import nbclient
import nbformat
import pytest
import torch
import torch.nn.functional as F
from conftest import NOTEBOOKS, ROOT
from torch import nn

import helpers
from helpers import check, lesson

_spec = importlib.util.spec_from_file_location("solutions", ROOT / ".ci" / "solutions.py")
SOLUTIONS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SOLUTIONS)
ids = [nb.name for nb in NOTEBOOKS]


def exercises(notebook) -> list[tuple[int, str, str, int]]:
    """(check cell, checker, learner's name, stub cell) for each «Tu turno» (helpers.lesson reads them)."""
    return [(ex.check, ex.name, ex.variable, ex.stub) for ex in lesson.exercise_cells(notebook)]


def names_in(code: str) -> set[str]:
    """Every name a cell's code mentions (IPython magics and shell lines left out)."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    tree = ast.parse(code)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def stored(cell) -> dict:
    (out,) = cell.get("outputs", [{}]) or [{}]
    return {k: "".join(v) for k, v in out.get("data", {}).items()}


def verdict_for(code: str, name: str, learner: str, where: str):
    """The checker's verdict on ``code`` as a kernel would give it (the source registered, so a stub is seen)."""
    filename = f"<{where}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    namespace = {"torch": torch, "nn": nn, "F": F, "helpers": helpers}
    exec(compile(code, filename, "exec"), namespace)  # the notebook's own stub cell
    return getattr(check, name)(namespace[learner])


# ------------------------------------------------------------------------------------------ static
@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_each_cell_says_what_it_is_and_its_text_agrees(path):
    """Prompt, stub, check and solution, consecutive, each with its role; its bets, claims and answers too."""
    problems = lesson.problems(nbformat.read(path, as_version=4), path.name)
    assert not problems, f"{path.name}: {problems}"


def test_the_roles_check_can_fail():
    """A role missing, a part out of place, text that disagrees: each is one of lesson.problems' lines."""
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    ex = lesson.exercise_cells(nb)[0]
    del nb.cells[ex.stub].metadata[lesson.KEY]
    assert any("no stub cell" in p for p in lesson.problems(nb))
    assert any(f"cell {ex.stub}: reads as the stub" in p for p in lesson.problems(nb))
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    nb.cells[ex.prompt].source = "Tu turno, sin título"
    (said,) = lesson.problems(nb)
    assert said.startswith(f"cell {ex.prompt}: the prompt of {ex.name} does not start "), said
    nb.cells.insert(ex.check, nbformat.v4.new_code_cell("x = 1"))
    assert any("not consecutive" in p for p in lesson.problems(nb))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_stored_notebook_keeps_each_stub_and_its_exact_not_attempted_verdict(path):
    nb = nbformat.read(path, as_version=4)
    found = lesson.exercise_cells(nb)
    # a core notebook 1 to 4: the one-sitting budget (issue 51) left 05 with escape_step, its warmup went to 05b with
    # its section; a deep dive (04b) carries its own, fewer
    least, most = (1, 2) if lesson.kind(nb) == "deep" else (1, 4)
    assert least <= len(found) <= most, (f"{path.name}: {len(found)} 'Tu turno' exercises; the series asks for "
                                         f"{least} to {most} in a {lesson.kind(nb)} notebook")
    for ex in found:
        i, name, learner = ex.check, ex.name, ex.variable
        assert name in check.__all__ and name != "Verdict", f"{path.name}: helpers.check.{name} does not exist"
        stub, intro = nb.cells[ex.stub], nb.cells[ex.prompt]
        assert re.search(rf"^(def|class) {learner}\b", stub.source, re.M), f"{path.name}: stub defines no {learner}"
        assert f"helpers.check.{name}.hint(1)" in intro.source and f"helpers.check.{name}.solution()" in intro.source
        verdict = verdict_for(stub.source, name, learner, f"{path.name} {ex.stub}")
        assert verdict.status == "not_attempted", f"{path.name}, cell {ex.stub}: the stub is not a stub: {verdict}"
        assert stored(nb.cells[i]) == {"text/plain": repr(verdict), "text/html": verdict._repr_html_()}, (
            f"{path.name}, cell {i}: the stored verdict is not this checker's 'sin intentar todavía'; store the "
            f"notebook again with `make execute NB={path.relative_to(ROOT)}`")


def working_calls(code: str, name: str, learner: str) -> list[ast.Call]:
    """The calls ``helpers.check.<name>.working(<learner>)`` in a cell: the one way a later cell may use it."""
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    return [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call) and ast.unparse(n.func) ==
            f"helpers.check.{name}.working" and [ast.unparse(a) for a in n.args] == [learner] and not n.keywords]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_no_later_cell_uses_the_learners_names(path):
    """So the rest of the notebook runs the same whether or not the learner solved the exercise (or broke it): a
    later cell may only hand the learner's answer to ``helpers.check.<name>.working``, which gives it back only if
    it passes the check (else the reference), and never binds that name again (a graded copy would then grade the
    reference)."""
    nb = nbformat.read(path, as_version=4)
    for i, name, learner, stub in exercises(nb):
        for j in range(i + 1, len(nb.cells)):
            if nb.cells[j].cell_type != "code" or learner not in names_in(nb.cells[j].source):
                continue
            uses = len(working_calls(nb.cells[j].source, name, learner))
            mentions = sum(isinstance(n, ast.Name) and n.id == learner for n in ast.walk(ast.parse(
                re.sub(r"^\s*[%!].*$", "", nb.cells[j].source, flags=re.M))))
            assert uses and uses == mentions, (
                f"{path.name}, cell {j}: uses `{learner}`, the name the learner writes in the exercise above "
                f"(cell {stub}), other than as helpers.check.{name}.working({learner}); later cells must not depend "
                "on it")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_each_check_is_followed_by_its_solution_folded(path):
    """One click away, the same way in every notebook: a «Solución» <details> cell right under each check, its code
    helpers.check.<name>.solution().code (.ci/solutions.py writes it)."""
    problems = SOLUTIONS.problems(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}: {problems}; `python .ci/solutions.py` rewrites them"


def _code_lines(text: str) -> set[str]:
    return {line.split("#")[0].strip() for line in text.splitlines()} - {""}


def _unfolded(cell) -> str:
    if cell.cell_type != "markdown":
        return cell.source
    return re.sub(r"<details>.*?</details>", "", cell.source, flags=re.S)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_the_reference_is_only_in_its_folded_solution(path):
    """No line of an exercise's reference (but those its stub already shows) in any cell, outside the folded
    «Solución» blocks: the eye cannot land on the answer before the learner has tried."""
    nb = nbformat.read(path, as_version=4)
    for _, name, _, stub in exercises(nb):
        answer = _code_lines(getattr(check, name).solution().code) - _code_lines(nb.cells[stub].source)
        assert answer, f"{path.name}/{name}: no answer line to look for"
        for j, cell in enumerate(nb.cells):
            shown = _code_lines(_unfolded(cell)) & answer
            assert not shown, f"{path.name}, cell {j}: shows {name}'s answer outside its «Solución»: {sorted(shown)}"


# a call to a normalization (self.ln1_out(…), F.layer_norm(…), nn.RMSNorm(…)(…) aside): its name's last part says so
NORM_CALL = re.compile(r"(?<![\w.])((?:\w+\.)*[A-Za-z_]*(?:ln|norm|Norm)\w*)\(")


def _unwrap_norms(line: str, keep: set[str]) -> str:
    """``line`` with every normalization call whose name is not in ``keep`` unwrapped: self.ln_out(h) -> h."""
    start = 0
    while match := NORM_CALL.search(line, start):
        if match.group(1) in keep:
            start = match.end()
            continue
        depth, k = 1, match.end()
        while k < len(line) and depth:
            depth += {"(": 1, ")": -1}.get(line[k], 0)
            k += 1
        if depth:  # unbalanced: the call goes on in the next line
            return line
        line = line[:match.start()] + line[match.end():k - 1] + line[k:]
        start = match.start()
    return line


def _answer_with_more_norms(answer: set[str], shown: set[str]) -> list[str]:
    """Lines of ``shown`` that are an ``answer`` line with more normalization calls around its parts (the answer to
    pre-norm, for example, with a LayerNorm on what each sublayer returns: the sandwich)."""
    found = []
    for line in shown - answer:
        for a in answer:
            keep = set(NORM_CALL.findall(a))
            if len(NORM_CALL.findall(line)) > len(NORM_CALL.findall(a)) and _unwrap_norms(line, keep) == a:
                found.append(line)
    return found


def test_a_line_that_is_the_answer_plus_normalizations_is_found():
    """What 04's section 3 used to show one scroll below block_pre: its answer, with two LayerNorms more."""
    answer = {"x = x + self.drop(self.atencion(self.ln1(x)))", "return x + self.drop(self.ffn(self.ln2(x)))"}
    sandwich = {"x = x + self.drop(self.ln1_out(self.atencion(self.ln1(x))))",
                "return x + self.drop(self.ln2_out(self.ffn(self.ln2(x))))"}
    post = {"x = self.ln1(x + self.drop(self.atencion(x)))", "return self.ln2(x + self.drop(self.ffn(x)))"}
    assert sorted(_answer_with_more_norms(answer, sandwich)) == sorted(sandwich)
    assert _answer_with_more_norms(answer, post | {"return super().forward(x)", "h = F.layer_norm(x, (8,))"}) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_no_cell_shows_an_answer_with_normalizations_added(path):
    """Not even modulo normalization calls: a line equal to an answer line but for LayerNorms wrapped around its
    parts gives the answer away just the same."""
    nb = nbformat.read(path, as_version=4)
    for _, name, _, stub in exercises(nb):
        answer = _code_lines(getattr(check, name).solution().code) - _code_lines(nb.cells[stub].source)
        for j, cell in enumerate(nb.cells):
            found = _answer_with_more_norms(answer, _code_lines(_unfolded(cell)))
            assert not found, f"{path.name}, cell {j}: shows {name}'s answer with normalizations added: {found}"


# -------------------------------------------------------------------------------------- in a kernel
@pytest.fixture(scope="module")
def kernel_run():
    """One kernel: the setup cell, then per exercise the stub, its check, the solution, its check; at the end a
    function that never returns, checked with a short time limit. Returns {(notebook, check cell): outputs}."""
    setup = next(c for c in nbformat.read(NOTEBOOKS[0], as_version=4).cells if c.cell_type == "code")
    cells, keys = [nbformat.v4.new_code_cell(setup.source)], [None]
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for i, name, learner, stub in exercises(nb):
            solution = getattr(check, name).solution().code
            assert re.search(rf"^(def|class) {learner}\b", solution, re.M), f"solution() of {name} defines no {learner}"
            for kind, code in (("stub", nb.cells[stub].source), ("solved", solution)):
                cells += [nbformat.v4.new_code_cell(code), nbformat.v4.new_code_cell(nb.cells[i].source),
                          nbformat.v4.new_code_cell(f"_ = helpers.check.{name}.working({learner})")]
                keys += [None, (path.name, i, kind), (path.name, i, f"working {kind}")]
    cells += [nbformat.v4.new_code_cell("helpers.check._core.TIME_LIMIT_S = 0.5\n"
                                        "def nunca(x, gamma, beta, eps=1e-5):\n    while True:\n        pass"),
              nbformat.v4.new_code_cell("helpers.check.layer_norm(nunca)")]
    keys += [None, ("timeout", 0, "loop")]
    notebook = nbformat.v4.new_notebook(cells=cells)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    errors = [(c.source[:60], o["ename"], o["evalue"][:300]) for c in notebook.cells for o in c.outputs
              if o.get("output_type") == "error"]
    assert not errors, f"cells that stop with an error: {errors}"
    return {key: cell for key, cell in zip(keys, notebook.cells) if key}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_in_a_kernel_the_stub_shows_the_stored_verdict_and_the_solution_is_correct(kernel_run, path):
    nb = nbformat.read(path, as_version=4)
    for i, name, _, _ in exercises(nb):
        assert stored(kernel_run[(path.name, i, "stub")]) == stored(nb.cells[i]), (
            f"{path.name}, cell {i}: a kernel shows another verdict than the stored one")
        shown = stored(kernel_run[(path.name, i, "solved")])
        assert shown["text/plain"].startswith(f"✅ {name}: ¡correcto!"), f"{path.name}, cell {i}: {shown}"
        assert "¡correcto!" in shown["text/html"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids)
def test_in_a_kernel_working_gives_the_reference_for_a_stub_and_the_learners_answer_once_it_passes(kernel_run, path):
    nb = nbformat.read(path, as_version=4)
    for i, name, learner, _ in exercises(nb):
        said = {kind: "".join(o.get("text", "") for o in kernel_run[(path.name, i, f"working {kind}")].outputs)
                for kind in ("stub", "solved")}
        kind = "clase" if isinstance(getattr(check, name).reference, type) else "función"
        assert said["stub"].startswith(f"Tu {kind} {learner} todavía está sin escribir: seguimos con la solución "
                                       "de referencia"), said
        assert said["solved"] == f"Seguimos con tu {kind} {learner}: pasó el control.\n", said


def test_in_a_kernel_code_that_never_returns_is_stopped(kernel_run):
    shown = stored(kernel_run[("timeout", 0, "loop")])["text/plain"]
    assert shown.startswith("❌ layer_norm: todavía no.") and "no terminó en 0.5 segundos" in shown, shown
