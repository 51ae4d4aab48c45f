"""One read-only section of the Play mode Actions dock, drawn from a plug-in's
:class:`play.plugin_ui.Panel`: an optional combo (the plug-in's builders read its value) over a
monospace text the plug-in writes; hidden while the plug-in has no text for the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from play.plugin_ui import Choice, Panel

if TYPE_CHECKING:
    from play.context import PlayContext


def fill_combo(combo: QComboBox, choice: Choice, game: "PlayContext") -> None:
    """Refill ``combo`` with the choice's rows, keeping what was chosen; untouched when the rows
    did not change (a refresh runs after every action: no flicker, an open popup stays)."""
    rows: list[tuple[str, str | None]] = [(choice.none_text, None)] if choice.none_text is not None else []
    rows += [(text, value) for text, value in choice.options(game)]
    have = [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]
    if have == rows:
        return
    keep = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for text, value in rows:
        combo.addItem(text, value)
    i = combo.findData(keep) if keep is not None else -1
    combo.setCurrentIndex(max(i, 0))
    combo.blockSignals(False)


def make_combo(choice: Choice) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(f"play-action-{choice.name}")
    combo.setToolTip(choice.tip)
    return combo


class PanelView(QWidget):
    def __init__(self, panel: Panel) -> None:
        super().__init__()
        self.panel = panel
        self.setObjectName(f"play-{panel.name}-panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.combo: QComboBox | None = None
        if panel.choice is not None:
            form = QFormLayout()
            self.combo = make_combo(panel.choice)
            form.addRow(panel.choice.label, self.combo)
            lay.addLayout(form)
        self.view = QLabel()
        self.view.setObjectName(f"play-{panel.name}-display")
        self.view.setTextFormat(Qt.TextFormat.PlainText)
        self.view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.view.setToolTip(panel.tip)
        self.view.setStyleSheet("font-family: monospace; font-size: 9pt;")
        # Long lines wrap to the dock: unwrapped, one 70-character line set the Actions dock's
        # minimum at ~510 px, a right column that starved the map (#21).
        self.view.setWordWrap(True)
        lay.addWidget(self.view)
        self.setVisible(False)

    def chosen(self) -> str | None:
        data = self.combo.currentData() if self.combo is not None else None
        return str(data) if data else None

    def refresh(self, game: "PlayContext | None") -> None:
        text = self.panel.text(game) if game is not None else None
        self.setVisible(text is not None)
        if game is None or text is None:
            return
        if self.combo is not None and self.panel.choice is not None:
            fill_combo(self.combo, self.panel.choice, game)
        self.view.setText(text)
