"""An opt-in `promote` flag: a version test that ends accepted makes version B the bot's active version, through
the same path as an owner's switch (its ratings widen); rejected or stopped tests, and tests without the flag,
leave the active version alone."""

from __future__ import annotations

import pytest

from tests.platform.versiontests.test_version_test_flow import _play_pending, _start

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_a(setup):
    """The fixture bot, playing version A with a settled rating."""
    from ladders.models import Rating

    setup.bot.active_version = setup.va
    setup.bot.save()
    Rating.objects.filter(bot=setup.bot).update(elo=1555.0, mu=27.0, sigma=1.5, games=50)
    return setup


def _run(test, finish, outcome):
    rounds = 0
    while test.status == "running":
        _play_pending(test, finish, lambda p: outcome)
        rounds += 1
        assert rounds < 30
    return test


def _state(s):
    from ladders.models import Rating

    s.bot.refresh_from_db()
    r = Rating.objects.get(bot=s.bot, ladder=s.ladder)
    return s.bot.active_version_id, r.elo, r.mu, r.sigma, r.provisional


def test_accepted_with_promote_makes_b_active_and_widens(on_a, finish, settings):
    test = _run(_start(on_a, elo0=0, elo1=100, max_pairs=100, promote=True), finish, ("loss", "win"))
    assert test.status == "accepted"
    active, elo, mu, sigma, provisional = _state(on_a)
    assert active == on_a.vb.pk
    assert "version 2 promoted to active" in test.status_reason
    # version-test games are unrated: only the version change touched the rating
    assert (elo, mu) == (1555.0, 27.0) and provisional
    assert sigma == pytest.approx(settings.ARENA_RATING["new_version_sigma"] * 25.0 / 3)


def test_accepted_without_promote_leaves_the_active_version(on_a, finish):
    before = _state(on_a)
    test = _run(_start(on_a, elo0=0, elo1=100, max_pairs=100), finish, ("loss", "win"))
    assert test.status == "accepted" and "promoted" not in test.status_reason
    assert _state(on_a) == before and before[0] == on_a.va.pk


def test_rejected_with_promote_changes_nothing(on_a, finish):
    before = _state(on_a)
    test = _run(_start(on_a, elo0=0, elo1=100, max_pairs=100, promote=True), finish, ("draw", "loss"))
    assert test.status == "rejected"
    assert _state(on_a) == before


def test_stopped_by_owner_with_promote_changes_nothing(on_a, client_for):
    before = _state(on_a)
    owner = client_for(on_a.owner)
    created = owner.post("/api/version-tests/", {"version_a": on_a.va.pk, "version_b": on_a.vb.pk,
                                                 "ladder": on_a.ladder.pk, "promote": True}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["promote"] is True
    stopped = owner.post(f"/api/version-tests/{created.json()['id']}/stop/")
    assert stopped.json()["status"] == "stopped"
    assert _state(on_a) == before


def test_promote_defaults_to_false_in_the_api(on_a, client_for):
    created = client_for(on_a.owner).post("/api/version-tests/", {"version_a": on_a.va.pk, "version_b": on_a.vb.pk,
                                                                  "ladder": on_a.ladder.pk}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["promote"] is False
