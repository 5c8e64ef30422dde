"""Minos in words: pure functions from a decision's events (and the observation before it) to sentences a
spectator reads, e.g. "places the yellow 5 on Build", "builds a farm in Kydonia (wood)", "plays Olive Press",
"Rhadamanthus builds a city in Phaistos (4)". Cards, vases, houses and tiles are named by their names from the
game data, never by their codes (the board's tooltips keep the codes for bot authors).

They read only what they are given: from a seat's view the frames are redacted (`State.redact_decision`), a
hidden decision arrives with `action` None and its `decision` event without the choice, so a sentence never says
more than the frame. The contract shared by every game's narrator (see `arena.narration`): `describe`,
`score_parts`, `chapter`, `scoring_moment`.
"""

from __future__ import annotations

from typing import Any

from arena.games import telling
from arena.games.minos import data as D

COLOUR = {"r": "red", "b": "blue", "y": "yellow", "g": "grey"}
#: the scoring parts, in the order the end screen lists them (MinosState's `parts`)
PARTS = ("play", "vases", "palace_moves", "farms", "regions", "final_combat", "resources", "play_area",
         "palace", "handicap")
PART_NAMES = {"play": "actions and income", "vases": "vases", "palace_moves": "hand cards to the palace",
              "farms": "farms", "regions": "regions", "final_combat": "final combat", "resources": "resources",
              "play_area": "play area", "palace": "palace cards", "handicap": "handicap"}
DECISION_NAMES = {"keep": "which cards to keep", "setup_palace": "a card for the palace",
                  "groups": "dice groups", "palace": "cards for the palace", "turn": "a Royal Trait"}


def region(rid: Any) -> str:
    try:
        r = D.REGIONS[int(rid)]
    except (KeyError, TypeError, ValueError):
        return f"region {rid}"
    return f"{r['name']} ({r['id']})"


def card(instance: str) -> str:
    """`Olive Press` for `I-01#3`; an empty id (a card hidden from this view) is `a hidden card`."""
    if not instance:
        return "a hidden card"
    try:
        return str(D.card_of(instance)["name"])
    except KeyError:
        return instance


FOUNDATIONS = {t["id"]: t for t in D.DATA["city_foundation_tiles"]}
SEA_PEOPLES = {t["id"]: t for t in D.DATA["sea_peoples_tiles"]}
TRADE_TILES = {t["id"]: t for t in D.DATA["trade_bonus_tiles"]}
_OPS = {"vp": "{n} VP", "coins": "{n} coin{s}", "weapons": "{n} weapon{s}", "recruit": "recruit {n}",
        "deploy": "deploy {n}", "march": "march {n}", "draw_card": "draw {n} card{s}",
        "temp_good": "{n} good{s} ({good})", "perm_good": "a permanent good ({good})", "track": "{track} track +{n}",
        "ability_step": "ability +{n}", "income_step": "income +{n}"}


def effect(ops: list[dict[str, Any]]) -> str:
    """A tile's effect in words from the data's ops: `2 VP, 1 coin`, `2 goods (any)`."""
    return ", ".join(_OPS.get(op["op"], op["op"]).format(n=op.get("n", 1), s="" if op.get("n", 1) == 1 else "s",
                                                        good=op.get("good", ""), track=op.get("track", ""))
                     for op in ops)


def tile(tile_id: str) -> str:
    """A foundation, Sea Peoples or trade tile by what it is: `a foundation (3 VP)`, `the Sea Peoples (level 2:
    4 weapons)`, `a trade tile (4 coins)`; an unknown id as it is."""
    if tile_id in FOUNDATIONS:
        return f"a foundation ({effect(FOUNDATIONS[tile_id]['effect'])})"
    if tile_id in SEA_PEOPLES:
        t = SEA_PEOPLES[tile_id]
        return f"the Sea Peoples (level {t['level']}: {t['weapons']} weapons)"
    if tile_id in TRADE_TILES:
        return f"a trade tile ({effect(TRADE_TILES[tile_id]['effect'])})"
    return tile_id


def die(die_id: str, before: dict[str, Any] | None) -> str:
    """`the yellow 5 die`, from a die id (`y3`, value from the observation) or a die text (`yellow5`)."""
    for colour in COLOUR.values():
        if die_id.startswith(colour) and die_id[len(colour):].isdigit():
            return f"the {colour} {die_id[len(colour):]} die"
    value = ""
    for d in (before or {}).get("dice") or []:
        if d.get("id") == die_id:
            value = f" {d.get('value')}"
    return f"the {COLOUR.get(die_id[:1], die_id[:1])}{value} die"


def _named(table: dict[str, dict], key: str) -> str:
    item = table.get(key)
    return str(item["name"]) if item and item.get("name") else key


def _action_text(action: str, decision: str, before: dict[str, Any] | None) -> str:
    kind, *args = action.split(":")
    if kind == "pick":
        what = _named(D.STARTING, args[0]) if args[0].startswith("S") else _named(D.ABILITIES, args[0])
        return f"chooses {what}"
    if kind == "start":
        return f"starts in {region(args[0])}"
    if kind == "keep":
        return "keeps " + ", ".join(card(c) for c in args[0].split(","))
    if kind == "palace":
        return f"puts {card(args[0])} into the palace"
    if kind == "draft":
        return f"places {die(args[0], before)} on {args[1].capitalize()}"
    if kind == "groups":
        return "advances " + (" and ".join(args[0].split(",")) if args[0] != "none" else "no track")
    if kind == "retrieve":
        return f"takes back {die(args[0], before)}"
    if kind == "bonus":
        return "takes the slot bonus"
    if kind == "trait":
        return f"uses the Royal Trait of {card(args[0])}"
    if kind == "main":
        if args[0] == "forgo":
            return "forgoes the main action for 2 coins"
        if args[0] == "finish":
            return "finishes the main action"
        return "starts the main action" + (f" as {args[1].capitalize()}" if len(args) > 1 else "")
    if kind == "end":
        return "ends the turn"
    if kind == "extra":
        if args[0] == "fight":
            return f"fights the Sea Peoples in {region(args[1])}"
        if args[0] == "craft":
            return f"crafts a permanent {args[1]}"
        return f"barters 3 coins for {args[1]}"
    if kind == "offer":
        return f"takes offer card {args[0]}"
    if kind == "deck":
        return "draws from the deck"
    if kind == "play":
        return f"plays {card(args[0])}"
    if kind == "farm":
        icon = args[1]
        if icon.isdigit():  # minos-1 texts named the icon by its index
            icons = D.REGIONS.get(int(args[0]), {}).get("icons") or []
            icon = icons[int(icon)] if int(icon) < len(icons) else "?"
        return f"builds a farm in {region(args[0])} on {icon}"
    if kind == "city":
        return f"builds a city in {region(args[0])}"
    if kind == "tower":
        return f"builds a tower in {region(args[0])}"
    if kind == "ship":
        return f"launches a ship to {args[0].capitalize()}"
    if kind == "step":
        return f"moves the {args[0].capitalize()} ship a step"
    if kind == "recruit":
        return "recruits a warrior"
    if kind == "deploy":
        n = args[1] if len(args) > 1 else "1"
        return f"deploys {n} warrior{'s' if n != '1' else ''} to {region(args[0])}"
    if kind == "march":
        n = args[2] if len(args) > 2 else "1"
        return f"marches {n} warrior{'s' if n != '1' else ''} {region(args[0])} → {region(args[1])}"
    if kind == "good":
        return f"takes {args[0]}" + (" (foraging)" if decision == "forage" else "")
    if kind == "track":
        return f"advances on {args[0]}"
    if kind == "tile":
        return f"takes {tile(args[0])}"
    if kind == "stop":
        return "is done" + (" with the palace" if decision == "palace" else "")
    if kind == "move":
        return f"moves {card(args[0])} into the palace"
    if kind == "fight":
        return "fights in the final combat"
    if kind == "decline":
        return "declines the final combat"
    return f"plays {action}"


def describe(actor: int, action: str | None, events: list[dict[str, Any]], names: list[str],
             before: dict[str, Any] | None = None) -> str:
    """One decision in words, without the actor's name (the caller puts it first). `action` None: hidden."""
    decision = next((e.get("decision", "") for e in events if e.get("type") == "decision"), "")
    if action is None:
        return f"chooses {DECISION_NAMES.get(decision, decision or 'something')} (hidden in this view)"
    text = _action_text(action, decision, before)
    extra = []
    for e in events:
        kind = e.get("type")
        if kind == "take_offer" and action.startswith(("offer", "deck")):
            extra.append(f"gets {card(e['card'])}")
        elif kind == "fight" and e.get("seat") == actor and not action.startswith("extra:fight"):
            extra.append(f"defeats {tile(e['tile'])} in {region(e['region'])}")
        elif kind == "fight" and e.get("seat") == actor:
            extra.append(f"defeats {tile(e['tile'])}")
        elif kind == "vase" and e.get("seat") == actor:
            extra.append(f"fills {_named(D.VASES, e['vase'])} for {e['vp']} VP")
    return ", ".join([text] + extra)


#: what happened around a decision, by event type: rounds, scorings, vases, palace moves, Rhadamanthus' moves
WORLD: dict[str, telling.Telling] = {
    "round": lambda e, names: f"Round {e['round']} begins: dice rolled",
    "scoring": lambda e, names: f"Scoring after round {e['round']}: farms and regions",
    "era": lambda e, names: f"Era {e['era']} begins",
    "vase": lambda e, names: f"{telling.seat_name(names, e['seat'])} fills {_named(D.VASES, e['vase'])}: {e['vp']} VP",
    "palace": lambda e, names: f"{telling.seat_name(names, e['seat'])} moves {card(e.get('card', ''))} into the palace",
    "setup_done": lambda e, names: "Setup is done",
    "game_over": lambda e, names: "Game over: final scoring",
    "bot_build": lambda e, names: f"Rhadamanthus builds a {e['piece']} in {region(e['region'])}",
    "bot_deploy": lambda e, names: f"Rhadamanthus deploys {e['warriors']} to {region(e['region'])}",
    "bot_fight": lambda e, names: f"Rhadamanthus defeats {tile(e['tile'])} in {region(e['region'])}",
    "bot_final_fight": lambda e, names: f"Rhadamanthus defeats {tile(e['tile'])} in {region(e['region'])}",
    "bot_ship": lambda e, names: f"Rhadamanthus moves its {e['route']} ship",
    "bot_take": lambda e, names: f"Rhadamanthus takes {card(e['card'])} face {e['face']}",
    "bot_vase": lambda e, names: f"Rhadamanthus fills {_named(D.VASES, e['vase'])}: {e['vp']} VP",
    "bot_retrieve": lambda e, names: (f"Rhadamanthus takes back {die(e['die'], None)} and acts: {e['action']} "
                                      f"{e['strength']}"),
}


def world_events(events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """What happened around the decision (`WORLD`)."""
    return telling.tell(events, WORLD, names)


OPPONENT = str(D.DATA["solo"]["bot_name"])  # Rhadamanthus


def series_names(names: list[str], observation: dict[str, Any]) -> list[str]:
    """The score rows' names: the seats, then Rhadamanthus in a solo game."""
    return list(names) + ([OPPONENT] if observation.get("bot") else [])


def opponent_names(players: int) -> list[str]:
    """The opponents the engine plays itself (`MinosGame.engine_opponents`): Rhadamanthus in the solo game."""
    return [OPPONENT] if players == 1 else []


def glossary() -> dict[str, str]:
    """Names of the ids a viewer shows: cards (`I-01` → Olive Press), vases, houses, abilities, regions, and the
    foundation, Sea Peoples and trade tiles by what they are (`F01` → foundation: 3 VP, `SP2-D` → Sea Peoples 2)."""
    out = {cid: c["name"] for cid, c in D.CARDS.items()}
    out.update({k: f"foundation: {effect(t['effect'])}" for k, t in FOUNDATIONS.items()})
    out.update({k: f"Sea Peoples {t['level']} ({t['weapons']} weapons)" for k, t in SEA_PEOPLES.items()})
    out.update({k: f"trade tile: {effect(t['effect'])}" for k, t in TRADE_TILES.items()})
    out.update({vid: v["name"] for vid, v in D.VASES.items()})
    out.update({k: v["name"] for k, v in D.STARTING.items()})
    out.update({k: v["name"] for k, v in D.ABILITIES.items()})
    out.update({f"region{r}": v["name"] for r, v in D.REGIONS.items()})
    return out


def score_parts(observation: dict[str, Any]) -> list[dict[str, float]]:
    """Each seat's VP by the game's own parts plus `total`; in a solo game Rhadamanthus is a second row."""
    out = []
    rows = [(p.get("vp", 0), p.get("vp_parts") or {}) for p in observation.get("player_states") or []]
    bot = observation.get("bot")
    if bot:
        rows.append((bot.get("vp", 0), bot.get("vp_parts") or {}))
    for vp, parts in rows:
        row = {k: float(v) for k, v in parts.items() if isinstance(v, (int, float))}
        row["total"] = float(vp or 0)
        out.append(row)
    return out


def chapter(observation: dict[str, Any]) -> str:
    """`round 2 (era I)`; setup before round 1."""
    rnd = observation.get("round") or 0
    if not rnd or observation.get("phase") in ("setup_pick", "start_region", "keep"):
        return "setup"
    return f"round {rnd} (era {observation.get('era', '?')})"


def scoring_moment(events: list[dict[str, Any]]) -> str | None:
    for e in events:
        if e.get("type") == "scoring":
            return f"scoring after round {e['round']}"
        if e.get("type") == "game_over":
            return "final scoring"
    for e in events:
        if e.get("type") in ("vase", "bot_vase"):
            return f"vase {_named(D.VASES, e['vase'])}"
    return None
