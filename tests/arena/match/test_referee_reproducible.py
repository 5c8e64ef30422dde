"""Same seed + same bots + the same bot-seed key = same replay (apart from the time each answer took); fallbacks
after faults are drawn from the match seed too. The key is fresh for every match unless given (a replay gives
it), and published in the replay."""

from referee_helpers import play_nim

from arena import replay


def _without_times(r):
    r = dict(r)
    r["decisions"] = [{k: v for k, v in d.items() if k != "ms"} for d in r["decisions"]]
    r["result"] = {**r["result"], "seats": [{k: v for k, v in s.items() if k != "time_ms"}
                                            for s in r["result"]["seats"]]}
    return r


def test_same_seed_same_bots_same_replay(tmp_path):
    a = play_nim("good", "illegal", seed=21, replay_path=tmp_path / "a.replay.json.gz", bot_seed_key=None)
    ra = replay.load(a.replay_path)
    key = bytes.fromhex(ra["header"]["bot_seed_key"])  # what the finished match published
    b = play_nim("good", "illegal", seed=21, replay_path=tmp_path / "b.replay.json.gz", bot_seed_key=key)
    rb = replay.load(b.replay_path)
    assert _without_times(ra) == _without_times(rb)
    assert any(d["fault"] for d in ra["decisions"])  # fallbacks were part of it
    replay.verify(ra)


def test_every_match_draws_a_fresh_bot_seed_key(tmp_path):
    a = play_nim("good", "good", seed=21, replay_path=tmp_path / "a.replay.json.gz", bot_seed_key=None)
    b = play_nim("good", "good", seed=21, replay_path=tmp_path / "b.replay.json.gz", bot_seed_key=None)
    keys = {replay.load(r.replay_path)["header"]["bot_seed_key"] for r in (a, b)}
    assert len(keys) == 2 and all(len(k) == 64 for k in keys)  # 256 bits each


def test_another_seed_gives_another_game(tmp_path):
    a = play_nim("good", "good", seed=1, replay_path=tmp_path / "a.replay.json.gz")
    b = play_nim("good", "good", seed=2, replay_path=tmp_path / "b.replay.json.gz")
    assert replay.load(a.replay_path)["decisions"] != replay.load(b.replay_path)["decisions"]
