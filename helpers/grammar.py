"""Notebook 04's toy grammar: twelve words, eight sentences, and its exact entropy per word.

A sequence is "." followed by whole sentences; each sentence is article, noun (agreeing with the article),
verb, object (``bebe`` takes ``agua``; ``come`` takes ``carne`` after ``el`` and ``pasto`` after ``la``) and ".".
"""

from __future__ import annotations

import itertools
import math

import torch

from ._validate import affordable, positive_int

__all__ = ["SENTENCE_LEN", "WORDS", "decode", "entropy_per_word", "sample", "sentences"]

WORDS = (".", "el", "la", "perro", "gato", "vaca", "oveja", "come", "bebe", "carne", "pasto", "agua")
SENTENCE_LEN = 5  # article, noun, verb, object, "."
_NOUNS = {"el": ("perro", "gato"), "la": ("vaca", "oveja")}
_FOOD = {"el": "carne", "la": "pasto"}


def __dir__():
    return __all__


def sentences() -> list[tuple[tuple[str, ...], float]]:
    """Every sentence of the grammar with its probability: each choice (article, noun, verb) is a fair coin."""
    out = []
    for article, verb in itertools.product(("el", "la"), ("come", "bebe")):
        for noun in _NOUNS[article]:
            obj = "agua" if verb == "bebe" else _FOOD[article]
            out.append(((article, noun, verb, obj, "."), 1 / 8))
    return out


def entropy_per_word() -> float:
    """Exact entropy, in nats per predicted word, of a sequence of independent sentences: H(sentence) / length."""
    return -sum(p * math.log(p) for _, p in sentences()) / SENTENCE_LEN


def sample(n: int, n_sentences: int = 3, generator: torch.Generator | None = None) -> torch.Tensor:
    """(n, 1 + 5 * n_sentences) word ids: "." then ``n_sentences`` sentences drawn independently."""
    n, k = positive_int(n, "n"), positive_int(n_sentences, "n_sentences")
    if generator is not None and not isinstance(generator, torch.Generator):
        raise TypeError(f"generator debe ser un torch.Generator o None; recibí {type(generator).__name__}")
    affordable(8 * n * (1 + 11 * k), f"sample(n={n}, n_sentences={k}) necesitaría para sus ids")  # picks, rows, out
    table = torch.tensor([[WORDS.index(w) for w in s] for s, _ in sentences()])  # (8, 5)
    probs = torch.tensor([p for _, p in sentences()])
    pick = torch.multinomial(probs, n * k, replacement=True, generator=generator).view(n, k)
    start = torch.zeros(n, 1, dtype=torch.long)  # "." is id 0
    return torch.cat([start, table[pick].view(n, -1)], dim=1)


def decode(ids) -> str:
    """Word ids back to text, separated by spaces."""
    return " ".join(WORDS[int(i)] for i in ids)
