"""The shared SplitMix64 (`arena.games.rng`): bit-exact outputs and draws, on which every replay depends."""

from __future__ import annotations

from arena.games.rng import MASK64, SplitMix64


def test_outputs_are_the_published_splitmix64_values():
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert SplitMix64(1 << 64).state == 0 and SplitMix64(-1).state == MASK64


def _reference_below(rng: SplitMix64, n: int) -> int:
    """Rejection sampling over next64(), written plainly: the draw `below` must make, bit for bit."""
    limit = (MASK64 + 1) - (MASK64 + 1) % n
    while True:
        x = rng.next64()
        if x < limit:
            return x % n


def test_the_inlined_below_draws_and_advances_like_next64():
    # n close to 2**64 rejects about half of the outputs, so the rejection path is taken too
    bounds = [1, 2, 3, 7, 10, 52, 1000, 2**63 + 1, 3 * 2**62, MASK64]
    fast, slow = SplitMix64(99), SplitMix64(99)
    for _ in range(200):
        for n in bounds:
            assert fast.below(n) == _reference_below(slow, n)
            assert fast.state == slow.state


def test_helpers_are_one_below_draw_each():
    a, b = SplitMix64(5), SplitMix64(5)
    assert a.randint(3, 8) == 3 + b.below(6)
    assert a.randrange(9) == b.below(9)
    assert a.choice("abcde") == "abcde"[b.below(5)]
    items = list(range(10))
    a.shuffle(items)
    expected = list(range(10))
    for i in range(9, 0, -1):
        j = b.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and a.state == b.state
    c = a.copy()
    assert c.next64() == a.next64()


def test_the_fixed_width_core_draws_the_reference_draws():
    """Compiled, `below` and `shuffle` run on 64-bit machine words (`rng._NATIVE`); pure, on Python ints: the
    same draws and states either way, for every bound and length the engines use and beyond."""
    from arena import games
    from arena.games import rng as R

    assert R._NATIVE == (games.ENGINE == "compiled")
    picks = __import__("random").Random(3)
    fast, slow = SplitMix64(2**63 + 12345), SplitMix64(2**63 + 12345)
    for _ in range(3000):
        n = picks.choice([picks.randrange(1, 300), picks.randrange(1, 2**40), 2**57 + picks.randrange(99), 1 << 20])
        assert fast.below(n) == _reference_below(slow, n)
        assert fast.state == slow.state
    for length in (0, 1, 2, 5, 85, 300):
        items, expected = list(range(length)), list(range(length))
        fast.shuffle(items)
        for i in range(length - 1, 0, -1):
            j = _reference_below(slow, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and fast.state == slow.state
