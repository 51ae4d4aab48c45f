"""Rule packs: ``core`` (game-agnostic), ``sfn``, ``gts``, ``tkg`` and ``proof``.

Each pack is a package whose ``get_rules()`` returns its Rule classes, one rule per module
named after its code (``gts/dz_001.py`` defines GTS-DZ-001).
"""
