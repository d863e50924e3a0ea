"""Notebook 05's sweep explorer: the pure function (helpers.sweep.explore), its figure and its widget shell,
without any front end; and the progress line of long cells (helpers.progress)."""

from __future__ import annotations

import io
import struct

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from helpers import plots, progress, sweep, sweep_train, widgets  # noqa: E402

DATA = sweep.load()


def test_explore_24_layers_post_norm_without_warmup_never_escapes():
    e = sweep.explore(24, "post", 0, data=DATA)
    assert [c.seed for c in e.curves] == [0, 1, 2] and not e.missing
    assert all(c.escape is None for c in e.curves)
    assert e.lines()[0].startswith("post-norm, semilla 0: no salió en 1 500 pasos")


def test_explore_agrees_with_the_notebooks_definition_of_escape():
    for part in DATA["slices"].values():
        for r in part:
            if r.get("independent_layers"):  # not shown by the explorer (next test)
                continue
            e = sweep.explore(r["n_layers"], r["norm"], r["warmup"], r["seed"], data=DATA)
            (c,) = e.curves
            first = next((s for s, a in zip(r["steps"], r["acc"]) if a >= 0.6), None)
            assert c.escape == first and list(c.acc) == r["acc"]


def test_explore_leaves_out_the_runs_with_independent_layers():
    """The independent12 slice repeats curves12's (depth, norm, warmup, seed) with other initial weights:
    the explorer shows PyTorch's copied layers only, one curve per combination."""
    independent = [r for part in DATA["slices"].values() for r in part if r.get("independent_layers")]
    assert independent and {(r["n_layers"], r["warmup"]) for r in independent} == {(12, 0)}
    e = sweep.explore(12, "ambas", 0, data=DATA)
    stored = {(r["norm"], r["seed"]): r["acc"] for r in DATA["slices"]["curves12"]}
    assert [(c.norm, c.seed) for c in e.curves] == sorted(stored)
    assert all(list(c.acc) == stored[c.norm, c.seed] for c in e.curves)
    assert sweep.available(DATA)[12, "post", 0] == [0, 1, 2, 3, 4]


def test_explore_both_placements_and_one_seed():
    e = sweep.explore(12, "ambas", 0, 3, data=DATA)
    assert [(c.norm, c.seed) for c in e.curves] == [("post", 3), ("pre", 3)]
    assert e.lines()[0] == "post-norm, semilla 3: sale en el paso 375 (acierto final 100%)"


def test_missing_combinations_are_said_plainly():
    e = sweep.explore(12, "pre", 200, data=DATA)
    assert not e.curves
    assert e.missing == ("El barrido no corrió pre-norm con 12 capas y warmup 200. De pre-norm con 12 capas "
                         "tiene: sin warmup (semillas 0 a 4).",)
    e = sweep.explore(6, "post", 0, 4, data=DATA)
    assert e.missing == ("El barrido no tiene la semilla 4 de post-norm con 6 capas y sin warmup: hay "
                         "semillas 0 a 2.",)
    e = sweep.explore(6, "ambas", 100, data=DATA)  # neither placement: one sentence each
    assert len(e.missing) == 2 and not e.curves


@pytest.mark.parametrize("args, words", [
    ((8,), "n_layers (capas) debe ser uno de 6, 12, 24"),
    ((12, "prenorm"), "norm debe ser uno de 'post', 'pre', 'ambas'"),
    ((12, "pre", 150), "warmup debe ser uno de 0, 50, 100, 200, 400"),
    ((12, "pre", 0, 7), "seed (semilla) debe ser uno de 'todas', 0, 1, 2, 3, 4"),
    ((12, "pre", True), "warmup debe ser un número"),
    ((12, "pre", 0, False), "seed (semilla) debe ser un número"),
])
def test_explore_bad_input(args, words):
    with pytest.raises((TypeError, ValueError), match=words.replace("(", r"\(").replace(")", r"\)")):
        sweep.explore(*args, data=DATA)


def test_draw_exploration_marks_escapes_and_censored_runs():
    fig, ax = plt.subplots()
    plots.draw_exploration(ax, sweep.explore(24, "ambas", 0, data=DATA))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["post-norm", "pre-norm", "umbral: 60 %", "siempre «0»: 38.7 %", "sale de la meseta",
                      "no salió en 1 500 pasos"]
    styles = {line.get_label(): line.get_linestyle() for line in ax.lines if line.get_label() in ("post-norm",
                                                                                                  "pre-norm")}
    assert styles == {"post-norm": "-", "pre-norm": "--"}  # a second cue besides colour
    open_markers = [line for line in ax.lines if line.get_markerfacecolor() == "white" and line.get_xdata().size]
    assert len(open_markers) == 3  # the three post-norm runs that never left
    plt.close(fig)
    with pytest.raises(TypeError, match="helpers.sweep.explore"):
        plots.draw_exploration(plt.subplots()[1], [1, 2])
    plt.close("all")


def _png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


def test_explorer_widget_is_a_shell_over_explore():
    w = widgets.SweepExplorer(24, "post", 0)
    assert w.exploration == sweep.explore(24, "post", 0, data=DATA)
    assert "no salió en 1 500 pasos" in w.info.value and w.plot.layout.display is None
    width, _ = _png_size(w.plot.value)
    assert width == 2 * int(w.plot.width)  # drawn at twice the CSS width it is shown with
    w.warmup.value, w.norm.value = 200, "pre"
    assert "El barrido no corrió pre-norm con 24 capas y warmup 200" in w.info.value
    assert w.plot.layout.display == "none"  # no empty plot
    w.norm.value, w.warmup.value, w.seed.value = "ambas", 0, 1
    assert [(c.norm, c.seed) for c in w.exploration.curves] == [("post", 1), ("pre", 1)]
    with pytest.raises(ValueError, match="n_layers"):
        widgets.SweepExplorer(7)


def test_widget_images_are_sharp_and_sliders_long():
    for w in (widgets.FourNumbers(), widgets.GammaBeta()):
        width, _ = _png_size(w.plot.value)
        assert width == widgets._image.PIXEL_RATIO * int(w.plot.width)
        assert w.plot.layout.align_self == "flex-start"  # not stretched by the flex box
    g = widgets.GammaBeta()
    assert all(s.layout.width == "440px" for s in g.gammas + g.betas)


# ------------------------------------------------------------------------------------------ progress
class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_progress_line_says_step_total_and_time_left():
    out, clock = io.StringIO(), Clock()
    bar = progress.Progress(400, "red sin residual", every=0.5, stream=out, clock=clock)
    clock.t = 10.0
    bar.update(100)
    assert out.getvalue() == "\rred sin residual: paso 100 de 400 · faltan ~30 s"
    clock.t = 10.2
    bar.update(101)  # throttled: less than 0.5 s since the last line
    assert out.getvalue().count("\r") == 1
    clock.t = 200.0
    bar.update(400)
    assert out.getvalue().endswith("\rred sin residual: paso 400 de 400 · listo en 3 min")
    bar.close()
    assert out.getvalue().endswith("\r")


def test_progress_leaves_nothing_once_the_cell_prints_its_result():
    """What nbval and nbclient keep of a stream: everything before a carriage return followed by text goes."""
    from nbval.plugin import carriagereturn_pat
    out = io.StringIO()
    for _ in progress.steps(50, "entrenando", every=0.0, stream=out):
        pass
    out.write("acierto final: 100 %\n")
    assert carriagereturn_pat.sub("", out.getvalue()) == "acierto final: 100 %\n"
    from nbclient.client import _RGX_CARRIAGERETURN
    assert _RGX_CARRIAGERETURN.sub("", out.getvalue()) == "acierto final: 100 %\n"


def test_progress_steps_over_an_iterable_and_bad_input():
    out = io.StringIO()
    assert list(progress.steps([6, 12, 24], "capas", every=0.0, stream=out)) == [6, 12, 24]
    assert "capas: paso 3 de 3" in out.getvalue()
    assert list(progress.steps(3, every=0.0, stream=io.StringIO())) == [1, 2, 3]
    with pytest.raises(ValueError, match=r"items \(la cantidad de pasos\) debe ser un entero positivo"):
        progress.steps(0)  # refused when called, before any loop starts
    with pytest.raises(TypeError, match="cantidad de pasos"):
        progress.steps(True)
    with pytest.raises(TypeError, match="o una lista/range.*generator"):
        progress.steps(x for x in range(3))
    with pytest.raises(TypeError, match=r"sin comillas \(200\)"):
        progress.steps("200")
    with pytest.raises(ValueError, match="done debe ser un entero entre 0 y total=5"):
        progress.Progress(5, stream=io.StringIO()).update(10)
    with pytest.raises(TypeError, match="label debe ser un texto"):
        progress.Progress(3, label=5)


def test_a_missing_or_broken_sweep_file_says_which_and_how_to_regenerate(monkeypatch, tmp_path):
    monkeypatch.setattr(sweep, "_FILE", "data/no_esta.json")  # the packaged file gone, as after a bad install
    with pytest.raises(FileNotFoundError, match=r"no_esta\.json.*make sweep.*python -m helpers\.sweep_train"):
        sweep.load()
    broken = tmp_path / "norm_sweep.json"
    broken.write_text('{"meta": {}, "slices": {"depth6": [{"norm": "pre"', encoding="utf-8")
    with pytest.raises(ValueError, match=r"norm_sweep\.json está dañado: no es JSON válido.*cortado.*make sweep"):
        sweep.load(broken)
    assert sweep.load(sweep_train.DATA) == DATA  # the file the CLI writes is the one load reads
