"""Damaged archives (bytes flipped, tails cut) are refused with ArchiveError, never another exception (which
the upload view would answer with a 500), and leave nothing behind. Deterministic: a fixed random sequence."""

import random

from platform_helpers import bot_files, tar_gz_bytes, zip_bytes

from botregistry.archive import ArchiveError, unpack


def test_thousands_of_damaged_archives_are_refused_in_words(tmp_path):
    rng = random.Random(9)
    bases = [zip_bytes(bot_files()), tar_gz_bytes(bot_files())]
    unexpected = {}
    for i in range(1000):
        data = bytearray(rng.choice(bases))
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[:rng.randrange(len(data))]
        dest = tmp_path / str(i)
        try:
            unpack(bytes(data), dest, max_bytes=1 << 20, max_files=100)
        except ArchiveError:
            assert not dest.exists()
        except Exception as exc:  # noqa: BLE001 - what the test looks for
            unexpected.setdefault(type(exc).__name__, (i, str(exc)[:100]))
    assert unexpected == {}
