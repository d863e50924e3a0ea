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
