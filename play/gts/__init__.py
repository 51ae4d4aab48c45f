"""GTS v2.0c + Utah Beach procedures for the test-play engine (see docs/play.md, "GTS"); the
plug-in record is ``play/gts/plugin.py``."""
