"""REST API: staff create and edit tournaments (entries lock at the start); anyone reads them with their
standings and rounds. Mounted at /api/tournaments/."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext
from rest_framework import permissions, serializers, viewsets

from accounts.deletion import OwnerNameField
from arena import games
from arena_site.visibility import hidden_for
from botregistry.models import Bot
from botregistry.ownership import entrant
from matches.models import Match
from matches.seeds import is_staff

from . import schedule, services
from .models import Entry, Game, Round, Tournament

ENDED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
MAX_ROUND_ROBIN_GAMES = 2000  # every k-subset of the field is a table: this grows as n^k


class StaffWritesAnyoneReads(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_staff)


class EntrySerializer(serializers.ModelSerializer):
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    owner = OwnerNameField(source="bot.owner")
    version = serializers.IntegerField(source="version.number", read_only=True, allow_null=True)

    class Meta:
        model = Entry
        fields = ["id", "bot", "bot_name", "owner", "version", "seeding", "forfeit_reason", "byes"]


def secret_is_public(t: Tournament) -> bool:
    """A tournament's secret is public once it has ended and none of its matches is still to be played (a
    tournament cancelled while running may leave queued matches behind)."""
    if t.status not in ENDED:
        return False
    return not Match.objects.filter(tournament_game__round__tournament=t,
                                    status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).exists()


class GameSerializer(serializers.ModelSerializer):
    match_status = serializers.CharField(source="match.status", read_only=True, allow_null=True)
    seed = serializers.SerializerMethodField(
        help_text="Null until the game's match and every match sharing its seed are over (staff: always).")

    class Meta:
        model = Game
        fields = ["table", "set_key", "seed", "seats", "match", "match_status", "forfeit"]

    def get_seed(self, game: Game) -> int | None:
        user = getattr(self.context.get("request"), "user", None)
        if is_staff(user):
            return game.seed
        if game.match is None:  # a forfeited game is never played: its seed is shown with the rest at the end
            return game.seed if game.round.tournament.status in ENDED else None
        if not game.match.done:
            return None
        # a duplicate set's rotations share the seed: it stays hidden while any of them is still to be played
        return None if game.seed in self._unplayed_seeds(game.round.tournament_id) else game.seed

    def _unplayed_seeds(self, tournament_id: int) -> set[int]:
        """Seeds of the tournament's queued or running matches, read once per response (not once per game)."""
        cache = self.context.setdefault("_unplayed_seeds", {})  # type: ignore[attr-defined]  # a dict (stubs: Mapping)
        if tournament_id not in cache:
            cache[tournament_id] = set(Match.objects.filter(
                tournament_game__round__tournament_id=tournament_id,
                status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).values_list("seed", flat=True))
        return cache[tournament_id]


class RoundSerializer(serializers.ModelSerializer):
    games = GameSerializer(many=True, read_only=True)
    byes = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "started_at", "finished_at", "byes", "games"]


def over_limit(bots: list[Bot], limit: int) -> str | None:
    """Why `bots` break an entries-per-entrant limit (a team's bots count together), or None."""
    by_entrant: dict[tuple[str, int], list[Bot]] = {}
    for b in bots:
        by_entrant.setdefault(entrant(b), []).append(b)
    for mine in by_entrant.values():
        if len(mine) > limit and not mine[0].builtin:
            who = f"team {mine[0].team.name}" if mine[0].team else mine[0].owner.username
            return (f"{who} has {len(mine)} bots entered ({', '.join(b.name for b in mine)}); at most {limit} "
                    f"per entrant")
    return None


class TournamentSerializer(serializers.ModelSerializer):
    entries = EntrySerializer(many=True, read_only=True)
    bots = serializers.PrimaryKeyRelatedField(queryset=Bot.objects.all(), many=True, write_only=True,
                                              required=False, help_text="Entrants (bot ids); locked at the start.")

    class Meta:
        model = Tournament
        fields = ["id", "name", "game", "players", "params", "format", "duplicate", "games_per_pairing",
                  "entries_per_entrant",
                  "rounds_planned", "starts_at", "decision_ms", "bank_ms", "startup_ms", "max_faults", "seed",
                  "status", "status_reason", "current_round", "started_at", "finished_at", "entries", "bots"]
        read_only_fields = ["status", "status_reason", "current_round", "started_at", "finished_at"]

    def to_representation(self, t: Tournament) -> dict:
        data = super().to_representation(t)
        if not (is_staff(getattr(self.context.get("request"), "user", None)) or secret_is_public(t)):
            data["seed"] = None  # the secret every game seed derives from: staff only until the end
        return data

    def validate(self, attrs):
        inst = self.instance
        if inst is not None and inst.status != Tournament.Status.SCHEDULED:
            raise serializers.ValidationError(gettext("the tournament has started: its set-up and entries are locked"))
        game = attrs.get("game", inst.game if inst else None)
        players = attrs.get("players", inst.players if inst else None)
        fmt = attrs.get("format", inst.format if inst else Tournament.Format.ROUND_ROBIN)
        try:
            cls = games.game_class(game)
        except (ValueError, ImportError):
            raise serializers.ValidationError({"game": f"unknown game {game!r}; games: {', '.join(games.names())}"}) from None
        try:
            cls(players=players, **attrs.get("params", inst.params if inst else {}))
        except (TypeError, ValueError) as exc:
            raise serializers.ValidationError({"players": str(exc)}) from None
        if fmt == Tournament.Format.KNOCKOUT and players != 2:
            raise serializers.ValidationError({"format": "knockout is played by 2 players per table"})
        if not 2 <= players <= 4:
            raise serializers.ValidationError({"players": "tournament tables seat 2 to 4 players"})
        bots = attrs.get("bots")
        if bots is not None:
            wrong = [b.name for b in bots if b.game != game]
            if wrong:
                raise serializers.ValidationError({"bots": f"these bots play another game: {', '.join(wrong)}"})
            if len({b.pk for b in bots}) != len(bots):
                raise serializers.ValidationError({"bots": "a bot is listed twice"})
            if fmt == Tournament.Format.ROUND_ROBIN and len(bots) >= players:
                games_total = schedule.round_robin_games(
                    len(bots), players, games_per_pairing=attrs.get("games_per_pairing", 1),
                    duplicate=attrs.get("duplicate", False))
                if games_total > MAX_ROUND_ROBIN_GAMES:
                    raise serializers.ValidationError({"format": (
                        f"a round robin of {len(bots)} bots at {players}-player tables is {games_total} games "
                        f"(at most {MAX_ROUND_ROBIN_GAMES}): use Swiss, or fewer entrants")})
        limit = attrs.get("entries_per_entrant", inst.entries_per_entrant if inst else None)
        entered = bots if bots is not None else (
            [e.bot for e in inst.entries.select_related("bot__team", "bot__owner")] if inst else [])
        if limit is not None and (over := over_limit(entered, limit)):
            raise serializers.ValidationError({"bots": over})
        return attrs

    @transaction.atomic
    def create(self, validated):
        bots = validated.pop("bots", [])
        t = Tournament.objects.create(created_by=self.context["request"].user, **validated)
        Entry.objects.bulk_create([Entry(tournament=t, bot=b) for b in bots])
        return t

    @transaction.atomic
    def update(self, inst, validated):
        bots = validated.pop("bots", None)
        inst = super().update(inst, validated)
        if bots is not None:
            inst.entries.exclude(bot__in=bots).delete()
            have = set(inst.entries.values_list("bot_id", flat=True))
            Entry.objects.bulk_create([Entry(tournament=inst, bot=b) for b in bots if b.pk not in have])
        return inst


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()
    rounds = RoundSerializer(many=True, read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = TournamentSerializer.Meta.fields + ["standings", "rounds"]

    def get_standings(self, t: Tournament) -> list[dict]:
        if t.final_standings is not None:
            return t.final_standings
        return services.standings(t) if t.status == Tournament.Status.RUNNING else []


class TournamentViewSet(viewsets.ModelViewSet):
    permission_classes = [StaffWritesAnyoneReads]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI schema's generation: no request, no user
            return Tournament.objects.none()
        # a private competition's final: its organizers and entrants only (arena_site.visibility)
        qs = Tournament.objects.exclude(pk__in=hidden_for(self.request.user).tournaments)
        if self.action == "retrieve":
            qs = qs.prefetch_related("entries__bot__owner", "entries__version", "rounds__games__match",
                                     "rounds__byes")
        else:
            qs = qs.prefetch_related("entries__bot__owner", "entries__version")
        status = self.request.query_params.get("status")
        if status:
            if status not in Tournament.Status.values:  # e.g. a NUL byte, which PostgreSQL refuses: a 500 before
                raise serializers.ValidationError({"status": f"one of {', '.join(Tournament.Status.values)}"})
            qs = qs.filter(status=status)
        return qs

    def get_serializer_class(self):
        return TournamentDetailSerializer if self.action == "retrieve" else TournamentSerializer

    def perform_destroy(self, instance):
        if instance.status == Tournament.Status.RUNNING:
            # a running tournament is cancelled, not erased: its matches exist
            instance.status = Tournament.Status.CANCELLED
            instance.status_reason = "cancelled by staff"
            instance.save(update_fields=["status", "status_reason"])
        else:
            instance.delete()
