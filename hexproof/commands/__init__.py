"""Subcommands of ``hexproof``.

Each module here defines ``NAME``, ``HELP`` (its entry below), ``register(parser)`` and
``run(args) -> int``. To add a subcommand, add its name and one-line help to ``COMMANDS``.
The console script imports only the module of the subcommand it runs (``hexproof --help``
imports none), so ``hexproof validate`` never pays for Qt, nor ``hexproof --help`` for numpy,
shapely and every pydantic model.
"""

COMMANDS: dict[str, str] = {
    'edit': 'Open the map and scenario editor (default: the bundled Utah Beach sample).',
    'info': 'Summarise a game bundle: system, maps, sheets, counters, scenarios, zones and overlays.',
    'lint-rules': 'Proof-read rulebook text files: designer notes, placeholders, dangling references.',
    'los': 'Line of sight between two hexes (printed labels), with every crossing and the rule case it applies.',
    'rules': "List the validation rules, show one rule's documentation, or regenerate docs/rules.",
    'schema': 'Write the JSON Schema of a file format (game, map, counters, scenario, system).',
    'validate': 'Validate game bundles and scenarios; exit 0 clean, 1 findings, 2 unreadable input.',
    'viewshed': 'Hexes visible from a hex (printed labels), within its LOS range or --range.',
    'diff': 'Semantic diff of two versions of a bundle or scenario: the lines an errata sheet is written from.',
    'counters': "Export a bundle's counter manifest to CSV or XLSX, or import one (strict: every bad cell is reported file:row:column and nothing is written).",
    'playtest': 'Run scripted playtests (YAML actions + assertions, fixed seed); exit 0 pass, 1 failed, 2 unreadable.',
    'smoke': "Smoke playtest: play every turn's arrivals and withdrawals and report illegal ones (PLAY-SMOKE-NNN).",
    'proof': 'Proof PDF: tiled map with printed labels, duplex counter sheets, setup cards, schedules, drop-zone and beach-overlay maps, validation report; optional PNG/SVG of each map.',
    'proof-art': "Map-art proofing: sample every hex's centre dot in the calibrated map image and report terrain mismatches.",
    'export-vassal': 'Build a VASSAL module: rendered map with its hex grid and numbering, two-sided counters, scenario setups.',
    'import-vassal': 'Start a bundle from a VASSAL module: board image as the calibrated background, its hex grid, pieces as counters, predefined setups as scenarios; everything unmapped is reported.',
    'new': 'Create a new, empty game bundle (map, empty counters, one starter scenario) that validates clean.',
}
