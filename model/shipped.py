"""Where the data Hexproof ships lives: the system files, the LOS table, the editor's settings and
the sample bundles.

In a source checkout, and in the editable install the README's commands make, they are the
repository's own ``resources/`` and ``scenarios/`` folders, so editing a system file takes effect at
once. A wheel can only install files that sit inside a package, so the build step in ``setup.py``
copies both folders into ``model/_shipped/``; an installed copy reads them there. Nothing here is
written to: :func:`editor.app.default_bundle` copies a shipped sample into the user's data folder
before it opens it, so an installed sample is never saved over.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
# The checkout's marker is its pyproject.toml: a ``resources`` folder beside an installed package
# (site-packages) could be any other distribution's.
IS_CHECKOUT = (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "resources").is_dir()
SHIPPED = PACKAGE / "_shipped"


def _root(name: str) -> Path:
    return CHECKOUT / name if IS_CHECKOUT else SHIPPED / name


RESOURCES = _root("resources")   # systems/*.yaml, los/templates.npz, editor.yaml
SAMPLES = _root("scenarios")     # the sample bundles
