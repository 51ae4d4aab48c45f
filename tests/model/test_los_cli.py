"""``hexproof los`` and ``hexproof viewshed`` on small bundles (printed labels in and out)."""

from __future__ import annotations

import json

from conftest import FIXTURES
from hexproof.cli import main

GEOM = str(FIXTURES / "geometry" / "bundle")
MINI = str(FIXTURES / "bundles" / "mini")     # its system has no LOS rules


def test_los_blocked_with_explanation(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["los", GEOM, "03.001", "03.004", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "BLOCKED" in out and "03.002" in out and "woods" in out and "Utah Excl 2.1.2" in out


def test_los_json_crest_and_ranges(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["los", GEOM, "05.002", "05.007", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["visible"] is False and res["first_blocker"]["feature"] == "crest"
    assert res["first_blocker"]["where"] in ("05.004/S", "05.005/N")   # one side, two names
    assert main(["los", GEOM, "00.000", "00.004", "--night", "--json"]) == 0
    night = json.loads(capsys.readouterr().out)
    assert night["visible"] is False and night["range_limit"] == 3


def test_los_op_spotting(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["los", GEOM, "03.000", "03.004", "--purpose", "spot", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["visible"] is True and res["observer"] == "op"


def test_los_off_says_so_and_exits_zero(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["los", MINI, "0201", "0403"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("LOS is not used by") and len(out.splitlines()) == 1


def test_los_bad_label(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["los", GEOM, "3-1", "03.004"]) == 2
    assert "not a hex label" in capsys.readouterr().err


def test_viewshed_cli(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["viewshed", GEOM, "00.000", "--range", "1", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["from"] == "00.000" and sorted(res["visible"]) == ["00.001", "01.000"]


def test_los_text_and_json_name_the_deciding_case(capsys) -> None:  # type: ignore[no-untyped-def]
    """Utah Excl 1.1: "The maximum Line of Sight distance at Night is 3 hexes" — the fixture
    system's night row cites it (``los.range_rules``)."""
    assert main(["los", GEOM, "00.000", "00.004", "--night"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == "00.000 → 00.004: blocked (distance 4, range 3) — out of range: 4 > 3 (night) [Utah Excl 1.1]"
    assert main(["los", GEOM, "00.000", "00.004", "--night", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["decided_by"]["kind"] == "range" and res["decided_by"]["rule"] == "Utah Excl 1.1"
    assert main(["los", GEOM, "03.000", "03.004", "--purpose", "spot", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "decided by spotter [GTS 15.4.2]" in out   # seen only thanks to the OP [GTS 15.4.2]
