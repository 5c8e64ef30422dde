"""Determinization: a full Minos state consistent with what one seat observes, its hidden parts sampled.

`determinize(game, observation, rng)` rebuilds a `MinosState` from `observation(seat)` (the seat's view, as the
DecideRequest carries it) and samples what the seat cannot see from what is still possible:

- the cards nobody has seen (the Era I and Era II cards not in the offer, in a play area, a palace, a hand the
  seat saw or its own hand and setup draw) are dealt at random to the other seats' unseen hand cards (so many
  of each era as the observation counts), their setup draws, the two decks and the two discard piles, each in a
  random order;
- the face-down goods pile: the tiles of each type not face up and not held, in a random order;
- each Level II Sea Peoples tile still covered by a Level I tile: one of the Level II tiles not yet seen;
- Rhadamanthus' deck (solo): the bot cards it has not drawn this round, with a card of the visible back on top;
- another seat's hidden simultaneous choice once it has committed (setup keep and palace card, groups): a legal
  choice at random; a committed palace decision: moving no card (every such choice is possible);
- the random generator (dice still to roll, shuffles still to come): a fresh state.

Public parts of the position that the observation does not carry are rebuilt exactly where they follow from it
(the draft and turn step, the simultaneous step's order, the final-combat order, the front of the effect queue).
Three are not in the observation and are approximated: the effect operations queued *behind* the pending choice
(only the front one is shown; the sample drops the rest, so a search may miss e.g. the coin that follows a good
of the same card); while a final-combat reward is chosen, which regions the combat has already passed (the
sample lets it visit again those still holding a tile); and which of the seat's own hand cards it took from the
offer (it decides only which copy of two identical cards others can tell apart; taken from the request's legal
actions when they show it).

Contract (tested in tests/arena/minos/test_determinize.py over thousands of positions): the sampled state's
`observation(seat)` equals the given observation and its legal actions are the seat's legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from arena.games.minos import data as D
from arena.games.minos.draft import group_options
from arena.games.minos.final_combat import turn_order_round4
from arena.games.minos.position import BOT, Player
from arena.games.minos.setup import BOT_PARTS, PLAYER_PARTS
from arena.games.minos.state import MinosState
from arena.games.rng import SplitMix64

if TYPE_CHECKING:
    from arena.games.minos.game import MinosGame

__all__ = ["Determinizer", "determinize"]

#: the keys of a queued choice, by operation, as the observation's `choice` shows it (op without its "_")
_CHOICE_KEYS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "temp_good": ("temp_good", ("good", "n")), "perm_good": ("perm_good", ("good",)),
    "track": ("track", ("track", "n")), "draw_card": ("draw_card", ("n",)), "deploy": ("deploy", ("n",)),
    "march": ("march", ("n",)), "ship_step": ("ship_step", ("n",)), "forage": ("_forage", ("r",)),
    "trade": ("_trade", ("colour",)),
}


def _ordered(values: dict[str, Any], keys: Sequence[str]) -> dict[str, int]:
    """A map in the engine's key order (protobuf maps come in any order)."""
    out = {k: int(values[k]) for k in keys if k in values}
    out.update({k: int(v) for k, v in values.items() if k not in out})
    return out


def _queue_front(choice: dict[str, Any], seat: int) -> dict[str, Any]:
    """The pending effect operation the observation's `choice` shows, for `seat`."""
    known = choice["op"] in _CHOICE_KEYS
    op, keys = _CHOICE_KEYS.get(choice["op"], (choice["op"], ("n",)))
    task: dict[str, Any] = {"op": op}
    for k in keys:
        if k == "n":
            task["n"] = int(choice.get("n", 1))
        elif k == "r":
            task["r"] = int(choice.get("region", 0))
        else:
            task[k] = choice.get("detail", "")
    if not known and choice.get("detail"):  # an operation this module does not know yet: a best guess
        task["good"] = choice["detail"]
    task["p"] = seat
    return task


class _Deal:
    """The unseen cards of one era, dealt out in random order."""

    def __init__(self, cards: list[str], rng: random.Random):
        self.cards = cards
        rng.shuffle(self.cards)

    def take(self, k: int) -> list[str]:
        taken, self.cards = self.cards[:k], self.cards[k:]
        return taken


def determinize(game: MinosGame, observation: dict[str, Any], rng: random.Random,
                legal: Sequence[str] | None = None) -> MinosState:
    """A state of `game` whose `observation(seat)` is `observation`, its hidden parts drawn with `rng` (see the
    module docstring). `legal`, the seat's legal action texts when known, settles which of its own copies of a
    card were taken from the offer. Raises ValueError on an observation of another game or player count."""
    obs = observation
    n = game.players
    if int(obs.get("players", n)) != n:
        raise ValueError(f"a {obs.get('players')}-player observation for a {n}-player game")
    viewer = int(obs["seat"])
    current = int(obs["current_player"])
    solo = n == 1
    board_n = 2 if solo else n
    st = MinosState(game)
    st.n, st.solo, st.nm, st.board_n = n, solo, 2 if solo else n, board_n
    st.round, st.era, st.phase = int(obs["round"]), obs["era"], obs["phase"]
    st.vp_cat = "final_combat" if st.phase == "final_combat" else "play"
    st.first = int(obs.get("first_player", 0))
    st.turn_order = [int(s) for s in obs.get("turn_order", [])]
    humans = [s for s in st.turn_order if not (solo and s == BOT)]
    views = obs["player_states"]

    # --- cards: who holds what, and what nobody has seen
    seen: Counter[str] = Counter(c for c in obs.get("offer", []) if c)
    for v in views:
        seen.update(v.get("hand", []))
        seen.update(v.get("play_area", []))
        seen.update(x["card"] for x in v.get("palace", []))
        seen.update(v.get("setup_drawn", []))
    bot_view = obs.get("bot") or {}
    seen.update(bot_view.get("face_down_cards", []))
    seen.update(bot_view.get("face_up_cards", []))
    deal = {era: _Deal([c for c in D.DECK_INSTANCES[era] if not seen[c]], rng) for era in ("I", "II")}

    players: list[Player] = []
    for s, v in enumerate(views):
        own = s == viewer
        hand = list(v.get("hand", []))
        known: list[str] = [] if own else list(hand)
        drawn = list(v.get("setup_drawn", []))
        if not own:
            hand += deal["I"].take(int(v.get("hand_unknown_i", 0)))
            hand += deal["II"].take(int(v.get("hand_unknown_ii", 0)))
            drawn = deal["I"].take(int(v.get("setup_drawn_count", 0)))
        players.append({
            "seat": s, "coins": int(v["coins"]), "weapons": int(v["weapons"]), "vp": int(v["vp"]),
            "parts": _ordered(v.get("vp_parts", {}), PLAYER_PARTS),
            "temp": _ordered(v.get("temp_goods", {}), D.GOODS), "perm": _ordered(v.get("perm_goods", {}), D.GOODS),
            "hand": hand, "known": known, "play": list(v.get("play_area", [])),
            "palace": [x["card"] for x in v.get("palace", [])], "palace_open": [], "drawn": drawn,
            "income": int(v["income"]), "ability": v.get("ability", ""), "level": int(v.get("ability_level", 0)),
            "start_card": v.get("start_card", ""), "start_region": int(v.get("start_region", 0)),
            "tracks": _ordered(v.get("tracks", {}), D.TRACKS), "supply": int(v["supply"]),
            "reserve": int(v["reserve"]), "board": _ordered(v.get("pieces_on_board", {}), list(D.PIECES_ON_BOARD)),
            "ships": _ordered(v.get("ships", {}), D.ROUTES), "sea": list(v.get("sea_peoples_defeated", [])),
            "trade": list(v.get("trade_tiles", [])), "found": list(v.get("foundation_tiles", [])),
        })
    st.players = players
    st.decks = {"I": deal["I"].take(int(obs.get("deck_i", 0))), "II": deal["II"].take(int(obs.get("deck_ii", 0)))}
    st.discard = {"I": deal["I"].take(int(obs.get("discard_i", 0))),
                  "II": deal["II"].take(int(obs.get("discard_ii", 0)))}
    st.offer = list(obs.get("offer", []))
    st.avail_cards = list(obs.get("available_starting_cards", []))
    st.avail_abilities = list(obs.get("available_abilities", []))

    # --- goods, tiles, vases
    st.stacks = _ordered(obs.get("goods_stacks", {}), D.GOODS)
    totals = {g["id"]: g["permanent_tiles_total"] for g in D.DATA["goods"]}
    pile = [g for g in D.GOODS
            for _ in range(totals[g] - st.stacks.get(g, 0) - sum(p["perm"].get(g, 0) for p in players))]
    pile_n = int(obs.get("goods_pile", 0))
    if len(pile) != pile_n:  # a tile left the game another way: sample the pile's types among all of them
        pile = [rng.choice(D.GOODS) for _ in range(pile_n)]
    rng.shuffle(pile)
    st.pile = pile
    st.trade_tiles = list(obs.get("trade_tiles", []))
    st.bonus_action = obs.get("bonus_action", "")
    st.vases = [{"id": x["id"], "colour": x["colour"],
                 "slots": [[int(sl["vp"]), int(sl["seat"])] for sl in x.get("slots", [])],
                 "achieved": [int(a) for a in x.get("achieved", [])]} for x in obs.get("vases", [])]

    # --- map: the covered Sea Peoples tiles are Level II tiles nobody has seen
    visible_sea: Counter[str] = Counter()
    for reg in obs.get("regions", []):
        visible_sea.update(t for t in reg.get("sea", []) if t != "hidden")
    for v in views:
        visible_sea.update(v.get("sea_peoples_defeated", []))
    visible_sea.update(bot_view.get("sea_peoples_defeated", []))
    covered = list((Counter(D.SEA_INSTANCES[2]) - visible_sea).elements())
    rng.shuffle(covered)
    st.in_play = list(D.IN_PLAY[board_n])
    st.regions = {}
    for reg in obs.get("regions", []):
        sea = [covered.pop() if t == "hidden" and covered else t for t in reg.get("sea", [])]
        st.regions[int(reg["id"])] = {"w": [int(w) for w in reg["warriors"]], "city": int(reg["city"]),
                                      "tower": bool(reg.get("tower", False)),
                                      "farms": [int(f) for f in reg["farms"]],
                                      "found": reg.get("foundation", ""), "sea": sea}

    # --- dice and the action board
    st.dice, st.owner, st.retrieved = {}, {}, []
    st.rows = {r: [] for r in D.ROWS}
    placed = []
    for die in obs.get("dice", []):
        d = die["id"]
        st.dice[d] = [die["colour"], int(die["value"])]
        if int(die.get("owner", -1)) >= 0:
            st.owner[d] = int(die["owner"])
        if die.get("row"):
            placed.append((die["row"], int(die["slot"]), d))
        if die.get("retrieved"):
            st.retrieved.append(d)
    for row, _, d in sorted(placed):
        st.rows[row].append(d)

    # --- Rhadamanthus (solo)
    st.bot = None
    if solo:
        b = bot_view
        drawn = list(b.get("drawn_cards", []))
        pool = [c for c in sorted(D.BOT_DECK) if c not in drawn]
        rng.shuffle(pool)
        back = list(b.get("deck_top_back", []))
        top = next((i for i, c in enumerate(pool) if D.BOT_DECK[c]["back"]["action_priority"] == back), 0)
        if pool:
            pool.insert(0, pool.pop(top))
        st.bot = {"vp": int(b.get("vp", 0)), "parts": _ordered(b.get("vp_parts", {}), BOT_PARTS),
                  "supply": int(b.get("supply", 0)), "board": _ordered(b.get("pieces_left", {}), ["city", "farm"]),
                  "ships": _ordered(b.get("ships", {}), D.ROUTES), "deck": pool[:int(b.get("deck_size", 0))],
                  "drawn": drawn, "down": list(b.get("face_down_cards", [])),
                  "up": list(b.get("face_up_cards", [])), "pop": int(b.get("population_space", 0)),
                  "intent": {w["die"]: w["action"] for w in b.get("wild_intents", [])},
                  "sea": list(b.get("sea_peoples_defeated", [])), "start_region": int(b.get("start_region", 0))}

    # --- where the game is: turn, queue, simultaneous step, sequence positions
    tr = obs.get("turn")
    st.turn = None if not tr else {
        "seat": int(tr["seat"]), "die": tr["die"], "row": tr["row"], "slot": int(tr["slot"]),
        "strength": int(tr["strength"]), "bonus": bool(tr.get("bonus_pending", False)),
        "traits": list(tr.get("traits", [])), "main": tr["main"], "action": tr.get("action", ""),
        "points": int(tr.get("points", 0)), "pre": int(tr.get("pre_bonus", 0)),
        "extras": list(tr.get("extras_used", []))}
    st.queue = [_queue_front(obs["choice"], current)] if obs.get("choice") and obs["choice"].get("op") else []
    st.foraged = []
    st.final_order, st.final_regions = [], []
    st.commits, st.sim, st.step_i = {}, [], 0
    committed = {s: bool(v.get("committed")) for s, v in enumerate(views)}
    phase = st.phase
    if phase == "setup_pick":
        picks = sum(bool(p["start_card"]) + bool(p["ability"]) for p in players)
        step = picks if picks < n else 2 * n - 1 - picks
        picker = (current - step) % n
        order = [(picker + i) % n for i in range(n)]
        st.sim = (order + order[::-1])[picks:]
    elif phase == "start_region":
        st.sim = [current] if board_n == 2 else [s for s in st.turn_order[::-1] if not players[s]["start_region"]]
    elif phase == "keep":
        st.sim = [s for s in humans if s == current or not committed[s]]
        for s in humans:
            if s == viewer:
                pending = list(views[s].get("pending", []))
                keep = [c for c in pending if not c.startswith("palace:")]
                if keep:
                    st.commits[str(s)] = keep
                pal = [c[7:] for c in pending if c.startswith("palace:")]
                if pal:
                    st.commits[f"{s}p"] = pal[0]
            elif committed[s]:
                k = D.STARTING[players[s]["start_card"]]["setup_keep"]
                options = list(combinations(players[s]["drawn"], k)) or [tuple(players[s]["drawn"])]
                kept = list(rng.choice(options))
                st.commits[str(s)] = kept
                st.commits[f"{s}p"] = rng.choice(kept) if kept else ""
    elif phase in ("groups", "palace"):
        st.sim = [s for s in humans if not committed[s]]
        if phase == "palace":
            st.commits = {str(s): [] for s in humans}
        for s in humans:
            if s == viewer and (phase == "palace" or committed[s]):
                st.commits[str(s)] = [c.split(":", 1)[-1] for c in views[s].get("pending", [])]
            elif phase == "groups" and committed[s]:
                st.commits[str(s)] = rng.choice(group_options(st, s))
    elif phase == "draft":
        st.step_i = len(st.owner)
    elif phase == "actions":
        st.step_i = len(st.retrieved) - (st.turn is not None)
    elif phase == "final_combat":
        st.final_order = turn_order_round4(st)
        region = int(obs.get("combat_region") or 0)  # region ids start at 1: 0 is "none" (protobuf default)
        if region:  # the holder decides whether to fight there
            st.final_regions = [r for r in sorted(st.regions) if r >= region and st.regions[r]["sea"]]
            st.commits = {"holder": current, "region": region}
        else:  # a fight's reward is being chosen: which regions were passed is not shown (see the docstring)
            st.final_regions = [r for r in sorted(st.regions) if st.regions[r]["sea"]]
    if legal is not None:
        _settle_known(st, viewer, legal)
    st.rng = SplitMix64(rng.getrandbits(64))
    st.events = None
    st._legal_cache = None
    st._dirty = True
    return st


def _settle_known(st: MinosState, seat: int, legal: Sequence[str]) -> None:
    """Own copies of one card that the legal actions name separately: all but the first were taken from the
    offer (others can tell them apart), as `distinct_copies` shows them."""
    if not 0 <= seat < st.n:
        return
    named = {t.split(":", 1)[1] for t in legal if t.startswith(("play:", "move:"))}
    p = st.players[seat]
    by_card: dict[str, list[str]] = {}
    for c in sorted(set(p["hand"]) & named):
        by_card.setdefault(c.split("#", 1)[0], []).append(c)
    p["known"] = [c for copies in by_card.values() for c in copies[1:]]


class Determinizer:
    """Samples of one observation, many times (the interface `arena_bot.forward.Sampler` uses for every game):
    each `sample(rng)` is `determinize(game, observation, rng, legal)`."""

    def __init__(self, game: MinosGame, observation: dict[str, Any], legal: Sequence[str] | None = None):
        self.game = game
        self.observation = observation
        self.legal = legal

    def sample(self, rng: random.Random) -> MinosState:
        return determinize(self.game, self.observation, rng, self.legal)
