"""Who sees a competition: everyone once it is public; while private only its organizers (and staff), its
entrants (the people with a stake in an entered bot: its maker, or every member of its team), and, to enter it,
those on its list (policy "list") or holding its invitation link (policy "link": its page only). Registered with
`arena_site.visibility` at start-up so that the apps below hide a private competition's ladder and final (and
so their matches and replays) from everyone else."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Q, QuerySet

from arena_site.visibility import Hidden
from teams.services import team_ids

from .models import Competition, Entry


def is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_staff)


def organizes(user: Any, c: Competition) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_staff(user) or c.organizers.filter(pk=user.pk).exists()


def entries_of(user: Any) -> QuerySet[Entry]:
    """Entries in which `user` has a stake: their personal bots' and their teams' bots' entries."""
    if not getattr(user, "is_authenticated", False):
        return Entry.objects.none()
    return Entry.objects.filter(Q(bot__owner=user, bot__team__isnull=True) | Q(bot__team_id__in=team_ids(user))
                                | Q(entrant_user=user, entrant_team__isnull=True)
                                | Q(entrant_team_id__in=team_ids(user)))


def visible_competitions(user: Any) -> QuerySet[Competition]:
    if is_staff(user):
        return Competition.objects.all()
    q = Q(private=False)
    if getattr(user, "is_authenticated", False):
        q |= Q(organizers=user) | Q(pk__in=entries_of(user).values("competition_id"))
        # those on a listed competition's list (a team: its members) see it to enter it
        q |= Q(policy=Competition.Policy.LIST) & (Q(invited_users=user) | Q(invited_teams__in=team_ids(user)))
    return Competition.objects.filter(q).distinct()


def with_key(key: str) -> QuerySet[Competition]:
    """The competition whose invitation link has this key (its page is shown to whoever holds the link, to enter
    it; its ladder, matches and final only once they have entered)."""
    if not key or len(key) > 200:
        return Competition.objects.none()
    return Competition.objects.filter(policy=Competition.Policy.LINK, invite_digest=digest(key))


def digest(key: str) -> str:
    """What is stored of an invitation link's key: its SHA-256 (a 192-bit random key needs no slow hash)."""
    return hashlib.sha256(key.encode()).hexdigest()


def can_view(user: Any, c: Competition) -> bool:
    return not c.private or visible_competitions(user).filter(pk=c.pk).exists()


def hidden_from(user: Any) -> Hidden:
    """The ladders and finals of the private competitions `user` may not see (the `arena_site.visibility`
    provider)."""
    if is_staff(user):
        return Hidden()
    private = Competition.objects.filter(private=True).exclude(pk__in=visible_competitions(user).values("pk"))
    rows = list(private.values_list("ladder_id", "final_id"))
    return Hidden(frozenset(lad for lad, _ in rows if lad is not None),
                  frozenset(f for _, f in rows if f is not None))
