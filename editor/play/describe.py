"""Plain-text lines for game log events (Qt-free formatting used by the Play docks).

Every event type the engine emits (``game.emit(...)`` under play/) has a one-line template in
:data:`TEMPLATES`; a line reads ``T2 Reinforcement allied · barrage: light Barrage marker in
23.024 (fire of dd-uts-1, FR 5) [GTS 16.6.2.1] (policy barrage-size-from-printed-fr)`` — the
event type first (the key scripts and ``log_contains`` use), then the sentence, the event's rule
case and the names of the policies it applied. An event type without a template falls back to
``type key=value …`` (:func:`generic`), so nothing is ever hidden; a test runs every scripted
playtest and fails on any event type that only gets the fallback.

Template syntax: ``{field}`` is the event's field (lists joined with ", "), ``{field?yes|no}``
picks a word by the field's truth, and ``<…>`` is an optional part, dropped when a field in it
is missing or empty.
"""

from __future__ import annotations

import re
from typing import Any

# Events that carry a die roll or a random draw: shown in the dice log.
DICE_EVENTS = ("roll", "attack", "drop_roll", "drift", "chit", "supply_roll", "landing_roll",
               # SFN optional rules (play/sfn/optional): storms 15.2, LGAS 15.3, SAF 15.4, Blue Point 15.7
               "storm_approach_check", "storm_arrival_check", "storm_departure_check", "lgas_check", "saf_strike",
               "blue_point",
               # GTS Random Events table [Excl 6.0], ship spotting [Excl 4.4.4]
               "random_event", "ship_contact")
# Fields that hold a roll: an event with one of them is a dice event whatever its type.
DICE_FIELDS = ("dice", "die", "d6", "d10", "roll")
_SKIP = ("seq", "turn", "phase", "side", "type")

# One readable line per engine event type [the rule case is appended from the event's ``rule``].
TEMPLATES: dict[str, str] = {
    # --- the generic game (play/game.py, play/procedures.py, play/combat.py) ---
    "start": "scenario {scenario}, seed {seed}, turns {first_turn}–{last_turn}",
    "optional_rules_not_applied": "selected optional rules NOT played by the engine: {message}",
    "convert_points": "{division}: {command_spent} CP converted to {dispatch_bought} DP ({command} CP, {dispatch} DP left)",
    "scatter": "indirect fire on {target} scatters (d6 {d6})<: {marker} Barrage marker in {hex}>{off_map?: off the map, nothing placed|}",
    # GTS Leaders and Command [21.0] (play/gts/command.py), Rally [20.0] (play/gts/rally.py), Excl 18.6
    "command_check": "{unit}: command {command} — {reason}",
    "leader_transfer": "Leader {leader} transfers from {frm} to {to}< (with {with_units})>",
    "leader_relocated": "Leader {leader} is alone: moves from {frm} to {to}, the nearest Unit of his Formation ({distance} hexes)",
    "leader_removed": "Leader {leader} leaves play: no Unit of {formation} is left (from {frm})",
    "leader_returns": "Leader {leader} returns with his Formation {formation} in {to}",
    "rally": "{unit} {passed?rallies|fails to rally}< (d10 {die}, needs {need})>< (declared {declared})>< — {removed} removed>< — Men Rallying {men_rallying}>",
    "men_rallying_cleared": "{unit} acts: {removed} Men Rallying marker(s) removed",
    "roaming_check": "{unit} roams to {to} ({distance} hexes from {leader}, limit {limit}): {passed?passes|fails} its Troop Quality Check< (d10 {die}, needs {need})>< (declared {declared})>",
    "leader_losses": "{division}: airborne leader-loss roll {die} (a loss above {loss_above}): {lost} CP lost, {command} CP left",
    "setup": "{unit} set up<  in {hex}><  in box {box}>",
    "turn_start": "turn {turn} begins<: {label}>",
    "turn_end": "turn {turn} ends",
    "phase_start": "{name} phase begins",
    "arrive": "{unit} arrives<  at {hex}><  in box {box}>< (scheduled for {scheduled_box})>",
    "arrival_refused": "{unit} cannot arrive<: {problem}><: {message}><  at {hex}><  in box {box}>",
    "release": "{unit} is released (schedule entry {index})",
    "withdraw": "{unit} is withdrawn (schedule entry {index})",
    "withdraw_refused": "{unit} cannot be withdrawn<: {problem}><: {message}>",
    "schedule_event": "scheduled event: {text}",
    "overstack": "{unit} overstacks {hex}",
    "place": "{unit} placed<  in {hex}><  in box {box}>",
    "flip": "{unit} flipped to its {reduced?reduced|full-strength} side",
    "step_loss": "{unit} loses {steps} step(s){reduced? (now reduced)|}",
    "eliminated": "{unit} eliminated<  by {cause}><: {reason}><  (to {box})>",
    "marker": "{unit}<: {add} marker added><: {remove} marker removed>< — markers now {markers}>",
    "vp": "{vp_side} VP {delta:+} → {total}<  ({reason})><  for {unit}>",
    "game_over": "game over<: VP {vp}>",
    "roll": "{dice}< for {reason}>: {result} = {total}",
    "attack": "attack on {target} at {column}: rolled {dice} → {result}",
    "command_points": "{cp_side} Command Points: {points}<  ({delta:+})><  — {reason}><  from HQs {hqs}>",
    "cp_bonus": "{cp_side} gets a bonus of {bonus} CP (allowance {allowance})",
    "cp_spent": "{cp_side} spends {cost} CP on {units}<  ({command})>, {left} left",
    "chit": "chit drawn: {chit}< ({left} left in the mug)>{first? — first play|}{carried? (carried over)|}",
    "chit_carried": "{chit} is carried over to the next turn",
    "mug": "the mug holds {chits}",
    "drop_roll": "drop roll for {units} in {hex}: d10 {die}<, modifiers {modifiers}> = {total} → {result}",
    "drift": "{unit} drifts<  d6 {d6}><, distance {distance}><  to {to}><  into {hex}><  back to {back_to}>"
             "<  — eliminated ({eliminated})>",
    "straggler": "{unit} becomes a straggler (box {box})",
    "supply": "{supply_side} supply: supplied {supplied}<; out of supply {unsupplied}><  ({sources} sources)>"
              "<  — {reason}>",
    # --- GTS fire, LOS, columns, activation (play/gts) ---
    "fire": "{unit} fires at {target}<  in {hex}>: d10 {die} vs FR {fr} on the {line} line → "
            "{hit?hit|miss}< {result}>{illustrative? (illustrative CRT)|}<  (CRT of {crt_rule})>",
    "fire_zone": "Fire Zone of {unit} in {hex}: range {range}, {hexes} hexes{night? (night)|}{storm? (storm)|}",
    "los": "LOS {source} → {target}: {visible?clear|blocked}",
    # GTS Opportunity Fire [17.0–17.8, Excl 4.2.3(b)] (play/gts/opportunity.py)
    "opportunity": "Opportunity Fire possible ({trigger}) at {targets}: {count} from {firers} in {hexes}",
    "opportunity_expired": "{count} pending Opportunity Fire lapsed<  ({reason})>",
    "opportunity_tq": "{unit} Opportunity Fire TQ check in {hex}: d10 {die} vs TQ {tq} → {passed?passed|failed}"
                      "<  ({passed_by} earlier hexes passed)>",
    "opportunity_fire": "{unit} Opportunity Fires at {target} in {hex} (modifier {modifier})<: {result}>"
                        "<; stopped in {stopped}>",
    "result": "{unit} takes result {result}<  from {cause}><  — markers {markers}><: {message}>",
    "column": "{units} {enter?enter|leave} Column<  for {cost} MP><  (cohesion hit: {cohesion_hit})>",
    "direct_command": "Direct Command: {units} activated, {spent} CP spent",
    "points": "{division}: {command} Command and {dispatch} Dispatch Points",
    "buy_chit": "{division} buys {chit} for {cost} Dispatch Point(s) ({when} turn), {dispatch_left} left",
    "mug_add": "into the mug: {chits}<  — {message}>",
    "mug_remove": "out of the mug: {chits}<  — {message}>",
    # --- GTS Utah stragglers [Excl 3.3, 3.4] ---
    "straggler_box": "{unit} goes to {box} (drop result {result})",
    "straggler_points": "{battalion}: {added} Straggler Point(s) added (track {track}, drop result {result})",
    "straggler_points_unassigned": "{unit}: {points} Straggler Point(s) unassigned<: {message}>",
    "straggler_cap": "{battalion}: Straggler Points capped at {cap}",
    "straggler_roll": "straggler recovery for {battalion}: d10 {die}, modifier {modifier} → {roll}, row {row} → "
                      "{srp} SRP (track {track})",
    "straggler_recovery_over": "{battalion}: straggler recovery is over<: {message}>",
    "spend_srp": "{unit} ({battalion}) spends {cost} SRP to recover {steps} step(s)<  in {hex}>, {left} left",
    "rally_point_lost": "{battalion} loses its Rally Point to {by}: {stragglers_lost} stragglers and "
                        "{srp_lost} SRP lost",
    # --- GTS Utah beach and landing [Excl 4.2, 4.5] ---
    "beach_defence": "beach defences ({track}) fire at {target}: d10 {die} vs FR {fr} → {hit?hit|miss}< {result}>"
                     "{illustrative? (illustrative CRT)|}",
    "beach_track": "{overlay} {track} track {old} → {new}<  (fire of {unit})>",
    "beach_cleared": "{overlay}: every beach defence track is cleared",
    "gap_due": "{overlay}: a gap is due at level {level} ({chooser} chooses)",
    "gap_open": "{overlay}: gap opened at {hexside} ({chooser} chose)",
    "all_gaps_open": "{overlay}: every gap is open",
    "landing": "{unit} lands at {hex}<  on {sub_beach}>< with {passengers}>"
               "{illustrative_tracks? (illustrative tracks)|}",
    "landing_blocked": "landing from {box} blocked for {units}<: {message}>",
    "mandatory_landing": "mandatory landing of {unit}: {ok?done|not possible}<  — {message}>",
    "lc_removed": "Landing Craft {unit} leaves the map<: {message}>",
    # --- GTS Utah naval forces and the NSoP [Excl 4.4, 4.6, 4.7; GTS 16.6.2] ---
    "nsop_start": "Naval Sequence of Play begins{first_play? (first play)|}",
    "nsop_step": "NSoP step {step}: {name}{skipped? (skipped)|}",
    "nsop_closed": "NSoP step {step} is closed",
    "nsop_end": "Naval Sequence of Play ends",
    "chit_returned": "{chit} goes back in the mug<: {message}>",
    "chit_set_aside": "{chit} is set aside",
    "ship_contact": "{ship} spotting by {spotter}: d10 {die} (needs {need}) → {contact?contact|no contact}",
    "ship_fire": "ship fire: {ship}< ({kind}, {force})>< at {target}>< in {hex}>< at the {track} track>"
                 "<  at range {range}>< (spotted: {spotted})><; d10 {die} vs FR {fr}>< on the {line} line>"
                 "< → {result}>< — {message}>{illustrative? (illustrative CRT)|}",
    "battery_fire": "Coastal Battery {unit} fires at {target}<  at range {range}>< (DRM {defensive_modifier})>"
                    ": d10 {die} vs FR {fr} → {hit?hit|miss}< {result}>{effective? (effective)|}"
                    "{illustrative? (illustrative CRT)|}",
    "barrage": "{marker} Barrage marker in {hex}<  (was {was})><  — fire of {unit}><, FR {fr}>",
    "barrages_removed": "Cleanup: Barrage markers removed from {hexes}",
    # --- GTS land Indirect Fire, Artillery Parks, contact [GTS 16.0-16.7] ---
    "indirect_fire": "{unit} ({weapons_class}) Indirect Fire< at {target}> in {hex}"
                     "<  spotted by {spotter}>{self_spotted? (self-spotted)|}{counter_battery? (counter-battery)|}"
                     ": d10 {die} vs FR {fr} on the {line} line → {hit?hit|miss}< {result}>"
                     "{illustrative? (illustrative CRT)|}",
    "stack_effect": "{target}'s hex: {units} take {result}",
    "park_created": "Artillery Park {park} in {hex} ({division}): {units}, {dp} DP",
    "park_joined": "{units} join Artillery Park {park} in {hex}",
    "park_disbanded": "Artillery Park {park} in {hex} disbanded ({why}): {units} back in the hex",
    "park_fired": "Artillery Park {park} flips to its Fired side",
    "parks_unfired": "Cleanup: Artillery Parks {parks} flip to Non-Fired",
    "contact": "{unit} tries contact with {leader}: d10 {die} vs {need} → {success?In Contact|failed}",
    "contact_lost": "{unit} loses contact with {leader}: {why}",
    "barrage_exit_check": "leaving the Heavy Barrage in {hex}: {units} take a Cohesion Hit; TQ Check needs {need}"
                          "<  (rolls {rolls})>< — {stay} stay>",
    "barrage_exit": "{units} leave the {marker} Barrage in {hex} for +{mp} MP",
    "lcr_removed": "LCR {ship} leaves the Naval Display after firing",
    "modifiers_dropped": "{ship}: modifiers dropped ({dropped})",
    "af_marker": "Assault Force {force} marker moves to {hex}<  (from {was})>",
    "ship_moved": "{ship} ({force}) moves from {box} to {to}",
    "lc_loaded": "Landing Craft {craft} loads {units} in {box}<  (load {load})>",
    "lc_short": "{box}: not enough Landing Craft for {units}<  (load {load})>",
    "naval_transfer": "{units} transfer from {box} to {to}",
    # --- GTS Utah Random Events [Excl 6.0] ---
    "random_event": "Random Event: d10 {die}< / {die2}> → {result}< / {result2}>< — needs {needs}>",
    "event_resolved": "Random Event {kind} resolved<: {division} CP {was} → {command_points}>"
                      "<: {formation} leaders {leaders}>< chits {chits_removed} out until turn {blocked_until}>"
                      "<: {ships} fire at {targets}>< — refused: {refused}>< — {message}>",
    "no_event": "No Event ({chit})<: {message}>",
    "minefield": "minefield marker {marker} in {hex}",
    # --- SFN (play/sfn) ---
    "sfn_battle": "battle for {target}: {attackers} from {attack_hex} against {defenders}",
    "sfn_shot": "{step} fire: {unit} at {target} ({field} {modified}): d10 {roll} → {hit?hit|miss}< {result}>"
                "{extra_hit? (extra hit)|}",
    "sfn_battle_end": "battle for {target} ends<: eliminated {eliminated}>< — broke off {broke_off}>"
                      "<  — retreats {retreats}>< — advanced {advanced}>",
    "sfn_combat_note": "{message}",
    "sfn_break_off": "attacker breaks off<  (hit cancelled: {cancelled_hit})>",
    "sfn_retreat_declared": "defender declares a retreat<  (hit cancelled: {cancelled_hit})>",
    "sfn_retreat": "{unit} retreats to {to}",
    "sfn_advance": "{unit} advances to {to}",
    "strategic_move": "strategic move of {units}<  to {to}>< from box {from_box}>< to box {box}>"
                      "<  for {cost} of {mp} MP>",
    "replacement_points": "Replacement Points: {points}<  ({source})>",
    "replace": "{unit} rebuilt by {steps} step(s) for {cost} RP from the {pool} pool, {left} left<  at {to}>"
               "{rebuilt? (rebuilt from eliminated)|}",
    "blood_roll": "{unit} blood roll: d10 {die}<, modifiers {modifiers}> = {total}",
    "blooded": "{unit} is blooded as {blooded}<  in {hex}>: d10 {die}<, modifiers {modifiers}> = {total}",
    "oos_dead": "{unit} in {hex} dies out of supply ({reason}) → {box}",
    "transfer": "{unit} transfers from {from_box} to {box} for {cost} CP{drawn? (drawn)|}",
    "hq_to_cp": "{unit} goes to the {box} box",
    "italy_scheduled": "{unit} is scheduled for Italy on turn {for_turn}",
    "riga_odessa": "Riga/Odessa {declared?declared|not declared}<  (first draw turn {first_draw})>",
    "riga_odessa_draw": "Riga/Odessa draw: {units}, {left} left",
    "vp_start": "{vp} VP at the start ({vp_hexes} VP hexes, {points} points)",
    "vp_control": "{controller} controls {hex}: {vp_side} VP {delta:+} → {total}",
    "beachhead_control": "{controller} controls beachhead {hex}",
    "victory": "{winner} wins<: {message}>< with {vp} VP>< (needs {needed})>{sudden? (sudden death)|}",
    "airdrop": "{unit} drops on {hex}{ezoc? (in an enemy ZOC)|}< : d10 {roll}>< — {hit?hit|no hit}>",
    "plot_drop": "airdrop of {unit} plotted for {hex} on turn {turn_planned}< ({plotted} plotted)>"
                 "<  from the {source}>",
    "plot_refused": "airdrop plot refused for {unit}<  at {hex}>: {message}",
    "cancel_drop": "planned airdrop of {unit} (turn {turn_planned}) cancelled",
    # --- SFN optional rules [SFN 15] ---
    "storm_approach_check": "great storm approach check: d10 {roll} → {approaching?a storm approaches|no storm}",
    "storm_arrival_check": "great storm arrival check: d10 {roll} (needs {needed}) → "
                           "{arrives?the storm arrives|not yet}",
    "storm_arrives": "the great storm arrives",
    "storm_changes_course": "the great storm changes course",
    "storm_check_skipped": "storm check skipped: {reason}",
    "storm_departure_check": "great storm departure check, day {day}: d10 {roll} (needs {needed}) → "
                             "{departs?the storm departs|it stays}",
    "storm_departs": "the great storm departs after {days} day(s){automatic? (automatically)|}",
    "air_declaration": "air superiority: {contest?contested|not contested}<  until turn {until}>"
                       "<  (undeclared: {undeclared})>",
    "lgas_check": "LGAS on {target}: <d10 {roll} → >{lgas?LGAS applies|no LGAS}<  (skipped: {skipped})>",
    "plot_saf": "Strategic Air Force strike plotted on {hex} for turn {turn_planned} ({plotted} plotted)",
    "cancel_saf": "Strategic Air Force strike on {hex} (turn {turn_planned}) cancelled",
    "saf_strike": "Strategic Air Force strike on {hex}: d10 {roll} → {result}<  (modifier {modifier})>"
                  "<  — cancelled {cancelled}>",
    "saf_forfeit": "Strategic Air Force strike on {hex}< (turn {turn_planned})> forfeited: {reason}",
    "ntf": "Naval Task Force supports the {mode} units at {target}: modifier {modifier:+}",
    "blue_point": "Operation Blue Point {launch?launched|not launched}<: d10 {roll} → {result}>"
                  "<, chaos on turn {chaos_turn}><, Allied CP reduced on turns {cp_turns}>",
    "aerial_supply": "aerial supply for {units}",
    "aerial_supply_ends": "aerial supply ends for {units}",
    "airborne_withdraw": "{unit} withdraws from {hex} to {box}, resting until turn {rests_until}",
    "armored_79th": "79th Armoured Division {unit} supports the attack on {target}",
    # --- GTS Assault [18.7] with Excl 18.8 / 18.9 (play/gts/assault.py) ---
    "assault": "{units} assault {target} from {hex}<  (defenders {defenders})>",
    "bravery": "Bravery Check<  {unit}><  {units}>: <TQ {tq} + defense {defense} ({defender}) − {attacker_defense} = "
               "need {need}, d10 {die} → >{passed?pass|fail}<  — {message}>",
    "assault_round": "Assault round {round}: {mode}",
    "assault_fire": "{unit} assault-fires ({rating}, step {step})< at {target}>< : d10 {die} vs {fr} on the {line} "
                    "line → >{hit?hit|miss}< {result}>{illustrative? (illustrative CRT)|}<  — {message}>",
    "assault_tq": "{unit} Troop Quality Check ({why})<: TQ {tq}, d10 {die}> → {passed?pass|fail}"
                  "{command_point? (Command Point)|}",
    "assault_advance": "{units} advance into {to}<  (enemy Leaders left there: {leaders_left})>",
    "assault_run_away": "{units} run away to {to} (Suppressed)",
    "assault_surrender": "{unit} cannot run away ({why}) and surrenders",
    "assault_stopped": "Assault: {message}",
    "assault_leave_column": "{unit} leaves Column in the Assault (one Cohesion Hit)",
    "assault_end": "Assault on {target} over: {outcome}",
    "alone_and_afraid": "{unit} in {hex} is Alone and Afraid (Excl 18.9)",
    "zero_step_aside": "0-step {units} set aside for the Assault round (Excl 18.8)",
    "zero_step_survive": "0-step {units} survive with their stack (Excl 18.8)",
    # --- TKG (play/tkg) ---
    "zoc_stop": "{units} stop in {hex} ({zoc})",
    "land": "{unit} lands from {box} at {hex}",
    "omm_move": "{units} move from {source} into box {box} for {cost} MP",
    "transit_move": "transit move of {units}: {source} → {box} ({kind}, cost {cost})",
    "rail_to_transit": "{unit} moves by rail from {source} to transit box {box}",
    "box_over_capacity": "box {box} over capacity ({capacity}): {units}",
}

_FIELD = re.compile(r"\{(\w+)(?::([^}?]*))?(?:\?([^|}]*)\|([^}]*))?\}")
_OPTIONAL = re.compile(r"<([^<>]*)>")
_POLICY_NAME = re.compile(r"(?:^|;\s*)([a-z][a-z0-9]*(?:-[a-z0-9.]*[a-z0-9])+):")


class _Missing(Exception):
    """A field of an optional part is absent: the part is dropped."""


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_fmt(x)}" for k, x in v.items())
    return str(v)


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def _fill(text: str, e: dict[str, Any], strict: bool) -> str:
    def one(m: re.Match[str]) -> str:
        name, spec, yes, no = m.group(1), m.group(2), m.group(3), m.group(4)
        v = e.get(name)
        if yes is not None:  # {field?yes|no}: a word by truth; a missing flag reads as false
            return yes if v and v not in ("false", "False") else (no or "")
        if _empty(v):
            if strict:
                raise _Missing(name)
            return "?"
        if spec:
            try:
                return format(float(v), spec.replace("+", "+g") if spec == "+" else spec)
            except (TypeError, ValueError):
                return _fmt(v)
        return _fmt(v)

    return _FIELD.sub(one, text)


def render(template: str, e: dict[str, Any]) -> str:
    """Fill ``template`` from the event: optional ``<…>`` parts first, then the rest."""

    def optional(m: re.Match[str]) -> str:
        try:
            return _fill(m.group(1), e, strict=True)
        except _Missing:
            return ""

    text = _OPTIONAL.sub(optional, template)
    return re.sub(r"\s{2,}", " ", _fill(text, e, strict=False)).strip()


def policy_names(policy: Any) -> list[str]:
    """The policy names in an event's policy text ("name: why; other-name: why")."""
    if not policy:
        return []
    names = _POLICY_NAME.findall(str(policy))
    return names or [str(policy)]


def _suffix(e: dict[str, Any]) -> str:
    out = ""
    rule = e.get("rule")
    if rule:
        rule = str(rule)
        out += f" [{rule}]" if "[" not in rule else f" {rule}"
    names = policy_names(e.get("policy"))
    if names:
        out += f" (policy {', '.join(names)})"
    return out


def _head(e: dict[str, Any]) -> str:
    return f"T{e.get('turn')} {e.get('phase')}{' ' + str(e['side']) if e.get('side') else ''} · "


def has_description(event_type: str) -> bool:
    """True when the event type has its own wording (not the generic fallback)."""
    return event_type in TEMPLATES or event_type in ("refused", "move")


def generic(e: dict[str, Any]) -> str:
    """The fallback: the event type and its fields."""
    rest = " ".join(f"{k}={_fmt(v)}" for k, v in e.items() if k not in _SKIP)
    return f"{e.get('type')} {rest}".strip()


def is_dice(event: dict[str, Any]) -> bool:
    return event.get("type") in DICE_EVENTS or any(k in event for k in DICE_FIELDS)


def describe_dice(e: dict[str, Any]) -> str:
    """"T1 Movement allied · roll: 2d6 for drop table: 3, 5 = 8" — purpose and result."""
    head = _head(e)
    t = e.get("type")
    if t == "roll":
        return head + (f"{e.get('dice')} for {e.get('reason') or 'a free roll'}: {_fmt(e.get('result'))} "
                       f"= {e.get('total')}{_suffix(e)}")
    if t == "attack":
        return head + (f"attack on {e.get('target')} at {e.get('column')}: rolled {_fmt(e.get('dice'))} "
                       f"→ {e.get('result')}{' (illustrative CRT)' if e.get('illustrative') else ''}{_suffix(e)}")
    # Every other dice event reads as in the full log (its template, rule case and policies).
    return head + describe(e, with_head=False)


def describe(e: dict[str, Any], with_head: bool = True) -> str:
    """One log line: ``type: sentence [rule case] (policy names)``; refusals read
    ``REFUSED action: why [rule] (policy …)``."""
    head = _head(e) if with_head else ""
    t = str(e.get("type"))
    if t == "refused":
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        pol = f" (policy {e['policy']})" if e.get("policy") else ""
        return head + f"REFUSED {e.get('action')}: {e.get('message')}{rule}{pol}"
    if t == "move":
        return head + (f"move {_fmt(e.get('units'))} to {e.get('to')} for {e.get('cost'):g} MP "
                       f"via {_fmt(e.get('path'))}{_suffix(e)}")
    template = TEMPLATES.get(t)
    if template is None:
        return head + generic(e)
    return head + f"{t}: {render(template, e)}{_suffix(e)}"
