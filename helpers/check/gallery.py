"""The known wrong versions of each "Tu turno" exercise, written the way learners write them.

A checker runs the learner's code and each of these on the same inputs; the one that matches names the
mistake. Each entry is plain PyTorch, not the reference with a flag, because that is what a learner types.
Add one when a learner shows you a new mistake: a function here plus its sentence is all it takes.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from ._core import Entry

GALLERY: dict[str, list[Entry]] = {}


def wrong(exercise: str, message: str):
    """Register the decorated function (or class) as a known wrong version of ``exercise``."""
    def register(fn):
        GALLERY.setdefault(exercise, []).append(Entry(fn, message))
        return fn
    return register


# ------------------------------------------------------------------------------------------- layer_norm
@wrong("layer_norm", "Usaste la varianza con d − 1, la «corregida»: `x.var()` y `x.std()` la usan si no les "
                     "pasás `unbiased=False`. LayerNorm divide por d.")
def _ln_unbiased(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@wrong("layer_norm", "Dos convenciones cruzadas: la varianza con d − 1 (`x.std()` sin `unbiased=False`) y ε "
                     "sumado a σ, afuera de la raíz. LayerNorm divide por d y usa √(σ² + ε).")
def _ln_std_plus_eps(x, gamma, beta, eps=1e-5):
    return gamma * (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps) + beta


@wrong("layer_norm", "Sumaste ε a σ, afuera de la raíz: (x − μ) / (σ + ε). Va adentro: √(σ² + ε). Con σ "
                     "grande no se nota; con σ chico, sí.")
def _ln_eps_outside(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    sigma = torch.sqrt(((x - media) ** 2).mean(-1, keepdim=True))
    return gamma * (x - media) / (sigma + eps) + beta


@wrong("layer_norm", "No usaste ε: con un token constante σ = 0, dividís por cero y sale nan.")
def _ln_no_eps(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = ((x - media) ** 2).mean(-1, keepdim=True)
    return gamma * (x - media) / torch.sqrt(var) + beta


@wrong("layer_norm", "Usaste un ε fijo (1e-5) en vez del `eps` que recibe la función.")
def _ln_fixed_eps(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + 1e-5) + beta


@wrong("layer_norm", "Normalizaste sobre el batch (dim=0): eso es lo que hace BatchNorm. LayerNorm mira las d "
                     "features de cada token, la última dimensión (dim=-1).")
def _ln_batch_axis(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=0, keepdim=True)
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@wrong("layer_norm", "Normalizaste sobre los tokens (dim=-2): mezclás tokens distintos. LayerNorm mira las d "
                     "features de cada token, la última dimensión (dim=-1).")
def _ln_token_axis(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-2, keepdim=True)
    var = x.var(dim=-2, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps) + beta


@wrong("layer_norm", "Normalizaste todo el tensor de una vez (`x.mean()` sin `dim`): una sola media para "
                     "todos los tokens. LayerNorm normaliza cada token sobre su última dimensión (dim=-1).")
def _ln_all_axes(x, gamma, beta, eps=1e-5):
    return gamma * (x - x.mean()) / torch.sqrt(x.var(unbiased=False) + eps) + beta


@wrong("layer_norm", "Ignoraste γ: el normalizado se multiplica por gamma antes de sumar beta.")
def _ln_no_gamma(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return (x - media) / torch.sqrt(var + eps) + beta


@wrong("layer_norm", "Ignoraste β: después de multiplicar por gamma falta sumar beta.")
def _ln_no_beta(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - media) / torch.sqrt(var + eps)


@wrong("layer_norm", "Devolviste el normalizado sin γ ni β: falta `gamma * x_hat + beta`.")
def _ln_no_affine(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps)


@wrong("layer_norm", "Cambiaste γ por β: multiplicaste por beta y sumaste gamma. Es `gamma * x_hat + beta`.")
def _ln_swapped(x, gamma, beta, eps=1e-5):
    media = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return beta * (x - media) / torch.sqrt(var + eps) + gamma


# --------------------------------------------------------------------------------------------- rms_norm
@wrong("rms_norm", "Restaste la media: eso es LayerNorm (sin β). RMSNorm no centra: divide x por la raíz de "
                   "la media de sus cuadrados.")
def _rms_centered(x, gamma, eps=1e-5):
    x = x - x.mean(-1, keepdim=True)
    return gamma * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


@wrong("rms_norm", "Sumaste ε afuera de la raíz: x / (RMS + ε). Va adentro: √(media(x²) + ε).")
def _rms_eps_outside(x, gamma, eps=1e-5):
    return gamma * x / (torch.sqrt(x.pow(2).mean(-1, keepdim=True)) + eps)


@wrong("rms_norm", "Te faltó la raíz: dividiste por la media de los cuadrados, no por su raíz.")
def _rms_no_sqrt(x, gamma, eps=1e-5):
    return gamma * x / (x.pow(2).mean(-1, keepdim=True) + eps)


@wrong("rms_norm", "Dividiste por la norma ‖x‖, no por la RMS: la RMS es ‖x‖ / √d (la media de los cuadrados, "
                   "no la suma).")
def _rms_norm_not_rms(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).sum(-1, keepdim=True) + eps)


@wrong("rms_norm", "Ignoraste γ: el resultado se multiplica por gamma.")
def _rms_no_gamma(x, gamma, eps=1e-5):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


@wrong("rms_norm", "Promediaste sobre el batch (dim=0); la RMS es de cada token, sobre la última dimensión.")
def _rms_batch_axis(x, gamma, eps=1e-5):
    return gamma * x / torch.sqrt(x.pow(2).mean(0, keepdim=True) + eps)


# -------------------------------------------------------------------------------------------------- ffn
@wrong("ffn", "Falta la activación: dos lineales seguidas son una sola lineal (W2·W1), y la FFN no puede "
              "aprender nada que no sea lineal. Va una ReLU entre las dos.")
class _FFNNoActivation(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.l2(self.l1(x))


@wrong("ffn", "La activación está después de la segunda lineal: la salida nunca es negativa y no hay nada no "
              "lineal entre las dos capas. Va en el medio: lineal2(ReLU(lineal1(x))).")
class _FFNActivationLast(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return F.relu(self.l2(self.l1(x)))


@wrong("ffn", "Pusiste una ReLU también después de la segunda lineal: la salida no puede ser negativa, y se "
              "suma a la corriente residual. En el paper hay una sola, en el medio.")
class _FFNTwoActivations(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return F.relu(self.l2(F.relu(self.l1(x))))


@wrong("ffn", "Usaste GELU: es la de GPT y BERT. Este ejercicio pide la FFN del paper, con ReLU.")
class _FFNGelu(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.l1, self.l2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.l2(F.gelu(self.l1(x)))


# --------------------------------------------------------------------------------------------- residual
@wrong("residual", "Devolviste solo la subcapa, sin sumar x: eso es reemplazar, no sumar. La corriente pierde "
                   "lo que traía.")
def _res_missing(x, subcapa):
    return subcapa(x)


@wrong("residual", "Multiplicaste x por la subcapa: el residual es una suma, x + F(x).")
def _res_product(x, subcapa):
    return x * subcapa(x)


@wrong("residual", "Sumaste x con x: la subcapa no aparece. Es x + subcapa(x).")
def _res_twice(x, subcapa):
    return x + x


@wrong("residual/pre", "Escribiste post-norm, la línea del paper: LayerNorm después de la suma. Pre-norm "
                       "normaliza la entrada de la subcapa y deja la suma limpia: x + F(LN(x)).")
def _pre_is_post(x, subcapa, ln):
    return ln(x + subcapa(x))


@wrong("residual/pre", "Sumaste la entrada ya normalizada, LN(x) + F(LN(x)): el residual tiene que llevar la x "
                       "de antes de LayerNorm, la corriente sin tocar.")
def _pre_normalized_skip(x, subcapa, ln):
    h = ln(x)
    return h + subcapa(h)


@wrong("residual/pre", "Normalizaste la salida de la subcapa, x + LN(F(x)): pre-norm normaliza su entrada, "
                       "x + F(LN(x)).")
def _pre_norm_output(x, subcapa, ln):
    return x + ln(subcapa(x))


@wrong("residual/pre", "Falta el residual: devolviste F(LN(x)) sin sumarle x.")
def _pre_no_residual(x, subcapa, ln):
    return subcapa(ln(x))


@wrong("residual/pre", "No usaste LayerNorm: x + F(x) es el residual solo. Pre-norm es x + F(LN(x)).")
def _pre_no_norm(x, subcapa, ln):
    return x + subcapa(x)


# ---------------------------------------------------------------------------------------- block_forward
@wrong("block_forward/pre", "Escribiste post-norm (LayerNorm después de cada suma, como el paper); se pedía "
                            "pre-norm: LayerNorm antes de cada subcapa, y la suma limpia.")
def _pre_block_is_post(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln2(x + self.drop(self.ffn(x)))


@wrong("block_forward/pre", "Faltan los residuales: cada subcapa reemplaza a x en vez de sumarse. Es "
                            "x = x + subcapa(LN(x)).")
def _pre_block_no_residual(self, x):
    x = self.drop(self.atencion(self.ln1(x)))
    return self.drop(self.ffn(self.ln2(x)))


@wrong("block_forward/pre", "Sumaste la x ya normalizada: el residual lleva la x de antes de LayerNorm.")
def _pre_block_normalized_skip(self, x):
    h = self.ln1(x)
    x = h + self.drop(self.atencion(h))
    h = self.ln2(x)
    return h + self.drop(self.ffn(h))


@wrong("block_forward/pre", "Usaste ln1 dos veces: la FFN tiene su propia LayerNorm, ln2, con sus γ y β.")
def _pre_block_ln1_twice(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln1(x)))


@wrong("block_forward/pre", "Te salteaste la LayerNorm de la FFN: la segunda subcapa también recibe su "
                            "entrada normalizada, ln2(x).")
def _pre_block_skip_ln2(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(x))


@wrong("block_forward/pre", "Te salteaste la LayerNorm de la atención: la primera subcapa recibe ln1(x).")
def _pre_block_skip_ln1(self, x):
    x = x + self.drop(self.atencion(x))
    return x + self.drop(self.ffn(self.ln2(x)))


@wrong("block_forward/post", "Escribiste pre-norm (LayerNorm antes de cada subcapa); se pedía post-norm, el "
                             "del paper: x = LN(x + subcapa(x)).")
def _post_block_is_pre(self, x):
    x = x + self.drop(self.atencion(self.ln1(x)))
    return x + self.drop(self.ffn(self.ln2(x)))


@wrong("block_forward/post", "Faltan los residuales: es LN(x + subcapa(x)), no LN(subcapa(x)).")
def _post_block_no_residual(self, x):
    x = self.ln1(self.drop(self.atencion(x)))
    return self.ln2(self.drop(self.ffn(x)))


@wrong("block_forward/post", "Normalizaste la salida de la subcapa y después sumaste: x + LN(F(x)). Post-norm "
                             "normaliza la suma: LN(x + F(x)).")
def _post_block_norm_sublayer(self, x):
    x = x + self.ln1(self.drop(self.atencion(x)))
    return x + self.ln2(self.drop(self.ffn(x)))


@wrong("block_forward/post", "Te salteaste la segunda LayerNorm: después de sumar la FFN también va ln2.")
def _post_block_skip_ln2(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return x + self.drop(self.ffn(x))


@wrong("block_forward/post", "Usaste ln1 dos veces: la suma de la FFN tiene su propia LayerNorm, ln2.")
def _post_block_ln1_twice(self, x):
    x = self.ln1(x + self.drop(self.atencion(x)))
    return self.ln1(x + self.drop(self.ffn(x)))


# ------------------------------------------------------------------------------------------ causal_mask
@wrong("causal_mask", "Está dada vuelta: tapaste el pasado y dejaste ver el futuro. Lo prohibido está arriba de "
                      "la diagonal: torch.triu(..., diagonal=1).")
def _mask_flipped(T):
    return torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=-1)


@wrong("causal_mask", "Tapaste también la diagonal: cada token tiene que poder mirarse a sí mismo (el token 0 "
                      "queda sin nada que mirar y su atención da nan). Usá diagonal=1.")
def _mask_hides_diagonal(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool))


@wrong("causal_mask", "El booleano está invertido: marcaste con True lo permitido. En nn.MultiheadAttention, "
                      "True significa prohibido.")
def _mask_true_allowed(T):
    return torch.tril(torch.ones(T, T)).bool()


@wrong("causal_mask", "Es una máscara de 0 y 1 en float: PyTorch suma una máscara float a los puntajes, así que "
                      "un 1 no prohíbe nada. Usá bool (True = prohibido) o 0 y −∞.")
def _mask_float_ones_above(T):
    return torch.triu(torch.ones(T, T), diagonal=1)


@wrong("causal_mask", "Es una máscara de 0 y 1 en float, con 1 en lo permitido: PyTorch la suma a los "
                      "puntajes y no prohíbe nada. Usá bool (True = prohibido) o 0 y −∞.")
def _mask_float_ones_below(T):
    return torch.tril(torch.ones(T, T))


# ------------------------------------------------------------------------------------------ param_count
@wrong("param_count/ffn", "Te faltan los dos sesgos: b1 (d_ff números) y b2 (d_model).")
def _pffn_no_bias(d_model, d_ff):
    return 2 * d_model * d_ff


@wrong("param_count/ffn", "Te falta el sesgo de la segunda capa, b2: d_model números.")
def _pffn_no_b2(d_model, d_ff):
    return 2 * d_model * d_ff + d_ff


@wrong("param_count/ffn", "Te falta el sesgo de la primera capa, b1: d_ff números.")
def _pffn_no_b1(d_model, d_ff):
    return 2 * d_model * d_ff + d_model


@wrong("param_count/ffn", "Contaste una sola matriz: son dos, d_model × d_ff a la ida y d_ff × d_model a la "
                          "vuelta.")
def _pffn_one_matrix(d_model, d_ff):
    return d_model * d_ff + d_ff + d_model


@wrong("param_count/ffn", "Usaste d_ff = 4·d_model, como el paper; la función recibe d_ff: usá ese.")
def _pffn_four_d(d_model, d_ff):
    return 8 * d_model**2 + 5 * d_model


@wrong("param_count/block", "Te faltan 4d: o los sesgos de la atención (4d, uno de d por cada W_Q, W_K, W_V, "
                            "W_O) o las dos LayerNorm (2d cada una, γ y β). Con solo el total no puedo saber cuál.")
def _pblock_attn_no_bias(d_model, d_ff):
    return 4 * d_model**2 + 2 * d_model * d_ff + d_ff + d_model + 4 * d_model


@wrong("param_count/block", "Contaste la atención con tres matrices: falta W_O, la proyección de salida (d² + d).")
def _pblock_no_wo(d_model, d_ff):
    return 3 * d_model**2 + 3 * d_model + 2 * d_model * d_ff + d_ff + d_model + 4 * d_model


@wrong("param_count/block", "Tus LayerNorm suman 2d y son 4d: hay dos por bloque, una por subcapa, y cada "
                            "una tiene γ y β (2d). ¿Contaste una sola, o cada una con d?")
def _pblock_ln_2d(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model + 2 * d_model


@wrong("param_count/block", "Te faltan los sesgos de la FFN: d_ff + d_model.")
def _pblock_ffn_no_bias(d_model, d_ff):
    return 4 * d_model**2 + 4 * d_model + 2 * d_model * d_ff + 4 * d_model


@wrong("param_count/block", "Te faltan todos los sesgos (4d de la atención, d_ff + d de la FFN).")
def _pblock_no_bias(d_model, d_ff):
    return 4 * d_model**2 + 2 * d_model * d_ff + 4 * d_model


@wrong("param_count/gpt", "Te falta la LayerNorm final, la que va después del último bloque: 2d.")
def _pgpt_no_final_ln(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 2 * d * 4 * d + 4 * d + d + 4 * d
    return vocab * d + ctx * d + n_layers * bloque


@wrong("param_count/gpt", "Te faltan los embeddings de posición: ctx × d (una fila aprendida por posición).")
def _pgpt_no_positions(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return vocab * d + n_layers * bloque + 2 * d


@wrong("param_count/gpt", "Contaste la matriz de salida aparte: GPT-2 la comparte con el embedding de tokens "
                          "(«tied»), así que V × d va una sola vez.")
def _pgpt_untied(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 4 * d
    return 2 * vocab * d + ctx * d + n_layers * bloque + 2 * d


@wrong("param_count/gpt", "Contaste cada LayerNorm con d: son 2d (γ y β), en los bloques y en la final.")
def _pgpt_ln_d(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d + 2 * d
    return vocab * d + ctx * d + n_layers * bloque + d


@wrong("param_count/gpt", "Te faltan 4d por bloque: o las dos LayerNorm de cada bloque (2d cada una) o los "
                          "sesgos de la atención (4d). Con solo el total no puedo saber cuál.")
def _pgpt_no_block_ln(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 4 * d + 8 * d * d + 4 * d + d
    return vocab * d + ctx * d + n_layers * bloque + 2 * d


@wrong("param_count/gpt", "Te faltan los sesgos de los bloques: 4d en la atención y 4d + d en la FFN.")
def _pgpt_no_bias(vocab, d_model, n_layers, ctx):
    d = d_model
    bloque = 4 * d * d + 8 * d * d + 4 * d
    return vocab * d + ctx * d + n_layers * bloque + 2 * d


# ------------------------------------------------------------------------------------------------ warmup
@wrong("warmup", "Contaste los pasos desde 0: en el paso 1 ya das 2/warmup del lr. Acá el paso 1 es el "
                 "primero y da lr/warmup (así cuenta el motor del notebook 05).")
def _wu_zero_based(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(1.0, (paso + 1) / warmup)


@wrong("warmup", "Tu primer paso tiene learning rate 0: (paso − 1)/warmup. El paso 1 ya da lr/warmup y el paso "
                 "warmup llega a lr.")
def _wu_starts_at_zero(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(1.0, (paso - 1) / warmup)


@wrong("warmup", "No hay meseta: después del warmup el learning rate sigue subiendo. Falta el min(1, ·): "
                 "desde el paso warmup en adelante es lr.")
def _wu_no_plateau(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * paso / warmup


@wrong("warmup", "Después del warmup lo hacés bajar como 1/√paso: eso es el esquema del paper de 2017. Acá "
                 "se pedía dejarlo constante en lr.")
def _wu_noam_decay(paso, warmup, lr):
    if warmup == 0:
        return lr
    return lr * min(paso / warmup, (warmup / paso) ** 0.5)


@wrong("warmup", "No hay warmup: devolvés lr desde el primer paso.")
def _wu_constant(paso, warmup, lr):
    return lr


# ------------------------------------------------------------------------------------------ escape_step
@wrong("escape_step", "Usaste > en vez de ≥: una evaluación con acierto justo igual al umbral ya cuenta como "
                      "salida.")
def _esc_strict(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto > umbral:
            return paso
    return None


@wrong("escape_step", "Devolviste la posición en la lista, no el paso: pasos[i], no i.")
def _esc_index(pasos, aciertos, umbral=0.6):
    for i, acierto in enumerate(aciertos):
        if acierto >= umbral:
            return i
    return None


@wrong("escape_step", "Devolviste el acierto, no el paso en que se alcanzó.")
def _esc_accuracy(pasos, aciertos, umbral=0.6):
    for acierto in aciertos:
        if acierto >= umbral:
            return acierto
    return None


@wrong("escape_step", "Te quedaste con la última evaluación sobre el umbral, no con la primera: falta cortar "
                      "el bucle (return) apenas llega.")
def _esc_last(pasos, aciertos, umbral=0.6):
    salida = None
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            salida = paso
    return salida


@wrong("escape_step", "Cuando nunca llega al umbral devolvés el último paso, como si hubiera salido al final. "
                      "Tiene que ser None: «no salió».")
def _esc_last_when_never(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso
    return pasos[-1]


@wrong("escape_step", "Cuando nunca llega al umbral devolvés −1: usá None, que no se puede confundir con un paso.")
def _esc_minus_one(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso
    return -1


@wrong("escape_step", "Usaste 0.6 fijo en vez del `umbral` que recibe la función.")
def _esc_fixed_threshold(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= 0.6:
            return paso
    return None
