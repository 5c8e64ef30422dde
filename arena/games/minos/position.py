"""The declared Minos position: every field a `MinosState` holds, typed, and the small helpers every phase uses.

The rules are plain functions over a `MinosPosition`, one module per phase (`setup`, `draft`, `turn`,
`effects`, `end_of_round`, `vases`, `final_combat`, `scoring`, and `rhadamanthus` for the solo opponent): a
phase reads and writes only the fields declared here (as `__slots__`, so a field is found without a dictionary
look-up) and imports the phases it calls, so a type checker sees every attribute and every call, and the files
import one way: down to this module, never back up to the state (`state.py`) that drives them. The nested
records are plain dicts (they are copied, pickled and written to JSON as they are); their keys are declared by
the `TypedDict`s below.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, TypedDict

from arena.games.base import TERMINAL, Event, Game, State
from arena.games.minos import data as D
from arena.games.rng import SplitMix64

#: Map seat of Rhadamanthus in solo games (the human is seat 0).
BOT: Final = 1

#: One effect operation in the work queue (rules §2.4): `{"op": name, "p": seat, ...its arguments}`.
Task = dict[str, Any]


class Player(TypedDict):
    """One human seat's resources and pieces (a record in `MinosPosition.players`)."""

    seat: int
    coins: int
    weapons: int
    vp: int
    parts: dict[str, int]        # VP by source (`setup.PLAYER_PARTS`)
    temp: dict[str, int]         # temporary goods by type
    perm: dict[str, int]         # permanent goods by type
    hand: list[str]              # card instances
    known: list[str]             # hand cards others saw (taken from the offer)
    play: list[str]              # play area
    palace: list[str]
    palace_open: list[str]       # palace cards that came from the play area
    drawn: list[str]             # the setup draw, until the keep decision is applied
    income: int                  # income track space
    ability: str                 # ability tile id ("" before the setup draft)
    level: int                   # ability level 0..3
    start_card: str
    start_region: int
    tracks: dict[str, int]       # influence, population, culture
    supply: int
    reserve: int
    board: dict[str, int]        # pieces still on the player board
    ships: dict[str, int]        # route -> space (0: no ship)
    sea: list[str]               # Sea Peoples tiles defeated
    trade: list[str]             # trade bonus tiles taken
    found: list[str]             # city foundation tiles taken


class Bot(TypedDict):
    """Rhadamanthus in solo games (rules §14)."""

    vp: int
    parts: dict[str, int]        # `setup.BOT_PARTS`
    supply: int
    board: dict[str, int]        # city, farm
    ships: dict[str, int]
    deck: list[str]              # bot cards, top first
    drawn: list[str]
    down: list[str]              # cards taken face down (prepare)
    up: list[str]                # cards taken face up (develop)
    pop: int                     # population space used for region scoring
    intent: dict[str, str]       # wild die -> the action it will perform
    sea: list[str]
    start_region: int


class Region(TypedDict):
    """One region in play."""

    w: list[int]                 # warriors per map seat
    city: int                    # map seat, -1 none
    tower: bool
    farms: list[int]             # per icon: map seat, -1 uncovered
    found: str                   # city foundation tile still on it ("" none)
    sea: list[str]               # Sea Peoples tiles, top last


class Turn(TypedDict):
    """The action turn under way (rules §5)."""

    seat: int
    die: str
    row: str
    slot: int
    strength: int
    bonus: bool                  # slot bonus still to take
    traits: list[str]            # triggered palace cards not yet resolved
    main: str                    # "pending", "active" or "done"
    action: str                  # the main action being performed
    points: int                  # points left in it
    pre: int                     # action bonus gained before it started
    extras: list[str]            # extra actions used: craft, fight, barter


class Vase(TypedDict):
    id: str
    colour: str
    slots: list[list[int]]       # [vp, seat (-1 free)]
    achieved: list[int]


def _modifiers(p: Player) -> dict[str, int]:
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


#: ability -> (level and the pieces of each kind left on the board, as the digits of one number) -> the
#: modifiers they give (`mods`): one string and one small-integer look-up, no key tuple to build and hash
_MODS: Final[dict[str, dict[int, dict[str, int]]]] = {}
#: the pieces whose uncovered slots give modifiers
_UNCOVER_PIECES: Final[tuple[str, ...]] = tuple(D.UNCOVER)


#: board player count -> (action row, its slots), in row order (`_free_rows`)
ROW_SLOTS: Final[dict[int, list[tuple[str, int]]]] = {
    n: [(r, len(board[r])) for r in D.ROWS] for n, board in D.BOARD.items()}


class MinosPosition(State):
    """Every field of a Minos position, and the helpers all phases share. Not built directly: see
    `MinosState`. The fields are listed in `SAVED` order (what `clone()` and `to_json()` copy), then the ones
    copied specially (`regions`, `rng`) and the transient ones (never saved)."""

    #: The fields `clone()` and `to_json()` copy as they are, in this order.
    SAVED: ClassVar[tuple[str, ...]] = ("n", "solo", "nm", "board_n", "round", "era", "phase", "vp_cat", "players", "bot", "queue", "turn",
             "foraged", "commits", "sim", "step_i", "turn_order", "first", "final_regions", "final_order", "dice",
             "owner", "rows", "retrieved", "stacks", "pile", "in_play", "trade_tiles", "vases", "bonus_action",
             "decks", "discard", "offer", "avail_cards", "avail_abilities")

    __slots__ = SAVED + ("regions", "rng", "game", "events", "_legal_cache", "_dirty")

    # --- the game
    game: Game                   # the MinosGame (typed by its base: the rules never import the game)
    n: int                       # human seats
    solo: bool
    nm: int                      # map seats (solo: 2, the bot on BOT)
    board_n: int                 # player count whose action board, map and dice are used (solo: 2)
    rng: SplitMix64
    # --- where the game is
    round: int
    era: str                     # "I" or "II"
    phase: str
    vp_cat: str                  # the VP part that unlabelled VP gains count in
    step_i: int                  # position in the current draft / turn / final combat sequence
    turn_order: list[int]        # map seats
    first: int
    sim: list[int]               # seats still to decide in the current simultaneous step
    commits: dict[str, Any]      # simultaneous choices by seat (str), or the final combat's holder/region
    queue: list[Task]            # the effect work queue, front first
    turn: Turn | None
    foraged: list[list[int]]     # [seat, region] pairs that foraged in the current step (E-09)
    final_regions: list[int]
    final_order: list[int]
    # --- seats
    players: list[Player]
    bot: Bot | None
    # --- dice and action board
    dice: dict[str, list[Any]]   # die id -> [colour, value]
    owner: dict[str, int]        # die id -> map seat that drafted it
    rows: dict[str, list[str]]   # action row -> dice, leftmost first
    retrieved: list[str]
    # --- goods, cards, tiles
    stacks: dict[str, int]       # face-up permanent goods per type
    pile: list[str]              # face-down permanent goods, top last
    decks: dict[str, list[str]]  # era -> card instances, top last
    discard: dict[str, list[str]]
    offer: list[str]             # 5 slots, "" empty
    avail_cards: list[str]       # starting cards left in the setup draft
    avail_abilities: list[str]
    trade_tiles: list[str]
    vases: list[Vase]
    bonus_action: str
    # --- map
    in_play: list[int]
    regions: dict[int, Region]
    # --- transient: never saved
    events: list[Event] | None   # the events of the apply() under way
    _legal_cache: list[str] | None
    _dirty: bool                 # something a vase counts may have changed since the last checkpoint

    # ------------------------------------------------------------------ whose decision, and which

    def _turn_seat(self) -> int:
        return self.turn_order[self.step_i % len(self.turn_order)]

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

    # ------------------------------------------------------------------ the dice on the action board

    def _pool(self) -> list[str]:
        return [d for d in self.dice if d not in self.owner]

    def _free_rows(self) -> list[str]:
        rows = self.rows
        return [r for r, cap in ROW_SLOTS[self.board_n] if len(rows[r]) < cap]

    def _place(self, s: int, die: str, row: str) -> None:
        v = self.dice[die][1]
        dice = self.rows[row]
        idx = sum(1 for d in dice if self.dice[d][1] <= v)
        dice.insert(idx, die)
        self.owner[die] = s
        self._ev(type="place", seat=s, die=die, row=row)

    def slot_data(self, row: str, slot: int) -> dict:
        return D.BOARD[self.board_n][row][slot - 1]

    def die_place(self, die: str) -> tuple[str, int]:
        for r, dice in self.rows.items():
            if die in dice:
                return r, dice.index(die) + 1
        return "", 0

    # ------------------------------------------------------------------ helpers every phase uses

    def _human(self, s: int) -> bool:
        return not (self.solo and s == BOT)

    def _order_humans(self) -> list[int]:
        return [s for s in self.turn_order if self._human(s)]

    def _vp(self, s: int, n: int, cat: str | None = None) -> None:
        p = self.players[s]
        p["vp"] += n
        p["parts"][cat or self.vp_cat] += n

    def solo_bot(self) -> Bot:
        """Rhadamanthus' record: solo games only."""
        assert self.bot is not None, "Rhadamanthus plays only in solo games"
        return self.bot

    def current_turn(self) -> Turn:
        """The action turn under way: only while one is."""
        assert self.turn is not None, "no action turn is under way"
        return self.turn

    def _bot_vp(self, n: int, cat: str) -> None:
        b = self.solo_bot()
        b["vp"] += n
        b["parts"][cat] += n

    def _ev(self, **kw: Any) -> None:
        if self.events is not None:
            self.events.append(kw)

    def _push(self, s: int, effect: list[dict[str, Any]]) -> None:
        """Put an effect at the front of the work queue (before anything still pending)."""
        self.queue[0:0] = [dict(op, p=s) for op in effect]

    def mods(self, s: int) -> dict[str, int]:
        """The seat's modifiers: ability level plus uncovered player-board slots (rules §2.2). A new dict each
        call (the caller may keep or change it)."""
        return dict(self._mods(s))

    def mod(self, s: int, name: str) -> int:
        """One of the seat's modifiers (`mods(s)[name]`, without copying them)."""
        return self._mods(s)[name]

    def _mods(self, s: int) -> dict[str, int]:
        # worked out once per ability, level and pieces built, and shared: never modified
        p = self.players[s]
        board = p["board"]
        key = p["level"]
        if not 0 <= key <= 9:
            return _modifiers(p)
        for piece in _UNCOVER_PIECES:
            k = board[piece]
            if not 0 <= k <= 9:
                return _modifiers(p)  # outside the digits (no real position): worked out, not cached
            key = key * 10 + k
        by_ability = _MODS.get(p["ability"])
        if by_ability is None:
            by_ability = _MODS.setdefault(p["ability"], {}) if len(_MODS) < 100 else {}
        m = by_ability.get(key)
        if m is None:
            m = _modifiers(p)
            if len(by_ability) < 10_000:
                by_ability[key] = m
        return m

    def dominant(self, r: int) -> int:
        """The map seat with strictly the most warriors in r (at least 1), or -1."""
        w = self.regions[r]["w"]
        best = max(w)
        if best == 0 or w.count(best) > 1:
            return -1
        return w.index(best)

    def farms_on_map(self, s: int) -> int:
        # every farm that left a board is on the map (farms never come back)
        board = self.bot["board"] if (self.bot is not None and s == BOT) else self.players[s]["board"]
        return D.PIECES_ON_BOARD["farm"] - board["farm"]

    def _fight_cost(self, s: int, tile: str) -> int:
        return max(1, D.SEA[tile]["weapons"] - self.mod(s, "fight_discount"))
