"""The life of a match in the database: create → claim (running) → record the result (finished) or fail.

Recording is idempotent: it happens in one transaction that locks the match row, and a match already finished
(or cancelled) is left as it is, so a task delivered twice, or re-run after its worker died, changes nothing
the second time. Ratings are applied inside that same transaction, so they follow the order in which matches
finish and are never applied twice.
"""

from __future__ import annotations

import logging
import os
import random
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from botregistry.models import BotVersion
from matches.models import Match, Participant

log = logging.getLogger("arena.platform")


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def create_match(*, game: str, params: dict[str, Any], time_control: dict[str, int], versions: list[int],
                 ladder=None, kind: str = Match.Kind.LADDER, rated: bool = True, requested_by=None,
                 seed: int | None = None, rng: random.Random | None = None, queue: bool = True) -> Match:
    """A queued match with one participant per version, in the given seat order; its task is sent when the
    surrounding transaction commits."""
    rng = rng or random.Random()
    chosen = {v.pk: v for v in BotVersion.objects.filter(pk__in=versions).select_related("bot")}
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, ladder=ladder, rated=rated, requested_by=requested_by, game=game, params=params,
            seed=rng.randrange(2 ** 31) if seed is None else seed, time_control=time_control)
        Participant.objects.bulk_create([
            Participant(match=match, seat=seat, bot=chosen[vid].bot, version=chosen[vid])
            for seat, vid in enumerate(versions)])
        if queue:
            transaction.on_commit(lambda: send(match.pk))
    return match


def send(match_id: int) -> None:
    from matches.tasks import run_match
    run_match.delay(match_id)


def claim(match_id: int, worker: str) -> Match | None:
    """Mark the match running for this worker, or None when there is nothing to do: the match is gone, done,
    or running on a live worker (a duplicate delivery). Gives up after ARENA_MATCH_MAX_ATTEMPTS starts."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.done:
            return None
        if (match.status == Match.Status.RUNNING and match.worker != worker
                and match.heartbeat_at is not None and match.heartbeat_at > stale):
            return None
        if match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            match.status = Match.Status.FAILED
            match.status_reason = (f"gave up after {match.attempts} attempts: the worker running it stopped "
                                   f"each time (last: {match.worker or 'unknown'})")
            match.finished_at = now
            match.save()
            return None
        match.status = Match.Status.RUNNING
        match.attempts += 1
        match.worker = worker
        match.heartbeat_at = now
        match.started_at = now
        match.save()
        return match


def heartbeat(match_id: int, worker: str) -> None:
    Match.objects.filter(pk=match_id, worker=worker, status=Match.Status.RUNNING).update(
        heartbeat_at=timezone.now())


def fail(match_id: int, reason: str) -> bool:
    """Mark a match failed with a reason (unless it is already done). Returns whether it changed."""
    changed = Match.objects.filter(pk=match_id).exclude(
        status__in=[Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED]).update(
        status=Match.Status.FAILED, status_reason=reason[:4000], finished_at=timezone.now())
    if changed:
        log.warning("match %s failed: %s", match_id, reason)
    return bool(changed)


def replay_relative(match_id: int) -> Path:
    return Path("replays") / f"{match_id // 1000:04d}" / f"{match_id}.replay.json.gz"


def record_result(match_id: int, result: dict[str, Any], replay_tmp: Path | None = None) -> bool:
    """Store a finished match's result, replay and participants and apply ratings, once.

    `result` is `MatchResult.to_dict()`. Returns False (changing nothing) when the match was already finished
    or cancelled."""
    from botregistry.services import check_suspension
    from ladders.services import apply_ratings

    storage = Path(settings.STORAGE_DIR)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.done:
            if replay_tmp is not None:
                replay_tmp.unlink(missing_ok=True)
            return False
        if replay_tmp is not None and replay_tmp.exists():
            relative = replay_relative(match_id)
            (storage / relative).parent.mkdir(parents=True, exist_ok=True)
            os.replace(replay_tmp, storage / relative)
            match.replay_path = str(relative)
        participants = list(match.participants.select_related("bot").order_by("seat"))
        seats = {s["seat"]: s for s in result["seats"]}
        for p in participants:
            seat = seats[p.seat]
            p.score = seat.get("score")
            p.rank = seat.get("rank")
            p.disqualified = bool(seat.get("disqualified"))
            p.faults = list(seat.get("faults") or [])
            p.time_ms = float(seat.get("time_ms") or 0.0)
            p.decisions = int(seat.get("decisions") or 0)
        if match.rated and match.ladder_id is not None:
            apply_ratings(match, participants)
        Participant.objects.bulk_update(participants, [
            "score", "rank", "disqualified", "faults", "time_ms", "decisions", "elo_before", "elo_after",
            "mu_before", "mu_after", "sigma_before", "sigma_after"])
        match.status = Match.Status.FINISHED
        match.status_reason = ""
        match.finished_at = timezone.now()
        match.engine_version = str(result.get("engine_version") or "")
        match.result = {k: v for k, v in result.items() if k != "replay_path"}
        match.save()
    for p in participants:
        if not p.bot.builtin:
            check_suspension(p.version)
    return True


def recover_stale() -> list[int]:
    """Send again the matches whose worker stopped (running without a recent heartbeat) and the matches
    queued for long (their message may have been lost with a broker restart). A duplicate is harmless:
    `claim` lets only one worker run a match."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    long_queued = now - timedelta(seconds=max(600.0, 10 * settings.ARENA_STALE_AFTER_SECONDS))
    ids = list(Match.objects.filter(status=Match.Status.RUNNING, heartbeat_at__lt=stale)
               .values_list("pk", flat=True))
    ids += list(Match.objects.filter(status=Match.Status.QUEUED, created_at__lt=long_queued)
                .values_list("pk", flat=True))
    for match_id in ids:
        send(match_id)
    if ids:
        log.warning("re-sent stale matches %s", ids)
    return ids
