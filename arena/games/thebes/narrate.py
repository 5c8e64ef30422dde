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
from arena.games.speech import N_, _, listed, ngettext
from arena.games.thebes.data import DATA

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["researcher_cards"]} | {
    c["id"]: c for c in DATA["exhibition_cards"]}
#: the cards' kinds, the sites and the cities by the names the rule texts give them (RULES.md, "Terms"): seed 001
#: in English, 000 in Portuguese, 003 in Chinese (its traditional characters written simplified)
KIND_NAMES = {
    "specialized_knowledge": N_("specialized knowledge"), "general_knowledge": N_("general knowledge"),
    "rumors": N_("rumors"), "assistant": N_("assistant"), "shovel": N_("shovel"), "car": N_("car"),
    "zeppelin": N_("zeppelin"), "special_permission": N_("special permission"), "congress": N_("congress"),
}
PLACES = {
    "greece": N_("Greece"), "crete": N_("Crete"), "egypt": N_("Egypt"), "palestine": N_("Palestine"),
    "mesopotamia": N_("Mesopotamia"), "london": N_("London"), "paris": N_("Paris"), "berlin": N_("Berlin"),
    "vienna": N_("Vienna"), "rome": N_("Rome"), "moscow": N_("Moscow"), "warsaw": N_("Warsaw"),
}
#: the scoring parts, in the order the end screen lists them (ThebesState.score_breakdown)
PARTS = ("artifacts", "exhibitions", "congress", "majority")
PART_NAMES = {"artifacts": N_("artifacts"), "exhibitions": N_("exhibitions"), "congress": N_("congress"),
              "majority": N_("knowledge majorities"), "total": N_("total")}


def place(name: str) -> str:
    if not name:
        return "?"
    return _(PLACES[name]) if name in PLACES else name.capitalize()


def kind_name(kind: str) -> str:
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else kind


def card_name(card_id: str) -> str:
    """A card by name: `R40 specialized knowledge Egypt +2`, `X04 exhibition (4 pts: 1 Egypt, 2 Palestine)`."""
    c = CARDS.get(card_id)
    if c is None:
        return card_id or _("a card")
    if card_id.startswith("X"):
        need = listed(f"{n} {place(site)}" for site, n in c["requirements"].items())
        return _("%(card)s exhibition (%(points)s pts: %(needs)s)") % {"card": card_id, "points": c["points"],
                                                                        "needs": need}
    text = f"{card_id} {kind_name(c['kind'])}"
    if c.get("site"):
        text += f" {place(c['site'])}"
    if c.get("value"):
        text += f" +{c['value']}"
    return text


def _token(token: str, site: str) -> str:
    if token.startswith("artifact"):
        return _("%(site)s artifact worth %(value)s") % {"site": place(site), "value": token[len("artifact"):]}
    if token.startswith("specialized-"):
        return _("a specialized-knowledge token for %(site)s") % {"site": place(token.split("-", 1)[1])}
    if token.startswith("general"):
        return _("a general-knowledge token")
    return token


def _weeks(n: int) -> str:
    return ngettext("%(n)d week", "%(n)d weeks", n) % {"n": n}


def describe(actor: int, action: str | None, events: list[dict[str, Any]], names: list[str],
             before: dict[str, Any] | None = None) -> str:
    """One decision in words, without the actor's name (the caller puts it first). `action` None: hidden."""
    if action is None:
        return _("makes a choice hidden from this view")
    parts: list[str] = []
    spent = [e["card"] for e in events if e.get("type") == "card_spent"]
    for e in events:
        kind = e.get("type")
        if kind == "travelled":
            where = {"from": place(e["from"]), "to": place(e["to"]), "weeks": _weeks(e["weeks"])}
            parts.append((_("travels %(from)s → %(to)s by zeppelin (%(weeks)s)") if e.get("zeppelin")
                          else _("travels %(from)s → %(to)s (%(weeks)s)")) % where)
        elif kind == "card_taken":
            parts.append(_("takes %(card)s") % {"card": card_name(e["card"])})
        elif kind == "exhibition_done":
            parts.append(_("holds the exhibition %(card)s, %(points)s points") % {
                "card": card_name(e["card"]), "points": e["points"]})
        elif kind == "display_exchanged":
            parts.append(_("exchanges the display in Warsaw (%(weeks)s; discards %(cards)s)") % {
                "weeks": _weeks(e["weeks"]), "cards": listed(e.get("discarded") or []) or _("nothing")})
        elif kind == "tokens_drawn":
            found = [_token(t, e["site"]) for t in e.get("found") or []]
            text = ngettext("digs in %(site)s for %(weeks)s: draws %(n)d token",
                            "digs in %(site)s for %(weeks)s: draws %(n)d tokens", e["drawn"]) % {
                "site": place(e["site"]), "weeks": _dig_weeks(action), "n": e["drawn"]}
            text += (_(", finds %(found)s") % {"found": listed(found)}) if found else _(", only dirt")
            if e.get("dirt"):
                text += _(" (%(n)s dirt)") % {"n": e["dirt"]}
            parts.append(text)
        elif kind == "first_dig_bonus":
            parts.append(_("gets the first-dig bonus (%(token)s)") % {"token": _token(e["token"], e["site"])})
        elif kind == "year_passed":
            parts.append(_("enters %(year)s (special permissions renewed)") % {"year": e["year"]})
        elif kind == "finished":
            parts.append(_("reaches 1904 and is done"))
    if action == "retire" and not parts:
        parts.append(_("retires (no more turns)"))
    if spent:
        parts.append(_("uses %(cards)s") % {"cards": listed(card_name(c) for c in spent)})
    if not parts:
        parts.append(_("plays %(action)s") % {"action": action})
    return _(", ").join(parts)


def _dig_weeks(action: str) -> str:
    bits = action.split()
    try:
        return _weeks(int(bits[2]))
    except (IndexError, ValueError):
        return _("some weeks")


#: what a decision changed for everyone, by event type (the display refilled, exhibitions moved, the game's end)
WORLD: dict[str, telling.Telling] = {
    "exhibition_drawn": lambda e, names: _("Exhibition %(card)s comes out") % {"card": card_name(e["card"])},
    "exhibition_discarded": lambda e, names: _("Exhibition %(card)s leaves the display unused") % {
        "card": e["card"]},
    "deck_rebuilt": lambda e, names: _("The deck is rebuilt (%(n)s cards)") % {"n": e["cards"]},
    "game_over": lambda e, names: _("Game over: every archaeologist has reached 1904; knowledge majorities are "
                                    "scored"),
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
            return _("exhibition %(card)s") % {"card": e["card"]}
        if e.get("type") == "game_over":
            return _("final scoring")
    return None


# ----------------------------------------------------------------------------- a legal action, for a person
#: the one-use cards and travel choices an action's text names (arena.games.thebes.actions.FLAG_NAMES)
FLAG_WORDS = {"zeppelin": N_("by zeppelin"), "nocar": N_("without the car"), "rumors": N_("with the rumors card"),
              "assistant": N_("with an assistant"), "shovel": N_("with a shovel"),
              "permission": N_("with a special permission")}
GROUPS = {"take": N_("Take a researcher card"), "exhibit": N_("Hold an exhibition"),
          "exchange": N_("Exchange the display"), "dig": N_("Dig"), "retire": N_("Retire")}


def action_label(action: str, observation: dict[str, Any]) -> str:
    """A legal action in words for the person choosing it: `take R23 zeppelin` → "Take R23 specialized
    knowledge Egypt +2, by zeppelin"; the text itself for anything else."""
    kind, *rest = action.split(" ")
    flags = [w for w in rest if w in FLAG_WORDS]
    if kind in ("take", "exhibit") and rest:
        text = (_("Take %(card)s") if kind == "take" else _("Hold the exhibition %(card)s")) % {
            "card": card_name(rest[0])}
    elif kind == "exchange":
        text = _("Exchange the display in Warsaw")
    elif kind == "dig" and len(rest) >= 2 and rest[1].isdigit():
        text = _("Dig in %(site)s for %(weeks)s") % {"site": place(rest[0]), "weeks": _weeks(int(rest[1]))}
    elif kind == "retire":
        text = _("Retire (no more turns)")
    else:
        return action
    return _(", ").join([text] + [_(FLAG_WORDS[f]) for f in flags])


def action_group(action: str) -> str:
    """The heading of the action's kind in the play panel."""
    kind = action.split(" ", 1)[0]
    return _(GROUPS[kind]) if kind in GROUPS else kind


def action_target(action: str, observation: dict[str, Any]) -> dict[str, str] | None:
    """The thing on the board the action is about: a displayed card (take, exhibit), a site (dig), Warsaw
    (exchange); None for retire."""
    kind, *rest = action.split(" ")
    if kind in ("take", "exhibit") and rest:
        return {"kind": "card", "id": rest[0]}
    if kind == "dig" and rest:
        return {"kind": "place", "id": rest[0]}
    if kind == "exchange":
        return {"kind": "place", "id": "warsaw"}
    return None


def ends_turn(action: str) -> bool:
    """Every Thebes action is a whole turn (the person confirms it before it is sent)."""
    return True
