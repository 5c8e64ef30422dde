"""The leaderboard rating: the maximum-likelihood fit (ladders.rating_fit), its refit task and what the API and
the leaderboard page show of it. Calibration against known strengths is `bench/rating_calibration.py`."""

import itertools
import math

import pytest

from ladders.rating_fit import ELO_PER_NAT, PRIOR_SD, Z95, Results, fit

NO_PRIOR = 1e7  # a prior this wide changes nothing measurable: the fit is the plain maximum likelihood


def two_bots(wins: int, losses: int, draws: int = 0) -> Results:
    r = Results()
    for _ in range(wins):
        r.add([1, 2], [1, 2])
    for _ in range(losses):
        r.add([2, 1], [1, 2])
    for _ in range(draws):
        r.add([1, 2], [1, 1])
    return r


def test_two_bots_get_bradley_terrys_closed_form():
    """30 wins in 40 games: P = 3/4, so the gap is 400·log10(3) ≈ 190.8 Elo; the standard error of the gap is
    1/√(n·p·q) in natural units, and each bot's rating relative to their average is half the gap."""
    f = fit(two_bots(30, 10), prior_sd=NO_PRIOR)
    gap = 400 * math.log10(3)
    assert f.rating[1] - f.rating[2] == pytest.approx(gap, rel=1e-6)
    assert (f.rating[1] + f.rating[2]) / 2 == pytest.approx(1500.0)
    se_gap = ELO_PER_NAT / math.sqrt(40 * 0.75 * 0.25)
    assert f.interval[1] == pytest.approx(f.interval[2], rel=1e-12)
    assert f.interval[1] == pytest.approx(Z95 * se_gap / 2, rel=1e-5)
    assert f.dispersion == pytest.approx(1.0)  # 2 players, no draws: exactly the binomial variance at the MLE
    assert f.low(1) < f.rating[1] < f.high(1)


def test_a_draw_counts_half_and_draws_narrow_the_dispersion():
    f = fit(two_bots(10, 10, draws=20), prior_sd=NO_PRIOR)
    assert f.rating[1] == pytest.approx(f.rating[2])
    assert f.dispersion == pytest.approx(0.5)  # outcomes ±½ around ½ half the time, 0 the other half


def test_a_ladder_of_nothing_but_draws_has_finite_intervals():
    """All draws measure no spread at all (φ = 0): the floor keeps the intervals finite and positive, so the
    leaderboard (strict JSON) can show them."""
    f = fit(two_bots(0, 0, draws=3))
    assert f.dispersion > 0
    assert all(math.isfinite(h) and h > 0 for h in f.interval.values())
    assert f.rating[1] == pytest.approx(f.rating[2])


def test_an_unbeaten_bot_stays_finite_and_a_bot_without_games_sits_at_the_average():
    """A bot that won every game (on purpose or by luck) would be +∞ under plain maximum likelihood: the prior
    keeps it finite, and a bot that never played gets the prior's interval about the ladder's average."""
    r = Results()
    for _ in range(20):
        r.add([1, 2], [1, 2])
        r.add([2, 3], [1, 2])
    f = fit(r, bots=[1, 2, 3, 4])
    assert math.isfinite(f.rating[1]) and f.rating[1] > f.rating[2] > f.rating[3]
    assert sum(f.rating.values()) / 4 == pytest.approx(1500.0)
    assert f.rating[4] == pytest.approx(1500.0, abs=1e-6)
    assert f.interval[4] == pytest.approx(Z95 * PRIOR_SD * math.sqrt(1 - 1 / 4), rel=1e-6)


def test_the_answer_does_not_depend_on_where_newton_starts():
    r = Results()
    for a, b in itertools.permutations(range(5), 2):
        r.add([a, b], [1, 2] if (a + 2 * b) % 3 else [2, 1])
    cold = fit(r)
    warm = fit(r, start={b: 1500 + 300 * (-1) ** b for b in range(5)})
    for b in range(5):
        assert warm.rating[b] == pytest.approx(cold.rating[b], abs=1e-6)
        assert warm.interval[b] == pytest.approx(cold.interval[b], abs=1e-6)


def test_four_evenly_matched_seats_vary_together_by_five_thirds():
    """Every finishing order of 4 bots once: all ratings equal; a seat's pairwise wins at a table are uniform on
    0..3 (variance 5/4) where three independent coin flips would vary by 3/4, so φ = (N+1)/3 = 5/3 and the
    interval is √(5/3) wider than treating the 6 pairs as independent games."""
    r = Results()
    for order in itertools.permutations([1, 2, 3, 4]):
        r.add([10, 11, 12, 13], list(order))
    f = fit(r, prior_sd=NO_PRIOR)
    assert f.dispersion == pytest.approx(5 / 3)
    assert all(v == pytest.approx(1500.0) for v in f.rating.values())
    # each pair of bots met 24 times at p = ½: information q = 24·¼/φ per pair; the Laplacian q(4I − 11ᵀ) has
    # pseudo-inverse (I − 11ᵀ/4)/(4q), so Var(θi − θ̄) = 3/(16q)
    q = 24 * 0.25 / (5 / 3)
    assert f.interval[10] == pytest.approx(Z95 * ELO_PER_NAT * math.sqrt(3 / (4 * 4 * q)), rel=1e-5)


def test_results_refuse_a_bot_seated_twice_and_ranks_that_do_not_match_the_seats():
    r = Results()
    with pytest.raises(ValueError):
        r.add([1, 1], [1, 2])
    with pytest.raises(ValueError):
        r.add([1, 2], [1])
    r.add([1], [1])  # a one-seat "game" compares nobody: ignored
    assert len(r) == 0 and fit(r).rating == {}


# --- the refit task, the API and the page ---------------------------------------------------------------------

@pytest.fixture
def played_ladder(db, make_user):
    """A 2-player ladder: bot a beat bot b 6 times in 8 rated finished matches; an unrated and an unfinished
    match that must not count; bot c enrolled without games."""
    from platform_helpers import make_bot

    from ladders.models import Ladder, Rating
    from matches.models import Match, Participant

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    a, b, c = (make_bot(make_user(f"owner-{n}"), n) for n in "abc")
    for bot in (a, b, c):
        Rating.objects.get_or_create(ladder=ladder, bot=bot)  # make_bot enrols it already

    def match(winner, loser, rated=True, status=Match.Status.FINISHED):
        m = Match.objects.create(kind=Match.Kind.LADDER, ladder=ladder, game="thebes", params={"players": 2},
                                 seed=1, time_control={}, status=status, rated=rated)
        for seat, (bot, rank) in enumerate(((winner, 1), (loser, 2))):
            Participant.objects.create(match=m, seat=seat, bot=bot, version=bot.active_version, rank=rank)

    for i in range(8):
        match(a, b) if i < 6 else match(b, a)
    match(b, a, rated=False)
    match(b, a, status=Match.Status.RUNNING)
    return ladder, a, b, c


def test_refit_writes_the_fitted_rating_and_skips_a_ladder_without_new_results(played_ladder):
    from ladders.models import Rating
    from ladders.rating_fit import Results, fit
    from matches.ratings import refit_ratings

    ladder, a, b, c = played_ladder
    assert refit_ratings() == [ladder.pk]
    expected = Results()
    for i in range(8):
        expected.add([a.pk, b.pk] if i < 6 else [b.pk, a.pk], [1, 2])
    want = fit(expected, [a.pk, b.pk, c.pk])
    got = {r.bot_id: r for r in Rating.objects.filter(ladder=ladder)}
    for bot in (a, b, c):
        assert got[bot.pk].rating == pytest.approx(want.rating[bot.pk])
        assert got[bot.pk].rating_interval == pytest.approx(want.interval[bot.pk])
    ladder.refresh_from_db()
    assert ladder.fitted_games == 8 and ladder.fitted_at is not None
    assert refit_ratings() == []  # nothing new
    assert refit_ratings(force=True) == [ladder.pk]


def test_leaderboard_api_and_page_show_the_fitted_rating_with_its_interval(played_ladder, anon, client):
    from matches.ratings import refit_ratings

    ladder, a, b, c = played_ladder
    before = anon.get("/api/ladders/thebes-2p/leaderboard/").json()["results"]
    assert {e["rating_low"] for e in before} == {None}  # not fitted yet: no interval to show
    refit_ratings()
    rows = anon.get("/api/ladders/thebes-2p/leaderboard/").json()["results"]
    assert [e["bot_name"] for e in rows] == ["a", "c", "b"]
    assert [e["position"] for e in rows] == [1, 2, 3]
    for e in rows:
        assert e["rating_low"] < e["rating"] < e["rating_high"]
    assert rows[0]["rating"] > 1500 > rows[2]["rating"]
    page = client.get("/ladders/thebes-2p/").content.decode()
    assert "95% interval" in page and "maximum likelihood" in page and "±" in page
    assert page.index('data-bot="a"') < page.index('data-bot="c"') < page.index('data-bot="b"')


def test_beat_refits_the_ratings_periodically(settings):
    from matches import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["refit-ratings"]
    assert entry["task"] == tasks.refit_ratings.name == "matches.tasks.refit_ratings"
    assert 0 < entry["schedule"] <= 300
