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
5. **Recorded** (`record_result`): the replay is put in storage first, with no lock held
   (`matches.storage.stage_replay`), then one short transaction locks the match row and records, only from the run that holds the
   current claim (`Run`: worker and attempt; a superseded run — a frozen worker whose match was taken over —
   has its result discarded and logged, and neither its heartbeat nor its failure touch the match): the replay file, each seat's
   score, rank and faults (the replay kept in the database when storage cannot take it, `matches.storage`),
   the ratings (`ladders.services.apply_ratings`, so they follow the order in which
   matches finish and are never applied twice), status `finished`, and the suspension rule
   (`matches.suspension`). A result void for host trouble (`MatchResult.void`) records none of that: the
   match is queued again, a bounded number of times (`_set_aside`). Or **failed** (`fail`) with a reason, or
   **cancelled** (`cancel`) while queued.
   A match already done is left as it is, so a task delivered twice, or re-run after its worker died, changes
   nothing the second time.
6. **Announced** (`announce_end`): once the transaction that ended it commits, `matches.signals.match_ended` is sent, whichever
   way it ended. Everything that waits on a match (tournaments, version tests) listens to it, and to nothing
   else; their beat ticks are only the safety net for an announcement lost with a worker.
7. **Recovered** (`recover_stale`, beat every ARENA_RECOVER_EVERY s): a running match whose heartbeat stopped
   (ARENA_STALE_AFTER_SECONDS) or whose worker process is known dead, or a queued match whose message was
   lost with a broker restart (sent ARENA_LOST_MESSAGE_SECONDS ago with no message waiting in the broker, or
   ARENA_RESEND_QUEUED_AFTER_SECONDS ago whatever it holds: a duplicate is harmless), is sent again (step 2),
   each at most once per threshold.

The layers below (ratings, bots) never call back up into this app; the ones above only create matches and
listen to step 6.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from arena.botlogs import logs_path
from arena.match.types import MatchResult, TimeControl
from arena_site.workers import known_dead, process_space
from arena_site.workers import worker_id as worker_id  # the task's (re-exported)
from botregistry.models import BotVersion
from ladders.models import Ladder
from ladders.services import apply_ratings
from matches.models import Match, Participant
from matches.seeds import new_seed
from matches.signals import match_ended
from matches.storage import StagedReplay, stage_replay
from matches.storage import replay_relative as replay_relative  # where a replay is kept (re-exported)
from matches.suspension import check_suspension

log = logging.getLogger("arena.platform")


@dataclass(frozen=True)
class Run:
    """One run of a match: the worker that claimed it and which attempt it was. Only the run holding the
    match's current claim may write its heartbeat, result or failure."""

    worker: str
    attempt: int

    @classmethod
    def of(cls, match: Match) -> Run:
        return cls(worker=match.worker, attempt=match.attempts)


def holds_claim(match: Match, run: Run | None) -> bool:
    """Whether `run` is the match's current claim (no run: a caller outside any worker run, e.g. the admin)."""
    return run is None or (match.status == Match.Status.RUNNING and match.worker == run.worker
                           and match.attempts == run.attempt)


def create_match(*, game: str, params: dict[str, Any], time_control: dict[str, int], versions: list[int],
                 ladder: Ladder | None = None, kind: str = Match.Kind.LADDER, rated: bool = True,
                 requested_by: User | None = None,
                 seed: int | None = None, queue: bool = True, after: Match | None = None) -> Match:
    """A queued match with one participant per version, in the given seat order; its task is sent when the
    surrounding transaction commits. Without `seed`, a fresh secret one (`matches.seeds.new_seed`: never from
    a `random.Random`, whose state could be recovered). With `after` (a match of the same deal), it is sent only
    once that match has ended (`announce_end`), and no worker starts it before: two matches of one deal never
    run at the same time, so no channel the sandbox leaves between bots (timing, the host's load) can carry one
    seat's view of the deal to another instance of a bot playing it."""
    chosen = {v.pk: v for v in BotVersion.objects.filter(pk__in=versions).select_related("bot")}
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, ladder=ladder, rated=rated, requested_by=requested_by, game=game, params=params,
            seed=new_seed() if seed is None else seed, time_control=time_control, after=after)
        Participant.objects.bulk_create([
            Participant(match=match, seat=seat, bot=chosen[vid].bot, version=chosen[vid])
            for seat, vid in enumerate(versions)])
        if queue and (after is None or after.done):
            transaction.on_commit(lambda: send(match.pk))
    return match


class CannotSeat(ValueError):
    """A human match that cannot be made as asked (the message says why, for the person)."""


def ladder_clock(game: str, players: int) -> dict[str, Any]:
    """The clock the bots of a people's match keep: their ladder's (the ladder of `game` for `players`, an active
    one first, else any active ladder of the game, else the referee's defaults)."""
    ladder = (Ladder.objects.filter(game=game, players=players).order_by("-active", "id").first()
              or Ladder.objects.filter(game=game, active=True).order_by("id").first())
    return (ladder.time_control if ladder else TimeControl()).to_dict()


def check_opponents(game: str, opponents: list[BotVersion]) -> list[BotVersion]:
    """`opponents` read afresh (the caller's copies may be older than an owner's last switch), in order; raises
    `CannotSeat` unless each is its bot's active, ready version for `game` and its bot open to people."""
    fresh = {v.pk: v for v in BotVersion.objects.select_related("bot").filter(pk__in=[v.pk for v in opponents])}
    if any(v.pk not in fresh for v in opponents):
        raise CannotSeat(_("a bot of this table is gone"))
    opponents = [fresh[v.pk] for v in opponents]
    for v in opponents:
        if v.bot.game != game or v.bot.active_version_id != v.pk or v.status != BotVersion.Status.READY \
                or v.bot.retired_at is not None:
            raise CannotSeat(_("%(bot)s cannot play %(game)s now") % {"bot": v.bot.name, "game": game})
        if not v.bot.people_may_play:
            raise CannotSeat(_("%(bot)s's owner does not let people play it") % {"bot": v.bot.name})
    return opponents


def create_human_match(*, user: User, game: str, players: int, seat: int | None, opponents: list[BotVersion],
                       clock: dict[str, int] | None = None) -> Match:
    """A queued, unrated match of kind human: `user` plays seat `seat` (None: a random one, from a secret seed),
    the active versions `opponents` the other seats in order (`check_opponents`; raises `CannotSeat`). See
    `seat_people` for the clocks. The match never changes a rating (rated off, no ladder: `record_result`,
    `matches.ratings`)."""
    opponents = check_opponents(game, opponents)
    if len(opponents) != players - 1:
        raise CannotSeat(_("a %(n)d-player table needs %(bots)d bots") % {"n": players, "bots": players - 1})
    if seat is None:
        seat = secrets.randbelow(players)
    if not 0 <= seat < players:
        raise CannotSeat(_("a %(n)d-player table has seats 1 to %(n)d") % {"n": players})
    bot_seats = [s for s in range(players) if s != seat]
    return seat_people(requested_by=user, game=game, players=players, people={seat: user.pk},
                       bots=dict(zip(bot_seats, opponents, strict=True)), clock=clock)


def seat_people(*, requested_by: User, game: str, players: int, people: dict[int, int],
                bots: dict[int, BotVersion], clock: dict[str, int] | None = None) -> Match:
    """The queued, unrated match of kind human of a table whose seats are all taken: `people` {seat: user id},
    `bots` {seat: version} (checked by the caller). Clocks: the bots play on their ladder's clock
    (`ladder_clock`); with `clock` (a person's preset: decision_ms, bank_ms; any other `TimeControl` field it
    holds too) the people's seats play on the ladder's terms with the preset's over them
    (`Match.seat_time_controls`), else on the ladder's too."""
    if sorted([*people, *bots]) != list(range(players)):
        raise CannotSeat(_("a %(n)d-player table has seats 1 to %(n)d") % {"n": players})
    base = ladder_clock(game, players)
    own = {str(s): {**base, **clock} for s in people} if clock else {}
    with transaction.atomic():
        match = Match.objects.create(kind=Match.Kind.HUMAN, rated=False, requested_by=requested_by, game=game,
                                     params={"players": players}, seed=new_seed(), time_control=base,
                                     people={str(s): uid for s, uid in people.items()}, seat_time_controls=own)
        Participant.objects.bulk_create([Participant(match=match, seat=s, bot=v.bot, version=v)
                                         for s, v in sorted(bots.items())])
        transaction.on_commit(lambda: send(match.pk))
    return match


def send(match_id: int, countdown: float = 0.0) -> None:
    """Send the match's task to the broker, to run `countdown` seconds from now at the earliest, noting when
    (`Match.sent_at`: recovery re-sends from it)."""
    from arena_site.celery import app

    Match.objects.filter(pk=match_id).update(sent_at=timezone.now())
    # people's matches go to their own queue and worker (settings.ARENA_HUMAN_QUEUE), the others to the default
    human = Match.objects.filter(pk=match_id, kind=Match.Kind.HUMAN).exists()
    later = countdown if countdown > 0 else None
    if human:
        app.send_task("matches.tasks.run_match", args=[match_id], queue=settings.ARENA_HUMAN_QUEUE, countdown=later)
    else:  # by name: the task module imports this one
        app.send_task("matches.tasks.run_match", args=[match_id], countdown=later)


def claim(match_id: int, worker: str) -> Match | None:
    """Mark the match running for this worker, or None when there is nothing to do: the match is gone, done,
    or running on a live worker (a duplicate delivery). A running match is taken over when its heartbeat is
    older than ARENA_STALE_AFTER_SECONDS, or at once when its worker is `known_dead`. Gives up after
    ARENA_MATCH_MAX_ATTEMPTS starts."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.done:
            return None
        if match.after_id is not None and not Match.objects.get(pk=match.after_id).done:
            return None  # sent early (a duplicate message): it is sent again when the match before it ends
        if (match.status == Match.Status.RUNNING and match.worker != worker
                and match.heartbeat_at is not None and match.heartbeat_at > stale
                and not known_dead(match.worker)):
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


def heartbeat(match_id: int, run: Run, decisions: int | None = None) -> bool:
    """Write the heartbeat of the run holding the claim, with the decisions it has played so far when given (the
    match page shows them). Returns False when the run no longer holds it."""
    fields: dict[str, Any] = {"heartbeat_at": timezone.now()}
    if decisions is not None:
        fields["decisions_played"] = decisions
    return bool(Match.objects.filter(pk=match_id, worker=run.worker, attempts=run.attempt,
                                     status=Match.Status.RUNNING).update(**fields))


def fail(match_id: int, reason: str, run: Run | None = None) -> bool:
    """Mark a match failed with a reason (unless it is already done, or `run` no longer holds its claim).
    Returns whether it changed."""
    pending = Match.objects.filter(pk=match_id).exclude(
        status__in=[Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED])
    if run is not None:
        pending = pending.filter(status=Match.Status.RUNNING, worker=run.worker, attempts=run.attempt)
    changed = pending.update(status=Match.Status.FAILED, status_reason=reason[:4000], finished_at=timezone.now())
    if not changed and run is not None:
        log.warning("match %s: discarded the failure of superseded run %s (attempt %s): %s",
                    match_id, run.worker, run.attempt, reason)
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
    transaction.on_commit(lambda: _ended(match_id))


def _ended(match_id: int) -> None:
    """After an ending commits: send the queued matches that waited for it (`create_match(after=...)`), then
    `match_ended`."""
    for chained in Match.objects.filter(after_id=match_id, status=Match.Status.QUEUED).values_list("pk", flat=True):
        try:
            send(chained)
        except Exception:  # the broker's trouble: recover_stale sends it (queued, never sent, its turn come)
            log.exception("match %s: could not send the match chained after it (%s)", match_id, chained)
    match_ended.send_robust(sender=Match, match_id=match_id)


def record_result(match_id: int, result: MatchResult | Mapping[str, Any], replay_tmp: Path | None = None,
                  run: Run | None = None) -> bool:
    """Store a finished match's result, replay and participants and apply ratings, once.

    `result` is the referee's MatchResult (or its JSON form, `MatchResult.to_json()`: read with
    `MatchResult.from_json`, so a malformed one raises before anything is stored). Returns False (changing
    nothing, and deleting the run's replay files) when the match was already finished or cancelled, or when
    `run` (the worker run that played it) no longer holds the match's claim: a worker frozen past the stale
    threshold whose match another worker took over; its result is discarded and logged, the re-run's counts."""
    typed = result if isinstance(result, MatchResult) else MatchResult.from_json(result)
    logs_tmp = logs_path(replay_tmp) if replay_tmp is not None else None  # the bots' logs, beside it
    # Storage first, with no lock held (network I/O under the match's row lock stalled recovery and every tick
    # that reads the row while an S3 endpoint hung: issue 22); a run already done or superseded skips it.
    current = Match.objects.filter(pk=match_id).first()
    staged = (stage_replay(match_id, typed, replay_tmp)
              if current is not None and not current.done and holds_claim(current, run) and not typed.void
              else StagedReplay())
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        superseded = not match.done and not holds_claim(match, run)
        if match.done or superseded:
            if superseded:
                assert run is not None
                log.warning("match %s: discarded the result of superseded run %s (attempt %s); the claim is "
                            "%s (attempt %s, %s)", match_id, run.worker, run.attempt, match.worker or "none",
                            match.attempts, match.status)
            if replay_tmp is not None and logs_tmp is not None:
                replay_tmp.unlink(missing_ok=True)
                logs_tmp.unlink(missing_ok=True)
            transaction.on_commit(lambda: staged.discard(match_id))
            return False
        if typed.void:
            if replay_tmp is not None and logs_tmp is not None:  # a void match has no replay; its logs say
                replay_tmp.unlink(missing_ok=True)                  # nothing about the bots
                logs_tmp.unlink(missing_ok=True)
            _set_aside(match, typed.void)
            return True
        staged.apply(match)  # in storage, or kept in the database when storage refused it (matches.storage)
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
        for p in participants:  # one rule for the house's bots and the authors' (matches.suspension)
            check_suspension(p.version)
        announce_end(match_id)
    return True


def _set_aside(match: Match, reason: str) -> None:
    """A match void for host trouble (`MatchResult.void`): nothing of it counts — no seat results, ratings,
    suspension or tournament result. It is queued again (its run does not count as an attempt: no worker was
    lost), at most ARENA_HOST_VOID_RETRIES times, each ARENA_HOST_VOID_DELAY_SECONDS × the voids so far later (a
    host too busy to start anyone gets time to recover); then it fails with the reason, for staff to see."""
    match_id = match.pk
    if match.host_voids >= settings.ARENA_HOST_VOID_RETRIES:
        match.status = Match.Status.FAILED
        match.status_reason = f"{reason} (void {match.host_voids + 1} times: given up)"[:4000]
        match.finished_at = timezone.now()
        match.save()
        log.warning("match %s failed: %s", match_id, match.status_reason)
        announce_end(match_id)
        return
    match.host_voids += 1
    match.attempts = max(0, match.attempts - 1)
    match.status = Match.Status.QUEUED
    match.status_reason = f"queued again after {reason}"[:4000]
    match.worker = ""
    match.heartbeat_at = None
    match.save()
    log.warning("match %s set aside (%s of %s): %s", match_id, match.host_voids, settings.ARENA_HOST_VOID_RETRIES,
                reason)
    delay = settings.ARENA_HOST_VOID_DELAY_SECONDS * match.host_voids
    transaction.on_commit(lambda: send(match_id, countdown=delay))


#: Seconds the broker may take to answer how many messages wait (each of connecting and answering).
BROKER_QUESTION_SECONDS = 2.0


def waiting_messages() -> int | None:
    """How many task messages wait in the broker's queue for a worker (None when the broker cannot say).
    A match task is taken off it as soon as a worker can run it (prefetch 1, acknowledged late), so an empty
    queue with a match still queued for a while means that match's message was lost."""
    from arena_site.celery import app

    # bounded: a broker that accepts connections and answers nothing (paused, overloaded) must not hang /metrics
    # or the recovery tick that asks (transport options of kombu's Redis transport)
    options = {"socket_timeout": BROKER_QUESTION_SECONDS, "socket_connect_timeout": BROKER_QUESTION_SECONDS}
    try:
        with app.connection_for_read(transport_options=options) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_QUESTION_SECONDS)  # type: ignore[arg-type]  # kombu takes seconds as a float
            # kombu's stubs type the abstract channel; every transport's has queue_declare
            declared = conn.default_channel.queue_declare(queue=settings.CELERY_TASK_DEFAULT_QUEUE, durable=True,  # type: ignore[attr-defined]
                                                          auto_delete=False)
            return int(declared.message_count)
    except Exception as exc:  # recovery goes on with the long delay
        log.warning("could not count the broker's waiting messages: %s", exc)
        return None


def recover_stale() -> list[int]:
    """Send again the matches whose worker stopped (running without a recent heartbeat, or whose worker is
    `known_dead`) and the queued matches whose message was lost (with a broker restart without persistence):
    sent ARENA_LOST_MESSAGE_SECONDS ago while no message waits in the broker's queue (so it is not waiting
    behind others), or sent ARENA_RESEND_QUEUED_AFTER_SECONDS ago whatever the queue holds. Each is re-sent at
    most once per threshold (`Match.sent_at`), not on every tick. A duplicate is harmless: `claim` lets only
    one worker run a match."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ARENA_STALE_AFTER_SECONDS)
    long_queued = now - timedelta(seconds=settings.ARENA_RESEND_QUEUED_AFTER_SECONDS)
    unheard = now - timedelta(seconds=settings.ARENA_LOST_MESSAGE_SECONDS)
    running = Match.objects.filter(status=Match.Status.RUNNING)
    # not re-sent since this run was claimed, or not within the stale threshold
    not_just_sent = Q(sent_at__isnull=True) | Q(sent_at__lt=F("started_at")) | Q(sent_at__lt=stale)
    ids = list(running.filter(not_just_sent, heartbeat_at__lt=stale).values_list("pk", flat=True))
    here = f"{process_space()}:"
    ids += [pk for pk, worker in running.filter(not_just_sent, heartbeat_at__gte=stale, worker__startswith=here)
            .values_list("pk", "worker") if known_dead(worker)]
    # a chained match waits, unsent, for the match before it (create_match(after=...))
    queued = Match.objects.filter(status=Match.Status.QUEUED).exclude(
        after__status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
    overdue = list(queued.filter(Q(sent_at__lt=unheard) | Q(sent_at__isnull=True, created_at__lt=unheard))
                   .values_list("pk", flat=True))
    if overdue and waiting_messages() != 0:  # waiting behind others, perhaps: only after the long delay
        overdue = list(queued.filter(Q(sent_at__lt=long_queued)
                                     | Q(sent_at__isnull=True, created_at__lt=long_queued)).values_list("pk", flat=True))
    ids += overdue
    for match_id in ids:
        send(match_id)
    if ids:
        log.warning("re-sent stale matches %s", ids)
    return ids
