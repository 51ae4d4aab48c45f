"""Dock panels: tool palette, layers (visibility + an opacity per layer), properties of the map
and of the selected hex."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout, QLabel, QLineEdit,
                               QScrollArea, QSizePolicy, QSlider, QSpinBox, QToolButton, QVBoxLayout, QWidget)

from editor.actions import LAYER_NAMES
from editor.commands import ChangeProperty, ClearPortion, PaintTerrain, SetPortion
from model.changes import FeaturesChanged, PortionsChanged
from model.hexes import DIRECTION_NAMES, Hex
from model.mapdata import Feature, ImpassablePortion
from model.system import GameSystem

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.map_view.view import MapView


def scrollable(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it: as a dock's widget, the dock's
    minimum size is the scroll area's (small), not the panel's, so many docks shown together
    never push the window past the screen; a dock made smaller than its panel scrolls."""
    area = QScrollArea()
    area.setObjectName(f"{widget.objectName() or type(widget).__name__}-scroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area


class ToolPalette(QWidget):
    """The map tools as buttons (each shows its tool's action: icon, name, shortcut in the
    tooltip, checked while it is the tool), then the choices the tools paint with."""

    def __init__(self, system: GameSystem, tool_actions: dict[str, QAction]) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        grid = QGridLayout()
        grid.setSpacing(2)
        self.buttons: dict[str, QToolButton] = {}
        for i, (tid, act) in enumerate(tool_actions.items()):
            b = QToolButton()
            b.setDefaultAction(act)  # the window's action: one checked state, one shortcut
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.setAutoRaise(True)
            self.buttons[tid] = b
            grid.addWidget(b, i // 2, i % 2)
        lay.addLayout(grid)
        self.grid = grid
        self.flow = (True, 2)  # the tool grid: names shown?, columns (reflow)
        self._watched: QWidget | None = None
        form = QFormLayout()
        self.terrain = QComboBox()
        self.hexside = QComboBox()
        self.path = QComboBox()
        self.feature = QComboBox()
        self.radius = QSpinBox()
        self.radius.setRange(0, 20)
        self.fill = QCheckBox("Flood fill")
        self.select_mode = QComboBox()
        self.select_mode.addItems(["rect", "lasso"])
        self.depth = QDoubleSpinBox()
        self.depth.setRange(0.05, 0.95)
        self.depth.setSingleStep(0.05)
        self.depth.setValue(0.5)
        self.feature_label = QLineEdit()
        for combo in (self.terrain, self.hexside, self.path, self.feature, self.select_mode):
            # As wide as the dock gives, not as the longest name: a 40-letter feature type must
            # not set the whole column's minimum width (#21).
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(3)
        form.addRow("Terrain", self.terrain)
        form.addRow("Brush radius", self.radius)
        form.addRow("", self.fill)
        form.addRow("Hexside", self.hexside)
        form.addRow("Path", self.path)
        form.addRow("Feature", self.feature)
        form.addRow("Feature name", self.feature_label)
        form.addRow("Portion depth", self.depth)
        form.addRow("Selection", self.select_mode)
        lay.addLayout(form)
        lay.addStretch(1)
        self.set_system(system)

    # --- reflow: names beside icons in two columns when the dock is wide, icons only when not -----
    # (as Tiled, GIMP and Krita do): two named columns need ~370 px, which made the Map mode
    # dock column take a third of a 1280 px window from the map (#21).

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        parent = self.parentWidget()  # a scroll area's viewport: it is the width there is
        if parent is not None and parent is not self._watched:
            parent.installEventFilter(self)
            self._watched = parent
        self.reflow(parent.width() if parent is not None else self.width())

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self._watched and event.type() == QEvent.Type.Resize:
            self.reflow(obj.width())  # type: ignore[attr-defined]
        return False

    def reflow(self, width: int) -> None:
        """Lay the tool buttons out for ``width`` px: two columns with their names when both fit,
        otherwise icons only, as many columns as fit (each button's tooltip names its tool)."""
        buttons = list(self.buttons.values())
        if not buttons:
            return
        margins = self.layout().contentsMargins()
        room = width - margins.left() - margins.right()
        spacing = self.grid.spacing()
        named = max(self._hint(b, Qt.ToolButtonStyle.ToolButtonTextBesideIcon) for b in buttons)
        if 2 * named + spacing <= room:
            style, columns = Qt.ToolButtonStyle.ToolButtonTextBesideIcon, 2
        else:
            icon = max(self._hint(b, Qt.ToolButtonStyle.ToolButtonIconOnly) for b in buttons)
            style, columns = Qt.ToolButtonStyle.ToolButtonIconOnly, max(1, (room + spacing) // (icon + spacing))
        flow = (style == Qt.ToolButtonStyle.ToolButtonTextBesideIcon, columns)
        if flow == self.flow:
            return
        self.flow = flow
        for b in buttons:
            self.grid.removeWidget(b)
        for i, b in enumerate(buttons):
            b.setToolButtonStyle(style)
            self.grid.addWidget(b, i // columns, i % columns)

    @staticmethod
    def _hint(button: QToolButton, style: Qt.ToolButtonStyle) -> int:
        old = button.toolButtonStyle()
        button.setToolButtonStyle(style)
        width = button.sizeHint().width()
        button.setToolButtonStyle(old)
        return width

    def set_system(self, system: GameSystem) -> None:
        for combo, items in ((self.terrain, system.terrain), (self.hexside, system.hexsides),
                             (self.path, system.paths), (self.feature, system.features)):
            combo.clear()
            for t in items:
                combo.addItem(t.name, t.id)


class LayersPanel(QWidget):
    def __init__(self, on_visible: Callable[[str, bool], None], on_opacity: Callable[[str, float], None]) -> None:
        super().__init__()
        grid = QGridLayout(self)
        self.checks: dict[str, QCheckBox] = {}
        self.sliders: dict[str, QSlider] = {}
        for i, name in enumerate(("terrain",) + LAYER_NAMES):
            c = QCheckBox(name.title())
            c.setChecked(True)
            c.toggled.connect(lambda on, n=name: on_visible(n, on))
            s = QSlider(Qt.Orientation.Horizontal)
            s.setRange(0, 100)
            s.setValue(100)
            s.valueChanged.connect(lambda v, n=name: on_opacity(n, v / 100.0))
            grid.addWidget(c, i, 0)
            grid.addWidget(s, i, 1)
            self.checks[name] = c
            self.sliders[name] = s
        grid.setRowStretch(len(LAYER_NAMES) + 1, 1)


class PropertiesPanel(QWidget):
    """The map's name and provenance, and the selected hex (the last one clicked on the map):
    its terrain, its features (type, name) and its impassable portion (side, depth).

    Every edit is one undoable command: node fields go through the generic ChangeProperty
    (with the change event that makes the view redraw them), terrain through PaintTerrain
    (terrain is rows of characters, not a node field), adding/removing a portion through
    SetPortion/ClearPortion.
    """

    def __init__(self, on_name: Callable[[str], None]) -> None:
        super().__init__()
        self.doc: MapDocument | None = None
        self.hex: Hex | None = None
        self._stale = False  # a hex was selected while hidden: the fields show it on the next show
        # Scrolls, so the dock never forces a taller window (screenshots keep their size).
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        scroll.setWidget(inner)
        outer.addWidget(scroll)
        form = QFormLayout(inner)
        self.map_id = QLabel()
        self.name = QLineEdit()
        self.name.editingFinished.connect(lambda: on_name(self.name.text()))
        self.provenance = QLineEdit()
        self.provenance.setPlaceholderText("where the map data comes from")
        self.provenance.editingFinished.connect(self._provenance_edited)
        self.system = QLabel()
        self.size = QLabel()
        self.hex_info = QLabel()
        self.hex_info.setWordWrap(True)
        form.addRow("Map id", self.map_id)
        form.addRow("Name", self.name)
        form.addRow("Provenance", self.provenance)
        form.addRow("System", self.system)
        form.addRow("Size", self.size)
        form.addRow("Hex", self.hex_info)
        self.selected = QLabel("(click a hex)")
        self.terrain = QComboBox()
        self.terrain.activated.connect(self._terrain_chosen)
        self.feature = QComboBox()  # the features in the selected hex
        self.feature.currentIndexChanged.connect(lambda _i: self._show_feature())
        self.feature_type = QComboBox()
        self.feature_type.activated.connect(self._feature_type_chosen)
        self.feature_name = QLineEdit()
        self.feature_name.editingFinished.connect(self._feature_name_edited)
        self.portion_side = QComboBox()  # "" = no portion, a side name, or "polygon"
        self.portion_side.activated.connect(self._portion_side_chosen)
        self.portion_depth = QDoubleSpinBox()
        self.portion_depth.setRange(0.05, 0.95)
        self.portion_depth.setSingleStep(0.05)
        self.portion_depth.valueChanged.connect(self._portion_depth_changed)
        form.addRow("Selected hex", self.selected)
        form.addRow("Terrain", self.terrain)
        form.addRow("Feature", self.feature)
        form.addRow("Feature type", self.feature_type)
        form.addRow("Feature name", self.feature_name)
        form.addRow("Portion side", self.portion_side)
        form.addRow("Portion depth", self.portion_depth)
        self._updating = False
        self._show_hex()

    # --- wiring ---------------------------------------------------------------------------------

    def attach(self, doc: "MapDocument", view: "MapView | None" = None) -> None:
        """Follow this document (and the hexes clicked in this view)."""
        if self.doc is not None:
            try:
                self.doc.changed.disconnect(self._on_change)
            except (RuntimeError, TypeError):
                pass
        self.doc = doc
        self.hex = None
        system = doc.system
        self._updating = True
        self.terrain.clear()
        for t in system.terrain:
            self.terrain.addItem(t.name, t.id)
        self.feature_type.clear()
        for f in system.features:
            self.feature_type.addItem(f.name, f.id)
        self.portion_side.clear()
        self.portion_side.addItem("(none)", "")
        for side in DIRECTION_NAMES[doc.hmap.grid.orientation]:
            self.portion_side.addItem(side, side)
        self.portion_side.addItem("polygon", "polygon")
        self._updating = False
        self.provenance.setText(doc.hmap.provenance or "")
        doc.changed.connect(self._on_change)
        if view is not None:
            view.hexClicked.connect(self.select_hex)
        self._show_hex()

    def detach(self) -> None:
        """No document: every field empty and disabled until the next ``attach``."""
        if self.doc is not None:
            try:
                self.doc.changed.disconnect(self._on_change)
            except (RuntimeError, TypeError):
                pass
        self.doc, self.hex = None, None
        for label in (self.map_id, self.system, self.size, self.hex_info):
            label.setText("")
        for edit in (self.name, self.provenance):
            edit.setText("")
        self._show_hex()

    def _on_change(self, _change: object) -> None:
        if self.doc is None:
            return
        if not self.provenance.hasFocus():
            self.provenance.setText(self.doc.hmap.provenance or "")
        if not self.feature_name.hasFocus():
            self._show_hex()

    def select_hex(self, h: Hex | None) -> None:
        self.hex = h if (h is not None and self.doc is not None and self.doc.hmap.contains(h)) else None
        if not self.isVisibleTo(self.window()) and self.window() is not self:
            # Hidden (Play mode hides the dock): filling the fields cost ~0.3 ms of every
            # Play-mode click for nothing on screen; they are filled when the panel shows again.
            self._stale = True
            return
        self._show_hex()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._show_hex()

    # --- display --------------------------------------------------------------------------------

    def _features(self) -> list[Feature]:
        if self.doc is None or self.hex is None:
            return []
        return list(self.doc.hmap.features_by_hex.get(self.hex, ()))

    def _portion(self) -> ImpassablePortion | None:
        if self.doc is None or self.hex is None:
            return None
        return self.doc.hmap.portion_by_hex.get(self.hex)

    def _show_hex(self) -> None:
        self._stale = False
        self._updating = True
        try:
            on = self.doc is not None and self.hex is not None
            for w in (self.terrain, self.feature, self.feature_type, self.feature_name, self.portion_side,
                      self.portion_depth):
                w.setEnabled(on)
            if not on:
                self.selected.setText("(click a hex)")
                return
            assert self.doc is not None and self.hex is not None
            hmap = self.doc.hmap
            self.selected.setText(hmap.label(self.hex))
            self.terrain.setCurrentIndex(self.terrain.findData(hmap.terrain_at(self.hex)))
            keep = self.feature.currentIndex()
            self.feature.clear()
            for i, f in enumerate(self._features()):
                self.feature.addItem(f"{i + 1}: {f.name or f.type}", i)
            self.feature.setCurrentIndex(keep if 0 <= keep < self.feature.count() else 0)
            portion = self._portion()
            side = "" if portion is None else ("polygon" if portion.polygon is not None else str(portion.preset))
            self.portion_side.setCurrentIndex(max(0, self.portion_side.findData(side)))
            self.portion_depth.setEnabled(portion is not None and portion.polygon is None)
            # A new preset portion starts at the model's default depth.
            self.portion_depth.setValue(portion.depth if portion is not None
                                        else ImpassablePortion.model_fields["depth"].default)
        finally:
            self._updating = False
        self._show_feature()

    def _current_feature(self) -> Feature | None:
        feats = self._features()
        i = self.feature.currentIndex()
        return feats[i] if 0 <= i < len(feats) else None

    def _show_feature(self) -> None:
        f = self._current_feature()
        self._updating = True
        try:
            self.feature_type.setEnabled(f is not None)
            self.feature_name.setEnabled(f is not None)
            if f is not None:
                self.feature_type.setCurrentIndex(self.feature_type.findData(f.type))
                if not self.feature_name.hasFocus():
                    self.feature_name.setText(f.name or "")
            else:
                self.feature_name.setText("")
        finally:
            self._updating = False

    # --- edits ----------------------------------------------------------------------------------

    def _provenance_edited(self) -> None:
        if self.doc is None:
            return
        value = self.provenance.text().strip() or None
        if value != self.doc.hmap.provenance:
            self.doc.push(ChangeProperty(self.doc, self.doc.hmap, "provenance", value))

    def _terrain_chosen(self, _index: int) -> None:
        tid = self.terrain.currentData()
        if self._updating or self.doc is None or self.hex is None or tid is None:
            return
        if tid != self.doc.hmap.terrain_at(self.hex):
            self.doc.push(PaintTerrain(self.doc, {self.hex: tid}))

    def _feature_type_chosen(self, _index: int) -> None:
        f, kind = self._current_feature(), self.feature_type.currentData()
        if self._updating or self.doc is None or f is None or kind is None or kind == f.type:
            return
        self.doc.push(ChangeProperty(self.doc, f, "type", kind, event=FeaturesChanged(self.doc.map_id,
                                                                                     frozenset({f.hex}))))

    def _feature_name_edited(self) -> None:
        f = self._current_feature()
        if self._updating or self.doc is None or f is None:
            return
        value = self.feature_name.text().strip() or None
        if value != f.name:
            self.doc.push(ChangeProperty(self.doc, f, "name", value,
                                         event=FeaturesChanged(self.doc.map_id, frozenset({f.hex}))))

    def _portion_side_chosen(self, _index: int) -> None:
        side = self.portion_side.currentData()
        if self._updating or self.doc is None or self.hex is None or side is None:
            return
        portion = self._portion()
        if side == "":
            if portion is not None:
                self.doc.push(ClearPortion(self.doc, self.hex))
        elif side == "polygon":
            self._show_hex()  # polygons are drawn with the portion-polygon tool
        elif portion is None or portion.polygon is not None:
            self.doc.push(SetPortion(self.doc, ImpassablePortion(hex=self.hex, preset=side,
                                                                 depth=self.portion_depth.value())))
        elif portion.preset != side:
            self.doc.push(ChangeProperty(self.doc, portion, "preset", side,
                                         event=PortionsChanged(self.doc.map_id, frozenset({self.hex}))))

    def _portion_depth_changed(self, value: float) -> None:
        portion = self._portion()
        if self._updating or self.doc is None or portion is None or portion.polygon is not None:
            return
        if abs(value - portion.depth) > 1e-9:
            # Spin-box steps on one portion merge into one undo step.
            self.doc.push(ChangeProperty(self.doc, portion, "depth", round(value, 3), merge=True,
                                         event=PortionsChanged(self.doc.map_id, frozenset({portion.hex}))))
