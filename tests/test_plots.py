"""The palette and plotting conveniences."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from helpers import plots  # noqa: E402


def test_same_colour_for_the_same_thing():
    assert plots.color("post-norm") != plots.color("pre-norm")
    assert plots.color("residual") != plots.color("plain")
    assert len(set(plots.COLORS.values())) >= 6


def test_unknown_colour_lists_the_names():
    with pytest.raises(KeyError, match="post-norm"):
        plots.color("postnorm")


def test_label_bars_writes_each_value():
    plots.use_house_style()
    fig, ax = plt.subplots()
    bars = ax.bar(["a", "b"], [0.387, -0.5])
    plots.label_bars(ax, bars, "{:.1%}")
    assert [t.get_text() for t in ax.texts] == ["38.7%", "-50.0%"]
    plt.close(fig)


def test_label_bars_on_horizontal_bars_writes_their_length():
    """Issue 32: on ax.barh the value is the width; the height is the bars' thickness."""
    fig, ax = plt.subplots()
    bars = ax.barh(["a", "b"], [3.25, 7.5], height=0.8)
    plots.label_bars(ax, bars, "{:.2f}")
    assert [t.get_text() for t in ax.texts] == ["3.25", "7.50"]
    assert [t.xy for t in ax.texts] == [(3.25, 0.0), (7.5, 1.0)]
    plt.close(fig)


def test_show_in_a_plain_script_prints_the_alt_text_not_base64(tmp_path):
    """Issue 32: outside IPython the display dictionary went to stdout (34 KB of base64)."""
    import subprocess
    import sys

    script = tmp_path / "figura.py"
    script.write_text("import matplotlib.pyplot as plt\nfrom helpers import plots\nfig, ax = plt.subplots()\n"
                      "ax.plot([1, 2])\nplots.show(fig, 'Una recta que sube de 1 a 2 en dos puntos, de prueba.')\n",
                      encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "MPLBACKEND": "Agg"})
    assert out.returncode == 0, out.stderr
    assert out.stdout == "Figura: Una recta que sube de 1 a 2 en dos puntos, de prueba.\n", out.stdout[:200]
