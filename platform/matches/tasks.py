"""The Celery task that plays a match, and the periodic recovery of matches whose worker died.

The task is acknowledged late and rejected (re-queued) when its worker process is lost, so a match never
disappears with a worker; `matches.services.claim` and `record_result` make the re-run safe.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings

from arena.match.types import BotSpec, MatchResult, TimeControl
from arena.reasons import Reason
from arena_site import admission, uid_blocks
from arena_site.heartbeat import Heartbeat
from arena_site.sandbox_mode import sandbox_enabled, unavailable_reason
from botregistry.package_cache import PackageRefused, local_package
from botregistry.services import resend_lost_validations
from matches import live, ratings, services, storage, suspension
from matches.models import Match
from matches.people import BrowserPerson

log = logging.getLogger("arena.platform")


class _Heartbeat(Heartbeat):
    """The match's heartbeat while it runs: a dead worker shows as a stale heartbeat."""

    def __init__(self, match_id: int, run: services.Run):
        super().__init__(f"match {match_id}")
        self.match_id, self.run_ = match_id, run
        self.decisions = 0  # set by the referee's thread after each decision (`progress`), read by each beat
        self.lost = threading.Event()  # set by a beat that found the claim gone, read by `progress`

    def progress(self, decision: int, state: object) -> None:
        """After each decision: its count for the next beat; raises RunAbandoned once the claim is lost."""
        self.decisions = decision + 1
        if self.lost.is_set():
            raise RunAbandoned(f"match {self.match_id}: run {self.run_} lost its claim")

    def beat(self) -> bool:
        if services.heartbeat(self.match_id, self.run_, self.decisions):
            return True
        # taken over (this worker was frozen past the stale threshold), ended or deleted: whatever this run would
        # record is discarded (record_result), so it stops at its next decision (`progress`) instead of holding
        # this worker's slot, its bots' cores and their sandboxes until the game's end
        log.warning("match %s: run %s lost its claim", self.match_id, self.run_)
        self.lost.set()
        return False


class RunAbandoned(Exception):
    """Raised in the referee's thread (through `progress`) to stop a run that lost its claim: the referee's own
    cleanup stops its bots, and nothing of the run is recorded."""


class MatchCannotRun(RuntimeError):
    """The match can't be played here (reason in the message); it fails without retry."""


def play(match: Match, progress: Callable[[int, Any], None] | None = None,
         on_decision: Callable[[int, dict[str, Any]], None] | None = None) -> tuple[MatchResult, Path]:
    """Run the match with the referee; returns its result and the temporary replay file. `progress` is called
    after each decision with its index (from 0) and the state, `on_decision` just before it with the decision's
    record (the referee's `run_match`)."""
    from arena.match import run_match  # imports the referee; named like this module's task
    from arena.sandbox.limits import SandboxLimits

    participants = list(match.participants.select_related("bot", "version__bot").order_by("seat"))
    sandbox = sandbox_enabled()
    if not sandbox:
        untrusted = [p.bot.name for p in participants if not p.bot.builtin]
        if untrusted:
            raise MatchCannotRun(f"this worker can't sandbox bots ({unavailable_reason()}), and "
                                 f"{', '.join(untrusted)} is not a trusted built-in bot")
    else:
        uid_blocks.ensure_block()  # this worker's own uids: no other worker on this kernel runs bots with them
    tmp = storage.temp_dir() / f"{match.pk}.{match.attempts}.replay.json.gz"
    tmp.parent.mkdir(parents=True, exist_ok=True)
    with ExitStack() as held:  # each package stays in this worker's cache until the match ends
        folders = []
        for p in participants:
            try:
                folders.append(held.enter_context(local_package(p.version)))
            except PackageRefused as exc:  # a missing or tampered package object: its bot is never launched
                if exc.unrunnable:  # and one no worker can unpack never plays again (issue 22)
                    suspension.suspend(p.version, Reason("suspension.package", {"detail": str(exc)}))
                raise MatchCannotRun(str(exc)) from None
        by_seat = {p.seat: BotSpec(path=str(folder), name=p.version.seat_name)
                   for p, folder in zip(participants, folders, strict=True)}
        people = seated_people(match)
        by_seat.update({seat: BotSpec(path="", name=name) for seat, (_person, name) in people.items()})
        bots = [by_seat[s] for s in sorted(by_seat)]
        result = run_match(match.game, dict(match.params), int(match.seed), bots,
                           people={seat: person for seat, (person, _name) in people.items()},
                           time_control=TimeControl(**match.time_control),
                           seat_time_controls={int(seat): TimeControl(**tc)
                                               for seat, tc in (match.seat_time_controls or {}).items()},
                           limits=SandboxLimits(**settings.ARENA_LIMITS), sandbox=sandbox, replay_path=str(tmp),
                           progress=progress, on_decision=on_decision)
    return result, tmp


def seated_people(match: Match) -> dict[int, tuple[BrowserPerson, str]]:
    """The seats people play in `match` (`Match.people`), each with its `BrowserPerson` and the seat's name (the
    person's username)."""
    from django.contrib.auth import get_user_model

    ids = {int(seat): int(uid) for seat, uid in (match.people or {}).items()}
    names = dict(get_user_model().objects.filter(pk__in=ids.values()).values_list("pk", "username"))
    return {seat: (BrowserPerson(match.pk, seat, uid), names.get(uid, "?")) for seat, uid in ids.items()}


def seat_names(match: Match) -> list[str]:
    """The seats' names as the replay will give them (the bots' versions' seat names, the people's usernames):
    the live narration's."""
    names = {p.seat: p.version.seat_name for p in match.participants.select_related("version__bot")}
    names.update({seat: name for seat, (_person, name) in seated_people(match).items()})
    return [names.get(seat, "?") for seat in range(max(names, default=-1) + 1)]


@shared_task(name="matches.tasks.run_match", bind=True, acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def run_match(self, match_id: int) -> str:
    """Play match `match_id` and record its result, once. Returns what happened, for the worker's log. (Whoever
    waits on the match hears of it from `matches.signals.match_ended`, sent when its ending commits.)"""
    if Match.objects.filter(pk=match_id, kind=Match.Kind.HUMAN).exists():
        # people's matches run on their own worker (settings.ARENA_HUMAN_QUEUE) and mostly wait for a person:
        # they take no match slot of the host's (its bots' cores are for the ladders)
        match = services.claim(match_id, services.worker_id())
        return "nothing to do" if match is None else _play_and_record(match, services.Run.of(match))
    with admission.match_slot() as admitted:  # the host's cores for its bots (arena_site.admission)
        if not admitted:
            if Match.objects.filter(pk=match_id, status=Match.Status.QUEUED).exists():
                services.send(match_id)  # back to the broker, for a worker with room
            return "deferred: no match slot free on this host"
        worker = services.worker_id()
        match = services.claim(match_id, worker)
        if match is None:
            return "nothing to do"
        return _play_and_record(match, services.Run.of(match))


def _initial_state(match: Match) -> Any:
    from arena import games

    params = {"players": match.participants.count(), **dict(match.params)}
    return games.load(match.game, **params).new_state(int(match.seed))


def _play_and_record(match: Match, run: services.Run) -> str:
    beat = _Heartbeat(match.id, run)
    # the live view of the match's page (matches.live), and the own view of every seat a person plays
    spectators = live.Broadcast(match.id, always=[int(seat) for seat in (match.people or {})],
                                names=seat_names(match))

    def progress(decision: int, state: Any) -> None:
        beat.progress(decision, state)
        spectators.decided(decision, state)

    beat.start()
    try:
        try:
            spectators.start(_initial_state(match))
            result, replay = play(match, progress, spectators.recorded)
        except MatchCannotRun as exc:
            services.fail(match.id, str(exc), run)
            return "failed"
        except RunAbandoned as exc:
            log.warning("%s: stopped at decision %s", exc, beat.decisions)
            return "abandoned (its claim was lost: taken over, ended or deleted)"
        except Exception as exc:  # the referee never raises because of a bot: this is a host or engine problem
            log.exception("match %s could not be played", match.id)
            services.fail(match.id, f"the match could not be played: {type(exc).__name__}: {exc}", run)
            return "failed"
        # the heartbeat goes on while the replay is put in storage (bounded, but slow storage must not make the
        # match look abandoned and be played again)
        recorded = services.record_result(match.id, result, replay, run)
        return "finished" if recorded else "discarded (already finished or taken over)"
    finally:
        beat.stop()
        spectators.end()  # after the result is recorded: the watchers' "see the replay" finds it


@shared_task(name="matches.tasks.recover_stale_matches", ignore_result=True)
def recover_stale_matches() -> list[int]:
    """Re-send matches whose worker stopped writing heartbeats (killed, machine lost), and matches and
    validations whose message was lost (`botregistry.services.resend_lost_validations`); write out replays kept in the database while storage failed."""
    resend_lost_validations(waiting=services.waiting_messages)
    resent = services.recover_stale()
    try:  # storage's upkeep (matches.storage): never in the way of recovering matches
        storage.write_unwritten_replays()  # (each worker sweeps its own folder: storage.sweep_local)
    except Exception:
        log.exception("storage upkeep failed")
    return resent


@shared_task(name="matches.tasks.storage_gc", ignore_result=True)
def storage_gc() -> int:
    """Delete from storage the archives and packages no live bot version needs (beat, daily:
    `matches.storage_gc`); returns how many were removed."""
    from matches.storage_gc import collect

    return len(collect().removed)


@shared_task(name="matches.tasks.refit_ratings", ignore_result=True)
def refit_ratings() -> list[int]:
    """Refit the leaderboard ratings of the ladders that have new results (matches.ratings)."""
    return ratings.refit_ratings()
