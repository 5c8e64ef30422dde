"""Running a competition: creating it, entering it, and the clock (`tick`, from beat) that opens entries, reminds
entrants a day before the deadline, locks versions at the deadline, starts the final at its time, takes its
table as the result and publishes it.

Every step of the clock is idempotent and serialised per competition (a row lock), so beat may run it as often
as it likes. The rules of fairness:

- **Locked versions.** At the deadline each entry's active version, if ready, is pinned (`Entry.locked_version`,
  protected from deletion); the final plays exactly that version. An upload after the deadline becomes the bot's
  active version on the public ladders but never enters: the lock is a row that nothing rewrites. A team transfer
  moves the bot, not the entry (its entrant was fixed at entry). A deleted account retires its bots: the entry
  stays in the archive with its locked version, and in a running final it forfeits its remaining games (the
  tournaments' rule for a retired bot, its reason shown); games it already played count.
- **Stakes.** Two entries of different entrants with a stake in common (a member's own bot and their team's
  bot, two teams sharing a member) are refused at entry. Entries of one entrant (when the organizer allows more
  than one) do meet in the final: round robin has every entry meet every other, and the Swiss and knockout
  pairings of the tournaments do not know stakes.
- **Result.** The final's table (tournaments: points, then Buchholz, then outright wins, then total game score);
  entries still equal on all four are ordered by when their locked version was uploaded (the earlier submission
  first, as Kaggle does); a disqualified entry is listed last with its reason and no rank.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.deletion import display_name
from arena import games as game_registry
from arena.reasons import Reason
from botregistry.models import Bot
from botregistry.ownership import can_play, people_to_tell, stakes
from ladders.models import Ladder, Rating
from notifications.events import Event
from notifications.services import notify
from teams.models import Membership
from tournaments import services as tournaments
from tournaments.models import Entry as FinalEntry
from tournaments.models import Tournament

from .models import Competition, Entry, Organizer
from .visibility import digest, is_staff, organizes

log = logging.getLogger("arena.competitions")

REMIND_BEFORE = timedelta(hours=24)


class Refused(Exception):
    """An action that is not allowed or not valid: `status` is the HTTP status the API answers with."""

    def __init__(self, message: str, status: int = 400, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.field = field


def is_organizer(user: Any) -> bool:
    """May create competitions: staff, and users staff made organizers."""
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff(user) or Organizer.objects.filter(user=user).exists()


def _require_organizer(c: Competition, user: Any) -> None:
    if not organizes(user, c):
        raise Refused(_("only the competition's organizers may do this"), 403)


# ------------------------------------------------------------------------------------------------ set-up

SETTINGS = ("title", "description", "rules", "game", "players", "params", "decision_ms", "bank_ms", "startup_ms",
            "max_faults", "entries_open_at", "deadline", "final_at", "results_at", "policy", "entries_per_entrant",
            "final_format", "final_duplicate", "final_games_per_pairing", "final_rounds", "private")
#: what may still change after the deadline: the texts, when results come out, whether it is private
AFTER_DEADLINE = ("title", "description", "rules", "results_at", "private")


def check(c: Competition) -> None:
    """Refuses settings that cannot make a competition (field, message)."""
    if c.game not in game_registry.names():
        raise Refused(_("unknown game %(game)s") % {"game": c.game}, field="game")
    cls = game_registry.game_class(c.game)
    if not cls.min_players <= c.players <= cls.max_players:
        raise Refused(_("%(game)s is played by %(lo)s to %(hi)s players")
                      % {"game": c.game, "lo": cls.min_players, "hi": cls.max_players}, field="players")
    if c.private and c.policy == Competition.Policy.ANYONE:
        raise Refused(_("a private competition is entered by invitation link or by list"), field="policy")
    if c.players < 2:
        raise Refused(_("a competition's tables seat at least 2 bots"), field="players")
    if c.final_format == Competition.FinalFormat.KNOCKOUT and c.players != 2:
        raise Refused(_("knockout is played by 2 players per table"), field="final_format")
    if not c.entries_open_at < c.deadline <= c.final_at:
        raise Refused(_("the dates go: entries open, then the deadline, then the final"), field="deadline")
    if c.results_at is not None and c.results_at < c.final_at:
        raise Refused(_("results cannot come out before the final"), field="results_at")
    if not 1 <= c.entries_per_entrant <= 10:
        raise Refused(_("entries per person or team: 1 to 10"), field="entries_per_entrant")
    if not 1 <= c.final_games_per_pairing <= 10:
        raise Refused(_("games per pairing: 1 to 10"), field="final_games_per_pairing")
    if c.final_rounds is not None and not 1 <= c.final_rounds <= 50:
        raise Refused(_("Swiss rounds: 1 to 50"), field="final_rounds")


def create(by: Any, **fields: Any) -> Competition:
    """A new competition organized by `by` (an organizer), with its own ladder (paused until entries open)."""
    if not is_organizer(by):
        raise Refused(_("only organizers create competitions (staff grant the role)"), 403)
    unknown = set(fields) - set(SETTINGS) - {"slug"}
    if unknown:
        raise Refused(f"unknown fields {sorted(unknown)}")
    c = Competition(created_by=by, **fields)
    check(c)
    with transaction.atomic():
        if Competition.objects.filter(slug=c.slug).exists():
            raise Refused(_("a competition with this address already exists"), 409, field="slug")
        c.ladder = Ladder.objects.create(
            slug=f"competition-{c.slug}"[:64], name=c.title, game=c.game, players=c.players, params=c.params,
            decision_ms=c.decision_ms, bank_ms=c.bank_ms, startup_ms=c.startup_ms, max_faults=c.max_faults,
            active=False, listed=False)
        c.save()
        c.organizers.add(by)
    return c


def update(c: Competition, by: Any, **fields: Any) -> Competition:
    """Change settings: all of them before the deadline, only the texts, the results date and privacy after."""
    _require_organizer(c, by)
    unknown = set(fields) - set(SETTINGS)
    if unknown:
        raise Refused(f"unknown fields {sorted(unknown)}")
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=c.pk)
        if c.locked_at is not None:
            frozen = [k for k, v in fields.items() if k not in AFTER_DEADLINE and getattr(c, k) != v]
            if frozen:
                raise Refused(_("after the deadline only the texts, the results date and privacy change: %(f)s")
                              % {"f": ", ".join(sorted(frozen))}, 409)
        if c.entries.exists() and fields.get("game", c.game) != c.game:
            raise Refused(_("the game cannot change once bots have entered"), 409, field="game")
        for k, v in fields.items():
            setattr(c, k, v)
        check(c)
        c.save()
        assert c.ladder is not None
        Ladder.objects.filter(pk=c.ladder_pk).update(
            name=c.title, game=c.game, players=c.players, params=c.params, decision_ms=c.decision_ms,
            bank_ms=c.bank_ms, startup_ms=c.startup_ms, max_faults=c.max_faults)
    return c


def new_invite_link(c: Competition, by: Any) -> str:
    """A new invitation key (the old link stops working); only its digest is stored."""
    _require_organizer(c, by)
    key = secrets.token_urlsafe(24)
    Competition.objects.filter(pk=c.pk).update(invite_digest=digest(key))
    c.invite_digest = digest(key)
    return key


def revoke_invite_link(c: Competition, by: Any) -> None:
    _require_organizer(c, by)
    Competition.objects.filter(pk=c.pk).update(invite_digest="")
    c.invite_digest = ""


# --------------------------------------------------------------------------------------------------- entries

def may_enter(c: Competition, user: Any, *, key: str = "", team_id: int | None = None) -> bool:
    """Whether the entry policy lets `user` (entering for themself, or for the team `team_id`) in."""
    if c.policy == Competition.Policy.ANYONE:
        return True
    if c.policy == Competition.Policy.LINK:
        return bool(key) and bool(c.invite_digest) and secrets.compare_digest(digest(key), c.invite_digest)
    if team_id is not None:
        return c.invited_teams.filter(pk=team_id).exists()
    return c.invited_users.filter(pk=user.pk).exists()


def enter(c: Competition, user: Any, bot: Bot, *, key: str = "") -> Entry:
    """Enter `bot` (one `user` may play: theirs, or their team's, entered for the team)."""
    now = timezone.now()
    if not getattr(user, "is_authenticated", False):
        raise Refused(_("log in to enter"), 401)
    if not can_play(user, bot) or bot.builtin:
        raise Refused(_("you can enter only your own bots or your team's"), 403, field="bot")
    if c.cancelled_reason:
        raise Refused(_("this competition was cancelled"), 409)
    if now < c.entries_open_at:
        raise Refused(_("entries are not open yet"), 409)
    if c.locked_at is not None or now >= c.deadline:
        raise Refused(_("the submission deadline has passed"), 409)
    if bot.game != c.game:
        raise Refused(_("%(bot)s plays %(g)s; this competition is %(c)s") % {"bot": bot.name, "g": bot.game,
                                                                               "c": c.game}, field="bot")
    if not may_enter(c, user, key=key, team_id=bot.team_id):
        raise Refused(_("this competition is by invitation: you are not on its list or your link is not valid"),
                      403)
    team = bot.team
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=c.pk)
        if c.locked_at is not None:
            raise Refused(_("the submission deadline has passed"), 409)
        if Entry.objects.filter(competition=c, bot=bot).exists():
            raise Refused(_("%(bot)s is already entered") % {"bot": bot.name}, 409, field="bot")
        mine = Entry.objects.filter(competition=c)
        mine = mine.filter(entrant_team=team) if team else mine.filter(entrant_user=user, entrant_team__isnull=True)
        if mine.count() >= c.entries_per_entrant:
            raise Refused(_("at most %(n)s entries per person or team") % {"n": c.entries_per_entrant}, 409)
        own = stakes(bot)
        key_of = ("team", team.pk) if team else ("user", user.pk)
        for other in Entry.objects.filter(competition=c).select_related("bot"):
            if other.entrant_key != key_of and own & stakes(other.bot):
                raise Refused(_("%(bot)s shares a stake with the entry %(other)s (a member's own bot and their "
                                "team's, or teams with a member in common): they may not both enter")
                              % {"bot": bot.name, "other": other.bot.name}, 409, field="bot")
        entry = Entry.objects.create(competition=c, bot=bot, entrant_team=team,
                                     entrant_user=user if team is None else bot.owner)
        Rating.objects.get_or_create(ladder_id=c.ladder_pk, bot=bot)
    return entry


def withdraw(entry: Entry, user: Any) -> None:
    """Take an entry back (before the deadline; its entrant or an organizer)."""
    c = entry.competition
    if not (can_play(user, entry.bot) or organizes(user, c)):
        raise Refused(_("only the entrant or an organizer may withdraw an entry"), 403)
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=c.pk)
        if c.locked_at is not None:
            raise Refused(_("entries are locked after the deadline (an organizer may disqualify one)"), 409)
        Rating.objects.filter(ladder_id=c.ladder_pk, bot_id=entry.bot_id).delete()
        entry.delete()


def disqualify(entry: Entry, by: Any, reason: str) -> Entry:
    """Disqualify an entry with a public reason: it leaves the ladder, forfeits what is left of the final and is
    listed last in the result."""
    c = entry.competition
    _require_organizer(c, by)
    reason = (reason or "").strip()
    if not reason:
        raise Refused(_("say why (the reason is public)"), field="reason")
    if len(reason) > 1000:
        raise Refused(_("the reason is at most 1000 characters"), field="reason")
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=c.pk)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        entry.disqualified_reason, entry.disqualified_at = reason, timezone.now()
        entry.save(update_fields=["disqualified_reason", "disqualified_at"])
        Rating.objects.filter(ladder_id=c.ladder_pk, bot_id=entry.bot_id).delete()
        if c.final_id is not None:
            FinalEntry.objects.filter(tournament_id=c.final_id, bot_id=entry.bot_id).update(
                forfeit_reason=f"forfeit: disqualified ({reason})")
        if c.result is not None:
            c.result = result_rows(c)
            c.save(update_fields=["result"])
    return entry


def publish(c: Competition, by: Any | None = None, now: datetime | None = None) -> bool:
    """Publish the result (the final must be over). False if it already was."""
    if by is not None:
        _require_organizer(c, by)
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=c.pk)
        if c.results_published_at is not None:
            return False
        if c.result is None:
            raise Refused(_("the final is not over yet"), 409)
        c.results_published_at = now or timezone.now()
        c.save(update_fields=["results_published_at"])
        transaction.on_commit(lambda: _tell_entrants(c.pk, Event.COMPETITION_RESULTS))
    return True


# --------------------------------------------------------------------------------------------------- clock

def tick(now: datetime | None = None) -> None:
    """What beat runs: move every competition that is due one step on (each step in its own transaction)."""
    now = now or timezone.now()
    live = Competition.objects.filter(results_published_at__isnull=True, cancelled_reason="")
    for cid in live.values_list("pk", flat=True):
        try:
            step(cid, now)
        except Exception:  # one competition's trouble must not stop the others
            log.exception("competition %s: tick failed", cid)


def step(cid: int, now: datetime) -> None:
    _open(cid, now)
    _remind(cid, now)
    _lock(cid, now)
    _start_final(cid, now)
    _finish(cid, now)
    _publish_at(cid, now)


def _open(cid: int, now: datetime) -> None:
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=cid)
        if c.opened_notified_at is not None or now < c.entries_open_at or c.locked_at is not None:
            return
        c.opened_notified_at = now
        c.save(update_fields=["opened_notified_at"])
        Ladder.objects.filter(pk=c.ladder_pk).update(active=True)
        transaction.on_commit(lambda: _tell_invited(cid))


def _remind(cid: int, now: datetime) -> None:
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=cid)
        if c.reminded_at is not None or c.locked_at is not None or now < c.deadline - REMIND_BEFORE:
            return
        c.reminded_at = now
        c.save(update_fields=["reminded_at"])
        transaction.on_commit(lambda: _tell_entrants(cid, Event.COMPETITION_DEADLINE_SOON))


def _lock(cid: int, now: datetime) -> None:
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=cid)
        if c.locked_at is not None or now < c.deadline:
            return
        entries = list(c.entries.select_related("bot", "bot__active_version").select_for_update(of=("self",)))
        for e in entries:
            version = e.bot.playing_version
            if version is not None:
                e.locked_version = version
            else:
                e.lock_note = _no_version_note(e.bot)
        Entry.objects.bulk_update(entries, ["locked_version", "lock_note"])
        c.locked_at = now
        c.save(update_fields=["locked_at"])
        Ladder.objects.filter(pk=c.ladder_pk).update(active=False)
        log.info("competition %s: %s entries locked", c.pk, sum(e.locked_version_id is not None for e in entries))


def _no_version_note(bot: Bot) -> str:
    if bot.retired_at is not None:
        return _("the bot was retired")
    v = bot.active_version
    if v is None:
        return _("no version at the deadline")
    return _("version %(n)s was %(s)s at the deadline") % {"n": v.number, "s": v.status}


def _start_final(cid: int, now: datetime) -> None:
    with transaction.atomic():
        c = Competition.objects.select_for_update().get(pk=cid)
        if c.locked_at is None or c.final_id is not None or now < c.final_at:
            return
        playing = list(c.entries.filter(locked_version__isnull=False, disqualified_at__isnull=True)
                       .order_by("id"))
        t = Tournament.objects.create(
            name=_("%(title)s — final") % {"title": c.title}, game=c.game, params=c.params, players=c.players,
            decision_ms=c.decision_ms, bank_ms=c.bank_ms, startup_ms=c.startup_ms, max_faults=c.max_faults,
            format=c.final_format, duplicate=c.final_duplicate, games_per_pairing=c.final_games_per_pairing,
            rounds_planned=c.final_rounds if c.final_format == Competition.FinalFormat.SWISS else None,
            starts_at=now, created_by=c.created_by)
        FinalEntry.objects.bulk_create([FinalEntry(tournament=t, bot_id=e.bot_id, version_id=e.locked_version_id)
                                        for e in playing])
        c.final = t
        c.save(update_fields=["final"])
        tournaments.start(t.pk, now)
        t.refresh_from_db()
        if t.status == Tournament.Status.CANCELLED:
            # stored in English words, told in each reader's language (arena.reasons, the page's |retold)
            c.cancelled_reason = Reason("competition.final_not_started", {"why": t.status_reason}).english()
            c.save(update_fields=["cancelled_reason"])
            return
        transaction.on_commit(lambda: _tell_entrants(cid, Event.COMPETITION_FINAL_STARTED))


def _finish(cid: int, now: datetime) -> None:
    with transaction.atomic():
        c = Competition.objects.select_for_update(of=("self",)).select_related("final").get(pk=cid)
        if c.final is None or c.result is not None:
            return
        if c.final.status == Tournament.Status.CANCELLED:
            c.cancelled_reason = Reason("competition.final_cancelled", {"why": c.final.status_reason}).english()
            c.save(update_fields=["cancelled_reason"])
            return
        if c.final.status != Tournament.Status.FINISHED:
            return
        c.result = result_rows(c)
        c.save(update_fields=["result"])


def _publish_at(cid: int, now: datetime) -> None:
    c = Competition.objects.get(pk=cid)
    if c.result is not None and c.results_at is not None and now >= c.results_at:
        publish(c, now=now)


# --------------------------------------------------------------------------------------------------- result

def result_rows(c: Competition) -> list[dict[str, Any]]:
    """The competition's result: the final's table in its order, ties left by it broken by the earlier locked
    version, disqualified entries last without a rank (module docstring). Plain dicts (frozen in
    `Competition.result`; the archive's CSV and JSON)."""
    assert c.final is not None
    table = c.final.final_standings or tournaments.standings(c.final)
    entries = {e.bot_id: e for e in c.entries.select_related("bot", "bot__owner", "entrant_team", "entrant_user",
                                                             "locked_version")}
    def uploaded(row: dict) -> float:
        e = entries.get(row["bot_id"])
        v = e.locked_version if e is not None else None
        return v.created_at.timestamp() if v is not None else float("inf")

    ordered = sorted(table, key=lambda r: (r["rank"], uploaded(r), r["entry"]))
    out: list[dict[str, Any]] = []
    for row in ordered:
        e = entries.get(row["bot_id"])
        if e is None:
            continue
        out.append(_row(e, row))
    for e in entries.values():  # entries that did not play the final (no version at the deadline)
        if e.bot_id not in {r["bot_id"] for r in table}:
            out.append(_row(e, None))
    rank = 0
    for r in out:
        if r["disqualified_reason"] or r["points"] is None:
            r["rank"] = None
        else:
            rank += 1
            r["rank"] = rank
    out.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0))
    return out


def _row(e: Entry, row: dict | None) -> dict[str, Any]:
    return {"rank": None, "entry": e.pk, "bot_id": e.bot_id, "bot": e.bot.name,
            "entrant": e.entrant_team.name if e.entrant_team else display_name(e.entrant_user),
            "team": bool(e.entrant_team_id),
            "version": e.locked_version.number if e.locked_version else None,
            "version_sha256": e.locked_version.sha256 if e.locked_version else "",
            "points": row["points"] if row else None, "buchholz": row["buchholz"] if row else None,
            "wins": row["wins"] if row else None, "units": row["units"] if row else None,
            "score_total": row["score_total"] if row else None, "final_rank": row["rank"] if row else None,
            "disqualified_reason": e.disqualified_reason, "note": e.lock_note or (row or {}).get("forfeit_reason", "")}


def results_visible(c: Competition, user: Any) -> bool:
    """Organizers see the result as soon as the final is over; everyone else once it is published."""
    return c.result is not None and (c.results_published_at is not None or organizes(user, c))


# --------------------------------------------------------------------------------------------------- telling

def _tell_entrants(cid: int, event: Event) -> None:
    c = Competition.objects.filter(pk=cid).first()
    if c is None:
        return
    texts = {
        Event.COMPETITION_DEADLINE_SOON: (_("%(t)s: the submission deadline is in 24 hours"),
                                          _("Versions active at %(d)s are locked for the final.")),
        Event.COMPETITION_FINAL_STARTED: (_("%(t)s: the final has started"),
                                          _("The final plays the versions locked at the deadline.")),
        Event.COMPETITION_RESULTS: (_("%(t)s: results published"), _("The final standings are out.")),
    }
    subject, text = texts[event]
    told: set[int] = set()
    for e in c.entries.select_related("bot", "bot__owner").order_by("id"):
        for person in people_to_tell(e.bot):
            if person.pk in told:
                continue
            told.add(person.pk)
            notify(person, event, subject % {"t": c.title}, text % {"d": c.deadline.isoformat()},
                   f"/competitions/{c.slug}/", {"competition": c.slug, "title": c.title, "phase": c.phase()})


def _tell_invited(cid: int) -> None:
    """Entries open: tell those on the competition's list (a team: its members)."""
    c = Competition.objects.filter(pk=cid).first()
    if c is None or c.policy != Competition.Policy.LIST:
        return
    people = {u.pk: u for u in c.invited_users.all()}
    for m in Membership.objects.filter(team__in=c.invited_teams.all()).select_related("user"):
        people.setdefault(m.user_id, m.user)
    for person in people.values():
        notify(person, Event.COMPETITION_OPEN, _("%(t)s: entries are open") % {"t": c.title},
               _("You are invited to enter until %(d)s.") % {"d": c.deadline.isoformat()},
               f"/competitions/{c.slug}/", {"competition": c.slug, "title": c.title, "phase": c.phase()})

