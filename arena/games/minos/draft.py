"""The start of a Minos round: the dice roll, the dice draft onto the action board and the simultaneous groups
decision that turns a seat's dice into track steps (DP-7)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, cast

from arena.games.minos import data as D
from arena.games.minos.rhadamanthus import bot_draft
from arena.games.minos.vases import VasesMixin

if TYPE_CHECKING:
    from arena.games.minos.state import MinosState


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
    found: set[tuple[str, ...]] = {()}
    for i, (m1, t1) in enumerate(valid):
        found.add((t1,))
        for m2, t2 in valid[i + 1:]:
            if not m1 & m2:
                found.add(tuple(sorted((t1, t2), key=D.TRACKS.index)))
    return tuple(sorted(found, key=lambda t: (len(t), [D.TRACKS.index(x) for x in t])))


class DraftMixin(VasesMixin):
    """Round start, dice draft and groups (phases `draft`, `groups`, `groups_apply`), then the vase checkpoint.

    A mixin of `MinosState`: it adds no fields."""

    __slots__ = ()

    def _start_round(self) -> None:
        self.vp_cat = "play"
        self._roll()
        if self.solo:
            deck = sorted(D.BOT_DECK)
            self.rng.shuffle(deck)
            self.solo_bot()["deck"] = deck
            self.solo_bot()["drawn"] = []
            self.solo_bot()["intent"] = {}
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

    def _auto_draft(self) -> bool:
        order = self.turn_order
        while self.step_i < 4 * len(order):
            s = order[self.step_i % len(order)]
            if self._human(s):
                return True
            bot_draft(cast("MinosState", self))
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

    def _legal_draft(self) -> list[str]:
        """`draft:<colour><value>:<row>` once per distinct die face in the pool (two red 5s are one choice)."""
        rows = self._free_rows()
        faces = dict.fromkeys(f"{c}{v}" for c, v in (self.dice[d] for d in self._pool()))
        return [f"draft:{f}:{r}" for f in faces for r in rows]

    def _pool_die(self, face: str) -> str:
        """The pool die a `draft:` face such as `red5` takes: the first such die in id order (dice of one colour
        and value are interchangeable, so which one moves changes nothing but its id)."""
        colour, value = face[:-1], int(face[-1])
        return next(d for d in self._pool() if self.dice[d][0] == colour and self.dice[d][1] == value)

    def _do_draft(self, s: int, text: str) -> None:
        _, face, row = text.split(":")
        self._place(s, self._pool_die(face), row)
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
