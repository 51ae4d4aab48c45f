"""Hexproof application shell: the ``hexproof`` command line and its subcommands."""

__version__ = "0.1.0"
