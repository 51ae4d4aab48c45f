"""Pictures of ``hexproof analyze`` and ``hexproof coverage``: heatmaps on the map and histograms (QPainter)."""
