"""Benchmarks. ``python -m bench [NAME...]`` runs ``bench/bench_<name>.py`` modules.

Each module defines ``main(args: list[str]) -> dict`` that measures, prints its figures and
returns them; the runner prints the machine description first. Figures go into
``docs/benchmarks.md`` by hand, with the command that produced them. Timing never goes in
tests; tests compare fast paths with their reference implementations for equality only.
"""
