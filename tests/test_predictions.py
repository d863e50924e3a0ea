"""helpers.predictions (the questions, written once) and helpers.widgets.Prediction (their buttons), and that every
notebook asks at least one, before the cell that answers it, with the stored question equal to the data's (where a
bet sits is its cells' role: helpers.lesson)."""

import html

import pytest
from conftest import NOTEBOOKS

from helpers import lesson, predictions
from helpers.widgets import Prediction


def asks(nb_path):
    """(cell index, key) of each question with buttons the notebook asks, and its cells."""
    nb = lesson.read(nb_path)
    return [(b.question, k) for k, b in lesson.bet_cells(nb).items() if k in predictions.keys()], nb["cells"]


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_notebook_asks_before_the_cell_that_answers(nb_path):
    found, cells = asks(nb_path)
    assert found, f"{nb_path.name} asks no prediction question (helpers.predictions.ask)"
    for i, key in found:
        q = predictions.question(key)
        assert q.notebook == nb_path.name
        assert "apost" in "".join(cells[i - 1]["source"]).lower(), "the markdown above asks for the bet"
        assert cells[i + 1]["cell_type"] == "code", "the question comes right before the cell that answers it"
        shown = [o for o in cells[i]["outputs"] if "text/html" in o.get("data", {})]
        assert len(shown) == 1 and "".join(shown[0]["data"]["text/html"]) == q.html(), \
            "the stored question, readable unrun, is the data's (re-execute the notebook)"


def test_every_question_is_asked_in_its_notebook():
    asked = {key for p in NOTEBOOKS for _, key in asks(p)[0]}
    assert asked == set(predictions.keys())
    assert {"05-depth", "02-depth96", "04-mask"} <= asked


def test_one_sentence_per_option_right_and_wrong():
    q = predictions.question("05-depth")
    right = [i for i, o in enumerate(q.options) if o.correct]
    assert right == [1]
    assert predictions.verdict("05-depth", "b") == predictions.verdict("05-depth", 1)
    assert predictions.verdict("05-depth", "B").startswith("Sí, b) es la respuesta: ")
    wrong = predictions.verdict("05-depth", "a")
    assert wrong.startswith("No, a) no es la respuesta: ") and q.options[0].why in wrong
    assert len({predictions.verdict("05-depth", i) for i in range(len(q.options))}) == len(q.options)


@pytest.mark.parametrize("choice", ["z", 7, -1, True, None, "ab", 1.0])
def test_a_choice_that_is_no_option_is_refused_in_spanish(choice):
    with pytest.raises(ValueError, match="elegí una opción de a, b, c, d"):
        predictions.verdict("05-depth", choice)


def test_an_unknown_question_lists_the_ones_there_are():
    with pytest.raises(KeyError, match="05-depth"):
        predictions.question("05-profundidad")


def test_a_bet_says_what_it_asks_not_where_it_sits():
    """Which cells ask and answer a bet is on the cells (helpers.lesson); predictions.json keeps what a bet says."""
    import json
    from importlib import resources

    data = json.loads(resources.files("helpers").joinpath("data/predictions.json").read_text(encoding="utf-8"))
    allowed = {"notebook", "gives_away", "question", "options"}
    assert all(set(bet) <= allowed for bet in data.values()), {k: set(b) - allowed for k, b in data.items()}


def test_a_question_without_exactly_one_right_option_is_refused():
    two = {"x": {"notebook": "n", "question": "?", "options": [
        {"text": "a", "correct": True, "why": "."}, {"text": "b", "correct": True, "why": "."}]}}
    with pytest.raises(ValueError, match="una sola correcta"):
        predictions._parse(two)


def test_a_bet_without_buttons_is_refused():
    """A bet in words only left the learner no way to commit (issue 51's blind read): every bet has options."""
    with pytest.raises(ValueError, match="sin botones"):
        predictions._parse({"x": {"notebook": "n", "gives_away": ["sí"]}})


@pytest.fixture
def fresh():
    """No bet kept from another test (helpers.predictions keeps a session's first answers)."""
    predictions._kept.clear()
    yield
    predictions._kept.clear()


def test_the_first_click_is_the_bet_and_later_ones_are_after_it(fresh):
    w = Prediction("02-depth96")
    assert [b.description for b in w.buttons] == ["a)", "b)", "c)", "d)"]
    assert "Elegí" in w.answer.value
    w.buttons[1].click()  # a wrong option first: that is the bet
    bet = w.answer.value
    assert w.choice == 1 and html.escape(predictions.first("02-depth96", 1)) in bet
    assert "Apostaste b); era c), porque " in bet and w.later.value == ""
    assert [b.button_style for b in w.buttons] == ["", "info", "", ""]
    w.buttons[2].click()  # then the right one: the bet stays, the sentence is labelled as after it
    assert w.choice == 1 and w.answer.value == bet and w.looked == 2
    assert html.escape(predictions.after("02-depth96", 2)) in w.later.value
    assert "Después de apostar" in w.later.value
    assert [b.button_style for b in w.buttons] == ["", "info", "", ""]


def test_rerunning_the_cell_keeps_the_bet(fresh):
    Prediction("05-depth").buttons[0].click()
    again = Prediction("05-depth")
    assert again.choice == 0 and "Apostaste a); era b)" in again.answer.value
    again.buttons[1].click()
    assert again.choice == 0 and "Después de apostar" in again.later.value


def test_the_bet_is_said_back_with_the_right_option_and_why():
    for key in predictions.keys():
        q = predictions.question(key)
        right = next(i for i, o in enumerate(q.options) if o.correct)
        for i, o in enumerate(q.options):
            said = predictions.first(key, i)
            assert said.startswith(f"Apostaste {predictions.LETTERS[i]})")
            assert q.options[right].why in said and o.why in said
            assert ("acertaste" in said) == (i == right)
        assert predictions.after(key, 0).endswith(predictions.verdict(key, 0))


def test_options_are_alike_in_length():
    """02-depth96 had one option naming a combination, the right one, twice the others' length."""
    for key in predictions.keys():
        lengths = [len(o.text) for o in predictions.question(key).options]
        right = next(len(o.text) for o in predictions.question(key).options if o.correct)
        assert max(lengths) <= 2.5 * min(lengths), f"{key}: option lengths {lengths}"
        assert right != max(lengths) or lengths.count(right) > 1 or right < 1.3 * sorted(lengths)[-2], key


def test_every_question_states_its_conditions():
    q = {k: predictions.question(k).text for k in predictions.keys()}
    assert "600 pasos" in q["04-mask"], "04's answer holds after 600 steps only (before step 250, b is right)"
    assert "sin entrenar" in q["02-depth96"] and "sin entrenar" in q["01-relu"]
    assert "modo entrenamiento" in q["03-batch"], "in eval mode BatchNorm uses running statistics"
    assert "1 500 pasos" in q["05-depth"] and "sin warmup" in q["05-depth"]
