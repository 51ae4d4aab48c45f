"""The PySide6 editor: document, undo commands, map canvas, tools and main window.

Importing the package applies :mod:`editor._pyside_workaround` before any painting happens.
"""

from editor import _pyside_workaround  # noqa: F401  (side effect: see the module docstring)
