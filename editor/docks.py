"""Dock panels: tool palette, layers (visibility + opacity), properties of the map."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                               QLabel, QLineEdit, QPushButton, QSlider, QSpinBox, QVBoxLayout, QWidget)

from editor.actions import LAYER_NAMES
from model.system import GameSystem

TOOL_NAMES = (("terrain", "Terrain brush"), ("hexside", "Hexside"), ("path", "Path"), ("feature", "Feature"),
              ("portion", "Impassable portion"), ("portion-polygon", "Portion polygon"), ("eraser", "Eraser"),
              ("picker", "Picker"), ("select", "Select"), ("calibrate", "Calibrate"), ("pan", "Pan"))


class ToolPalette(QWidget):
    toolChosen = Signal(str)

    def __init__(self, system: GameSystem) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        grid = QGridLayout()
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QPushButton] = {}
        for i, (tid, title) in enumerate(TOOL_NAMES):
            b = QPushButton(title)
            b.setCheckable(True)
            b.setToolTip(f"{title} tool")
            self.group.addButton(b)
            self.buttons[tid] = b
            b.clicked.connect(lambda _=False, t=tid: self.toolChosen.emit(t))
            grid.addWidget(b, i // 2, i % 2)
        lay.addLayout(grid)
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
    """Map name and the hex under the cursor; edits go through ChangeProperty."""

    def __init__(self, on_name: Callable[[str], None]) -> None:
        super().__init__()
        form = QFormLayout(self)
        self.map_id = QLabel()
        self.name = QLineEdit()
        self.name.editingFinished.connect(lambda: on_name(self.name.text()))
        self.system = QLabel()
        self.size = QLabel()
        self.hex_info = QLabel()
        self.hex_info.setWordWrap(True)
        form.addRow("Map id", self.map_id)
        form.addRow("Name", self.name)
        form.addRow("System", self.system)
        form.addRow("Size", self.size)
        form.addRow("Hex", self.hex_info)
