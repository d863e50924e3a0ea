"""helpers' public API says what it is: each module's __all__ is what dir() shows, internals are _-named, one
name has one contract across the package, the notebooks use only public names, one concept has one name."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re

import pytest
from conftest import NOTEBOOKS, ROOT

import helpers

# helpers.check is the check helper's (issue 20); helpers.claims was settled before this round
OURS = ["helpers"] + sorted(m.name for m in pkgutil.walk_packages(helpers.__path__, "helpers.")
              if not m.name.startswith(("helpers.check.", "helpers.claims")) and m.name != "helpers.check")
PUBLIC = [name for name in OURS if not any(part.startswith("_") for part in name.split("."))]
VALIDATORS = set(importlib.import_module("helpers._validate").__all__)
# names two public modules still share with different meanings, each until the change that removes it lands;
# the test fails when one is no longer shared, so the entry goes with it
KNOWN_CLASHES: dict[str, str] = {}  # name -> why two public objects share it (none now)


def _module(name):
    return importlib.import_module(name)


def _top_level_names(module) -> set[str]:
    """Names a module defines at its top level (def, class, assignment), read from its source."""
    tree = ast.parse(inspect.getsource(module))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names - {"__all__"}


def test_the_modules_are_found():
    assert {"helpers.blocks", "helpers.engine", "helpers.sweep", "helpers.sweep_train", "helpers.widgets",
            "helpers.widgets.explorer", "helpers._validate"} <= set(OURS), OURS


@pytest.mark.parametrize("name", OURS)
def test_every_module_declares_what_is_public(name):
    module = _module(name)
    assert isinstance(getattr(module, "__all__", None), list), f"{name} has no __all__"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it lacks: {missing}"
    assert len(set(module.__all__)) == len(module.__all__), f"{name}.__all__ repeats a name"
    undeclared = sorted(n for n in _top_level_names(module) - set(module.__all__)
                        if not n.startswith("_") and not (n.startswith("__") and n.endswith("__")))
    assert not undeclared, f"{name}: public-looking names outside __all__ (export them or name them _x): {undeclared}"


@pytest.mark.parametrize("name", PUBLIC)
def test_dir_shows_what_the_module_offers_not_validators_or_imports(name):
    module = _module(name)
    assert dir(module) == sorted(module.__all__), f"dir({name}) shows more than its __all__"
    assert not VALIDATORS & set(dir(module)), f"dir({name}) shows validators"


def test_one_name_one_contract_across_the_package():
    """A name exported by two public modules is the same object (a re-export), never two different things."""
    modules = PUBLIC[1:] + ["helpers.check"]  # the checkers' names count too: notebooks see both
    owners: dict[str, dict[int, str]] = {}
    for name in modules:
        module = _module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if not inspect.ismodule(obj):
                owners.setdefault(attr, {}).setdefault(id(obj), f"{name}.{attr}")
    clashes = {attr: sorted(where.values()) for attr, where in owners.items() if len(where) > 1}
    assert set(clashes) == set(KNOWN_CLASHES), {k: v for k, v in clashes.items() if k not in KNOWN_CLASHES} or (
        f"no longer shared, drop from KNOWN_CLASHES: {set(KNOWN_CLASHES) - set(clashes)}")


def test_the_notebooks_use_only_public_names():
    pattern = re.compile(r"\bhelpers\.([a-z_]+)\.([A-Za-z_]\w*)")
    used = set()
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                used |= {(path.name, *m.groups()) for m in pattern.finditer("".join(cell["source"]))}
    assert used, "no helpers.<module>.<name> found in the notebooks: the pattern is wrong"
    wrong = sorted((nb, mod, attr) for nb, mod, attr in used
                   if mod != "check" and attr not in getattr(_module(f"helpers.{mod}"), "__all__", ()))
    assert not wrong, f"notebooks use names their module does not export: {wrong}"


# depth is n_layers, placement is norm; PyTorch's norm_first only where we call PyTorch
OTHER_NAMES = {"depth": "n_layers", "N": "n_layers", "L": "n_layers", "num_layers": "n_layers",
               "pre": "norm", "norm_first": "norm", "placement": "norm"}


def _signatures():
    for name in PUBLIC:
        module = _module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.isclass(obj):
                members = [(f"{attr}.{m}", f) for m, f in vars(obj).items() if inspect.isfunction(f)]
                yield from ((f"{name}.{label}", f) for label, f in members)
                for field in getattr(obj, "__dataclass_fields__", {}):
                    yield f"{name}.{attr} field", field
            elif callable(obj):
                yield f"{name}.{attr}", obj


def test_one_concept_one_name():
    wrong = []
    for where, obj in _signatures():
        params = [obj] if isinstance(obj, str) else list(inspect.signature(obj).parameters)
        wrong += [f"{where}: {p} (say {OTHER_NAMES[p]})" for p in params if p in OTHER_NAMES]
    assert not wrong, wrong


def test_no_noqa_for_rules_ruff_does_not_run():
    """A `# noqa: CODE` for a rule pyproject does not select documents a check nobody runs."""
    from facts import pyproject

    prefixes = tuple(pyproject()["tool"]["ruff"]["lint"]["select"])
    files = [*(ROOT / "helpers").rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / ".ci").rglob("*.py")]
    stray = [f"{p.relative_to(ROOT)}: {code}" for p in files
             for code in re.findall(r"#\s*noqa:\s*([A-Z]+\d+)", p.read_text(encoding="utf-8"))
             if not code.startswith(prefixes)]
    assert not stray, stray
