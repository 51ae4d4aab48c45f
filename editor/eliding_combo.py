"""ElidingComboBox: a combo of long titles (scenarios, variants) that keeps a fixed width.

A plain QComboBox either grows to its longest item (widening a toolbar, and so the window) or
is squeezed and cuts its text off with no mark. This one is as wide as ``chars`` average
characters, draws the current title elided with "…" where it does not fit, shows the full
title in its tooltip, and opens a list wide enough for the longest title (up to the screen).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget


class ElidingComboBox(QComboBox):
    def __init__(self, chars: int = 32, tip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.base_tip = tip  # what the combo is for; the full current title is added to it
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(chars)
        self.currentIndexChanged.connect(lambda _i: self._update_tip())
        self.model().dataChanged.connect(lambda *_: self._update_tip())
        self._update_tip()

    def displayed_text(self) -> str:
        """The current title as drawn: elided to the text field's width."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        return self.fontMetrics().elidedText(self.currentText(), Qt.TextElideMode.ElideRight, max(0, field.width()))

    def _update_tip(self) -> None:
        full = self.currentText()
        tip = "\n".join(t for t in (full, self.base_tip) if t)
        if tip != self.toolTip():
            self.setToolTip(tip)

    def showPopup(self) -> None:
        # The list shows every title whole (as wide as the longest, within the screen).
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        screen = self.screen().availableGeometry().width() if self.screen() is not None else widest + 40
        self.view().setMinimumWidth(min(widest + 40, screen))
        super().showPopup()

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            self._update_tip()  # the current item may have changed with signals blocked
        return super().event(e)

    def paintEvent(self, _event: QPaintEvent) -> None:
        self._update_tip()  # (a refill with blocked signals emits no currentIndexChanged)
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        opt.currentText = self.displayed_text()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
