"""Play mode of the editor window: test-play a scenario on the map being edited."""

from editor.play.mode import PlayMode, install_play_mode

__all__ = ["PlayMode", "install_play_mode"]
