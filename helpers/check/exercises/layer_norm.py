"""Notebook 03 · ``mi_layer_norm(x, gamma, beta, eps=1e-5)``: LayerNorm over the last axis of a tensor of any
leading shape (what ``nn.LayerNorm(d)`` does). Checked by ``helpers.check.layer_norm(mi_layer_norm)``."""

from __future__ import annotations

import torch

from .._core import Exercise, Gallery, Probe, seeded_generator, tensor_difference

ORDER = ("03", 1)  # notebook 03, its first exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def mi_layer_norm(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)                  # sobre los d números de cada token
    var = x.var(dim=-1, keepdim=True, unbiased=False)     # dividiendo por d, no por d - 1
    x_hat = (x - media) / torch.sqrt(var + eps)           # ε adentro de la raíz
    return gamma * x_hat + beta


HINTS = (
    "Cada token se normaliza con su propia media y su propia varianza, las de sus d números: la última dimensión. "
    "Para poder restar y dividir sin perder esa dimensión, keepdim=True.",
    "La varianza de LayerNorm divide por d, no por d − 1 (mirá qué hace unbiased=False). ε va adentro de la raíz: "
    "así un token constante da 0 y no nan.",
    "Al final, γ escala y β corre: los dos actúan después de normalizar, número a número.",
)


# ---- the inputs: several shapes and sizes, and the uncomfortable ones
def _probes() -> list[Probe]:
    g = seeded_generator(3)

    def affine(d):
        return torch.rand(d, generator=g) + 0.5, torch.randn(d, generator=g)

    four = torch.tensor([0.80, 0.95, 0.93, 1.33])
    const = torch.tensor([[3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 5.0]])
    return [
        Probe("los cuatro números del notebook", (four, torch.ones(4), torch.zeros(4), 1e-5),
               "x = [0.8, 0.95, 0.93, 1.33], γ = 1, β = 0, eps = 1e-5"),
        Probe("un batch de 2 frases × 3 tokens, d = 8", (torch.randn(2, 3, 8, generator=g) * 2 + 1, *affine(8), 1e-5),
               "x de forma (2, 3, 8)"),
        Probe("un token constante", (const, *affine(4), 1e-5), "x = [[3, 3, 3, 3], [1, 2, 3, 5]]"),
        Probe("σ chica y ε grande", (torch.randn(3, 5, generator=g) * 0.01, *affine(5), 0.1),
               "x de forma (3, 5) con σ ≈ 0.01, eps = 0.1"),
        Probe("d = 1", (torch.randn(3, 1, generator=g), *affine(1), 1e-5), "x de forma (3, 1)"),
        Probe("cuatro ejes, d = 6", (torch.randn(2, 2, 3, 6, generator=g) * 3 - 1, *affine(6), 1e-5),
               "x de forma (2, 2, 3, 6)"),
    ]


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("unbiased_variance", "Usaste la varianza con d − 1, la «corregida»: `x.var()` y `x.std()` la usan si "
                                   "no les pasás `unbiased=False`. LayerNorm divide por d.",
              label="varianza con d − 1", section="1. Cuatro números",
              question="¿Por qué LayerNorm divide por d y no por d − 1? ¿Qué da x.var() para [2, 4, 6, 8], y qué da "
                       "dividiendo por 4?")
def _unbiased(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@mistakes.add("std_plus_eps", "Dos convenciones cruzadas: la varianza con d − 1 (`x.std()` sin `unbiased=False`) y "
                              "ε sumado a σ, afuera de la raíz. LayerNorm divide por d y usa √(σ² + ε).",
              label="d − 1 y ε afuera (x.std() + ε)", section="1. Cuatro números",
              question="¿Qué dos convenciones usa The Annotated Transformer? ¿Cuál de las dos se nota con un token "
                       "casi constante?")
def _std_plus_eps(x, gamma, beta, eps=1e-5):
    return gamma * (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps) + beta


@mistakes.add("eps_outside", "Sumaste ε a σ, afuera de la raíz: (x − μ) / (σ + ε). Va adentro: √(σ² + ε). Con σ "
                             "grande no se nota; con σ chico, sí.",
              label="ε afuera de la raíz", section="3. ¿Para qué está ε?",
              question="Con el token [1.000, 1.001, 1.002, 1.003], ¿qué cambia entre √(σ² + ε) y σ + ε? ¿Cuál lo deja "
                       "con desvío cerca de 1?")
def _eps_outside(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    sigma = torch.sqrt(((x - media) ** 2).mean(-1, keepdim=True))
    return gamma * (x - media) / (sigma + eps) + beta


@mistakes.add("no_eps", "No usaste ε: con un token constante σ = 0, dividís por cero y sale nan.",
              label="sin ε", section="3. ¿Para qué está ε?",
              question="¿Qué sale de LayerNorm para un token de cuatro números iguales si no hay ε? ¿Qué le pasa al "
                       "entrenamiento después?")
def _no_eps(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = ((x - media) ** 2).mean(-1, keepdim=True)
    return gamma * (x - media) / torch.sqrt(var) + beta


@mistakes.add("fixed_eps", "Usaste un ε fijo (1e-5) en vez del `eps` que recibe la función.",
              label="ε fijo",
              question="¿Para qué recibe eps la función? ¿Qué pasa si alguien la llama con otro valor?")
def _fixed_eps(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + 1e-5) + beta


@mistakes.add("hard_coded_d", "Dividiste por 4, el d del ejemplo, con un número fijo: con otro d la media y la "
                              "varianza salen mal. Usá .mean(dim=-1), que divide por el d de cada entrada.",
              label="divide por 4 fijo",
              question="¿Qué hace .mean(dim=-1) que no hace dividir por 4? Probalo con un token de d = 8.")
def _hard_coded_d(x, gamma, beta, eps=1e-5):
    media = x.sum(-1, keepdim=True) / 4
    var = ((x - media) ** 2).sum(-1, keepdim=True) / 4
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@mistakes.add("batch_axis", "Normalizaste sobre el batch (dim=0): eso es lo que hace BatchNorm. LayerNorm mira las "
                            "d features de cada token, la última dimensión (dim=-1).",
              label="normaliza sobre el batch", section="4. ¿Cada token por su cuenta, o todo el batch?",
              question="En un batch de 8 ejemplos cambiamos solo el ejemplo 1: ¿cambia la salida del ejemplo 0 con "
                       "LayerNorm? ¿Y con BatchNorm?")
def _batch_axis(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=0, keepdim=True)
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@mistakes.add("token_axis", "Normalizaste sobre los tokens (dim=-2): mezclás tokens distintos. LayerNorm mira las d "
                            "features de cada token, la última dimensión (dim=-1).",
              label="normaliza sobre los tokens", section="4. ¿Cada token por su cuenta, o todo el batch?",
              question="¿Sobre qué números saca LayerNorm cada media: los d de un token o los T tokens de la frase? "
                       "¿Qué pasaría al cambiar un solo token?")
def _token_axis(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-2, keepdim=True)
    var = x.var(dim=-2, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@mistakes.add("all_axes", "Normalizaste todo el tensor de una vez (`x.mean()` sin `dim`): una sola media para "
                          "todos los tokens. LayerNorm normaliza cada token sobre su última dimensión (dim=-1).",
              label="una media para todo el tensor",
              question="Una frase de forma (2, 4): ¿qué forma tiene frase.mean()? ¿Y frase.mean(dim=-1)?")
def _all_axes(x, gamma, beta, eps=1e-5):
    return gamma * (x - x.mean()) / torch.sqrt(x.var(unbiased=False) + eps) + beta


@mistakes.add("no_gamma", "Ignoraste γ: el normalizado se multiplica por gamma antes de sumar beta.",
              label="sin γ", section="5. ¿Para qué sirven γ y β?",
              question="¿Para qué sirven γ y β si LayerNorm ya dejó media 0 y desvío 1? ¿Qué hace γ = 0 en una "
                       "dimensión?")
def _no_gamma(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return (x - media) / torch.sqrt(var + eps) + beta


@mistakes.add("no_beta", "Ignoraste β: después de multiplicar por gamma falta sumar beta.",
              label="sin β", section="5. ¿Para qué sirven γ y β?",
              question="¿Qué hace β con la salida? ¿Con qué valor arranca en una LayerNorm recién creada?")
def _no_beta(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps)


@mistakes.add("no_affine", "Devolviste el normalizado sin γ ni β: falta escalar por gamma y correr por beta.",
              label="sin γ ni β", section="5. ¿Para qué sirven γ y β?",
              question="¿Por qué el normalizado solo da lo mismo que una nn.LayerNorm recién creada, y deja de dar "
                       "igual al entrenar?")
def _no_affine(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps)


@mistakes.add("swapped_affine", "Cambiaste γ por β: multiplicaste por beta y sumaste gamma. γ escala y β corre.",
              label="γ y β cambiados", section="5. ¿Para qué sirven γ y β?",
              question="¿Cuál de γ y β escala y cuál corre? ¿Con qué valor arranca cada uno?")
def _swapped(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return beta * (x - media) / torch.sqrt(var + eps) + gamma


@mistakes.add("beta_inside", "Sumaste β antes de multiplicar por γ: γ · (x̂ + β). Primero se escala y después se "
                             "corre: γ · x̂ + β.",
              label="β antes de γ", section="5. ¿Para qué sirven γ y β?",
              question="γ · (x̂ + β) o γ · x̂ + β: con γ = 2 y β = 1, ¿cuánto da cada una para x̂ = 0?")
def _beta_inside(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * ((x - media) / torch.sqrt(var + eps) + beta)


# ---- the check
def assess(ex: Exercise, answer):
    """mi_layer_norm(x, gamma, beta, eps): LayerNorm over the last axis, any leading shape."""
    probes = _probes()
    return ex.judge_function(answer, probes, tensor_difference,
                        "Normaliza cada token sobre su última dimensión, con ε adentro de la raíz, y aplica γ y β: da "
                        f"lo mismo que la referencia en las {len(probes)} entradas de prueba, incluidas las incómodas "
                        "(" + ", ".join(f"«{p.name}»" for p in probes) + ").")


checker = Exercise("layer_norm", reference=mi_layer_norm, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="6. Tu LayerNorm, para un batch entero")
