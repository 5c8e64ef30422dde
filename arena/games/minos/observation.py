"""What a seat may know (rules §15.4-15.5): `observe(state, seat)`; `seat=None` is the omniscient view.

Hidden from other seats: hand contents (except cards taken from the offer, which everyone saw), the setup draw
and which of its cards were kept, uncommitted simultaneous choices. Palace cards are public, with their ids
(RULES.md E-20: the seed leaves a palace card's Royal Trait visible, and each era + trait belongs to one card). Hidden from
everyone but the omniscient view: deck and discard contents and orders, the face-down goods pile, Level II Sea
Peoples tiles still covered by a Level I tile, Rhadamanthus' deck order (only the back of its top card shows).
The keys match the `MinosObservation` protocol message field for field.
"""

from __future__ import annotations

from typing import Any, Final

from arena.games.minos import data as D
from arena.games.minos.end_of_round import palace_limit
from arena.games.minos.position import MinosPosition, Region
from arena.games.minos.scoring import ranking, solo_won


def trait_text(card: str) -> str:
    """A Royal Trait in words, e.g. `die 1/2: coins 1` or `prepare: action_bonus 1`."""
    tr = D.card_of(card)["trait"]
    trig = tr["trigger"]
    head = trig["action"] if "action" in trig else "die " + "/".join(str(v) for v in trig["die"])
    return head + ": " + ", ".join(_op_text(op) for op in tr["effect"])


def _op_text(op: dict) -> str:
    parts = [op["op"]] + [str(op[k]) for k in ("good", "track", "what", "n", "each", "max") if k in op]
    return " ".join(parts)


def _commit_pending(st: MinosPosition, s: int) -> list[str]:
    c = st.commits
    if st.phase == "keep":
        return list(c.get(str(s), [])) + ([f"palace:{c[f'{s}p']}"] if f"{s}p" in c else [])
    if st.phase in ("groups", "palace"):
        return list(c.get(str(s), []))
    return []


def _player(st: MinosPosition, s: int, viewer: int | None) -> dict[str, Any]:
    p = st.players[s]
    sees = viewer is None or viewer == s
    if sees:
        hand = sorted(p["hand"])
        unknown = []
    else:
        hand = sorted(p["known"])
        unknown = [c for c in p["hand"] if c not in p["known"]]
    # D-35 as decided in RULES.md E-20: the visible trait names the card, so the card is shown to everyone
    palace = [{"card": c, "era": D.card_of(c)["era"], "trait": trait_text(c)} for c in p["palace"]]
    committed = False
    if st.phase == "keep":
        committed = str(s) in st.commits
    elif st.phase in ("groups", "palace"):
        committed = s not in st.sim
    return {
        "seat": s, "coins": p["coins"], "weapons": p["weapons"], "vp": p["vp"], "vp_parts": dict(p["parts"]),
        "temp_goods": dict(p["temp"]), "perm_goods": dict(p["perm"]),
        "hand": hand, "hand_count": len(p["hand"]),
        "hand_unknown_i": sum(1 for c in unknown if D.card_of(c)["era"] == "I"),
        "hand_unknown_ii": sum(1 for c in unknown if D.card_of(c)["era"] == "II"),
        "play_area": list(p["play"]), "palace": palace,
        "income": p["income"], "ability": p["ability"], "ability_level": p["level"],
        "start_card": p["start_card"], "start_region": p["start_region"], "tracks": dict(p["tracks"]),
        "supply": p["supply"], "reserve": p["reserve"], "pieces_on_board": dict(p["board"]),
        "ships": dict(p["ships"]), "sea_peoples_defeated": list(p["sea"]), "trade_tiles": list(p["trade"]),
        "foundation_tiles": list(p["found"]),
        "setup_drawn": sorted(p["drawn"]) if sees else [], "setup_drawn_count": len(p["drawn"]),
        "committed": committed, "pending": _commit_pending(st, s) if sees else [],
        "palace_limit": palace_limit(st, s) if p["ability"] else 0,
        "modifiers": st.mods(s) if p["ability"] else {},
    }


def _sea(reg: Region, omni: bool) -> list[str]:
    out = []
    for i, t in enumerate(reg["sea"]):
        covered = i < len(reg["sea"]) - 1
        out.append("hidden" if covered and not omni else t)
    return out


#: The `seat` of the public (spectator's) view: no seat, and not the omniscient view either, so every seat's hidden
#: parts are left out as they are for another seat (`State.public_observation`).
PUBLIC: Final = -1


def observe(st: MinosPosition, seat: int | None) -> dict[str, Any]:
    """`seat`'s view; None: the omniscient view; `PUBLIC`: what every seat knows."""
    omni = seat is None
    obs: dict[str, Any] = {
        "seat": -1 if omni else seat,
        "players": st.n, "solo": st.solo, "round": st.round, "era": st.era, "phase": st.phase,
        "decision": st.decision(), "current_player": st.current_player(),
        "first_player": st.first, "turn_order": list(st.turn_order),
        "dice": [], "offer": list(st.offer),
        "deck_i": len(st.decks["I"]), "deck_ii": len(st.decks["II"]),
        "discard_i": len(st.discard["I"]), "discard_ii": len(st.discard["II"]),
        "goods_stacks": dict(st.stacks), "goods_pile": len(st.pile),
        "vases": [{"id": v["id"], "colour": v["colour"],
                   "slots": [{"vp": vp, "seat": who} for vp, who in v["slots"]],
                   "achieved": list(v["achieved"])} for v in st.vases],
        "bonus_action": st.bonus_action, "trade_tiles": list(st.trade_tiles),
        "regions": [{"id": r, "icons": list(D.REGIONS[r]["icons"]), "warriors": list(reg["w"]),
                     "city": reg["city"], "tower": reg["tower"], "farms": list(reg["farms"]),
                     "foundation": reg["found"], "sea": _sea(reg, omni)}
                    for r, reg in sorted(st.regions.items())],
        "player_states": [_player(st, s, seat) for s in range(st.n)],
        "available_starting_cards": list(st.avail_cards), "available_abilities": list(st.avail_abilities),
    }
    for d, (colour, value) in st.dice.items():
        row, slot = st.die_place(d)
        obs["dice"].append({"id": d, "colour": colour, "value": value, "owner": st.owner.get(d, -1),
                            "row": row, "slot": slot, "retrieved": d in st.retrieved})
    if st.turn is not None:
        tr = st.turn
        traits = list(tr["traits"])  # palace cards are public (E-20)
        obs["turn"] = {"seat": tr["seat"], "die": tr["die"], "row": tr["row"], "slot": tr["slot"],
                       "strength": tr["strength"], "bonus_pending": tr["bonus"], "traits": traits,
                       "main": tr["main"], "action": tr["action"], "points": tr["points"],
                       "pre_bonus": tr["pre"], "extras_used": list(tr["extras"])}
    if st.queue:
        t = st.queue[0]
        detail = t.get("good") or t.get("track") or t.get("colour") or t.get("route") or ""
        obs["choice"] = {"op": t["op"].lstrip("_"), "n": t.get("n", 1), "detail": str(detail),
                         "region": t.get("r", 0)}
    if st.phase == "final_combat" and st.commits:
        obs["combat_region"] = st.commits["region"]
    if st.solo:
        b = st.solo_bot()
        obs["bot"] = {
            "vp": b["vp"], "vp_parts": dict(b["parts"]), "supply": b["supply"], "pieces_left": dict(b["board"]),
            "ships": dict(b["ships"]), "face_down_cards": list(b["down"]), "face_up_cards": list(b["up"]),
            "population_space": b["pop"], "start_region": b["start_region"], "drawn_cards": list(b["drawn"]),
            "deck_size": len(b["deck"]),
            "deck_top_back": list(D.BOT_DECK[b["deck"][0]]["back"]["action_priority"]) if b["deck"] else [],
            "wild_intents": [{"die": d, "action": a} for d, a in sorted(b["intent"].items())],
            "sea_peoples_defeated": list(b["sea"]),
        }
    if omni:
        obs["hidden"] = {"deck_i": list(st.decks["I"]), "deck_ii": list(st.decks["II"]),
                         "discard_i": list(st.discard["I"]), "discard_ii": list(st.discard["II"]),
                         "goods_pile": list(st.pile),
                         "bot_deck": list(st.solo_bot()["deck"]) if st.solo else []}
    if st.phase == "over":
        obs["ranking"] = ranking(st)
        if st.solo:
            obs["solo_won"] = solo_won(st)
    return obs
