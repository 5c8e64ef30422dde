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
from typing import Any, ClassVar, Final

from arena.games import base
from arena.games.base import Action, Event, IllegalAction
from arena.games.minos import data as D
from arena.games.minos import draft, end_of_round, final_combat, scoring, setup, turn
from arena.games.minos.actions import MinosAction
from arena.games.minos.effects import choice_options, choose, execute
from arena.games.minos.observation import PUBLIC, observe
from arena.games.minos.position import BOT, Bot, MinosPosition, Player, Region, Turn, Vase
from arena.games.minos.vases import checkpoint
from arena.games.rng import SplitMix64

__all__ = ["BOT", "MinosState"]

A = MinosAction
_ACTIONS: Final[dict[str, MinosAction]] = {}  # actions are values: one shared instance per text (bounded cache)


def _intern(text: str) -> MinosAction:
    a = MinosAction(text)
    if len(_ACTIONS) < 50_000:
        _ACTIONS[text] = a
    return a


def _json(v: Any) -> Any:
    """A deep copy of JSON-like data: dicts, lists and tuples copied all the way down, other values shared (they
    are immutable: str, int, float, bool, None)."""
    if isinstance(v, dict):
        return {k: _json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_json(x) for x in v]
    if isinstance(v, tuple):
        return tuple([_json(x) for x in v])
    return v


# The records of `position.py`, copied as deep as their declared types go: every list or dict in them holds
# only immutable values, but `Vase.slots` (a list of lists).
def _player(p: Player) -> Player:
    q = p.copy()
    q["parts"] = p["parts"].copy()
    q["temp"] = p["temp"].copy()
    q["perm"] = p["perm"].copy()
    q["tracks"] = p["tracks"].copy()
    q["board"] = p["board"].copy()
    q["ships"] = p["ships"].copy()
    q["hand"] = p["hand"].copy()
    q["known"] = p["known"].copy()
    q["play"] = p["play"].copy()
    q["palace"] = p["palace"].copy()
    q["palace_open"] = p["palace_open"].copy()
    q["drawn"] = p["drawn"].copy()
    q["sea"] = p["sea"].copy()
    q["trade"] = p["trade"].copy()
    q["found"] = p["found"].copy()
    return q


def _bot(b: Bot) -> Bot:
    q = b.copy()
    q["parts"] = b["parts"].copy()
    q["board"] = b["board"].copy()
    q["ships"] = b["ships"].copy()
    q["deck"] = b["deck"].copy()
    q["drawn"] = b["drawn"].copy()
    q["down"] = b["down"].copy()
    q["up"] = b["up"].copy()
    q["intent"] = b["intent"].copy()
    q["sea"] = b["sea"].copy()
    return q


def _turn(t: Turn) -> Turn:
    q = t.copy()
    q["traits"] = t["traits"].copy()
    q["extras"] = t["extras"].copy()
    return q


def _region(r: Region) -> Region:
    q = r.copy()
    q["w"] = r["w"].copy()
    q["farms"] = r["farms"].copy()
    q["sea"] = r["sea"].copy()
    return q


def _vase(v: Vase) -> Vase:
    q = v.copy()
    q["slots"] = [slot.copy() for slot in v["slots"]]
    q["achieved"] = v["achieved"].copy()
    return q


def _task(t: dict[str, Any]) -> dict[str, Any]:
    return {k: _json(x) for k, x in t.items()}


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

    def legal_texts(self) -> list[str]:
        """The legal actions' texts, in `legal_actions()` order (the list is the state's cache: do not modify
        it). Cheaper than `legal_actions()` for a caller that chooses by text, as rollouts do."""
        return self._legal_texts()

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
        decision = self.decision()
        self._legal_cache = None
        events: list[Event] = [{"type": "decision", "seat": seat, "action": text, "decision": decision}]
        self.events = events
        if self.queue:
            choose(self, self.queue[0], text)
        else:
            self.DO[decision](self, seat, text)
        self._advance()
        return events

    def step(self, action: object) -> None:
        """Play an action of this state's `legal_actions()` (or its text, of `legal_texts()`) without checking it
        and without building events: the fast path for search rollouts (`arena.games.minos.rollout`). Anything
        else is undefined."""
        text = action if isinstance(action, str) else str(action)
        self._legal_cache = None
        self.events = None
        if self.queue:
            choose(self, self.queue[0], text)
        else:
            self.DO[self.decision()](self, self.current_player(), text)
        self._advance()

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
        """An independent copy: nothing mutable is shared with this state (tests/arena/minos/test_clone.py checks
        it against a deep copy). Field by field, each record copied as deep as its declared type goes (the
        records in `position.py`), the effect queue and the commits (whose values are any JSON) fully: several
        times faster than the pickle round trip it replaces, the most frequent call of a search."""
        new = MinosState(self.game)
        new.n = self.n
        new.solo = self.solo
        new.nm = self.nm
        new.board_n = self.board_n
        new.round = self.round
        new.era = self.era
        new.phase = self.phase
        new.vp_cat = self.vp_cat
        new.players = [_player(p) for p in self.players]
        bot = self.bot
        new.bot = None if bot is None else _bot(bot)
        new.queue = [_task(t) for t in self.queue]
        turn = self.turn
        new.turn = None if turn is None else _turn(turn)
        new.foraged = [f.copy() for f in self.foraged]
        new.commits = {k: _json(v) for k, v in self.commits.items()}
        new.sim = self.sim.copy()
        new.step_i = self.step_i
        new.turn_order = self.turn_order.copy()
        new.first = self.first
        new.final_regions = self.final_regions.copy()
        new.final_order = self.final_order.copy()
        new.dice = {k: v.copy() for k, v in self.dice.items()}
        new.owner = self.owner.copy()
        new.rows = {k: v.copy() for k, v in self.rows.items()}
        new.retrieved = self.retrieved.copy()
        new.stacks = self.stacks.copy()
        new.pile = self.pile.copy()
        new.in_play = self.in_play.copy()
        new.trade_tiles = self.trade_tiles.copy()
        new.vases = [_vase(v) for v in self.vases]
        new.bonus_action = self.bonus_action
        new.decks = {k: v.copy() for k, v in self.decks.items()}
        new.discard = {k: v.copy() for k, v in self.discard.items()}
        new.offer = self.offer.copy()
        new.avail_cards = self.avail_cards.copy()
        new.avail_abilities = self.avail_abilities.copy()
        new.regions = {r: _region(reg) for r, reg in self.regions.items()}
        new.rng = SplitMix64(self.rng.state)
        new._legal_cache = self._legal_cache  # never modified once built: shared until either state moves
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
