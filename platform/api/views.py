"""REST API views. Anonymous users read; authenticated users create bots, upload versions and challenge;
only a bot's owner changes it. Every list is paginated; every client mistake is a 4xx."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import F, Prefetch, Window
from django.db.models.functions import RowNumber
from django.http import FileResponse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, parsers, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from accounts import throttles
from accounts.emails import UNVERIFIED_UPLOAD, verification_pending
from api import serializers as s
from api.permissions import IsOwnerOrReadOnly
from arena_site import objects, query
from arena_site.visibility import hidden_for
from botregistry.models import Bot, BotVersion
from botregistry.ownership import can_play, playable_by
from botregistry.services import RevalidateRefused, UploadRejected, create_version, revalidate
from ladders.leaderboard import with_version_games
from ladders.models import Ladder, Rating
from matches import botlogs
from matches.models import Match, Participant
from matches.seeds import deal_visible
from matches.suspension import ResumeRefused, resume
from matches.visibility import visible_matches
from matchmaking import challenges

ID = r"[0-9]{1,18}"  # non-numeric or absurd ids are a 404, not a database error


def int_param(request, name: str) -> int | None:
    """An id filter (`arena_site.query.parse_id`); a 400 naming the parameter when it is not one."""
    try:
        return query.parse_id(name, request.query_params.get(name))
    except query.BadParameter as exc:
        raise exceptions.ValidationError({name: str(exc)}) from None


def str_param(request, name: str, max_length: int = 150) -> str | None:
    """A text filter (`arena_site.query.parse_text`): a 400 for a NUL byte or an absurd length."""
    try:
        return query.parse_text(name, request.query_params.get(name), max_length)
    except query.BadParameter as exc:
        raise exceptions.ValidationError({name: str(exc)}) from None


@extend_schema(parameters=[
    OpenApiParameter("game", str, description="only bots of this game"),
    OpenApiParameter("owner", str, description="only bots of this username"),
    OpenApiParameter("team", str, description="only bots of this team (its slug)"),
    OpenApiParameter("mine", bool, description="only bots you play: your own and your teams'")])
class BotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                 mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Bots. Create one, then upload versions to `versions/`; the newest ready version plays."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    lookup_value_regex = ID
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = Bot.objects.select_related("owner", "team", "active_version").order_by("id")
        params = self.request.query_params
        if game := str_param(self.request, "game"):
            qs = qs.filter(game=game)
        if owner := str_param(self.request, "owner"):
            qs = qs.filter(owner__username=owner)
        if team := str_param(self.request, "team"):
            qs = qs.filter(team__slug=team)
        if params.get("mine") in ("1", "true") and self.request.user.is_authenticated:
            qs = qs.filter(pk__in=playable_by(self.request.user).values("pk"))  # your own and your teams' bots
        if self.action == "retrieve":
            hidden = hidden_for(self.request.user).ladders  # a private competition's ladder
            qs = qs.prefetch_related(Prefetch("ratings", Rating.objects.select_related("ladder")
                                              .exclude(ladder_id__in=hidden)))
        return qs

    def get_throttles(self):
        if self.action == "versions" and self.request.method == "POST":
            return [t() for t in throttles.UPLOAD]  # per user and per address: accounts.throttles
        return super().get_throttles()

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
            page = self.paginate_queryset(bot.versions.select_related("bot", "uploaded_by").order_by("-number"))
            data = s.VersionSerializer(page, many=True, context=self.get_serializer_context()).data
            return self.get_paginated_response(data)
        if verification_pending(request.user):  # accounts.emails: code runs here once an address is verified
            raise exceptions.PermissionDenied(UNVERIFIED_UPLOAD)
        limit = settings.ARENA_UPLOAD_MAX_BYTES
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if declared.isdigit() and int(declared) > limit + 64 * 1024:  # refuse before receiving the body
            return Response({"detail": gettext("the upload is %(size)s MB; uploads are limited to %(limit)s MB") % {
                "size": f"{int(declared) / 1e6:.1f}", "limit": limit // (1024 * 1024)}}, status=status.HTTP_400_BAD_REQUEST)
        upload = request.FILES.get("archive")
        if upload is None:
            raise exceptions.ValidationError({"archive": gettext("send the bot as a multipart file field 'archive'")})
        try:
            version = create_version(bot, upload, size=upload.size, filename=upload.name or "",
                                     uploaded_by=request.user)
        except UploadRejected as exc:
            return Response({"archive": [str(exc)], "detail": str(exc)}, status=exc.status)
        return Response(s.VersionSerializer(version, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)


class VersionViewSet(viewsets.ReadOnlyModelViewSet):
    """Bot versions: status, reason, manifest; the validation log for the owner."""

    serializer_class = s.VersionSerializer
    queryset = BotVersion.objects.select_related("bot", "uploaded_by").order_by("id")
    lookup_value_regex = ID

    def get_throttles(self):
        if self.action == "revalidate":  # each one may cost a whole build time-out on a worker: counted as uploads
            return [t() for t in throttles.UPLOAD]
        return super().get_throttles()

    @extend_schema(request=None, responses={202: s.VersionSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def revalidate(self, request, pk=None):
        """POST (owner): validate this version again as it is, when it failed for a transient reason (its build
        timed out: the bot's build cache kept what it compiled; or the server could not validate it). 202 with
        the version, now pending; 409 for any other version (fix the bot and upload a new version)."""
        return self._owners_change(request, revalidate, RevalidateRefused, gettext_lazy(
            "only the bot's owner (a team bot: the team's members) can validate its versions again"),
                                   status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={200: s.VersionSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def resume(self, request, pk=None):
        """POST (owner): a version suspended for its faults plays again as it is, when its owner finds the
        faults were not the bot's doing; the suspension rule then counts only the matches it finishes from now
        on (matches.suspension). 200 with the version, now ready; 409 for a version that is not suspended."""
        return self._owners_change(request, resume, ResumeRefused, gettext_lazy(
            "only the bot's owner (a team bot: the team's members) can resume its versions"), status.HTTP_200_OK)

    def _owners_change(self, request, change, refused: type[Exception], forbidden: Any, done: int) -> Response:
        """An owner's change of this version's status (`change(version)`): 403 with `forbidden` for anyone else,
        409 with the reason when `change` raises `refused`, else `done` with the version."""
        version = self.get_object()
        if not can_play(request.user, version.bot):
            raise exceptions.PermissionDenied(str(forbidden))
        try:
            version = change(version)
        except refused as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return Response(s.VersionSerializer(version, context=self.get_serializer_context()).data, status=done)


class LadderViewSet(viewsets.ReadOnlyModelViewSet):
    """Ladders, one per game, player count and time control, with their leaderboards."""

    serializer_class = s.LadderSerializer
    queryset = Ladder.objects.all().order_by("game", "players", "id")

    def get_queryset(self):  # a private competition's ladder is seen by its organizers and entrants only
        return super().get_queryset().exclude(pk__in=hidden_for(self.request.user).ladders)
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]{1,100}"  # a slug: anything else (a NUL byte...) is a 404, not a 500

    @extend_schema(responses=s.LeaderboardEntrySerializer(many=True))
    @action(detail=True)
    def leaderboard(self, request, slug=None):
        """Bots on this ladder by their fitted rating, with its 95% interval (`rating_low`, `rating_high`);
        provisional below `provisional_games` games. `elo` (incremental) and OpenSkill's μ/σ are kept for
        reference."""
        ladder = self.get_object()
        qs = (with_version_games(Rating.objects.filter(ladder=ladder, bot__retired_at__isnull=True))  # retired: gone
              .select_related("bot__owner", "bot__team", "bot__active_version")
              .annotate(position=Window(RowNumber(), order_by=[F("rating").desc(), F("id").asc()]))
              .order_by("-rating", "id"))
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
        participants = Participant.objects.select_related("bot", "version", "bot__owner", "bot__team").order_by("seat")
        qs = (visible_matches(Match.objects.select_related("ladder", "requested_by"), self.request.user)
              .prefetch_related(Prefetch("participants", participants)).order_by("-id"))
        params = self.request.query_params
        if ladder := str_param(self.request, "ladder"):
            qs = qs.filter(ladder__slug=ladder)
        if (bot := int_param(self.request, "bot")) is not None:
            qs = qs.filter(participants__bot_id=bot)
        for field, values in (("status", Match.Status.values), ("kind", Match.Kind.values)):
            value = params.get(field)
            if value:
                if value not in values:
                    raise exceptions.ValidationError({field: f"one of {', '.join(values)}"})
                qs = qs.filter(**{field: value})
        if game := str_param(self.request, "game"):
            qs = qs.filter(game=game)
        return qs

    def get_serializer_class(self):
        return s.MatchDetailSerializer if self.action == "retrieve" else s.MatchSerializer

    @extend_schema(responses={(200, "application/gzip"): OpenApiTypes.BINARY})
    @action(detail=True)
    def replay(self, request, pk=None):
        """The match's replay file (`*.replay.json.gz`, see arena/replay.py)."""
        match = self.get_object()
        if not objects.exists(match.replay_path):
            raise exceptions.NotFound(gettext("this match has no replay (not finished, or failed)"))
        if not deal_visible(match, request.user):
            # a duplicate set's other rotations (or the other game of a version-test pair) still play this deal
            raise exceptions.PermissionDenied(gettext("this replay is shown once every match played with its seed is over"))
        # streamed from storage through this view (not a redirect to a presigned URL): the check above holds at
        # every download and the bucket stays private
        return FileResponse(objects.storage().open(match.replay_path, "rb"), as_attachment=True,
                            filename=f"match-{match.pk}.replay.json.gz", content_type="application/gzip")

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True)
    def logs(self, request, pk=None):
        """The bots' own logs, by turn: for each seat whose bot you own (all seats for staff) what it printed
        (`startup`, `decisions[].output`, `end`) and its annotations; for a bot whose owner made its annotations
        public, its annotations only. Other seats are left out. See arena/botlogs.py."""
        match = self.get_object()
        try:
            return Response(botlogs.visible(match, request.user))
        except botlogs.NoLogs as exc:
            raise exceptions.NotFound(str(exc)) from None
        except botlogs.LogsHidden as exc:
            raise exceptions.PermissionDenied(str(exc)) from None

    @extend_schema(operation_id="matches_seat_logs_retrieve", responses={(200, "text/plain"): OpenApiTypes.STR})
    @action(detail=True, url_path=r"logs/(?P<seat>[0-9]{1,3})")
    def seat_logs(self, request, pk=None, seat=None):
        """One seat's whole log as a text file (its owner and staff only; seats are 0-based here)."""
        from django.http import HttpResponse

        match = self.get_object()
        try:
            name, text = botlogs.seat_text(match, request.user, int(seat))
        except botlogs.NoLogs as exc:
            raise exceptions.NotFound(str(exc)) from None
        except PermissionError as exc:  # LogsHidden too
            raise exceptions.PermissionDenied(str(exc)) from None
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class ChallengeViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Challenge matches you requested: your bot against chosen opponents on a ladder's settings. They are
    unrated, and limited to `ARENA_CHALLENGES_PER_DAY` a day."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        if self.action == "create":
            return [t() for t in throttles.CHALLENGE]  # bursts, per user and per address; the daily quota below
        return super().get_throttles()

    def get_queryset(self):
        return (Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=self.request.user)  # type: ignore[misc]  # logged in
                .select_related("ladder").prefetch_related("participants__bot", "participants__version")
                .order_by("-id"))

    def get_serializer_class(self):
        return s.ChallengeSerializer if self.action == "create" else s.MatchSerializer

    @extend_schema(responses={201: s.MatchDetailSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            match = challenges.create_challenge(request.user, data["ladder"], data["bot"], data["opponents"])
        except challenges.ChallengeQuotaReached as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        match = self.get_queryset().get(pk=match.pk)
        return Response(s.MatchDetailSerializer(match, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)
