"""Minos actions: value types whose canonical text form is the identity.

Every decision of the game is answered by one action; its text is `kind[:arg[:arg...]]`, e.g. `draft:red5:build`,
`main:start:expand`, `deploy:5:2`, `groups:influence,culture`. The same text can mean different things in
different decisions (`step:egypt` is a Build point in a turn, or one unit of a `ship_step` effect); the state's
current decision says which. `to_dict()` is `{"text", "kind", "args"}` (the `MinosAction` protocol message).
"""

from __future__ import annotations

import re
from typing import Any, Final

from arena.games.base import Action, ActionParseError

_ID: Final = r"[A-Za-z0-9#\-]+"
_GOOD: Final = r"(?:wood|stone|clay|wool|oil|wine)"
_TRACK: Final = r"(?:influence|population|culture)"
_ROUTE: Final = r"(?:egypt|mycenae|cyprus)"
_INST: Final = r"I{1,2}-\d\d#\d"
_N: Final = r"\d{1,2}"
_PATTERNS: Final = [
    r"pick:(?:S\d|AB\d)", rf"start:{_N}", rf"keep:{_INST}(?:,{_INST})*", rf"palace:{_INST}",
r"draft:(?:red|blue|yellow|grey)[1-6]:(?:prepare|develop|build|expand|wild)", rf"groups:(?:none|{_TRACK}(?:,{_TRACK})?)",
    r"retrieve:[rbyg]\d", r"bonus", rf"trait:{_INST}", r"main:forgo", r"main:start",
    r"main:start:(?:prepare|develop|build|expand)", r"main:finish", r"end",
    rf"extra:craft:{_GOOD}", rf"extra:fight:{_N}", rf"extra:barter:{_GOOD}",
    r"offer:[1-5]", r"deck", rf"play:{_INST}", rf"farm:{_N}:{_GOOD}", rf"city:{_N}", rf"tower:{_N}",
    rf"ship:{_ROUTE}", rf"step:{_ROUTE}", r"recruit", rf"deploy:{_N}(?::[12])?", rf"march:{_N}:{_N}(?::[12])?",
    rf"good:{_GOOD}", rf"track:{_TRACK}", r"tile:T[BR]\d", r"stop", rf"move:{_INST}", r"fight", r"decline",
]
_CANONICAL: Final = re.compile("|".join(f"(?:{p})" for p in _PATTERNS))


class MinosAction(Action):
    """One Minos decision, identified by its canonical text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"MinosAction({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MinosAction) and other.text == self.text

    def __lt__(self, other: MinosAction) -> bool:
        return self.text < other.text

    def __hash__(self) -> int:
        return hash(self.text)

    @property
    def kind(self) -> str:
        return self.text.split(":", 1)[0]

    @property
    def args(self) -> list[str]:
        return self.text.split(":")[1:]

    def to_dict(self) -> dict[str, Any]:
        parts = self.text.split(":")
        return {"text": self.text, "kind": parts[0], "args": parts[1:]}


def parse_action(text: str) -> MinosAction:
    """The action whose canonical text is `text` exactly; anything else raises ActionParseError."""
    if not isinstance(text, str) or not _CANONICAL.fullmatch(text):
        raise ActionParseError(f"not a Minos action: {text!r}")
    if text.startswith("keep:"):
        ids = text[5:].split(",")
        if ids != sorted(ids) or len(set(ids)) != len(ids):
            raise ActionParseError(f"not canonical (card ids must be sorted and distinct): {text!r}")
    if text.startswith("groups:") and "," in text:
        a, b = text[7:].split(",")
        order = ["influence", "population", "culture"]
        if order.index(a) > order.index(b):
            raise ActionParseError(f"not canonical (tracks in the order influence, population, culture): {text!r}")
    return MinosAction(text)
