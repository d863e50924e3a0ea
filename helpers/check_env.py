"""Environment check a learner can run when something fails: `python -m helpers.check_env`
(or, in a notebook cell, `helpers.check_env.main()`). Messages in Spanish; the supported ranges come
from this package's own metadata (pyproject.toml), so they are written once."""

from __future__ import annotations

import importlib
import importlib.util
import platform
import sys
from dataclasses import dataclass
from importlib import metadata

# Nothing heavy is imported at module level (not even `packaging`): this check must still speak, in
# Spanish, when torch, matplotlib, ipywidgets or packaging is missing or broken.
__all__ = ["Finding", "VersionMismatch", "compare_versions", "import_problem", "inspect_install", "installed_version",
           "main", "repository_url", "require", "supported_ranges", "widgets_can_render"]

_DIST = "leccion06-helpers"
_CHECKED = ("torch", "numpy", "matplotlib", "ipywidgets", "ipython")
_MODULE = {"ipython": "IPython"}  # distribution name -> import name, where they differ


def __dir__():
    return __all__


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    message: str
    note: bool = False  # information, neither a success nor a problem


def installed_version() -> str | None:
    """The installed release of helpers (pyproject's version, as packaging recorded it), or None."""
    try:
        return metadata.version(_DIST)
    except metadata.PackageNotFoundError:
        return None


def repository_url() -> str | None:
    """The repository's address, from the installed package's [project.urls] Repository."""
    try:
        entries = metadata.metadata(_DIST).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in entries:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "repository":
            return url.strip().rstrip("/")
    return None


class VersionMismatch(Exception):
    """The installed helpers is not the release a notebook was written with. In IPython it shows as its Spanish
    message alone (``_render_traceback_``), and it stops "Run all" before a later cell fails obscurely."""

    def __init__(self, wanted: str, installed: str | None):
        if not isinstance(wanted, str) or not wanted.strip():
            raise TypeError(f"wanted debe ser la versión del notebook como texto, por ejemplo \"1.0.0\"; recibí "
                            f"{wanted!r}")
        if installed is not None and not isinstance(installed, str):
            raise TypeError(f"installed debe ser la versión instalada como texto, o None si no se encontró; recibí "
                            f"{installed!r} ({type(installed).__name__})")
        self.wanted, self.installed = wanted, installed
        repo = repository_url()
        have = f"tenés instalada la {installed}" if installed else "no encuentro qué versión tenés instalada"
        fix = ([f'       %pip install -q --force-reinstall --no-deps "leccion06-helpers @ git+{repo}@v{wanted}"',
                "   y después reiniciá el kernel (en Colab: Entorno de ejecución → Reiniciar sesión) y corré todo de",
                "   nuevo, desde la primera celda."] if repo else
               ["       make lab", "   en la carpeta del repositorio (instala la versión de ese repositorio)."])
        self.lines = [
            f"⚠️  Este notebook se escribió con helpers {wanted}, pero {have}.",
            "   Con otra versión, alguna celda de más abajo puede fallar sin que se entienda por qué.",
            "   Para usar la de este notebook, corré esto en una celda:" if repo else
            "   Para usar la de este notebook, corré en una terminal:",
            *fix,
        ]
        super().__init__("\n".join(self.lines))

    def _render_traceback_(self) -> list[str]:
        return self.lines


def require(version: str) -> None:
    """The setup cell's check (a stable contract: every released notebook calls it): the installed helpers is
    ``version``, or VersionMismatch says how to install it."""
    if not isinstance(version, str) or not version.strip():
        raise TypeError(f"require espera la versión como texto, por ejemplo \"1.0.0\"; recibió {version!r}")
    installed = installed_version()
    if installed != version.strip():
        raise VersionMismatch(version.strip(), installed)


def supported_ranges() -> dict:
    """The dependency ranges of the installed package, by lower-case name."""
    from packaging.requirements import Requirement

    reqs = [Requirement(r) for r in metadata.requires(_DIST) or []]
    return {r.name.lower(): r for r in reqs if not r.marker}


def import_problem(name: str) -> str | None:
    """None if ``name`` imports; else the first line of the error it raises."""
    try:
        importlib.import_module(_MODULE.get(name, name))
    except Exception as e:  # a broken install raises anything: ImportError, OSError, AttributeError...
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip(": ")
    return None


def compare_versions(installed: dict[str, str | None], python: str, ranges: dict,
                   requires_python: str) -> list[Finding]:
    """Pure check of versions against ranges (``None``: not installed)."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    found = []
    ok_py = Version(python) in SpecifierSet(requires_python)
    found.append(Finding("python", ok_py, f"Python {python}" + ("" if ok_py else
                         f": la serie necesita Python {requires_python}. En Colab no pasa; en tu máquina "
                         "instalá un Python más nuevo y corré `make lab` de nuevo.")))
    for name in _CHECKED:
        req, ver = ranges.get(name), installed.get(name)
        if ver is None:
            found.append(Finding(name, False, f"{name} no está instalado: en tu máquina corré `make lab`; "
                                              f"en Colab, reiniciá el entorno y corré la primera celda."))
        elif req is not None and not req.specifier.contains(Version(ver), prereleases=True):
            found.append(Finding(name, False, f"{name} {ver} está fuera de lo que la serie probó ({req.specifier})"
                                              f": instalá una versión dentro de ese rango (`make lab` lo hace)."))
        else:
            found.append(Finding(name, True, f"{name} {ver}"))
    return found


def widgets_can_render() -> Finding:
    """Whether a widget shown from this process can appear: a Jupyter kernel, and a front end that knows them."""
    try:
        from IPython import get_ipython
    except Exception:
        return Finding("widgets", False, "No hay IPython: los widgets solo se ven dentro de un notebook.")
    shell = get_ipython()
    if shell is None or not hasattr(shell, "kernel"):
        return Finding("widgets", True, "Widgets: se comprueban dentro de un notebook (corré "
                                        "`helpers.check_env.main()` en una celda); en una terminal no se pueden ver.",
                       note=True)
    if "google.colab" in sys.modules:
        return Finding("widgets", True, "Colab: los widgets básicos de ipywidgets se ven sin hacer nada.")
    if importlib.util.find_spec("jupyterlab_widgets") is None:
        return Finding("widgets", False, "Falta jupyterlab_widgets: JupyterLab mostraría el texto "
                                         "'VBox(...)' en vez del widget. `make lab` lo instala.")
    return Finding("widgets", True, "kernel de Jupyter con jupyterlab_widgets: los widgets deberían verse.")


def inspect_install() -> list[Finding]:
    """Every finding for this Python process."""
    installed = {}
    for name in _CHECKED:
        try:
            installed[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed[name] = None
    if importlib.util.find_spec("packaging") is None:
        return [Finding("packaging", False, "Falta el paquete packaging, que helpers necesita: en tu máquina "
                                            "corré `make lab`; en Colab, `%pip install packaging`.")]
    try:
        ranges = supported_ranges()
        requires_python = metadata.metadata(_DIST)["Requires-Python"] or ">=3"
    except metadata.PackageNotFoundError:
        return [Finding("helpers", False, "helpers no está instalado como paquete: corré `make lab` "
                                          "(o la primera celda del notebook en Colab).")]
    found = [Finding("helpers", True, f"helpers {installed_version()}", note=True)]
    found += compare_versions(installed, platform.python_version(), ranges, requires_python)
    for i, f in enumerate(found):
        problem = installed.get(f.name) and import_problem(f.name)
        if problem:
            found[i] = Finding(f.name, False, f"{f.name} {installed[f.name]} está instalado pero no se puede "
                                              f"importar ({problem}). En tu máquina: `make clean && make lab`; "
                                              "en Colab: Entorno de ejecución → Reiniciar sesión, y corré "
                                              "la primera celda de nuevo.")
    if any(f.name == "ipywidgets" and not f.ok for f in found):
        return found
    return found + [widgets_can_render()]


def main() -> int:
    """Print the report; return 0 if everything is fine, 1 otherwise."""
    found = inspect_install()
    for f in found:
        print(("· " if f.note else "✔ " if f.ok else "✘ ") + f.message)
    bad = [f for f in found if not f.ok]
    print("Todo en orden." if not bad else f"{len(bad)} problema(s): mirá «Si algo falla» en el README.")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
