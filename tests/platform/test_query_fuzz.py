"""Hostile query parameters and ids: every one is a 4xx (or an empty list), never a 500. Huge numbers overflow
PostgreSQL's bigint, Unicode digits pass `str.isdigit()` but not `int()`, and a NUL byte cannot be sent to
PostgreSQL at all."""

import pytest

HUGE = "99999999999999999999"
HOSTILE = [HUGE, "-1", "1.5", "²", "١٢", "%00", "0x10", "1e9", " 1", "x" * 300]

LIST_PARAMS = {
    "/api/version-tests/": ["bot", "status"],
    "/api/bots/": ["game", "owner", "mine"],
    "/api/matches/": ["ladder", "bot", "status", "kind", "game"],
    "/api/ladders/": [],
    "/api/versions/": [],
    "/api/tournaments/": ["status"],
    "/api/challenges/": [],
}


@pytest.fixture
def client(db):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("fuzzer", "", "pw-123456789"))
    return client


@pytest.fixture
def anon():
    from rest_framework.test import APIClient
    return APIClient()


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(LIST_PARAMS))
def test_hostile_query_values_are_4xx_not_500(client, anon, path):
    for param in [*LIST_PARAMS[path], "page", "page_size"]:
        for value in HOSTILE:
            for who in (anon, client):
                response = who.get(f"{path}?{param}={value}")
                assert response.status_code < 500, (path, param, value, response.content[:300])


@pytest.mark.django_db
def test_the_reported_version_test_filter_is_a_400(anon):
    response = anon.get(f"/api/version-tests/?bot={HUGE}")
    assert response.status_code == 400 and "bot" in response.json()
    assert anon.get("/api/version-tests/?bot=²").status_code == 400
    assert anon.get("/api/matches/?bot=²").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/bots/{}/", "/api/bots/{}/versions/", "/api/versions/{}/",
                                  "/api/matches/{}/", "/api/matches/{}/replay/", "/api/version-tests/{}/",
                                  "/api/ladders/{}/", "/api/ladders/{}/leaderboard/", "/api/tournaments/{}/",
                                  "/api/version-tests/{}/stop/"])
def test_hostile_ids_in_urls_are_4xx(anon, client, path):
    for value in [HUGE, "9" * 40, "-1", "²", "0", "%00"]:
        for who in (anon, client):
            response = who.get(path.format(value))
            assert 400 <= response.status_code < 500, (path, value, response.status_code)
