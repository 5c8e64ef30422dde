"""A seat's view of a replay shows the other seats' decisions only as far as the game makes them public
(`State.redact_decision`): Thebes shows everything, Minos hides hand cards and simultaneous choices.

The Minos rule checked here, stated from the rules rather than from the engine's code: for a viewer V and a
decision of another seat A,
- the action text is hidden (None) exactly when the decision pending before it was `keep`, `setup_palace`
  (setup hand and the card tucked face down, D-15), `groups` (DP-7) or `palace` (DP-12), both simultaneous
  (E-03, D-33); otherwise it is the recorded text (palace cards and their traits are public: Minos RULES.md
  E-20, so `trait:<card>` never is hidden: V's observation always shows A's palace cards);
- the events are the recorded ones, except that a hidden decision's `decision` event has action "";
- no hidden text appears anywhere in V's frame, and every card instance a frame names (action or events) is in
  V's observation just before or just after it: a seat's view never names a card it cannot see.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from arena import games
from arena import replay as replays

CARD = re.compile(r"I{1,2}-\d\d#\d")
HIDDEN_DECISIONS = {"keep", "setup_palace", "groups", "palace"}


def play_replay(game_name: str, players: int, seed: int, policy: str = "random") -> dict:
    """A complete arena-replay of a game between in-process policies."""
    game = games.load(game_name, players=players)
    policies = [games.policies(game_name)[policy]() for _ in range(players)]
    return replays.of_selfplay(game, seed, policies, [random.Random(seed)] * players,
                               [f"p{i}" for i in range(players)])


def _palace_cards_seen(observation: dict, seat: int) -> set[str]:
    return {c["card"] for c in observation["player_states"][seat]["palace"] if c["card"]}


def _hidden_by_rule(before_omni: dict, before_view: dict, actor: int, action: str) -> bool:
    if before_omni["decision"] in HIDDEN_DECISIONS:
        return True
    assert not action.startswith("trait:") or action[6:] in _palace_cards_seen(before_view, actor)
    return False


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 17), (4, 23)])
def test_minos_seat_frames_hide_exactly_the_hidden_decisions(players, seed):
    rp = play_replay("minos", players, seed)
    omni = replays.frames(rp)
    hidden_kinds = set()
    for viewer in range(players):
        view = replays.frames(rp, viewer)
        assert len(view) == len(omni)
        for prev, frame, o_prev, o in zip(view, view[1:], omni, omni[1:]):
            actor, recorded = o["seat"], o["action"]
            assert frame["seat"] == actor and frame["observation"]["seat"] == viewer
            hidden = actor != viewer and _hidden_by_rule(o_prev["observation"], prev["observation"], actor,
                                                         recorded)
            text = json.dumps([frame["action"], frame["events"], frame["fault"]])
            if hidden:
                hidden_kinds.add(o_prev["observation"]["decision"] + ("/trait" if recorded.startswith("trait:")
                                                                      else ""))
                assert frame["action"] is None
                assert recorded not in text
                expected = [{**e, "action": ""} if e["type"] == "decision" else e for e in o["events"]]
            else:
                assert frame["action"] == recorded
                expected = o["events"]
            assert frame["events"] == expected
            visible = json.dumps([prev["observation"], frame["observation"]])
            for card in set(CARD.findall(text)):
                assert card in visible, f"seat {viewer} sees card {card} in frame {frame['index']}: {text}"
    # the games went through every kind of hidden decision
    assert {"keep", "setup_palace", "groups", "palace"} <= hidden_kinds


def test_minos_own_decisions_and_the_omniscient_view_are_whole():
    rp = play_replay("minos", 2, 7)
    omni = replays.frames(rp)
    assert [f["action"] for f in omni[1:]] == [d["action"] for d in rp["decisions"]]
    assert [f["events"] for f in omni[1:]] == [d["events"] for d in rp["decisions"]]
    for viewer in (0, 1):
        for f in replays.frames(rp, viewer)[1:]:
            if f["seat"] == viewer:
                assert f["action"] == omni[f["index"]]["action"] and f["events"] == omni[f["index"]]["events"]


def test_a_fault_on_a_hidden_decision_keeps_its_kind_not_its_message():
    rp = play_replay("minos", 2, 3)
    i = next(i for i, d in enumerate(rp["decisions"]) if d["action"].startswith("keep:"))
    leak = f"answered {rp['decisions'][i]['action']!r}, which is not the text of a legal action"
    rp["decisions"][i]["fault"] = {"kind": "illegal", "message": leak}
    actor = rp["decisions"][i]["seat"]
    assert replays.frames(rp, 1 - actor)[i + 1]["fault"] == {"kind": "illegal", "message": ""}
    assert replays.frames(rp, actor)[i + 1]["fault"]["message"] == leak
    assert replays.frames(rp)[i + 1]["fault"]["message"] == leak


def test_thebes_seat_frames_show_every_decision():
    rp = play_replay("thebes", 3, 9)
    omni = replays.frames(rp)
    for viewer in range(3):
        view = replays.frames(rp, viewer)
        assert [f["action"] for f in view] == [f["action"] for f in omni]
        assert [f["events"] for f in view] == [f["events"] for f in omni]
        assert all(f["observation"]["seat"] == viewer for f in view)


def test_replay_show_from_a_seat_says_what_is_hidden(tmp_path, capsys):
    from arena.cli import main

    rp = play_replay("minos", 2, 5)
    path = replays.write(tmp_path / "m.replay.json.gz", rp)
    theirs = next(d["action"] for d in rp["decisions"] if d["seat"] == 1 and d["action"].startswith("keep:"))
    mine = next(d["action"] for d in rp["decisions"] if d["seat"] == 0 and d["action"].startswith("keep:"))
    assert main(["replay", "show", str(path), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (p1): (hidden from this seat)" in out and theirs not in out and mine in out
