"""The server-rendered pages, through Django's test client: what a visitor reads on each page."""

from __future__ import annotations

import re


def text(resp) -> str:
    return re.sub(r"\s+", " ", resp.content.decode())


def test_home_lists_games_ladders_and_recent_matches(client, world):
    resp = client.get("/")
    assert resp.status_code == 200
    page = text(resp)
    assert "Thebes" in page and "Minos" in page
    assert 'href="/ladders/thebes-4p/"' in page
    assert "digger0" in page  # top of the ladder
    assert f'href="/matches/{world["match"].pk}/"' in page


def test_leaderboard_shows_rank_rating_interval_games_win_rate_and_provisional(client, world):
    resp = client.get("/ladders/thebes-4p/")
    assert resp.status_code == 200
    rows = re.findall(r'<tr data-bot="(digger\d)">(.*?)</tr>', resp.content.decode(), re.S)
    assert [name for name, _ in rows] == ["digger0", "digger1", "digger2", "digger3"]
    first = re.sub(r"<[^>]+>|\s+", " ", rows[0][1]).split()
    assert first[0] == "1" and "1620" in first and "owner0" in first
    assert "±" in first and "30" in first and "40.0%" in first
    # digger2 (10 games) and digger3 (0 games) are provisional; digger0 (30 games) is not
    assert 'class="prov"' not in rows[0][1]
    assert 'class="prov"' in rows[2][1] and 'class="prov"' in rows[3][1]
    assert "—" in rows[3][1]  # no win rate without games


def test_leaderboard_sorts_and_paginates(client, world):
    resp = client.get("/ladders/thebes-4p/?sort=-elo")
    names = re.findall(r'<tr data-bot="(digger\d)">', resp.content.decode())
    assert names == ["digger3", "digger2", "digger1", "digger0"]
    ranks = re.findall(r'<tr data-bot="digger\d">\s*<td class="num">(\d+)</td>', resp.content.decode())
    assert ranks == ["4", "3", "2", "1"]  # ranks stay the ladder's, whatever the sort
    resp = client.get("/ladders/thebes-4p/?per_page=10&page=1")
    assert resp.status_code == 200
    assert client.get("/ladders/nope/").status_code == 404


def test_bot_page_shows_versions_with_failure_reason_chart_and_matches(client, world):
    bot = world["bots"][3]
    page = text(client.get(f"/bots/{bot.pk}/"))
    assert "runtime &#x27;cobol&#x27; is not supported" in page or "runtime 'cobol' is not supported" in page
    assert "Not playing: version 2 is failed" in page
    assert "Validation log" not in page  # only the owner sees the log
    client.force_login(world["owners"][3])
    assert "Validation log" in text(client.get(f"/bots/{bot.pk}/"))
    from matches.ratings import refit_ratings

    refit_ratings()  # the chart is the history of the fitted rating
    page = text(client.get(f"/bots/{world['bots'][0].pk}/"))
    assert '<svg class="chart"' in page and "<polyline" in page
    assert f'/matches/{world["match"].pk}/' in page


def test_match_page_shows_seats_scores_ranks_faults_viewer_and_download(client, world):
    m = world["match"]
    page = text(client.get(f"/matches/{m.pk}/"))
    for i in range(4):
        assert f"digger{i}" in page
    assert "no answer within 1000 ms (bank empty)" in page and "timeout" in page
    assert f'href="/matches/{m.pk}/replay.json.gz"' in page
    assert "data-viewer" in page and f'data-frames-url="/matches/{m.pk}/frames.json"' in page
    assert 'option value="all"' in page  # omniscient view offered: the game is over
    resp = client.get(f"/matches/{m.pk}/replay.json.gz")
    assert resp.status_code == 200
    assert resp["Content-Disposition"].startswith("attachment")
    assert client.get("/matches/999999/").status_code == 404


def test_signup_logs_in_and_the_owner_page_makes_an_api_token(client, db):
    resp = client.post("/signup/", {"username": "newbie", "email": "newbie@example.org",
                                    "password1": "a-Long-pass-123", "password2": "a-Long-pass-123"})
    assert resp.status_code == 302 and resp["Location"] == "/me/"
    page = text(client.get("/me/"))
    assert "No API token yet" in page
    client.post("/me/", {"action": "new-token"})
    import re

    from accounts.models import ApiToken
    from accounts.tokens import digest
    shown = re.search(r'class="token">([0-9a-f]+)<', client.get("/me/").content.decode()).group(1)
    assert ApiToken.objects.get(user__username="newbie").digest == digest(shown)  # stored hashed, shown once
    assert shown not in text(client.get("/me/"))
    assert 'data-upload' not in page  # no bots yet, so no upload form
    client.post("/logout/")
    assert client.get("/me/").status_code == 302


def test_login_page(client, world):
    resp = client.post("/login/", {"username": "owner0", "password": "pw-123456789", "next": "/me/"})
    assert resp.status_code == 302
    page = text(client.get("/me/"))
    assert "digger0" in page and "data-upload=\"/api/bots/" in page
