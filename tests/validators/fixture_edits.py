"""Apply fixture ``edits`` (set / append / remove on dotted paths) to a copy of a bundle.

Shared by the rule-fixture runner and the broken-variants runner.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from model.formats.yamlio import dump_yaml, parse_yaml

REPO = Path(__file__).resolve().parents[2]


def _key(part: str) -> str | int:
    return int(part) if part.lstrip("-").isdigit() else part


def _descend(data: Any, parts: list[str], create: bool) -> Any:
    cursor = data
    for part in parts:
        key = _key(part)
        if isinstance(cursor, list):
            cursor = cursor[int(key)]
        else:
            if key not in cursor or cursor[key] is None:
                if not create:
                    raise KeyError(f"no key {part!r}")
                cursor[key] = {}
            cursor = cursor[key]
    return cursor


def apply_edit(data: Any, path: str, op: str, value: Any = None) -> Any:
    """Edit plain YAML data in place (returns it; a path of '' replaces the whole document)."""
    parts = [p for p in str(path).split(".") if p != ""]
    if not parts:
        if op != "set":
            raise ValueError("only 'set' may replace a whole document")
        return value
    parent = _descend(data, parts[:-1], create=op != "remove")
    last = _key(parts[-1])
    if op == "set":
        if isinstance(parent, list):
            parent[int(last)] = value
        else:
            parent[last] = value
    elif op == "append":
        target = parent[int(last)] if isinstance(parent, list) else parent.get(last)
        if target is None:
            target = []
            parent[last] = target
        target.append(value)
    elif op == "remove":
        if isinstance(parent, list):
            del parent[int(last)]
        else:
            del parent[last]
    else:
        raise ValueError(f"unknown edit op {op!r}; use set, append or remove")
    return data


def copy_and_edit(base: str, edits: list[dict[str, Any]], dest: Path) -> Path:
    """Copy the repo-relative bundle ``base`` to ``dest`` and apply ``edits``; returns the copy."""
    src = REPO / base
    root = dest / Path(base).name
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("*.bak", "__pycache__"))
    for edit in edits or []:
        path = root / edit["file"]
        text = path.read_text(encoding="utf-8") if path.exists() else "{}\n"
        data, _, errors = parse_yaml(text, str(path))
        if errors:
            raise ValueError(f"{path}: {errors[0].message}")
        data = apply_edit(data, str(edit.get("path", "")), edit.get("op", "set"), edit.get("value"))
        path.write_text(dump_yaml(data), encoding="utf-8")
    return root
