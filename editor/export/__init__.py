"""Publisher outputs: proof PDF, PNG/SVG map images, VASSAL assets, auto-trace suggestions.

Everything here renders through the editor's own scene (:class:`editor.map_view.scene.MapScene`)
so what is printed is what the designer sees; the pure data work lives in ``model/``.
"""
