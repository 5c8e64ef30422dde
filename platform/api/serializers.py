"""The API's representations of accounts, bots, versions, ladders, ratings, matches and challenges."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from accounts.deletion import OwnerNameField
from accounts.names import impersonation, protected_names
from arena_site.visibility import hidden_for
from botregistry import reasons
from botregistry.models import Bot, BotVersion
from botregistry.ownership import can_play, retired_why
from botregistry.services import set_active_version
from ladders.models import Ladder, Rating, VersionRating
from matches import seeds
from matches.models import Match, Participant
from matches.seeds import visible_seed

User = get_user_model()


def game_choices() -> list[str]:
    from arena.games import names
    return names()


class ReasonFields(serializers.Serializer):
    """A version's status reason in the request's language (`Accept-Language`), and as codes and parameters for a
    program to read (botregistry.reasons)."""

    status_reason = serializers.SerializerMethodField(
        help_text="Why the version failed or was suspended, in the request's language (Accept-Language).")
    status_reason_codes = serializers.SerializerMethodField(
        help_text="The same reasons as codes and parameters (arena.reasons); [] for a reason stored in words only.")

    def get_status_reason(self, version: BotVersion) -> str:
        return reasons.shown(version)

    @extend_schema_field({"type": "array", "items": {"type": "object"}})
    def get_status_reason_codes(self, version: BotVersion) -> list[dict]:
        return reasons.codes(version)


class VersionBriefSerializer(ReasonFields, serializers.ModelSerializer):
    class Meta:
        model = BotVersion
        fields = ["id", "number", "status", "status_reason", "status_reason_codes", "runtime", "sha256", "created_at"]


class VersionSerializer(ReasonFields, serializers.ModelSerializer):
    bot = serializers.PrimaryKeyRelatedField(read_only=True)
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    uploaded_by = OwnerNameField(allow_null=True, help_text=(
        "The user name of who uploaded it (\"deleted account\" once deleted; null if unknown)."))
    validation_log = serializers.SerializerMethodField(
        help_text="The log of the validation match (the bot's owner and staff only).")

    class Meta:
        model = BotVersion
        fields = ["id", "bot", "bot_name", "number", "status", "status_reason", "status_reason_codes", "runtime",
                  "manifest", "sha256",
                  "archive_sha256", "archive_size", "uploaded_by", "created_at", "validated_at", "suspended_at",
                  "validation_log"]

    def get_validation_log(self, version: BotVersion) -> str | None:
        user = self.context["request"].user
        if user.is_authenticated and (user.is_staff or can_play(user, version.bot)):
            return version.validation_log
        return None


@extend_schema_field(OpenApiTypes.BINARY)
class ArchiveField(serializers.FileField):
    """An uploaded file, typed in the OpenAPI schema as the file it is (binary), not as the URI a stored file
    field reads back as: clients generated from the schema send the bytes."""


class UploadSerializer(serializers.Serializer):
    archive = ArchiveField(help_text="The bot as a .zip or .tar.gz with bot.toml at its top level.")


class VersionRatingSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="version.number", read_only=True)

    class Meta:
        model = VersionRating
        fields = ["version", "rating", "rating_interval", "games", "fitted_at"]


class BotRatingSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    provisional = serializers.BooleanField(read_only=True)
    rating = serializers.FloatField(read_only=True, help_text="The bot's rating: its active version's, fitted "
                                                               "(the leaderboard's), Elo scale.")
    rating_interval = serializers.FloatField(read_only=True, allow_null=True,
                                             help_text="Half-width of `rating`'s 95% interval; null before a fit.")
    elo = serializers.FloatField(read_only=True, help_text="Incremental Elo over all versions (no interval; not "
                                                            "the rating).")
    versions = serializers.SerializerMethodField(help_text="Each version's own fitted rating on this ladder.")

    class Meta:
        model = Rating
        fields = ["ladder", "rating", "rating_interval", "versions", "elo", "mu", "sigma", "games", "wins",
                  "provisional", "last_played_at"]

    @extend_schema_field(VersionRatingSerializer(many=True))
    def get_versions(self, rating: Rating) -> list[dict]:
        rows = VersionRating.objects.filter(ladder_id=rating.ladder_id, version__bot_id=rating.bot_id
                                            ).select_related("version").order_by("version__number")
        return list(VersionRatingSerializer(rows, many=True).data)


class BotSerializer(serializers.ModelSerializer):
    owner = OwnerNameField(help_text="The owner's user name (\"deleted account\" once deleted).")
    team = serializers.SlugRelatedField(slug_field="slug", read_only=True,
                                        help_text="The slug of the team that owns the bot (null: its owner's own).")
    game = serializers.ChoiceField(choices=[])
    active_version = VersionBriefSerializer(read_only=True)
    status = serializers.SerializerMethodField(help_text="Whether the bot plays, and if not, why.")

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "description", "owner", "team", "builtin", "active_version", "status",
                  "public_annotations", "dataset_opt_out", "people_may_play", "created_at"]
        read_only_fields = ["builtin", "created_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()  # type: ignore[attr-defined]  # a ChoiceField

    def validate_name(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError(gettext("a bot needs a name"))
        request = self.context["request"]
        if not request.user.is_staff and (reason := impersonation(value, protected_names())):
            raise serializers.ValidationError(reason)
        taken = Bot.objects.filter(owner=request.user, name=value)
        if self.instance is not None:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise serializers.ValidationError(gettext("you already have a bot with this name"))
        return value

    def get_status(self, bot: Bot) -> str:
        if bot.retired_at is not None:
            return f"retired: {retired_why(bot)}"  # its owner deleted their account, staff…
        version = bot.active_version
        if version is None:
            return "no ready version yet: upload one"
        if version.status == BotVersion.Status.READY:
            return f"playing version {version.number}"
        return f"version {version.number} is {version.status}: {reasons.shown(version)}"


class BotDetailSerializer(BotSerializer):
    ratings = BotRatingSerializer(many=True, read_only=True)

    class Meta(BotSerializer.Meta):
        fields = BotSerializer.Meta.fields + ["ratings"]


class BotUpdateSerializer(serializers.ModelSerializer):
    """What an owner may change: the description and which ready version plays."""

    active_version = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.all(), required=False)

    class Meta:
        model = Bot
        fields = ["description", "active_version", "public_annotations", "dataset_opt_out", "people_may_play"]

    def validate_active_version(self, version: BotVersion) -> BotVersion:
        if version.bot_id != self.instance.pk:  # type: ignore[union-attr]  # an update: the bot is there
            raise serializers.ValidationError(gettext("this version belongs to another bot"))
        if version.status != BotVersion.Status.READY:
            raise serializers.ValidationError(gettext("version %(number)s is %(status)s, not ready") % {
                "number": version.number, "status": version.get_status_display().lower()})
        return version

    def update(self, bot: Bot, validated: dict) -> Bot:
        version = validated.pop("active_version", None)
        bot = super().update(bot, validated)
        if version is not None:
            set_active_version(bot, version)  # a different version widens the bot's ratings
        return bot


class LadderSerializer(serializers.ModelSerializer):
    time_control = serializers.SerializerMethodField()
    leaderboard_url = serializers.SerializerMethodField()

    class Meta:
        model = Ladder
        fields = ["id", "slug", "name", "game", "players", "params", "time_control", "active", "leaderboard_url"]

    def get_time_control(self, ladder: Ladder) -> dict:
        return ladder.time_control.to_dict()

    def get_leaderboard_url(self, ladder: Ladder) -> str:
        return reverse("api:ladder-leaderboard", kwargs={"slug": ladder.slug})


class LeaderboardEntrySerializer(serializers.ModelSerializer):
    position = serializers.IntegerField(read_only=True)
    bot = serializers.IntegerField(source="bot_id", read_only=True)
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    owner = OwnerNameField(source="bot.owner")
    team = serializers.CharField(source="bot.team.slug", read_only=True, allow_null=True, default=None,
                                 help_text="The slug of the team that owns the bot, if any.")
    builtin = serializers.BooleanField(source="bot.builtin", read_only=True)
    version = serializers.IntegerField(source="bot.active_version.number", read_only=True, allow_null=True,
                                       default=None)
    rating = serializers.SerializerMethodField(
        help_text="The leaderboard rating: the active version's maximum-likelihood fit over the ladder's rated "
                  "games (each version rated as itself), Elo scale, the ladder's average bot at 1500 (refitted "
                  "about every minute).")
    rating_low = serializers.SerializerMethodField(help_text="95% interval of `rating`; null before its first fit.")
    rating_high = serializers.SerializerMethodField(help_text="95% interval of `rating`; null before its first fit.")
    elo = serializers.SerializerMethodField(help_text="Incremental Elo (moved by each match; no interval).")
    ordinal = serializers.FloatField(read_only=True, help_text="OpenSkill's μ − 3σ.")
    provisional = serializers.BooleanField(read_only=True)
    version_games = serializers.IntegerField(
        read_only=True, help_text="Rated games on this ladder of the version `rating` is of (the active one); "
                                  "`games` and `wins` count every version's.")

    class Meta:
        model = Rating
        fields = ["position", "bot", "bot_name", "owner", "team", "builtin", "version", "rating", "rating_low",
                  "rating_high", "elo", "mu", "sigma", "ordinal", "version_games", "games", "wins", "provisional",
                  "last_played_at"]

    def get_rating(self, rating: Rating) -> float:
        return round(rating.rating, 1)

    def get_rating_low(self, rating: Rating) -> float | None:
        return None if rating.rating_interval is None else round(rating.rating - rating.rating_interval, 1)

    def get_rating_high(self, rating: Rating) -> float | None:
        return None if rating.rating_interval is None else round(rating.rating + rating.rating_interval, 1)

    def get_elo(self, rating: Rating) -> float:
        return round(rating.elo, 1)


class ParticipantBriefSerializer(serializers.ModelSerializer):
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    version_number = serializers.IntegerField(source="version.number", read_only=True)

    class Meta:
        model = Participant
        fields = ["seat", "bot", "bot_name", "version", "version_number", "score", "rank", "disqualified"]


class ParticipantSerializer(ParticipantBriefSerializer):
    owner = OwnerNameField(source="bot.owner")
    team = serializers.CharField(source="bot.team.slug", read_only=True, allow_null=True, default=None,
                                 help_text="The slug of the team that owns the bot, if any.")
    elo_change = serializers.FloatField(read_only=True, allow_null=True)
    faults = serializers.SerializerMethodField(
        help_text="[{kind, message, decision, turn}]: `turn` is the replay viewer's turn (decision + 1; null for a "
                  "fault outside a decision, e.g. at start-up).")

    class Meta(ParticipantBriefSerializer.Meta):
        fields = ParticipantBriefSerializer.Meta.fields + [
            "owner", "team", "faults", "time_ms", "decisions", "elo_before", "elo_after", "elo_change", "mu_before",
            "mu_after", "sigma_before", "sigma_after"]

    def get_faults(self, p: Participant) -> list[dict]:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        visible = self.context.setdefault("deal_visible", {})  # type: ignore[attr-defined]  # a dict (stubs: Mapping); one answer per match for the whole response
        if p.match_id not in visible:
            visible[p.match_id] = seeds.deal_visible(p.match, user)
        own = bool(user is not None and can_play(user, p.bot))
        return seeds.visible_faults(p.faults, deal_visible=visible[p.match_id], own_seat=own)


class MatchSerializer(serializers.ModelSerializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    participants = ParticipantBriefSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = ["id", "kind", "ladder", "rated", "game", "status", "created_at", "finished_at", "participants"]


class MatchDetailSerializer(MatchSerializer):
    participants = ParticipantSerializer(many=True, read_only=True)
    requested_by = OwnerNameField(allow_null=True, default=None)
    replay_url = serializers.SerializerMethodField()
    logs_url = serializers.SerializerMethodField(
        help_text="The bots' own logs by turn (what you may see of them: your bots' output and annotations, "
                  "public annotations of others).")
    seed = serializers.SerializerMethodField(
        help_text="The match's seed: null until the match and every match sharing its seed (a duplicate set, a "
                  "version-test pair) are over; staff always see it.")

    class Meta(MatchSerializer.Meta):
        fields = MatchSerializer.Meta.fields + [
            "params", "seed", "time_control", "status_reason", "attempts", "started_at", "engine_version",
            "requested_by", "replay_url", "logs_url"]

    def get_replay_url(self, match: Match) -> str | None:
        return reverse("api:match-replay", kwargs={"pk": match.pk}) if match.replay_path else None

    def get_logs_url(self, match: Match) -> str | None:
        return reverse("api:match-logs", kwargs={"pk": match.pk}) if match.replay_path else None

    def get_seed(self, match: Match) -> int | None:
        request = self.context.get("request")
        return visible_seed(match, getattr(request, "user", None))


class ChallengeSerializer(serializers.Serializer):
    ladder = serializers.SlugRelatedField(slug_field="slug", queryset=Ladder.objects.all(),
                                          help_text="The ladder whose game, players and time control to use.")
    bot = serializers.PrimaryKeyRelatedField(queryset=Bot.objects.all(), help_text="Your bot.")
    opponents = serializers.ListField(child=serializers.PrimaryKeyRelatedField(queryset=Bot.objects.all()),
                                      help_text="The other bots, one per remaining seat.")

    def validate(self, attrs):
        ladder, bot, opponents = attrs["ladder"], attrs["bot"], attrs["opponents"]
        user = self.context["request"].user
        if not can_play(user, bot):  # a 403, as every other action on a bot you may not play
            raise PermissionDenied(gettext("you can only challenge with your own bot (or your team's)"))
        table = [bot, *opponents]
        if len(table) != ladder.players:
            raise serializers.ValidationError(
                {"opponents": f"{ladder.name} is played by {ladder.players}: name {ladder.players - 1} opponents"})
        if len({b.pk for b in table}) != len(table):
            raise serializers.ValidationError({"opponents": "a bot can take only one seat"})
        if ladder.pk in hidden_for(user).ladders:  # a private competition's: as if it did not exist
            raise serializers.ValidationError({"ladder": f"Object with slug={ladder.slug} does not exist."})
        if not ladder.listed:  # a competition's ladder: challenges between its entries only
            enrolled = set(Rating.objects.filter(ladder=ladder, bot__in=table).values_list("bot_id", flat=True))
            outside = [b.name for b in table if b.pk not in enrolled]
            if outside:
                raise serializers.ValidationError(
                    {"opponents": f"only the competition's entries play on its ladder: {', '.join(outside)}"})
        for b in table:
            if b.game != ladder.game:
                raise serializers.ValidationError({"opponents": f"{b.name} plays {b.game}, not {ladder.game}"})
            if b.playing_version is None:
                raise serializers.ValidationError({"opponents" if b != bot else "bot":
                                                   f"{b.name} has no ready version to play"})
        return attrs
