"""GTS-ART-001: Contact markers exist only for orange- or black-FR artillery."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter, param, sys_param
from validators.rule import Rule


class ContactMarkerEligible(Rule):
    """A Contact marker (``params.contact_markers``) names an artillery unit whose Fire
    Rating colour is orange or black.

    Rule case: 16.3 (artillery contact; errata SB#2: "III./Art. 177 … is an AT battery which can
    not conduct Indirect Fire")

    Why: only indirect-fire artillery makes contact; a marker for a direct-fire battery is a
    marker that "does not exist" (errata S11, S19, S32).

    Policy: a unit whose FR colour is ``unknown`` is accepted when its category is
    ``artillery`` (the counter sheets are not in the file); a non-artillery unit or a known
    colour outside the list is an error.

    Violating example: ``contact_markers: [c5-ii-919]`` (an infantry company).

    Correct example: ``contact_markers: []`` or an artillery counter with ``fr_colour: orange``.
    """

    code = "GTS-ART-001"
    name = "contact-marker-eligible"
    severity = Severity.ERROR
    groups = ("artillery", "gts")
    rule_case = "16.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        colours = set(sys_param(ctx, "contact_marker_fr_colours", ["orange", "black"]))
        for i, u in enumerate(param(ctx, "contact_markers", []) or []):
            c = counter(ctx, str(u))
            if c is None:
                continue  # GTS-UNIT-001
            colour = c.front.values.get("fr_colour")
            if c.category != "artillery":
                yield ctx.finding(self, f"Contact marker for {u}, which is not artillery ({c.category})",
                                  scen, "params", "contact_markers", i, units=(c.id,))
            elif colour not in (None, "unknown") and colour not in colours:
                yield ctx.finding(self, f"Contact marker for {u}, whose FR colour is {colour} (needs "
                                  f"{' or '.join(sorted(colours))})", scen, "params", "contact_markers", i, units=(c.id,))
