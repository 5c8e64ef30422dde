"""A bot's `bot_seed` does not give away the match seed (and with it the deck): it is keyed by a secret the
referee draws for every match and publishes only in the finished match's replay. Searching the match seed over a
window that contains it finds it from the old, unkeyed seed at once, and finds nothing from the keyed one."""

import hashlib
import hmac
import re

from referee_helpers import play_nim

from arena import replay
from arena.match.protocol import bot_seed

SEED = 4_611_686_018_427_387_000  # a 63-bit seed, as the platform draws them
WINDOW = range(SEED - 5000, SEED + 5001)


def unkeyed_bot_seed(seed: int, seat: int) -> int:
    """The derivation bots got before: a public hash of the match seed."""
    digest = hashlib.sha256(f"arena.v1 bot seed:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def guessed_key_bot_seed(key: bytes):
    return lambda seed, seat: int.from_bytes(
        hmac.new(key, f"arena.v1 bot seed:{seed}:{seat}".encode(), hashlib.sha256).digest()[:8], "big") >> 1


def search(observed: int, seat: int, derive) -> list[int]:
    """Every match seed of the window that `derive` maps to what the bot observed (the attack)."""
    return [s for s in WINDOW if derive(s, seat) == observed]


def test_the_match_seed_cannot_be_searched_from_a_bot_seed(tmp_path):
    logs: list[list[str]] = []
    result = play_nim("seedprinter", "good", seed=SEED, replay_path=tmp_path / "m.replay.json.gz", logs=logs,
                      bot_seed_key=None)
    assert all(not s.faults for s in result.seats)
    observed = int(re.search(r"bot_seed=(\d+) seat=0", "\n".join(logs[0])).group(1))

    assert search(unkeyed_bot_seed(SEED, 0), 0, unkeyed_bot_seed) == [SEED]  # the attack works on the old way
    for derive in (unkeyed_bot_seed, guessed_key_bot_seed(b""), guessed_key_bot_seed(bytes(32)),
                   guessed_key_bot_seed(str(SEED).encode())):
        assert search(observed, 0, derive) == []

    # once the match is over, its replay publishes the key: every bot's seed can be re-derived and checked
    recorded = replay.load(result.replay_path)
    key = bytes.fromhex(recorded["header"]["bot_seed_key"])
    assert bot_seed(key, SEED, 0) == observed
    replay.verify(recorded)
