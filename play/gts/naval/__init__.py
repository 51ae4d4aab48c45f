"""Utah Beach naval forces [Excl 4.4] and the Naval Sequence of Play (NSoP) [Excl 4.6, 4.7].

Data: the scenario's ``params.naval_display`` (which range boxes belong to which Assault Force,
the Landing Wave force, the En Route and Loading boxes) and ``params.af_markers`` (start hexes
of the Assault Force markers); each range box's number is the ``number`` of its game.yaml box;
ships are counters of category ``ship`` set up in those boxes (the sample's are ILLUSTRATIVE);
parameters: ``naval:`` in play/gts/params.yaml (each with its case).

The NSoP starts when the Naval chit is drawn (on the 0700 6 June turn it is always the first
chit [4.1.8]) and stops at every step that needs the Allied or German player's choice; the
playtester acts, then steps on with ``{do: naval_next}`` or ``{do: naval_step, step: N}``:

1. Gaps [4.2.4(e)]: ``beach.on_chit`` (automatic).
2. ``{do: ship_fire, ship, target, spotter?, fire_rating?, modifiers?}`` — range = hexes from the
   target to the ship's own Assault Force marker + its range box number [4.4.4(a)]; self-spot of a
   Wn/Stp in LOS of a Beach hex of an overlay in play, or of a Coastal Battery [4.4.4(b)];
   otherwise an In Command spotter (not US airborne divisional [Err 4.4.4(c)]) with LOS and a
   contact roll ≤ 6, every time [4.4.4(c)]. LCR: 0700 6 June, first Naval chit only, self-spot,
   no negative modifiers, then removed [4.4.5]; LCS: self-spot, or ``track``/``by`` at the beach
   defences as a Landing Craft [4.4.6, 4.2.6].
3. ``{do: battery_fire, unit, target, passengers?, s_check?}`` — a black-FR Coastal Battery not
   under a Barrage marker nor adjacent to an enemy fires at an in-range ship (range to its force
   marker + box) or a Landing Craft / DD tank in a Landing Wave box (range to the UtS marker)
   [4.4.7, 4.7.2]; Black line, ships Armored with only their defensive modifier; any effective
   result (failed S?, S, C, 1, E) eliminates the ship, or the craft with its passengers; no
   Barrage marker.
4. Landing: ``land_craft`` in the order the playtester likes; leaving the step lands the rest
   (mandatory [Err 4.5.1]) with ``beach.mandatory_landings``.
5. Loading box → Landing Wave box, then a Landing Craft marker on each new stack: one
   Independent unit or all units of one battalion per craft, leaders with a battalion of their
   command [4.5.4(2), 4.5.6(1)] (``load_craft``; the loads are what ``land_craft`` and
   ``battery_fire`` carry); 6. En Route box → Loading box [4.7.4] (automatic).
7. ``{do: move_assault_force, force, hex}`` [4.4.3]; 8. ``{do: move_ship, ship, box}`` [4.4.2, 4.6(8)].
9. On the first play at 0700 6 June the chit goes back in the mug, else it is set aside [4.6, 4.1.8].

Ship fire (not LCR, not LCS) is normal Indirect Fire [4.4.4]: it leaves a Barrage marker in the
target hex (play/gts/barrage.py [GTS 16.6.2.1]), removed at Cleanup; a battery in a barraged hex
does not fire in step 3 [4.4.7]. Step G of every daylight turn after 0700 6 June puts the Naval
chit in the mug (``step_g`` [4.1.8]), also after the beach is cleared (policy
``naval-chit-after-overlay``); a night turn never has it.

Once the overlay is gone (cleared) steps 1, 4, 5 and 6 are skipped [4.6]. Step numbers follow
the list in 4.6 (policy ``nsop-step-order-as-printed-in-4.6``).

The modules, named after what they hold: ``display_data`` (the Naval Display as data),
``sequence`` (the NSoP: its state, order and steps 1, 5, 6, 9), ``mug`` (the Naval chit: first
chit, Step G), ``landing_craft`` (step 5 loads), ``naval_gunfire`` (step 2), ``coastal_batteries``
(step 3), ``movement`` (steps 7 and 8); ``_common`` holds the helpers they share. No module is
named like a function it holds, so ``naval.ship_fire`` and ``naval.nsop`` stay functions. This
package re-exports the names its callers use (``from play.gts import naval``; ``naval.ship_fire(...)``).
"""

from __future__ import annotations

from play.gts.naval._common import LAST_STEP, _is_battery, _kind, _los, _step_spec
from play.gts.naval.coastal_batteries import battery_fire
from play.gts.naval.display_data import (box_number, display, force_of_box, forces, has_center_dot, landing_wave_range,
                                        marker_hex, markers, overlays_in_play, ship_range, state)
from play.gts.naval.landing_craft import battalion_groups, craft_loads, load_craft, unload
from play.gts.naval.movement import af_problem, move_assault_force, move_ship
from play.gts.naval.mug import first_chit, step_g
from play.gts.naval.naval_gunfire import SupportFire, self_spots, ship_fire
from play.gts.naval.sequence import Hooks, at_step, close, naval_next, naval_step, nsop, start

__all__ = [
    "LAST_STEP", "Hooks", "SupportFire", "af_problem", "at_step", "battalion_groups", "battery_fire", "box_number", "close",
    "craft_loads", "display", "first_chit", "force_of_box", "forces", "has_center_dot", "landing_wave_range",
    "load_craft", "marker_hex", "markers", "move_assault_force", "move_ship", "naval_next", "naval_step", "nsop",
    "overlays_in_play", "self_spots", "ship_fire", "ship_range", "start", "state", "step_g", "unload",
    # private helpers the editor and play/gts/events.py use
    "_is_battery", "_kind", "_los", "_step_spec",
]
