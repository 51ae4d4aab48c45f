"""Map-editing tools: each turns mouse events on the canvas into undo commands."""

from editor.tools.calibrate_tool import CalibrateTool
from editor.tools.eraser import Eraser
from editor.tools.feature_tool import FeatureTool
from editor.tools.hexside_painter import HexsidePainter
from editor.tools.path_tool import PathTool
from editor.tools.picker import Picker
from editor.tools.portion_tool import PortionPolygonTool, PortionTool
from editor.tools.selection import SelectionTool
from editor.tools.terrain_brush import TerrainBrush

__all__ = ["CalibrateTool", "Eraser", "PortionPolygonTool", "FeatureTool", "HexsidePainter", "PathTool", "Picker", "PortionTool", "SelectionTool",
           "TerrainBrush"]
