"""Notebook 03 · ``mi_rms_norm(x, gamma, eps=1e-5)``: RMSNorm over the last axis of a tensor of any leading shape
(what ``nn.RMSNorm(d)`` does). Checked by ``helpers.check.rms_norm(mi_rms_norm)``."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # the name the notebooks use

from .._core import Exercise, Gallery, Probe, seeded_generator, tensor_difference

ORDER = ("03", 2)  # notebook 03, its second exercise: the registry lists exercises in this order

# ---- the reference: solution() shows this source, and the checker compares against it
def mi_rms_norm(x, gamma, eps=1e-5):
    rms = torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)  # sin restar la media
    return gamma * x / rms


HINTS = (
    "RMSNorm no resta la media: divide cada token por su RMS, la raíz de la media de sus cuadrados, con ε sumado "
    "adentro de la raíz.",
    "La media de los cuadrados va sobre la última dimensión, con keepdim=True para poder dividir. Es la media, no "
    "la suma: la suma daría la norma. Al final, γ escala el resultado.",
)


# ---- the inputs: several shapes and sizes, and the uncomfortable ones
def _probes() -> list[Probe]:
    g = seeded_generator(4)

    def scale(d):
        return torch.rand(d, generator=g) + 0.5

    four = torch.tensor([0.80, 0.95, 0.93, 1.33])
    return [
        Probe("los cuatro números del notebook", (four, torch.ones(4), 1e-5),
               "x = [0.8, 0.95, 0.93, 1.33], γ = 1, eps = 1e-5"),
        Probe("un batch de 2 frases × 3 tokens, d = 8", (torch.randn(2, 3, 8, generator=g) * 2 + 1, scale(8), 1e-5),
               "x de forma (2, 3, 8)"),
        Probe("un token de ceros", (torch.tensor([[0.0, 0.0, 0.0, 0.0], [1.0, -2.0, 3.0, 5.0]]), scale(4), 1e-5),
               "x = [[0, 0, 0, 0], [1, −2, 3, 5]]"),
        Probe("números chicos y ε grande", (torch.randn(3, 5, generator=g) * 0.01, scale(5), 0.1),
               "x de forma (3, 5) con |x| ≈ 0.01, eps = 0.1"),
        Probe("d = 1", (torch.randn(3, 1, generator=g), scale(1), 1e-5), "x de forma (3, 1)"),
        Probe("cuatro ejes, d = 6", (torch.randn(2, 2, 3, 6, generator=g) * 3 - 1, scale(6), 1e-5),
               "x de forma (2, 2, 3, 6)"),
    ]


# ---- the known mistakes, written the way learners write them
mistakes = Gallery()


@mistakes.add("centered", "Restaste la media: eso es LayerNorm (sin β). RMSNorm no centra: divide x por la raíz de "
                          "la media de sus cuadrados.",
              label="resta la media",
              question="¿Qué hace LayerNorm que RMSNorm no hace? ¿Cuánto da la RMS de [2, 4, 6, 8]?")
def _centered(x, gamma, eps=1e-5):
    x = x - x.mean(-1, keepdim=True)
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


@mistakes.add("eps_outside", "Sumaste ε afuera de la raíz: x / (RMS + ε). Va adentro: √(media(x²) + ε).",
              label="ε afuera de la raíz",
              question="¿Dónde va ε en RMSNorm, adentro o afuera de la raíz? ¿Con qué tokens se nota la diferencia?")
def _eps_outside(x, gamma, eps=1e-5):
    return gamma * x / (torch.sqrt(x.pow(2).mean(-1, keepdim=True)) + eps)


@mistakes.add("no_eps", "No usaste ε: con un token de ceros la RMS es 0, dividís por cero y sale nan.",
              label="sin ε",
              question="¿Qué sale de RMSNorm para un token de ceros si no hay ε?")
def _no_eps(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True))


@mistakes.add("fixed_eps", "Usaste un ε fijo (1e-5) en vez del `eps` que recibe la función.",
              label="ε fijo",
              question="¿Para qué recibe eps la función? ¿Qué pasa si alguien la llama con eps=1e-6?")
def _fixed_eps(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)


@mistakes.add("no_sqrt", "Te faltó la raíz: dividiste por la media de los cuadrados, no por su raíz.",
              label="sin la raíz",
              question="Para [2, 4, 6, 8], ¿cuánto da la media de los cuadrados y cuánto su raíz? ¿Cuál deja al token "
                       "con RMS 1?")
def _no_sqrt(x, gamma, eps=1e-5):
    return gamma * x / (x.pow(2).mean(-1, keepdim=True) + eps)


# dividing by the norm ‖x‖ = √d · RMS, with ε nowhere, inside the root, outside it, or as F.normalize's floor
_BY_THE_NORM = ("no por la raíz de la media de los cuadrados: la RMS es ‖x‖ / √d, así que te falta dividir la "
                "norma por √d.")


@mistakes.add("divided_by_norm", f"Dividiste por la norma ‖x‖ (`x.norm(dim=-1)`), {_BY_THE_NORM} Y falta ε, "
                                 "sumado adentro de la raíz: sin él, un token de ceros da nan.",
              label="divide por la norma ‖x‖",
              question="¿Cuánto vale ‖x‖ y cuánto la RMS para [2, 4, 6, 8]? ¿Qué relación hay entre las dos?")
def _divided_by_norm(x, gamma, eps=1e-5):
    return gamma * x / x.norm(dim=-1, keepdim=True)


@mistakes.add("norm_eps_outside", f"Dividiste por la norma ‖x‖ más ε, {_BY_THE_NORM} Y ε va sumado adentro de la "
                                  "raíz, √(media(x²) + ε), no afuera.",
              label="divide por ‖x‖ + ε",
              question="Para [2, 4, 6, 8], ¿cuánto vale ‖x‖ y cuánto la RMS? ¿Y dónde va ε: sumado a ‖x‖, o adentro "
                       "de la raíz?")
def _norm_eps_outside(x, gamma, eps=1e-5):
    return gamma * x / (x.norm(dim=-1, keepdim=True) + eps)


@mistakes.add("sum_not_mean", "Dividiste por la raíz de la suma de los cuadrados, que es la norma ‖x‖, "
                              f"{_BY_THE_NORM} La media es la suma dividida por d.",
              label="suma de cuadrados, no media",
              question="¿Por qué la RMS usa la media de los cuadrados y no su suma? ¿Qué le pasa a la suma cuando d "
                       "crece?")
def _sum_not_mean(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).sum(-1, keepdim=True) + eps)


@mistakes.add("normalize", f"Usaste F.normalize, que divide por la norma ‖x‖, {_BY_THE_NORM} Y ε va sumado adentro "
                           "de la raíz: √(media(x²) + ε).",
              label="F.normalize (norma 1, no RMS 1)",
              question="¿Con qué queda un token después de F.normalize: norma 1 o RMS 1? ¿Cuánto vale cada una para "
                       "[2, 4, 6, 8]?")
def _normalize(x, gamma, eps=1e-5):
    return gamma * F.normalize(x, dim=-1)


@mistakes.add("normalize_eps", f"Dividiste por la norma ‖x‖ con ε como piso (F.normalize con eps=eps, o "
                               f"`.clamp(min=eps)`), {_BY_THE_NORM} Y ε va sumado adentro de la raíz: "
                               "√(media(x²) + ε).",
              label="‖x‖ con ε de piso (clamp)",
              question="¿Qué hace el eps de F.normalize: se suma adentro de la raíz o pone un piso a ‖x‖? ¿Cuándo se "
                       "nota la diferencia?")
def _normalize_eps(x, gamma, eps=1e-5):
    return gamma * F.normalize(x, dim=-1, eps=eps)


@mistakes.add("no_gamma", "Ignoraste γ: el resultado se multiplica por gamma.",
              label="sin γ",
              question="¿Qué aprende RMSNorm? ¿Cuántos números tiene una de d = 4 096?")
def _no_gamma(x, gamma, eps=1e-5):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


@mistakes.add("batch_axis", "Promediaste sobre el batch (dim=0); la RMS es de cada token, sobre la última "
                            "dimensión.",
              label="promedia sobre el batch", section="4. ¿Cada token por su cuenta, o todo el batch?",
              question="¿De quién es cada RMS: de un token, o de una posición a lo largo del batch?")
def _batch_axis(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(0, keepdim=True) + eps)


@mistakes.add("mean_abs", "Usaste la media de los valores absolutos, no la raíz de la media de los cuadrados: "
                          "RMS = √(media(x²) + ε).",
              label="media de los valores absolutos",
              question="Para [2, 4, 6, 8], ¿cuánto da la media de los valores absolutos y cuánto la RMS?")
def _mean_abs(x, gamma, eps=1e-5):
    return gamma * x / (x.abs().mean(-1, keepdim=True) + eps)


# ---- the check
def assess(ex: Exercise, answer):
    """mi_rms_norm(x, gamma, eps): RMSNorm over the last axis, any leading shape."""
    probes = _probes()
    return ex.judge_function(answer, probes, tensor_difference,
                        "Divide cada token por la raíz de la media de sus cuadrados, con ε adentro, y escala por γ: "
                        f"da lo mismo que la referencia en las {len(probes)} entradas de prueba ("
                        + ", ".join(f"«{p.name}»" for p in probes) + ").")


checker = Exercise("rms_norm", reference=mi_rms_norm, hints=HINTS, assess=assess, mistakes=mistakes,
                   expects="tu función, sin llamarla", section="7. RMSNorm, la de LLaMA")
