"""REST API of teams: `/api/teams/` (list, make, read, change, delete), their members, invitations by user name or
by link, leaving; `/api/invitations/` (yours: accept, decline, join by a link's key); `POST /api/bots/{id}/transfer/`.

Every rule is `teams.services` or `botregistry.ownership` (the web pages call the same functions); a refusal is
its message with its status (400, 403 not allowed, 404 unknown, 409 conflicting, 410 expired).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import throttles
from accounts.deletion import OwnerNameField
from api import serializers as s
from botregistry import ownership
from botregistry.models import Bot
from teams import services
from teams.models import Invitation, Membership, Team

User = get_user_model()


def refused(exc: Exception) -> Response:
    return Response({"detail": str(exc)}, status=getattr(exc, "status", 400))


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["username", "role", "joined_at"]


class TeamSerializer(serializers.ModelSerializer):
    members = MemberSerializer(source="memberships", many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "slug", "description", "created_at", "members"]
        read_only_fields = ["slug", "created_at"]
        # a taken name is teams.services' 409 (it also compares case and the address), not the model's 400
        extra_kwargs = {"name": {"validators": []}}


class TeamDetailSerializer(TeamSerializer):
    bots = s.BotDetailSerializer(many=True, read_only=True, help_text="The team's bots with their ratings.")

    class Meta(TeamSerializer.Meta):
        fields = TeamSerializer.Meta.fields + ["bots"]


class TeamUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["description"]


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.values)


class InvitationSerializer(serializers.ModelSerializer):
    team = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    invitee = serializers.CharField(source="invitee.username", read_only=True, allow_null=True, default=None)
    invited_by = OwnerNameField(allow_null=True, default=None)  # "deleted account" once gone
    link = serializers.BooleanField(source="is_link", read_only=True)

    class Meta:
        model = Invitation
        fields = ["id", "team", "invitee", "link", "key_prefix", "invited_by", "status", "created_at", "expires_at",
                  "responded_at"]


class InvitationCreateSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, max_length=150, help_text="Invite this user (they accept).")
    link = serializers.BooleanField(required=False, default=False,
                                    help_text="Make a link invitation instead: its key is in this answer only.")

    def validate(self, attrs):
        if bool(attrs.get("username")) == bool(attrs.get("link")):
            raise serializers.ValidationError(gettext("send either `username` or `link: true`"))
        return attrs


class NewLinkSerializer(InvitationSerializer):
    key = serializers.CharField(read_only=True, help_text="The link's key: shown once, never stored.")
    url = serializers.CharField(read_only=True, help_text="The web page that accepts it (/teams/join/<key>/).")

    class Meta(InvitationSerializer.Meta):
        fields = InvitationSerializer.Meta.fields + ["key", "url"]


class JoinSerializer(serializers.Serializer):
    key = serializers.CharField(max_length=128, help_text="The key of a link invitation.")


class TransferSerializer(serializers.Serializer):
    team = serializers.CharField(required=False, max_length=64, help_text="Move the bot to this team (its slug).")
    user = serializers.CharField(required=False, max_length=150,
                                 help_text="Move a team's bot to this member, as their own bot.")

    def validate(self, attrs):
        if bool(attrs.get("team")) == bool(attrs.get("user")):
            raise serializers.ValidationError(gettext("send either `team` or `user`"))
        return attrs


@extend_schema(parameters=[OpenApiParameter("mine", bool, description="only teams you belong to")])
class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Teams: anyone reads them (members with roles, bots with ratings); a signed-in user makes one (and is its
    owner); its owners change its description, delete it (once it owns no bots that play), manage members and invitations."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]{1,64}"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_throttles(self):
        # making a team or an invitation: accounts.throttles.TEAMS, per user and per address
        if self.request.method == "POST" and self.action in ("create", "invitations"):
            return [t() for t in throttles.TEAMS]
        return super().get_throttles()

    def get_queryset(self):
        qs = Team.objects.prefetch_related("memberships__user").order_by("name")
        if self.request.query_params.get("mine") in ("1", "true") and self.request.user.is_authenticated:
            qs = qs.filter(memberships__user=self.request.user)
        if self.action == "retrieve":
            qs = qs.prefetch_related("bots__owner", "bots__active_version", "bots__ratings__ladder")
        return qs

    def get_serializer_class(self):
        if self.action == "retrieve":
            return TeamDetailSerializer
        if self.action == "partial_update":
            return TeamUpdateSerializer
        return TeamSerializer

    @extend_schema(responses={201: TeamSerializer})
    def create(self, request, *args, **kwargs):
        ser = TeamSerializer(data=request.data, context=self.get_serializer_context())
        ser.is_valid(raise_exception=True)
        try:
            team = services.create_team(request.user, ser.validated_data["name"],
                                        ser.validated_data.get("description", ""))
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TeamUpdateSerializer, responses=TeamSerializer)
    def partial_update(self, request, *args, **kwargs):
        team = self.get_object()
        ser = TeamUpdateSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        try:
            services.update_team(team, request.user, ser.validated_data.get("description", team.description))
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(TeamSerializer(team).data)

    def destroy(self, request, *args, **kwargs):
        """An owner deletes the team (409 while it owns bots that play: move them to members first). Retired bots
        stay, with their matches and ratings, as a deleted team's (slug `deleted-team-<id>`); the name is freed."""
        try:
            services.delete_team(self.get_object(), request.user)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def leave(self, request, slug=None):
        """Leave the team (409 for its last owner: make another member an owner first, or delete the team)."""
        try:
            services.leave(self.get_object(), request.user)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(methods=["PATCH"], request=RoleSerializer, responses=MemberSerializer)
    @extend_schema(methods=["DELETE"], responses={204: None})
    @action(detail=True, methods=["patch", "delete"], url_path=r"members/(?P<username>[\w.@+-]{1,150})",
            permission_classes=[permissions.IsAuthenticated])
    def member(self, request, slug=None, username=None):
        """An owner changes a member's role (`owner` or `member`) or removes them (never the last owner)."""
        team = self.get_object()
        target = User.objects.filter(username=username).first()
        try:
            if target is None:
                raise services.TeamRefused(f"no user named '{username}'", status=404)
            if request.method == "DELETE":
                services.remove_member(team, request.user, target)
                return Response(status=status.HTTP_204_NO_CONTENT)
            ser = RoleSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            m = services.set_role(team, request.user, target, ser.validated_data["role"])
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(MemberSerializer(m).data)

    @extend_schema(methods=["GET"], responses=InvitationSerializer(many=True))
    @extend_schema(methods=["POST"], request=InvitationCreateSerializer,
                   responses={201: NewLinkSerializer})
    @action(detail=True, methods=["get", "post"], permission_classes=[permissions.IsAuthenticated])
    def invitations(self, request, slug=None):
        """An owner's view of the team's invitations (GET) and a new one (POST `{"username": ...}`: only that
        user can accept it; or `{"link": true}`: the answer's `key` and `url`, shown once, let whoever opens it
        first join). Both are used once and expire after `ARENA_TEAM_INVITATION_DAYS` (7) days."""
        team = self.get_object()
        if not services.is_owner(team, request.user):
            return refused(services.TeamRefused("only the team's owners can see and make invitations", status=403))
        if request.method == "GET":
            page = self.paginate_queryset(team.invitations.select_related("team", "invitee", "invited_by"))
            return self.get_paginated_response(InvitationSerializer(page, many=True).data)
        ser = InvitationCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            if ser.validated_data.get("link"):
                inv, key = services.invite_link(team, request.user)
                data = InvitationSerializer(inv).data
                data.update(key=key, url=request.build_absolute_uri(reverse("web:team-join", args=[key])))
            else:
                inv = services.invite_user(team, request.user, ser.validated_data["username"])
                data = InvitationSerializer(inv).data
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"invitations/(?P<invitation>[0-9]{1,18})",
            permission_classes=[permissions.IsAuthenticated])
    def revoke_invitation(self, request, slug=None, invitation=None):
        """An owner withdraws a pending invitation."""
        team = self.get_object()
        inv = Invitation.objects.filter(pk=invitation, team=team).select_related("team").first()
        try:
            if inv is None:
                raise services.TeamRefused("no such invitation", status=404)
            services.revoke(inv, request.user)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Invitations by user name waiting for your answer; accept or decline them; join by a link's key."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = InvitationSerializer
    lookup_value_regex = r"[0-9]{1,18}"

    def get_queryset(self):
        return services.pending_for(self.request.user).order_by("-created_at", "-id")

    def _named(self, pk) -> Invitation:
        # someone else's invitation is a 404, as an unknown one: its existence is nobody else's business
        inv = Invitation.objects.filter(pk=pk, invitee=self.request.user).select_related("team").first()  # type: ignore[misc]  # logged in
        if inv is None:
            raise exceptions.NotFound(gettext("no such invitation"))
        return inv

    @extend_schema(request=None, responses={200: MemberSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        """Join the team as a member (only the invitee; once; before it expires: 410 after)."""
        try:
            m = services.accept(self._named(pk), request.user)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(MemberSerializer(m).data)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        try:
            services.decline(self._named(pk), request.user)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=JoinSerializer, responses={200: MemberSerializer})
    @action(detail=False, methods=["post"])
    def join(self, request):
        """Join a team by a link invitation's key (the first to use it; 409 once used, 410 once expired)."""
        ser = JoinSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            key = ser.validated_data["key"]
            m = services.accept(services.by_key(key), request.user, key=key)
        except services.TeamRefused as exc:
            return refused(exc)
        return Response(MemberSerializer(m).data)


class BotTransferView(APIView):
    """`POST /api/bots/{id}/transfer/`: move a bot to a team (`{"team": slug}`; by its owner, a member of that
    team; a team bot: by an owner of its team) or a team's bot to one of the team's members (`{"user": name}`; by
    a team owner). Its versions, ratings and matches go with it. 200 with the bot."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = TransferSerializer

    @extend_schema(request=TransferSerializer, responses={200: s.BotDetailSerializer},
                   operation_id="bots_transfer_create")
    def post(self, request, pk: str):
        bot = Bot.objects.filter(pk=pk).first()
        if bot is None:
            raise exceptions.NotFound(gettext("no such bot"))
        ser = TransferSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        team = to_user = None
        if name := ser.validated_data.get("team"):
            team = Team.objects.filter(slug=name).first()
            if team is None:
                raise exceptions.NotFound(gettext("no team '%(team)s'") % {"team": name})
        else:
            to_user = User.objects.filter(username=ser.validated_data["user"]).first()
            if to_user is None:
                raise exceptions.NotFound(gettext("no user named '%(user)s'") % {"user": ser.validated_data["user"]})
        try:
            bot = ownership.transfer(bot, request.user, team=team, to_user=to_user)
        except ownership.TransferRefused as exc:
            return refused(exc)
        return Response(s.BotDetailSerializer(bot, context={"request": request}).data)
