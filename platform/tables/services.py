"""What a table does (`tables.models`); the web pages (`web.tables`) and the API (`api.tables`) call these and
nothing else. A refusal is `TableRefused` with its HTTP status: 404 an unknown table or key, 410 a table
cancelled or expired, 409 a seat taken, a table full or started, a person already seated; 400 a table that
cannot be set as asked.

Invitations: the key is 256 random bits (`secrets.token_urlsafe(32)`), shown to the creator only; the table keeps
its SHA-256. Taking a seat is a POST (never a GET: a link preview or a prefetch takes nothing), under the table's
row lock, so two people never take one seat and the last seat taken starts the match exactly once.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from botregistry.models import BotVersion
from matches.services import CannotSeat, check_opponents, seat_people

from .models import Table, TableSeat


class TableRefused(Exception):
    """What a person asked of a table that cannot be done: `status` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class NewTable:
    table: Table
    key: str  # the invitation's key: shown to the creator once, never stored

    @property
    def invite_path(self) -> str:
        return invite_path(self.key)


def invite_path(key: str) -> str:
    return reverse("web:table-invite", args=[key])


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def table_seconds() -> int:
    return int(getattr(settings, "ARENA_TABLE_SECONDS", 7200))


def create(*, user: User, game: str, players: int, seat: int | None, others: list[BotVersion | None],
           clock: dict[str, int]) -> NewTable:
    """An open table: `user` at `seat` (None: a random one), the other seats in order taken by `others` (a bot's
    version, or None: a seat for a person to take through the invitation). Raises TableRefused (400) when no
    seat is left for anyone else, or a bot cannot play (`matches.services.check_opponents`)."""
    if len(others) != players - 1:
        raise TableRefused(400, _("a %(n)d-player table needs %(others)d other seats")
                           % {"n": players, "others": players - 1})
    if all(v is not None for v in others):
        raise TableRefused(400, _("a table needs a seat for another person"))
    try:
        check_opponents(game, [v for v in others if v is not None])
    except CannotSeat as exc:
        raise TableRefused(400, str(exc)) from None
    if seat is None:
        seat = secrets.randbelow(players)
    if not 0 <= seat < players:
        raise TableRefused(400, _("a %(n)d-player table has seats 1 to %(n)d") % {"n": players})
    key = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(creator=user, game=game, players=players, clock=dict(clock),
                                     key_digest=digest(key), expires_at=now + timedelta(seconds=table_seconds()))
        rest = iter(others)
        TableSeat.objects.bulk_create([
            TableSeat(table=table, seat=s, person=user, taken_at=now) if s == seat
            else TableSeat(table=table, seat=s, version=next(rest)) for s in range(players)])
    return NewTable(table, key)


def _refuse_closed(table: Table) -> None:
    if table.status in (Table.Status.CANCELLED, Table.Status.EXPIRED) or (
            table.status == Table.Status.OPEN and table.expires_at <= timezone.now()):
        raise TableRefused(410, _("this table was cancelled or has expired"))


def by_key(key: str, *, lock: bool = False) -> Table:
    """The table of invitation key `key`; TableRefused 404 for a key no table has."""
    if not isinstance(key, str) or not 20 <= len(key) <= 128:
        raise TableRefused(404, _("no table has this invitation"))
    qs = Table.objects.select_for_update() if lock else Table.objects.select_related("creator")
    table = qs.filter(key_digest=digest(key)).first()
    if table is None:
        raise TableRefused(404, _("no table has this invitation"))
    return table


def free_seats(table: Table, seats: list[TableSeat], user: User) -> list[TableSeat]:
    """The seats of `table` that `user` could take now; raises TableRefused (410 closed, 409 seated or full)."""
    _refuse_closed(table)
    if any(s.person_id == user.pk for s in seats):
        raise TableRefused(409, _("you already have a seat at this table"))
    free = [s for s in seats if s.version_id is None and s.person_id is None]
    if table.status != Table.Status.OPEN or not free:
        raise TableRefused(409, _("every seat of this table is taken"))
    return free


def join(key: str, user: User) -> Table:
    """`user` takes the first free person's seat of the table of `key`; when it was the last one the table's
    match is queued (`start`). Refuses (404, 410, 409) an unknown key, a closed table, a person already seated,
    a table with no free seat."""
    with transaction.atomic():
        table = by_key(key, lock=True)
        seats = list(TableSeat.objects.select_for_update().filter(table=table).order_by("seat"))
        free = free_seats(table, seats, user)
        free[0].person, free[0].taken_at = user, timezone.now()
        free[0].save(update_fields=["person", "taken_at"])
        if len(free) == 1:
            start(table, seats)
    return table


def start(table: Table, seats: list[TableSeat]) -> None:
    """Queue the match of `table` (locked, every seat taken): the people's seats on its clock preset, the bots on
    their ladder clock. A bot that can no longer play (its owner closed it to people, a new version) cancels the
    table with the reason."""
    bots = {s.seat: s.version for s in seats if s.version is not None}
    try:
        check_opponents(table.game, list(bots.values()))
        match = seat_people(requested_by=table.creator, game=table.game, players=table.players,
                            people={s.seat: s.person_id for s in seats if s.person_id is not None},
                            bots=bots, clock=table.clock)
    except CannotSeat as exc:
        table.status, table.reason = Table.Status.CANCELLED, str(exc)[:200]
        table.save(update_fields=["status", "reason"])
        return
    table.status, table.match = Table.Status.STARTED, match
    table.save(update_fields=["status", "match"])


def of(table_id: int, user: User) -> Table:
    """Table `table_id` for `user`, who must be its creator or seated at it (404 for anyone else: a table is
    reached only through its invitation)."""
    table = Table.objects.select_related("creator", "match").filter(pk=table_id).first()
    if table is None or not (table.creator_id == user.pk or table.seats.filter(person=user).exists()):
        raise TableRefused(404, _("no such table"))
    return table


def cancel(table_id: int, user: User) -> Table:
    """The creator cancels their open table (409 once it started; 404 for anyone but the creator)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, creator=user).first()
        if table is None:
            raise TableRefused(404, _("no such table"))
        if table.status != Table.Status.OPEN:
            raise TableRefused(409, _("this table is no longer open"))
        table.status, table.reason = Table.Status.CANCELLED, "cancelled by its creator"
        table.save(update_fields=["status", "reason"])
    return table


def leave(table_id: int, user: User) -> Table:
    """A person seated at an open table who is not its creator leaves it: their seat is free again (for anyone
    with the invitation). 404 for anyone not seated there (a table is reached only through its invitation); 409
    for its creator (who cancels instead) and once the table is no longer open (its match started: resign there)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        seat = TableSeat.objects.select_for_update().filter(table_id=table_id, person=user).first() \
            if table is not None else None
        if table is None or seat is None:
            raise TableRefused(404, _("no such table"))
        if table.creator_id == user.pk:
            raise TableRefused(409, _("you set this table: cancel it instead"))
        if table.status != Table.Status.OPEN:
            raise TableRefused(409, _("this table is no longer open"))
        seat.person, seat.taken_at = None, None
        seat.save(update_fields=["person", "taken_at"])
    return table


def expire(now: Any = None) -> int:
    """Mark the open tables whose time is up expired; how many."""
    return Table.objects.filter(status=Table.Status.OPEN, expires_at__lte=now or timezone.now()) \
        .update(status=Table.Status.EXPIRED)


def leave_all(user: User) -> None:
    """An account deleted: its open tables are cancelled, its seats at others' open tables free again."""
    Table.objects.filter(creator=user, status=Table.Status.OPEN).update(
        status=Table.Status.CANCELLED, reason="its creator's account was deleted")
    TableSeat.objects.filter(person=user, table__status=Table.Status.OPEN).update(person=None, taken_at=None)


def state(table: Table, user: User, seats: list[TableSeat] | None = None) -> dict[str, Any]:
    """What the table's page shows and polls: its status, each seat (a bot's name, a person's name, free), where
    the match is once it started. `seats`: the table's seats in order, already read with their person and bot
    (read here when None)."""
    rows = []
    for s in seats if seats is not None else table.seats.select_related("person", "version__bot").order_by("seat"):
        if s.version is not None:
            kind, name = "bot", s.version.seat_name
        elif s.person is not None:
            kind, name = "person", s.person.username
        else:
            kind, name = "free", ""
        rows.append({"seat": s.seat, "kind": kind, "name": name, "you": s.person_id == user.pk})
    return {"id": table.pk, "status": table.status, "game": table.game, "players": table.players,
            "expires_at": table.expires_at.isoformat(), "seats": rows,
            "match_url": reverse("web:match", args=[table.match_id]) if table.match_id else None}
