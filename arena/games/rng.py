"""The random generator every game state draws its chance from: SplitMix64, whole state in one 64-bit integer.

Part of the engine framework (beside `base.py`): any game may import it; a game still never imports another game.

Why not `random.Random`: its `shuffle`/`randrange`/`sample`/`choice` algorithms are CPython implementation
details that have changed between releases, and its state is a 625-word tuple. SplitMix64 (Steele, Lea & Flood,
2014; the seeder of xoshiro) is a few 64-bit integer operations defined bit for bit, so the same seed gives the
same game on every machine and Python build, and the state serialises into JSON as one integer. Bounded draws use
rejection sampling, so they are exactly uniform.

Every method below is part of the replay contract: changing what a draw consumes or returns changes games, so it
needs an `engine_version` bump in every game that uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from mypy_extensions import mypyc_attr

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
_SPAN = MASK64 + 1
T = TypeVar("T")


# tests script the draws with plain-Python subclasses: compiled by mypyc, it must allow that
@mypyc_attr(allow_interpreted_subclasses=True)
class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, state: int = 0):
        self.state = state & MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        s = (self.state + GAMMA) & MASK64
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), n >= 1: outputs at or above the largest multiple of n are rejected.

        `next64` is inlined (the hot path of Thebes' token draws); the state advances exactly as a loop of
        `next64()` calls would, one step per output drawn, rejected ones included."""
        limit = _SPAN - _SPAN % n
        s = self.state
        while True:
            s = (s + GAMMA) & MASK64
            x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
            x ^= x >> 31
            if x < limit:
                self.state = s
                return x % n

    def randrange(self, n: int) -> int:
        """`below(n)` under `random.Random`'s name (a method, not an alias: mypyc compiles no class-level alias)."""
        return self.below(n)

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b] (one `below` draw)."""
        return a + self.below(b - a + 1)

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence (one `below` draw)."""
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place, from the last position down (one `below` draw per position but the first)."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> SplitMix64:
        """An independent generator in the same state."""
        return SplitMix64(self.state)
