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
    version step (√(I² + (1.96·VERSION_SD)²), up to the ladder's average moving with it)."""
    import math

    from ladders.rating_fit import VERSION_SD, Z95, fit

    results, _ = _ladder_with_an_upload(seed=31, jump=0.0, before=100, after=0)
    f = fit(results, [10], previous={10: 0})
    assert f.rating[10] == pytest.approx(f.rating[0], abs=1e-6)
    step = math.hypot(f.interval[0], Z95 * VERSION_SD)
    assert f.interval[0] < f.interval[10] <= step
    assert f.interval[10] == pytest.approx(step, rel=0.1)
    # a successor without games tells nothing about anyone: the gaps between the others stay (their level
    # relative to the average moves, as the average now counts the new version too)
    alone = fit(results)
    assert all(f.rating[b] - f.rating[1] == pytest.approx(alone.rating[b] - alone.rating[1], abs=0.5)
               for b in range(10))


def test_a_stronger_version_is_rated_from_its_own_games_with_an_interval_that_covers_the_jump():
    """Bot 0 (after 1,000 games a bot) uploads a version 300 Elo stronger: after 300 games of its own the new
    version's 95% interval holds its true strength relative to the ladder's average, and the old version's holds
    the old one (each a 95% event; seed 31, the issue's number, not chosen). Pooling both versions (the old
    method) would rate the new one by a mixture of 1,000 old games and 300 new ones."""
    import statistics

    from ladders.rating_fit import fit

    results, truth = _ladder_with_an_upload(seed=31, jump=300.0, before=1000, after=300)
    f = fit(results, previous={10: 0})
    centre = statistics.fmean(truth)
    for version in (10, 0):
        assert abs(f.rating[version] - 1500 - (truth[version] - centre)) <= f.interval[version], version
    assert f.rating[10] - f.rating[0] > 300 - f.interval[10] - f.interval[0]
