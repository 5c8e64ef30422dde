"""The learned bot (bots/python/learned) plays a sandboxed match on the platform, created, played by the match
task's own code and recorded as a worker does, like any uploaded bot."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox]

REPO = Path(__file__).resolve().parents[2]


def test_the_learned_bot_plays_a_platform_match(make_user):
    from botregistry.models import Bot, BotVersion
    from matches import services, tasks
    from matches.models import Match

    versions = []
    for name, folder in (("learned", "learned"), ("greedy", "greedy")):
        bot = Bot.objects.create(owner=make_user(f"{name}-owner"), name=name, game="thebes")
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256=name,
                                      package_dir=str(REPO / "bots/python" / folder), runtime="python")
        bot.active_version = v
        bot.save()
        versions.append(v.pk)
    match = services.create_match(game="thebes", params={"players": 2}, rated=False, versions=versions,
                                  time_control={"decision_ms": 1000, "bank_ms": 10000, "startup_ms": 10000,
                                                "max_faults": 3}, kind="challenge", seed=21, queue=False)
    match = services.claim(match.pk, services.worker_id())
    result, replay = tasks.play(match)
    assert services.record_result(match.pk, result, replay)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    seat = match.participants.get(seat=0)
    assert seat.faults == [] and not seat.disqualified and seat.decisions > 5 and seat.rank in (1, 2)
