"""The state's random generator: SplitMix64 with its whole state in one 64-bit integer.

Why not `random.Random`: its `shuffle`/`randrange`/`sample` algorithms have changed between Python releases,
and its state is a 625-word tuple. SplitMix64 (Steele, Lea, Flood 2014; the seeder of xoshiro) is a few integer
operations defined bit for bit, so the same seed gives the same game on every machine and Python build, and the
state serialises as one integer. Bounded draws use rejection sampling, so they are exactly uniform.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
_SPAN = MASK64 + 1


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & MASK64

    def next64(self) -> int:
        s = (self.state + GAMMA) & MASK64
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), n >= 1 (next64 inlined: this is the hot path of token draws)."""
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

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "SplitMix64":
        return SplitMix64(self.state)
