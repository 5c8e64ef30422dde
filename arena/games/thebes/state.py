"""A Thebes position: the whole game state, its legal actions, their effects, observations and JSON form.

Representation (chosen for speed: search bots call `legal_actions`, `apply` and `clone` millions of times):
- every number of the position but the scalars is in one flat list of ints, `_ints`: the display and exhibition
  slots first, then a block of `_STRIDE` per seat (seat p's time at `p * _STRIDE + _TIME`, its place at
  `p * _STRIDE + _PLACE`, ..., its books of site s at `p * _STRIDE + _BOOKS + s`); hands, found tokens, won
  exhibitions and the sites' bags are tuples replaced on change, all in one list, `_held` (the bag of site s at s,
  seat p's hand, tokens and exhibitions at `p * 3 + _CARDS / _TOKENS / _WON`); stack 3 is never modified in
  place, and the draw and discard piles and the generator are copied on write (`_shared`). So `clone()` copies
  two lists and never walks nested structures: a rollout clones a position per iteration, then the first change
  pays for what it changes. The old names (`time`, `cards`, `books`, `bags`, `display`, ...) remain as read-only
  properties that build the lists;
- aggregates (books per site, general knowledge, assistant/shovel/... counts, artifacts per site) are kept up to
  date on every card or token gained or lost, so legality checks never scan a hand;
- the draw pile keeps its top at the end of the list (pop is O(1));
- the legal-action list is cached until the state changes; actions are interned (see actions.py).

Time: a marker's `time` is weeks since week 1 of 1901 (year = 1901 + time // 52, week = time % 52 + 1);
the end space, week 1 of 1904, is END_TIME = 156. With 2 or 4 players the markers start on the start space
("week 0" of the start year: time -1 or 51), so a first action of w weeks ends on week w.
"""
# ruff: noqa: FURB136 - `x if x < k else k` is about twice as fast as min(x, k): legal_actions() is hot

from __future__ import annotations

from typing import Any, Final

from arena.games.base import TERMINAL, Event, Game, IllegalAction, State, rank_by_keys
from arena.games.rng import SplitMix64
from arena.games.thebes import scoring
from arena.games.thebes.actions import (
    DIG,
    DIG_ACTIONS,
    EXCHANGE,
    EXCHANGE_ACTIONS,
    EXHIBIT,
    EXHIBIT_ACTIONS,
    F_ASSISTANT,
    F_NOCAR,
    F_PERMISSION,
    F_RUMORS,
    F_SHOVEL,
    F_ZEPPELIN,
    RETIRE,
    RETIRE_ACTION,
    TAKE,
    TAKE_ACTIONS,
    VALID_KEYS,
    ThebesAction,
)
from arena.games.thebes.data import (
    ASSISTANT_BONUS,
    BONUS_ARTIFACT_VALUE,
    CAR_MIN_SEGMENTS,
    CARD_CITY,
    CARD_IDS,
    CARD_INDEX,
    CARD_KIND,
    CARD_SITE,
    CARD_VALUE,
    CARD_WEEKS,
    DIRT,
    DISPLAY_SLOTS,
    DIST,
    EARLIEST_TIME,
    END_TIME,
    EXHIBITION_REQ,
    EXHIBITION_SIZE,
    EXHIBITION_SLOTS,
    FINAL_YEAR_TIME,
    GENERAL_TOKEN,
    K_ASSISTANT,
    K_CAR,
    K_CONGRESS,
    K_EXHIBITION,
    K_GENERAL,
    K_RUMORS,
    K_SHOVEL,
    K_SPECIAL_PERMISSION,
    K_SPECIALIZED,
    K_ZEPPELIN,
    KIND_NAMES,
    KNOWLEDGE_CAP,
    LARGE_EXHIBITIONS,
    N_CARDS,
    N_RESEARCHERS,
    PLACE_INDEX,
    PLACES,
    SHOVEL_BONUS,
    SITE_INDEX,
    SITE_PLACE,
    SITES,
    SMALL_EXHIBITIONS,
    SPECIALIZED_TOKEN0,
    START_BAGS,
    START_PLACE,
    START_TIME,
    TRIP,
    WARSAW,
    WEEKS_MAX,
    WEEKS_PER_YEAR,
    WHEEL,
    WHEEL_MIN_WEEKS,
    marker_year_week,
    parse_token,
    token_name,
    year_week,
)

N_SITES: Final = len(SITES)
#: token_name(t) of every token value (a dig's event names each token found)
_TOKEN_NAMES: Final[tuple[str, ...]] = tuple(token_name(t) for t in range(SPECIALIZED_TOKEN0 + N_SITES))
STATE_FORMAT: Final = "thebes-state"
STATE_VERSION: Final = 1
_EMPTY: Final = -1


N_PLACES: Final = len(PLACES)
#: the ways to make a trip, in action order: driven along a shortest path (the car saves its week if held, D3),
#: the car declined (only where it would shorten the trip, D20), flown (only where there is a trip, D16/D22);
#: no detour (D30). WAY_FLAGS[k] are way k's travel flags.
WAY_FLAGS: Final[tuple[int, ...]] = (0, F_NOCAR, F_ZEPPELIN)


def _way_weeks(has_car: int, has_zeppelin: int, src: int, dest: int, way: int) -> int:
    """The weeks of trip src -> dest made way `way` (an index of WAY_FLAGS), or -1 where that way is none."""
    segments = DIST[src][dest]
    if way == 0:
        return TRIP[has_car][src][dest]
    if way == 1:
        return segments if has_car and segments >= CAR_MIN_SEGMENTS else -1
    return 0 if has_zeppelin and segments else -1


#: WAYS[_ways_at(has car, has zeppelin, src) + dest * 3 + way]: the weeks of each way to travel (-1: none) — the
#: one table of the ways to travel, used by every action; flat ints, so that generating the legal actions
#: unpacks no tuples
WAYS: Final[tuple[int, ...]] = tuple(_way_weeks(car, zeppelin, a, b, way) for car in (0, 1) for zeppelin in (0, 1)
                                     for a in range(N_PLACES) for b in range(N_PLACES) for way in range(3))


def _ways_at(has_car: int, has_zeppelin: int, src: int) -> int:
    """Where the ways to travel from `src` start in WAYS (add dest * 3 + way)."""
    return ((has_car * 2 + has_zeppelin) * N_PLACES + src) * N_PLACES * 3


def _by_way(table: dict[tuple[int, int], ThebesAction], card: int) -> tuple[ThebesAction, ...]:
    """The card's action made each way to travel (WAY_FLAGS order)."""
    return tuple(table[card, flags] for flags in WAY_FLAGS)


#: CARD_ACTIONS[card][way]: taking a researcher card, carrying out an exhibition, made each way to travel
CARD_ACTIONS: Final[tuple[tuple[ThebesAction, ...], ...]] = tuple(
    _by_way(TAKE_ACTIONS if c < N_RESEARCHERS else EXHIBIT_ACTIONS, c) for c in range(N_CARDS))
EXCHANGE_BY_WAY: Final[tuple[ThebesAction, ...]] = tuple(EXCHANGE_ACTIONS[flags] for flags in WAY_FLAGS)
#: _PERMISSION_FLAG[holds a special permission][the site's permit is used]: how a dig there may be made: with
#: the permit (0), spending a special permission (F_PERMISSION), not at all (-1) (D17, D29)
_PERMISSION_FLAG: Final = ((0, -1), (0, F_PERMISSION))


def _knowledge(specialized: int, general: int) -> int:
    """Knowledge on the time wheel: specialized + general, general counted at most up to the specialized side,
    the total capped at 12."""
    total = specialized + (general if general < specialized else specialized)
    return total if total < KNOWLEDGE_CAP else KNOWLEDGE_CAP


def _first_dig_week(specialized: int, general: int) -> int:
    """The fewest weeks of a dig that draws a token (D15); WEEKS_MAX + 1 (none) without specialized knowledge."""
    return WHEEL_MIN_WEEKS[_knowledge(specialized, general)] if specialized > 0 else WEEKS_MAX + 1


def _card_view(c: int) -> dict[str, Any]:
    if CARD_KIND[c] == K_EXHIBITION:
        return {"id": CARD_IDS[c], "city": PLACES[CARD_CITY[c]], "weeks": CARD_WEEKS[c],
                "size": EXHIBITION_SIZE[c], "points": CARD_VALUE[c],
                "requirements": {SITES[s]: n for s, n in enumerate(EXHIBITION_REQ[c]) if n}}
    return {"id": CARD_IDS[c], "kind": KIND_NAMES[CARD_KIND[c]], "city": PLACES[CARD_CITY[c]],
            "weeks": CARD_WEEKS[c], "site": SITES[CARD_SITE[c]] if CARD_SITE[c] >= 0 else "",
            "value": CARD_VALUE[c]}


_CARD_VIEWS: Final = tuple(_card_view(c) for c in range(N_CARDS))


def _token_view(site: int, token: int) -> dict[str, Any]:
    if token == GENERAL_TOKEN:
        kind, value, knowledge_site = "general", 1, ""
    elif token >= SPECIALIZED_TOKEN0:
        kind, value, knowledge_site = "specialized", 1, SITES[token - SPECIALIZED_TOKEN0]
    else:
        kind, value, knowledge_site = "artifact", token, ""
    return {"site": SITES[site], "kind": kind, "value": value, "knowledge_site": knowledge_site}


def _add_trips(out: list[ThebesAction], by_way: tuple[ThebesAction, ...], ways: int, budget: int) -> None:
    """Append the action made each way to travel (`by_way[way]`; `ways`: where the trip's ways start in WAYS)
    whose trip fits in `budget` weeks."""
    for way in range(3):
        trip = WAYS[ways + way]
        if 0 <= trip <= budget:
            out.append(by_way[way])


def _slot_of(ints: list[int], first: int, card: int) -> int:
    """The slot of `card`, known to be on display, counted from `ints[first]`."""
    slot = 0
    while ints[first + slot] != card:
        slot += 1
    return slot


def _holds(legal: list[ThebesAction], action: object) -> bool:
    """Whether `action` is in `legal`: by identity first (the referee and the bots pass back the very objects
    `legal_actions()` returned, and comparing identities costs no call of `__eq__`), then by equality."""
    for a in legal:
        if a is action:
            return True
    return action in legal


# _ints: the board's slots, then seat p's numbers at p * _STRIDE + these offsets (seat 0's place in the list)
_DISPLAY: Final = 0  # + slot: the 4 researcher card slots (-1 empty)
_EXHIBITION_SLOTS: Final = DISPLAY_SLOTS  # + slot: exhibition slots a, b, c (-1 empty)
_SEAT0: Final = _EXHIBITION_SLOTS + len(EXHIBITION_SLOTS)
_TIME: Final = _SEAT0  # weeks since week 1 of 1901 (see the module docstring); END_TIME = finished
_ARRIVAL: Final = _SEAT0 + 1  # when the marker last arrived on its space: the latest arrival is on top (acts first)
_PLACE: Final = _SEAT0 + 2  # PLACE_INDEX of the archaeologist
_PERMITS_USED: Final = _SEAT0 + 3  # bit set of the sites whose permit is used this year
_GENERAL_KNOWLEDGE: Final = _SEAT0 + 4  # cards and tokens
_ASSISTANTS: Final = _SEAT0 + 5
_SHOVELS: Final = _SEAT0 + 6
_CARS: Final = _SEAT0 + 7
_ZEPPELINS: Final = _SEAT0 + 8
_SPECIAL_PERMISSIONS: Final = _SEAT0 + 9
_CONGRESSES: Final = _SEAT0 + 10
_RUMORS: Final = _SEAT0 + 11  # bit set of the sites whose rumors card the seat holds
_ARTIFACT_POINTS: Final = _SEAT0 + 12
_EXHIBITION_POINTS: Final = _SEAT0 + 13
_BOOKS: Final = _SEAT0 + 14  # + site: specialized knowledge (cards and tokens)
_ARTIFACTS: Final = _BOOKS + N_SITES  # + site: artifacts found (their number; values are in _ARTIFACT_POINTS)
_STRIDE: Final = _ARTIFACTS + N_SITES - _SEAT0
#: _shared: what a clone shares with its twin until either changes it (copy on write)
_SHARED_PILES: Final = 1  # the draw and discard piles
_SHARED_RNG: Final = 2  # the generator
# _held: the bag of site s at s; seat p's tuples at p * 3 + these
_CARDS: Final = N_SITES  # researcher cards held (card indices)
_TOKENS: Final = N_SITES + 1  # tokens found, each site * 32 + token
_WON: Final = N_SITES + 2  # exhibitions carried out (card indices)


class ThebesState(State):
    """One Thebes position. Build with `ThebesGame.new_state(seed)` or `ThebesGame.state_from_json(data)`."""

    __slots__ = (  # noqa: RUF023 - grouped by what they describe, in the order of the docstring
        "game", "players",
        # per player (and the bags)
        "_ints", "_held",
        # board
        "draw_pile", "stack3", "stack3_used", "discard", "first_dig_bonus",
        "exchange_run_seat", "exchange_run_count", "arrivals", "rng", "_shared",
        # caches
        "_current", "_legal",
    )

    game: Game  # the ThebesGame (typed by its base, so the rules never import the game that builds them)
    players: int
    _ints: list[int]  # the display and exhibition slots, every per player number (see above)
    _held: list[tuple[int, ...]]  # the bags (site s at s, each sorted), then per seat cards, tokens, exhibitions
    # board
    # the draw and discard piles may be shared with clones (`_shared`): change them only after `_own_piles()`
    draw_pile: list[int]  # top at the end
    stack3: list[int]  # never modified in place (clones share it): replaced when used
    stack3_used: bool
    discard: list[int]
    first_dig_bonus: int  # bit set of the sites whose bonus artifact is still on the board
    exchange_run_seat: int  # who made the last action if it was an exchange (-1: not an exchange)
    exchange_run_count: int  # the weeks of that exchange: the next one in the run costs one more
    arrivals: int  # markers moved so far (the next arrival's stamp)
    rng: SplitMix64  # may be shared with clones (`_shared`): draw only after `_own_rng()`
    _shared: int  # bit set of _SHARED_*: what this state shares with a clone or the state it was cloned from
    _current: int
    _legal: list[ThebesAction] | None  # never modified once built (clones share it): legal_actions() copies


    # ------------------------------------------------------------------------------------------------ setup
    @classmethod
    def initial(cls, game: Game, seed: int) -> ThebesState:
        """The setup of the seeds: 4 researcher cards displayed, the rest in three equal stacks; small
        exhibitions shuffled into stack 2 and large into stack 3 (all into stack 2 with 2 players); stack 1 on
        stack 2 is the draw pile; stack 3 waits. All markers stacked on the start space, seat 0 on top."""
        st = cls(game)
        n = st.players
        rng = st.rng = SplitMix64(seed)
        deck = list(range(N_RESEARCHERS))
        rng.shuffle(deck)
        st._ints[_DISPLAY:_DISPLAY + DISPLAY_SLOTS] = deck[:DISPLAY_SLOTS]
        rest = deck[DISPLAY_SLOTS:]
        third = len(rest) // 3
        extra = len(rest) - 3 * third  # near-equal stacks: the first ones take the remainder
        sizes = [third + (1 if i < extra else 0) for i in range(3)]
        stack1 = rest[:sizes[0]]
        stack2 = rest[sizes[0]:sizes[0] + sizes[1]]
        stack3 = rest[sizes[0] + sizes[1]:]
        if n == 2:
            stack2 += list(SMALL_EXHIBITIONS) + list(LARGE_EXHIBITIONS)
        else:
            stack2 += list(SMALL_EXHIBITIONS)
            stack3 += list(LARGE_EXHIBITIONS)
        rng.shuffle(stack2)
        rng.shuffle(stack3)
        # top of the pile is the end of the list: stack 1 lies on stack 2
        st.draw_pile = stack2[::-1] + stack1[::-1]
        st.stack3 = stack3
        start = START_TIME[n]
        for p in range(n):
            st._ints[p * _STRIDE + _TIME] = start
            st._ints[p * _STRIDE + _ARRIVAL] = n - p  # seat 0 arrived last: its marker is on top
        st.arrivals = n
        st._refresh_current()
        return st

    def __init__(self, game: Game, blank: bool = True) -> None:
        """A blank position (no cards dealt, RNG seeded 0) for `initial` and `from_json` to fill in; with
        `blank=False` only the game is set (for `clone`, which sets every other field itself)."""
        self.game = game
        n = self.players = game.players
        if not blank:
            return
        ints = self._ints = [_EMPTY] * _SEAT0 + [0] * (n * _STRIDE)
        for p in range(n):
            ints[p * _STRIDE + _PLACE] = START_PLACE
        self._held = list(START_BAGS) + [()] * (n * 3)
        self.draw_pile = []
        self.stack3 = []
        self.stack3_used = False
        self.discard = []
        self.first_dig_bonus = (1 << N_SITES) - 1
        self.exchange_run_seat = -1
        self.exchange_run_count = 0
        self.arrivals = 0
        self.rng = SplitMix64(0)
        self._shared = 0
        self._current = TERMINAL
        self._legal = None

    def clone(self) -> ThebesState:
        st = ThebesState(self.game, False)
        # shallow copies of the lists every action changes: the tuples inside `_held` (hands, tokens, bags) are
        # immutable and shared, and so is stack 3 (never modified in place); the piles and the generator are
        # shared by both states until either changes them (half the actions do not)
        st._ints = self._ints.copy()
        st._held = self._held.copy()
        st.draw_pile = self.draw_pile
        st.stack3 = self.stack3
        st.discard = self.discard
        st.rng = self.rng
        st._shared = self._shared = _SHARED_PILES | _SHARED_RNG
        st.stack3_used = self.stack3_used
        st.first_dig_bonus = self.first_dig_bonus
        st.exchange_run_seat = self.exchange_run_seat
        st.exchange_run_count = self.exchange_run_count
        st.arrivals = self.arrivals
        st._current = self._current
        st._legal = self._legal  # never modified once built: shared until either state changes
        return st

    def _own_piles(self) -> None:
        """Make the draw and discard piles this state's own (copies, if shared with a clone): before changing
        either."""
        if self._shared & _SHARED_PILES:
            self.draw_pile = self.draw_pile.copy()
            self.discard = self.discard.copy()
            self._shared &= ~_SHARED_PILES

    def _own_rng(self) -> SplitMix64:
        """The generator, made this state's own (a copy, if shared with a clone): before drawing."""
        if self._shared & _SHARED_RNG:
            self.rng = SplitMix64(self.rng.state)
            self._shared &= ~_SHARED_RNG
        return self.rng

    # --------------------------------------------------------------------------------- read-only lists
    def _per_seat(self, offset: int) -> list[int]:
        ints = self._ints
        return [ints[p * _STRIDE + offset] for p in range(self.players)]

    def _per_seat_site(self, offset: int) -> list[int]:
        ints = self._ints
        return [ints[p * _STRIDE + offset + s] for p in range(self.players) for s in range(N_SITES)]

    def _per_seat_held(self, offset: int) -> list[tuple[int, ...]]:
        return [self._held[p * 3 + offset] for p in range(self.players)]

    # New lists each read (changing one changes nothing): for tests, tools and reports; the rules read _ints.
    @property
    def time(self) -> list[int]:
        """Per seat: weeks since week 1 of 1901 (see the module docstring); END_TIME = finished."""
        return self._per_seat(_TIME)

    @property
    def arrival(self) -> list[int]:
        """Per seat: when the marker last arrived on its space (the latest arrival is on top: acts first)."""
        return self._per_seat(_ARRIVAL)

    @property
    def place(self) -> list[int]:
        """Per seat: PLACE_INDEX of the archaeologist."""
        return self._per_seat(_PLACE)

    @property
    def permits_used(self) -> list[int]:
        """Per seat: bit set of the sites whose permit is used this year."""
        return self._per_seat(_PERMITS_USED)

    @property
    def general_knowledge(self) -> list[int]:
        return self._per_seat(_GENERAL_KNOWLEDGE)

    @property
    def assistants(self) -> list[int]:
        return self._per_seat(_ASSISTANTS)

    @property
    def shovels(self) -> list[int]:
        return self._per_seat(_SHOVELS)

    @property
    def cars(self) -> list[int]:
        return self._per_seat(_CARS)

    @property
    def zeppelins(self) -> list[int]:
        return self._per_seat(_ZEPPELINS)

    @property
    def special_permissions(self) -> list[int]:
        return self._per_seat(_SPECIAL_PERMISSIONS)

    @property
    def congresses(self) -> list[int]:
        return self._per_seat(_CONGRESSES)

    @property
    def rumors(self) -> list[int]:
        """Per seat: bit set of the sites whose rumors card the seat holds."""
        return self._per_seat(_RUMORS)

    @property
    def artifact_points(self) -> list[int]:
        return self._per_seat(_ARTIFACT_POINTS)

    @property
    def exhibition_points(self) -> list[int]:
        return self._per_seat(_EXHIBITION_POINTS)

    @property
    def books(self) -> list[int]:
        """Specialized knowledge (cards and tokens), index seat * 5 + site."""
        return self._per_seat_site(_BOOKS)

    @property
    def artifacts(self) -> list[int]:
        """Artifacts found (their number), index seat * 5 + site."""
        return self._per_seat_site(_ARTIFACTS)

    @property
    def cards(self) -> list[tuple[int, ...]]:
        """Per seat: the researcher cards held (card indices)."""
        return self._per_seat_held(_CARDS)

    @property
    def tokens(self) -> list[tuple[int, ...]]:
        """Per seat: the tokens found, each site * 32 + token."""
        return self._per_seat_held(_TOKENS)

    @property
    def exhibitions_won(self) -> list[tuple[int, ...]]:
        return self._per_seat_held(_WON)

    @property
    def display(self) -> list[int]:
        """The 4 researcher card slots (-1 empty)."""
        return self._ints[_DISPLAY:_DISPLAY + DISPLAY_SLOTS]

    @property
    def exhibition_slots(self) -> list[int]:
        """Exhibition slots a, b, c (-1 empty)."""
        return self._ints[_EXHIBITION_SLOTS:_SEAT0]

    @property
    def bags(self) -> list[tuple[int, ...]]:
        """Per site: the tokens in its bag, sorted."""
        return self._held[:N_SITES]

    # ------------------------------------------------------------------------------------------ turn order
    def _refresh_current(self) -> None:
        """The unfinished player furthest back in time acts; on a tie the marker on top (arrived last)."""
        best = TERMINAL
        best_t = END_TIME
        best_stamp = -1
        ints = self._ints
        for p in range(self.players):
            t = ints[p * _STRIDE + _TIME]
            if t < best_t or (t == best_t and t < END_TIME and ints[p * _STRIDE + _ARRIVAL] > best_stamp):
                best, best_t, best_stamp = p, t, ints[p * _STRIDE + _ARRIVAL]
        self._current = best

    def current_player(self) -> int:
        return self._current

    def is_terminal(self) -> bool:
        return self._current == TERMINAL

    def turn_order(self) -> list[int]:
        """Unfinished seats in the order they would act if nobody moved (first = current player)."""
        return sorted((p for p in range(self.players) if self._ints[p * _STRIDE + _TIME] < END_TIME),
                      key=lambda p: (self._ints[p * _STRIDE + _TIME], -self._ints[p * _STRIDE + _ARRIVAL]))

    # ----------------------------------------------------------------------------------------- knowledge
    def _trip(self, p: int, dest: int, flags: int) -> int:
        """Weeks of travel from p's place to dest: a zeppelin flies for free; a car saves 1 week on a trip of
        3+ segments (two cars do not stack: NOTES decision 3) unless the action declines it (F_NOCAR)."""
        if flags & F_ZEPPELIN:
            return 0
        return TRIP[1 if self._ints[p * _STRIDE + _CARS] and not flags & F_NOCAR else 0][self._ints[p * _STRIDE + _PLACE]][dest]

    def specialized_knowledge(self, p: int, site: int, rumors: bool = False, assistant: bool = False) -> int:
        """The specialized side for a dig at `site`: books of the site (cards and tokens), the rumors card if
        spent (+2), assistants (2 → +1, 3 or more → +2, a single one spent → +1)."""
        a = self._ints[p * _STRIDE + _ASSISTANTS]
        return (self._ints[p * _STRIDE + _BOOKS + site] + ASSISTANT_BONUS[a if a < 3 else 3]
                + (2 if rumors else 0) + (1 if assistant else 0))

    def dig_knowledge(self, p: int, site: int, rumors: bool = False, assistant: bool = False) -> int:
        """Knowledge on the time wheel: specialized + general, general counted at most up to the specialized
        side, the total capped at 12. 0 when the specialized side is 0 (no dig possible)."""
        specialized = self.specialized_knowledge(p, site, rumors, assistant)
        return _knowledge(specialized, self._ints[p * _STRIDE + _GENERAL_KNOWLEDGE]) if specialized > 0 else 0

    def dig_draws(self, p: int, site: int, weeks: int, flags: int = 0) -> int:
        """Tokens a dig draws: the wheel's number plus shovels (2 → +1, 3 or more → +2, a single spent → +1)."""
        know = self.dig_knowledge(p, site, bool(flags & F_RUMORS), bool(flags & F_ASSISTANT))
        s = self._ints[p * _STRIDE + _SHOVELS]
        return WHEEL[know][weeks] + SHOVEL_BONUS[s if s < 3 else 3] + (1 if flags & F_SHOVEL else 0)

    def _exchange_weeks(self, p: int) -> int:
        return self.exchange_run_count + 1 if self.exchange_run_seat == p else 1

    def _can_exchange(self) -> bool:
        if self.draw_pile or self.discard or self.stack3:
            return True
        ints = self._ints
        for slot in range(DISPLAY_SLOTS):
            if ints[_DISPLAY + slot] >= 0:
                return True
        return False

    def _meets(self, p: int, card: int) -> bool:
        base = p * _STRIDE + _ARTIFACTS
        arts = self._ints
        req = EXHIBITION_REQ[card]
        for s in range(N_SITES):
            if arts[base + s] < req[s]:
                return False
        return True

    # ------------------------------------------------------------------------------------------- legality
    # A Thebes state takes only its own action type (the referee passes back an element of legal_actions()):
    # the narrower signatures are deliberate.
    def legal_actions(self) -> list[ThebesAction]:  # type: ignore[override]
        """Every legal action of the current player, each once, in this order: take (display slot order;
        driven, car declined, flown), exhibit (slots a-c, same), exchange (same), dig (by site, then trip and
        one-use card choices, then weeks), retire. Empty when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> list[ThebesAction]:
        """The legal actions in `legal_actions()` order. Every action is a trip (`WAYS`: the one table of the
        ways to travel) plus the action's own weeks, and must fit before the end space (D9, D31): first the
        actions whose own weeks are fixed — taking each displayed card, each exhibition on display whose
        artifacts p holds, the exchange at Warsaw — then the digs."""
        p = self._current
        if p < 0:
            return []
        remaining = END_TIME - self._ints[p * _STRIDE + _TIME]
        ways = _ways_at(1 if self._ints[p * _STRIDE + _CARS] else 0, 1 if self._ints[p * _STRIDE + _ZEPPELINS] else 0, self._ints[p * _STRIDE + _PLACE])
        out: list[ThebesAction] = []
        ints = self._ints
        for slot in range(DISPLAY_SLOTS):
            c = ints[_DISPLAY + slot]
            if c >= 0:
                _add_trips(out, CARD_ACTIONS[c], ways + CARD_CITY[c] * 3, remaining - CARD_WEEKS[c])
        for slot in range(_EXHIBITION_SLOTS, _SEAT0):
            c = ints[slot]
            if c >= 0 and self._meets(p, c):
                _add_trips(out, CARD_ACTIONS[c], ways + CARD_CITY[c] * 3, remaining - CARD_WEEKS[c])
        if self._can_exchange():
            _add_trips(out, EXCHANGE_BY_WAY, ways + WARSAW * 3, remaining - self._exchange_weeks(p))
        self._add_digs(p, ways, remaining, out)
        if not out or self._ints[p * _STRIDE + _TIME] >= FINAL_YEAR_TIME:
            out.append(RETIRE_ACTION)
        return out

    def _add_digs(self, p: int, ways: int, remaining: int, out: list[ThebesAction]) -> None:
        """Excavations: at each site p may dig (a valid permit, or a special permission to spend, D17/D29), for
        each way to travel there and each choice of one-use cards (rumors, a single assistant, a single shovel,
        D13/D14/D22; kept before spent), every number of weeks from the wheel's first token (D15) to what fits
        (at most 12). Loops over ints only (no tuples to unpack: the compiled engine's hottest path)."""
        assistants = self._ints[p * _STRIDE + _ASSISTANTS]
        assistant_bonus = ASSISTANT_BONUS[assistants if assistants < 3 else 3]
        assistant_choices = 2 if assistants == 1 else 1  # kept; also spent when it is the only one
        shovel_choices = 2 if self._ints[p * _STRIDE + _SHOVELS] == 1 else 1
        general = self._ints[p * _STRIDE + _GENERAL_KNOWLEDGE]
        books = self._ints
        base = p * _STRIDE + _BOOKS
        permits_used = self._ints[p * _STRIDE + _PERMITS_USED]
        rumors = self._ints[p * _STRIDE + _RUMORS]
        permission_by_use = _PERMISSION_FLAG[1 if self._ints[p * _STRIDE + _SPECIAL_PERMISSIONS] else 0]
        for site in range(N_SITES):
            permission = permission_by_use[permits_used >> site & 1]
            if permission < 0:
                continue
            specialized = books[base + site] + assistant_bonus
            rumor_choices = 2 if rumors >> site & 1 else 1
            if specialized <= 0 and rumor_choices == 1 and assistant_choices == 1:
                continue  # no specialized knowledge for this site, and nothing to spend for it
            site_actions = DIG_ACTIONS[site]
            at = ways + SITE_PLACE[site] * 3
            for way in range(3):
                trip = WAYS[at + way]
                if trip < 0:
                    continue
                longest = remaining - trip
                longest = longest if longest < WEEKS_MAX else WEEKS_MAX
                if longest < 1:
                    continue
                travel_flags = WAY_FLAGS[way]
                for rumor in range(rumor_choices):
                    for assistant in range(assistant_choices):
                        first = _first_dig_week(specialized + 2 * rumor + assistant, general)
                        if first > longest:
                            continue
                        flags = (permission | travel_flags | (F_RUMORS if rumor else 0)
                                 | (F_ASSISTANT if assistant else 0))
                        for shovel in range(shovel_choices):
                            # one slice of the weeks that fit: a copy and an extend cost less than an append each
                            out.extend(site_actions[flags | F_SHOVEL if shovel else flags][first - 1:longest])

    def illegal_reason(self, action: object) -> str | None:
        """Why `action` is not legal now, or None if it is. Agrees with `legal_actions()` on every action."""
        if not isinstance(action, ThebesAction):
            return f"not a Thebes action ({type(action).__name__})"
        if action._key not in VALID_KEYS:
            return "no such Thebes action (out-of-range card, site, weeks or flags)"
        p = self._current
        if p < 0:
            return "the game is over"
        if action.kind == RETIRE:
            return self._retire_problem(p)
        problem = self._travel_card_problem(p, action.flags)
        if problem is None:
            kind = action.kind
            if kind == TAKE:
                problem, dest, weeks = self._take_problem(p, action)
            elif kind == EXHIBIT:
                problem, dest, weeks = self._exhibit_problem(p, action)
            elif kind == EXCHANGE:
                problem, dest, weeks = self._exchange_problem(p, action)
            else:
                problem, dest, weeks = self._dig_problem(p, action)
            if problem is None:
                problem = self._trip_problem(p, dest, action.flags, weeks)
        return problem

    def _retire_problem(self, p: int) -> str | None:
        """Retiring: always in the final year; before it only when no other action fits (D10, D25)."""
        if self._ints[p * _STRIDE + _TIME] < FINAL_YEAR_TIME and self._generate_without_retire():
            return "retiring is only allowed in the final year (1903) or when no other action fits"
        return None

    def _travel_card_problem(self, p: int, flags: int) -> str | None:
        """The travel flags name cards p must hold: a zeppelin to fly, a car to decline."""
        if flags & F_ZEPPELIN and not self._ints[p * _STRIDE + _ZEPPELINS]:
            return "you hold no zeppelin card"
        if flags & F_NOCAR and not self._ints[p * _STRIDE + _CARS]:
            return "you hold no car to decline"
        return None

    def _take_problem(self, p: int, action: ThebesAction) -> tuple[str | None, int, int]:
        c = action.card
        if c not in self.display:
            return f"{CARD_IDS[c]} is not on display", 0, 0
        return None, CARD_CITY[c], CARD_WEEKS[c]

    def _exhibit_problem(self, p: int, action: ThebesAction) -> tuple[str | None, int, int]:
        c = action.card
        if c not in self.exhibition_slots:
            return f"{CARD_IDS[c]} is not among the exhibitions on display", 0, 0
        if not self._meets(p, c):
            return f"you lack the artifacts {CARD_IDS[c]} requires", 0, 0
        return None, CARD_CITY[c], CARD_WEEKS[c]

    def _exchange_problem(self, p: int, action: ThebesAction) -> tuple[str | None, int, int]:
        if not self._can_exchange():
            return "there are no cards to exchange", 0, 0
        return None, WARSAW, self._exchange_weeks(p)

    def _dig_problem(self, p: int, action: ThebesAction) -> tuple[str | None, int, int]:
        s, f = action.site, action.flags
        problem = self._permit_problem(p, s, f) or self._spent_card_problem(p, s, f)
        if problem is None:
            rumors, assistant = bool(f & F_RUMORS), bool(f & F_ASSISTANT)
            if self.specialized_knowledge(p, s, rumors, assistant) <= 0:
                problem = f"you have no specialized knowledge for {SITES[s]}"
            else:
                know = self.dig_knowledge(p, s, rumors, assistant)
                if WHEEL[know][action.weeks] <= 0:
                    problem = f"with knowledge {know} a dig of {action.weeks} weeks draws no token"
        return problem, SITE_PLACE[s], action.weeks

    def _permit_problem(self, p: int, site: int, flags: int) -> str | None:
        """A dig needs the site's permit valid when the turn starts, or spends a special permission when it is
        used (D17, D29); a special permission is spent only when needed (D22)."""
        used = self._ints[p * _STRIDE + _PERMITS_USED] >> site & 1
        if flags & F_PERMISSION:
            if not used:
                return f"your {SITES[site]} permit is still valid; no special permission is needed"
            if not self._ints[p * _STRIDE + _SPECIAL_PERMISSIONS]:
                return "you hold no special permission card"
        elif used:
            return f"your {SITES[site]} permit is used this year (a special permission card would allow it)"
        return None

    def _spent_card_problem(self, p: int, site: int, flags: int) -> str | None:
        """The one-use cards a dig names must be held: the site's rumors, a single assistant or shovel (D14)."""
        if flags & F_RUMORS and not self._ints[p * _STRIDE + _RUMORS] >> site & 1:
            return f"you hold no rumors card for {SITES[site]}"
        if flags & F_ASSISTANT and self._ints[p * _STRIDE + _ASSISTANTS] != 1:
            return "a single assistant can only be spent when it is your only assistant"
        if flags & F_SHOVEL and self._ints[p * _STRIDE + _SHOVELS] != 1:
            return "a single shovel can only be spent when it is your only shovel"
        return None

    def _trip_problem(self, p: int, dest: int, flags: int, weeks: int) -> str | None:
        """The trip to `dest` as the flags make it (flown, the car declined, driven), then `weeks` of action,
        must fit before the end space (D9, D31); a zeppelin needs a trip, declining a car one it shortens."""
        segments = DIST[self._ints[p * _STRIDE + _PLACE]][dest]
        if flags & F_ZEPPELIN and segments == 0:
            return "there is no trip to fly: you are already there"
        if flags & F_NOCAR and segments < CAR_MIN_SEGMENTS:
            return f"the car only shortens trips of {CAR_MIN_SEGMENTS}+ segments: there is nothing to decline"
        cost = self._trip(p, dest, flags) + weeks
        remaining = END_TIME - self._ints[p * _STRIDE + _TIME]
        if cost > remaining:
            return f"it takes {cost} weeks but only {remaining} remain before the end (week 1 of 1904)"
        return None

    def _generate_without_retire(self) -> bool:
        legal = self._legal if self._legal is not None else self._generate()
        return any(a.kind != RETIRE for a in legal)

    # ---------------------------------------------------------------------------------------------- apply
    def apply(self, action: object) -> list[Event]:
        """Play `action` for the current player; returns the events. Raises IllegalAction (state unchanged),
        also for what is no Thebes action at all (typed `object`: the compiled engine checks the type of what a
        typed parameter receives, and would raise TypeError instead)."""
        legal = self._legal
        if legal is None or not _holds(legal, action):  # a member of the cached legal list needs no other check
            reason = self.illegal_reason(action)
            if reason is not None or not isinstance(action, ThebesAction):
                raise IllegalAction(action, reason or "not a Thebes action")
        assert isinstance(action, ThebesAction)  # (for the type checker: legal holds only Thebes actions)
        events: list[Event] = []
        self._play(action, events)
        return events

    def step(self, action: ThebesAction) -> None:
        """Play an action taken from this state's `legal_actions()` without checking it and without building
        events: the fast path for search (about twice as fast as `apply`). Anything else is undefined."""
        self._play(action, None)

    def _play(self, action: ThebesAction, events: list[Event] | None) -> None:
        """Play a legal action (unchecked). `events=None` skips building events (fast playouts)."""
        p = self._current
        kind, f = action.kind, action.flags
        zeppelin = bool(f & F_ZEPPELIN)
        if kind == RETIRE:
            self._advance(p, END_TIME - self._ints[p * _STRIDE + _TIME], events, "retire")
        elif kind == DIG:
            self._dig(p, action, events)
        else:
            if kind == TAKE or kind == EXHIBIT:
                dest, weeks = CARD_CITY[action.card], CARD_WEEKS[action.card]
            else:
                dest, weeks = WARSAW, self._exchange_weeks(p)
            travel = self._trip(p, dest, f)
            self._move(p, dest, travel, zeppelin, events)
            self._advance(p, travel + weeks, events, KIND_ACTION_NAMES[kind])
            if kind == TAKE:
                self._take(p, action.card, events)
            elif kind == EXHIBIT:
                self._exhibit(p, action.card, events)
            else:
                self._exchange(p, weeks, events)
        if kind != EXCHANGE:
            self.exchange_run_seat = -1
            self.exchange_run_count = 0
        self._legal = None
        self._refresh_current()
        if events is not None and self._current == TERMINAL:
            events.append({"type": "game_over", "scores": self.scores()})

    def _move(self, p: int, dest: int, travel: int, zeppelin: bool, events: list[Event] | None) -> None:
        src = self._ints[p * _STRIDE + _PLACE]
        if zeppelin:
            self._lose_card(p, K_ZEPPELIN, events)
        self._ints[p * _STRIDE + _PLACE] = dest
        if events is not None and src != dest:
            events.append({"type": "travelled", "seat": p, "from": PLACES[src], "to": PLACES[dest],
                           "weeks": travel, "zeppelin": zeppelin})

    def _advance(self, p: int, weeks: int, events: list[Event] | None, why: str) -> None:
        """Move p's marker; it goes on top of any markers already there. Passing week 52 starts p's new year
        and makes all of p's permits valid again (NOTES decision 6)."""
        t0 = self._ints[p * _STRIDE + _TIME]
        t1 = t0 + weeks
        self._ints[p * _STRIDE + _TIME] = t1
        self.arrivals += 1
        self._ints[p * _STRIDE + _ARRIVAL] = self.arrivals
        if events is not None:
            year, week = year_week(t1)
            events.append({"type": "time", "seat": p, "weeks": weeks, "year": year, "week": week, "for": why})
        if t1 // WEEKS_PER_YEAR > t0 // WEEKS_PER_YEAR and t0 != START_TIME[self.players]:
            # (leaving the start space, week 0 of the start year, is no year end)
            self._ints[p * _STRIDE + _PERMITS_USED] = 0
            if events is not None:
                events.append({"type": "year_passed", "seat": p, "year": year_week(t1)[0]})
        if t1 >= END_TIME and events is not None:
            events.append({"type": "finished", "seat": p})

    # cards ----------------------------------------------------------------------------------------------
    def _gain_card(self, p: int, c: int) -> None:
        self._held[p * 3 + _CARDS] = self._held[p * 3 + _CARDS] + (c,)
        self._count_card(p, c, 1)

    def _count_card(self, p: int, c: int, sign: int) -> None:
        k = CARD_KIND[c]
        if k == K_SPECIALIZED:
            self._ints[p * _STRIDE + _BOOKS + CARD_SITE[c]] += sign * CARD_VALUE[c]
        elif k == K_GENERAL:
            self._ints[p * _STRIDE + _GENERAL_KNOWLEDGE] += sign * CARD_VALUE[c]
        elif k == K_CONGRESS:
            self._ints[p * _STRIDE + _CONGRESSES] += sign
        elif k == K_ASSISTANT:
            self._ints[p * _STRIDE + _ASSISTANTS] += sign
        elif k == K_SHOVEL:
            self._ints[p * _STRIDE + _SHOVELS] += sign
        elif k == K_CAR:
            self._ints[p * _STRIDE + _CARS] += sign
        elif k == K_ZEPPELIN:
            self._ints[p * _STRIDE + _ZEPPELINS] += sign
        elif k == K_SPECIAL_PERMISSION:
            self._ints[p * _STRIDE + _SPECIAL_PERMISSIONS] += sign
        elif k == K_RUMORS:
            self._ints[p * _STRIDE + _RUMORS] ^= 1 << CARD_SITE[c]

    def _lose_card(self, p: int, kind: int, events: list[Event] | None, site: int = -1) -> None:
        """Discard p's one-use card of `kind` (of `site` for rumors); with two alike, the lower id goes."""
        hand = self._held[p * 3 + _CARDS]
        for c in sorted(hand):
            if CARD_KIND[c] == kind and (site < 0 or CARD_SITE[c] == site):
                break
        else:  # pragma: no cover - legality was checked
            raise AssertionError("no such card")
        j = hand.index(c)
        self._held[p * 3 + _CARDS] = hand[:j] + hand[j + 1:]
        self._count_card(p, c, -1)
        self._own_piles()
        self.discard.append(c)
        if events is not None:
            events.append({"type": "card_spent", "seat": p, "card": CARD_IDS[c]})

    def _draw_one(self, events: list[Event] | None) -> int:
        """The top card of the draw pile; an empty pile is rebuilt from the discard pile and stack 3 the first
        time, from the discard pile alone after that. -1 if nothing is left (NOTES decision 8)."""
        self._own_piles()
        pile = self.draw_pile
        if not pile:
            first = not self.stack3_used
            if first:
                pile.extend(self.discard)
                pile.extend(self.stack3)
                self.stack3 = []
                self.stack3_used = True
            else:
                pile.extend(self.discard)
            self.discard = []
            self._own_rng().shuffle(pile)
            if events is not None:
                events.append({"type": "deck_rebuilt", "with_stack3": first, "cards": len(pile)})
            if not pile:
                return _EMPTY
        return pile.pop()

    def _refill(self, slot: int, events: list[Event] | None) -> None:
        """Fill display slot `slot`: exhibitions drawn go to slot a and push a→b→c→discard, then draw again."""
        while True:
            c = self._draw_one(events)
            if c < 0:
                self._ints[_DISPLAY + slot] = _EMPTY
                if events is not None:
                    events.append({"type": "slot_left_empty", "slot": slot})
                return
            if CARD_KIND[c] == K_EXHIBITION:
                self._push_exhibition(c, events)
                continue
            self._ints[_DISPLAY + slot] = c
            if events is not None:
                events.append({"type": "card_drawn", "slot": slot, "card": CARD_IDS[c]})
            return

    def _push_exhibition(self, c: int, events: list[Event] | None) -> None:
        """The new exhibition goes to slot a and every card on display moves on one slot (a→b, b→c); the card
        that was in slot c is discarded, whether or not a slot before it was empty (seeds 000/001/003: "if a
        card is in (c), it is discarded")."""
        ints = self._ints
        a, b, gone = ints[_EXHIBITION_SLOTS], ints[_EXHIBITION_SLOTS + 1], ints[_EXHIBITION_SLOTS + 2]
        ints[_EXHIBITION_SLOTS], ints[_EXHIBITION_SLOTS + 1], ints[_EXHIBITION_SLOTS + 2] = c, a, b
        if events is not None:
            events.append({"type": "exhibition_drawn", "card": CARD_IDS[c]})
            if a >= 0 or b >= 0:  # a card that was in slot a or b moved on
                events.append({"type": "exhibitions_shifted",
                               "slots": [CARD_IDS[x] if x >= 0 else "" for x in (c, a, b)]})
        if gone >= 0:
            self._own_piles()
            self.discard.append(gone)
            if events is not None:
                events.append({"type": "exhibition_discarded", "card": CARD_IDS[gone]})

    def _take(self, p: int, c: int, events: list[Event] | None) -> None:
        slot = _slot_of(self._ints, _DISPLAY, c)
        self._gain_card(p, c)
        if events is not None:
            events.append({"type": "card_taken", "seat": p, "card": CARD_IDS[c], "slot": slot})
        self._refill(slot, events)

    def _exhibit(self, p: int, c: int, events: list[Event] | None) -> None:
        slot = _slot_of(self._ints, _EXHIBITION_SLOTS, c)
        self._ints[_EXHIBITION_SLOTS + slot] = _EMPTY
        self._held[p * 3 + _WON] = self._held[p * 3 + _WON] + (c,)
        self._ints[p * _STRIDE + _EXHIBITION_POINTS] += CARD_VALUE[c]
        if events is not None:
            events.append({"type": "exhibition_done", "seat": p, "card": CARD_IDS[c],
                           "slot": EXHIBITION_SLOTS[slot], "points": CARD_VALUE[c]})

    def _exchange(self, p: int, weeks: int, events: list[Event] | None) -> None:
        display = self.display
        self._own_piles()
        for c in display:
            if c >= 0:
                self.discard.append(c)
        if events is not None:
            events.append({"type": "display_exchanged", "seat": p, "weeks": weeks,
                           "discarded": [CARD_IDS[c] for c in display if c >= 0]})
        for slot in range(DISPLAY_SLOTS):
            self._ints[_DISPLAY + slot] = _EMPTY
        for slot in range(DISPLAY_SLOTS):
            self._refill(slot, events)
        self.exchange_run_seat = p
        self.exchange_run_count = weeks

    # dig ------------------------------------------------------------------------------------------------
    def _dig(self, p: int, action: ThebesAction, events: list[Event] | None) -> None:
        """Travel, spend the weeks, discard the one-use cards named, draw the tokens, take the first-dig bonus,
        use the permit (after the marker moved: D18)."""
        s, f, weeks = action.site, action.flags, action.weeks
        draws = self.dig_draws(p, s, weeks, f)
        dest = SITE_PLACE[s]
        travel = self._trip(p, dest, f)
        self._move(p, dest, travel, bool(f & F_ZEPPELIN), events)
        self._advance(p, travel + weeks, events, "dig")
        self._spend_dig_cards(p, s, f, events)
        found, dirt = self._draw_tokens(s, draws)
        for token in found:
            self._gain_token(p, s, token)
        if events is not None:
            events.append({"type": "tokens_drawn", "seat": p, "site": SITES[s], "drawn": draws,
                           "found": [_TOKEN_NAMES[t] for t in found], "dirt": dirt})
        if self.first_dig_bonus >> s & 1:
            self.first_dig_bonus &= ~(1 << s)
            self._gain_token(p, s, BONUS_ARTIFACT_VALUE)
            if events is not None:
                events.append({"type": "first_dig_bonus", "seat": p, "site": SITES[s],
                               "token": token_name(BONUS_ARTIFACT_VALUE)})
        self._ints[p * _STRIDE + _PERMITS_USED] |= 1 << s

    def _spend_dig_cards(self, p: int, site: int, flags: int, events: list[Event] | None) -> None:
        """Discard every one-use card the dig names (D13, D14, D17)."""
        if flags & F_RUMORS:
            self._lose_card(p, K_RUMORS, events, site)
        if flags & F_ASSISTANT:
            self._lose_card(p, K_ASSISTANT, events)
        if flags & F_SHOVEL:
            self._lose_card(p, K_SHOVEL, events)
        if flags & F_PERMISSION:
            self._lose_card(p, K_SPECIAL_PERMISSION, events)

    def _draw_tokens(self, site: int, draws: int) -> tuple[list[int], int]:
        """Draw up to `draws` tokens from the site's bag without replacement; dirt goes back after the last
        draw. Returns (the tokens found, in draw order; how many were dirt)."""
        bag = list(self._held[site])
        rng = self._own_rng()  # (a method called on it, not a bound method: compiled, a direct call)
        found = []
        dirt = 0
        for _ in range(draws if draws < len(bag) else len(bag)):
            token = bag.pop(rng.below(len(bag)))
            if token == DIRT:
                dirt += 1
            else:
                found.append(token)
        if dirt:
            bag.extend([DIRT] * dirt)
            bag.sort()
        self._held[site] = tuple(bag)
        return found, dirt

    def _gain_token(self, p: int, site: int, token: int) -> None:
        self._held[p * 3 + _TOKENS] = self._held[p * 3 + _TOKENS] + (site * 32 + token,)
        self._count_token(p, site, token, 1)

    def _count_token(self, p: int, site: int, token: int, sign: int) -> None:
        if token == GENERAL_TOKEN:
            self._ints[p * _STRIDE + _GENERAL_KNOWLEDGE] += sign
        elif token >= SPECIALIZED_TOKEN0:
            self._ints[p * _STRIDE + _BOOKS + token - SPECIALIZED_TOKEN0] += sign
        else:
            self._ints[p * _STRIDE + _ARTIFACTS + site] += sign
            self._ints[p * _STRIDE + _ARTIFACT_POINTS] += sign * token

    # ---------------------------------------------------------------------------------------------- scores
    def score_breakdown(self) -> list[dict[str, int]]:
        """Per seat {"artifacts", "exhibitions", "congress", "majority", "total"} (current if mid-game)."""
        return scoring.breakdown(self.players, self.artifact_points, self.exhibition_points, self.congresses,
                                 self.books)

    def scores(self) -> list[float]:
        return [part["total"] for part in self.score_breakdown()]

    def ranking(self) -> list[int]:
        return rank_by_keys(self.scores())

    # ----------------------------------------------------------------------------------------- observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        """Everything public, which in Thebes is everything but the order of the draw pile and of stack 3 (and
        the RNG). `seat=None` is the omniscient view: it adds `draw_pile` (top first) and `stack3`."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        parts = self.score_breakdown()
        order = self.turn_order()
        seats = []
        for p in range(self.players):
            year, week = marker_year_week(self._ints[p * _STRIDE + _TIME], self.players)
            base = p * _STRIDE
            seats.append({
                "seat": p,
                "place": PLACES[self._ints[p * _STRIDE + _PLACE]],
                "time": self._ints[p * _STRIDE + _TIME],
                "year": year,
                "week": week,
                "finished": self._ints[p * _STRIDE + _TIME] >= END_TIME,
                "cards": [dict(_CARD_VIEWS[c]) for c in self._held[p * 3 + _CARDS]],
                "tokens": [_token_view(t >> 5, t & 31) for t in self._held[p * 3 + _TOKENS]],
                "exhibitions": [_exhibition_view(c) for c in self._held[p * 3 + _WON]],
                "permits_used": [SITES[s] for s in range(N_SITES) if self._ints[p * _STRIDE + _PERMITS_USED] >> s & 1],
                "books": {SITES[s]: self._ints[base + _BOOKS + s] for s in range(N_SITES)},
                "artifacts": {SITES[s]: self._ints[base + _ARTIFACTS + s] for s in range(N_SITES)},
                "general_knowledge": self._ints[p * _STRIDE + _GENERAL_KNOWLEDGE],
                "assistants": self._ints[p * _STRIDE + _ASSISTANTS],
                "shovels": self._ints[p * _STRIDE + _SHOVELS],
                "cars": self._ints[p * _STRIDE + _CARS],
                "zeppelins": self._ints[p * _STRIDE + _ZEPPELINS],
                "special_permissions": self._ints[p * _STRIDE + _SPECIAL_PERMISSIONS],
                "congress": self._ints[p * _STRIDE + _CONGRESSES],
                "rumors": [SITES[s] for s in range(N_SITES) if self._ints[p * _STRIDE + _RUMORS] >> s & 1],
                "score": dict(parts[p]),
            })
        unseen = sorted(self.draw_pile + self.stack3)
        obs = {
            "seat": -1 if seat is None else seat,
            "players": self.players,
            "current_player": self._current,
            "terminal": self._current == TERMINAL,
            "turn_order": order,
            "seats": seats,
            "display": [dict(_CARD_VIEWS[c]) for c in self.display if c >= 0],
            "exhibitions": [{"slot": EXHIBITION_SLOTS[i], **_exhibition_view(c)}
                            for i, c in enumerate(self.exhibition_slots) if c >= 0],
            "draw_pile_count": len(self.draw_pile),
            "stack3_count": len(self.stack3),
            "stack3_used": self.stack3_used,
            "discard": [CARD_IDS[c] for c in self.discard],
            "unseen_cards": [CARD_IDS[c] for c in unseen],
            "bags": [_bag_view(s, self._held[s], bool(self.first_dig_bonus >> s & 1)) for s in range(N_SITES)],
            "exchange_run_seat": self.exchange_run_seat,
            "exchange_run_count": self.exchange_run_count,
            "draw_pile": [],
            "stack3": [],
        }
        if seat is None:
            obs["draw_pile"] = [CARD_IDS[c] for c in reversed(self.draw_pile)]
            obs["stack3"] = [CARD_IDS[c] for c in self.stack3]
        return obs

    def public_observation(self) -> dict[str, Any]:
        """Everything every seat knows: in Thebes a seat's view with no seat named (only the piles' orders are
        hidden, from everyone)."""
        obs = self.observation(0)
        obs["seat"] = -1
        return obs

    # ------------------------------------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON (cards and tokens by name, the RNG as one integer)."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "params": self.game.params,
            "seats": [{
                "time": self._ints[p * _STRIDE + _TIME],
                "arrival": self._ints[p * _STRIDE + _ARRIVAL],
                "place": PLACES[self._ints[p * _STRIDE + _PLACE]],
                "cards": [CARD_IDS[c] for c in self._held[p * 3 + _CARDS]],
                "tokens": [f"{SITES[t >> 5]}/{token_name(t & 31)}" for t in self._held[p * 3 + _TOKENS]],
                "exhibitions": [CARD_IDS[c] for c in self._held[p * 3 + _WON]],
                "permits_used": [SITES[s] for s in range(N_SITES) if self._ints[p * _STRIDE + _PERMITS_USED] >> s & 1],
            } for p in range(self.players)],
            "display": [CARD_IDS[c] if c >= 0 else None for c in self.display],
            "exhibitions": [CARD_IDS[c] if c >= 0 else None for c in self.exhibition_slots],
            "draw_pile": [CARD_IDS[c] for c in reversed(self.draw_pile)],
            "stack3": [CARD_IDS[c] for c in self.stack3],
            "stack3_used": self.stack3_used,
            "discard": [CARD_IDS[c] for c in self.discard],
            "bags": {SITES[s]: [token_name(t) for t in self._held[s]] for s in range(N_SITES)},
            "first_dig_bonus": [SITES[s] for s in range(N_SITES) if self.first_dig_bonus >> s & 1],
            "exchange_run": {"seat": self.exchange_run_seat, "count": self.exchange_run_count},
            "arrivals": self.arrivals,
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, game: Game, data: dict[str, Any]) -> ThebesState:
        """Rebuild a state from `to_json()` output (or a hand-edited copy, for tests). Aggregates are
        recomputed from the cards and tokens; a malformed document raises ValueError."""
        if data.get("format") != STATE_FORMAT or data.get("version") != STATE_VERSION:
            raise ValueError(f"not a {STATE_FORMAT} v{STATE_VERSION} document")
        st = cls(game)
        try:
            seats = data["seats"]
            if len(seats) != st.players:
                raise ValueError(f"{len(seats)} seats in a {st.players}-player game")
            for p, seat in enumerate(seats):
                st._load_seat(p, seat)
            display = [CARD_INDEX[c] if c else _EMPTY for c in data["display"]]
            exhibition_slots = [CARD_INDEX[c] if c else _EMPTY for c in data["exhibitions"]]
            if len(display) != DISPLAY_SLOTS or len(exhibition_slots) != len(EXHIBITION_SLOTS):
                raise ValueError("wrong number of display or exhibition slots")
            st._ints[_DISPLAY:_SEAT0] = display + exhibition_slots
            st.draw_pile = [CARD_INDEX[c] for c in reversed(data["draw_pile"])]
            st.stack3 = [CARD_INDEX[c] for c in data["stack3"]]
            st.stack3_used = bool(data["stack3_used"])
            st.discard = [CARD_INDEX[c] for c in data["discard"]]
            for s, site in enumerate(SITES):
                st._held[s] = tuple(sorted(parse_token(t) for t in data["bags"][site]))
            st.first_dig_bonus = sum(1 << SITE_INDEX[s] for s in set(data["first_dig_bonus"]))
            st.exchange_run_seat = int(data["exchange_run"]["seat"])
            st.exchange_run_count = int(data["exchange_run"]["count"])
            st.arrivals = int(data["arrivals"])
            st.rng = SplitMix64(int(data["rng"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed Thebes state: {exc!r}") from None
        problem = st.conservation_problem()
        if problem:
            raise ValueError(f"inconsistent Thebes state: {problem}")
        st._refresh_current()
        return st

    def _load_seat(self, p: int, seat: dict[str, Any]) -> None:
        """One seat of a `to_json()` document (raises KeyError, TypeError, ValueError when malformed)."""
        self._ints[p * _STRIDE + _TIME] = int(seat["time"])
        if not EARLIEST_TIME <= self._ints[p * _STRIDE + _TIME] <= END_TIME:
            raise ValueError(f"seat {p}: time {self._ints[p * _STRIDE + _TIME]} outside {EARLIEST_TIME}..{END_TIME}")
        self._ints[p * _STRIDE + _ARRIVAL] = int(seat["arrival"])
        self._ints[p * _STRIDE + _PLACE] = PLACE_INDEX[seat["place"]]
        for cid in seat["cards"]:
            c = CARD_INDEX[cid]
            if CARD_KIND[c] == K_EXHIBITION:
                raise ValueError(f"seat {p}: exhibition {cid} listed among cards")
            self._gain_card(p, c)
        for text in seat["tokens"]:
            site, _, name = text.partition("/")
            self._gain_token(p, SITE_INDEX[site], parse_token(name))
        for cid in seat["exhibitions"]:
            c = CARD_INDEX[cid]
            self._held[p * 3 + _WON] = self._held[p * 3 + _WON] + (c,)
            self._ints[p * _STRIDE + _EXHIBITION_POINTS] += CARD_VALUE[c]
        self._ints[p * _STRIDE + _PERMITS_USED] = sum(1 << SITE_INDEX[s] for s in set(seat["permits_used"]))

    # --------------------------------------------------------------------------------------------- checks
    def card_locations(self) -> dict[str, list[int]]:
        """Where every card is, by card index (for conservation checks): each of the 95 cards exactly once."""
        return {
            "pile": list(self.draw_pile), "stack3": list(self.stack3), "discard": list(self.discard),
            "display": [c for c in self.display if c >= 0], "exhibitions": [c for c in self.exhibition_slots if c >= 0],
            "hands": [c for h in self.cards for c in h], "won": [c for w in self.exhibitions_won for c in w],
        }

    def site_tokens(self, site: int) -> list[int]:
        """Every token of a site wherever it is (bag, players, the first-dig bonus on the board), sorted."""
        tokens = list(self._held[site])
        tokens += [t & 31 for h in self.tokens for t in h if t >> 5 == site]
        if self.first_dig_bonus >> site & 1:
            tokens.append(BONUS_ARTIFACT_VALUE)
        return sorted(tokens)

    def conservation_problem(self) -> str | None:
        """None if every card is in exactly one place and every site's tokens are exactly its start set."""
        cards = sorted(c for place in self.card_locations().values() for c in place)
        if cards != list(range(N_CARDS)):
            missing = sorted(set(range(N_CARDS)) - set(cards))
            doubled = sorted({c for c in cards if cards.count(c) > 1})
            return (f"cards missing {[CARD_IDS[c] for c in missing]}, "
                    f"held twice {[CARD_IDS[c] for c in doubled]}")
        for s in range(N_SITES):
            if self.site_tokens(s) != _SITE_TOKENS[s]:
                return f"the {SITES[s]} tokens are not the 30 of its bag plus the first-dig bonus"
        return None

    def __repr__(self) -> str:
        return f"<ThebesState players={self.players} times={self.time} current={self._current}>"


KIND_ACTION_NAMES: Final = ("take", "exhibit", "exchange", "dig", "retire")
_SITE_TOKENS: Final = tuple(sorted(START_BAGS[s] + (BONUS_ARTIFACT_VALUE,)) for s in range(N_SITES))


def _exhibition_view(c: int) -> dict[str, Any]:
    view = dict(_CARD_VIEWS[c])
    view["requirements"] = dict(view["requirements"])
    return view


def _bag_view(site: int, bag: tuple[int, ...], bonus: bool) -> dict[str, Any]:
    return {
        "site": SITES[site],
        "size": len(bag),
        "artifacts": [t for t in bag if 1 <= t <= 7],
        "specialized": [SITES[t - SPECIALIZED_TOKEN0] for t in bag if t >= SPECIALIZED_TOKEN0],
        "general": sum(1 for t in bag if t == GENERAL_TOKEN),
        "dirt": sum(1 for t in bag if t == DIRT),
        "first_dig_bonus": bonus,
    }
