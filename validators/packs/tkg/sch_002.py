"""TKG-SCH-002."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Iterable, Iterator

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule

MONTHS = {m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                       "september", "october", "november", "december"], start=1)}
MONTHS.update({k[:3]: v for k, v in list(MONTHS.items())})
_M = r"(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
DATE_GT = re.compile(rf"(?:{_M}\s+(\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})(?:st|nd|rd|th)?\s+{_M})(?:,?\s*1944)?\s*"
                     r"\(\s*(?:GT|Game-?Turn)\s*(\d+)\s*\)", re.IGNORECASE)


def date_gt_pairs(text: str) -> Iterator[tuple[str, dt.date, int]]:
    """("July 6 (GT 30)", date, 30) for every date-with-turn in ``text``."""
    for m in DATE_GT.finditer(text):
        month = m.group(1) or m.group(4)
        day = m.group(2) or m.group(3)
        num = MONTHS.get(month.lower().rstrip("."), MONTHS.get(month.lower()[:3]))
        try:
            yield m.group(0), dt.date(1944, num, int(day)), int(m.group(5))
        except (TypeError, ValueError):
            continue


def _texts(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _texts(v, path + (i,))


class DateTurnArithmetic(Rule):
    """Every "date (GT n)" written in a scenario satisfies n = date - June 6 (GT 1 = June 7, GT 77 = Aug 22).

    Digest §8: SCH-02.

    Rule case: TKG [25.3]

    Why: The scenarios number turns as June 6 + n days ("19 June (GT 13)", "6 July (GT 30)",
    "August 22 (GT 77)"), but the draft also prints legacy numbers such as "June 7 (GT 2)"
    (L835) and "Aug 1 (GT 27)" [21.1.1]. A mismatched pair in scenario text puts an event
    or a reinforcement on the wrong day.

    Violating example:
        description: "Begins on July 6 (GT 31)."

    Correct example:
        description: "Begins on July 6 (GT 30)."

    Policy: The scenarios' numbering (epoch June 6, system param ``date_turn_epoch``) wins
    over the legacy numbering; all scenario text fields, turn notes and params are scanned.
    """

    code = "TKG-SCH-002"
    name = "date-turn-arithmetic"
    severity = Severity.ERROR
    groups = ("scenario", "schedule")
    rule_case = "TKG [25.3]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        epoch = param(ctx, "date_turn_epoch", default="1944-06-06")
        epoch = epoch if isinstance(epoch, dt.date) else dt.date.fromisoformat(str(epoch))
        data = s.model_dump(mode="json", exclude={"setup", "drop_zones", "beach_overlays", "locations"})
        for path, text in _texts(data):
            for written, date, n in date_gt_pairs(text):
                want = (date - epoch).days
                if want != n:
                    yield ctx.finding(self, f"{written!r}: {date:%d %B} is GT {want} (GT n = June 6 + n days), not GT {n}",
                                      s, *path, turns=(n,))
