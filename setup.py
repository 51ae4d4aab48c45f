"""The build step a wheel needs beyond pyproject.toml: copy the shipped data into the package.

A wheel installs only files inside packages, and Hexproof's system files, LOS table, editor
settings and sample bundles live in the repository's ``resources/`` and ``scenarios/`` folders
(where a designer edits them in a checkout). ``build_py`` copies both into ``model/_shipped/``;
:mod:`model.shipped` reads them there in an installed copy. An editable install (the README's
commands) copies nothing: it reads the checkout's folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SHIPPED = ("resources", "scenarios")


class BuildPyWithShippedData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "model" / "_shipped"
        for name in SHIPPED:
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(HERE / name, target / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithShippedData})
