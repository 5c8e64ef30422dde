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
import pickle
from typing import Any

from arena.games.base import TERMINAL, Event, IllegalAction, State
from arena.games.minos import data as D
from arena.games.minos.actions import MinosAction
from arena.games.minos.draft import DraftMixin
from arena.games.minos.effects import EffectsMixin
from arena.games.minos.end_of_round import EndOfRoundMixin
from arena.games.minos.final_combat import FinalCombatMixin
from arena.games.minos.observation import observe
from arena.games.minos.rhadamanthus import BOT
from arena.games.minos.scoring import ScoringMixin
from arena.games.minos.setup import SetupMixin, _new_bot, _new_player
from arena.games.minos.turn import TurnMixin
from arena.games.minos.vases import VasesMixin
from arena.games.rng import SplitMix64

__all__ = ["BOT", "MinosState"]

A = MinosAction
_ACTIONS: dict[str, MinosAction] = {}  # actions are values: one shared instance per text (bounded cache)


def _intern(text: str) -> MinosAction:
    a = MinosAction(text)
    if len(_ACTIONS) < 50_000:
        _ACTIONS[text] = a
    return a


class MinosState(TurnMixin, DraftMixin, EffectsMixin, EndOfRoundMixin, FinalCombatMixin, VasesMixin, ScoringMixin,
                 SetupMixin, State):
    """One Minos position. Build it with `MinosGame.new_state(seed)`.

    This class ties the phases together: the State interface, the driver that runs automatic steps, the
    helpers every phase uses, copying and JSON. Each phase's rules live in a mixin module of this package
    (`setup`, `draft`, `turn`, `effects`, `end_of_round`, `vases`, `final_combat`, `scoring`). The bases are
    listed hottest first: `_advance` and `apply` look up `_auto_*`/`_legal_*`/`_do_*` by a built name, which
    the type attribute cache does not serve, so the method resolution order is walked each time."""

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

    # phases with a pending decision return True from their _auto_ step (each phase's step is in its module)
    def _auto_over(self) -> bool:
        return True

    # ------------------------------------------------------------------ copying and JSON

    _FIELDS = ["n", "solo", "nm", "board_n", "round", "era", "phase", "vp_cat", "players", "bot", "queue", "turn",
               "foraged", "commits", "sim", "step_i", "turn_order", "first", "final_regions", "final_order", "dice", "owner",
               "rows", "retrieved", "stacks", "pile", "in_play", "trade_tiles", "vases", "bonus_action",
               "decks", "discard", "offer", "avail_cards", "avail_abilities"]

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
