"""REST API at /api/version-tests/: an owner starts a test of two ready versions of their bot (POST) and may
stop it (POST …/{id}/stop/); anyone reads tests, their SPRT state and their pairs."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from accounts import throttles
from accounts.deletion import OwnerNameField
from arena_site import query
from arena_site.visibility import hidden_for
from botregistry.models import BotVersion
from botregistry.ownership import can_play
from ladders.models import Ladder, Rating
from matches.seeds import is_staff

from . import services, stats
from .models import Pair, VersionTest

MAX_PAIRS_LIMIT = 2000


class PairSerializer(serializers.ModelSerializer):
    seed = serializers.SerializerMethodField(
        help_text="The deal both games of the pair play: null until both are over (staff: always).")

    class Meta:
        model = Pair
        fields = ["number", "seed", "seat", "match_a", "match_b", "score", "void"]

    def get_seed(self, pair: Pair) -> int | None:
        user = getattr(self.context.get("request"), "user", None)
        if is_staff(user):
            return pair.seed
        matches = [m for m in (pair.match_a, pair.match_b) if m is not None]
        return pair.seed if matches and all(m.done for m in matches) else None


class VersionTestSerializer(serializers.ModelSerializer):
    version_a = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.select_related("bot"))
    version_b = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.select_related("bot"))
    ladder = serializers.PrimaryKeyRelatedField(queryset=Ladder.objects.all())
    elo0 = serializers.FloatField(default=stats.DEFAULT_ELO0, min_value=-1000, max_value=1000)
    elo1 = serializers.FloatField(default=stats.DEFAULT_ELO1, min_value=-1000, max_value=1000)
    max_pairs = serializers.IntegerField(default=stats.DEFAULT_MAX_PAIRS, min_value=1, max_value=MAX_PAIRS_LIMIT)
    promote = serializers.BooleanField(default=False,
                                       help_text="When the test ends accepted, make version B the bot's active "
                                                 "version (its ratings widen as on any version change).")
    owner = OwnerNameField()
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    number_a = serializers.IntegerField(source="version_a.number", read_only=True)
    number_b = serializers.IntegerField(source="version_b.number", read_only=True)
    lower = serializers.FloatField(read_only=True)
    upper = serializers.FloatField(read_only=True)
    sprt_estimate = serializers.SerializerMethodField(
        help_text="For a test the SPRT stopped (accepted/rejected): fishtest's median-unbiased Elo of B over A "
                  "(head-to-head Elo, as elo0/elo1 and `result`), "
                  "its 95% interval and LOS ({elo, elo_low, elo_high, los}); null otherwise. `result` holds the "
                  "plain estimates, which an early stop biases.")

    class Meta:
        model = VersionTest
        fields = ["id", "owner", "bot", "bot_name", "version_a", "number_a", "version_b", "number_b", "ladder",
                  "elo0", "elo1", "max_pairs", "promote", "status", "status_reason", "pairs", "void_pairs", "counts",
                  "llr", "lower", "upper", "result", "sprt_estimate", "created_at", "finished_at"]
        read_only_fields = ["bot", "status", "status_reason", "pairs", "void_pairs", "counts", "llr", "result",
                            "created_at", "finished_at"]

    def get_sprt_estimate(self, test: VersionTest) -> dict | None:
        # computed on read: cheap (a few hundred closed-form evaluations), and only the counts are needed
        if test.status not in (VersionTest.Status.ACCEPTED, VersionTest.Status.REJECTED):
            return None
        estimate = stats.head_to_head_estimate(test.counts, test.elo0, test.elo1)
        return estimate.to_dict() if estimate else None

    def create(self, validated):
        user = self.context["request"].user
        a, b = validated["version_a"], validated["version_b"]
        if not (can_play(user, a.bot) and can_play(user, b.bot)):
            raise PermissionDenied(gettext("only the bot's owner (a team bot: the team's members) can test its versions"))
        ladder = validated["ladder"]
        if ladder.pk in hidden_for(user).ladders:
            raise serializers.ValidationError({"ladder": f'Invalid pk "{ladder.pk}" - object does not exist.'})
        if not ladder.listed and not Rating.objects.filter(ladder=ladder, bot=a.bot).exists():
            # a competition's ladder: its opponents are its entries, so only an entry tests there
            raise serializers.ValidationError({"ladder": "only a bot entered in this competition tests on its ladder"})
        try:
            return services.create(owner=user, version_a=a, version_b=b, ladder=validated["ladder"],
                                   elo0=validated["elo0"], elo1=validated["elo1"], max_pairs=validated["max_pairs"],
                                   promote=validated["promote"])
        except services.TestRefused as exc:
            raise serializers.ValidationError({"detail": str(exc)}) from None


class VersionTestDetailSerializer(VersionTestSerializer):
    pair_list = PairSerializer(source="pair_set", many=True, read_only=True)

    class Meta(VersionTestSerializer.Meta):
        fields = VersionTestSerializer.Meta.fields + ["pair_list"]


class OwnerStartsAnyoneReads(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        # anyone who may play its bot now (its owner; a team bot: the team's members)
        return request.method in permissions.SAFE_METHODS or can_play(request.user, obj.bot)


class VersionTestViewSet(mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                         viewsets.GenericViewSet):
    permission_classes = [OwnerStartsAnyoneReads]

    def get_throttles(self):
        if self.action == "create":
            return [t() for t in throttles.VERSION_TEST]  # per user and per address (accounts.throttles)
        return super().get_throttles()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI schema's generation: no request, no user
            return VersionTest.objects.none()
        qs = (VersionTest.objects.select_related("owner", "bot", "version_a", "version_b")
              .exclude(ladder_id__in=hidden_for(self.request.user).ladders))
        try:
            bot = query.parse_id("bot", self.request.query_params.get("bot"))
        except query.BadParameter as exc:
            raise serializers.ValidationError({"bot": str(exc)}) from None
        if bot is not None:
            qs = qs.filter(bot=bot)
        status_ = self.request.query_params.get("status")
        if status_:
            if status_ not in VersionTest.Status.values:
                raise serializers.ValidationError({"status": f"one of {', '.join(VersionTest.Status.values)}"})
            qs = qs.filter(status=status_)
        if self.action == "retrieve":
            qs = qs.prefetch_related("pair_set__match_a", "pair_set__match_b")
        return qs

    def get_serializer_class(self):
        return VersionTestDetailSerializer if self.action == "retrieve" else VersionTestSerializer

    @action(detail=True, methods=["post"])
    def stop(self, request, pk=None):
        test = self.get_object()
        services.stop(test.pk)
        test.refresh_from_db()
        return Response(VersionTestSerializer(test, context={"request": request}).data, status=status.HTTP_200_OK)
