"""The interface every game implements (OpenSpiel's Game/State split, python-chess's value-type moves).

A `Game` is a rule set with fixed parameters (player count, rule options). It makes `State`s from a seed.
A `State` is one position plus everything needed to go on from it, including the seeded random generator that
all chance comes from: the same game, seed and actions give the same states on any machine, always.

Contract for every game:
- `current_player()` names the seat that decides next (0-based), or `TERMINAL` once the game is over. Chance is
  resolved inside `apply()` from the state's own RNG; there are no chance nodes visible to players.
- `legal_actions()` lists every legal choice of the current player, each exactly once, in a deterministic order.
- `apply(action)` plays one legal action and returns the events it caused (JSON-able dicts with a "type" key) for
  replays. An illegal action raises `IllegalAction` naming the action and the reason, and leaves the state as it was.
- `observation(seat)` is a JSON-able dict of what that seat may know, and nothing it may not (deck order, future
  draws, other seats' hidden cards, the seed). `observation(None)` is the omniscient view, for replays after the game.
  `public_observation()` is the spectator's view while the game is played: what *every* seat knows, so never more
  than any one seat's observation (its `seat` is -1, as the omniscient view's; the hidden parts are empty or
  counted, as in a seat's view of another seat).
  Observation keys are snake_case and match the game's typed protocol message field for field, so the referee can
  turn one into the other without game-specific code.
- `scores()` are the final (or current) points per seat; `ranking()` is each seat's rank (1 = best, ties share the
  better rank) once the game is terminal.
- `redact_decision(actor, viewer, action_text, events)` says what seat `viewer` may see of a decision that seat
  `actor` made (replay viewers, a seat's view of a finished match). Default: everything, for games whose every
  decision is public; a game with hidden choices overrides it.
- `to_json()` / `Game.state_from_json()` round-trip a state exactly, RNG included: continuing a restored state gives
  the identical game.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

TERMINAL: Final = -1

Event = dict[str, Any]


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to. The state is unchanged."""

    def __init__(self, action: object, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason}")


class ActionParseError(ValueError):
    """A text that is not the canonical form of any action of the game."""


# games (and tests' toy games) subclass it in plain Python: compiled by mypyc, it must allow that
@mypyc_attr(allow_interpreted_subclasses=True)
class Action(abc.ABC):
    """A value type: hashable, comparable, with one canonical text form (`str(action)`) that
    `Game.parse_action` reads back exactly, and a structured form (`to_dict()`) matching the game's protocol
    message for an action."""

    @abc.abstractmethod
    def __str__(self) -> str: ...

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]: ...


# games (and tests' toy games) subclass it in plain Python: compiled by mypyc, it must allow that
@mypyc_attr(allow_interpreted_subclasses=True)
class State(abc.ABC):
    game: Game

    @abc.abstractmethod
    def current_player(self) -> int: ...

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]: ...

    @abc.abstractmethod
    def apply(self, action: Action) -> list[Event]: ...

    @abc.abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]: ...

    @abc.abstractmethod
    def public_observation(self) -> dict[str, Any]:
        """What every seat knows (the live spectator's view): the keys of `observation`, with everything that
        some seat may not know left out as it is for a seat that may not know it. Two states that differ only in
        hidden information give the same public observation."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def scores(self) -> list[float]: ...

    @abc.abstractmethod
    def clone(self) -> State: ...

    @abc.abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    def ranking(self) -> list[int]:
        """Rank per seat from `scores()` (1 = best; equal scores share the better rank). Games with a
        tie-break override this."""
        return rank_by_keys(self.scores())

    def redact_decision(self, actor: int, viewer: int, action_text: str,
                        events: list[Event]) -> tuple[str | None, list[Event]]:
        """What seat `viewer` may know of the decision seat `actor` (another seat) takes in this state.

        Called on the state as it is *before* the action is applied (the decision still pending), with the
        canonical text of the action and the events that applying it returned. Returns the text the viewer may
        see, or None when the viewer may not know what was chosen (it still sees that `actor` decided), and the
        events the viewer may see: each event kept, rewritten without its hidden parts, or left out. Judge by what
        the viewer may know at that moment: what becomes public later (a simultaneous choice once every seat has
        committed) is shown by the later events and observations, not by the hidden decision's text. Must not
        modify `events` or the state. The actor's own view and the omniscient view are never redacted.

        Default: every decision is public (the text and all events)."""
        return action_text, events

    def apply_text(self, text: str) -> list[Event]:
        """Parse and apply an action given in its canonical text form."""
        return self.apply(self.game.parse_action(text))

    def score_breakdown(self) -> Sequence[Mapping[str, float]]:
        """Per seat, the named parts that `scores()` adds up (for result tables and tests)."""
        return [{"total": s} for s in self.scores()]

    def engine_opponent_results(self) -> list[dict[str, Any]]:
        """The final result of each of the game's `engine_opponents` (a terminal state), for every page and message
        that shows a result: `{"name", "score", "rank"}`, rank on the scale of `ranking()`. Default none."""
        return []


# games (and tests' toy games) subclass it in plain Python: compiled by mypyc, it must allow that
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(abc.ABC):
    """A rule set with its parameters. Subclasses set `name`, `min_players`, `max_players` and
    `engine_version` (bumped whenever a rule change could change any replay)."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    engine_version: ClassVar[str]
    #: Parameter names the game accepts besides `players`, with their defaults.
    default_options: ClassVar[dict[str, Any]] = {}

    def __init__(self, players: int, **options: Any):
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}")
        unknown = set(options) - set(self.default_options)
        if unknown:
            raise ValueError(f"{self.name} has no option {', '.join(sorted(unknown))}; "
                             f"options: {', '.join(sorted(self.default_options)) or 'none'}")
        self.players = players
        self.options = {**self.default_options, **options}

    @property
    def engine_opponents(self) -> int:
        """Competitors that `ranking()` ranks but that are not seats: opponents the engine plays itself (Minos
        solo: Rhadamanthus). A seat's rank counts them; a disqualified seat ranks after them. Default none."""
        return 0

    @property
    def params(self) -> dict[str, Any]:
        """Everything that, with the seed, fixes the game: recorded in every replay."""
        return {"players": self.players, **self.options}

    @abc.abstractmethod
    def new_state(self, seed: int) -> State: ...

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action: ...

    @abc.abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> State: ...

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.players}{opts})"


def rank_by_keys(keys: Sequence[Any]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of seats by descending key; equal keys share the better rank."""
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for pos, seat in enumerate(order):
        if pos and keys[seat] == keys[order[pos - 1]]:
            ranks[seat] = ranks[order[pos - 1]]
        else:
            ranks[seat] = pos + 1
    return ranks
