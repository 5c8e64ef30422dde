"""A season closed on a public ladder: its final table is kept (API, ladder page, each bot's page), and the
ratings start again from scratch (competitions.seasons says why): every rating row back to the initial values,
the next refit reading only the new season's games."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_closing_a_season_keeps_the_table_and_restarts_ratings(cast, client_for, finish, settings):
    from ladders.models import Ladder, Rating, VersionRating
    from matches.models import Match
    from matches.ratings import refit_ratings
    from matches.services import create_match

    ladder = Ladder.objects.get(slug="thebes-2p")

    def play(winner, loser, n):
        for _ in range(n):
            m = create_match(game="thebes", params=ladder.game_params, time_control=ladder.time_control.to_dict(),
                             versions=[winner.active_version_id, loser.active_version_id], ladder=ladder, queue=False)
            finish(m, {winner.pk: 2.0, loser.pk: 1.0})

    play(cast.a, cast.b, 6)
    refit_ratings(force=True)
    before = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder)}
    assert before[cast.a.pk].rating > before[cast.b.pk].rating and before[cast.a.pk].games == 6

    staff = cast.eve
    staff.is_staff = True
    staff.save()
    assert client_for(cast.alice).post("/api/seasons/", {"ladder": ladder.slug}, format="json").status_code == 403
    r = client_for(staff).post("/api/seasons/", {"ladder": ladder.slug}, format="json")
    assert r.status_code == 201, r.content
    season = r.json()
    assert season["number"] == 1
    rows = {row["bot"]: row for row in season["table"]}
    assert rows["alice-bot"]["rank"] == 1 and rows["alice-bot"]["games"] == 6
    assert rows["alice-bot"]["rating"] == pytest.approx(before[cast.a.pk].rating, abs=0.1)

    # from scratch: every rating at the initial values, no version fit left
    initial = settings.ARENA_RATING["initial_elo"]
    for r in Rating.objects.filter(ladder=ladder):
        assert (r.rating, r.rating_interval, r.elo, r.games, r.wins) == (initial, None, initial, 0, 0)
    assert not VersionRating.objects.filter(ladder=ladder).exists()

    # the new season's games only: bob now wins; the old season's six games count no more
    play(cast.b, cast.a, 2)
    refit_ratings()
    now = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder)}
    assert now[cast.b.pk].rating > now[cast.a.pk].rating
    assert now[cast.a.pk].games == 2
    ladder.refresh_from_db()
    assert ladder.fitted_games == 2 and Match.objects.filter(ladder=ladder).count() == 8

    # the old table stays, shown on the ladder page and on the bot's page
    assert client_for().get("/api/seasons/?ladder=thebes-2p").json()["results"][0]["table"] == season["table"]
    page = client_for().get("/ladders/thebes-2p/").content.decode()
    assert "Closed seasons" in page and 'data-season="1"' in page
    bot_page = client_for().get(f"/bots/{cast.a.pk}/").content.decode()
    assert 'data-season="thebes-2p-1"' in bot_page and "Past seasons" in bot_page

    # a second close numbers on and keeps both
    assert client_for(staff).post("/api/seasons/", {"ladder": ladder.slug}, format="json").json()["number"] == 2
    assert client_for().get("/api/seasons/?ladder=thebes-2p").json()["count"] == 2
