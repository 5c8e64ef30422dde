"""Minos setup (rules §3): the seats' starting boards, the shuffled components, the setup draft of starting
cards and abilities, start regions, and the starting hands with their keep / palace decision."""

from __future__ import annotations

import itertools
from typing import Final

from arena.games.minos import data as D
from arena.games.minos.draft import start_round
from arena.games.minos.effects import distinct_copies, draw_from_deck, take_perm_tile
from arena.games.minos.position import BOT, Bot, MinosPosition, Player

PLAYER_PARTS: Final = ["play", "vases", "palace_moves", "farms", "regions", "final_combat", "resources", "play_area",
                "palace"]

BOT_PARTS: Final = ["handicap", "vases", "track_bonus", "cities", "fights", "fallback", "farms", "regions",
             "final_combat", "face_down_cards", "face_up_cards", "ships"]


def new_player(seat: int) -> Player:
    return {
        "seat": seat, "coins": 0, "weapons": 0, "vp": 0, "parts": dict.fromkeys(PLAYER_PARTS, 0),
        "temp": dict.fromkeys(D.GOODS, 0), "perm": dict.fromkeys(D.GOODS, 0),
        "hand": [], "known": [], "play": [], "palace": [], "palace_open": [], "drawn": [],
        "income": 0, "ability": "", "level": 0, "start_card": "", "start_region": 0,
        "tracks": dict.fromkeys(D.TRACKS, 0), "supply": 6, "reserve": 3,
        "board": dict(D.PIECES_ON_BOARD), "ships": dict.fromkeys(D.ROUTES, 0),
        "sea": [], "trade": [], "found": [],
    }


def new_bot(start_vp: int) -> Bot:
    parts = dict.fromkeys(BOT_PARTS, 0)
    parts["handicap"] = start_vp
    return {"vp": start_vp, "parts": parts, "supply": 10, "board": {"city": 2, "farm": 4},
            "ships": dict.fromkeys(D.ROUTES, 1), "deck": [], "drawn": [], "down": [], "up": [], "pop": 2,
            "intent": {}, "sea": [], "start_region": 0}


def setup(st: MinosPosition) -> None:
    rng = st.rng
    n = st.n
    picker = rng.randrange(n)
    st.vases = []
    for colour in ("red", "blue", "yellow"):
        vid = rng.choice([v for v in D.VASES if D.VASES[v]["colour"] == colour])
        st.vases.append({"id": vid, "colour": colour,
                           "slots": [[vp, -1] for vp in D.VASE_SLOTS[st.board_n]], "achieved": []})
    st.bonus_action = rng.choice(sorted(D.BONUS_ACTIONS))
    st.decks = {"I": list(D.DECK_INSTANCES["I"]), "II": list(D.DECK_INSTANCES["II"])}
    rng.shuffle(st.decks["I"])
    rng.shuffle(st.decks["II"])
    st.discard = {"I": [], "II": []}
    rng.shuffle(st.pile)
    st.offer = [""] * D.C["offer_size"]
    for i in range(len(st.offer)):
        st.offer[i] = draw_from_deck(st) or ""
    st.avail_cards = sorted(D.STARTING)
    st.avail_abilities = sorted(D.ABILITIES)
    if st.solo:
        p = st.players[0]
        _take_start_card(st, p, rng.choice(st.avail_cards))
        p["ability"] = rng.choice(st.avail_abilities)
        st.avail_abilities.remove(p["ability"])
        _after_setup_draft(st)
    else:
        order = [(picker + i) % n for i in range(n)]
        st.sim = order + order[::-1]
        st.phase = "setup_pick"


def _take_start_card(st: MinosPosition, p: Player, card: str) -> None:
    p["start_card"] = card
    st.avail_cards.remove(card)


def _after_setup_draft(st: MinosPosition) -> None:
    if st.solo:
        st.first = 0
        st.turn_order = [0, BOT]
        st.sim = [0]
    else:
        first = min(range(st.n), key=lambda s: D.STARTING[st.players[s]["start_card"]]["initiative"])
        st.first = first
        st.turn_order = [(first + i) % st.n for i in range(st.n)]
        st.sim = [st.turn_order[-1]] if st.n == 2 else st.turn_order[::-1]
    st.phase = "start_region"


def _free_start_regions(st: MinosPosition) -> list[int]:
    if st.board_n == 2:
        return sorted(D.PARTNER)
    taken = {p["start_region"] for p in st.players}
    return [r for r in D.START_REGIONS[st.n] if r not in taken]


def _after_start_regions(st: MinosPosition) -> None:
    rng = st.rng
    starts = {p["start_region"] for p in st.players}
    if st.solo:
        starts.add(st.solo_bot()["start_region"])
    non_start = [r for r in st.in_play if r not in starts]
    found = list(D.FOUNDATION_INSTANCES)
    rng.shuffle(found)
    for r, f in zip(non_start, found):
        st.regions[r]["found"] = f
    for lvl in (2, 1):
        tiles = list(D.SEA_INSTANCES[lvl])
        rng.shuffle(tiles)
        for r, t in zip(non_start, tiles):
            st.regions[r]["sea"].append(t)
    for p in st.players:
        s = p["seat"]
        reg = st.regions[p["start_region"]]
        reg["city"] = s
        reg["w"][s] = 1
        sc = D.STARTING[p["start_card"]]
        p["coins"] += sc["coins"]
        p["weapons"] += sc["weapons"]
        st._vp(s, sc["vp"])
        for g, k in sc["temp_goods"].items():
            p["temp"][g] += k
        take_perm_tile(st, sc["permanent_good"])  # setup good: no income step (seed)
        p["perm"][sc["permanent_good"]] += 1
    if st.solo:
        b = st.solo_bot()
        reg = st.regions[b["start_region"]]
        reg["city"] = BOT
        reg["w"][BOT] = 1
        b["supply"] = 9
        reg["farms"][D.REGIONS[b["start_region"]]["icons"].index(D.SOLO["bot_setup"]["first_farm_icon"])] = BOT
        b["board"]["farm"] -= 1
    # starting hands, in turn order
    for s in st.turn_order:
        if s == BOT and st.solo:
            continue
        p = st.players[s]
        for _ in range(D.STARTING[p["start_card"]]["setup_draw"]):
            c = draw_from_deck(st)
            if c:
                p["drawn"].append(c)
    st.sim = [s for s in st.turn_order if not (st.solo and s == BOT)]
    st.commits = {}
    st.phase = "keep"


def auto_setup_pick(st: MinosPosition) -> bool:
    if st.sim:
        return True
    _after_setup_draft(st)
    return False


def auto_start_region(st: MinosPosition) -> bool:
    if st.sim:
        return True
    _after_start_regions(st)
    return False


def auto_keep(st: MinosPosition) -> bool:
    if st.sim:
        return True
    for s in st._order_humans():
        p = st.players[s]
        kept = st.commits[str(s)]
        pal = st.commits[f"{s}p"]
        for c in p["drawn"]:
            if c not in kept:
                st.discard["I"].append(c)
        p["hand"] = [c for c in kept if c != pal]
        p["palace"].append(pal)
        p["drawn"] = []
    st.commits = {}
    st._ev(type="setup_done")
    start_round(st)
    return False


def legal_setup_pick(st: MinosPosition) -> list[str]:
    s = st.sim[0]
    p = st.players[s]
    out = []
    if not p["start_card"]:
        out += [f"pick:{c}" for c in st.avail_cards]
    if not p["ability"]:
        out += [f"pick:{a}" for a in st.avail_abilities]
    return out


def do_setup_pick(st: MinosPosition, s: int, text: str) -> None:
    x = text.split(":")[1]
    p = st.players[s]
    if x.startswith("AB"):
        p["ability"] = x
        st.avail_abilities.remove(x)
    else:
        _take_start_card(st, p, x)
    st.sim.pop(0)


def legal_start_region(st: MinosPosition) -> list[str]:
    return [f"start:{r}" for r in _free_start_regions(st)]


def do_start_region(st: MinosPosition, s: int, text: str) -> None:
    r = int(text.split(":")[1])
    st.players[s]["start_region"] = r
    if st.board_n == 2:
        other = D.PARTNER[r]
        if st.solo:
            st.solo_bot()["start_region"] = other
        else:
            st.players[1 - s]["start_region"] = other
    st.sim.pop(0)


def legal_keep(st: MinosPosition) -> list[str]:
    p = st.players[st.sim[0]]
    k = D.STARTING[p["start_card"]]["setup_keep"]
    # one option per distinct set of cards: copies drawn at setup are interchangeable (no one else saw them)
    first: dict[tuple[str, ...], tuple[str, ...]] = {}
    for combo in itertools.combinations(sorted(p["drawn"]), k):
        first.setdefault(tuple(c.split("#", 1)[0] for c in combo), combo)
    return sorted("keep:" + ",".join(c) for c in first.values())


def do_keep(st: MinosPosition, s: int, text: str) -> None:
    st.commits[str(s)] = text[5:].split(",")


def legal_setup_palace(st: MinosPosition) -> list[str]:
    return [f"palace:{c}" for c in distinct_copies(st.commits[str(st.sim[0])])]


def do_setup_palace(st: MinosPosition, s: int, text: str) -> None:
    st.commits[f"{s}p"] = text.split(":")[1]
    st.sim.pop(0)
