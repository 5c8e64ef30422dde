"""Thebes actions: immutable value types with one canonical text form.

Text grammar (tokens separated by one space, flags in this fixed order):
    take <card>       [zeppelin|nocar]                take a displayed researcher card, e.g. "take R23"
    exhibit <card>    [zeppelin|nocar]                carry out a displayed exhibition, e.g. "exhibit X03 zeppelin"
    exchange          [zeppelin|nocar]                exchange the 4 displayed cards at Warsaw
    dig <site> <weeks> [zeppelin] [rumors] [assistant] [shovel] [permission] [nocar]
                                                      excavate, naming the one-use cards spent
    retire                                            move straight to the end space (final year)
`zeppelin` spends a zeppelin card to make the trip free; `rumors` the site's rumors card (+2 specialized
knowledge); `assistant` / `shovel` a single assistant / shovel card (+1 knowledge / +1 token); `permission` a
special permission card (dig although the site's permit is used this year); `nocar` declines the car on a trip
of 3+ segments (seed 003: the car shortens a trip "if used"), so the trip costs its full length.

Every action that can exist is built once at import (`ALL_ACTIONS`), so parsing is a dict lookup and
`legal_actions()` only slices precomputed tuples.
"""

from __future__ import annotations

from typing import Any, Final

from arena.games.base import Action, ActionParseError
from arena.games.thebes.data import (
    CARD_IDS,
    CARD_INDEX,
    N_RESEARCHERS,
    SITE_INDEX,
    SITES,
    WEEKS_MAX,
)

TAKE: Final = 0
EXHIBIT: Final = 1
EXCHANGE: Final = 2
DIG: Final = 3
RETIRE: Final = 4
KIND_NAMES: Final = ("take", "exhibit", "exchange", "dig", "retire")
_KIND_INDEX: Final = {name: i for i, name in enumerate(KIND_NAMES)}

F_ZEPPELIN: Final = 1
F_RUMORS: Final = 2
F_ASSISTANT: Final = 4
F_SHOVEL: Final = 8
F_PERMISSION: Final = 16
F_NOCAR: Final = 32
FLAG_NAMES: Final = ("zeppelin", "rumors", "assistant", "shovel", "permission", "nocar")
#: the protocol message's field for each flag (same order as FLAG_NAMES)
FLAG_FIELDS: Final = ("zeppelin", "rumors", "assistant", "shovel", "permission", "no_car")
_FIELD_BITS: Final = {name: 1 << i for i, name in enumerate(FLAG_FIELDS)}
ALL_FLAGS: Final = 63
#: the travel flags: a trip is flown (zeppelin), driven (neither: the car applies if held) or declines the car
TRAVEL_FLAGS: Final = (0, F_NOCAR, F_ZEPPELIN)


def _name(names: tuple[str, ...], i: int) -> str:
    # out-of-range values still get a text (apply() then refuses the action by name instead of crashing)
    return names[i] if 0 <= i < len(names) else f"?{i}"


class ThebesAction(Action):
    """One Thebes decision. `card` is a card index (or -1), `site` a site index (or -1), `weeks` the dig's
    weeks (or 0), `flags` a bit set of F_* (the one-use cards spent)."""

    __slots__ = ("_key", "_text", "card", "flags", "kind", "site", "weeks")

    def __init__(self, kind: int, card: int = -1, site: int = -1, weeks: int = 0, flags: int = 0):
        self.kind = kind
        self.card = card
        self.site = site
        self.weeks = weeks
        self.flags = flags
        self._key = (kind, card, site, weeks, flags)
        parts = [_name(KIND_NAMES, kind)]
        if kind in (TAKE, EXHIBIT):
            parts.append(_name(CARD_IDS, card))
        elif kind == DIG:
            parts += [_name(SITES, site), str(weeks)]
        parts += [name for i, name in enumerate(FLAG_NAMES) if flags >> i & 1]
        self._text = " ".join(parts)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"ThebesAction({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, ThebesAction) and self._key == other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: ThebesAction) -> bool:
        return self._key < other._key

    def __reduce__(self):
        return (ThebesAction, self._key)

    @property
    def zeppelin(self) -> bool:
        return bool(self.flags & F_ZEPPELIN)

    def to_dict(self) -> dict[str, Any]:
        """Mirrors the `ThebesAction` protocol message field for field."""
        f = self.flags
        return {
            "kind": _name(KIND_NAMES, self.kind),
            "card": _name(CARD_IDS, self.card) if self.card >= 0 else "",
            "site": _name(SITES, self.site) if self.site >= 0 else "",
            "weeks": self.weeks,
            "zeppelin": bool(f & F_ZEPPELIN),
            "rumors": bool(f & F_RUMORS),
            "assistant": bool(f & F_ASSISTANT),
            "shovel": bool(f & F_SHOVEL),
            "permission": bool(f & F_PERMISSION),
            "no_car": bool(f & F_NOCAR),
            "text": self._text,
        }


def _build() -> tuple[dict[str, ThebesAction], dict[tuple[int, int], ThebesAction],
                      dict[tuple[int, int], ThebesAction], dict[int, ThebesAction],
                      tuple[tuple[tuple[ThebesAction, ...], ...], ...], ThebesAction]:
    by_text: dict[str, ThebesAction] = {}

    def add(action: ThebesAction) -> ThebesAction:
        by_text[str(action)] = action
        return action

    def add_dig(action: ThebesAction) -> ThebesAction:
        # a flown trip cannot also decline the car: that combination is no action (the table keeps a
        # placeholder so that DIG_ACTIONS stays indexable by flags)
        return action if action.flags & F_ZEPPELIN and action.flags & F_NOCAR else add(action)

    take = {(c, z): add(ThebesAction(TAKE, card=c, flags=z)) for c in range(N_RESEARCHERS) for z in TRAVEL_FLAGS}
    exhibit = {(c, z): add(ThebesAction(EXHIBIT, card=c, flags=z))
               for c in range(N_RESEARCHERS, len(CARD_IDS)) for z in TRAVEL_FLAGS}
    exchange = {z: add(ThebesAction(EXCHANGE, flags=z)) for z in TRAVEL_FLAGS}
    # DIG_ACTIONS[site][flags][weeks - 1]
    dig = tuple(tuple(tuple(add_dig(ThebesAction(DIG, site=s, weeks=w, flags=f)) for w in range(1, WEEKS_MAX + 1))
                      for f in range(ALL_FLAGS + 1)) for s in range(len(SITES)))
    retire = add(ThebesAction(RETIRE))
    return by_text, take, exhibit, exchange, dig, retire


_BUILT = _build()
# Final: the compiled engine reads them as C statics, not through a dictionary of module globals
ALL_ACTIONS: Final = _BUILT[0]
TAKE_ACTIONS: Final = _BUILT[1]
EXHIBIT_ACTIONS: Final = _BUILT[2]
EXCHANGE_ACTIONS: Final = _BUILT[3]
DIG_ACTIONS: Final = _BUILT[4]
RETIRE_ACTION: Final = _BUILT[5]
#: the (kind, card, site, weeks, flags) keys of every action that exists
VALID_KEYS: Final = frozenset(action._key for action in ALL_ACTIONS.values())


def parse_action(text: str) -> ThebesAction:
    """The action whose canonical text is `text` (exact: one space between tokens, flags in canonical order)."""
    try:
        return ALL_ACTIONS[text]
    except (KeyError, TypeError):
        pass
    raise ActionParseError(f"not a Thebes action: {text!r} (forms: 'take R23', 'exhibit X03', 'exchange', "
                           f"'dig egypt 5 [zeppelin] [rumors] [assistant] [shovel] [permission] [nocar]', "
                           f"'retire', with 'zeppelin' or 'nocar' after take/exhibit/exchange)")


def action_from_dict(d: dict[str, Any]) -> ThebesAction:
    """The action a `ThebesAction` message (as a dict, e.g. from `to_dict()`) describes; raises
    ActionParseError if it describes none. The optional "text" key is ignored: the fields are authoritative."""
    try:
        kind = _KIND_INDEX[d.get("kind", "")]
        flags = sum(bit for name, bit in _FIELD_BITS.items() if d.get(name))
        card = CARD_INDEX[d["card"]] if d.get("card") else -1
        site = SITE_INDEX[d["site"]] if d.get("site") else -1
        weeks = int(d.get("weeks") or 0)
    except (KeyError, TypeError, ValueError) as exc:
        raise ActionParseError(f"not a Thebes action: {d!r} ({exc})") from None
    candidate = ThebesAction(kind, card, site, weeks, flags)
    action = ALL_ACTIONS.get(str(candidate))
    if action is None or action != candidate:
        raise ActionParseError(f"not a Thebes action: {d!r}")
    return action
