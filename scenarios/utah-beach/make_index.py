"""Regenerate the ``rulebook:`` index in ``game.yaml`` from the rules text.

Uses :func:`model.formats.rulebook.extract_rulebook_index` on shared/rules/gts-utah-beach.txt
(series cases "15.4.1", exclusive cases "Excl 2.2.2", errata entries "Excl 2.2.2 (errata)").
Run from the repository root: ``python scenarios/utah-beach/make_index.py [RULES_TXT]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from model.formats.rulebook import extract_rulebook_index  # noqa: E402
from model.formats.yamlio import dump_yaml  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_RULES = Path("/work/shared/rules/gts-utah-beach.txt")


def main() -> None:
    rules = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_RULES
    index = extract_rulebook_index(rules.read_text(encoding="utf-8"), source="rules/gts-utah-beach.txt")
    game_path = HERE / "game.yaml"
    text = game_path.read_text(encoding="utf-8")
    head = text.split("\nrulebook:", 1)[0].rstrip("\n")
    block = dump_yaml({"rulebook": {"source": "rules/gts-utah-beach.txt", "prefix": "GTS",
                                    "cases": {k: c.title for k, c in index.cases.items()}}})
    game_path.write_text(head + "\n" + block, encoding="utf-8")


if __name__ == "__main__":
    main()
