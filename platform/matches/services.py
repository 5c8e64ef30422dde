"""The life of a match, in the order it happens; every step is a function of this module, or named here.

1. **Created** (`create_match`) by what makes matches — ladder matchmaking and challenges (`matchmaking`),
   tournaments, version tests — with its seats, a secret seed (`matches.seeds`) and the game's settings copied
   on, status `queued`.
2. **Sent** (`send`) to a worker once the creating transaction commits: the Celery task
   `matches.tasks.run_match`, acknowledged late and re-queued if its worker process dies.
3. **Claimed** (`claim`): one worker marks it `running` (attempts counted, at most ARENA_MATCH_MAX_ATTEMPTS); a
   duplicate delivery finds it claimed by a live worker and does nothing.
4. **Played** (`matches.tasks.play`): the referee (`arena.match`) plays it in the sandbox, the worker writing a
   heartbeat (`heartbeat`) every few seconds.
5. **Recorded** (`record_result`), in one transaction that locks the match row: the replay file, each seat's
   score, rank and faults, the ratings (`ladders.services.apply_ratings`, so they follow the order in which
   matches finish and are never applied twice), status `finished`, and the suspension rule
   (`matches.suspension`). Or **failed** (`fail`) with a reason, or **cancelled** (`cancel`) while queued.
   A match already done is left as it is, so a task delivered twice, or re-run after its worker died, changes
   nothing the second time.
6. **Announced** (`announce_end`): once the transaction that ended it commits, `matches.signals.match_ended` is sent, whichever
   way it ended. Everything that waits on a match (tournaments, version tests) listens to it, and to nothing
   else; their beat ticks are only the safety net for an announcement lost with a worker.
7. **Recovered** (`recover_stale`, beat): a running match whose heartbeat stopped, or a match queued for long,
   is sent again (step 2).

The layers below (ratings, bots) never call back up into this app; the ones above only create matches and
listen to step 6.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.botlogs import logs_path
from arena.match.types import MatchResult
from botregistry.models import BotVersion
from ladders.services import apply_ratings
from matches.models import Match, Participant
from matches.seeds import new_seed
from matches.signals import match_ended
from matches.suspension import check_suspension

log = logging.getLogger("arena.platform")


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def create_match(*, game: str, params: dict[str, Any], time_control: dict[str, int], versions: list[int],
                 ladder=None, kind: str = Match.Kind.LADDER, rated: bool = True, requested_by=None,
                 seed: int | None = None, queue: bool = True) -> Match:
    """A queued match with one participant per version, in the given seat order; its task is sent when the
    surrounding transaction commits. Without `seed`, a fresh secret one (`matches.seeds.new_seed`: never from
    a `random.Random`, whose state could be recovered)."""
    chosen = {v.pk: v for v in BotVersion.objects.filter(pk__in=versions).select_related("bot")}
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, ladder=ladder, rated=rated, requested_by=requested_by, game=game, params=params,
            seed=new_seed() if seed is None else seed, time_control=time_control)
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
            announce_end(match_id)
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
        announce_end(match_id)
    return bool(changed)


def cancel(match_ids: list[int], reason: str) -> list[int]:
    """Cancel those of the matches that are still queued (a running one plays on). Returns the ids cancelled."""
    with transaction.atomic():
        ids = list(Match.objects.select_for_update().filter(pk__in=match_ids, status=Match.Status.QUEUED)
                   .values_list("pk", flat=True))
        Match.objects.filter(pk__in=ids).update(status=Match.Status.CANCELLED, status_reason=reason[:4000],
                                                finished_at=timezone.now())
        for match_id in ids:
            announce_end(match_id)
    return ids


def announce_end(match_id: int) -> None:
    """Step 6: send `match_ended` once the transaction that ended the match commits (at once outside one).

    Each receiver runs whatever the others do (`send_robust`: an exception is logged by Django and left to the
    receiver's safety-net tick), and a rolled-back ending announces nothing."""
    transaction.on_commit(lambda: match_ended.send_robust(sender=Match, match_id=match_id))


def replay_relative(match_id: int) -> Path:
    return Path("replays") / f"{match_id // 1000:04d}" / f"{match_id}.replay.json.gz"


def record_result(match_id: int, result: MatchResult | Mapping[str, Any], replay_tmp: Path | None = None) -> bool:
    """Store a finished match's result, replay and participants and apply ratings, once.

    `result` is the referee's MatchResult (or its JSON form, `MatchResult.to_json()`: read with
    `MatchResult.from_json`, so a malformed one raises before anything is stored). Returns False (changing
    nothing) when the match was already finished or cancelled."""
    typed = result if isinstance(result, MatchResult) else MatchResult.from_json(result)
    storage = Path(settings.STORAGE_DIR)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        logs_tmp = logs_path(replay_tmp) if replay_tmp is not None else None  # the bots' logs, beside it
        if match.done:
            if replay_tmp is not None:
                replay_tmp.unlink(missing_ok=True)
                logs_tmp.unlink(missing_ok=True)
            return False
        if replay_tmp is not None and replay_tmp.exists():
            relative = replay_relative(match_id)
            (storage / relative).parent.mkdir(parents=True, exist_ok=True)
            if logs_tmp.exists():  # moved first: the replay's presence says the match's files are in place
                os.replace(logs_tmp, logs_path(storage / relative))
            os.replace(replay_tmp, storage / relative)
            match.replay_path = str(relative)
        participants = list(match.participants.select_related("bot").order_by("seat"))
        seats = {s.seat: s for s in typed.seats}
        for p in participants:
            seat = seats[p.seat]
            p.score = seat.score
            p.rank = seat.rank
            p.disqualified = seat.disqualified
            p.faults = [f.to_json() for f in seat.faults]  # [{kind, message, decision}], kind a FaultKind value
            p.time_ms = seat.time_ms
            p.decisions = seat.decisions
        if match.rated and match.ladder_id is not None:
            apply_ratings(match, participants)
        Participant.objects.bulk_update(participants, [
            "score", "rank", "disqualified", "faults", "time_ms", "decisions", "elo_before", "elo_after",
            "mu_before", "mu_after", "sigma_before", "sigma_after"])
        match.status = Match.Status.FINISHED
        match.status_reason = ""
        match.finished_at = timezone.now()
        match.engine_version = typed.engine_version
        match.result = {k: v for k, v in typed.to_json().items() if k != "replay_path"}
        match.save()
        for p in participants:
            if not p.bot.builtin:  # the house's bots are trusted: never suspended by the rule
                check_suspension(p.version)
        announce_end(match_id)
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
