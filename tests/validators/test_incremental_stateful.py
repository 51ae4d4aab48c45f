"""After any sequence of edits, incremental re-validation equals a full run.

A hypothesis state machine edits a copy of a sample bundle the way the editor does (scenario
edits through ``model.scenario_edits``, map edits through ``model.edits``, counter, rulebook and
on-disk file edits), tells one long-lived :class:`Validator` what changed — scenario edits with
``invalidate([sid], bundle=...)``, anything else with ``invalidate()`` — and after every step
compares its result with a fresh Validator's. The long-lived Validator keeps per-scenario
results and the shared look-ups of ``ctx.memo`` (rulebook index, counter indexes, rally-point
verdicts, parsed files, turn tables) across steps, so a stale entry would show as a difference.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from conftest import REPO
from model import edits as me
from model import scenario_edits as se
from model.base import hexside_key
from model.bundle import Bundle, load_bundle
from model.diagnostics import Diagnostic
from model.scenario import ScheduleEntry, SpecialRule
from validators.config import Config
from validators.engine import Validator
from validators.registry import default_registry

SAMPLES = ("utah-beach", "second-front-now", "killing-ground")
REGISTRY = default_registry()
CONFIG = Config(preview=True)  # every rule, preview ones too
# Rule references as scenarios write them: real cases, a wrong title, an unknown case, free text.
REFS = ("3.2", "Excl 3.2", "3.4: German Set Up", "9.9", "[7.5]", "TKG [7.5]", "1.1: Wrong Title", "scenario rule")
LABEL = re.compile(r"'(\d{2,3})\.0(\d{2})'")  # a GTS hex id in a file, e.g. '32.028'


def _rendered(diags: list[Diagnostic]) -> list[str]:
    return [f"{d.render()} @{d.location.scenario} {d.location.hexes} {d.location.units}" for d in diags]


class IncrementalEqualsFull(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp: Path | None = None
        self.bundle: Bundle | None = None
        self.v: Validator | None = None

    @initialize(sample=st.sampled_from(SAMPLES))
    def load(self, sample: str) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="hexproof-incr-"))
        shutil.copytree(REPO / "scenarios" / sample, self.tmp / sample)
        bundle = load_bundle(self.tmp / sample).bundle
        assert bundle is not None
        self.bundle = bundle
        self.v = Validator(bundle, CONFIG, REGISTRY)
        self.v.run()

    def teardown(self) -> None:
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # --- helpers -----------------------------------------------------------------------------

    def _sid(self, data: st.DataObject) -> str:
        assert self.bundle is not None
        return data.draw(st.sampled_from(sorted(self.bundle.scenarios)), label="scenario")

    def _hex(self, data: st.DataObject):  # type: ignore[no-untyped-def]
        assert self.bundle is not None
        hexes = self.bundle.default_map.hexes()
        return hexes[data.draw(st.integers(0, len(hexes) - 1), label="hex index")]

    def _scenario_changed(self, sid: str, data: st.DataObject) -> None:
        assert self.v is not None
        self.v.invalidate([sid], bundle=data.draw(st.booleans(), label="bundle-scope too"))

    # --- scenario edits ------------------------------------------------------------------------

    @rule(data=st.data())
    def place_unit(self, data: st.DataObject) -> None:
        assert self.bundle is not None
        sid = self._sid(data)
        unit = data.draw(st.sampled_from([c.id for c in self.bundle.counters] + ["zz9"]), label="unit")
        kind = data.draw(st.sampled_from(["hex", "adjacent_to"]), label="kind")
        se.place_unit(self.bundle.scenarios[sid], unit, kind, self._hex(data))
        self._scenario_changed(sid, data)

    @rule(data=st.data())
    def remove_unit(self, data: st.DataObject) -> None:
        assert self.bundle is not None
        sid = self._sid(data)
        placed = sorted(se.placed_units(self.bundle.scenarios[sid]))
        if placed:
            se.remove_unit(self.bundle.scenarios[sid], data.draw(st.sampled_from(placed), label="unit"))
        self._scenario_changed(sid, data)

    @rule(data=st.data())
    def edit_zone(self, data: st.DataObject) -> None:
        assert self.bundle is not None
        sid = self._sid(data)
        scen = self.bundle.scenarios[sid]
        if scen.drop_zones:
            z = data.draw(st.sampled_from(scen.drop_zones), label="zone")
            mode = data.draw(st.sampled_from(["add", "remove", "replace"]), label="mode")
            hexes = [self._hex(data)] if mode != "remove" or not z.hexes else [data.draw(st.sampled_from(z.hexes))]
            se.set_zone_hexes(scen, z.id, hexes, mode)
        self._scenario_changed(sid, data)

    @rule(data=st.data())
    def edit_schedule_turn(self, data: st.DataObject) -> None:
        assert self.bundle is not None
        sid = self._sid(data)
        scen = self.bundle.scenarios[sid]
        turns = [t.label for t in self.bundle.system.calendar.all_turns[:6]] + [1, 2, "99", "no such turn"]
        turn = data.draw(st.sampled_from(turns), label="turn")
        if scen.schedule:
            i = data.draw(st.integers(0, len(scen.schedule) - 1), label="entry")
            se.change_schedule_entry(scen, i, turn=turn)
        else:
            units = [c.id for c in self.bundle.counters[:1]]
            se.add_schedule_entry(scen, ScheduleEntry(turn=turn, units=units))
        self._scenario_changed(sid, data)

    @rule(data=st.data())
    def add_reference(self, data: st.DataObject) -> None:
        assert self.bundle is not None
        sid = self._sid(data)
        scen = self.bundle.scenarios[sid]
        ref = data.draw(st.sampled_from(REFS), label="ref")
        scen.special_rules = [*scen.special_rules, SpecialRule(id=f"s{len(scen.special_rules)}", text="t", refs=[ref])]
        self._scenario_changed(sid, data)

    @rule(data=st.data())
    def edit_params(self, data: st.DataObject) -> None:
        """``params`` are read by bundle-scope rules, and ``scenario_map`` by many GTS rules."""
        assert self.bundle is not None
        sid = self._sid(data)
        scen = self.bundle.scenarios[sid]
        hmap = self.bundle.default_map
        a, b = self._hex(data), self._hex(data)
        rect = {"from": hmap.label(a), "to": hmap.label(b)}
        scen.params = {**scen.params, "scenario_map": rect} if data.draw(st.booleans()) else \
            {k: v for k, v in scen.params.items() if k != "scenario_map"}
        self._scenario_changed(sid, data)

    # --- whole-bundle edits --------------------------------------------------------------------

    @rule(data=st.data())
    def paint_terrain(self, data: st.DataObject) -> None:
        assert self.bundle is not None and self.v is not None
        tid = data.draw(st.sampled_from(sorted(t.id for t in self.bundle.system.terrain)), label="terrain")
        h = self._hex(data)
        me.set_terrain(self.bundle.default_map, {n: tid for n in [h, *h.neighbors()]}, self.bundle.system)
        self.v.invalidate()

    @rule(data=st.data())
    def toggle_hexside(self, data: st.DataObject) -> None:
        assert self.bundle is not None and self.v is not None
        kinds = sorted(t.id for t in self.bundle.system.hexsides)
        if kinds:
            key = hexside_key(self._hex(data), data.draw(st.integers(0, 5), label="direction"))
            kind = data.draw(st.sampled_from(kinds), label="hexside kind")
            if kind in self.bundle.default_map.hexside_features(key):
                me.clear_hexside(self.bundle.default_map, key, kind)
            else:
                me.set_hexside(self.bundle.default_map, key, kind)
        self.v.invalidate()

    @rule(data=st.data())
    def rename_counter(self, data: st.DataObject) -> None:
        assert self.bundle is not None and self.v is not None
        c = data.draw(st.sampled_from(self.bundle.counters), label="counter")
        other = data.draw(st.sampled_from(self.bundle.counters), label="name of")
        if data.draw(st.booleans(), label="id or name"):
            c.id = f"{c.id}-x"
        else:
            c.name = other.name  # may make a name ambiguous
        self.v.invalidate()

    @rule(data=st.data())
    def edit_rulebook(self, data: st.DataObject) -> None:
        assert self.bundle is not None and self.v is not None
        rb = self.bundle.game.rulebook
        if rb is not None and rb.cases:
            key = data.draw(st.sampled_from(sorted(rb.cases)), label="case")
            if data.draw(st.booleans(), label="delete or retitle"):
                rb.cases = {k: t for k, t in rb.cases.items() if k != key}
            else:
                rb.cases = {**rb.cases, key: "Something Else"}
        self.v.invalidate()

    @rule(data=st.data())
    def rewrite_file_on_disk(self, data: st.DataObject) -> None:
        """GTS-HEX-001 reads the files: write a hex id the short way (``32.28``)."""
        assert self.bundle is not None and self.v is not None
        sid = self._sid(data)
        path = self.bundle.root / self.bundle.files[f"scenario:{sid}"]
        text = path.read_text(encoding="utf-8")
        path.write_text(LABEL.sub(r"'\1.\2'", text, count=1), encoding="utf-8")
        self.v.invalidate([sid])

    # --- the property ----------------------------------------------------------------------

    @invariant()
    def incremental_equals_full(self) -> None:
        if self.bundle is None or self.v is None:
            return
        incremental = self.v.run()
        full = Validator(self.bundle, CONFIG, REGISTRY).run()
        assert _rendered(incremental) == _rendered(full)
        assert incremental == full


TestIncrementalEqualsFull = IncrementalEqualsFull.TestCase
TestIncrementalEqualsFull.settings = settings(
    max_examples=10, stateful_step_count=6, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
