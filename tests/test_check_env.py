"""helpers.check_env: the version check is a pure function; the ranges come from the package metadata."""

from __future__ import annotations

import subprocess
import sys

import pytest
from packaging.requirements import Requirement

from helpers import check_env

RANGES = {"torch": Requirement("torch>=2.4,<3"), "ipywidgets": Requirement("ipywidgets>=7.7,<9")}


def test_everything_in_range():
    found = check_env.compare_versions({"torch": "2.11.0", "ipywidgets": "7.7.1", "numpy": "2.1.0",
                                      "matplotlib": "3.10.0", "ipython": "7.34.0"}, "3.13.1", RANGES, ">=3.11")
    assert all(f.ok for f in found), found


def test_problems_get_spanish_messages():
    found = {f.name: f for f in check_env.compare_versions(
        {"torch": "1.13.0", "ipywidgets": None, "numpy": "2.1.0", "matplotlib": "3.10.0", "ipython": "8.0"},
        "3.9.7", RANGES, ">=3.11")}
    assert not found["python"].ok and "necesita Python >=3.11" in found["python"].message
    assert not found["torch"].ok and "fuera de lo que la serie probó" in found["torch"].message
    assert not found["ipywidgets"].ok and "no está instalado" in found["ipywidgets"].message


def test_ranges_come_from_the_installed_package():
    ranges = check_env.supported_ranges()
    assert {"torch", "numpy", "matplotlib", "ipywidgets", "ipython"} <= set(ranges)


def test_in_a_terminal_a_healthy_environment_is_healthy(capsys):
    """Widgets cannot show outside a notebook: that is a note, not a problem (exit 0 here, where all is installed)."""
    widgets = check_env.widgets_can_render()
    assert widgets.ok and widgets.note and "dentro de un notebook" in widgets.message
    assert check_env.main() == 0
    out = capsys.readouterr().out
    assert "torch" in out and "Todo en orden." in out


@pytest.mark.parametrize("package, module", [("torch", "torch"), ("matplotlib", "matplotlib"),
                                             ("ipywidgets", "ipywidgets")])
def test_speaks_spanish_when_a_package_cannot_be_imported(tmp_path, package, module):
    """`python -m helpers.check_env` with a package that fails to import: a diagnosis, not a traceback."""
    fake = tmp_path / module
    fake.mkdir()
    (fake / "__init__.py").write_text('raise ImportError("libfalsa.so: cannot open shared object file")\n')
    proc = subprocess.run([sys.executable, "-m", "helpers.check_env"], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"✘ {package} " in proc.stdout and "no se puede importar" in proc.stdout
    assert "libfalsa.so" in proc.stdout and "1 problema(s)" in proc.stdout


def test_a_helper_that_needs_a_broken_package_says_so(tmp_path):
    (tmp_path / "matplotlib").mkdir()
    (tmp_path / "matplotlib" / "__init__.py").write_text('raise ImportError("rota")\n')
    code = "import helpers\ntry:\n    helpers.plots\nexcept ImportError as e:\n    print(e)\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, cwd=tmp_path)
    assert "helpers.plots no se pudo cargar" in proc.stdout and "check_env" in proc.stdout, proc.stdout + proc.stderr
