"""The Minos position and its rules engine.

A `MinosState` holds everything: the board, each seat's resources, the decks, the dice, the seeded RNG and a
*work queue* of effect operations still to resolve. Every field is declared, typed, in `position.py`
(`MinosPosition`). Effects (cards, slot bonuses, track spaces, tiles) are lists of primitive operations
(`rules.md` §2.4); they are copied into the queue with the seat that resolves them and run front first. An
operation that needs a choice (a good of any type, a card from the offer or deck, a region to deploy to, ...)
stops the queue and becomes the current decision; `apply()` answers it and the queue runs on. When the queue is
empty the current *phase* decides what happens next (setup draft, dice draft, groups, action turns, income,
palace, scoring, final combat), through the dispatch tables `AUTO_STEP`, `LEGAL` and `DO` below, which lead to
the plain functions of each phase's module. Every automatic
step, and every move of the solo opponent Rhadamanthus, happens inside `apply()` (and at setup), so
`current_player()` is always a human seat.

Seats: human seats are 0..players-1. On the map, warriors and buildings are kept per *map seat*: the human
seats, plus map seat 1 for Rhadamanthus in solo games (`BOT`).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any, ClassVar

from arena.games import base
from arena.games.base import Action, Event, IllegalAction
from arena.games.minos import data as D
from arena.games.minos import draft, end_of_round, final_combat, scoring, setup, turn
from arena.games.minos.actions import MinosAction
from arena.games.minos.effects import choice_options, choose, execute
from arena.games.minos.observation import PUBLIC, observe
from arena.games.minos.position import BOT, MinosPosition, Region
from arena.games.minos.vases import checkpoint
from arena.games.rng import SplitMix64

__all__ = ["BOT", "MinosState"]

A = MinosAction
_ACTIONS: dict[str, MinosAction] = {}  # actions are values: one shared instance per text (bounded cache)


def _intern(text: str) -> MinosAction:
    a = MinosAction(text)
    if len(_ACTIONS) < 50_000:
        _ACTIONS[text] = a
    return a


class MinosState(MinosPosition):
    """One Minos position. Build it with `MinosGame.new_state(seed)`.

    This class ties the phases together: the State interface, the driver that runs automatic steps, copying
    and JSON. Its fields and shared helpers are declared in `MinosPosition` (`position.py`); each phase's rules
    are plain functions over that position in a module of this package (`setup`, `draft`, `turn`, `effects`,
    `end_of_round`, `vases`, `final_combat`, `scoring`), and the phase and decision names lead to them through
    the explicit tables `AUTO_STEP`, `LEGAL` and `DO`."""

    __slots__ = ()

    def __init__(self, game: base.Game, seed: int | None = None):
        self.game = game
        self.events = None
        self._legal_cache = None
        self._dirty = True
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
        self.players = [setup.new_player(s) for s in range(n)]
        self.bot = setup.new_bot(D.SOLO["difficulty_start_vp"][game.options["difficulty"]]) if self.solo else None
        self.queue = []
        self.turn = None
        self.foraged = []
        self.commits = {}
        self.sim = []        # seats still to decide in the current sequential/simultaneous step
        self.step_i = 0
        self.turn_order = []
        self.first = 0
        self.final_regions: list[int] = []
        self.final_order: list[int] = []
        # dice
        self.dice = {}  # id -> [colour, value]
        for colour in D.COLOURS:
            for k in range(1, D.DATA["dice"]["colours"][colour] - D.DICE_REMOVE[n][colour] + 1):
                self.dice[f"{D.COLOUR_LETTER[colour]}{k}"] = [colour, 0]
        self.owner = {}
        self.rows = {r: [] for r in D.ROWS}
        self.retrieved = []
        # goods
        self.stacks = dict.fromkeys(D.GOODS, D.DATA["permanent_goods_setup"]["face_up_per_type"])
        self.pile = [g for g in D.GOODS for _ in range(D.DATA["goods"][0]["permanent_tiles_total"]
                                                       - D.DATA["permanent_goods_setup"]["face_up_per_type"])]
        # map
        self.in_play = list(D.IN_PLAY[self.board_n])
        self.regions = {
            r: Region(w=[0] * self.nm, city=-1, tower=False, farms=[-1, -1], found="", sea=[]) for r in self.in_play}
        self.trade_tiles = list(D.TRADE_TILES)
        setup.setup(self)

    # ------------------------------------------------------------------ State interface

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list[Action]:
        return [_ACTIONS.get(t) or _intern(t) for t in self._legal_texts()]

    def _legal_texts(self) -> list[str]:
        # cached until the next apply(): policies ask, then apply() checks the same list
        cached = self._legal_cache
        if cached is not None:
            return cached
        out: list[str]
        if self.phase == "over":
            out = []
        elif self.queue:
            out = choice_options(self, self.queue[0])
        else:
            out = self.LEGAL[self.decision()](self)
        self._legal_cache = out
        return out

    def apply(self, action: object) -> list[Event]:  # object: anything else is an IllegalAction, not a TypeError
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
        events: list[Event] = [{"type": "decision", "seat": seat, "action": text, "decision": self.decision()}]
        self.events = events
        if self.queue:
            choose(self, self.queue[0], text)
        else:
            self.DO[self.decision()](self, seat, text)
        self._advance()
        return events

    #: Simultaneous or face-down decisions (E-03, D-15, D-33): another seat never sees their text. The setup
    #: keep stays secret for good (the cards not kept go face down to the discard); DP-5 and DP-12 palace
    #: cards, and DP-7 groups, become public through the events and observations once every seat has
    #: committed, not through the text.
    HIDDEN_DECISIONS = frozenset({"keep", "setup_palace", "groups", "palace"})

    def redact_decision(self, actor: int, viewer: int, action_text: str,
                        events: list[Event]) -> tuple[str | None, list[Event]]:
        """Another seat's decision as `viewer` may see it (rules §15.4-15.5, E-03).

        Hidden (text None; the `decision` event keeps its seat and decision name, its `action` becomes ""):
        every `keep`, `setup_palace`, `groups` and `palace` decision. Everything else is public: the board,
        the offer, played cards, palace cards and their traits (E-20), and the dice are seen by all."""
        if actor == viewer or self.decision() not in self.HIDDEN_DECISIONS:
            return action_text, events
        shown = [{**e, "action": ""} if e.get("type") == "decision" else e for e in events]
        return None, shown

    # ------------------------------------------------------------------ the driver

    def _advance(self) -> None:
        """Run automatic steps until a human decision is pending or the game is over."""
        while True:
            while self.queue:
                if execute(self, self.queue[0]):
                    return
            if self.phase in ("actions", "final_combat") and self._dirty:
                checkpoint(self)
            if self.AUTO_STEP[self.phase](self):
                return


    #: Each phase's automatic step (in its module): it runs what needs no decision and returns True when a
    #: human decision is pending.
    AUTO_STEP: ClassVar[dict[str, Callable[[MinosPosition], bool]]] = {
        "setup_pick": setup.auto_setup_pick, "start_region": setup.auto_start_region, "keep": setup.auto_keep,
        "draft": draft.auto_draft, "groups": draft.auto_groups, "groups_apply": draft.auto_groups_apply,
        "actions": turn.auto_actions, "income": end_of_round.auto_income, "palace": end_of_round.auto_palace,
        "final_combat": final_combat.auto_final_combat, "over": lambda st: True,
    }
    #: The legal action texts of each decision asked outside the effect queue (`decision()`).
    LEGAL: ClassVar[dict[str, Callable[[MinosPosition], list[str]]]] = {
        "setup_pick": setup.legal_setup_pick, "start_region": setup.legal_start_region,
        "keep": setup.legal_keep, "setup_palace": setup.legal_setup_palace,
        "draft": draft.legal_draft, "groups": draft.legal_groups,
        "retrieve": turn.legal_retrieve, "turn": turn.legal_turn,
        "palace": end_of_round.legal_palace, "final_combat": final_combat.legal_final_combat,
    }
    #: How each of those decisions applies the chosen text for its seat.
    DO: ClassVar[dict[str, Callable[[MinosPosition, int, str], None]]] = {
        "setup_pick": setup.do_setup_pick, "start_region": setup.do_start_region,
        "keep": setup.do_keep, "setup_palace": setup.do_setup_palace,
        "draft": draft.do_draft, "groups": draft.do_groups,
        "retrieve": turn.do_retrieve, "turn": turn.do_turn,
        "palace": end_of_round.do_palace, "final_combat": final_combat.do_final_combat,
    }

    # ------------------------------------------------------------------ copying and JSON

    def clone(self) -> MinosState:
        new = MinosState(self.game)
        d = {k: getattr(self, k) for k in self.SAVED}
        d["regions"] = self.regions
        for k, v in pickle.loads(pickle.dumps(d, -1)).items():
            setattr(new, k, v)
        new.rng = SplitMix64(self.rng.state)
        return new

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain JSON: an independent snapshot (nothing in it is shared with the live
        state, so editing one never changes the other)."""
        d = {k: getattr(self, k) for k in self.SAVED}
        d["regions"] = [[r, reg] for r, reg in sorted(self.regions.items())]
        d = pickle.loads(pickle.dumps(d, -1))  # one deep copy of everything, regions included
        d["rng"] = str(self.rng.state)  # a 64-bit integer: a string, so JSON readers never round it
        return d

    @classmethod
    def from_json(cls, game: base.Game, data: dict[str, Any]) -> MinosState:
        """The state `to_json()` wrote (`data` is not kept: the state gets its own copy). A key that is not a
        field raises ValueError."""
        new = cls(game)
        d = copy.deepcopy(data)
        new.regions = {int(r): reg for r, reg in d.pop("regions")}
        new.rng = SplitMix64(int(d.pop("rng")))
        unknown = set(d) - set(cls.SAVED)
        if unknown:
            raise ValueError(f"not fields of a Minos state: {', '.join(sorted(unknown))}")
        for k, v in d.items():
            setattr(new, k, v)
        return new

    def observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def public_observation(self) -> dict[str, Any]:
        return observe(self, PUBLIC)

    # ------------------------------------------------------------------ results (`scoring`)

    def scores(self) -> list[float]:
        return scoring.scores(self)

    def ranking(self) -> list[int]:
        return scoring.ranking(self)

    def score_breakdown(self) -> list[dict[str, float]]:
        return scoring.score_breakdown(self)

    def engine_opponent_results(self) -> list[dict[str, Any]]:
        return scoring.engine_opponent_results(self)

    def solo_won(self) -> bool:
        """Solo: the human wins only with strictly more VP than Rhadamanthus (§12.4)."""
        return scoring.solo_won(self)
