"""The map canvas: scene layers (terrain tiles, details, background) and the view."""
