"""Subcommands of ``hexproof``.

Each module here defines ``NAME``, ``HELP``, ``register(parser)`` and ``run(args) -> int``.
To add a subcommand, add its module name to ``COMMANDS``; modules are imported lazily so
that ``hexproof validate`` never pays for importing Qt.
"""

COMMANDS: list[str] = [
    "edit",
    "info",
    "lint-rules",
    "los",
    "rules",
    "schema",
    "validate",
    "viewshed",
    "diff",
    "counters",
    "playtest",
    "smoke",
    "proof",
    "proof-art",
    "export-vassal",
    "import-vassal",
    "new",
]
