"""Live pages through Django's test client: a ladder, a running tournament and the home page carry a live
indicator and answer `?fragment=1` with only their live region (same sort and page), and stop being live when
there is nothing left to follow (a finished tournament, an inactive ladder)."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone


def bots_in(html: str) -> list[str]:
    return re.findall(r'<tr data-bot="([^"]+)">', html)


def test_ladder_page_is_live_and_its_fragment_is_only_the_leaderboard(client, world, settings):
    settings.ARENA_LIVE_SECONDS = 7
    page = client.get("/ladders/thebes-4p/").content.decode()
    assert "data-live-bar" in page and 'aria-live="polite"' in page and "Pause updates" in page
    assert 'data-live-seconds="7"' in page and "web/live.js" in page

    resp = client.get("/ladders/thebes-4p/?sort=-elo&fragment=1")
    frag = resp.content.decode()
    assert resp.status_code == 200 and resp["X-Live"] == "1" and resp["Cache-Control"] == "no-store"
    assert "<html" not in frag and "<h1" not in frag and "data-live-bar" not in frag
    assert bots_in(frag) == ["digger3", "digger2", "digger1", "digger0"]  # the sort of the page's own URL
    assert 'aria-sort="ascending"' in frag


def test_fragment_shows_a_new_result_without_the_page(client, world):
    from ladders.models import Rating

    before = client.get("/ladders/thebes-4p/?sort=games&fragment=1").content.decode()
    assert bots_in(before)[0] == "digger0"
    Rating.objects.filter(bot=world["bots"][3]).update(games=31, wins=1)
    after = client.get("/ladders/thebes-4p/?sort=games&fragment=1").content.decode()
    assert bots_in(after)[0] == "digger3"


def test_inactive_ladder_is_not_live(client, world):
    world["ladder"].active = False
    world["ladder"].save()
    page = client.get("/ladders/thebes-4p/").content.decode()
    assert "data-live-bar" not in page and "web/live.js" not in page and "data-live-seconds" not in page
    assert client.get("/ladders/thebes-4p/?fragment=1")["X-Live"] == "0"


def test_home_fragment_is_the_recent_matches(client, world):
    page = client.get("/").content.decode()
    assert "data-live-bar" in page
    frag = client.get("/?fragment=1").content.decode()
    assert f'href="/matches/{world["match"].pk}/"' in frag
    assert "Live ladders" not in frag and "<html" not in frag


def test_running_tournament_is_live_and_a_finished_one_is_not(client, db):
    from tournaments.models import Tournament

    t = Tournament.objects.create(name="Night cup", game="thebes", players=2, starts_at=timezone.now(), seed=1,
                                  status=Tournament.Status.RUNNING)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "data-live-bar" in page and "Night cup" in page
    resp = client.get(f"/tournaments/{t.pk}/?fragment=1")
    frag = resp.content.decode()
    assert resp["X-Live"] == "1" and 'id="rounds-h"' in frag and "Night cup" not in frag

    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now() + timedelta(seconds=1)
    t.final_standings = []
    t.save()
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "data-live-bar" not in page and "web/live.js" not in page
    assert client.get(f"/tournaments/{t.pk}/?fragment=1")["X-Live"] == "0"  # a page left open stops
