"""The version-test API: who may start a test, what a bad request gets back, what a started test schedules,
and stopping. No worker: the queued matches stay queued (the rows are never committed)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _post(client, s, **extra):
    body = {"version_a": s.va.pk, "version_b": s.vb.pk, "ladder": s.ladder.pk, **extra}
    return client.post("/api/version-tests/", body, format="json")


def test_the_owner_starts_a_test_of_paired_unrated_matches(setup, client_for):
    from matches.models import Match

    s = setup
    r = _post(client_for(s.owner), s, elo0=0, elo1=50, max_pairs=20)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "running" and body["bot"] == s.bot.pk
    assert (body["number_a"], body["number_b"], body["elo0"], body["elo1"]) == (1, 2, 0.0, 50.0)
    assert body["lower"] == pytest.approx(-2.944, abs=1e-3)
    from versiontests.models import VersionTest
    test = VersionTest.objects.get(pk=body["id"])
    pairs = list(test.pair_set.select_related("match_a", "match_b"))
    assert len(pairs) == 2
    owner_bots = {s.bot.pk, s.other_mine.pk}
    for pair in pairs:
        a, b = pair.match_a, pair.match_b
        assert a.kind == b.kind == Match.Kind.VERSION_TEST
        assert not a.rated and not b.rated and a.ladder_id is None
        assert a.seed == b.seed == pair.seed
        seats_a = {p.seat: p for p in a.participants.all()}
        seats_b = {p.seat: p for p in b.participants.all()}
        assert seats_a[pair.seat].version_id == s.va.pk and seats_b[pair.seat].version_id == s.vb.pk
        opp_a = [p.version_id for k, p in sorted(seats_a.items()) if k != pair.seat]
        opp_b = [p.version_id for k, p in sorted(seats_b.items()) if k != pair.seat]
        assert opp_a == opp_b  # the same opponents in the same seats
        assert all(seats_a[k].bot_id not in owner_bots for k in seats_a if k != pair.seat)


def test_anyone_reads_tests(setup, client_for, anon):
    s = setup
    tid = _post(client_for(s.owner), s).json()["id"]
    listing = anon.get("/api/version-tests/")
    assert listing.status_code == 200 and [t["id"] for t in listing.json()["results"]] == [tid]
    detail = anon.get(f"/api/version-tests/{tid}/")
    assert detail.status_code == 200 and len(detail.json()["pair_list"]) == 2
    assert anon.get(f"/api/version-tests/?bot={s.bot.pk}&status=running").json()["count"] == 1
    assert anon.get("/api/version-tests/?bot=x").status_code == 400
    assert anon.get("/api/version-tests/999999/").status_code == 404


def test_only_the_owner_starts_or_stops_a_test(setup, client_for, anon, make_user):
    s = setup
    assert _post(anon, s).status_code == 401
    stranger = client_for(make_user("vt-stranger"))
    assert _post(stranger, s).status_code == 403
    tid = _post(client_for(s.owner), s).json()["id"]
    assert stranger.post(f"/api/version-tests/{tid}/stop/").status_code == 403
    assert anon.post(f"/api/version-tests/{tid}/stop/").status_code == 401


def test_stopping_cancels_the_queued_matches(setup, client_for):
    from matches.models import Match
    from versiontests.models import VersionTest

    s = setup
    owner = client_for(s.owner)
    tid = _post(owner, s).json()["id"]
    r = owner.post(f"/api/version-tests/{tid}/stop/")
    assert r.status_code == 200 and r.json()["status"] == "stopped"
    test = VersionTest.objects.get(pk=tid)
    ids = [m for p in test.pair_set.values_list("match_a_id", "match_b_id") for m in p]
    assert set(Match.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"cancelled"}


@pytest.mark.parametrize("change, message", [
    ("not_ready", "not ready"),
    ("other_bot", "same bot"),
    ("same_version", "two different versions"),
    ("wrong_game_ladder", "plays minos"),
    ("bounds", "elo0 must be smaller"),
])
def test_bad_requests_get_a_clear_400(setup, client_for, change, message):
    from botregistry.models import BotVersion
    from ladders.models import Ladder

    s = setup
    extra = {}
    if change == "not_ready":
        s.vb.status = BotVersion.Status.FAILED
        s.vb.save()
    elif change == "other_bot":
        extra["version_b"] = s.other_mine.active_version_id
    elif change == "same_version":
        extra["version_b"] = s.va.pk
    elif change == "wrong_game_ladder":
        extra["ladder"] = Ladder.objects.create(slug="minos-2p", name="Minos 2p", game="minos", players=2).pk
    elif change == "bounds":
        extra.update(elo0=10, elo1=5)
    r = _post(client_for(s.owner), s, **extra)
    assert r.status_code == 400, r.content
    assert message in r.content.decode()


def test_wrong_types_and_unknown_ids_are_400(setup, client_for):
    s = setup
    owner = client_for(s.owner)
    assert _post(owner, s, version_a=999999).status_code == 400
    assert _post(owner, s, ladder="thebes").status_code == 400
    assert _post(owner, s, max_pairs=0).status_code == 400
    assert _post(owner, s, elo1="lots").status_code == 400


def test_no_opponents_is_refused(setup, client_for):
    from botregistry.models import BotVersion

    s = setup
    BotVersion.objects.filter(bot__in=s.opponents).update(status=BotVersion.Status.SUSPENDED)
    r = _post(client_for(s.owner), s)
    assert r.status_code == 400 and "no opponents" in r.content.decode()


def test_running_tests_per_owner_are_limited(setup, client_for, settings):
    settings.ARENA_VERSION_TESTS_PER_OWNER = 2
    s = setup
    owner = client_for(s.owner)
    assert _post(owner, s).status_code == 201
    assert _post(owner, s).status_code == 201
    r = _post(owner, s)
    assert r.status_code == 400 and "limit is 2" in r.content.decode()
    first = owner.get("/api/version-tests/").json()["results"][-1]["id"]
    owner.post(f"/api/version-tests/{first}/stop/")
    assert _post(owner, s).status_code == 201


def test_a_finished_sprt_shows_fishtests_unbiased_estimate(setup, client_for, anon):
    """Computed on read from the counts; null while running or when stopped without a verdict. Expected values:
    fishtest's sprt.analytics on these counts (see test_sprt_stats)."""
    from versiontests.models import VersionTest

    s = setup
    tid = _post(client_for(s.owner), s, elo0=0, elo1=30).json()["id"]
    assert anon.get(f"/api/version-tests/{tid}/").json()["sprt_estimate"] is None
    VersionTest.objects.filter(pk=tid).update(status=VersionTest.Status.ACCEPTED, counts=[3, 10, 25, 30, 12])
    est = anon.get(f"/api/version-tests/{tid}/").json()["sprt_estimate"]
    # fishtest on the pair-Elo bounds [0, pair_elo(30)] gives 82.33 [42.16, 124.67], LOS 0.999976 (see
    # test_sprt_stats); the API shows it on the head-to-head scale of elo0/elo1
    assert est["elo"] == pytest.approx(175.09985, abs=1e-4) and est["los"] == pytest.approx(0.999976, abs=1e-6)
    assert est["elo_low"] == pytest.approx(85.59489, abs=1e-4) and est["elo_high"] == pytest.approx(293.54342, abs=1e-4)
    assert anon.get("/api/version-tests/").json()["results"][0]["sprt_estimate"] == est
    VersionTest.objects.filter(pk=tid).update(status=VersionTest.Status.STOPPED)
    assert anon.get(f"/api/version-tests/{tid}/").json()["sprt_estimate"] is None
