"""The Killing Ground procedures for the test-play engine (see docs/play.md, "TKG"); the plug-in
record is ``play/tkg/plugin.py``."""
