"""helpers.check: each checker passes the reference, names every mistake of its gallery, says "not attempted"
to a stub, reports (never raises) what learner code raises, answers wrong input by name, and still says
"wrong", with the first difference, to a mistake its gallery does not hold."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

import helpers
from helpers import check
from helpers.check import solutions as S
from helpers.check.gallery import GALLERY

# (checker, form, reference, what a stub looks like)
FORMS = [
    ("layer_norm", None, S.mi_layer_norm), ("rms_norm", None, S.mi_rms_norm), ("ffn", None, S.MiFFN),
    ("residual", None, S.paso_residual), ("residual", "pre", S.paso_pre),
    ("block_forward", "pre", S.BloquePre), ("block_forward", "post", S.BloquePost),
    ("causal_mask", None, S.mascara_causal), ("param_count", "ffn", S.params_ffn),
    ("param_count", "block", S.params_bloque), ("param_count", "gpt", S.params_gpt),
    ("warmup", None, S.lr_warmup), ("escape_step", None, S.paso_de_salida),
]
IDS = [f"{n}-{f}" if f else n for n, f, _ in FORMS]


def run(name, form, answer):
    checker = check.EXERCISES[name]
    return checker(answer) if form is None else checker(answer, form)


def as_answer(name, reference, entry_fn):
    """A gallery entry in the form the learner hands in (block_forward takes a class: swap its forward)."""
    if name == "block_forward":
        return type("Bloque", (reference,), {"forward": entry_fn})
    return entry_fn


def test_every_checker_has_a_form_here_and_a_gallery():
    assert {n for n, _, _ in FORMS} == set(check.EXERCISES)
    for name, form, _ in FORMS:
        key = name if form is None else f"{name}/{form}"
        assert len(GALLERY[key]) >= 3, f"{key}: a gallery of known mistakes needs at least 3 entries"


@pytest.mark.parametrize("name, form, reference", FORMS, ids=IDS)
def test_reference_is_correct(name, form, reference):
    verdict = run(name, form, reference)
    assert verdict.status == "correct", verdict


@pytest.mark.parametrize("name, form, reference", FORMS, ids=IDS)
def test_each_gallery_mistake_is_named(name, form, reference):
    key = name if form is None else f"{name}/{form}"
    for entry in GALLERY[key]:
        verdict = run(name, form, as_answer(name, reference, entry.fn))
        assert verdict.status == "wrong", (entry.fn.__name__, verdict)
        assert entry.message in verdict.message, f"{entry.fn.__name__} was not named:\n{verdict}"


def _stub_fn(*args):
    ...


def _stub_raises(*args):
    raise NotImplementedError


class _StubModule(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        ...


@pytest.mark.parametrize("name, form, reference", FORMS, ids=IDS)
@pytest.mark.parametrize("stub", ["ellipsis", "raise"])
def test_stub_is_not_attempted(name, form, reference, stub):
    if isinstance(reference, type):
        answer = _StubModule if name == "ffn" else type("Stub", (reference,), {"forward": _StubModule.forward})
        if stub == "raise":
            answer = type("Stub", (answer,), {"forward": lambda self, x: (_ for _ in ()).throw(NotImplementedError)})
    else:
        answer = _stub_fn if stub == "ellipsis" else _stub_raises
    verdict = run(name, form, answer)
    assert verdict.status == "not_attempted", verdict
    assert "Completá la celda de arriba" in verdict.message and ".hint(1)" in verdict.message


def _boom(*args):
    total = 0
    return total / 0  # the learner's line


@pytest.mark.parametrize("name, form, reference", [f for f in FORMS if not isinstance(f[2], type)],
                         ids=[i for i, f in zip(IDS, FORMS) if not isinstance(f[2], type)])
def test_code_that_raises_is_reported_with_its_line(name, form, reference):
    verdict = run(name, form, _boom)
    assert verdict.status == "wrong"
    assert "ZeroDivisionError" in verdict.message and "return total / 0" in verdict.message, verdict
    assert "la entrada «" in verdict.message  # which input


def test_module_that_raises_is_reported_with_its_line():
    class Rota(S.MiFFN):
        def forward(self, x):
            return self.lineal2(x)  # wrong size: d_model into a d_ff layer

    verdict = check.ffn(Rota)
    assert verdict.status == "wrong" and "RuntimeError" in verdict.message and "self.lineal2(x)" in verdict.message

    class BloqueRoto(S.BloquePre):
        def forward(self, x):
            return self.atencion(x, x)

    verdict = check.block_forward(BloqueRoto, "pre")
    assert verdict.status == "wrong" and "TypeError" in verdict.message and "self.atencion(x, x)" in verdict.message


@pytest.mark.parametrize("name, form, reference", FORMS, ids=IDS)
@pytest.mark.parametrize("bad", [None, 3, "mi_funcion", torch.ones(3)], ids=["None", "int", "str", "tensor"])
def test_wrong_kind_of_answer_gets_a_clear_message(name, form, reference, bad):
    verdict = run(name, form, bad)
    assert verdict.status == "wrong"
    assert "espera" in verdict.message and f"helpers.check.{name}" in verdict.message, verdict


def test_called_with_the_result_instead_of_the_function():
    verdict = check.layer_norm(S.mi_layer_norm(torch.randn(4), 1.0, 0.0))
    assert verdict.status == "wrong" and "sin llamarla" in verdict.message and "Tensor" in verdict.message


def test_unknown_form_and_extra_arguments():
    v = check.param_count(S.params_ffn, "transformer")
    assert v.status == "wrong" and "'ffn' o 'block' o 'gpt'" in v.message and "'transformer'" in v.message
    v = check.block_forward(S.BloquePre)
    assert v.status == "wrong" and "'pre' o 'post'" in v.message
    v = check.layer_norm(S.mi_layer_norm, None, 1)
    assert v.status == "wrong" and "3 argumentos" in v.message
    v = check.residual(S.paso_residual, ["pre"])  # unhashable
    assert v.status == "wrong" and "espera norm" in v.message


# ---------------------------------------------------------------- mistakes the galleries do not contain
def _ln_no_sqrt(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    return gamma * (x - media) / (x.var(-1, keepdim=True, unbiased=False) + eps) + beta


def _rms_mean_abs(x, gamma, eps=1e-5):
    return gamma * x / (x.abs().mean(-1, keepdim=True) + eps)


class _FFNTanh(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.a, self.b = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.b(torch.tanh(self.a(x)))


def _res_half(x, subcapa):
    return x + 0.5 * subcapa(x)


def _pre_double_skip(x, subcapa, ln):
    return 2 * x + subcapa(ln(x))


def _block_swapped_norms(self, x):
    x = x + self.drop(self.atencion(self.ln2(x)))
    return x + self.drop(self.ffn(self.ln1(x)))


def _block_post_no_second_residual(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln2(self.drop(self.ffn(x)))


def _mask_two_off(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=2)


def _pffn_squared(d_model, d_ff):
    return d_model**2 + d_ff**2


def _pblock_three_ln(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model + 6 * d_model + 1


def _pgpt_no_pos_no_final(vocab, d_model, n_layers, ctx):
    d = d_model
    return vocab * d + n_layers * (12 * d * d + 13 * d)


def _wu_squared(paso, warmup, lr):
    return lr * min(1.0, paso / warmup) ** 2 if warmup else lr


def _esc_next_step(pasos, aciertos, umbral=0.6):
    for i, a in enumerate(aciertos):
        if a >= umbral:
            return pasos[min(i + 1, len(pasos) - 1)]
    return None


UNSEEN = [
    ("layer_norm", None, S.mi_layer_norm, _ln_no_sqrt),
    ("rms_norm", None, S.mi_rms_norm, _rms_mean_abs),
    ("ffn", None, S.MiFFN, _FFNTanh),
    ("residual", None, S.paso_residual, _res_half),
    ("residual", "pre", S.paso_pre, _pre_double_skip),
    ("block_forward", "pre", S.BloquePre, _block_swapped_norms),
    ("block_forward", "post", S.BloquePost, _block_post_no_second_residual),
    ("causal_mask", None, S.mascara_causal, _mask_two_off),
    ("param_count", "ffn", S.params_ffn, _pffn_squared),
    ("param_count", "block", S.params_bloque, _pblock_three_ln),
    ("param_count", "gpt", S.params_gpt, _pgpt_no_pos_no_final),
    ("warmup", None, S.lr_warmup, _wu_squared),
    ("escape_step", None, S.paso_de_salida, _esc_next_step),
]


@pytest.mark.parametrize("name, form, reference, mistake", UNSEEN, ids=[u[3].__name__ for u in UNSEEN])
def test_a_mistake_outside_the_gallery_is_wrong_with_the_first_difference(name, form, reference, mistake):
    key = name if form is None else f"{name}/{form}"
    assert mistake not in [e.fn for e in GALLERY[key]]
    verdict = run(name, form, as_answer(name, reference, mistake))
    assert verdict.status == "wrong", verdict
    assert "Con la entrada «" in verdict.message and "esperaba" in verdict.message, verdict
    for entry in GALLERY[key]:
        assert entry.message not in verdict.message, f"{mistake.__name__} was taken for {entry.fn.__name__}"


def test_two_missing_terms_are_named_together():
    verdict = check.param_count(_pgpt_no_pos_no_final, "gpt")
    assert "te falta ctx × d (las posiciones)" in verdict.message and "te falta una LayerNorm (2d)" in verdict.message


# ---------------------------------------------------------------------------- checker-specific mistakes
def test_ffn_that_mixes_tokens():
    class Mezcla(S.MiFFN):
        def forward(self, x):
            return self.lineal2(F.relu(self.lineal1(x))) + x.mean(dim=1, keepdim=True)

    v = check.ffn(Mezcla)
    assert v.status == "wrong" and "mezcla tokens" in v.message


def test_ffn_wrong_hidden_size_and_missing_bias():
    class Chica(nn.Module):
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.a, self.b = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)

        def forward(self, x):
            return self.b(F.relu(self.a(x)))

    v = check.ffn(Chica)
    assert v.status == "wrong" and "La capa oculta tiene 8 neuronas y se pedía d_ff = 24" in v.message

    class SinSesgo(nn.Module):
        def __init__(self, d_model, d_ff):
            super().__init__()
            self.a, self.b = nn.Linear(d_model, d_ff, bias=False), nn.Linear(d_ff, d_model)

        def forward(self, x):
            return self.b(F.relu(self.a(x)))

    v = check.ffn(SinSesgo)
    assert v.status == "wrong" and "te falta el sesgo de la primera capa (d_ff números)" in v.message


def test_ffn_accepts_an_instance_like_the_notebooks():
    v = check.ffn(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16)))
    assert v.status == "correct", v
    v = check.ffn(nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 16)))
    assert v.status == "wrong" and "GELU" in v.message


def test_block_dropout_left_on_in_eval_and_never_used():
    class DropoutSiempre(S.BloquePre):
        def forward(self, x):
            x = x + F.dropout(self.atencion(self.ln1(x)), 0.1)
            return x + F.dropout(self.ffn(self.ln2(x)), 0.1)

    v = check.block_forward(DropoutSiempre, "pre")
    assert v.status == "wrong" and "dropout que no se apaga" in v.message

    class SinDropout(S.BloquePre):
        def forward(self, x):
            x = x + self.atencion(self.ln1(x))
            return x + self.ffn(self.ln2(x))

    v = check.block_forward(SinDropout, "pre")
    assert v.status == "wrong" and "nunca usás self.drop" in v.message


def test_block_renamed_modules():
    class Renombrado(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1 = nn.LayerNorm(8)

        def forward(self, x):
            return x

    v = check.block_forward(Renombrado, "pre")
    assert v.status == "wrong" and "no les cambies los nombres" in v.message


def test_masks_in_every_accepted_form_and_the_ones_pytorch_misreads():
    def inf(T):
        return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))

    def big(T):
        return torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -1e9)

    def ints(T):
        return torch.triu(torch.ones(T, T, dtype=torch.long), 1)

    def lista(T):
        return [[j > i for j in range(T)] for i in range(T)]

    assert check.causal_mask(inf).status == "correct"
    v = check.causal_mask(big)
    assert v.status == "correct" and "número muy negativo" in v.message
    v = check.causal_mask(ints)
    assert v.status == "wrong" and "enteros" in v.message
    v = check.causal_mask(lista)
    assert v.status == "wrong" and "no un tensor" in v.message


def test_function_without_return_is_not_a_stub():
    def sin_return(x, gamma, beta, eps=1e-5):
        gamma * (x - x.mean(-1, keepdim=True)) + beta

    v = check.layer_norm(sin_return)
    assert v.status == "wrong" and "falta el `return`" in v.message


# --------------------------------------------------------------------------------- hints and solutions
@pytest.mark.parametrize("name, form, reference", FORMS, ids=IDS)
def test_hints_and_solution(name, form, reference):
    checker = check.EXERCISES[name]
    hints = checker.forms[form].hints
    assert 2 <= len(hints) <= 3
    for n in range(1, len(hints) + 1):
        text = checker.hint(n, form)
        assert text.startswith(f"Pista {n} de {len(hints)}: ") and hints[n - 1] in " ".join(text.split())
        assert repr(text) == str(text)  # shown as text, not as a quoted string
    assert "tiene" in checker.hint(len(hints) + 1, form) and "pistas" in checker.hint(0, form)
    solution = checker.solution(form)
    namespace = {"torch": torch, "nn": nn, "F": F}
    exec(solution.code, namespace)  # noqa: S102 - the code the notebook test pastes, run as the learner would
    assert run(name, form, namespace[reference.__name__]).status == "correct"


def test_hint_follows_the_last_form_checked():
    check.param_count(S.params_gpt, "gpt")
    assert "LayerNorm final" in check.param_count.hint(1)
    check.param_count(S.params_ffn, "ffn")
    assert "Dos matrices" in check.param_count.hint(1)
    assert "vocab·d" in check.param_count.hint(3, "gpt")


def test_verdict_reads_as_a_block():
    v = check.layer_norm(_stub_fn)
    assert repr(v).startswith("✏️  layer_norm: sin intentar todavía.\n")
    v = check.warmup(S.lr_warmup)
    assert repr(v).startswith("✅ warmup: ¡correcto!\n")
    v = check.warmup(GALLERY["warmup"][0].fn)
    assert repr(v).startswith("❌ warmup: todavía no.\n") and all(len(line) <= 100 for line in repr(v).split("\n"))
    with pytest.raises(ValueError, match="status"):
        check.Verdict("x", "maybe", "")


def test_checking_leaves_the_random_state_alone():
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    for name, form, reference in FORMS:
        run(name, form, reference)
    assert torch.equal(torch.rand(3), expected)


# ------------------------------------------------------------- the references agree with the library
def test_references_agree_with_torch_and_helpers():
    x, g, b = torch.randn(2, 3, 8), torch.rand(8) + 0.5, torch.randn(8)
    ln = nn.LayerNorm(8)
    with torch.no_grad():
        ln.weight.copy_(g)
        ln.bias.copy_(b)
        assert torch.allclose(S.mi_layer_norm(x, g, b), ln(x), atol=1e-6)
        if hasattr(nn, "RMSNorm"):
            rms = nn.RMSNorm(8, eps=1e-5)
            rms.weight.copy_(g)
            assert torch.allclose(S.mi_rms_norm(x, g), rms(x), atol=1e-6)
    for T in (1, 5):
        assert torch.equal(S.mascara_causal(T), helpers.blocks.causal_mask(T))
    for d, f in ((512, 2048), (8, 24)):
        assert S.params_ffn(d, f) == helpers.params.ffn_params(d, f)
        assert S.params_bloque(d, f) == helpers.params.count_params(helpers.blocks.Block(d, 2, f, norm="pre"))
    for V, d, L, ctx in ((50257, 768, 12, 1024), (12, 8, 2, 0)):
        assert S.params_gpt(V, d, L, ctx) == helpers.params.gpt_params(V, d, L, ctx)
    assert S.params_ffn(512, 2048) == helpers.params.count_params(S.MiFFN(512, 2048))
    for w in (0, 1, 100):
        run_ = helpers.engine.Run("post", 2, warmup=w)
        assert all(S.lr_warmup(s, w, run_.lr) == run_.lr_at(s) for s in (1, 2, 50, 100, 101, 500))


def test_reference_blocks_match_helpers_block():
    for norm, cls in (("pre", S.BloquePre), ("post", S.BloquePost)):
        torch.manual_seed(0)
        ours = cls(32, 4, 64, dropout=0.0).eval()
        lib = helpers.blocks.Block(32, 4, 64, dropout=0.0, norm=norm).eval()
        pairs = list(zip(ours.parameters(), lib.parameters(), strict=True))  # same modules, same order
        with torch.no_grad():
            for a, b in pairs:
                b.copy_(a)
            x = torch.randn(2, 5, 32)
            assert torch.allclose(ours(x), lib(x), atol=1e-6)
