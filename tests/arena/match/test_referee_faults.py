"""Every kind of bot fault is recorded with its reason, the faulty seat gets a fallback action, and the other
bot's match is unaffected (sandboxed bots, as on the platform)."""

import pytest
from referee_helpers import play_nim

CASES = [
    # bot, fault kind, words in the message, disqualified
    ("hang", "timeout", "no answer within 200 ms + 300 ms of bank", True),
    ("illegal", "illegal", "only 3 legal actions", True),
    ("badtext", "illegal", "'castle kingside', which is not the text of a legal action", True),
    ("raises", "malformed", "my policy has a bug", True),
    ("garbage", "malformed", "not a valid DecideResponse", True),
    ("crash", "crash", "exited with code 3", True),
]


@pytest.mark.parametrize("name,kind,words,disqualified", CASES, ids=[c[0] for c in CASES])
def test_fault_is_recorded_and_the_match_goes_on(name, kind, words, disqualified, tmp_path):
    result = play_nim("good", name, replay_path=tmp_path / "m.replay.json.gz")
    good, bad = result.seats
    assert good.faults == [] and not good.disqualified
    faults = [f for f in bad.faults if f.kind != "disqualified"]
    assert faults and all(f.kind == kind for f in faults)
    assert words in faults[0].message
    assert faults[0].decision is not None
    assert bad.disqualified is disqualified
    # the game was played to its end and the offender ranks last
    assert sorted(s.rank for s in result.seats) == [1, 2]
    assert bad.rank == 2
    assert good.score == 1.0 or bad.disqualified


def test_faulted_decision_is_marked_in_the_replay_with_the_fallback_action(tmp_path):
    from arena import replay

    result = play_nim("good", "illegal", replay_path=tmp_path / "m.replay.json.gz")
    decisions = replay.load(result.replay_path)["decisions"]
    faulted = [d for d in decisions if d["fault"]]
    assert faulted and {d["seat"] for d in faulted} == {1}
    assert faulted[0]["fault"]["kind"] == "illegal"
    assert faulted[0]["action"].startswith("take ")  # a legal fallback was played
    replay.verify(replay.load(result.replay_path))


def test_bot_answering_with_canonical_text_is_accepted():
    result = play_nim("good", "texter")
    assert all(s.faults == [] for s in result.seats)
    assert result.seats[1].decisions > 0
