"""Undo commands, named verb + noun. Each wraps a pure edit from :mod:`model.edits`."""

from editor.commands.background import CalibrateBackground, SetBackground
from editor.commands.base import MergeId
from editor.commands.features import PlaceFeature, RemoveFeature
from editor.commands.hexsides import ClearHexsideFeature, SetHexsideFeature
from editor.commands.paths import AddPath, RemovePath
from editor.commands.portions import ClearPortion, SetPortion
from editor.commands.property import ChangeProperty
from editor.commands.terrain import MoveTerrain, PaintTerrain, PasteTerrain

__all__ = [
    "AddPath", "CalibrateBackground", "ChangeProperty", "ClearHexsideFeature", "ClearPortion",
    "MergeId", "MoveTerrain", "PaintTerrain", "PasteTerrain", "PlaceFeature", "RemoveFeature",
    "RemovePath", "SetBackground", "SetHexsideFeature", "SetPortion",
]
