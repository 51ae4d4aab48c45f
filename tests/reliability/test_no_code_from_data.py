"""Never run code from data.

1. No module in ``model/``, ``validators/``, ``play/`` or ``editor/`` calls ``eval``/``exec``/
   ``compile``/``__import__``, an unsafe YAML loader (``yaml.load``, ``yaml.unsafe_load``,
   ``yaml.full_load``, ``yaml.Loader``/``UnsafeLoader``/``FullLoader`` and their C forms) or
   ``pickle``/``marshal``/``shelve``. Checked on the syntax tree, so comments, docstrings and
   Qt's ``dialog.exec()`` method do not count.
2. Rule packs come only from installed code: the registry imports ``validators.packs.<name>``
   for names in the literal tuple ``PACKS``, and nothing a YAML file says can add a name.
"""

from __future__ import annotations

import ast
import importlib
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO

SCANNED = ("model", "validators", "play", "editor")
BANNED_CALLS = {"eval", "exec", "compile", "__import__"}
BANNED_ATTRS = {
    ("yaml", "load"), ("yaml", "load_all"), ("yaml", "unsafe_load"), ("yaml", "unsafe_load_all"),
    ("yaml", "full_load"), ("yaml", "full_load_all"), ("yaml", "Loader"), ("yaml", "UnsafeLoader"),
    ("yaml", "FullLoader"), ("yaml", "CLoader"), ("yaml", "CUnsafeLoader"), ("yaml", "CFullLoader"),
    ("pickle", "load"), ("pickle", "loads"), ("marshal", "load"), ("marshal", "loads"),
    ("shelve", "open"), ("dill", "load"), ("dill", "loads"),
}
BANNED_MODULES = {"pickle", "marshal", "shelve", "dill", "cloudpickle"}
UNSAFE_YAML_NAMES = {"Loader", "UnsafeLoader", "FullLoader", "CLoader", "CUnsafeLoader", "CFullLoader",
                     "load", "load_all", "unsafe_load", "full_load"}
# The one place allowed to import by name: the pack registry (checked separately below).
IMPORT_BY_NAME_ALLOWED = {"validators/registry.py"}


def _sources() -> list[Path]:
    return sorted(p for d in SCANNED if (REPO / d).is_dir() for p in (REPO / d).rglob("*.py"))


def _safe_yaml_load(call: ast.Call) -> bool:
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "yaml" and func.attr in ("load", "load_all")):
        return False
    loader = next((k.value for k in call.keywords if k.arg == "Loader"), None)
    if loader is None:
        return False
    names = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", None) for n in ast.walk(loader)}
    names |= {n.value for n in ast.walk(loader) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    # Every loader the expression can name must be a safe one.
    loaders = {n for n in names if isinstance(n, str) and n.endswith("Loader")}
    return bool(loaders) and all(n in ("SafeLoader", "CSafeLoader") for n in loaders)


def offences(tree: ast.AST, rel: str) -> list[str]:
    out: list[str] = []
    # yaml.load(text, Loader=yaml.CSafeLoader) is safe_load spelled out: allowed.
    safe_funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and _safe_yaml_load(n)}
    for node in ast.walk(tree):
        if id(node) in safe_funcs:
            continue
        where = f"{rel}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BANNED_CALLS:
            out.append(f"{where}: calls {node.func.id}()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in BANNED_ATTRS:
            out.append(f"{where}: uses {node.value.id}.{node.attr}")
        if isinstance(node, ast.Attribute) and node.attr == "import_module" and rel not in IMPORT_BY_NAME_ALLOWED:
            out.append(f"{where}: imports a module by name")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in BANNED_MODULES:
                    out.append(f"{where}: imports {alias.name}")
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            if top in BANNED_MODULES:
                out.append(f"{where}: imports from {node.module}")
            if top == "yaml":
                bad = [a.name for a in node.names if a.name in UNSAFE_YAML_NAMES]
                if bad:
                    out.append(f"{where}: imports {', '.join(bad)} from yaml")
            if top == "importlib" and rel not in IMPORT_BY_NAME_ALLOWED:
                out.append(f"{where}: imports from importlib")
    return out


def test_the_scan_finds_what_it_should() -> None:
    """The checker itself: each banned form is caught, harmless look-alikes are not."""
    bad = ("eval(x)\nexec(s)\nyaml.load(t)\nyaml.unsafe_load(t)\nL = yaml.FullLoader\n"
           "from yaml import Loader\nimport pickle\npickle.loads(b)\n__import__('os')\n"
           "importlib.import_module(name)\n")
    assert len(offences(ast.parse(bad), "model/x.py")) == 10
    assert offences(ast.parse("yaml.load(t, Loader=yaml.UnsafeLoader)"), "m.py")
    assert offences(ast.parse("yaml.load(t, Loader=getattr(yaml, 'FullLoader', yaml.SafeLoader))"), "m.py")
    fine = ("dialog.exec()\nyaml.safe_load(t)\nre.compile('x')\nfrom yaml import CSafeLoader\n'eval(x)'\n# exec(x)\n"
            "yaml.load(t, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))\n")
    assert offences(ast.parse(fine), "model/x.py") == []


def test_no_module_runs_code_from_data() -> None:
    found: list[str] = []
    sources = _sources()
    assert any(p.parts[-2] == "model" for p in sources)
    for path in sources:
        rel = path.relative_to(REPO).as_posix()
        found.extend(offences(ast.parse(path.read_text(encoding="utf-8"), rel), rel))
    assert not found, "\n".join(found)


def test_pack_names_are_a_literal_tuple() -> None:
    """PACKS is written in code as a tuple of string literals, never read from anywhere."""
    tree = ast.parse((REPO / "validators" / "registry.py").read_text(encoding="utf-8"))
    packs = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == "PACKS"
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    assert len(packs) == 1
    value = packs[0].value
    assert isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                                for e in value.elts)
    from validators.registry import PACKS

    assert PACKS == tuple(e.value for e in value.elts)  # type: ignore[attr-defined]


def test_yaml_cannot_name_a_module_to_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Load and validate a bundle whose files name Python modules everywhere they could;
    record every import_module call: only installed packs (validators.packs.<PACKS>...) appear,
    and the named module is never imported."""
    from validators import registry
    from validators.engine import validate_path

    root = tmp_path / "b"
    shutil.copytree(FIXTURES / "bundles" / "mini", root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    game += "validate: {select: [hexproof_evil_pack, 'os.system'], ignore: ['__import__']}\n"
    (root / "game.yaml").write_text(game, encoding="utf-8")
    scen = (root / "scenarios" / "base.yaml").read_text(encoding="utf-8")
    (root / "scenarios" / "base.yaml").write_text(scen + "suppress: [hexproof_evil_pack]\n", encoding="utf-8")
    evil = tmp_path / "hexproof_evil_pack.py"
    marker = tmp_path / "imported"
    evil.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    imported: list[str] = []
    real = importlib.import_module

    def spy(name: str, package: str | None = None):  # type: ignore[no-untyped-def]
        imported.append(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", spy)
    registry.default_registry.cache_clear()
    try:
        validate_path(str(root))
    finally:
        registry.default_registry.cache_clear()
    assert not marker.exists(), "a module named in YAML was imported"
    allowed = tuple(f"validators.packs.{p}" for p in registry.PACKS)
    assert imported, "the registry was rebuilt, so it must have imported its packs"
    for name in imported:
        assert any(name == a or name.startswith(a + ".") for a in allowed), name
