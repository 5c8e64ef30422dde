"""A real sandboxed match on the platform whose first bot prints and annotates (tests/arena/match/bots/chatty),
played by the match task's own code and recorded: the bot logs' access tests (API and browser) use it."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHATTY = REPO / "tests" / "arena" / "match" / "bots" / "chatty"
RANDOM = REPO / "bots" / "python" / "random"


def played_match(alice, bob, *, game: str = "thebes", seed: int = 3):
    """Alice's `chatty` (seat 1 on the web, 0 in the API) against Bob's random bot: created, played in the sandbox
    by `matches.tasks.play` and recorded by `matches.services.record_result`, as a worker does."""
    from botregistry.models import Bot, BotVersion
    from matches import services, tasks

    versions = []
    for owner, name, path in ((alice, "chatty", CHATTY), (bob, "plain", RANDOM)):
        bot = Bot.objects.create(owner=owner, name=name, game=game)
        v = BotVersion.objects.create(bot=bot, number=1, status=BotVersion.Status.READY, sha256=name,
                                      package_dir=str(path), runtime="python")
        bot.active_version = v
        bot.save()
        versions.append(v.pk)
    match = services.create_match(game=game, params={"players": 2}, rated=False,
                                  time_control={"decision_ms": 2000, "bank_ms": 10000, "startup_ms": 10000,
                                                "max_faults": 3},
                                  versions=versions, kind="challenge", seed=seed, queue=False)
    match = services.claim(match.pk, services.worker_id())
    result, replay = tasks.play(match)
    assert services.record_result(match.pk, result, replay)
    match.refresh_from_db()
    return match
