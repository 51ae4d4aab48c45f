"""sha256 of every scripted playtest's canonical log (``Game.log_json()``).

Runs each ``tests/fixtures/playtests/*.yaml`` the way ``tests/play/test_script.py`` does
(``play.script.run_script``) and prints ``<sha256>  <name>  ok|FAIL`` per script, sorted by
name. Used to prove a refactor keeps every log byte-identical: run it before and after and
diff the two outputs (``python bench/playtest_hashes.py > before.txt``).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from play.script import ScriptError, run_script  # noqa: E402


def main() -> int:
    for script in sorted((ROOT / "tests" / "fixtures" / "playtests").glob("*.yaml")):
        try:
            result = run_script(script)
        except ScriptError as exc:
            print(f"{'-' * 64}  {script.stem}  UNREADABLE {exc}")
            continue
        assert result.game is not None
        digest = hashlib.sha256(result.game.log_json().encode("utf-8")).hexdigest()
        print(f"{digest}  {script.stem}  {'ok' if result.ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
