"""Reference solutions of the "Tu turno" exercises, written as the learner's cell should read.

``check.<exercise>.solution()`` shows this source, and the checkers compare against these same objects, so
the solution shown and the one checked cannot drift apart. Each definition is self-contained: it uses only
what the notebooks' setup cell imports (torch, nn, F).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812 - the name the notebooks use
from torch import nn


# 01 · la FFN del paper
class MiFFN(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.lineal1 = nn.Linear(d_model, d_ff)  # d_model → d_ff, con sesgo
        self.lineal2 = nn.Linear(d_ff, d_model)  # d_ff → d_model, con sesgo

    def forward(self, x):  # (B, T, d_model) → (B, T, d_model), cada token por separado
        return self.lineal2(F.relu(self.lineal1(x)))


def params_ffn(d_model, d_ff):
    return d_model * d_ff + d_ff + d_ff * d_model + d_model  # W1 y b1, W2 y b2


# 02 · el residual stream
def paso_residual(x, subcapa):
    return x + subcapa(x)  # la subcapa suma una corrección; x sigue entero en la corriente


def paso_pre(x, subcapa, ln):
    return x + subcapa(ln(x))  # normalizás la entrada de la subcapa, no la corriente


# 03 · LayerNorm y RMSNorm a mano
def mi_layer_norm(x, gamma, beta, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)                  # sobre las d features de cada token
    var = x.var(dim=-1, keepdim=True, unbiased=False)     # dividiendo por d, no por d - 1
    x_hat = (x - media) / torch.sqrt(var + eps)           # ε adentro de la raíz
    return gamma * x_hat + beta


def mi_rms_norm(x, gamma, eps=1e-5):
    rms = torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)  # sin restar la media
    return gamma * x / rms


# 04 · el bloque encoder
def mascara_causal(T):
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # True = prohibido: el futuro


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


class BloquePost(nn.Module):
    def __init__(self, d_model=32, n_heads=4, d_ff=64, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def atencion(self, x):  # (B, T, d) → (B, T, d)
        return self.attn(x, x, x, need_weights=False)[0]

    def forward(self, x):
        x = self.ln1(x + self.drop(self.atencion(x)))  # el paper: primero la suma, después LayerNorm
        return self.ln2(x + self.drop(self.ffn(x)))


def params_bloque(d_model, d_ff):
    atencion = 4 * d_model * d_model + 4 * d_model     # W_Q, W_K, W_V, W_O y sus sesgos
    ffn = 2 * d_model * d_ff + d_ff + d_model          # dos matrices y dos sesgos
    layernorms = 2 * (2 * d_model)                     # dos LayerNorm, γ y β cada una
    return atencion + ffn + layernorms


def params_gpt(vocab, d_model, n_layers, ctx):
    d, d_ff = d_model, 4 * d_model
    embeddings = vocab * d + ctx * d                   # tokens y posiciones; la salida reusa la de tokens
    bloque = (4 * d * d + 4 * d) + (2 * d * d_ff + d_ff + d) + 2 * (2 * d)
    return embeddings + n_layers * bloque + 2 * d      # y la LayerNorm final


# 05 · warmup y salida de la meseta
def lr_warmup(paso, warmup, lr):  # paso 1 es el primero, como cuenta el motor
    if warmup == 0:
        return lr                                  # sin warmup: constante desde el principio
    return lr * min(1.0, paso / warmup)            # sube en línea recta y se queda en lr


def paso_de_salida(pasos, aciertos, umbral=0.6):
    for paso, acierto in zip(pasos, aciertos):
        if acierto >= umbral:
            return paso                            # la primera evaluación que llega al umbral
    return None                                    # nunca salió
