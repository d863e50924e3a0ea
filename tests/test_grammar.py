"""helpers.grammar: the twelve words, the eight sentences, and an entropy that is exact."""

from __future__ import annotations

import itertools
import math

import pytest
import torch

from helpers import grammar


def test_twelve_words_eight_sentences_that_agree():
    assert len(grammar.WORDS) == len(set(grammar.WORDS)) == 12 and grammar.WORDS[0] == "."
    sents = grammar.sentences()
    assert len(sents) == 8 and math.isclose(sum(p for _, p in sents), 1.0)
    for words, _ in sents:
        article, noun, verb, obj, end = words
        assert end == "." and len(words) == grammar.SENTENCE_LEN
        assert noun in (("perro", "gato") if article == "el" else ("vaca", "oveja"))
        assert obj == ("agua" if verb == "bebe" else "carne" if article == "el" else "pasto")


def test_entropy_is_three_coins_per_five_words():
    assert grammar.entropy_per_word() == pytest.approx(3 * math.log(2) / 5, abs=1e-15)


def test_entropy_equals_the_conditional_entropy_of_every_sequence_by_brute_force():
    """Over all 8**3 sequences of three sentences: −Σ p ln p over whole sequences, per predicted word."""
    sents = grammar.sentences()
    total = 0.0
    for combo in itertools.product(sents, repeat=3):
        p = math.prod(q for _, q in combo)
        total -= p * math.log(p)
    assert total / 15 == pytest.approx(grammar.entropy_per_word(), rel=1e-12)


def test_sample_is_dot_then_grammatical_sentences_drawn_evenly():
    seqs = grammar.sample(4000, 3, torch.Generator().manual_seed(0))
    assert seqs.shape == (4000, 16) and seqs.dtype == torch.long and (seqs[:, 0] == 0).all()
    known = {tuple(grammar.WORDS.index(w) for w in s) for s, _ in grammar.sentences()}
    chunks = seqs[:, 1:].reshape(-1, 5)
    assert {tuple(c.tolist()) for c in chunks} == known
    counts = torch.unique(chunks, dim=0, return_counts=True)[1].float()
    assert (counts / counts.sum() - 1 / 8).abs().max() < 0.01  # 12 000 sentences: 1/8 each, within 1 point


def test_sample_is_reproducible_and_leaves_the_global_generator_alone():
    state = torch.get_rng_state()
    a = grammar.sample(5, 2, torch.Generator().manual_seed(3))
    b = grammar.sample(5, 2, torch.Generator().manual_seed(3))
    assert torch.equal(a, b) and a.shape == (5, 11) and torch.equal(state, torch.get_rng_state())


def test_decode_and_bad_input():
    assert grammar.decode([0, 1, 3, 7, 9, 0]) == ". el perro come carne ."
    with pytest.raises((ValueError, TypeError)):
        grammar.sample(0)
    with pytest.raises((ValueError, TypeError)):
        grammar.sample(3, n_sentences=1.5)
