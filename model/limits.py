"""Every size limit of Hexproof's loaders and importers, in one place.

Each limit is generous for a real game (the biggest published monster games stay well
inside it) and refuses an absurd, usually hostile, input *fast* and with a located error
(``file:line:col`` or ``file:row:col``) instead of a hang, a RecursionError or an attempt
to allocate exabytes. ``docs/reliability.md`` ("Limits") and ``tests/reliability/
test_limits.py`` read these names; change a number here and both follow.

The reading caps that predate this module (file size ``MAX_BYTES``, nesting depth
``MAX_DEPTH``, expanded node count ``MAX_NODES``) stay in :mod:`model.formats.yamlio` ("Caps" in
the docs). This module imports nothing, so any layer may read it.
"""

from __future__ import annotations

#: YAML aliases (``*name``) in one file, counted in the event stream before composing.
#: Hand-written files use a handful; 400,000 in 2 MB took 44 s to build.
MAX_ALIASES = 10_000
#: Nodes that aliases add to one file once expanded (expanded size − distinct nodes).
MAX_ALIAS_NODES = 200_000

#: Sum of the sizes of every file a bundle reads (game.yaml, system, maps, counters,
#: scenarios). Each file is also capped at :data:`MAX_BYTES` (64 MiB).
MAX_BUNDLE_BYTES = 256 * 1024 * 1024

#: Hexes of one map, summed over its sheets (``cols × rows``). A 700×700 map is 490,000;
#: the largest printed monster maps are a few tens of thousands.
MAX_MAP_HEXES = 4_000_000
#: Sheets of one map (a monster game has a few dozen).
MAX_MAP_SHEETS = 1_000

#: ``setup:`` entries of one scenario (and ``overrides.setup_add`` of a variant). The
#: biggest monster games have a few thousand counters.
MAX_SETUP_ENTRIES = 20_000

#: Length of an ``extends`` chain (variant of a variant of …).
MAX_EXTENDS_DEPTH = 64

#: Data rows of a counters CSV (a monster game has a few thousand counter types), and
#: characters in one of its cells.
MAX_CSV_ROWS = 20_000
MAX_CSV_FIELD = 100_000

#: An XLSX counter sheet is a zip of XML: the bytes it unpacks to (checked from the zip's
#: directory before anything is unpacked, so a small "zip bomb" is refused at once), and the
#: most any one member may grow by compression. 20 000 rows of 40 columns unpack to ~40 MB.
MAX_XLSX_UNPACKED = 128 * 1024 * 1024
MAX_XLSX_RATIO = 200

#: Pixels (width × height) of a background or proof-art image, checked from the file's
#: header before it is decoded. 250 megapixels is a 1.3 m × 1.3 m map scanned at 300 dpi
#: (1 GB once decoded).
MAX_IMAGE_PIXELS = 250_000_000
#: Bytes of an image file read into memory before decoding (a background scan, proof art):
#: read through model/safefile, bounded by the bytes actually read.
MAX_IMAGE_BYTES = 512 * 1024 * 1024

#: Calibration: image pixels per hex size (centre to corner). A 300 dpi scan of 5/8"
#: hexes is ~100; 20 000 is a hex wider than any image we accept.
MAX_PIXELS_PER_HEX = 20_000.0
MIN_PIXELS_PER_HEX = 0.01
#: Absolute value of a calibration pixel coordinate (finite numbers only).
MAX_CALIBRATION_COORD = 10_000_000.0
#: Two calibration points must be at least this many pixels apart (and, for three or
#: more, not all on one line): otherwise the fit is degenerate.
MIN_CALIBRATION_SPREAD = 1.0

#: Regular expressions written in data files (``hex_label_pattern`` …): longest pattern
#: accepted, and seconds one match may take before the pattern is refused.
MAX_REGEX_LENGTH = 1_000
REGEX_TIMEOUT = 0.05


def bundle_size_problem(root, game, locate):  # type: ignore[no-untyped-def]
    """The first file of a bundle at which its files add up to more than
    :data:`MAX_BUNDLE_BYTES`, as ``(message, location)``; ``None`` when within the limit.

    Sizes come from ``stat()`` (nothing is read). ``game`` is the validated game file;
    ``locate(path)`` gives the Location of a key of game.yaml, e.g. ``("scenarios", 3)``."""
    from pathlib import Path

    root = Path(root)
    entries: list[tuple[Path, tuple]] = [(root / "game.yaml", ())]
    system = root / str(game.system)
    if system.suffix in (".yaml", ".yml"):
        entries.append((system, ("system",)))
    entries += [(root / rel, ("maps", i)) for i, rel in enumerate(game.maps)]
    if game.counters:
        entries.append((root / game.counters, ("counters",)))
    if game.scenarios:
        entries += [(root / rel, ("scenarios", i)) for i, rel in enumerate(game.scenarios)]
    else:
        entries += [(p, ()) for p in sorted((root / "scenarios").glob("*.yaml"))]
    total = 0
    for path, key in entries:
        try:
            total += path.stat().st_size
        except OSError:
            continue  # missing or unreadable files are reported when they are read
        if total > MAX_BUNDLE_BYTES:
            return (f"the bundle's files add up to {total:,} bytes by {path.name}; "
                    f"the limit is {MAX_BUNDLE_BYTES:,}", locate(key))
    return None
