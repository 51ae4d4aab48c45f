"""The Naval section of the Play mode Actions dock (Utah [Excl 4.4, 4.6]): the Naval combo (the
ship or Landing Wave craft a Ship Fire / Battery Fire button uses) and a compact read-only view
of the Naval Display — ships per force and range box, Assault Force marker hexes, Landing Wave
boxes with their Landing Craft loads, Barrage markers and the current NSoP step. Shown only
when the scenario has a Naval Display; the text is :func:`editor.play.naval_actions.naval_view`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from editor.play.controller import PlayController
from editor.play.naval_actions import naval_choices, naval_view


class NavalPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        self.combo = QComboBox()
        self.combo.setObjectName("play-action-naval")
        self.combo.setToolTip("Utah Excl 4.7: the ship that fires (Ship Fire, when no ship is selected) or the ship / "
                              "Landing Wave craft a Coastal Battery fires at (Battery Fire)")
        form.addRow("Naval:", self.combo)
        lay.addLayout(form)
        self.view = QLabel()
        self.view.setObjectName("play-naval-display")
        self.view.setTextFormat(Qt.TextFormat.PlainText)
        self.view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.view.setToolTip("The Naval Display [Excl 4.4.1] and the Naval Sequence of Play [Excl 4.6] (read-only)")
        self.view.setStyleSheet("font-family: monospace; font-size: 9pt;")
        lay.addWidget(self.view)
        self.setVisible(False)

    def chosen(self) -> str | None:
        data = self.combo.currentData()
        return str(data) if data else None

    def refresh(self, ctl: PlayController | None) -> None:
        view = naval_view(ctl.game) if ctl is not None else None
        self.setVisible(view is not None)
        if ctl is None or view is None:
            return
        keep = self.chosen()
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem("—", None)
        for text, uid in naval_choices(ctl.game):
            self.combo.addItem(text, uid)
        i = self.combo.findData(keep) if keep else -1
        self.combo.setCurrentIndex(max(i, 0))
        self.combo.blockSignals(False)
        self.view.setText(view.text())
