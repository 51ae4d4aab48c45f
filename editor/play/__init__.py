"""Play mode of the editor window: test-play a scenario on the map being edited."""

from editor.play.mode import PlayMode

__all__ = ["PlayMode"]
