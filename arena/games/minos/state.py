"""The Minos position and its rules engine.

A `MinosState` holds everything: the board, each seat's resources, the decks, the dice, the seeded RNG and a
*work queue* of effect operations still to resolve. Effects (cards, slot bonuses, track spaces, tiles) are lists
of primitive operations (`rules.md` §2.4); they are copied into the queue with the seat that resolves them and run
front first. An operation that needs a choice (a good of any type, a card from the offer or deck, a region to
deploy to, ...) stops the queue and becomes the current decision; `apply()` answers it and the queue runs on.
When the queue is empty the current *phase* decides what happens next (setup draft, dice draft, groups, action
turns, income, palace, scoring, final combat). Every automatic step, and every move of the solo opponent
Rhadamanthus, happens inside `apply()` (and at setup), so `current_player()` is always a human seat.

Seats: human seats are 0..players-1. On the map, warriors and buildings are kept per *map seat*: the human
seats, plus map seat 1 for Rhadamanthus in solo games (`BOT`).
"""

from __future__ import annotations

import copy
import functools
import itertools
import pickle
from typing import Any

from arena.games.base import TERMINAL, Event, IllegalAction, State, rank_by_keys
from arena.games.minos import data as D
from arena.games.minos.actions import MinosAction
from arena.games.minos.observation import observe
from arena.games.minos.rhadamanthus import bot_draft, bot_turn
from arena.games.rng import SplitMix64

BOT = 1  # the map seat of Rhadamanthus in solo games

PLAYER_PARTS = ["play", "vases", "palace_moves", "farms", "regions", "final_combat", "resources", "play_area",
                "palace"]
BOT_PARTS = ["handicap", "vases", "track_bonus", "cities", "fights", "fallback", "farms", "regions",
             "final_combat", "face_down_cards", "face_up_cards", "ships"]
EFFECT_CHOICE_OPS = {"temp_good", "perm_good", "draw_card", "track", "deploy", "march", "ship_step", "_forage",
                     "_trade"}

A = MinosAction
_ACTIONS: dict[str, MinosAction] = {}  # actions are values: one shared instance per text (bounded cache)


def _intern(text: str) -> MinosAction:
    a = MinosAction(text)
    if len(_ACTIONS) < 50_000:
        _ACTIONS[text] = a
    return a


def _new_player(seat: int) -> dict[str, Any]:
    return {
        "seat": seat, "coins": 0, "weapons": 0, "vp": 0, "parts": {k: 0 for k in PLAYER_PARTS},
        "temp": {g: 0 for g in D.GOODS}, "perm": {g: 0 for g in D.GOODS},
        "hand": [], "known": [], "play": [], "palace": [], "palace_open": [], "drawn": [],
        "income": 0, "ability": "", "level": 0, "start_card": "", "start_region": 0,
        "tracks": {t: 0 for t in D.TRACKS}, "supply": 6, "reserve": 3,
        "board": dict(D.PIECES_ON_BOARD), "ships": {r: 0 for r in D.ROUTES},
        "sea": [], "trade": [], "found": [],
    }


def _new_bot(start_vp: int) -> dict[str, Any]:
    parts = {k: 0 for k in BOT_PARTS}
    parts["handicap"] = start_vp
    return {"vp": start_vp, "parts": parts, "supply": 10, "board": {"city": 2, "farm": 4},
            "ships": {r: 1 for r in D.ROUTES}, "deck": [], "drawn": [], "down": [], "up": [], "pop": 2,
            "intent": {}, "sea": [], "start_region": 0}


@functools.lru_cache(maxsize=4096)
def _group_options(dice: tuple, thr: int) -> tuple:
    """All multisets of <= 2 track steps formed by disjoint valid groups of `dice` ((colour, value) pairs)."""
    k = len(dice)
    valid: list[tuple[int, str]] = []  # (member bitmask, track) of every valid single group
    for mask in range(1, 1 << k):
        members = [dice[i] for i in range(k) if mask >> i & 1]
        colours = {c for c, _ in members if c != "grey"}
        if len(colours) == 1 and sum(v for _, v in members) >= thr:
            valid.append((mask, D.DIE_TRACK[colours.pop()]))
    found = {()}
    for i, (m1, t1) in enumerate(valid):
        found.add((t1,))
        for m2, t2 in valid[i + 1:]:
            if not m1 & m2:
                found.add(tuple(sorted((t1, t2), key=D.TRACKS.index)))
    return tuple(sorted(found, key=lambda t: (len(t), [D.TRACKS.index(x) for x in t])))


class MinosState(State):
    """One Minos position. Build it with `MinosGame.new_state(seed)`."""

    def __init__(self, game, seed: int | None = None):
        self.game = game
        if seed is None:
            return  # filled in by from_json / clone
        n = game.players
        self.n = n
        self.solo = n == 1
        self.nm = 2 if self.solo else n          # map seats
        self.board_n = 2 if self.solo else n     # action board, map, vase slots, dice: solo plays on the 2p setup
        self.rng = SplitMix64(seed)
        self.round = 1
        self.era = "I"
        self.phase = "setup"
        self.vp_cat = "play"
        self.players = [_new_player(s) for s in range(n)]
        self.bot = _new_bot(D.SOLO["difficulty_start_vp"][game.options["difficulty"]]) if self.solo else None
        self.queue: list[dict[str, Any]] = []
        self.turn: dict[str, Any] | None = None
        self.foraged: list[list[int]] = []
        self.commits: dict[str, Any] = {}
        self.sim: list[int] = []        # seats still to decide in the current sequential/simultaneous step
        self.step_i = 0
        self.turn_order: list[int] = []
        self.first = 0
        self.final_regions: list[int] = []
        self.final_order: list[int] = []
        # dice
        self.dice: dict[str, list] = {}  # id -> [colour, value]
        for colour in D.COLOURS:
            for k in range(1, D.DATA["dice"]["colours"][colour] - D.DICE_REMOVE[n][colour] + 1):
                self.dice[f"{D.COLOUR_LETTER[colour]}{k}"] = [colour, 0]
        self.owner: dict[str, int] = {}
        self.rows: dict[str, list[str]] = {r: [] for r in D.ROWS}
        self.retrieved: list[str] = []
        # goods
        self.stacks = {g: D.DATA["permanent_goods_setup"]["face_up_per_type"] for g in D.GOODS}
        self.pile = [g for g in D.GOODS for _ in range(D.DATA["goods"][0]["permanent_tiles_total"]
                                                       - D.DATA["permanent_goods_setup"]["face_up_per_type"])]
        # map
        self.in_play = list(D.IN_PLAY[self.board_n])
        self.regions: dict[int, dict[str, Any]] = {
            r: {"w": [0] * self.nm, "city": -1, "tower": False, "farms": [-1, -1], "found": "", "sea": []}
            for r in self.in_play}
        self.trade_tiles = [t for t in D.TRADE_TILES]
        self._setup()

    # ------------------------------------------------------------------ setup

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
        self.discard: dict[str, list[str]] = {"I": [], "II": []}
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

    def _take_start_card(self, p: dict, card: str) -> None:
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
            starts.add(self.bot["start_region"])
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
            b = self.bot
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

    # ------------------------------------------------------------------ small helpers

    def _human(self, s: int) -> bool:
        return not (self.solo and s == BOT)

    def _vp(self, s: int, n: int, cat: str | None = None) -> None:
        p = self.players[s]
        p["vp"] += n
        p["parts"][cat or self.vp_cat] += n

    def _bot_vp(self, n: int, cat: str) -> None:
        self.bot["vp"] += n
        self.bot["parts"][cat] += n

    def mods(self, s: int) -> dict[str, int]:
        """The seat's modifiers: ability level plus uncovered player-board slots (rules §2.2)."""
        p = self.players[s]
        m = dict(D.MOD_DEFAULTS)
        if p["ability"]:
            for k, v in D.ABILITIES[p["ability"]]["levels"][p["level"]].items():
                if k in D.MOD_OVERRIDE:
                    m[k] = v
                else:
                    m[k] += v
        for piece, slots in D.UNCOVER.items():
            built = D.PIECES_ON_BOARD[piece] - p["board"][piece]
            for slot in slots[:built]:
                for k, v in slot["modifiers"].items():
                    if k in D.MOD_OVERRIDE:
                        m[k] = v
                    else:
                        m[k] += v
        return m

    def _draw_from_deck(self) -> str | None:
        deck = self.decks[self.era]
        if not deck:
            disc = self.discard[self.era]
            if not disc:
                return None
            self.rng.shuffle(disc)
            deck.extend(disc)
            disc.clear()
        return deck.pop()

    def _can_draw(self) -> bool:
        return bool(self.decks[self.era] or self.discard[self.era])

    def _take_offer(self, slot: int) -> str:
        card = self.offer[slot]
        self.offer[slot] = self._draw_from_deck() or ""
        return card

    def _perm_available(self, g: str) -> bool:
        return self.stacks[g] > 0 or g in self.pile

    def _take_perm_tile(self, g: str) -> bool:
        if self.stacks[g] > 0:
            self.stacks[g] -= 1
            return True
        if g in self.pile:
            self.pile.remove(g)  # the order of the rest stays as it is [D-36]
            return True
        return False

    def _gain_perm(self, s: int, g: str) -> None:
        """A permanent good after setup: the tile, then one income step (rules §2.4)."""
        if self._take_perm_tile(g):
            self._dirty = True
            self.players[s]["perm"][g] += 1
            self.queue.insert(0, {"op": "income_step", "n": 1, "p": s})

    def _sources(self, s: int, g: str) -> int:
        p = self.players[s]
        return p["perm"][g] + sum(1 for c in p["play"] if D.card_of(c)["discount"] == g)

    def _affordable(self, s: int, cost: dict) -> bool:
        p = self.players[s]
        if p["coins"] < cost.get("coins", 0):
            return False
        for g, k in cost.get("goods", {}).items():
            if p["temp"][g] < k - min(k, self._sources(s, g)):
                return False
        return True

    def _pay(self, s: int, cost: dict) -> None:
        p = self.players[s]
        p["coins"] -= cost.get("coins", 0)
        for g, k in cost.get("goods", {}).items():
            p["temp"][g] -= k - min(k, self._sources(s, g))

    def _push(self, s: int, effect: list[dict]) -> None:
        """Put an effect at the front of the work queue (before anything still pending)."""
        self.queue[0:0] = [dict(op, p=s) for op in effect]

    def _eligible_deploy(self, s: int) -> list[int]:
        own = set()
        for r, reg in self.regions.items():
            if reg["w"][s] or reg["city"] == s or s in reg["farms"]:
                own.add(r)
        out = set(own)
        for r in own:
            out.update(a for a in D.ADJ[r] if a in self.regions)
        return sorted(out)

    def _enter(self, s: int, r: int, k: int) -> None:
        """k warriors of human seat s enter region r (already removed from where they came); foraging §2.5."""
        reg = self.regions[r]
        self._dirty = True
        had = reg["w"][s] > 0
        reg["w"][s] += k
        if not had and [s, r] not in self.foraged:
            self.foraged.append([s, r])
            self.queue.insert(0, {"op": "_forage", "r": r, "p": s})

    def _uncovered(self, r: int) -> list[str]:
        reg = self.regions[r]
        return [g for i, g in enumerate(D.REGIONS[r]["icons"]) if reg["farms"][i] < 0]

    def dominant(self, r: int) -> int:
        """The map seat with strictly the most warriors in r (at least 1), or -1."""
        w = self.regions[r]["w"]
        best = max(w)
        if best == 0 or w.count(best) > 1:
            return -1
        return w.index(best)

    def _order_humans(self) -> list[int]:
        return [s for s in self.turn_order if self._human(s)]

    # ------------------------------------------------------------------ State interface

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.queue:
            return self.queue[0]["p"]
        if self.phase == "actions":
            return self.turn["seat"] if self.turn else self._turn_seat()
        if self.phase == "draft":
            return self._turn_seat()
        if self.phase == "final_combat":
            return self.commits["holder"]
        return self.sim[0]

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def decision(self) -> str:
        """The name of the pending decision (rules §15.1), e.g. `draft`, `turn`, `temp_good`, `palace`."""
        if self.phase == "over":
            return "none"
        if self.queue:
            return self.queue[0]["op"].lstrip("_")
        if self.phase == "actions":
            return "turn" if self.turn else "retrieve"
        if self.phase == "keep":
            return "setup_palace" if str(self.sim[0]) in self.commits else "keep"
        return self.phase

    def legal_actions(self) -> list[MinosAction]:
        return [_ACTIONS.get(t) or _intern(t) for t in self._legal_texts()]

    def _legal_texts(self) -> list[str]:
        # cached until the next apply(): policies ask, then apply() checks the same list
        cached = self.__dict__.get("_legal_cache")
        if cached is not None:
            return cached
        if self.phase == "over":
            out = []
        elif self.queue:
            out = self._choice_options(self.queue[0])
        else:
            out = getattr(self, "_legal_" + self.decision())()
        self._legal_cache = out
        return out

    def apply(self, action) -> list[Event]:
        text = str(action)
        if self.phase == "over":
            raise IllegalAction(action, "the game is over")
        legal = self._legal_texts()
        if text not in legal:
            raise IllegalAction(action, f"not a legal choice for the {self.decision()} decision of seat "
                                        f"{self.current_player()} (legal: {', '.join(legal[:12])}"
                                        f"{', ...' if len(legal) > 12 else ''})")
        seat = self.current_player()
        self._legal_cache = None
        self.events: list[Event] = [{"type": "decision", "seat": seat, "action": text,
                                     "decision": self.decision()}]
        if self.queue:
            self._choose(self.queue[0], text)
        else:
            getattr(self, "_do_" + self.decision())(seat, text)
        self._advance()
        return self.events

    #: Simultaneous or face-down decisions (E-03, D-15, D-33): another seat never sees their text. The setup
    #: keep and the hand card tucked into the palace stay secret for good; DP-7 groups and DP-12 palace moves
    #: become public through the events and observations once every seat has committed, not through the text.
    HIDDEN_DECISIONS = frozenset({"keep", "setup_palace", "groups", "palace"})

    def redact_decision(self, actor: int, viewer: int, action_text: str,
                        events: list[Event]) -> tuple[str | None, list[Event]]:
        """Another seat's decision as `viewer` may see it (rules §15.4-15.5, E-03, D-35).

        Hidden (text None; the `decision` event keeps its seat and decision name, its `action` becomes ""):
        every `keep`, `setup_palace`, `groups` and `palace` decision, and `trait:<card>` when that card lies
        face down in the actor's palace (its observation shows such a trait as "" too). Everything else is
        public: the board, the offer, played cards and the dice are seen by all. No other event names a hidden
        card or choice (E-14: a hand card moved into the palace appears as "" in its `palace` event)."""
        if actor == viewer or not self._decision_hidden(actor, action_text):
            return action_text, events
        shown = [{**e, "action": ""} if e.get("type") == "decision" else e for e in events]
        return None, shown

    def _decision_hidden(self, actor: int, action_text: str) -> bool:
        decision = self.decision()
        if decision in self.HIDDEN_DECISIONS:
            return True
        if decision == "turn" and action_text.startswith("trait:"):
            return action_text[6:] not in self.players[actor]["palace_open"]
        return False

    def _ev(self, **kw: Any) -> None:
        ev = getattr(self, "events", None)
        if ev is not None:
            ev.append(kw)

    # ------------------------------------------------------------------ the driver

    def _advance(self) -> None:
        """Run automatic steps until a human decision is pending or the game is over."""
        while True:
            while self.queue:
                if self._exec(self.queue[0]):
                    return
            if self.phase in ("actions", "final_combat") and self.__dict__.get("_dirty", True):
                self._checkpoint()
            if getattr(self, "_auto_" + self.phase)():
                return

    # phases with a pending decision return True from their _auto_ step
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

    def _auto_draft(self) -> bool:
        order = self.turn_order
        while self.step_i < 4 * len(order):
            s = order[self.step_i % len(order)]
            if self._human(s):
                return True
            bot_draft(self)
            self.step_i += 1
        # draft over: progress tracks (simultaneous)
        self.sim = self._order_humans()
        self.commits = {}
        self.phase = "groups"
        return False

    def _auto_groups(self) -> bool:
        if self.sim:
            return True
        self.foraged = []
        for s in self._order_humans():
            tracks = self.commits[str(s)]
            gvp = self.mods(s)["group_vp"]
            if tracks and gvp:
                self.queue.append({"op": "vp", "n": gvp * len(tracks), "p": s})
            for t in tracks:
                self.queue.append({"op": "track", "track": t, "n": 1, "p": s})
        self.commits = {}
        self.phase = "groups_apply"
        return False

    def _auto_groups_apply(self) -> bool:
        self._checkpoint()
        self.phase = "actions"
        self.step_i = 0
        self.turn = None
        return False

    def _turn_seat(self) -> int:
        return self.turn_order[self.step_i % len(self.turn_order)]

    def _auto_actions(self) -> bool:
        order = self.turn_order
        while self.step_i < 4 * len(order):
            if self.turn is not None:
                return True
            s = self._turn_seat()
            if not self._human(s):
                bot_turn(self)
                self.step_i += 1
                self._checkpoint()  # a bot move can make a human dominant (it returns warriors)
                continue
            top = self._retrieve_candidates(s)
            if len(top) > 1:
                return True
            self._retrieve(s, top[0])
            return True
        self.phase = "income"
        self._income_1()
        return False

    def _auto_income(self) -> bool:
        # step 2 queue (ship income) has run; step 3 weapons; then the palace step
        self._checkpoint()
        for s in self._order_humans():
            p = self.players[s]
            p["weapons"] += D.WEAPON_INCOME[p["tracks"]["population"]] + self.mods(s)["weapon_income_bonus"]
        self._checkpoint()
        self.phase = "palace"
        self.sim = self._order_humans()
        self.commits = {str(s): [] for s in self.sim}
        return False

    def _auto_palace(self) -> bool:
        if self.sim:
            return True
        for s in self._order_humans():
            p = self.players[s]
            for c in self.commits[str(s)]:
                if c in p["play"]:
                    p["play"].remove(c)
                    p["palace_open"].append(c)
                else:
                    p["hand"].remove(c)
                    if c in p["known"]:
                        p["known"].remove(c)
                    self._vp(s, -self._hand_palace_cost(s, c), "palace_moves")
                p["palace"].append(c)
                # a hand card goes in face down: the event shows only what observations show
                self._ev(type="palace", seat=s, card=c if c in p["palace_open"] else "",
                         era=D.card_of(c)["era"])
        self.commits = {}
        self._checkpoint()
        self._end_round()
        return False

    def _auto_final_combat(self) -> bool:
        while self.step_i < len(self.final_regions):
            r = self.final_regions[self.step_i]
            reg = self.regions[r]
            if not reg["sea"]:
                self.step_i += 1
                continue
            holder = self._final_holder(r)
            if holder == BOT and self.solo:
                tile = reg["sea"].pop()
                self.bot["sea"].append(tile)
                self._bot_vp(D.SEA[tile]["weapons"], "final_combat")
                self._ev(type="bot_final_fight", region=r, tile=tile)
                self.step_i += 1
                continue
            if holder < 0 or self.players[holder]["weapons"] < self._fight_cost(holder, reg["sea"][-1]):
                self.step_i += 1
                continue
            self.commits = {"holder": holder, "region": r}
            return True
        self._final_scoring()
        return False

    def _auto_over(self) -> bool:
        return True

    # ------------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        self.vp_cat = "play"
        self._roll()
        if self.solo:
            deck = sorted(D.BOT_DECK)
            self.rng.shuffle(deck)
            self.bot["deck"] = deck
            self.bot["drawn"] = []
            self.bot["intent"] = {}
        self.phase = "draft"
        self.step_i = 0
        self._ev(type="round", round=self.round, dice={d: v[1] for d, v in self.dice.items()})

    def _roll(self) -> None:
        limit = D.C["reroll_if_same_value_at_least"]
        while True:
            values = [self.rng.randint(1, 6) for _ in self.dice]
            if max(values.count(v) for v in range(1, 7)) < limit:
                break
        for d, v in zip(self.dice, values):
            self.dice[d][1] = v
        self.owner = {}
        self.rows = {r: [] for r in D.ROWS}
        self.retrieved = []

    def slot_data(self, row: str, slot: int) -> dict:
        return D.BOARD[self.board_n][row][slot - 1]

    def _place(self, s: int, die: str, row: str) -> None:
        v = self.dice[die][1]
        dice = self.rows[row]
        idx = sum(1 for d in dice if self.dice[d][1] <= v)
        dice.insert(idx, die)
        self.owner[die] = s
        self._ev(type="place", seat=s, die=die, row=row)

    def _pool(self) -> list[str]:
        return [d for d in self.dice if d not in self.owner]

    def _free_rows(self) -> list[str]:
        return [r for r in D.ROWS if len(self.rows[r]) < len(D.BOARD[self.board_n][r])]

    def die_place(self, die: str) -> tuple[str, int]:
        for r, dice in self.rows.items():
            if die in dice:
                return r, dice.index(die) + 1
        return "", 0

    def _retrieve_candidates(self, s: int) -> list[str]:
        mine = [d for d, o in self.owner.items() if o == s and d not in self.retrieved]
        best = max(self.dice[d][1] for d in mine)
        return sorted(d for d in mine if self.dice[d][1] == best)

    def _retrieve(self, s: int, die: str) -> None:
        row, slot = self.die_place(die)
        self.retrieved.append(die)
        sd = self.slot_data(row, slot)
        v = self.dice[die][1]
        traits = []
        for c in self.players[s]["palace"]:
            trig = D.card_of(c)["trait"]["trigger"]
            if trig.get("action") == row or v in trig.get("die", ()):
                traits.append(c)
        self.turn = {"seat": s, "die": die, "row": row, "slot": slot, "strength": sd["strength"],
                     "bonus": bool(sd["bonus"]), "traits": traits, "main": "pending", "action": "",
                     "points": 0, "pre": 0, "extras": []}
        self.foraged = []
        self._ev(type="retrieve", seat=s, die=die, row=row, slot=slot)

    def _income_1(self) -> None:
        for s in self._order_humans():
            p = self.players[s]
            sp = D.INCOME[p["income"]]
            p["coins"] += sp["coins"]
            self._vp(s, sp["vp"])
        self._checkpoint()
        self.foraged = []
        for s in self._order_humans():
            p = self.players[s]
            m = self.mods(s)
            for r in D.ROUTES:
                if p["ships"][r]:
                    self.queue.append({"op": "coins", "n": m["ship_income_coins_per_ship"], "p": s})
                    self.queue.append({"op": "vp", "n": m["ship_income_vp_per_ship"], "p": s})
                    self.queue.extend(dict(op, p=s) for op in D.ROUTE_SPACES[r][p["ships"][r]]["income"])

    def _end_round(self) -> None:
        self.owner = {}
        self.rows = {r: [] for r in D.ROWS}
        self.retrieved = []
        nseats = 2 if self.solo else self.n
        self.first = (self.first + 1) % nseats
        self.turn_order = [(self.first + i) % nseats for i in range(nseats)]
        if self.round in D.C["scoring_after_rounds"]:
            self._interim_scoring()
        if self.round == D.C["era_switch_after_round"]:
            self.discard["I"].extend(c for c in self.offer if c)
            self.era = "II"
            self.offer = [self._draw_from_deck() or "" for _ in self.offer]
            if self.solo:
                self.bot["pop"] = D.SOLO["bot_population_scoring_space"]["round_4"]
            self._ev(type="era", era="II")
        if self.round == D.C["rounds"]:
            self._start_final()
            return
        self.round += 1
        self._start_round()

    def _interim_scoring(self) -> None:
        self.vp_cat = "farms"
        for s in range(self.n):
            self._vp(s, D.FARM_VP[self.farms_on_map(s)], "farms")
        if self.solo:
            self._bot_vp(D.FARM_VP[self.farms_on_map(BOT)], "farms")
        for r in sorted(self.regions):
            dom = self.dominant(r)
            w = self.regions[r]["w"]
            for s in range(self.nm):
                if not w[s]:
                    continue
                if self.solo and s == BOT:
                    row = D.REGION_SCORING[self.bot["pop"]]
                    self._bot_vp(row["dominance"] if dom == s else row["presence"], "regions")
                    continue
                row = D.REGION_SCORING[self.players[s]["tracks"]["population"]]
                if dom == s:
                    self._vp(s, row["dominance"] + self.mods(s)["tower_region_bonus"], "regions")
                else:
                    self._vp(s, row["presence"], "regions")
        self._ev(type="scoring", round=self.round)
        self.vp_cat = "play"

    def _start_final(self) -> None:
        """Round 4 is over: remove Level I tiles, then the final Sea Peoples combat (§12.1)."""
        self.vp_cat = "final_combat"
        self.foraged = []
        for reg in self.regions.values():
            while reg["sea"] and D.SEA[reg["sea"][-1]]["level"] == 1:
                reg["sea"].pop()
        self.final_order = list(self.turn_order_round4)
        self.final_regions = sorted(r for r, reg in self.regions.items() if reg["sea"])
        self.step_i = 0
        self.phase = "final_combat"

    def _final_holder(self, r: int) -> int:
        w = self.regions[r]["w"]
        best = max(w)
        if best == 0:
            return -1
        tied = [s for s in range(self.nm) if w[s] == best]
        if self.solo:
            return BOT if BOT in tied else 0
        return min(tied, key=lambda s: (-self.players[s]["weapons"], self.final_order.index(s)))

    def _final_scoring(self) -> None:
        div = D.C["final_resources_divisor"]
        for s in range(self.n):
            p = self.players[s]
            self._vp(s, (p["coins"] + p["weapons"] + len(p["hand"])) // div, "resources")
            self._vp(s, D.C["vp_per_play_area_card_at_end"] * len(p["play"]), "play_area")
            self._vp(s, sum(D.card_of(c)["vp"] for c in p["palace"]), "palace")
        if self.solo:
            b = self.bot
            fd = D.C["bot_face_down_card_vp"]
            self._bot_vp(sum(fd[D.card_of(c)["era"]] for c in b["down"]), "face_down_cards")
            self._bot_vp(sum(D.card_of(c)["vp"] for c in b["up"]), "face_up_cards")
            self._bot_vp(D.C["bot_vp_per_route_step"] * sum(sp - 1 for sp in b["ships"].values()), "ships")
        self.vp_cat = "play"
        self.phase = "over"
        self._ev(type="game_over", scores=self.scores())

    # ------------------------------------------------------------------ vases (§8)

    def vase_value(self, s: int, kind: str, doms: list[int] | None = None) -> int:
        """The seat's current count for a vase condition kind (§8)."""
        p = self.players[s]
        if kind == "regions_present":
            return sum(1 for reg in self.regions.values() if reg["w"][s])
        if kind == "regions_dominated":
            if doms is None:
                doms = [self.dominant(r) for r in self.regions]
            return doms.count(s)
        if kind == "sea_peoples_defeated":
            return len(p["sea"])
        if kind == "farms":
            return self.farms_on_map(s)
        if kind == "ships":
            return sum(1 for v in p["ships"].values() if v)
        if kind == "perm_goods":
            return sum(p["perm"].values())
        if kind == "palace_cards":
            return len(p["palace"])
        if kind == "play_area_plus_palace_cards":
            return len(p["palace"]) + len(p["play"])
        if kind == "progress_sum":
            return sum(p["tracks"].values())
        raise KeyError(kind)

    def vase_counts(self, kind: str) -> list[int]:
        """`vase_value` for every human seat at once (one pass over the map for the map-based kinds)."""
        if kind == "regions_present":
            counts = [0] * self.nm
            for reg in self.regions.values():
                for s, k in enumerate(reg["w"]):
                    if k:
                        counts[s] += 1
            return counts[:self.n]
        if kind == "regions_dominated":
            counts = [0] * self.nm
            for r in self.regions:
                d = self.dominant(r)
                if d >= 0:
                    counts[d] += 1
            return counts[:self.n]
        return [self.vase_value(s, kind) for s in range(self.n)]

    def _checkpoint(self) -> None:
        """Vases (§8): every human seat meeting a condition now achieves it; simultaneous achievers share.

        In the action phase `_advance` skips the check unless something a vase counts may have changed since
        the last one (`_dirty`, set by every change of warriors, farms, ships, permanent goods, tracks, play
        area, palace or defeated tiles): a skipped check could not have found a new achiever."""
        self._dirty = False
        for vase in self.vases:
            free = [sl for sl in vase["slots"] if sl[1] < 0]
            if not free:
                continue
            cond = D.VASES[vase["id"]]["condition"]
            counts = self.vase_counts(cond["kind"])
            need = cond["at_least"]
            if max(counts) < need:
                continue
            achievers = [s for s in self._order_humans() if s not in vase["achieved"] and counts[s] >= need]
            if not achievers:
                continue
            free.sort(key=lambda sl: -sl[0])
            vp = free[0][0]
            for i, s in enumerate(achievers):
                if i < len(free):
                    free[i][1] = s
                vase["achieved"].append(s)
                self._vp(s, vp, "vases")
                self._ev(type="vase", seat=s, vase=vase["id"], vp=vp)

    def farms_on_map(self, s: int) -> int:
        # every farm that left a board is on the map (farms never come back)
        board = self.bot["board"] if (self.solo and s == BOT) else self.players[s]["board"]
        return D.PIECES_ON_BOARD["farm"] - board["farm"]

    # ------------------------------------------------------------------ effect queue

    def _exec(self, t: dict) -> bool:
        """Resolve the front task one unit at a time. True when it needs the seat's choice (it stays in front)."""
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        if op in EFFECT_CHOICE_OPS:
            opts = self._choice_options(t)
            if not opts:
                self.queue.pop(0)
                return False
            if op == "_forage" and len(opts) == 1:
                self._choose(t, opts[0])
                return False
            if op in ("temp_good", "perm_good", "track") and t.get("good", t.get("track")) not in ("any",):
                self._choose(t, opts[0])  # named: no real choice
                return False
            return True
        self.queue.pop(0)
        n = t.get("n", 1)
        if op == "coins":
            p["coins"] += n
        elif op == "weapons":
            p["weapons"] += n
        elif op == "vp":
            self._vp(s, n)
        elif op == "recruit":
            k = min(n, p["supply"])
            p["supply"] -= k
            p["reserve"] += k
        elif op == "income_step":
            if n > 1:  # one space at a time: this space's on-enter effect resolves before the next step
                self.queue.insert(0, dict(t, n=n - 1))
            if p["income"] >= D.INCOME_MAX:
                self._vp(s, D.C["overflow_vp_per_step"])
            else:
                p["income"] += 1
                self._push(s, D.INCOME[p["income"]]["on_enter"])
        elif op == "ability_step":
            for _ in range(n):
                if p["level"] >= 3:
                    self._vp(s, D.C["overflow_vp_per_step"])
                else:
                    p["level"] += 1
        elif op == "vp_per":
            k = self._count(s, t["what"])
            gain = k * t["each"]
            if "max" in t:
                gain = min(gain, t["max"])
            self._vp(s, gain)
        elif op == "bonus_action":
            self._push(s, D.BONUS_ACTIONS[self.bonus_action]["effect"])
        elif op == "action_bonus":
            tr = self.turn
            if tr is not None and tr["seat"] == s:
                if tr["main"] == "pending":
                    tr["pre"] += n
                elif tr["main"] == "active":
                    tr["points"] += n
        elif op == "_arrive":
            bonus = D.ROUTE_SPACES[t["route"]][p["ships"][t["route"]]].get("trade_bonus")
            if bonus:
                self.queue.insert(0, {"op": "_trade", "colour": bonus, "p": s})
        else:
            raise AssertionError(f"unknown op {op}")
        return False

    def _count(self, s: int, what: str) -> int:
        p = self.players[s]
        if what == "farms":
            return self.farms_on_map(s)
        if what == "cities":
            return sum(1 for reg in self.regions.values() if reg["city"] == s)
        if what == "towers":
            return D.PIECES_ON_BOARD["tower"] - p["board"]["tower"]
        if what == "ships":
            return sum(1 for v in p["ships"].values() if v)
        if what == "regions_present":
            return sum(1 for reg in self.regions.values() if reg["w"][s])
        if what == "palace_cards":
            return len(p["palace"])
        if what == "perm_goods":
            return sum(p["perm"].values())
        if what == "sea_peoples_defeated":
            return len(p["sea"])
        if what == "play_area_cards":
            return len(p["play"])
        raise KeyError(what)

    def _choice_options(self, t: dict) -> list[str]:
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        if op == "temp_good":
            return [f"good:{g}" for g in (D.GOODS if t["good"] == "any" else [t["good"]])]
        if op == "perm_good":
            if t["good"] == "random":
                return ["deck"] if self.pile else []
            goods = D.GOODS if t["good"] == "any" else [t["good"]]
            return [f"good:{g}" for g in goods if self._perm_available(g)]
        if op == "track":
            return [f"track:{x}" for x in (D.TRACKS if t["track"] == "any" else [t["track"]])]
        if op == "draw_card":
            out = [f"offer:{i + 1}" for i, c in enumerate(self.offer) if c]
            if self._can_draw():
                out.append("deck")
            return out
        if op == "deploy":
            if not p["reserve"]:
                return []
            out = [f"deploy:{r}" for r in self._eligible_deploy(s)]
            return out + ["stop"] if out else []
        if op == "march":
            out = [f"march:{a}:{b}" for a in sorted(self.regions) if self.regions[a]["w"][s]
                   for b in D.ADJ[a] if b in self.regions]
            return out + ["stop"] if out else []
        if op == "ship_step":
            out = [f"step:{r}" for r in D.ROUTES if 0 < p["ships"][r] < D.ROUTE_MAX]
            return out + ["stop"] if out else []
        if op == "_forage":
            return [f"good:{g}" for g in dict.fromkeys(self._uncovered(t["r"]))]
        if op == "_trade":
            return [f"tile:{x}" for x in self.trade_tiles if D.TRADE_TILES[x]["colour"] == t["colour"]]
        raise AssertionError(op)

    def _unit_done(self, t: dict) -> None:
        """One unit of the front task is resolved: drop it or count it down (before pushing sub-effects)."""
        t["n"] = t.get("n", 1) - 1
        if t["n"] <= 0:
            self.queue.pop(0)

    def _choose(self, t: dict, text: str) -> None:
        op = t["op"]
        s = t["p"]
        p = self.players[s]
        arg = text.split(":")
        if op == "temp_good":
            self._unit_done(t)
            p["temp"][arg[1]] += 1
        elif op == "perm_good":
            self.queue.pop(0)
            if t["good"] == "random":
                g = self.pile.pop()
                self._dirty = True
                p["perm"][g] += 1
                self.queue.insert(0, {"op": "income_step", "n": 1, "p": s})
            else:
                self._gain_perm(s, arg[1])
        elif op == "track":
            self._unit_done(t)
            self._track_step(s, arg[1])
        elif op == "draw_card":
            self._unit_done(t)
            self._draw(s, text)
        elif op == "deploy":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            p["reserve"] -= 1
            self._enter(s, int(arg[1]), 1)
        elif op == "march":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            self.regions[int(arg[1])]["w"][s] -= 1
            self._enter(s, int(arg[2]), 1)
        elif op == "ship_step":
            if text == "stop":
                self.queue.pop(0)
                return
            self._unit_done(t)
            self._ship_step(s, arg[1])
        elif op == "_forage":
            self.queue.pop(0)
            p["temp"][arg[1]] += 1
        elif op == "_trade":
            self.queue.pop(0)
            self.trade_tiles.remove(arg[1])
            p["trade"].append(arg[1])
            self._push(s, D.TRADE_TILES[arg[1]]["effect"])
        self._ev(type="choice", seat=s, op=op.lstrip("_"), choice=text)

    def _track_step(self, s: int, track: str) -> None:
        p = self.players[s]
        if p["tracks"][track] >= D.TRACK_MAX:
            self._vp(s, D.C["overflow_vp_per_step"])
            return
        p["tracks"][track] += 1
        self._dirty = True
        self._push(s, D.TRACK[track]["on_enter"].get(str(p["tracks"][track]), []))

    def _ship_step(self, s: int, route: str) -> None:
        self.players[s]["ships"][route] += 1
        self.queue.insert(0, {"op": "_arrive", "route": route, "p": s})

    def _draw(self, s: int, text: str) -> None:
        p = self.players[s]
        if text == "deck":
            c = self._draw_from_deck()
            if c:
                p["hand"].append(c)
        else:
            c = self._take_offer(int(text.split(":")[1]) - 1)
            p["hand"].append(c)
            p["known"].append(c)
            self._ev(type="take_offer", seat=s, card=c)

    # ------------------------------------------------------------------ setup decisions

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
                self.bot["start_region"] = other
            else:
                self.players[1 - s]["start_region"] = other
        self.sim.pop(0)

    def _legal_keep(self) -> list[str]:
        p = self.players[self.sim[0]]
        k = D.STARTING[p["start_card"]]["setup_keep"]
        return sorted("keep:" + ",".join(sorted(c)) for c in itertools.combinations(p["drawn"], k))

    def _do_keep(self, s: int, text: str) -> None:
        self.commits[str(s)] = text[5:].split(",")

    def _legal_setup_palace(self) -> list[str]:
        return [f"palace:{c}" for c in self.commits[str(self.sim[0])]]

    def _do_setup_palace(self, s: int, text: str) -> None:
        self.commits[f"{s}p"] = text.split(":")[1]
        self.sim.pop(0)

    # ------------------------------------------------------------------ draft and groups

    def _legal_draft(self) -> list[str]:
        rows = self._free_rows()
        return [f"draft:{d}:{r}" for d in self._pool() for r in rows]

    def _do_draft(self, s: int, text: str) -> None:
        _, die, row = text.split(":")
        self._place(s, die, row)
        self.step_i += 1

    def group_options(self, s: int) -> list[list[str]]:
        """Every achievable multiset of at most 2 track steps from the seat's 4 placed dice (DP-7)."""
        dice = tuple(sorted(tuple(self.dice[d]) for d, o in self.owner.items() if o == s))
        return [list(t) for t in _group_options(dice, self.mods(s)["group_threshold"])]

    def _legal_groups(self) -> list[str]:
        return ["groups:" + (",".join(t) if t else "none") for t in self.group_options(self.sim[0])]

    def _do_groups(self, s: int, text: str) -> None:
        arg = text.split(":")[1]
        self.commits[str(s)] = [] if arg == "none" else arg.split(",")
        self.sim.pop(0)

    # ------------------------------------------------------------------ action turns

    def _legal_retrieve(self) -> list[str]:
        return [f"retrieve:{d}" for d in self._retrieve_candidates(self._turn_seat())]

    def _do_retrieve(self, s: int, text: str) -> None:
        self._retrieve(s, text.split(":")[1])

    def _fight_cost(self, s: int, tile: str) -> int:
        return max(1, D.SEA[tile]["weapons"] - self.mods(s)["fight_discount"])

    def _hand_palace_cost(self, s: int, c: str) -> int:
        return max(0, D.card_of(c)["vp"] - self.mods(s)["hand_palace_vp_discount"])

    def _legal_turn(self) -> list[str]:
        tr = self.turn
        s = tr["seat"]
        p = self.players[s]
        out = []
        if tr["bonus"]:
            out.append("bonus")
        out += [f"trait:{c}" for c in tr["traits"]]
        if tr["main"] == "pending":
            out.append("main:forgo")
            if tr["row"] == "wild":
                out += [f"main:start:{a}" for a in D.MAIN_ACTIONS]
            else:
                out.append("main:start")
        elif tr["main"] == "active":
            out += self._point_options(s, tr["action"])
            out.append("main:finish")
        if "craft" not in tr["extras"]:
            out += [f"extra:craft:{g}" for g in D.GOODS if p["temp"][g] >= 3 and self._perm_available(g)]
        if "fight" not in tr["extras"]:
            discount = self.mods(s)["fight_discount"]
            for r in sorted(self.regions):
                reg = self.regions[r]
                if reg["w"][s] and reg["sea"] and p["weapons"] >= max(1, D.SEA[reg["sea"][-1]]["weapons"] - discount):
                    out.append(f"extra:fight:{r}")
        if "barter" not in tr["extras"] and p["coins"] >= 3:
            out += [f"extra:barter:{g}" for g in D.GOODS]
        if not tr["bonus"] and not tr["traits"] and tr["main"] == "done":
            out.append("end")
        return out

    def _point_options(self, s: int, action: str) -> list[str]:
        p = self.players[s]
        out: list[str] = []
        if action == "prepare":
            out = [f"offer:{i + 1}" for i, c in enumerate(self.offer) if c]
            if self._can_draw():
                out.append("deck")
        elif action == "develop":
            out = [f"play:{c}" for c in sorted(set(p["hand"])) if self._affordable(s, D.card_of(c)["cost"])]
        elif action == "build":
            b = D.BUILDINGS
            for r in sorted(self.regions):
                reg = self.regions[r]
                level1 = bool(reg["sea"]) and D.SEA[reg["sea"][-1]]["level"] == 1
                if reg["w"][s] and not level1:
                    if p["board"]["farm"] and self._affordable(s, b["farm"]["cost"]):
                        out += [f"farm:{r}:{i}" for i in (0, 1) if reg["farms"][i] < 0]
                    if p["board"]["city"] and reg["city"] < 0 and self._affordable(s, b["city"]["cost"]):
                        out.append(f"city:{r}")
                if (reg["city"] == s and not reg["tower"] and p["board"]["tower"]
                        and self._affordable(s, b["tower"]["cost"])):
                    out.append(f"tower:{r}")
            if p["board"]["ship"] and self._affordable(s, b["ship"]["cost"]):
                out += [f"ship:{r}" for r in D.ROUTES if not p["ships"][r]]
            out += [f"step:{r}" for r in D.ROUTES if 0 < p["ships"][r] < D.ROUTE_MAX]
        elif action == "expand":
            if p["supply"]:
                out.append("recruit")
            for r in self._eligible_deploy(s) if p["reserve"] else ():
                out += [f"deploy:{r}:{k}" for k in (1, 2) if p["reserve"] >= k]
            for a in sorted(self.regions):
                w = self.regions[a]["w"][s]
                for b2 in D.ADJ[a]:
                    if w and b2 in self.regions:
                        out += [f"march:{a}:{b2}:{k}" for k in (1, 2) if w >= k]
        return out

    def _do_turn(self, s: int, text: str) -> None:
        tr = self.turn
        p = self.players[s]
        arg = text.split(":")
        kind = arg[0]
        if kind == "bonus":
            tr["bonus"] = False
            self._push(s, self.slot_data(tr["row"], tr["slot"])["bonus"])
        elif kind == "trait":
            tr["traits"].remove(arg[1])
            self._push(s, D.card_of(arg[1])["trait"]["effect"])
        elif kind == "main":
            if arg[1] == "forgo":
                tr["main"] = "done"
                p["coins"] += D.C["forgo_coins"]
            elif arg[1] == "finish":
                tr["main"] = "done"
            else:
                action = arg[2] if len(arg) > 2 else tr["row"]
                tr["action"] = action
                tr["main"] = "active"
                tr["points"] = tr["strength"] + tr["pre"]
                tr["pre"] = 0
                if action == "build":
                    m = self.mods(s)
                    tr["points"] += m["build_strength_bonus"]
                    if m["build_start_ship_step"]:
                        self.queue.insert(0, {"op": "ship_step", "n": m["build_start_ship_step"], "p": s})
                if tr["points"] <= 0:
                    tr["main"] = "done"
        elif kind == "extra":
            tr["extras"].append(arg[1])
            if arg[1] == "craft":
                p["temp"][arg[2]] -= 3
                self._gain_perm(s, arg[2])
            elif arg[1] == "barter":
                p["coins"] -= 3
                p["temp"][arg[2]] += 1
            else:
                self._fight(s, int(arg[2]))
        elif kind == "end":
            self.turn = None
            self.step_i += 1
        else:
            self._point(s, text)
            tr["points"] -= 1
            if tr["points"] <= 0:
                tr["main"] = "done"

    def _fight(self, s: int, r: int) -> None:
        p = self.players[s]
        reg = self.regions[r]
        tile = reg["sea"][-1]
        self._dirty = True
        p["weapons"] -= self._fight_cost(s, tile)
        reg["w"][s] -= 1
        p["supply"] += 1
        reg["sea"].pop()
        p["sea"].append(tile)
        self._ev(type="fight", seat=s, region=r, tile=tile)
        self._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": self.mods(s)["fight_vp_bonus"]}])

    def _point(self, s: int, text: str) -> None:
        """One point of a main action (DP-10)."""
        p = self.players[s]
        arg = text.split(":")
        kind = arg[0]
        if kind in ("offer", "deck"):
            self._draw(s, text)
        elif kind == "play":
            c = arg[1]
            self._pay(s, D.card_of(c)["cost"])
            p["hand"].remove(c)
            if c in p["known"]:
                p["known"].remove(c)
            p["play"].append(c)
            self._dirty = True
            self._ev(type="play", seat=s, card=c)
            self._push(s, D.card_of(c)["effect"])
        elif kind in ("farm", "city", "tower", "ship"):
            self._build(s, kind, arg[1:])
        elif kind == "step":
            self._ship_step(s, arg[1])
        elif kind == "recruit":
            k = min(D.C["warriors_per_expand_point"], p["supply"])
            p["supply"] -= k
            p["reserve"] += k
        elif kind == "deploy":
            k = int(arg[2])
            p["reserve"] -= k
            self._enter(s, int(arg[1]), k)
        elif kind == "march":
            k = int(arg[3])
            self.regions[int(arg[1])]["w"][s] -= k
            self._enter(s, int(arg[2]), k)

    def _build(self, s: int, kind: str, arg: list[str]) -> None:
        """Build one piece in the fixed order of rules §5.3."""
        p = self.players[s]
        self._dirty = True
        self._pay(s, D.BUILDINGS[kind]["cost"])
        if kind == "farm":
            r = int(arg[0])
            self.regions[r]["w"][s] -= 1
            p["supply"] += 1
        slot = D.PIECES_ON_BOARD[kind] - p["board"][kind]
        p["board"][kind] -= 1
        after: list[dict] = []
        if kind == "farm":
            icon = int(arg[1])
            self.regions[r]["farms"][icon] = s
            after = [{"op": "temp_good", "good": D.REGIONS[r]["icons"][icon], "n": 1}]
        elif kind == "city":
            r = int(arg[0])
            reg = self.regions[r]
            reg["city"] = s
            if reg["found"]:
                p["found"].append(reg["found"])
                after = list(D.FOUNDATIONS[reg["found"]]["effect"])
                reg["found"] = ""
        elif kind == "tower":
            self.regions[int(arg[0])]["tower"] = True
        else:
            route = arg[0]
            p["ships"][route] = self.mods(s)["ship_start_space"]
            after = [{"op": "_arrive", "route": route}]
        m = self.mods(s)  # the uncovered slot's modifiers apply from now on
        self._ev(type="build", seat=s, piece=kind, where=":".join(arg))
        self._push(s, list(D.UNCOVER[kind][slot]["on_uncover"])
                   + [{"op": "coins", "n": m["building_coins"]}, {"op": "vp", "n": m["building_vp"]}] + after)

    # ------------------------------------------------------------------ palace (DP-12) and final combat (DP-13)

    def palace_limit(self, s: int) -> int:
        return D.PALACE_LIMIT[self.players[s]["tracks"]["influence"]] + self.mods(s)["palace_limit_bonus"]

    def _legal_palace(self) -> list[str]:
        s = self.sim[0]
        p = self.players[s]
        chosen = self.commits[str(s)]
        out = []
        if len(chosen) < self.palace_limit(s):
            spent = sum(self._hand_palace_cost(s, c) for c in chosen if c in p["hand"])
            out += [f"move:{c}" for c in sorted(set(p["play"]) - set(chosen))]
            out += [f"move:{c}" for c in sorted(set(p["hand"]) - set(chosen))
                    if self._hand_palace_cost(s, c) <= p["vp"] - spent]
        return sorted(set(out)) + ["stop"]

    def _do_palace(self, s: int, text: str) -> None:
        if text == "stop":
            self.sim.pop(0)
        else:
            self.commits[str(s)].append(text.split(":")[1])

    def _legal_final_combat(self) -> list[str]:
        return ["fight", "decline"]

    def _do_final_combat(self, s: int, text: str) -> None:
        r = self.commits["region"]
        self.commits = {}
        self.step_i += 1
        if text == "fight":
            p = self.players[s]
            reg = self.regions[r]
            tile = reg["sea"].pop()
            self._dirty = True
            p["weapons"] -= self._fight_cost(s, tile)
            reg["w"][s] -= 1
            p["supply"] += 1
            p["sea"].append(tile)
            self._ev(type="fight", seat=s, region=r, tile=tile)
            self._push(s, D.SEA[tile]["reward"] + [{"op": "vp", "n": self.mods(s)["fight_vp_bonus"]}])

    # ------------------------------------------------------------------ results

    def scores(self) -> list[float]:
        return [float(p["vp"]) for p in self.players]

    def score_breakdown(self) -> list[dict[str, float]]:
        out = []
        for p in self.players:
            d = {k: float(v) for k, v in p["parts"].items()}
            d["total"] = float(p["vp"])
            out.append(d)
        return out

    def bot_breakdown(self) -> dict[str, float]:
        """Rhadamanthus' VP by part (solo only)."""
        d = {k: float(v) for k, v in self.bot["parts"].items()}
        d["total"] = float(self.bot["vp"])
        return d

    def tiebreak(self, s: int) -> int:
        p = self.players[s]
        return p["coins"] + p["weapons"] + len(p["hand"])

    def ranking(self) -> list[int]:
        """Most VP; ties broken by coins + weapons + hand cards, then shared (§12.4 [D-28]). Solo: rank 1 if the
        human beat Rhadamanthus (strictly more VP), else rank 2 (Rhadamanthus took first place)."""
        if self.solo:
            return [1 if self.solo_won() else 2]
        return rank_by_keys([(p["vp"], self.tiebreak(p["seat"])) for p in self.players])

    def solo_won(self) -> bool:
        """Solo: the human wins only with strictly more VP than Rhadamanthus (§12.4)."""
        return self.players[0]["vp"] > self.bot["vp"]

    # ------------------------------------------------------------------ copying and JSON

    _FIELDS = ["n", "solo", "nm", "board_n", "round", "era", "phase", "vp_cat", "players", "bot", "queue", "turn",
               "foraged", "commits", "sim", "step_i", "turn_order", "first", "final_regions", "final_order", "dice", "owner",
               "rows", "retrieved", "stacks", "pile", "in_play", "trade_tiles", "vases", "bonus_action",
               "decks", "discard", "offer", "avail_cards", "avail_abilities"]

    @property
    def turn_order_round4(self) -> list[int]:
        # the turn order of round 4 (the first player marker has already passed when final combat starts)
        k = 2 if self.solo else self.n
        first = (self.first - 1) % k
        return [(first + i) % k for i in range(k)]

    def clone(self) -> "MinosState":
        new = MinosState(self.game)
        d = {k: getattr(self, k) for k in self._FIELDS}
        d["regions"] = self.regions
        d = pickle.loads(pickle.dumps(d, -1))
        new.__dict__.update(d)
        new.rng = SplitMix64(self.rng.state)
        return new

    def to_json(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self._FIELDS}
        d = pickle.loads(pickle.dumps(d, -1))
        d["regions"] = [[r, reg] for r, reg in sorted(self.regions.items())]
        d["rng"] = str(self.rng.state)  # a 64-bit integer: a string, so JSON readers never round it
        return d

    @classmethod
    def from_json(cls, game, data: dict[str, Any]) -> "MinosState":
        new = cls(game)
        d = copy.deepcopy(data)
        new.regions = {int(r): reg for r, reg in d.pop("regions")}
        new.rng = SplitMix64(int(d.pop("rng")))
        new.__dict__.update(d)
        return new

    def observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)
