"""The bots' own logs: what each bot printed, split by decision and bounded, its annotations, and the traceback
of an exception in a Python bot, kept beside the replay (never in it) by sandboxed matches."""

from referee_helpers import BOTS, play_nim

from arena import botlogs
from arena import replay as replays
from arena.sandbox.output import SEGMENT_BYTES


def _logs(tmp_path, *names):
    path = tmp_path / "m.replay.json.gz"
    result = play_nim(*names, replay_path=path)
    return result, botlogs.load(botlogs.logs_path(path)), replays.load(path)


def test_output_is_split_by_decision_with_annotations(tmp_path):
    result, logs, replay = _logs(tmp_path, "chatty", "good")
    chatty, good = logs["seats"]
    assert chatty["name"] == "chatty" and chatty["seat"] == 0
    assert "hello from seat 0" in chatty["startup"]
    asked = [i for i, d in enumerate(replay["decisions"]) if d["seat"] == 0 and not d["forced"]]
    assert [d["decision"] for d in chatty["decisions"]] == asked
    for d in chatty["decisions"]:
        assert d["turn"] == d["decision"] + 1  # the viewer's turn number
        # stdout and stderr of that decision, and nothing of another one
        assert f"stdout of decision {d['decision']}" in d["output"]
        assert f"stderr of decision {d['decision']}" in d["output"]
        assert d["output"].count("of decision") == 2
    for d in chatty["decisions"][:1] + chatty["decisions"][2:]:
        assert d["annotation"] == f"plan for decision {d['decision']}"
    assert "goodbye" in chatty["end"]
    assert good["printed_bytes"] == 0 and all(d["output"] == "" for d in good["decisions"])
    # the replay itself (public) holds none of it
    assert "plan for decision" not in str(replay) and "stdout of decision" not in str(replay)


def test_a_flood_is_cut_with_a_marker_and_counted(tmp_path):
    _, logs, _ = _logs(tmp_path, "chatty", "good")
    chatty = logs["seats"][0]
    flooded = chatty["decisions"][1]  # its second decision
    assert len(flooded["output"].encode()) < SEGMENT_BYTES + 200
    assert "more bytes of output cut by the referee" in flooded["output"]
    assert chatty["cut_bytes"] > 10_000 - SEGMENT_BYTES - 100
    assert chatty["printed_bytes"] > 10_000
    # the annotation is cut to 256 characters
    assert len(flooded["annotation"]) == botlogs.ANNOTATION_CHARS and flooded["annotation"].endswith("…")


def test_python_exception_shows_its_traceback_in_the_owner_log(tmp_path):
    result, logs, _ = _logs(tmp_path, "good", "raises")
    fault = next(f for f in result.seats[1].faults if f.kind == "malformed")
    assert "RuntimeError: my policy has a bug" in fault.message
    assert "traceback is in the bot's log" in fault.message
    first = logs["seats"][1]["decisions"][0]
    assert "Traceback (most recent call last)" in first["output"]
    assert 'in decide' in first["output"] and "RuntimeError: my policy has a bug" in first["output"]


def test_a_fault_names_the_viewer_turn(tmp_path):
    result, _, replay = _logs(tmp_path, "good", "illegal")
    fault = next(f for f in result.seats[1].faults if f.kind == "illegal")
    assert fault.turn == fault.decision + 1
    assert replay["decisions"][fault.decision]["fault"]["kind"] == "illegal"
    # the stored form carries it too
    assert replay["result"]["seats"][1]["faults"][0]["turn"] == fault.decision + 1


def test_text_files_one_per_seat(tmp_path):
    _, logs, _ = _logs(tmp_path, "chatty", "good")
    paths = botlogs.write_text_files(tmp_path / "logs", logs)
    assert [p.name for p in paths] == ["seat0-chatty.log", "seat1-good.log"]
    text = paths[0].read_text()
    assert "== start-up ==" in text and "== turn 1 (decision 0) ==" in text
    assert "[annotation] plan for decision 0" in text and "== end ==" in text


def test_a_late_answer_to_an_earlier_call_is_named_as_such(tmp_path):
    result, _, _ = _logs(tmp_path, "laggard", "good")
    timeouts = [f for f in result.seats[0].faults if f.kind == "timeout"]
    assert len(timeouts) >= 2
    assert "still answering" not in timeouts[0].message  # the first one is simply late
    first, second = timeouts[0], timeouts[1]
    assert (f"still answering turn {first.turn} (decision {first.decision}, which timed out) when turn "
            f"{second.turn} was asked") in second.message


def test_arena_play_logs_writes_the_same_files(tmp_path, capsys):
    from arena.cli import main

    replay = tmp_path / "r.replay.json.gz"
    code = main(["play", "nim", "--bot", str(BOTS / "chatty"), "--bot", str(BOTS / "good"), "--seed", "5",
                 "--replay", str(replay), "--logs", str(tmp_path / "logs")])
    assert code == 0
    names = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert names == ["match.logs.json.gz", "seat0-chatty.log", "seat1-good.log"]
    doc = botlogs.load(tmp_path / "logs" / "match.logs.json.gz")
    assert doc["seats"][0]["decisions"][0]["annotation"] == "plan for decision 0"
    assert "[annotation] plan for decision 0" in (tmp_path / "logs" / "seat0-chatty.log").read_text()
    assert "bot logs:" in capsys.readouterr().err
