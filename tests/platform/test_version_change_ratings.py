"""A bot's new active version keeps its μ and Elo but widens its uncertainty: σ rises back towards the initial
σ on every ladder and the rating is provisional again for a few games (a switch by the owner through the API,
or a newer upload becoming active after validation). Setting the active version again changes nothing."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def seasoned(make_user):
    """A bot with two ready versions (v1 active) and a settled rating on two ladders."""
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating

    owner = make_user("rt-owner")
    bot = Bot.objects.create(owner=owner, name="settled", game="thebes")
    v1, v2 = [BotVersion.objects.create(bot=bot, number=n, status=BotVersion.Status.READY, sha256=f"{n:064d}",
                                        package_dir=f"bots/settled/{n}") for n in (1, 2)]
    bot.active_version = v1
    bot.save()
    ladders = [Ladder.objects.create(slug=f"thebes-{p}p", name=f"Thebes {p}p", game="thebes", players=p)
               for p in (2, 3)]
    for ladder in ladders:
        Rating.objects.create(ladder=ladder, bot=bot, elo=1620.0, mu=29.5, sigma=1.2, games=60, wins=40)
    return owner, bot, v1, v2, ladders


def _ratings(bot):
    return {r.ladder.slug: (r.elo, r.mu, r.sigma, r.games, r.provisional) for r in bot.ratings.select_related("ladder")}


def _floor(settings):
    return settings.ARENA_RATING["new_version_sigma"] * 25.0 / 3


def test_owner_switch_widens_sigma_keeps_mu_and_elo_and_is_provisional(seasoned, client_for, settings):
    owner, bot, v1, v2, ladders = seasoned
    response = client_for(owner).patch(f"/api/bots/{bot.pk}/", {"active_version": v2.pk}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["active_version"]["number"] == 2
    for slug, (elo, mu, sigma, games, provisional) in _ratings(bot).items():
        assert (elo, mu, games) == (1620.0, 29.5, 60), slug
        assert sigma == pytest.approx(_floor(settings)) and sigma > 1.2
        assert provisional, "a new version is provisional again"
    # the leaderboard shows the wider uncertainty and the provisional mark
    board = client_for().get(f"/api/ladders/{ladders[0].slug}/leaderboard/").json()["results"]
    entry = next(e for e in board if e["bot"] == bot.pk)
    assert entry["version"] == 2 and entry["provisional"] is True
    assert entry["sigma"] == pytest.approx(_floor(settings))
    assert entry["ordinal"] == pytest.approx(29.5 - 3 * _floor(settings))
    # the web leaderboard marks it provisional (its ± is the fitted rating's interval, ladders.rating_fit, which
    # pools all of the bot's games and is not OpenSkill's σ)
    html = client_for().get(f"/ladders/{ladders[0].slug}/").content.decode()
    row = re.search(rf'<tr data-bot="{bot.name}">(.*?)</tr>', html, re.S).group(1)
    assert 'class="prov"' in row


def test_provisional_again_only_for_a_few_games(seasoned, client_for, settings):
    from ladders.models import Rating

    owner, bot, v1, v2, ladders = seasoned
    client_for(owner).patch(f"/api/bots/{bot.pk}/", {"active_version": v2.pk}, format="json")
    extra = settings.ARENA_RATING["new_version_provisional_games"]
    Rating.objects.filter(bot=bot).update(games=60 + extra - 1)
    assert all(r.provisional for r in Rating.objects.filter(bot=bot))
    Rating.objects.filter(bot=bot).update(games=60 + extra)
    assert not any(r.provisional for r in Rating.objects.filter(bot=bot))


def test_reactivating_the_active_version_changes_nothing(seasoned, client_for):
    owner, bot, v1, v2, ladders = seasoned
    before = _ratings(bot)
    response = client_for(owner).patch(f"/api/bots/{bot.pk}/", {"active_version": v1.pk}, format="json")
    assert response.status_code == 200
    assert _ratings(bot) == before
    assert not any(provisional for *_, provisional in before.values())


def test_sigma_wider_than_the_floor_is_kept(seasoned, client_for, settings):
    from ladders.models import Rating

    owner, bot, v1, v2, ladders = seasoned
    Rating.objects.filter(bot=bot).update(sigma=7.9, games=3)
    client_for(owner).patch(f"/api/bots/{bot.pk}/", {"active_version": v2.pk}, format="json")
    assert all(r.sigma == 7.9 and r.mu == 29.5 for r in Rating.objects.filter(bot=bot))


def test_a_validated_upload_becoming_active_widens(seasoned, settings):
    from botregistry.models import BotVersion
    from botregistry.services import mark_validated

    owner, bot, v1, v2, ladders = seasoned
    v3 = BotVersion.objects.create(bot=bot, number=3, sha256="3" * 64, package_dir="bots/settled/3")
    mark_validated(v3, ok=True, reason="", log_text="ok")
    bot.refresh_from_db()
    assert bot.active_version_id == v3.pk
    for elo, mu, sigma, games, provisional in _ratings(bot).values():
        assert (elo, mu, games) == (1620.0, 29.5, 60) and provisional
        assert sigma == pytest.approx(_floor(settings))


def test_a_failed_upload_changes_nothing(seasoned):
    from botregistry.models import BotVersion
    from botregistry.services import mark_validated

    owner, bot, v1, v2, ladders = seasoned
    before = _ratings(bot)
    v3 = BotVersion.objects.create(bot=bot, number=3, sha256="3" * 64, package_dir="bots/settled/3")
    mark_validated(v3, ok=False, reason="crashed", log_text="")
    bot.refresh_from_db()
    assert bot.active_version_id == v1.pk
    assert _ratings(bot) == before


def test_staff_switch_in_the_admin_widens_too(seasoned, django_user_model, client, settings):
    owner, bot, v1, v2, ladders = seasoned
    client.force_login(django_user_model.objects.create_superuser("rt-boss", "", "pw-123456789"))
    page = client.get(f"/admin/botregistry/bot/{bot.pk}/change/")
    assert page.status_code == 200
    form = _admin_form_data(page)
    form["active_version"] = v2.pk
    response = client.post(f"/admin/botregistry/bot/{bot.pk}/change/", form)
    assert response.status_code == 302, response.context["adminform"].form.errors
    bot.refresh_from_db()
    assert bot.active_version_id == v2.pk
    for slug, (elo, mu, sigma, _games, provisional) in _ratings(bot).items():
        assert (elo, mu) == (1620.0, 29.5) and sigma == pytest.approx(_floor(settings)) and provisional, slug


def _admin_form_data(page) -> dict:
    """What the browser would post back from an admin change page, unchanged."""
    data = {}
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    for form in forms:
        for field in form:
            value = field.value()
            data[field.html_name] = "" if value is None else value
    return data


# ------------------------------------------------------------------------------ each version rated as itself
def _ladder_with_an_upload(seed: int, jump: float, before: int, after: int):
    """Ten bots of known strengths play two-player games (Plackett–Luce draws, partners at random); after
    `before` games a bot, bot 0 uploads a version `jump` Elo stronger (player 10, following player 0), which
    then plays `after` games. Returns (results keyed by version, the truths by version)."""
    import math
    import random

    from ladders.rating_fit import ELO_PER_NAT, Results

    rng = random.Random(seed)
    truth = [rng.gauss(0.0, 200.0) for _ in range(10)]
    truth.append(truth[0] + jump)
    results = Results()

    def game(a: int, b: int) -> None:
        pa, pb = (truth[v] / ELO_PER_NAT - math.log(-math.log(rng.random())) for v in (a, b))
        results.add([a, b], [1, 2] if pa > pb else [2, 1])

    for _ in range(before * 10 // 2):
        a, b = rng.sample(range(10), 2)
        game(a, b)
    for _ in range(after):
        game(10, rng.randrange(1, 10))
    return results, truth


def test_a_new_version_starts_from_the_one_before_with_a_wider_interval():
    """Before its first game a new version's rating is its predecessor's, and its interval is wider by about one
    version step (√(I² + (1.96·VERSION_SD)²), less the share of it that moves the average with it)."""
    import math

    from ladders.rating_fit import VERSION_SD, Z95, fit

    results, _ = _ladder_with_an_upload(seed=31, jump=0.0, before=100, after=0)
    f = fit(results, [10], previous={10: 0}, centred_on=range(1, 11))
    assert f.rating[10] == pytest.approx(f.rating[0], abs=1e-6)
    assert f.interval[0] < f.interval[10] <= math.hypot(f.interval[0], Z95 * VERSION_SD)
    # the step counts 9/10 of itself: the new version is one of the ten whose average is 1500
    assert f.interval[10] == pytest.approx(math.hypot(f.interval[0], Z95 * VERSION_SD * 9 / 10), rel=0.05)
    # a successor without games tells nothing about anyone, and the average is the playing versions': every
    # other rating stays
    alone = fit(results)
    assert all(f.rating[b] == pytest.approx(alone.rating[b], abs=0.5) for b in range(10))


def test_a_stronger_version_is_rated_from_its_own_games_with_an_interval_that_covers_the_jump():
    """Bot 0 (after 1,000 games a bot) uploads a version 300 Elo stronger: after 300 games of its own the new
    version's 95% interval holds its true strength relative to the ladder's average, and the old version's holds
    the old one (each a 95% event; seed 31, the issue's number, not chosen). Pooling both versions (the old
    method) would rate the new one by a mixture of 1,000 old games and 300 new ones."""
    import statistics

    from ladders.rating_fit import fit

    results, truth = _ladder_with_an_upload(seed=31, jump=300.0, before=1000, after=300)
    f = fit(results, previous={10: 0}, centred_on=range(1, 11))
    centre = statistics.fmean(truth[1:])  # the average of the versions that play now
    for version in (10, 0):
        assert abs(f.rating[version] - 1500 - (truth[version] - centre)) <= f.interval[version], version
    assert f.rating[10] - f.rating[0] > 300 - f.interval[10] - f.interval[0]


# ------------------------------------------------------- the platform: refit, pages, API, seeding, matchmaking
@pytest.fixture
def upgraded(make_user):
    """Thebes 2p: `changer` v1 lost 12 rated games to `rival`; then changer's v2 became active (the owner's
    switch) and won 12; a third bot `idle` is enrolled without games."""
    from platform_helpers import make_bot

    from botregistry.models import BotVersion
    from botregistry.services import set_active_version
    from ladders.models import Ladder
    from matches.models import Match, Participant

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    owner = make_user("vr-owner")
    changer, rival, idle = make_bot(owner, "changer"), make_bot(make_user("vr-rival"), "rival"), \
        make_bot(make_user("vr-idle"), "idle")
    v1 = changer.active_version
    v2 = BotVersion.objects.create(bot=changer, number=2, sha256="changer2", package_dir="/nonexistent/c2",
                                   status=BotVersion.Status.READY)

    def games(winner, loser, n):
        for _ in range(n):
            m = Match.objects.create(kind=Match.Kind.LADDER, ladder=ladder, game="thebes", params={"players": 2},
                                     seed=1, time_control={}, status=Match.Status.FINISHED, rated=True)
            for seat, (version, rank) in enumerate(((winner, 1), (loser, 2))):
                Participant.objects.create(match=m, seat=seat, bot=version.bot, version=version, rank=rank)

    games(rival.active_version, v1, 12)
    set_active_version(changer, v2)
    games(v2, rival.active_version, 12)
    changer.refresh_from_db()
    return ladder, owner, changer, rival, idle, v1, v2


def test_refit_rates_each_version_from_its_own_games_and_the_bot_by_its_active_one(upgraded):
    from ladders.models import Rating, RatingHistory, VersionRating
    from ladders.rating_fit import Results, fit
    from matches.ratings import refit_ratings

    ladder, owner, changer, rival, idle, v1, v2 = upgraded
    refit_ratings()
    r1, r2 = (rival.active_version.pk, idle.active_version.pk)
    expected = Results()
    for _ in range(12):
        expected.add([r1, v1.pk], [1, 2])
    for _ in range(12):
        expected.add([v2.pk, r1], [1, 2])
    want = fit(expected, [r2], previous={v2.pk: v1.pk}, centred_on=[v2.pk, r1, r2])
    got = {v.version_id: v for v in VersionRating.objects.filter(ladder=ladder)}
    assert set(got) == {v1.pk, v2.pk, r1, r2}
    for version, row in got.items():
        assert row.rating == pytest.approx(want.rating[version])
        assert row.rating_interval == pytest.approx(want.interval[version])
    assert (got[v1.pk].games, got[v2.pk].games, got[r1].games, got[r2].games) == (12, 12, 24, 0)
    # the old version lost everything, the new one won everything: rated apart, not pooled into "even"
    assert got[v2.pk].rating - got[v1.pk].rating > got[v2.pk].rating_interval
    shown = Rating.objects.get(ladder=ladder, bot=changer)
    assert (shown.rating, shown.rating_interval) == (got[v2.pk].rating, got[v2.pk].rating_interval)
    assert RatingHistory.objects.filter(ladder=ladder).count() == 4  # every version's first point


def test_history_adds_a_point_for_a_version_that_played_at_most_once_per_interval(upgraded, settings):
    from ladders.models import RatingHistory
    from matches.models import Match, Participant
    from matches.ratings import refit_ratings

    ladder, owner, changer, rival, idle, v1, v2 = upgraded
    settings.ARENA_RATING = {**settings.ARENA_RATING, "history_every": 3600.0}
    refit_ratings()

    def one_more():
        m = Match.objects.create(kind=Match.Kind.LADDER, ladder=ladder, game="thebes", params={"players": 2},
                                 seed=1, time_control={}, status=Match.Status.FINISHED, rated=True)
        Participant.objects.create(match=m, seat=0, bot=changer, version=v2, rank=1)
        Participant.objects.create(match=m, seat=1, bot=rival, version=rival.active_version, rank=2)

    one_more()
    refit_ratings()
    assert RatingHistory.objects.filter(version=v2).count() == 1  # played, but within the hour
    RatingHistory.objects.filter(version=v2).update(at=F_hours_ago(2))
    one_more()
    refit_ratings()
    assert list(RatingHistory.objects.filter(version=v2).values_list("games", flat=True)) == [12, 14]
    assert RatingHistory.objects.filter(version=v1).count() == 1  # v1 did not play since


def F_hours_ago(hours: float):
    from datetime import timedelta

    from django.utils import timezone

    return timezone.now() - timedelta(hours=hours)


def test_a_new_upload_starts_from_the_old_rating_not_a_fresh_one_and_a_switch_back_restores_its_own(upgraded):
    """The attack: a bot with a poor rating uploads the same code again to shed it. The new version starts from
    the old version's rating (its interval wider), not from the ladder's average; switching back to a version
    that played gives that version's own (last fitted) rating back."""
    from botregistry.models import BotVersion
    from botregistry.services import set_active_version
    from ladders.models import Rating, VersionRating
    from ladders.rating_fit import VERSION_SD, Z95
    from matches.ratings import refit_ratings

    ladder, owner, changer, rival, idle, v1, v2 = upgraded
    set_active_version(changer, v1)
    changer.refresh_from_db()
    refit_ratings(force=True)
    poor = Rating.objects.get(ladder=ladder, bot=changer)
    own = VersionRating.objects.get(ladder=ladder, version=v1)
    assert (poor.rating, poor.rating_interval) == (own.rating, own.rating_interval) and poor.rating < 1500
    v3 = BotVersion.objects.create(bot=changer, number=3, sha256="changer3", package_dir="/nonexistent/c3",
                                   status=BotVersion.Status.READY)
    set_active_version(changer, v3)
    now = Rating.objects.get(ladder=ladder, bot=changer)
    assert now.rating == pytest.approx(poor.rating)
    assert now.rating_interval == pytest.approx((poor.rating_interval ** 2 + (Z95 * VERSION_SD) ** 2) ** 0.5)
    refit_ratings(force=True)  # the fit agrees: v3 (no games) follows v2, the latest version that played
    v3_fit = VersionRating.objects.get(ladder=ladder, version=v3)
    assert v3_fit.rating == pytest.approx(VersionRating.objects.get(ladder=ladder, version=v2).rating)
    own = VersionRating.objects.get(ladder=ladder, version=v1)
    set_active_version(changer, v1)
    back = Rating.objects.get(ladder=ladder, bot=changer)
    assert back.rating == pytest.approx(own.rating) and back.rating_interval == pytest.approx(own.rating_interval)


def test_bot_page_match_page_and_api_show_the_versions_rating(upgraded, client, anon):
    from ladders.models import VersionRating
    from matches.models import Match
    from matches.ratings import refit_ratings

    ladder, owner, changer, rival, idle, v1, v2 = upgraded
    refit_ratings()
    mine = {v.version.number: v for v in VersionRating.objects.filter(ladder=ladder, version__bot=changer)
            .select_related("version")}
    page = client.get(f"/bots/{changer.pk}/").content.decode()
    headline = re.search(r"<h3>.*?</h3>", page, re.S).group(0)
    assert f"rating {mine[2].rating:.0f}" in headline and "(v2)" in headline
    for number in (1, 2):
        row = re.search(rf'<tr data-version="{number}">(.*?)</tr>', page, re.S).group(1)
        assert f"{mine[number].rating:.0f}" in row and f"{mine[number].rating_interval:.0f}" in row
    # the chart: one series per version, and no incremental Elo anywhere on the page
    assert re.findall(r'<g class="series s\d" data-version="(\d+)">', page) == ["1", "2"]
    assert "Elo after" not in page
    # a match of v1: its seat shows v1's rating, not the bot's (v2's)
    m = Match.objects.filter(participants__version=v1).first()
    seats = client.get(f"/matches/{m.pk}/").content.decode()
    row = re.search(r'<table class="seats">.*?</table>', seats, re.S).group(0)
    assert f"{mine[1].rating:.0f}" in row and f"{mine[2].rating:.0f}" not in row
    body = anon.get(f"/api/bots/{changer.pk}/").json()
    entry = next(r for r in body["ratings"] if r["ladder"] == "thebes-2p")
    assert entry["rating"] == pytest.approx(mine[2].rating)
    assert [(v["version"], round(v["rating"], 3)) for v in entry["versions"]] == [
        (n, round(mine[n].rating, 3)) for n in (1, 2)]


def test_the_headline_counts_the_rated_versions_games_and_every_versions_apart(upgraded, client, anon):
    """The rating is v2's, so the games beside it are v2's 12, not the 24 of both versions (shown apart)."""
    from ladders.models import Rating
    from matches.ratings import refit_ratings

    ladder, owner, changer, rival, idle, v1, v2 = upgraded
    # the fixture's matches were written as finished, not played: the counters applying a result moves
    Rating.objects.filter(ladder=ladder, bot__in=[changer, rival]).update(games=24)
    refit_ratings()
    board = {e["bot_name"]: e for e in anon.get(f"/api/ladders/{ladder.slug}/leaderboard/").json()["results"]}
    assert (board["changer"]["version_games"], board["changer"]["games"]) == (12, 24)
    assert (board["rival"]["version_games"], board["rival"]["games"]) == (24, 24)
    assert board["idle"]["version_games"] == 0
    page = client.get(f"/ladders/{ladder.slug}/").content.decode()
    row = re.search(r'<tr data-bot="changer">(.*?)</tr>', page, re.S).group(1)
    cell = re.search(r"<td [^>]*data-games>(.*?)</td>", row, re.S).group(1)
    assert cell.split("<")[0].strip() == "12" and "24 in all" in cell
    rival_row = re.search(r'<tr data-bot="rival">(.*?)</tr>', page, re.S).group(1)
    assert "in all" not in rival_row  # one version: one count
    # sorted by games: the rated version's games decide
    order = re.findall(r'<tr data-bot="([^"]+)">', client.get(f"/ladders/{ladder.slug}/?sort=games").content.decode())
    assert order == ["rival", "changer", "idle"]
    headline = re.search(r"<h3>.*?</h3>", client.get(f"/bots/{changer.pk}/").content.decode(), re.S).group(0)
    assert "12 games" in headline and "every version: 24 games" in headline


def test_tournament_seeding_reads_the_rating_not_the_incremental_elo(thebes_two_bots):
    from tournaments.models import Entry
    from tournaments.services import _seed_order

    t, strong, weak = thebes_two_bots
    entries = [Entry.objects.create(tournament=t, bot=b, version=b.active_version) for b in (weak, strong)]
    assert [e.bot_id for e in _seed_order(t, entries)] == [strong.pk, weak.pk]


@pytest.fixture
def thebes_two_bots(make_user):
    """A tournament and two entrants: `strong` has the better rating, `weak` the better incremental Elo."""
    from django.utils import timezone
    from platform_helpers import make_bot

    from ladders.models import Ladder, Rating
    from tournaments.models import Tournament

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    strong, weak = make_bot(make_user("ts-strong"), "strong"), make_bot(make_user("ts-weak"), "weak")
    Rating.objects.update_or_create(ladder=ladder, bot=strong, defaults={"rating": 1700.0, "elo": 1400.0})
    Rating.objects.update_or_create(ladder=ladder, bot=weak, defaults={"rating": 1400.0, "elo": 1700.0})
    t = Tournament.objects.create(name="Seeded", game="thebes", players=2, created_by=make_user("ts-staff"),
                                  starts_at=timezone.now())
    return t, strong, weak
