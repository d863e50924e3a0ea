"""Notebook 01 · ``class MiFFN(nn.Module)`` with ``__init__(self, d_model, d_ff)``: the paper's position-wise FFN,
two ``nn.Linear`` with a ReLU between them. Checked by ``helpers.check.ffn(MiFFN)``: the class is built fresh at
three sizes, so a size written as a fixed number shows."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # the name the notebooks use
from torch import nn

from .._core import (
    Exercise,
    Gallery,
    Probe,
    Raised,
    Verdict,
    build_fresh,
    class_answer,
    explain_count,
    kind_of,
    run_learner,
    same_result,
    seeded_generator,
    show_evidence,
    tensor_difference,
    unregistered,
)

ORDER = ("01", 1)  # notebook 01, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source
class MiFFN(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.lineal1 = nn.Linear(d_model, d_ff)  # d_model → d_ff, con sesgo
        self.lineal2 = nn.Linear(d_ff, d_model)  # d_ff → d_model, con sesgo

    def forward(self, x):  # (B, T, d_model) → (B, T, d_model), cada token por separado
        return self.lineal2(F.relu(self.lineal1(x)))


HINTS = (
    "En __init__ van dos capas nn.Linear, cada una guardada en un atributo de self (así PyTorch registra sus pesos): "
    "una sube de d_model a d_ff y la otra vuelve.",
    "Usá los tamaños que recibe __init__, no números fijos: el control construye tu clase con varios. En forward, "
    "el orden es primera lineal, activación, segunda lineal.",
    "La activación del paper es la ReLU, y va una sola vez: entre las dos lineales, no al final.",
)

SIZES = [(8, 40), (6, 20), (3, 7)]  # (d_model, d_ff): d_ff is never 4·d_model, and no two sizes agree


# ---- the known mistakes, written the way learners write them (the checker gives them the learner's weights)
mistakes = Gallery()


@mistakes.add("no_activation", "Falta la activación: dos lineales seguidas son una sola lineal (W2·W1), y la FFN no "
                                "puede aprender nada que no sea lineal. Va una ReLU entre las dos.",
              label="sin activación",
              question="Si sacamos la ReLU, ¿qué queda de W₂(W₁x + b₁) + b₂? ¿Cuántas capas lineales son, en "
                       "realidad?")
class _NoActivation(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.l2(self.l1(x))


@mistakes.add("activation_last", "La activación está después de la segunda lineal: la salida nunca es negativa y no "
                                  "hay nada no lineal entre las dos capas. Va en el medio.",
              label="ReLU después de la segunda lineal",
              question="Si la ReLU va al final, ¿puede la FFN devolver un número negativo? ¿Y qué se suma entonces a "
                       "la corriente?")
class _ActivationLast(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return F.relu(self.l2(self.l1(x)))


@mistakes.add("activation_first", "La activación está antes de la primera lineal, sobre la entrada: la ReLU va entre "
                                   "las dos lineales, sobre las d_ff neuronas.",
              label="ReLU sobre la entrada",
              question="¿Qué números apaga la ReLU de la FFN del paper: los d_model de la entrada o las d_ff neuronas "
                       "del medio?")
class _ActivationFirst(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.l2(self.l1(F.relu(x)))


@mistakes.add("two_activations", "Pusiste una ReLU también después de la segunda lineal: la salida no puede ser "
                                  "negativa, y se suma a la corriente residual. En el paper hay una sola, en el medio.",
              label="dos ReLU",
              question="La salida de la FFN se suma a la corriente: ¿qué perdemos si nunca puede ser negativa?")
class _TwoActivations(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return F.relu(self.l2(F.relu(self.l1(x))))


@mistakes.add("gelu", "Usaste GELU: es la de GPT y BERT. Este ejercicio pide la FFN del paper, con ReLU.",
              label="GELU en vez de ReLU", section="2. La FFN del paper",
              question="¿Qué activación escribe la ecuación (2) del paper? ¿Cuál usa GPT-2 (ejercicio 3)?")
class _Gelu(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.l2(F.gelu(self.l1(x)))


@mistakes.add("residual_inside", "Sumaste x adentro de la FFN: el residual lo pone el bloque, alrededor de la FFN. "
                                  "La FFN devuelve solo lineal2(activación(lineal1(x))).",
              label="residual adentro de la FFN",
              question="¿Quién suma la x: la FFN o el bloque que la envuelve? ¿Qué pasaría si la sumaran los dos?")
class _ResidualInside(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return x + self.l2(F.relu(self.l1(x)))


# ---- the check
def _linears(module: nn.Module, d: int) -> list[nn.Linear]:
    """The registered nn.Linear layers, the one reading d_model first."""
    found = [m for m in module.modules() if isinstance(m, nn.Linear)]
    if len(found) == 2 and found[0].in_features != d and found[1].in_features == d:
        found.reverse()
    return found


def _twin(cls, d: int, h: int, up: nn.Linear, down: nn.Linear) -> nn.Module:
    """An instance of ``cls`` (a known mistake) carrying the learner's weights."""
    twin = cls(d, h)
    for mine, theirs in zip(_linears(twin, d), (up, down)):
        mine.weight.copy_(theirs.weight)
        mine.bias.copy_(theirs.bias if theirs.bias is not None else torch.zeros_like(mine.bias))
    return twin.eval()


def _sizes_problem(name: str, d: int, h: int, up: nn.Linear, down: nn.Linear):
    """(sentence, key) when the layers' sizes are not d_model → d_ff → d_model for ``name(d, h)``; else None."""
    built = f"Con {name}({d}, {h})"
    if up.in_features != d:
        return (f"{built} tu primera lineal recibe {up.in_features} números: tu clase usa d_model = {up.in_features} "
                f"aunque se le pidió {d}. ¿Quedó un número fijo?", "hard_coded_size")
    if up.out_features != h:
        if up.out_features == d:
            return (f"{built} la capa oculta tiene {d} neuronas, d_model, y se le pidió d_ff = {h}: ¿pusiste "
                    "d_model donde iba d_ff?", "hidden_is_d_model")
        if up.out_features == 4 * d:
            return (f"{built} la capa oculta tiene 4·d_model = {4 * d} neuronas aunque se le pidió d_ff = {h}: usá el "
                    "d_ff que recibe __init__.", "hidden_is_4d")
        return (f"{built} tu clase usa d_ff = {up.out_features} aunque se le pidió {h}: ¿quedó un número fijo?",
                "hard_coded_size")
    if (down.in_features, down.out_features) != (h, d):
        return (f"{built} tus lineales no encadenan d_model → d_ff → d_model: van de {up.in_features} a "
                f"{up.out_features} y de {down.in_features} a {down.out_features}.", "layer_sizes")
    return None


def _built(ex: Exercise, cls, instance):
    """[(d, h, module in eval mode)] for every size, or the Verdict when building fails."""
    built = []
    for d, h in SIZES:
        module = build_fresh(cls, d, h)
        if isinstance(module, Raised):
            if instance is not None:
                return ex.wrong(f"Le pasaste un objeto ya construido ({type(instance).__name__}); el control "
                                "necesita la clase, para construirla con varios tamaños: helpers.check.ffn(MiFFN), "
                                "sin paréntesis después del nombre.", "instance_not_class", hint=False)
            signature = ("\n¿Tu __init__ recibe d_model y d_ff?" if isinstance(module.error, TypeError)
                         and "positional argument" in str(module.error) else "")
            return ex.wrong(f"Tu clase falló al crearla con {cls.__name__}({d}, {h}): {module.describe()}.{signature}",
                            "raised")
        built.append((d, h, module.eval()))
    return built


def _layers_problem(ex: Exercise, name: str, built):
    """The Verdict when the layers are not two registered nn.Linear of the sizes asked for; else None."""
    for d, h, module in built:
        layers, lists = _linears(module, d), unregistered(module)
        if len(layers) != 2 and lists:
            return ex.wrong(f"Guardaste las capas en una lista de Python ({lists[0]}): PyTorch no las registra, "
                            "así que no aparecen en .parameters() y no se entrenarían. Usá nn.ModuleList (o "
                            "nn.Sequential), o guardá cada capa en su propio atributo de self.", "unregistered_layers")
        if len(layers) != 2:
            return ex.wrong(f"Encontré {len(layers)} capas nn.Linear registradas en tu FFN; la del paper tiene dos, "
                            "d_model → d_ff y d_ff → d_model.", "linear_count")
        problem = _sizes_problem(name, d, h, *layers)
        if problem:
            return ex.wrong(*problem)
    return None


def _cases(ex: Exercise, name: str, built, g):
    """[(probe, expected, got, d, h, layers)] on two inputs per size, or the Verdict for an output of no use."""
    cases = []
    for d, h, module in built:
        up, down = _linears(module, d)
        for label, x in ((f"2 frases × 5 tokens, {name}({d}, {h})", torch.randn(2, 5, d, generator=g)),
                         (f"una frase de un token, {name}({d}, {h})", torch.randn(1, 1, d, generator=g) * 3)):
            probe = Probe(label, (x,), f"x de forma {tuple(x.shape)}")
            out = run_learner(module, x.clone())
            if isinstance(out, Raised):
                dtype = ("\nLas entradas de prueba son float32, como en el notebook: ¿tu código crea algo en otro "
                         "tipo?") if out.dtype_mixup() else ""
                return ex.wrong(f"Tu FFN falló con la entrada {probe.describe()}: {out.describe()}.{dtype}", "raised")
            if out is None:
                return ex.wrong("Tu forward no devuelve nada (da None): ¿te falta el `return`?", "no_return")
            if not isinstance(out, torch.Tensor) or out.shape != x.shape:
                return ex.wrong(f"Con la entrada {probe.describe()} tu FFN devuelve {kind_of(out)}: tiene que "
                                "devolver la misma forma que recibe, (B, T, d_model).", "shape")
            cases.append((probe, down(F.relu(up(x))), out, d, h, (up, down)))
    return cases


def _mixes_tokens(ex: Exercise, module: nn.Module, case, g):
    """Each token on its own: change one token, the others must not move (the Verdict when they do)."""
    probe, _, first, d, _, _ = case
    x = probe.args[0].clone()
    x[0, 3] = torch.randn(d, generator=g) * 3
    moved = run_learner(module, x)
    if isinstance(moved, torch.Tensor) and moved.shape == first.shape:
        others = torch.ones(first.shape[:-1], dtype=torch.bool)
        others[0, 3] = False
        leak = (moved - first)[others].abs().max().item()
        if leak > 1e-5:
            return ex.wrong("Tu FFN mezcla tokens: cambié solo el token 3 de la frase 0 y se movió la salida de "
                            f"otros tokens (hasta {leak:.3g}). La FFN trata a cada token por separado: nn.Linear "
                            "actúa sobre la última dimensión, sin mirar a lo largo de T.", "mixes_tokens")
    return None


def _value_problem(ex: Exercise, cases):
    """The Verdict when the outputs differ from the reference on the learner's weights: a known mistake or not."""
    diffs = [tensor_difference(e, o) for _, e, o, *_ in cases]
    if not any(diffs):
        return None
    i = next(i for i, diff in enumerate(diffs) if diff)
    evidence = show_evidence(cases[i][0], cases[i][1], cases[i][2], diffs[i])
    for mistake in ex.mistakes:
        twins = {}
        for _, _, _, d, h, layers in cases:
            if d not in twins:
                twins[d] = _twin(mistake.fn, d, h, *layers)
        if all(same_result(twins[d](probe.args[0]), out) for probe, _, out, d, h, _ in cases):
            return ex.wrong(f"{mistake.message}\n{evidence}", mistake.key)
    return ex.wrong("No reconozco el error como uno de los típicos; comparé con lineal2(ReLU(lineal1(x))) usando "
                    f"tus mismos pesos. {evidence}", "unknown")


def _count_problem(ex: Exercise, name: str, built):
    """The Verdict when the module has more or fewer parameters than the paper's FFN; else None."""
    counts = [(d, h, sum(p.numel() for p in module.parameters())) for d, h, module in built]
    wrong = [(d, h, c) for d, h, c in counts if c != 2 * d * h + h + d]
    if not wrong:
        return None
    d, h, c = wrong[0]
    why = explain_count([c - (2 * d * h + h + d) for d, h, c in counts], [_terms(d, h) for d, h, _ in counts])
    return ex.wrong(f"Calcula bien, pero con {name}({d}, {h}) tiene {c} parámetros y la FFN del paper tiene "
                    f"2·d_model·d_ff + d_ff + d_model = {2 * d * h + h + d}: {why or 'no coincide'}.",
                    "parameter_count")


def assess(ex: Exercise, answer):
    """a class MiFFN(d_model, d_ff) (an instance of it also works): the paper's position-wise FFN."""
    opened = class_answer(ex, answer)  # of an instance only its class is used: the instance is left as it is
    if isinstance(opened, Verdict):
        return opened
    cls, instance = opened
    name = cls.__name__
    built = _built(ex, cls, instance)
    if isinstance(built, Verdict):
        return built
    g = seeded_generator(1)
    problem = _layers_problem(ex, name, built)
    cases = problem or _cases(ex, name, built, g)
    if isinstance(cases, Verdict):
        return cases
    problem = (_mixes_tokens(ex, built[0][2], cases[0], g) or _value_problem(ex, cases)
               or _count_problem(ex, name, built))
    if problem:
        return problem
    sizes = ", ".join(f"{name}({d}, {h})" for d, h in SIZES)
    return ex.correct(f"Dos lineales con la ReLU en el medio, cada token por separado, y los parámetros que tocan, "
                      f"con los tres tamaños que probé: {sizes}.")


def _terms(d: int, h: int) -> dict:
    return {"el sesgo de la primera capa (d_ff números)": h, "el sesgo de la segunda (d_model números)": d,
            "una matriz d_model × d_ff": d * h}


checker = Exercise("ffn", reference=MiFFN, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu clase, sin crearla (sin paréntesis)", section="2. La FFN del paper",
                   problems={
                       "instance_not_class": "le pasó un objeto en vez de la clase",
                       "unregistered_layers": "capas en una lista de Python, sin registrar",
                       "linear_count": "otra cantidad de capas lineales",
                       "hard_coded_size": "un tamaño fijo",
                       "hidden_is_d_model": "capa oculta de d_model neuronas",
                       "hidden_is_4d": "capa oculta de 4·d_model fijo",
                       "layer_sizes": "lineales que no encadenan sus tamaños",
                       "mixes_tokens": "mezcla tokens",
                       "parameter_count": "calcula bien, pero con otra cantidad de parámetros",
                   })
