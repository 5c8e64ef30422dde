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
from arena.games.speech import N_, _, listed

COLOUR = {"r": "red", "b": "blue", "y": "yellow", "g": "grey"}
#: the game's terms as the rule text names them (seed 002, Portuguese; RULES.md "Terms" lists the English and
#: Chinese chosen where no seed speaks)
COLOUR_NAMES = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"), "grey": N_("grey")}
ACTIONS = {"prepare": N_("Prepare"), "develop": N_("Develop"), "build": N_("Build"), "expand": N_("Expand"),
           "wild": N_("Wild")}
PIECES = {"city": N_("city"), "farm": N_("farm"), "tower": N_("tower"), "ship": N_("ship")}
GOODS = {"wood": N_("wood"), "stone": N_("stone"), "clay": N_("clay"), "wool": N_("wool"), "oil": N_("olive oil"),
         "wine": N_("wine"), "any": N_("any good"), "random": N_("a random good")}
TRACKS = {"influence": N_("Influence"), "population": N_("Population"), "culture": N_("Culture")}


def term(table: dict[str, str], key: str) -> str:
    """A term of the game in the language being spoken (the key as it is when the table lacks it)."""
    return _(table[key]) if key in table else key
#: the scoring parts, in the order the end screen lists them (MinosState's `parts`)
PARTS = ("play", "vases", "palace_moves", "farms", "regions", "final_combat", "resources", "play_area",
         "palace", "handicap")
PART_NAMES = {"play": N_("actions and income"), "vases": N_("vases"), "palace_moves": N_("hand cards to the palace"),
              "farms": N_("farms"), "regions": N_("regions"), "final_combat": N_("final combat"),
              "resources": N_("resources"), "play_area": N_("play area"), "palace": N_("palace cards"),
              "handicap": N_("handicap"), "total": N_("total")}
DECISION_NAMES = {"keep": N_("which cards to keep"), "setup_palace": N_("a card for the palace"),
                  "groups": N_("dice groups"), "palace": N_("cards for the palace"), "turn": N_("a Royal Trait")}


def region(rid: Any) -> str:
    try:
        r = D.REGIONS[int(rid)]
    except (KeyError, TypeError, ValueError):
        return _("region %(id)s") % {"id": rid}
    return f"{r['name']} ({r['id']})"


def card(instance: str) -> str:
    """`Olive Press` for `I-01#3`; an empty id (a card hidden from this view) is `a hidden card`."""
    if not instance:
        return _("a hidden card")
    try:
        return str(D.card_of(instance)["name"])
    except KeyError:
        return instance


FOUNDATIONS = {t["id"]: t for t in D.DATA["city_foundation_tiles"]}
SEA_PEOPLES = {t["id"]: t for t in D.DATA["sea_peoples_tiles"]}
TRADE_TILES = {t["id"]: t for t in D.DATA["trade_bonus_tiles"]}
_OPS = {"vp": N_("{n} VP"), "coins": N_("{n} coins"), "weapons": N_("{n} weapons"), "recruit": N_("recruit {n}"),
        "deploy": N_("deploy {n}"), "march": N_("march {n}"), "draw_card": N_("draw {n} cards"),
        "temp_good": N_("{n} goods ({good})"), "perm_good": N_("a permanent good ({good})"),
        "track": N_("{track} track +{n}"), "ability_step": N_("ability +{n}"), "income_step": N_("income +{n}")}
#: the singular of the counted ops, for n = 1
_ONE = {"coins": N_("1 coin"), "weapons": N_("1 weapon"), "draw_card": N_("draw 1 card"), "temp_good": N_("1 good ({good})")}


def effect(ops: list[dict[str, Any]]) -> str:
    """A tile's effect in words from the data's ops: `2 VP, 1 coin`, `2 goods (any)`."""
    def one(op: dict[str, Any]) -> str:
        n = op.get("n", 1)
        text = _ONE.get(op["op"]) if n == 1 and op["op"] in _ONE else _OPS.get(op["op"])
        if text is None:
            return str(op["op"])
        return _(text).format(n=n, good=term(GOODS, op.get("good", "")), track=term(TRACKS, op.get("track", "")))

    return listed(one(op) for op in ops)


def tile(tile_id: str) -> str:
    """A foundation, Sea Peoples or trade tile by what it is: `a foundation (3 VP)`, `the Sea Peoples (level 2:
    4 weapons)`, `a trade tile (4 coins)`; an unknown id as it is."""
    if tile_id in FOUNDATIONS:
        return _("a foundation (%(effect)s)") % {"effect": effect(FOUNDATIONS[tile_id]["effect"])}
    if tile_id in SEA_PEOPLES:
        t = SEA_PEOPLES[tile_id]
        return _("the Sea Peoples (level %(level)s: %(weapons)s weapons)") % {"level": t["level"], "weapons": t["weapons"]}
    if tile_id in TRADE_TILES:
        return _("a trade tile (%(effect)s)") % {"effect": effect(TRADE_TILES[tile_id]["effect"])}
    return tile_id


def die(die_id: str, before: dict[str, Any] | None) -> str:
    """`the yellow 5 die`, from a die id (`y3`, value from the observation) or a die text (`yellow5`)."""
    for colour in COLOUR.values():
        if die_id.startswith(colour) and die_id[len(colour):].isdigit():
            return _("the %(colour)s %(value)s die") % {"colour": term(COLOUR_NAMES, colour), "value": die_id[len(colour):]}
    value = ""
    for d in (before or {}).get("dice") or []:
        if d.get("id") == die_id:
            value = str(d.get("value"))
    colour = term(COLOUR_NAMES, COLOUR.get(die_id[:1], die_id[:1]))
    return (_("the %(colour)s %(value)s die") % {"colour": colour, "value": value} if value
            else _("the %(colour)s die") % {"colour": colour})


def _named(table: dict[str, dict], key: str) -> str:
    item = table.get(key)
    return str(item["name"]) if item and item.get("name") else key


def _action_text(action: str, decision: str, before: dict[str, Any] | None) -> str:
    kind, *args = action.split(":")
    if kind == "pick":
        what = _named(D.STARTING, args[0]) if args[0].startswith("S") else _named(D.ABILITIES, args[0])
        return _("chooses %(what)s") % {"what": what}
    if kind == "start":
        return _("starts in %(region)s") % {"region": region(args[0])}
    if kind == "keep":
        return _("keeps %(cards)s") % {"cards": listed(card(c) for c in args[0].split(","))}
    if kind == "palace":
        return _("puts %(card)s into the palace") % {"card": card(args[0])}
    if kind == "draft":
        return _("places %(die)s on %(action)s") % {"die": die(args[0], before), "action": term(ACTIONS, args[1])}
    if kind == "groups":
        if args[0] == "none":
            return _("advances no track")
        return _("advances %(tracks)s") % {"tracks": _(" and ").join(term(TRACKS, t) for t in args[0].split(","))}
    if kind == "retrieve":
        return _("takes back %(die)s") % {"die": die(args[0], before)}
    if kind == "bonus":
        return _("takes the slot bonus")
    if kind == "trait":
        return _("uses the Royal Trait of %(card)s") % {"card": card(args[0])}
    if kind == "main":
        if args[0] == "forgo":
            return _("forgoes the main action for 2 coins")
        if args[0] == "finish":
            return _("finishes the main action")
        if len(args) > 1:
            return _("starts the main action as %(action)s") % {"action": term(ACTIONS, args[1])}
        return _("starts the main action")
    if kind == "end":
        return _("ends the turn")
    if kind == "extra":
        if args[0] == "fight":
            return _("fights the Sea Peoples in %(region)s") % {"region": region(args[1])}
        if args[0] == "craft":
            return _("crafts a permanent %(good)s") % {"good": term(GOODS, args[1])}
        return _("barters 3 coins for %(good)s") % {"good": term(GOODS, args[1])}
    if kind == "offer":
        return _("takes offer card %(n)s") % {"n": args[0]}
    if kind == "deck":
        return _("draws from the deck")
    if kind == "play":
        return _("plays %(card)s") % {"card": card(args[0])}
    if kind == "farm":
        icon = args[1]
        if icon.isdigit():  # minos-1 texts named the icon by its index
            icons = D.REGIONS.get(int(args[0]), {}).get("icons") or []
            icon = icons[int(icon)] if int(icon) < len(icons) else "?"
        return _("builds a farm in %(region)s on %(good)s") % {"region": region(args[0]), "good": term(GOODS, icon)}
    if kind == "city":
        return _("builds a city in %(region)s") % {"region": region(args[0])}
    if kind == "tower":
        return _("builds a tower in %(region)s") % {"region": region(args[0])}
    if kind == "ship":
        return _("launches a ship to %(route)s") % {"route": args[0].capitalize()}
    if kind == "step":
        return _("moves the %(route)s ship a step") % {"route": args[0].capitalize()}
    if kind == "recruit":
        return _("recruits a warrior")
    if kind == "deploy":
        n = args[1] if len(args) > 1 else "1"
        return (_("deploys 1 warrior to %(region)s") if n == "1" else _("deploys %(n)s warriors to %(region)s")) % {
            "n": n, "region": region(args[0])}
    if kind == "march":
        n = args[2] if len(args) > 2 else "1"
        return (_("marches 1 warrior %(from)s → %(to)s") if n == "1" else _("marches %(n)s warriors %(from)s → %(to)s")) % {
            "n": n, "from": region(args[0]), "to": region(args[1])}
    if kind == "good":
        return (_("takes %(good)s (foraging)") if decision == "forage" else _("takes %(good)s")) % {
            "good": term(GOODS, args[0])}
    if kind == "track":
        return _("advances on %(track)s") % {"track": term(TRACKS, args[0])}
    if kind == "tile":
        return _("takes %(tile)s") % {"tile": tile(args[0])}
    if kind == "stop":
        return _("is done with the palace") if decision == "palace" else _("is done")
    if kind == "move":
        return _("moves %(card)s into the palace") % {"card": card(args[0])}
    if kind == "fight":
        return _("fights in the final combat")
    if kind == "decline":
        return _("declines the final combat")
    return _("plays %(action)s") % {"action": action}


def describe(actor: int, action: str | None, events: list[dict[str, Any]], names: list[str],
             before: dict[str, Any] | None = None) -> str:
    """One decision in words, without the actor's name (the caller puts it first). `action` None: hidden."""
    decision = next((e.get("decision", "") for e in events if e.get("type") == "decision"), "")
    if action is None:
        what = _(DECISION_NAMES[decision]) if decision in DECISION_NAMES else (decision or _("something"))
        return _("chooses %(what)s (hidden in this view)") % {"what": what}
    text = _action_text(action, decision, before)
    extra = []
    for e in events:
        kind = e.get("type")
        if kind == "take_offer" and action.startswith(("offer", "deck")):
            extra.append(_("gets %(card)s") % {"card": card(e["card"])})
        elif kind == "fight" and e.get("seat") == actor and not action.startswith("extra:fight"):
            extra.append(_("defeats %(tile)s in %(region)s") % {"tile": tile(e["tile"]), "region": region(e["region"])})
        elif kind == "fight" and e.get("seat") == actor:
            extra.append(_("defeats %(tile)s") % {"tile": tile(e["tile"])})
        elif kind == "vase" and e.get("seat") == actor:
            extra.append(_("fills %(vase)s for %(vp)s VP") % {"vase": _named(D.VASES, e["vase"]), "vp": e["vp"]})
    return _(", ").join([text] + extra)


#: what happened around a decision, by event type: rounds, scorings, vases, palace moves, Rhadamanthus' moves
WORLD: dict[str, telling.Telling] = {
    "round": lambda e, names: _("Round %(round)s begins: dice rolled") % {"round": e["round"]},
    "scoring": lambda e, names: _("Scoring after round %(round)s: farms and regions") % {"round": e["round"]},
    "era": lambda e, names: _("Era %(era)s begins") % {"era": e["era"]},
    "vase": lambda e, names: _("%(name)s fills %(vase)s: %(vp)s VP") % {
        "name": telling.seat_name(names, e["seat"]), "vase": _named(D.VASES, e["vase"]), "vp": e["vp"]},
    "palace": lambda e, names: _("%(name)s moves %(card)s into the palace") % {
        "name": telling.seat_name(names, e["seat"]), "card": card(e.get("card", ""))},
    "setup_done": lambda e, names: _("Setup is done"),
    "game_over": lambda e, names: _("Game over: final scoring"),
    "bot_build": lambda e, names: _("Rhadamanthus builds a %(piece)s in %(region)s") % {
        "piece": term(PIECES, e["piece"]), "region": region(e["region"])},
    "bot_deploy": lambda e, names: _("Rhadamanthus deploys %(n)s to %(region)s") % {
        "n": e["warriors"], "region": region(e["region"])},
    "bot_fight": lambda e, names: _("Rhadamanthus defeats %(tile)s in %(region)s") % {
        "tile": tile(e["tile"]), "region": region(e["region"])},
    "bot_final_fight": lambda e, names: _("Rhadamanthus defeats %(tile)s in %(region)s") % {
        "tile": tile(e["tile"]), "region": region(e["region"])},
    "bot_ship": lambda e, names: _("Rhadamanthus moves its %(route)s ship") % {"route": e["route"]},
    "bot_take": lambda e, names: _("Rhadamanthus takes %(card)s face %(face)s") % {
        "card": card(e["card"]), "face": e["face"]},
    "bot_vase": lambda e, names: _("Rhadamanthus fills %(vase)s: %(vp)s VP") % {
        "vase": _named(D.VASES, e["vase"]), "vp": e["vp"]},
    "bot_retrieve": lambda e, names: _("Rhadamanthus takes back %(die)s and acts: %(action)s %(strength)s") % {
        "die": die(e["die"], None), "action": term(ACTIONS, e["action"]), "strength": e["strength"]},
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
    out.update({k: _("foundation: %(effect)s") % {"effect": effect(t["effect"])} for k, t in FOUNDATIONS.items()})
    out.update({k: _("Sea Peoples %(level)s (%(weapons)s weapons)") % {"level": t["level"], "weapons": t["weapons"]}
                for k, t in SEA_PEOPLES.items()})
    out.update({k: _("trade tile: %(effect)s") % {"effect": effect(t["effect"])} for k, t in TRADE_TILES.items()})
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
        return _("setup")
    return _("round %(round)s (era %(era)s)") % {"round": rnd, "era": observation.get("era", "?")}


def scoring_moment(events: list[dict[str, Any]]) -> str | None:
    for e in events:
        if e.get("type") == "scoring":
            return _("scoring after round %(round)s") % {"round": e["round"]}
        if e.get("type") == "game_over":
            return _("final scoring")
    for e in events:
        if e.get("type") in ("vase", "bot_vase"):
            return _("vase %(vase)s") % {"vase": _named(D.VASES, e["vase"])}
    return None


# ----------------------------------------------------------------------------- a legal action, for a person
#: the play panel's headings: the actions' kinds gathered by what they are about
GROUP_OF = {"draft": "dice", "retrieve": "dice", "bonus": "dice", "groups": "tracks", "track": "tracks",
            "good": "goods", "tile": "goods", "pick": "setup", "start": "setup", "keep": "cards",
            "palace": "cards", "trait": "cards", "offer": "cards", "deck": "cards", "play": "cards", "move": "cards",
            "farm": "building", "city": "building", "tower": "building", "ship": "ships", "step": "ships",
            "recruit": "warriors", "deploy": "warriors", "march": "warriors", "fight": "warriors",
            "decline": "warriors", "main": "turn", "end": "turn", "stop": "turn", "extra": "extra"}
GROUP_NAMES = {"dice": N_("Dice"), "tracks": N_("Tracks"), "goods": N_("Goods and tiles"), "setup": N_("Setup"),
               "cards": N_("Cards"), "building": N_("Building"), "ships": N_("Ships"), "warriors": N_("Warriors"),
               "turn": N_("Your turn"), "extra": N_("Extra actions")}
#: the actions that end the person's turn (or its main action): confirmed before they are sent
ENDS_TURN = ("end", "main:finish", "main:forgo")


def action_label(action: str, observation: dict[str, Any]) -> str:
    """A legal action in words for the person choosing it (the narration's phrase, capitalised): `draft:yellow5:
    build` → "Places the yellow 5 die on Build"."""
    text = _action_text(action, str(observation.get("decision") or ""), observation)
    return text[:1].upper() + text[1:]


def action_group(action: str) -> str:
    """The heading of the action's group in the play panel."""
    group = GROUP_OF.get(action.split(":", 1)[0])
    return _(GROUP_NAMES[group]) if group else action.split(":", 1)[0]


def action_target(action: str, observation: dict[str, Any]) -> dict[str, str] | None:
    """The thing on the board the action is about: an unplaced die of that face (`die-face`, drafting), a die
    (taking it back), a region (building, deploying, marching to, fighting there, starting), an offered card
    (its slot, 1-5); None for the rest."""
    kind, *args = action.split(":")
    if kind == "draft" and args:
        return {"kind": "die-face", "id": args[0]}
    if kind == "retrieve" and args:
        return {"kind": "die", "id": args[0]}
    if kind in ("farm", "city", "tower", "deploy", "start") and args:
        return {"kind": "region", "id": args[0]}
    if kind == "march" and len(args) >= 2:
        return {"kind": "region", "id": args[1]}
    if kind == "extra" and len(args) >= 2 and args[0] == "fight":
        return {"kind": "region", "id": args[1]}
    if kind == "offer" and args:
        return {"kind": "offer", "id": args[0]}
    return None


def ends_turn(action: str) -> bool:
    return action in ENDS_TURN
