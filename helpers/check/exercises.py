"""The "Tu turno" checkers: each one's probe inputs, how results are compared, and its hints.

A checker never raises because of the learner's code, and never moves the notebook's random state: it runs
inside ``torch.random.fork_rng``.
"""

from __future__ import annotations

import inspect
import itertools
import textwrap
import types
from dataclasses import dataclass

import torch
from torch import nn

from . import solutions
from ._core import (
    NotAttempted,
    Probe,
    Raised,
    Solution,
    Text,
    Verdict,
    call,
    diagnose,
    first_difference,
    is_stub,
    not_attempted,
    number_difference,
    show,
    tensor_difference,
    wrong_input,
)
from .gallery import GALLERY

_LAST = object()  # hint()/solution() without a form: the one checked last


@dataclass
class Form:
    """One version of an exercise: its reference (in solutions.py), its hints, its gallery's key."""

    reference: object
    hints: tuple[str, ...]
    key: str


class Exercise:
    """A checker: ``check.x(answer[, form])`` gives a Verdict; ``.hint(n)`` and ``.solution()`` help."""

    def __init__(self, name: str, forms: dict, run, form_name: str | None = None):
        self.name, self.forms, self._run, self.form_name = name, forms, run, form_name
        self._last = None if None in forms else next(iter(forms))
        self.__doc__ = f"check.{name}: {run.__doc__}"

    def __repr__(self) -> str:
        return f"<helpers.check.{self.name}: llamalo con tu respuesta; .hint(1) y .solution() ayudan>"

    def _form(self, form) -> Form | None:
        try:
            return self.forms.get(form)
        except TypeError:  # unhashable
            return None

    def _forms_text(self) -> str:
        return " o ".join(repr(f) for f in self.forms)

    def __call__(self, answer=None, form=None, *extra) -> Verdict:
        if extra:
            return Verdict(self.name, "wrong", f"helpers.check.{self.name} recibe {self._signature()}; le pasaste "
                                               f"{2 + len(extra)} argumentos.")
        chosen = self._form(form)
        if chosen is None:
            example = f"helpers.check.{self.name}(tu_respuesta, {next(iter(self.forms))!r})"
            return Verdict(self.name, "wrong", f"helpers.check.{self.name} espera {self.form_name} = "
                                               f"{self._forms_text()}; recibió {form!r}. Por ejemplo: {example}.")
        self._last = form
        name = self.name if form is None else f"{self.name} ({form})"
        try:
            with torch.random.fork_rng(devices=[]), torch.no_grad():
                return self._run(name, answer, chosen)
        except NotAttempted:
            return not_attempted(name)
        except Exception as e:  # noqa: BLE001 - a checker's own failure must not look like the learner's
            return Verdict(name, "wrong", f"El checker no pudo evaluar tu respuesta ({type(e).__name__}: {e}). "
                                          "Revisá que sea lo que pide el enunciado; si lo es, avisanos.")

    def _signature(self) -> str:
        return f"(tu_respuesta, {self.form_name})" if self.form_name else "(tu_respuesta)"

    def _pick(self, form) -> tuple[object, Form] | tuple[None, Text]:
        form = self._last if form is _LAST else form
        chosen = self._form(form)
        if chosen is None:
            return None, Text(f"helpers.check.{self.name} tiene varias versiones: pasá {self.form_name} = "
                              f"{self._forms_text()}.")
        return form, chosen

    def hint(self, n: int = 1, form=_LAST) -> Text:
        """Hint number ``n`` (1 is the gentlest), for ``form`` or else the form checked last."""
        form, chosen = self._pick(form)
        if not isinstance(chosen, Form):
            return chosen
        total = len(chosen.hints)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= total:
            return Text(f"helpers.check.{self.name} tiene {total} pistas: hint(1) a hint({total}).")
        more = f" ¿Todavía no? helpers.check.{self.name}.hint({n + 1})" if n < total else (
            f" Si te rendiste: helpers.check.{self.name}.solution()")
        return Text(textwrap.fill(f"Pista {n} de {total}: {chosen.hints[n - 1]}{more}", 100))

    def solution(self, form=_LAST) -> Solution:
        """The reference code, the same object the checker compares against."""
        form, chosen = self._pick(form)
        if not isinstance(chosen, Form):
            return chosen
        return Solution(self.name if form is None else f"{self.name} ({form})",
                        inspect.getsource(chosen.reference).rstrip() + "\n")


def _hint_line(name: str) -> str:
    return f"¿Una pista? helpers.check.{name.split(' ')[0]}.hint(1)"


def _is_function(answer) -> bool:
    return callable(answer) and not isinstance(answer, (type, nn.Module))


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


# ----------------------------------------------------------------------------------------- the norms
def _norm_probes(with_beta: bool) -> list[Probe]:
    g = _gen()

    def affine(d):
        gamma = torch.rand(d, generator=g, dtype=torch.float64) + 0.5
        beta = torch.randn(d, generator=g, dtype=torch.float64)
        return (gamma, beta) if with_beta else (gamma,)

    four = torch.tensor([0.80, 0.95, 0.93, 1.33], dtype=torch.float64)
    ones = (torch.ones(4, dtype=torch.float64), torch.zeros(4, dtype=torch.float64))
    batch = torch.randn(2, 3, 8, generator=g, dtype=torch.float64) * 2 + 1
    const = torch.tensor([[3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 5.0]], dtype=torch.float64)
    small = torch.randn(3, 5, generator=g, dtype=torch.float64) * 0.01
    one = torch.randn(3, 1, generator=g, dtype=torch.float64)
    gb = "γ = 1, β = 0" if with_beta else "γ = 1"
    return [
        Probe("los cuatro números del notebook", (four, *ones[: 1 + with_beta], 1e-5),
              f"x = [0.8, 0.95, 0.93, 1.33], {gb}, eps = 1e-5"),
        Probe("un batch de 2 frases × 3 tokens, d = 8", (batch, *affine(8), 1e-5), "x de forma (2, 3, 8)"),
        Probe("un token constante", (const, *affine(4), 1e-5), "x = [[3, 3, 3, 3], [1, 2, 3, 5]]"),
        Probe("σ chica y ε grande", (small, *affine(5), 0.1), "x de forma (3, 5) con σ ≈ 0.01, eps = 0.1"),
        Probe("d = 1", (one, *affine(1), 1e-5), "x de forma (3, 1)"),
    ]


def _run_norm(key: str, with_beta: bool):
    def run(name, fn, form):
        if not _is_function(fn):
            return wrong_input(name, "tu función (por ejemplo, helpers.check.layer_norm(mi_layer_norm)), sin llamarla",
                               fn)
        return diagnose(name, fn, form.reference, GALLERY[key], _norm_probes(with_beta), tensor_difference,
                        _hint_line(name))
    return run


def _layer_norm_run(name, fn, form):
    """fn(x, gamma, beta, eps): LayerNorm over the last axis."""
    return _run_norm("layer_norm", True)(name, fn, form)


def _rms_norm_run(name, fn, form):
    """fn(x, gamma, eps): RMSNorm over the last axis."""
    return _run_norm("rms_norm", False)(name, fn, form)


# ---------------------------------------------------------------------------------------------- the FFN
def _ffn_run(name, answer, form):
    """a class MiFFN(d_model, d_ff) or an instance: the paper's position-wise FFN."""
    D, H = 8, 24
    if isinstance(answer, type) and issubclass(answer, nn.Module):
        torch.manual_seed(0)
        if is_stub(answer.forward):
            return not_attempted(name)
        module = call(answer, D, H)
        if isinstance(module, Raised):
            return Verdict(name, "wrong", f"Tu clase falló al crearla con {answer.__name__}({D}, {H}): "
                                          f"{module.describe()}.\n{_hint_line(name)}")
        expected_hidden = H
    elif isinstance(answer, nn.Module):
        module, expected_hidden = answer, None
        if is_stub(type(answer).forward):
            return not_attempted(name)
    else:
        return wrong_input(name, "tu clase de FFN (helpers.check.ffn(MiFFN)) o una instancia", answer)
    linears = [m for m in module.modules() if isinstance(m, nn.Linear)]
    if expected_hidden is None:
        if not linears:
            return Verdict(name, "wrong", "No encontré ninguna nn.Linear en tu FFN: el paper usa dos, "
                                          "d_model → d_ff y d_ff → d_model.")
        D = linears[0].in_features
    module.eval()
    g = _gen()
    probes = [Probe("2 frases × 5 tokens", (torch.randn(2, 5, D, generator=g),)),
              Probe("una frase de un token", (torch.randn(1, 1, D, generator=g) * 3,))]
    outs = [call(module, p.args[0]) for p in probes]
    for p, out in zip(probes, outs):
        if isinstance(out, Raised):
            return Verdict(name, "wrong", f"Tu FFN falló con la entrada {p.describe()} (forma "
                                          f"{tuple(p.args[0].shape)}): {out.describe()}.\n{_hint_line(name)}")
        if out is None:
            return Verdict(name, "wrong", "Tu forward no devuelve nada (da None): ¿te falta el `return`?")
        if not isinstance(out, torch.Tensor) or tuple(out.shape) != tuple(p.args[0].shape):
            got = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
            return Verdict(name, "wrong", f"Con una entrada de forma {tuple(p.args[0].shape)} tu FFN devuelve "
                                          f"{got}: tiene que devolver la misma forma, (B, T, d_model).")
    x = probes[0].args[0]
    moved = x.clone()
    moved[0, 3] = torch.randn(D, generator=g) * 3
    out2 = call(module, moved)
    if isinstance(out2, torch.Tensor):
        others = torch.ones(2, 5, dtype=torch.bool)
        others[0, 3] = False
        leak = (out2 - outs[0])[others].abs().max().item()
        if leak > 1e-5:
            return Verdict(name, "wrong", f"Tu FFN mezcla tokens: cambié solo el token 3 de la frase 0 y se movió "
                                          f"la salida de otros tokens (hasta {leak:.3g}). La FFN trata a cada token "
                                          "por separado: nn.Linear actúa sobre la última dimensión, sin mirar "
                                          f"a lo largo de T.\n{_hint_line(name)}")
    if len(linears) != 2:
        return Verdict(name, "wrong", f"Encontré {len(linears)} capas nn.Linear; la FFN del paper tiene dos, "
                                      f"d_model → d_ff y d_ff → d_model.\n{_hint_line(name)}")
    l1, l2 = linears
    hidden = l1.out_features
    if expected_hidden is not None and hidden != expected_hidden:
        return Verdict(name, "wrong", f"La capa oculta tiene {hidden} neuronas y se pedía d_ff = {expected_hidden}: "
                                      f"creé tu clase con d_model = {D}, d_ff = {expected_hidden}. La primera lineal "
                                      f"es nn.Linear(d_model, d_ff).\n{_hint_line(name)}")
    if (l1.in_features, l2.in_features, l2.out_features) != (D, hidden, D):
        return Verdict(name, "wrong", f"Las formas de tus lineales no encadenan d_model → d_ff → d_model: "
                                      f"{l1.in_features} → {l1.out_features} y {l2.in_features} → "
                                      f"{l2.out_features}.\n{_hint_line(name)}")

    def same_weights(cls):
        twin = cls(D, hidden)
        for mine, theirs in zip([m for m in twin.modules() if isinstance(m, nn.Linear)], (l1, l2)):
            mine.weight.copy_(theirs.weight)
            mine.bias.copy_(theirs.bias if theirs.bias is not None else torch.zeros_like(mine.bias))
        return twin.eval()

    reference = same_weights(form.reference)
    expected = [reference(p.args[0]) for p in probes]
    diffs = [tensor_difference(e, o) for e, o in zip(expected, outs)]
    if any(diffs):
        i = next(i for i, d in enumerate(diffs) if d)
        evidence = first_difference(probes[i], expected[i], outs[i], diffs[i])
        for entry in GALLERY["ffn"]:
            twin = same_weights(entry.fn)
            if all(tensor_difference(twin(p.args[0]), o) is None for p, o in zip(probes, outs)):
                return Verdict(name, "wrong", f"{entry.message}\n{evidence}\n{_hint_line(name)}")
        return Verdict(name, "wrong", "No reconozco el error como uno de los típicos; comparé con "
                                      f"lineal2(ReLU(lineal1(x))) usando tus mismos pesos. {evidence}\n"
                                      + _hint_line(name))
    count = sum(p.numel() for p in module.parameters())
    right = 2 * D * hidden + hidden + D
    if count != right:
        return Verdict(name, "wrong", f"Calcula bien, pero tiene {count} parámetros y la FFN del paper, con "
                                      f"d_model = {D} y d_ff = {hidden}, tiene 2·d_model·d_ff + d_ff + d_model = "
                                      f"{right}: {_explain([count - right], [_ffn_terms(D, hidden)]) or 'no coincide'}"
                                      ".")
    return Verdict(name, "correct", f"Dos lineales con la ReLU en el medio, cada token por separado, y los "
                                    f"{right} parámetros que tocan con d_model = {D}, d_ff = {hidden}.")


def _ffn_terms(d, h):
    return {"el sesgo de la primera capa (d_ff números)": h, "el sesgo de la segunda (d_model números)": d,
            "una matriz d_model × d_ff": d * h}


def _explain(diffs: list[int], terms: list[dict]) -> str | None:
    """Which terms (each at most once, in excess or missing) make up the difference on every probe, or None.

    ``diffs[i]`` is the learner's count minus the right one on probe i; ``terms[i]`` names each term's size there.
    """
    names = list(terms[0])
    for size in (1, 2, 3):
        for combo in itertools.combinations(names, size):
            for signs in itertools.product((1, -1), repeat=size):
                if all(sum(s * t[k] for s, k in zip(signs, combo)) == diff for diff, t in zip(diffs, terms)):
                    return " y ".join(("te sobra " if s > 0 else "te falta ") + k for s, k in zip(signs, combo))
    return None


# ---------------------------------------------------------------------------------------- the residual
def _residual_probes(with_ln: bool) -> list[Probe]:
    torch.manual_seed(0)  # inside fork_rng: the notebook's random state is untouched
    subcapa = nn.Sequential(nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 6)).double()
    ln = nn.LayerNorm(6).double()
    g = _gen()
    ln.weight.copy_(torch.rand(6, generator=g, dtype=torch.float64) + 0.5)
    ln.bias.copy_(torch.randn(6, generator=g, dtype=torch.float64))
    extra = (ln,) if with_ln else ()
    return [Probe("3 frases × 4 tokens, d = 6", (torch.randn(3, 4, 6, generator=g, dtype=torch.float64) * 2 + 1,
                                                 subcapa, *extra)),
            Probe("un solo token", (torch.randn(1, 6, generator=g, dtype=torch.float64) * 3, subcapa, *extra))]


def _residual_run(name, fn, form):
    """fn(x, subcapa) for the plain residual; fn(x, subcapa, ln) for norm='pre'."""
    if not _is_function(fn):
        return wrong_input(name, "tu función (por ejemplo, helpers.check.residual(paso_residual)), sin llamarla", fn)
    return diagnose(name, fn, form.reference, GALLERY[form.key], _residual_probes(form.key.endswith("pre")),
                    tensor_difference, _hint_line(name))


# ------------------------------------------------------------------------------------------- the block
def _block_run(name, answer, form):
    """a class like the notebook's (attn, ffn, ln1, ln2, drop, atencion given); you write forward."""
    if isinstance(answer, type) and issubclass(answer, nn.Module):
        if is_stub(answer.forward):
            return not_attempted(name)
        torch.manual_seed(0)
        block = call(answer)
        if isinstance(block, Raised):
            return Verdict(name, "wrong", f"Tu clase falló al crearla con {answer.__name__}(): {block.describe()}.")
    elif isinstance(answer, nn.Module):
        block = answer
        if is_stub(type(block).forward):
            return not_attempted(name)
    else:
        return wrong_input(name, "tu clase de bloque (por ejemplo, helpers.check.block_forward(BloquePre, 'pre'))",
                           answer)
    missing = [a for a in ("attn", "ffn", "ln1", "ln2", "drop", "atencion") if not hasattr(block, a)]
    if missing:
        return Verdict(name, "wrong", f"Tu clase no tiene {', '.join(missing)}: el __init__ del enunciado ya los "
                                      "crea; no les cambies los nombres.")
    g = _gen()
    for ln in (block.ln1, block.ln2):  # γ y β distintos de 1 y 0: así se nota cuál LayerNorm usás
        ln.weight.copy_(torch.rand(ln.weight.shape, generator=g) + 0.5)
        ln.bias.copy_(torch.randn(ln.bias.shape, generator=g))
    d = block.ln1.normalized_shape[0]
    probes = [Probe("2 frases × 5 tokens", (torch.randn(2, 5, d, generator=g) * 2 + 0.5,)),
              Probe("una frase de un token", (torch.randn(1, 1, d, generator=g) * 3,))]
    block.eval()
    forward = type(block).forward
    first, again = call(block, *probes[0].fresh_args()), call(block, *probes[0].fresh_args())
    if isinstance(first, torch.Tensor) and isinstance(again, torch.Tensor) and tensor_difference(first, again):
        return Verdict(name, "wrong", "En modo eval tu bloque da dos resultados distintos para la misma entrada: "
                                      "hay un dropout que no se apaga. F.dropout(h, p) queda prendido siempre "
                                      "(training=True por defecto); usá self.drop, un nn.Dropout, que .eval() "
                                      f"apaga.\n{_hint_line(name)}")
    verdict = diagnose(name, forward, form.reference.forward, GALLERY[form.key], probes, tensor_difference,
                       _hint_line(name), runner=lambda fn, p: call(types.MethodType(fn, block), *p.fresh_args()))
    if verdict.status != "correct":
        return verdict
    block.train()
    p_attn, block.attn.dropout = block.attn.dropout, 0.0  # solo el dropout que escribiste vos
    trained = call(block, *probes[0].fresh_args())
    block.attn.dropout = p_attn
    if block.drop.p > 0 and isinstance(trained, torch.Tensor) and tensor_difference(first, trained) is None:
        return Verdict(name, "wrong", "En eval da lo correcto, pero nunca usás self.drop: entrenando, el bloque "
                                      "no aplica dropout a la salida de las subcapas (self.drop(subcapa(...))).")
    return Verdict(name, "correct", verdict.message + " Y en modo entrenamiento usás el dropout.")


# -------------------------------------------------------------------------------------- the causal mask
def _mask_meaning(mask, T: int):
    """(kind, marked positions) of a mask, or a sentence saying why it is not one."""
    if not isinstance(mask, torch.Tensor):
        return f"devolvió {type(mask).__name__}, no un tensor"
    if tuple(mask.shape) != (T, T):
        return f"tiene forma {tuple(mask.shape)} y para T = {T} tiene que ser ({T}, {T})"
    if mask.dtype == torch.bool:
        return "bool", mask
    if not mask.is_floating_point():
        return ("una máscara de enteros: nn.MultiheadAttention acepta bool (True = prohibido) o float "
                "(0 y −∞)")
    values = set(mask.unique().tolist())
    if values <= {0.0, float("-inf")}:
        return "inf", mask < 0
    if values <= {0.0, 1.0}:
        return "01", mask == 1
    if all(v == 0 or v <= -1e4 for v in values):
        return "neg", mask < 0
    return "float", mask != 0


def _mask_differ(T: int):
    def differ(expected, got):
        want, have = _mask_meaning(expected, T), _mask_meaning(got, T)
        if isinstance(have, str):
            return have
        if want[0] in ("bool", "inf", "neg") and have[0] in ("bool", "inf", "neg"):
            return None if torch.equal(want[1], have[1]) else "prohíbe otras posiciones"
        if want[0] == have[0] and torch.equal(want[1], have[1]):
            return None
        return "no es la misma máscara"
    return differ


def _causal_mask_run(name, fn, form):
    """fn(T) -> a (T, T) mask nn.MultiheadAttention accepts: bool with True = blocked, or float 0 / -inf."""
    if not _is_function(fn):
        return wrong_input(name, "tu función (helpers.check.causal_mask(mascara_causal)), sin llamarla", fn)
    probes = [Probe(f"T = {T}", (T,)) for T in (4, 1, 2, 7)]

    def differ(expected, got):
        T = expected.shape[0]
        return _mask_differ(T)(expected, got)
    verdict = diagnose(name, fn, form.reference, GALLERY["causal_mask"], probes, differ, _hint_line(name))
    if verdict.status == "correct":
        kinds = {_mask_meaning(call(fn, T), T)[0] for T in (2, 4)}
        if "neg" in kinds:
            return Verdict(name, "correct", "Prohíbe justo el futuro. Usás un número muy negativo en vez de −∞: "
                                            "funciona, pero el peso prohibido no es 0 exacto (es el ejercicio 2).")
        return Verdict(name, "correct", "Prohíbe justo el futuro (arriba de la diagonal) para T = 4, 1, 2 y 7, "
                                        "y nn.MultiheadAttention la acepta tal cual.")
    return verdict


# ------------------------------------------------------------------------------------------ the counts
_COUNT_PROBES = {
    "ffn": [Probe("el paper", (512, 2048), "d_model = 512, d_ff = 2048"),
            Probe("d_ff que no es 4·d", (8, 24), "d_model = 8, d_ff = 24"),
            Probe("chiquita", (3, 7), "d_model = 3, d_ff = 7")],
    "block": [Probe("el paper", (512, 2048), "d_model = 512, d_ff = 2048"),
              Probe("d_ff que no es 4·d", (8, 24), "d_model = 8, d_ff = 24"),
              Probe("chiquito", (3, 7), "d_model = 3, d_ff = 7")],
    "gpt": [Probe("GPT-2 small", (50257, 768, 12, 1024), "vocab = 50 257, d_model = 768, 12 capas, ctx = 1 024"),
            Probe("el de juguete", (12, 8, 2, 0), "vocab = 12, d_model = 8, 2 capas, ctx = 0"),
            Probe("otro chico", (100, 16, 3, 10), "vocab = 100, d_model = 16, 3 capas, ctx = 10")],
}


def _count_terms(model, args) -> dict:
    if model == "gpt":
        V, d, L, ctx = args
        return {"una matriz de vocab × d": V * d, "ctx × d (las posiciones)": ctx * d,
                "una LayerNorm (2d)": 2 * d, "una LayerNorm por bloque (L·2d)": 2 * L * d,
                "un sesgo de d por bloque (L·d)": L * d, "un sesgo de 4d por bloque (L·4d)": 4 * L * d,
                "una matriz d × d por bloque (L·d²)": L * d * d}
    d, h = args
    return {"un sesgo de d_ff": h, "un sesgo de d_model": d, "una matriz d_model × d_ff": d * h,
            "una matriz d × d": d * d, "una LayerNorm (2d)": 2 * d}


def _param_count_run(name, fn, form):
    """fn(d_model, d_ff) for 'ffn' and 'block'; fn(vocab, d_model, n_layers, ctx) for 'gpt' (d_ff = 4d)."""
    if not _is_function(fn):
        return wrong_input(name, "tu función (por ejemplo, helpers.check.param_count(params_ffn, 'ffn')), sin "
                                 "llamarla", fn)
    model = form.key.split("/")[1]
    probes = _COUNT_PROBES[model]
    verdict = diagnose(name, fn, form.reference, GALLERY[form.key], probes, number_difference, _hint_line(name))
    if not verdict.message.startswith("No reconozco"):
        return verdict
    got = [call(fn, *p.args) for p in probes]
    if not all(isinstance(x, int) or (isinstance(x, float) and x.is_integer()) for x in got):
        return verdict
    why = _explain([int(x) - form.reference(*p.args) for x, p in zip(got, probes)],
                   [_count_terms(model, p.args) for p in probes])
    if why is None:
        return verdict
    evidence = verdict.message.split("primera diferencia. ", 1)[1]
    return Verdict(name, "wrong", f"No es uno de los errores típicos, pero la diferencia se explica igual en "
                                  f"todas las entradas: {why}.\n{evidence}")


# ----------------------------------------------------------------------------------- schedule and curve
def _warmup_run(name, fn, form):
    """fn(paso, warmup, lr) -> learning rate of step ``paso`` (1-based): linear warmup, then constant."""
    if not _is_function(fn):
        return wrong_input(name, "tu función (helpers.check.warmup(lr_warmup)), sin llamarla", fn)
    probes = [Probe("el primer paso", (1, 100, 1e-3), "paso = 1, warmup = 100, lr = 0.001"),
              Probe("la mitad del warmup", (50, 100, 1e-3), "paso = 50, warmup = 100, lr = 0.001"),
              Probe("el último paso del warmup", (100, 100, 1e-3), "paso = 100, warmup = 100, lr = 0.001"),
              Probe("justo después", (101, 100, 1e-3), "paso = 101, warmup = 100, lr = 0.001"),
              Probe("mucho después", (1000, 100, 1e-3), "paso = 1000, warmup = 100, lr = 0.001"),
              Probe("sin warmup", (1, 0, 1e-3), "paso = 1, warmup = 0, lr = 0.001"),
              Probe("warmup de un paso", (1, 1, 0.5), "paso = 1, warmup = 1, lr = 0.5"),
              Probe("otros números", (3, 4, 2.0), "paso = 3, warmup = 4, lr = 2")]
    return diagnose(name, fn, form.reference, GALLERY["warmup"], probes, number_difference, _hint_line(name))


def _escape_differ(expected, got):
    if expected is None:
        return None if got is None else f"tenía que dar None (no salió) y dio {show(got)}"
    if got is None:
        return "dio None, como si nunca hubiera salido"
    return number_difference(expected, got)


def _escape_step_run(name, fn, form):
    """fn(pasos, aciertos, umbral=0.6) -> first step whose accuracy is >= umbral, or None."""
    if not _is_function(fn):
        return wrong_input(name, "tu función (helpers.check.escape_step(paso_de_salida)), sin llamarla", fn)
    pasos = list(range(25, 301, 25))
    curve = [0.38, 0.39, 0.39, 0.40, 0.45, 0.52, 0.65, 0.81, 0.9, 0.95, 0.97, 0.98]
    probes = [Probe("sale en el paso 175", (pasos, curve, 0.6)),
              Probe("llega justo al umbral", ([25, 50, 75, 100], [0.4, 0.5, 0.6, 0.7], 0.6),
                    "aciertos [0.4, 0.5, 0.6, 0.7] en los pasos [25, 50, 75, 100]"),
              Probe("nunca sale", ([25, 50, 75], [0.39, 0.41, 0.40], 0.6), "aciertos [0.39, 0.41, 0.4]"),
              Probe("sale, cae y vuelve a salir", ([100, 200, 300, 400], [0.3, 0.62, 0.5, 0.7], 0.6),
                    "aciertos [0.3, 0.62, 0.5, 0.7] en los pasos [100, 200, 300, 400]"),
              Probe("umbral de 90 %", (pasos, curve, 0.9), "la curva del primer caso, umbral = 0.9"),
              Probe("sale en la primera evaluación", ([10, 20], [0.7, 0.8], 0.6), "aciertos [0.7, 0.8]")]
    return diagnose(name, fn, form.reference, GALLERY["escape_step"], probes, _escape_differ, _hint_line(name))


# --------------------------------------------------------------------------------------------- the list
S = solutions
layer_norm = Exercise("layer_norm", {None: Form(S.mi_layer_norm, (
    "Para cada token, la media y la varianza van sobre su última dimensión: dim=-1, con keepdim=True para "
    "poder restar y dividir. La varianza divide por d: unbiased=False.",
    "x̂ = (x − media) / √(var + ε). ε va adentro de la raíz: así un token constante da 0 y no nan.",
    "Al final, gamma * x_hat + beta: γ multiplica, β suma."), "layer_norm")}, _layer_norm_run)

rms_norm = Exercise("rms_norm", {None: Form(S.mi_rms_norm, (
    "RMSNorm no resta la media: divide x por RMS = √(media(x²) + ε), sobre la última dimensión.",
    "x.pow(2).mean(dim=-1, keepdim=True), sumale eps, sacale la raíz, dividí x por eso y multiplicá por gamma."),
    "rms_norm")}, _rms_norm_run)

ffn = Exercise("ffn", {None: Form(S.MiFFN, (
    "En __init__, dos nn.Linear guardadas en self: d_model → d_ff y d_ff → d_model.",
    "En forward: lineal2(ReLU(lineal1(x))). nn.Linear actúa sobre la última dimensión, así que cada token va por "
    "separado sin que hagas nada más.",
    "La ReLU va entre las dos lineales, no al final: F.relu(...) o nn.ReLU()."), "ffn")}, _ffn_run)

residual = Exercise("residual", {
    None: Form(S.paso_residual, (
        "La subcapa calcula una corrección; el residual se la suma a lo que ya venía por la corriente.",
        "Es una línea: return x + subcapa(x)."), "residual"),
    "pre": Form(S.paso_pre, (
        "Pre-norm normaliza lo que entra a la subcapa, no la corriente.",
        "La suma lleva la x sin normalizar: x + subcapa(ln(x))."), "residual/pre")},
    _residual_run, form_name="norm")

block_forward = Exercise("block_forward", {
    "pre": Form(S.BloquePre, (
        "Dos subcapas; para cada una: normalizá su entrada, pasala por la subcapa, aplicá self.drop y sumalo a x.",
        "x = x + self.drop(self.atencion(self.ln1(x))); después lo mismo con self.ffn y self.ln2.",
        "Usá self.drop y no F.dropout: nn.Dropout se apaga solo con .eval()."), "block_forward/pre"),
    "post": Form(S.BloquePost, (
        "Post-norm, el del paper: subcapa, dropout, suma con x, y recién ahí LayerNorm.",
        "x = self.ln1(x + self.drop(self.atencion(x))); después lo mismo con self.ffn y self.ln2."),
        "block_forward/post")},
    _block_run, form_name="norm")

causal_mask = Exercise("causal_mask", {None: Form(S.mascara_causal, (
    "Una matriz T × T: la fila i es el token que mira, la columna j el token mirado. Prohibido: j > i, el futuro.",
    "j > i es lo que queda arriba de la diagonal: torch.triu(..., diagonal=1).",
    "En bool, True significa prohibido: torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)."),
    "causal_mask")}, _causal_mask_run)

param_count = Exercise("param_count", {
    "ffn": Form(S.params_ffn, (
        "Dos matrices (d_model × d_ff y d_ff × d_model) y dos sesgos, uno por cada salida.",
        "El sesgo de la primera capa tiene d_ff números; el de la segunda, d_model."), "param_count/ffn"),
    "block": Form(S.params_bloque, (
        "Tres partes: la atención (cuatro matrices d × d y sus sesgos), la FFN y dos LayerNorm.",
        "Atención: 4d² + 4d. Cada LayerNorm: γ y β, 2d. La FFN, la del ejercicio del notebook 01."),
        "param_count/block"),
    "gpt": Form(S.params_gpt, (
        "Embeddings (de tokens y de posiciones), L bloques iguales y una LayerNorm final. La salida reusa la "
        "matriz de los embeddings de tokens.",
        "Un bloque con d_ff = 4d: (4d² + 4d) + (8d² + 5d) + 4d. Posiciones: ctx × d.",
        "Sumá: vocab·d + ctx·d + L·bloque + 2d."), "param_count/gpt")},
    _param_count_run, form_name="model")

warmup = Exercise("warmup", {None: Form(S.lr_warmup, (
    "Durante el warmup el learning rate sube en línea recta y en el paso warmup llega a lr. Después se queda ahí.",
    "lr * min(1, paso / warmup), con el paso 1 como el primero.",
    "warmup = 0 quiere decir sin warmup: devolvé lr, sin dividir por cero."), "warmup")}, _warmup_run)

escape_step = Exercise("escape_step", {None: Form(S.paso_de_salida, (
    "Recorré las dos listas juntas, zip(pasos, aciertos), y devolvé el paso de la primera evaluación que llega "
    "al umbral (≥).",
    "Si el bucle termina sin devolver nada, no salió: return None."), "escape_step")}, _escape_step_run)

EXERCISES = {e.name: e for e in (layer_norm, rms_norm, ffn, residual, block_forward, causal_mask, param_count,
                                 warmup, escape_step)}
