"""A full or failing disk at the end of a match: the referee returns the result with the replay document in hand
(`MatchResult.unwritten_replay`) instead of throwing the played match away, and leaves no `.part` file."""

import errno
import os

from referee_helpers import play_nim

from arena import replay as replays


def disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_replay_that_cannot_be_written_leaves_the_result_and_the_replay_in_hand(tmp_path, monkeypatch):
    wanted = tmp_path / "replays" / "m.replay.json.gz"
    monkeypatch.setattr(replays.os, "replace", disk_full)  # the .part is written, the final step fails
    result = play_nim("good", "good", sandbox=False, replay_path=str(wanted))
    monkeypatch.undo()

    assert sorted(s.rank for s in result.seats) == [1, 2] and result.replay_path is None
    assert list(wanted.parent.iterdir()) == []  # neither the replay nor a .part file left behind
    assert "unwritten_replay" not in result.to_json()
    # Exact: the kept document is the file the referee would have written, byte for byte, and it re-simulates.
    written = replays.write(tmp_path / "later.replay.json.gz", result.unwritten_replay)
    assert replays.to_bytes(result.unwritten_replay) == written.read_bytes()
    replays.verify(replays.load(written))


def test_write_removes_its_part_file_on_error(tmp_path, monkeypatch):
    target = tmp_path / "x.replay.json.gz"
    monkeypatch.setattr(replays.os, "replace", disk_full)
    try:
        replays.write(target, {"format": "arena-replay"})
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    else:
        raise AssertionError("the error was swallowed")
    assert os.listdir(tmp_path) == []
