"""helpers.check's core (helpers/check/_core.py) and what holds for every checker: the registry finds each
exercise module, each passes its reference and names every mistake of its gallery, says "not attempted" to a stub,
reports what learner code raises, stops code that never returns, answers wrong input and wrong calls by name, and
leaves the learner's objects and every random generator as it found them. Each exercise's own table is in
tests/test_check_<name>.py."""

from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from checking import CHECKERS, CLASS_EXERCISES, FUNCTION_EXERCISES, NAMES, as_answer
from conftest import ROOT, seeders
from test_check_block_pre import block_dropout_always_on
from test_check_mask import mask_ints
from torch import nn

from helpers import check
from helpers.check import _core, exercises
from helpers.check.exercises import block_pre as block_pre_module
from helpers.check.exercises import ffn as ffn_module


def test_public_names_are_the_registered_checkers():
    released = ["ffn", "ffn_count", "residual_stack", "residual_pre", "layer_norm", "rms_norm", "block_pre", "mask",
                "block_count", "gpt_count", "escape_step", "warmup"]  # release 1.0.0's twelve, in notebook order
    assert [n for n in NAMES if n in released] == released  # a new exercise adds to them, never renames one
    assert NAMES == [m.checker.name for m in sorted(exercises.MODULES, key=lambda m: m.ORDER)]
    assert sorted(check.__all__) == sorted(["Verdict", *NAMES])
    for name in NAMES:
        assert getattr(check, name) is CHECKERS[name] and getattr(check, name).name == name
    public = {n for n in dir(check) if not n.startswith("_")} - {"exercises"}  # the package of exercise modules
    assert public == set(check.__all__), public - set(check.__all__)
    for old in ("param_count", "residual", "block_forward", "causal_mask", "EXERCISES", "gallery", "solutions"):
        assert not hasattr(check, old), old
    assert not hasattr(_core, "show")  # one `show` in the package is plots.show


THROWAWAY = """
from helpers.check._core import Exercise, Gallery, Probe, number_difference

ORDER = ("99", 1)


def doble(x):
    return 2 * x


mistakes = Gallery()


@mistakes.add("triple", "Multiplicaste por 3.", label="por 3", question="¿Por cuánto multiplica doble?")
def _triple(x):
    return 3 * x


def assess(ex, answer):
    \"\"\"doble(x) -> 2 x\"\"\"
    return ex.judge_function(answer, [Probe("un 3", (3,)), Probe("un 5", (5,))], number_difference, "Bien.")


checker = Exercise("throwaway", reference=doble, hints=("Multiplicá.", "Por dos."), assess=assess,
                   mistakes=mistakes, expects="tu función doble", section="1. El doble")
"""


PROBE_THE_COPY = """
import importlib.util, sys
copy = {root!r} + "/helpers"
spec = importlib.util.spec_from_file_location("helpers", copy + "/__init__.py", submodule_search_locations=[copy])
sys.modules["helpers"] = importlib.util.module_from_spec(spec)  # the copy, not the installed package
spec.loader.exec_module(sys.modules["helpers"])
import checking
from helpers import check
assert check.__file__.startswith({root!r}), check.__file__
print(check.throwaway.name, "throwaway" in check.__all__, checking.NAMES[-1],
      checking.CHECKERS["throwaway"] is check.throwaway, check.throwaway(check.throwaway.reference).status,
      check.throwaway(lambda x: 3 * x).mistake)
"""


def test_a_new_exercise_is_one_module(tmp_path):
    """One module dropped in a copy of the package is found: helpers.check.<name>, its __all__, the tests' list."""
    shutil.copytree(ROOT / "helpers", tmp_path / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "helpers" / "check" / "exercises" / "throwaway.py").write_text(THROWAWAY, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "tests")])}
    out = subprocess.run([sys.executable, "-c", PROBE_THE_COPY.format(root=str(tmp_path))], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["throwaway", "True", "throwaway", "True", "correct", "triple"], out.stdout


def test_a_module_that_is_no_exercise_is_refused(tmp_path, monkeypatch):
    (tmp_path / "stray.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(exercises, "__path__", [*exercises.__path__, str(tmp_path)])
    try:
        with pytest.raises(ImportError, match="ORDER"):
            exercises.discover()
    finally:
        sys.modules.pop(f"{exercises.__name__}.stray", None)


@pytest.mark.parametrize("name", NAMES)
def test_each_exercise_has_its_test_module(name):
    path = ROOT / "tests" / f"test_check_{name}.py"
    assert path.exists(), f"{name}: its right answers and named problems go in {path.name}"


def test_exercises_use_only_the_public_toolkit():
    """No module but _core imports a _-name from it, and every name it exports exists."""
    assert all(hasattr(_core, n) for n in _core.__all__)
    pattern = re.compile(r"from (?:\.+|helpers\.check\.)_core import \(?([^)]*?)\)?\n(?!\s)", re.S)
    for path in [*(ROOT / "helpers").rglob("*.py"), *(ROOT / "tests").glob("*.py")]:
        if path.name == "_core.py":
            continue
        for group in pattern.findall(path.read_text(encoding="utf-8")):
            names = [n.strip() for n in group.replace("\n", ",").split(",") if n.strip()]
            assert not [n for n in names if n.startswith("_")], (path.name, names)
            assert set(names) <= set(_core.__all__), (path.name, set(names) - set(_core.__all__))
    reached = re.compile(r"_core\._[A-Za-z]")
    for path in (ROOT / "tests").glob("*.py"):
        assert not reached.search(path.read_text(encoding="utf-8")), path.name


def test_no_code_reads_a_message_to_decide():
    """Control flow uses Verdict.mistake and Finding.kind, never the wording of a Spanish message."""
    root = Path(check.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        decides = re.search(r"\.message(\.strip\(\))?\.(startswith|endswith|find|index|partition|count)\(|"
                            r"\.message(\.strip\(\))?\.split\((?!\"\\n\"\))|"
                            r"\b(if|while|and|or) [^\n]*in \w+\.message", text)
        assert not decides, (path, decides)


@pytest.mark.parametrize("name", NAMES)
def test_reference_is_correct(name, no_device_seeding):
    verdict = CHECKERS[name](CHECKERS[name].reference)
    assert verdict.status == "correct" and verdict.mistake is None, verdict


@pytest.mark.parametrize("name", NAMES)
def test_each_mistake_of_the_gallery_is_named(name, no_device_seeding):
    checker = CHECKERS[name]
    assert len(checker.mistakes) >= 5, f"{name}: a gallery of known mistakes needs a few entries"
    assert len({m.key for m in checker.mistakes}) == len(checker.mistakes)
    for mistake in checker.mistakes:
        verdict = checker(as_answer(name, mistake.fn))
        assert verdict.status == "wrong" and verdict.mistake == mistake.key, (mistake.key, verdict)
        assert mistake.message in verdict.message and "No reconozco" not in verdict.message
        assert "Con la entrada «" in verdict.message, verdict  # the evidence: on which input


def _stub_ellipsis(*args):
    ...


def _stub_raise(*args):
    raise NotImplementedError


def _stub_pass(*args):
    """Docstring only, then pass."""
    pass


class _StubFFN(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        ...

    def forward(self, x):
        ...


class _StubBlock(block_pre_module.BloquePre):
    def forward(self, x):
        ...


class _StubBlockRaise(block_pre_module.BloquePre):
    def forward(self, x):
        raise NotImplementedError


STUBS = [(n, s) for n in FUNCTION_EXERCISES for s in (_stub_ellipsis, _stub_raise, _stub_pass)] + [
    ("ffn", _StubFFN), ("block_pre", _StubBlock), ("block_pre", _StubBlockRaise)]


@pytest.mark.parametrize("name, stub", STUBS, ids=[f"{n}-{s.__name__}" for n, s in STUBS])
def test_a_stub_is_not_attempted(name, stub):
    verdict = CHECKERS[name](stub)
    assert verdict.status == "not_attempted" and verdict.mistake is None, verdict
    assert verdict.message == ("Completá la celda de arriba (donde dice `...`) y volvé a correr esta. Si te trabás: "
                               f"helpers.check.{name}.hint(1).")


def _boom(*args):
    total = 0
    return total / 0  # the learner's line


@pytest.mark.parametrize("name", FUNCTION_EXERCISES)
def test_code_that_raises_is_reported_with_its_line(name):
    verdict = CHECKERS[name](_boom)
    assert verdict.status == "wrong" and verdict.mistake == "raised", verdict
    assert "ZeroDivisionError" in verdict.message and "return total / 0" in verdict.message, verdict
    assert "la entrada «" in verdict.message and "No reconozco" not in verdict.message


WRONG_INPUT = [None, 3, "mi_funcion", torch.ones(3), nn.Linear]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", WRONG_INPUT, ids=["None", "int", "str", "tensor", "class"])
def test_wrong_kind_of_answer_gets_a_clear_message(name, bad):
    if name in CLASS_EXERCISES and bad is nn.Linear:
        bad = check.layer_norm.reference  # a function where a class is expected
    verdict = CHECKERS[name](bad)
    assert verdict.status == "wrong" and verdict.mistake == "wrong_input", verdict
    assert f"helpers.check.{name} espera" in verdict.message and "recibió" in verdict.message


def test_big_tensors_are_not_dumped():
    def enorme(x, subcapas):
        return torch.zeros(200, 300)

    verdict = check.residual_stack(enorme)
    assert verdict.mistake == "shape" and len(verdict.message) < 600, verdict
    verdict = check.layer_norm(lambda x, g, b, eps=1e-5: x * 1000 + torch.arange(x.numel()).reshape(x.shape))
    assert len(verdict.message) < 900 and "…" not in verdict.message.split("esperaba")[0], verdict


def test_extra_arguments_never_raise_and_say_how_to_call():
    verdict = check.block_pre(block_pre_module.BloquePre, norm="pre")
    assert verdict.status == "correct" and "no usé norm='pre'" in verdict.message
    assert "helpers.check.block_pre(BloquePre)" in verdict.message
    verdict = check.gpt_count(check.gpt_count.reference, model="gpt")
    assert verdict.status == "correct" and "no usé model='gpt'" in verdict.message
    verdict = check.ffn_count(check.ffn_count.reference, "ffn")
    assert verdict.status == "correct" and "no usé 'ffn'" in verdict.message
    verdict = check.layer_norm(_stub_ellipsis, None, 1)
    assert verdict.status == "not_attempted" and "no usé None, 1" in verdict.message


def test_called_with_nothing():
    verdict = check.mask()
    assert verdict.mistake == "bad_call" and "helpers.check.mask(mascara_causal)" in verdict.message


def test_hint_and_solution_take_no_form_and_say_so():
    assert "tiene 3 pistas" in check.gpt_count.hint(1, "gpt")
    assert "tiene 2 pistas" in check.ffn_count.hint(model="ffn")
    assert check.mask.solution("bool").code == check.mask.solution().code


@pytest.fixture
def short_limit(monkeypatch):
    monkeypatch.setattr(_core, "TIME_LIMIT_S", 0.3)


def _forever(*args):
    while True:
        pass


def _forever_swallowing(*args):
    while True:
        try:
            sum(range(1000))
        except Exception:  # the learner's except cannot eat the alarm
            continue


class _ForeverFFN(ffn_module.MiFFN):
    def forward(self, x):
        while True:
            pass


class _ForeverBlock(block_pre_module.BloquePre):
    def forward(self, x):
        while True:
            pass


@pytest.mark.parametrize("name, answer", [("layer_norm", _forever), ("warmup", _forever_swallowing),
                                          ("gpt_count", _forever), ("ffn", _ForeverFFN),
                                          ("block_pre", _ForeverBlock)])
def test_code_that_never_returns_is_stopped(short_limit, name, answer):
    verdict = CHECKERS[name](answer)
    assert verdict.status == "wrong" and verdict.mistake == "timeout", verdict
    assert "no terminó en 0.3 segundos" in verdict.message and "lo corté" in verdict.message


def test_the_alarm_is_put_back_as_it_was(short_limit):
    import signal
    before = signal.getsignal(signal.SIGALRM)
    check.layer_norm(_forever)
    check.layer_norm(check.layer_norm.reference)
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_outside_the_main_thread_the_limit_holds_too(short_limit):
    """Issue 32: from a thread there was no time limit; a watchdog thread stops the answer there."""
    verdicts = []

    def run():
        verdicts.append(check.layer_norm(check.layer_norm.reference))
        verdicts.append(check.layer_norm(_forever))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert [v.status for v in verdicts] == ["correct", "wrong"] and verdicts[1].mistake == "timeout", verdicts


def test_under_an_alarm_already_set_the_limit_holds_and_the_alarm_is_left_alone(short_limit):
    """Issue 32: under someone else's signal.alarm there was no limit; now a watchdog, and their timer untouched."""
    import signal

    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        verdict = check.layer_norm(_forever)
        remaining = signal.getitimer(signal.ITIMER_REAL)[0]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert verdict.mistake == "timeout", verdict
    assert 20 < remaining <= 30 and not fired


def test_checking_leaves_the_cpu_generator_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    for name in NAMES:
        CHECKERS[name](CHECKERS[name].reference)
        CHECKERS[name](as_answer(name, CHECKERS[name].mistakes[0].fn))
    CHECKERS["block_pre"](as_answer("block_pre", block_dropout_always_on))
    assert torch.equal(torch.rand(3), expected)


def test_no_checker_seeds_a_device(no_device_seeding):
    """The tables above run every checker on references, right answers and mistakes with the seeding functions
    forbidden (the fixture); here, that the fixture does forbid them, so those tests cannot pass vacuously."""
    for owner, attr in seeders():
        with pytest.raises(AssertionError, match="seeded"):
            getattr(owner, attr)(0)
    verdict = check.layer_norm(lambda x, gamma, beta, eps=1e-5: torch.manual_seed(0) and x)
    assert verdict.mistake == "raised" and "seeded" in verdict.message


def test_device_generators_are_saved_and_restored(monkeypatch):
    """Where CUDA is initialised or MPS present, their states are read before and written back after."""
    calls = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_rng_state_all", lambda: calls.append("cuda get") or ["cuda state"])
    monkeypatch.setattr(torch.cuda, "set_rng_state_all", lambda s: calls.append(("cuda set", s)))
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.setattr(torch.mps, "get_rng_state", lambda: calls.append("mps get") or "mps state")
    monkeypatch.setattr(torch.mps, "set_rng_state", lambda s: calls.append(("mps set", s)))
    assert check.block_pre(block_pre_module.BloquePre).status == "correct"
    assert calls == ["cuda get", "mps get", ("cuda set", ["cuda state"]), ("mps set", "mps state")]


def test_an_instance_passed_is_left_as_it_was():
    torch.manual_seed(1)
    block = block_pre_module.BloquePre().train()
    ffn = ffn_module.MiFFN(8, 40).train()
    before = {k: v.clone() for k, v in block.state_dict().items()}, {k: v.clone() for k, v in ffn.state_dict().items()}
    assert check.block_pre(block).status == "correct" and check.ffn(ffn).status == "correct"
    assert block.training and all(m.training for m in block.modules()) and ffn.training
    assert block.attn.dropout == 0.1 and block.drop.p == 0.1
    for saved, module in zip(before, (block, ffn)):
        assert all(torch.equal(saved[k], v) for k, v in module.state_dict().items())
    assert torch.equal(block.ln1.weight, torch.ones(32)) and torch.equal(block.ln1.bias, torch.zeros(32))


def test_the_learner_gets_gradients_back_on():
    check.layer_norm(check.layer_norm.reference)
    assert torch.is_grad_enabled()


@pytest.mark.parametrize("name", NAMES)
def test_hints_lead_without_being_the_answer(name):
    checker = CHECKERS[name]
    assert 2 <= len(checker.hints) <= 3
    code = [line.split("#")[0].strip() for line in checker.solution().code.splitlines()]
    code = [line for line in code if len(line) > 12 and not line.startswith(("def ", "class ", "super()"))]
    total = len(checker.hints)
    for n in range(1, total + 1):
        text = checker.hint(n)
        flat = " ".join(str(text).split())
        # the prompts say «hint(1) da una pista (y hint(2) otra, más directa)»: each hint names the next that way,
        # and none counts them («Pista 1 de 3» read as a contradiction of a prompt that names two)
        assert flat.startswith(f"Pista {n}: " if n < total else f"Pista {n}, la última: "), flat
        assert checker.hints[n - 1] in flat and f"Pista {n} de" not in flat
        assert (f"helpers.check.{name}.hint({n + 1}) da otra, más directa." in flat) == (n < total), flat
        assert repr(text) == str(text)  # shown as text, not as a quoted string
        for line in code:
            assert line not in flat, f"{name}.hint({n}) gives the solution's line {line!r}"
    assert "tiene" in checker.hint(len(checker.hints) + 1) and "pistas" in checker.hint(0)
    assert f"helpers.check.{name}.solution()" in checker.hint(len(checker.hints))


@pytest.mark.parametrize("name", NAMES)
def test_solution_is_what_the_checker_compares_against_and_passes(name):
    solution = CHECKERS[name].solution()
    namespace = {"torch": torch, "nn": nn, "F": F}
    exec(solution.code, namespace)  # the code the notebook test pastes, run as the learner would
    learner = namespace[CHECKERS[name].reference.__name__]
    assert CHECKERS[name](learner).status == "correct"
    assert solution.code == inspect.getsource(CHECKERS[name].reference).rstrip() + "\n"


def test_verdict_text_is_the_stable_block():
    assert repr(check.layer_norm(_stub_ellipsis)) == (
        "✏️  layer_norm: sin intentar todavía.\nCompletá la celda de arriba (donde dice `...`) y volvé a correr esta. "
        "Si te trabás:\nhelpers.check.layer_norm.hint(1).")
    assert repr(check.warmup(check.warmup.reference)).startswith("✅ warmup: ¡correcto!\n")
    verdict = check.warmup(check.warmup.mistakes[0].fn)
    assert repr(verdict).startswith("❌ warmup: todavía no.\n")
    assert all(len(line) <= 100 for line in repr(verdict).split("\n"))
    assert str(verdict) == repr(verdict)
    with pytest.raises(ValueError, match="status"):
        check.Verdict("x", "maybe", "")


def test_verdict_html_is_a_clear_deterministic_block():
    for answer in (_stub_ellipsis, check.layer_norm.reference, check.layer_norm.mistakes[0].fn):
        first, again = check.layer_norm(answer), check.layer_norm(answer)
        html = first._repr_html_()
        assert html == again._repr_html_() and "0x" not in html
        assert html.startswith('<div style="border-left:4px solid') and _core.HEADLINES[first.status].format(
            name="layer_norm") in html
    html = check.mask(mask_ints)._repr_html_()
    assert "❌ mask: todavía no." in html and "&lt;" not in html and "<code>" not in html
    html = check.Verdict("x", "wrong", "a <b> & `c`\n    code <here>\nend")._repr_html_()
    assert "a &lt;b&gt; &amp; <code>c</code>" in html and "<pre" in html and "code &lt;here&gt;" in html



def test_numpy_and_python_generators_and_warnings_filters_are_put_back():
    """Issue 32: an answer that draws from NumPy's or Python's global generator, or adds a warnings filter, leaves
    them as they were after the check (torch's were already restored)."""
    import random
    import warnings

    import numpy as np

    def dibuja(x, gamma, beta, eps=1e-5):
        np.random.rand(3)
        random.random()
        warnings.filterwarnings("ignore", message="una más")
        return check.layer_norm.reference(x, gamma, beta, eps)

    np.random.seed(5)
    random.seed(5)
    expected = np.random.rand(2), random.random()
    np.random.seed(5)
    random.seed(5)
    filters = list(warnings.filters)
    assert check.layer_norm(dibuja).status == "correct"
    assert check.block_pre(block_pre_module.BloquePre).status == "correct"
    assert (np.random.rand(2) == expected[0]).all() and random.random() == expected[1]
    assert warnings.filters == filters


@pytest.mark.parametrize("name", NAMES)
def test_a_student_copy_for_grading_turns_the_answer_off(name, monkeypatch):
    """Graded mode (the student copy's setup cell sets it): no solution(), no last hint, the rest as always."""
    checker = CHECKERS[name]
    reference = checker.solution().code
    monkeypatch.setenv(_core.GRADED_ENV, "1")
    for text in (str(checker.solution()), str(checker.hint(len(checker.hints)))):
        assert "tu docente desactivó" in text and reference.strip().splitlines()[-1].strip() not in text, text
        assert ".solution()" not in text
    if len(checker.hints) > 1:
        first = str(checker.hint(1))
        assert first.startswith("Pista 1") and "desactivó" not in first and ".solution()" not in first
        last_on = " ".join(str(checker.hint(len(checker.hints) - 1)).split())  # points at no hint that is off
        assert last_on.startswith(f"Pista {len(checker.hints) - 1}, la última de esta copia para entregar: ")
        assert f".hint({len(checker.hints)})" not in last_on, last_on
    assert ".solution()" not in repr(checker) and ".hint(1)" in repr(checker)
    monkeypatch.setenv(_core.GRADED_ENV, "0")
    assert checker.solution().code == reference and "solution()" in str(checker.hint(len(checker.hints)))


def test_working_gives_the_learners_answer_only_once_it_passes_and_says_which(capsys, monkeypatch):
    """What the cells after an exercise use: the learner's answer if correct, else the reference, with one line."""
    from helpers.check.exercises import layer_norm as layer_norm_module
    ours = layer_norm_module.mi_layer_norm

    def mia(x, gamma, beta, eps=1e-5):  # right, written another way
        return gamma * (x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True, correction=0) + eps) + beta

    def con_d_menos_1(x, gamma, beta, eps=1e-5):
        return gamma * (x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True) + eps) + beta

    assert check.layer_norm.working(mia) is mia
    assert capsys.readouterr().out == "Seguimos con tu función mi_layer_norm: pasó el control.\n"
    assert check.layer_norm.working(con_d_menos_1) is ours
    said = capsys.readouterr().out
    assert said.startswith("Tu función mi_layer_norm todavía no pasa el control: seguimos con la solución de "
                           "referencia (está arriba, en «Ver la solución»).")
    assert check.layer_norm.working(None) is ours and "todavía está sin escribir" in capsys.readouterr().out
    monkeypatch.setenv(_core.GRADED_ENV, "1")
    assert check.layer_norm.working(con_d_menos_1) is ours
    said = capsys.readouterr().out
    assert "en esta copia para entregar no se muestra" in said and "Ver la solución" not in said
