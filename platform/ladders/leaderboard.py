"""What a leaderboard row counts: the rating is the active version's (`ladders.rating_fit`, README "What a bot's
rating means"), so the games shown beside it as its headline are that version's (`version_games`, from its
`VersionRating` at the last refit; 0 for a version not fitted yet, every version's on a ladder never fitted,
whose rating is not a fit either); `Rating.games` and `wins` count every version's rated games on the ladder and
are shown apart from it ("in all")."""

from __future__ import annotations

from django.db.models import Case, F, IntegerField, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from .models import Rating, VersionRating


def with_version_games(ratings: QuerySet[Rating]) -> QuerySet[Rating]:
    """`ratings` annotated with `version_games`: the rated games of each bot's active version on the ladder."""
    games = (VersionRating.objects.filter(ladder=OuterRef("ladder_id"), version=OuterRef("bot__active_version_id"))
             .values("games")[:1])
    unfitted = Case(When(ladder__fitted_at__isnull=True, then=F("games")), default=Value(0),
                    output_field=IntegerField())
    return ratings.annotate(version_games=Coalesce(Subquery(games, output_field=IntegerField()), unfitted))
