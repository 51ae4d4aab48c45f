"""Undo commands for a scenario's properties (the Scenario Properties panel), over the pure
edits in :mod:`model.scenario_props`: one command per change, named verb + noun.

They are :class:`~editor.commands.scenario.ScenarioCommand` s: each redo runs its edit on the
scenario as stored (looked up by id, so a redo after the scenario was deleted and restored
edits the restored one) and emits ``ScenarioChanged`` for that scenario, which re-validates it
and its variants and refreshes the panels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor.commands.scenario import ScenarioCommand
from model import scenario_props as sp
from model.scenario import SpecialRule, VictoryCondition

if TYPE_CHECKING:
    from editor.document import MapDocument

LIST_NOUNS = {"special_rules": "special rule", "victory": "victory condition"}


class RetitleScenario(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, title: str) -> None:
        super().__init__(doc, sid, f"Retitle scenario {sid}", lambda s: sp.retitle(s, title))


class SetScenarioText(ScenarioCommand):
    """Weather, first player or description; ``None`` clears it (a variant inherits it again)."""

    def __init__(self, doc: "MapDocument", sid: str, name: str, value: str | None) -> None:
        what = name.replace("_", " ")
        super().__init__(doc, sid, f"{'Set' if value else 'Clear'} {what} of {sid}",
                         lambda s: sp.set_text_field(s, name, value))


class SetScenarioTurns(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, first: int | str | None, last: int | str | None) -> None:
        super().__init__(doc, sid, f"Set turns of {sid}", lambda s: sp.set_turns(s, first, last))


class SetPlayableArea(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, **changes: Any) -> None:
        super().__init__(doc, sid, f"Set playable {', '.join(changes)} of {sid}",
                         lambda s: sp.set_playable(s, **changes))


class SetStartingVP(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, side: str, value: int | None) -> None:
        super().__init__(doc, sid, f"{'Set' if value is not None else 'Clear'} starting VP of {side}",
                         lambda s: sp.set_start_vp(s, side, value, sp.base_of(doc.bundle, sid)))


class SwitchOptionalRule(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, rule_id: str, on: bool, inherited: bool) -> None:
        super().__init__(doc, sid, f"Switch {'on' if on else 'off'} optional rule {rule_id}",
                         lambda s: sp.set_optional_rule(s, rule_id, on, inherited))


class AddScenarioItem(ScenarioCommand):
    """Add a special rule or a victory condition (``name`` special_rules / victory)."""

    def __init__(self, doc: "MapDocument", sid: str, name: str, item: SpecialRule | VictoryCondition) -> None:
        super().__init__(doc, sid, f"Add {LIST_NOUNS[name]}",
                         lambda s: sp.add_item(s, name, item, sp.base_of(doc.bundle, sid)))


class ChangeScenarioItem(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, name: str, index: int, **changes: Any) -> None:
        super().__init__(doc, sid, f"Change {LIST_NOUNS[name]} {', '.join(changes)}",
                         lambda s: sp.change_item(s, name, index, sp.base_of(doc.bundle, sid), **changes))


class RemoveScenarioItem(ScenarioCommand):
    def __init__(self, doc: "MapDocument", sid: str, name: str, index: int) -> None:
        super().__init__(doc, sid, f"Remove {LIST_NOUNS[name]}",
                         lambda s: sp.remove_item(s, name, index, sp.base_of(doc.bundle, sid)))
