"""End to end on PostgreSQL, Redis and a real Celery worker: an owner's bot whose version 1 is the built-in
random player and version 2 the built-in greedy one is tested on Thebes 2p against the house bots; the worker
plays the sandboxed pairs and its after-match hook drives the SPRT to "accepted" by itself."""

from __future__ import annotations

import pytest
from platform_helpers import ROOT, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_greedy_as_version_2_is_accepted_over_random(celery_worker, make_user, client_for):
    from botregistry.models import Bot, BotVersion
    from botregistry.services import register_builtin
    from ladders.services import ensure_ladders
    from matches.models import Match
    from versiontests.models import VersionTest

    ladder = next(lad for lad in ensure_ladders() if lad.slug == "thebes-2p")
    for name in ("random", "greedy"):  # the opponents (house bots; also builds their packages)
        register_builtin(ROOT / "bots" / "python" / name)
    owner = make_user("vt-e2e")
    bot = Bot.objects.create(owner=owner, name="climber", game="thebes")
    versions = [BotVersion.objects.create(bot=bot, number=n, status=BotVersion.Status.READY, sha256=f"{n:064d}",
                                          package_dir=str(ROOT / "bots" / "python" / name), runtime="python")
                for n, name in ((1, "random"), (2, "greedy"))]
    bot.active_version = versions[1]
    bot.save()

    r = client_for(owner).post("/api/version-tests/", {
        "version_a": versions[0].pk, "version_b": versions[1].pk, "ladder": ladder.pk,
        "elo0": -100, "elo1": 100, "max_pairs": 12}, format="json")
    assert r.status_code == 201, r.content
    tid = r.json()["id"]
    try:
        wait_for(lambda: VersionTest.objects.get(pk=tid).status != "running", 50, interval=0.5,
                 what="the version test's verdict")
    except AssertionError:
        print(celery_worker.log_text()[-4000:])
        raise
    test = VersionTest.objects.get(pk=tid)
    assert test.status == "accepted", (test.status_reason, test.counts)
    # the stopping bound is the upper one pulled in by fishtest's overshoot estimate (stats.Overshoot)
    assert test.llr > test.result["stop_upper"] and test.result["stop_upper"] <= test.upper
    assert test.result["elo"] is None or test.result["elo"] > 0  # None: +inf (B never did worse than A)
    print(f"version test: {test.pairs} pairs, counts {test.counts}, LLR {test.llr:.2f}, {test.estimate}")
    # no LOS threshold: an SPRT bounds its error rates, not the LOS at the moment it stops (it was 0.86 once)
    played = Match.objects.filter(kind=Match.Kind.VERSION_TEST, status=Match.Status.FINISHED)
    assert played.count() >= 2 * test.pairs
    assert not played.filter(rated=True).exists()
    assert all(p.elo_after is None for m in played for p in m.participants.all())  # ratings untouched
    for pair in test.pair_set.select_related("match_a", "match_b"):  # one deal, never two games of it at once
        a, b = pair.match_a, pair.match_b
        assert b.after_id == a.pk and a.seed == b.seed
        if b.started_at is not None:
            assert a.finished_at is not None and b.started_at >= a.finished_at
