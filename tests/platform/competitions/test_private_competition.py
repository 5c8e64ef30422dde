"""A private competition seen from every side: anonymous, an outsider, an entrant (a team member whose team's bot
entered) and the organizer, across the pages, the API, search, user and bot pages, exports and the live lists.
Outsiders find nothing of it — not its page, its ladder, its matches, its replays, its final, its ratings — and
get the same 404 as for something that does not exist; once the organizer makes it public, everything shows."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

SLUG = "hidden-cup"
TITLE = "Hidden Cup"


@pytest.fixture
def private(cast, make_competition, dates, finish, django_capture_on_commit_callbacks):
    """A private competition with alice's and the team Blue's entries, a ladder match and a challenge played on
    its ladder and its final finished (results published)."""
    from competitions import services
    from matches.models import Match
    from matches.services import create_match

    c = make_competition(slug=SLUG, title=TITLE, private=True, policy="link")
    key = services.new_invite_link(c, cast.olga)
    services.enter(c, cast.alice, cast.a, key=key)
    services.enter(c, cast.dave, cast.blue, key=key)
    c.key = key
    services.step(c.pk, dates["entries_open_at"])
    c.refresh_from_db()
    ladder_match = create_match(game="thebes", params=c.ladder.game_params,
                                time_control=c.ladder.time_control.to_dict(),
                                versions=[cast.a.active_version_id, cast.blue.active_version_id], ladder=c.ladder,
                                queue=False)
    finish(ladder_match, {cast.a.pk: 2.0, cast.blue.pk: 1.0})
    services.step(c.pk, dates["deadline"])
    with django_capture_on_commit_callbacks(execute=True):
        services.step(c.pk, dates["final_at"])
        c.refresh_from_db()
        for m in Match.objects.filter(tournament_game__round__tournament=c.final, status="queued"):
            finish(m, {cast.a.pk: 2.0, cast.blue.pk: 1.0})
    c.refresh_from_db()
    services.publish(c, cast.olga)
    c.refresh_from_db()
    final_matches = list(Match.objects.filter(tournament_game__round__tournament=c.final))
    assert c.result is not None and final_matches
    return c, [ladder_match, *final_matches]


def _everything(c, matches, cast) -> dict[str, str]:
    """Every address that shows the competition or one of its parts."""
    m = matches[0]
    urls = {
        "page": f"/competitions/{c.slug}/", "archive": f"/competitions/{c.slug}/archive/",
        "csv": f"/competitions/{c.slug}/results.csv", "json": f"/competitions/{c.slug}/results.json",
        "ladder page": f"/ladders/{c.ladder.slug}/", "final page": f"/tournaments/{c.final_id}/",
        "api competition": f"/api/competitions/{c.slug}/", "api entries": f"/api/competitions/{c.slug}/entries/",
        "api results": f"/api/competitions/{c.slug}/results/",
        "api results csv": f"/api/competitions/{c.slug}/results-csv/",
        "api ladder": f"/api/ladders/{c.ladder.slug}/", "api board": f"/api/ladders/{c.ladder.slug}/leaderboard/",
        "api final": f"/api/tournaments/{c.final_id}/",
        "matches filtered": f"/matches/?ladder={c.ladder.slug}",
        "matches of the final": f"/matches/?tournament={c.final_id}",
    }
    for match in matches:
        urls[f"match {match.pk}"] = f"/matches/{match.pk}/"
        urls[f"api match {match.pk}"] = f"/api/matches/{match.pk}/"
        urls[f"frames {match.pk}"] = f"/matches/{match.pk}/frames.json?seat=0"
        urls[f"replay {match.pk}"] = f"/matches/{match.pk}/replay.json.gz"
        urls[f"api replay {match.pk}"] = f"/api/matches/{match.pk}/replay/"
    del m
    return urls


def _lists(c, cast) -> dict[str, str]:
    """Lists that would name it or its matches (answering 200 to everyone)."""
    return {"competitions": "/competitions/", "ladders": "/ladders/", "matches": "/matches/", "home": "/",
            "home live": "/?fragment=1", "tournaments": "/tournaments/", "search": "/search/?q=hidden",
            "alice's page": f"/users/{cast.alice.username}/", "alice's bot": f"/bots/{cast.a.pk}/",
            "blue bot": f"/bots/{cast.blue.pk}/", "game page": "/games/thebes/",
            "api competitions": "/api/competitions/", "api ladders": "/api/ladders/", "api matches": "/api/matches/",
            "api tournaments": "/api/tournaments/", "api alice's bot": f"/api/bots/{cast.a.pk}/",
            "api blue bot": f"/api/bots/{cast.blue.pk}/", "api version tests": "/api/version-tests/"}


def _traces(c, matches) -> list[str]:
    """What must not appear in a list an outsider reads."""
    out = [TITLE, c.slug, c.ladder.slug, f"/tournaments/{c.final_id}/"]
    for m in matches:
        out += [f"/matches/{m.pk}/", f"#{m.pk}<"]
    return out


def _get(client, url):
    r = client.get(url)
    body = b"".join(r.streaming_content) if getattr(r, "streaming", False) else r.content
    return r.status_code, body.decode("utf-8", "replace").replace(" ", "")


def _login(client, user):
    """A web client logged in as `user` (the API's token works on both: pages read the session)."""
    from django.test import Client

    web = Client()
    if user is not None:
        web.force_login(user)
    return web


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_outsiders_find_nothing(private, cast, who):
    c, matches = private
    user = None if who == "anonymous" else cast.eve
    client = _login(None, user)
    for what, url in _everything(c, matches, cast).items():
        status, _ = _get(client, url)
        expected = (400,) if what.startswith("matches ") else (404,)  # a filter naming an unknown ladder: 400
        assert status in expected, (who, what, url, status)
    traces = [t.replace(" ", "") for t in _traces(c, matches)]
    for what, url in _lists(c, cast).items():
        status, body = _get(client, url)
        assert status == 200, (what, url, status)
        leaked = [t for t in traces if t in body]
        assert not leaked, (who, what, url, leaked)
    # nor through the API's filters
    from rest_framework.test import APIClient

    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    assert api.get(f"/api/matches/?ladder={c.ladder.slug}").json()["count"] == 0
    assert not {m["id"] for m in api.get("/api/matches/").json()["results"]} & {m.pk for m in matches}
    assert c.final_id not in {t["id"] for t in api.get("/api/tournaments/").json()["results"]}
    assert c.ladder.slug not in {lad["slug"] for lad in api.get("/api/ladders/").json()["results"]}
    for bot in (cast.a, cast.blue):
        assert c.ladder.slug not in {r["ladder"] for r in api.get(f"/api/bots/{bot.pk}/").json()["ratings"]}
    assert api.get(f"/api/matches/?bot={cast.a.pk}").json()["count"] == 0
    if user is not None:  # the outsider's own export holds nothing of it either
        export = b"".join(api.get("/api/auth/me/export/").streaming_content).decode()
        assert TITLE not in export and not any(f'"id": {m.pk},' in export for m in matches)


@pytest.mark.parametrize("who", ["entrant", "organizer"])
def test_entrants_and_organizers_see_it(private, cast, who):
    c, matches = private
    user = cast.dave if who == "entrant" else cast.olga  # dave: a member of the team whose bot entered
    client = _login(None, user)
    for what, url in _everything(c, matches, cast).items():
        status, _ = _get(client, url)
        if what.startswith(("frames", "replay", "api replay")):
            assert status == 404 and "nosuchmatch" not in _ , (what, status)  # these matches have no replay file
            continue
        assert status == 200, (who, what, url, status)
    status, body = _get(client, "/search/?q=hidden")
    assert TITLE.replace(" ", "") in body
    status, body = _get(client, f"/bots/{cast.a.pk}/")
    assert f"/matches/{matches[0].pk}/" in body


def test_a_link_holder_sees_its_page_to_enter_and_nothing_else(private, cast):
    """bob holds the invitation link: its page shows (to enter), its matches and final do not until he enters."""
    c, matches = private
    client = _login(None, cast.bob)
    assert client.get(f"/competitions/{c.slug}/").status_code == 404
    assert client.get(f"/competitions/{c.slug}/?key=wrong").status_code == 404
    assert client.get(f"/competitions/{c.slug}/?key={c.key}").status_code == 200
    for m in matches:
        assert client.get(f"/matches/{m.pk}/").status_code == 404
    assert client.get(f"/tournaments/{c.final_id}/").status_code == 404


def test_a_private_competition_is_entered_by_link_or_list(cast, make_competition, client_for, dates):
    from competitions import services

    with pytest.raises(services.Refused, match="invitation link or by list"):
        make_competition(private=True, policy="anyone")
    c = make_competition(private=True, policy="list")
    c.invited_teams.add(cast.team)
    dave = client_for(cast.dave)
    assert dave.get(f"/api/competitions/{c.slug}/").status_code == 200  # on the list: sees it to enter
    assert client_for(cast.bob).get(f"/api/competitions/{c.slug}/").status_code == 404
    assert "invited_teams" not in dave.get(f"/api/competitions/{c.slug}/").json()  # the list is the organizers'
    r = client_for(cast.bob).post(f"/api/competitions/{c.slug}/enter/", {"bot": cast.b.pk}, format="json")
    assert r.status_code == 404
    r = dave.post(f"/api/competitions/{c.slug}/enter/", {"bot": cast.blue.pk}, format="json")
    assert r.status_code == 201, r.content


def test_entrants_and_outsiders_cannot_use_its_ladder_from_outside(private, cast, client_for, dates):
    """The ladder of a private competition can't be challenged or version-tested on by outsiders (it is as if it
    did not exist), nor by a public bot that is not entered."""
    c, _ = private
    eve = client_for(cast.eve)
    r = eve.post("/api/challenges/", {"ladder": c.ladder.slug, "bot": cast.e.pk, "opponents": [cast.a.pk]},
                 format="json")
    assert r.status_code == 400 and "ladder" in r.json()
    r = eve.post("/api/version-tests/", {"version_a": cast.e.active_version_id,
                                         "version_b": cast.e.active_version_id, "ladder": c.ladder.pk},
                 format="json")
    assert r.status_code == 400 and "ladder" in r.json()
    # bob, not entered, on a public competition's ladder: only entries play there
    from competitions import services

    services.update(c, cast.olga, private=False)
    r = client_for(cast.bob).post("/api/challenges/", {"ladder": c.ladder.slug, "bot": cast.b.pk,
                                                       "opponents": [cast.a.pk]}, format="json")
    assert r.status_code == 400 and "only the competition's entries" in str(r.json())


def test_made_public_everything_shows(private, cast):
    from competitions import services

    c, matches = private
    services.update(c, cast.olga, private=False)
    client = _login(None, None)
    for what, url in _everything(c, matches, cast).items():
        status, _ = _get(client, url)
        if what.startswith(("frames", "replay", "api replay")):
            continue  # no replay file in this test (the end-to-end test downloads real ones)
        assert status == 200, (what, url, status)
    status, body = _get(client, "/competitions/")
    assert TITLE.replace(" ", "") in body
