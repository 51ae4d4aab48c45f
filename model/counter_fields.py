"""What each counter column may hold: one typed check shared by the spreadsheet importers
(model/formats/counter_table.py, counter_xlsx.py), the counter edits (model/counter_edits.py)
and the validator CORE-UNIT-003, so a cell refused in one place is refused in all.

Columns are named as in the spreadsheet layout (``side``, ``steps``, ``front.tq``,
``back.attack`` …). Their kinds:

* ``whole`` — a whole number (``steps``; ``count`` and the sheet positions ``row``, ``col``,
  ``back_row``, ``back_col``, at least 1);
* ``number`` — a printed value whose system field has ``type: int``: a number, or the word
  ``unknown`` (the rules we hold do not give it);
* ``choice`` — one id of a list the system declares (``side``, ``category``,
  ``nationality``, ``movement_class``); free text when the system declares none;
* ``flag`` — ``true``/``false`` (``illustrative``; also yes/no, 1/0, empty = false);
* ``text`` — anything (names, notes, ``rating`` and ``str`` fields: a rating may be printed
  as ``*`` or ``UtS``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from model.system import UNKNOWN, GameSystem

Kind = Literal["whole", "number", "choice", "flag", "text"]

# Identity columns holding a system id, and the system list that enumerates them.
CHOICES = {"side": "sides", "category": "unit_categories", "nationality": "nationalities",
           "movement_class": "movement_classes"}
WHOLE = {"steps": 0, "count": 1, "row": 1, "col": 1, "back_row": 1, "back_col": 1}  # column → least value
TRUE_WORDS = ("true", "yes", "y", "1")
FALSE_WORDS = ("false", "no", "n", "0", "")

_WHOLE = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d+)?|\.\d+)")


@dataclass(frozen=True)
class ColumnType:
    column: str
    kind: Kind
    choices: tuple[str, ...] = ()  # for ``choice``: the system's ids (empty: free text)
    least: int = 0                 # for ``whole``

    def describe(self) -> str:
        """What the column holds, for messages and for the GUI's cell tooltips."""
        if self.kind == "whole":
            return "a whole number" + (f" of at least {self.least}" if self.least else "")
        if self.kind == "number":
            return f"a number or the word {UNKNOWN!r}"
        if self.kind == "choice" and self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind == "flag":
            return "true or false"
        return "text"


def column_type(column: str, system: GameSystem | None) -> ColumnType:
    """The type of a spreadsheet column for counters of ``system`` (None: no system known,
    so only the model's own types apply: whole numbers and flags)."""
    if column in WHOLE:
        return ColumnType(column, "whole", least=WHOLE[column])
    if column == "illustrative":
        return ColumnType(column, "flag")
    if column in CHOICES:
        ids = tuple(x.id for x in getattr(system, CHOICES[column])) if system is not None else ()
        return ColumnType(column, "choice", ids)
    side, dot, key = column.partition(".")
    if dot and side in ("front", "back") and key not in ("designation", "state") and system is not None:
        declared = next((f for f in system.counter_fields if f.id == key), None)
        if declared is not None and declared.type == "int":
            return ColumnType(column, "number")
    return ColumnType(column, "text")


def parse_cell(ctype: ColumnType, text: str, system_name: str | None = None) -> tuple[Any, str | None]:
    """(value, None) for a cell that fits its column, or (None, why not). ``text`` is the cell
    as the user wrote it (already stripped); an empty cell is ``None`` (not printed / not set)
    for every kind except ``flag`` (false)."""
    if ctype.kind == "flag":
        low = text.lower()
        if low in TRUE_WORDS:
            return True, None
        if low in FALSE_WORDS:
            return False, None
        return None, f"{ctype.column}: {text!r} is not true or false"
    if text == "":
        return None, None
    if ctype.kind == "whole":
        if not _WHOLE.fullmatch(text):
            return None, f"{ctype.column}: {text!r} is not {ctype.describe()}"
        value = int(text)
        if value < ctype.least:
            return None, f"{ctype.column}: {value} is less than {ctype.least}"
        return value, None
    if ctype.kind == "number":
        if text.lower() == UNKNOWN:
            return UNKNOWN, None
        if not _NUMBER.fullmatch(text):
            return None, f"{ctype.column}: {text!r} is not {ctype.describe()}"
        number = float(text)
        return (int(number) if number.is_integer() and "." not in text else number), None
    if ctype.kind == "choice" and ctype.choices and text not in ctype.choices:
        of = f" of {system_name}" if system_name else ""
        return None, f"{ctype.column}: {text!r} is not a {_noun(ctype.column)}{of} ({', '.join(ctype.choices)})"
    return text, None


def check_value(column: str, value: Any, system: GameSystem | None) -> str | None:
    """Why ``value`` (as held in the model) does not fit ``column``, or None when it does.
    Used where values arrive already typed (a YAML manifest, an edit)."""
    if value is None:
        return None
    ctype = column_type(column, system)
    if ctype.kind == "flag":
        return None if isinstance(value, bool) else f"{column}: {value!r} is not true or false"
    if isinstance(value, bool):
        return f"{column}: {value!r} is not {ctype.describe()}"
    if ctype.kind == "whole":
        if not isinstance(value, int):
            return f"{column}: {value!r} is not {ctype.describe()}"
        return f"{column}: {value} is less than {ctype.least}" if value < ctype.least else None
    if ctype.kind == "number":
        if isinstance(value, (int, float)) or value == UNKNOWN:
            return None
        return f"{column}: {value!r} is not {ctype.describe()}"
    if ctype.kind == "choice" and ctype.choices and value not in ctype.choices:
        name = system.name if system is not None else None
        return f"{column}: {value!r} is not a {_noun(column)}{f' of {name}' if name else ''} ({', '.join(ctype.choices)})"
    return None


def _noun(column: str) -> str:
    return {"side": "side", "category": "unit category", "nationality": "nationality",
            "movement_class": "movement class"}.get(column, column)
