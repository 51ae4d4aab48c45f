"""DiagnosticsPanel: findings grouped by severity then code, a text filter, the rule's
documentation beside them; activating a finding asks the window to show its hex/unit/turn."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLineEdit, QSplitter, QTextBrowser, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

from model.diagnostics import Diagnostic, Severity
from validators.registry import get_rule

SEVERITY_COLOURS = {Severity.ERROR: "#c62828", Severity.WARNING: "#ef6c00", Severity.INFO: "#1565c0"}
ROLE = Qt.ItemDataRole.UserRole


class DiagnosticsPanel(QWidget):
    activated = Signal(object)  # Diagnostic

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diagnostics: list[Diagnostic] = []
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: code, text, hex or unit")
        self.filter.setClearButtonEnabled(True)
        self.severity = QComboBox()
        self.severity.addItem("All", 0)
        for sev in (Severity.ERROR, Severity.WARNING, Severity.INFO):
            self.severity.addItem(f"{sev.name.title()}s and worse" if sev != Severity.ERROR else "Errors", int(sev))
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Finding", "Where"])
        self.tree.setColumnWidth(0, 360)
        self.tree.setUniformRowHeights(True)
        self.doc_view = QTextBrowser()
        self.doc_view.setOpenExternalLinks(False)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.doc_view)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.severity)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        self.filter.textChanged.connect(lambda _t: self._rebuild())
        self.severity.currentIndexChanged.connect(lambda _i: self._rebuild())
        self.tree.currentItemChanged.connect(self._on_current)
        self.tree.itemActivated.connect(self._on_activated)
        self.tree.itemClicked.connect(self._on_activated)

    def sizeHint(self) -> QSize:
        # Modest, so showing the dock (any mode) never makes the main window grow to fit it.
        return QSize(480, 160)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, 80)

    # --- data ------------------------------------------------------------------------------------

    def set_diagnostics(self, diags: list[Diagnostic]) -> None:
        self.diagnostics = list(diags)
        self._rebuild()

    def counts(self) -> dict[Severity, int]:
        out = {s: 0 for s in Severity}
        for d in self.diagnostics:
            out[d.severity] += 1
        return out

    def visible(self) -> list[Diagnostic]:
        text = self.filter.text().strip().lower()
        floor = int(self.severity.currentData() or 0)
        out = []
        for d in self.diagnostics:
            if int(d.severity) < floor:
                continue
            if text:
                hay = " ".join([d.code, d.message, d.rule_case or "", *d.location.hexes, *d.location.units,
                                d.location.scenario or ""]).lower()
                if text not in hay:
                    continue
            out.append(d)
        return out

    def clear(self) -> None:
        """No findings and no rule text: the document they were about has gone."""
        self.diagnostics = []
        self._rebuild()

    def _rebuild(self) -> None:
        # The detail pane follows the tree: the finding (or rule group) it showed is selected
        # again when it is still listed; otherwise the pane is emptied, never left stale.
        shown = self.tree.currentItem().data(0, ROLE) if self.tree.currentItem() is not None else None
        self.tree.setUpdatesEnabled(False)
        self.tree.blockSignals(True)
        self.tree.clear()
        again: QTreeWidgetItem | None = None
        groups: dict[Severity, dict[str, list[Diagnostic]]] = {}
        for d in self.visible():
            groups.setdefault(d.severity, {}).setdefault(d.code, []).append(d)
        for sev in sorted(groups, reverse=True):
            by_code = groups[sev]
            top = QTreeWidgetItem([f"{sev.name.title()}s ({sum(len(v) for v in by_code.values())})", ""])
            top.setForeground(0, QBrush(QColor(SEVERITY_COLOURS[sev])))
            self.tree.addTopLevelItem(top)
            for code in sorted(by_code):
                rule = get_rule(code)
                name = f" {rule.name}" if rule is not None else ""
                mid = QTreeWidgetItem([f"{code}{name} ({len(by_code[code])})", ""])
                mid.setData(0, ROLE, code)
                top.addChild(mid)
                if shown == code:
                    again = mid
                for d in by_code[code]:
                    where = d.location.scenario or ""
                    if d.location.hexes:
                        where += (" " if where else "") + ", ".join(d.location.hexes[:3])
                    leaf = QTreeWidgetItem([d.message, where])
                    leaf.setToolTip(0, d.render())
                    leaf.setData(0, ROLE, d)
                    mid.addChild(leaf)
                    if again is None and isinstance(shown, Diagnostic) and d == shown:
                        again = leaf
            top.setExpanded(True)
            if len(by_code) <= 6:
                for i in range(top.childCount()):
                    top.child(i).setExpanded(True)
        if again is not None:
            self.tree.setCurrentItem(again)
        self.tree.blockSignals(False)
        self.tree.setUpdatesEnabled(True)
        if again is not None:
            self._on_current(again, None)
        else:
            self.doc_view.clear()

    # --- interaction ------------------------------------------------------------------------------

    def _on_current(self, item: QTreeWidgetItem | None, _prev: QTreeWidgetItem | None) -> None:
        if item is None:
            self.doc_view.clear()
            return
        data = item.data(0, ROLE)
        code = data.code if isinstance(data, Diagnostic) else data if isinstance(data, str) else None
        self.show_rule(code, data if isinstance(data, Diagnostic) else None)

    def show_rule(self, code: str | None, diag: Diagnostic | None = None) -> None:
        rule = get_rule(code) if code else None
        parts = []
        if diag is not None:
            parts.append(f"<p><b>{diag.severity.name.title()} {diag.code}</b>: {_esc(diag.message)}"
                         f"{f' <i>[{_esc(diag.rule_case)}]</i>' if diag.rule_case else ''}<br>"
                         f"<small>{_esc(diag.location.render())}</small>"
                         f"{f'<br><small>policy: {_esc(diag.policy)}</small>' if diag.policy else ''}</p>")
        if rule is not None:
            parts.append(f"<h3>{rule.code} {rule.name}</h3><p>{rule.status}, {rule.severity}, "
                         f"rule case {_esc(rule.rule_case or '')}</p><pre style='white-space: pre-wrap'>"
                         f"{_esc(rule.doc())}</pre>")
        elif code:
            parts.append(f"<p>{_esc(code)}: no rule documentation (loader or internal finding).</p>")
        self.doc_view.setHtml("".join(parts))

    def _on_activated(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        data = item.data(0, ROLE)
        if isinstance(data, Diagnostic):
            self.activated.emit(data)

    def leaf_items(self) -> list[QTreeWidgetItem]:
        out = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                mid = top.child(j)
                out += [mid.child(k) for k in range(mid.childCount())]
        return out


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
