"""A Thebes position: the whole game state, its legal actions, their effects, observations and JSON form.

Representation (chosen for speed: search bots call `legal_actions`, `apply` and `clone` millions of times):
- per player scalars are flat lists indexed by seat; per player per site values are flat lists indexed by
  `seat * 5 + site`; hands, found tokens, won exhibitions and bags are tuples replaced on change, so `clone()`
  copies a fixed number of short lists and never walks nested structures;
- aggregates (books per site, general knowledge, assistant/shovel/... counts, artifacts per site) are kept up to
  date on every card or token gained or lost, so legality checks never scan a hand;
- the draw pile keeps its top at the end of the list (pop is O(1));
- the legal-action list is cached until the state changes; actions are interned (see actions.py).

Time: a marker's `time` is weeks since week 1 of 1901 (year = 1901 + time // 52, week = time % 52 + 1);
the end space, week 1 of 1904, is END_TIME = 156. With 2 or 4 players the markers start on the start space
("week 0" of the start year: time -1 or 51), so a first action of w weeks ends on week w.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games.base import TERMINAL, Event, IllegalAction, State, rank_by_keys
from arena.games.thebes import scoring
from arena.games.thebes.actions import (DIG, DIG_ACTIONS, EXCHANGE, EXCHANGE_ACTIONS, EXHIBIT, EXHIBIT_ACTIONS,
                                        F_ASSISTANT, F_NOCAR, F_PERMISSION, F_RUMORS, F_SHOVEL, F_ZEPPELIN, RETIRE,
                                        RETIRE_ACTION, TAKE, TAKE_ACTIONS, VALID_KEYS, ThebesAction)
from arena.games.thebes.data import (ASSISTANT_BONUS, BONUS_ARTIFACT_VALUE, CAR_MIN_SEGMENTS,
                                     CARD_CITY, CARD_IDS, CARD_INDEX, CARD_KIND, CARD_SITE, CARD_VALUE,
                                     CARD_WEEKS, DIRT, DISPLAY_SLOTS, DIST, END_TIME, EXHIBITION_REQ,
                                     EXHIBITION_SIZE, EXHIBITION_SLOTS, FINAL_YEAR_TIME, GENERAL_TOKEN,
                                     K_ASSISTANT, K_CAR, K_CONGRESS, K_EXHIBITION, K_GENERAL, K_RUMORS,
                                     K_SHOVEL, K_SPECIAL_PERMISSION, K_SPECIALIZED, K_ZEPPELIN, KIND_NAMES,
                                     KNOWLEDGE_CAP, LARGE_EXHIBITIONS, N_CARDS, N_RESEARCHERS, PLACE_INDEX,
                                     PLACES, SHOVEL_BONUS, SITE_INDEX, SITE_PLACE, SITES, SMALL_EXHIBITIONS,
                                     SPECIALIZED_TOKEN0, START_BAGS, START_PLACE, START_TIME, WARSAW,
                                     TRIP, WEEKS_PER_YEAR, WHEEL, WHEEL_MIN_WEEKS, EARLIEST_TIME, marker_year_week,
                                     parse_token, token_name, year_week)
from arena.games.rng import SplitMix64

if TYPE_CHECKING:
    from arena.games.thebes.game import ThebesGame

N_SITES = len(SITES)
_copy_list = list.copy
_new_state = object.__new__
STATE_FORMAT = "thebes-state"
STATE_VERSION = 1
_EMPTY = -1


def _card_view(c: int) -> dict[str, Any]:
    if CARD_KIND[c] == K_EXHIBITION:
        return {"id": CARD_IDS[c], "city": PLACES[CARD_CITY[c]], "weeks": CARD_WEEKS[c],
                "size": EXHIBITION_SIZE[c], "points": CARD_VALUE[c],
                "requirements": {SITES[s]: n for s, n in enumerate(EXHIBITION_REQ[c]) if n}}
    return {"id": CARD_IDS[c], "kind": KIND_NAMES[CARD_KIND[c]], "city": PLACES[CARD_CITY[c]],
            "weeks": CARD_WEEKS[c], "site": SITES[CARD_SITE[c]] if CARD_SITE[c] >= 0 else "",
            "value": CARD_VALUE[c]}


_CARD_VIEWS = tuple(_card_view(c) for c in range(N_CARDS))


def _token_view(site: int, token: int) -> dict[str, Any]:
    if token == GENERAL_TOKEN:
        kind, value, knowledge_site = "general", 1, ""
    elif token >= SPECIALIZED_TOKEN0:
        kind, value, knowledge_site = "specialized", 1, SITES[token - SPECIALIZED_TOKEN0]
    else:
        kind, value, knowledge_site = "artifact", token, ""
    return {"site": SITES[site], "kind": kind, "value": value, "knowledge_site": knowledge_site}


class ThebesState(State):
    """One Thebes position. Build with `ThebesGame.new_state(seed)` or `ThebesGame.state_from_json(data)`."""

    __slots__ = (
        "game", "n",
        # per player
        "time", "stamp", "loc", "hand", "tokens", "won", "permits",
        "general", "assist", "shovel", "car", "zep", "sperm", "congress", "rumors", "artval", "expoints",
        # per player per site (index seat * 5 + site)
        "books", "arts",
        # board
        "display", "slots", "pile", "stack3", "stack3_used", "discard", "bags", "bonus",
        "xrun_seat", "xrun_count", "counter", "rng",
        # caches
        "_current", "_legal",
    )

    # ------------------------------------------------------------------------------------------------ setup
    @classmethod
    def initial(cls, game: "ThebesGame", seed: int) -> "ThebesState":
        """The setup of the seeds: 4 researcher cards displayed, the rest in three equal stacks; small
        exhibitions shuffled into stack 2 and large into stack 3 (all into stack 2 with 2 players); stack 1 on
        stack 2 is the draw pile; stack 3 waits. All markers stacked on the start space, seat 0 on top."""
        st = cls._blank(game)
        n = st.n
        rng = st.rng = SplitMix64(seed)
        deck = list(range(N_RESEARCHERS))
        rng.shuffle(deck)
        st.display = deck[:DISPLAY_SLOTS]
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
        st.pile = stack2[::-1] + stack1[::-1]
        st.stack3 = stack3
        start = START_TIME[n]
        st.time = [start] * n
        st.stamp = [n - p for p in range(n)]  # seat 0 arrived last: its marker is on top
        st.counter = n
        st.loc = [START_PLACE] * n
        st._refresh_current()
        return st

    @classmethod
    def _blank(cls, game: "ThebesGame") -> "ThebesState":
        st = cls.__new__(cls)
        n = game.players
        st.game = game
        st.n = n
        st.time = [0] * n
        st.stamp = [0] * n
        st.loc = [START_PLACE] * n
        st.hand = [()] * n
        st.tokens = [()] * n
        st.won = [()] * n
        st.permits = [0] * n
        for name in ("general", "assist", "shovel", "car", "zep", "sperm", "congress", "rumors", "artval",
                     "expoints"):
            setattr(st, name, [0] * n)
        st.books = [0] * (n * N_SITES)
        st.arts = [0] * (n * N_SITES)
        st.display = [_EMPTY] * DISPLAY_SLOTS
        st.slots = [_EMPTY] * len(EXHIBITION_SLOTS)
        st.pile = []
        st.stack3 = []
        st.stack3_used = False
        st.discard = []
        st.bags = list(START_BAGS)
        st.bonus = (1 << N_SITES) - 1
        st.xrun_seat = -1
        st.xrun_count = 0
        st.counter = 0
        st.rng = SplitMix64(0)
        st._current = TERMINAL
        st._legal = None
        return st

    def clone(self) -> "ThebesState":
        st = _new_state(ThebesState)
        st.game = self.game
        st.n = self.n
        # one C-level map over the mutable lists (tuples inside them are immutable and shared)
        (st.time, st.stamp, st.loc, st.hand, st.tokens, st.won, st.permits, st.general, st.assist, st.shovel,
         st.car, st.zep, st.sperm, st.congress, st.rumors, st.artval, st.expoints, st.books, st.arts,
         st.display, st.slots, st.pile, st.stack3, st.discard, st.bags) = map(_copy_list, (
            self.time, self.stamp, self.loc, self.hand, self.tokens, self.won, self.permits, self.general,
            self.assist, self.shovel, self.car, self.zep, self.sperm, self.congress, self.rumors, self.artval,
            self.expoints, self.books, self.arts, self.display, self.slots, self.pile, self.stack3,
            self.discard, self.bags))
        st.stack3_used = self.stack3_used
        st.bonus = self.bonus
        st.xrun_seat = self.xrun_seat
        st.xrun_count = self.xrun_count
        st.counter = self.counter
        st.rng = SplitMix64(self.rng.state)
        st._current = self._current
        st._legal = self._legal  # immutable once built: shared until either state changes
        return st

    # ------------------------------------------------------------------------------------------ turn order
    def _refresh_current(self) -> None:
        """The unfinished player furthest back in time acts; on a tie the marker on top (arrived last)."""
        best = TERMINAL
        best_t = END_TIME
        best_stamp = -1
        time, stamp = self.time, self.stamp
        for p in range(self.n):
            t = time[p]
            if t < best_t or (t == best_t and t < END_TIME and stamp[p] > best_stamp):
                best, best_t, best_stamp = p, t, stamp[p]
        self._current = best

    def current_player(self) -> int:
        return self._current

    def is_terminal(self) -> bool:
        return self._current == TERMINAL

    def turn_order(self) -> list[int]:
        """Unfinished seats in the order they would act if nobody moved (first = current player)."""
        return sorted((p for p in range(self.n) if self.time[p] < END_TIME),
                      key=lambda p: (self.time[p], -self.stamp[p]))

    # ----------------------------------------------------------------------------------------- knowledge
    def _trip(self, p: int, dest: int, flags: int) -> int:
        """Weeks of travel from p's place to dest: a zeppelin flies for free; a car saves 1 week on a trip of
        3+ segments (two cars do not stack: NOTES decision 3) unless the action declines it (F_NOCAR)."""
        if flags & F_ZEPPELIN:
            return 0
        return TRIP[1 if self.car[p] and not flags & F_NOCAR else 0][self.loc[p]][dest]

    def specialized_knowledge(self, p: int, site: int, rumors: bool = False, assistant: bool = False) -> int:
        """The specialized side for a dig at `site`: books of the site (cards and tokens), the rumors card if
        spent (+2), assistants (2 → +1, 3 or more → +2, a single one spent → +1)."""
        a = self.assist[p]
        return (self.books[p * N_SITES + site] + ASSISTANT_BONUS[a if a < 3 else 3]
                + (2 if rumors else 0) + (1 if assistant else 0))

    def dig_knowledge(self, p: int, site: int, rumors: bool = False, assistant: bool = False) -> int:
        """Knowledge on the time wheel: specialized + general, general counted at most up to the specialized
        side, the total capped at 12. 0 when the specialized side is 0 (no dig possible)."""
        spec = self.specialized_knowledge(p, site, rumors, assistant)
        if spec <= 0:
            return 0
        gen = self.general[p]
        total = spec + (gen if gen < spec else spec)
        return total if total < KNOWLEDGE_CAP else KNOWLEDGE_CAP

    def dig_draws(self, p: int, site: int, weeks: int, flags: int = 0) -> int:
        """Tokens a dig draws: the wheel's number plus shovels (2 → +1, 3 or more → +2, a single spent → +1)."""
        know = self.dig_knowledge(p, site, bool(flags & F_RUMORS), bool(flags & F_ASSISTANT))
        s = self.shovel[p]
        return WHEEL[know][weeks] + SHOVEL_BONUS[s if s < 3 else 3] + (1 if flags & F_SHOVEL else 0)

    def _exchange_weeks(self, p: int) -> int:
        return self.xrun_count + 1 if self.xrun_seat == p else 1

    def _can_exchange(self) -> bool:
        return bool(self.pile or self.discard or self.stack3 or any(c >= 0 for c in self.display))

    def _meets(self, p: int, card: int) -> bool:
        base = p * N_SITES
        arts = self.arts
        req = EXHIBITION_REQ[card]
        for s in range(N_SITES):
            if arts[base + s] < req[s]:
                return False
        return True

    # ------------------------------------------------------------------------------------------- legality
    def legal_actions(self) -> list[ThebesAction]:
        """Every legal action of the current player, each once, in this order: take (display slot order;
        driven, car declined, flown), exhibit (slots a-c, same), exchange (same), dig (by site, then trip and
        one-use card choices, then weeks), retire. Empty when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> tuple[ThebesAction, ...]:
        p = self._current
        if p < 0:
            return ()
        rem = END_TIME - self.time[p]
        loc = self.loc[p]
        here = DIST[loc]
        has_car = self.car[p] > 0
        trip = TRIP[1 if has_car else 0][loc]
        has_zep = self.zep[p] > 0
        out: list[ThebesAction] = []
        append = out.append
        for c in self.display:
            if c >= 0:
                dest = CARD_CITY[c]
                w = CARD_WEEKS[c]
                if trip[dest] + w <= rem:
                    append(TAKE_ACTIONS[c, 0])
                if has_car and here[dest] >= CAR_MIN_SEGMENTS and here[dest] + w <= rem:
                    append(TAKE_ACTIONS[c, F_NOCAR])
                if has_zep and here[dest] and w <= rem:
                    append(TAKE_ACTIONS[c, F_ZEPPELIN])
        for c in self.slots:
            if c >= 0 and self._meets(p, c):
                dest = CARD_CITY[c]
                w = CARD_WEEKS[c]
                if trip[dest] + w <= rem:
                    append(EXHIBIT_ACTIONS[c, 0])
                if has_car and here[dest] >= CAR_MIN_SEGMENTS and here[dest] + w <= rem:
                    append(EXHIBIT_ACTIONS[c, F_NOCAR])
                if has_zep and here[dest] and w <= rem:
                    append(EXHIBIT_ACTIONS[c, F_ZEPPELIN])
        if self._can_exchange():
            w = self._exchange_weeks(p)
            if trip[WARSAW] + w <= rem:
                append(EXCHANGE_ACTIONS[0])
            if has_car and here[WARSAW] >= CAR_MIN_SEGMENTS and here[WARSAW] + w <= rem:
                append(EXCHANGE_ACTIONS[F_NOCAR])
            if has_zep and here[WARSAW] and w <= rem:
                append(EXCHANGE_ACTIONS[F_ZEPPELIN])
        permits = self.permits[p]
        sperm = self.sperm[p]
        rumors = self.rumors[p]
        gen = self.general[p]
        a = self.assist[p]
        abonus = ASSISTANT_BONUS[a if a < 3 else 3]
        assist_opts = (0, F_ASSISTANT) if a == 1 else (0,)
        shovel_opts = (0, F_SHOVEL) if self.shovel[p] == 1 else (0,)
        books = self.books
        base_index = p * N_SITES
        for s in range(N_SITES):
            if permits >> s & 1:
                if not sperm:
                    continue
                perm = F_PERMISSION
            else:
                perm = 0
            base = books[base_index + s] + abonus
            has_rumors = rumors >> s & 1
            if base <= 0 and not has_rumors and len(assist_opts) == 1:
                continue  # no specialized knowledge for this site, and nothing to spend for it
            dest = SITE_PLACE[s]
            trips = [(0, trip[dest])]
            if has_car and here[dest] >= CAR_MIN_SEGMENTS:
                trips.append((F_NOCAR, here[dest]))
            if has_zep and here[dest]:
                trips.append((F_ZEPPELIN, 0))
            rumor_opts = (0, F_RUMORS) if has_rumors else (0,)
            site_actions = DIG_ACTIONS[s]
            for zf, tr in trips:
                wmax = rem - tr
                if wmax < 1:
                    continue
                if wmax > 12:
                    wmax = 12
                for rf in rumor_opts:
                    for af in assist_opts:
                        spec = base + (2 if rf else 0) + (1 if af else 0)
                        if spec <= 0:
                            continue
                        know = spec + (gen if gen < spec else spec)
                        if know > KNOWLEDGE_CAP:
                            know = KNOWLEDGE_CAP
                        wmin = WHEEL_MIN_WEEKS[know]
                        if wmin > wmax:
                            continue
                        for sf in shovel_opts:
                            out.extend(site_actions[perm | zf | rf | af | sf][wmin - 1:wmax])
        if not out or self.time[p] >= FINAL_YEAR_TIME:
            append(RETIRE_ACTION)
        return tuple(out)

    def illegal_reason(self, action: object) -> str | None:
        """Why `action` is not legal now, or None if it is. Agrees with `legal_actions()` on every action."""
        if not isinstance(action, ThebesAction):
            return f"not a Thebes action ({type(action).__name__})"
        if action._key not in VALID_KEYS:
            return "no such Thebes action (out-of-range card, site, weeks or flags)"
        p = self._current
        if p < 0:
            return "the game is over"
        rem = END_TIME - self.time[p]
        kind, f = action.kind, action.flags
        zeppelin = bool(f & F_ZEPPELIN)
        if zeppelin and not self.zep[p]:
            return "you hold no zeppelin card"
        if f & F_NOCAR and not self.car[p]:
            return "you hold no car to decline"
        if kind == RETIRE:
            if self.time[p] >= FINAL_YEAR_TIME:
                return None
            if self._generate_without_retire():
                return "retiring is only allowed in the final year (1903) or when no other action fits"
            return None
        if kind == TAKE:
            c = action.card
            if c not in self.display:
                return f"{CARD_IDS[c]} is not on display"
            dest, weeks = CARD_CITY[c], CARD_WEEKS[c]
        elif kind == EXHIBIT:
            c = action.card
            if c not in self.slots:
                return f"{CARD_IDS[c]} is not among the exhibitions on display"
            if not self._meets(p, c):
                return f"you lack the artifacts {CARD_IDS[c]} requires"
            dest, weeks = CARD_CITY[c], CARD_WEEKS[c]
        elif kind == EXCHANGE:
            if not self._can_exchange():
                return "there are no cards to exchange"
            dest, weeks = WARSAW, self._exchange_weeks(p)
        elif kind == DIG:
            s = action.site
            if f & F_PERMISSION:
                if not self.permits[p] >> s & 1:
                    return f"your {SITES[s]} permit is still valid; no special permission is needed"
                if not self.sperm[p]:
                    return "you hold no special permission card"
            elif self.permits[p] >> s & 1:
                return f"your {SITES[s]} permit is used this year (a special permission card would allow it)"
            if f & F_RUMORS and not self.rumors[p] >> s & 1:
                return f"you hold no rumors card for {SITES[s]}"
            if f & F_ASSISTANT and self.assist[p] != 1:
                return "a single assistant can only be spent when it is your only assistant"
            if f & F_SHOVEL and self.shovel[p] != 1:
                return "a single shovel can only be spent when it is your only shovel"
            if self.specialized_knowledge(p, s, bool(f & F_RUMORS), bool(f & F_ASSISTANT)) <= 0:
                return f"you have no specialized knowledge for {SITES[s]}"
            know = self.dig_knowledge(p, s, bool(f & F_RUMORS), bool(f & F_ASSISTANT))
            if WHEEL[know][action.weeks] <= 0:
                return f"with knowledge {know} a dig of {action.weeks} weeks draws no token"
            dest, weeks = SITE_PLACE[s], action.weeks
        else:
            return "unknown action kind"
        if zeppelin and DIST[self.loc[p]][dest] == 0:
            return "there is no trip to fly: you are already there"
        if f & F_NOCAR and DIST[self.loc[p]][dest] < CAR_MIN_SEGMENTS:
            return f"the car only shortens trips of {CAR_MIN_SEGMENTS}+ segments: there is nothing to decline"
        cost = self._trip(p, dest, f) + weeks
        if cost > rem:
            return f"it takes {cost} weeks but only {rem} remain before the end (week 1 of 1904)"
        return None

    def _generate_without_retire(self) -> bool:
        legal = self._legal if self._legal is not None else self._generate()
        return any(a.kind != RETIRE for a in legal)

    # ---------------------------------------------------------------------------------------------- apply
    def apply(self, action: ThebesAction) -> list[Event]:
        """Play `action` for the current player; returns the events. Raises IllegalAction (state unchanged)."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(action, reason)
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
            self._advance(p, END_TIME - self.time[p], events, "retire")
        elif kind == DIG:
            self._dig(p, action, events)
        else:
            if kind == TAKE:
                dest, weeks = CARD_CITY[action.card], CARD_WEEKS[action.card]
            elif kind == EXHIBIT:
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
            self.xrun_seat = -1
            self.xrun_count = 0
        self._legal = None
        self._refresh_current()
        if events is not None and self._current == TERMINAL:
            events.append({"type": "game_over", "scores": self.scores()})

    def _move(self, p: int, dest: int, travel: int, zeppelin: bool, events: list[Event] | None) -> None:
        src = self.loc[p]
        if zeppelin:
            self._lose_card(p, K_ZEPPELIN, events)
        self.loc[p] = dest
        if events is not None and src != dest:
            events.append({"type": "travelled", "seat": p, "from": PLACES[src], "to": PLACES[dest],
                           "weeks": travel, "zeppelin": zeppelin})

    def _advance(self, p: int, weeks: int, events: list[Event] | None, why: str) -> None:
        """Move p's marker; it goes on top of any markers already there. Passing week 52 starts p's new year
        and makes all of p's permits valid again (NOTES decision 6)."""
        t0 = self.time[p]
        t1 = t0 + weeks
        self.time[p] = t1
        self.counter += 1
        self.stamp[p] = self.counter
        if events is not None:
            year, week = year_week(t1)
            events.append({"type": "time", "seat": p, "weeks": weeks, "year": year, "week": week, "for": why})
        if t1 // WEEKS_PER_YEAR > t0 // WEEKS_PER_YEAR and t0 != START_TIME[self.n]:
            # (leaving the start space, week 0 of the start year, is no year end)
            self.permits[p] = 0
            if events is not None:
                events.append({"type": "year_passed", "seat": p, "year": year_week(t1)[0]})
        if t1 >= END_TIME and events is not None:
            events.append({"type": "finished", "seat": p})

    # cards ----------------------------------------------------------------------------------------------
    def _gain_card(self, p: int, c: int) -> None:
        self.hand[p] = self.hand[p] + (c,)
        self._count_card(p, c, 1)

    def _count_card(self, p: int, c: int, sign: int) -> None:
        k = CARD_KIND[c]
        if k == K_SPECIALIZED:
            self.books[p * N_SITES + CARD_SITE[c]] += sign * CARD_VALUE[c]
        elif k == K_GENERAL:
            self.general[p] += sign * CARD_VALUE[c]
        elif k == K_CONGRESS:
            self.congress[p] += sign
        elif k == K_ASSISTANT:
            self.assist[p] += sign
        elif k == K_SHOVEL:
            self.shovel[p] += sign
        elif k == K_CAR:
            self.car[p] += sign
        elif k == K_ZEPPELIN:
            self.zep[p] += sign
        elif k == K_SPECIAL_PERMISSION:
            self.sperm[p] += sign
        elif k == K_RUMORS:
            self.rumors[p] ^= 1 << CARD_SITE[c]

    def _lose_card(self, p: int, kind: int, events: list[Event] | None, site: int = -1) -> None:
        """Discard p's one-use card of `kind` (of `site` for rumors); with two alike, the lower id goes."""
        hand = self.hand[p]
        for i, c in enumerate(sorted(hand)):
            if CARD_KIND[c] == kind and (site < 0 or CARD_SITE[c] == site):
                break
        else:  # pragma: no cover - legality was checked
            raise AssertionError("no such card")
        j = hand.index(c)
        self.hand[p] = hand[:j] + hand[j + 1:]
        self._count_card(p, c, -1)
        self.discard.append(c)
        if events is not None:
            events.append({"type": "card_spent", "seat": p, "card": CARD_IDS[c]})

    def _draw_one(self, events: list[Event] | None) -> int:
        """The top card of the draw pile; an empty pile is rebuilt from the discard pile and stack 3 the first
        time, from the discard pile alone after that. -1 if nothing is left (NOTES decision 8)."""
        pile = self.pile
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
            self.rng.shuffle(pile)
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
                self.display[slot] = _EMPTY
                if events is not None:
                    events.append({"type": "slot_left_empty", "slot": slot})
                return
            if CARD_KIND[c] == K_EXHIBITION:
                self._push_exhibition(c, events)
                continue
            self.display[slot] = c
            if events is not None:
                events.append({"type": "card_drawn", "slot": slot, "card": CARD_IDS[c]})
            return

    def _push_exhibition(self, c: int, events: list[Event] | None) -> None:
        """The new exhibition goes to slot a and every card on display moves on one slot (a→b, b→c); the card
        that was in slot c is discarded, whether or not a slot before it was empty (seeds 000/001/003: "if a
        card is in (c), it is discarded")."""
        slots = self.slots
        gone = slots[-1]
        shifted = any(x >= 0 for x in slots[:-1])
        slots[1:] = slots[:-1]
        slots[0] = c
        if events is not None:
            events.append({"type": "exhibition_drawn", "card": CARD_IDS[c]})
            if shifted:  # a card that was in slot a or b moved on
                events.append({"type": "exhibitions_shifted",
                               "slots": [CARD_IDS[x] if x >= 0 else "" for x in slots]})
        if gone >= 0:
            self.discard.append(gone)
            if events is not None:
                events.append({"type": "exhibition_discarded", "card": CARD_IDS[gone]})

    def _take(self, p: int, c: int, events: list[Event] | None) -> None:
        slot = self.display.index(c)
        self._gain_card(p, c)
        if events is not None:
            events.append({"type": "card_taken", "seat": p, "card": CARD_IDS[c], "slot": slot})
        self._refill(slot, events)

    def _exhibit(self, p: int, c: int, events: list[Event] | None) -> None:
        slot = self.slots.index(c)
        self.slots[slot] = _EMPTY
        self.won[p] = self.won[p] + (c,)
        self.expoints[p] += CARD_VALUE[c]
        if events is not None:
            events.append({"type": "exhibition_done", "seat": p, "card": CARD_IDS[c],
                           "slot": EXHIBITION_SLOTS[slot], "points": CARD_VALUE[c]})

    def _exchange(self, p: int, weeks: int, events: list[Event] | None) -> None:
        display = self.display
        for c in display:
            if c >= 0:
                self.discard.append(c)
        if events is not None:
            events.append({"type": "display_exchanged", "seat": p, "weeks": weeks,
                           "discarded": [CARD_IDS[c] for c in display if c >= 0]})
        for slot in range(DISPLAY_SLOTS):
            display[slot] = _EMPTY
        for slot in range(DISPLAY_SLOTS):
            self._refill(slot, events)
        self.xrun_seat = p
        self.xrun_count = weeks

    # dig ------------------------------------------------------------------------------------------------
    def _dig(self, p: int, action: ThebesAction, events: list[Event] | None) -> None:
        s, f, weeks = action.site, action.flags, action.weeks
        draws = self.dig_draws(p, s, weeks, f)
        dest = SITE_PLACE[s]
        zeppelin = bool(f & F_ZEPPELIN)
        travel = self._trip(p, dest, f)
        self._move(p, dest, travel, zeppelin, events)
        self._advance(p, travel + weeks, events, "dig")
        if f & F_RUMORS:
            self._lose_card(p, K_RUMORS, events, s)
        if f & F_ASSISTANT:
            self._lose_card(p, K_ASSISTANT, events)
        if f & F_SHOVEL:
            self._lose_card(p, K_SHOVEL, events)
        if f & F_PERMISSION:
            self._lose_card(p, K_SPECIAL_PERMISSION, events)
        # draw without replacement; dirt goes back after the last draw
        bag = list(self.bags[s])
        below = self.rng.below
        found = []
        dirt = 0
        for _ in range(draws if draws < len(bag) else len(bag)):
            token = bag.pop(below(len(bag)))
            if token == DIRT:
                dirt += 1
            else:
                found.append(token)
        if dirt:
            bag.extend([DIRT] * dirt)
            bag.sort()
        self.bags[s] = tuple(bag)
        for token in found:
            self._gain_token(p, s, token)
        if events is not None:
            events.append({"type": "tokens_drawn", "seat": p, "site": SITES[s], "drawn": draws,
                           "found": [token_name(t) for t in found], "dirt": dirt})
        if self.bonus >> s & 1:
            self.bonus &= ~(1 << s)
            self._gain_token(p, s, BONUS_ARTIFACT_VALUE)
            if events is not None:
                events.append({"type": "first_dig_bonus", "seat": p, "site": SITES[s],
                               "token": token_name(BONUS_ARTIFACT_VALUE)})
        self.permits[p] |= 1 << s

    def _gain_token(self, p: int, site: int, token: int) -> None:
        self.tokens[p] = self.tokens[p] + (site * 32 + token,)
        self._count_token(p, site, token, 1)

    def _count_token(self, p: int, site: int, token: int, sign: int) -> None:
        if token == GENERAL_TOKEN:
            self.general[p] += sign
        elif token >= SPECIALIZED_TOKEN0:
            self.books[p * N_SITES + token - SPECIALIZED_TOKEN0] += sign
        else:
            self.arts[p * N_SITES + site] += sign
            self.artval[p] += sign * token

    # ---------------------------------------------------------------------------------------------- scores
    def score_breakdown(self) -> list[dict[str, int]]:
        """Per seat {"artifacts", "exhibitions", "congress", "majority", "total"} (current if mid-game)."""
        return scoring.breakdown(self.n, self.artval, self.expoints, self.congress, self.books)

    def scores(self) -> list[float]:
        return [part["total"] for part in self.score_breakdown()]

    def ranking(self) -> list[int]:
        return rank_by_keys(self.scores())

    # ----------------------------------------------------------------------------------------- observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        """Everything public, which in Thebes is everything but the order of the draw pile and of stack 3 (and
        the RNG). `seat=None` is the omniscient view: it adds `draw_pile` (top first) and `stack3`."""
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat} in a {self.n}-player game")
        parts = self.score_breakdown()
        order = self.turn_order()
        seats = []
        for p in range(self.n):
            year, week = marker_year_week(self.time[p], self.n)
            base = p * N_SITES
            seats.append({
                "seat": p,
                "place": PLACES[self.loc[p]],
                "time": self.time[p],
                "year": year,
                "week": week,
                "finished": self.time[p] >= END_TIME,
                "cards": [dict(_CARD_VIEWS[c]) for c in self.hand[p]],
                "tokens": [_token_view(t >> 5, t & 31) for t in self.tokens[p]],
                "exhibitions": [_exhibition_view(c) for c in self.won[p]],
                "permits_used": [SITES[s] for s in range(N_SITES) if self.permits[p] >> s & 1],
                "books": {SITES[s]: self.books[base + s] for s in range(N_SITES)},
                "artifacts": {SITES[s]: self.arts[base + s] for s in range(N_SITES)},
                "general_knowledge": self.general[p],
                "assistants": self.assist[p],
                "shovels": self.shovel[p],
                "cars": self.car[p],
                "zeppelins": self.zep[p],
                "special_permissions": self.sperm[p],
                "congress": self.congress[p],
                "rumors": [SITES[s] for s in range(N_SITES) if self.rumors[p] >> s & 1],
                "score": dict(parts[p]),
            })
        unseen = sorted(self.pile + self.stack3)
        obs = {
            "seat": -1 if seat is None else seat,
            "players": self.n,
            "current_player": self._current,
            "terminal": self._current == TERMINAL,
            "turn_order": order,
            "seats": seats,
            "display": [dict(_CARD_VIEWS[c]) for c in self.display if c >= 0],
            "exhibitions": [{"slot": EXHIBITION_SLOTS[i], **_exhibition_view(c)}
                            for i, c in enumerate(self.slots) if c >= 0],
            "draw_pile_count": len(self.pile),
            "stack3_count": len(self.stack3),
            "stack3_used": self.stack3_used,
            "discard": [CARD_IDS[c] for c in self.discard],
            "unseen_cards": [CARD_IDS[c] for c in unseen],
            "bags": [_bag_view(s, self.bags[s], bool(self.bonus >> s & 1)) for s in range(N_SITES)],
            "exchange_run_seat": self.xrun_seat,
            "exchange_run_count": self.xrun_count,
            "draw_pile": [],
            "stack3": [],
        }
        if seat is None:
            obs["draw_pile"] = [CARD_IDS[c] for c in reversed(self.pile)]
            obs["stack3"] = [CARD_IDS[c] for c in self.stack3]
        return obs

    # ------------------------------------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON (cards and tokens by name, the RNG as one integer)."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "params": self.game.params,
            "seats": [{
                "time": self.time[p],
                "arrival": self.stamp[p],
                "place": PLACES[self.loc[p]],
                "cards": [CARD_IDS[c] for c in self.hand[p]],
                "tokens": [f"{SITES[t >> 5]}/{token_name(t & 31)}" for t in self.tokens[p]],
                "exhibitions": [CARD_IDS[c] for c in self.won[p]],
                "permits_used": [SITES[s] for s in range(N_SITES) if self.permits[p] >> s & 1],
            } for p in range(self.n)],
            "display": [CARD_IDS[c] if c >= 0 else None for c in self.display],
            "exhibitions": [CARD_IDS[c] if c >= 0 else None for c in self.slots],
            "draw_pile": [CARD_IDS[c] for c in reversed(self.pile)],
            "stack3": [CARD_IDS[c] for c in self.stack3],
            "stack3_used": self.stack3_used,
            "discard": [CARD_IDS[c] for c in self.discard],
            "bags": {SITES[s]: [token_name(t) for t in self.bags[s]] for s in range(N_SITES)},
            "first_dig_bonus": [SITES[s] for s in range(N_SITES) if self.bonus >> s & 1],
            "exchange_run": {"seat": self.xrun_seat, "count": self.xrun_count},
            "arrivals": self.counter,
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, game: "ThebesGame", data: dict[str, Any]) -> "ThebesState":
        """Rebuild a state from `to_json()` output (or a hand-edited copy, for tests). Aggregates are
        recomputed from the cards and tokens; a malformed document raises ValueError."""
        if data.get("format") != STATE_FORMAT or data.get("version") != STATE_VERSION:
            raise ValueError(f"not a {STATE_FORMAT} v{STATE_VERSION} document")
        st = cls._blank(game)
        try:
            seats = data["seats"]
            if len(seats) != st.n:
                raise ValueError(f"{len(seats)} seats in a {st.n}-player game")
            for p, seat in enumerate(seats):
                st.time[p] = int(seat["time"])
                if not EARLIEST_TIME <= st.time[p] <= END_TIME:
                    raise ValueError(f"seat {p}: time {st.time[p]} outside {EARLIEST_TIME}..{END_TIME}")
                st.stamp[p] = int(seat["arrival"])
                st.loc[p] = PLACE_INDEX[seat["place"]]
                for cid in seat["cards"]:
                    c = CARD_INDEX[cid]
                    if CARD_KIND[c] == K_EXHIBITION:
                        raise ValueError(f"seat {p}: exhibition {cid} listed among cards")
                    st._gain_card(p, c)
                for text in seat["tokens"]:
                    site, _, name = text.partition("/")
                    st._gain_token(p, SITE_INDEX[site], parse_token(name))
                for cid in seat["exhibitions"]:
                    c = CARD_INDEX[cid]
                    st.won[p] = st.won[p] + (c,)
                    st.expoints[p] += CARD_VALUE[c]
                st.permits[p] = sum(1 << SITE_INDEX[s] for s in set(seat["permits_used"]))
            st.display = [CARD_INDEX[c] if c else _EMPTY for c in data["display"]]
            st.slots = [CARD_INDEX[c] if c else _EMPTY for c in data["exhibitions"]]
            if len(st.display) != DISPLAY_SLOTS or len(st.slots) != len(EXHIBITION_SLOTS):
                raise ValueError("wrong number of display or exhibition slots")
            st.pile = [CARD_INDEX[c] for c in reversed(data["draw_pile"])]
            st.stack3 = [CARD_INDEX[c] for c in data["stack3"]]
            st.stack3_used = bool(data["stack3_used"])
            st.discard = [CARD_INDEX[c] for c in data["discard"]]
            st.bags = [tuple(sorted(parse_token(t) for t in data["bags"][s])) for s in SITES]
            st.bonus = sum(1 << SITE_INDEX[s] for s in set(data["first_dig_bonus"]))
            st.xrun_seat = int(data["exchange_run"]["seat"])
            st.xrun_count = int(data["exchange_run"]["count"])
            st.counter = int(data["arrivals"])
            st.rng = SplitMix64(int(data["rng"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed Thebes state: {exc!r}") from None
        problem = st.conservation_problem()
        if problem:
            raise ValueError(f"inconsistent Thebes state: {problem}")
        st._refresh_current()
        return st

    # --------------------------------------------------------------------------------------------- checks
    def card_locations(self) -> dict[str, list[int]]:
        """Where every card is, by card index (for conservation checks): each of the 95 cards exactly once."""
        return {
            "pile": list(self.pile), "stack3": list(self.stack3), "discard": list(self.discard),
            "display": [c for c in self.display if c >= 0], "exhibitions": [c for c in self.slots if c >= 0],
            "hands": [c for h in self.hand for c in h], "won": [c for w in self.won for c in w],
        }

    def site_tokens(self, site: int) -> list[int]:
        """Every token of a site wherever it is (bag, players, the first-dig bonus on the board), sorted."""
        tokens = list(self.bags[site])
        tokens += [t & 31 for h in self.tokens for t in h if t >> 5 == site]
        if self.bonus >> site & 1:
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
        return f"<ThebesState players={self.n} times={self.time} current={self._current}>"


KIND_ACTION_NAMES = ("take", "exhibit", "exchange", "dig", "retire")
_SITE_TOKENS = tuple(sorted(START_BAGS[s] + (BONUS_ARTIFACT_VALUE,)) for s in range(N_SITES))


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
