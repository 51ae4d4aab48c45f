"""ChangeProperty: one generic command for any field of any model node (Tiled ChangeValue).

Consecutive changes of the same field of the same node merge (a name typed letter by
letter is one undo step), and a merge that returns the field to its starting value makes the
command obsolete, so it leaves nothing on the stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

from editor.commands.base import MapCommand, MergeId, title_words
from model.base import Node
from model.changes import Change, PropertyChanged
from model.edits import restore_property, set_property

if TYPE_CHECKING:
    from editor.document import MapDocument

_MISSING = object()
# Model classes whose name reads badly in an undo text.
NODE_NOUNS = {"HexMap": "Map", "ImpassablePortion": "Portion"}


class ChangeProperty(MapCommand):
    def __init__(self, doc: "MapDocument", node: Node, name: str, value: Any,
                 event: Change | None = None, merge: bool = False) -> None:
        # "Change Map Name", "Change Feature Type": the node's kind and the field, in words.
        super().__init__(doc, f"Change {NODE_NOUNS.get(type(node).__name__, title_words(type(node).__name__))} "
                              f"{title_words(name)}")
        self.node = node
        self.name = name
        self.value = value
        self.merge = merge
        self.event = event or PropertyChanged(doc.map_id, type(node).__name__, name)
        self.old: Any = _MISSING
        self.start_value = getattr(node, name)

    def id(self) -> int:
        return int(MergeId.CHANGE_PROPERTY) if self.merge else -1

    def redo(self) -> None:
        old = set_property(self.node, self.name, self.value)
        if self.old is _MISSING:
            self.old = old
        self.doc.notify(self.event)

    def undo(self) -> None:
        restore_property(self.node, self.name, self.old)
        self.doc.notify(self.event)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangeProperty) or other.node is not self.node or other.name != self.name:
            return False
        self.value = other.value
        if self.start_value == self.value:
            self.setObsolete(True)
        return True
