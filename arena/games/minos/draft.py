"""The start of a Minos round: the dice roll, the dice draft onto the action board and the simultaneous groups
decision that turns a seat's dice into track steps (DP-7)."""

from __future__ import annotations

import functools
from typing import Final

from arena.games.minos import data as D
from arena.games.minos.position import ROW_SLOTS, MinosPosition
from arena.games.minos.rhadamanthus import bot_draft
from arena.games.minos.vases import checkpoint


@functools.lru_cache(maxsize=1 << 15)
def _group_options(dice: tuple, thr: int) -> tuple:
    """All multisets of <= 2 track steps formed by disjoint valid groups of `dice` ((colour, value) pairs)."""
    k = len(dice)
    colours: list[str] = [die[0] for die in dice]
    values: list[int] = [die[1] for die in dice]
    valid: list[tuple[int, str]] = []  # (member bitmask, track) of every valid single group
    for mask in range(1, 1 << k):
        colour = ""  # the members' one colour besides grey ("" none yet)
        mixed = False
        total = 0
        for i in range(k):
            if mask >> i & 1:
                total += values[i]
                c = colours[i]
                if c != "grey":
                    if not colour:
                        colour = c
                    elif c != colour:
                        mixed = True
        if colour and not mixed and total >= thr:
            valid.append((mask, D.DIE_TRACK[colour]))
    found: set[tuple[str, ...]] = {()}
    for i, (m1, t1) in enumerate(valid):
        found.add((t1,))
        for m2, t2 in valid[i + 1:]:
            if not m1 & m2:
                found.add(tuple(sorted((t1, t2), key=D.TRACKS.index)))
    return tuple(sorted(found, key=lambda t: (len(t), [D.TRACKS.index(x) for x in t])))


def start_round(st: MinosPosition) -> None:
    st.vp_cat = "play"
    roll(st)
    if st.solo:
        deck = sorted(D.BOT_DECK)
        st.rng.shuffle(deck)
        st.solo_bot()["deck"] = deck
        st.solo_bot()["drawn"] = []
        st.solo_bot()["intent"] = {}
    st.phase = "draft"
    st.step_i = 0
    st._ev(type="round", round=st.round, dice={d: v[1] for d, v in st.dice.items()})


def roll(st: MinosPosition) -> None:
    limit = D.C["reroll_if_same_value_at_least"]
    while True:
        values = [st.rng.randint(1, 6) for _ in st.dice]
        if max(values.count(v) for v in range(1, 7)) < limit:
            break
    for d, v in zip(st.dice, values):
        st.dice[d][1] = v
    st.owner = {}
    st.rows = {r: [] for r in D.ROWS}
    st.retrieved = []


def auto_draft(st: MinosPosition) -> bool:
    order = st.turn_order
    while st.step_i < 4 * len(order):
        s = order[st.step_i % len(order)]
        if st._human(s):
            return True
        bot_draft(st)
        st.step_i += 1
    # draft over: progress tracks (simultaneous)
    st.sim = st._order_humans()
    st.commits = {}
    st.phase = "groups"
    return False


def auto_groups(st: MinosPosition) -> bool:
    if st.sim:
        return True
    st.foraged = []
    for s in st._order_humans():
        tracks = st.commits[str(s)]
        gvp = st.mod(s, "group_vp")
        if tracks and gvp:
            st.queue.append({"op": "vp", "n": gvp * len(tracks), "p": s})
        for t in tracks:
            st.queue.append({"op": "track", "track": t, "n": 1, "p": s})
    st.commits = {}
    st.phase = "groups_apply"
    return False


def auto_groups_apply(st: MinosPosition) -> bool:
    checkpoint(st)
    st.phase = "actions"
    st.step_i = 0
    st.turn = None
    return False


#: colour -> value -> row index (`D.ROWS`) -> `draft:<colour><value>:<row>`, built once (the same string objects
#: each time)
_DRAFT_TEXT: Final[dict[str, list[list[str]]]] = {
    c: [[f"draft:{c}{v}:{r}" for r in D.ROWS] for v in range(7)] for c in D.COLOURS}


def legal_draft(st: MinosPosition) -> list[str]:
    """`draft:<colour><value>:<row>` once per distinct die face in the pool (two red 5s are one choice)."""
    placed = st.rows
    rows = [i for i, (r, slots) in enumerate(ROW_SLOTS[st.board_n]) if len(placed[r]) < slots]  # `_free_rows`
    if not rows:
        return []
    first = rows[0]
    faces: dict[str, list[str]] = {}  # by the face's first text, in pool order
    owner = st.owner
    for d, die in st.dice.items():
        if d not in owner:
            texts = _DRAFT_TEXT[die[0]][die[1]]
            faces[texts[first]] = texts
    out = []
    for texts in faces.values():
        for i in rows:
            out.append(texts[i])
    return out


def _pool_die(st: MinosPosition, face: str) -> str:
    """The pool die a `draft:` face such as `red5` takes: the first such die in id order (dice of one colour
    and value are interchangeable, so which one moves changes nothing but its id)."""
    colour, value = face[:-1], int(face[-1])
    owner = st.owner
    for d, die in st.dice.items():
        if d not in owner and die[0] == colour and die[1] == value:
            return d
    raise ValueError(f"no {face} die in the pool")


def do_draft(st: MinosPosition, s: int, text: str) -> None:
    _, face, row = text.split(":")
    st._place(s, _pool_die(st, face), row)
    st.step_i += 1


@functools.lru_cache(maxsize=1 << 15)
def _group_texts(dice: tuple, thr: int) -> tuple[str, ...]:
    """The `groups:` action texts of `_group_options(dice, thr)`, in its order."""
    return tuple(["groups:" + (",".join(t) if t else "none") for t in _group_options(dice, thr)])


def _seat_dice(st: MinosPosition, s: int) -> tuple:
    """The seat's placed dice as sorted (colour, value) pairs."""
    return tuple(sorted(tuple(st.dice[d]) for d, o in st.owner.items() if o == s))


def group_options(st: MinosPosition, s: int) -> list[list[str]]:
    """Every achievable multiset of at most 2 track steps from the seat's 4 placed dice (DP-7)."""
    return [list(t) for t in _group_options(_seat_dice(st, s), st.mod(s, "group_threshold"))]


def legal_groups(st: MinosPosition) -> list[str]:
    s = st.sim[0]
    return list(_group_texts(_seat_dice(st, s), st.mod(s, "group_threshold")))


def do_groups(st: MinosPosition, s: int, text: str) -> None:
    arg = text.split(":")[1]
    st.commits[str(s)] = [] if arg == "none" else arg.split(",")
    st.sim.pop(0)
