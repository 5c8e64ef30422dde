"""Who sees a competition: everyone once it is public; while private only its organizers (and staff) and its
entrants (the people with a stake in an entered bot: its maker, or every member of its team). Registered with
`arena_site.visibility` at start-up so that the apps below hide a private competition's ladder and final (and
so their matches and replays) from everyone else."""

from __future__ import annotations

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
    return Competition.objects.filter(q).distinct()


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
