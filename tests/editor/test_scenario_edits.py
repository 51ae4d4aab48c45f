"""Pure scenario edits (model/scenario_edits.py): each edit does what it says and its undo
restores the saved files byte for byte."""

from __future__ import annotations

import pytest

from conftest import REPO
from model import scenario_edits as se
from model.bundle import Bundle, load_bundle
from model.calendar import build_turns
from model.mapdata import NamedLocation
from model.scenario import DropZone, Entry, ScheduleEntry

UTAH = REPO / "scenarios" / "utah-beach"


@pytest.fixture()
def utah() -> Bundle:
    b = load_bundle(UTAH).bundle
    assert b is not None
    return b


def _roundtrip(b: Bundle, edit) -> None:  # type: ignore[no-untyped-def]
    before = b.dump_files()
    undo = edit()
    assert b.dump_files() != before, "the edit changed nothing"
    undo.undo()
    assert b.dump_files() == before


def test_place_move_and_remove_unit_undo(utah: Bundle) -> None:
    s = utah.scenarios["beach-landing"]
    m = utah.default_map
    h = m.parse("30.040")
    _roundtrip(utah, lambda: se.place_unit(s, "wn-5", "hex", h))
    undo = se.place_unit(s, "wn-5", "hex", h)
    entry = se.setup_entry(s, "wn-5")
    assert entry is not None and entry.hex == h and entry.rule == "Excl 4.2"  # rule and note are kept
    undo.undo()
    _roundtrip(utah, lambda: se.place_unit(s, "new-unit", "box", "div-101-stragglers"))
    _roundtrip(utah, lambda: se.place_unit(s, "wn-5", "adjacent_to", h))
    _roundtrip(utah, lambda: se.remove_unit(s, "wn-5"))
    with pytest.raises(ValueError):
        se.place_unit(s, "wn-5", "moon", h)


def test_unit_state_flags(utah: Bundle) -> None:
    s = utah.scenarios["beach-landing"]
    _roundtrip(utah, lambda: se.set_unit_state(s, "wn-5", "reduced", True))
    u = se.set_unit_state(s, "wn-5", "immobile", True)
    assert se.setup_entry(s, "wn-5").state == ["immobile"]  # type: ignore[union-attr]
    u.undo()
    with pytest.raises(KeyError):
        se.set_unit_state(s, "nobody", "reduced", True)


def test_variant_setup_goes_to_overrides(utah: Bundle) -> None:
    variant = next(s for s in utah.scenarios.values() if s.extends)
    base = utah.scenarios[variant.extends]  # type: ignore[index]
    base_text = utah.dump_files()
    undo = se.place_unit(variant, "wn-5", "hex", utah.default_map.parse("30.040"))
    assert variant.overrides is not None and variant.overrides.setup_add[-1].unit == "wn-5"
    assert all(e.unit != "wn-5" or e.hex != utah.default_map.parse("30.040") for e in base.setup)
    undo.undo()
    assert utah.dump_files() == base_text


def test_schedule_edits_and_arrivals(utah: Bundle) -> None:
    s = utah.scenarios["beach-landing"]
    h = utah.default_map.parse("30.040")
    row = ScheduleEntry(turn=3, side="german", units=["a", "b"])
    _roundtrip(utah, lambda: se.add_schedule_entry(s, row))
    _roundtrip(utah, lambda: se.remove_schedule_entry(s, 0))
    _roundtrip(utah, lambda: se.change_schedule_entry(s, 0, entry=Entry(hex=h)))
    turns = build_turns(utah.system.calendar)
    before = se.arrivals_per_turn(s, turns)
    u = se.add_schedule_entry(s, row)
    after = se.arrivals_per_turn(s, turns)
    assert after[3].get("german", 0) == before[3].get("german", 0) + 2
    u.undo()


def test_drop_zone_edits_and_info(utah: Bundle) -> None:
    s = utah.scenarios["night-drop"]
    m = utah.default_map
    hexes = [m.parse("30.040"), m.parse("30.041")]
    _roundtrip(utah, lambda: se.add_drop_zone(s, DropZone(id="dz-x", name="DZ X", hexes=hexes)))
    _roundtrip(utah, lambda: se.rename_drop_zone(s, "dz-a", "DZ Alpha"))
    _roundtrip(utah, lambda: se.set_zone_hexes(s, "dz-a", hexes, "add"))
    _roundtrip(utah, lambda: se.set_zone_hexes(s, "dz-a", s.drop_zones[0].hexes[:2], "remove"))
    lz_o = next(z for z in s.drop_zones if z.id == "lz-o")
    dz_o = next(z for z in s.drop_zones if z.id == "dz-o")
    assert len(se.zone_hexes(s, lz_o)) == len(dz_o.hexes) + len(lz_o.hexes)  # LZ O = DZ O + 6 [Excl 3.2]
    info = se.zone_info(s, dz_o, m, utah.system)
    assert info.hexes == len(dz_o.hexes) and sum(info.terrain.values()) + info.off_map == info.hexes
    for t, mod in info.modifiers.items():
        assert mod == utah.system.terrain_by_id[t].drop_modifier


def test_overlay_and_locations(utah: Bundle) -> None:
    s = next(x for x in utah.scenarios.values() if x.beach_overlays)
    ov = s.beach_overlays[0]
    _roundtrip(utah, lambda: se.set_overlay_visible(s, ov.id, not ov.visible))
    h = utah.default_map.parse("30.040")
    _roundtrip(utah, lambda: se.add_location(s, NamedLocation(id="rp-1", name="RP 1", hex=h, kind="rally_point")))
    u = se.add_location(s, NamedLocation(id="rp-1", name="RP 1", hex=h, kind="rally_point"))
    _roundtrip(utah, lambda: se.rename_location(s, "rp-1", "Rally 1"))
    _roundtrip(utah, lambda: se.move_location(s, "rp-1", utah.default_map.parse("31.040")))
    u.undo()


def test_counter_value_and_merge(utah: Bundle) -> None:
    c = utah.counters[0]
    key = next(iter(c.front.values), "ma")
    _roundtrip(utah, lambda: se.set_counter_value(c, "front", key, 99))
    new = c.model_copy(update={"name": "Renamed"})
    merged, replaced, added = se.merge_counters(utah.counters, [new])
    assert (replaced, added) == (1, 0) and merged[0].name == "Renamed" and len(merged) == len(utah.counters)


def test_beach_overlay_edits_both_directions(utah: Bundle) -> None:
    s = utah.scenarios["beach-landing"]
    m = utah.default_map
    ov = s.beach_overlays[0]
    sb = ov.sub_beaches[0]
    h = m.parse("24.021")
    for which in ("planned", "actual"):
        _roundtrip(utah, lambda: se.toggle_landing_hex(s, ov.id, sb.id, which, h))
        u = se.toggle_landing_hex(s, ov.id, sb.id, which, h)
        assert h in getattr(sb.landing, which)
        _roundtrip(utah, lambda: se.toggle_landing_hex(s, ov.id, sb.id, which, h))  # toggles off
        u.undo()
        assert h not in getattr(sb.landing, which)
    with pytest.raises(ValueError):
        se.toggle_landing_hex(s, ov.id, sb.id, "maybe", h)
    # A gap hexside given from the other hex is the same side: toggling it removes the saved one.
    key = ov.gap_hexsides[0]
    other = key.hex.neighbor(key.direction)
    from model.base import hexside_key

    u = se.toggle_gap_hexside(s, ov.id, hexside_key(other, key.direction + 3))
    assert key not in ov.gap_hexsides
    u.undo()
    assert key in ov.gap_hexsides
    new = hexside_key(m.parse("24.021"), 1)
    _roundtrip(utah, lambda: se.toggle_gap_hexside(s, ov.id, new))
    _roundtrip(utah, lambda: se.toggle_reinforcement_hex(s, ov.id, h))
    _roundtrip(utah, lambda: se.set_drift(s, ov.id, sb.id, "planned", "2 Right"))
    _roundtrip(utah, lambda: se.set_drift(s, ov.id, sb.id, "planned", ""))
    u = se.set_drift(s, ov.id, sb.id, "planned", None)
    assert "planned" not in sb.drift
    u.undo()
    _roundtrip(utah, lambda: se.set_track_level(s, ov.id, "gaps", 1))
    with pytest.raises(KeyError):
        se.toggle_reinforcement_hex(s, "nope", h)


def test_overlay_owner_walks_extends(utah: Bundle) -> None:
    sc = utah.scenarios
    owner = next(sid for sid, x in sc.items() if x.beach_overlays)
    oid = sc[owner].beach_overlays[0].id
    assert se.overlay_owner(sc, owner, oid) == owner
    variants = [sid for sid, x in sc.items() if x.extends == owner and not x.beach_overlays]
    for v in variants:
        assert se.overlay_owner(sc, v, oid) == owner
    assert se.overlay_owner(sc, owner, "nope") is None


def test_place_in_or_adjacent_to(utah: Bundle) -> None:
    s = utah.scenarios["beach-landing"]
    h = utah.default_map.parse("30.040")
    _roundtrip(utah, lambda: se.place_unit(s, "wn-5", "adjacent_to", h))
    u = se.place_unit(s, "wn-5", "adjacent_to", h)
    e = se.setup_entry(s, "wn-5")
    assert e is not None and e.adjacent_to == h and e.hex is None and e.rule == "Excl 4.2"
    area = se.setup_area_hexes(s, utah.default_map)
    assert h in area and all(n in area for n in h.neighbors() if utah.default_map.contains(n))
    u.undo()
    assert se.setup_entry(s, "wn-5").hex == utah.default_map.parse("23.024")  # type: ignore[union-attr]


def test_a_drop_zone_place_is_the_rows_drop_order(utah: Bundle) -> None:
    """Policy drop-zone-is-drop-order: the "drop zone" entry kind writes ``drop.zone`` (the
    form the samples and the GTS-DZ / TKG-DD rules read), keeps the order's sticks and number,
    moves a legacy ``entry.drop_zone`` into the order, and an empty zone removes the order."""
    s = utah.scenarios["night-drop"]
    first = s.schedule[0]
    assert first.drop is not None and first.drop.zone == "dz-a"
    moved = se.schedule_place_changes(first, "drop_zone", "dz-b")
    assert set(moved) == {"drop"}  # the entry is not touched
    assert (moved["drop"].zone, moved["drop"].drop_number, moved["drop"].sticks) == \
        ("dz-b", "One", first.drop.sticks)
    assert se.schedule_place_changes(first, "drop_zone", "dz-b", "Second")["drop"].drop_number == "Second"
    assert se.schedule_place_changes(first, "drop_zone", "dz-b", "")["drop"].drop_number is None
    assert se.schedule_place_changes(first, "drop_zone", "") == {"drop": None}
    _roundtrip(utah, lambda: se.change_schedule_entry(s, 0, **moved))

    legacy = ScheduleEntry(turn=2, kind="drop", units=["a-1-502"], entry=Entry(drop_zone="dz-a", box="england"))
    changes = se.schedule_place_changes(legacy, "drop_zone", "dz-c", "Second")
    assert changes["entry"] == Entry(box="england")  # the legacy place goes, the holding box stays
    assert (changes["drop"].zone, changes["drop"].drop_number) == ("dz-c", "Second")
    new = se.changed_schedule_entry(legacy, **changes)
    assert new.entry == Entry(box="england") and new.drop is not None and new.drop.zone == "dz-c"


def test_a_landing_hex_stands_beside_the_drop_order(utah: Bundle) -> None:
    """TKG-DD-002 reads a glider's landing hex from ``entry.hex`` and its zone from
    ``drop.zone``: setting the hex leaves the order, clearing the zone leaves the hex."""
    s = utah.scenarios["night-drop"]
    h = utah.default_map.parse("30.037")
    with_hex = se.changed_schedule_entry(s.schedule[0], **se.schedule_place_changes(s.schedule[0], "hex", h))
    assert with_hex.entry == Entry(hex=h) and with_hex.drop == s.schedule[0].drop
    no_zone = se.changed_schedule_entry(with_hex, **se.schedule_place_changes(with_hex, "drop_zone", None))
    assert no_zone.entry == Entry(hex=h) and no_zone.drop is None


def test_drop_number_choices_come_from_the_system(utah: Bundle) -> None:
    """The system data's drop numbers: "Units placed in Drop One" (Utah Excl 3.3 C) and the Drop
    Table modifiers "-3 if it is the Second Drop/Glider Landing or the Third Drop B/Glider
    Landing", "-6 if it is the Third Drop A/Glider Landing", "-8 if it is the Fourth Drop/Glider
    Landing" (Excl 3.3.1); a system without them offers none."""
    assert se.drop_number_choices(utah) == ["One", "Second", "Third A", "Third B", "Fourth"]
    sfn = load_bundle(REPO / "scenarios" / "second-front-now").bundle
    assert sfn is not None and se.drop_number_choices(sfn) == []
