"""helpers.check_env: the version check is a pure function; the ranges come from the package metadata."""

from __future__ import annotations

from packaging.requirements import Requirement

from helpers import check_env

RANGES = {"torch": Requirement("torch>=2.4,<3"), "ipywidgets": Requirement("ipywidgets>=7.7,<9")}


def test_everything_in_range():
    found = check_env.check_versions({"torch": "2.11.0", "ipywidgets": "7.7.1", "numpy": "2.1.0",
                                      "matplotlib": "3.10.0", "ipython": "7.34.0"}, "3.13.1", RANGES, ">=3.11")
    assert all(f.ok for f in found), found


def test_problems_get_spanish_messages():
    found = {f.name: f for f in check_env.check_versions(
        {"torch": "1.13.0", "ipywidgets": None, "numpy": "2.1.0", "matplotlib": "3.10.0", "ipython": "8.0"},
        "3.9.7", RANGES, ">=3.11")}
    assert not found["python"].ok and "necesita Python >=3.11" in found["python"].message
    assert not found["torch"].ok and "fuera de lo que la serie probó" in found["torch"].message
    assert not found["ipywidgets"].ok and "no está instalado" in found["ipywidgets"].message


def test_ranges_come_from_the_installed_package():
    ranges = check_env.supported_ranges()
    assert {"torch", "numpy", "matplotlib", "ipywidgets", "ipython"} <= set(ranges)


def test_outside_a_notebook_widgets_cannot_render(capsys):
    assert not check_env.widgets_can_render().ok
    assert check_env.main() in (0, 1)
    assert "torch" in capsys.readouterr().out
