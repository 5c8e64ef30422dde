"""Minos' random generator: SplitMix64, whose whole state is one 64-bit integer.

`random.Random`'s draw algorithms are CPython implementation details that have changed between releases; a game
must replay identically on every machine and Python build, and serialise its RNG into JSON. SplitMix64
(Steele, Lea & Flood, 2014) is a handful of 64-bit integer operations defined bit for bit; bounded draws use
rejection sampling so they are exactly uniform. (The same algorithm as Thebes' generator, kept separate so that
neither game imports the other.)
"""

from __future__ import annotations

from typing import Sequence, TypeVar

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & MASK64

    def next64(self) -> int:
        s = (self.state + GAMMA) & MASK64
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), n >= 1."""
        limit = (MASK64 + 1) - (MASK64 + 1) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    randrange = below

    def randint(self, a: int, b: int) -> int:
        """Uniform integer in [a, b]."""
        return a + self.below(b - a + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]
