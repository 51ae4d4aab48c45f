"""Run rules over a bundle: bundle-scope rules once, scenario-scope rules once per scenario
(every variant resolved), crash-proof, deterministic, with incremental re-validation."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

from model.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from validators.config import Config, suppressed
from validators.context import RuleContext, SharedCache
from validators.registry import Registry, default_registry
from validators.rule import Rule

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle

INTERNAL_CODE = "INTERNAL-001"
SCENARIO_CODE = "INTERNAL-002"  # a scenario could not be resolved (bad extends); loader reports it too


def run_rule(rule: type[Rule], ctx: RuleContext) -> list[Diagnostic]:
    """One rule on one context; a crash becomes an INTERNAL-001 error, never an abort.

    A rule that read data whose file could not be read (``ctx.read_lost_data()``) reports
    nothing: its findings would be about the absence (every unit "not in the counter
    manifest"), and the loader has already reported the one real problem."""
    ctx.reads.clear()
    try:
        found = list(rule().check(ctx))
        return [] if ctx.read_lost_data() else found
    except Exception as exc:  # noqa: BLE001 - a broken rule must not stop validation
        if ctx.read_lost_data():
            return []
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
        loc = Location(file=ctx.bundle.files.get(f"scenario:{ctx.scenario_id}") if ctx.scenario_id else "game.yaml",
                       scenario=ctx.scenario_id)
        if ctx.scenario is not None:
            loc = replace(ctx.bundle.locate(ctx.scenario), scenario=ctx.scenario_id)
        return [Diagnostic(INTERNAL_CODE, Severity.ERROR,
                           f"rule {rule.code} ({rule.name}) crashed: {type(exc).__name__}: {exc}{where}",
                           loc, rule_case=None)]


def _stamp(diags: Iterable[Diagnostic], sid: str | None) -> list[Diagnostic]:
    out = []
    for d in diags:
        if d.location.scenario != sid:
            d = replace(d, location=replace(d.location, scenario=sid))
        out.append(d)
    return out


@dataclass
class Validator:
    """Validates one bundle and caches results per (scenario, rule) for fast re-validation.

    After an edit call :meth:`invalidate` with the scenario ids that changed (or nothing,
    meaning "the whole bundle changed": map, counters, game file or system), then
    :meth:`run` again: only the affected scenarios and bundle-scope rules rerun.

    Rules also share look-ups through :attr:`shared` (``ctx.memo``): built once, they survive
    across scenarios and runs until ``invalidate()`` says the whole bundle changed.
    """

    bundle: "Bundle"
    config: Config = field(default_factory=Config)
    registry: Registry | None = None
    _bundle_cache: list[Diagnostic] | None = None
    _scenario_cache: dict[str, list[Diagnostic]] = field(default_factory=dict)
    # What bundle-scope rules read from scenarios (TKG-MAP-001 reads ``params``), per scenario,
    # as of the last bundle-scope run: invalidate(..., bundle=False) compares against it.
    _bundle_inputs: dict[str, str] = field(default_factory=dict)
    runs: int = 0  # rule executions so far (lets tests see what was rerun)
    shared: SharedCache = field(default_factory=SharedCache, repr=False)

    def __post_init__(self) -> None:
        self.registry = self.registry or default_registry()
        self.config = self.config.for_bundle(self.bundle)

    def active_rules(self) -> list[type[Rule]]:
        assert self.registry is not None
        return self.config.rules(self.registry.rules(), self.bundle.system.id)

    def scenario_ids(self) -> list[str]:
        ids = self.bundle.scenario_ids()
        if self.config.scenarios:
            ids = [s for s in ids if s in self.config.scenarios]
        return ids

    def invalidate(self, scenario_ids: Iterable[str] | None = None, bundle: bool = True) -> None:
        """Forget cached results: the named scenarios (plus variants that extend them), or everything.

        ``bundle=False`` (a scenario-only edit: setup, schedule, zones, overlays, locations) keeps
        the bundle-scope results unless a scenario field those rules read (``params``) changed,
        so incremental results still equal a full run."""
        if scenario_ids is None:
            self._bundle_cache = None
            self._scenario_cache.clear()
            self.shared.clear()  # map, counters, game file or system may have changed
            return
        changed = set(scenario_ids)
        # A variant sees its base's data, so an edit to a base invalidates every variant of it.
        grew = True
        while grew:
            grew = False
            for sid, scen in self.bundle.scenarios.items():
                if sid not in changed and scen.extends in changed:
                    changed.add(sid)
                    grew = True
        for sid in changed:
            self._scenario_cache.pop(sid, None)
        # Bundle-scope rules may look across scenarios, so they rerun unless the caller says
        # only scenario data changed and the scenario fields they read are unchanged.
        if bundle or self._scenario_inputs() != self._bundle_inputs:
            self._bundle_cache = None

    def _scenario_inputs(self) -> dict[str, str]:
        return {sid: repr(s.params) for sid, s in self.bundle.scenarios.items()}

    def run(self) -> list[Diagnostic]:
        rules = self.active_rules()
        if self._bundle_cache is None:
            ctx = RuleContext(self.bundle, shared=self.shared)
            ctx.track_reads()
            diags: list[Diagnostic] = []
            for rule in rules:
                if rule.scope == "bundle":
                    self.runs += 1
                    diags.extend(run_rule(rule, ctx))
            self._bundle_cache = _stamp(diags, None)
            self._bundle_inputs = self._scenario_inputs()
        out = list(self._bundle_cache)
        per_scenario: dict[str, list[Diagnostic]] = {}
        for sid in self.scenario_ids():
            if sid not in self._scenario_cache:
                self._scenario_cache[sid] = self._run_scenario(sid, rules)
            per_scenario[sid] = self._scenario_cache[sid]
        out.extend(self._merge_inherited(per_scenario))
        # Drop cache entries of scenarios that no longer exist.
        for sid in list(self._scenario_cache):
            if sid not in self.bundle.scenarios:
                del self._scenario_cache[sid]
        return sort_diagnostics(out)

    def _ancestors(self, sid: str) -> list[str]:
        """The scenarios ``sid`` extends, nearest first (a cycle ends the chain; CORE reports it)."""
        chain: list[str] = []
        cur = self.bundle.scenarios[sid].extends if sid in self.bundle.scenarios else None
        while cur is not None and cur in self.bundle.scenarios and cur not in chain and cur != sid:
            chain.append(cur)
            cur = self.bundle.scenarios[cur].extends
        return chain

    def _merge_inherited(self, per_scenario: dict[str, list[Diagnostic]]) -> list[Diagnostic]:
        """A variant's finding that its base also has (same code, message, place and case) is
        the base's: it is listed once, at the base's line, with each variant that inherits it
        as a related location (the variant's ``extends:`` line). Issue #19: each inherited
        finding used to be listed again per variant."""
        depth = {sid: len(self._ancestors(sid)) for sid in per_scenario}
        out: list[Diagnostic] = []
        owner: dict[tuple[object, ...], int] = {}  # finding key → its index in ``out``
        for sid in sorted(per_scenario, key=lambda s: (depth[s], s)):  # bases before their variants
            ancestors = set(self._ancestors(sid))
            for d in per_scenario[sid]:
                key = (d.code, d.severity, d.message, replace(d.location, scenario=None), d.rule_case, d.policy)
                i = owner.get(key)
                if i is not None and out[i].location.scenario in ancestors:
                    via = self.bundle.locate(self.bundle.scenarios[sid], "extends")
                    out[i] = replace(out[i], related=out[i].related + (replace(via, scenario=sid),))
                    continue
                owner.setdefault(key, len(out))
                out.append(d)
        return out

    def _run_scenario(self, sid: str, rules: list[type[Rule]]) -> list[Diagnostic]:
        try:
            # Rules only read the scenario: a shallow resolve shares the base's nodes (equal data,
            # no deep copy of the base for every variant).
            scen = self.bundle.resolved(sid, deep=False)
        except (ValueError, KeyError) as exc:
            from model.bundle import extends_missing_base

            if self.bundle.unreadable and extends_missing_base(self.bundle.scenarios, sid):
                return []  # its base is in a file that could not be read; the loader said so
            loc = replace(self.bundle.locate(self.bundle.scenarios.get(sid)), scenario=sid)
            return [Diagnostic(SCENARIO_CODE, Severity.ERROR, f"scenario {sid!r} cannot be resolved: {exc}", loc)]
        ctx = RuleContext(self.bundle, scen, sid, shared=self.shared)
        ctx.track_reads()
        diags: list[Diagnostic] = []
        for rule in rules:
            if rule.scope == "scenario":
                self.runs += 1
                diags.extend(run_rule(rule, ctx))
        diags = _stamp(diags, sid)
        return [d for d in diags if not suppressed(d, scen.suppress)]


def validate_bundle(bundle: "Bundle", config: Config | None = None, registry: Registry | None = None) -> list[Diagnostic]:
    """Every finding of the selected rules on ``bundle``, in deterministic order."""
    return Validator(bundle, config or Config(), registry).run()


def validate_path(path: str, config: Config | None = None, registry: Registry | None = None,
                  scenarios_seen: set[str] | None = None) -> tuple[list[Diagnostic], bool]:
    """Load and validate; returns (loader + rule diagnostics, unreadable). The bundle's
    scenario ids are added to ``scenarios_seen`` when given (so a caller can tell a
    ``--scenario`` that names nothing)."""
    from model.bundle import load_bundle

    result = load_bundle(path)
    diags = list(result.diagnostics)
    if result.bundle is None:
        return sort_diagnostics(diags), True
    if scenarios_seen is not None:
        scenarios_seen.update(result.bundle.scenarios)
    cfg = config or Config()
    if result.scenario_hint and not cfg.scenarios:
        cfg = replace(cfg, scenarios=(result.scenario_hint,))
    diags.extend(validate_bundle(result.bundle, cfg, registry))
    # Findings still come for what could be read, but the run is "unreadable input" (exit 2).
    return sort_diagnostics(diags), result.unreadable_input
