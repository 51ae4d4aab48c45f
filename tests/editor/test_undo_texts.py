"""History labels read verb + noun in the system's words (issue #21: "Set crest Hexsides",
"Place op"): the undo text names a type by its display name in the game system file."""

from __future__ import annotations

from conftest import REPO
from editor.commands import AddPath, ChangeProperty, ClearHexsideFeature, PlaceFeature, SetHexsideFeature
from editor.commands.base import title_words, type_name
from helpers import open_doc
from model.base import hexside_key
from model.mapdata import Feature, MapPath

UTAH = REPO / "scenarios" / "utah-beach"


def test_map_commands_name_types_by_their_system_names() -> None:
    doc = open_doc(UTAH)
    system = doc.system
    crest = system.hexside_by_id["crest"]
    op = system.feature_by_id["op"]
    h = doc.hmap.parse("23.024")
    key = hexside_key(h, 0)
    assert SetHexsideFeature(doc, key, "crest").text() == f"Set {crest.name} Hexside" == "Set Crest Hexside"
    assert ClearHexsideFeature(doc, key, "crest").text() == "Clear Crest Hexside"
    assert PlaceFeature(doc, Feature(hex=h, type="op")).text() == f"Place {op.name}"
    road = system.paths[0]
    assert AddPath(doc, MapPath(type=road.id, hexes=[h, doc.hmap.parse("23.025")])).text() == f"Add {road.name} Path"
    assert ChangeProperty(doc, doc.hmap, "name", "x").text() == "Change Map Name"
    assert ChangeProperty(doc, doc.hmap, "provenance", "x").text() == "Change Map Provenance"


def test_an_unknown_type_keeps_its_id_and_words_are_title_cased() -> None:
    doc = open_doc(UTAH)
    assert type_name(doc, "hexsides", "not-a-kind") == "not-a-kind"
    assert title_words("HexMap") == "Hex Map" and title_words("move_class") == "Move Class"
