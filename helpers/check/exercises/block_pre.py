"""Notebook 04 · ``class BloquePre(nn.Module)``: its ``__init__`` (attn, ffn, ln1, ln2, drop) and ``atencion`` are
given; the learner writes the pre-norm ``forward``. Checked by ``helpers.check.block_pre(BloquePre)``: built fresh at
two sizes, compared in eval mode with the reference on the learner's own weights, then in training mode under the
same random draws, so where the dropout goes shows."""

from __future__ import annotations

import copy
import types

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
    diagnose,
    run_learner,
    seed_cpu,
    seeded_generator,
    tensor_difference,
)

ORDER = ("04", 1)  # notebook 04, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source (the given __init__ and atencion, and the forward)
class BloquePre(nn.Module):
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def atencion(self, x):  # (B, T, d) → (B, T, d)
        return self.attn(x, x, x, need_weights=False)[0]

    def forward(self, x):
        x = x + self.drop(self.atencion(self.ln1(x)))  # normalizo la entrada de cada subcapa...
        return x + self.drop(self.ffn(self.ln2(x)))     # ...y la suma queda limpia


HINTS = (
    "Dos subcapas, cada una con su LayerNorm: la atención usa ln1 y la FFN, ln2. En pre-norm la LayerNorm va sobre "
    "lo que entra a la subcapa; la corriente misma no se normaliza.",
    "Para cada subcapa: normalizá la corriente, pasala por la subcapa (self.atencion o self.ffn), aplicale self.drop "
    "a lo que sale y sumáselo a la corriente sin normalizar. La FFN lee la corriente que ya tiene sumada la atención.",
    "El dropout va solo sobre lo que sale de cada subcapa: ni sobre la suma, ni sobre la entrada. Usá self.drop "
    "(un nn.Dropout), que .eval() apaga.",
)

SIZES = [{}, {"d_model": 16, "n_heads": 2, "d_ff": 40, "dropout": 0.3}]  # the notebook's defaults, and others
_PARTS = ("attn", "ffn", "ln1", "ln2", "drop", "atencion")


# ---- the known mistakes that show in eval mode, written the way learners write them
mistakes = Gallery()


@mistakes.add("post_norm", "Escribiste post-norm (LayerNorm después de cada suma, como el paper); se pedía "
                           "pre-norm: LayerNorm antes de cada subcapa, y la suma limpia.",
              label="post-norm en vez de pre-norm", section="1. Dónde va la normalización",
              question="Escribí las líneas de post-norm y de pre-norm: ¿en cuál la corriente entera pasa por una "
                       "LayerNorm en cada subcapa?")
def _post_norm(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln2(x + self.drop(self.ffn(x)))


@mistakes.add("no_residuals", "Faltan los dos residuales: cada subcapa reemplaza a la corriente en vez de sumarse.",
              label="sin residuales",
              question="¿Qué le pasa a la x que entra al bloque si cada subcapa la reemplaza?")
def _no_residuals(self, x):
    x = self.drop(self.atencion(self.ln1(x)))
    return self.drop(self.ffn(self.ln2(x)))


@mistakes.add("no_attention_residual", "Falta el residual de la atención: su salida reemplaza a la corriente en vez "
                                       "de sumarse. El de la FFN está bien.",
              label="sin el residual de la atención",
              question="¿Cuántas sumas tiene un bloque? ¿Qué se suma en cada una?")
def _no_attention_residual(self, x):
    x = self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln2(x)))


@mistakes.add("no_ffn_residual", "Falta el residual de la FFN: su salida reemplaza a la corriente en vez de sumarse. "
                                 "El de la atención está bien.",
              label="sin el residual de la FFN",
              question="Después de la FFN, ¿qué se suma, y a qué?")
def _no_ffn_residual(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return self.drop(self.ffn(self.ln2(x)))


@mistakes.add("normalized_skip", "Sumaste la x ya normalizada: el residual lleva la corriente de antes de LayerNorm.",
              label="suma la x normalizada", section="1. Dónde va la normalización",
              question="En pre-norm, ¿qué viaja por el residual: x o LN(x)?")
def _normalized_skip(self, x):
    h = self.ln1(x)
    x = h + self.drop(self.atencion(h))
    h = self.ln2(x)
    return h + self.drop(self.ffn(h))


@mistakes.add("parallel", "Las dos subcapas leyeron la misma x: la FFN tiene que leer la corriente que ya tiene "
                          "sumada la salida de la atención.",
              label="las dos subcapas leen la misma x",
              question="¿Qué lee la FFN: la x que entró al bloque o la corriente que ya tiene sumada la atención?")
def _parallel(self, x):
    return x + self.drop(self.atencion(self.ln1(x))) + self.drop(self.ffn(self.ln2(x)))


@mistakes.add("ln1_twice", "Usaste ln1 dos veces: la FFN tiene su propia LayerNorm, ln2, con sus γ y β.",
              label="ln1 dos veces",
              question="¿Por qué cada subcapa tiene su propia LayerNorm? ¿Qué aprende cada una?")
def _ln1_twice(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln1(x)))


@mistakes.add("swapped_norms", "Cruzaste las LayerNorm: la atención va con ln1 y la FFN con ln2.",
              label="ln1 y ln2 cruzadas",
              question="¿Qué LayerNorm va con qué subcapa? ¿Se nota el cambio con un bloque recién creado?")
def _swapped_norms(self, x):
    x = x + self.drop(self.atencion(self.ln2(x)))
    return x + self.drop(self.ffn(self.ln1(x)))


@mistakes.add("skip_ln2", "Falta una LayerNorm, la de la FFN: la segunda subcapa también recibe su entrada "
                          "normalizada, con ln2.",
              label="falta ln2", section="1. Dónde va la normalización",
              question="En pre-norm, ¿cuántas LayerNorm lleva un bloque y dónde va cada una?")
def _skip_ln2(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(x))


@mistakes.add("skip_ln1", "Falta una LayerNorm, la de la atención: la primera subcapa recibe su entrada normalizada, "
                          "con ln1.",
              label="falta ln1", section="1. Dónde va la normalización",
              question="En pre-norm, ¿cuántas LayerNorm lleva un bloque y dónde va cada una?")
def _skip_ln1(self, x):
    x = x + self.drop(self.atencion(x))
    return x + self.drop(self.ffn(self.ln2(x)))


@mistakes.add("sandwich", "Sobra una LayerNorm: normalizaste también lo que sale de cada subcapa, x + LN(F(LN(x))). "
                          "Eso es la variante sándwich; pre-norm normaliza solo la entrada.",
              label="sándwich", section="3. Las tres variantes en una clase",
              question="Post-norm, pre-norm y sándwich: ¿cuántas LayerNorm lleva cada bloque, y dónde?")
def _sandwich(self, x):
    x = x + self.drop(self.ln1(self.atencion(self.ln1(x))))
    return x + self.drop(self.ln2(self.ffn(self.ln2(x))))


@mistakes.add("pre_and_post", "Sobra una LayerNorm: además de la entrada de cada subcapa normalizaste la suma, "
                              "LN(x + F(LN(x))). Pre-norm deja la corriente sin normalizar.",
              label="normaliza también la suma", section="1. Dónde va la normalización",
              question="Si además normalizás la suma, ¿la corriente sigue siendo x más los aportes?")
def _pre_and_post(self, x):
    x = self.ln1(x + self.drop(self.atencion(self.ln1(x))))
    return self.ln2(x + self.drop(self.ffn(self.ln2(x))))


@mistakes.add("final_layer_norm", "Sobra una LayerNorm al final del bloque: en pre-norm la corriente sale sin "
                                  "normalizar. La LayerNorm final va una sola vez, después del último bloque de la "
                                  "pila, no en cada bloque.",
              label="LayerNorm al final del bloque", section="4. El desvío, bloque tras bloque",
              question="¿Por qué pre-norm necesita una LayerNorm al final de la pila, y una sola?")
def _final_layer_norm(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    x = x + self.drop(self.ffn(self.ln2(x)))
    return F.layer_norm(x, x.shape[-1:])


# ---- the known mistakes that show only in training: where the dropout goes
dropout_mistakes = Gallery()


@dropout_mistakes.add("dropout_unused", "En evaluación da lo correcto, pero nunca usás self.drop: entrenando, el "
                                        "bloque no aplica dropout a lo que sale de cada subcapa.",
                      label="no usa el dropout",
                      question="¿Dónde pone el paper el dropout de cada subcapa? ¿Por qué en evaluación no se nota si "
                               "falta?")
def _dropout_unused(self, x):
    x = x + self.atencion(self.ln1(x))
    return x + self.ffn(self.ln2(x))


@dropout_mistakes.add("dropout_on_sum", "Aplicaste el dropout a la suma, self.drop(x + subcapa(…)): así apaga también "
                                        "números de la corriente x, que tiene que pasar entera. Va solo sobre lo que "
                                        "sale de la subcapa, antes de sumarlo.",
                      label="dropout sobre la suma",
                      question="¿Por qué el dropout va sobre lo que sale de la subcapa y no sobre x + subcapa(…)?")
def _dropout_on_sum(self, x):
    x = self.drop(x + self.atencion(self.ln1(x)))
    return self.drop(x + self.ffn(self.ln2(x)))


@dropout_mistakes.add("dropout_attention_only", "Usás self.drop solo en la atención: la salida de la FFN también "
                                                "lleva dropout antes de sumarse.",
                      label="dropout solo en la atención",
                      question="¿Cuántas veces aplica self.drop el forward, y sobre qué?")
def _dropout_attention_only(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.ffn(self.ln2(x))


@dropout_mistakes.add("dropout_ffn_only", "Usás self.drop solo en la FFN: la salida de la atención también lleva "
                                          "dropout antes de sumarse.",
                      label="dropout solo en la FFN",
                      question="¿Cuántas veces aplica self.drop el forward, y sobre qué?")
def _dropout_ffn_only(self, x):
    x = x + self.atencion(self.ln1(x))
    return x + self.drop(self.ffn(self.ln2(x)))


@dropout_mistakes.add("dropout_on_sublayer_input", "Pusiste el dropout a la entrada de la subcapa, después de la "
                                                   "LayerNorm: va a la salida de la subcapa, antes de sumarla.",
                      label="dropout a la entrada de la subcapa",
                      question="¿El dropout del paper va a la entrada de la subcapa o a su salida?")
def _dropout_on_sublayer_input(self, x):
    x = x + self.atencion(self.drop(self.ln1(x)))
    return x + self.ffn(self.drop(self.ln2(x)))


@dropout_mistakes.add("dropout_before_norm", "Pusiste el dropout antes de la LayerNorm, sobre la corriente que entra: "
                                             "va a la salida de la subcapa, antes de sumarla.",
                      label="dropout antes de la LayerNorm",
                      question="¿El dropout del paper va sobre la corriente que entra o sobre lo que sale de la "
                               "subcapa?")
def _dropout_before_norm(self, x):
    x = x + self.atencion(self.ln1(self.drop(x)))
    return x + self.ffn(self.ln2(self.drop(x)))


@dropout_mistakes.add("dropout_twice", "Aplicaste self.drop dos veces seguidas a cada salida: apaga más de lo que "
                                       "dice p. Va una sola vez.",
                      label="dropout dos veces",
                      question="Si aplicás dos veces seguidas un dropout de p = 0.1, ¿qué fracción queda apagada?")
def _dropout_twice(self, x):
    x = x + self.drop(self.drop(self.atencion(self.ln1(x))))
    return x + self.drop(self.drop(self.ffn(self.ln2(x))))


@dropout_mistakes.add("dropout_fixed_p", "Escribiste la probabilidad del dropout como un número fijo (0.1): con "
                                         "BloquePre(dropout=0.3) sigue apagando el 10 %. Usá self.drop, que trae la p "
                                         "con la que se construyó el bloque.",
                      label="p del dropout fija",
                      question="¿Por qué self.drop y no F.dropout(x, 0.1)? ¿Qué pasa con BloquePre(dropout=0.3)?")
def _dropout_fixed_p(self, x):
    x = x + F.dropout(self.atencion(self.ln1(x)), 0.1, self.training)
    return x + F.dropout(self.ffn(self.ln2(x)), 0.1, self.training)


# ---- the check
def _label(name: str, kwargs: dict) -> str:
    return f"{name}(" + ", ".join(f"{k}={v}" for k, v in kwargs.items()) + ")"


def _run(training: bool, learner=None):
    """A runner: the learner's forward bound to the learner's block, every other candidate (the reference, the known
    mistakes) bound to the checker's twin of it; in the given mode; training draws from seed 11."""
    def run(fn, probe: Probe):
        block = probe.extra["block"] if fn is learner else probe.extra["twin"]
        block.train(training)
        if training:
            seed_cpu(11)
        return run_learner(types.MethodType(fn, block), *probe.fresh_args())
    return run


def _twin(block: nn.Module):
    """The statement's BloquePre, built here (never from the learner's modules), carrying the learner's weights part
    by part; None when the learner's parts do not hold the statement's weights (another __init__)."""
    linears = [m for m in block.ffn.modules() if isinstance(m, nn.Linear)] if isinstance(block.ffn, nn.Module) else []
    if not linears or not isinstance(block.attn, nn.MultiheadAttention) or not isinstance(block.drop, nn.Dropout):
        return None
    seed_cpu(0)
    twin = BloquePre(block.attn.embed_dim, block.attn.num_heads, linears[0].out_features, block.drop.p)
    twin.attn.dropout = 0.0
    for part in ("attn", "ffn", "ln1", "ln2"):
        mine, theirs = list(getattr(twin, part).parameters()), list(getattr(block, part).parameters())
        if [p.shape for p in mine] != [p.shape for p in theirs]:
            return None
        for a, b in zip(mine, theirs):
            a.copy_(b)
    return twin


def _structure_problem(ex: Exercise, block: nn.Module, evidence: str):
    """When the learner's own modules differ from the statement's in a way that changes the result, say which."""
    if not block.attn.batch_first:
        return ex.wrong("Tu self.attn usa batch_first=False: espera (tokens, batch, d_model), y el bloque recibe "
                        "(batch, tokens, d_model), así que la atención mezcla las frases del batch entre sí. El "
                        "__init__ del enunciado la crea con batch_first=True.\n" + evidence,
                        "attention_not_batch_first", hint=False)
    if any(isinstance(m, nn.Dropout) for m in block.ffn.modules()):
        return ex.wrong("Tu self.ffn tiene un nn.Dropout adentro; la FFN del enunciado no lo tiene: el dropout del "
                        "bloque va una sola vez, con self.drop, sobre lo que sale de cada subcapa.\n" + evidence,
                        "dropout_in_ffn", hint=False)
    return None


def _blocks(ex: Exercise, cls, instance):
    """[(label, block)]: a copy of the learner's instance (if given) and the class built at every size; γ and β far
    from 1 and 0, so which LayerNorm is used, and where, shows. Or the Verdict when building fails."""
    blocks = [] if instance is None else [("tu bloque", copy.deepcopy(instance))]  # the learner's stays as it is
    for kwargs in SIZES:
        block = build_fresh(cls, **kwargs)
        if isinstance(block, Raised):
            return ex.wrong(f"Tu clase falló al crearla con {_label(cls.__name__, kwargs)}: {block.describe()}.\n"
                            "El __init__ es el del enunciado: no le cambies los argumentos.", "raised", hint=False)
        blocks.append((_label(cls.__name__, kwargs), block))
    g = seeded_generator(7)
    for _, block in blocks:
        missing = [part for part in _PARTS if not hasattr(block, part)]
        if missing:
            return ex.wrong(f"Tu clase no tiene {', '.join(missing)}: el __init__ del enunciado ya los crea; no les "
                            "cambies los nombres.", "missing_parts", hint=False)
        for ln in (block.ln1, block.ln2):
            ln.weight.copy_(torch.rand(ln.weight.shape, generator=g) + 0.5)
            ln.bias.copy_(torch.randn(ln.bias.shape, generator=g))
        block.attn.dropout = 0.0  # only the dropout the learner writes moves in training mode
    twins = [_twin(block) for _, block in blocks]
    if None in twins:
        return ex.wrong("Tu __init__ no es el del enunciado: self.attn, self.ffn, self.ln1, self.ln2 y self.drop no "
                        "tienen los pesos que crea el enunciado. Dejá el __init__ como está y escribí solo el "
                        "forward.", "init_changed", hint=False)
    return [(label, block, twin) for (label, block), twin in zip(blocks, twins)]


def _probes(blocks, mode: str) -> list[Probe]:
    """Two inputs per block, the same draws for every mode."""
    g = seeded_generator(8)
    out = []
    for label, block, twin in blocks:
        d = block.ln1.normalized_shape[0]
        for shape, scale in (((2, 5, d), 2.0), ((1, 3, d), 3.0)):
            x = torch.randn(*shape, generator=g) * scale + 0.5
            out.append(Probe(f"{shape[0]} × {shape[1]} tokens, {label}{mode}", (x,), "",
                             {"block": block, "twin": twin}))
    return out


def _dropout_always_on(ex: Exercise, cls, probes: list[Probe]):
    """The Verdict when eval mode gives two results for one input (a dropout .eval() does not turn off)."""
    for probe in probes[::2]:
        first, again = _run(False, cls.forward)(cls.forward, probe), _run(False, cls.forward)(cls.forward, probe)
        if (isinstance(first, torch.Tensor) and isinstance(again, torch.Tensor) and first.shape == again.shape
                and tensor_difference(first, again)):
            return ex.wrong("En modo evaluación tu bloque da dos resultados distintos para la misma entrada: hay un "
                            "dropout que no se apaga. F.dropout(h, p) queda prendido siempre (training=True por "
                            "defecto); usá self.drop, un nn.Dropout, que .eval() apaga.", "dropout_always_on")
    return None


def assess(ex: Exercise, answer):
    """a class like the notebook's (attn, ffn, ln1, ln2, drop, atencion given) whose forward is pre-norm."""
    opened = class_answer(ex, answer)
    if isinstance(opened, Verdict):
        return opened
    cls, instance = opened
    blocks = _blocks(ex, cls, instance)
    if isinstance(blocks, Verdict):
        return blocks
    evaluating = _probes(blocks, "")
    problem = _dropout_always_on(ex, cls, evaluating)
    if problem:
        return problem
    training = _probes(blocks, ", entrenando")
    for mode, gallery, probes in ((False, mistakes, evaluating), (True, dropout_mistakes, training)):
        finding = diagnose(cls.forward, BloquePre.forward, gallery, probes, tensor_difference,
                           runner=_run(mode, cls.forward))
        if finding.kind == "correct":
            continue
        problem = next((p for p in (_structure_problem(ex, b, finding.evidence) for _, b, _ in blocks) if p), None)
        if problem or finding.kind != "unknown" or not mode:
            return problem or ex.judge(finding)
        return ex.wrong("En modo evaluación da lo correcto, pero entrenando no: con las mismas tiradas al azar que la "
                        "referencia, tu dropout no cae donde va, sobre lo que sale de cada subcapa antes de sumarlo. "
                        + finding.evidence, "dropout_placement")
    sizes = " y ".join(label for label, _, _ in blocks)
    return ex.judge(finding, "Pre-norm, con los dos residuales: en evaluación da lo mismo que la referencia con tus "
                             "mismos pesos, y entrenando, con las mismas tiradas al azar, el dropout cae donde va, "
                             f"sobre lo que sale de cada subcapa. Probado con {sizes}.")


checker = Exercise("block_pre", reference=BloquePre, hints=HINTS, assess=assess,
                   mistakes=[*mistakes, *dropout_mistakes], expects="tu clase, sin crearla (sin paréntesis)",
                   section="2. El bloque del paper, en una clase",
                   problems={
                       "attention_not_batch_first": "una atención sin batch_first",
                       "dropout_in_ffn": "un dropout de más adentro de la FFN",
                       "missing_parts": "le faltan piezas del __init__",
                       "init_changed": "cambió el __init__ del enunciado",
                       "dropout_always_on": "aplica el dropout también en evaluación",
                       "dropout_placement": "el dropout en otro lugar",
                   })
