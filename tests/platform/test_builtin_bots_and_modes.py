"""`manage.py` set-up commands (ladders, built-in bots) and running without the sandbox."""

import pytest
from django.core.management import call_command
from platform_helpers import ROOT


@pytest.fixture
def ladders(db):
    from ladders.models import Ladder
    call_command("ensure_ladders", verbosity=0)
    return Ladder.objects.all()


def test_ensure_ladders_makes_one_per_game_and_player_count(ladders):
    from arena.games import game_class

    slugs = set(ladders.values_list("slug", flat=True))
    assert {"thebes-2p", "minos-2p"} <= slugs
    for ladder in ladders:
        cls = game_class(ladder.game)
        assert cls.min_players <= ladder.players <= cls.max_players
    call_command("ensure_ladders", verbosity=0)
    assert ladders.count() == len(slugs)  # idempotent


def test_register_builtin_bots_is_idempotent_and_enrols_them(ladders, capsys):
    from botregistry.models import Bot, BotVersion
    from ladders.models import Rating

    call_command("register_builtin_bots")
    bots = Bot.objects.filter(builtin=True)
    names = set(bots.values_list("name", flat=True))
    assert any(n.startswith("python-random") for n in names) and any(n.startswith("node-random") for n in names)
    assert all(b.playing_version is not None for b in bots)
    assert all(v.status == "ready" and v.package_path.is_relative_to(ROOT / "bots")
               for v in BotVersion.objects.all())
    thebes = Rating.objects.filter(ladder__slug="thebes-2p")
    assert thebes.count() == bots.filter(game="thebes").count() >= 2
    versions = BotVersion.objects.count()
    call_command("register_builtin_bots")
    assert BotVersion.objects.count() == versions


def test_without_sandbox_an_untrusted_match_fails_with_a_reason(db, make_user, settings):
    from platform_helpers import make_bot

    from matches.services import create_match
    from matches.tasks import run_match

    settings.ARENA_SANDBOX = "off"
    a, b = make_bot(make_user(), "a"), make_bot(make_user(), "b")
    match = create_match(game="thebes", params={"players": 2}, time_control={}, queue=False,
                         versions=[a.active_version_id, b.active_version_id])
    assert run_match.apply(args=[match.pk]).get() == "failed"
    match.refresh_from_db()
    assert match.status == "failed"
    assert "can't sandbox" in match.status_reason and "not a trusted built-in bot" in match.status_reason


def test_without_sandbox_builtin_bots_still_play(ladders, settings):
    from botregistry.models import Bot
    from matches.services import create_match
    from matches.tasks import run_match

    settings.ARENA_SANDBOX = "off"
    call_command("register_builtin_bots", str(ROOT / "bots" / "python" / "random"), verbosity=0)
    bots = list(Bot.objects.filter(builtin=True, game="thebes"))
    assert len(bots) == 1
    ladder = ladders.get(slug="thebes-2p")
    # the one built-in Python bot against itself (unrated: a bot can't be rated against itself)
    match = create_match(game="thebes", params={"players": 2}, time_control=ladder.time_control.to_dict(),
                         ladder=ladder, queue=False, rated=False, versions=[bots[0].active_version_id] * 2)
    assert run_match.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == "finished" and match.replay_file.exists()
