"""The events, heard from the apps below (their post-commit signals), turned into `notify` calls.

Each receiver reads what it needs fresh from the database (the signal carries only an id) and tells each owner
concerned: a version's owner when it fails validation or is suspended; a version test's owner when it ends; the
owner who asked for a challenge when its match ends; the owner of every bot entered in a tournament when it starts
and when it ends. For a team's bot "its owner" is the team's owners and the bot's maker while a member
(`botregistry.ownership.people_to_tell`). The signals are sent with `send_robust`, so a failure here is logged and breaks nothing below.
"""

from __future__ import annotations

from django.dispatch import receiver
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.language import speaking
from accounts.signals import account_deleting
from arena.games.speech import language_code
from arena.reasons import retell
from botregistry import reasons
from botregistry.models import BotVersion
from botregistry.ownership import people_to_tell
from botregistry.signals import version_failed, version_suspended
from matches.models import Match
from matches.signals import match_ended
from tournaments.models import Tournament
from tournaments.signals import tournament_ended, tournament_started
from versiontests.models import VersionTest
from versiontests.signals import version_test_ended

from .events import Event
from .services import notify


def _version_event(version_id: int, event: Event) -> None:
    v = BotVersion.objects.select_related("bot", "bot__owner").filter(pk=version_id).first()
    if v is None or v.bot.builtin:
        return
    for person in people_to_tell(v.bot):
        with speaking(person):  # each in their own language (accounts.language)
            what = _("failed validation") if event == Event.VERSION_FAILED else _("was suspended")
            subject = _("%(bot)s version %(number)s %(what)s") % {"bot": v.bot.name, "number": v.number, "what": what}
            # the reason in the recipient's language; the payload keeps its English words and its codes
            notify(person, event, subject, reasons.shown(v) or what, f"/bots/{v.bot_id}/",
               {"bot": v.bot_id, "bot_name": v.bot.name, "version": v.pk, "version_number": v.number,
                "status": v.status, "reason": v.status_reason, "reason_codes": reasons.codes(v)})


@receiver(version_failed, dispatch_uid="notifications.version_failed")
def on_version_failed(sender, version_id: int, **kwargs) -> None:
    _version_event(version_id, Event.VERSION_FAILED)


@receiver(version_suspended, dispatch_uid="notifications.version_suspended")
def on_version_suspended(sender, version_id: int, **kwargs) -> None:
    _version_event(version_id, Event.VERSION_SUSPENDED)


@receiver(version_test_ended, dispatch_uid="notifications.version_test_ended")
def on_version_test_ended(sender, test_id: int, **kwargs) -> None:
    t = VersionTest.objects.select_related("owner", "bot", "version_a", "version_b").filter(pk=test_id).first()
    if t is None:
        return
    with speaking(t.owner):
        subject = _("version test of %(bot)s v%(b)s against v%(a)s: %(status)s") % {
            "bot": t.bot.name, "b": t.version_b.number, "a": t.version_a.number, "status": t.get_status_display().lower()}
        told = retell(t.status_reason, language_code(get_language()))  # in the recipient's language when known
        notify(t.owner, Event.VERSION_TEST_ENDED, subject, told or t.get_status_display().lower(), f"/bots/{t.bot_id}/",
               {"version_test": t.pk, "bot": t.bot_id, "bot_name": t.bot.name, "status": t.status,
                "reason": t.status_reason, "version_a": t.version_a_id, "version_b": t.version_b_id})


@receiver(match_ended, dispatch_uid="notifications.challenge_finished")
def on_match_ended(sender, match_id: int, **kwargs) -> None:
    m = Match.objects.select_related("requested_by").filter(pk=match_id, kind=Match.Kind.CHALLENGE).first()
    if m is None or m.requested_by is None:
        return
    seats = list(m.participants.order_by("seat").values("seat", "bot_id", "bot__name", "rank", "score"))
    engine = (m.result.get("engine_opponents") or []) if isinstance(m.result, dict) else []
    finishers = [(p["rank"], p["bot__name"], p["score"]) for p in seats if p["rank"] is not None]
    finishers += [(o["rank"], o["name"], o["score"]) for o in engine]
    with speaking(m.requested_by):
        status = m.get_status_display().lower()
        ranks = _(", ").join(_("%(name)s rank %(rank)s") % {"name": name, "rank": rank}
                             + (f" ({score:g})" if score is not None else "")
                             for rank, name, score in sorted(finishers, key=lambda f: f[0]))
        said = {"number": m.pk, "game": m.game.capitalize(), "status": status, "ranks": ranks}
        text = (_("Match #%(number)s (%(game)s) is %(status)s: %(ranks)s.") if ranks
                else _("Match #%(number)s (%(game)s) is %(status)s.")) % said
        notify(m.requested_by, Event.CHALLENGE_FINISHED, _("challenge match #%(number)s %(status)s") % said,
               text, f"/matches/{m.pk}/",
               {"match": m.pk, "game": m.game, "status": m.status,
                "seats": [{"seat": p["seat"], "bot": p["bot_id"], "bot_name": p["bot__name"], "rank": p["rank"],
                           "score": p["score"]} for p in seats],
                "engine_opponents": engine})


def _tournament_event(tournament_id: int, event: Event) -> None:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    entries = list(t.entries.select_related("bot", "bot__owner").order_by("id"))
    by_owner: dict[int, list] = {}
    people: dict[int, object] = {}
    for e in entries:
        for person in people_to_tell(e.bot):
            by_owner.setdefault(person.pk, []).append(e)
            people[person.pk] = person
    for pk, mine in by_owner.items():
        owner = people[pk]
        with speaking(owner):
            status = t.get_status_display().lower()
            said = {"name": t.name, "game": t.game.capitalize(), "bots": _(", ").join(e.bot.name for e in mine),
                    "status": status, "reason": retell(t.status_reason, language_code(get_language()))}
            subject = (_("tournament %(name)s started") if event == Event.TOURNAMENT_STARTED
                       else _("tournament %(name)s %(status)s")) % said
            text = (_("The tournament %(name)s (%(game)s) that %(bots)s entered is %(status)s: %(reason)s")
                    if t.status_reason else
                    _("The tournament %(name)s (%(game)s) that %(bots)s entered is %(status)s.")) % said
            notify(owner, event, subject, text, f"/tournaments/{t.pk}/",
                   {"tournament": t.pk, "name": t.name, "status": t.status, "reason": t.status_reason,
                    "bots": [e.bot_id for e in mine]})


@receiver(tournament_started, dispatch_uid="notifications.tournament_started")
def on_tournament_started(sender, tournament_id: int, **kwargs) -> None:
    _tournament_event(tournament_id, Event.TOURNAMENT_STARTED)


@receiver(tournament_ended, dispatch_uid="notifications.tournament_ended")
def on_tournament_ended(sender, tournament_id: int, **kwargs) -> None:
    _tournament_event(tournament_id, Event.TOURNAMENT_ENDED)


@receiver(account_deleting, dispatch_uid="notifications.account_deleting")
def on_account_deleting(sender, user, **kwargs) -> None:
    """A deleted account's choices go with it: its webhook URL and secret, the address to write to."""
    from .models import NotificationSettings

    NotificationSettings.objects.filter(user_id=user.pk).delete()
