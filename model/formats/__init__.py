"""File formats Hexproof reads and writes: YAML (with format-preserving patches), counter
tables (CSV/XLSX), map art, rulebook texts, and VASSAL modules (with pywargame's import hook).

Each module converts between bytes on disk and the pure models of :mod:`model`; none of them
decides a rule.
"""
