"""Render the Play mode screenshots of docs/play-mode.md (offscreen):

    python docs/img/play-shots.py            # writes docs/img/play-los.png and docs/img/play-naval.png

- ``play-los.png``: Check LOS on the Utah playtest variant: a unit at 29.020 checks 29.018; the
  fortified hex 29.019 blocks the line [Excl 2.1.6] (blue to the blocker, red after, the blocker
  outlined), the verdict in the status bar.
- ``play-naval.png``: Utah ``beach-landing`` (seed 4) after the Naval chit is drawn and the
  destroyer dd-uts-1 fires at Wn 5 in NSoP step 2 [Excl 4.4.4]: the light Barrage marker it left
  in 23.024 [GTS 16.6.2.1] on the map, the Actions dock's Naval Display section, the dice log.

Every game step goes through the engine (PlayController.apply / check_los_line), as a user's
clicks do; nothing is drawn by hand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from editor.app import application, make_window, place_view, screenshot  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

UTAH = REPO / "scenarios" / "utah-beach"
OUT = REPO / "docs" / "img"


def _open(scenario: str, seed: int | None, size: tuple[int, int]) -> MainWindow:
    application()
    window, _ = make_window(str(UTAH), size)
    window.show()
    if not window.play_mode.play(scenario, seed):
        raise SystemExit(f"cannot play {scenario}")
    return window


def los_shot(out: Path) -> None:
    w = _open("night-drop-playtest", None, (1400, 900))
    ctl = w.play_mode.ctl
    uid = sorted(u.id for u in ctl.game.state.units.values() if u.on_map and u.hex is not None)[0]
    assert ctl.apply({"do": "place", "unit": uid, "to": "29.020"}).ok
    ctl.select([uid])
    w.play_mode.los_action.setChecked(True)
    chk = ctl.check_los_line(ctl.game.hmap.parse("29.018"))
    assert chk.visible is False and chk.blocker_where == "29.019", chk.message
    place_view(w, "29.019", 3.0)
    assert screenshot(w, out)
    w.hide()


def naval_shot(out: Path) -> None:
    w = _open("beach-landing", 4, (1400, 900))
    ctl = w.play_mode.ctl
    if ctl.game.phase.id != "activation":  # chits are drawn in the Activation Phase, 4.0 H [GTS 10.0.1]
        assert ctl.apply({"do": "next_phase", "to": "activation"}).ok
    assert ctl.apply({"do": "draw_chit"}).ok
    assert ctl.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"}).ok
    assert w.play_mode.layer.overlays(), "the ship fire left no Barrage marker"  # type: ignore[attr-defined]
    place_view(w, "23.025", 2.6)
    assert screenshot(w, out)
    w.hide()


if __name__ == "__main__":
    los_shot(OUT / "play-los.png")
    naval_shot(OUT / "play-naval.png")
    print(f"wrote {OUT / 'play-los.png'} and {OUT / 'play-naval.png'}")
