"""Thebes in words: pure functions from a decision's events (and the observations around it) to sentences a
spectator reads, e.g. "travels Berlin → Warsaw (1 week), exchanges the display" or "digs in Egypt for 5 weeks:
draws 3 tokens, finds Egypt 3".

They read only what they are given: a seat's view gives them that seat's frames (`arena.replay.frames`), so a
sentence never says more than the frame it describes. The contract shared by every game's narrator (see
`arena.narration`): `describe`, `score_parts`, `chapter`, `scoring_moment`.
"""

from __future__ import annotations

from typing import Any

from arena.games import telling
from arena.games.thebes.data import DATA

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["researcher_cards"]} | {
    c["id"]: c for c in DATA["exhibition_cards"]}
KIND_NAMES = {
    "specialized_knowledge": "specialized knowledge", "general_knowledge": "general knowledge",
    "rumors": "rumors", "assistant": "assistant", "shovel": "shovel", "car": "car", "zeppelin": "zeppelin",
    "special_permission": "special permission", "congress": "congress",
}
#: the scoring parts, in the order the end screen lists them (ThebesState.score_breakdown)
PARTS = ("artifacts", "exhibitions", "congress", "majority")
PART_NAMES = {"artifacts": "artifacts", "exhibitions": "exhibitions", "congress": "congress",
              "majority": "knowledge majorities", "total": "total"}


def place(name: str) -> str:
    return name.capitalize() if name else "?"


def card_name(card_id: str) -> str:
    """A card by name: `R40 specialized knowledge Egypt +2`, `X04 exhibition (4 pts: 1 Egypt, 2 Palestine)`."""
    c = CARDS.get(card_id)
    if c is None:
        return card_id or "a card"
    if card_id.startswith("X"):
        need = ", ".join(f"{n} {place(site)}" for site, n in c["requirements"].items())
        return f"{card_id} exhibition ({c['points']} pts: {need})"
    text = f"{card_id} {KIND_NAMES.get(c['kind'], c['kind'])}"
    if c.get("site"):
        text += f" {place(c['site'])}"
    if c.get("value"):
        text += f" +{c['value']}"
    return text


def _token(token: str, site: str) -> str:
    if token.startswith("artifact"):
        return f"{place(site)} artifact worth {token[len('artifact'):]}"
    if token.startswith("specialized-"):
        return f"a specialized-knowledge token for {place(token.split('-', 1)[1])}"
    if token.startswith("general"):
        return "a general-knowledge token"
    return token


def _weeks(n: int) -> str:
    return f"{n} week{'s' if n != 1 else ''}"


def describe(actor: int, action: str | None, events: list[dict[str, Any]], names: list[str],
             before: dict[str, Any] | None = None) -> str:
    """One decision in words, without the actor's name (the caller puts it first). `action` None: hidden."""
    if action is None:
        return "makes a choice hidden from this view"
    parts: list[str] = []
    spent = [e["card"] for e in events if e.get("type") == "card_spent"]
    for e in events:
        kind = e.get("type")
        if kind == "travelled":
            how = " by zeppelin" if e.get("zeppelin") else ""
            parts.append(f"travels {place(e['from'])} → {place(e['to'])}{how} ({_weeks(e['weeks'])})")
        elif kind == "card_taken":
            parts.append(f"takes {card_name(e['card'])}")
        elif kind == "exhibition_done":
            parts.append(f"holds the exhibition {card_name(e['card'])}, {e['points']} points")
        elif kind == "display_exchanged":
            parts.append(f"exchanges the display in Warsaw ({_weeks(e['weeks'])}; discards "
                         f"{', '.join(e.get('discarded') or []) or 'nothing'})")
        elif kind == "tokens_drawn":
            found = [_token(t, e["site"]) for t in e.get("found") or []]
            text = (f"digs in {place(e['site'])} for {_dig_weeks(action)}: draws {e['drawn']} "
                    f"token{'s' if e['drawn'] != 1 else ''}")
            text += f", finds {', '.join(found)}" if found else ", only dirt"
            if e.get("dirt"):
                text += f" ({e['dirt']} dirt)"
            parts.append(text)
        elif kind == "first_dig_bonus":
            parts.append(f"gets the first-dig bonus ({_token(e['token'], e['site'])})")
        elif kind == "year_passed":
            parts.append(f"enters {e['year']} (special permissions renewed)")
        elif kind == "finished":
            parts.append("reaches 1904 and is done")
    if action == "retire" and not parts:
        parts.append("retires (no more turns)")
    if spent:
        parts.append("uses " + ", ".join(card_name(c) for c in spent))
    if not parts:
        parts.append(f"plays {action}")
    return ", ".join(parts)


def _dig_weeks(action: str) -> str:
    bits = action.split()
    try:
        return _weeks(int(bits[2]))
    except (IndexError, ValueError):
        return "some weeks"


#: what a decision changed for everyone, by event type (the display refilled, exhibitions moved, the game's end)
WORLD: dict[str, telling.Telling] = {
    "exhibition_drawn": lambda e, names: f"Exhibition {card_name(e['card'])} comes out",
    "exhibition_discarded": lambda e, names: f"Exhibition {e['card']} leaves the display unused",
    "deck_rebuilt": lambda e, names: f"The deck is rebuilt ({e['cards']} cards)",
    "game_over": lambda e, names: "Game over: every archaeologist has reached 1904; knowledge majorities are scored",
}


def world_events(events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """What the decision changed for everyone (`WORLD`)."""
    return telling.tell(events, WORLD, names)


def score_parts(observation: dict[str, Any]) -> list[dict[str, float]]:
    """Each seat's score by the game's own parts plus `total` (ThebesState.score_breakdown, in the observation)."""
    out = []
    for p in observation.get("seats") or []:
        score = p.get("score") or {}
        row = {k: float(score.get(k, 0) or 0) for k in PARTS}
        row["total"] = float(score.get("total", sum(row.values())) or 0)
        out.append(row)
    return out


def chapter(observation: dict[str, Any]) -> str:
    """The year the seat to move is in (Thebes' chapters: 1901/1902, 1903, the end)."""
    seats = observation.get("seats") or []
    cur = observation.get("current_player", -1)
    for p in seats:
        if p.get("seat") == cur:
            return str(p.get("year"))
    years = [p.get("year") for p in seats if p.get("year")]
    return str(max(years)) if years else ""


def scoring_moment(events: list[dict[str, Any]]) -> str | None:
    """A name for the decision when it is one of the game's scoring moments, else None."""
    for e in events:
        if e.get("type") == "exhibition_done":
            return f"exhibition {e['card']}"
        if e.get("type") == "game_over":
            return "final scoring"
    return None
