"""Issue 17 audit items in GTS play, each test quoting its case: the impassable portion refusal
[Excl 2.1.14], hill reciprocity [Excl 2.1.10], overstacking penalised [GTS 14.7]. Utah sample;
MAs and terrain costs ILLUSTRATIVE (gts_helpers)."""

from __future__ import annotations

from typing import Any

from gts_helpers import game, to_phase
from play.game import Game


def _events(g: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == kind]


# --- Impassable portions [Utah Excl 2.1.14] ------------------------------------------------


def test_a_move_across_a_grey_portion_is_refused_by_the_portion_case() -> None:
    """Excl 2.1.14: "If only part of a hex is Impassable, the Impassable portion is gray, meaning
    that no Unit can enter and/or leave the hex by passing over the Impassable portion." The sample
    map's 28.049 has its grey portion toward 28.050."""
    for costs in (True, False):  # with and without illustrative play costs
        g = game("night-drop", 2, ma=6)
        if not costs:
            g.scenario.params["play_costs"] = None
        to_phase(g, "movement", "allied")
        assert g.apply({"do": "place", "unit": "a-1-8", "to": "28.050"}).ok
        r = g.apply({"do": "move", "unit": "a-1-8", "to": "28.049"})
        assert not r.ok
        assert "grey impassable portion" in r.message and "unknown" not in r.message
        assert r.rule == g.system.cited(g.system.citations.cases.impassable) == "Utah Excl 2.1.14"
