"""helpers.check.use_loss (notebook 04b, «la pérdida a la hora de usar»): right answers written other ways pass,
and each known mistake, plus a few outside the gallery, gets a verdict that names it."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from helpers import check
from helpers.check.exercises import use_loss


def _log_softmax_gather(modelo, frases):
    lp = modelo(frases[:, :-1]).log_softmax(-1)
    return -lp.gather(-1, frases[:, 1:, None]).mean()  # a 0-d tensor is a number too


def _reshape(modelo, frases):
    x, y = frases[:, :-1], frases[:, 1:]
    logits = modelo(x, causal=True)
    return float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1)))


def _loop(modelo, frases):
    total, n = 0.0, 0
    for fila in frases:
        logits = modelo(fila[None, :-1])[0]
        total += F.cross_entropy(logits, fila[1:], reduction="sum").item()
        n += len(fila) - 1
    return total / n


RIGHT = [_log_softmax_gather, _reshape, _loop]


def test_right_answers_written_other_ways_pass():
    for answer in RIGHT:
        verdict = check.use_loss(answer)
        assert verdict.status == "correct", (answer.__name__, verdict)


def test_each_known_mistake_is_named():
    assert len(use_loss.mistakes) >= 5
    for mistake in use_loss.mistakes:
        verdict = check.use_loss(mistake.fn)
        assert verdict.status == "wrong" and verdict.mistake == mistake.key, (mistake.key, verdict)
        assert mistake.message in verdict.message and "Con la entrada «" in verdict.message


def test_the_probes_tell_the_mask_apart():
    """On every probe, with and without the mask give different losses (else no_mask could pass)."""
    for probe in use_loss.PROBES:
        with torch.no_grad():
            con = use_loss.perdida_en_uso(*probe.fresh_args())
            sin = use_loss._no_mask(*probe.fresh_args())
        assert abs(con - sin) > 1e-3 * con, probe.name


def test_outside_the_gallery_a_difference_is_shown():
    def half(modelo, frases):
        return use_loss.perdida_en_uso(modelo, frases) / 2

    def tensor_out(modelo, frases):
        return modelo(frases[:, :-1])

    v = check.use_loss(half)
    assert v.status == "wrong" and v.mistake == "unknown" and "la diferencia es" in v.message
    v = check.use_loss(tensor_out)
    assert v.status == "wrong" and v.mistake == "type" and "no un número" in v.message


def test_stub_is_not_attempted_and_state_is_left_alone():
    def perdida_en_uso(modelo, frases):
        ...

    before = torch.get_rng_state()
    assert check.use_loss(perdida_en_uso).status == "not_attempted"
    assert check.use_loss(use_loss.perdida_en_uso).status == "correct"
    assert torch.equal(before, torch.get_rng_state())


def test_bits_are_ln2_apart():
    probe = use_loss.PROBES[0]
    with torch.no_grad():
        nats = use_loss.perdida_en_uso(*probe.fresh_args())
        bits = use_loss._bits(*probe.fresh_args())
    assert math.isclose(bits * math.log(2), nats, rel_tol=1e-6)


def test_all_ids_then_slicing_is_named_because_the_notebooks_gpt_reads_fifteen_words():
    """Feeding all T ids and dropping the last logits is the same loss under the mask, but notebook 04b's GPTs have
    ctx = 15 positions for its 16 ids: the checker names it (its probes include such GPTs) instead of passing it, and
    its advice is the model's own error's: pass ids[:, :-1] (the error is shown beside it in the verdict)."""
    from helpers import mask_experiment

    model, ids = mask_experiment.build_gpt(0), mask_experiment.eval_sequences()[:4]
    assert model.ctx == ids.shape[1] - 1
    try:
        use_loss._all_ids(model, ids)
    except ValueError as e:
        assert "ctx=15" in str(e)
    else:
        raise AssertionError("the notebook's GPT read all 16 ids")
    verdict = check.use_loss(use_loss._all_ids)
    assert verdict.mistake == "all_ids" and "ctx" in verdict.message
    said = " ".join(verdict.message.split())  # the verdict wraps its lines
    assert "Pasale ids[:, :-1]" in said and "pasale todos menos el último, [:, :-1]" in said, said
    assert "[:, -" not in said, "the model's error must not advise keeping the last ctx ids: the first is read"
    # the model's error names its own argument (idx, as every error of the GPT does: tests/test_bad_input.py), but
    # its advice writes no variable: beside «Pasale ids[:, :-1]», an «idx[...]» read as other advice
    assert "idx[" not in said, "the verdict's advice names the learner's ids, and the model's advice no variable"


def test_the_prompt_states_the_shapes_f_cross_entropy_needs():
    """A learner writes perdida_en_uso from its prompt alone: the prompt (the markdown above the stub) says that
    F.cross_entropy takes logits (N, 12) and targets (N,), not only hint(3)."""
    from pathlib import Path

    from helpers import lesson

    nb = lesson.read(Path(__file__).resolve().parent.parent / "notebooks" / "04b_gpt_con_mascara.ipynb")
    (ex,) = [ex for ex in lesson.exercise_cells(nb) if ex.name == "use_loss"]
    assert ex.variable == "perdida_en_uso"
    prompt = lesson.source(nb["cells"][ex.prompt])
    assert "F.cross_entropy" in prompt and "`(N, 12)`" in prompt and "`(N,)`" in prompt, prompt
    assert ".flatten" not in prompt and ".view" not in prompt  # the convention, not the answer: that is hint(3)
    assert "(N, 12)" in use_loss.HINTS[-1]


def test_each_word_against_itself_is_named_with_the_shift():
    """The most typical mistake, written as learners write it: the inputs cut, the answers the same cut (no shift by
    one). The verdict names it and says where the answers are: ids[:, 1:]."""
    def misma_cortada(modelo, ids):
        x = ids[:, :-1]
        logits = modelo(x)
        return float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), x.reshape(-1)))

    def misma_desde_la_segunda(modelo, ids):
        y = ids[:, 1:]
        return F.cross_entropy(modelo(y).flatten(0, 1), y.flatten()).item()

    for answer, key in ((misma_cortada, "own_word"), (misma_desde_la_segunda, "own_word_late")):
        verdict = check.use_loss(answer)
        assert verdict.status == "wrong" and verdict.mistake == key, (answer.__name__, verdict)
        assert "las respuestas son ids[:, 1:]" in " ".join(verdict.message.split()), verdict.message
