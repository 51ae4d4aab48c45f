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
EDITOR_SETTINGS = RESOURCES / "editor.yaml"


def default_sample() -> Path | None:
    """The sample bundle opened when no path is given (``hexproof edit``, ``validate``, ``info``,
    ``smoke``): data (``default_sample: scenarios/NAME`` in resources/editor.yaml), so no code
    names a game; in a checkout the repository's sample, in an installed copy the shipped one.
    None when the setting is missing or unreadable (the caller says what it opens instead)."""
    from model.formats.yamlio import read_package_data

    try:
        settings = read_package_data(EDITOR_SETTINGS) if EDITOR_SETTINGS.is_file() else {}
    except Exception:  # an unreadable settings file is no default, never a traceback
        return None
    rel = settings.get("default_sample") if isinstance(settings, dict) else None
    return SAMPLES / Path(str(rel)).name if rel else None
