"""Matches a user may see: every match but those of a ladder or tournament hidden from them
(`arena_site.visibility`: a private competition's ladder, challenges and final)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from arena_site.visibility import Hidden, hidden_for

from .models import Match


def hidden_q(hidden: Hidden, prefix: str = "") -> Q:
    """A Q matching the hidden matches (`prefix`: the path to the match, e.g. "match__" from a participant)."""
    q = Q(**{f"{prefix}pk__in": []})  # matches nothing: the start of the union
    if hidden.ladders:
        q |= Q(**{f"{prefix}ladder_id__in": hidden.ladders})
    if hidden.tournaments:
        # a tournament game's match (the relation's name only: matches does not import tournaments)
        q |= Q(**{f"{prefix}tournament_game__round__tournament_id__in": hidden.tournaments})
    return q


def visible_matches(qs: QuerySet[Match], user: Any) -> QuerySet[Match]:
    hidden = hidden_for(user)
    return qs.exclude(hidden_q(hidden)) if hidden else qs


def can_see(match: Match, user: Any) -> bool:
    hidden = hidden_for(user)
    return not hidden or not Match.objects.filter(hidden_q(hidden), pk=match.pk).exists()
