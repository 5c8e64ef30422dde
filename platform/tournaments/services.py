"""Running a tournament: start it at its time, make each round when the previous one is done, keep standings.

Everything here is idempotent and serialised per tournament (a row lock), so the periodic tick and the
after-match hook may both call `advance` at any time, as often as they like.
"""

from __future__ import annotations

import logging
import math
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.deletion import display_name
from botregistry.models import Bot, BotVersion
from botregistry.ownership import retired_why
from ladders.models import Rating
from matches.models import Match
from matches.services import create_match

from . import schedule
from .models import Entry, Game, Round, Tournament
from .signals import tournament_ended, tournament_started

log = logging.getLogger("arena.tournaments")

SWISS_BYE_POINTS = 0.5  # an average result: a bye neither helps nor hurts much


def due_tournaments(now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    return list(Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
                .values_list("id", flat=True))


def running_tournaments() -> list[int]:
    return list(Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("id", flat=True))


def start(tournament_id: int, now: datetime | None = None) -> bool:
    """Locks the entries, pins each to its bot's ready version (an entry already pinned keeps its version), seeds
    them and queues round 1. False when the tournament is not due (or already started)."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status != Tournament.Status.SCHEDULED or t.starts_at > now:
            return False
        entries = list(t.entries.select_related("bot", "bot__active_version"))
        problem = _setup_problem(t, entries)
        if problem:
            t.status, t.status_reason, t.finished_at = Tournament.Status.CANCELLED, problem, now
            t.save(update_fields=["status", "status_reason", "finished_at"])
            log.warning("tournament %s cancelled: %s", t.pk, problem)
            _announce(tournament_ended, t.pk)
            return False
        for e in entries:
            if e.version_id is not None:
                continue  # pinned before the start (a competition's locked version): it stays; a retired bot or
                #           a version no longer ready forfeits its games when they are made (_forfeit_reason)
            version = e.bot.playing_version
            if version is None:
                e.forfeit_reason = _no_version_reason(e)
            else:
                e.version = version
        for position, e in enumerate(_seed_order(t, entries), 1):
            e.seeding = position
        Entry.objects.bulk_update(entries, ["version", "forfeit_reason", "seeding"])
        t.status, t.started_at = Tournament.Status.RUNNING, now
        t.rounds_planned = _rounds_planned(t, [e.id for e in sorted(entries, key=lambda e: e.seeding)])
        t.save(update_fields=["status", "started_at", "rounds_planned"])
        _announce(tournament_started, t.pk)
        _next_round(t)
    return True


def advance(tournament_id: int, now: datetime | None = None) -> None:
    """If the current round is done: close it, then make the next one or finish the tournament."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status != Tournament.Status.RUNNING:
            return
        rnd = t.rounds.filter(number=t.current_round).first()
        if rnd is not None:
            pending = rnd.games.filter(match__isnull=False).exclude(
                match__status__in=[Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED])
            if pending.exists():
                return
            if rnd.finished_at is None:
                rnd.finished_at = now
                rnd.save(update_fields=["finished_at"])
        _next_round(t, now)


def tick(now: datetime | None = None) -> None:
    """What the scheduler runs every few seconds: start what is due, advance what is running."""
    for tid in due_tournaments(now):
        start(tid, now)
    for tid in running_tournaments():
        advance(tid, now)


# ------------------------------------------------------------------------------------------------------ rounds

def _next_round(t: Tournament, now: datetime | None = None) -> None:
    number = t.current_round + 1
    entries = list(t.entries.order_by("seeding", "id"))
    ids = [e.id for e in entries]
    results = game_results(t)
    planned = _plan(t, ids, results, number, entries)
    if planned is None:
        _finish(t, now or timezone.now())
        return
    by_id = {e.id: e for e in entries}
    rnd = Round.objects.create(tournament=t, number=number)
    if planned.byes:
        rnd.byes.set(planned.byes)
        if t.format == Tournament.Format.SWISS:
            for eid in planned.byes:
                by_id[eid].byes += 1
            Entry.objects.bulk_update([by_id[e] for e in planned.byes], ["byes"])
    to_queue = []
    last_of_set: dict[str, Match] = {}  # a duplicate set's rotations play one after another (create_match's after)
    for position, table in enumerate(planned.tables, 1):
        game = Game(round=rnd, table=position, set_key=table.set_key or "", seed=table.seed,
                    seats=list(table.seats))
        forfeits = {str(eid): _forfeit_reason(by_id[eid]) for eid in table.seats}
        forfeits = {k: v for k, v in forfeits.items() if v}
        if forfeits:
            game.forfeit = forfeits
        else:
            game.match = _create_match(t, [by_id[eid] for eid in table.seats], table.seed,
                                       after=last_of_set.get(table.set_key) if table.set_key else None)
            to_queue.append(game.match.pk)
            if table.set_key:
                last_of_set[table.set_key] = game.match
        game.save()
    t.current_round = number
    t.save(update_fields=["current_round"])
    log.info("tournament %s: round %s with %s games", t.pk, number, len(planned.tables))
    if not to_queue:
        # every game of the round was forfeited: nothing will call us back, so go on at once
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["finished_at"])
        _next_round(t, now)


def _rounds_planned(t: Tournament, ids: list[int]) -> int:
    if t.format == Tournament.Format.ROUND_ROBIN:
        return len(schedule.round_robin(ids, t.players, games_per_pairing=t.games_per_pairing,
                                        duplicate=t.duplicate, seed=t.seed))
    if t.format == Tournament.Format.SWISS:
        return t.rounds_planned or schedule.swiss_rounds(len(ids), t.players)
    return max(1, math.ceil(math.log2(len(ids))))


def _plan(t: Tournament, ids: list[int], results: list[schedule.GameResult], number: int,
          entries: list[Entry]) -> schedule.Round | None:
    kwargs: dict[str, Any] = {"games_per_pairing": t.games_per_pairing, "duplicate": t.duplicate, "seed": t.seed}
    if t.format == Tournament.Format.ROUND_ROBIN:
        rounds = schedule.round_robin(ids, t.players, **kwargs)
        return rounds[number - 1] if number <= len(rounds) else None
    if t.format == Tournament.Format.SWISS:
        if number > _rounds_planned(t, ids):
            return None
        return schedule.swiss_round(ids, t.players, results, number, byes_so_far={e.id: e.byes for e in entries},
                                    bye_points=SWISS_BYE_POINTS, **kwargs)
    return schedule.knockout_round(ids, results, number, **kwargs)


def _create_match(t: Tournament, seats: list[Entry], seed: int, after: Match | None = None) -> Match:
    """A queued, unrated tournament match (sent to a worker when the transaction commits, or once `after`, the
    previous rotation of its duplicate set, has ended)."""
    return create_match(game=t.game, params=t.game_params, time_control=t.time_control.to_dict(),
                        versions=[e.version_id for e in seats], kind=Match.Kind.TOURNAMENT, rated=False, seed=seed,  # type: ignore[misc]  # seated: has a version
                        after=after)


def _finish(t: Tournament, now: datetime) -> None:
    t.status, t.finished_at = Tournament.Status.FINISHED, now
    t.final_standings = standings(t)
    t.save(update_fields=["status", "finished_at", "final_standings"])
    log.info("tournament %s finished", t.pk)
    _announce(tournament_ended, t.pk)


def _announce(signal, tournament_id: int) -> None:
    """Send `signal` once the current transaction commits (a rolled-back start or end announces nothing)."""
    transaction.on_commit(lambda: signal.send_robust(sender=Tournament, tournament_id=tournament_id))


# ------------------------------------------------------------------------------------------------- forfeits

def _setup_problem(t: Tournament, entries: list[Entry]) -> str:
    if len(entries) < t.players:
        return f"only {len(entries)} entries for {t.players}-player tables"
    if t.format == Tournament.Format.KNOCKOUT and t.players != 2:
        return "knockout is played by 2 players per table"
    wrong = [str(e.bot) for e in entries if e.bot.game != t.game]
    if wrong:
        return f"entries for another game than {t.game}: {', '.join(wrong)}"
    return ""


def _retired_reason(bot: Bot) -> str:
    """"forfeit: the bot was retired (<why>)": its owner deleted their account, its team was deleted, staff…"""
    return f"forfeit: the bot was retired ({retired_why(bot)})"


def _no_version_reason(e: Entry) -> str:
    if e.bot.retired_at is not None:
        return _retired_reason(e.bot)
    version = e.bot.active_version
    if version is None:
        return "forfeit: the bot had no version when the tournament started"
    why = f": {version.status_reason}" if version.status_reason else ""
    return f"forfeit: version {version.number} was {version.status} when the tournament started{why}"


def _forfeit_reason(e: Entry) -> str:
    """Why this entry can't play now ('' if it can). A pinned version suspended mid-tournament forfeits from
    then on, and the entry keeps the reason."""
    if e.forfeit_reason:
        return e.forfeit_reason
    retired = Bot.objects.filter(pk=e.bot_id, retired_at__isnull=False).first()
    if retired is not None:
        e.forfeit_reason = _retired_reason(retired)
        e.save(update_fields=["forfeit_reason"])
        return e.forfeit_reason
    version = BotVersion.objects.only("status", "status_reason", "number").get(pk=e.version_id)  # type: ignore[misc]  # none: forfeit above
    if version.status != BotVersion.Status.READY:
        why = f": {version.status_reason}" if version.status_reason else ""
        e.forfeit_reason = f"forfeit: version {version.number} was {version.status}{why}"
        e.save(update_fields=["forfeit_reason"])
    return e.forfeit_reason


def _seed_order(t: Tournament, entries: list[Entry]) -> list[Entry]:
    """Best first: by the bot's rating on the public ladder of this game and player count (the leaderboard's, its
    active version's; a competition's own ladder is not read), unrated bots last, then by entry order; forfeiting entries at the bottom."""
    rating = dict(Rating.objects.filter(ladder__game=t.game, ladder__players=t.players, ladder__listed=True,
                                        bot__in=[e.bot_id for e in entries]).values_list("bot_id", "rating"))
    return sorted(entries, key=lambda e: (bool(e.forfeit_reason), -rating.get(e.bot_id, float("-inf")), e.id))


# ---------------------------------------------------------------------------------------------------- results

def game_results(t: Tournament) -> list[schedule.GameResult]:
    """Every decided game so far. A forfeited game ranks the forfeiting seats last and the others first; a match
    the platform could not run counts as a tie in knockout (so the better seed goes through) and not at all
    elsewhere."""
    out = []
    games = (Game.objects.filter(round__tournament=t).select_related("round", "match")
             .prefetch_related("match__participants"))
    for g in games:
        seats = tuple(g.seats)
        key = g.set_key or None
        if g.forfeit:
            lost = {int(k) for k in g.forfeit}
            n_ok = sum(e not in lost for e in seats)
            ranks = tuple(n_ok + 1 if e in lost else 1 for e in seats)
            out.append(schedule.GameResult(seats, ranks, tuple(0.0 for _ in seats), key, g.round.number))
        elif g.match is not None and g.match.status == Match.Status.FINISHED:
            parts = sorted(g.match.participants.all(), key=lambda p: p.seat)
            out.append(schedule.GameResult(seats, tuple(p.rank or len(seats) for p in parts),
                                           tuple(p.score or 0.0 for p in parts), key, g.round.number))
        elif (g.match is not None and g.match.done and t.format == Tournament.Format.KNOCKOUT):
            out.append(schedule.GameResult(seats, tuple(1 for _ in seats), tuple(0.0 for _ in seats), key,
                                           g.round.number))
    return out


def _disqualifications(t: Tournament) -> tuple[dict[int, int], dict[int, int]]:
    """entry -> how many of its finished games it was disqualified in (the referee played its seat from then
    on), and entry -> how many it played against a disqualified seat: the table's notes, so that a result a
    disqualification decided is never taken for a bot's strength."""
    own: dict[int, int] = {}
    against: dict[int, int] = {}
    games = (Game.objects.filter(round__tournament=t, match__status=Match.Status.FINISHED)
             .prefetch_related("match__participants"))
    for g in games:
        assert g.match is not None
        out = {p.seat for p in g.match.participants.all() if p.disqualified}
        for seat, entry in enumerate(g.seats):
            if seat in out:
                own[entry] = own.get(entry, 0) + 1
            elif out:
                against[entry] = against.get(entry, 0) + 1
    return own, against


def standings(t: Tournament) -> list[dict]:
    """The current table as plain dicts (also what is frozen as the final table)."""
    entries = list(t.entries.select_related("bot", "bot__owner", "version").order_by("seeding", "id"))
    by_id = {e.id: e for e in entries}
    byes = {e.id: e.byes * SWISS_BYE_POINTS for e in entries} if t.format == Tournament.Format.SWISS else {}
    rows = schedule.standings([e.id for e in entries], game_results(t), byes,
                              bye_counts={e.id: e.byes for e in entries})
    dq_own, dq_against = _disqualifications(t)
    out = []
    for row in rows:
        e = by_id[row.entrant]
        d = asdict(row)
        d.pop("opponents")
        d.update(entry=e.id, bot=e.bot.name, bot_id=e.bot_id, owner=display_name(e.bot.owner),
                 version=e.version.number if e.version else None, seeding=e.seeding,
                 forfeit_reason=e.forfeit_reason, disqualified=dq_own.get(e.id, 0),
                 against_disqualified=dq_against.get(e.id, 0))
        d.pop("entrant")
        out.append(d)
    return out
