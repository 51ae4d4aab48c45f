"""Regenerate the ILLUSTRATIVE terrain of normandy.yaml (python maps/generate.py > maps/normandy.yaml).

The draft ships no map art: only the sheet letters, hex numbers of key hexes and terrain
*types* are known. Everything drawn here (coast line, bocage belt, forests, rivers, roads)
is invented to give the validators and the editor something plausible to work on; the
map file says so with ``illustrative_terrain: true``. Key hexes come from the draft.
"""

from __future__ import annotations

from model.labels import GridModel, Sheet, LabelScheme

N_COLS, N_ROWS = 60, 56     # N sheet: printed rows 01..56 (southward), cols 01..60 (eastward)
WE_COLS, WE_ROWS = 40, 62   # W/E sheets: printed rows 62..01 (decreasing southward), cols 01..40

SHEETS = [
    Sheet(id="N", name="Overlord (N) map", x0=0, y0=0, cols=N_COLS, rows=N_ROWS,
          labels=LabelScheme(prefix="N", axis_order="row_col", first_col=1, first_row=1)),
    Sheet(id="W", name="West map", x0=0, y0=N_ROWS, cols=WE_COLS, rows=WE_ROWS,
          labels=LabelScheme(prefix="W", axis_order="row_col", first_col=1, first_row=WE_ROWS, row_step=-1)),
    Sheet(id="E", name="East map", x0=WE_COLS, y0=N_ROWS, cols=WE_COLS, rows=WE_ROWS,
          labels=LabelScheme(prefix="E", axis_order="row_col", first_col=1, first_row=WE_ROWS, row_step=-1)),
]


def coast_row(col: int) -> int:
    """First land row (printed) of the N sheet at printed column ``col`` east of the Cotentin."""
    pts = [(23, 27), (28, 28), (39, 31), (51, 34), (60, 34)]
    for (c0, r0), (c1, r1) in zip(pts, pts[1:]):
        if c0 <= col <= c1:
            return round(r0 + (r1 - r0) * (col - c0) / (c1 - c0))
    return 27


def n_char(col: int, row: int) -> str:
    if col <= 22:                       # Cotentin peninsula
        if row < 12 or col == 1:
            return "~"
        if (col, row) in {(10, 14), (11, 14), (10, 13)}:
            return "C"                  # Cherbourg
        if col >= 21 and 22 <= row <= 26:
            return "B" if row >= 24 and col == 22 else ("f" if col == 21 else ".")
        if 27 <= row <= 30 and 15 <= col <= 22:
            return "f"                  # Carentan marshes
        return "h" if (col + row) % 5 else "b"
    cr = coast_row(col)
    if row < cr:
        return "~"
    if row == cr and (29 <= col <= 33 or 38 <= col <= 50):
        return "B"                      # Omaha, Gold, Juno, Sword
    if (col, row) in {(44, 40), (45, 40), (45, 41)}:
        return "C"                      # Caen
    if (col, row) == (35, 33):
        return "t"                      # Bayeux
    if col >= 44:
        return "." if (col + row) % 3 else "m"
    return "b" if (col * 3 + row) % 4 else "h"


def we_char(sheet: str, col: int, row: int) -> str:
    if sheet == "E" and (col, row) in {(22, 14), (23, 14)}:
        return "C"                      # Alencon (E1422)
    if sheet == "E" and 30 <= col <= 34 and 40 <= row <= 44:
        return "F"
    if sheet == "W" and 10 <= col <= 13 and 10 <= row <= 13:
        return "F"
    if sheet == "W" and row >= 40:
        return "b" if (col + row) % 3 else "h"
    if sheet == "W" and (col, row) in {(8, 30), (30, 28)}:
        return "t"
    return "." if (col + 2 * row) % 4 else "m"


def rows() -> list[str]:
    out = []
    for y in range(N_ROWS + WE_ROWS):
        line = []
        for x in range(2 * WE_COLS):
            if y < N_ROWS:
                line.append(n_char(x + 1, y + 1) if x < N_COLS else "-")
            else:
                sheet = "W" if x < WE_COLS else "E"
                col = x + 1 if sheet == "W" else x - WE_COLS + 1
                line.append(we_char(sheet, col, WE_ROWS - (y - N_ROWS)))
        out.append("".join(line))
    return out


KEY = [  # (id, name, labels, rule) - the hexes the draft names (TKG digest §1)
    ("cherbourg_supply", "Cherbourg supply hex", ["N1410"], "TKG [14.2.3]"),
    ("cherbourg_hq_centre", "Cherbourg HQ leash centre", ["N1511"], "TKG [11.2.1]"),
    ("pointe_du_hoc", "Pointe du Hoc", ["N2828"], "TKG L2169"),
    ("mulberry_b", "Mulberry B (Arromanches)", ["N3139"], "TKG L1752"),
    ("merville", "Merville battery", ["N3551"], "TKG L2169"),
    ("orne_bridge", "Orne River Bridge", ["N3648", "N3749"], "TKG L2173"),
    ("us_supply_source", "U.S. supply source", ["W6021"], "TKG [14.2.2]"),
    ("cw_supply_source", "British/Canadian supply source", ["W5735"], "TKG [14.2.2]"),
    ("boundary_w4731", "Operational boundary anchor", ["W4731"], "TKG [22.3.1]"),
    ("boundary_w3826", "Operational boundary", ["W3826"], "TKG [22.3.1]"),
    ("boundary_w2433", "Operational boundary", ["W2433"], "TKG [22.3.1]"),
    ("alencon", "Alencon", ["E1422"], "TKG [23.2.1]"),
    ("boundary_e2409", "Boundary limit", ["E2409"], "TKG [22.3.2]"),
    ("boundary_e0332", "Boundary limit", ["E0332"], "TKG [22.3.5]"),
]


def emit() -> str:
    from model.hexes import DIRECTION_NAMES
    grid = GridModel(orientation="flat", stagger="odd", sheets=SHEETS)
    spec = grid.spec()
    names = DIRECTION_NAMES["flat"]
    def side(a: str, b: str) -> str:
        ha, hb = spec.parse(a), spec.parse(b)
        d = next(i for i in range(6) if ha.neighbor(i) == hb)
        return f"{a}/{names[d]}"
    def line(a: str, b: str) -> list[str]:
        return [spec.label(h) for h in spec.parse(a).line_to(spec.parse(b))]
    out = ["# GENERATED by maps/generate.py - terrain, rivers and roads are ILLUSTRATIVE (no map art in the draft).",
           "# Key hexes and sheet letters come from the draft; see ../README.md.",
           "schema_version: 1", "id: normandy", "name: Normandy (N, W and E sheets)",
           "illustrative_terrain: true",
           "provenance: 'Sheets N/W/E and key hexes: TKG draft (digest §1). Terrain, rivers, roads: illustrative.'",
           "grid:", "  orientation: flat", "  stagger: odd", "  sheets:"]
    for s in SHEETS:
        lab = s.labels
        out.append(f"  - id: {s.id}\n    name: {s.name}\n    x0: {s.x0}\n    y0: {s.y0}\n    cols: {s.cols}\n    rows: {s.rows}")
        out.append(f"    labels: {{prefix: {lab.prefix}, axis_order: {lab.axis_order}, first_col: {lab.first_col}, first_row: {lab.first_row}, row_step: {lab.row_step}}}")
    out.append("terrain:")
    out.append("  legend: {'.': clear, m: mixed, l: lowlands, f: flooded, h: hedgerow, b: bocage, F: forest, t: town, C: city, B: beach, '~': sea}")
    out.append("  rows: |-")
    out.extend("    " + r for r in rows())
    orne = ["N3648", "N3548", "N3448"]
    out.append("hexsides:")
    out.append(f"  major_river: [{side('N3648', 'N3749')}, {side('N3548', 'N3649')}, {side('N3748', 'N3849')}]")
    out.append(f"  bridge: [{side('N3648', 'N3749')}]")
    out.append(f"  stream: [{side('W4020', 'W4021')}, {side('W4120', 'W4121')}]")
    out.append(f"  minor_river: [{side('E3028', 'E3029')}, {side('E3128', 'E3129')}]")
    out.append("paths:")
    out.append(f"- {{type: primary_road, name: Ouistreham-Caen, hexes: [{', '.join(line('N3648', 'N3749') + line('N3749', 'N4044')[1:])}]}}")
    out.append(f"- {{type: secondary_road, name: supply road, hexes: [{', '.join(line('W6021', 'W5735'))}]}}")
    out.append(f"- {{type: railroad, name: Alencon line, hexes: [{', '.join(line('E1422', 'E3022'))}]}}")
    out.append("features:")
    for lab, name in [("E1422", "Alencon"), ("W3008", "Fougeres"), ("W2830", "Mayenne")]:
        out.append(f"- {{type: rail_station, hex: {lab}, name: {name}, rule: 'TKG [17.4.3]'}}")
    out.append("- {type: coast_artillery, hex: N3551, name: Merville, rule: TKG L2169}")
    out.append("- {type: coast_artillery, hex: N2828, name: Pointe du Hoc, rule: TKG L2169}")
    out.append("- {type: coast_artillery, hex: N2826, name: Maisy, rule: TKG L2171, illustrative: true}")
    out.append("locations:")
    for lid, name, labs, rule in KEY:
        where = f"hex: {labs[0]}" if len(labs) == 1 else f"hexes: [{', '.join(labs)}]"
        out.append(f"- {{id: {lid}, name: {name}, {where}, kind: key_hex, rule: '{rule}'}}")
    out.append("- {id: maisy, name: Maisy battery, hex: N2826, kind: key_hex, rule: TKG L2171, illustrative: true, note: 'The draft prints N????; hex chosen for illustration only.'}")
    out.append("- {id: utah_intended, name: Utah intended landing hexes, hexes: [N2522, N2622], kind: landing_hexes, rule: TKG L2183, illustrative: true}")
    out.append("- {id: utah_actual, name: Utah actual landing hexes, hexes: [N2422, N2522], kind: landing_hexes, rule: TKG L2183, illustrative: true}")
    for lab, name in [("W3008", "Fougeres"), ("W2830", "Mayenne"), ("N4044", "Caen"), ("N3335", "Bayeux")]:
        out.append(f"- {{id: {name.lower()}, name: {name}, hex: {lab}, kind: town, illustrative: true}}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(emit(), end="")
