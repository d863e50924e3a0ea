"""helpers.mask_experiment: the batched pair is two helpers.blocks.GPT trained apart, its loss at use is the
exercise's reference, and the stored sweep is what the module's command writes."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from helpers import blocks, grammar
from helpers import mask_experiment as me
from helpers.check.exercises.use_loss import perdida_en_uso


def test_pair_forward_is_the_gpt_with_and_without_mask():
    model = me.build_gpt(3)
    pair = me.Pair(model, (True, False))
    seqs = grammar.sample(6, 3, torch.Generator().manual_seed(0))[:, :-1]
    with torch.no_grad():
        out = pair.forward(seqs.expand(2, -1, -1))
        torch.testing.assert_close(out[0], model(seqs), rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(out[1], model(seqs, causal=False), rtol=1e-5, atol=1e-5)
        both_masked = pair.forward(seqs.expand(2, -1, -1), causal=True)
        torch.testing.assert_close(both_masked[1], model(seqs), rtol=1e-5, atol=1e-5)
    assert not torch.allclose(out[0], out[1], atol=1e-3)  # the mask matters


def test_the_pair_gets_each_gpts_own_gradient():
    """One batched backward gives each run the gradient its helpers.blocks.GPT gets alone, on the same batch.
    Adam is elementwise, so one torch.optim.Adam over the stacked weights is then each run's own Adam."""
    seqs = grammar.sample(me._BATCH, me._N_SENTENCES, torch.Generator().manual_seed(10_000))
    pair = me.Pair(me.build_gpt(0), (True, False))
    me._loss(pair.forward(seqs.expand(2, -1, -1)[..., :-1]), seqs.expand(2, -1, -1)).sum().backward()
    for r, causal in enumerate((True, False)):
        alone = me.build_gpt(0)
        F.cross_entropy(alone(seqs[:, :-1], causal=causal).flatten(0, 1), seqs[:, 1:].flatten()).backward()
        for name, w in alone.named_parameters():
            torch.testing.assert_close(pair.p[name].grad[r], w.grad, rtol=1e-4, atol=1e-6, msg=name)


def test_build_is_seeded_and_leaves_the_global_generator_alone():
    state = torch.get_rng_state()
    a, b = me.build_gpt(1), me.build_gpt(1)
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))
    assert torch.equal(state, torch.get_rng_state())
    assert a.tok.weight.std().item() < 0.05  # GPT-2's 0.02, not nn.Embedding's 1


def test_loss_at_use_is_the_exercise_reference():
    model, ev = me.build_gpt(0), me.eval_sequences()
    assert ev.shape == (me._EVAL_N, 1 + 5 * me._N_SENTENCES)
    with torch.no_grad():
        assert me.loss_at_use(model, ev) == pytest.approx(perdida_en_uso(model, ev), rel=1e-6)


def test_next_word_probs_give_the_loss_at_use_and_the_words_that_follow():
    model, ev = me.build_gpt(0), me.eval_sequences()[:8]
    probs, following = me.next_word_probs(model, ev)
    assert probs.shape == (8, ev.shape[1] - 1, len(grammar.WORDS)) and torch.equal(following, ev[:, 1:])
    torch.testing.assert_close(probs.sum(-1), torch.ones(probs.shape[:2]))
    nll = -probs.gather(-1, following[..., None]).log().mean().item()
    assert nll == pytest.approx(me.loss_at_use(model, ev), rel=1e-5)
    seeing, _ = me.next_word_probs(model, ev, causal=False)
    assert not torch.allclose(seeing, probs, atol=1e-4)  # causal=False drops the mask


def test_train_pair_records_what_the_notebook_reads():
    out = me.train_pair(30, seed=0, eval_every=10)
    assert out["steps"] == [10, 20, 30]
    for kind, n in (("use", 3), ("train", 30)):
        assert set(out[kind]) == {"masked", "unmasked"}
        assert all(len(v) == n and all(math.isfinite(x) for x in v) for v in out[kind].values())
    assert out["use"]["masked"][-1] < math.log(12)  # 30 steps already beat spreading evenly


def test_train_pair_gives_the_trained_gpts_whose_loss_at_use_is_the_last_measured():
    """The notebook measures the two trained GPTs with the learner's perdida_en_uso: each gives its curve's end."""
    out = me.train_pair(20, seed=1, eval_every=10)
    assert set(out["models"]) == {"masked", "unmasked"}
    ev = me.eval_sequences()
    for name, model in out["models"].items():
        assert isinstance(model, blocks.GPT) and not model.training
        assert perdida_en_uso(model, ev) == pytest.approx(out["use"][name][-1], abs=1e-5), name
    assert not torch.equal(out["models"]["masked"].tok.weight, out["models"]["unmasked"].tok.weight)


def test_train_pair_trains_with_the_recipe(monkeypatch):
    """What recipe() says (and notebook 04b prints) is what train_pair uses: optimizer, learning rate, batch, the
    embeddings' std, sentences per sequence and the evaluation sequences."""
    r, seen = me.recipe(), {}

    class Recording(torch.optim.Adam):
        def __init__(self, params, lr):
            seen["lr"] = lr
            super().__init__(params, lr=lr)

    sample = grammar.sample

    def recording_sample(n, n_sentences=3, generator=None):
        seen.setdefault("draws", []).append((n, n_sentences))
        return sample(n, n_sentences, generator)

    monkeypatch.setattr(me, "_OPTIMIZER", Recording)
    monkeypatch.setattr(me.grammar, "sample", recording_sample)
    out = me.train_pair(2, seed=0, eval_every=1)
    assert r["optimizer"] == "Adam" and seen["lr"] == r["lr"]
    assert (r["batch"], r["n_sentences"]) in seen["draws"] and (r["eval_n"], r["n_sentences"]) in seen["draws"]
    assert len(out["use"]["masked"]) == 2
    for table in ("tok", "pos"):  # notebook 04b prints «los de tokens y los de posiciones»
        std = getattr(me.build_gpt(0), table).weight.std().item()
        assert abs(std - r["embedding_std"]) < 0.1 * r["embedding_std"], (table, std)
    # what 04b prints beside it: GPT-2's own, OpenAI's src/model.py (wte stddev 0.02, wpe stddev 0.01)
    assert r["gpt2_embedding_std"] == {"tokens": 0.02, "positions": 0.01}
    assert me.eval_sequences().shape == (r["eval_n"], 1 + grammar.SENTENCE_LEN * r["n_sentences"])


def test_the_evaluation_sequences_are_fresh_draws_not_unseen_ones():
    """3 of the 8 sentences make 512 sequences: 600 steps of 32 draw each about 37 times, so the sequences measured
    on were almost surely trained on. Their docstring and notebook 04b say «sorteadas», not «nuevas»."""
    r = me.recipe()
    possible = len(grammar.sentences()) ** r["n_sentences"]
    assert possible == 512 and 600 * r["batch"] == 19_200
    assert possible * (1 - 1 / possible) ** (600 * r["batch"]) < 1e-13  # P(some sequence never drawn), at most
    assert "not held out" in me.eval_sequences.__doc__


def test_stored_sweep_matches_the_module():
    data = me.stored_runs()
    meta = data["meta"]
    assert (meta["steps"], meta["seeds"], meta["d_model"], meta["lr"]) == (me._STEPS, list(me._SEEDS), me._D_MODEL,
                                                                           me._LR)
    r = me.recipe()
    assert {k: meta[k] for k in ("batch", "lr", "eval_every", "eval_n", "eval_seed", "steps", "seeds")} == \
        {k: r[k] for k in ("batch", "lr", "eval_every", "eval_n", "eval_seed", "steps", "seeds")}
    assert meta["entropy"] == pytest.approx(grammar.entropy_per_word())
    assert [r["seed"] for r in data["runs"]] == list(me._SEEDS)
    for run in data["runs"]:
        assert run["steps"][-1] == me._STEPS and len(run["steps"]) == me._STEPS // me._EVAL_EVERY
        assert all(len(v) == len(run["steps"]) for v in run["use"].values())
        assert all(len(v) == me._STEPS // run["train_every"] for v in run["train"].values())


# What *El transformer completo* (another text of the course) publishes for this experiment, at 4 000 steps. Notebook
# 04 compared it with ours in its «Para ir más lejos»; issue 51 moved that comparison, how the series checked an
# external text, to the maintainers (README): its claim stays here.
ITS = {"steps": 4000, "entropy": 0.526, "masked": 0.527, "unmasked_train": 0.059, "unmasked_use": 3.088}


def test_the_other_texts_3088_is_near_our_600_steps_and_far_from_our_4000():
    """Its 3.088 without the mask, at 4 000 steps, is close to our 3.06 at 600 (seed 0, stored) by chance: at 4 000
    ours are far above it (they rise at every measurement). Its grammar is another (its entropy is 0.526, ours 0.416),
    and its unmasked GPT copies less surely (0.059 in training, ours below 0.0001), so no number compares one to one."""
    runs = me.stored_runs()["runs"]
    s0 = next(r for r in runs if r["seed"] == 0)
    at600 = s0["steps"].index(600)
    assert abs(s0["use"]["unmasked"][at600] - ITS["unmasked_use"]) < 0.1
    assert min(r["use"]["unmasked"][-1] for r in runs) - ITS["unmasked_use"] > 0.1
    assert all(r["steps"][-1] == ITS["steps"] for r in runs)
    assert abs(grammar.entropy_per_word() - ITS["entropy"]) > 0.1
    assert max(sum(r["train"]["unmasked"][-5:]) / 5 for r in runs) < 1e-4 < ITS["unmasked_train"]


def test_the_command_writes_a_file_load_reads(tmp_path):
    out = tmp_path / "sweep.json"
    me._cli(["--steps", "20", "--out", str(out)])
    data = me.stored_runs(out)
    assert len(data["runs"]) == len(me._SEEDS) and data["runs"][0]["steps"][-1] == 20


def test_single_seed_runs_merge_into_one_file(tmp_path):
    for seed in (1, 0):
        me._cli(["--steps", "10", "--seeds", str(seed), "--out", str(tmp_path / f"s{seed}.json")])
    me._cli(["--merge", str(tmp_path / "s1.json"), str(tmp_path / "s0.json"), "--out", str(tmp_path / "all.json")])
    data = me.stored_runs(tmp_path / "all.json")
    assert [r["seed"] for r in data["runs"]] == [0, 1] and data["meta"]["seeds"] == [0, 1]
    assert data["meta"]["steps"] == 10


def test_a_broken_file_says_how_to_regenerate(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"meta": {}}', encoding="utf-8")
    with pytest.raises(ValueError, match="mask_experiment"):
        me.stored_runs(bad)
