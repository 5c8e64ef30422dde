"""Your own data as one JSON file: `GET /api/auth/me/export/` (the owner page links it as "Download my data").

What it holds — the person's own things and the public facts of the matches their bots played, nothing more:
- `account`: id, user name, email address, when it joined and last logged in;
- `teams`: the teams the person belongs to (slug, name, role, when they joined, and the ids and names of the
  team's bots they made: a team's bots are the team's, so they are not in `bots` and their matches not in
  `matches`; the team's page and API show them);
- `team_uploads`: the versions the person uploaded to bots that are not their own — team bots, also of teams
  they have since left, and bots since moved to another member — (the team's slug or null, the bot's id and
  name, and the version's metadata as in `bots`);
- `bots`: each of the person's bots (their own, not their teams') with its versions' metadata (number, status,
  the public reason of a failure or suspension, hashes, sizes, runtime, dates: not the validation log, which
  stays on the bot page) and its ratings;
- `matches`: every match one of those bots sat in, newest first: id, kind, game, ladder, status, dates, the seed
  and the replay's URL once they are public (`matches.seeds`: the match and every match sharing its seed are
  over), and each seat (bot, its owner's shown name, version number, score, rank, rating change; `mine` marks
  the person's seats, and only those carry their fault messages).
Never another user's private data: no one else's email, logs, fault messages or unfinished matches' seeds.

The answer is streamed (`StreamingHttpResponse`): the matches are read in chunks of `CHUNK` with their seats
prefetched, so memory and the number of queries stay bounded however many matches there are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch
from django.http import StreamingHttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.views import APIView

from accounts import throttles
from accounts.deletion import OwnerNameField, display_name
from accounts.language import language_of
from botregistry.models import Bot, BotVersion
from botregistry.receivers import owned_bots
from ladders.models import Rating
from matches.models import Match, Participant
from matches.visibility import visible_matches
from teams.models import Membership

FORMAT = "arena-export-1"
CHUNK = 500


class ExportAccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    language = serializers.SerializerMethodField(help_text="The language chosen for the site and emails (\"\": none).")

    def get_language(self, user) -> str:
        return language_of(user)


class ExportTeamSerializer(serializers.Serializer):
    slug = serializers.CharField(source="team.slug")
    name = serializers.CharField(source="team.name")
    role = serializers.CharField()
    joined_at = serializers.DateTimeField()
    bots_made = serializers.SerializerMethodField(help_text="The team's bots this person made: [{id, name}].")

    def get_bots_made(self, membership) -> list[dict[str, Any]]:
        return [{"id": b.pk, "name": b.name} for b in membership.team.bots.all() if b.owner_id == membership.user_id]


class ExportVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = BotVersion
        fields = ["id", "number", "status", "status_reason", "runtime", "sha256", "archive_sha256", "archive_size",
                  "created_at", "validated_at", "suspended_at"]


class ExportTeamUploadSerializer(ExportVersionSerializer):
    """A version the person uploaded to a team's bot."""

    team = serializers.CharField(source="bot.team.slug", allow_null=True, default=None,
                                 help_text="The team's slug (deleted-team-<id> once deleted; null: the bot has "
                                           "since moved to one person).")
    bot = serializers.IntegerField(source="bot_id")
    bot_name = serializers.CharField(source="bot.name")

    class Meta(ExportVersionSerializer.Meta):
        fields = ["team", "bot", "bot_name", *ExportVersionSerializer.Meta.fields]


class ExportRatingSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Rating
        fields = ["ladder", "rating", "rating_interval", "elo", "mu", "sigma", "games", "wins", "last_played_at"]


class ExportBotSerializer(serializers.ModelSerializer):
    active_version = serializers.IntegerField(source="active_version.number", allow_null=True, default=None,
                                              help_text="The number of the version that plays (or played).")
    versions = ExportVersionSerializer(many=True)
    ratings = ExportRatingSerializer(many=True)

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "description", "public_annotations", "dataset_opt_out", "created_at", "retired_at",
                  "active_version", "versions", "ratings"]


class ExportSeatSerializer(serializers.ModelSerializer):
    """A seat of a match in the export (the schema's; `match_item` writes it)."""

    bot_name = serializers.CharField(source="bot.name")
    owner = OwnerNameField(source="bot.owner")
    version_number = serializers.IntegerField(source="version.number")
    mine = serializers.BooleanField(help_text="Whether the seat was one of your bots.")
    faults = serializers.ListField(child=serializers.DictField(), allow_null=True,
                                   help_text="[{kind, message, decision}]: your seats only (null for others').")

    class Meta:
        model = Participant
        fields = ["seat", "bot", "bot_name", "owner", "mine", "version_number", "score", "rank", "disqualified",
                  "elo_before", "elo_after", "faults"]


class ExportMatchSerializer(serializers.ModelSerializer):
    """A match in the export (the schema's; `match_item` writes it)."""

    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    seed = serializers.IntegerField(allow_null=True, help_text="Null until the match and every match sharing its "
                                                                "seed are over (platform/README.md, \"Seeds\").")
    replay_url = serializers.URLField(allow_null=True, help_text="The replay's download, once it is public.")
    seats = ExportSeatSerializer(many=True)

    class Meta:
        model = Match
        fields = ["id", "kind", "game", "ladder", "rated", "status", "status_reason", "created_at", "started_at",
                  "finished_at", "seed", "replay_url", "seats"]


_datetime = serializers.DateTimeField()


def _when(value: Any) -> str | None:
    return _datetime.to_representation(value) if value is not None else None


def match_item(match: Match, context: dict[str, Any]) -> dict[str, Any]:
    """One match as `ExportMatchSerializer` describes it, written by hand: an export can hold 100,000 matches, and
    DRF's serializers cost ~5× more per match than the database does."""
    public = match.done and match.seed not in context["pending_seeds"]  # `matches.seeds.seed_is_public`, batched
    seats = []
    for p in match.participants.all():
        mine = p.bot_id in context["own_bot_ids"]
        seats.append({"seat": p.seat, "bot": p.bot_id, "bot_name": p.bot.name, "owner": display_name(p.bot.owner),
                      "mine": mine, "version_number": p.version.number, "score": p.score, "rank": p.rank,
                      "disqualified": p.disqualified, "elo_before": p.elo_before, "elo_after": p.elo_after,
                      "faults": p.faults if mine else None})
    replay_url = None
    if public and match.replay_path:
        head, tail = context["replay_url"]
        replay_url = f"{head}/{match.pk}/{tail}"
    return {"id": match.pk, "kind": match.kind, "game": match.game, "ladder": match.ladder.slug if match.ladder else None,
            "rated": match.rated, "status": match.status, "status_reason": match.status_reason,
            "created_at": _when(match.created_at), "started_at": _when(match.started_at),
            "finished_at": _when(match.finished_at), "seed": match.seed if public else None,
            "replay_url": replay_url, "seats": seats}


class ExportSerializer(serializers.Serializer):
    """The export's shape, for the schema (the view streams the same fields)."""

    format = serializers.CharField(help_text=f"\"{FORMAT}\"")
    exported_at = serializers.DateTimeField()
    account = ExportAccountSerializer()
    teams = ExportTeamSerializer(many=True)
    team_uploads = ExportTeamUploadSerializer(many=True)
    bots = ExportBotSerializer(many=True)
    matches = ExportMatchSerializer(many=True)


def memberships(user: Any):
    return (Membership.objects.filter(user=user).select_related("team")
            .prefetch_related(Prefetch("team__bots", Bot.objects.order_by("id"))).order_by("team__name"))


def team_uploads(user: Any):
    """The versions `user` uploaded (BotVersion.uploaded_by) to bots that are not their own (`bots` has those),
    oldest first."""
    return (BotVersion.objects.filter(uploaded_by=user).exclude(bot__in=owned_bots(user.pk))
            .select_related("bot__team").order_by("bot_id", "number"))


def own_bots(user: Any):
    return (owned_bots(user.pk).select_related("active_version")
            .prefetch_related(Prefetch("versions", BotVersion.objects.order_by("number")),
                              Prefetch("ratings", Rating.objects.select_related("ladder")))
            .order_by("id"))


def own_matches(user: Any):
    seats = Participant.objects.select_related("bot", "bot__owner", "version").order_by("seat")
    mine = Participant.objects.filter(bot__in=owned_bots(user.pk)).values("match_id")
    return (visible_matches(Match.objects.filter(pk__in=mine), user)
            .defer("result", "unwritten_replay", "unwritten_logs", "params", "time_control")
            .select_related("ladder").prefetch_related(Prefetch("participants", seats))
            .order_by("-created_at", "-id"))


def export_chunks(request: Any, user: Any) -> Iterator[str]:
    """The export document, as pieces of JSON text."""
    def dump(value: Any) -> str:
        return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)

    # the replay's address is the same for every match but the id: made once
    replay_url = request.build_absolute_uri(reverse("api:match-replay", kwargs={"pk": 0})).rsplit("/0/", 1)
    context = {"replay_url": replay_url, "own_bot_ids": set(owned_bots(user.pk).values_list("pk", flat=True)),
               "pending_seeds": set(Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
                                    .values_list("seed", flat=True))}
    head = {"format": FORMAT, "exported_at": timezone.now(),
            "account": ExportAccountSerializer(user).data,
            "teams": ExportTeamSerializer(memberships(user), many=True).data,
            "team_uploads": ExportTeamUploadSerializer(team_uploads(user), many=True).data,
            "bots": ExportBotSerializer(own_bots(user), many=True).data}
    yield dump(head)[:-1] + ', "matches": ['
    first = True
    for match in own_matches(user).iterator(chunk_size=CHUNK):
        yield ("" if first else ", ") + dump(match_item(match, context))
        first = False
    yield "]}\n"


class ExportView(APIView):
    """Download your own data as JSON: your account, your bots with their versions and ratings, and the public
    facts of every match your bots played (seats, results, seeds and replay links once public). Nothing private
    of anyone else. Streamed: large exports start at once."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = throttles.EXPORT

    @extend_schema(responses={200: ExportSerializer})
    def get(self, request):
        response = StreamingHttpResponse(export_chunks(request, request.user), content_type="application/json")
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.user.username)  # a header holds Latin-1 only
        response["Content-Disposition"] = f'attachment; filename="arena-export-{name}.json"'
        response["Cache-Control"] = "no-store"
        return response
