"""The viewer's JSON endpoint: frames of the replay from a seat's view or omniscient (finished games only)."""

from __future__ import annotations

import gzip
import json

import pytest

from arena import replay as replays


def frames_of(client, match_id, seat):
    resp = client.get(f"/matches/{match_id}/frames.json?seat={seat}")
    assert resp.status_code == 200, resp.content[:300]
    return json.loads(resp.content)


def test_frames_match_the_replay_and_arena_replay_frames(client, world):
    m, replay = world["match"], world["replay"]
    payload = frames_of(client, m.pk, "all")
    assert len(payload["frames"]) == len(replay["decisions"]) + 1
    # arena.replay.frames, each saying whether the referee played the turn for a seat out of the game
    assert payload["frames"] == replays.frames(replay, None)
    assert not any(f["substitute"] for f in payload["frames"])
    assert [s["name"] for s in payload["seats"]] == [f"digger{i} v1" for i in range(4)]
    assert payload["frames"][5]["action"] == replay["decisions"][4]["action"]


def test_a_seat_view_hides_what_the_seat_did_not_see(client, world):
    m = world["match"]
    omniscient = frames_of(client, m.pk, "all")["frames"][0]["observation"]
    seat1 = frames_of(client, m.pk, "1")["frames"][0]["observation"]
    assert omniscient["draw_pile"], "the omniscient view knows the draw order"
    assert seat1["draw_pile"] == [] and seat1["seat"] == 1
    assert seat1["draw_pile_count"] == omniscient["draw_pile_count"]


def test_omniscient_view_only_after_the_game(client, world):
    from matches.models import Match

    m = world["match"]
    Match.objects.filter(pk=m.pk).update(status=Match.Status.RUNNING)
    assert client.get(f"/matches/{m.pk}/frames.json?seat=all").status_code == 403
    assert client.get(f"/matches/{m.pk}/frames.json?seat=0").status_code == 200


def test_bad_seats_and_missing_replays_are_clear_errors(client, world):
    from matches.models import Match

    m = world["match"]
    assert client.get(f"/matches/{m.pk}/frames.json?seat=9").status_code == 400
    assert client.get(f"/matches/{m.pk}/frames.json?seat=x").status_code == 400
    other = Match.objects.create(game="thebes", params={"players": 2}, seed=1)
    resp = client.get(f"/matches/{other.pk}/frames.json?seat=0")
    assert resp.status_code == 404 and b"not finished" in resp.content


def test_frames_are_served_gzipped_and_cached(client, world, settings):
    m = world["match"]
    resp = client.get(f"/matches/{m.pk}/frames.json?seat=all", HTTP_ACCEPT_ENCODING="gzip, br")
    assert resp["Content-Encoding"] == "gzip"
    payload = json.loads(gzip.decompress(resp.content))
    assert len(payload["frames"]) == len(world["replay"]["decisions"]) + 1
    cached = list((settings.STORAGE_DIR / "frames").rglob(f"{m.pk}.all.json.gz"))
    assert len(cached) == 1


def test_a_minos_seat_view_does_not_tell_the_other_seats_choices(client, minos_match):
    m, replay = minos_match["match"], minos_match["replay"]
    payload = frames_of(client, m.pk, "0")
    own = payload["frames"]
    omniscient = frames_of(client, m.pk, "all")["frames"]
    assert own == replays.frames(replay, 0)  # the game's own redaction (State.redact_decision), nothing else
    theirs = [f for f in own if f["seat"] == 1]
    mine = [f for f in own if f["seat"] == 0]
    assert all(f["action"] == omniscient[f["index"]]["action"] for f in mine)
    assert all(f["action"] is not None for f in omniscient[1:])
    # seat 1's setup keep (its hidden hand) is not told; its dice placements, seen by all, are
    kept = [d["action"] for d in replay["decisions"] if d["seat"] == 1 and d["action"].startswith("keep:")]
    assert kept and not any(text in json.dumps(payload) for text in kept)
    assert any(f["action"] is None for f in theirs)
    assert any(f["action"] and f["action"].startswith("draft:") for f in theirs)


def _cached(settings):
    from pathlib import Path

    root = Path(settings.ARENA_LOCAL_DIR or settings.STORAGE_DIR) / "frames"
    return sorted(root.rglob("*.json.gz"))


def test_the_viewers_cache_is_bounded(client, world, settings):
    """Issue 22, 15: every match and seat viewed stayed on the web server's disk for ever."""
    m = world["match"]
    frames_of(client, m.pk, "all")
    (first,) = _cached(settings)
    settings.ARENA_FRAMES_CACHE_MB = first.stat().st_size * 2.5 / (1024 * 1024)
    for seat in ("0", "1", "2", "3"):
        frames_of(client, m.pk, seat)
    left = _cached(settings)
    assert sum(p.stat().st_size for p in left) <= settings.ARENA_FRAMES_CACHE_MB * 1024 * 1024
    assert any(p.name.endswith(".seat3.json.gz") for p in left), "the newest stays"
    assert frames_of(client, m.pk, "all")["frames"], "a payload pushed out is made again"


@pytest.fixture
def full_disk(tmp_path):
    """A 256 KiB tmpfs, filled: writing to it fails with ENOSPC, as a full disk does."""
    import os
    import subprocess

    mount = tmp_path / "full"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], check=True)
    try:
        fd = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:  # ENOSPC: full
            pass
        finally:
            os.close(fd)
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_serves_the_viewer_uncached(client, world, settings, full_disk):
    """Issue 22, 15: the viewer's cache write turned a full disk into 500s."""
    settings.ARENA_LOCAL_DIR = full_disk
    payload = frames_of(client, world["match"].pk, "all")
    assert payload["frames"] == replays.frames(world["replay"], None)
    assert not _cached(settings), "nothing half-written is left"


def _disqualified_at(replay: dict, seat: int, decision: int) -> None:
    """Rewrite a finished self-play replay's result as if `seat` had been disqualified at `decision` (a crash):
    what the referee records then (arena.match.referee: a `disqualified` fault, the seat ranked last)."""
    res = replay["result"]["seats"][seat]
    res["disqualified"] = True
    res["faults"] = [{"kind": "crash", "message": "the bot stopped serving", "decision": decision, "turn": None},
                     {"kind": "disqualified", "message": "crashed", "decision": decision, "turn": None}]
    replay["decisions"][decision]["fault"] = {"kind": "crash", "message": "the bot stopped serving"}
    for d in replay["decisions"]:  # written before the referee recorded `substitute`
        d.pop("substitute", None)


def _write(match, replay, settings) -> None:
    replays.write(settings.STORAGE_DIR / match.replay_path, replay)


def test_turns_played_for_a_disqualified_seat_are_substitutes_inferred_from_an_older_replay(client, world, settings):
    """Replays without the decision's `substitute`: the faulted turn of the seat disqualified at decision 9 and
    every later turn of it are the referee's substitute moves (as the referee now records them), and so is any
    other faulted turn (the referee played it after the fault); nobody else's."""
    m, replay = world["match"], world["replay"]
    _disqualified_at(replay, 1, 9)
    _write(m, replay, settings)
    payload = frames_of(client, m.pk, "all")
    subs = [f["index"] for f in payload["frames"] if f["substitute"]]
    expected = [i + 1 for i, d in enumerate(replay["decisions"])
                if (d["seat"] == 1 and i >= 9 and not d["forced"]) or d.get("fault")]
    assert subs == expected and expected
    assert payload["frames"][10]["fault"]["kind"] == "crash" and payload["frames"][10]["substitute"]
    turns = payload["story"]["turns"]
    assert all(turns[i]["substitute"] for i in subs)
    assert all("Substitute move" in " ".join(turns[i]["lines"]) for i in subs)
    assert not any(t["substitute"] for i, t in enumerate(turns) if i not in subs)
    # a seat's view says so too (that a seat is out is public: the seats table shows it)
    seat0 = frames_of(client, m.pk, "0")
    assert [f["index"] for f in seat0["frames"] if f["substitute"]] == subs


def test_the_recorded_substitute_field_is_what_the_viewer_serves(client, world, settings):
    """Replays whose decisions carry `substitute` (arena.match.referee): the field is taken as recorded, even
    where the result alone would say otherwise."""
    m, replay = world["match"], world["replay"]
    for i, d in enumerate(replay["decisions"]):
        d["substitute"] = i in (3, 4)
    _write(m, replay, settings)
    payload = frames_of(client, m.pk, "all")
    assert [f["index"] for f in payload["frames"] if f["substitute"]] == [4, 5]
    assert [i for i, t in enumerate(payload["story"]["turns"]) if t["substitute"]] == [4, 5]


def test_solo_minos_names_rhadamanthus_with_its_rank_and_score(client, world, settings):
    from tests.platform.web.conftest import finished_match

    solo = finished_match(world, settings, "minos", 1, 5)
    payload = frames_of(client, solo["match"].pk, "all")
    seat = solo["replay"]["result"]["seats"][0]
    (op,) = payload["opponents"]
    assert op["name"] == "Rhadamanthus" and op["row"] == 1
    assert op["rank"] == (2 if seat["rank"] == 1 else 1)
    assert op["score"] == payload["story"]["parts"][1]["total"] > 0
    page = client.get(f"/matches/{solo['match'].pk}/").content.decode()
    assert 'data-opponent="Rhadamanthus"' in page and "automated opponent" in page
