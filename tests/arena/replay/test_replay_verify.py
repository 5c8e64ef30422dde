"""`verify` re-simulates a replay from its seed and actions and fails loudly, naming the first differing decision,
on any difference: an action, an event, the order of seats, the end, the result or the engine version."""

import copy

import pytest

from arena import replay
from arena.replay import ReplayMismatch


@pytest.fixture
def rp(thebes_replay_file):
    return replay.load(thebes_replay_file)


def test_real_match_verifies(rp):
    replay.verify(rp)
    assert rp["format"] == "arena-replay" and rp["version"] == 1
    h = rp["header"]
    assert (h["game"], h["seed"], h["params"]) == ("thebes", 42, {"players": 3})
    assert [s["seat"] for s in h["seats"]] == [0, 1, 2] and all(len(s["sha256"]) == 64 for s in h["seats"])
    assert set(rp["decisions"][0]) == {"seat", "action", "ms", "fault", "forced", "substitute", "events"}
    assert "replay_path" not in rp["result"]


def _mismatch(rp, change):
    bad = copy.deepcopy(rp)
    change(bad)
    with pytest.raises(ReplayMismatch) as err:
        replay.verify(bad)
    return str(err.value)


def test_changed_action_is_named(rp):
    i = next(i for i, d in enumerate(rp["decisions"]) if i > 3 and d["action"].startswith("take"))
    other = next(d["action"] for d in rp["decisions"][i + 1:] if d["action"] != rp["decisions"][i]["action"]
                 and d["action"].startswith("dig"))

    def change(r):
        r["decisions"][i]["action"] = other
    message = _mismatch(rp, change)
    assert message.startswith(f"decision {i} ")


def test_changed_event(rp):
    def change(r):
        r["decisions"][5]["events"][0]["seat"] = 99
    assert "decision 5 " in _mismatch(rp, change) and "events differ" in _mismatch(rp, change)


def test_wrong_seat(rp):
    def change(r):
        r["decisions"][2]["seat"] = (r["decisions"][2]["seat"] + 1) % 3
    assert "decision 2 " in _mismatch(rp, change)


def test_truncated_replay(rp):
    def change(r):
        del r["decisions"][-1]
    assert "before the game did" in _mismatch(rp, change)


def test_changed_result(rp):
    def change(r):
        r["result"]["seats"][0]["score"] += 1
    assert "final scores differ" in _mismatch(rp, change)

    def change_rank(r):  # the winner marked disqualified would rank last
        winner = min(r["result"]["seats"], key=lambda s: s["rank"])
        winner["disqualified"] = not winner["disqualified"]
    assert "final ranks differ" in _mismatch(rp, change_rank)


def test_other_engine_version(rp):
    def change(r):
        r["header"]["engine_version"] = "thebes-0"
    assert "engine thebes-0" in _mismatch(rp, change)


def test_file_round_trip_is_deterministic(rp, tmp_path):
    a = replay.write(tmp_path / "a.replay.json.gz", rp)
    b = replay.write(tmp_path / "b.replay.json.gz", rp)
    assert a.read_bytes() == b.read_bytes()
    assert replay.load(a) == rp


def test_not_a_replay(tmp_path):
    import gzip
    path = tmp_path / "x.replay.json.gz"
    path.write_bytes(gzip.compress(b'{"hello": 1}'))
    with pytest.raises(ValueError, match="not an Arena replay"):
        replay.load(path)
