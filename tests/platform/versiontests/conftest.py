"""Fixtures of the version-test tests: a Thebes 2p ladder with opponents of other owners, an owner whose bot
has two ready versions, and a way to finish a match with a chosen winner through `record_result`."""

from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture
def setup(db, make_user):
    from botregistry.models import Bot, BotVersion
    from ladders.models import Ladder, Rating

    ladder = Ladder.objects.create(slug="thebes-2p", name="Thebes 2p", game="thebes", players=2)
    owner = make_user("vt-owner")
    bot = Bot.objects.create(owner=owner, name="mine", game="thebes")
    va, vb = [BotVersion.objects.create(bot=bot, number=n, status=BotVersion.Status.READY, sha256=f"{n:064d}",
                                        package_dir=f"bots/mine/{n}") for n in (1, 2)]
    bot.active_version = vb
    bot.save()
    Rating.objects.create(ladder=ladder, bot=bot, elo=1500)
    # the owner's other bot: never an opponent
    other_mine = Bot.objects.create(owner=owner, name="mine-too", game="thebes")
    other_mine.active_version = BotVersion.objects.create(bot=other_mine, number=1, status="ready", sha256="m" * 64,
                                                          package_dir="bots/mine-too/1")
    other_mine.save()
    Rating.objects.create(ladder=ladder, bot=other_mine, elo=1500)
    opponents = []
    for i in range(3):
        user = make_user(f"vt-opp{i}")
        b = Bot.objects.create(owner=user, name=f"opp{i}", game="thebes")
        b.active_version = BotVersion.objects.create(bot=b, number=1, status="ready", sha256=f"{i:0>64}",
                                                     package_dir=f"bots/opp{i}/1")
        b.save()
        Rating.objects.create(ladder=ladder, bot=b, elo=1480 + 20 * i)
        opponents.append(b)
    return SimpleNamespace(ladder=ladder, owner=owner, bot=bot, va=va, vb=vb, other_mine=other_mine,
                           opponents=opponents)


@pytest.fixture
def finish():
    """finish(match, winner_seat) records a 2-player result as a worker would; winner_seat None is a draw."""
    from matches.services import record_result

    def run(match, winner_seat):
        parts = list(match.participants.order_by("seat"))
        ranks = [1 if winner_seat is None or p.seat == winner_seat else 2 for p in parts]
        result = {"game": match.game, "params": match.params, "seed": match.seed, "engine_version": "test",
                  "seats": [{"seat": p.seat, "name": p.bot.name, "sha256": "", "score": float(3 - r), "rank": r,
                             "disqualified": False, "faults": [], "time_ms": 1.0, "decisions": 1}
                            for p, r in zip(parts, ranks)]}
        assert record_result(match.pk, result)
    return run
