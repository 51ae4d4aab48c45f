"""Regenerate ``utah.yaml``: the ILLUSTRATIVE terrain of the Utah Beach sample map.

The map art is not in the rules text, so every terrain character here is illustrative.
What is NOT illustrative (it comes from the rules and is kept exact): the grid and label
scheme, the 16 drop/landing zone hex lists [Excl 3.2] (forced to clear, playable terrain),
the landing hexes [Excl 4.5.2] (Beach), the Assault Force marker hexes named in
[Excl 4.4.3] (Impassable, coastal), the impassable portion of 28.049 on its 28.050 side
[Excl 2.1], and the named reinforcement hexes [Err Intro#3, Adv#1].

Run from the repository root: ``python scenarios/utah-beach/maps/make_map.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from model.base import hexside_between  # noqa: E402
from model.bundle import dump_model  # noqa: E402
from model.hexes import Hex  # noqa: E402
from model.labels import GridModel  # noqa: E402
from model.mapdata import HexMap  # noqa: E402

COLS, ROWS = 108, 71  # printed columns 00–107, rows 000–070
HERE = Path(__file__).resolve().parent

ZONES: dict[str, list[str]] = {  # [Excl 3.2], exactly as printed
    "dz-a": "32.028 33.027 33.028 34.027 34.028 34.029 35.027 35.028 36.028".split(),
    "dz-b": "38.038 39.037 39.038 40.037 40.038 40.039 41.037 41.038 42.038".split(),
    "dz-c": "27.036 28.036 28.037 29.035 29.036 29.037 30.036 30.037 31.036".split(),
    "dz-d": "24.045 25.044 25.045 26.044 26.045 26.046 27.044 27.045 28.045".split(),
    "alt-dz-d": "31.041 32.041 32.042 33.040 33.041 33.042 34.041 34.042".split(),
    "lz-e": "29.037 30.037 30.038 31.037 31.038 31.039 32.037 32.038 32.039".split(),
    "lz-w": ("33.036 33.037 33.038 34.036 34.037 34.038 34.039 35.035 35.036 35.037 35.038 35.039 "
             "36.035 36.036 36.037 36.038 36.039 37.034 37.035 37.036 37.037 37.038 37.039 38.035 "
             "38.036 38.037 38.038 38.039 39.035 39.036 39.037 39.038").split(),
    "dz-o": "43.030 44.030 44.031 45.029 45.030 46.030 46.031 47.030".split(),
    "lz-o": "42.030 43.029 44.029 45.028 46.029 47.029".split(),  # added to DZ O
    "dz-n": "52.037 52.038 53.036 53.037 54.036 54.037 55.036 55.037".split(),
    "dz-t": "49.031 50.031 50.032 51.030 51.031 51.032 52.031 52.032 53.031".split(),
    "dz-1": "77.041 77.042 78.041 78.042 78.043 79.041 79.042".split(),
    "dz-2": "85.044 85.045 86.044 86.045 86.046 87.044 87.045 88.045".split(),
    "dz-3": "84.039 84.040 84.041 85.038 85.039 85.040 86.040".split(),
    "lz-4": "87.042 88.042 88.043 89.041 89.042".split(),
    "lz-5": "81.040 81.041 82.041 82.042".split(),
}
LANDING = "22.023 23.022 21.023 21.024 18.026 19.025 17.026 17.027".split()  # [Excl 4.5.2]
SEA_NAMED = "17.029 18.027 16.032 28.018 29.017 44.002".split()  # [Excl 4.4.3]
REINF = {"29.030": "1", "52.063": "F", "52.067": "A", "34.067": "B"}
KG_SIMON = "105.031 100.039 106.037 101.034 104.037 103.050 98.055".split()  # [Err CG#4]


def xy(label: str) -> tuple[int, int]:
    a, b = label.split(".")
    return int(a), int(b)


def coast(y: int) -> int:
    """First land column of row y (sea is every lower column). Illustrative."""
    if y <= 17:
        return 30 + (17 - y)
    if y <= 22:
        return 30 - round((y - 17) * 7 / 5)
    fixed = {23: 21, 24: 21, 25: 19, 26: 17, 27: 17}
    if y in fixed:
        return fixed[y]
    if y <= 40:
        return 17
    return 17 - round((y - 40) * 3 / 30)


def build_rows() -> list[list[str]]:
    g = [["." for _ in range(COLS)] for _ in range(ROWS)]

    def put(x: int, y: int, ch: str) -> None:
        if 0 <= x < COLS and 0 <= y < ROWS:
            g[y][x] = ch

    def block(x0: int, x1: int, y0: int, y1: int, ch: str) -> None:
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                put(x, y, ch)

    for y in range(ROWS):
        c = coast(y)
        for x in range(c):
            put(x, y, "~")
        beach_row = 20 <= y <= 28
        for x in (c, c + 1):
            put(x, y, "b" if beach_row else "d")
        put(c + 2, y, "d")
        if 15 <= y <= 40:  # flooded ground behind the beach
            for x in range(c + 3, c + 8):
                put(x, y, "F")
    # Illustrative terrain patches.
    block(44, 50, 42, 55, "m")       # Douve marshes
    block(60, 64, 10, 16, "w")
    block(70, 73, 45, 50, "w")
    block(55, 75, 20, 35, "h")       # bocage
    block(90, 107, 25, 60, "h")
    block(66, 68, 40, 42, "o")
    block(30, 36, 50, 56, "h")
    for lab in ("49.035", "49.036", "50.035"):
        put(*xy(lab), "t")           # Ste-Mère-Église (illustrative placement)
    for lab in ("40.060", "41.060", "40.061"):
        put(*xy(lab), "t")           # Carentan (illustrative)
    put(80, 5, "c")
    put(29, 19, "f")
    for lab in ("33.031", "40.035", "28.033", "26.048", "33.044", "45.033", "78.045", "87.047", "55.040"):
        put(*xy(lab), "v")
    for lab in ("83.037", "60.022", "61.022", "35.058"):
        put(*xy(lab), "H")
    # Exact data from the rules, applied last so nothing illustrative overwrites it.
    for zone in ZONES.values():
        for lab in zone:
            put(*xy(lab), ".")
    for lab in LANDING:
        put(*xy(lab), "b")
    for lab in SEA_NAMED:
        put(*xy(lab), "~")
    for lab in list(REINF) + KG_SIMON + ["28.048", "28.049", "28.050", "30.027", "20.025"]:
        x, y = xy(lab)
        if g[y][x] == "~":
            raise SystemExit(f"{lab} must have a centre dot")
    return g


def line(a: str, b: str, grid) -> list[str]:
    spec = grid.spec()
    return [spec.label(h) for h in spec.parse(a).line_to(spec.parse(b))]


def main() -> None:
    grid = GridModel.model_validate({
        "orientation": "flat", "stagger": "odd",
        "sheets": [{"id": "utah", "name": "Utah Beach map (all sheets, one numbering)", "x0": 0, "y0": 0,
                    "cols": COLS, "rows": ROWS,
                    "labels": {"separator": ".", "col_digits": 2, "row_digits": 3, "first_col": 0, "first_row": 0}}],
    })
    spec = grid.spec()
    rows = build_rows()
    h = spec.hex_at_offset

    river = []
    for x in range(20, 52):
        a = h(x, 49)
        for b in a.neighbors():
            bx, by = spec.offset(b)
            if by == 50 and abs(bx - x) <= 1 and 20 <= bx < 52:
                key = hexside_between(a, b)
                if key not in river and (x, bx) != (28, 28):
                    river.append(key)
    bridge = [hexside_between(h(33, 49), h(33, 50))]
    stream = [hexside_between(h(x, 44), h(x, 45)) for x in range(29, 37, 2)]
    ridge = [hexside_between(h(65, y), h(66, y)) for y in range(24, 33)]
    crest = [hexside_between(h(60, 22), n) for n in h(60, 22).neighbors()
             if spec.offset(n) != (61, 22)] + [hexside_between(h(61, 22), n) for n in h(61, 22).neighbors()
                                              if spec.offset(n) != (60, 22)]

    def coastal_sea(y0: int, y1: int) -> list[str]:
        out = []
        for y in range(y0, y1 + 1):
            for x in range(COLS):
                if rows[y][x] != "~":
                    continue
                for n in h(x, y).neighbors():
                    nx, ny = spec.offset(n)
                    if 0 <= nx < COLS and 0 <= ny < ROWS and rows[ny][nx] not in "~":
                        out.append(spec.label(h(x, y)))
                        break
        return out

    data = {
        "id": "utah",
        "name": "The Greatest Day: Utah Beach (sample map, illustrative terrain)",
        "illustrative_terrain": True,
        "provenance": ("Grid, label scheme, zone, landing, Assault Force and reinforcement hexes come from the "
                       "rules (see README.md). All other terrain, hexsides, paths and features are ILLUSTRATIVE: "
                       "the map art is not in the rules file. Generated by maps/make_map.py."),
        "grid": grid.model_dump(),
        "terrain": {
            "legend": {".": "clear", "w": "woods", "v": "village", "t": "town", "c": "city", "f": "fortified",
                       "m": "marsh", "b": "beach", "h": "hedgerow", "H": "hill", "F": "flooded", "o": "orchard",
                       "d": "dunes", "~": "impassable"},
            "rows": "\n".join("".join(r) for r in rows),
        },
        "hexsides": {"river": river, "bridge": bridge, "stream": stream, "ridge": ridge, "crest": crest},
        "paths": [
            {"type": "causeway", "name": "Causeway (Exit 3, illustrative)", "hexes": line("19.025", "32.025", grid), "illustrative": True},
            {"type": "road", "name": "Coastal road (illustrative)", "hexes": line("33.010", "33.070", grid), "illustrative": True},
            {"type": "road", "name": "N13 (illustrative)", "hexes": line("49.020", "49.066", grid), "illustrative": True},
            {"type": "road", "name": "Road west (illustrative)", "hexes": line("50.040", "106.040", grid), "illustrative": True},
            {"type": "raised", "name": "Raised road across the Douve marsh (illustrative)", "hexes": line("40.052", "51.052", grid), "illustrative": True},
            {"type": "railroad", "name": "Railroad (illustrative)", "hexes": line("57.005", "57.068", grid), "illustrative": True},
            {"type": "sunken", "name": "Sunken lane (illustrative)", "hexes": line("70.030", "75.035", grid), "illustrative": True},
        ],
        "features": [
            {"type": "hill", "hex": "60.022", "name": "Hill 30 (illustrative)", "value": 30, "illustrative": True},
            {"type": "hill", "hex": "83.037", "name": "Hill 82 (illustrative)", "value": 82, "illustrative": True},
            {"type": "hill", "hex": "35.058", "name": "Hill 35 (illustrative)", "value": 35, "illustrative": True},
            {"type": "op", "hex": "61.022", "name": "OP (illustrative)", "illustrative": True, "rule": "15.4.2"},
            {"type": "op", "hex": "36.025", "name": "OP (illustrative)", "illustrative": True, "rule": "15.4.2"},
            {"type": "strongpoint", "hex": "23.024", "name": "Wn 5 (illustrative)", "illustrative": True, "rule": "15.4.3"},
            {"type": "strongpoint", "hex": "29.019", "name": "Stp (illustrative)", "illustrative": True, "rule": "15.4.3"},
            {"type": "town_name", "hex": "49.035", "name": "Ste-Mère-Église", "illustrative": True},
            {"type": "town_name", "hex": "40.060", "name": "Carentan", "illustrative": True},
            {"type": "town_name", "hex": "28.033", "name": "Ste-Marie-du-Mont", "illustrative": True},
            {"type": "vp", "hex": "49.035", "value": 1, "illustrative": True},
            {"type": "reinforcement_hex", "hex": "29.030", "name": "American Reinforcement Hex 1", "rule": "Err Intro#3"},
            {"type": "reinforcement_hex", "hex": "52.063", "name": "German Reinforcement F", "rule": "Err Adv#1"},
            {"type": "reinforcement_hex", "hex": "52.067", "name": "265.ID Reinforcement Hex A", "rule": "Err Adv#1"},
            {"type": "reinforcement_hex", "hex": "34.067", "name": "Fallschirmjäger-Regiment 6 Reinforcement Hex B", "rule": "Err Adv#1"},
        ],
        "portions": [{"hex": "28.049", "preset": "S", "depth": 0.5, "rule": "Excl 2.1",
                      "illustrative": False}],
        "locations": [
            {"id": "us-reinf-1", "name": "American Reinforcement Hex 1", "hex": "29.030", "kind": "reinforcement_hex",
             "side": "allied", "owner": "US", "label": "1", "rule": "Err Intro#3",
             "note": "Printed as 'Eastern Reinforcement Hex A' in Intro #3; corrected by the errata."},
            {"id": "de-reinf-f", "name": "German Reinforcement F", "hex": "52.063", "kind": "reinforcement_hex",
             "side": "german", "owner": "German", "label": "F", "rule": "Err Adv#1"},
            {"id": "de-265-reinf-a", "name": "265.ID Reinforcement Hex A", "hex": "52.067", "kind": "reinforcement_hex",
             "side": "german", "owner": "265.ID", "label": "A", "rule": "Err Adv#1",
             "note": "Off the playable map in Advanced #1 [Err Adv#1 p.17]."},
            {"id": "de-fjr6-reinf-b", "name": "Fallschirmjäger-Regiment 6 Reinforcement Hex B", "hex": "34.067",
             "kind": "reinforcement_hex", "side": "german", "owner": "FJR 6", "label": "B", "rule": "Err Adv#1",
             "note": "Off the playable map in Advanced #1 [Err Adv#1 p.17]."},
        ],
        "areas": [
            {"id": "sector-utn", "name": "Assault Force sector UtN (29.017–44.002)", "kind": "af_sector",
             "hexes": coastal_sea(2, 17), "rule": "Excl 4.4.3",
             "note": "End hexes from the rules; the coastal sea hexes between them follow the illustrative coast."},
            {"id": "sector-uts", "name": "Assault Force sector UtS (16.032–28.018)", "kind": "af_sector",
             "hexes": coastal_sea(18, 32), "rule": "Excl 4.4.3",
             "note": "End hexes from the rules; the coastal sea hexes between them follow the illustrative coast."},
            {"id": "assembly-90th", "name": "90th ID Assembly Area", "kind": "assembly_area",
             "hexes": [spec.label(h(x, y)) for y in range(10, 13) for x in range(36, 40)],
             "side": "allied", "rule": "Err 17.4", "illustrative": True,
             "note": "The errata name the area but give no hexes; these are illustrative."},
        ],
    }
    hmap = HexMap.model_validate(data, context={"grid": spec})
    for lab in ("29.017", "44.002"):
        assert lab in data["areas"][0]["hexes"], lab
    for lab in ("16.032", "28.018", "17.029", "18.027"):
        assert lab in data["areas"][1]["hexes"], lab
    (HERE / "utah.yaml").write_text(dump_model(hmap, hmap.context()), encoding="utf-8")


if __name__ == "__main__":
    main()
