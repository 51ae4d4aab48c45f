"""``hexproof schema [KIND] [--output FILE]``: the JSON Schema of Hexproof's file formats."""

from __future__ import annotations

import argparse
import json

from hexproof.commands import COMMANDS
from hexproof.commands.common import write_output

NAME = "schema"
HELP = COMMANDS[NAME]  # one source: `hexproof --help` lists it without importing this module


def _models() -> dict[str, type]:
    from model.bundle import CounterFile, GameFile
    from model.mapdata import HexMap
    from model.scenario import Scenario
    from model.system import GameSystem

    return {"game": GameFile, "map": HexMap, "counters": CounterFile, "scenario": Scenario, "system": GameSystem}


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", nargs="?", default="all", choices=["all", "game", "map", "counters", "scenario", "system"])
    p.add_argument("--output", help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    models = _models()
    if args.kind == "all":
        doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Hexproof file formats",
               "oneOf": [], "$defs": {}}
        for name, model in models.items():
            schema = model.model_json_schema(mode="validation")
            doc["$defs"].update(schema.pop("$defs", {}))
            doc["$defs"][f"{name}_file"] = schema
            doc["oneOf"].append({"$ref": f"#/$defs/{name}_file"})
    else:
        doc = models[args.kind].model_json_schema(mode="validation")
    write_output(json.dumps(doc, indent=2, sort_keys=True) + "\n", args.output)
    return 0
