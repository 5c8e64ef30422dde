"""Minos setup (rules §3): the seats' starting boards, the shuffled components, the setup draft of starting
cards and abilities, start regions, and the starting hands with their keep / palace decision."""

from __future__ import annotations

import itertools

from arena.games.minos import data as D
from arena.games.minos.draft import DraftMixin
from arena.games.minos.effects import EffectsMixin, distinct_copies
from arena.games.minos.position import BOT, Bot, Player

PLAYER_PARTS = ["play", "vases", "palace_moves", "farms", "regions", "final_combat", "resources", "play_area",
                "palace"]

BOT_PARTS = ["handicap", "vases", "track_bonus", "cities", "fights", "fallback", "farms", "regions",
             "final_combat", "face_down_cards", "face_up_cards", "ships"]


def _new_player(seat: int) -> Player:
    return {
        "seat": seat, "coins": 0, "weapons": 0, "vp": 0, "parts": dict.fromkeys(PLAYER_PARTS, 0),
        "temp": dict.fromkeys(D.GOODS, 0), "perm": dict.fromkeys(D.GOODS, 0),
        "hand": [], "known": [], "play": [], "palace": [], "palace_open": [], "drawn": [],
        "income": 0, "ability": "", "level": 0, "start_card": "", "start_region": 0,
        "tracks": dict.fromkeys(D.TRACKS, 0), "supply": 6, "reserve": 3,
        "board": dict(D.PIECES_ON_BOARD), "ships": dict.fromkeys(D.ROUTES, 0),
        "sea": [], "trade": [], "found": [],
    }


def _new_bot(start_vp: int) -> Bot:
    parts = dict.fromkeys(BOT_PARTS, 0)
    parts["handicap"] = start_vp
    return {"vp": start_vp, "parts": parts, "supply": 10, "board": {"city": 2, "farm": 4},
            "ships": dict.fromkeys(D.ROUTES, 1), "deck": [], "drawn": [], "down": [], "up": [], "pop": 2,
            "intent": {}, "sea": [], "start_region": 0}


class SetupMixin(DraftMixin, EffectsMixin):
    """Setup: from `MinosState.__init__` to the first round (phases `setup_pick`, `start_region`, `keep`).

    A mixin of `MinosState`: it adds no fields."""

    __slots__ = ()

    def _setup(self) -> None:
        rng = self.rng
        n = self.n
        picker = rng.randrange(n)
        self.vases = []
        for colour in ("red", "blue", "yellow"):
            vid = rng.choice([v for v in D.VASES if D.VASES[v]["colour"] == colour])
            self.vases.append({"id": vid, "colour": colour,
                               "slots": [[vp, -1] for vp in D.VASE_SLOTS[self.board_n]], "achieved": []})
        self.bonus_action = rng.choice(sorted(D.BONUS_ACTIONS))
        self.decks = {"I": list(D.DECK_INSTANCES["I"]), "II": list(D.DECK_INSTANCES["II"])}
        rng.shuffle(self.decks["I"])
        rng.shuffle(self.decks["II"])
        self.discard = {"I": [], "II": []}
        rng.shuffle(self.pile)
        self.offer = [""] * D.C["offer_size"]
        for i in range(len(self.offer)):
            self.offer[i] = self._draw_from_deck() or ""
        self.avail_cards = sorted(D.STARTING)
        self.avail_abilities = sorted(D.ABILITIES)
        if self.solo:
            p = self.players[0]
            self._take_start_card(p, rng.choice(self.avail_cards))
            p["ability"] = rng.choice(self.avail_abilities)
            self.avail_abilities.remove(p["ability"])
            self._after_setup_draft()
        else:
            order = [(picker + i) % n for i in range(n)]
            self.sim = order + order[::-1]
            self.phase = "setup_pick"

    def _take_start_card(self, p: Player, card: str) -> None:
        p["start_card"] = card
        self.avail_cards.remove(card)

    def _after_setup_draft(self) -> None:
        if self.solo:
            self.first = 0
            self.turn_order = [0, BOT]
            self.sim = [0]
        else:
            first = min(range(self.n), key=lambda s: D.STARTING[self.players[s]["start_card"]]["initiative"])
            self.first = first
            self.turn_order = [(first + i) % self.n for i in range(self.n)]
            self.sim = [self.turn_order[-1]] if self.n == 2 else self.turn_order[::-1]
        self.phase = "start_region"

    def _free_start_regions(self) -> list[int]:
        if self.board_n == 2:
            return sorted(D.PARTNER)
        taken = {p["start_region"] for p in self.players}
        return [r for r in D.START_REGIONS[self.n] if r not in taken]

    def _after_start_regions(self) -> None:
        rng = self.rng
        starts = {p["start_region"] for p in self.players}
        if self.solo:
            starts.add(self.solo_bot()["start_region"])
        non_start = [r for r in self.in_play if r not in starts]
        found = list(D.FOUNDATION_INSTANCES)
        rng.shuffle(found)
        for r, f in zip(non_start, found):
            self.regions[r]["found"] = f
        for lvl in (2, 1):
            tiles = list(D.SEA_INSTANCES[lvl])
            rng.shuffle(tiles)
            for r, t in zip(non_start, tiles):
                self.regions[r]["sea"].append(t)
        for p in self.players:
            s = p["seat"]
            reg = self.regions[p["start_region"]]
            reg["city"] = s
            reg["w"][s] = 1
            sc = D.STARTING[p["start_card"]]
            p["coins"] += sc["coins"]
            p["weapons"] += sc["weapons"]
            self._vp(s, sc["vp"])
            for g, k in sc["temp_goods"].items():
                p["temp"][g] += k
            self._take_perm_tile(sc["permanent_good"])  # setup good: no income step (seed)
            p["perm"][sc["permanent_good"]] += 1
        if self.solo:
            b = self.solo_bot()
            reg = self.regions[b["start_region"]]
            reg["city"] = BOT
            reg["w"][BOT] = 1
            b["supply"] = 9
            reg["farms"][D.REGIONS[b["start_region"]]["icons"].index(D.SOLO["bot_setup"]["first_farm_icon"])] = BOT
            b["board"]["farm"] -= 1
        # starting hands, in turn order
        for s in self.turn_order:
            if s == BOT and self.solo:
                continue
            p = self.players[s]
            for _ in range(D.STARTING[p["start_card"]]["setup_draw"]):
                c = self._draw_from_deck()
                if c:
                    p["drawn"].append(c)
        self.sim = [s for s in self.turn_order if not (self.solo and s == BOT)]
        self.commits = {}
        self.phase = "keep"

    def _auto_setup_pick(self) -> bool:
        if self.sim:
            return True
        self._after_setup_draft()
        return False

    def _auto_start_region(self) -> bool:
        if self.sim:
            return True
        self._after_start_regions()
        return False

    def _auto_keep(self) -> bool:
        if self.sim:
            return True
        for s in self._order_humans():
            p = self.players[s]
            kept = self.commits[str(s)]
            pal = self.commits[f"{s}p"]
            for c in p["drawn"]:
                if c not in kept:
                    self.discard["I"].append(c)
            p["hand"] = [c for c in kept if c != pal]
            p["palace"].append(pal)
            p["drawn"] = []
        self.commits = {}
        self._ev(type="setup_done")
        self._start_round()
        return False

    def _legal_setup_pick(self) -> list[str]:
        s = self.sim[0]
        p = self.players[s]
        out = []
        if not p["start_card"]:
            out += [f"pick:{c}" for c in self.avail_cards]
        if not p["ability"]:
            out += [f"pick:{a}" for a in self.avail_abilities]
        return out

    def _do_setup_pick(self, s: int, text: str) -> None:
        x = text.split(":")[1]
        p = self.players[s]
        if x.startswith("AB"):
            p["ability"] = x
            self.avail_abilities.remove(x)
        else:
            self._take_start_card(p, x)
        self.sim.pop(0)

    def _legal_start_region(self) -> list[str]:
        return [f"start:{r}" for r in self._free_start_regions()]

    def _do_start_region(self, s: int, text: str) -> None:
        r = int(text.split(":")[1])
        self.players[s]["start_region"] = r
        if self.board_n == 2:
            other = D.PARTNER[r]
            if self.solo:
                self.solo_bot()["start_region"] = other
            else:
                self.players[1 - s]["start_region"] = other
        self.sim.pop(0)

    def _legal_keep(self) -> list[str]:
        p = self.players[self.sim[0]]
        k = D.STARTING[p["start_card"]]["setup_keep"]
        # one option per distinct set of cards: copies drawn at setup are interchangeable (no one else saw them)
        first: dict[tuple[str, ...], tuple[str, ...]] = {}
        for combo in itertools.combinations(sorted(p["drawn"]), k):
            first.setdefault(tuple(c.split("#", 1)[0] for c in combo), combo)
        return sorted("keep:" + ",".join(c) for c in first.values())

    def _do_keep(self, s: int, text: str) -> None:
        self.commits[str(s)] = text[5:].split(",")

    def _legal_setup_palace(self) -> list[str]:
        return [f"palace:{c}" for c in distinct_copies(self.commits[str(self.sim[0])])]

    def _do_setup_palace(self, s: int, text: str) -> None:
        self.commits[f"{s}p"] = text.split(":")[1]
        self.sim.pop(0)
