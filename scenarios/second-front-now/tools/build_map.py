"""Regenerate maps/pas-de-calais.yaml: the illustrative outline, coast and terrain of the
SFN sample map, with every hex, hexside and edge range the rules text names.

Run from the repository root: ``python scenarios/second-front-now/tools/build_map.py``.
The rules give hex numbers, not map art: the coastline, the outline and the terrain
outside the named hexes are illustrative (see ../README.md). The edge ranges are walked
along the land hexes at the map edge between the endpoints the rules give (7.3, 9.3).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from model.hexes import Hex
from model.labels import GridSpec, Sheet, LabelScheme

COLS = range(10, 41)  # printed columns 10..40 (columns 00..09 are off the printed map)
ROWS = 29  # printed rows 00..28
# Southernmost row per column where the south-east corner is cut (2828-3421-4013 edge).
SE_MAX_ROW = {28: 28, 29: 27, 30: 26, 31: 25, 32: 24, 33: 22, 34: 21, 35: 20, 36: 18,
              37: 17, 38: 16, 39: 14, 40: 13}
# First land row per column (north of it is sea): the Channel coast.
COAST = {10: 12, 11: 11, 12: 11, 13: 10, 14: 11, 15: 10, 16: 11, 17: 10, 18: 11, 19: 9,
         20: 5, 21: 3, 22: 2, 23: 2, 24: 1, 25: 1, 26: 1, 27: 1, 28: 1, 29: 1, 30: 1}
TERRAIN = {  # label → terrain char (towns, cities, fortresses and a few illustrative hexes)
    "1012": "X", "1211": "t", "1510": "t", "1414": "C", "2210": "C", "2005": "X", "2103": "X",
    "2401": "X", "2412": "C", "1525": "C", "2119": "C", "2804": "C", "3703": "C", "3119": "C",
    "1911": "m", "2011": "m", "1813": "F", "1814": "F", "2616": "F", "2617": "F", "3410": "F",
    "3510": "F", "3611": "F", "1720": "h", "2922": "h",
}
BREAKOUT_MAX_ROW = {**{c: 14 for c in range(11, 18)}, **{c: 12 for c in range(18, 24)}, 24: 11}
SEINE_NORTH_BANK = ["1113", "1213", "1313", "1414", "1514", "1615", "1715", "1816", "1917", "2018", "2118"]


def spec() -> GridSpec:
    sheet = Sheet(id="main", name="Pas de Calais", x0=0, y0=0, cols=41, rows=ROWS,
                  labels=LabelScheme(first_col=0, first_row=0))
    return GridSpec("flat", "odd", (sheet,))


def char_at(c: int, r: int) -> str:
    if c not in COLS or r > SE_MAX_ROW.get(c, ROWS - 1):
        return "-"
    if r < COAST.get(c, 0):
        return "~"
    return TERRAIN.get(f"{c:02d}{r:02d}", ".")


def main() -> None:
    g = spec()
    rows = ["".join(char_at(c, r) for c in range(41)) for r in range(ROWS)]

    def land(h: Hex) -> bool:
        x, y = g.offset(h)
        return 0 <= x < 41 and 0 <= y < ROWS and rows[y][x] not in "-~"

    def on_map(h: Hex) -> bool:
        x, y = g.offset(h)
        return 0 <= x < 41 and 0 <= y < ROWS and rows[y][x] != "-"

    edge = {g.hex_at_offset(x, y) for y in range(ROWS) for x in range(41)
            if land(g.hex_at_offset(x, y)) and not all(on_map(n) for n in g.hex_at_offset(x, y).neighbors())}

    def walk(a: str, b: str) -> list[str]:
        start, goal = g.parse(a), g.parse(b)
        prev = {start: start}
        todo = deque([start])
        while todo:
            h = todo.popleft()
            for n in h.neighbors():
                if n in edge and n not in prev:
                    prev[n] = h
                    todo.append(n)
        path = [goal]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return [g.label(h) for h in reversed(path)]

    breakout = [f"{c:02d}{r:02d}" for c, mx in BREAKOUT_MAX_ROW.items() for r in range(mx + 1)
                if rows[r][c] not in "-~"]

    def flow(labels: list[str], indent: str = "  ") -> str:
        out, line = [], []
        for lab in labels:
            line.append(f"'{lab}'")
            if len(line) == 12:
                out.append(indent + "  " + ", ".join(line) + ",")
                line = []
        if line:
            out.append(indent + "  " + ", ".join(line))
        text = "\n".join(out).rstrip(",")
        return "[\n" + text + "]"

    north, south, supply = walk("3100", "2828"), walk("4013", "3421"), walk("1013", "3100")
    template = (Path(__file__).parent / "map_template.yaml").read_text(encoding="utf-8")
    text = template.format(
        rows="\n".join("    " + r for r in rows),
        seine=", ".join(f"{h}/S" for h in SEINE_NORTH_BANK),
        breakout=flow(breakout, "    "),
        supply=flow(supply, "    "),
        north=flow(north, "    "),
        south=flow(south, "    "),
    )
    (Path(__file__).parents[1] / "maps" / "pas-de-calais.yaml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
