"""A fixed, numbered action space per game, and the exact mapping between an index and the engine's action text.

Standard reinforcement-learning libraries want a `Discrete(n)` action space and a 0/1 mask of length n; the engines
list their legal actions as canonical texts (`str(action)`). `ActionSpace` joins the two, exactly both ways:

- `index(action_text, legal_texts)` is the slot of a legal action; `text(index, legal_texts)` is the legal action
  a slot stands for (raises `KeyError` for a slot that is not legal there); `mask(legal_texts)` has a 1 exactly at
  the slots of the legal actions. Every legal action of every position has its own slot (no two share one), which
  the round-trip test checks on every legal action of thousands of random positions.

Thebes (`ACTION_SPACE_VERSION` "thebes-actions-1"): one slot per action that exists (`arena.games.thebes.actions
.ALL_ACTIONS`, sorted by (kind, card, site, weeks, flags)); the mapping does not depend on the position.

Minos ("minos-actions-1"): Minos actions name card *instances* (`play:I-07#2`), and the engine offers one instance
per distinct outcome (copies are interchangeable unless one was seen taken from the offer). A slot is therefore a
*key* — the text with the copy numbers removed (`play:I-07`) — and a *rank* among the legal actions of the
position that share that key, in text order (0: the lowest instance id, 1: the next, 2: the third; a card has
three copies, and e.g. `move:` may offer one from the play area and two the others can tell apart in hand). Every other Minos text has no copy number and rank 0. `keep:` slots are the sorted
multisets of three era-I card ids (copies drawn at set-up are interchangeable). Regions, routes, goods, tracks,
dice, tiles and cards are enumerated from the game's data, so every text the engine can offer has a slot.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import cache

__all__ = ["ActionSpace", "action_space"]


class ActionSpace:
    """The numbered slots of one game; see the module's docstring for what a slot is."""

    def __init__(self, game: str, version: str, keys: Sequence[str], copy_ranks: bool):
        self.game = game
        self.version = version
        #: slot -> its key text (Minos: `key#rank` for ranked card actions, see `slot_name`)
        self.slots: tuple[str, ...] = tuple(keys)
        self._index = {k: i for i, k in enumerate(self.slots)}
        if len(self._index) != len(self.slots):
            raise ValueError("duplicate slot keys")
        self._copy_ranks = copy_ranks

    @property
    def n(self) -> int:
        """The number of slots (the size of `Discrete(n)` and of the mask)."""
        return len(self.slots)

    def slot_names(self, legal: Sequence[str]) -> list[str]:
        """The slot key of each legal action, in the order given (Minos: copy numbers replaced by ranks)."""
        if not self._copy_ranks:
            return list(legal)
        names: list[str] = []
        seen: dict[str, int] = {}
        for text in sorted(legal):
            key = _COPY.sub("", text)
            rank = seen.get(key, 0)
            seen[key] = rank + 1
            names.append(f"{key}@{rank}" if _RANKED.match(text) else key)
        order = dict(zip(sorted(legal), names))
        return [order[t] for t in legal]

    def indices(self, legal: Sequence[str]) -> list[int]:
        """The slot of each legal action, in the order given. Raises KeyError for a text with no slot."""
        try:
            if not self._copy_ranks:
                index = self._index
                return [index[t] for t in legal]
            return [self._index[k] for k in self.slot_names(legal)]
        except KeyError as exc:
            raise KeyError(f"{self.game}: action {exc.args[0]!r} has no slot in {self.version}") from None

    def index(self, action_text: str, legal: Sequence[str]) -> int:
        """The slot of `action_text`, one of the `legal` texts of the position."""
        return self.indices(legal)[list(legal).index(action_text)]

    def text(self, index: int, legal: Sequence[str]) -> str:
        """The legal action (canonical text) that slot `index` stands for in the position whose legal actions are
        `legal`; KeyError if that slot is not legal there."""
        for text, i in zip(legal, self.indices(legal)):
            if i == index:
                return text
        raise KeyError(f"{self.game}: slot {index} is not a legal action here")

    def mask(self, legal: Sequence[str]) -> list[int]:
        """0/1 per slot: 1 exactly at the legal actions' slots."""
        out = [0] * self.n
        for i in self.indices(legal):
            out[i] = 1
        return out


_COPY = re.compile(r"#\d")
#: copies of each Minos card (`I-07#1`..`#3`): at most that many of one card are ever legal at once
COPIES = 3
# the kinds that name one card instance, of which two copies may be told apart
_RANKED = re.compile(r"^(?:play|move|trait|palace):")


def _thebes() -> ActionSpace:
    from arena.games.thebes.actions import ALL_ACTIONS

    keys = [str(a) for a in sorted(ALL_ACTIONS.values())]
    return ActionSpace("thebes", "thebes-actions-1", keys, copy_ranks=False)


def _minos() -> ActionSpace:
    from arena.games.minos import data as D

    raw = D.DATA  # the game data as the engine loaded it (a compiled module has no __file__ beside data.json)
    regions = [r["id"] for r in raw["map"]["regions"]]
    goods = [g["id"] for g in raw["goods"]]
    tracks = [t["id"] for t in raw["progress_tracks"]]
    routes = [r["id"] for r in raw["trade_routes"]]
    cards = [c["id"] for c in raw["cards"]]
    era1 = [c["id"] for c in raw["cards"] if c["era"] == "I"]
    colours = list(raw["dice"]["colours"])
    rows = list(raw["action_board"]["rows"])
    keys: list[str] = []
    keys += [f"pick:{s['id']}" for s in raw["starting_cards"]] + [f"pick:{a['id']}" for a in raw["abilities"]]
    keys += [f"start:{r}" for r in regions]
    keys += ["keep:" + ",".join(c) for c in itertools.combinations_with_replacement(era1, 3)]
    keys += [f"draft:{c}{v}:{row}" for c in colours for v in raw["constants"]["die_faces"] for row in rows]
    keys += ["groups:none"] + [f"groups:{t}" for t in tracks]
    keys += [f"groups:{a},{b}" for a, b in itertools.combinations_with_replacement(tracks, 2)]
    keys += [f"retrieve:{c[0]}{i}" for c in colours for i in range(1, raw["dice"]["colours"][c] + 1)]
    keys += ["bonus", "main:forgo", "main:start"] + [f"main:start:{a}" for a in rows if a != "wild"]
    keys += ["main:finish", "end"]
    keys += [f"extra:craft:{g}" for g in goods] + [f"extra:fight:{r}" for r in regions]
    keys += [f"extra:barter:{g}" for g in goods]
    keys += [f"offer:{i}" for i in range(1, raw["constants"]["offer_size"] + 1)] + ["deck"]
    keys += [f"farm:{r}:{g}" for r in regions for g in goods] + [f"city:{r}" for r in regions]
    keys += [f"tower:{r}" for r in regions] + [f"ship:{r}" for r in routes] + [f"step:{r}" for r in routes]
    keys += ["recruit"] + [f"deploy:{r}{k}" for r in regions for k in ("", ":1", ":2")]
    keys += [f"march:{a}:{b}{k}" for a in regions for b in regions if a != b for k in ("", ":1", ":2")]
    keys += [f"good:{g}" for g in goods] + [f"track:{t}" for t in tracks]
    keys += [f"tile:{t['id']}" for t in raw["trade_bonus_tiles"]] + ["stop", "fight", "decline"]
    keys += [f"{kind}:{c}@{rank}" for kind in ("play", "move", "trait", "palace") for c in cards for rank in range(COPIES)]
    return ActionSpace("minos", "minos-actions-1", keys, copy_ranks=True)


@cache
def action_space(game: str) -> ActionSpace:
    """The action space of a game by name (the same for every player count and option)."""
    if game == "thebes":
        return _thebes()
    if game == "minos":
        return _minos()
    raise ValueError(f"no action space for game {game!r}")
