"""REST API of competitions (mounted at /api/competitions/) and of the public ladders' seasons (/api/seasons/).

Anyone reads the competitions they may see (a private one: its organizers and entrants only; to everyone else
it does not exist, a 404); organizers create and run theirs; a logged-in user enters their bot (or their
team's). The result is shown once published (organizers: as soon as the final is over)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from accounts.deletion import display_name
from botregistry.models import Bot
from ladders.models import Ladder
from teams.models import Team

from . import archive, rules_text, seasons, services
from .models import Competition, Entry, Season
from .visibility import organizes, visible_competitions, with_key

User = get_user_model()


def refused(exc: services.Refused) -> exceptions.APIException:
    """A `services.Refused` as the API's error (400 with the field, 401, 403, 404 or 409 with the reason)."""
    if exc.status == 400:
        return exceptions.ValidationError({exc.field or "detail": str(exc)})
    err = exceptions.APIException(str(exc))
    err.status_code = exc.status
    return err


class CompetitionEntrySerializer(serializers.ModelSerializer):
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    entrant = serializers.SerializerMethodField()
    team: serializers.SlugRelatedField = serializers.SlugRelatedField(source="entrant_team", slug_field="slug",
                                                                      read_only=True)
    locked_version = serializers.IntegerField(source="locked_version.number", read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = ["id", "bot", "bot_name", "entrant", "team", "locked_version", "lock_note", "disqualified_reason",
                  "disqualified_at", "created_at"]

    def get_entrant(self, e: Entry) -> str:
        return e.entrant_team.name if e.entrant_team else display_name(e.entrant_user)


class CompetitionSerializer(serializers.ModelSerializer):
    phase = serializers.SerializerMethodField()
    rules_html = serializers.SerializerMethodField(help_text="The rules rendered from Markdown, sanitized.")
    ladder: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, help_text="Its own ladder: /api/ladders/{slug}/leaderboard/.")
    organizer_names = serializers.SerializerMethodField()
    invited_users = serializers.SlugRelatedField(slug_field="username", many=True, required=False,
                                                 queryset=User.objects.filter(is_active=True))
    invited_teams = serializers.SlugRelatedField(slug_field="slug", many=True, required=False,
                                                 queryset=Team.objects.all())
    entries_count = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        fields = ["slug", "title", "description", "rules", "rules_html", "game", "players", "params",
                  "decision_ms", "bank_ms", "startup_ms", "max_faults", "entries_open_at", "deadline", "final_at",
                  "results_at", "policy", "invited_users", "invited_teams", "entries_per_entrant", "final_format",
                  "final_duplicate", "final_games_per_pairing", "final_rounds", "private", "phase", "ladder",
                  "final", "locked_at", "results_published_at", "cancelled_reason", "organizer_names",
                  "entries_count", "created_at"]
        read_only_fields = ["final", "locked_at", "results_published_at", "cancelled_reason", "created_at"]

    def get_phase(self, c: Competition) -> str:
        return c.phase()

    def get_rules_html(self, c: Competition) -> str:
        return rules_text.render(c.rules)

    def get_organizer_names(self, c: Competition) -> list[str]:
        return [u.username for u in c.organizers.all()]

    def get_entries_count(self, c: Competition) -> int:
        return c.entries.count()

    def to_representation(self, c: Competition) -> dict[str, Any]:
        data = super().to_representation(c)
        if not organizes(getattr(self.context.get("request"), "user", None), c):
            data.pop("invited_users")  # who is on the list is the organizers' business
            data.pop("invited_teams")
        return data


class CompetitionCreateSerializer(CompetitionSerializer):
    slug = serializers.SlugField(max_length=56)

    class Meta(CompetitionSerializer.Meta):
        read_only_fields = CompetitionSerializer.Meta.read_only_fields


class EnterSerializer(serializers.Serializer):
    bot = serializers.PrimaryKeyRelatedField(queryset=Bot.objects.all(), help_text="Your bot (or your team's).")
    key = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                help_text="The invitation link's key (policy `link`).")


class DisqualifySerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, help_text="Shown publicly with the entry.")


class InviteLinkSerializer(serializers.Serializer):
    key = serializers.CharField()
    url = serializers.CharField()


class CompetitionResultRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField()
    bot_id = serializers.IntegerField()
    bot = serializers.CharField()
    entrant = serializers.CharField()
    team = serializers.BooleanField()
    version = serializers.IntegerField(allow_null=True)
    version_sha256 = serializers.CharField()
    points = serializers.FloatField(allow_null=True)
    buchholz = serializers.FloatField(allow_null=True)
    wins = serializers.IntegerField(allow_null=True)
    units = serializers.IntegerField(allow_null=True)
    score_total = serializers.FloatField(allow_null=True)
    final_rank = serializers.IntegerField(allow_null=True)
    disqualified_reason = serializers.CharField()
    note = serializers.CharField()


class CompetitionResultSerializer(serializers.Serializer):
    competition = serializers.CharField()
    title = serializers.CharField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    deadline = serializers.CharField()
    final = serializers.IntegerField(allow_null=True)
    published_at = serializers.CharField(allow_null=True)
    tie_break = serializers.CharField()
    standings = CompetitionResultRowSerializer(many=True)


class LoggedInWrites(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class CompetitionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                         mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Competitions: create (organizers), read (anyone who may see them), change (their organizers), enter."""

    permission_classes = [LoggedInWrites]
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]{1,64}"

    def get_queryset(self):
        return (visible_competitions(self.request.user).select_related("ladder", "final")
                .prefetch_related("organizers").order_by("-deadline", "-id"))

    def get_serializer_class(self):
        return CompetitionCreateSerializer if self.action == "create" else CompetitionSerializer

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        users, teams = data.pop("invited_users", []), data.pop("invited_teams", [])
        try:
            c = services.create(self.request.user, **data)
        except services.Refused as exc:
            raise refused(exc) from None
        c.invited_users.set(users)
        c.invited_teams.set(teams)
        serializer.instance = c

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        users, teams = data.pop("invited_users", None), data.pop("invited_teams", None)
        try:
            c = services.update(serializer.instance, self.request.user, **data)
        except services.Refused as exc:
            raise refused(exc) from None
        if users is not None:
            c.invited_users.set(users)
        if teams is not None:
            c.invited_teams.set(teams)
        serializer.instance = c

    @extend_schema(request=EnterSerializer, responses={201: CompetitionEntrySerializer})
    @action(detail=True, methods=["post"])
    def enter(self, request, slug=None):
        """Enter a bot (yours, or your team's for the team) while entries are open. A private competition's
        invitation link's key lets its holder in (the competition is a 404 to them otherwise)."""
        ser = EnterSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        key = ser.validated_data.get("key", "")
        c = self.get_queryset().filter(slug=slug).first() or with_key(key).filter(slug=slug).first()
        if c is None:
            raise exceptions.NotFound("No Competition matches the given query.")
        try:
            entry = services.enter(c, request.user, ser.validated_data["bot"], key=key)
        except services.Refused as exc:
            raise refused(exc) from None
        return Response(CompetitionEntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=CompetitionEntrySerializer(many=True))
    @action(detail=True)
    def entries(self, request, slug=None):
        """The entries, with their locked versions after the deadline and any disqualification's reason."""
        c = self.get_object()
        rows = c.entries.select_related("bot", "entrant_team", "entrant_user", "locked_version")
        return Response(CompetitionEntrySerializer(rows, many=True).data)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,12})/withdraw")
    def withdraw(self, request, slug=None, entry_id=None):
        """Withdraw an entry before the deadline (its entrant or an organizer)."""
        entry = self._entry(entry_id)
        try:
            services.withdraw(entry, request.user)
        except services.Refused as exc:
            raise refused(exc) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=DisqualifySerializer, responses={200: CompetitionEntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,12})/disqualify")
    def disqualify(self, request, slug=None, entry_id=None):
        """Disqualify an entry with a public reason (organizers)."""
        entry = self._entry(entry_id)
        ser = DisqualifySerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            entry = services.disqualify(entry, request.user, ser.validated_data["reason"])
        except services.Refused as exc:
            raise refused(exc) from None
        return Response(CompetitionEntrySerializer(entry).data)

    def _entry(self, entry_id: Any) -> Entry:
        c = self.get_object()
        entry = c.entries.select_related("bot", "competition").filter(pk=int(entry_id)).first()
        if entry is None:
            raise exceptions.NotFound(gettext("no such entry"))
        return entry

    @extend_schema(request=None, responses={201: InviteLinkSerializer, 204: None})
    @action(detail=True, methods=["post", "delete"], url_path="invite-link")
    def invite_link(self, request, slug=None):
        """POST: a new invitation link (the old one stops working; the key is shown once, only its digest is
        kept). DELETE: revoke the link."""
        c = self.get_object()
        try:
            if request.method == "DELETE":
                services.revoke_invite_link(c, request.user)
                return Response(status=status.HTTP_204_NO_CONTENT)
            key = services.new_invite_link(c, request.user)
        except services.Refused as exc:
            raise refused(exc) from None
        return Response({"key": key, "url": request.build_absolute_uri(f"/competitions/{c.slug}/?key={key}")},
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: CompetitionSerializer})
    @action(detail=True, methods=["post"])
    def publish(self, request, slug=None):
        """Publish the result now (organizers; the final must be over)."""
        c = self.get_object()
        try:
            services.publish(c, request.user)
        except services.Refused as exc:
            raise refused(exc) from None
        c.refresh_from_db()
        return Response(CompetitionSerializer(c, context=self.get_serializer_context()).data)

    @extend_schema(responses={200: CompetitionResultSerializer})
    @action(detail=True)
    def results(self, request, slug=None):
        """The result (JSON; `results-csv` beside it): 404 until the final is over, 403 while it is held."""
        return Response(archive.as_json(self._result(request)))

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, url_path="results-csv")
    def results_csv(self, request, slug=None):
        """The result as CSV (the same rows as `results`)."""
        c = self._result(request)
        resp = HttpResponse(archive.as_csv(c), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{c.slug}-results.csv"'
        return resp

    def _result(self, request) -> Competition:
        c = self.get_object()
        if c.result is None:
            raise exceptions.NotFound(gettext("the final is not over yet"))
        if not services.results_visible(c, request.user):
            raise exceptions.PermissionDenied(gettext("the results are held until the organizers publish them"))
        return c


class SeasonSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", queryset=Ladder.objects.filter(listed=True))
    table = serializers.JSONField(read_only=True)

    class Meta:
        model = Season
        fields = ["id", "ladder", "number", "started_at", "closed_at", "table"]
        read_only_fields = ["number", "started_at", "closed_at", "table"]


class StaffWritesAnyoneReads(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_staff)


class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    viewsets.GenericViewSet):
    """Closed seasons of the public ladders, with their final tables. POST (staff) closes the ladder's current
    season: its table is kept and its ratings start again (`competitions.seasons`)."""

    serializer_class = SeasonSerializer
    permission_classes = [StaffWritesAnyoneReads]
    lookup_value_regex = r"[0-9]{1,12}"

    def get_queryset(self):
        qs = Season.objects.select_related("ladder").order_by("ladder_id", "-number")
        if ladder := self.request.query_params.get("ladder"):
            qs = qs.filter(ladder__slug=ladder[:64])
        return qs

    def perform_create(self, serializer):
        serializer.instance = seasons.close_season(serializer.validated_data["ladder"], self.request.user,
                                                   timezone.now())

