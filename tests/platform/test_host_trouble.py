"""Host faults are not bot faults (issue 21): a match the referee set aside as "void — host trouble" is never
rated, never counted for suspension, and queued again a bounded number of times; the suspension rule is one rule
for built-in and uploaded bots, names the faults, and an owner can resume a suspended version."""

import pytest
from platform_helpers import make_bot


@pytest.fixture
def ladder(db):
    from ladders.models import Ladder
    return Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)


def result_for(match, ranks, faults=None, void=""):
    faults = faults or {}
    data = {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "thebes-1",
            "replay_path": None, "seats": [
                {"seat": seat, "name": f"s{seat}", "sha256": "0" * 64, "score": float(10 - rank), "rank": rank,
                 "disqualified": bool(faults.get(seat)), "faults": faults.get(seat, []), "time_ms": 12.5,
                 "decisions": 30}
                for seat, rank in enumerate(ranks)]}
    if void:
        data["void"] = void
    return data


STARTUP = [{"kind": "startup", "message": "the bot did not open its socket $ARENA_SOCKET within 10000 ms",
            "decision": None},
           {"kind": "disqualified", "message": "never served", "decision": None}]
VOID = "void — host trouble: every seat failed to start (the bot did not open its socket $ARENA_SOCKET within 10000 ms)"


def new_match(ladder, *bots):
    from matches.services import create_match
    return create_match(game="thebes", params={"players": 2}, time_control={}, ladder=ladder, queue=False,
                        versions=[b.active_version_id for b in bots])


def test_a_void_match_is_not_rated_and_is_queued_again_a_bounded_number_of_times(ladder, make_user, settings,
                                                                                  monkeypatch,
                                                                                  django_capture_on_commit_callbacks):
    from ladders.models import Rating
    from matches import services
    from matches.models import Match, Participant

    settings.ARENA_HOST_VOID_RETRIES = 2
    settings.ARENA_HOST_VOID_DELAY_SECONDS = 20
    sent = []
    monkeypatch.setattr(services, "send", lambda match_id, countdown=0.0: sent.append((match_id, countdown)))
    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    match = new_match(ladder, a, b)
    for attempt in (1, 2):
        run = services.Run.of(services.claim(match.pk, "host-a:100"))
        with django_capture_on_commit_callbacks(execute=True):
            assert services.record_result(match.pk, result_for(match, [0, 0], {0: STARTUP, 1: STARTUP}, VOID),
                                          run=run)
        # sent again once it is committed, later each time: the host gets time to recover
        assert sent[-1] == (match.pk, 20.0 * attempt)
        match.refresh_from_db()
        assert match.status == Match.Status.QUEUED and match.host_voids == attempt
        assert match.status_reason.startswith("queued again after void — host trouble")
        assert match.attempts == 0  # a void run is not a lost worker: it does not use up the attempts
    assert len(sent) == 2
    assert Rating.objects.filter(games__gt=0).count() == 0  # nothing rated
    assert all(p.faults == [] and p.rank is None for p in Participant.objects.filter(match=match))
    run = services.Run.of(services.claim(match.pk, "host-a:100"))
    services.record_result(match.pk, result_for(match, [0, 0], {0: STARTUP, 1: STARTUP}, VOID), run=run)
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED  # the third time: given up, the reason kept for staff
    assert "void 3 times: given up" in match.status_reason and "every seat failed to start" in match.status_reason
    assert Rating.objects.filter(games__gt=0).count() == 0


@pytest.mark.parametrize("builtin", [False, True])
def test_host_trouble_never_suspends_a_bot_and_its_own_faults_do_builtin_or_not(ladder, make_user, settings,
                                                                                monkeypatch, builtin):
    from botregistry.models import Bot, BotVersion
    from matches import services

    monkeypatch.setattr(services, "send", lambda match_id, countdown=0.0: None)
    settings.ARENA_SUSPENSION = {"window": 10, "min_matches": 5, "fault_share": 0.5}
    settings.ARENA_HOST_VOID_RETRIES = 100
    shaky, steady = make_bot(make_user(), "shaky"), make_bot(make_user(), "steady")
    Bot.objects.filter(pk=shaky.pk).update(builtin=builtin)
    for _ in range(8):  # host trouble, again and again: never the bot's fault
        m = new_match(ladder, shaky, steady)
        services.record_result(m.pk, result_for(m, [0, 0], {0: STARTUP, 1: STARTUP}, VOID))
    assert BotVersion.objects.get(pk=shaky.active_version_id).status == BotVersion.Status.READY
    timeout = [{"kind": "timeout", "message": "no answer within 1000 ms + 0 ms of bank", "decision": 4}]
    for _ in range(6):  # its own timeouts, on its own clock: the same rule for the house's bots as for authors'
        m = new_match(ladder, shaky, steady)
        services.record_result(m.pk, result_for(m, [2, 1], {0: timeout}))
    version = BotVersion.objects.get(pk=shaky.active_version_id)
    assert version.status == BotVersion.Status.SUSPENDED
    assert version.status_reason.startswith("faulted in 5 of its last 5 matches (timed out in 5)")


def test_an_owner_resumes_a_suspended_version_without_uploading_and_the_rule_counts_from_then(
        ladder, make_user, settings, client):
    from botregistry.models import BotVersion
    from matches import services

    settings.ARENA_SUSPENSION = {"window": 10, "min_matches": 5, "fault_share": 0.5}
    owner, other = make_user(), make_user()
    shaky, steady = make_bot(owner, "shaky"), make_bot(make_user(), "steady")
    crash = [{"kind": "crash", "message": "the bot exited with code 1", "decision": 3}]
    for _ in range(5):
        m = new_match(ladder, shaky, steady)
        services.record_result(m.pk, result_for(m, [2, 1], {0: crash}))
    version = BotVersion.objects.get(pk=shaky.active_version_id)
    assert version.status == BotVersion.Status.SUSPENDED

    client.force_login(other)
    assert client.post(f"/api/versions/{version.pk}/resume/").status_code == 403  # not theirs
    client.force_login(owner)
    page = client.get(f"/bots/{shaky.pk}/").content.decode()
    assert f"/api/versions/{version.pk}/resume/" in page and "is suspended: faulted in 5" in page
    assert "suspended: suspended" not in page
    response = client.post(f"/api/versions/{version.pk}/resume/")
    assert response.status_code == 200 and response.json()["status"] == "ready"
    assert client.post(f"/api/versions/{version.pk}/resume/").status_code == 409  # nothing left to resume
    shaky.refresh_from_db()
    assert shaky.playing_version is not None
    m = new_match(ladder, shaky, steady)  # one more match, clean: the old faults no longer count
    services.record_result(m.pk, result_for(m, [1, 2]))
    assert BotVersion.objects.get(pk=version.pk).status == BotVersion.Status.READY


def test_disqualified_seats_are_marked_on_the_match_list(ladder, make_user, client):
    from matches import services

    a, b = make_bot(make_user(), "alpha"), make_bot(make_user(), "beta")
    m = new_match(ladder, a, b)
    dq = [{"kind": "crash", "message": "the bot exited with code 1", "decision": 3},
          {"kind": "disqualified", "message": "crashed", "decision": 3}]
    services.record_result(m.pk, result_for(m, [2, 1], {0: dq}))
    page = client.get("/matches/").content.decode()
    row = page[page.index(f"#{m.pk}"):]
    assert '<span class="bad">disqualified</span>' in row[:row.index("</tr>")]
    bot_page = client.get(f"/bots/{b.pk}/").content.decode()
    assert '<span class="bad">disqualified</span>' in bot_page
