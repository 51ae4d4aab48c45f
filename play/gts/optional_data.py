"""The GTS optional rules' data: ``play/gts/optional_rules.yaml`` (key ``gts_optional``), one
block per rule, each value with its case, typed (:class:`OptionalData`). Its own module so each
optional rule's procedure reads it without importing another's.

The file ships with Hexproof (no user edits it), so it is validated once per process; a bad
value is a packaging bug (:class:`play.plugin.PluginDataError`, naming the key)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, ValidationError

from model.formats.yamlio import read_package_data
from play.gts.params import Cited, Params, cite
from play.gts.state import BarrageKind

DATA = Path(__file__).parent / "optional_rules.yaml"


class LeaderLossData(Params):
    """Airborne Leader Losses [Excl 18.7]."""

    rule: str = "Excl 18.7"
    optional_rule: str = "Excl 18.7"
    divisions: Cited[list[str]] = cite([])
    loss_above: Cited[dict[str, int]] = cite({})    # ISO date -> the roll must be greater than this
    cp_loss: Cited[int | None] = cite(None)          # read with "or 2"
    cp_min: Cited[int | None] = cite(None)           # read with "or 0"
    die: Cited[str | None] = cite(None)
    divact_chits: Cited[dict[str, str]] = cite({})
    points_policy: str = ""


class CpConversionData(Params):
    """Converting Command Points to Dispatch Points [GTS 10.0.3, 10.0.4]."""

    rule: str = "GTS 10.0.3"
    cp_per_dp: Cited[int] = cite(2)
    dp_max: Cited[int] = cite(19, "GTS 10.0.4")
    step_policy: str = ""


class ConversionLimitData(Params):
    """Command Point conversion limits [Excl 18.1]."""

    rule: str = "Excl 18.1"
    optional_rule: str = "Excl 18.1"
    max_cp_per_turn: Cited[int] = cite(4)
    per_player_policy: str = ""


class ScatterData(Params):
    """Indirect Fire Scatter [Excl 18.3]."""

    rule: str = "Excl 18.3"
    optional_rule: str = "Excl 18.3"
    lines: Cited[list[str]] = cite([])
    scatter_roll: Cited[int] = cite(9)
    marker: Cited[BarrageKind] = cite("light")
    distance: Cited[int] = cite(1)
    direction_policy: str = ""
    scope_policy: str = ""


class RoamingData(Params):
    """Roaming Units [Excl 18.6] with its errata."""

    rule: str = "Excl 18.6"
    optional_rule: str = "Excl 18.6"
    errata_rule: str | None = None                   # None: the rule itself
    range_multiple: Cited[int] = cite(2)
    destination_policy: str = ""
    activation_policy: str = ""
    closer_policy: str = ""
    tq_policy: str = ""
    check_policy: str = ""
    range_unknown_policy: str = ""


class OptionalData(Params):
    airborne_leader_losses: LeaderLossData = Field(default_factory=LeaderLossData)
    cp_conversion: CpConversionData = Field(default_factory=CpConversionData)
    conversion_limit: ConversionLimitData = Field(default_factory=ConversionLimitData)
    indirect_fire_scatter: ScatterData = Field(default_factory=ScatterData)
    roaming_units: RoamingData = Field(default_factory=RoamingData)


@lru_cache(maxsize=1)
def optional_data() -> OptionalData:
    """The GTS optional-rule data, validated."""
    from play.plugin import PluginDataError

    raw = (read_package_data(DATA) or {}).get("gts_optional") or {}
    try:
        return OptionalData.model_validate(raw)
    except ValidationError as exc:
        e = exc.errors()[0]
        raise PluginDataError(f"{DATA}: gts_optional.{'.'.join(str(p) for p in e['loc'])}: {e['msg']}") from None
