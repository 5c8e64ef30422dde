"""REST API views. Anonymous users read; authenticated users create bots, upload versions and challenge;
only a bot's owner changes it. Every list is paginated; every client mistake is a 4xx."""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Prefetch, Window
from django.db.models.functions import RowNumber
from django.http import FileResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, parsers, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from api import serializers as s
from api.permissions import IsOwnerOrReadOnly
from botregistry.models import Bot, BotVersion
from botregistry.services import UploadRejected, create_version
from ladders.models import Ladder, Rating
from matches.models import Match, Participant
from matches.services import create_match

ID = r"[0-9]{1,18}"  # non-numeric or absurd ids are a 404, not a database error


def int_param(request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise exceptions.ValidationError({name: f"must be a whole number, not {raw!r}"})
    return int(raw)


@extend_schema(parameters=[
    OpenApiParameter("game", str, description="only bots of this game"),
    OpenApiParameter("owner", str, description="only bots of this username"),
    OpenApiParameter("mine", bool, description="only your own bots")])
class BotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                 mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Bots. Create one, then upload versions to `versions/`; the newest ready version plays."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    lookup_value_regex = ID
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = Bot.objects.select_related("owner", "active_version").order_by("id")
        params = self.request.query_params
        if params.get("game"):
            qs = qs.filter(game=params["game"])
        if params.get("owner"):
            qs = qs.filter(owner__username=params["owner"])
        if params.get("mine") in ("1", "true") and self.request.user.is_authenticated:
            qs = qs.filter(owner=self.request.user)
        if self.action == "retrieve":
            qs = qs.prefetch_related(Prefetch("ratings", Rating.objects.select_related("ladder")))
        return qs

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return s.BotUpdateSerializer
        if self.action == "retrieve":
            return s.BotDetailSerializer
        if self.action == "versions":
            return s.UploadSerializer if self.request.method == "POST" else s.VersionSerializer
        return s.BotSerializer

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)

    def update(self, request, *args, **kwargs):
        super().update(request, *args, **kwargs)
        bot = self.get_object()
        return Response(s.BotDetailSerializer(bot, context=self.get_serializer_context()).data)

    @extend_schema(methods=["GET"], responses=s.VersionSerializer(many=True))
    @extend_schema(methods=["POST"], request={"multipart/form-data": s.UploadSerializer},
                   responses={201: s.VersionSerializer})
    @action(detail=True, methods=["get", "post"],
            parser_classes=[parsers.MultiPartParser, parsers.FormParser])
    def versions(self, request, pk=None):
        """GET: the bot's versions. POST (owner): upload an archive as a new version, validated in the
        background (status pending → validating → ready | failed)."""
        bot = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(bot.versions.select_related("bot").order_by("-number"))
            data = s.VersionSerializer(page, many=True, context=self.get_serializer_context()).data
            return self.get_paginated_response(data)
        limit = settings.ARENA_UPLOAD_MAX_BYTES
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if declared.isdigit() and int(declared) > limit + 64 * 1024:  # refuse before receiving the body
            return Response({"detail": f"the upload is {int(declared) / 1e6:.1f} MB; uploads are limited to "
                                       f"{limit // (1024 * 1024)} MB"}, status=status.HTTP_400_BAD_REQUEST)
        upload = request.FILES.get("archive")
        if upload is None:
            raise exceptions.ValidationError({"archive": "send the bot as a multipart file field 'archive'"})
        try:
            version = create_version(bot, upload, size=upload.size, filename=upload.name or "")
        except UploadRejected as exc:
            return Response({"archive": [str(exc)], "detail": str(exc)}, status=exc.status)
        return Response(s.VersionSerializer(version, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)


class VersionViewSet(viewsets.ReadOnlyModelViewSet):
    """Bot versions: status, reason, manifest; the validation log for the owner."""

    serializer_class = s.VersionSerializer
    queryset = BotVersion.objects.select_related("bot").order_by("id")
    lookup_value_regex = ID


class LadderViewSet(viewsets.ReadOnlyModelViewSet):
    """Ladders, one per game, player count and time control, with their leaderboards."""

    serializer_class = s.LadderSerializer
    queryset = Ladder.objects.all().order_by("game", "players", "id")
    lookup_field = "slug"

    @extend_schema(responses=s.LeaderboardEntrySerializer(many=True))
    @action(detail=True)
    def leaderboard(self, request, slug=None):
        """Bots on this ladder by Elo, with OpenSkill μ/σ as the uncertainty; provisional below
        `provisional_games` games."""
        ladder = self.get_object()
        qs = (Rating.objects.filter(ladder=ladder)
              .select_related("bot__owner", "bot__active_version")
              .annotate(position=Window(RowNumber(), order_by=[F("elo").desc(), F("id").asc()]))
              .order_by("-elo", "id"))
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(s.LeaderboardEntrySerializer(page, many=True).data)


@extend_schema(parameters=[
    OpenApiParameter("ladder", str, description="ladder slug"),
    OpenApiParameter("bot", int, description="matches this bot played"),
    OpenApiParameter("status", str, enum=Match.Status.values),
    OpenApiParameter("kind", str, enum=Match.Kind.values),
    OpenApiParameter("game", str)])
class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches, newest first; detail with seats, faults, rating changes and the replay link."""

    lookup_value_regex = ID

    def get_queryset(self):
        participants = Participant.objects.select_related("bot", "version", "bot__owner").order_by("seat")
        qs = (Match.objects.select_related("ladder", "requested_by")
              .prefetch_related(Prefetch("participants", participants)).order_by("-id"))
        params = self.request.query_params
        if params.get("ladder"):
            qs = qs.filter(ladder__slug=params["ladder"])
        if (bot := int_param(self.request, "bot")) is not None:
            qs = qs.filter(participants__bot_id=bot)
        for field, values in (("status", Match.Status.values), ("kind", Match.Kind.values)):
            value = params.get(field)
            if value:
                if value not in values:
                    raise exceptions.ValidationError({field: f"one of {', '.join(values)}"})
                qs = qs.filter(**{field: value})
        if params.get("game"):
            qs = qs.filter(game=params["game"])
        return qs

    def get_serializer_class(self):
        return s.MatchDetailSerializer if self.action == "retrieve" else s.MatchSerializer

    @extend_schema(responses={(200, "application/gzip"): OpenApiTypes.BINARY})
    @action(detail=True)
    def replay(self, request, pk=None):
        """The match's replay file (`*.replay.json.gz`, see arena/replay.py)."""
        match = self.get_object()
        path = match.replay_file
        if path is None or not path.exists():
            raise exceptions.NotFound("this match has no replay (not finished, or failed)")
        return FileResponse(open(path, "rb"), as_attachment=True, filename=f"match-{match.pk}.replay.json.gz",
                            content_type="application/gzip")


class ChallengeViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Challenge matches you requested: your bot against chosen opponents on a ladder's settings. They are
    unrated, and limited to `ARENA_CHALLENGES_PER_DAY` a day."""

    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        return (Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=self.request.user)
                .select_related("ladder").prefetch_related("participants__bot", "participants__version")
                .order_by("-id"))

    def get_serializer_class(self):
        return s.ChallengeSerializer if self.action == "create" else s.MatchSerializer

    @extend_schema(responses={201: s.MatchDetailSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        quota = settings.ARENA_CHALLENGES_PER_DAY
        with transaction.atomic():
            # Lock the user's row so two simultaneous requests can't both squeeze under the quota.
            get_user_model().objects.select_for_update().get(pk=request.user.pk)
            used = Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=request.user,
                                        created_at__gte=timezone.now() - timedelta(days=1)).count()
            if used >= quota:
                return Response({"detail": f"challenge quota reached: {quota} a day; try again later"},
                                status=status.HTTP_429_TOO_MANY_REQUESTS)
            ladder = data["ladder"]
            table = [data["bot"], *data["opponents"]]
            random.shuffle(table)  # seats are drawn, as on the ladder
            match = create_match(game=ladder.game, params=ladder.game_params,
                                 time_control=ladder.time_control.to_dict(),
                                 versions=[b.playing_version.pk for b in table], ladder=ladder,
                                 kind=Match.Kind.CHALLENGE, rated=False, requested_by=request.user)
        match = self.get_queryset().get(pk=match.pk)
        return Response(s.MatchDetailSerializer(match, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)
