"""The ``no_qt_warnings`` fixture (tests/conftest.py): a Qt warning fails the test that printed
it, a benign platform message on the allow-list does not, and the messages are named."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QtMsgType, qWarning
from PySide6.QtGui import QPainter, QPixmap

import conftest

pytest_plugins = ["pytester"]


@pytest.mark.qt_warnings
def test_the_fixture_catches_a_qt_warning(no_qt_warnings: list[str]) -> None:
    qWarning("QAbstractItemView::commitData called with an editor that does not belong to this view")
    assert no_qt_warnings and "commitData" in no_qt_warnings[0] and no_qt_warnings[0].startswith("QtWarningMsg")


@pytest.mark.qt_warnings
def test_the_fixture_catches_a_warning_qt_itself_prints(qapp: object, no_qt_warnings: list[str]) -> None:
    """A real Qt warning, not one made up: a painter begun on a null pixmap."""
    painter = QPainter()
    assert not painter.begin(QPixmap())
    assert any("QPainter::begin" in m for m in no_qt_warnings), no_qt_warnings


def test_allowed_platform_messages_pass(no_qt_warnings: list[str]) -> None:
    qWarning("This plugin does not support propagateSizeHints()")
    assert no_qt_warnings == []
    assert all(why for _pattern, why in conftest.QT_WARNINGS_ALLOWED)  # each one says why


def test_a_test_that_makes_qt_warn_fails(pytester: pytest.Pytester) -> None:
    # The real fixture, from this repository's conftest loaded under another module name.
    pytester.makeconftest(f"""
import importlib.util
spec = importlib.util.spec_from_file_location("hexproof_conftest", {str(conftest.REPO / 'tests' / 'conftest.py')!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
no_qt_warnings = module.no_qt_warnings
""")
    pytester.makepyfile(test_warns="""
from PySide6.QtCore import qWarning

def test_warns():
    qWarning("QObject::connect: No such signal")
""")
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)  # the test body passed; its teardown fails it
    result.stdout.fnmatch_lines(["*Qt printed warnings during this test*", "*QObject::connect: No such signal*"])
    assert QtMsgType.QtWarningMsg.name == "QtWarningMsg"
