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
from typing import Final, TypeVar

from mypy_extensions import i64, mypyc_attr

MASK64: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
_SPAN: Final = MASK64 + 1
T = TypeVar("T")

# The fixed-width core. Python's ints make every step of the reference code below a big-integer operation (its
# values pass 2**62, the compiled engine's small-int range): a few allocations per step, a quarter of a compiled
# Thebes playout. Compiled, `i64` is a machine word whose arithmetic wraps like the C it becomes, so the same
# steps on the state read as a signed 64-bit word give the very same bits: unsigned shifts are arithmetic shifts
# masked, and an unsigned comparison or remainder is worked out from the sign. Interpreted, `i64` is a plain int
# that never wraps, so the core is used only where it wraps (`_NATIVE`); the pure engine runs the reference code,
# and both give the same draws (tests/arena/test_rng.py, and every digest).
_GAMMA_S: Final[i64] = GAMMA - _SPAN  # the constants as signed words
_MUL1_S: Final[i64] = 0xBF58476D1CE4E5B9 - _SPAN
_MUL2_S: Final[i64] = 0x94D049BB133111EB - _SPAN
_LOW33: Final[i64] = (1 << 33) - 1
_LOW34: Final[i64] = (1 << 34) - 1
_LOW37: Final[i64] = (1 << 37) - 1
_LOW63: Final[i64] = (1 << 63) - 1
_I64_MAX: Final = (1 << 63) - 1
_P61: Final[i64] = 1 << 61
_NATIVE_MAX_N: Final = 1 << 58  # bounds the core takes (2**64 % n is worked out as (2**61 % n) * 8 % n)


def _wraps(x: i64) -> bool:
    return x * 4 == 0


#: whether i64 arithmetic wraps here (compiled): then the fixed-width core draws
_NATIVE: Final = _wraps(1 << 62)


def _signed(u: int) -> i64:
    return u - _SPAN if u > _I64_MAX else u


def _unsigned(s: i64) -> int:
    return int(s) + _SPAN if s < 0 else int(s)


def _mix(s: i64) -> i64:
    """SplitMix64's output function of the (already advanced) state, on a signed word."""
    x = s ^ ((s >> 30) & _LOW34)
    x = x * _MUL1_S
    x = x ^ ((x >> 27) & _LOW37)
    x = x * _MUL2_S
    return x ^ ((x >> 31) & _LOW33)


def _below_word(s: i64, n: i64) -> tuple[i64, i64]:
    """(the state after, the draw) of `below(n)` from state `s`, both as signed words (1 <= n < 2**58)."""
    r = (_P61 % n) * 8 % n  # 2**64 % n: an output is rejected when it is at or above 2**64 - r
    while True:
        s = s + _GAMMA_S
        x = _mix(s)
        if x >= 0 or x < -r:
            return s, (((x >> 1) & _LOW63) % n * 2 + (x & 1)) % n


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
        if _NATIVE and 0 < n < _NATIVE_MAX_N:
            s_after, x_out = _below_word(_signed(self.state), n)
            self.state = _unsigned(s_after)
            return int(x_out)
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
        if _NATIVE and len(items) < _NATIVE_MAX_N and type(self) is SplitMix64:
            s = _signed(self.state)  # the state stays a machine word through the whole shuffle
            for i in range(len(items) - 1, 0, -1):
                s, j = _below_word(s, i + 1)
                items[i], items[j] = items[j], items[i]
            self.state = _unsigned(s)
            return
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> SplitMix64:
        """An independent generator in the same state."""
        return SplitMix64(self.state)
